// The random traffic and command mix of the conformance runs (see stimulus.h).
#include "stimulus.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"

namespace flowsteer::sim {

namespace r = flowsteer::regs;

const char* build_name(EngineBuild b) { return b == EngineBuild::kStandard ? "standard" : "small"; }

Stimulus::Stimulus(Scoreboard& sb, const StimulusConfig& cfg)
    : sb_(sb), cfg_(cfg), rng_(cfg.seed * 0x9E3779B97F4A7C15ull + 17), caps_(sb.sim().caps()) {}

void Stimulus::wr(uint32_t off, uint32_t v, uint8_t strb) { sb_.write(off, v, strb); }

uint32_t Stimulus::rd(uint32_t off) {
  uint32_t v = 0;
  sb_.read(off, v);
  return v;
}

FlowTuple Stimulus::random_tuple(int family, uint8_t proto) {
  FlowTuple t;
  t.family = uint8_t(family);
  t.proto = proto;
  for (size_t i = 0; i < t.addr_len(); ++i) {
    t.src[i] = uint8_t(rng_());
    t.dst[i] = uint8_t(rng_());
  }
  if (proto == kIpProtoTcp || proto == kIpProtoUdp) {
    t.sport = uint16_t(rng_());
    t.dport = uint16_t(rng_());
  }
  return t;
}

// Few flows, so tiny slot and sock tables collide; plus planted collisions.
void Stimulus::build_pool() {
  pool_.clear();
  auto proto_for = [&](int fam) -> uint8_t {
    if (cfg_.single_beat) return chance(0.5) ? kIpProtoTcp : kIpProtoUdp;
    double p = unit_(rng_);
    return p < 0.45 ? kIpProtoTcp : p < 0.9 ? kIpProtoUdp : uint8_t(fam == 6 ? 58 : 1);
  };
  // single-beat (throughput) runs spread over many flows: no same-hash stalls by design
  const unsigned n = cfg_.single_beat ? 1024 : 6 + rnd(20);
  random_flows_ = n;
  for (unsigned i = 0; i < n; ++i) {
    const int fam = cfg_.single_beat || chance(0.7) ? 4 : 6;
    Flow f;
    f.tuple = random_tuple(fam, proto_for(fam));
    f.fragment = !cfg_.single_beat && chance(0.06);
    pool_.push_back(f);
  }
  // Full 32-bit hash collisions under Toeplitz-symxor: same src^dst and sport^dport.
  for (int k = 0; k < 2; ++k) {
    Flow f = pool_[rnd(uint32_t(pool_.size()))];
    const uint8_t x = uint8_t(1 + rnd(255));
    const uint16_t y = uint16_t(1 + rnd(0xFFFF));
    for (size_t i = 0; i < f.tuple.addr_len(); ++i) {
      f.tuple.src[i] ^= x;
      f.tuple.dst[i] ^= x;
    }
    f.tuple.sport ^= y;
    f.tuple.dport ^= y;
    f.fragment = false;
    pool_.push_back(f);
  }
  if (!cfg_.single_beat) {
    // Always present (a pool of a few random flows often has none): an IPv4 ICMP flow
    // (ipv4-other), an IPv6 and an IPv4 fragment flow. With sock entries (recorded with the
    // fragment's own hash) they migrate like the others, and the engine's driver answers
    // their steers with -EPROTONOSUPPORT.
    pool_.push_back(Flow{random_tuple(4, 1), false});
    pool_.push_back(Flow{random_tuple(6, kIpProtoUdp), true});
    pool_.push_back(Flow{random_tuple(4, chance(0.5) ? kIpProtoTcp : kIpProtoUdp), true});
  }
  // Five TCP/UDP tuples in one filter bucket: more than the ways, so inserts find it FULL.
  bucket_flows_.clear();
  if (!cfg_.single_beat || caps_.flt_bucket_bits <= 8) {
    const FlowTuple first = random_tuple(4, kIpProtoUdp);
    const uint32_t bucket = engine::filter_bucket(first, caps_.flt_bucket_bits);
    bucket_flows_.push_back(pool_.size());
    pool_.push_back(Flow{first, false});
    for (unsigned found = 1, tries = 0; found < caps_.flt_ways + 1 && tries < 400000; ++tries) {
      FlowTuple t = random_tuple(4, chance(0.5) ? kIpProtoTcp : kIpProtoUdp);
      if (engine::filter_bucket(t, caps_.flt_bucket_bits) != bucket) continue;
      bucket_flows_.push_back(pool_.size());
      pool_.push_back(Flow{t, false});
      ++found;
    }
  }
}

std::vector<uint8_t> Stimulus::flow_frame(const Flow& f, bool reverse) {
  nic::FrameOptions o;
  const FlowTuple t = reverse ? f.tuple.reversed() : f.tuple;
  if (cfg_.single_beat) {
    o.payload = rnd(t.proto == kIpProtoTcp ? 7 : 19);  // <= 60 bytes
    return nic::build_frame(t, o);
  }
  if (chance(0.08)) o.vlan_tags = uint8_t(1 + rnd(2));
  if (t.family == 4 && chance(0.03)) o.ipv4_option_words = uint8_t(1 + rnd(4));
  o.payload = chance(0.1) ? rnd(400) : rnd(24);
  if (f.fragment) {
    if (t.family == 4) {
      o.ipv4_more_fragments = chance(0.7);
      o.ipv4_frag_offset = o.ipv4_more_fragments ? uint16_t(rnd(3) * 185) : uint16_t(1 + rnd(400));
    } else {
      o.ipv6_fragment_header = true;
    }
  }
  return nic::build_frame(t, o);
}

std::vector<uint8_t> Stimulus::junk_frame() {
  std::vector<uint8_t> f;
  const Flow& any = pool_[rnd(uint32_t(pool_.size()))];
  switch (rnd(7)) {
    case 0: {  // not IP: ARP or an unknown EtherType
      for (int i = 0; i < 12; ++i) f.push_back(uint8_t(rng_()));
      uint16_t et = chance(0.5) ? 0x0806 : uint16_t(0x9000 + rnd(0x1000));
      f.push_back(uint8_t(et >> 8));
      f.push_back(uint8_t(et));
      for (unsigned i = 0, n = 28 + rnd(40); i < n; ++i) f.push_back(uint8_t(rng_()));
      return f;
    }
    case 1: {  // cut anywhere
      f = flow_frame(any, false);
      f.resize(1 + rnd(uint32_t(f.size() - 1)));
      return f;
    }
    case 2: {  // bad IPv4 version/IHL
      f = nic::build_frame(random_tuple(4, kIpProtoTcp));
      f[14] = chance(0.5) ? uint8_t(0x40 | rnd(5)) : uint8_t(0x50 | 5);
      return f;
    }
    case 3: {  // IPv6 with three extension headers: more than the parser walks
      f = nic::build_frame(random_tuple(6, kIpProtoUdp));
      std::vector<uint8_t> ext;
      for (int i = 0; i < 3; ++i) {
        ext.push_back(i < 2 ? 60 : kIpProtoUdp);
        for (int b = 0; b < 7; ++b) ext.push_back(0);
      }
      f.insert(f.begin() + 14 + 40, ext.begin(), ext.end());
      f[14 + 6] = 60;  // next header: destination options
      const uint16_t plen = uint16_t(((f[18] << 8) | f[19]) + ext.size());
      f[18] = uint8_t(plen >> 8);
      f[19] = uint8_t(plen);
      return f;
    }
    case 4:  // IPv6, no next header
      return nic::build_frame(random_tuple(6, 59));
    case 5: {  // a few random bytes
      for (unsigned i = 0, n = 1 + rnd(20); i < n; ++i) f.push_back(uint8_t(rng_()));
      return f;
    }
    default: {  // IPv4 or IPv6 fragment of a random tuple
      nic::FrameOptions o;
      const int fam = chance(0.5) ? 4 : 6;
      o.ipv4_more_fragments = fam == 4;
      o.ipv6_fragment_header = fam == 6;
      return nic::build_frame(random_tuple(fam, kIpProtoUdp), o);
    }
  }
}

uint32_t Stimulus::flow_hash(const FlowTuple& t, bool fragment) {
  nic::FrameOptions o;  // a fragment hashes without its ports (as flow_frame sends it)
  if (fragment) (t.family == 4 ? o.ipv4_more_fragments : o.ipv6_fragment_header) = true;
  const std::vector<uint8_t> f = nic::build_frame(t, o);
  return sb_.model().model().rss().hash(nic::parse_frame(f.data(), f.size()));
}

// rps_record_sock_flow as the register-level host does it (spec 1.1).
void Stimulus::sock_write(const FlowTuple& t, uint32_t cpu, bool fragment) {
  const uint32_t h = flow_hash(t, fragment);
  if (!h) return;
  wr(r::SOCK_INDEX::kAddr, h & ((1u << sock_log2_) - 1));
  wr(r::SOCK_VALUE::kAddr, (h & ~rps_cpu_mask_) | cpu);
  wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
}

uint32_t Stimulus::ctrl_value() const {
  return r::CTRL::ENABLE.put(1) | r::CTRL::PATCHED.put(patched_) | r::CTRL::NTUPLE.put(ntuple_) |
         r::CTRL::RMAP.put(rmap_) | r::CTRL::SLOT_MASK.put(slot_mask_) | r::CTRL::RPS.put(rps_) |
         r::CTRL::FLT_LOOKUP.put(flt_lookup_);
}

void Stimulus::setup() {
  const uint32_t max_cpus = 1u << caps_.cpu_log2, max_queues = 1u << caps_.queue_log2;
  // Not a power of two (when the build has room): rps_cpu_mask then admits sock entries with
  // CPUs >= nr_cpu_ids, set_rps_cpu S1 (path invalid_cpu).
  do cpus_ = std::min<uint32_t>(max_cpus > 4 ? max_cpus - 1 : max_cpus, 3 + rnd(14));
  while (max_cpus > 4 && (cpus_ & (cpus_ - 1)) == 0);
  queues_ = std::min<uint32_t>(max_queues, 2 + rnd(7));
  rps_cpu_mask_ = uint32_t(kernel::roundup_pow_of_two(cpus_) - 1);
  sock_log2_ = std::min<uint32_t>(caps_.sock_log2, 4 + rnd(5));
  lut_log2_ = std::min<uint32_t>(caps_.lut_log2, 3 + rnd(4));
  hash_mode_ = cfg_.hash_mode >= 0 ? uint32_t(cfg_.hash_mode) : rnd(3);
  patched_ = cfg_.patched >= 0 ? cfg_.patched != 0 : chance(0.7);
  slot_mask_ = chance(0.3);
  build_pool();

  wr(r::CTRL::kAddr, 0);
  wr(r::NR_CPU_IDS::kAddr, cpus_);
  wr(r::NUM_RX_QUEUES::kAddr, queues_);
  wr(r::CPU_ONLINE::addr(0), (cpus_ >= 32 ? ~0u : (1u << cpus_) - 1));
  for (uint32_t c = 0; c < cpus_; ++c) wr(r::RMAP::addr(c), chance(0.8) ? c % queues_ : rnd(queues_));
  wr(r::HASH_CFG::kAddr, hash_mode_);
  wr(r::HASH_SEED::kAddr, uint32_t(rng_()));
  const hash::RssKey& key = hash::microsoft_key();
  for (uint32_t w = 0; w < 13; ++w) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 4; ++b) word |= uint32_t(w * 4 + b < key.size() ? key[w * 4 + b] : 0) << (24 - 8 * b);
    wr(r::RSS_KEY::addr(w), word);
  }
  for (uint32_t i = 0; i < (1u << lut_log2_); ++i) wr(r::LUT::addr(i), rnd(queues_));
  wr(r::LUT_CFG::kAddr, lut_log2_);
  for (uint32_t q = 0; q < queues_; ++q) {
    const uint32_t log2 = std::min<uint32_t>(caps_.slot_log2, 1 + rnd(6));
    wr(r::RPS_FLOW_CNT::addr(q), q == queues_ - 1 && chance(0.5) ? 0 : r::RPS_FLOW_CNT::LOG2.put(log2) | r::RPS_FLOW_CNT::PRESENT.put(1));
  }
  for (uint32_t i = 0; i < 16 && i < (1u << caps_.rps_pool_log2); ++i) wr(r::RPS_MAP_CPUS::addr(i), rnd(cpus_));
  if (queues_ > 1) wr(r::RPS_MAP::addr(1), r::RPS_MAP::LEN.put(1 + rnd(4)) | r::RPS_MAP::BASE.put(rnd(8)));
  wr(r::RPS_CPU_MASK::kAddr, rps_cpu_mask_);
  wr(r::SOCK_CFG::kAddr, r::SOCK_CFG::LOG2.put(sock_log2_) | r::SOCK_CFG::PRESENT.put(1));
  wr(r::CTRL::kAddr, ctrl_value());
  for (const Flow& f : pool_)
    if (chance(0.85)) sock_write(f, rnd(rps_cpu_mask_ + 1));
}

