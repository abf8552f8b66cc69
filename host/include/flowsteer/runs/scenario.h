// Scenario traces (docs/scenario-format.md): a kernel-level event trace in JSON
// Lines, replayed one event at a time through a backend. The event loop lives here once
// (ScenarioRunner); what executes the events is a ScenarioBackend. ModelBackend is the golden
// model (kernel plane + ice mirror, spec 1-5 and 7); the engine's golden model and the RTL
// plug in later as further backends and must give the same output for the same trace.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "flowsteer/driver/ice_arfs.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/tuple.h"

namespace flowsteer::runs {

// A bad value in one event. `field` is the JSON path of the culprit ("rps_flow_cnt[2]",
// "flow.src", "op"); empty when the line as a whole is wrong (not JSON, not an object).
class FieldError : public std::invalid_argument {
 public:
  FieldError(std::string field, const std::string& what)
      : std::invalid_argument(what), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// A bad trace line: what() is "line N: field 'F': <what>" (or "line N: <what>").
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(size_t line, std::string field, const std::string& what);
  size_t line() const { return line_; }
  const std::string& field() const { return field_; }
  const std::string& detail() const { return detail_; }

 private:
  size_t line_;
  std::string field_;
  std::string detail_;
};

// ---- typed events ---------------------------------------------------------------------
// config: every field optional at parse time; the runner applies the defaults on the first
// config and checks that a later config changes nothing but rps_flow_cnt.
struct ConfigEvent {
  std::optional<uint32_t> cpus;                 // nr_cpu_ids
  std::optional<uint32_t> queues;               // real_num_rx_queues
  std::optional<kernel::Variant> variant;
  std::optional<kernel::SlotMode> slot;
  std::optional<driver::MatchMode> match;
  // One count for every queue (`broadcast`) or one per queue.
  std::optional<std::vector<uint64_t>> rps_flow_cnt;
  bool rps_flow_cnt_broadcast = false;
  std::optional<uint64_t> sock_flow_entries;
  std::optional<std::vector<uint16_t>> rmap;    // queue per CPU
  std::optional<bool> ntuple;
};

// The resolved configuration a backend is built from.
struct ScenarioConfig {
  uint32_t cpus = 0;
  uint32_t queues = 0;
  kernel::Variant variant = kernel::Variant::kPatched;
  kernel::SlotMode slot = kernel::SlotMode::kLog;
  driver::MatchMode match = driver::MatchMode::kTuple;
  std::vector<uint64_t> rps_flow_cnt;           // per queue; 0 = no table
  uint64_t sock_flow_entries = 0;
  std::vector<uint16_t> rmap;                   // per CPU (cpu % queues by default)
  bool ntuple = true;
};

struct RecordEvent { uint32_t hash = 0; uint32_t cpu = 0; };
struct PacketEvent {
  int32_t rxq = -1;         // recorded RX queue; -1 = none ("rxq": null)
  uint32_t hash = 0;
  FlowTuple flow;
  bool encap = false;
  bool frag = false;
};
struct DrainEvent { uint32_t cpu = 0; };
struct HeadAddEvent { uint32_t cpu = 0; uint32_t n = 0; };
struct OnlineEvent { uint32_t cpu = 0; bool state = true; };
struct SyncEvent {};
struct TimeEvent { uint64_t advance_ms = 0; };
struct DumpEvent {};

using Event = std::variant<ConfigEvent, RecordEvent, PacketEvent, DrainEvent, HeadAddEvent,
                           OnlineEvent, SyncEvent, TimeEvent, DumpEvent>;

// Parses one event object. Throws FieldError (unknown op, missing or unknown field, wrong
// type, number out of range). Checks that need the configuration (cpu < cpus, ...) are the
// runner's.
Event parse_event(const nlohmann::json& j);

// ---- results a backend returns --------------------------------------------------------
struct SlotState {
  uint32_t queue = 0;
  uint32_t slot = 0;
  kernel::rps_dev_flow flow;
};
struct EntryState {
  uint32_t fltr_id = 0;
  uint32_t flow_id = 0;
  int32_t q_index = 0;
  driver::FltrState state = driver::FltrState::kInactive;
  uint32_t bucket = 0;
  uint32_t position = 0;    // 0 = head of the bucket
};
struct DumpState {
  std::vector<SlotState> slots;     // every slot whose cpu or filter is set
  std::vector<EntryState> entries;  // every ice entry, bucket order, head first
  std::vector<uint32_t> heads;
  std::vector<uint32_t> tails;
  driver::ArfsCounters counters;
};

// What executes the events. The runner validates every event against the configuration
// before it calls the backend; a backend throws FieldError only for limits of its own.
class ScenarioBackend {
 public:
  virtual ~ScenarioBackend() = default;
  virtual void configure(const ScenarioConfig& cfg) = 0;                // first config
  virtual void store_rps_flow_cnt(uint32_t queue, uint64_t count) = 0;  // later config
  virtual void record(uint32_t hash, uint32_t cpu) = 0;
  virtual kernel::RxDecision packet(const PacketEvent& ev) = 0;
  virtual void drain(uint32_t cpu) = 0;
  virtual void head_add(uint32_t cpu, uint32_t n) = 0;
  virtual void set_online(uint32_t cpu, bool online) = 0;
  virtual driver::SyncResult sync(uint64_t now_ms) = 0;
  virtual DumpState dump() const = 0;
};

// Hardware that accepts every write (the scenario contract: "hardware writes succeed").
class AcceptingFdir : public driver::FdirWriter {
 public:
  int ice_fdir_write_fltr(const driver::FltrInfo&, bool add) override {
    ++(add ? adds_ : dels_);
    return 0;
  }
  uint64_t adds() const { return adds_; }
  uint64_t dels() const { return dels_; }

