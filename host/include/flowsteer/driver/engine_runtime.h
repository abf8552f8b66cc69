// Driver plane for the hardware engine: the E810 ice aRFS interface over the engine, one
// implementation for every backend (model, simulated RTL, card: EngineControl). The engine
// programs filters itself (inline ndo_rx_flow_steer) and posts events; this runtime keeps
// the ice-style entry list from them, runs the service-task sync (spec 7.3: it asks the
// engine rps_may_expire_flow for each entry and deletes what may expire; UDP also 5 s
// after activation), and the lifecycle of spec 7.1 (init/clear/remove/rebuild, NTUPLE,
// the rmap from IRQ affinity, CPU hot-plug, spec 7.10).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "flowsteer/driver/ice_arfs.h"
#include "flowsteer/engine/engine_model.h"

namespace flowsteer::driver {

// What the runtime needs from an engine, whatever the backend (model, simulated RTL, card).
// Register errors surface as bus::DeviceError (one line), never as a skipped step.
class EngineControl {
 public:
  virtual ~EngineControl() = default;
  virtual std::optional<engine::FilterEvent> pop_event() = 0;
  virtual bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t filter_id) = 0;
  virtual engine::FilterErr filter_delete(uint32_t id) = 0;
  virtual uint64_t steer_calls() = 0;  // Steer-C, counted by the engine
  // NETIF_F_NTUPLE: off also flushes every filter (ice_vsi_manage_fdir(false)).
  virtual void set_ntuple(bool on) = 0;
  // Every filter deleted and every pending event dropped.
  virtual void clear_filters() = 0;
  virtual void set_cpu_online(uint32_t cpu, bool on) = 0;
  virtual void set_rmap(uint32_t cpu, uint16_t queue) = 0;  // rx_cpu_rmap near[cpu].index
  virtual uint32_t nr_cpu_ids() const = 0;
  virtual uint32_t num_rx_queues() const = 0;  // = q_vectors (one IRQ per queue)
  // DeviceError if the engine ignored a command since the last call (a busy block).
  virtual void check_errors() = 0;
  // True when the engine was reset or reloaded since it was configured.
  virtual bool engine_was_reset() = 0;
  // Configures the engine again as it was before the reset (knobs re-applied).
  virtual void restore() = 0;
};

// EngineControl straight onto the golden model.
class ModelEngineControl : public EngineControl {
 public:
  explicit ModelEngineControl(engine::EngineModel& m) : m_(m) {}
  std::optional<engine::FilterEvent> pop_event() override { return m_.pop_event(); }
  bool rps_may_expire_flow(uint16_t q, uint32_t f, uint16_t id) override {
    return m_.rps_may_expire_flow(q, f, id);
  }
  engine::FilterErr filter_delete(uint32_t id) override { return m_.filter_delete(id); }
  uint64_t steer_calls() override { return m_.counters().steer_calls; }
  void set_ntuple(bool on) override {
    m_.set_ntuple(on);
    if (!on) clear_filters();
  }
  void clear_filters() override {
    m_.filter_clear();
    while (m_.pop_event()) {
    }
  }
  void set_cpu_online(uint32_t cpu, bool on) override { m_.set_cpu_online(cpu, on); }
  void set_rmap(uint32_t cpu, uint16_t queue) override { m_.set_rmap(cpu, queue); }
  uint32_t nr_cpu_ids() const override { return m_.kernel().nr_cpu_ids(); }
  uint32_t num_rx_queues() const override { return m_.kernel().num_rx_queues(); }
  void check_errors() override {}  // model commands complete at once: never busy
  bool engine_was_reset() override { return false; }  // the host owns this model object
  void restore() override {}

 private:
  engine::EngineModel& m_;
};

// struct ice_arfs_entry as the engine gives it meaning (spec 7.10): INACTIVE from the
// engine's event until the first service-task pass (the filter is already in the engine,
// programmed inline; ice would write it now); ACTIVE after it (counted in the per-type
// active counters, expiry-checked from the next pass); TODEL while its delete is posted.
struct RuntimeEntry {
  uint32_t id = 0;
  FlowTuple tuple;
  uint16_t queue = 0;
  uint32_t flow_id = 0;
  uint32_t hash = 0;
  uint64_t time_activated = 0;
  FltrState fltr_state = FltrState::kInactive;
  FlowType flow_type() const;
};

