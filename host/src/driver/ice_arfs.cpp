// ice aRFS mirror. Step labels (R*, Y*) refer to spec 7.2 and 7.3.
#include "flowsteer/driver/ice_arfs.h"

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
  live_ = 0;
  last_fltr_id_ = 0;
  for (auto& c : active_cnt_) c = 0;
  active_ = true;
}

void IceArfs::ice_clear_arfs() {
  buckets_.clear();
  pool_.clear();
  free_.clear();
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
  return uint32_t(pool_.size() - 1);
}

void IceArfs::free_slot(uint32_t idx) {
  pool_[idx] = ArfsEntry{};
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
