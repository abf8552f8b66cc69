// Sequential model of the kernel's RFS/aRFS code. Step labels (G*, S*) refer to
// spec sections 2.2, 3.1 and 3.2.
#include "flowsteer/kernel/kernel.h"

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "flowsteer/hash/hash.h"

namespace flowsteer::kernel {

const char* variant_name(Variant v) { return v == Variant::kOriginal ? "original" : "patched"; }
const char* slot_mode_name(SlotMode m) { return m == SlotMode::kLog ? "log" : "mask"; }

uint64_t roundup_pow_of_two(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

Kernel::Kernel(const KernelConfig& cfg) : cfg_(cfg) {
  if (cfg_.nr_cpu_ids == 0 || cfg_.nr_cpu_ids > RPS_NO_CPU)
    throw std::invalid_argument("nr_cpu_ids must be 1..65535");
  if (cfg_.num_rx_queues == 0 || cfg_.num_rx_queues > 65535)
    throw std::invalid_argument("num_rx_queues must be 1..65535");
  if (cfg_.max_cpus < cfg_.nr_cpu_ids) cfg_.max_cpus = cfg_.nr_cpu_ids;
  if (cfg_.max_queues < cfg_.num_rx_queues) cfg_.max_queues = cfg_.num_rx_queues;
  if (cfg_.max_cpus > RPS_NO_CPU || cfg_.max_queues > 65535)
    throw std::invalid_argument("max_cpus must be <= 65535 and max_queues <= 65535");
  online_.assign(cfg_.max_cpus, true);
  rmap_.resize(cfg_.max_cpus);
  for (uint32_t c = 0; c < cfg_.max_cpus; ++c) {
    if (cfg_.rmap.empty()) {
      rmap_[c] = uint16_t(c % cfg_.num_rx_queues);  // alloc_cpu_rmap default (spec 1.2)
    } else {
      if (c >= cfg_.rmap.size()) {
        if (c < cfg_.nr_cpu_ids) throw std::invalid_argument("rmap needs one queue per CPU");
        rmap_[c] = uint16_t(c % cfg_.num_rx_queues);
        continue;
      }
      if (cfg_.rmap[c] >= cfg_.num_rx_queues)
        throw std::invalid_argument("rmap names a queue >= num_rx_queues");
      rmap_[c] = cfg_.rmap[c];
    }
  }
  tables_.resize(cfg_.max_queues);
  rps_maps_.resize(cfg_.max_queues);
  head_.assign(cfg_.max_cpus, 0);
  tail_.assign(cfg_.max_cpus, 0);
  head_advanced_.assign(cfg_.max_cpus, 0);
}

bool Kernel::set_nr_cpu_ids(uint32_t n) {
  if (n == 0 || n > cfg_.max_cpus) return false;
  cfg_.nr_cpu_ids = n;
  ++epoch_;
  return true;
}

bool Kernel::set_num_rx_queues(uint32_t n) {
  if (n == 0 || n > cfg_.max_queues) return false;
  cfg_.num_rx_queues = n;
  ++epoch_;
  return true;
}

// The knobs below accept any queue/CPU the model keeps state for (max_queues/max_cpus,
// = real_num_rx_queues/nr_cpu_ids unless capacities were given).
int Kernel::store_rps_flow_cnt(uint32_t rxq, uint64_t count) {
  if (rxq >= cfg_.max_queues) return -EINVAL;
  ++epoch_;
  if (count == 0) {
    tables_[rxq].reset();
    return 0;
  }
  uint64_t size = roundup_pow_of_two(count);
  if (size - 1 > 0xFFFFFFFFull) return -EINVAL;  // spec 1.1: mask must fit 32 bits
  if (size > kModelMaxFlowCnt) return -ENOMEM;    // model limit, documented in rps.h
  auto t = std::make_unique<rps_dev_flow_table>();
  uint8_t log = 0;
  while ((uint64_t(1) << log) < size) ++log;
  t->log = log;
  t->flows.assign(size, rps_dev_flow{});  // cpu = NO_CPU, filter = NO_FILTER (spec 1.1)
  tables_[rxq] = std::move(t);             // old table freed: no state carried over
  return 0;
}

int Kernel::set_rps_sock_flow_entries(uint64_t entries) {
  if (entries > kMaxSockFlowEntries) return -EINVAL;
  if (entries == 0) {
    sock_.reset();
    return 0;
  }
  uint32_t size = uint32_t(roundup_pow_of_two(entries));
  if (!sock_ || sock_->mask + 1 != size) {  // a new size is a new table
    sock_ = std::make_unique<rps_sock_flow_table>();
    sock_->mask = size - 1;
  }
  sock_->ents.assign(size, RPS_NO_CPU);  // every write, the same size included (spec 1.1)
  rps_cpu_mask_ = uint32_t(roundup_pow_of_two(cfg_.nr_cpu_ids) - 1);
  return 0;
}

int Kernel::set_rps_map(uint32_t rxq, const std::vector<uint16_t>& cpus) {
  if (rxq >= cfg_.max_queues) return -EINVAL;
  for (auto c : cpus)
    if (c >= cfg_.max_cpus) return -EINVAL;
  rps_maps_[rxq] = cpus;
  return 0;
}

void Kernel::set_cpu_online(uint32_t cpu, bool online) {
  if (cpu >= cfg_.max_cpus) throw std::out_of_range("cpu >= nr_cpu_ids");
  online_[cpu] = online;
  ++epoch_;
}

void Kernel::set_rmap_entry(uint32_t cpu, uint16_t queue) {
  if (cpu >= cfg_.max_cpus || queue >= cfg_.max_queues)
    throw std::out_of_range("rmap entry out of range");
  rmap_[cpu] = queue;
}

void Kernel::rps_record_sock_flow(uint32_t hash, uint32_t cpu) {
  if (!sock_ || hash == 0) return;  // sk_rxhash == 0: nothing recorded (spec 1.1)
  uint32_t val = (hash & ~rps_cpu_mask_) | cpu;
  uint32_t& ent = sock_->ents[hash & sock_->mask];
  if (ent != val) ent = val;
}

bool Kernel::write_sock_entry(uint32_t index, uint32_t value) {
  if (!sock_ || index > sock_->mask) return false;
  sock_->ents[index] = value;
  return true;
}

void Kernel::sock_rps_delete_flow(uint32_t hash) {
  if (!sock_ || hash == 0) return;
  sock_->ents[hash & sock_->mask] = RPS_NO_CPU;
}

bool Kernel::rps_flow_is_active(const rps_dev_flow& flow, const rps_dev_flow_table& table,
                                uint32_t cpu) const {
  // spec 4.1 (V-log); V-mask uses 10 * mask (spec 4.2 table).
  if (cpu >= cfg_.nr_cpu_ids) return false;
  int32_t d = static_cast<int32_t>(head_[cpu] - flow.last_qtail);
  return d < table.window(cfg_.slot_mode);
}

bool Kernel::may_expire_in(const rps_dev_flow_table* t, uint32_t flow_id,
                           uint16_t filter_id) const {
  if (t && flow_id < t->size()) {
    const rps_dev_flow& p = t->flows[flow_id];
    if (p.filter == filter_id && rps_flow_is_active(p, *t, p.cpu)) return false;
  }
  return true;
}

bool Kernel::rps_may_expire_flow(uint16_t rxq_index, uint32_t flow_id, uint16_t filter_id) {
  return may_expire_in(expiry_table(rxq_index), flow_id, filter_id);  // spec 4.2
}

void Kernel::rps_may_expire_flows(ExpiryQuery* q, size_t n) {
  // The slots are random reads in tables far larger than the caches: fetch each kAhead
  // queries before it is answered, so that many misses are in flight at once.
  constexpr size_t kAhead = 32;
  auto prefetch = [&](const ExpiryQuery& e) {
    const rps_dev_flow_table* t = expiry_table(e.rxq_index);
    if (t && e.flow_id < t->size()) __builtin_prefetch(&t->flows[e.flow_id]);
  };
  for (size_t i = 0; i < n && i < kAhead; ++i) prefetch(q[i]);
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) prefetch(q[i + kAhead]);
    q[i].may_expire = may_expire_in(expiry_table(q[i].rxq_index), q[i].flow_id, q[i].filter_id);
  }
}