class ArfsRuntime {
 public:
  // Active from the start (ice_init_arfs at VSI setup) over the engine's table as it is;
  // call ice_init_arfs() after a reset for an empty list over an empty table.
  explicit ArfsRuntime(EngineControl& eng) : eng_(eng), buckets_(ICE_MAX_ARFS_LIST) {}

  // --- ice lifecycle (spec 7.1) -------------------------------------------------------
  // The lists, empty, over an empty engine table (the flush of a fresh VSI); a no-op when
  // active, as in newer ice.
  void ice_init_arfs();
  // Frees every entry and the lists: aRFS inactive. No per-entry delete (spec 7.1).
  void ice_clear_arfs();
  void ice_remove_arfs() { ice_clear_arfs(); }
  // After a reset: remove + init (the engine's table flushed with it).
  void ice_rebuild_arfs();
  bool ice_is_arfs_active() const { return active_; }
  // netif_enable_cpu_rmap from IRQ affinity (spec 7.10): one vector per queue, vector q's
  // IRQ on CPU q; an online CPU gets its own vector (cpu % q_vectors when it has none), an
  // offline CPU's entry is left as it was (cpu_rmap updates online CPUs only). Then every
  // filter on a queue no online CPU maps to is deleted. Returns the filters deleted.
  size_t ice_set_cpu_rx_rmap();
  // ethtool -K ntuple off: the engine stops steering, every filter flushed, ice_clear_arfs;
  // on: ice_init_arfs, then the engine steers again (spec 7.1).
  void set_features_ntuple(bool on);
  // CPU hot-plug: cpu_online changes, the rmap is re-applied (ice_set_cpu_rx_rmap).
  size_t set_cpu_online(uint32_t cpu, bool on);
  bool cpu_online(uint32_t cpu) const { return cpu < online_.size() ? online_[cpu] : cpu < eng_.nr_cpu_ids(); }
  uint16_t rmap(uint32_t cpu) const;  // the queue the runtime mapped `cpu` to

  // The engine reset or reloaded behind our back: the knobs re-applied (restore), the
  // tables re-created (ice_rebuild_arfs when aRFS was active), CPU online state and rmap
  // re-applied; steering resumes. Returns true when it rebuilt. ice_sync_arfs_fltrs calls
  // it first; a caller with its own per-millisecond work calls it before that work.
  bool ice_check_reset();
  uint64_t resets() const { return resets_; }

  // Takes pending engine events into the entry list; calls the schedule hook for new ones.
  // Inactive: the events are dropped (their filters were flushed with the lists).
  size_t take_events(uint64_t now_ms);
  // ice_sync_arfs_fltrs: one service-task run (spec 7.3): take events, then delete every
  // entry that may expire; nothing while aRFS is inactive (Y1). Ends with the engine's
  // error check: an ignored command is a DeviceError, not a skipped step.
  SyncResult ice_sync_arfs_fltrs(uint64_t now_ms) { return sync(now_ms); }
  SyncResult sync(uint64_t now_ms);
  void set_schedule_hook(std::function<void()> h) { schedule_ = std::move(h); }

  // Steer-C from the engine; Add = filters the engine inserted; Del = deletes issued.
  // Steer-L stays 0: the engine's lookup is an exact match in hardware, not a list walk.
  ArfsCounters counters() const;
  // arfs_fltr_cntrs: ACTIVE filters per flow type (spec 7.6).
  int32_t active_fltr_cnt(FlowType t) const { return active_cnt_[static_cast<int>(t)]; }
  size_t num_entries() const { return by_id_.size(); }
  const RuntimeEntry* find(uint32_t id) const;
  std::vector<RuntimeEntry> entries() const;  // bucket order, newest first in a bucket
  uint64_t delete_errors() const { return delete_errors_; }

 private:
  void drop(uint32_t bucket, size_t i);  // unlink entry i of the bucket, keep the counters right
  bool served(uint16_t queue) const;     // an online CPU maps to it

  EngineControl& eng_;
  std::vector<std::vector<RuntimeEntry>> buckets_;   // by hash & 1023, [0] = newest
  std::unordered_map<uint32_t, uint32_t> by_id_;     // id -> bucket
  uint64_t add_ = 0, del_ = 0, delete_errors_ = 0, resets_ = 0;
  int32_t active_cnt_[kFlowTypeCount] = {0, 0, 0, 0};
  bool active_ = true;
  std::vector<bool> online_;     // empty: every CPU < nr_cpu_ids online
  std::vector<uint16_t> rmap_;   // empty: the 1:1 default the driver configured
  std::function<void()> schedule_;
};

}  // namespace flowsteer::driver
