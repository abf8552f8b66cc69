// flowsteer replay --pcap FILE: an Ethernet capture through the engine.
#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "flowsteer/runs/replay.h"
#ifdef FLOWSTEER_HAVE_VERILATOR
#include "replay_verilator.h"
#endif

namespace flowsteer::cli {

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
  std::string trace;
  app.add_option("--trace", trace, "verilator backend: write an FST waveform");
  if (auto rc = parse(app, argc, argv)) return *rc;
#ifndef FLOWSTEER_HAVE_VERILATOR
  if (backend == "verilator")
    return usage_error("replay", "--backend verilator: this flowsteer was built without the Verilator engine");
#endif
  cfg.params.cpus = cpus;
  cfg.params.queues = cpus;
  cfg.params.filter_bucket_bits = 12;
  cfg.params.event_fifo_depth = 4096;
  cfg.params.variant = variant == "original" ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  cfg.hash_mode = hash == "toeplitz"          ? nic::HashMode::kToeplitz
                  : hash == "toeplitz-symxor" ? nic::HashMode::kToeplitzSymXor
                                              : nic::HashMode::kJhashSym;
  std::ofstream json;
  if (!json_path.empty()) {
    json.open(json_path);
    if (!json) return usage_error("replay", "cannot write '" + json_path + "'");
  }
  runs::ReplayResult r;
  try {
    if (backend == "verilator") {
#ifdef FLOWSTEER_HAVE_VERILATOR
      // every record and register answer is checked against the model on the way
      sim::VerilatorReplayOptions vo;
      vo.trace_path = trace;
      vo.rerun = "flowsteer replay";
      for (int i = 1; i < argc; ++i) vo.rerun += std::string(" ") + argv[i];
      if (trace.empty()) vo.rerun += " --trace replay.fst";
      auto eng = sim::make_verilator_replay_engine(cfg, vo);
      r = runs::replay_pcap(pcap, cfg, *eng);
#endif
    } else {
      r = runs::replay_pcap(pcap, cfg);
    }
#ifdef FLOWSTEER_HAVE_VERILATOR
  } catch (const sim::ReplayMismatch& e) {
    std::cerr << "flowsteer replay: the simulated engine differs from the model\n" << e.what();
    return kExitCheckFailed;
#endif
  } catch (const std::exception& e) {
    return usage_error("replay", e.what());
  }
  runs::print_replay(std::cout, r);
  if (json) runs::write_replay_json(json, r);
  return kExitOk;
}

}  // namespace flowsteer::cli
