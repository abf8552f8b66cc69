// Seeded random stimulus for fs_rfs_core, the one mix of both RFS-core benches (the
// GoogleTest suite test_fs_rfs_core.cpp and the SystemC bench sc_rfs_core.cpp): hash twins
// and near twins, the initial-entry ident 0x0000FFFx, bursts on one flow, CPU migrations incl.
// sibling CPUs on the same queue, head advances sized to the backlog, table resizes, sock
// deletes, variant / NTUPLE / rmap flips, RPS_CPU_MASK widening, u32-wrap head/tail, rps_map
// rewrites, raw sock-table access. Op codes and the SET_MODE word come from the register map
// (rfs_ref.h). Packets and commands are two streams: the SystemC bench offers them on two
// ports at once; the GoogleTest suite interleaves them in one order (command_next()).
// The generator may look at the golden model (read-only) to size head advances, pick queues
// from the rmap and reuse recent steers for MAY_EXPIRE; that shapes stimulus only, each bench
// still applies whatever was accepted, in its order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "rfs_ref.h"

namespace flowsteer::sim::common::rfs {

struct RfsPkt {
  uint32_t hash = 0;
  uint8_t queue = 0;
  bool steerable = true;
};

// (queue, flow_id, filter id) of a successful steer, for MAY_EXPIRE
using SteerRef = std::array<uint32_t, 3>;

class RfsStim {
 public:
  static constexpr uint32_t kPoolPerQueue = 16;  // queue q owns pool entries 16q .. 16q+15

  RfsStim(const CoreDims& dims, uint32_t nr, Variant v, SlotMode m,
          uint64_t seed)
      : dims_(dims), nr_(nr), mask_(m == SlotMode::kMask),
        patched_(v == Variant::kPatched), rng_(seed * 0x9E3779B97F4A7C15ull) {
    cpu_span_ = nr < 16 ? 16 : nr;  // up to rps_cpu_mask: next_cpu >= nr happens
  }

  // The commands before the first packet: nr_cpu_ids, mode, tables, maps, sock entries.
  std::vector<Cmd> setup() {
    std::vector<Cmd> s;
    s.push_back(cmd(Op::kSetNrCpuIds, 0, nr_, 0));
    s.push_back(mode_cmd());
    s.push_back(sock_size(int(2 + rnd(dims_.sock_log2_max - 1))));
    for (uint32_t q = 0; q < dims_.queues; ++q) {
      s.push_back(queue_table(q, uni() < 0.2 ? -1 : int(rnd(dims_.slot_log2_max + 1) % 5)));
      if (uni() < 0.3) random_map(q, s);
    }
    flows_.resize(8 + rnd(40));
    for (size_t i = 0; i < flows_.size(); ++i) {
      Flow& f = flows_[i];
      const double r = uni();
      if (i > 0 && r < 0.06) f.hash = flows_[i - 1].hash;                          // twins
      else if (r < 0.12) f.hash = 0x0000FFF0u | rnd(16);                            // initial ident
      else if (r < 0.3 && i > 0) f.hash = flows_[i - 1].hash ^ (1u << (4 + rnd(28)));  // near
      else f.hash = uint32_t(rng_()) | 1u;
      f.cpu = rnd(nr_);
      f.rssq = uint8_t(rnd(dims_.queues));
      if (uni() < 0.8) s.push_back(cmd(Op::kSockRecord, 0, f.hash, f.cpu));
    }
    return s;
  }

  RfsPkt next_pkt(const Kernel& k) {
    const size_t i = uni() < 0.45 ? last_ : rnd(uint32_t(flows_.size()));  // bursts on a flow
    last_ = i;
    const Flow& f = flows_[i];
    const double r = uni();
    RfsPkt p;
    const uint32_t qmask = (1u << qbits()) - 1;
    p.queue = r < 0.55   ? f.rssq
              : r < 0.95 ? uint8_t(k.rmap_lookup(f.cpu < nr_ ? f.cpu : 0))
                         : uint8_t(rnd(qmask + 1));  // any queue the port can carry (G2)
    p.hash = uni() < 0.005 ? 0 : f.hash;
    p.steerable = uni() < 0.93;
    return p;
  }

