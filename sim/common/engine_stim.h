// Seeded random stimulus for the engine top, the one mix of both engine benches (the
// Verilator scoreboard, sim/verilator/stimulus.cpp, and the SystemC bench,
// sim/systemc/sc_engine_top.cpp): a traffic mix built to hit the pipeline's hazards (bursts on
// one flow, slot/sock/bucket collisions, CPU migrations, head advances, register commands
// between packets, mode flips, ENABLE off and on, resizes, malformed frames) plus the setup
// that makes the engine steer.
// Register commands go through a bus::RegisterBus and may read back what they need (a backlog,
// a sock entry, the event FIFO); frames come out of next_frame() and the harness sends them.
// So each harness only adapts it to its clocking: the Verilator one calls it between clocks,
// the SystemC one from two threads (frames; a blocking AXI4-Lite bus). The golden model is
// looked at (never changed) for flow hashes and the engine's last filter id; in the SystemC
// bench it lags the RTL by the pipeline, which shapes stimulus only, never what is correct.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/engine/filter_store.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"

namespace flowsteer::sim::common {

namespace r = flowsteer::regs;

struct StimulusConfig {
  uint64_t seed = 1;
  int hash_mode = -1;           // HASH_CFG.MODE for the run; -1 = drawn from the seed
  int patched = -1;             // CTRL.PATCHED at setup; -1 = drawn from the seed
  bool ntuple = true;           // CTRL.NTUPLE at setup (off: the engine never steers)
  bool commands = true;         // register traffic between packets (off: throughput runs)
  double command_rate = 0.06;   // register commands per packet (Verilator harness)
  bool mode_changes = true;     // CTRL flips and hash-mode changes during the run
  bool engine_toggles = true;   // also ENABLE off/on and NR_CPU_IDS / NUM_RX_QUEUES changes
  bool junk = true;             // malformed, truncated, non-IP, VLAN, fragment frames
  bool single_beat = false;     // only IPv4 TCP/UDP frames of <= 60 bytes (one 512-bit beat)
  bool uniform = false;         // 1024 flows picked uniformly, no planted hazards (implied by
                                // single_beat)
  size_t queued_frames = 12;    // frames kept queued ahead of the engine (Verilator harness)
};

// What a register command was generated for (coverage of the transaction mix).
enum class TxnKind : uint8_t {
  kSetup, kSockWrite, kHeadAdd, kEvtService, kExpiry, kFltCmd, kResize, kModeFlip, kHashChange,
  kTables, kCounters, kStatus, kBadAccess, kCntClear, kNewFlows, kScnMigration, kScnHeadPastTail,
  kScnFullBucket, kEnableToggle, kResizeDims, kSockResize, kFinish, kCount
};
inline const char* txn_kind_name(TxnKind k) {
  static const char* const n[] = {
      "setup",   "sock_write", "head_add",  "evt_service", "expiry",   "flt_cmd",
      "resize",  "mode_flip",  "hash_change", "tables",    "counters", "status",
      "bad_access", "cnt_clear", "new_flows", "scn_migration", "scn_head_past_tail",
      "scn_full_bucket", "enable_off_on", "resize_dims", "sock_resize", "finish"};
  static_assert(sizeof n / sizeof n[0] == size_t(TxnKind::kCount), "one name per kind");
  return n[size_t(k)];
}

// Which hazard a frame was generated for (coverage of the frame mix).
enum class FrameKind : uint8_t {
  kFlow, kSameFlowRepeat, kHashCollision, kBucketCollision, kJunk, kCount
};
inline const char* frame_kind_name(FrameKind k) {
  static const char* const n[] = {"flow", "same_flow_b2b", "hash_collision", "bucket_collision",
                                  "junk"};
  static_assert(sizeof n / sizeof n[0] == size_t(FrameKind::kCount), "one name per kind");
  return n[size_t(k)];
}

struct StimFrame {
  std::vector<uint8_t> bytes;
  FrameKind kind = FrameKind::kFlow;
};

class EngineStim {
 public:
  // Draws the run's configuration (sizes, modes, flow pool); setup() writes it.
  EngineStim(bus::RegisterBus& bus, engine::EngineRegisterFile& model,
             const engine::EngineCaps& caps, const StimulusConfig& cfg)
      : bus_(bus), model_(model), cfg_(cfg), rng_(cfg.seed * 0x9E3779B97F4A7C15ull + 17),
        caps_(caps), uniform_(cfg.uniform || cfg.single_beat) {
    configure();
  }
  // Disabled engine -> sizes, RSS, tables, sock entries -> CTRL.ENABLE.
  void setup();
  // The next frame to send.
  StimFrame next_frame();
  // What follows a frame in the Verilator harness: now and then a few register commands.
  void after_frame() {
    if (cfg_.commands && chance(cfg_.command_rate)) commands();
  }
  // One register command, sometimes a few back to back.
  void commands() {
    command();
    while (chance(0.25)) command();
  }
  // Reads at the end of a run: every head and tail, every counter, the event FIFO, the
  // filter count, the status registers.
  void finish();

