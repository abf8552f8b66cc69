// flowsteer conform: random traffic through a simulated engine top, every record and
// register answer checked against the golden model (sim/verilator Scoreboard).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_validate.h"
#include "flowsteer/device/engine_port.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/runs/device_run.h"
#include "flowsteer/xrt/xrt_bus.h"
#include "frame_gen.h"

#ifdef FLOWSTEER_HAVE_VERILATOR
#include "mix.h"
#include "mover_model.h"
#include "stimulus.h"
#include "verilator_port.h"
#endif

namespace flowsteer::cli {

namespace {

struct ConformArgs {
  uint64_t packets = 100000, seed = 1;
  std::string trace, build = "standard", json_path;
  double gap = 0.1, ready = 0.8;
  bool no_commands = false, single_beat = false, progress = false;
  std::string mix;                   // named mix (sim/verilator/mix.h); "all" = every mix
  bool throughput = false;           // mix without gaps and back-pressure, table output
  uint32_t txn_every = 0;            // mix: one register transaction per N packets
  bool packets_set = false;
  int hash_mode = -1, patched = -1;  // -1: drawn from the seed
  std::string command_line;
  std::string xclbin;                // --backend xrt
  unsigned device_index = 0;
};

std::string record_text(const engine::OutputRecord& r) {
  char b[200];
  std::snprintf(b, sizeof b, "class %u hash 0x%08x queue %u filter %s%u cpu %d action %u steer_id %u error %d",
                unsigned(r.cls), r.hash, unsigned(r.queue), r.filter_hit ? "hit " : "miss ", r.filter_id, r.cpu,
                unsigned(r.action), r.steer_id, r.error);
  return b;
}

// A backend with a frame port against the golden model of its sizes, under one setup: random
// frames (half of them repeats of recent ones, so flows recur and get steered) in batches
// through both, the flows recorded on a CPU drawn from their hash and the backlogs processed after
// each batch on both; every record must be equal. The card's path (xrt) and the same path
// over the model of its data movers (movers) run this.
int run_port_conform(const ConformArgs& a, device::EnginePort& dut, const engine::EngineCaps& caps) {
  auto ref = device::open_model_port(caps);
  driver::EngineSetup setup;
  setup.nr_cpu_ids = setup.num_rx_queues = std::min(16u, 1u << caps.cpu_log2);
  setup.rps_flow_cnt = std::min<uint64_t>(256, uint64_t(1) << caps.slot_log2);
  setup.lut_log2 = std::min(setup.lut_log2, caps.lut_log2);
  setup.rps_sock_flow_entries = std::min<uint64_t>(setup.nr_cpu_ids * setup.rps_flow_cnt, uint64_t(1) << caps.sock_log2);
  setup.variant = a.patched == 0 ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  setup.hash_mode = a.hash_mode == 0   ? nic::HashMode::kToeplitz
                    : a.hash_mode == 2 ? nic::HashMode::kJhashSym
                                       : nic::HashMode::kToeplitzSymXor;
  driver::EngineDriver dd(dut.bus()), rd(ref->bus());
  dd.configure(setup);
  rd.configure(setup);
  sim::common::FrameGen gen(a.seed);
  std::vector<sim::common::Frame> recent;
  std::vector<engine::OutputRecord> got, want;
  uint64_t checked = 0;
  const uint32_t kBatch = 256;
  while (checked < a.packets) {
    const uint64_t n = std::min<uint64_t>(kBatch, a.packets - checked);
    for (uint64_t i = 0; i < n; ++i) {
      sim::common::Frame f;
      if (!recent.empty() && gen.chance(50)) f = recent[gen.r(uint32_t(recent.size()))];
      else f = gen.frame();
      if (f.empty()) f.push_back(0);  // fs_mm2s cannot carry an empty frame (LEN 0 ends its list)
      if (recent.size() < 64) recent.push_back(f);
      else recent[gen.r(64)] = f;
      dut.frames()->send(f);
      ref->frames()->send(f);
    }
    got.clear(), want.clear();
    dut.frames()->drain(got);
    ref->frames()->drain(want);
    if (got.size() != want.size()) {
      std::printf("mismatch: %zu records came back for %zu frames\n", got.size(), want.size());
      return kExitCheckFailed;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      if (got[i] != want[i]) {
        std::printf("mismatch at frame %llu:\n  %s: %s\n  model: %s\n", (unsigned long long)(checked + i), dut.kind(),
                    record_text(got[i]).c_str(), record_text(want[i]).c_str());
        return kExitCheckFailed;
      }
      if (want[i].hash_valid) {  // the app's CPU: other bits of the hash than the RSS LUT's
        const uint32_t cpu = (want[i].hash >> 16) % setup.nr_cpu_ids;
        dd.rps_record_sock_flow(want[i].hash, cpu);
        rd.rps_record_sock_flow(want[i].hash, cpu);
      }
    }
    for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c) dd.process_backlog(c), rd.process_backlog(c);
    checked += got.size();
  }
  auto count = [&](const char* name) {
    for (uint32_t i = 0; i < regs::CNT_LO::kCount; ++i)
      if (runs::counter_name(i) == name) return rd.counter(i);
    return uint64_t(0);
  };
  std::printf("backend %s (%s), seed %llu\n", dut.kind(), dut.bus().describe().c_str(), (unsigned long long)a.seed);
  std::printf("packets checked:        %llu\n", (unsigned long long)checked);
  std::printf("rfs cpu / steer calls / filter adds / filter hits: %llu / %llu / %llu / %llu\n",
              (unsigned long long)count("RFS_CPU"), (unsigned long long)count("STEER_CALLS"),
              (unsigned long long)count("STEER_ADDS"), (unsigned long long)count("FLT_HITS"));
  std::printf("mismatches:             0\n");
  return kExitOk;
}

int run_xrt(const ConformArgs& a) {
  if (a.xclbin.empty()) return usage_error("conform", "--backend xrt needs --xclbin FILE");
  try {
    auto port = device::open_xrt_port(a.xclbin, a.device_index, true);
    const driver::EngineCapsRead c = driver::EngineDriver(port->bus()).caps();
    engine::EngineCaps caps;
    caps.lut_log2 = c.lut_log2, caps.cpu_log2 = c.cpu_log2, caps.queue_log2 = c.queue_log2;
    caps.slot_log2 = c.slot_log2, caps.flt_bucket_bits = c.flt_bucket_bits, caps.flt_ways = c.flt_ways;
    caps.flt_id_width = c.flt_id_width, caps.sock_log2 = c.sock_log2, caps.evt_log2 = c.evt_log2;
    return run_port_conform(a, *port, caps);
  } catch (const bus::DeviceError& e) {
    return usage_error("conform", e.what());
  } catch (const std::invalid_argument& e) {
    return usage_error("conform", e.what());
  }
}

#ifdef FLOWSTEER_HAVE_VERILATOR
// one row of the mix table, with the probe's counters
nlohmann::json mix_json(const std::string& label, uint32_t txn_every, const sim::MixResult& r) {
  const sim::PipeProbe& p = r.probe;
  nlohmann::json lost = nlohmann::json::object();
  for (size_t i = 0; i < p.lost.size(); ++i) lost[sim::gate_loss_name(sim::GateLoss(i))] = p.lost[i];
  return {{"mix", label},
          {"txn_every", txn_every},
          {"packets", r.packets},
          {"steers", r.steers},
          {"moves", r.moves},
          {"mismatches", r.mismatch ? 1 : 0},
          {"clocks", p.clocks},
          {"packets_per_clock", p.packets_per_clock()},
          {"beats_per_clock", p.beats_per_clock()},
          {"transactions", p.transactions},
          {"lost_clocks", lost},
          {"probe",
           {{"flushes", p.flushes},
            {"load_patches", p.load_patches},
            {"filter_patches", p.filter_patches},
            {"drv_given", p.drv_given},
            {"drv_looked_up", p.drv_looked_up},
            {"drv_refused", p.drv_refused},
            {"drv_held", p.drv_held},
            {"placed_transactions", p.placed_transactions},
            {"rec_transactions", p.rec_transactions},
            {"drv_transactions", p.drv_transactions},
            {"sock_early", p.sock_early},
            {"head_add_early", p.head_add_early}}},
          // the RTL's own stall counters (rtl_only), read once after the last record; they
          // count from reset, the warm-up included
          {"rtl_counters", r.coverage.rtl_counters}};
}

// --mix: the named mixes of sim/verilator/mix.h, each checked against the model; with
// --throughput (no gaps, no back-pressure) a table of packets per clock and lost clocks.
int run_mixes(const ConformArgs& a) {
  std::vector<std::string> names;
  if (a.mix == "all")
    for (const auto& s : sim::mix_specs()) names.push_back(s.name);
  else
    names.push_back(a.mix);
  std::vector<uint32_t> rates = {a.txn_every};
  if (a.mix == "all" && a.throughput && a.txn_every == 0) rates = {0, 16};
  OutputFile json;  // checked before the runs, renamed into place after them
  if (!a.json_path.empty()) json.open(a.json_path, "--json");
  nlohmann::json rows = nlohmann::json::array();
  int rc = kExitOk;
  std::printf("backend verilator, build %s, seed %llu, %s\n", a.build.c_str(), (unsigned long long)a.seed,
              a.throughput ? "no gaps, no back-pressure" : "random gaps and back-pressure");
  std::printf("%s", sim::mix_table_header().c_str());
  for (uint32_t rate : rates) {
    for (const std::string& n : names) {
      sim::MixOptions o;
      o.mix = n;
      o.build = a.build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
      o.seed = a.seed;
      o.packets = a.packets_set ? a.packets : 20000;
      o.txn_every = rate;
      o.frame_gap = a.throughput ? 0.0 : a.gap;
      o.rec_ready = a.throughput ? 1.0 : a.ready;
      o.trace_path = a.trace;
      o.rerun = a.command_line;
      const sim::MixResult res = sim::run_mix(o);
      const std::string label = n + (rate ? "+t" + std::to_string(rate) : "");
      std::printf("%s", sim::mix_table_row(label, res).c_str());
      if (res.mismatch) {
        std::printf("\n%s", res.mismatch_report.c_str());
        rc = kExitCheckFailed;
      }
      std::fflush(stdout);
      if (json.is_open()) rows.push_back(mix_json(label, rate, res));
    }
  }
  if (json.is_open()) {
    nlohmann::json j;
    j["backend"] = "verilator";
    j["build"] = a.build;
    j["seed"] = a.seed;
    j["throughput"] = a.throughput;
    j["mixes"] = rows;
    json.stream() << j.dump(2) << "\n";
    json.commit();
  }
  return rc;
}

int run_verilator(const ConformArgs& a) {
  if (!a.mix.empty()) {
    if (a.mix != "all" && !sim::find_mix(a.mix)) return usage_error("conform", "unknown mix '" + a.mix + "'");
    return run_mixes(a);
  }
  OutputFile json, wave;  // checked before the run, renamed into place after it
  if (!a.json_path.empty()) json.open(a.json_path, "--json");
  if (!a.trace.empty()) wave.open(a.trace, "--trace");
  sim::ConformOptions o;
  o.build = a.build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
  o.seed = a.seed;
  o.packets = a.packets;
  o.frame_gap = a.gap;
  o.rec_ready = a.ready;
  o.trace_path = a.trace.empty() ? "" : wave.write_path();
  o.stim.commands = !a.no_commands;
  o.stim.junk = !a.single_beat;
  o.stim.single_beat = a.single_beat;
  o.stim.hash_mode = a.hash_mode;
  o.stim.patched = a.patched;
  o.rerun = a.command_line + (a.trace.empty() ? " --trace conform.fst" : "");
  const bool tty = isatty(2);
  if (a.packets >= 100000 && (tty || a.progress))
    o.progress = [&](uint64_t n, uint64_t total) {
      if (tty) std::fprintf(stderr, "\r  %llu/%llu frames sent", (unsigned long long)n, (unsigned long long)total);
      else if (n % (total / 10 ? total / 10 : 1) == 0)
        std::fprintf(stderr, "  %llu/%llu frames sent\n", (unsigned long long)n, (unsigned long long)total);
    };
  const sim::ConformResult res = sim::run_conformance(o);
  if (o.progress && tty) std::fprintf(stderr, "\n");
  if (!a.trace.empty()) wave.commit_external();
  const double secs = res.wall_seconds > 0 ? res.wall_seconds : 1e-9;
  std::printf("backend verilator, build %s, seed %llu\n", sim::build_name(o.build), (unsigned long long)a.seed);
  std::printf("packets checked:        %llu\n", (unsigned long long)res.stats.packets);
  std::printf("register transactions:  %llu (%llu reads checked)\n", (unsigned long long)res.stats.transactions,
              (unsigned long long)res.stats.reads_checked);
  std::printf("mismatches:             %d\n", res.mismatch ? 1 : 0);
  std::printf("packets per clock:      %.4f\n", res.stats.packets_per_clock());
  std::printf("simulated packets/s:    %.0f\n", double(res.stats.packets) / secs);
  std::printf("clocks/s:               %.0f (%llu clocks in %.2f s)\n", double(res.clocks) / secs,
              (unsigned long long)res.clocks, res.wall_seconds);
  std::printf("%s", res.coverage.report().c_str());
  const auto empty = res.coverage.empty_bins(true);
  std::printf("empty bins:             %zu\n", empty.size());
  if (res.mismatch) std::printf("\n%s", res.mismatch_report.c_str());
  if (json.is_open()) {
    nlohmann::json j;
    j["backend"] = "verilator";
    j["build"] = sim::build_name(o.build);
    j["seed"] = a.seed;
    j["packets"] = res.stats.packets;
    j["transactions"] = res.stats.transactions;
    j["mismatches"] = res.mismatch ? 1 : 0;
    if (res.mismatch) j["mismatch"] = res.mismatch_report;
    j["packets_per_clock"] = res.stats.packets_per_clock();
    j["packets_per_second"] = double(res.stats.packets) / secs;
    j["clocks"] = res.clocks;
    j["clocks_per_second"] = double(res.clocks) / secs;
    j["empty_bins"] = empty;
    const sim::Coverage& c = res.coverage;
    j["coverage"] = {{"gate_row", c.gate_row}, {"path", c.path}, {"action", c.action},
                     {"parse_class", c.parse_class}, {"driver_error", c.driver_error}, {"hazard", c.hazard}};
    json.stream() << j.dump(2) << "\n";
    json.commit();
  }
  return res.mismatch ? kExitCheckFailed : kExitOk;
}

int run_movers(const ConformArgs& a) {
  sim::EngineSimOptions o;
  o.build = a.build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
  o.seed = a.seed;
  o.frame_gap = a.gap;
  o.rec_ready = a.ready;
  o.trace_path = a.trace;
  try {
    const engine::EngineCaps caps = sim::verilator_caps(o.build);
    auto port = sim::open_mover_model_port(o);
    return run_port_conform(a, *port, caps);
  } catch (const bus::DeviceError& e) {
    return usage_error("conform", e.what());
  }
}
#else
int run_movers(const ConformArgs&) {
  return usage_error("conform", "this flowsteer was built without the Verilator engine (FLOWSTEER_WITH_RTL=OFF or no engine RTL)");
}
int run_verilator(const ConformArgs&) {
  return usage_error("conform", "this flowsteer was built without the Verilator engine (FLOWSTEER_WITH_RTL=OFF or no engine RTL)");
}
#endif

// The SystemC bench (sim/systemc/sc_engine_top.cpp) is its own program (a SystemC simulation
// owns its process): run it with the same traffic options and return its exit status.
#ifdef FLOWSTEER_SC_ENGINE_TOP_PATH
int run_systemc(const ConformArgs& a) {
  const std::string bench = FLOWSTEER_SC_ENGINE_TOP_PATH;
  OutputFile wave;  // the bench writes the waveform to the temporary; renamed after it
  if (!a.trace.empty()) wave.open(a.trace, "--trace");
  if (a.build != "standard") return usage_error("conform", "--backend systemc has the standard build only");
  if (!a.json_path.empty()) return usage_error("conform", "--json: verilator backend only");
  if (access(bench.c_str(), X_OK) != 0)
    return usage_error("conform", "--backend systemc: the SystemC bench is not built (" + bench +
                                      "; cmake --build <build> --target sc_engine_top)");
  auto num = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return std::string(b);
  };
  std::vector<std::string> args = {bench, "--packets", std::to_string(a.packets), "--seed",
                                   std::to_string(a.seed), "--gap", num(a.gap), "--ready", num(a.ready)};
  if (!a.trace.empty()) args.insert(args.end(), {"--trace", wave.write_path()});
  if (a.no_commands) args.insert(args.end(), {"--txn-rate", "0"});
  if (a.single_beat) args.insert(args.end(), {"--frames", "small"});
  if (a.hash_mode >= 0) args.insert(args.end(), {"--hash", a.hash_mode == 0 ? "toeplitz" : a.hash_mode == 1 ? "symxor" : "jhash"});
  if (a.patched >= 0) args.insert(args.end(), {"--variant", a.patched ? "patched" : "original"});
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return usage_error("conform", "--backend systemc: cannot start " + bench);
  if (pid == 0) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);  // the banner libsystemc prints otherwise
    execv(bench.c_str(), argv.data());
    std::fprintf(stderr, "flowsteer conform: cannot run %s\n", bench.c_str());
    _exit(kExitUsage);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return usage_error("conform", "--backend systemc: lost the bench process");
  if (WIFEXITED(status)) {
    if (!a.trace.empty() && WEXITSTATUS(status) != kExitUsage) wave.commit_external();
    return WEXITSTATUS(status);
  }
  std::fprintf(stderr, "flowsteer conform: %s ended by signal %d\n", bench.c_str(), WTERMSIG(status));
  return kExitCheckFailed;
}
#else
int run_systemc(const ConformArgs&) {
  return usage_error("conform", "--backend systemc: this flowsteer was built without the SystemC engine bench "
                                "(FLOWSTEER_WITH_RTL=OFF or no engine RTL)");
}
#endif