  // One random command; pending maps are returned one command at a time.
  Cmd next_cmd(const Kernel& k, const std::deque<SteerRef>& steers) {
    if (!queued_.empty()) {
      Cmd c = queued_.front();
      queued_.pop_front();
      return c;
    }
    const double r = uni();
    Flow& f = flows_[rnd(uint32_t(flows_.size()))];
    const uint32_t c = rnd(nr_);
    if (r < 0.28) {
      if (uni() < 0.4) {
        const uint32_t old = f.cpu;
        f.cpu = uni() < 0.05 ? rnd(cpu_span_) : rnd(nr_);
        if (old < nr_ && uni() < 0.3) {  // a sibling CPU on the same queue (gate row 5)
          for (uint32_t t = 0; t < nr_; ++t) {
            const uint32_t cand = (old + 1 + t) % nr_;
            if (cand != old && k.rmap_lookup(cand) == k.rmap_lookup(old)) {
              f.cpu = cand;
              break;
            }
          }
        }
      }
      return cmd(Op::kSockRecord, 0, f.hash, f.cpu);
    }
    if (r < 0.55) {
      if (uni() < 0.15) return cmd(Op::kBacklogDrain, uint16_t(c), 0, 0);
      const uint32_t backlog = k.tail(c) - k.head(c);
      uint32_t add = uni() < 0.01 ? uint32_t(rng_())
                                  : (backlog ? rnd(uint64_t(backlog) + 1) : rnd(3));
      if (uni() < 0.2) add = backlog;
      return cmd(Op::kHeadAdd, uint16_t(c), add, 0);
    }
    if (r < 0.66) {
      if (!steers.empty() && uni() < 0.8) {
        const SteerRef& s = steers[rnd(uint32_t(steers.size()))];
        return cmd(Op::kMayExpire, uint16_t(s[0]), s[1], uint16_t(s[2]));
      }
      return cmd(Op::kMayExpire, uint16_t(rnd(dims_.queues + 2)), rnd(80), rnd(0x10000));
    }
    if (r < 0.71) return cmd(Op::kReadHeadTail, uint16_t(c), 0, 0);
    if (r < 0.76) return cmd(Op::kSetOnline, uint16_t(c), uni() < 0.7 ? 1 : 0, 0);
    if (r < 0.80) return cmd(Op::kSetRmap, uint16_t(c), rnd(dims_.queues), 0);
    if (r < 0.84)
      return queue_table(rnd(dims_.queues + 1),
                         uni() < 0.1 ? -1 : int(rnd(dims_.slot_log2_max + 1)) % 5);
    if (r < 0.87) return cmd(Op::kSockDelete, 0, f.hash, 0);
    if (r < 0.90) {
      patched_ = uni() < 0.5;
      return mode_cmd();
    }
    if (r < 0.92) {
      if (uni() < 0.7) ntuple_ = uni() < 0.8;
      else rmap_ = uni() < 0.8;
      return mode_cmd();
    }
    if (r < 0.94) {
      // SOCK_SIZE derives rps_cpu_mask from nr_cpu_ids; for half the flows widen it after
      // (the engine's RPS_CPU_MASK; no extra draw)
      const Cmd sz = sock_size(uni() < 0.05 ? -1 : int(2 + rnd(dims_.sock_log2_max - 1)));
      const uint32_t m = uint32_t(flowsteer::kernel::roundup_pow_of_two(nr_) - 1);
      if (f.hash & 1) queued_.push_back(cmd(Op::kSetCpuMask, 0, (m << 1) | 1, 0));
      return sz;
    }
    if (r < 0.96) {
      const uint32_t hd = uni() < 0.5 ? 0xFFFFFFF0u + rnd(16) : 0x7FFFFFF0u + rnd(16);
      return cmd(Op::kSetHeadTail, uint16_t(c), hd, hd + rnd(4));
    }
    if (r < 0.98) {
      std::vector<Cmd> m;
      random_map(rnd(dims_.queues), m);
      queued_.insert(queued_.end(), m.begin() + 1, m.end());
      return m.front();
    }
    const uint32_t idx = rnd((uint64_t(1) << dims_.sock_log2_max) + 2);
    if (uni() < 0.5)
      return cmd(Op::kSockWrite, 0, idx,
                 uni() < 0.5 ? uint32_t(rng_()) : (f.hash & ~15u) | f.cpu);
    return cmd(Op::kSockRead, 0, idx, 0);
  }

  // The one-order form: whether the next item is a command (probability `rate`), and whether
  // commands of a group (an rps_map's pool entries, RPS_CPU_MASK after SOCK_SIZE) are due.
  bool command_next(double rate) { return uni() < rate; }
  bool group_pending() const { return !queued_.empty(); }

  // The commands after the last packet: every CPU's head and tail.
  std::vector<Cmd> finish() const {
    std::vector<Cmd> s;
    for (uint32_t c = 0; c < nr_; ++c) s.push_back(cmd(Op::kReadHeadTail, uint16_t(c), 0, 0));
    return s;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  struct Flow {
    uint32_t hash = 0, cpu = 0;
    uint8_t rssq = 0;
  };

  static Cmd cmd(Op op, uint16_t addr, uint32_t d0, uint32_t d1) {
    Cmd c;
    c.op = uint8_t(op);
    c.addr = addr;
    c.d0 = d0;
    c.d1 = d1;
    return c;
  }
  Cmd mode_cmd() const {
    return cmd(Op::kSetMode, 0, mode_word(patched_, mask_, ntuple_, rmap_), 0);
  }
  Cmd sock_size(int log2) const {  // -1 removes
    return cmd(Op::kSockSize, 0, log2 < 0 ? 0 : uint32_t(log2), log2 < 0 ? 0 : 1);
  }
  Cmd queue_table(uint32_t q, int log2) const {  // -1 removes
    return cmd(Op::kQueueTable, uint16_t(q), log2 < 0 ? 0 : uint32_t(log2),
               log2 < 0 ? 0 : 1);
  }
  // rps_cpus of queue q: pool entries first, then LEN/BASE (LEN 0 removes the map)
  void random_map(uint32_t q, std::vector<Cmd>& out) {
    std::vector<uint32_t> cpus(uni() < 0.2 ? 0 : 1 + rnd(6));
    for (auto& c : cpus) c = rnd(nr_);
    for (size_t i = 0; i < cpus.size(); ++i)
      out.push_back(cmd(Op::kRpsPool, 0, uint32_t(q * kPoolPerQueue + i), cpus[i]));
    out.push_back(cmd(Op::kRpsMap, uint16_t(q), uint32_t(cpus.size()), q * kPoolPerQueue));
  }
  uint32_t qbits() const {
    uint32_t b = 1;
    while ((1u << b) < dims_.queues) ++b;
    return b;
  }
  double uni() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint32_t rnd(uint64_t n) { return uint32_t(rng_() % n); }

  CoreDims dims_;
  uint32_t nr_, cpu_span_;
  bool mask_, patched_, ntuple_ = true, rmap_ = true;
  std::mt19937_64 rng_;
  std::vector<Flow> flows_;
  size_t last_ = 0;
  std::deque<Cmd> queued_;
};

}  // namespace flowsteer::sim::common::rfs
