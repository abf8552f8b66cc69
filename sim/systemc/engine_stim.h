// Seeded random stimulus for the SystemC bench of the whole engine (sc_engine_top.cpp): a
// frame stream and a stream of AXI4-Lite register transaction groups, generated
// independently so the bench can offer them on two ports at once.
//
// Hazards it aims at (docs/engine-top.md "Total order", "Hazards inside the packet pipeline"):
//   * back-to-back packets of one flow, bursts of one flow (slot, sock-table, filter hazards);
//   * RSS hash collisions: for the Toeplitz modes the tuple -> hash map is linear over GF(2),
//     so a flow XOR a vector of its kernel has the same 32-bit hash and a different tuple
//     (the hazard gate's conservative compare, shared slots and sock entries);
//   * filter-bucket collisions: groups of flows in one bucket of the exact-match table
//     (more than FLT_WAYS: FULL -> -ENOSPC driver errors);
//   * register transactions between packets: sock-table writes for live flows (they make the
//     engine steer), head advances, mode flips (CTRL bits, ENABLE off and on), resizes
//     (RPS_FLOW_CNT, SOCK_CFG, NR_CPU_IDS, NUM_RX_QUEUES, LUT_CFG, RPS maps), event pops,
//     host filter deletes and other filter commands, rps_may_expire_flow queries, counter
//     reads and clears, unmapped or unimplemented addresses, byte strobes, RO writes;
//   * malformed, truncated, tiny and oversized frames (sim/common/frame_gen.h).
// The generator reads the golden model as the checker has it (it lags the DUT by the
// pipeline): only to pick plausible operands (a live flow's hash, a filter id), never to
// decide what is correct.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/engine/filter_store.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"
#include "flowsteer/nic/rss.h"
#include "frame_gen.h"

namespace flowsteer::sim::systemc {

namespace eng = flowsteer::engine;
namespace regs = flowsteer::regs;

// What a register transaction group was generated for (coverage of the transaction mix).
enum class TxnKind : uint8_t {
  kSetup, kSockWrite, kSockRead, kHeadAdd, kModeFlip, kEnableToggle, kResize, kEvtPop,
  kFltDelete, kFltCmd, kExpQuery, kCounters, kBadAccess, kStatus, kTables, kFinish, kCount
};
inline const char* txn_kind_name(TxnKind k) {
  static const char* const n[] = {"setup",    "sock_write", "sock_read",  "head_add",
                                  "mode_flip", "enable_off_on", "resize", "evt_pop",
                                  "flt_delete", "flt_cmd",   "exp_query",  "counters",
                                  "bad_access", "status",    "tables",     "finish"};
  return n[size_t(k)];
}

// Which hazard a frame was generated for (coverage of the frame mix).
enum class FrameKind : uint8_t {
  kFlow, kSameFlowRepeat, kHashCollision, kBucketCollision, kJunk, kCount
};
inline const char* frame_kind_name(FrameKind k) {
  static const char* const n[] = {"flow", "same_flow_b2b", "hash_collision", "bucket_collision",
                                  "junk"};
  return n[size_t(k)];
}

struct RegOp {
  bool write = false;
  uint32_t offset = 0, data = 0;
  uint8_t strb = 0xF;
  TxnKind kind = TxnKind::kSetup;
};

struct StimFrame {
  std::vector<uint8_t> bytes;
  FrameKind kind = FrameKind::kFlow;
};

struct EngineStimOptions {
  bool small_frames = false;   // every frame fits one 64-byte beat (throughput runs)
  double junk = 0.08;          // malformed/truncated/odd frames
  double repeat = 0.25;        // next frame is the previous flow again
  bool ntuple = true;          // CTRL.NTUPLE at setup (off: the engine never steers)
  bool uniform = false;        // no hazard mix: 8192 flows picked uniformly (throughput runs)
  int hash_mode = -1;          // HASH_CFG.MODE at setup; -1: from the seed
  int patched = -1;            // CTRL.PATCHED at setup; -1: from the seed
};

class EngineStim {
 public:
  EngineStim(uint64_t seed, const eng::EngineCaps& caps, const EngineStimOptions& o = {})
      : caps_(caps), opt_(o), rng_(seed * 0x9E3779B97F4A7C15ull + 1), junk_(seed ^ 0x5A5A5A5Aull),
        rss_(uint16_t(1u << caps.queue_log2), flowsteer::nic::HashMode::kToeplitz,
             size_t(1) << caps.lut_log2) {
    cpus_ = 1u << caps.cpu_log2;
    queues_ = 1u << caps.queue_log2;
    // the configuration a seed selects
    static const flowsteer::nic::HashMode modes[] = {
        flowsteer::nic::HashMode::kToeplitz, flowsteer::nic::HashMode::kToeplitzSymXor,
        flowsteer::nic::HashMode::kToeplitz, flowsteer::nic::HashMode::kJhashSym};
    mode_ = o.hash_mode >= 0 ? flowsteer::nic::HashMode(o.hash_mode) : modes[seed % 4];
    patched_ = o.patched >= 0 ? o.patched == 1 : seed % 2 == 1;
    slot_mask_ = (seed / 2) % 2 == 1;
    static const uint32_t nrs[] = {16, 16, 13, 16, 11, 16, 6, 16};
    nr_ = std::min<uint32_t>(nrs[seed % 8], cpus_);
    nq_ = seed % 5 == 4 ? std::max<uint32_t>(2, queues_ * 3 / 4) : queues_;
    pop_rate_ = seed % 2 ? 1.0 : 0.35;  // even seeds let the event FIFO fill (-EBUSY)
    key_.resize(52);
    for (auto& b : key_) b = uint8_t(rng_());
    if (seed % 3 == 0) std::copy(flowsteer::hash::microsoft_key().begin(),
                                 flowsteer::hash::microsoft_key().end(), key_.begin());
    rss_.set_key(key_);
    rss_.set_mode(mode_);
    hash_seed_ = uint32_t(rng_());
    rss_.set_jhash_seed(hash_seed_);
    make_flows(seed);
  }