  // the kind of the command whose accesses are on the bus now
  TxnKind kind() const { return kind_; }
  uint32_t nr_cpu_ids() const { return cpus_; }
  bool patched() const { return patched_; }
  bool slot_mask() const { return slot_mask_; }
  uint32_t hash_mode() const { return hash_mode_; }
  size_t flows() const { return pool_.size(); }
  size_t collision_flows() const { return 2; }  // the planted hash twins

 private:
  struct Flow {
    FlowTuple tuple;
    bool fragment = false;     // sent as IPv4/IPv6 fragments
  };
  uint32_t rnd(uint32_t n) { return n ? uint32_t(rng_() % n) : 0; }
  bool chance(double p) { return unit_(rng_) < p; }
  void wr(uint32_t off, uint32_t v, uint8_t strb = 0xF) { bus_.write(off, v, strb); }
  uint32_t rd(uint32_t off) {
    uint32_t v = 0;
    bus_.read(off, v);
    return v;
  }
  void configure();
  FlowTuple random_tuple(int family, uint8_t proto);
  void build_pool();
  std::vector<uint8_t> flow_frame(const Flow& f, bool reverse);
  std::vector<uint8_t> junk_frame();
  uint32_t flow_hash(const FlowTuple& t, bool fragment = false);
  void sock_write(const FlowTuple& t, uint32_t cpu, bool fragment = false);
  void sock_write(const Flow& f, uint32_t cpu) { sock_write(f.tuple, cpu, f.fragment); }
  void command();
  void engine_toggle();
  // Targeted sequences for bins the random mix reaches too rarely.
  void scenario();
  void scenario_same_queue_migration();
  void scenario_head_past_tail();
  void scenario_full_bucket();
  // a host filter command on key t; returns FLT_STATUS.ERR (FLT_RESULT into *result)
  uint32_t flt_op(const FlowTuple& t, uint32_t op, uint32_t id, uint32_t queue, uint32_t* result = nullptr);
  void flt_key(const FlowTuple& t);
  void pop_events(unsigned max);
  uint32_t ctrl_value() const;

