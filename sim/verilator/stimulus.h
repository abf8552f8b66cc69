// Seeded random stimulus for the engine conformance runs: a traffic mix built to hit the
// pipeline's hazards (bursts on one flow, slot/sock/bucket collisions, CPU migrations,
// head advances, register commands between packets, mode flips, malformed frames) plus
// the setup that makes the engine steer. run_conformance() is the whole run the
// GoogleTests and `flowsteer conform` share.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

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

struct StimulusConfig {
  uint64_t seed = 1;
  int hash_mode = -1;           // HASH_CFG.MODE for the run; -1 = drawn from the seed
  int patched = -1;             // CTRL.PATCHED at setup; -1 = drawn from the seed
  bool commands = true;         // register traffic between packets (off: throughput runs)
  double command_rate = 0.06;   // register commands per packet
  bool mode_changes = true;     // CTRL flips and hash-mode changes during the run
  bool junk = true;             // malformed, truncated, non-IP, VLAN, fragment frames
  bool single_beat = false;     // only IPv4 TCP/UDP frames of <= 60 bytes (one 512-bit beat)
  size_t queued_frames = 12;    // frames kept queued ahead of the engine
};

class Stimulus {
 public:
  Stimulus(Scoreboard& sb, const StimulusConfig& cfg);
  // Disabled engine -> sizes, RSS, tables, sock entries -> CTRL.ENABLE.
  void setup();
  // Sends `packets` frames with the configured command mix; stops early on a mismatch.
  // `progress` is called now and then with the frames sent so far.
  void run(uint64_t packets, const std::function<void(uint64_t)>& progress = {});

 private:
  struct Flow {
    FlowTuple tuple;
    bool fragment = false;     // sent as IPv4/IPv6 fragments
  };
  uint32_t rnd(uint32_t n) { return n ? uint32_t(rng_() % n) : 0; }
  bool chance(double p) { return unit_(rng_) < p; }
  void wr(uint32_t off, uint32_t v, uint8_t strb = 0xF);
  uint32_t rd(uint32_t off);
  FlowTuple random_tuple(int family, uint8_t proto);
  void build_pool();
  std::vector<uint8_t> flow_frame(const Flow& f, bool reverse);
  std::vector<uint8_t> junk_frame();
  uint32_t flow_hash(const FlowTuple& t, bool fragment = false);
  void sock_write(const FlowTuple& t, uint32_t cpu, bool fragment = false);
  void sock_write(const Flow& f, uint32_t cpu) { sock_write(f.tuple, cpu, f.fragment); }
  void command();
  // Targeted sequences for bins the random mix reaches too rarely (see stimulus.cpp).
  void scenario();
  void scenario_same_queue_migration();
  void scenario_head_past_tail();
  void scenario_full_bucket();
  // a host filter command on key t; returns FLT_STATUS.ERR (FLT_RESULT into *result)
  uint32_t flt_op(const FlowTuple& t, uint32_t op, uint32_t id, uint32_t queue, uint32_t* result = nullptr);
  void flt_key(const FlowTuple& t);
  uint32_t flt_wait();
  void pop_events(unsigned max);
  uint32_t ctrl_value() const;

  Scoreboard& sb_;
  StimulusConfig cfg_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  engine::EngineCaps caps_;
  std::vector<Flow> pool_;
  size_t burst_flow_ = 0;
  unsigned burst_left_ = 0;
  uint32_t cpus_ = 16, queues_ = 8, rps_cpu_mask_ = 15, sock_log2_ = 8, lut_log2_ = 6;
  bool patched_ = true, slot_mask_ = false, ntuple_ = true, rmap_ = true, rps_ = true, flt_lookup_ = true;
  uint32_t hash_mode_ = 0;
  bool hoard_events_ = false;  // let the event FIFO fill (EBUSY refusals)
  unsigned hoard_full_ = 0;     // event-service commands seen with the FIFO full while hoarding
  std::vector<size_t> bucket_flows_;  // pool indexes of the planted one-bucket tuples
  size_t random_flows_ = 0;           // pool_[0, random_flows_) are random; the rest planted
  uint64_t sent_ = 0;
  uint32_t last_event_id_ = 0, last_event_queue_ = 0, last_event_flow_ = 0;
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
