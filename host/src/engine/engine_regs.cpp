// Register semantics follow hw/regs/flowsteer_regs.json: RO writes are ignored, WO reads
// give 0, W1C bits clear on 1, byte strobes apply to RW registers, a command register acts
// on any strobe. Unmapped addresses, array elements past the implemented sizes (CAPS) and
// values the engine cannot hold answer SLVERR and change nothing. Commands complete at
// once in the model (BUSY is never seen; DONE is set).
#include "flowsteer/engine/engine_regs.h"

#include <algorithm>
#include <cstring>

#include "flowsteer/flowsteer_regs.h"

namespace flowsteer::engine {

namespace r = flowsteer::regs;
using bus::AxiResp;

struct EngineRegisterFile::Decoded {
  const r::RegInfo* reg = nullptr;
  uint32_t index = 0;
  bool is(uint32_t addr) const { return reg->addr == addr; }
};

namespace {

EngineParams params_for(const EngineCaps& c) {
  EngineParams p;
  p.cpus = 1u << c.cpu_log2;
  p.queues = 1u << c.queue_log2;
  p.lut_size = 1u << c.lut_log2;
  p.filter_bucket_bits = c.flt_bucket_bits;
  p.filter_ways = c.flt_ways;
  p.event_fifo_depth = 1u << c.evt_log2;
  return p;
}

uint32_t be_word(const uint8_t* b) {
  return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
}

}  // namespace

EngineRegisterFile::EngineRegisterFile(const EngineCaps& caps)
    : caps_(caps), model_(params_for(caps)), store_(1u << 14, 0) {
  reset();
}

void EngineRegisterFile::reset() {
  model_ = EngineModel(params_for(caps_));
  model_.kernel_plane().set_driver(&model_);  // the copy's kernel calls this model
  store_.assign(1u << 14, 0);
  flt_status_ = flt_result_ = exp_status_ = err_status_ = 0;
  cnt_hi_latch_ = 0;
  refusals_seen_ = 0;
  enabled_ = false;
  const EngineCaps& caps = caps_;
  lut_.assign(1u << caps.lut_log2, 0);
  rps_pool_.assign(1u << caps.rps_pool_log2, 0);
  for (const auto& reg : r::kRegisters)
    if (reg.access == r::Access::kRW)
      for (uint32_t i = 0; i < reg.count; ++i) store_[(reg.addr + i * reg.stride) >> 2] = reg.reset;
  // LUT_CFG resets to the implemented LUT size (the map's reset value is the largest).
  store_[r::LUT_CFG::kAddr >> 2] = r::LUT_CFG::LOG2.put(std::min<uint32_t>(
      r::LUT_CFG::LOG2.get(r::LUT_CFG::kReset), caps.lut_log2));
  // Reset state: the model follows the registers' reset values.
  model_.set_nr_cpu_ids(r::NR_CPU_IDS::kReset);
  model_.set_num_rx_queues(r::NUM_RX_QUEUES::kReset);
  model_.set_rps_cpu_mask(r::RPS_CPU_MASK::kReset);
  for (uint32_t c = 0; c < (1u << caps.cpu_log2); ++c) {
    model_.set_cpu_online(c, false);
    model_.set_rmap(c, 0);
  }
  for (uint32_t q = 0; q < (1u << caps.queue_log2); ++q) model_.set_rps_flow_cnt(q, 0);
  model_.set_rps_sock_flow_entries(0);
  model_.set_hash_mode(nic::HashMode(r::HASH_CFG::MODE.get(r::HASH_CFG::kReset)));
  model_.set_key(hash::RssKey(52, 0));
  apply_ctrl(r::CTRL::kReset);
  apply_lut_cfg();
}

bool EngineRegisterFile::decode(uint32_t offset, Decoded& d) const {
  // the map's decode: arrays implemented up to the sizes that bound them (CAPS)
  r::Sizes s;
  s.lut_log2 = caps_.lut_log2;
  s.cpu_log2 = caps_.cpu_log2;
  s.queue_log2 = caps_.queue_log2;
  s.rps_pool_log2 = caps_.rps_pool_log2;
  d.reg = r::decode(offset, s, d.index);
  return d.reg != nullptr;
}

uint64_t EngineRegisterFile::counter(uint32_t i) const {
  const EngineCounters& c = model_.counters();
  using C = r::Counter;
  switch (C(i)) {
    case C::kPkts: return c.pkts;
    case C::kPktsHashed: return c.pkts_hashed;
    case C::kFltHits: return c.flt_hits;
    case C::kRfsCpu: return c.rfs_cpu;
    case C::kSteerCalls: return c.steer_calls;
    case C::kSteerAdds: return c.steer_adds;
    case C::kSteerRetargets: return c.steer_retargets;
    case C::kGateSkips: return c.gate_skips;
    case C::kDriverErrors: return c.driver_errors;
    case C::kFltDeletes: return c.flt_deletes;
    case C::kEvents: return c.events;
    case C::kEvtRefusals: return c.event_fifo_refusals;
    default: break;  // rtl_only counters: properties of the RTL's pipeline, not of the contract
  }
  uint32_t k = i - uint32_t(C::kParseClass0);
  if (i >= uint32_t(C::kParseClass0) && k < uint32_t(nic::kParseClassCount)) return c.parse_class[k];
  return 0;
}

FlowTuple EngineRegisterFile::flt_key() const {
  FlowTuple t;
  uint32_t meta = store_[r::FLT_META::kAddr >> 2];
  t.family = r::FLT_META::IPV6.get(meta) ? 6 : 4;
  t.proto = uint8_t(r::FLT_META::PROTO.get(meta));
  for (uint32_t w = 0; w < 4; ++w) {
    uint32_t s = store_[r::FLT_SRC::addr(w) >> 2], d = store_[r::FLT_DST::addr(w) >> 2];
    for (int b = 0; b < 4; ++b) {
      t.src[w * 4 + b] = uint8_t(s >> (24 - 8 * b));
      t.dst[w * 4 + b] = uint8_t(d >> (24 - 8 * b));
    }
  }
  if (t.family == 4)  // IPv4 lives in word 0 only
    for (int b = 4; b < 16; ++b) t.src[b] = t.dst[b] = 0;
  uint32_t ports = store_[r::FLT_PORTS::kAddr >> 2];
  t.sport = uint16_t(r::FLT_PORTS::SPORT.get(ports));
  t.dport = uint16_t(r::FLT_PORTS::DPORT.get(ports));
  return t;
}

uint32_t EngineRegisterFile::read_reg(const Decoded& d) {
  const uint32_t a = d.reg->addr;
  const kernel::Kernel& k = model_.kernel();
  if (a == r::ID::kAddr || a == r::VERSION::kAddr) return d.reg->reset;
  if (a == r::CAPS0::kAddr)
    return r::CAPS0::LUT_LOG2.put(caps_.lut_log2) | r::CAPS0::CPU_LOG2.put(caps_.cpu_log2) |
           r::CAPS0::QUEUE_LOG2.put(caps_.queue_log2) | r::CAPS0::SLOT_LOG2.put(caps_.slot_log2);
  if (a == r::CAPS1::kAddr)
    return r::CAPS1::FLT_BUCKET_BITS.put(caps_.flt_bucket_bits) | r::CAPS1::FLT_WAYS.put(caps_.flt_ways) |
           r::CAPS1::FLT_ID_WIDTH.put(caps_.flt_id_width) | r::CAPS1::SOCK_LOG2.put(caps_.sock_log2) |
           r::CAPS1::EVT_LOG2.put(caps_.evt_log2);
  if (a == r::STATUS::kAddr) return 0;
  if (a == r::ERR_STATUS::kAddr) {
    if (model_.counters().event_fifo_refusals != refusals_seen_) {
      refusals_seen_ = model_.counters().event_fifo_refusals;
      err_status_ |= r::ERR_STATUS::EVT_OVERFLOW.mask();
    }
    return err_status_;
  }
  if (a == r::FLT_STATUS::kAddr) return flt_status_;
  if (a == r::FLT_RESULT::kAddr) return flt_result_;
  if (a == r::FLT_COUNT::kAddr) return uint32_t(model_.filters().size());
  if (a == r::EXP_STATUS::kAddr) return exp_status_;
  if (a == r::CNT_LO::kAddr) {
    uint64_t v = counter(d.index);
    cnt_hi_latch_ = uint32_t(v >> 32);
    return uint32_t(v);
  }
  if (a == r::CNT_HI::kAddr) return cnt_hi_latch_;
  if (a == r::EVT_STATUS::kAddr) {
    uint32_t n = uint32_t(model_.events_pending());
    return r::EVT_STATUS::COUNT.put(n) | r::EVT_STATUS::VALID.put(n ? 1 : 0);
  }
  if (const FilterEvent* e = model_.peek_event()) {
    if (a == r::EVT_INFO::kAddr)
      return r::EVT_INFO::TYPE.put(uint32_t(e->type)) | r::EVT_INFO::IPV6.put(e->tuple.family == 6) |
             r::EVT_INFO::PROTO.put(e->tuple.proto);
    if (a == r::EVT_FILTER::kAddr) return r::EVT_FILTER::ID.put(e->id) | r::EVT_FILTER::QUEUE.put(e->queue);
    if (a == r::EVT_FLOW_ID::kAddr) return e->flow_id;
    if (a == r::EVT_HASH::kAddr) return e->hash;
    if (a == r::EVT_PORTS::kAddr) return r::EVT_PORTS::SPORT.put(e->tuple.sport) | r::EVT_PORTS::DPORT.put(e->tuple.dport);
    if (a == r::EVT_SRC::kAddr) return be_word(&e->tuple.src[d.index * 4]);
    if (a == r::EVT_DST::kAddr) return be_word(&e->tuple.dst[d.index * 4]);
  } else if (a >= r::EVT_INFO::kAddr && a <= r::EVT_DST::kAddr) {
    return 0;  // no head event
  }
  if (a == r::HEAD::kAddr) return k.head(d.index);
  if (a == r::TAIL::kAddr) return k.tail(d.index);
  if (a == r::LUT::kAddr) return lut_[d.index];
  if (a == r::RPS_MAP_CPUS::kAddr) return rps_pool_[d.index];
  if (d.reg->access == r::Access::kWO) return 0;
  return store_[(a + d.index * d.reg->stride) >> 2];
}

AxiResp EngineRegisterFile::read(uint32_t offset, uint32_t& value) {
  Decoded d;
  value = 0;
  if (!decode(offset, d)) return AxiResp::kSlvErr;
  value = read_reg(d);
  return AxiResp::kOkay;
}

AxiResp EngineRegisterFile::write(uint32_t offset, uint32_t value, uint8_t strb) {
  Decoded d;
  if (!decode(offset, d)) return AxiResp::kSlvErr;
  const r::Access acc = d.reg->access;
  if (acc == r::Access::kRO) return AxiResp::kOkay;
  uint32_t& slot = store_[offset >> 2];
  uint32_t old = slot;
  uint32_t v = value;
  if (acc == r::Access::kRW) {
    uint32_t bytes = 0;
    for (int b = 0; b < 4; ++b)
      if (strb & (1u << b)) bytes |= 0xFFu << (8 * b);
    v = ((old & ~bytes) | (value & bytes)) & d.reg->mask;
  }
  if (!write_reg(d, v)) return AxiResp::kSlvErr;
  if (acc == r::Access::kRW) slot = v;
  return AxiResp::kOkay;
}

void EngineRegisterFile::apply_ctrl(uint32_t v) {
  enabled_ = r::CTRL::ENABLE.get(v);
  model_.set_variant(r::CTRL::PATCHED.get(v) ? kernel::Variant::kPatched : kernel::Variant::kOriginal);
  model_.set_ntuple(r::CTRL::NTUPLE.get(v));
  model_.set_rx_cpu_rmap(r::CTRL::RMAP.get(v));
  model_.set_slot_mode(r::CTRL::SLOT_MASK.get(v) ? kernel::SlotMode::kMask : kernel::SlotMode::kLog);
  model_.set_rps_needed(r::CTRL::RPS.get(v));
  model_.set_filter_lookup(r::CTRL::FLT_LOOKUP.get(v));
}

void EngineRegisterFile::apply_lut_cfg() {
  uint32_t log2 = r::LUT_CFG::LOG2.get(store_[r::LUT_CFG::kAddr >> 2]);
  model_.set_lut(std::vector<uint16_t>(lut_.begin(), lut_.begin() + (1u << log2)));
}

void EngineRegisterFile::apply_rps_map(uint32_t q) {
  uint32_t v = store_[r::RPS_MAP::addr(q) >> 2];
  uint32_t len = r::RPS_MAP::LEN.get(v), base = r::RPS_MAP::BASE.get(v);
  model_.set_rps_map(q, std::vector<uint16_t>(rps_pool_.begin() + base, rps_pool_.begin() + base + len));
}

bool EngineRegisterFile::write_reg(const Decoded& d, uint32_t v) {
  const uint32_t a = d.reg->addr;
  kernel::Kernel& k = model_.kernel_plane();
  const uint32_t cpus = 1u << caps_.cpu_log2, queues = 1u << caps_.queue_log2;
  if (a == r::CTRL::kAddr) {
    apply_ctrl(v);
  } else if (a == r::ERR_STATUS::kAddr) {
    err_status_ &= ~v;
  } else if (a == r::NR_CPU_IDS::kAddr) {
    if (v == 0 || v > cpus) return false;
    model_.set_nr_cpu_ids(v);
  } else if (a == r::NUM_RX_QUEUES::kAddr) {
    if (v == 0 || v > queues) return false;
    model_.set_num_rx_queues(v);
  } else if (a == r::RPS_CPU_MASK::kAddr) {
    // the field keeps 16 bits (CPU ids are u16): the core's SET_CPU_MASK never sees a wider mask
    static_assert(r::RPS_CPU_MASK::VALUE.mask() == kernel::kMaxRpsCpuMask, "CPU ids are u16");
    model_.set_rps_cpu_mask(v);
  } else if (a == r::SOCK_CFG::kAddr) {
    uint32_t log2 = r::SOCK_CFG::LOG2.get(v);
    if (log2 > caps_.sock_log2) return false;
    model_.set_rps_sock_flow_entries(0);  // a write clears the table
    if (r::SOCK_CFG::PRESENT.get(v)) model_.set_rps_sock_flow_entries(uint64_t(1) << log2);
    model_.set_rps_cpu_mask(store_[r::RPS_CPU_MASK::kAddr >> 2]);
  } else if (a == r::LUT_CFG::kAddr) {
    if (r::LUT_CFG::LOG2.get(v) > caps_.lut_log2) return false;
    store_[r::LUT_CFG::kAddr >> 2] = v;
    apply_lut_cfg();
  } else if (a == r::CNT_CLEAR::kAddr) {
    if (r::CNT_CLEAR::ALL.get(v)) {
      model_.clear_counters();
      refusals_seen_ = 0;
    }
  } else if (a == r::CPU_ONLINE::kAddr) {
    for (uint32_t b = 0; b < 32 && d.index * 32 + b < cpus; ++b)
      model_.set_cpu_online(d.index * 32 + b, (v >> b) & 1);
  } else if (a == r::HASH_CFG::kAddr) {
    uint32_t mode = r::HASH_CFG::MODE.get(v);
    if (mode > uint32_t(r::HashMode::kJhashSym)) return false;
    model_.set_hash_mode(nic::HashMode(mode));
  } else if (a == r::HASH_SEED::kAddr) {
    model_.set_jhash_seed(v);
  } else if (a == r::RSS_KEY::kAddr) {
    hash::RssKey key(52);
    for (uint32_t w = 0; w < 13; ++w) {
      uint32_t word = w == d.index ? v : store_[r::RSS_KEY::addr(w) >> 2];
      for (int b = 0; b < 4; ++b) key[w * 4 + b] = uint8_t(word >> (24 - 8 * b));
    }
    model_.set_key(key);
  } else if (a == r::FLT_CMD::kAddr) {
    uint32_t op = r::FLT_CMD::OP.get(v);
    using Op = r::FilterOp;
    FilterErr err = FilterErr::kOk;
    uint32_t id = store_[r::FLT_ID::kAddr >> 2] & ((1u << caps_.flt_id_width) - 1);
    uint16_t q = uint16_t(store_[r::FLT_QUEUE::kAddr >> 2]);
    flt_result_ = 0;
    auto result = [&](const FilterHit& h) {
      flt_result_ = r::FLT_RESULT::ID.put(h.id) | r::FLT_RESULT::QUEUE.put(h.queue);
    };
    if (op == uint32_t(Op::kNop)) {
    } else if (op == uint32_t(Op::kInsert)) {
      FlowTuple t = flt_key();
      err = model_.filter_insert(t, id, q);
      if (err == FilterErr::kExists) result(*model_.filter_lookup(t));
    } else if (op == uint32_t(Op::kRetarget)) {
      err = model_.filter_retarget(id, q);
    } else if (op == uint32_t(Op::kDelete)) {
      err = model_.filter_delete(id);
    } else if (op == uint32_t(Op::kLookup)) {
      if (auto h = model_.filter_lookup(flt_key())) result(*h);
      else err = FilterErr::kNotFound;
    } else if (op == uint32_t(Op::kClear)) {
      model_.filter_clear();
    } else {
      err = FilterErr(r::FilterErr::kBadOp);
    }
    flt_status_ = r::FLT_STATUS::DONE.put(1) | r::FLT_STATUS::ERR.put(uint32_t(err));
  } else if (a == r::SOCK_CMD::kAddr) {
    uint32_t index = store_[r::SOCK_INDEX::kAddr >> 2];
    if (r::SOCK_CMD::WRITE.get(v) && !model_.sock_write(index, store_[r::SOCK_VALUE::kAddr >> 2]))
      return false;
    if (r::SOCK_CMD::READ.get(v)) {
      const kernel::rps_sock_flow_table* st = k.sock_table();
      if (!st || index > st->mask) return false;
      store_[r::SOCK_VALUE::kAddr >> 2] = st->ents[index];
    }
  } else if (a == r::EXP_CMD::kAddr) {
    if (r::EXP_CMD::GO.get(v)) {
      bool may = model_.rps_may_expire_flow(uint16_t(store_[r::EXP_QUEUE::kAddr >> 2]),
                                            store_[r::EXP_FLOW_ID::kAddr >> 2],
                                            uint16_t(store_[r::EXP_FILTER_ID::kAddr >> 2]));
      exp_status_ = r::EXP_STATUS::DONE.put(1) | r::EXP_STATUS::MAY_EXPIRE.put(may);
    }
  } else if (a == r::EVT_POP::kAddr) {
    if (r::EVT_POP::POP.get(v)) model_.pop_event();
  } else if (a == r::RMAP::kAddr) {
    if (v >= queues) return false;
    model_.set_rmap(d.index, uint16_t(v));
  } else if (a == r::LUT::kAddr) {
    if (v >= queues) return false;
    lut_[d.index] = uint16_t(v);
    apply_lut_cfg();
  } else if (a == r::RPS_FLOW_CNT::kAddr) {
    uint32_t log2 = r::RPS_FLOW_CNT::LOG2.get(v);
    if (log2 > caps_.slot_log2) return false;
    model_.set_rps_flow_cnt(d.index, r::RPS_FLOW_CNT::PRESENT.get(v) ? uint64_t(1) << log2 : 0);
  } else if (a == r::RPS_MAP::kAddr) {
    uint32_t len = r::RPS_MAP::LEN.get(v), base = r::RPS_MAP::BASE.get(v);
    if (uint64_t(base) + len > rps_pool_.size()) return false;
    store_[r::RPS_MAP::addr(d.index) >> 2] = v;
    apply_rps_map(d.index);
  } else if (a == r::RPS_MAP_CPUS::kAddr) {
    if (v >= cpus) return false;
    rps_pool_[d.index] = uint16_t(v);
    for (uint32_t q = 0; q < queues; ++q) {  // maps read the pool live
      uint32_t m = store_[r::RPS_MAP::addr(q) >> 2];
      uint32_t len = r::RPS_MAP::LEN.get(m), base = r::RPS_MAP::BASE.get(m);
      if (len && d.index >= base && d.index < base + len) apply_rps_map(q);
    }
  } else if (a == r::HEAD_ADD::kAddr) {
    model_.head_add(d.index, v);
  } else if (a == r::BACKLOG_DRAIN::kAddr) {
    if (v >= cpus) return false;
    model_.backlog_drain(v);
  }
  return true;
}

std::optional<OutputRecord> EngineRegisterFile::packet(const uint8_t* frame, size_t len) {
  if (!enabled_) return std::nullopt;
  return model_.packet(frame, len);
}

}  // namespace flowsteer::engine
