// Replays an Ethernet pcap through the engine (golden model backend): every frame,
// snap-length truncated ones included, with a per-connection summary that puts both
// directions of a connection together.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <memory>

#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/engine/engine_regs.h"

namespace flowsteer::runs {

struct ReplayConfig {
  engine::EngineParams params;     // cpus, queues, LUT, filter table, variant
  uint32_t rps_flow_cnt = 256;     // per queue
  uint64_t sock_flow_entries = 0;  // 0 = cpus * rps_flow_cnt
  nic::HashMode hash_mode = nic::HashMode::kToeplitzSymXor;
  uint32_t jhash_seed = 0;
  uint32_t service_period_ms = 1000;  // host runtime sync period in capture time
};

struct Direction {
  uint64_t packets = 0;
  uint32_t hash = 0;
  std::set<uint16_t> queues;
  std::set<int32_t> cpus;
  uint64_t filter_hits = 0;
};

struct ConnectionSummary {
  FlowTuple key;            // canonical endpoint order, so both directions meet here
  Direction ab, ba;         // ab: packets whose source is key.src
  uint64_t steers = 0, skips = 0, driver_errors = 0;
  uint32_t app_cpu = 0;
};

struct ReplayResult {
  uint64_t frames = 0;
  uint64_t truncated_by_snaplen = 0;
  std::vector<uint64_t> by_class;
  std::vector<ConnectionSummary> connections;  // in order of first appearance
  engine::EngineCounters counters;
  uint64_t runtime_adds = 0, runtime_dels = 0;
  size_t filters_end = 0;
};

// Both directions of a connection give the same key (endpoint with the smaller address,
// then port, first).
FlowTuple connection_key(const FlowTuple& t);

// The engine as the replay drives it: frames one at a time (each gives its record before
// the next is sent), the host-side work between them. The golden model is the default; the
// simulated RTL (sim/verilator/replay_verilator.h) plugs in here too.
class ReplayEngine {
 public:
  virtual ~ReplayEngine() = default;
  virtual engine::OutputRecord packet(const uint8_t* frame, size_t len) = 0;
  // The backlogs of `cpus` (those a record enqueued on since the last call) were processed:
  // their heads catch up with their tails. Only they moved, so only they cost register work.
  virtual void backlogs_processed(const std::vector<uint32_t>& cpus) = 0;
  virtual void service(uint64_t now_ms) = 0;          // the runtime's sync pass
  virtual void take_events(uint64_t now_ms) = 0;      // the runtime takes new engine events
  virtual void sock_record(uint32_t hash, uint32_t cpu) = 0;  // the app read on `cpu`
  virtual void finish(ReplayResult& r) = 0;           // counters and end state into r
};

// One frame of a capture: its time stamp in ms, the captured bytes and the wire length.
struct PcapFrame {
  uint64_t ms = 0;
  const uint8_t* data = nullptr;
  uint32_t caplen = 0, len = 0;
};
// Calls `frame` for every frame of an Ethernet pcap, in file order (libpcap). Throws
// std::runtime_error with one line on an unreadable file or a non-Ethernet capture.
void for_each_pcap_frame(const std::string& path, const std::function<void(const PcapFrame&)>& frame);

// Throws std::runtime_error with one line on an unreadable file or a non-Ethernet capture.
ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg);
// The same through any engine (cfg sizes the summary: cpus for the app placement).
ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg, ReplayEngine& eng);

// The deployment a replay configures (the driver's knobs): one setup for every backend, so
// the model and the RTL hold the same tables (the driver rounds rps_flow_cnt like sysfs and
// sizes the default sock table as cpus x rounded rps_flow_cnt).
driver::EngineSetup replay_setup(const ReplayConfig& cfg);
// The golden register model with `caps` behind the register-level driver, configured by
// replay_setup(cfg); throws driver::KnobError (one line) for a setup the caps cannot hold.
std::unique_ptr<ReplayEngine> make_model_replay_engine(const ReplayConfig& cfg, const engine::EngineCaps& caps);
// Counters and end state read through the driver (any register backend).
void read_driver_counters(driver::EngineDriver& drv, driver::ArfsRuntime& rt, ReplayResult& r);
// The first difference between two summaries (connection order, then per connection), or "".
std::string first_difference(const ReplayResult& a, const ReplayResult& b);
std::string endpoint_text(const FlowTuple& t, bool src);

void print_replay(std::ostream& os, const ReplayResult& r);
void write_replay_json(std::ostream& os, const ReplayResult& r);

}  // namespace flowsteer::runs