  uint32_t nr_cpu_ids() const { return nr_; }
  bool patched() const { return patched_; }
  bool slot_mask() const { return slot_mask_; }
  flowsteer::nic::HashMode hash_mode() const { return mode_; }
  size_t flows() const { return flows_.size(); }
  size_t collision_flows() const { return n_coll_; }

  // The checker tells the generator what the engine did (operands for later commands).
  void note_steer(uint16_t queue, uint32_t flow_id, uint32_t id) {
    steers_.push_back({queue, flow_id, id});
    if (steers_.size() > 64) steers_.pop_front();
  }

  // ---------------------------------------------------------------- configuration
  std::vector<RegOp> setup() {
    std::vector<RegOp> v;
    auto w = [&](uint32_t a, uint32_t d) { v.push_back({true, a, d, 0xF, TxnKind::kSetup}); };
    auto rd = [&](uint32_t a) { v.push_back({false, a, 0, 0, TxnKind::kSetup}); };
    rd(regs::ID::kAddr);
    rd(regs::CAPS0::kAddr);
    rd(regs::CAPS1::kAddr);
    rd(regs::STATUS::kAddr);
    w(regs::NR_CPU_IDS::kAddr, nr_);
    w(regs::RPS_CPU_MASK::kAddr, cpu_mask(nr_));
    w(regs::NUM_RX_QUEUES::kAddr, nq_);
    uint32_t online = 0;
    for (uint32_t c = 0; c < cpus_; ++c)
      if (c == 0 || rng_() % 16) online |= 1u << (c % 32);
    for (uint32_t i = 0; i < (cpus_ + 31) / 32; ++i) w(regs::CPU_ONLINE::addr(i), online);
    for (uint32_t c = 0; c < cpus_; ++c) w(regs::RMAP::addr(c), uint32_t(rng_() % nq_));
    for (uint32_t i = 0; i < (1u << caps_.lut_log2); ++i)
      w(regs::LUT::addr(i), uint32_t(rng_() % nq_));
    w(regs::LUT_CFG::kAddr, caps_.lut_log2);
    w(regs::HASH_CFG::kAddr, uint32_t(mode_));
    w(regs::HASH_SEED::kAddr, hash_seed_);
    for (uint32_t i = 0; i < 13; ++i)
      w(regs::RSS_KEY::addr(i), uint32_t(key_[4 * i]) << 24 | uint32_t(key_[4 * i + 1]) << 16 |
                                    uint32_t(key_[4 * i + 2]) << 8 | key_[4 * i + 3]);
    const uint32_t pool = 1u << caps_.rps_pool_log2;
    for (uint32_t i = 0; i < std::min<uint32_t>(pool, 64); ++i)
      w(regs::RPS_MAP_CPUS::addr(i), uint32_t(rng_() % nr_));
    for (uint32_t q = 0; q < queues_; ++q) {
      w(regs::RPS_FLOW_CNT::addr(q), flow_cnt_word());
      if (rng_() % 4 == 0) {
        const uint32_t len = 1 + uint32_t(rng_() % 4), base = uint32_t(rng_() % (64 - len));
        w(regs::RPS_MAP::addr(q), regs::RPS_MAP::LEN.put(len) | regs::RPS_MAP::BASE.put(base));
      }
    }
    w(regs::SOCK_CFG::kAddr, sock_cfg_word());
    ctrl_ = regs::CTRL::ENABLE.put(1) | regs::CTRL::PATCHED.put(patched_) |
            regs::CTRL::NTUPLE.put(opt_.ntuple) | regs::CTRL::RMAP.put(1) |
            regs::CTRL::SLOT_MASK.put(slot_mask_) | regs::CTRL::RPS.put(1) |
            regs::CTRL::FLT_LOOKUP.put(1);
    // a first round of sock entries so steering starts at once
    for (size_t i : hot_) sock_write(v, TxnKind::kSetup, nullptr, i);
    w(regs::CTRL::kAddr, ctrl_);
    rd(regs::CTRL::kAddr);
    return v;
  }