void Stimulus::pop_events(unsigned max) {
  for (unsigned i = 0; i < max; ++i) {
    const uint32_t st = rd(r::EVT_STATUS::kAddr);
    if (!r::EVT_STATUS::VALID.get(st)) return;
    rd(r::EVT_INFO::kAddr);
    const uint32_t filt = rd(r::EVT_FILTER::kAddr);
    last_event_id_ = r::EVT_FILTER::ID.get(filt);
    last_event_queue_ = r::EVT_FILTER::QUEUE.get(filt);
    last_event_flow_ = rd(r::EVT_FLOW_ID::kAddr);
    if (chance(0.3)) {
      rd(r::EVT_HASH::kAddr);
      rd(r::EVT_PORTS::kAddr);
      rd(r::EVT_SRC::addr(rnd(4)));
      rd(r::EVT_DST::addr(rnd(4)));
    }
    wr(r::EVT_POP::kAddr, r::EVT_POP::POP.put(1));
  }
}

void Stimulus::flt_key(const FlowTuple& t) {
  for (uint32_t w = 0; w < 4; ++w) {
    uint32_t s = 0, d = 0;
    for (uint32_t b = 0; b < 4; ++b) {
      s |= uint32_t(t.src[w * 4 + b]) << (24 - 8 * b);
      d |= uint32_t(t.dst[w * 4 + b]) << (24 - 8 * b);
    }
    if (w == 0 || t.family == 6) {
      wr(r::FLT_SRC::addr(w), s);
      wr(r::FLT_DST::addr(w), d);
    }
  }
  wr(r::FLT_PORTS::kAddr, r::FLT_PORTS::SPORT.put(t.sport) | r::FLT_PORTS::DPORT.put(t.dport));
  wr(r::FLT_META::kAddr, r::FLT_META::PROTO.put(t.proto) | r::FLT_META::IPV6.put(t.family == 6));
}

