// flowsteer experiment: the seed experiment on the built-in model.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <algorithm>
#include <thread>

#include "cli_common.h"
#include "cli_validate.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/runs/experiment.h"

namespace flowsteer::cli {

int cmd_experiment(int argc, char** argv) {
  runs::ExperimentConfig cfg;
  system::SystemConfig& b = cfg.base;
  const system::SystemConfig defaults;
  // Default virtual time per run: 5 s warm-up (flows start over the first second) + 15 s of
  // steady state (15 service-timer periods), then the flows end over 1 s and 5 s of teardown.
  b.duration_s = 20.0;
  b.warmup_s = 5.0;
  std::vector<std::string> sizes_text;
  std::vector<std::string> kinds_text;
  std::string slot = "log", match = "tuple", json_path, csv_path, plot_path;
  bool force_check = false, no_check = false, quiet = false;
  unsigned threads = 0;

  CLI::App app{"Reproduce the 2025 seed experiment: original vs patched RFS/aRFS (spec 7.9)",
               "experiment"};
  app.add_option("--flows", b.flows, "TCP flows (default 12000)");
  app.add_option("--cpus", b.cpus, "CPUs = RX queues, 1:1 rmap (default 144)");
  app.add_option("--rps-flow-cnt", sizes_text,
                 "per-queue table sizes (default 256 512 ... 32768); comma or space separated");
  app.add_option("--variant", kinds_text,
                 "configurations, comma separated: original, patched (the ice mirror), engine "
                 "(hardware engine, patched mode), engine-original (default original,patched,engine)")
      ->delimiter(',')
      ->check(CLI::IsMember({"original", "patched", "engine", "engine-original"}));
  app.add_option("--slot", slot, "slot index: log (default, hash_32) | mask")
      ->check(CLI::IsMember({"log", "mask"}));
  app.add_option("--match", match, "ice bucket match: tuple (ICE-CMP, default) | flow_id (ICE-2020)")
      ->check(CLI::IsMember({"tuple", "flow_id"}));
  app.add_option("--duration-s", b.duration_s, "virtual seconds of traffic per run before the flows end (default 20)");
  app.add_option("--warmup-s", b.warmup_s, "warm-up seconds taken whole (default 5)");
  app.add_option("--seed", b.seed, "random seed (default 1)");
  app.add_option("--pkt-interval-us", b.pkt_interval_us,
                 "mean gap between a flow's received packets, us (default 10000)")
      ->check(CLI::Range(2.0, 1e7));
  app.add_option("--end-pkt-interval-us", b.end_pkt_interval_us,
                 "mean per-flow packet gap from --duration-s on, while the flows end, us; 0 = --pkt-interval-us "
                 "(default 220, the published latency column)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--start-spread-s", b.start_spread_s,
                 "flows start over this many seconds and end as staggered (default 1)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--teardown-s", b.teardown_s,
                 "after the last flow ends: service-task time before the client reads (default 5)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--service-delay-us", b.service_delay_us,
                 "service task: schedule to start of the run, us (default 2000)")
      ->check(CLI::Range(0u, 10000000u));
  app.add_option("--hw-delay-us", b.hw_delay_us, "filter write posted to effect, us (default 2000)")
      ->check(CLI::Range(0u, 10000000u));
  app.add_option("--walk-ns", b.walk_ns, "service task: ns per entry walked (default 100)")
      ->check(CLI::Range(0u, 100000000u));
  app.add_option("--write-ns", b.write_ns, "service task: ns per filter written (default 5000)")
      ->check(CLI::Range(0u, 100000000u));
  app.add_option("--devres-ns", b.devres_ns,
                 "service task: ns per devres node devm_kfree visits (default 30)")
      ->check(CLI::Range(0u, 100000000u));
  app.add_option("--pkt-ns", b.pkt_ns, "CPU ns per received packet on the service task's CPU (default 2500)")
      ->check(CLI::Range(0u, 100000000u));
  app.add_option("--min-service-share", b.min_service_share,
                 "service task's share of a saturated CPU (default 0.05)")
      ->check(CLI::Range(0.001, 1.0));
  app.add_option("--cpu-budget", b.cpu_budget_per_ms, "skbs a CPU drains per ms, 0 = all (default 0)");
  app.add_option("--udp-share", b.udp_share, "fraction of UDP flows (default 0)");
  app.add_option("--migrations-per-s", b.migrations_per_s, "app-thread moves per flow per second (default 0)");
  app.add_option("--threads", threads, "worker threads (default: all cores)");
  app.add_option("--json", json_path, "write results as JSON");
  app.add_option("--csv", csv_path, "write results as CSV");
  app.add_option("--plot", plot_path, "write a PNG plot (gnuplot)");
  app.add_flag("--check", force_check, "apply the shape checks even off the seed's scale");
  app.add_flag("--no-check", no_check, "do not apply the shape checks");
  app.add_flag("--quiet", quiet, "no progress on stderr");
  bool show_progress = false;
  app.add_flag("--progress", show_progress, "banner and progress on stderr (default: only when stderr is a terminal)");
  if (auto rc = parse(app, argc, argv)) return *rc;

  try {
    if (!sizes_text.empty()) {
      cfg.sizes.clear();
      for (const auto& arg : sizes_text) {  // every comma-separated item, none empty
        size_t start = 0;
        for (;;) {
          const size_t comma = arg.find(',', start);
          const std::string item = arg.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          if (item.empty()) throw std::invalid_argument("--rps-flow-cnt: empty item in " + quote(arg));
          cfg.sizes.push_back(uint32_t(parse_number(item, "--rps-flow-cnt", 1u << 24)));
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
      }
    }
  } catch (const std::invalid_argument& e) {
    return usage_error("experiment", e.what());
  }
  for (uint32_t s : cfg.sizes)
    if (s == 0) return usage_error("experiment", "--rps-flow-cnt values must be >= 1");
  if (!kinds_text.empty()) {
    cfg.kinds.clear();
    for (const auto& k : kinds_text) {
      bool engine = k.rfind("engine", 0) == 0;
      bool original = k == "original" || k == "engine-original";
      cfg.kinds.push_back({original ? kernel::Variant::kOriginal : kernel::Variant::kPatched, engine});
    }
  }
  b.slot_mode = slot == "mask" ? kernel::SlotMode::kMask : kernel::SlotMode::kLog;
  b.match = match == "flow_id" ? driver::MatchMode::kFlowId : driver::MatchMode::kTuple;
  cfg.threads = threads;
  if (std::string err = system::validate(b); !err.empty()) return usage_error("experiment", err);
  for (uint32_t s : cfg.sizes) {
    system::SystemConfig one = b;
    one.rps_flow_cnt = s;
    if (std::string err = system::validate(one); !err.empty()) return usage_error("experiment", err);
  }
  {  // memory before allocating: the runs that go at once, each with its largest tables
    uint64_t max_slots = 0;
    for (uint32_t s : cfg.sizes) max_slots = std::max<uint64_t>(max_slots, uint64_t(b.cpus) * kernel::roundup_pow_of_two(s));
    const uint64_t per_run = max_slots * 48 + uint64_t(b.flows) * 512 + (uint64_t(8) << 20);
    const uint64_t n_runs = uint64_t(cfg.sizes.size()) * cfg.kinds.size();
    const uint64_t at_once = std::min<uint64_t>(n_runs, threads ? threads : std::max(1u, std::thread::hardware_concurrency()));
    check_memory(per_run * at_once, std::to_string(at_once) + " concurrent run(s) of --cpus " + std::to_string(b.cpus) +
                                        " x --rps-flow-cnt " + std::to_string(max_slots / b.cpus));
  }
  OutputFile json_out, csv_out, plot_out;  // checked now, renamed into place after the run
  if (!json_path.empty()) json_out.open(json_path, "--json");
  if (!csv_path.empty()) csv_out.open(csv_path, "--csv");
  if (!plot_path.empty()) plot_out.open(plot_path, "--plot");

  const bool tty = isatty(STDERR_FILENO);
  if (!tty && !show_progress) quiet = true;
  if (!quiet)
    std::cerr << "flowsteer experiment: seed " << b.seed << ", " << cfg.sizes.size() * cfg.kinds.size()
              << " runs of " << b.duration_s << " s virtual\n";
  auto t0 = std::chrono::steady_clock::now();
  int last_pct = -1;
  auto progress = [&](uint64_t done, uint64_t total) {
    if (quiet || total == 0) return;
    int pct = int(100.0 * double(done) / double(total));
    if (pct > 100) pct = 100;
    if (pct == last_pct || (!tty && pct % 10 != 0)) return;
    last_pct = pct;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (tty) {
      int bar = pct / 4;
      std::fprintf(stderr, "\r[%-25s] %3d%%  %.0f s", std::string(size_t(bar), '#').c_str(), pct, el);
    } else {
      std::fprintf(stderr, "progress: %3d%%  %.0f s\n", pct, el);
    }
  };
  runs::ExperimentResult res = runs::run_experiment(cfg, progress);
  if (tty && !quiet) std::fprintf(stderr, "\n");

  const bool seed_scale = b.flows == defaults.flows && b.cpus == defaults.cpus;
  const bool apply_checks = !no_check && (force_check || seed_scale);
  if (!apply_checks) res.checks.clear();
  runs::print_table(std::cout, res);
  if (!apply_checks && !no_check)
    std::cout << "\nShape checks: skipped (not the seed's 12000 flows x 144 CPUs; --check forces them)\n";

  if (json_out.is_open()) {
    runs::write_json(json_out.stream(), res);
    json_out.commit();
  }
  if (csv_out.is_open()) {
    runs::write_csv(csv_out.stream(), res);
    csv_out.commit();
  }
  if (plot_out.is_open()) {
    if (std::string err = runs::write_plot(plot_out.write_path(), res); !err.empty())
      return usage_error("experiment", err);
    plot_out.commit_external();
  }
  return res.shape_ok() ? kExitOk : kExitCheckFailed;
}

}  // namespace flowsteer::cli
