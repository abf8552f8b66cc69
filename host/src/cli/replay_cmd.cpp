// flowsteer replay --pcap FILE: an Ethernet capture through the engine.
#include <fstream>
#include <iostream>

#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_progress.h"
#include "cli_validate.h"
#include "flowsteer/runs/replay.h"
#ifdef FLOWSTEER_HAVE_VERILATOR
#include "replay_verilator.h"
#include "verilator_port.h"
#endif

namespace flowsteer::cli {

namespace {

// Counts the frames an engine takes (progress of a long RTL run).
class CountingEngine : public runs::ReplayEngine {
 public:
  CountingEngine(runs::ReplayEngine& e, std::function<void(uint64_t)> fn) : e_(e), fn_(std::move(fn)) {}
  engine::OutputRecord packet(const uint8_t* f, size_t n) override {
    auto r = e_.packet(f, n);
    fn_(++n_);
    return r;
  }
  void backlogs_processed(const std::vector<uint32_t>& cpus) override { e_.backlogs_processed(cpus); }
  void service(uint64_t ms) override { e_.service(ms); }
  void take_events(uint64_t ms) override { e_.take_events(ms); }
  void sock_record(uint32_t h, uint32_t c) override { e_.sock_record(h, c); }
  void finish(runs::ReplayResult& r) override { e_.finish(r); }

 private:
  runs::ReplayEngine& e_;
  std::function<void(uint64_t)> fn_;
  uint64_t n_ = 0;
};

uint64_t file_size_or_zero(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? uint64_t(st.st_size) : 0;
}

}  // namespace

int cmd_replay(int argc, char** argv) {
  CLI::App app{"Replay an Ethernet pcap through the engine and summarise each connection "
               "(both directions together)",
               "replay"};
  std::string pcap, backend = "model", json_path, hash = "toeplitz-symxor", variant = "patched";
  runs::ReplayConfig cfg;
  uint32_t cpus = 16;
  app.add_option("--pcap", pcap, "capture file (Ethernet link type)")->required();
  app.add_option("--backend", backend, "model (the golden engine model) | verilator")
      ->check(CLI::IsMember({"model", "verilator"}));
  app.add_option("--json", json_path, "write the summary as JSON");
  app.add_option("--cpus", cpus, "CPUs = RX queues (default 16)")->check(CLI::Range(1u, 4096u));
  app.add_option("--rps-flow-cnt", cfg.rps_flow_cnt, "per-queue table size (default 256)")
      ->check(CLI::Range(1u, 1u << 20));
  app.add_option("--hash", hash, "toeplitz | toeplitz-symxor (default) | jhash-sym")
      ->check(CLI::IsMember({"toeplitz", "toeplitz-symxor", "jhash-sym"}));
  app.add_option("--seed", cfg.jhash_seed, "jhash-sym seed (default 0)");
  app.add_option("--variant", variant, "original | patched (default)")
      ->check(CLI::IsMember({"original", "patched"}));
  std::string trace, model_caps = "map";
  app.add_option("--trace", trace, "verilator backend: write an FST waveform");
  app.add_option("--model-caps", model_caps,
                 "model backend sizes: map (the register map's, default) | verilator (the simulated "
                 "engine's; --backend verilator always compares with a model of its sizes)")
      ->check(CLI::IsMember({"map", "verilator"}));
  bool progress = false;
  app.add_flag("--progress", progress, "progress on stderr (default: only when stderr is a terminal)");
  if (auto rc = parse(app, argc, argv)) return *rc;
#ifndef FLOWSTEER_HAVE_VERILATOR
  if (backend == "verilator" || model_caps == "verilator")
    return usage_error("replay", "--backend verilator: this flowsteer was built without the Verilator engine");
#endif
  if (!trace.empty() && backend != "verilator") return usage_error("replay", "--trace needs --backend verilator");
  cfg.params.cpus = cpus;
  cfg.params.queues = cpus;
  cfg.params.variant = variant == "original" ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  cfg.hash_mode = hash == "toeplitz"          ? nic::HashMode::kToeplitz
                  : hash == "toeplitz-symxor" ? nic::HashMode::kToeplitzSymXor
                                              : nic::HashMode::kJhashSym;
  // One setup for both backends (replay_setup): the model holds the tables of the engine it
  // stands for, and a setup that engine cannot hold is refused before anything runs.
  engine::EngineCaps caps;  // the register map's implemented sizes
#ifdef FLOWSTEER_HAVE_VERILATOR
  if (backend == "verilator" || model_caps == "verilator") caps = sim::verilator_caps(sim::EngineBuild::kStandard);
#endif
  // the summary grows with the capture: about its size again in memory, at worst
  check_memory(file_size_or_zero(pcap) * 2, "--pcap " + quote(pcap));
  auto model = runs::make_model_replay_engine(cfg, caps);  // validates the setup (KnobError)
  OutputFile json, wave;
  if (!json_path.empty()) json.open(json_path, "--json");
  if (!trace.empty()) wave.open(trace, "--trace");
  [[maybe_unused]] const bool show = progress || isatty(STDERR_FILENO);  // verilator backend
  runs::ReplayResult r;
  if (backend == "verilator") {
#ifdef FLOWSTEER_HAVE_VERILATOR
    runs::ReplayResult m = runs::replay_pcap(pcap, cfg, *model);
    // every record and register answer is checked against the scoreboard's model on the way
    sim::VerilatorReplayOptions vo;
    vo.trace_path = trace.empty() ? "" : wave.write_path();
    vo.rerun = "flowsteer replay";
    for (int i = 1; i < argc; ++i) vo.rerun += std::string(" ") + argv[i];
    if (trace.empty()) vo.rerun += " --trace replay.fst";
    try {
      auto eng = sim::make_verilator_replay_engine(cfg, vo);
      Progress bar("replay", show, m.frames);
      CountingEngine counted(*eng, [&](uint64_t n) { bar.update(n); });
      r = runs::replay_pcap(pcap, cfg, counted);
      bar.done();
    } catch (const sim::ReplayMismatch& e) {
      std::cout << e.what();
      std::cerr << "flowsteer replay: the simulated engine differs from the model (report on stdout)\n";
      return kExitCheckFailed;
    }
    if (!trace.empty()) wave.commit_external();
    const std::string diff = runs::first_difference(m, r);
    runs::print_replay(std::cout, r);
    if (!diff.empty()) {
      std::cerr << "flowsteer replay: the simulated engine's summary differs from the model's at "
                << one_line(diff) << "\n";
      return kExitCheckFailed;
    }
#endif
  } else {
    r = runs::replay_pcap(pcap, cfg, *model);
    runs::print_replay(std::cout, r);
  }
  if (json.is_open()) {
    runs::write_replay_json(json.stream(), r);
    json.commit();
  }
  return kExitOk;
}

}  // namespace flowsteer::cli
