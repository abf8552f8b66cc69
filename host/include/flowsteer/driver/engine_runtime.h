// Driver plane for the hardware engine: the E810-style aRFS runtime. The engine programs
// filters itself (inline ndo_rx_flow_steer) and posts events; this runtime keeps the
// ice-style entry list from them and runs the service-task sync (spec 7.3): it asks the
// engine rps_may_expire_flow for each entry and deletes what may expire (UDP: also 5 s
// after activation).
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
class EngineControl {
 public:
  virtual ~EngineControl() = default;
  virtual std::optional<engine::FilterEvent> pop_event() = 0;
  virtual bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t filter_id) = 0;
  virtual engine::FilterErr filter_delete(uint32_t id) = 0;
  virtual uint64_t steer_calls() = 0;  // Steer-C, counted by the engine
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

 private:
  engine::EngineModel& m_;
};

struct RuntimeEntry {
  uint32_t id = 0;
  FlowTuple tuple;
  uint16_t queue = 0;
  uint32_t flow_id = 0;
  uint32_t hash = 0;
  uint64_t time_activated = 0;
  bool checked = false;  // false until the first sync pass after it arrived (spec 7.3)
};

class ArfsRuntime {
 public:
  explicit ArfsRuntime(EngineControl& eng) : eng_(eng), buckets_(ICE_MAX_ARFS_LIST) {}

  // Takes pending engine events into the entry list; calls the schedule hook for new ones.
  size_t take_events(uint64_t now_ms);
  // One service-task run: take events, then delete every entry that may expire.
  SyncResult sync(uint64_t now_ms);
  void set_schedule_hook(std::function<void()> h) { schedule_ = std::move(h); }

  // Steer-C from the engine; Add = filters the engine inserted; Del = deletes issued.
  // Steer-L stays 0: the engine's lookup is an exact match in hardware, not a list walk.
  ArfsCounters counters() const;
  size_t num_entries() const { return by_id_.size(); }
  const RuntimeEntry* find(uint32_t id) const;
  std::vector<RuntimeEntry> entries() const;  // bucket order, newest first in a bucket
  uint64_t delete_errors() const { return delete_errors_; }

 private:
  EngineControl& eng_;
  std::vector<std::vector<RuntimeEntry>> buckets_;   // by hash & 1023, [0] = newest
  std::unordered_map<uint32_t, uint32_t> by_id_;     // id -> bucket
  uint64_t add_ = 0, del_ = 0, delete_errors_ = 0;
  std::function<void()> schedule_;
};

}  // namespace flowsteer::driver
