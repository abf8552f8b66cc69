// DUT-independent pieces of the SystemC conformance benches (sim/systemc/):
// a tiny option parser, the run statistics and the first-mismatch report.
//
// A bench built on it (sc_rfs_core.cpp is the first) has the same shape for every DUT:
//   * a driver SC_THREAD that offers a seeded random stimulus with valid/ready and random
//     idle gaps, and notes every handshake (the accepted total order) in the scoreboard inbox;
//   * responder SC_THREADs for the DUT's request ports (random delays);
//   * a monitor SC_THREAD that applies random back-pressure and notes every output;
//   * a scoreboard SC_METHOD on the falling edge that takes one clock's inbox in a fixed order
//     (accepted inputs first, then outputs), runs the golden model on the accepted inputs in
//     handshake order and compares every output with what the golden model produced.
// Every thread samples at the rising edge (the values the DUT's flops see) and drives right
// after it, so a handshake is exactly valid && ready as read at the edge.
#pragma once

#include <systemc.h>

#include <chrono>
#include <cstdint>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace flowsteer::sim::systemc {

// --name value / --name=value options; unknown options and --help print the usage.
class ArgParser {
 public:
  explicit ArgParser(std::string prog) : prog_(std::move(prog)) {}
  void add(const std::string& name, uint64_t* v, const std::string& help) {
    opts_[name] = {help,
                   [v](const std::string& s) {
                     // whole string, no sign or leading space, no wrap (strtoull takes all three)
                     if (s.empty() || !std::isalnum(static_cast<unsigned char>(s[0]))) return false;
                     char* end = nullptr;
                     errno = 0;
                     const unsigned long long x = std::strtoull(s.c_str(), &end, 0);
                     if (errno == ERANGE || *end != '\0') return false;
                     *v = x;
                     return true;
                   },
                   std::to_string(*v)};
  }
  void add(const std::string& name, double* v, const std::string& help) {
    opts_[name] = {help,
                   [v](const std::string& s) {
                     if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
                     char* end = nullptr;
                     const double x = std::strtod(s.c_str(), &end);
                     if (*end != '\0' || !std::isfinite(x)) return false;
                     *v = x;
                     return true;
                   },
                   std::to_string(*v)};
  }
  void add(const std::string& name, std::string* v, const std::string& help) {
    opts_[name] = {help, [v](const std::string& s) { *v = s; return true; }, *v};
  }
  bool help_requested() const { return help_; }
  // false (after printing the usage) on --help or a bad option
  bool parse(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        help_ = true;
        return usage(nullptr);
      }
      if (a.rfind("--", 0) != 0) return usage(("unexpected argument " + a).c_str());
      std::string name = a.substr(2), val;
      const size_t eq = name.find('=');
      if (eq != std::string::npos) {
        val = name.substr(eq + 1);
        name = name.substr(0, eq);
      } else if (i + 1 < argc) {
        val = argv[++i];
      } else {
        return usage(("missing value for --" + name).c_str());
      }
      auto it = opts_.find(name);
      if (it == opts_.end()) return usage(("unknown option --" + name).c_str());
      if (!it->second.set(val)) {  // one line: what was wrong, not the whole usage
        std::fprintf(stderr, "%s: --%s: not a valid value: '%s'\n", prog_.c_str(), name.c_str(),
                     val.substr(0, 80).c_str());
        return false;
      }
    }
    return true;
  }

 private:
  struct Opt {
    std::string help;
    std::function<bool(const std::string&)> set;  // false: the value does not parse
    std::string def;
  };
  bool usage(const char* err) {
    if (err) {  // one line; --help lists the options
      std::fprintf(stderr, "%s: %s (--help lists the options)\n", prog_.c_str(), err);
      return false;
    }
    std::fprintf(stderr, "usage: %s [options]\n", prog_.c_str());
    for (const auto& [n, o] : opts_)
      std::fprintf(stderr, "  --%-12s %s (default %s)\n", n.c_str(), o.help.c_str(),
                   o.def.empty() ? "none" : o.def.c_str());
    return false;
  }
  std::string prog_;
  std::map<std::string, Opt> opts_;
  bool help_ = false;
};

inline bool chance(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

// Counters, the first-mismatch report and the summary. `rerun` is the command line that
// repeats the run; the report appends the trace option to it.
class RunReport {
 public:
  RunReport(std::string bench, uint64_t seed, std::string rerun)
      : bench_(std::move(bench)), seed_(seed), rerun_(std::move(rerun)) {}

  uint64_t checked_outputs = 0;   // records compared (packets checked)
  uint64_t checked_cmds = 0;      // command responses compared
  uint64_t checked_requests = 0;  // DUT requests compared (e.g. driver calls)
  uint64_t mismatches = 0;
  uint64_t first_in_cycle = ~uint64_t(0), last_out_cycle = 0, cycles = 0;
  std::string error;              // the first mismatch, "" if none

  // Reports the first mismatch and stops the simulation (the bench exits 1).
  void mismatch(uint64_t event, uint64_t cycle, const std::string& what,
                const std::string& expected, const std::string& actual) {
    ++mismatches;
    if (!error.empty()) return;
    error = what;
    std::fprintf(stderr,
                 "%s: MISMATCH at event %llu (cycle %llu, %s): %s\n"
                 "  expected: %s\n"
                 "  actual:   %s\n"
                 "  seed %llu; rerun with an FST trace:\n"
                 "    %s --trace %s_seed%llu.fst   (or env FS_SC_TRACE=FILE.fst)\n",
                 bench_.c_str(), (unsigned long long)event, (unsigned long long)cycle,
                 sc_core::sc_time_stamp().to_string().c_str(), what.c_str(), expected.c_str(),
                 actual.c_str(), (unsigned long long)seed_, rerun_.c_str(), bench_.c_str(),
                 (unsigned long long)seed_);
    sc_core::sc_stop();
  }

  void start_wall() { t0_ = std::chrono::steady_clock::now(); }
  void stop_wall() {
    wall_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  void summary(const char* what_in, const char* what_out) const {
    const uint64_t span = last_out_cycle >= first_in_cycle && first_in_cycle != ~uint64_t(0)
                              ? last_out_cycle - first_in_cycle + 1
                              : 0;
    std::printf("%s: seed %llu: %llu %s checked, %llu command responses, %llu driver "
                "requests, %llu mismatches\n",
                bench_.c_str(), (unsigned long long)seed_, (unsigned long long)checked_outputs,
                what_out, (unsigned long long)checked_cmds,
                (unsigned long long)checked_requests, (unsigned long long)mismatches);
    std::printf("%s: %llu clocks; %.4f %s per clock (first %s accepted to last record); "
                "%.0f simulated %s/s (%.0f clocks/s, %.2f s wall)\n",
                bench_.c_str(), (unsigned long long)cycles,
                span ? double(checked_outputs) / double(span) : 0.0, what_out, what_in,
                wall_s_ > 0 ? double(checked_outputs) / wall_s_ : 0.0, what_out,
                wall_s_ > 0 ? double(cycles) / wall_s_ : 0.0, wall_s_);
  }

 private:
  std::string bench_;
  uint64_t seed_;
  std::string rerun_;
  std::chrono::steady_clock::time_point t0_{};
  double wall_s_ = 0;
};

}  // namespace flowsteer::sim::systemc
