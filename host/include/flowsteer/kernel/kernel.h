// Kernel plane: a sequential model of the RFS/aRFS code in net/core/dev.c
// (spec 1-5). One object is one net_device plus the global sock flow table and
// the per-CPU softnet_data counters.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/rps.h"
#include "flowsteer/kernel/skb.h"

namespace flowsteer::kernel {

// The driver op the kernel calls (ndo_rx_flow_steer shape, spec 3 S6).
// Returns a filter id >= 0, or a negative errno.
class RxFlowSteer {
 public:
  virtual ~RxFlowSteer() = default;
  virtual int ndo_rx_flow_steer(const Skb& skb, uint16_t rxq_index, uint32_t flow_id) = 0;
};

// One rps_may_expire_flow call of a batch: the arguments, then the answer.
struct ExpiryQuery {
  uint16_t rxq_index = 0;
  uint16_t filter_id = 0;
  uint32_t flow_id = 0;
  bool may_expire = false;
};

// How long an rps_may_expire_flow answer "keep" holds (ExpiryTracker).
struct ExpiryKeep {
  uint16_t cpu = 0;    // the slot's CPU when asked
  uint64_t until = 0;  // the head_advanced(cpu) value from which the answer may be "expire"
};

// Simulator-only, no kernel counterpart: lets a driver's walk skip the rps_may_expire_flow calls
// whose answer cannot have changed since it last asked (most of the system simulator's walk).
// A "keep" stays "keep" while the epoch is the same, the slot is not in the written slots and
// head_advanced(cpu) < until. One driver consumes the written slots.
class ExpiryTracker {
 public:
  virtual ~ExpiryTracker() = default;
  // Moves when any answer may change (a table, nr_cpu_ids, num_rx_queues, the slot mode, a
  // test hook) or written slots were dropped (not taken for too long).
  virtual uint64_t epoch() const = 0;
  // A CPU's input_queue_head advances summed in 64 bits (no wrap).
  virtual uint64_t head_advanced(uint32_t cpu) const = 0;
  // Appends the slots written since the last call (queue << 32 | index) that may have turned
  // a "keep" to "expire"; returns the call's number (1, 2, ...; not the last + 1: missed some).
  virtual uint64_t take_written_slots(std::vector<uint64_t>& out) = 0;
  // rps_may_expire_flows, and for each "keep" (q[i].may_expire false) keep[i].
  virtual void ask(ExpiryQuery* q, ExpiryKeep* keep, size_t n) = 0;
};

// The kernel export drivers call during expiry (spec 4.2).
class RpsMayExpireFlow {
 public:
  virtual ~RpsMayExpireFlow() = default;
  virtual bool rps_may_expire_flow(uint16_t rxq_index, uint32_t flow_id, uint16_t filter_id) = 0;
  // The calls of a walk that reads nothing they change, in order: answers q[i].may_expire as
  // rps_may_expire_flow would. The kernel overrides it to overlap the slots' cache misses.
  virtual void rps_may_expire_flows(ExpiryQuery* q, size_t n) {
    for (size_t i = 0; i < n; ++i)
      q[i].may_expire = rps_may_expire_flow(q[i].rxq_index, q[i].flow_id, q[i].filter_id);
  }
  // Simulator-only (see ExpiryTracker); null: ask about every entry.
  virtual ExpiryTracker* expiry_tracker() { return nullptr; }
};

struct KernelConfig {
  uint32_t nr_cpu_ids = 4;
  uint32_t num_rx_queues = 4;      // real_num_rx_queues
  uint32_t max_cpus = 0;           // state kept for this many CPUs; 0 = nr_cpu_ids
  uint32_t max_queues = 0;         // and queues; 0 = num_rx_queues (the engine's capacities)
  Variant variant = Variant::kPatched;
  SlotMode slot_mode = SlotMode::kLog;
  bool ntuple = true;              // NETIF_F_NTUPLE
  bool has_rx_cpu_rmap = true;     // dev->rx_cpu_rmap present
  std::vector<uint16_t> rmap;      // RX queue per CPU; empty = cpu % num_rx_queues
  uint32_t max_backlog = 0;        // netdev_max_backlog; 0 = never drop (spec 5)