uint32_t Stimulus::flt_op(const FlowTuple& t, uint32_t op, uint32_t id, uint32_t queue, uint32_t* result) {
  flt_key(t);
  wr(r::FLT_ID::kAddr, id & ((1u << caps_.flt_id_width) - 1));
  wr(r::FLT_QUEUE::kAddr, queue);
  wr(r::FLT_CMD::kAddr, op);
  const uint32_t err = r::FLT_STATUS::ERR.get(rd(r::FLT_STATUS::kAddr));
  const uint32_t res = rd(r::FLT_RESULT::kAddr);
  if (result) *result = res;
  return err;
}

// Spec 3.2 row "same flow, new CPU" (patched): flow f was steered to CPU A, so its slot P in
// queue rmap[A] holds f's filter and hash and is active. The host expires f's filter (the slot
// keeps the id), f's socket moves to a CPU B != A with rmap[B] == rmap[A]; f's next packet
// arrives on its RSS queue, and set_rps_cpu(B) finds P active, same hash, cpu A != B. The
// backlogs are processed first (head = tail), so the slot f arrives on is inactive (G5e) while
// P stays inside its activity window.
void Stimulus::scenario_same_queue_migration() {
  const size_t i = rnd(std::min<uint32_t>(6, uint32_t(random_flows_)));
  const Flow& f = pool_[i];
  if (f.fragment || (f.tuple.proto != kIpProtoTcp && f.tuple.proto != kIpProtoUdp)) return;
  const uint32_t h = flow_hash(f.tuple);
  if (!h) return;
  wr(r::SOCK_INDEX::kAddr, h & ((1u << sock_log2_) - 1));
  wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::READ.put(1));
  const uint32_t ent = rd(r::SOCK_VALUE::kAddr);
  const uint32_t a = ent & rps_cpu_mask_;
  std::vector<uint32_t> same;
  if (((ent ^ h) & ~rps_cpu_mask_) == 0 && a < cpus_) {
    const uint32_t qa = r::RMAP::QUEUE.get(rd(r::RMAP::addr(a)));
    for (uint32_t c = 0; c < cpus_; ++c)
      if (c != a && r::RMAP::QUEUE.get(rd(r::RMAP::addr(c))) == qa) same.push_back(c);
  }
  for (uint32_t c = 0; c < cpus_; ++c) {
    const uint32_t gap = rd(r::TAIL::addr(c)) - rd(r::HEAD::addr(c));
    if (int32_t(gap) > 0) wr(r::HEAD_ADD::addr(c), gap);
  }
  uint32_t id = 0;
  if (flt_op(f.tuple, uint32_t(r::FilterOp::kLookup), 0, 0, &id) == uint32_t(r::FilterErr::kOk))
    flt_op(f.tuple, uint32_t(r::FilterOp::kDelete), r::FLT_RESULT::ID.get(id), 0);
  sock_write(f, same.empty() ? rnd(cpus_) : same[rnd(uint32_t(same.size()))]);
  burst_flow_ = i;
  burst_left_ = 2 + rnd(4);
}

