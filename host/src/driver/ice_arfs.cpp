// ice aRFS mirror. Step labels (R*, Y*) refer to spec 7.2 and 7.3.
#include "flowsteer/driver/ice_arfs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace flowsteer::driver {

const char* fltr_state_name(FltrState s) {
  static const char* const names[] = {"inactive", "active", "todel"};
  return names[static_cast<int>(s)];
}

const char* flow_type_name(FlowType t) {
  static const char* const names[] = {"tcp4", "udp4", "tcp6", "udp6"};
  return names[static_cast<int>(t)];
}

IceArfs::IceArfs(const Options& opt, FdirWriter* hw) : opt_(opt), hw_(hw) { ice_init_arfs(); }

void IceArfs::ice_init_arfs() {
  if (active_) return;
  buckets_.assign(ICE_MAX_ARFS_LIST, {});
  pool_.clear();
  free_.clear();
  watch_.clear();
  unwatch_all();
  live_ = 0;
  last_fltr_id_ = 0;
  for (auto& c : active_cnt_) c = 0;
  active_ = true;
}

void IceArfs::ice_clear_arfs() {
  buckets_.clear();
  pool_.clear();
  free_.clear();
  watch_.clear();
  unwatch_all();
  live_ = 0;
  active_ = false;
}

void IceArfs::ice_rebuild_arfs() {
  ice_clear_arfs();
  ice_init_arfs();
}

void IceArfs::set_perfect_flow_bitmap(bool present, uint8_t type_bits) {
  perfect_bitmap_present_ = present;
  perfect_bits_ = type_bits;
}