  static KernelConfig sized(uint32_t cpus, uint32_t queues, Variant v, SlotMode m) {
    KernelConfig c;
    c.nr_cpu_ids = cpus;
    c.num_rx_queues = queues;
    c.variant = v;
    c.slot_mode = m;
    return c;
  }
};

// Which way set_rps_cpu went (spec 3.1/3.2 step labels) and the row of the spec 3.2 gate
// table that applied (patched only): enums set_rps_cpu_path and gate_row of the register
// map, which the engine's record carries.
using SetRpsCpuPath = regs::SetRpsCpuPath;
inline constexpr int kSetRpsCpuPathCount = regs::kSetRpsCpuPathCount;
inline const char* path_name(SetRpsCpuPath p) { return regs::set_rps_cpu_path_name(p); }

using GateRow = regs::GateRow;
inline constexpr int kGateRowCount = regs::kGateRowCount;
using regs::gate_row_name;

// A slot of one queue's table; queue < 0 means the stack dummy (voidflow) or none.
struct RflowRef {
  int32_t queue = -1;
  uint32_t slot = 0;
  bool valid() const { return queue >= 0; }
  bool operator==(const RflowRef& o) const { return queue == o.queue && slot == o.slot; }
};

struct SteerCall {
  bool called = false;
  uint16_t queue = 0;
  uint32_t flow_id = 0;
  int rc = 0;
};

// Everything one skb did to the kernel plane.
struct RxDecision {
  int cpu = -1;                 // get_rps_cpu's return value
  RflowRef rflow;               // slot whose last_qtail the enqueue writes
  SetRpsCpuPath path = SetRpsCpuPath::kNotCalled;
  GateRow gate = GateRow::kNotEvaluated;
  SteerCall steer;
  bool enqueued = false;
  bool dropped = false;         // backlog full (spec 5): nothing advanced
  uint32_t tail = 0;            // input_queue_tail of the chosen CPU after the enqueue
};

class Kernel : public RpsMayExpireFlow, private ExpiryTracker {
 public:
  explicit Kernel(const KernelConfig& cfg);

  // --- configuration knobs, validated like the kernel -----------------------------------
  // sysfs queues/rx-N/rps_flow_cnt (spec 1.1): 0 removes; rounds up to a power of two;
  // a new table is a full reset. Returns 0, -EINVAL (bad queue, too large) or -ENOMEM.
  int store_rps_flow_cnt(uint32_t rxq, uint64_t count);
  // sysctl net.core.rps_sock_flow_entries (spec 1.1): 0 removes; rounds up; > 2^29 -EINVAL.
  int set_rps_sock_flow_entries(uint64_t entries);
  // sysfs rps_cpus as a CPU list (spec 1.1 rps_map); empty removes.
  int set_rps_map(uint32_t rxq, const std::vector<uint16_t>& cpus);
  void set_cpu_online(uint32_t cpu, bool online);
  void set_ntuple(bool on) { cfg_.ntuple = on; }
  void set_rx_cpu_rmap(bool present) { cfg_.has_rx_cpu_rmap = present; }
  void set_rmap_entry(uint32_t cpu, uint16_t queue);
  void set_driver(RxFlowSteer* drv) { driver_ = drv; }
  void set_variant(Variant v) { cfg_.variant = v; }
  void set_slot_mode(SlotMode m) {
    cfg_.slot_mode = m;
    ++epoch_;
  }
  // Runtime sizes within the capacities (the engine's registers); false if out of range.
  bool set_nr_cpu_ids(uint32_t n);
  bool set_num_rx_queues(uint32_t n);
  // The register-level host writes rps_cpu_mask itself (the kernel computes it on sock
  // table allocation, spec 1.1); false, and unchanged, above kMaxRpsCpuMask.
  bool set_rps_cpu_mask(uint32_t m) {
    if (m > kMaxRpsCpuMask) return false;
    rps_cpu_mask_ = m;
    return true;
  }
  // Static key rps_needed: off, netif_receive_skb skips get_rps_cpu (spec 1.1).
  void set_rps_needed(bool on) { rps_needed_ = on; }

