// Directed conformance: the seed's Flow #1 / Flow #2 story (spec 7.9.3 original, 7.9.4 patched)
// on the RTL, with the host side run by the real register-level driver and aRFS runtime
// (driver::EngineDriver + driver::ArfsRuntime over the rig's bus): the runtime reads the
// engine's events, asks it rps_may_expire_flow and deletes filters, all through AXI4-Lite; the
// Scoreboard checks every record and every register answer against the golden model.
//
// Rig: 4 CPUs, 4 queues (rmap 1:1), rps_flow_cnt 16, 64 sock entries (rps_cpu_mask 3), the apps
// of both flows on CPU 3 (so queue 3 is the target), the flows' RSS queues are not 3 and their
// hashes share one slot of queue 3's table (spec 8.21).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "directed_rig.h"
#include "flowsteer/driver/engine_runtime.h"

using namespace flowsteer::testbench::conformance;
using flowsteer::kernel::GateRow;
using flowsteer::kernel::Variant;

namespace {

constexpr uint32_t kT = 3;

RigSetup seed_setup(Variant v) {
  RigSetup s;
  s.cpus = 4;
  s.queues = 4;
  s.variant = v;
  s.flow_cnt = 16;
  s.sock_entries = 64;
  return s;
}

// n flows whose RSS queues are not kT and differ from each other (with equal-size V-log tables a
// shared T slot would also be a shared receiving slot), whose hashes share one slot of kT's table,
// and whose sock entries differ (spec 7.9.3 preconditions).
std::vector<Flow> colliding(Rig& rig, size_t n) {
  std::vector<Flow> cands;
  for (uint32_t k = 0; k < 4000; ++k) {
    Flow f = rig.flow(tcp4(k));
    if (f.hash != 0 && f.rxq != kT) cands.push_back(f);
  }
  for (size_t i = 0; i < cands.size(); ++i) {
    std::vector<Flow> out = {cands[i]};
    for (size_t j = i + 1; j < cands.size() && out.size() < n; ++j) {
      bool ok = true;
      for (const auto& g : out)
        ok &= ref_hash_32(cands[j].hash, 4) == ref_hash_32(g.hash, 4) && (cands[j].hash & 63) != (g.hash & 63) &&
              cands[j].hash != g.hash && cands[j].rxq != g.rxq;
      if (ok) out.push_back(cands[j]);
    }
    if (out.size() == n) return out;
  }
  ADD_FAILURE() << "no " << n << " colliding flows";
  return {};
}

RigOptions opts(uint64_t seed) {
  RigOptions o;
  o.seed = seed;
  return o;
}

}  // namespace

// Original: the two flows take the slot from each other; every sync deletes the filter the slot
// no longer names; the loser falls back to RSS and steers again: one Add and one Del per round.
TEST(DirectedSeed, Spec8_21_SeedFlow1Flow2Original) {
  Rig rig(opts(2101));
  rig.configure(seed_setup(Variant::kOriginal));
  auto flows = colliding(rig, 2);
  ASSERT_EQ(flows.size(), 2u);
  const Flow &f1 = flows[0], &f2 = flows[1];
  const uint32_t slot = ref_hash_32(f1.hash, 4);
  rig.sock(f1.hash, kT);
  rig.sock(f2.hash, kT);
  flowsteer::driver::ArfsRuntime rt(rig.drv());
  uint64_t now = 0;
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    OutputRecord r1 = rig.pkt(f1), r2 = rig.pkt(f2);
    rig.head_add(kT, 2);
    if (round == 0) {
      EXPECT_EQ(r1.action, SteerAction::kSteered);
      EXPECT_EQ(r2.action, SteerAction::kSteered);  // no gate: F2 overwrites F1's slot
      EXPECT_EQ(rig.slot_state(kT, slot).filter, r2.steer_id);
    } else if (round == 1) {
      EXPECT_TRUE(r1.filter_hit);
      EXPECT_TRUE(r2.filter_hit);
    } else {
      const bool f1_turn = round % 2 == 0;
      const OutputRecord& mover = f1_turn ? r1 : r2;
      const OutputRecord& stayer = f1_turn ? r2 : r1;
      EXPECT_EQ(mover.action, SteerAction::kSteered);
      EXPECT_FALSE(mover.filter_hit);  // back on its RSS queue
      EXPECT_TRUE(stayer.filter_hit);
      EXPECT_EQ(stayer.queue, kT);
      EXPECT_EQ(rig.slot_state(kT, slot).filter, mover.steer_id);
    }
    auto res = rt.sync(now += 10);
    EXPECT_EQ(res.deleted.size(), round == 0 ? 0u : 1u);
  }
  EXPECT_EQ(rig.cnt(r::Counter::kSteerAdds), 6u);
  EXPECT_EQ(rig.cnt(r::Counter::kFltDeletes), 5u);
  EXPECT_EQ(rt.counters().add, 6u);
  EXPECT_EQ(rt.counters().del, 5u);
  EXPECT_EQ(rt.delete_errors(), 0u);
  EXPECT_EQ(rig.cnt(r::Counter::kGateSkips), 0u);
  FS_FINISH(rig);
}

