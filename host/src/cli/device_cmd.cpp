// flowsteer device: the host runtime on a backend.
#include <cctype>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "cli_common.h"
#include "cli_progress.h"
#include "cli_validate.h"
#include "flowsteer/device/engine_port.h"
#include "flowsteer/runs/device_run.h"
#include "flowsteer/driver/engine_driver.h"
#if defined(FLOWSTEER_HAVE_VERILATOR)
#include "mover_model.h"
#include "verilator_port.h"
#endif

namespace flowsteer::cli {

namespace {
// The sizes a card's CAPS registers report, for the model it is compared with (the rps_map
// pool is not in CAPS: the map's default).
engine::EngineCaps card_caps(bus::RegisterBus& bus) {
  const driver::EngineCapsRead c = driver::EngineDriver(bus).caps();
  engine::EngineCaps e;
  e.lut_log2 = c.lut_log2, e.cpu_log2 = c.cpu_log2, e.queue_log2 = c.queue_log2, e.slot_log2 = c.slot_log2;
  e.flt_bucket_bits = c.flt_bucket_bits, e.flt_ways = c.flt_ways, e.flt_id_width = c.flt_id_width;
  e.sock_log2 = c.sock_log2, e.evt_log2 = c.evt_log2;
  return e;
}


// A cpumask as sysfs takes it (bitmap_parse): hex digits, most significant first, optionally
// in comma-separated 32-bit groups ("ff", "1,00000000"); an optional 0x. 32-bit groups out,
// group 0 = CPUs 0-31.
std::vector<uint32_t> parse_cpumask(const std::string& text) {
  const std::string what = "--change rps_cpus=" + quote(text);
  std::string v = text.rfind("0x", 0) == 0 ? text.substr(2) : text;
  std::vector<std::string> groups(1);
  for (char ch : v) {
    if (ch == ',') {
      groups.emplace_back();
    } else if (std::isxdigit(static_cast<unsigned char>(ch))) {
      groups.back() += ch;
    } else {
      throw UsageError(what + ": not a hex cpumask");
    }
  }
  if (groups.size() > 1)
    for (const auto& g : groups)
      if (g.empty() || g.size() > 8) throw UsageError(what + ": a comma group holds 1 to 8 hex digits");
  if (groups.size() == 1 && groups[0].empty()) throw UsageError(what + ": not a hex cpumask");
  std::string digits;  // groups of a comma form are 8 digits wide each
  for (size_t i = 0; i < groups.size(); ++i)
    digits += (groups.size() > 1 && i > 0 ? std::string(8 - groups[i].size(), '0') : "") + groups[i];
  if (digits.size() > 65536 / 4) throw UsageError(what + ": more than 65536 CPUs");
  std::vector<uint32_t> mask((digits.size() + 7) / 8, 0);
  for (size_t i = 0; i < digits.size(); ++i) {  // digit i from the right is bits 4i..4i+3
    const char ch = digits[digits.size() - 1 - i];
    const uint32_t d = uint32_t(std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : std::tolower(ch) - 'a' + 10);
    mask[i / 8] |= d << (4 * (i % 8));
  }
  return mask;
}

// --change KNOB=VALUE@MS: ntuple=on|off, cpu<N>/online=0|1, rx-<Q>/rps_flow_cnt=N,
// rx-<Q>/rps_cpus=HEX, rps_sock_flow_entries=N, engine=reset (a fault). UsageError (one line) for anything else.
runs::KnobChange parse_change(const std::string& text) {
  using Kind = runs::KnobChange::Kind;
  const size_t eq = text.find('='), at = text.rfind('@');
  if (eq == std::string::npos || at == std::string::npos || at < eq)
    throw UsageError("--change " + quote(text) + ": expected KNOB=VALUE@MS");
  const std::string knob = text.substr(0, eq), value = text.substr(eq + 1, at - eq - 1);
  runs::KnobChange c;
  c.at_ms = parse_u64(text.substr(at + 1), "--change time (ms)", 3600000000ull);
  if (knob == "ntuple") {
    if (value != "on" && value != "off") throw UsageError("--change ntuple=" + quote(value) + ": on or off");
    c.kind = Kind::kNtuple;
    c.value = value == "on";
  } else if (knob == "engine") {
    if (value != "reset") throw UsageError("--change engine=" + quote(value) + ": only engine=reset");
    c.kind = Kind::kEngineReset;
  } else if (knob == "rps_sock_flow_entries") {
    c.kind = Kind::kSockFlowEntries;
    c.value = parse_u64(value, "--change rps_sock_flow_entries");
  } else if (knob.rfind("cpu", 0) == 0 && knob.size() > 10 && knob.compare(knob.size() - 7, 7, "/online") == 0) {
    c.kind = Kind::kCpuOnline;
    c.index = uint32_t(parse_u64(knob.substr(3, knob.size() - 10), "--change CPU", 65535));
    c.value = parse_u64(value, "--change cpu online (0 or 1)", 1);
  } else if (knob.rfind("rx-", 0) == 0 && knob.size() > 16 &&
             knob.compare(knob.size() - 13, 13, "/rps_flow_cnt") == 0) {
    c.kind = Kind::kRpsFlowCnt;
    c.index = uint32_t(parse_u64(knob.substr(3, knob.size() - 16), "--change RX queue", 65535));
    c.value = parse_u64(value, "--change rps_flow_cnt");
  } else if (knob.rfind("rx-", 0) == 0 && knob.size() > 12 && knob.compare(knob.size() - 9, 9, "/rps_cpus") == 0) {
    c.kind = Kind::kRpsCpus;
    c.index = uint32_t(parse_u64(knob.substr(3, knob.size() - 12), "--change RX queue", 65535));
    c.mask = parse_cpumask(value);
  } else {
    throw UsageError("--change " + quote(knob) +
                     ": not a knob (ntuple, cpu<N>/online, rx-<Q>/rps_flow_cnt, rx-<Q>/rps_cpus, rps_sock_flow_entries, engine)");
  }
  return c;
}

}  // namespace

int cmd_device(int argc, char** argv) {
  CLI::App app{"Run the E810-style aRFS runtime through the register-level driver on a backend: "
               "the golden model or the simulated RTL with synthetic flows or a pcap, or an Alveo "
               "card through XRT",
               "device"};
  std::string backend = "model", xclbin, hash = "toeplitz-symxor", variant = "patched", json_path;
  std::string model_caps = "map", build = "standard", trace;
  unsigned device_index = 0;
  driver::EngineSetup setup;
  runs::DeviceWorkload w;
  double frame_gap = 0.0, rec_ready = 1.0;
  app.add_option("--backend", backend,
                 "model (default) | verilator | movers (verilator behind a model of the card's data "
                 "movers) | xrt")
      ->check(CLI::IsMember({"model", "verilator", "movers", "xrt"}));
  app.add_option("--xclbin", xclbin, "xclbin with the flowsteer kernel (xrt backend)");
  app.add_option("--device", device_index, "card index (xrt backend, default 0)");
  app.add_option("--pcap", w.pcap, "replay this Ethernet capture instead of synthetic flows");
  app.add_option("--cpus", setup.nr_cpu_ids, "nr_cpu_ids = RX queues (default 16)")->check(CLI::Range(1u, 65535u));
  app.add_option("--rps-flow-cnt", setup.rps_flow_cnt,
                 "rps_flow_cnt of every queue, rounded up like sysfs; 0 = no tables (default 256)");
  app.add_option("--sock-flow-entries", setup.rps_sock_flow_entries,
                 "net.core.rps_sock_flow_entries (default cpus x rounded rps_flow_cnt)");
  app.add_option("--flows", w.flows, "synthetic flows (default 1000)")->check(CLI::Range(1u, 1000000u));
  app.add_option("--udp-percent", w.udp_percent, "share of UDP flows (default 0)")->check(CLI::Range(0u, 100u));
  app.add_option("--duration-s", w.duration_s, "virtual (model, verilator) or wall-clock (card) seconds (default 5)")
      ->check(CLI::Range(0.001, 3600.0));
  app.add_option("--traffic-s", w.traffic_s, "synthetic frames stop after this; the runtime runs on (default: "
                                             "the whole duration)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--service-period-ms", w.service_period_ms, "service-task period (default 1000)")
      ->check(CLI::Range(1u, 3600000u));
  app.add_option("--seed", w.seed, "workload seed (default 1)");
  app.add_option("--hash", hash, "toeplitz | toeplitz-symxor (default) | jhash-sym")
      ->check(CLI::IsMember({"toeplitz", "toeplitz-symxor", "jhash-sym"}));
  app.add_option("--variant", variant, "original | patched (default)")->check(CLI::IsMember({"original", "patched"}));
  app.add_option("--model-caps", model_caps,
                 "model backend sizes: map (the register map's, default) | verilator (the simulated "
                 "engine's, to compare with --backend verilator)")
      ->check(CLI::IsMember({"map", "verilator"}));
  app.add_option("--build", build, "verilator build: standard (default) | small")
      ->check(CLI::IsMember({"standard", "small"}));
  app.add_option("--frame-gap", frame_gap, "verilator: idle probability before a frame beat (default 0)")
      ->check(CLI::Range(0.0, 0.99));
  app.add_option("--rec-ready", rec_ready, "verilator: record sink ready probability (default 1)")
      ->check(CLI::Range(0.01, 1.0));
  app.add_option("--trace", trace, "verilator: FST trace file");
  app.add_option("--batch", w.max_batch, "frames per drain within a millisecond (default 0 = all; "
                                         "results do not depend on it)");
  app.add_option("--json", json_path, "write the report (or the --show listing) as JSON");
  std::string show_what = "report";
  app.add_option("--show", show_what,
                 "report (default) | filters (ethtool -n) | stats (ethtool -S) | knobs (sysfs/sysctl paths)")
      ->check(CLI::IsMember({"report", "filters", "stats", "knobs"}));
  std::vector<std::string> change_text;
  app.add_option("--change", change_text,
                 "KNOB=VALUE@MS while traffic runs: ntuple=on|off, cpu<N>/online=0|1, "
                 "rx-<Q>/rps_flow_cnt=N, rx-<Q>/rps_cpus=HEX, rps_sock_flow_entries=N, engine=reset (repeatable)");
  bool progress = false;
  app.add_flag("--progress", progress, "banner and progress on stderr (default: only when stderr is a terminal)");
  if (auto rc = parse(app, argc, argv)) return *rc;
  try {
    for (const auto& t : change_text) w.changes.push_back(parse_change(t));
  } catch (const UsageError& e) {
    return usage_error("device", e.what());
  }
  std::stable_sort(w.changes.begin(), w.changes.end(),
                   [](const runs::KnobChange& a, const runs::KnobChange& b) { return a.at_ms < b.at_ms; });
  auto print = [&](const runs::DeviceReport& r) {
    if (show_what == "filters") runs::print_filters_ethtool(std::cout, r);
    else if (show_what == "stats") runs::print_stats_ethtool(std::cout, r);
    else if (show_what == "knobs") runs::print_knobs(std::cout, r);
    else runs::print_device_report(std::cout, r);
  };
  setup.num_rx_queues = setup.nr_cpu_ids;
  setup.variant = variant == "original" ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  setup.hash_mode = hash == "toeplitz"          ? nic::HashMode::kToeplitz
                    : hash == "toeplitz-symxor" ? nic::HashMode::kToeplitzSymXor
                                                : nic::HashMode::kJhashSym;
#if !defined(FLOWSTEER_HAVE_VERILATOR)
  if (backend == "verilator" || backend == "movers" || model_caps == "verilator")
    return usage_error("device", "this flowsteer was built without the simulated engine (configure with "
                                 "-DFLOWSTEER_WITH_RTL=ON and Verilator 5)");
#endif
  if (backend == "xrt" && xclbin.empty()) return usage_error("device", "--backend xrt needs --xclbin FILE");
  const bool sim_backend = backend == "verilator" || backend == "movers";
  if (!sim_backend && (!trace.empty() || frame_gap != 0.0 || rec_ready != 1.0))
    return usage_error("device", "--trace, --frame-gap and --rec-ready need --backend verilator or movers");
  if (!w.pcap.empty()) {  // the capture is held in memory: about its size again, at worst
    struct stat st {};
    if (stat(w.pcap.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      check_memory(uint64_t(st.st_size) * 3, "--pcap " + quote(w.pcap));
  }
  // the synthetic frames: one per flow, ~100 bytes each with its bookkeeping
  check_memory(uint64_t(w.flows) * 160, "--flows " + std::to_string(w.flows));
  OutputFile json, wave;
  if (!json_path.empty()) json.open(json_path, "--json");
  if (!trace.empty()) wave.open(trace, "--trace");
  const bool show = progress || isatty(STDERR_FILENO);
  // The banner once the engine took the setup (errors before it are one line); then progress.
  Progress bar("device", show, 0, "ms of virtual time");
  bool banner = false;
  auto hook = [&](uint64_t now, uint64_t end, uint64_t frames) {
    if (!show) return;
    if (!banner) {
      std::fprintf(stderr, "flowsteer device: %s backend, seed %llu\n", backend.c_str(), (unsigned long long)w.seed);
      banner = true;
      bar.set_total(end);
    }
    (void)frames;
    bar.update(now);
  };
  runs::DeviceReport rep;
  try {
    std::unique_ptr<device::EnginePort> port;
    if (backend == "model") {
      engine::EngineCaps caps;  // the register map's implemented sizes
#if defined(FLOWSTEER_HAVE_VERILATOR)
      if (model_caps == "verilator")
        caps = sim::verilator_caps(build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard);
#endif
      port = device::open_model_port(caps);
    } else if (sim_backend) {
#if defined(FLOWSTEER_HAVE_VERILATOR)
      // One setup for both: the model of the build's sizes runs first (it also refuses a
      // setup the build cannot hold, before the slow run), then the RTL, directly or through
      // the model of the data movers; the two reports must be equal.
      const sim::EngineBuild eb = build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
      auto model = device::open_model_port(sim::verilator_caps(eb));
      const runs::DeviceReport m = runs::run_device(*model, setup, w);
      sim::EngineSimOptions o;
      o.build = eb;
      o.seed = w.seed;
      o.frame_gap = frame_gap;
      o.rec_ready = rec_ready;
      o.trace_path = trace.empty() ? "" : wave.write_path();
      port = backend == "verilator" ? sim::open_verilator_port(o) : sim::open_mover_model_port(o);
      runs::DeviceWorkload wv = w;
      wv.progress = hook;
      rep = runs::run_device(*port, setup, wv);
      bar.done();
      port.reset();  // closes the waveform
      if (!trace.empty()) wave.commit_external();
      print(rep);
      if (const std::string diff = runs::first_difference(m, rep); !diff.empty()) {
        std::cerr << "flowsteer device: the simulated engine differs from the model of its build: "
                  << one_line(diff) << "\n";
        return kExitCheckFailed;
      }
#endif
    } else {
      // frames (synthetic or --pcap) need the xclbin's data movers; without them the card's
      // traffic comes from the network and only the registers are driven
      port = device::open_xrt_port(xclbin, device_index, !w.pcap.empty());
    }
    if (!sim_backend) {
      // a card with a frame port runs the same frames as the model of its sizes: equal reports
      runs::DeviceReport m;
      const bool compare = backend == "xrt" && port->frames();
      if (compare) m = runs::run_device(*device::open_model_port(card_caps(port->bus())), setup, w);
      runs::DeviceWorkload wm = w;
      wm.progress = hook;
      rep = runs::run_device(*port, setup, wm);
      bar.done();
      print(rep);
      if (compare)
        if (const std::string diff = runs::first_difference(m, rep); !diff.empty()) {
          std::cerr << "flowsteer device: the card differs from the model of its sizes: " << one_line(diff) << "\n";
          return kExitCheckFailed;
        }
    }
  } catch (const bus::DeviceError& e) {
    return usage_error("device", e.what());
  } catch (const std::invalid_argument& e) {
    return usage_error("device", e.what());
  } catch (const std::runtime_error& e) {  // unreadable pcap
    return usage_error("device", e.what());
  }
  if (json.is_open()) {
    if (show_what == "report") runs::write_device_json(json.stream(), rep);
    else runs::write_listing_json(json.stream(), rep, show_what);
    json.commit();
  }
  return kExitOk;
}

}  // namespace flowsteer::cli