uint32_t IceArfs::alloc_slot() {
  if (!free_.empty()) {
    uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  pool_.emplace_back();
  watch_.emplace_back();
  return uint32_t(pool_.size() - 1);
}

void IceArfs::free_slot(uint32_t idx) {
  pool_[idx] = ArfsEntry{};
  end_watch(idx);
  watch_[idx].live = false;
  free_.push_back(idx);
  --live_;
}

bool IceArfs::tuple_eq(const ArfsEntry& e, const FlowTuple& fk) const {
  const FlowTuple& t = e.fltr_info.tuple;
  bool v4 = e.fltr_info.flow_type == FlowType::kIpv4Tcp || e.fltr_info.flow_type == FlowType::kIpv4Udp;
  if (v4) {
    return fk.family == 4 && t.sport == fk.sport && t.dport == fk.dport &&
           std::memcmp(t.src.data(), fk.src.data(), 4) == 0 &&
           std::memcmp(t.dst.data(), fk.dst.data(), 4) == 0 && t.proto == fk.proto;
  }
  // IPv6 entries do not compare n_proto (spec 7.2 TUPLE_EQ).
  return t.sport == fk.sport && t.dport == fk.dport && t.proto == fk.proto && t.src == fk.src &&
         t.dst == fk.dst;
}

int IceArfs::ice_rx_flow_steer(const kernel::Skb& skb, uint16_t rxq_idx, uint32_t flow_id) {
  ++counters_.steer_c;  // spec 7.9.2: every call, whatever it returns
  if (!active_) return -ENODEV;                                     // R1
  if (skb.encapsulation) return -EPROTONOSUPPORT;                   // R2
  const FlowTuple& fk = skb.tuple;
  if (!skb.dissect_ok) return -EPROTONOSUPPORT;                     // R3
  if (fk.family == 4 && skb.ipv4_fragment) return -EPROTONOSUPPORT; // R4
  if (fk.family != 4 && fk.family != 6) return -EPROTONOSUPPORT;
  if (fk.proto != kIpProtoTcp && fk.proto != kIpProtoUdp) return -EPROTONOSUPPORT;  // R5
  FlowType type = fk.family == 4 ? (fk.proto == kIpProtoTcp ? FlowType::kIpv4Tcp : FlowType::kIpv4Udp)
                                 : (fk.proto == kIpProtoTcp ? FlowType::kIpv6Tcp : FlowType::kIpv6Udp);
  if (perfect_bitmap_present_ && !(perfect_bits_ & (1u << static_cast<int>(type))))
    return -EOPNOTSUPP;                                             // R6
  uint32_t idx = skb.hash & ICE_ARFS_LST_MASK;                      // R7
  auto& bucket = buckets_[idx];
  for (const BucketSlot& s : bucket) {                              // R9
    ++counters_.steer_l;
    if (s.flow_id != flow_id) continue;
    ArfsEntry& e = pool_[s.entry];
    if (opt_.match == MatchMode::kTuple && !tuple_eq(e, fk)) continue;
    int ret = static_cast<int>(e.fltr_info.fltr_id);
    if (e.fltr_info.q_index == int16_t(rxq_idx) || e.fltr_state != FltrState::kActive) return ret;
    e.fltr_info.q_index = int16_t(rxq_idx);  // queue changed: re-program at the next sync
    e.fltr_state = FltrState::kInactive;
    --active_cnt_[static_cast<int>(e.fltr_info.flow_type)];
    if (watching_) {
      end_watch(s.entry);
      queue_visit(s.entry, false);
    }
    schedule();
    return ret;
  }
  if (fail_entry_allocs_ > 0) {                                     // R10
    --fail_entry_allocs_;
    return -ENOMEM;
  }
  uint32_t ei = alloc_slot();
  ++live_;
  ArfsEntry& e = pool_[ei];
  e.fltr_info.flow_type = type;
  e.fltr_info.tuple = fk;
  e.fltr_info.q_index = int16_t(rxq_idx);
  e.fltr_info.dest_vsi = opt_.vsi;
  e.flow_id = flow_id;
  e.fltr_state = FltrState::kInactive;
  e.alloc_seq = built_++;
  // atomic_inc_return on a signed 32-bit counter, then C remainder (spec 7.2 id wrap).
  last_fltr_id_ = static_cast<int32_t>(static_cast<uint32_t>(last_fltr_id_) + 1u);
  e.fltr_info.fltr_id = static_cast<uint32_t>(last_fltr_id_ % 0xFFFF);
  ++counters_.add;
  bucket.insert(bucket.begin(), BucketSlot{ei, flow_id});
  EntryWatch& x = watch_[ei];
  x.bucket = idx;
  x.live = true;
  if (watching_) queue_visit(ei, false);
  schedule();
  return static_cast<int>(e.fltr_info.fltr_id);
}

// An ACTIVE entry expires when rps_may_expire_flow says so, or (UDP) this long after its
// activation.
bool IceArfs::udp_timed_out(const ArfsEntry& e, uint64_t now_ms) const {
  uint64_t deadline = e.time_activated + ICE_ARFS_TIME_DELTA_EXPIRATION_MS;
  return static_cast<int64_t>(now_ms - deadline) >= 0;  // time_after_eq64
}

SyncResult IceArfs::ice_sync_arfs_fltrs(uint64_t now_ms, kernel::RpsMayExpireFlow& k) {
  SyncResult res;
  if (!active_) return res;  // Y1
  std::vector<uint32_t> add_list, del_list;  // head insertion: processed newest first
  kernel::ExpiryTracker* t = k.expiry_tracker();
  if (t && full_walks_ > 0) {  // see walk_watched's end
    --full_walks_;
    written_.clear();
    // drained so the log does not grow; its slots are not read: the next watched walk starts over
    t->take_written_slots(written_);
    walk_all(now_ms, k, add_list, del_list);
  } else if (t) {
    walk_watched(now_ms, *t, add_list, del_list);
  } else {
    if (watching_) unwatch_all();
    walk_all(now_ms, k, add_list, del_list);
  }
  for (auto it = del_list.rbegin(); it != del_list.rend(); ++it) {  // Y3
    ArfsEntry& e = pool_[*it];
    ++counters_.del;
    int r = hw_ ? hw_->ice_fdir_write_fltr(e.fltr_info, false) : 0;
    if (r == 0) --active_cnt_[static_cast<int>(e.fltr_info.flow_type)];
    res.deleted.push_back(e.fltr_info.fltr_id);
    res.deleted_seq.push_back(e.alloc_seq);
    free_slot(*it);  // freed even if the HW delete failed (case 33)
  }
  for (auto it = add_list.rbegin(); it != add_list.rend(); ++it) {  // Y4
    ArfsEntry& e = pool_[*it];
    int r = hw_ ? hw_->ice_fdir_write_fltr(e.fltr_info, true) : 0;
    if (r == 0) ++active_cnt_[static_cast<int>(e.fltr_info.flow_type)];
    res.added.push_back(e.fltr_info.fltr_id);
  }
  return res;
}

void IceArfs::walk_all(uint64_t now_ms, kernel::RpsMayExpireFlow& k,
                       std::vector<uint32_t>& add_list, std::vector<uint32_t>& del_list) {
  // Y2 asks rps_may_expire_flow about each ACTIVE entry in walk order. Neither the kernel
  // state nor an entry before its own visit changes during the walk, so a first pass reads
  // the entries and asks the kernel in one batch (it overlaps the slot reads); the second
  // pass applies the answers and touches only the entries that change. The pool is in
  // allocation order, not walk order: the first pass fetches the entries two buckets ahead
  // (and their index arrays three).
  // (The records are written field by field in place: built in a temporary and copied, they
  // were stored in pieces and loaded whole, a store-forwarding stall per entry.)
  size_t walked = 0, asked = 0;
  for (const auto& bucket : buckets_) walked += bucket.size();
  if (seen_.size() < walked) seen_.resize(walked);
  if (expiry_.size() < walked) expiry_.resize(walked);
  size_t v = 0;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    if (b + 3 < buckets_.size()) __builtin_prefetch(buckets_[b + 3].data());
    if (b + 2 < buckets_.size())
      for (const BucketSlot& s : buckets_[b + 2]) __builtin_prefetch(&pool_[s.entry]);
    for (const BucketSlot& s : buckets_[b]) {
      const ArfsEntry& e = pool_[s.entry];
      WalkVisit& w = seen_[v++];
      w.state = e.fltr_state;
      w.udp = is_udp(e.fltr_info.flow_type);
      if (e.fltr_state != FltrState::kActive) continue;
      kernel::ExpiryQuery& q = expiry_[asked++];
      q.rxq_index = uint16_t(e.fltr_info.q_index);
      q.filter_id = static_cast<uint16_t>(e.fltr_info.fltr_id);
      q.flow_id = e.flow_id;
    }
  }
  k.rps_may_expire_flows(expiry_.data(), asked);
  size_t answer = 0, visit = 0;
  for (auto& bucket : buckets_) {  // Y2
    for (size_t i = 0; i < bucket.size(); ++visit) {
      const WalkVisit seen = seen_[visit];
      if (seen.state == FltrState::kInactive) {
        if (fail_wrapper_allocs_ > 0) {  // stays INACTIVE, retried next run (case 31)
          --fail_wrapper_allocs_;
          ++i;
          continue;
        }
        ArfsEntry& e = pool_[bucket[i].entry];
        add_list.push_back(bucket[i].entry);
        e.fltr_state = FltrState::kActive;
        if (seen.udp) e.time_activated = now_ms;
        ++i;
      } else if (seen.state == FltrState::kActive &&
                 (expiry_[answer++].may_expire ||
                  (seen.udp && udp_timed_out(pool_[bucket[i].entry], now_ms)))) {
        pool_[bucket[i].entry].fltr_state = FltrState::kToDel;
        del_list.push_back(bucket[i].entry);
        bucket.erase(bucket.begin() + long(i));
      } else {
        ++i;
      }
    }
  }
}