// fs_rfs_core's one unforwarded hazard (its header): backlog processing overshoots, head moves
// past tail on every CPU (by 2..9; now and then by more than an activity window, which also
// makes slots inactive), then a burst on one flow: each packet's slot view was just written
// with last_qtail = tail + 1 < head, and D stalls a clock (RFS_HZD_STALL).
void Stimulus::scenario_head_past_tail() {
  for (uint32_t c = 0; c < cpus_; ++c) {
    const uint32_t gap = rd(r::TAIL::addr(c)) - rd(r::HEAD::addr(c));
    wr(r::HEAD_ADD::addr(c), gap + (chance(0.2) ? 700 + rnd(2000) : 2 + rnd(8)));
  }
  burst_flow_ = rnd(std::min<uint32_t>(4, uint32_t(pool_.size())));
  burst_left_ = 4 + rnd(8);
}

// -ENOSPC: the host fills the planted bucket with filters for all its tuples but one (ids from
// the top of the id space, away from the engine's counter), expires that one's own filter and
// moves its socket: its next steer finds every way of the bucket in use.
void Stimulus::scenario_full_bucket() {
  if (bucket_flows_.size() < 2) return;
  const uint32_t top = (1u << caps_.flt_id_width) - 1;
  const size_t last = bucket_flows_[rnd(uint32_t(bucket_flows_.size()))];
  uint32_t k = 0;
  for (size_t i : bucket_flows_) {
    if (i == last) continue;
    flt_op(pool_[i].tuple, uint32_t(r::FilterOp::kDelete), top - k, 0);
    flt_op(pool_[i].tuple, uint32_t(r::FilterOp::kInsert), top - k, rnd(queues_));
    ++k;
  }
  uint32_t id = 0;
  if (flt_op(pool_[last].tuple, uint32_t(r::FilterOp::kLookup), 0, 0, &id) == uint32_t(r::FilterErr::kOk))
    flt_op(pool_[last].tuple, uint32_t(r::FilterOp::kDelete), r::FLT_RESULT::ID.get(id), 0);
  sock_write(pool_[last], rnd(cpus_));
  burst_flow_ = last;
  burst_left_ = 2 + rnd(4);
}