 private:
  uint64_t adds_ = 0;
  uint64_t dels_ = 0;
};

// The golden model: Kernel + IceArfs (ICE-CMP or ICE-2020 match) + AcceptingFdir.
class ModelBackend : public ScenarioBackend {
 public:
  void configure(const ScenarioConfig& cfg) override;
  void store_rps_flow_cnt(uint32_t queue, uint64_t count) override;
  void record(uint32_t hash, uint32_t cpu) override;
  kernel::RxDecision packet(const PacketEvent& ev) override;
  void drain(uint32_t cpu) override;
  void head_add(uint32_t cpu, uint32_t n) override;
  void set_online(uint32_t cpu, bool online) override;
  driver::SyncResult sync(uint64_t now_ms) override;
  DumpState dump() const override;

  // Null until configure().
  const kernel::Kernel* kernel() const { return kernel_.get(); }
  const driver::IceArfs* ice() const { return ice_.get(); }

 private:
  AcceptingFdir hw_;
  std::unique_ptr<kernel::Kernel> kernel_;
  std::unique_ptr<driver::IceArfs> ice_;
};

// The event loop: one line in, at most one JSON object out, in order.
class ScenarioRunner {
 public:
  explicit ScenarioRunner(ScenarioBackend& backend) : backend_(backend) {}

  // Next trace line (line numbers count from 1, every line counts). Blank lines and lines
  // whose first non-blank character is '#' give nullopt. Throws ScenarioError.
  std::optional<nlohmann::ordered_json> feed_line(const std::string& line);
  // Applies one parsed event as line `line` of the trace. Throws ScenarioError.
  nlohmann::ordered_json apply(const Event& ev, size_t line);
  // Runs a whole trace, writing one compact JSON object per event and line to `out` as it
  // goes (a bad line stops the run; the results of the lines before it are already written).
  void run(std::istream& in, std::ostream& out);

  bool configured() const { return config_.has_value(); }
  const std::optional<ScenarioConfig>& config() const { return config_; }
  uint64_t now_ms() const { return now_ms_; }
  size_t lines_read() const { return line_; }

 private:
  nlohmann::ordered_json apply_config(const ConfigEvent& ev);
  void check_cpu(uint32_t cpu, const char* field) const;

  ScenarioBackend& backend_;
  std::optional<ScenarioConfig> config_;
  uint64_t now_ms_ = 0;
  size_t line_ = 0;
};

// The output object of one event (the contract's field names; op first).
nlohmann::ordered_json packet_json(const kernel::RxDecision& d);
nlohmann::ordered_json sync_json(const driver::SyncResult& r);
nlohmann::ordered_json dump_json(const DumpState& s);

}  // namespace flowsteer::runs
