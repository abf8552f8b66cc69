// flowsteer conform: random traffic through a simulated engine top, every record and
// register answer checked against the golden model (sim/verilator Scoreboard).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_validate.h"

#ifdef FLOWSTEER_HAVE_VERILATOR
#include "stimulus.h"
#endif

namespace flowsteer::cli {

namespace {

struct ConformArgs {
  uint64_t packets = 100000, seed = 1;
  std::string trace, build = "standard", json_path;
  double gap = 0.1, ready = 0.8;
  bool no_commands = false, single_beat = false, progress = false;
  int hash_mode = -1, patched = -1;  // -1: drawn from the seed
  std::string command_line;
};

#ifdef FLOWSTEER_HAVE_VERILATOR
int run_verilator(const ConformArgs& a) {
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
#else
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
  app.add_option("--backend", backend, "verilator | systemc")->check(CLI::IsMember(names));
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
  app.add_flag("--single-beat", a.single_beat, "only IPv4 TCP/UDP frames of at most 60 bytes (throughput runs)");
  std::string hash, variant;
  app.add_option("--hash", hash, "starting hash mode: toeplitz | symxor | jhash (default: from the seed)")
      ->check(CLI::IsMember({"toeplitz", "symxor", "jhash"}));
  app.add_option("--variant", variant, "starting set_rps_cpu variant: original | patched (default: from the seed)")
      ->check(CLI::IsMember({"original", "patched"}));
  if (auto rc = parse(app, argc, argv)) return *rc;
  if (!hash.empty()) a.hash_mode = hash == "toeplitz" ? 0 : hash == "symxor" ? 1 : 2;
  if (!variant.empty()) a.patched = variant == "patched";
  a.command_line = "flowsteer conform";
  for (int i = 1; i < argc; ++i) a.command_line += std::string(" ") + argv[i];
  for (const auto& b : kBackends)
    if (backend == b.name) return b.run(a);
  return usage_error("conform", "unknown backend '" + backend + "'");
}

}  // namespace flowsteer::cli
