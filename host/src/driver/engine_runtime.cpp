#include "flowsteer/driver/engine_runtime.h"

namespace flowsteer::driver {

size_t ArfsRuntime::take_events(uint64_t now_ms) {
  size_t n = 0;
  while (auto ev = eng_.pop_event()) {
    ++n;
    auto it = by_id_.find(ev->id);
    if (ev->type == engine::EventType::kRetarget && it != by_id_.end()) {
      for (auto& e : buckets_[it->second])
        if (e.id == ev->id) {
          e.queue = ev->queue;
          e.flow_id = ev->flow_id;
          e.time_activated = now_ms;
        }
      continue;
    }
    if (it != by_id_.end()) {  // an id reused while we still list it: the old entry is gone
      auto& b = buckets_[it->second];
      for (size_t i = 0; i < b.size(); ++i)
        if (b[i].id == ev->id) b.erase(b.begin() + long(i));
      by_id_.erase(it);
    }
    uint32_t bucket = ev->hash & ICE_ARFS_LST_MASK;
    RuntimeEntry e{ev->id, ev->tuple, ev->queue, ev->flow_id, ev->hash, now_ms, false};
    buckets_[bucket].insert(buckets_[bucket].begin(), e);
    by_id_[ev->id] = bucket;
    ++add_;
    if (schedule_) schedule_();
  }
  return n;
}

SyncResult ArfsRuntime::sync(uint64_t now_ms) {
  SyncResult res;
  take_events(now_ms);
  for (auto& bucket : buckets_) {
    for (size_t i = 0; i < bucket.size();) {
      RuntimeEntry& e = bucket[i];
      if (!e.checked) {  // new since the last pass: not expiry-checked yet (spec 8 case 35)
        e.checked = true;
        ++i;
        continue;
      }
      bool expire = eng_.rps_may_expire_flow(e.queue, e.flow_id, uint16_t(e.id));
      if (!expire && e.tuple.proto == kIpProtoUdp)
        expire = static_cast<int64_t>(now_ms - (e.time_activated + ICE_ARFS_TIME_DELTA_EXPIRATION_MS)) >= 0;
      if (!expire) {
        ++i;
        continue;
      }
      if (eng_.filter_delete(e.id) != engine::FilterErr::kOk) ++delete_errors_;
      ++del_;
      res.deleted.push_back(e.id);
      by_id_.erase(e.id);
      bucket.erase(bucket.begin() + long(i));
    }
  }
  return res;
}

ArfsCounters ArfsRuntime::counters() const {
  ArfsCounters c;
  c.steer_c = eng_.steer_calls();
  c.add = add_;
  c.del = del_;
  return c;
}

const RuntimeEntry* ArfsRuntime::find(uint32_t id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return nullptr;
  for (const auto& e : buckets_[it->second])
    if (e.id == id) return &e;
  return nullptr;
}

std::vector<RuntimeEntry> ArfsRuntime::entries() const {
  std::vector<RuntimeEntry> out;
  out.reserve(by_id_.size());
  for (const auto& b : buckets_) out.insert(out.end(), b.begin(), b.end());
  return out;
}

}  // namespace flowsteer::driver
