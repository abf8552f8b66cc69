#include "flowsteer/runs/experiment.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace flowsteer::runs {

using kernel::Variant;
using C = driver::ArfsCounters;

const std::vector<SeedRow>& seed_table() {
  // spec 7.9.1 (K = 1e3, M = 1e6).
  static const std::vector<SeedRow> rows = {
      {256, 1.6e6, 1.6e6, 121.7e6, 267.6e6, 13.4e3, 5.0e3, 13.7e3, 75.2e3},
      {512, 11.5e6, 11.2e6, 65.7e6, 199.6e6, 11.2e3, 5.9e3, 11.2e3, 55.5e3},
      {1024, 16.5e6, 16.5e6, 27.1e6, 187.3e6, 11.5e3, 9.7e3, 11.5e3, 59.6e3},
      {2048, 10.5e6, 10.5e6, 12.5e6, 115.2e6, 11.8e3, 11.1e3, 15.5e3, 79.3e3},
      {4096, 5.5e6, 5.5e6, 7.2e6, 65.9e6, 11.8e3, 11.7e3, 11.8e3, 63.2e3},
      {8192, 2.7e6, 2.7e6, 3.0e6, 29.9e6, 11.9e3, 11.8e3, 11.9e3, 63.9e3},
      {16384, 1.3e6, 1.3e6, 1.4e6, 13.9e6, 11.9e3, 11.9e3, 11.9e3, 64.2e3},
      {32768, 838.1e3, 838.1e3, 965.1e3, 8.9e6, 11.9e3, 11.9e3, 11.9e3, 64.2e3},
  };
  return rows;
}

const SeedRow* seed_row(uint32_t size) {
  for (const auto& r : seed_table())
    if (r.rps_flow_cnt == size) return &r;
  return nullptr;
}

const system::SystemResult* ExperimentResult::find(uint32_t size, Variant v, bool engine) const {
  for (const auto& r : runs)
    if (r.cfg.rps_flow_cnt == size && r.cfg.variant == v && r.cfg.engine == engine) return &r;
  return nullptr;
}

bool ExperimentResult::shape_ok() const {
  return std::all_of(checks.begin(), checks.end(), [](const ShapeCheck& c) { return c.pass; });
}

double seed_value(const SeedRow& sr, Variant v, uint64_t C::*f) {
  const bool o = v == Variant::kOriginal;
  if (f == &C::add) return o ? sr.add_orig : sr.add_new;
  if (f == &C::del) return o ? sr.del_orig : sr.del_new;
  if (f == &C::steer_c) return o ? sr.steer_c_orig : sr.steer_c_new;
  return o ? sr.steer_l_orig : sr.steer_l_new;
}

CellAgreement cells_within(const ExperimentResult& r, double factor) {
  CellAgreement a;
  for (uint32_t s : r.cfg.sizes) {
    const SeedRow* sr = seed_row(s);
    if (!sr) continue;
    for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
      const system::SystemResult* x = r.find(s, v);
      if (!x) continue;
      for (auto f : {&C::add, &C::del, &C::steer_c, &C::steer_l}) {
        double ours = x->projected(f), pub = seed_value(*sr, v, f);
        ++a.compared;
        if (ours >= pub / factor && ours <= pub * factor) ++a.within;
      }
    }
  }
  return a;
}

