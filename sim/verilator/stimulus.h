// The engine conformance runs on the Verilator harness: the shared random mix
// (sim/common/engine_stim.h) driven call by call against the scoreboard. run_conformance() is
// the whole run the GoogleTests and `flowsteer conform` share.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine_stim.h"
#include "flowsteer/bus/register_bus.h"
#include "scoreboard.h"

namespace flowsteer::sim {

// The scoreboard as a register bus, so host driver code (EngineDriver, the aRFS runtime)
// runs on the simulated engine with every access checked against the model.
class ScoreboardBus : public bus::RegisterBus {
 public:
  explicit ScoreboardBus(Scoreboard& sb) : sb_(sb) {}
  bus::AxiResp read(uint32_t offset, uint32_t& value) override { return sb_.read(offset, value); }
  bus::AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) override {
    return sb_.write(offset, value, strb);
  }
  std::string describe() const override { return "verilator engine (scoreboarded)"; }

 private:
  Scoreboard& sb_;
};

using common::StimulusConfig;

// The shared engine mix (sim/common/engine_stim.h) on the Verilator harness: register
// commands through the scoreboard, frames queued ahead of the engine, clocks stepped while
// the queue is full.
class Stimulus {
 public:
  Stimulus(Scoreboard& sb, const StimulusConfig& cfg);
  // Disabled engine -> sizes, RSS, tables, sock entries -> CTRL.ENABLE.
  void setup() { gen_.setup(); }
  // Sends `packets` frames with the configured command mix; stops early on a mismatch.
  // `progress` is called now and then with the frames sent so far.
  void run(uint64_t packets, const std::function<void(uint64_t)>& progress = {});

 private:
  Scoreboard& sb_;
  StimulusConfig cfg_;
  ScoreboardBus bus_;
  common::EngineStim gen_;
  uint64_t sent_ = 0;
};

struct ConformOptions {
  EngineBuild build = EngineBuild::kStandard;
  uint64_t seed = 1;
  uint64_t packets = 10000;
  double frame_gap = 0.1;       // idle probability before a frame beat
  double rec_ready = 0.8;       // record sink ready probability
  std::string trace_path;
  StimulusConfig stim;          // seed copied from `seed`
  std::string rerun;            // command line that reproduces the run (for the report)
  std::function<void(uint64_t, uint64_t)> progress;  // (frames sent, total)
};

struct ConformResult {
  ScoreboardStats stats;
  Coverage coverage;
  std::optional<Mismatch> mismatch;
  std::string mismatch_report;  // Mismatch::format(seed, rerun), empty when clean
  uint64_t clocks = 0;
  double wall_seconds = 0;
  engine::EngineCaps caps;
};

// Builds the engine and the scoreboard, runs setup + stimulus + finish.
ConformResult run_conformance(const ConformOptions& o);

const char* build_name(EngineBuild b);

}  // namespace flowsteer::sim
