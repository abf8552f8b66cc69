// Golden model of the hardware engine (DESIGN "The hardware engine and its contract"):
// packets and host commands in one total order, one at a time. The kernel plane is the
// same Kernel object the simulator uses; the engine itself is its ndo_rx_flow_steer driver.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>

#include "flowsteer/engine/filter_store.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/nic/parser.h"
#include "flowsteer/nic/rss.h"

namespace flowsteer::engine {

struct EngineParams {
  uint32_t cpus = 16;              // CPUs with state (nr_cpu_ids)
  uint32_t queues = 16;            // RX queues (real_num_rx_queues)
  uint32_t lut_size = 128;
  unsigned filter_bucket_bits = 8;
  unsigned filter_ways = 4;
  uint32_t event_fifo_depth = 64;
  kernel::Variant variant = kernel::Variant::kPatched;
  kernel::SlotMode slot_mode = kernel::SlotMode::kLog;
};

// Output record ACTION field (register map enum steer_action).
using SteerAction = regs::SteerAction;
using regs::steer_action_name;

struct OutputRecord {
  nic::ParseClass cls = nic::ParseClass::kTruncated;
  uint32_t hash = 0;
  bool hash_valid = false;     // hash != 0 (spec G4)
  uint16_t queue = 0;          // arrival queue
  bool filter_hit = false;
  uint32_t filter_id = 0;      // hit filter's id
  int32_t cpu = -1;            // get_rps_cpu's CPU, -1 = none
  SteerAction action = SteerAction::kNone;
  uint32_t steer_id = 0;       // kSteered: the id the driver returned
  int32_t error = 0;           // kDriverError: the negative errno
  bool operator==(const OutputRecord& o) const;
  bool operator!=(const OutputRecord& o) const { return !(*this == o); }
};

// The golden model's fields of an RTL record (layout REC; the engine's own fields, USER,
// CMD_SEQ, TAIL, are the caller's to check): one mapping for the benches and the card path.
OutputRecord output_record(const regs::Rec& r);

enum class EventType : uint8_t { kInsert = 1, kRetarget = 2 };

// What the engine tells the host when it programs a filter.
struct FilterEvent {
  EventType type = EventType::kInsert;
  uint32_t id = 0;
  FlowTuple tuple;
  uint16_t queue = 0;
  uint32_t flow_id = 0;
  uint32_t hash = 0;
  bool operator==(const FilterEvent& o) const {
    return type == o.type && id == o.id && tuple == o.tuple && queue == o.queue &&
           flow_id == o.flow_id && hash == o.hash;
  }
};

struct EngineCounters {
  uint64_t pkts = 0, pkts_hashed = 0, flt_hits = 0, rfs_cpu = 0;
  uint64_t steer_calls = 0, steer_adds = 0, steer_retargets = 0, gate_skips = 0;
  uint64_t driver_errors = 0, flt_deletes = 0, events = 0, event_fifo_refusals = 0;
  std::array<uint64_t, nic::kParseClassCount> parse_class{};
};

class EngineModel : public kernel::RxFlowSteer {
 public:
  explicit EngineModel(const EngineParams& p = EngineParams{});