  // ---------------------------------------------------------------- random transactions
  // The next group (executed back to back, each transaction atomic on its own).
  std::vector<RegOp> next_group(eng::EngineRegisterFile& m) {
    std::vector<RegOp> v;
    // weights of the kinds (sum 100)
    const uint32_t x = uint32_t(rng_() % 100);
    if (x < 14) {
      for (uint32_t i = 1 + uint32_t(rng_() % 3); i > 0; --i) sock_write(v, TxnKind::kSockWrite, &m);
    } else if (x < 22) {  // a migration: new CPUs for hot flows, every backlog consumed
      for (uint32_t i = 1 + uint32_t(rng_() % 4); i > 0; --i)
        sock_write(v, TxnKind::kSockWrite, &m, hot_[rng_() % hot_.size()]);
      drain_all(v, m);
    } else if (x < 25) sock_read(v, m);
    else if (x < 35) head_add(v, m);
    else if (x < 37) drain_all(v, m);
    else if (x < 41) mode_flip(v);
    else if (x < 43) enable_toggle(v);
    else if (x < 47) resize(v, m);
    else if (x < 47 + uint32_t(14 * pop_rate_)) evt_pop(v);
    else if (x < 66) flt_delete(v, m);
    else if (x < 70) flt_cmd(v, m);
    else if (x < 75) exp_query(v);
    else if (x < 84) counters(v);
    else if (x < 88) bad_access(v);
    else if (x < 92) status(v);
    else tables(v);
    return v;
  }

  // Reads at the end: every head and tail, every counter, the event FIFO and filter count.
  std::vector<RegOp> finish() {
    std::vector<RegOp> v;
    auto rd = [&](uint32_t a) { v.push_back({false, a, 0, 0, TxnKind::kFinish}); };
    for (uint32_t c = 0; c < cpus_; ++c) {
      rd(regs::HEAD::addr(c));
      rd(regs::TAIL::addr(c));
    }
    for (uint32_t i = 0; i < 32; ++i) {
      rd(regs::CNT_LO::addr(i));
      rd(regs::CNT_HI::addr(i));
    }
    rd(regs::EVT_STATUS::kAddr);
    rd(regs::FLT_COUNT::kAddr);
    rd(regs::ERR_STATUS::kAddr);
    rd(regs::STATUS::kAddr);
    rd(regs::CTRL::kAddr);
    return v;
  }

  // ---------------------------------------------------------------- frames
  StimFrame next_frame() {
    StimFrame f;
    if (chance(opt_.junk)) {
      f.kind = FrameKind::kJunk;
      f.bytes = junk_.frame();
      if (opt_.small_frames && f.bytes.size() > 64) f.bytes.resize(64);
      if (f.bytes.empty()) f.bytes.push_back(uint8_t(rng_()));  // a frame has one byte at least
      return f;
    }
    size_t i;
    if (opt_.uniform) {
      i = rng_() % flows_.size();
    } else if (last_ < flows_.size() && chance(opt_.repeat)) {
      i = last_;
      f.kind = FrameKind::kSameFlowRepeat;
    } else if (!pairs_.empty() && last_ < flows_.size() && chance(0.08)) {
      // a hash-collision partner right behind its flow
      const auto& p = pairs_[rng_() % pairs_.size()];
      const bool first = rng_() & 1;
      i = first ? p.first : p.second;
      f.kind = FrameKind::kHashCollision;
      pending_partner_ = first ? p.second : p.first;
    } else if (pending_partner_ < flows_.size()) {
      i = pending_partner_;
      f.kind = FrameKind::kHashCollision;
      pending_partner_ = SIZE_MAX;
    } else if (!bucket_flows_.empty() && chance(0.06)) {
      i = bucket_flows_[rng_() % bucket_flows_.size()];
      f.kind = FrameKind::kBucketCollision;
    } else {
      // a skewed pick: a small hot set gets half the traffic
      i = chance(0.6) ? hot_[rng_() % hot_.size()] : rng_() % flows_.size();
    }
    last_ = i;
    recent_.push_back(i);
    if (recent_.size() > 32) recent_.pop_front();
    f.bytes = build(flows_[i]);
    return f;
  }

 private:
  static constexpr size_t kHot = 48;  // first flows of the pool in the hot set (60% of traffic)
  struct Flow {
    flowsteer::FlowTuple t;
    flowsteer::nic::FrameOptions o;
  };
  struct Steer {
    uint16_t queue;
    uint32_t flow_id, id;
  };

  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  static uint32_t cpu_mask(uint32_t nr) {
    uint32_t m = 1;
    while (m < nr) m <<= 1;
    return m - 1;
  }
  uint32_t flow_cnt_word() {
    if (rng_() % 16 == 0) return 0;  // queue without a table
    const uint32_t log2 = std::min<uint32_t>(caps_.slot_log2, 1 + uint32_t(rng_() % 6));
    return regs::RPS_FLOW_CNT::PRESENT.put(1) | regs::RPS_FLOW_CNT::LOG2.put(log2);
  }
  uint32_t sock_cfg_word() {
    const uint32_t log2 = std::min<uint32_t>(caps_.sock_log2, rng_() % 8 ? 8 + uint32_t(rng_() % 4) : 4);
    sock_log2_ = log2;
    return regs::SOCK_CFG::PRESENT.put(1) | regs::SOCK_CFG::LOG2.put(log2);
  }

  flowsteer::FlowTuple random_tuple(bool v6, uint8_t proto) {
    flowsteer::FlowTuple t;
    t.family = v6 ? 6 : 4;
    t.proto = proto;
    for (size_t b = 0; b < (v6 ? 16u : 4u); ++b) {
      t.src[b] = uint8_t(rng_());
      t.dst[b] = uint8_t(rng_());
    }
    t.sport = uint16_t(rng_());
    t.dport = uint16_t(rng_());
    return t;
  }
  flowsteer::nic::FrameOptions random_options() {
    flowsteer::nic::FrameOptions o;
    if (opt_.small_frames) return o;
    if (rng_() % 8 == 0) o.vlan_tags = uint8_t(1 + rng_() % 2);
    if (rng_() % 10 == 0) o.ipv4_option_words = uint8_t(1 + rng_() % 10);
    if (rng_() % 25 == 0) o.ipv4_more_fragments = true;
    if (rng_() % 25 == 0) o.ipv4_frag_offset = uint16_t(1 + rng_() % 100);
    if (rng_() % 30 == 0) o.ipv6_fragment_header = true;
    o.payload = rng_() % 4 == 0 ? rng_() % 1400 : rng_() % 64;
    return o;
  }