  bus::RegisterBus& bus_;
  engine::EngineRegisterFile& model_;
  StimulusConfig cfg_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  engine::EngineCaps caps_;
  bool uniform_;
  TxnKind kind_ = TxnKind::kSetup;
  std::vector<Flow> pool_;
  size_t burst_flow_ = 0, last_flow_ = SIZE_MAX;
  unsigned burst_left_ = 0;
  uint32_t cpus_ = 16, queues_ = 8, rps_cpu_mask_ = 15, sock_log2_ = 8, lut_log2_ = 6;
  bool patched_ = true, slot_mask_ = false, ntuple_ = true, rmap_ = true, rps_ = true, flt_lookup_ = true;
  uint32_t hash_mode_ = 0;
  bool hoard_events_ = false;  // let the event FIFO fill (EBUSY refusals)
  unsigned hoard_full_ = 0;     // event-service commands seen with the FIFO full while hoarding
  std::vector<size_t> bucket_flows_;  // pool indexes of the planted one-bucket tuples
  size_t random_flows_ = 0;           // pool_[0, random_flows_) are random; the rest planted
  size_t twins_ = 0;                  // pool_[twins_, twins_ + 2): the planted hash twins
  uint32_t last_event_id_ = 0, last_event_queue_ = 0, last_event_flow_ = 0;
};

inline FlowTuple EngineStim::random_tuple(int family, uint8_t proto) {
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
inline void EngineStim::build_pool() {
  pool_.clear();
  auto proto_for = [&](int fam) -> uint8_t {
    if (uniform_) return chance(0.5) ? kIpProtoTcp : kIpProtoUdp;
    double p = unit_(rng_);
    return p < 0.45 ? kIpProtoTcp : p < 0.9 ? kIpProtoUdp : uint8_t(fam == 6 ? 58 : 1);
  };
  // single-beat (throughput) runs spread over many flows: no same-hash stalls by design
  const unsigned n = uniform_ ? 1024 : 6 + rnd(20);
  random_flows_ = n;
  for (unsigned i = 0; i < n; ++i) {
    const int fam = uniform_ || chance(0.7) ? 4 : 6;
    Flow f;
    f.tuple = random_tuple(fam, proto_for(fam));
    f.fragment = !uniform_ && chance(0.06);
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
  twins_ = pool_.size() - 2;
  if (!uniform_) {
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
  if (!uniform_ || caps_.flt_bucket_bits <= 8) {
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

inline std::vector<uint8_t> EngineStim::flow_frame(const Flow& f, bool reverse) {
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

inline std::vector<uint8_t> EngineStim::junk_frame() {
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

inline uint32_t EngineStim::flow_hash(const FlowTuple& t, bool fragment) {
  nic::FrameOptions o;  // a fragment hashes without its ports (as flow_frame sends it)
  if (fragment) (t.family == 4 ? o.ipv4_more_fragments : o.ipv6_fragment_header) = true;
  const std::vector<uint8_t> f = nic::build_frame(t, o);
  return model_.model().rss().hash(nic::parse_frame(f.data(), f.size()));
}

// rps_record_sock_flow as the register-level host does it (spec 1.1).
inline void EngineStim::sock_write(const FlowTuple& t, uint32_t cpu, bool fragment) {
  const uint32_t h = flow_hash(t, fragment);
  if (!h) return;
  wr(r::SOCK_INDEX::kAddr, h & ((1u << sock_log2_) - 1));
  wr(r::SOCK_VALUE::kAddr, (h & ~rps_cpu_mask_) | cpu);
  wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
}

inline uint32_t EngineStim::ctrl_value() const {
  return r::CTRL::ENABLE.put(1) | r::CTRL::PATCHED.put(patched_) | r::CTRL::NTUPLE.put(ntuple_) |
         r::CTRL::RMAP.put(rmap_) | r::CTRL::SLOT_MASK.put(slot_mask_) | r::CTRL::RPS.put(rps_) |
         r::CTRL::FLT_LOOKUP.put(flt_lookup_);
}

inline void EngineStim::configure() {
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
  ntuple_ = cfg_.ntuple;
}

inline void EngineStim::setup() {
  kind_ = TxnKind::kSetup;
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

inline void EngineStim::pop_events(unsigned max) {
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

inline void EngineStim::flt_key(const FlowTuple& t) {
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

inline uint32_t EngineStim::flt_op(const FlowTuple& t, uint32_t op, uint32_t id, uint32_t queue, uint32_t* result) {
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
inline void EngineStim::scenario_same_queue_migration() {
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
inline void EngineStim::scenario_head_past_tail() {
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
inline void EngineStim::scenario_full_bucket() {
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

inline void EngineStim::scenario() {
  const uint32_t pick = rnd(5);
  // In an original-variant run the gate only exists in patched windows: the mode flips open
  // short ones, and now and then a scenario opens one itself (the next flip closes it). Spend
  // every scenario there on the gate's "same flow, new CPU" row.
  if (cfg_.patched == 0 && cfg_.mode_changes && !patched_ && chance(0.25)) {
    patched_ = true;
    wr(r::CTRL::kAddr, ctrl_value());
  }
  if (pick < 2 || (patched_ && cfg_.patched == 0)) {
    kind_ = TxnKind::kScnMigration;
    scenario_same_queue_migration();
  } else if (pick < 4) {
    kind_ = TxnKind::kScnHeadPastTail;
    scenario_head_past_tail();
  } else {
    kind_ = TxnKind::kScnFullBucket;
    scenario_full_bucket();
  }
}

inline void EngineStim::command() {
  // (no draw when off: the mix without them is the same for a seed)
  if (cfg_.engine_toggles && chance(0.04)) return engine_toggle();
  if (chance(0.1)) return scenario();
  const uint32_t pick = rnd(100);
  if (pick < 22) {  // CPU migration: the app moved, its sock entry is rewritten
    kind_ = TxnKind::kSockWrite;
    sock_write(pool_[rnd(uint32_t(pool_.size()))], rnd(rps_cpu_mask_ + 1));
  } else if (pick < 32) {  // backlog processed: head advances (slots go inactive)
    kind_ = TxnKind::kHeadAdd;
    const uint32_t c = rnd(cpus_);
    const uint32_t way = rnd(8);
    if (way < 4) wr(r::HEAD_ADD::addr(c), rnd(4));
    else if (way < 6) wr(r::HEAD_ADD::addr(c), rd(r::TAIL::addr(c)) - rd(r::HEAD::addr(c)));
    // the drain in one write (now and then a CPU past the implemented ones: SLVERR)
    else wr(r::BACKLOG_DRAIN::kAddr, chance(0.05) ? (1u << caps_.cpu_log2) + rnd(4) : c);
  } else if (pick < 44) {  // the host runtime's event service
    kind_ = TxnKind::kEvtService;
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
    kind_ = TxnKind::kExpiry;
    wr(r::EXP_QUEUE::kAddr, last_event_queue_);
    wr(r::EXP_FLOW_ID::kAddr, chance(0.8) ? last_event_flow_ : rnd(64));
    wr(r::EXP_FILTER_ID::kAddr, last_event_id_);
    wr(r::EXP_CMD::kAddr, r::EXP_CMD::GO.put(1));
    rd(r::EXP_STATUS::kAddr);
    wr(r::FLT_ID::kAddr, chance(0.7) ? last_event_id_ : rnd(64));
    wr(r::FLT_CMD::kAddr, uint32_t(r::FilterOp::kDelete));
    rd(r::FLT_STATUS::kAddr);
  } else if (pick < 55) {  // host filter commands; an insert under the engine's next id
    kind_ = TxnKind::kFltCmd;
    const FlowTuple t = chance(0.5) ? pool_[rnd(uint32_t(pool_.size()))].tuple : random_tuple(4, kIpProtoTcp);
    flt_key(t);
    const uint32_t next = uint32_t(model_.model().last_fltr_id() + 1) % 0xFFFF;
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
    kind_ = TxnKind::kResize;
    const uint32_t q = rnd(queues_);
    const bool present = chance(0.9);
    const uint32_t log2 = std::min<uint32_t>(caps_.slot_log2, 1 + rnd(6));
    wr(r::RPS_FLOW_CNT::addr(q), present ? r::RPS_FLOW_CNT::LOG2.put(log2) | r::RPS_FLOW_CNT::PRESENT.put(1) : 0);
  } else if (pick < 66 && cfg_.mode_changes) {  // CTRL flips; a disturbed bit comes back next time
    kind_ = TxnKind::kModeFlip;
    const bool fixed_variant = cfg_.patched >= 0;  // the run's variant dominates; flips come back
    if (ntuple_ != cfg_.ntuple || !rmap_ || !rps_ || !flt_lookup_ || (fixed_variant && patched_ != (cfg_.patched != 0))) {
      ntuple_ = cfg_.ntuple;
      rmap_ = rps_ = flt_lookup_ = true;
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
    kind_ = TxnKind::kHashChange;
    const uint32_t drawn = chance(0.1) ? 3 : rnd(3);  // 3 is refused (SLVERR)
    // a run with a fixed mode leaves it only until the next hash command
    if (cfg_.hash_mode >= 0 && hash_mode_ != uint32_t(cfg_.hash_mode)) hash_mode_ = uint32_t(cfg_.hash_mode);
    else if (drawn < 3) hash_mode_ = drawn;
    wr(r::HASH_CFG::kAddr, drawn == 3 ? drawn : hash_mode_);
    if (chance(0.3)) wr(r::HASH_SEED::kAddr, uint32_t(rng_()));
    for (const Flow& f : pool_)
      if (chance(0.6)) sock_write(f, rnd(rps_cpu_mask_ + 1));
  } else if (pick < 74) {  // RFS map changes: rmap, LUT, rps_map, CPU online
    kind_ = TxnKind::kTables;
    switch (rnd(4)) {
      case 0: wr(r::RMAP::addr(rnd(cpus_)), rnd(queues_)); break;
      case 1: wr(r::LUT::addr(rnd(1u << lut_log2_)), rnd(queues_)); break;
      case 2: wr(r::RPS_MAP::addr(rnd(queues_)), r::RPS_MAP::LEN.put(rnd(4)) | r::RPS_MAP::BASE.put(rnd(8))); break;
      default: wr(r::CPU_ONLINE::addr(0), ((1u << cpus_) - 1) & ~(chance(0.5) ? 1u << rnd(cpus_) : 0u)); break;
    }
  } else if (pick < 88) {  // counter reads (64-bit pairs), hazard counters included
    kind_ = TxnKind::kCounters;
    const uint32_t i = chance(0.3) ? 12 + rnd(3) : rnd(28);
    rd(r::CNT_LO::addr(i));
    rd(r::CNT_HI::addr(i));
  } else if (pick < 93) {  // state reads
    kind_ = TxnKind::kStatus;
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
    kind_ = TxnKind::kBadAccess;
    switch (rnd(4)) {
      case 0: rd(0x0ff0 + 4 * rnd(4)); break;
      case 1: wr(r::SCRATCH::kAddr, uint32_t(rng_()), uint8_t(rnd(16))); rd(r::SCRATCH::kAddr); break;
      case 2: wr(r::RMAP::addr(std::min<uint32_t>(1023, 1u << caps_.cpu_log2)), 0); break;
      default: wr(r::RMAP::addr(rnd(cpus_)), 0xFFFF); break;  // queue out of range
    }
  } else {  // counter reset (hazard counters read first so their coverage survives)
    if (chance(0.3)) {
      kind_ = TxnKind::kCntClear;
      for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i)
        if (r::counter_rtl_only(i)) rd(r::CNT_LO::addr(i));
      wr(r::CNT_CLEAR::kAddr, 1);
    } else {
      // fresh flows: new tuples, new filters, new events
      kind_ = TxnKind::kNewFlows;
      const size_t i = rnd(uint32_t(random_flows_));  // the planted flows stay
      pool_[i].fragment = false;
      const int fam = uniform_ || chance(0.7) ? 4 : 6;
      pool_[i].tuple = random_tuple(fam, chance(0.5) ? kIpProtoTcp : kIpProtoUdp);
      sock_write(pool_[i].tuple, rnd(rps_cpu_mask_ + 1));
    }
  }
}

// ENABLE off and on (frames wait meanwhile), nr_cpu_ids or the queue count changed and
// restored (sometimes out of range: SLVERR), or the sock flow table sized again with frames in
// flight (every entry cleared, then some flows recorded again). The mix keeps its own sizes:
// each group ends with the run's values back (the sock table's size may change).
inline void EngineStim::engine_toggle() {
  const uint32_t max_cpus = 1u << caps_.cpu_log2, max_queues = 1u << caps_.queue_log2;
  switch (rnd(4)) {
    case 0:
      kind_ = TxnKind::kEnableToggle;
      wr(r::CTRL::kAddr, ctrl_value() & ~r::CTRL::ENABLE.mask());
      for (uint32_t i = rnd(3); i > 0; --i) rd(r::CNT_LO::addr(0));
      wr(r::CTRL::kAddr, ctrl_value());
      break;
    case 1: {
      kind_ = TxnKind::kResizeDims;
      const uint32_t nr = chance(0.1) ? rnd(2 * max_cpus + 1) : 1 + rnd(max_cpus);
      wr(r::NR_CPU_IDS::kAddr, nr);
      if (nr >= 1 && nr <= max_cpus)
        wr(r::RPS_CPU_MASK::kAddr, uint32_t(kernel::roundup_pow_of_two(nr) - 1));
      rd(r::NR_CPU_IDS::kAddr);
      wr(r::NR_CPU_IDS::kAddr, cpus_);
      wr(r::RPS_CPU_MASK::kAddr, rps_cpu_mask_);
      break;
    }
    case 2: {
      kind_ = TxnKind::kSockResize;
      sock_log2_ = std::min<uint32_t>(caps_.sock_log2, 4 + rnd(5));
      wr(r::SOCK_CFG::kAddr, r::SOCK_CFG::LOG2.put(sock_log2_) | r::SOCK_CFG::PRESENT.put(1));
      for (uint32_t i = 1 + rnd(16); i > 0; --i) {
        const Flow& f = pool_[rnd(uint32_t(pool_.size()))];
        sock_write(f, rnd(rps_cpu_mask_ + 1));
      }
      break;
    }
    default: {
      kind_ = TxnKind::kResizeDims;
      const uint32_t nq = chance(0.1) ? rnd(2 * max_queues + 1) : 1 + rnd(max_queues);
      wr(r::NUM_RX_QUEUES::kAddr, nq);
      rd(r::NUM_RX_QUEUES::kAddr);
      wr(r::NUM_RX_QUEUES::kAddr, queues_);
      break;
    }
  }
}

inline StimFrame EngineStim::next_frame() {
  StimFrame out;
  if (cfg_.junk && chance(0.04)) {
    out.bytes = junk_frame();
    out.kind = FrameKind::kJunk;
    last_flow_ = SIZE_MAX;
    return out;
  }
  if (uniform_) {  // uniform over the large pool
    burst_flow_ = rnd(uint32_t(pool_.size()));
    burst_left_ = 1;
  } else if (!burst_left_) {  // a burst of back-to-back packets on one flow, or a single one
    burst_flow_ = chance(0.5) ? rnd(std::min<uint32_t>(4, uint32_t(pool_.size()))) : rnd(uint32_t(pool_.size()));
    burst_left_ = chance(0.3) ? 2 + rnd(12) : 1;
  }
  --burst_left_;
  out.bytes = flow_frame(pool_[burst_flow_], !uniform_ && chance(0.1));
  const size_t i = burst_flow_;
  if (!uniform_ && i >= twins_ && i < twins_ + 2) out.kind = FrameKind::kHashCollision;
  else if (std::find(bucket_flows_.begin(), bucket_flows_.end(), i) != bucket_flows_.end())
    out.kind = FrameKind::kBucketCollision;
  else if (i == last_flow_) out.kind = FrameKind::kSameFlowRepeat;
  last_flow_ = i;
  return out;
}

inline void EngineStim::finish() {
  kind_ = TxnKind::kFinish;
  for (uint32_t c = 0; c < (1u << caps_.cpu_log2); ++c) {
    rd(r::HEAD::addr(c));
    rd(r::TAIL::addr(c));
  }
  for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i) {
    rd(r::CNT_LO::addr(i));
    rd(r::CNT_HI::addr(i));
  }
  rd(r::EVT_STATUS::kAddr);
  rd(r::FLT_COUNT::kAddr);
  rd(r::ERR_STATUS::kAddr);
  rd(r::STATUS::kAddr);
  rd(r::CTRL::kAddr);
}

}  // namespace flowsteer::sim::common