void IceArfs::unwatch_all() {
  watching_ = false;
  tracker_ = nullptr;
  for (EntryWatch& x : watch_) {
    x.queued = x.ask = x.udp_listed = false;
    x.watch = x.slot_tag = 0;
  }
  watched_ = due_items_ = 0;
  due_.clear();
  slot_rebuild();
  udp_active_.clear();
  visit_.clear();
}

void IceArfs::queue_visit(uint32_t entry, bool ask) {
  EntryWatch& x = watch_[entry];
  x.ask |= ask;
  if (!x.queued) {
    x.queued = true;
    visit_.push_back(entry);
  }
}

void IceArfs::end_watch(uint32_t entry) {
  EntryWatch& x = watch_[entry];
  if (x.watch) --watched_;
  x.watch = x.slot_tag = 0;
}

// A "keep" just given: ask again when the kernel's head passes `until` or the slot is written.
void IceArfs::watch(uint32_t entry, const kernel::ExpiryKeep& keep, kernel::ExpiryTracker& t) {
  EntryWatch& x = watch_[entry];
  if (x.watch) --watched_;
  x.watch = 0;
  if (keep.until <= t.head_advanced(keep.cpu)) {
    queue_visit(entry, true);
    return;
  }
  if (++next_id_ == 0) next_id_ = 1;
  x.watch = next_id_;
  ++watched_;
  if (due_.size() <= keep.cpu) due_.resize(size_t(keep.cpu) + 1);
  due_[keep.cpu].push_back(DueItem{keep.until, entry, x.watch});
  std::push_heap(due_[keep.cpu].begin(), due_[keep.cpu].end(), std::greater<DueItem>());
  ++due_items_;
  if (x.slot_tag) return;  // its slot was not written since its last item went in
  if (++next_id_ == 0) next_id_ = 1;
  x.slot_tag = next_id_;
  const ArfsEntry& e = pool_[entry];
  slot_insert(uint64_t(uint16_t(e.fltr_info.q_index)) << 32 | e.flow_id, entry, x.slot_tag);
}

