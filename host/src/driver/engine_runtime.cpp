#include "flowsteer/driver/engine_runtime.h"

namespace flowsteer::driver {

FlowType RuntimeEntry::flow_type() const {
  const bool tcp = tuple.proto == kIpProtoTcp;
  if (tuple.family == 6) return tcp ? FlowType::kIpv6Tcp : FlowType::kIpv6Udp;
  return tcp ? FlowType::kIpv4Tcp : FlowType::kIpv4Udp;
}

void ArfsRuntime::ice_init_arfs() {
  if (active_) return;   // newer ice returns early when aRFS is already active (spec 7.1)
  eng_.clear_filters();  // an empty list over an empty table
  for (auto& c : active_cnt_) c = 0;
  active_ = true;
}

void ArfsRuntime::ice_clear_arfs() {
  for (auto& b : buckets_) b.clear();
  by_id_.clear();
  for (auto& c : active_cnt_) c = 0;  // arfs_fltr_cntrs freed with the lists
  active_ = false;
}

void ArfsRuntime::ice_rebuild_arfs() {
  ice_remove_arfs();
  ice_init_arfs();
}

bool ArfsRuntime::ice_check_reset() {
  if (!eng_.engine_was_reset()) return false;
  ++resets_;
  const bool was_active = active_;
  eng_.restore();  // configuration first: nothing is left half-programmed
  ice_remove_arfs();
  if (was_active) ice_init_arfs();
  if (!online_.empty())
    for (uint32_t c = 0; c < online_.size(); ++c)
      if (!online_[c]) eng_.set_cpu_online(c, false);
  if (!online_.empty() || !rmap_.empty()) ice_set_cpu_rx_rmap();
  return true;
}

void ArfsRuntime::set_features_ntuple(bool on) {
  if (!on) {
    eng_.set_ntuple(false);  // steering stops and the rules are flushed (manage_fdir(false))
    eng_.clear_filters();    // events of flushed filters go with them
    ice_clear_arfs();
    return;
  }
  ice_init_arfs();
  eng_.set_ntuple(true);
}

uint16_t ArfsRuntime::rmap(uint32_t cpu) const {
  if (cpu < rmap_.size()) return rmap_[cpu];
  const uint32_t nq = eng_.num_rx_queues();
  return uint16_t(nq ? cpu % nq : 0);  // the configured 1:1 default (spec 1.2)
}

bool ArfsRuntime::served(uint16_t queue) const {
  for (uint32_t c = 0; c < eng_.nr_cpu_ids(); ++c)
    if (cpu_online(c) && rmap(c) == queue) return true;
  return false;
}

size_t ArfsRuntime::ice_set_cpu_rx_rmap() {
  const uint32_t n = eng_.nr_cpu_ids(), nq = eng_.num_rx_queues();
  if (rmap_.size() != n) {
    rmap_.resize(n);
    for (uint32_t c = 0; c < n; ++c) rmap_[c] = uint16_t(c % nq);
  }
  for (uint32_t c = 0; c < n; ++c)
    if (cpu_online(c)) {
      rmap_[c] = uint16_t(c % nq);  // vector c's IRQ runs on CPU c (1:1 affinity)
      eng_.set_rmap(c, rmap_[c]);
    }
  // A filter on a queue that no online CPU is mapped to steers its flow to a CPU that is
  // gone: its slot's head is frozen, so it would never expire (spec 8 case 7).
  size_t removed = 0;
  for (uint32_t b = 0; b < buckets_.size(); ++b)
    for (size_t i = 0; i < buckets_[b].size();) {
      RuntimeEntry& e = buckets_[b][i];
      if (served(e.queue)) {
        ++i;
        continue;
      }
      e.fltr_state = FltrState::kToDel;
      if (eng_.filter_delete(e.id) != engine::FilterErr::kOk) ++delete_errors_;
      ++del_;
      ++removed;
      drop(b, i);
    }
  return removed;
}

size_t ArfsRuntime::set_cpu_online(uint32_t cpu, bool on) {
  const uint32_t n = eng_.nr_cpu_ids();
  if (cpu >= n) {
    eng_.set_cpu_online(cpu, on);  // the engine's refusal (-EINVAL), never a silent skip
    return 0;
  }
  if (online_.size() != n) online_.assign(n, true);
  online_[cpu] = on;
  eng_.set_cpu_online(cpu, on);
  return ice_set_cpu_rx_rmap();
}

void ArfsRuntime::drop(uint32_t bucket, size_t i) {
  auto& b = buckets_[bucket];
  const RuntimeEntry& e = b[i];
  if (e.fltr_state != FltrState::kInactive) --active_cnt_[static_cast<int>(e.flow_type())];
  by_id_.erase(e.id);
  b.erase(b.begin() + long(i));
}

size_t ArfsRuntime::take_events(uint64_t now_ms) {
  size_t n = 0;
  while (auto ev = eng_.pop_event()) {
    ++n;
    if (!active_) continue;  // no lists: the filter was flushed with them
    auto it = by_id_.find(ev->id);
    if (ev->type == engine::EventType::kRetarget && it != by_id_.end()) {
      // the engine moved the filter inline: it stays in its state
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
        if (b[i].id == ev->id) {
          drop(it->second, i);
          break;
        }
    }
    uint32_t bucket = ev->hash & ICE_ARFS_LST_MASK;
    RuntimeEntry e{ev->id,   ev->tuple, ev->queue,           ev->flow_id,
                   ev->hash, now_ms,    FltrState::kInactive};
    buckets_[bucket].insert(buckets_[bucket].begin(), e);
    by_id_[ev->id] = bucket;
    ++add_;
    if (schedule_) schedule_();
  }
  return n;
}

SyncResult ArfsRuntime::sync(uint64_t now_ms) {
  SyncResult res;
  ice_check_reset();
  take_events(now_ms);
  if (!active_) return res;  // Y1
  for (uint32_t b = 0; b < buckets_.size(); ++b) {
    auto& bucket = buckets_[b];
    for (size_t i = 0; i < bucket.size();) {
      RuntimeEntry& e = bucket[i];
      if (e.fltr_state == FltrState::kInactive) {  // not expiry-checked this pass (spec 8 case 35)
        e.fltr_state = FltrState::kActive;
        ++active_cnt_[static_cast<int>(e.flow_type())];
        ++i;
        continue;
      }
      bool expire = eng_.rps_may_expire_flow(e.queue, e.flow_id, uint16_t(e.id));
      if (!expire && e.tuple.proto == kIpProtoUdp)
        expire = static_cast<int64_t>(now_ms -
                                      (e.time_activated + ICE_ARFS_TIME_DELTA_EXPIRATION_MS)) >= 0;
      if (!expire) {
        ++i;
        continue;
      }
      e.fltr_state = FltrState::kToDel;
      if (eng_.filter_delete(e.id) != engine::FilterErr::kOk) ++delete_errors_;
      ++del_;
      res.deleted.push_back(e.id);
      drop(b, i);
    }
  }
  eng_.check_errors();
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