  // The GF(2) kernel of tuple -> hash for IPv4 TCP/UDP (src, dst, sport, dport: 96 bits).
  std::vector<std::array<uint8_t, 12>> toeplitz_kernel() {
    auto to_tuple = [](const std::array<uint8_t, 12>& b, flowsteer::FlowTuple& t) {
      t.family = 4;
      t.proto = flowsteer::kIpProtoTcp;
      t.src = {};
      t.dst = {};
      for (int i = 0; i < 4; ++i) {
        t.src[i] = b[i];
        t.dst[i] = b[4 + i];
      }
      t.sport = uint16_t(b[8] << 8 | b[9]);
      t.dport = uint16_t(b[10] << 8 | b[11]);
    };
    // Gaussian elimination over the 96 unit vectors; a row that reduces to 0 is a kernel
    // vector (its combination mask).
    struct Row {
      uint32_t h;
      std::array<uint8_t, 12> comb;
    };
    std::vector<Row> basis;  // pivot rows, distinct leading bits
    std::vector<std::array<uint8_t, 12>> ker;
    for (int bit = 0; bit < 96; ++bit) {
      std::array<uint8_t, 12> u{};
      u[bit / 8] = uint8_t(0x80 >> (bit % 8));
      flowsteer::FlowTuple t;
      to_tuple(u, t);
      Row r{rss_.hash_tuple(t, true), u};
      for (const Row& b : basis)
        if (r.h & (1u << (31 - __builtin_clz(b.h)))) {
          r.h ^= b.h;
          for (int i = 0; i < 12; ++i) r.comb[i] ^= b.comb[i];
        }
      if (r.h == 0) {
        ker.push_back(r.comb);
      } else {
        // keep the basis reduced on the new row's leading bit
        const uint32_t lead = 1u << (31 - __builtin_clz(r.h));
        for (Row& b : basis)
          if (b.h & lead) {
            b.h ^= r.h;
            for (int i = 0; i < 12; ++i) b.comb[i] ^= r.comb[i];
          }
        basis.push_back(r);
      }
    }
    return ker;
  }

  void make_flows(uint64_t seed) {
    static const size_t sizes[] = {200, 700, 60, 1500};
    const size_t n = opt_.uniform ? 8192 : sizes[seed % 4];
    for (size_t i = 0; i < n; ++i) {
      const bool v6 = !opt_.small_frames && rng_() % 5 == 0;
      const uint32_t pr = uint32_t(rng_() % 20);
      const uint8_t proto = pr < 11 ? flowsteer::kIpProtoTcp : pr < 19 ? flowsteer::kIpProtoUdp : 1;
      flows_.push_back({random_tuple(v6, proto), random_options()});
    }
    // hash-collision partners (the Toeplitz modes are linear; jhash has none to construct)
    if (mode_ != flowsteer::nic::HashMode::kJhashSym) {
      const auto ker = toeplitz_kernel();
      if (!ker.empty()) {
        for (size_t i = 0; i < 48; ++i) {
          Flow a{random_tuple(false, rng_() & 1 ? flowsteer::kIpProtoTcp : flowsteer::kIpProtoUdp),
                 random_options()};
          a.o.ipv4_more_fragments = false;
          a.o.ipv4_frag_offset = 0;
          std::array<uint8_t, 12> d{};
          for (const auto& k : ker)
            if (rng_() & 1)
              for (int j = 0; j < 12; ++j) d[j] ^= k[j];
          if (d == std::array<uint8_t, 12>{}) d = ker[rng_() % ker.size()];
          Flow b = a;
          for (int j = 0; j < 4; ++j) {
            b.t.src[j] ^= d[j];
            b.t.dst[j] ^= d[4 + j];
          }
          b.t.sport ^= uint16_t(d[8] << 8 | d[9]);
          b.t.dport ^= uint16_t(d[10] << 8 | d[11]);
          if (rss_.hash_tuple(a.t, true) != rss_.hash_tuple(b.t, true) || a.t == b.t) continue;
          flows_.push_back(a);
          flows_.push_back(b);
          pairs_.push_back({flows_.size() - 2, flows_.size() - 1});
          n_coll_ += 2;
        }
      }
    }
    // the hot set: flows with a sock entry from the setup on, most of the traffic
    for (size_t i = 0; i < std::min<size_t>(n, kHot); ++i) hot_.push_back(i);
    for (size_t i = 0; i < std::min<size_t>(pairs_.size(), 8); ++i) {
      hot_.push_back(pairs_[i].first);
      hot_.push_back(pairs_[i].second);
    }
    // filter-bucket collisions: FLT_WAYS + 2 flows in each of a few buckets (all hot: they
    // get steered, the bucket fills, the last ones get -ENOSPC)
    for (int g = 0; g < 6; ++g) {
      const uint32_t bucket = uint32_t(rng_() % (1u << caps_.flt_bucket_bits));
      for (unsigned k = 0; k < caps_.flt_ways + 2; ++k) {
        for (int tries = 0; tries < 200000; ++tries) {
          flowsteer::FlowTuple t = random_tuple(false, flowsteer::kIpProtoTcp);
          if (eng::filter_bucket(t, caps_.flt_bucket_bits) != bucket) continue;
          flowsteer::nic::FrameOptions o;
          flows_.push_back({t, o});
          bucket_flows_.push_back(flows_.size() - 1);
          hot_.push_back(flows_.size() - 1);
          break;
        }
      }
    }
  }