// Patched: F2 meets the S5g gate (active slot, other hash): skipped; served by software RFS on
// CPU 3, never steered; F1's filter is never deleted.
TEST(DirectedSeed, Spec8_21_SeedFlow1Flow2Patched) {
  Rig rig(opts(2102));
  rig.configure(seed_setup(Variant::kPatched));
  auto flows = colliding(rig, 2);
  ASSERT_EQ(flows.size(), 2u);
  const Flow &f1 = flows[0], &f2 = flows[1];
  const uint32_t slot = ref_hash_32(f1.hash, 4);
  rig.sock(f1.hash, kT);
  rig.sock(f2.hash, kT);
  flowsteer::driver::ArfsRuntime rt(rig.drv());
  uint64_t now = 0;
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    OutputRecord r1 = rig.pkt(f1);
    OutputRecord r2 = rig.pkt(f2);
    if (round == 0) {
      EXPECT_EQ(r1.action, SteerAction::kSteered);
      EXPECT_EQ(r1.steer_id, 1u);
      EXPECT_EQ(r2.action, SteerAction::kSkipped);
      EXPECT_EQ(rig.last_decision().gate, GateRow::kSkipOtherFlow);
    } else {
      EXPECT_TRUE(r1.filter_hit);
      EXPECT_EQ(r1.action, SteerAction::kNone);
      EXPECT_FALSE(r2.filter_hit);
      EXPECT_EQ(r2.action, SteerAction::kNone);  // its receiving slot says cpu 3 now
    }
    EXPECT_EQ(r2.cpu, int(kT));
    EXPECT_EQ(rig.slot_state(kT, slot).filter, 1u);
    rig.head_add(kT, 2);
    EXPECT_TRUE(rt.sync(now += 10).deleted.empty());
  }
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 1u);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerAdds), 1u);
  EXPECT_EQ(rig.cnt(r::Counter::kGateSkips), 1u);
  EXPECT_EQ(rig.cnt(r::Counter::kFltDeletes), 0u);
  EXPECT_EQ(rt.counters().add, 1u);
  EXPECT_EQ(rig.flt_count(), 1u);
  FS_FINISH(rig);
}

// 8.21 with three flows on the slot: the original keeps deleting and re-adding; the patched
// variant steers one and skips the two others once each.
TEST(DirectedSeed, Spec8_21_ThreeFlowsOneSlot) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(v == Variant::kOriginal ? "original" : "patched");
    Rig rig(opts(v == Variant::kOriginal ? 2103 : 2104));
    RigSetup s = seed_setup(v);
    s.queues = 4;
    rig.configure(s);
    auto flows = colliding(rig, 3);
    ASSERT_EQ(flows.size(), 3u);
    for (const auto& f : flows) rig.sock(f.hash, kT);
    flowsteer::driver::ArfsRuntime rt(rig.drv());
    uint64_t now = 0, deletes_late = 0;
    for (int round = 0; round < 8; ++round) {
      rig.burst({flows[0].f, flows[1].f, flows[2].f});  // back to back: one slot, three flows
      rig.head_add(kT, 3);
      auto res = rt.sync(now += 10);
      if (round >= 2) deletes_late += res.deleted.size();
    }
    if (v == Variant::kOriginal) {
      EXPECT_GE(deletes_late, 6u);  // at least one Del per round once the thrash runs
      EXPECT_GE(rig.cnt(r::Counter::kSteerAdds), 8u);
    } else {
      EXPECT_EQ(deletes_late, 0u);
      EXPECT_EQ(rig.cnt(r::Counter::kSteerAdds), 1u);
      EXPECT_EQ(rig.cnt(r::Counter::kGateSkips), 2u);
    }
    FS_FINISH(rig);
  }
}

// 8.34/8.35 through the RTL: the host runtime expires the UDP filter 5 s after activation while it
// is active, never the TCP one; a new entry is not checked in the pass that takes it. Then the UDP
// flow falls back: original steers it again (new Add), patched takes the skip path (spec 7.9.4).
TEST(DirectedSeed, Spec8_34_35_UdpExpiresTcpStays) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(v == Variant::kOriginal ? "original" : "patched");
    Rig rig(opts(v == Variant::kOriginal ? 3401 : 3402));
    rig.configure(seed_setup(v));
    Flow tcp = rig.find([](uint32_t n) { return tcp4(n); }, [](const Flow& f) { return f.rxq != kT; });
    Flow udp = rig.find([](uint32_t n) { return udp4(n); }, [&](const Flow& f) {
      return f.rxq != kT && ref_hash_32(f.hash, 4) != ref_hash_32(tcp.hash, 4) && (f.hash & 63) != (tcp.hash & 63);
    });
    rig.sock(tcp.hash, kT);
    rig.sock(udp.hash, kT);
    EXPECT_EQ(rig.pkt(tcp).action, SteerAction::kSteered);
    EXPECT_EQ(rig.pkt(udp).action, SteerAction::kSteered);
    flowsteer::driver::ArfsRuntime rt(rig.drv());
    int schedules = 0;
    rt.set_schedule_hook([&] { ++schedules; });
    EXPECT_EQ(rt.take_events(1000), 2u);
    EXPECT_EQ(schedules, 2);
    auto keep_active = [&] {
      rig.burst({tcp.f, udp.f});
      rig.head_add(kT, 2);
    };
    keep_active();
    EXPECT_TRUE(rt.sync(1000).deleted.empty());  // 8.35: not checked in the pass that took them
    keep_active();
    EXPECT_TRUE(rt.sync(5999).deleted.empty());
    keep_active();
    auto res = rt.sync(6000);
    ASSERT_EQ(res.deleted.size(), 1u);
    EXPECT_EQ(rig.flt_count(), 1u);
    EXPECT_EQ(rig.cnt(r::Counter::kFltDeletes), 1u);
    OutputRecord rec = rig.pkt(udp);
    EXPECT_FALSE(rec.filter_hit);
    EXPECT_EQ(rec.action, v == Variant::kOriginal ? SteerAction::kSteered : SteerAction::kSkipped);
    EXPECT_TRUE(rig.pkt(tcp).filter_hit);
    keep_active();
    EXPECT_TRUE(rt.sync(60000).deleted.empty());
    FS_FINISH(rig);
  }
}