// Adding a backend is one line here.
struct Backend {
  const char* name;
  int (*run)(const ConformArgs&);
};
const Backend kBackends[] = {
    {"verilator", run_verilator},
    {"systemc", run_systemc},
    {"movers", run_movers},  // the simulated engine behind the model of the card's data movers
    {"xrt", run_xrt},        // a card: frames through its data movers
};

}  // namespace

int cmd_conform(int argc, char** argv) {
  CLI::App app{"Random traffic through the simulated engine top; every record and register answer "
               "is checked against the golden model",
               "conform"};
  ConformArgs a;
  std::string backend = "verilator";
  std::vector<std::string> names;
  for (const auto& b : kBackends) names.push_back(b.name);
  app.add_option("--backend", backend, "verilator | systemc | movers | xrt")->check(CLI::IsMember(names));
  app.add_option("--xclbin", a.xclbin, "xclbin with the flowsteer kernel and its data movers (xrt backend)");
  app.add_option("--device", a.device_index, "card index (xrt backend, default 0)");
  app.add_option("--packets", a.packets, "random frames to send (default 100000)")->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  app.add_option("--seed", a.seed, "stimulus, gaps and back-pressure seed (default 1)");
  app.add_option("--trace", a.trace, "write an FST waveform (or env FS_ENGINE_TRACE)");
  app.add_option("--build", a.build, "standard (default) | small (tiny tables, 64-bit stream)")
      ->check(CLI::IsMember({"standard", "small"}));
  app.add_option("--gap", a.gap, "idle probability before each frame beat (default 0.1)")->check(CLI::Range(0.0, 0.99));
  app.add_option("--ready", a.ready, "record sink ready probability (default 0.8)")->check(CLI::Range(0.01, 1.0));
  app.add_option("--json", a.json_path, "write the result as JSON");
  app.add_flag("--no-commands", a.no_commands, "no register traffic after the setup");
  app.add_flag("--progress", a.progress, "progress on stderr (default: only when stderr is a terminal)");
  std::string mix_names = "all";
#ifdef FLOWSTEER_HAVE_VERILATOR
  for (const auto& s : sim::mix_specs()) mix_names += " | " + s.name;
#endif
  app.add_option("--mix", a.mix, "a named traffic mix (" + mix_names + ")");
  app.add_flag("--throughput", a.throughput, "with --mix: no gaps, no back-pressure; print packets per clock and lost clocks by cause");
  app.add_option("--txn-every", a.txn_every, "with --mix: one register transaction per N packets (0: none)");
  app.add_flag("--single-beat", a.single_beat, "only IPv4 TCP/UDP frames of at most 60 bytes (throughput runs)");
  std::string hash, variant;
  app.add_option("--hash", hash, "starting hash mode: toeplitz | symxor | jhash (default: from the seed)")
      ->check(CLI::IsMember({"toeplitz", "symxor", "jhash"}));
  app.add_option("--variant", variant, "starting set_rps_cpu variant: original | patched (default: from the seed)")
      ->check(CLI::IsMember({"original", "patched"}));
  if (auto rc = parse(app, argc, argv)) return *rc;
  a.packets_set = app.count("--packets") > 0;
  if (!hash.empty()) a.hash_mode = hash == "toeplitz" ? 0 : hash == "symxor" ? 1 : 2;
  if (!variant.empty()) a.patched = variant == "patched";
  a.command_line = "flowsteer conform";
  for (int i = 1; i < argc; ++i) a.command_line += std::string(" ") + argv[i];
  for (const auto& b : kBackends)
    if (backend == b.name) return b.run(a);
  return usage_error("conform", "unknown backend '" + backend + "'");
}

}  // namespace flowsteer::cli
