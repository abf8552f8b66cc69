// The engine's sequential contract (DESIGN.md), steps 1-5 per packet.
#include "flowsteer/engine/engine_model.h"

#include <cerrno>

namespace flowsteer::engine {

OutputRecord output_record(const regs::Rec& r) {
  OutputRecord o;
  o.hash = r.hash;
  o.cls = r.parse_class;
  o.hash_valid = r.hash_valid;
  o.filter_hit = r.filter_hit;
  o.action = r.action;
  o.queue = r.queue;
  o.cpu = r.cpu_valid ? int32_t(r.cpu) : -1;
  o.filter_id = o.filter_hit ? r.filter_id : 0;
  if (o.action == SteerAction::kSteered) o.steer_id = uint32_t(r.rc);
  if (o.action == SteerAction::kDriverError) o.error = r.rc;
  return o;
}

bool OutputRecord::operator==(const OutputRecord& o) const {
  return cls == o.cls && hash == o.hash && hash_valid == o.hash_valid && queue == o.queue &&
         filter_hit == o.filter_hit && filter_id == o.filter_id && cpu == o.cpu &&
         action == o.action && steer_id == o.steer_id && error == o.error;
}

EngineModel::EngineModel(const EngineParams& p)
    : params_(p),
      rss_(uint16_t(p.queues), nic::HashMode::kToeplitz, p.lut_size),
      kernel_(kernel::KernelConfig::sized(p.cpus, p.queues, p.variant, p.slot_mode)),
      filters_(p.filter_bucket_bits, p.filter_ways) {
  kernel_.set_driver(this);
}

void EngineModel::set_lut_entry(uint32_t i, uint16_t queue) { rss_.set_lut_entry(i, queue); }

FilterErr EngineModel::filter_delete(uint32_t id) {
  FilterErr e = filters_.remove(id);
  if (e == FilterErr::kOk) ++counters_.flt_deletes;
  return e;
}

std::optional<FilterEvent> EngineModel::pop_event() {
  if (events_.empty()) return std::nullopt;
  FilterEvent e = events_.front();
  events_.pop_front();
  return e;
}

int EngineModel::ndo_rx_flow_steer(const kernel::Skb& skb, uint16_t rxq_index, uint32_t flow_id) {
  ++counters_.steer_calls;
  const int rc = steer_filter(skb, rxq_index, flow_id);
  if (rc < 0) ++counters_.driver_errors;
  return rc;
}

int EngineModel::steer_filter(const kernel::Skb& skb, uint16_t rxq_index, uint32_t flow_id) {
  const FlowTuple& t = skb.tuple;
  // The ice rejections that apply to a parsed frame (spec 7.2 R2-R5, 7.5).
  if (skb.encapsulation || !skb.dissect_ok || (t.family != 4 && t.family != 6) ||
      skb.ipv4_fragment || (t.proto != kIpProtoTcp && t.proto != kIpProtoUdp))
    return -EPROTONOSUPPORT;
  // Nothing is lost silently: with no room to tell the host, the engine programs nothing.
  auto fifo_full = [&] {
    if (events_.size() < params_.event_fifo_depth) return false;
    ++counters_.event_fifo_refusals;
    return true;
  };
  if (auto hit = filters_.lookup(t)) {
    if (hit->queue == rxq_index) return int(hit->id);
    if (fifo_full()) return -EBUSY;
    filters_.retarget(hit->id, rxq_index);  // same id, new queue (spec 7.2 R9 "update")
    ++counters_.steer_retargets;
    events_.push_back({EventType::kRetarget, hit->id, t, rxq_index, flow_id, skb.hash});
    ++counters_.events;
    return int(hit->id);
  }
  // The ice id: atomic_inc_return on a signed counter, C remainder (spec 7.2). Drawing an id
  // advances the counter whatever becomes of it, as in ice; an event-FIFO refusal draws none.
  const int32_t next = static_cast<int32_t>(static_cast<uint32_t>(last_fltr_id_) + 1u);
  const int32_t id = next % 0xFFFF;
  if (id >= 0 && fifo_full()) return -EBUSY;
  last_fltr_id_ = next;
  if (id < 0) return id;  // after 2^31 allocations: the kernel gets rc < 0
  switch (filters_.insert(t, uint32_t(id), rxq_index)) {
    case FilterErr::kOk:
      break;
    case FilterErr::kFull:
      return -ENOSPC;
    case FilterErr::kIdInUse:
      return -EADDRINUSE;  // the id aliases a live filter (case 30)
    default:
      return -EIO;         // EXISTS cannot follow a lookup miss
  }
  ++counters_.steer_adds;
  events_.push_back({EventType::kInsert, uint32_t(id), t, rxq_index, flow_id, skb.hash});
  ++counters_.events;
  return id;
}

OutputRecord EngineModel::packet(const uint8_t* frame, size_t len) {
  nic::ParsedFrame p = nic::parse_frame(frame, len);  // 1. parse
  return steer(p, rss_.hash(p));                        // 2. hash (0 = none)
}

OutputRecord EngineModel::steer(const nic::ParsedFrame& p, uint32_t hash) {
  OutputRecord r;
  r.cls = p.cls;
  ++counters_.pkts;
  ++counters_.parse_class[static_cast<int>(p.cls)];
  r.hash = hash;
  r.hash_valid = r.hash != 0;
  if (r.hash_valid) ++counters_.pkts_hashed;
  std::optional<FilterHit> hit;                         // 3. filter, else LUT
  if (p.is_ip() && filter_lookup_) hit = filters_.lookup(p.tuple);
  if (hit) {
    r.filter_hit = true;
    r.filter_id = hit->id;
    r.queue = hit->queue;
    ++counters_.flt_hits;
  } else {
    r.queue = rss_.queue(r.hash);
  }
  kernel::Skb skb;                                      // 4-5. get_rps_cpu, enqueue
  skb.hash = r.hash;
  skb.rx_queue = r.queue;
  skb.tuple = p.tuple;
  skb.dissect_ok = p.is_ip();
  skb.ipv4_fragment = p.cls == nic::ParseClass::kIpv4Fragment;
  last_ = kernel_.netif_receive_skb(skb);
  const kernel::RxDecision& d = last_;
  r.cpu = d.cpu;
  if (d.cpu >= 0) ++counters_.rfs_cpu;
  if (d.path == kernel::SetRpsCpuPath::kSteered) {
    r.action = SteerAction::kSteered;
    r.steer_id = uint32_t(d.steer.rc);
  } else if (d.path == kernel::SetRpsCpuPath::kGateSkip) {
    r.action = SteerAction::kSkipped;
    ++counters_.gate_skips;
  } else if (d.path == kernel::SetRpsCpuPath::kDriverError) {
    r.action = SteerAction::kDriverError;
    r.error = d.steer.rc;
  }
  return r;
}

}  // namespace flowsteer::engine
