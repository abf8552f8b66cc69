// The seed scenario (spec 7.9.3 / 7.9.4): Flow #1 and Flow #2 on different RSS queues (0, 1),
// both applications on CPU T = 3, hashes colliding in T's 16-slot table (slot 11), driven
// through Kernel + IceArfs + sync. NIC rule: a packet matching an installed HW filter arrives
// on the filter's queue, else on its RSS queue (RecordingFdir::installed).
#include <gtest/gtest.h>

#include "spec8_helpers.h"

using namespace spec8;
using flowsteer::driver::SyncResult;
using flowsteer::kernel::GateRow;
using flowsteer::kernel::RflowRef;
using flowsteer::kernel::RPS_NO_CPU;
using flowsteer::kernel::SetRpsCpuPath;
using flowsteer::kernel::Variant;

namespace {

constexpr uint32_t kT = 3;       // the applications' CPU, target queue rmap(3) = 3
constexpr uint32_t kSlot = 11;   // hash_32(h1, 4) == hash_32(h2, 4) == 11

struct Flow {
  uint32_t hash;
  int rss_q;
  FlowTuple tuple;
};

struct Seed {
  Rig r;
  Flow f1{0x5A5A1000, 0, tcp4(1)};  // bucket 0, RSS queue 0 (h & 3)
  Flow f2{0x6B6B2041, 1, tcp4(2)};  // bucket 65, RSS queue 1
  uint64_t now = 0;
  std::vector<RxDecision> last;  // decisions of the last send()

  explicit Seed(Variant v) : r(small_config(v)) {
    r.k.rps_record_sock_flow(f1.hash, kT);
    r.k.rps_record_sock_flow(f2.hash, kT);
  }
  int arrival(const Flow& f) const { return r.fdir.arrival_queue(f.tuple, f.rss_q); }
  void send(const Flow& f, int n) {
    last.clear();
    for (int i = 0; i < n; ++i) last.push_back(r.rx(f.hash, arrival(f), f.tuple));
  }
  // The backlog of every CPU is processed, then one service-task run.
  SyncResult tick() {
    for (uint32_t c = 0; c < 4; ++c) r.k.drain(c);
    now += 1000;
    return r.sync(now);
  }
  const flowsteer::driver::ArfsCounters& c() const { return r.ice.counters(); }
};

}  // namespace

TEST(SeedTwoFlows, HashesCollideInTargetTableOnly) {
  Seed s(Variant::kOriginal);
  EXPECT_NE(s.f1.hash, s.f2.hash);
  EXPECT_EQ(ref_hash_32(s.f1.hash, 4), kSlot);
  EXPECT_EQ(ref_hash_32(s.f2.hash, 4), kSlot);
  EXPECT_EQ(s.r.k.flow_table(kT)->slot(s.f1.hash, flowsteer::kernel::SlotMode::kLog), kSlot);
  EXPECT_EQ(s.r.k.flow_table(kT)->slot(s.f2.hash, flowsteer::kernel::SlotMode::kLog), kSlot);
  EXPECT_NE(s.f1.hash & 0xFF, s.f2.hash & 0xFF);  // distinct sock-table entries
  EXPECT_EQ(ref_bucket(s.f1.hash), 0u);
  EXPECT_EQ(ref_bucket(s.f2.hash), 65u);
  EXPECT_EQ(s.r.k.rmap_lookup(kT), kT);
  // How f2 was chosen: first h = 0x6B6B2001 + 4k (so h & 3 = 1, RSS queue 1) whose T slot
  // equals f1's and whose ice bucket differs from f1's.
  EXPECT_EQ(find_hash([&](uint32_t h) {
              return ref_hash_32(h, 4) == ref_hash_32(s.f1.hash, 4) &&
                     ref_bucket(h) != ref_bucket(s.f1.hash);
            }, 0x6B6B2001u, 4u),
            s.f2.hash);
}

