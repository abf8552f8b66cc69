// Named traffic mixes for the engine top's throughput and conformance runs: a fixed
// engine setup (16 CPUs and queues, Toeplitz, patched, a sock entry per flow), a warm-up that
// lets every flow steer once (events popped), then the measured stream. Every record and every
// register answer is still checked against the golden model (Scoreboard); the pipeline probe
// (EngineSim::probe) counts packets per clock and the clocks lost at the order gate by cause.
// Shared by `flowsteer conform --mix NAME [--throughput]` and the CTests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scoreboard.h"

namespace flowsteer::sim {

struct MixSpec {
  std::string name;
  std::string what;             // one line for the table
  enum class Order { kRandom, kRoundRobin, kZipf, kFresh } order = Order::kRandom;
  uint32_t flows = 1;
  uint32_t move_every = 0;      // the application moves CPU every N packets (sock write)
  bool multi_beat = false;      // frames of 65..1,514 bytes
  bool original = false;        // CTRL.PATCHED = 0 (set_rps_cpu without the patched gate)
};

// The mixes in table order (docs/engine-top.md "Throughput").
const std::vector<MixSpec>& mix_specs();
const MixSpec* find_mix(const std::string& name);

struct MixOptions {
  std::string mix = "uni1024";
  EngineBuild build = EngineBuild::kStandard;
  uint64_t seed = 1;
  uint64_t packets = 20000;     // measured packets (after the warm-up)
  uint32_t txn_every = 0;       // one host register transaction per N packets (0: none)
  double frame_gap = 0.0;       // throughput runs: 0 and 1; conformance runs: random
  double rec_ready = 1.0;
  std::string trace_path;
  std::string rerun;
};

struct MixResult {
  ScoreboardStats stats;        // every packet, warm-up included
  Coverage coverage;
  std::optional<Mismatch> mismatch;
  std::string mismatch_report;
  PipeProbe probe;              // the measured stream only
  uint64_t packets = 0;         // measured packets
  uint64_t steers = 0;          // measured packets that called ndo_rx_flow_steer
  uint64_t steered = 0;         // ... and got a filter (action STEERED)
  uint64_t moves = 0;           // application moves (move mixes)
  uint64_t frame_bytes = 0;
  uint64_t clocks = 0;          // whole run
  double wall_seconds = 0;
};

MixResult run_mix(const MixOptions& o);

// One table row: packets/clock, beats/clock, steer and transaction rate, lost clocks by cause.
std::string mix_table_header();
std::string mix_table_row(const std::string& label, const MixResult& r);

}  // namespace flowsteer::sim