  // --- data path --------------------------------------------------------------------------
  // rps_record_sock_flow from recvmsg on `cpu` (spec 1.1); no-op for hash 0 or no table.
  void rps_record_sock_flow(uint32_t hash, uint32_t cpu);
  // A raw sock-table entry, as a register-level host writes it: index = hash & mask,
  // value = (hash & ~rps_cpu_mask) | cpu. Returns false for a bad index or no table.
  bool write_sock_entry(uint32_t index, uint32_t value);
  // sock_rps_delete_flow on close (spec 1.1, case 40).
  void sock_rps_delete_flow(uint32_t hash);
  // netif_receive_skb: get_rps_cpu, then enqueue_to_backlog when it returned a CPU.
  RxDecision netif_receive_skb(const Skb& skb);
  // netif_rx: as above, but -1 is replaced by the current CPU (spec 2.1).
  RxDecision netif_rx(const Skb& skb, uint32_t current_cpu);
  // Backlog processing (spec 5): head += n; drain = head catches up with tail.
  void input_queue_head_add(uint32_t cpu, uint32_t n) {
    head_[cpu] += n;
    head_advanced_[cpu] += n;
  }
  void drain(uint32_t cpu) {
    head_advanced_[cpu] += uint32_t(tail_[cpu] - head_[cpu]);
    head_[cpu] = tail_[cpu];
  }

  // --- exported helpers ------------------------------------------------------------------
  bool rps_may_expire_flow(uint16_t rxq_index, uint32_t flow_id, uint16_t filter_id) override;
  void rps_may_expire_flows(ExpiryQuery* q, size_t n) override;
  // Simulator-only: off (null) unless switched on; see ExpiryTracker. While on, a slot written
  // through a reference the mutable accessors below gave earlier must be followed by
  // set_expiry_tracking(true) again (which starts it over).
  void set_expiry_tracking(bool on);
  ExpiryTracker* expiry_tracker() override { return track_expiry_ ? this : nullptr; }
  bool rps_flow_is_active(const rps_dev_flow& flow, const rps_dev_flow_table& table,
                          uint32_t cpu) const;

  // --- state inspection ---------------------------------------------------------------
  const KernelConfig& config() const { return cfg_; }
  uint32_t nr_cpu_ids() const { return cfg_.nr_cpu_ids; }
  uint32_t num_rx_queues() const { return cfg_.num_rx_queues; }
  bool cpu_online(uint32_t cpu) const { return cpu < cfg_.nr_cpu_ids && online_[cpu]; }
  const rps_dev_flow_table* flow_table(uint32_t rxq) const { return tables_.at(rxq).get(); }
  rps_dev_flow_table* flow_table(uint32_t rxq) {  // a caller may write slots: epoch moves
    ++epoch_;
    return tables_.at(rxq).get();
  }
  const rps_sock_flow_table* sock_table() const { return sock_.get(); }
  uint32_t rps_cpu_mask() const { return rps_cpu_mask_; }
  uint32_t head(uint32_t cpu) const { return head_[cpu]; }
  uint32_t tail(uint32_t cpu) const { return tail_[cpu]; }
  // Test hooks for u32 wrap cases (spec 8 case 5): set both counters of a CPU.
  void set_backlog_counters(uint32_t cpu, uint32_t head, uint32_t tail) {
    head_advanced_[cpu] += uint32_t(head - head_[cpu]);
    head_[cpu] = head;
    tail_[cpu] = tail;
    ++epoch_;
  }
  uint16_t rmap_lookup(uint32_t cpu) const { return rmap_[cpu]; }
  rps_dev_flow* slot(const RflowRef& r) {  // a caller may write the slot: epoch moves
    ++epoch_;
    return slot_of(r);
  }