void Stimulus::scenario() {
  const uint32_t pick = rnd(5);
  // In an original-variant run the gate only exists in the short patched windows of the mode
  // flips: spend every scenario there on the gate's "same flow, new CPU" row.
  if (pick < 2 || (patched_ && cfg_.patched == 0)) scenario_same_queue_migration();
  else if (pick < 4) scenario_head_past_tail();
  else scenario_full_bucket();
}

void Stimulus::command() {
  if (chance(0.1)) return scenario();
  const uint32_t pick = rnd(100);
  if (pick < 22) {  // CPU migration: the app moved, its sock entry is rewritten
    sock_write(pool_[rnd(uint32_t(pool_.size()))], rnd(rps_cpu_mask_ + 1));
  } else if (pick < 32) {  // backlog processed: head advances (slots go inactive)
    const uint32_t c = rnd(cpus_);
    if (chance(0.5)) wr(r::HEAD_ADD::addr(c), rnd(4));
    else wr(r::HEAD_ADD::addr(c), rd(r::TAIL::addr(c)) - rd(r::HEAD::addr(c)));
  } else if (pick < 44) {  // the host runtime's event service
    if (!hoard_events_) {
      pop_events(1 + rnd(6));
    } else if (r::EVT_STATUS::COUNT.get(rd(r::EVT_STATUS::kAddr)) >= (1u << caps_.evt_log2)) {
      ++hoard_full_;
    }
    // a hoard lasts until the FIFO was seen full a few times (steers get -EBUSY meanwhile)
    if (hoard_events_ ? hoard_full_ >= 3 || chance(0.01) : chance(0.05)) {
      hoard_events_ = !hoard_events_;
      hoard_full_ = 0;
    }
  } else if (pick < 50) {  // filter deletes (expiry) and rps_may_expire_flow queries
    wr(r::EXP_QUEUE::kAddr, last_event_queue_);
    wr(r::EXP_FLOW_ID::kAddr, chance(0.8) ? last_event_flow_ : rnd(64));
    wr(r::EXP_FILTER_ID::kAddr, last_event_id_);
    wr(r::EXP_CMD::kAddr, r::EXP_CMD::GO.put(1));
    rd(r::EXP_STATUS::kAddr);
    wr(r::FLT_ID::kAddr, chance(0.7) ? last_event_id_ : rnd(64));
    wr(r::FLT_CMD::kAddr, uint32_t(r::FilterOp::kDelete));
    rd(r::FLT_STATUS::kAddr);
  } else if (pick < 55) {  // host filter commands; an insert under the engine's next id
    const FlowTuple t = chance(0.5) ? pool_[rnd(uint32_t(pool_.size()))].tuple : random_tuple(4, kIpProtoTcp);
    flt_key(t);
    const uint32_t next = uint32_t(sb_.model().model().last_fltr_id() + 1) % 0xFFFF;
    wr(r::FLT_ID::kAddr, (next + rnd(3)) & ((1u << caps_.flt_id_width) - 1));
    wr(r::FLT_QUEUE::kAddr, rnd(queues_));
    const uint32_t op = chance(0.5) ? uint32_t(r::FilterOp::kInsert)
                        : chance(0.5) ? uint32_t(r::FilterOp::kLookup)
                        : chance(0.7) ? uint32_t(r::FilterOp::kRetarget)
                                      : chance(0.5) ? 6 + rnd(10) : uint32_t(r::FilterOp::kNop);
    wr(r::FLT_CMD::kAddr, op);
    rd(r::FLT_STATUS::kAddr);
    rd(r::FLT_RESULT::kAddr);
    rd(r::FLT_COUNT::kAddr);
  } else if (pick < 60) {  // a queue's table resized (all its slots reset)
    const uint32_t q = rnd(queues_);
    const bool present = chance(0.9);
    const uint32_t log2 = std::min<uint32_t>(caps_.slot_log2, 1 + rnd(6));
    wr(r::RPS_FLOW_CNT::addr(q), present ? r::RPS_FLOW_CNT::LOG2.put(log2) | r::RPS_FLOW_CNT::PRESENT.put(1) : 0);
  } else if (pick < 66 && cfg_.mode_changes) {  // CTRL flips; a disturbed bit comes back next time
    const bool fixed_variant = cfg_.patched >= 0;  // the run's variant dominates; flips come back
    if (!ntuple_ || !rmap_ || !rps_ || !flt_lookup_ || (fixed_variant && patched_ != (cfg_.patched != 0))) {
      ntuple_ = rmap_ = rps_ = flt_lookup_ = true;
      if (fixed_variant) patched_ = cfg_.patched != 0;
    } else {
      switch (rnd(7)) {
        case 0: case 1: case 2: patched_ = !patched_; break;
        case 3: slot_mask_ = !slot_mask_; break;
        case 4: ntuple_ = false; break;
        case 5: rmap_ = false; break;
        default: chance(0.5) ? void(rps_ = false) : void(flt_lookup_ = false); break;
      }
    }
    wr(r::CTRL::kAddr, ctrl_value());
    if (!ntuple_) {  // ethtool -K ntuple off clears the filters
      wr(r::FLT_CMD::kAddr, uint32_t(r::FilterOp::kClear));
      rd(r::FLT_STATUS::kAddr);
    }
  } else if (pick < 69 && cfg_.mode_changes) {  // hash mode change; apps re-record their flows
    const uint32_t drawn = chance(0.1) ? 3 : rnd(3);  // 3 is refused (SLVERR)
    // a run with a fixed mode leaves it only until the next hash command
    if (cfg_.hash_mode >= 0 && hash_mode_ != uint32_t(cfg_.hash_mode)) hash_mode_ = uint32_t(cfg_.hash_mode);
    else if (drawn < 3) hash_mode_ = drawn;
    wr(r::HASH_CFG::kAddr, drawn == 3 ? drawn : hash_mode_);
    if (chance(0.3)) wr(r::HASH_SEED::kAddr, uint32_t(rng_()));
    for (const Flow& f : pool_)
      if (chance(0.6)) sock_write(f, rnd(rps_cpu_mask_ + 1));
  } else if (pick < 74) {  // RFS map changes: rmap, LUT, rps_map, CPU online
    switch (rnd(4)) {
      case 0: wr(r::RMAP::addr(rnd(cpus_)), rnd(queues_)); break;
      case 1: wr(r::LUT::addr(rnd(1u << lut_log2_)), rnd(queues_)); break;
      case 2: wr(r::RPS_MAP::addr(rnd(queues_)), r::RPS_MAP::LEN.put(rnd(4)) | r::RPS_MAP::BASE.put(rnd(8))); break;
      default: wr(r::CPU_ONLINE::addr(0), ((1u << cpus_) - 1) & ~(chance(0.5) ? 1u << rnd(cpus_) : 0u)); break;
    }
  } else if (pick < 88) {  // counter reads (64-bit pairs), hazard counters included
    const uint32_t i = chance(0.3) ? 12 + rnd(3) : rnd(28);
    rd(r::CNT_LO::addr(i));
    rd(r::CNT_HI::addr(i));
  } else if (pick < 93) {  // state reads
    switch (rnd(5)) {
      case 0: rd(r::HEAD::addr(rnd(cpus_))); break;
      case 1: rd(r::TAIL::addr(rnd(cpus_))); break;
      case 2:
        wr(r::SOCK_INDEX::kAddr, rnd(1u << sock_log2_) + (chance(0.05) ? 1u << sock_log2_ : 0));
        wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::READ.put(1));
        rd(r::SOCK_VALUE::kAddr);
        break;
      case 3: rd(r::ERR_STATUS::kAddr); if (chance(0.3)) wr(r::ERR_STATUS::kAddr, 3); break;
      default: rd(r::STATUS::kAddr); rd(r::FLT_COUNT::kAddr); break;
    }
  } else if (pick < 97) {  // odd accesses: SLVERR addresses, strobes, past-CAPS elements
    switch (rnd(4)) {
      case 0: rd(0x0ff0 + 4 * rnd(4)); break;
      case 1: wr(r::SCRATCH::kAddr, uint32_t(rng_()), uint8_t(rnd(16))); rd(r::SCRATCH::kAddr); break;
      case 2: wr(r::RMAP::addr(std::min<uint32_t>(1023, 1u << caps_.cpu_log2)), 0); break;
      default: wr(r::RMAP::addr(rnd(cpus_)), 0xFFFF); break;  // queue out of range
    }
  } else {  // counter reset (hazard counters read first so their coverage survives)
    if (chance(0.3)) {
      for (uint32_t i = 12; i <= 14; ++i) rd(r::CNT_LO::addr(i));
      wr(r::CNT_CLEAR::kAddr, 1);
    } else {
      // fresh flows: new tuples, new filters, new events
      const size_t i = rnd(uint32_t(random_flows_));  // the planted flows stay
      pool_[i].fragment = false;
      const int fam = cfg_.single_beat || chance(0.7) ? 4 : 6;
      pool_[i].tuple = random_tuple(fam, chance(0.5) ? kIpProtoTcp : kIpProtoUdp);
      sock_write(pool_[i].tuple, rnd(rps_cpu_mask_ + 1));
    }
  }
}