// Original: each cycle overwrites T3[11], expires the active flow's filter, and re-adds it.
// Per round: F1 x3 then F2 x3, drain, sync. Worked by hand (spec 7.9.3 steps 1-6):
//  round 1: both flows steer (3 calls each, Steer-L 0+1+1 each), ids 1 (F1) and 2 (F2);
//           T3[11].filter = 2; sync adds bucket 0 then 65 -> written in reverse: {2, 1}.
//  round 2: both arrive on queue 3 (filters), no calls; sync deletes 1 (T3[11] says 2).
//  round k >= 3: the flow without filter steers 3 times -> id k; sync deletes k-1, adds k.
//  So after round k >= 2: Add = k, Del = k - 1, Steer-C = 3k, Steer-L = 2k.
TEST(SeedTwoFlows, OriginalThrashesEveryCycle) {
  Seed s(Variant::kOriginal);
  s.send(s.f1, 3);
  for (const auto& d : s.last) {
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    EXPECT_EQ(d.steer.rc, 1);
    EXPECT_EQ(d.cpu, int(kT));
  }
  s.send(s.f2, 3);
  for (const auto& d : s.last) EXPECT_EQ(d.steer.rc, 2);
  EXPECT_EQ(s.r.slot(kT, kSlot).filter, 2);
  EXPECT_EQ(s.r.slot(0, kSlot).cpu, RPS_NO_CPU);  // receiving slots never written
  EXPECT_EQ(s.r.slot(1, kSlot).cpu, RPS_NO_CPU);
  EXPECT_EQ(s.c().steer_c, 6u);
  EXPECT_EQ(s.c().steer_l, 4u);
  SyncResult y = s.tick();
  EXPECT_TRUE(y.deleted.empty());
  EXPECT_EQ(y.added, ids({2, 1}));
  EXPECT_EQ(s.arrival(s.f1), int(kT));
  EXPECT_EQ(s.arrival(s.f2), int(kT));

  s.send(s.f1, 3);
  for (const auto& d : s.last) EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  s.send(s.f2, 3);
  for (const auto& d : s.last) EXPECT_EQ(d.rflow, (RflowRef{int(kT), kSlot}));
  y = s.tick();
  EXPECT_EQ(y.deleted, ids({1}));  // F1 active, but T3[11].filter == 2
  EXPECT_TRUE(y.added.empty());
  EXPECT_EQ(s.c().add, 2u);
  EXPECT_EQ(s.c().del, 1u);
  EXPECT_EQ(s.arrival(s.f1), 0);  // back on its RSS queue

  for (uint32_t k = 3; k <= 20; ++k) {
    SCOPED_TRACE(k);
    const uint64_t add0 = s.c().add, del0 = s.c().del, sc0 = s.c().steer_c;
    const bool f1_out = k % 2 == 1;  // odd rounds: F1 lost its filter, even: F2
    EXPECT_EQ(s.arrival(f1_out ? s.f1 : s.f2), f1_out ? 0 : 1);
    EXPECT_EQ(s.arrival(f1_out ? s.f2 : s.f1), int(kT));
    s.send(s.f1, 3);
    if (f1_out) {
      for (const auto& d : s.last) EXPECT_EQ(d.steer.rc, int(k));
    }
    s.send(s.f2, 3);
    if (!f1_out) {
      for (const auto& d : s.last) EXPECT_EQ(d.steer.rc, int(k));
    }
    EXPECT_EQ(s.r.slot(kT, kSlot).filter, k);
    y = s.tick();
    EXPECT_EQ(y.deleted, ids({k - 1}));
    EXPECT_EQ(y.added, ids({k}));
    EXPECT_EQ(s.c().add, add0 + 1);  // Add and Del keep growing, one per cycle
    EXPECT_EQ(s.c().del, del0 + 1);
    EXPECT_EQ(s.c().steer_c, sc0 + 3);
    EXPECT_EQ(s.c().add, k);
    EXPECT_EQ(s.c().del, k - 1);
    EXPECT_EQ(s.c().steer_c, 3u * k);
    EXPECT_EQ(s.c().steer_l, 2u * k);
    EXPECT_EQ(s.r.fdir.installed.size(), 1u);
    EXPECT_EQ(s.r.ice.num_entries(), 1u);
  }
}