ExperimentResult run_experiment(const ExperimentConfig& cfg,
                                const std::function<void(uint64_t, uint64_t)>& progress) {
  ExperimentResult res;
  res.cfg = cfg;
  std::vector<system::SystemConfig> jobs;
  for (uint32_t s : cfg.sizes)
    for (RunKind k : cfg.kinds) {
      system::SystemConfig c = cfg.base;
      c.rps_flow_cnt = s;
      c.variant = k.variant;
      c.engine = k.engine;
      jobs.push_back(c);
    }
  for (const auto& j : jobs)
    if (std::string err = system::validate(j); !err.empty()) throw std::invalid_argument(err);
  res.runs.resize(jobs.size());
  // The end: flows stop over start_spread_s, half of it on average at the end's rate.
  const system::SystemConfig& b = cfg.base;
  const double end_gap = b.end_pkt_interval_us > 0 ? b.end_pkt_interval_us : b.pkt_interval_us;
  const uint64_t per_run = uint64_t(double(b.flows) * (b.duration_s * 1e6 / b.pkt_interval_us +
                                                       b.start_spread_s / 2 * 1e6 / end_gap));
  const uint64_t total = per_run * jobs.size();
  std::vector<std::atomic<uint64_t>> done(jobs.size());
  for (auto& d : done) d = 0;
  std::mutex progress_mu;
  auto report = [&] {
    if (!progress) return;
    uint64_t sum = 0;
    for (auto& d : done) sum += d.load(std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(progress_mu);
    progress(sum, total);
  };

  std::atomic<size_t> next{0};
  unsigned n = cfg.threads ? cfg.threads : std::max(1u, std::thread::hardware_concurrency());
  n = std::min<unsigned>(n, unsigned(jobs.size()));
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      res.runs[i] = system::run_system(jobs[i], [&, i](uint64_t pk) {
        done[i] = pk;
        report();
      });
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  res.checks = check_shape(res);
  return res;
}

namespace {

std::string human(double v) {
  char buf[32];
  if (v < 1e3) std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (v < 1e6) std::snprintf(buf, sizeof buf, "%.1fK", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.1fM", v / 1e6);
  return buf;
}

std::string ratio(double a, double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", b > 0 ? a / b : INFINITY);
  return buf;
}

}  // namespace

std::vector<ShapeCheck> check_shape(const ExperimentResult& r) {
  std::vector<ShapeCheck> out;
  auto P = [](const system::SystemResult* s, uint64_t C::*f) { return s ? s->projected(f) : 0.0; };
  const double flows = r.cfg.base.flows;
  for (uint32_t s : r.cfg.sizes) {
    const system::SystemResult* o = r.find(s, Variant::kOriginal);
    const system::SystemResult* p = r.find(s, Variant::kPatched);
    std::string at = " at rps_flow_cnt " + std::to_string(s);
    if (p && s >= 512) {
      double a = P(p, &C::add);
      out.push_back({"patched Add within 0.85..1.25 x flows" + at, a >= 0.85 * flows && a <= 1.25 * flows,
                     human(a) + " = " + ratio(a, flows) + " x flows"});
    }
    if (o && p && s <= 8192) {
      double ao = P(o, &C::add), ap = P(p, &C::add);
      out.push_back({"original Add >= 20 x patched Add" + at, ao >= 20 * ap,
                     human(ao) + " vs " + human(ap) + " (" + ratio(ao, ap) + "x)"});
    }
    if (o && p) {
      double co = P(o, &C::steer_c), cp = P(p, &C::steer_c);
      out.push_back({"original Steer-C >= 10 x patched Steer-C" + at, co >= 10 * cp,
                     human(co) + " vs " + human(cp) + " (" + ratio(co, cp) + "x)"});
    }
    for (const system::SystemResult* x : {o, p, r.find(s, Variant::kPatched, true)}) {
      if (!x) continue;
      double a = P(x, &C::add), d = P(x, &C::del);
      out.push_back({"Del <= Add (" + system::config_name(x->cfg) + ")" + at,
                     d <= a, human(d) + " <= " + human(a)});
    }
    if (o && s > 2048) {
      const system::SystemResult* prev = r.find(s / 2, Variant::kOriginal);
      if (prev) {
        double a = P(o, &C::add), b = P(prev, &C::add);
        out.push_back({"original Add falls: " + std::to_string(s) + " <= 0.75 x " + std::to_string(s / 2),
                       a <= 0.75 * b, human(a) + " vs " + human(b) + " (" + ratio(a, b) + "x)"});
      }
    }
  }
  return out;
}

void print_table(std::ostream& os, const ExperimentResult& r) {
  const system::SystemConfig& b = r.cfg.base;
  os << "flowsteer experiment: " << b.flows << " flows, " << b.cpus << " CPUs = RX queues, seed "
     << b.seed << "; simulated per run: flows start over " << b.start_spread_s << " s, traffic to "
     << b.duration_s << " s (warm-up " << b.warmup_s << " s, one packet per flow per "
     << b.pkt_interval_us << " us), each flow ends " << b.duration_s << " s after its start (from "
     << b.duration_s << " s one packet per "
     << (b.end_pkt_interval_us > 0 ? b.end_pkt_interval_us : b.pkt_interval_us) << " us), then "
     << b.teardown_s << " s of teardown; the steady rate fills " << b.projection_s << " s\n\n";
  auto cell = [](std::ostringstream& ss, const std::string& v, int w) {
    ss << std::setw(w) << v << " |";
  };
  os << "Counts projected to the seed's 8-minute runs; 'seed' rows are the published values "
        "(spec 7.9.1).\n";
  std::ostringstream hdr;
  hdr << std::left << std::setw(14) << "rps_flow_cnt" << " |" << std::right;
  const bool with_engine = std::any_of(r.runs.begin(), r.runs.end(),
                                       [](const system::SystemResult& x) { return x.cfg.engine; });
  for (const char* h : {"Add orig", "Del orig", "Steer-C orig", "Steer-L orig", "Add new", "Del new",
                        "Steer-C new", "Steer-L new"})
    cell(hdr, h, 12);
  if (with_engine)
    for (const char* h : {"Add engine", "Del engine", "Steer-C eng"}) cell(hdr, h, 12);
  os << hdr.str() << "\n" << std::string(hdr.str().size(), '-') << "\n";
  for (uint32_t s : r.cfg.sizes) {
    const system::SystemResult* o = r.find(s, Variant::kOriginal);
    const system::SystemResult* p = r.find(s, Variant::kPatched);
    std::ostringstream ours;
    ours << std::left << std::setw(14) << s << " |" << std::right;
    for (const system::SystemResult* x : {o, p})
      for (auto f : {&C::add, &C::del, &C::steer_c, &C::steer_l})
        cell(ours, x ? human(x->projected(f)) : "-", 12);
    if (with_engine) {
      const system::SystemResult* e = r.find(s, Variant::kPatched, true);
      for (auto f : {&C::add, &C::del, &C::steer_c}) cell(ours, e ? human(e->projected(f)) : "-", 12);
    }
    os << ours.str() << "\n";
    if (const SeedRow* sr = seed_row(s)) {
      std::ostringstream seed;
      seed << std::left << std::setw(14) << "  seed" << " |" << std::right;
      for (double v : {sr->add_orig, sr->del_orig, sr->steer_c_orig, sr->steer_l_orig, sr->add_new,
                       sr->del_new, sr->steer_c_new, sr->steer_l_new})
        cell(seed, human(v), 12);
      os << seed.str() << "\n";
      std::ostringstream rat;
      rat << std::left << std::setw(14) << "  ours/seed" << " |" << std::right;
      for (int vi = 0; vi < 2; ++vi) {
        const system::SystemResult* x = vi == 0 ? o : p;
        const Variant v = vi == 0 ? Variant::kOriginal : Variant::kPatched;
        for (auto f : {&C::add, &C::del, &C::steer_c, &C::steer_l}) {
          if (!x) {
            cell(rat, "-", 12);
            continue;
          }
          double q = x->projected(f) / seed_value(*sr, v, f);
          char buf[32];
          std::snprintf(buf, sizeof buf, "%.2fx%s", q, (q > 2.0 || q < 0.5) ? "*" : "");
          cell(rat, buf, 12);
        }
      }
      os << rat.str() << "\n";
    }
  }
  {
    CellAgreement a = cells_within(r, 2.0);
    if (a.compared > 0)
      os << a.within << " of " << a.compared << " cells within 2x of the published values"
         << " (* = outside)\n";
  }
  if (with_engine)
    os << "'engine': the Verilog engine's golden model replaces NIC + ice; it programs filters "
          "inline (patched mode) and the host runtime expires them.\n";
  os << "\nPer run: adds per flow (projected), packet shares (hw = via installed filter, sw = RFS "
        "to another CPU's queue, local = RSS queue already right, none = no RFS CPU), driver errors "
        "(steer calls refused: engine bucket full), speed.\n";
  os << std::left << std::setw(14) << "rps_flow_cnt" << std::setw(16) << "configuration" << std::right
     << std::setw(10) << "adds/flow" << std::setw(8) << "hw %" << std::setw(8) << "sw %" << std::setw(9)
     << "local %" << std::setw(8) << "none %" << std::setw(10) << "sync runs" << std::setw(9)
     << "drv err" << std::setw(11)
     << "packets" << std::setw(9) << "Mpkt/s" << "\n";
  for (const auto& x : r.runs) {
    const auto& sh = x.shares;
    double n = sh.packets ? double(sh.packets) : 1.0;
    char line[256];
    std::snprintf(line, sizeof line, "%-14u%-16s%10.2f%8.1f%8.1f%9.1f%8.1f%10llu%9llu%11s%9.2f\n",
                  x.cfg.rps_flow_cnt, system::config_name(x.cfg).c_str(),
                  x.projected(&C::add) / x.cfg.flows, 100.0 * sh.hw_steered / n,
                  100.0 * sh.sw_steered / n, 100.0 * sh.rss_local / n, 100.0 * sh.not_steered / n,
                  (unsigned long long)x.service_runs, (unsigned long long)x.driver_errors,
                  human(double(sh.packets)).c_str(),
                  x.wall_s > 0 ? sh.packets / x.wall_s / 1e6 : 0.0);
    os << line;
  }
  if (!r.checks.empty()) {
    os << "\nShape checks (the published table's shape):\n";
    for (const auto& c : r.checks)
      os << "  [" << (c.pass ? "ok" : "FAIL") << "] " << c.name << ": " << c.detail << "\n";
  }
}

static nlohmann::json counters_json(const C& c) {
  return {{"add", c.add}, {"del", c.del}, {"steer_c", c.steer_c}, {"steer_l", c.steer_l}};
}

static nlohmann::json paths_json(const system::SystemResult& x) {
  nlohmann::json j;
  for (int i = 0; i < kernel::kSetRpsCpuPathCount; ++i)
    j[kernel::path_name(static_cast<kernel::SetRpsCpuPath>(i))] = x.paths[size_t(i)];
  return j;
}

static nlohmann::json gates_json(const system::SystemResult& x) {
  nlohmann::json j;
  for (int i = 0; i < kernel::kGateRowCount; ++i)
    j[kernel::gate_row_name(static_cast<kernel::GateRow>(i))] = x.gate_rows[size_t(i)];
  return j;
}

void write_json(std::ostream& os, const ExperimentResult& r) {
  using nlohmann::json;
  const system::SystemConfig& b = r.cfg.base;
  json j;
  j["config"] = {{"flows", b.flows},
                 {"cpus", b.cpus},
                 {"duration_s", b.duration_s},
                 {"warmup_s", b.warmup_s},
                 {"projection_s", b.projection_s},
                 {"start_spread_s", b.start_spread_s},
                 {"teardown_s", b.teardown_s},
                 {"pkt_interval_us", b.pkt_interval_us},
                 {"end_pkt_interval_us", b.end_pkt_interval_us},
                 {"service_delay_us", b.service_delay_us},
                 {"service_period_ms", b.service_period_ms},
                 {"hw_delay_us", b.hw_delay_us},
                 {"walk_ns", b.walk_ns},
                 {"write_ns", b.write_ns},
                 {"devres_ns", b.devres_ns},
                 {"pkt_ns", b.pkt_ns},
                 {"min_service_share", b.min_service_share},
                 {"cpu_budget_per_ms", b.cpu_budget_per_ms},
                 {"lut_size", b.lut_size},
                 {"udp_share", b.udp_share},
                 {"migrations_per_s", b.migrations_per_s},
                 {"slot", kernel::slot_mode_name(b.slot_mode)},
                 {"match", b.match == driver::MatchMode::kTuple ? "tuple" : "flow_id"},
                 {"seed", b.seed}};
  j["runs"] = json::array();
  for (const auto& x : r.runs) {
    json run = {{"rps_flow_cnt", x.cfg.rps_flow_cnt},
                {"configuration", system::config_name(x.cfg)},
                {"variant", kernel::variant_name(x.cfg.variant)},
                {"engine", x.cfg.engine},
                {"at_warmup", counters_json(x.at_warmup)},
                {"at_steady_end", counters_json(x.at_steady_end)},
                {"at_end", counters_json(x.at_end)},
                {"projected",
                 {{"add", x.projected(&C::add)},
                  {"del", x.projected(&C::del)},
                  {"steer_c", x.projected(&C::steer_c)},
                  {"steer_l", x.projected(&C::steer_l)}}},
                {"packets",
                 {{"total", x.shares.packets},
                  {"hw_steered", x.shares.hw_steered},
                  {"sw_steered", x.shares.sw_steered},
                  {"rss_local", x.shares.rss_local},
                  {"not_steered", x.shares.not_steered}}},
                {"service_runs", x.service_runs},
                {"timer_runs", x.timer_runs},
                {"service_busy_s", x.service_busy_s},
                {"service_share", x.service_share},
                {"hw_writes", x.hw_writes},
                {"filters_installed_end", x.filters_installed_end},
                {"driver_errors", x.driver_errors},
                {"hw_full_rejects", x.hw_full_rejects},
                {"set_rps_cpu_paths", paths_json(x)},
                {"gate_rows", gates_json(x)},
                {"wall_s", x.wall_s}};
    if (const SeedRow* sr = seed_row(x.cfg.rps_flow_cnt); sr && !x.cfg.engine) {
      bool o = x.cfg.variant == Variant::kOriginal;
      run["seed"] = {{"add", o ? sr->add_orig : sr->add_new},
                     {"del", o ? sr->del_orig : sr->del_new},
                     {"steer_c", o ? sr->steer_c_orig : sr->steer_c_new},
                     {"steer_l", o ? sr->steer_l_orig : sr->steer_l_new}};
    }
    j["runs"].push_back(run);
  }
  j["checks"] = json::array();
  for (const auto& c : r.checks) j["checks"].push_back({{"name", c.name}, {"pass", c.pass}, {"detail", c.detail}});
  j["shape_ok"] = r.shape_ok();
  CellAgreement a = cells_within(r, 2.0);
  j["cells_within_2x"] = a.within;
  j["cells_compared"] = a.compared;
  os << j.dump(2) << "\n";
}

void write_csv(std::ostream& os, const ExperimentResult& r) {
  os << "rps_flow_cnt,configuration,add,del,steer_c,steer_l,add_raw,del_raw,steer_c_raw,steer_l_raw,"
        "seed_add,seed_del,seed_steer_c,seed_steer_l,packets,hw_steered,sw_steered,rss_local,"
        "not_steered,service_runs,wall_s\n";
  for (const auto& x : r.runs) {
    const SeedRow* sr = seed_row(x.cfg.rps_flow_cnt);
    bool o = x.cfg.variant == Variant::kOriginal;
    os << x.cfg.rps_flow_cnt << ',' << system::config_name(x.cfg);
    for (auto f : {&C::add, &C::del, &C::steer_c, &C::steer_l}) os << ',' << std::llround(x.projected(f));
    for (auto f : {&C::add, &C::del, &C::steer_c, &C::steer_l}) os << ',' << x.at_end.*f;
    if (sr && !x.cfg.engine) {
      const double v[4] = {o ? sr->add_orig : sr->add_new, o ? sr->del_orig : sr->del_new,
                           o ? sr->steer_c_orig : sr->steer_c_new, o ? sr->steer_l_orig : sr->steer_l_new};
      for (double x : v) os << ',' << x;
    } else {
      os << ",,,,";
    }
    os << ',' << x.shares.packets << ',' << x.shares.hw_steered << ',' << x.shares.sw_steered << ','
       << x.shares.rss_local << ',' << x.shares.not_steered << ',' << x.service_runs << ',' << x.wall_s
       << "\n";
  }
}

std::string write_plot(const std::string& png_path, const ExperimentResult& r) {
  char tmpl[] = "/tmp/flowsteer-plot-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return "cannot create a temporary data file";
  close(fd);
  std::string data = tmpl;
  {
    std::ofstream d(data);
    d << "# size add_orig add_new steerc_orig steerc_new seed_add_orig seed_add_new seed_steerc_orig "
         "seed_steerc_new add_engine\n";
    for (uint32_t s : r.cfg.sizes) {
      const system::SystemResult* o = r.find(s, Variant::kOriginal);
      const system::SystemResult* p = r.find(s, Variant::kPatched);
      const SeedRow* sr = seed_row(s);
      auto v = [](const system::SystemResult* x, uint64_t C::*f) {
        return x ? std::to_string(x->projected(f)) : std::string("NaN");
      };
      d << s << ' ' << v(o, &C::add) << ' ' << v(p, &C::add) << ' ' << v(o, &C::steer_c) << ' '
        << v(p, &C::steer_c);
      if (sr) d << ' ' << sr->add_orig << ' ' << sr->add_new << ' ' << sr->steer_c_orig << ' ' << sr->steer_c_new;
      else d << " NaN NaN NaN NaN";
      d << ' ' << v(r.find(s, Variant::kPatched, true), &C::add) << "\n";
    }
  }
  std::string script =
      "set terminal pngcairo size 1000,640 noenhanced\n"
      "set output '" + png_path + "'\n"
      "set title 'aRFS filter churn, projected to 8-minute runs (" + std::to_string(r.cfg.base.flows) +
      " flows, " + std::to_string(r.cfg.base.cpus) + " CPUs)'\n"
      "set logscale xy\nset yrange [5000:*]\nset xlabel 'rps_flow_cnt'\nset ylabel 'count'\nset grid\n"
      "set xtics (256,512,1024,2048,4096,8192,16384,32768)\nset key outside right\n"
      "plot '" + data + "' u 1:2 w lp lw 2 pt 7 lc rgb '#b2182b' t 'Add original', "
      "'' u 1:3 w lp lw 2 pt 5 lc rgb '#1a9850' t 'Add patched', "
      "'' u 1:10 w lp lw 2 pt 13 dt 3 lc rgb '#000000' t 'Add engine', "
      "'' u 1:4 w lp lw 2 pt 9 dt 2 lc rgb '#f46d43' t 'Steer-C original', "
      "'' u 1:5 w lp lw 2 pt 11 dt 2 lc rgb '#4575b4' t 'Steer-C patched', "
      "'' u 1:6 w p pt 6 ps 2 lc rgb '#b2182b' t 'seed Add original', "
      "'' u 1:7 w p pt 4 ps 2 lc rgb '#1a9850' t 'seed Add patched', "
      "'' u 1:8 w p pt 8 ps 2 lc rgb '#f46d43' t 'seed Steer-C original', "
      "'' u 1:9 w p pt 10 ps 2 lc rgb '#4575b4' t 'seed Steer-C patched'\n";
  FILE* gp = popen("gnuplot 2>&1", "w");
  if (!gp) {
    std::remove(data.c_str());
    return "cannot start gnuplot (install it with scripts/setup.sh)";
  }
  std::fputs(script.c_str(), gp);
  int rc = pclose(gp);
  std::remove(data.c_str());
  if (rc != 0) return "gnuplot failed writing '" + png_path + "' (is gnuplot installed, the folder writable?)";
  return {};
}

}  // namespace flowsteer::runs