void IceArfs::slot_insert(uint64_t key, uint32_t entry, uint32_t tag) {
  if ((by_slot_used_ + 1) * 2 > by_slot_.size()) slot_rebuild();
  const size_t mask = by_slot_.size() - 1;
  for (size_t i = slot_home(key);; i = (i + 1) & mask) {
    SlotItem& it = by_slot_[i];
    if (it.key == kNoKey || it.key == kGone) {
      by_slot_used_ += it.key == kNoKey;
      it = SlotItem{key, entry, tag};
      slot_bits_[slot_bit(key) / 64] |= uint64_t(1) << (slot_bit(key) % 64);
      return;
    }
  }
}

// Keeps the live items only, in a table at most a quarter full.
void IceArfs::slot_rebuild() {
  std::vector<SlotItem> old;
  old.swap(by_slot_);
  old.erase(std::remove_if(old.begin(), old.end(),
                           [&](const SlotItem& it) {
                             return it.key == kNoKey || it.key == kGone ||
                                    watch_[it.entry].slot_tag != it.tag;
                           }),
            old.end());
  size_t size = 1024;
  while (size < 4 * old.size()) size *= 2;
  unsigned bits = 0;
  while ((size_t(1) << bits) < size) ++bits;
  slot_shift_ = 64 - bits;
  by_slot_.assign(size, SlotItem{kNoKey, 0, 0});
  by_slot_used_ = 0;
  std::fill(slot_bits_.begin(), slot_bits_.end(), 0);
  for (const SlotItem& it : old) slot_insert(it.key, it.entry, it.tag);
}

// Drops the heap items of keeps that ended once they outnumber the live ones (they end unseen
// when an entry is asked again or deleted).
void IceArfs::compact_watches() {
  if (due_items_ <= 2 * watched_ + 4096) return;
  due_items_ = 0;
  for (auto& h : due_) {
    h.erase(std::remove_if(h.begin(), h.end(),
                           [&](const DueItem& i) { return watch_[i.entry].watch != i.watch; }),
            h.end());
    std::make_heap(h.begin(), h.end(), std::greater<DueItem>());
    due_items_ += h.size();
  }
}