  std::vector<uint8_t> build(const Flow& f) { return flowsteer::nic::build_frame(f.t, f.o); }

  size_t pick_recent() {
    if (recent_.empty() || rng_() % 10 < 7) return hot_[rng_() % hot_.size()];
    return recent_[rng_() % recent_.size()];
  }

  // sock entry of a live flow: (hash & ~rps_cpu_mask) | cpu (spec 1.1)
  void sock_write(std::vector<RegOp>& v, TxnKind k, eng::EngineRegisterFile* m,
                  size_t flow = SIZE_MAX) {
    const Flow& f = flows_[flow < flows_.size() ? flow : pick_recent()];
    const bool ports = f.t.proto == flowsteer::kIpProtoTcp || f.t.proto == flowsteer::kIpProtoUdp;
    uint32_t h = m ? m->model().rss().hash_tuple(f.t, ports) : rss_.hash_tuple(f.t, ports);
    uint32_t mask = cpu_mask(nr_), ents_mask = (1u << sock_log2_) - 1;
    if (m) {
      mask = m->model().kernel().rps_cpu_mask();
      if (const auto* st = m->model().kernel().sock_table()) ents_mask = st->mask;
    }
    uint32_t cpu = uint32_t(rng_() % (rng_() % 16 == 0 ? 64 : nr_));
    if (rng_() % 20 == 0) cpu = 0xFFFF;  // RPS_NO_CPU-like junk
    const uint32_t idx = rng_() % 30 == 0 ? uint32_t(rng_() % 4096) : (h & ents_mask);
    v.push_back({true, regs::SOCK_INDEX::kAddr, idx, 0xF, k});
    v.push_back({true, regs::SOCK_VALUE::kAddr, (h & ~mask) | cpu, 0xF, k});
    v.push_back({true, regs::SOCK_CMD::kAddr, regs::SOCK_CMD::WRITE.put(1), 0xF, k});
  }
  void sock_read(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    const Flow& f = flows_[pick_recent()];
    uint32_t h = m.model().rss().hash_tuple(f.t, true), mask = 0xFF;
    if (const auto* st = m.model().kernel().sock_table()) mask = st->mask;
    v.push_back({true, regs::SOCK_INDEX::kAddr, h & mask, 0xF, TxnKind::kSockRead});
    v.push_back({true, regs::SOCK_CMD::kAddr, regs::SOCK_CMD::READ.put(1), 0xF, TxnKind::kSockRead});
    v.push_back({false, regs::SOCK_VALUE::kAddr, 0, 0, TxnKind::kSockRead});
  }
  void head_add(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    const uint32_t c = uint32_t(rng_() % cpus_);
    const uint32_t backlog = m.model().kernel().tail(c) - m.model().kernel().head(c);
    // half the time the whole backlog (the CPU's flows may move), else a part of it
    uint32_t n = rng_() % 2 ? backlog : backlog ? uint32_t(rng_() % (uint64_t(backlog) + 1)) : uint32_t(rng_() % 3);
    if (rng_() % 16 == 0) n = uint32_t(rng_());  // wraps head past tail (u32 arithmetic)
    v.push_back({true, regs::HEAD_ADD::addr(c), n, 0xF, TxnKind::kHeadAdd});
    if (rng_() % 3 == 0) {
      v.push_back({false, regs::HEAD::addr(c), 0, 0, TxnKind::kHeadAdd});
      v.push_back({false, regs::TAIL::addr(c), 0, 0, TxnKind::kHeadAdd});
    }
  }
  // every CPU's backlog consumed, half the time and then some (head runs ahead of tail: the
  // packets that pass while the group runs are consumed too), so flows may move
  void drain_all(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    for (uint32_t c = 0; c < cpus_; ++c) {
      const uint32_t backlog = m.model().kernel().tail(c) - m.model().kernel().head(c);
      const uint32_t ahead = int32_t(backlog) < 0 ? 0 : backlog;  // head may be ahead already
      const uint32_t extra = rng_() % 2 ? 256 + uint32_t(rng_() % 1024) : 0;
      v.push_back({true, regs::HEAD_ADD::addr(c), ahead + extra, 0xF, TxnKind::kHeadAdd});
    }
  }
  void mode_flip(std::vector<RegOp>& v) {
    static const regs::Field bits[] = {regs::CTRL::PATCHED, regs::CTRL::SLOT_MASK, regs::CTRL::RPS,
                                       regs::CTRL::FLT_LOOKUP, regs::CTRL::NTUPLE, regs::CTRL::RMAP};
    const regs::Field& b = bits[rng_() % 6];
    const uint32_t flipped = ctrl_ ^ b.mask();
    v.push_back({true, regs::CTRL::kAddr, flipped, 0xF, TxnKind::kModeFlip});
    // most flips are short excursions: back to the seed's mode two transactions later
    if (rng_() % 4) {
      v.push_back({false, regs::STATUS::kAddr, 0, 0, TxnKind::kModeFlip});
      v.push_back({true, regs::CTRL::kAddr, ctrl_, 0xF, TxnKind::kModeFlip});
    } else {
      ctrl_ = flipped;
    }
    if (rng_() % 8 == 0)  // the hash mode too (collision partners stop colliding meanwhile)
      v.push_back({true, regs::HASH_CFG::kAddr, uint32_t(rng_() % 3), 0xF, TxnKind::kModeFlip});
    if (rng_() % 2)
      v.push_back({true, regs::HASH_CFG::kAddr, uint32_t(mode_), 0xF, TxnKind::kModeFlip});
  }
  void enable_toggle(std::vector<RegOp>& v) {
    // frames wait while ENABLE is 0; the group always turns it back on
    v.push_back({true, regs::CTRL::kAddr, ctrl_ & ~regs::CTRL::ENABLE.mask(), 0xF,
                 TxnKind::kEnableToggle});
    for (uint32_t i = uint32_t(rng_() % 3); i > 0; --i)
      v.push_back({false, regs::CNT_LO::addr(0), 0, 0, TxnKind::kEnableToggle});
    v.push_back({true, regs::CTRL::kAddr, ctrl_, 0xF, TxnKind::kEnableToggle});
  }
  void resize(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    const auto k = TxnKind::kResize;
    switch (rng_() % 7) {
      case 0:
      case 1:
        v.push_back({true, regs::RPS_FLOW_CNT::addr(uint32_t(rng_() % queues_)), flow_cnt_word(), 0xF, k});
        break;
      case 2:
        v.push_back({true, regs::SOCK_CFG::kAddr, sock_cfg_word(), 0xF, k});
        for (int i = 0; i < 4; ++i) sock_write(v, k, &m);
        break;
      case 3: {  // nr_cpu_ids (and the mask with it), sometimes out of range (SLVERR)
        uint32_t nr = rng_() % 10 == 0 ? uint32_t(rng_() % (2 * cpus_ + 1)) : 1 + uint32_t(rng_() % cpus_);
        if (rng_() % 2) nr = nr_;
        v.push_back({true, regs::NR_CPU_IDS::kAddr, nr, 0xF, k});
        if (nr >= 1 && nr <= cpus_) v.push_back({true, regs::RPS_CPU_MASK::kAddr, cpu_mask(nr), 0xF, k});
        if (nr != nr_) {  // and back a bit later
          v.push_back({false, regs::NR_CPU_IDS::kAddr, 0, 0, k});
          v.push_back({true, regs::NR_CPU_IDS::kAddr, nr_, 0xF, k});
          v.push_back({true, regs::RPS_CPU_MASK::kAddr, cpu_mask(nr_), 0xF, k});
        }
        break;
      }
      case 4: {
        const uint32_t nq = rng_() % 8 == 0 ? uint32_t(rng_() % (2 * queues_ + 1)) : 1 + uint32_t(rng_() % queues_);
        v.push_back({true, regs::NUM_RX_QUEUES::kAddr, nq, 0xF, k});
        v.push_back({true, regs::NUM_RX_QUEUES::kAddr, rng_() % 3 ? nq_ : nq, 0xF, k});
        break;
      }
      case 5: {
        const uint32_t log2 = uint32_t(rng_() % (caps_.lut_log2 + 2));  // > LUT_LOG2: SLVERR
        v.push_back({true, regs::LUT_CFG::kAddr, log2, 0xF, k});
        if (rng_() % 2) v.push_back({true, regs::LUT_CFG::kAddr, caps_.lut_log2, 0xF, k});
        break;
      }
      default: {
        const uint32_t pool = 1u << caps_.rps_pool_log2;
        const uint32_t q = uint32_t(rng_() % queues_);
        const uint32_t len = uint32_t(rng_() % 5), base = uint32_t(rng_() % pool);
        v.push_back({true, regs::RPS_MAP::addr(q),
                     regs::RPS_MAP::LEN.put(len) | regs::RPS_MAP::BASE.put(base), 0xF, k});
        v.push_back({true, regs::RPS_MAP_CPUS::addr(uint32_t(rng_() % pool)),
                     uint32_t(rng_() % (cpus_ + 2)), 0xF, k});
        break;
      }
    }
  }
  void evt_pop(std::vector<RegOp>& v) {
    const auto k = TxnKind::kEvtPop;
    const int n = 1 + int(rng_() % 3);
    for (int i = 0; i < n; ++i) {
      v.push_back({false, regs::EVT_STATUS::kAddr, 0, 0, k});
      if (rng_() % 3) {
        v.push_back({false, regs::EVT_INFO::kAddr, 0, 0, k});
        v.push_back({false, regs::EVT_FILTER::kAddr, 0, 0, k});
        v.push_back({false, regs::EVT_FLOW_ID::kAddr, 0, 0, k});
        v.push_back({false, regs::EVT_HASH::kAddr, 0, 0, k});
        v.push_back({false, regs::EVT_PORTS::kAddr, 0, 0, k});
        const uint32_t w = uint32_t(rng_() % 4);
        v.push_back({false, regs::EVT_SRC::addr(w), 0, 0, k});
        v.push_back({false, regs::EVT_DST::addr(w), 0, 0, k});
      }
      v.push_back({true, regs::EVT_POP::kAddr, rng_() % 10 ? 1u : 0u, 0xF, k});
    }
  }
  void flt_delete(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    const auto k = TxnKind::kFltDelete;
    uint32_t id;
    if (const eng::FilterEvent* e = m.model().peek_event(); e && rng_() % 2) id = e->id;
    else if (!steers_.empty() && rng_() % 8) id = steers_[rng_() % steers_.size()].id;
    else id = uint32_t(rng_() % 4096);
    v.push_back({true, regs::FLT_ID::kAddr, id, 0xF, k});
    v.push_back({true, regs::FLT_CMD::kAddr, uint32_t(regs::FilterOp::kDelete), 0xF, k});
    v.push_back({false, regs::FLT_STATUS::kAddr, 0, 0, k});
    if (rng_() % 3 == 0) v.push_back({false, regs::FLT_COUNT::kAddr, 0, 0, k});
  }
  void flt_key(std::vector<RegOp>& v, const flowsteer::FlowTuple& t, TxnKind k) {
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t s = 0, d = 0;
      for (uint32_t b = 0; b < 4; ++b) {
        s = s << 8 | t.src[4 * i + b];
        d = d << 8 | t.dst[4 * i + b];
      }
      v.push_back({true, regs::FLT_SRC::addr(i), s, 0xF, k});
      v.push_back({true, regs::FLT_DST::addr(i), d, 0xF, k});
    }
    v.push_back({true, regs::FLT_PORTS::kAddr,
                 regs::FLT_PORTS::SPORT.put(t.sport) | regs::FLT_PORTS::DPORT.put(t.dport), 0xF, k});
    v.push_back({true, regs::FLT_META::kAddr,
                 regs::FLT_META::PROTO.put(t.proto) | regs::FLT_META::IPV6.put(t.family == 6), 0xF, k});
  }
  void flt_cmd(std::vector<RegOp>& v, eng::EngineRegisterFile& m) {
    const auto k = TxnKind::kFltCmd;
    const Flow& f = flows_[pick_recent()];
    const uint32_t op = uint32_t(rng_() % 16);
    uint32_t fop;
    if (op < 5) fop = uint32_t(regs::FilterOp::kInsert);
    else if (op < 9) fop = uint32_t(regs::FilterOp::kLookup);
    else if (op < 12) fop = uint32_t(regs::FilterOp::kRetarget);
    else if (op < 13) fop = uint32_t(regs::FilterOp::kNop);
    else if (op < 14) fop = 6 + uint32_t(rng_() % 10);  // BAD_OP
    else if (op < 15 && rng_() % 4 == 0) fop = uint32_t(regs::FilterOp::kClear);
    else fop = uint32_t(regs::FilterOp::kLookup);
    if (fop != uint32_t(regs::FilterOp::kRetarget)) flt_key(v, f.t, k);
    uint32_t id = uint32_t(rng_() % 4096);
    if (!steers_.empty() && rng_() % 2) id = steers_[rng_() % steers_.size()].id;
    if (const eng::FilterEvent* e = m.model().peek_event(); e && rng_() % 4 == 0) id = e->id;
    v.push_back({true, regs::FLT_ID::kAddr, id, 0xF, k});
    v.push_back({true, regs::FLT_QUEUE::kAddr, uint32_t(rng_() % queues_), 0xF, k});
    v.push_back({true, regs::FLT_CMD::kAddr, fop, 0xF, k});
    v.push_back({false, regs::FLT_STATUS::kAddr, 0, 0, k});
    v.push_back({false, regs::FLT_RESULT::kAddr, 0, 0, k});
    v.push_back({false, regs::FLT_COUNT::kAddr, 0, 0, k});
  }
  void exp_query(std::vector<RegOp>& v) {
    const auto k = TxnKind::kExpQuery;
    Steer s{uint16_t(rng_() % queues_), uint32_t(rng_() % 64), uint32_t(rng_() % 4096)};
    if (!steers_.empty() && rng_() % 8) s = steers_[rng_() % steers_.size()];
    v.push_back({true, regs::EXP_QUEUE::kAddr, s.queue, 0xF, k});
    v.push_back({true, regs::EXP_FLOW_ID::kAddr, s.flow_id, 0xF, k});
    v.push_back({true, regs::EXP_FILTER_ID::kAddr, s.id, 0xF, k});
    v.push_back({true, regs::EXP_CMD::kAddr, regs::EXP_CMD::GO.put(1), 0xF, k});
    v.push_back({false, regs::EXP_STATUS::kAddr, 0, 0, k});
    if (rng_() % 2) {  // what the runtime does with a yes: delete the filter
      v.push_back({true, regs::FLT_ID::kAddr, s.id, 0xF, k});
      v.push_back({true, regs::FLT_CMD::kAddr, uint32_t(regs::FilterOp::kDelete), 0xF, k});
      v.push_back({false, regs::FLT_STATUS::kAddr, 0, 0, k});
    }
  }
  void counters(std::vector<RegOp>& v) {
    const auto k = TxnKind::kCounters;
    const int n = 1 + int(rng_() % 4);
    for (int i = 0; i < n; ++i) {
      const uint32_t c = uint32_t(rng_() % 32);
      v.push_back({false, regs::CNT_LO::addr(c), 0, 0, k});
      if (rng_() % 2) v.push_back({false, regs::CNT_HI::addr(c), 0, 0, k});
    }
    if (rng_() % 25 == 0) v.push_back({true, regs::CNT_CLEAR::kAddr, regs::CNT_CLEAR::ALL.put(1), 0xF, k});
  }
  void bad_access(std::vector<RegOp>& v) {
    const auto k = TxnKind::kBadAccess;
    switch (rng_() % 8) {
      case 0:  // anywhere in the window, aligned or not
        v.push_back({bool(rng_() & 1), uint32_t(rng_() & 0xFFFF), uint32_t(rng_()), 0xF, k});
        break;
      case 1:  // array element past the implemented size
        v.push_back({bool(rng_() & 1), regs::RMAP::addr(cpus_ + uint32_t(rng_() % 64)), 1, 0xF, k});
        break;
      case 2:
        v.push_back({bool(rng_() & 1), regs::LUT::addr((1u << caps_.lut_log2) + uint32_t(rng_() % 64)),
                     0, 0xF, k});
        break;
      case 3:  // RO write (ignored, OKAY)
        v.push_back({true, regs::ID::kAddr, uint32_t(rng_()), 0xF, k});
        v.push_back({true, regs::TAIL::addr(uint32_t(rng_() % cpus_)), uint32_t(rng_()), 0xF, k});
        break;
      case 4:  // byte strobes on a RW register
        v.push_back({true, regs::SCRATCH::kAddr, uint32_t(rng_()), uint8_t(rng_() & 0xF), k});
        v.push_back({false, regs::SCRATCH::kAddr, 0, 0, k});
        break;
      case 5:  // LUT / RMAP value out of range (SLVERR, nothing changes)
        v.push_back({true, regs::LUT::addr(uint32_t(rng_() % (1u << caps_.lut_log2))),
                     queues_ + uint32_t(rng_() % 8), 0xF, k});
        v.push_back({true, regs::RMAP::addr(uint32_t(rng_() % cpus_)), queues_ + 1, 0xF, k});
        break;
      case 6:  // strobed write of a mode register (CTRL keeps its value: all bytes but 0)
        v.push_back({true, regs::CTRL::kAddr, 0, 0xE, k});
        v.push_back({false, regs::CTRL::kAddr, 0, 0, k});
        break;
      default:  // WO reads give 0
        v.push_back({false, regs::HEAD_ADD::addr(uint32_t(rng_() % cpus_)), 0, 0, k});
        v.push_back({false, regs::FLT_CMD::kAddr, 0, 0, k});
        break;
    }
  }
  void status(std::vector<RegOp>& v) {
    const auto k = TxnKind::kStatus;
    v.push_back({false, regs::STATUS::kAddr, 0, 0, k});
    v.push_back({false, regs::ERR_STATUS::kAddr, 0, 0, k});
    if (rng_() % 2) v.push_back({true, regs::ERR_STATUS::kAddr, uint32_t(rng_() % 4), 0xF, k});
    v.push_back({false, regs::FLT_COUNT::kAddr, 0, 0, k});
    v.push_back({false, regs::SOCK_CFG::kAddr, 0, 0, k});
    v.push_back({false, regs::RPS_FLOW_CNT::addr(uint32_t(rng_() % queues_)), 0, 0, k});
  }
  void tables(std::vector<RegOp>& v) {
    const auto k = TxnKind::kTables;
    switch (rng_() % 4) {
      case 0:
        v.push_back({true, regs::RMAP::addr(uint32_t(rng_() % cpus_)), uint32_t(rng_() % nq_), 0xF, k});
        break;
      case 1:
        v.push_back({true, regs::LUT::addr(uint32_t(rng_() % (1u << caps_.lut_log2))),
                     uint32_t(rng_() % nq_), 0xF, k});
        break;
      case 2: {  // a CPU goes offline or comes back
        uint32_t online = 0;
        for (uint32_t c = 0; c < std::min<uint32_t>(cpus_, 32); ++c)
          if (c == 0 || rng_() % 8) online |= 1u << c;
        v.push_back({true, regs::CPU_ONLINE::addr(0), online, 0xF, k});
        break;
      }
      default:
        v.push_back({false, regs::RMAP::addr(uint32_t(rng_() % cpus_)), 0, 0, k});
        v.push_back({false, regs::LUT::addr(uint32_t(rng_() % (1u << caps_.lut_log2))), 0, 0, k});
        v.push_back({false, regs::RPS_MAP::addr(uint32_t(rng_() % queues_)), 0, 0, k});
        break;
    }
  }

  eng::EngineCaps caps_;
  EngineStimOptions opt_;
  std::mt19937_64 rng_;
  flowsteer::sim::common::FrameGen junk_;
  flowsteer::nic::Rss rss_;
  flowsteer::hash::RssKey key_;
  flowsteer::nic::HashMode mode_;
  bool patched_ = true, slot_mask_ = false;
  uint32_t hash_seed_ = 0;
  uint32_t cpus_ = 16, queues_ = 16, nr_ = 16, nq_ = 16, ctrl_ = 0, sock_log2_ = 8;
  double pop_rate_ = 1.0;
  std::vector<Flow> flows_;
  std::vector<std::pair<size_t, size_t>> pairs_;
  std::vector<size_t> bucket_flows_, hot_;
  std::deque<size_t> recent_;
  std::deque<Steer> steers_;
  size_t last_ = SIZE_MAX, pending_partner_ = SIZE_MAX, n_coll_ = 0;
};

}  // namespace flowsteer::sim::systemc