// Patched: F1 wins slot 11 (id 1, Add 1), F2 hits the gate once (skip other flow) and is
// served by software RFS on CPU 3 from queue 1; nothing is ever deleted while F1 is active;
// Steer-C stays 1. When F1 stops, its filter expires after >= 160 skbs on CPU 3, and F2 is
// still never accelerated (its receiving slot already says cpu 3).
TEST(SeedTwoFlows, PatchedKeepsWinnerServesLoserInSoftware) {
  Seed s(Variant::kPatched);
  s.send(s.f1, 3);
  EXPECT_EQ(s.last[0].path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(s.last[0].steer.rc, 1);
  EXPECT_EQ(s.last[1].gate, GateRow::kSkipSameFlow);  // second in-flight packet
  EXPECT_EQ(s.last[2].path, SetRpsCpuPath::kNotCalled);
  s.send(s.f2, 3);
  EXPECT_EQ(s.last[0].path, SetRpsCpuPath::kGateSkip);
  EXPECT_EQ(s.last[0].gate, GateRow::kSkipOtherFlow);
  EXPECT_EQ(s.last[1].path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(s.r.slot(kT, kSlot).filter, 1);
  EXPECT_EQ(s.r.slot(kT, kSlot).hash, s.f1.hash);
  EXPECT_EQ(s.r.slot(1, kSlot).cpu, kT);
  SyncResult y = s.tick();
  EXPECT_EQ(y.added, ids({1}));
  EXPECT_TRUE(y.deleted.empty());

  for (int k = 2; k <= 20; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(s.arrival(s.f1), int(kT));
    EXPECT_EQ(s.arrival(s.f2), 1);
    s.send(s.f1, 3);
    for (const auto& d : s.last) {
      EXPECT_EQ(d.cpu, int(kT));
      EXPECT_EQ(d.rflow, (RflowRef{int(kT), kSlot}));
    }
    s.send(s.f2, 3);
    for (const auto& d : s.last) {
      EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
      EXPECT_EQ(d.cpu, int(kT));  // software RFS to the app's CPU
      EXPECT_EQ(d.rflow, (RflowRef{1, kSlot}));
    }
    y = s.tick();
    EXPECT_TRUE(y.deleted.empty());
    EXPECT_TRUE(y.added.empty());
    EXPECT_EQ(s.c().add, 1u);  // one slot winner
    EXPECT_EQ(s.c().del, 0u);
    EXPECT_EQ(s.c().steer_c, 1u);
    EXPECT_EQ(s.c().steer_l, 0u);
  }

  // F1 stops. Its last enqueue left d = 3 (F2's 3 skbs after it); each F2-only round adds 3:
  // d = 3 + 3m, still active at m = 52 (159), expired at m = 53 (162).
  for (int m = 1; m <= 53; ++m) {
    s.send(s.f2, 3);
    y = s.tick();
    if (m < 53) {
      ASSERT_TRUE(y.deleted.empty()) << "m=" << m;
    } else {
      EXPECT_EQ(y.deleted, ids({1}));
    }
  }
  EXPECT_EQ(s.c().del, 1u);
  EXPECT_TRUE(s.r.fdir.installed.empty());
  s.send(s.f2, 3);
  s.send(s.f1, 3);  // F1 resumes on RSS queue 0: receiving slot already cpu 3, no call
  for (const auto& d : s.last) {
    EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
    EXPECT_EQ(d.rflow, (RflowRef{0, kSlot}));
  }
  s.tick();
  EXPECT_EQ(s.c().add, 1u);
  EXPECT_EQ(s.c().steer_c, 1u);
}

// Side effect of spec 7.9.4 with UDP: the driver's 5 s timer removes an active flow's filter.
// Original re-steers it (new Add each time), patched never calls the driver again.
TEST(SeedTwoFlows, UdpTimerReaddsOnlyInOriginal) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Seed s(v);
    s.f1.tuple = udp4(1);
    for (int sec = 1; sec <= 12; ++sec) {
      s.send(s.f1, 2);
      s.tick();  // runs at 1000, 2000, ... ms
    }
    // Activated at 1000 -> deleted at 6000 -> (original) re-added at 7000, deleted at 12000.
    if (v == Variant::kOriginal) {
      EXPECT_EQ(s.c().add, 2u);
      EXPECT_EQ(s.c().del, 2u);
    } else {
      EXPECT_EQ(s.c().add, 1u);
      EXPECT_EQ(s.c().del, 1u);
      EXPECT_EQ(s.c().steer_c, 1u);
      EXPECT_EQ(s.arrival(s.f1), 0);  // served in software from its RSS queue
    }
  }
}