  // --- host commands ---------------------------------------------------------------------
  void set_hash_mode(nic::HashMode m) { rss_.set_mode(m); }
  void set_key(const hash::RssKey& key) { rss_.set_key(key); }
  void set_jhash_seed(uint32_t s) { rss_.set_jhash_seed(s); }
  void set_lut_entry(uint32_t i, uint16_t queue);
  void set_rmap(uint32_t cpu, uint16_t queue) { kernel_.set_rmap_entry(cpu, queue); }
  void set_cpu_online(uint32_t cpu, bool on) { kernel_.set_cpu_online(cpu, on); }
  int set_rps_flow_cnt(uint32_t q, uint64_t count) { return kernel_.store_rps_flow_cnt(q, count); }
  int set_rps_sock_flow_entries(uint64_t n) { return kernel_.set_rps_sock_flow_entries(n); }
  void set_variant(kernel::Variant v) { kernel_.set_variant(v); }
  void set_ntuple(bool on) { kernel_.set_ntuple(on); }  // the host clears filters itself
  void set_slot_mode(kernel::SlotMode m) { kernel_.set_slot_mode(m); }
  void set_rx_cpu_rmap(bool present) { kernel_.set_rx_cpu_rmap(present); }
  void set_rps_needed(bool on) { kernel_.set_rps_needed(on); }
  bool set_nr_cpu_ids(uint32_t n) { return kernel_.set_nr_cpu_ids(n); }
  bool set_num_rx_queues(uint32_t n) { return kernel_.set_num_rx_queues(n); }
  bool set_rps_cpu_mask(uint32_t m) { return kernel_.set_rps_cpu_mask(m); }
  void set_lut(const std::vector<uint16_t>& lut) { rss_.set_lut(lut); }
  // CTRL.FLT_LOOKUP: off, filter hits do not pick the arrival queue.
  void set_filter_lookup(bool on) { filter_lookup_ = on; }
  void clear_counters() { counters_ = EngineCounters{}; }
  // Host filter commands (the FLT register block).
  FilterErr filter_insert(const FlowTuple& t, uint32_t id, uint16_t queue) {
    return filters_.insert(t, id, queue);
  }
  FilterErr filter_retarget(uint32_t id, uint16_t queue) { return filters_.retarget(id, queue); }
  std::optional<FilterHit> filter_lookup(const FlowTuple& t) const { return filters_.lookup(t); }
  void filter_clear() { filters_.clear(); }
  const FilterEvent* peek_event() const { return events_.empty() ? nullptr : &events_.front(); }
  int32_t last_fltr_id() const { return last_fltr_id_; }
  int set_rps_map(uint32_t q, const std::vector<uint16_t>& cpus) { return kernel_.set_rps_map(q, cpus); }
  void sock_record(uint32_t hash, uint32_t cpu) { kernel_.rps_record_sock_flow(hash, cpu); }
  bool sock_write(uint32_t index, uint32_t value) { return kernel_.write_sock_entry(index, value); }
  void head_add(uint32_t cpu, uint32_t n) { kernel_.input_queue_head_add(cpu, n); }
  void backlog_drain(uint32_t cpu) { kernel_.drain(cpu); }
  bool rps_may_expire_flow(uint16_t q, uint32_t flow_id, uint16_t id) {
    return kernel_.rps_may_expire_flow(q, flow_id, id);
  }
  FilterErr filter_delete(uint32_t id);
  std::optional<FilterEvent> pop_event();
  // The ice counter: the next id is counter + 1 (test hook for the id wrap).
  void set_last_fltr_id(int32_t v) { last_fltr_id_ = v; }

  // --- packets ---------------------------------------------------------------------------
  OutputRecord packet(const uint8_t* frame, size_t len);
  // Steps 3-5 for a frame already parsed and hashed (what packet() does after step 2).
  OutputRecord steer(const nic::ParsedFrame& p, uint32_t hash);

  // --- the engine as the kernel's driver -------------------------------------------------
  int ndo_rx_flow_steer(const kernel::Skb& skb, uint16_t rxq_index, uint32_t flow_id) override;

  const EngineCounters& counters() const { return counters_; }
  // The kernel plane's view of the last packet (set_rps_cpu path, gate row, slot).
  const kernel::RxDecision& last_decision() const { return last_; }
  const kernel::Kernel& kernel() const { return kernel_; }
  kernel::Kernel& kernel_plane() { return kernel_; }
  const FilterStore& filters() const { return filters_; }
  const nic::Rss& rss() const { return rss_; }
  size_t events_pending() const { return events_.size(); }
  const EngineParams& params() const { return params_; }

 private:
  int steer_filter(const kernel::Skb& skb, uint16_t rxq_index, uint32_t flow_id);

  EngineParams params_;
  nic::Rss rss_;
  kernel::Kernel kernel_;
  FilterStore filters_;
  std::deque<FilterEvent> events_;
  int32_t last_fltr_id_ = 0;
  bool filter_lookup_ = true;
  EngineCounters counters_;
  kernel::RxDecision last_;
};

}  // namespace flowsteer::engine