void Kernel::set_expiry_tracking(bool on) {
  track_expiry_ = on;
  written_slots_.clear();
  written_recently_.assign(size_t(1) << kWrittenRecentlyLog, ~uint64_t(0));  // no key
  ++epoch_;
}

uint64_t Kernel::take_written_slots(std::vector<uint64_t>& out) {
  out.insert(out.end(), written_slots_.begin(), written_slots_.end());
  if (written_slots_.size() > written_recently_.size() / 8)
    std::fill(written_recently_.begin(), written_recently_.end(), ~uint64_t(0));
  else
    for (uint64_t key : written_slots_)
      written_recently_[written_recently_index(key)] = ~uint64_t(0);
  written_slots_.clear();
  return ++takes_;
}

// A slot kept at head H0 (d0 = H0 - last_qtail < window W) stays active while its CPU's head
// has advanced by less than W - max(d0, 0) since: d0 + A < W without wrap. An unrecorded
// enqueue since (last_qtail = tail, tail - head in [0, 2^31) at head H0 + a) gives
// d = (A - a) - (tail - head), in (-2^31, W) too: the clamp of d0 at 0 covers it.
void Kernel::ask(ExpiryQuery* q, ExpiryKeep* keep, size_t n) {
  rps_may_expire_flows(q, n);
  for (size_t i = 0; i < n; ++i) {
    if (q[i].may_expire) continue;
    const rps_dev_flow_table* t = expiry_table(q[i].rxq_index);
    const rps_dev_flow& p = t->flows[q[i].flow_id];
    const int64_t d0 = static_cast<int32_t>(head_[p.cpu] - p.last_qtail);
    const int64_t left = int64_t(t->window(cfg_.slot_mode)) - std::max<int64_t>(d0, 0);
    keep[i].cpu = p.cpu;
    keep[i].until = head_advanced_[p.cpu] + uint64_t(std::max<int64_t>(left, 0));
  }
}