void Stimulus::run(uint64_t packets, const std::function<void(uint64_t)>& progress) {
  EngineSim& sim = sb_.sim();
  const uint64_t progress_every = std::max<uint64_t>(1, packets / 50);
  uint64_t last_accepted = sim.frames_accepted(), last_progress_clock = sim.clocks();
  while (sent_ < packets && sb_.ok()) {
    if (sim.frames_pending() >= cfg_.queued_frames) {
      sb_.step(cfg_.single_beat ? 4 : 2);
      if (sim.frames_accepted() != last_accepted) {
        last_accepted = sim.frames_accepted();
        last_progress_clock = sim.clocks();
      } else if (sim.clocks() - last_progress_clock > 1000000) {  // a deadlock, not back-pressure
        throw std::runtime_error("stimulus: the engine accepted no frame for 10^6 clocks (clock " +
                                 std::to_string(sim.clocks()) + ", " + std::to_string(sent_) +
                                 " frames sent, " + std::to_string(sb_.stats().packets) + " records checked)");
      }
      continue;
    }
    std::vector<uint8_t> f;
    if (cfg_.junk && chance(0.04)) {
      f = junk_frame();
    } else {
      if (cfg_.single_beat) {  // uniform over the large pool
        burst_flow_ = rnd(uint32_t(pool_.size()));
        burst_left_ = 1;
      } else if (!burst_left_) {  // a burst of back-to-back packets on one flow, or a single one
        burst_flow_ = chance(0.5) ? rnd(std::min<uint32_t>(4, uint32_t(pool_.size()))) : rnd(uint32_t(pool_.size()));
        burst_left_ = chance(0.3) ? 2 + rnd(12) : 1;
      }
      --burst_left_;
      f = flow_frame(pool_[burst_flow_], !cfg_.single_beat && chance(0.1));
    }
    sb_.frame(f, uint16_t(sent_));
    ++sent_;
    if (progress && sent_ % progress_every == 0) progress(sent_);
    if (cfg_.commands && chance(cfg_.command_rate)) {
      command();
      while (chance(0.25)) command();  // commands back to back
    }
  }
}

ConformResult run_conformance(const ConformOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  EngineSimOptions so;
  so.build = o.build;
  so.seed = o.seed;
  so.frame_gap = 0;
  so.rec_ready = 1;
  so.trace_path = o.trace_path;
  EngineSim sim(so);
  Scoreboard sb(sim, o.seed, o.rerun);
  StimulusConfig sc = o.stim;
  sc.seed = o.seed;
  Stimulus stim(sb, sc);
  stim.setup();
  sim.set_frame_gap(o.frame_gap);
  sim.set_rec_ready(o.rec_ready);
  stim.run(o.packets, [&](uint64_t n) {
    if (o.progress) o.progress(n, o.packets);
  });
  if (sb.ok()) {
    sim.set_rec_ready(1.0);  // the final drain needs the sink
    sb.finish();
  }
  ConformResult res;
  res.stats = sb.stats();
  res.coverage = sb.coverage();
  res.mismatch = sb.mismatch();
  if (res.mismatch) res.mismatch_report = res.mismatch->format(o.seed, o.rerun);
  res.clocks = sim.clocks();
  res.caps = sim.caps();
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace flowsteer::sim