 private:
  rps_dev_flow* slot_of(const RflowRef& r) {
    return r.valid() ? &tables_[r.queue]->flows[r.slot] : nullptr;
  }
  // ExpiryTracker (simulator-only).
  uint64_t epoch() const override { return epoch_; }
  uint64_t head_advanced(uint32_t cpu) const override { return head_advanced_[cpu]; }
  uint64_t take_written_slots(std::vector<uint64_t>& out) override;
  void ask(ExpiryQuery* q, ExpiryKeep* keep, size_t n) override;
  void note_written(const RflowRef& r) {
    if (!track_expiry_) return;
    const uint64_t key = uint64_t(r.queue) << 32 | r.slot;
    uint64_t& seen = written_recently_[written_recently_index(key)];
    if (seen == key) return;  // in written_slots_ already (a slot thrashing between two flows)
    seen = key;
    if (written_slots_.size() >= kMaxWrittenSlots) {  // nobody takes them: start over
      written_slots_.clear();
      std::fill(written_recently_.begin(), written_recently_.end(), ~uint64_t(0));
      seen = key;
      ++epoch_;
    }
    written_slots_.push_back(key);
  }
  static constexpr size_t kMaxWrittenSlots = size_t(1) << 20;
  static constexpr unsigned kWrittenRecentlyLog = 12;
  static size_t written_recently_index(uint64_t key) {
    return size_t((key * 0x9E3779B97F4A7C15ull) >> (64 - kWrittenRecentlyLog));
  }
  int get_rps_cpu(const Skb& skb, RxDecision& d);
  RflowRef set_rps_cpu(const Skb& skb, RflowRef r, uint32_t next_cpu, RxDecision& d);
  void enqueue_to_backlog(uint32_t cpu, RxDecision& d);
  // rps_may_expire_flow once the queue's table t (null: none) is found.
  bool may_expire_in(const rps_dev_flow_table* t, uint32_t flow_id, uint16_t filter_id) const;
  // The queue's rps_dev_flow table; null when it has none or rxq_index is out of range
  // (the kernel does not range-check it: the model answers "expire").
  const rps_dev_flow_table* expiry_table(uint16_t rxq_index) const {
    return rxq_index < cfg_.num_rx_queues ? tables_[rxq_index].get() : nullptr;
  }

  KernelConfig cfg_;
  std::vector<bool> online_;
  std::vector<uint16_t> rmap_;
  std::vector<std::unique_ptr<rps_dev_flow_table>> tables_;
  std::vector<std::vector<uint16_t>> rps_maps_;
  std::unique_ptr<rps_sock_flow_table> sock_;
  uint32_t rps_cpu_mask_ = 0;
  bool rps_needed_ = true;
  std::vector<uint32_t> head_;   // softnet_data.input_queue_head
  std::vector<uint32_t> tail_;   // softnet_data.input_queue_tail
  RxFlowSteer* driver_ = nullptr;
  // ExpiryTracker state (simulator-only); head_advanced_ and epoch_ are kept even while off.
  bool track_expiry_ = false;
  uint64_t epoch_ = 0;
  uint64_t takes_ = 0;
  std::vector<uint64_t> head_advanced_;
  std::vector<uint64_t> written_slots_;
  std::vector<uint64_t> written_recently_;  // some keys of written_slots_, by a hash of the key
};

// roundup_pow_of_two for the knob values.
uint64_t roundup_pow_of_two(uint64_t v);

}  // namespace flowsteer::kernel