RflowRef Kernel::set_rps_cpu(const Skb& skb, RflowRef r, uint32_t next_cpu, RxDecision& d) {
  rps_dev_flow* rflow = slot_of(r);
  if (next_cpu >= cfg_.nr_cpu_ids) {  // S1
    d.path = SetRpsCpuPath::kInvalidCpu;
    rflow->cpu = uint16_t(next_cpu);   // S9 only
    note_written(r);
    return r;
  }
  [&] {
    if (skb.rx_queue < 0 || !cfg_.has_rx_cpu_rmap || !cfg_.ntuple) {  // S2
      d.path = SetRpsCpuPath::kNoAccel;
      return;
    }
    uint16_t q = rmap_[next_cpu];  // S3
    if (q == uint32_t(skb.rx_queue)) {
      d.path = SetRpsCpuPath::kSameQueue;
      return;
    }
    rps_dev_flow_table* t = tables_[q].get();  // S4
    if (!t) {
      d.path = SetRpsCpuPath::kNoTargetTable;
      return;
    }
    uint32_t h = skb.hash;  // S5
    uint32_t fid = t->slot(h, cfg_.slot_mode);
    rps_dev_flow& p = t->flows[fid];
    if (cfg_.variant == Variant::kPatched) {  // S5g gate, spec 3.2 table
      uint16_t pcpu = p.cpu;
      if (p.filter == RPS_NO_FILTER) {
        d.gate = GateRow::kNoFilter;
      } else if (!rps_flow_is_active(p, *t, pcpu)) {
        d.gate = GateRow::kInactive;
      } else if (h != p.hash) {
        d.gate = GateRow::kSkipOtherFlow;
      } else if (next_cpu == pcpu) {
        d.gate = GateRow::kSkipSameFlow;
      } else {
        d.gate = GateRow::kSameFlowNewCpu;
      }
      if (d.gate == GateRow::kSkipOtherFlow || d.gate == GateRow::kSkipSameFlow) {
        d.path = SetRpsCpuPath::kGateSkip;
        return;
      }
    }
    int rc = driver_ ? driver_->ndo_rx_flow_steer(skb, q, fid) : -EOPNOTSUPP;  // S6
    d.steer = SteerCall{true, q, fid, rc};
    if (rc < 0) {
      d.path = SetRpsCpuPath::kDriverError;
      return;
    }
    rps_dev_flow* old = rflow;  // S7
    if (old->filter == rc) note_written(r);  // its filter cleared below (ExpiryTracker)
    r = RflowRef{int32_t(q), fid};
    rflow = &p;
    rflow->filter = uint16_t(rc);
    if (cfg_.variant == Variant::kPatched) rflow->hash = h;
    if (old->filter == rc) old->filter = RPS_NO_FILTER;
    d.path = SetRpsCpuPath::kSteered;
  }();
  rflow->last_qtail = head_[next_cpu];  // S8
  rflow->cpu = uint16_t(next_cpu);      // S9
  note_written(r);  // ExpiryTracker: the slot whose cpu (and maybe filter) S7-S9 wrote
  return r;
}