// Y2 as walk_all, visiting only: every INACTIVE entry, every ACTIVE UDP one (its time check),
// and the ACTIVE ones whose answer may have changed since their last "keep" (slot written,
// head past `until`, never asked), which alone are asked. Every other ACTIVE entry would be
// kept: the add and delete lists are walk_all's. The visits go in walk order: bucket order,
// and in a bucket newest first, i.e. alloc_seq descending (entries are inserted at the head).
void IceArfs::walk_watched(uint64_t now_ms, kernel::ExpiryTracker& t,
                           std::vector<uint32_t>& add_list, std::vector<uint32_t>& del_list) {
  written_.clear();
  const uint64_t takes = t.take_written_slots(written_);
  const bool restart =
      !watching_ || tracker_ != &t || t.epoch() != tracker_epoch_ || takes != tracker_takes_ + 1;
  if (restart) {
    unwatch_all();  // start over: visit and ask every entry
    watching_ = true;
    tracker_ = &t;
    for (const auto& bucket : buckets_)
      for (const BucketSlot& s : bucket) queue_visit(s.entry, true);
  } else {
    const size_t mask = by_slot_.size() - 1;
    for (uint64_t key : written_) {
      if (!slot_maybe(key)) continue;
      for (size_t i = slot_home(key); by_slot_[i].key != kNoKey; i = (i + 1) & mask) {
        SlotItem& it = by_slot_[i];
        if (it.key != key) continue;
        it.key = kGone;
        EntryWatch& x = watch_[it.entry];
        if (x.slot_tag != it.tag) continue;
        x.slot_tag = 0;
        queue_visit(it.entry, true);
      }
    }
    for (uint32_t c = 0; c < due_.size(); ++c) {
      auto& h = due_[c];
      const uint64_t head = h.empty() ? 0 : t.head_advanced(c);
      while (!h.empty() && h.front().until <= head) {
        const DueItem i = h.front();
        std::pop_heap(h.begin(), h.end(), std::greater<DueItem>());
        h.pop_back();
        --due_items_;
        if (watch_[i.entry].watch == i.watch) queue_visit(i.entry, true);
      }
    }
  }
  tracker_epoch_ = t.epoch();
  tracker_takes_ = takes;
  size_t listed = 0;  // the ACTIVE UDP entries, each once
  for (uint32_t e : udp_active_) watch_[e].udp_listed = false;
  for (uint32_t e : udp_active_) {
    EntryWatch& x = watch_[e];
    if (x.udp_listed || !x.live || pool_[e].fltr_state != FltrState::kActive) continue;
    x.udp_listed = true;
    udp_active_[listed++] = e;
    queue_visit(e, false);
  }
  udp_active_.resize(listed);

  run_.clear();
  constexpr size_t kAhead = 16;  // the visits' entries are random reads: overlap them
  for (size_t i = 0; i < visit_.size(); ++i) {
    if (i + kAhead < visit_.size()) {
      const ArfsEntry* ahead = &pool_[visit_[i + kAhead]];
      __builtin_prefetch(ahead);
      __builtin_prefetch(&ahead->alloc_seq);
      __builtin_prefetch(&watch_[visit_[i + kAhead]]);
    }
    const uint32_t e = visit_[i];
    EntryWatch& x = watch_[e];
    x.queued = false;
    if (x.live) run_.push_back(VisitKey{x.bucket, e, pool_[e].alloc_seq});
    else x.ask = false;
  }
  visit_.clear();
  // Into walk order: by bucket (a counting sort), then newest first in each bucket.
  bucket_start_.assign(ICE_MAX_ARFS_LIST + 1, 0);
  for (const VisitKey& v : run_) ++bucket_start_[v.bucket + 1];
  for (uint32_t b = 0; b < ICE_MAX_ARFS_LIST; ++b) bucket_start_[b + 1] += bucket_start_[b];
  sorted_.resize(run_.size());
  for (const VisitKey& v : run_) sorted_[bucket_start_[v.bucket]++] = v;
  run_.swap(sorted_);
  for (size_t i = 1; i < run_.size(); ++i) {  // a bucket's visits are few: insertion sort
    const VisitKey v = run_[i];
    size_t j = i;
    for (; j > 0 && run_[j - 1].bucket == v.bucket && run_[j - 1].alloc_seq < v.alloc_seq; --j)
      run_[j] = run_[j - 1];
    run_[j] = v;
  }
  size_t asked = 0;
  if (expiry_.size() < run_.size()) expiry_.resize(run_.size());
  if (keep_.size() < run_.size()) keep_.resize(run_.size());
  for (const VisitKey& v : run_) {
    const ArfsEntry& e = pool_[v.entry];
    if (e.fltr_state != FltrState::kActive || !watch_[v.entry].ask) continue;
    kernel::ExpiryQuery& q = expiry_[asked++];
    q.rxq_index = uint16_t(e.fltr_info.q_index);
    q.filter_id = static_cast<uint16_t>(e.fltr_info.fltr_id);
    q.flow_id = e.flow_id;
  }
  t.ask(expiry_.data(), keep_.data(), asked);
  size_t answer = 0;
  for (const VisitKey& v : run_) {  // Y2
    ArfsEntry& e = pool_[v.entry];
    EntryWatch& x = watch_[v.entry];
    const bool ask = x.ask;
    x.ask = false;
    const bool udp = is_udp(e.fltr_info.flow_type);
    if (e.fltr_state == FltrState::kInactive) {
      if (fail_wrapper_allocs_ > 0) {  // stays INACTIVE, retried next run (case 31)
        --fail_wrapper_allocs_;
        queue_visit(v.entry, false);
        continue;
      }
      add_list.push_back(v.entry);
      e.fltr_state = FltrState::kActive;
      if (udp) e.time_activated = now_ms;
      queue_visit(v.entry, true);  // asked at the next run, like every ACTIVE entry
    } else if (e.fltr_state == FltrState::kActive) {
      const size_t a = ask ? answer++ : 0;
      if ((ask && expiry_[a].may_expire) || (udp && udp_timed_out(e, now_ms))) {
        e.fltr_state = FltrState::kToDel;
        del_list.push_back(v.entry);
        auto& bucket = buckets_[v.bucket];
        bucket.erase(std::find_if(bucket.begin(), bucket.end(),
                                  [&](const BucketSlot& s) { return s.entry == v.entry; }));
        continue;  // free_slot ends its watch
      }
      if (ask) watch(v.entry, keep_[a], t);
    } else {
      continue;
    }
    if (udp && !x.udp_listed) {
      x.udp_listed = true;
      udp_active_.push_back(v.entry);
    }
  }
  compact_watches();
  // A visit costs several times what walk_all spends on an entry: when a run handled more
  // than an eighth as many items as there are entries (small slot tables thrashing), walk_all
  // serves the next kFullWalks runs.
  if (!restart && live_ >= opt_.full_walk_min_entries &&
      (run_.size() + written_.size()) * 8 > live_) {
    unwatch_all();
    full_walks_ = kFullWalks;
  }
}

std::vector<EntryView> IceArfs::entries() const {
  std::vector<EntryView> out;
  for (uint32_t b = 0; b < buckets_.size(); ++b)
    for (uint32_t p = 0; p < buckets_[b].size(); ++p)
      out.push_back({&pool_[buckets_[b][p].entry], b, p});
  return out;
}

const ArfsEntry* IceArfs::find(uint32_t fltr_id) const {
  for (const auto& bucket : buckets_)
    for (const BucketSlot& s : bucket)
      if (pool_[s.entry].fltr_info.fltr_id == fltr_id) return &pool_[s.entry];
  return nullptr;
}

}  // namespace flowsteer::driver
