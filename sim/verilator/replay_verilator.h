// The pcap replay through the simulated engine top: every record and register answer is
// checked against the golden model by the Scoreboard while the replay summary is built
// from the RTL's records (flowsteer replay --backend verilator).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "flowsteer/runs/replay.h"
#include "scoreboard.h"

namespace flowsteer::sim {

// Thrown by the engine at the first difference from the model; what() is the report.
class ReplayMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct VerilatorReplayOptions {
  EngineBuild build = EngineBuild::kStandard;
  uint64_t seed = 1;
  std::string trace_path;
  std::string rerun;  // command line for the mismatch report
};

// Throws std::invalid_argument (one line) when cfg does not fit the engine's sizes.
std::unique_ptr<runs::ReplayEngine> make_verilator_replay_engine(const runs::ReplayConfig& cfg,
                                                           const VerilatorReplayOptions& opt);

}  // namespace flowsteer::sim
