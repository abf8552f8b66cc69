// Small helpers shared by the spec section 8 tests (KernelSpec8, IceSpec8, SeedTwoFlows).
// Expected values in the tests are computed from the spec with the reference functions here,
// never by asking the model under test.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "flowsteer/driver/ice_arfs.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/tuple.h"

namespace spec8 {

using flowsteer::FlowTuple;
using flowsteer::kernel::Kernel;
using flowsteer::kernel::KernelConfig;
using flowsteer::kernel::RxDecision;
using flowsteer::kernel::Skb;

// spec 6.4 hash_32, written independently of flowsteer::hash::hash_32 (64-bit product).
inline uint32_t ref_hash_32(uint32_t h, unsigned bits) {
  uint64_t p = (uint64_t(h) * 0x61C88647ull) & 0xFFFFFFFFull;
  return bits == 0 ? 0u : uint32_t(p >> (32 - bits));
}
// spec 6.4: ice bucket = low 10 bits of the skb hash.
inline uint32_t ref_bucket(uint32_t h) { return h % 1024u; }

// First hash h = start + k*step (k = 0, 1, ...) with pred(h); h == 0 is skipped (spec G4).
inline uint32_t find_hash(const std::function<bool(uint32_t)>& pred, uint32_t start = 1,
                          uint32_t step = 1) {
  uint32_t h = start;
  for (uint64_t k = 0; k < (1ull << 32); ++k, h += step)
    if (h != 0 && pred(h)) return h;
  return 0;
}

// TCP/UDP over IPv4 tuples: flow n is 10.0.0.1:(1000+n) -> 10.0.1.1:80.
inline FlowTuple tcp4(int n) {
  return flowsteer::make_tuple("10.0.0.1", "10.0.1.1", uint16_t(1000 + n), 80);
}
inline FlowTuple udp4(int n) {
  return flowsteer::make_tuple("10.0.0.1", "10.0.1.1", uint16_t(2000 + n), 53,
                               flowsteer::kIpProtoUdp);
}

inline Skb make_skb(uint32_t hash, int rxq, const FlowTuple& t) {
  Skb s;
  s.hash = hash;
  s.rx_queue = rxq;
  s.tuple = t;
  return s;
}

// A driver stand-in that records every ndo_rx_flow_steer call and returns a scripted rc.
struct FakeDriver : flowsteer::kernel::RxFlowSteer {
  struct Call {
    uint32_t hash;
    uint16_t q;
    uint32_t flow_id;
  };
  std::vector<Call> calls;
  std::vector<int> script;  // consumed front to back; when empty, `rc` is returned
  int rc = 7;
  int ndo_rx_flow_steer(const Skb& skb, uint16_t q, uint32_t flow_id) override {
    calls.push_back({skb.hash, q, flow_id});
    if (!script.empty()) {
      int r = script.front();
      script.erase(script.begin());
      return r;
    }
    return rc;
  }
};

// One ice_fdir_write_fltr call.
struct FdirOp {
  bool add;
  uint32_t id;
  int16_t q;
  FlowTuple tuple;
};

// Records HW writes and keeps the installed filter table (id -> filter), i.e. what the NIC's
// flow director holds. add_rc / del_rc are returned for adds / deletes.
struct RecordingFdir : flowsteer::driver::FdirWriter {
  std::vector<FdirOp> ops;
  std::map<uint32_t, flowsteer::driver::FltrInfo> installed;
  int add_rc = 0;
  int del_rc = 0;
  int ice_fdir_write_fltr(const flowsteer::driver::FltrInfo& f, bool add) override {
    ops.push_back({add, f.fltr_id, f.q_index, f.tuple});
    int r = add ? add_rc : del_rc;
    if (r == 0) {
      if (add) installed[f.fltr_id] = f;
      else installed.erase(f.fltr_id);
    }
    return r;
  }
  // NIC rule: a packet matching an installed filter arrives on its queue, else on RSS.
  int arrival_queue(const FlowTuple& t, int rss_queue) const {
    for (const auto& kv : installed)
      if (kv.second.tuple == t) return kv.second.q_index;
    return rss_queue;
  }
};

// Scripted rps_may_expire_flow for ice-only tests: answers `expire` unless the id is in keep.
struct FakeExpire : flowsteer::kernel::RpsMayExpireFlow {
  bool expire = false;
  std::vector<std::pair<uint16_t, uint32_t>> asked;  // (rxq, flow_id) per call
  bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t) override {
    asked.push_back({rxq, flow_id});
    return expire;
  }
};

// Default rig: nr_cpu_ids 4, 4 RX queues, rmap cpu c -> queue c, rps_flow_cnt 16 on every queue
// (log 4, window 160), sock table 256 entries (rps_cpu_mask 3).
inline KernelConfig small_config(flowsteer::kernel::Variant v) {
  KernelConfig c;
  c.nr_cpu_ids = 4;
  c.num_rx_queues = 4;
  c.variant = v;
  return c;
}

inline void setup_tables(Kernel& k, uint32_t flow_cnt = 16, uint32_t sock = 256) {
  for (uint32_t q = 0; q < k.num_rx_queues(); ++q) k.store_rps_flow_cnt(q, flow_cnt);
  k.set_rps_sock_flow_entries(sock);
}

// Kernel + ice mirror + recording flow director, wired together.
struct Rig {
  RecordingFdir fdir;
  flowsteer::driver::IceArfs ice;
  Kernel k;
  int schedules = 0;
  explicit Rig(const KernelConfig& cfg, uint32_t flow_cnt = 16, uint32_t sock = 256)
      : ice(flowsteer::driver::IceArfs::Options{}, &fdir), k(cfg) {
    setup_tables(k, flow_cnt, sock);
    k.set_driver(&ice);
    ice.set_schedule_hook([this] { ++schedules; });
  }
  RxDecision rx(uint32_t hash, int rxq, const FlowTuple& t) {
    return k.netif_receive_skb(make_skb(hash, rxq, t));
  }
  flowsteer::driver::SyncResult sync(uint64_t now_ms = 0) {
    return ice.ice_sync_arfs_fltrs(now_ms, k);
  }
  const flowsteer::kernel::rps_dev_flow& slot(uint32_t q, uint32_t s) const {
    return k.flow_table(q)->flows.at(s);
  }
};

inline std::vector<uint32_t> ids(std::initializer_list<uint32_t> l) { return l; }

}  // namespace spec8