int Kernel::get_rps_cpu(const Skb& skb, RxDecision& d) {
  uint32_t rxq = 0;  // G2
  if (skb.rx_queue >= 0) {
    if (uint32_t(skb.rx_queue) >= cfg_.num_rx_queues) return -1;
    rxq = uint32_t(skb.rx_queue);
  }
  rps_dev_flow_table* ft = tables_[rxq].get();  // G3
  const std::vector<uint16_t>& map = rps_maps_[rxq];
  if (!ft && map.empty()) return -1;
  uint32_t h = skb.hash;  // G4
  if (h == 0) return -1;
  if (ft && sock_) {  // G5
    uint32_t ident = sock_->ents[h & sock_->mask];           // G5a
    if (((ident ^ h) & ~rps_cpu_mask_) == 0) {               // G5b
      uint32_t next_cpu = ident & rps_cpu_mask_;             // G5c
      RflowRef r{int32_t(rxq), ft->slot(h, cfg_.slot_mode)}; // G5d
      uint32_t tcpu = ft->flows[r.slot].cpu;
      if (tcpu != next_cpu) {                                // G5e
        const rps_dev_flow& f = ft->flows[r.slot];
        if (tcpu >= cfg_.nr_cpu_ids || !online_[tcpu] ||
            static_cast<int32_t>(head_[tcpu] - f.last_qtail) >= 0) {
          tcpu = next_cpu;
          r = set_rps_cpu(skb, r, next_cpu, d);
        }
      }
      if (tcpu < cfg_.nr_cpu_ids && online_[tcpu]) {         // G5f
        d.rflow = r;
        return int(tcpu);
      }
    }
  }
  if (!map.empty()) {  // G6: reciprocal_scale; rflow stays the dummy
    uint32_t t = map[uint32_t((uint64_t(h) * map.size()) >> 32)];
    if (online_[t]) return int(t);
  }
  return -1;  // G7
}

void Kernel::enqueue_to_backlog(uint32_t cpu, RxDecision& d) {
  // spec 5: a dropped skb moves neither the tail nor last_qtail (case 26).
  if (cfg_.max_backlog != 0 && tail_[cpu] - head_[cpu] > cfg_.max_backlog) {
    d.dropped = true;
    return;
  }
  uint32_t tail = ++tail_[cpu];
  if (d.rflow.valid()) {
    // ExpiryTracker: a last_qtail moved to the tail of the slot's own CPU (the CPU get_rps_cpu
    // returned with this slot is its cpu, G5f), at most 2^31 ahead of its head, cannot end a
    // "keep" sooner than its `until` (see ask); other writes may. (Checked before the store:
    // a load after it waits for the slot's address.)
    if (static_cast<int32_t>(tail - head_[cpu]) < 0) note_written(d.rflow);
    slot_of(d.rflow)->last_qtail = tail;
  }
  d.enqueued = true;
  d.tail = tail;
}

RxDecision Kernel::netif_receive_skb(const Skb& skb) {
  RxDecision d;
  d.cpu = rps_needed_ ? get_rps_cpu(skb, d) : -1;
  if (d.cpu >= 0) enqueue_to_backlog(uint32_t(d.cpu), d);
  else d.rflow = RflowRef{};
  return d;
}

RxDecision Kernel::netif_rx(const Skb& skb, uint32_t current_cpu) {
  RxDecision d;
  d.cpu = rps_needed_ ? get_rps_cpu(skb, d) : -1;
  if (d.cpu < 0) {
    d.rflow = RflowRef{};
    enqueue_to_backlog(current_cpu, d);
    return d;
  }
  enqueue_to_backlog(uint32_t(d.cpu), d);
  return d;
}

}  // namespace flowsteer::kernel
