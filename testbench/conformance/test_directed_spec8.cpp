// Directed conformance: spec section 8 corner cases, RTL (fs_engine_top) against the golden
// model through the Scoreboard (every record, every register answer), plus targeted assertions
// on the expected outcome of each case (spec step labels in comments).
//
// Base rig (unless a test says otherwise): 8 CPUs, 8 RX queues, rmap cpu c -> queue c, LUT of 128
// entries lut[i] = i % 8, rps_flow_cnt 16 everywhere (V-log, window 10 << 4 = 160),
// 256 sock entries (rps_cpu_mask 7), Toeplitz with the Microsoft key, patched.
//
// Which test covers each case, here or in test_directed_limits.cpp / test_directed_seed.cpp, and
// why the engine cannot observe the others (or part of one): testbench/spec8/cases.json, column
// "conformance", checked by DirectedSpec8.CatalogueMatchesTheSuite below.
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <string>

#include "directed_rig.h"
#include "flowsteer/hash/hash.h"
#include "spec8/catalogue.h"

using namespace flowsteer::testbench::conformance;
using flowsteer::kernel::GateRow;
using flowsteer::kernel::RPS_NO_CPU;
using flowsteer::kernel::RPS_NO_FILTER;
using flowsteer::kernel::SetRpsCpuPath;
using flowsteer::kernel::SlotMode;
using flowsteer::kernel::Variant;

namespace {

constexpr uint32_t kT = 5;        // the target CPU; rmap 1:1, so also the target queue
constexpr uint32_t kWindow = 160; // 10 << log2(16)

RigOptions opts(uint64_t seed) {
  RigOptions o;
  o.seed = seed;
  return o;
}

FlowTuple gen_tcp(uint32_t n) { return tcp4(n); }

bool sock_apart(const Flow& a, const Flow& b) { return (a.hash & 255) != (b.hash & 255); }

// A TCP flow not arriving on queue q whose sock index differs from every flow in `others`.
Flow flow_not_on(Rig& rig, uint32_t q, const std::vector<Flow>& others = {}, uint32_t start = 0) {
  return rig.find(gen_tcp, [&](const Flow& f) {
    if (f.rxq == q) return false;
    for (const auto& o : others)
      if (!sock_apart(f, o) || o.hash == f.hash) return false;
    return true;
  }, start);
}

// Steers `f` to CPU/queue kT: sock entry, one packet. Returns the filter id.
uint32_t steer_to_target(Rig& rig, const Flow& f, uint32_t cpu = kT) {
  rig.sock(f.hash, cpu);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.action, SteerAction::kSteered) << "the flow did not steer";
  return rec.steer_id;
}

std::vector<uint32_t> key_words(const flowsteer::hash::RssKey& k) {
  std::vector<uint32_t> w(13, 0);
  for (uint32_t i = 0; i < 52; ++i)
    if (i < k.size()) w[i / 4] |= uint32_t(k[i]) << (24 - 8 * (i % 4));
  return w;
}

}  // namespace

// 8.1: next_cpu >= nr_cpu_ids: no steering, R.cpu := next_cpu (S1 -> S9), last_qtail untouched,
// then the RPS map (G6) or -1.
TEST(DirectedSpec8, Spec8_01_NextCpuBeyondNrCpuIds) {
  Rig rig(opts(101));
  RigSetup s;
  s.cpus = 6;  // rps_cpu_mask = roundup(6) - 1 = 7: a sock entry can name CPU 7 >= nr_cpu_ids
  rig.configure(s);
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  const uint32_t q = f.rxq, sl = rig.slot(q, f.hash);
  rig.sock_raw(f.hash & 255, (f.hash & ~7u) | 7u);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.cpu, -1);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kInvalidCpu);
  EXPECT_EQ(rig.slot_state(q, sl).cpu, 7u);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 0u);
  rig.rps_map(q, {2});
  rec = rig.pkt(f);  // tcpu 7 == next_cpu 7: set_rps_cpu not called; G5f fails -> RPS map
  EXPECT_EQ(rec.cpu, 2);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 0u);  // the tail went to voidflow (8.25)
  EXPECT_EQ(rig.tail(2), 1u);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 0u);
  FS_FINISH(rig);
}

// 8.2: next_cpu offline but < nr_cpu_ids: the steer still happens to rmap(next_cpu); G5f then
// fails and the RPS map / -1 path is taken.
TEST(DirectedSpec8, Spec8_02_NextCpuOfflineStillSteers) {
  Rig rig(opts(102));
  rig.configure(RigSetup{});
  rig.set_online(kT, false);
  Flow f = flow_not_on(rig, kT);
  rig.sock(f.hash, kT);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rec.steer_id, 1u);
  EXPECT_EQ(rec.cpu, -1);
  auto ev = rig.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->type, fe::EventType::kInsert);
  EXPECT_EQ(ev->id, 1u);
  EXPECT_EQ(ev->queue, kT);
  EXPECT_EQ(ev->flow_id, ref_hash_32(f.hash, 4));
  EXPECT_EQ(ev->hash, f.hash);
  EXPECT_EQ(ev->tuple, f.t);
  // With an RPS map on the arrival queue the CPU comes from the map.
  Flow g = rig.find(gen_tcp, [&](const Flow& x) {
    return x.rxq != kT && sock_apart(x, f) && ref_hash_32(x.hash, 4) != ref_hash_32(f.hash, 4);
  });
  rig.rps_map(g.rxq, {3});
  rig.sock(g.hash, kT);
  rec = rig.pkt(g);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rec.steer_id, 2u);
  EXPECT_EQ(rec.cpu, 3);
  EXPECT_EQ(rig.tail(3), 1u);
  EXPECT_EQ(rig.tail(kT), 0u);
  FS_FINISH(rig);
}

// 8.3: tcpu unset or offline: switch at once, no in-order wait.
TEST(DirectedSpec8, Spec8_03_SwitchAtOnceWhenTcpuUnsetOrOffline) {
  Rig rig(opts(103));
  RigSetup s;
  s.ntuple = false;  // kernel-plane only: set_rps_cpu stops at S2
  rig.configure(s);
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  rig.sock(f.hash, 2);
  OutputRecord rec = rig.pkt(f);  // tcpu unset
  EXPECT_EQ(rec.cpu, 2);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNoAccel);
  rig.sock(f.hash, 3);
  rec = rig.pkt(f);  // tcpu 2 online, its skb not dequeued: hold (8.4)
  EXPECT_EQ(rec.cpu, 2);
  rig.set_online(2, false);
  rec = rig.pkt(f);  // tcpu offline: switch although head[2] never moved
  EXPECT_EQ(rec.cpu, 3);
  EXPECT_EQ(rig.head(2), 0u);
  EXPECT_EQ(rig.tail(2), 2u);
  FS_FINISH(rig);
}

// 8.4: in-order hold while int32(head[tcpu] - last_qtail) < 0; a difference of exactly 0 switches.
TEST(DirectedSpec8, Spec8_04_InOrderHoldAndZeroBoundary) {
  Rig rig(opts(104));
  RigSetup s;
  s.ntuple = false;
  rig.configure(s);
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  const uint32_t q = f.rxq, sl = rig.slot(q, f.hash);
  rig.sock(f.hash, 1);
  for (auto& rec : rig.burst({f.f, f.f, f.f})) EXPECT_EQ(rec.cpu, 1);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 3u);
  rig.sock(f.hash, 4);
  rig.head_add(1, 2);  // d = 2 - 3 = -1
  EXPECT_EQ(rig.pkt(f).cpu, 1);
  rig.head_add(1, 1);  // d = 3 - 4 = -1
  EXPECT_EQ(rig.pkt(f).cpu, 1);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 5u);
  rig.head_add(1, 2);  // d = 5 - 5 = 0: switch allowed
  EXPECT_EQ(rig.pkt(f).cpu, 4);
  EXPECT_EQ(rig.head(1), 5u);
  EXPECT_EQ(rig.tail(1), 5u);
  EXPECT_EQ(rig.tail(4), 1u);
  FS_FINISH(rig);
}

// 8.5: u32 wrap of head/tail/last_qtail and the sign flip at a difference of exactly 2^31.
TEST(DirectedSpec8, Spec8_05_U32WrapAndSignFlip) {
  Rig rig(opts(105));
  RigSetup s;
  s.ntuple = false;
  rig.configure(s);
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  const uint32_t q = f.rxq, sl = rig.slot(q, f.hash);
  rig.head_add(1, 0xFFFFFFF0u);
  rig.sock(f.hash, 1);
  EXPECT_EQ(rig.pkt(f).cpu, 1);  // unset: switch; S8 last_qtail = head = 0xFFFFFFF0, then tail 1
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 1u);
  rig.sock(f.hash, 2);
  EXPECT_EQ(rig.pkt(f).cpu, 1);  // d = 0xFFFFFFF0 - 1 is negative as int32: hold
  rig.head_add(1, 0x12);         // head wraps past 2^32 to 2 = last_qtail: d = 0
  EXPECT_EQ(rig.head(1), 2u);
  EXPECT_EQ(rig.pkt(f).cpu, 2);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 1u);  // tail[2]
  rig.sock(f.hash, 3);
  rig.head_add(2, 0x80000001u);  // d = 0x80000000 = INT_MIN: hold
  EXPECT_EQ(rig.pkt(f).cpu, 2);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 2u);
  EXPECT_EQ(rig.pkt(f).cpu, 3);  // d = 0x80000001 - 2 = 0x7FFFFFFF = INT_MAX: switch
  FS_FINISH(rig);
}

// 8.6: activity window boundary: d = W-1 active, d = W inactive; W = 10 << log (V-log) or
// 10 * mask (V-mask). Seen through rps_may_expire_flow (EXP_CMD) and the patched gate (S5g).
TEST(DirectedSpec8, Spec8_06_ActivityWindowBoundary) {
  for (SlotMode mode : {SlotMode::kLog, SlotMode::kMask}) {
    SCOPED_TRACE(mode == SlotMode::kLog ? "V-log" : "V-mask");
    Rig rig(opts(mode == SlotMode::kLog ? 106 : 1060));
    RigSetup s;
    s.slot_mode = mode;
    rig.configure(s);
    if (mode == SlotMode::kMask)  // V-mask: slot = h & 15; take the queue from bits 4..6 so that
      for (uint32_t i = 0; i < 128; ++i) rig.lut(i, (i >> 4) & 7);  // one slot spans several queues
    const uint32_t w = mode == SlotMode::kLog ? kWindow : 10 * 15;
    Flow f = flow_not_on(rig, kT);
    const uint32_t x = steer_to_target(rig, f);
    const uint32_t st = rig.slot(kT, f.hash);
    EXPECT_EQ(rig.slot_state(kT, st).last_qtail, 1u);
    EXPECT_FALSE(rig.may_expire(kT, st, x));  // d = -1
    rig.head_add(kT, w);                      // d = W - 1
    EXPECT_FALSE(rig.may_expire(kT, st, x));
    // The gate sees the same window: another flow on the slot is skipped while d = W - 1.
    Flow g = rig.find(gen_tcp, [&](const Flow& y) {
      return y.rxq != kT && rig.slot(kT, y.hash) == st && y.hash != f.hash && sock_apart(y, f);
    });
    rig.sock(g.hash, kT);
    OutputRecord rec = rig.pkt(g);
    EXPECT_EQ(rec.action, SteerAction::kSkipped);
    EXPECT_EQ(rig.last_decision().gate, GateRow::kSkipOtherFlow);
    rig.head_add(kT, 1);  // d = W
    EXPECT_TRUE(rig.may_expire(kT, st, x));
    // A third flow on that slot (fresh receiving slot): the stale slot is overwritten.
    const uint32_t g_recv = rig.slot(g.rxq, g.hash);
    Flow h = rig.find(gen_tcp, [&](const Flow& y) {
      return y.rxq != kT && rig.slot(kT, y.hash) == st && y.hash != f.hash && y.hash != g.hash &&
             sock_apart(y, f) && sock_apart(y, g) && !(y.rxq == g.rxq && rig.slot(y.rxq, y.hash) == g_recv);
    });
    rig.sock(h.hash, kT);
    rec = rig.pkt(h);
    EXPECT_EQ(rec.action, SteerAction::kSteered);
    EXPECT_EQ(rig.last_decision().gate, GateRow::kInactive);
    EXPECT_EQ(rig.slot_state(kT, st).filter, rec.steer_id);
    EXPECT_TRUE(rig.may_expire(kT, st, x));
    EXPECT_FALSE(rig.may_expire(kT, st, rec.steer_id));
    FS_FINISH(rig);
  }
}

// 8.7: rps_flow_is_active with the stored CPU >= nr_cpu_ids -> inactive; stored CPU offline ->
// its frozen head keeps the slot active indefinitely.
TEST(DirectedSpec8, Spec8_07_StoredCpuOfflineFrozenOrInvalid) {
  Rig rig(opts(107));
  rig.configure(RigSetup{});
  Flow f = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, f), st = rig.slot(kT, f.hash);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.set_online(kT, false);
  rig.head_add(3, 100000);  // other CPUs move on; the offline CPU's head does not
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.wr(r::NR_CPU_IDS::kAddr, kT);  // the stored CPU is now >= nr_cpu_ids
  EXPECT_TRUE(rig.may_expire(kT, st, x));
  rig.wr(r::NR_CPU_IDS::kAddr, 8);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  FS_FINISH(rig);
}

// 8.8: receiving queue without table -> no RFS (RPS map or -1); target queue without table -> no
// steer (S4); rps_may_expire_flow -> true for every filter on a queue without table.
TEST(DirectedSpec8, Spec8_08_QueueWithoutTable) {
  Rig rig(opts(108));
  rig.configure(RigSetup{});
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq == 1; });
  ASSERT_EQ(rig.flow_cnt_log2(1, -1), AxiResp::kOkay);
  rig.sock(f.hash, 3);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.cpu, -1);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNotCalled);
  rig.rps_map(1, {4});
  EXPECT_EQ(rig.pkt(f).cpu, 4);
  // target without table
  Flow g = rig.find(gen_tcp, [&](const Flow& x) { return x.rxq != 1 && x.rxq != 6 && sock_apart(x, f); });
  ASSERT_EQ(rig.flow_cnt_log2(6, -1), AxiResp::kOkay);
  rig.sock(g.hash, 6);
  rec = rig.pkt(g);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNoTargetTable);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  EXPECT_EQ(rec.cpu, 6);
  EXPECT_EQ(rig.slot_state(g.rxq, rig.slot(g.rxq, g.hash)).cpu, 6u);
  // a filter whose queue loses its table expires
  Flow h = rig.find(gen_tcp, [&](const Flow& x) {
    return x.rxq != 1 && x.rxq != 7 && sock_apart(x, f) && sock_apart(x, g);
  });
  const uint32_t y = steer_to_target(rig, h, 7), s7 = rig.slot(7, h.hash);
  EXPECT_FALSE(rig.may_expire(7, s7, y));
  ASSERT_EQ(rig.flow_cnt_log2(7, -1), AxiResp::kOkay);
  EXPECT_TRUE(rig.may_expire(7, s7, y));
  EXPECT_TRUE(rig.may_expire(6, 0, 0));
  FS_FINISH(rig);
}

// 8.9: a resize resets every slot of the queue; the queue's filters become expirable (slot filter
// NO_FILTER, or flow_id out of range).
TEST(DirectedSpec8, Spec8_09_ResizeResetsEverySlot) {
  Rig rig(opts(109));
  rig.configure(RigSetup{});
  Flow f = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, f), s16 = rig.slot(kT, f.hash);
  EXPECT_FALSE(rig.may_expire(kT, s16, x));
  ASSERT_EQ(rig.flow_cnt_log2(kT, 6), AxiResp::kOkay);
  EXPECT_EQ(rig.kernel().flow_table(kT)->size(), 64u);
  EXPECT_TRUE(rig.may_expire(kT, s16, x));
  const uint32_t s64 = rig.slot(kT, f.hash);
  EXPECT_EQ(s64, ref_hash_32(f.hash, 6));
  EXPECT_TRUE(rig.may_expire(kT, s64, x));
  OutputRecord rec = rig.pkt(f);  // still through its filter; the new slot is empty: S3 same queue
  EXPECT_TRUE(rec.filter_hit);
  EXPECT_EQ(rec.queue, kT);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(rig.slot_state(kT, s64).filter, RPS_NO_FILTER);
  EXPECT_TRUE(rig.may_expire(kT, s64, x));
  ASSERT_EQ(rig.flow_cnt_log2(kT, 2), AxiResp::kOkay);
  EXPECT_TRUE(rig.may_expire(kT, 4, x));     // flow_id out of range
  EXPECT_TRUE(rig.may_expire(kT, 1000, x));
  EXPECT_TRUE(rig.may_expire(kT, 0xFFFFFFFFu, x));
  FS_FINISH(rig);
}

// 8.10: queues with different table sizes: flow_id differs between the tables. The engine finds
// the tuple (exact match), so the move is a RETARGET with the same id and the new flow_id.
// 8.20/8.29 with it: the old slot gives the id up; the event names the new queue.
TEST(DirectedSpec8, Spec8_10_DifferentTableSizes) {
  Rig rig(opts(110));
  rig.configure(RigSetup{});
  ASSERT_EQ(rig.flow_cnt_log2(6, 6), AxiResp::kOkay);  // queue 6: 64 slots, queue 2: 16
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq != 2 && x.rxq != 6; });
  const uint32_t x = steer_to_target(rig, f, 2);
  const uint32_t s2 = ref_hash_32(f.hash, 4), s6 = ref_hash_32(f.hash, 6);
  auto ev = rig.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->queue, 2u);
  EXPECT_EQ(ev->flow_id, s2);
  EXPECT_EQ(rig.pkt(f).queue, 2u);
  rig.sock(f.hash, 6);
  rig.head_add(2, rig.kernel().tail(2));  // in order
  OutputRecord rec = rig.pkt(f);
  EXPECT_TRUE(rec.filter_hit);
  EXPECT_EQ(rec.queue, 2u);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rec.steer_id, x);
  ev = rig.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->type, fe::EventType::kRetarget);
  EXPECT_EQ(ev->id, x);
  EXPECT_EQ(ev->queue, 6u);
  EXPECT_EQ(ev->flow_id, s6);
  EXPECT_EQ(rig.slot_state(2, s2).filter, RPS_NO_FILTER);
  EXPECT_EQ(rig.slot_state(6, s6).filter, x);
  EXPECT_TRUE(rig.may_expire(2, s2, x));
  EXPECT_FALSE(rig.may_expire(6, s6, x));
  EXPECT_EQ(rig.pkt(f).queue, 6u);
  FS_FINISH(rig);
}

// 8.11: rps_flow_cnt = 1. V-log log 0: the model pins every hash to slot 0 (hash_32(h, 0) is a
// 32-bit shift in C); window 10 << 0 = 10. V-mask: window 10 * 0 = 0, expirable once nothing is
// outstanding.
TEST(DirectedSpec8, Spec8_11_FlowCntOne) {
  for (SlotMode mode : {SlotMode::kLog, SlotMode::kMask}) {
    SCOPED_TRACE(mode == SlotMode::kLog ? "V-log" : "V-mask");
    Rig rig(opts(mode == SlotMode::kLog ? 111 : 1110));
    RigSetup s;
    s.slot_mode = mode;
    rig.configure(s);
    ASSERT_EQ(rig.flow_cnt_log2(kT, 0), AxiResp::kOkay);
    Flow f = flow_not_on(rig, kT);
    const uint32_t x = steer_to_target(rig, f);
    auto ev = rig.pop_event();
    ASSERT_TRUE(ev);
    EXPECT_EQ(ev->flow_id, 0u);
    EXPECT_EQ(rig.slot_state(kT, 0).filter, x);
    EXPECT_FALSE(rig.may_expire(kT, 0, x));  // d = -1
    if (mode == SlotMode::kLog) {
      rig.head_add(kT, 10);  // d = 9
      EXPECT_FALSE(rig.may_expire(kT, 0, x));
    }
    rig.head_add(kT, 1);  // V-log d = 10, V-mask d = 0: inactive
    EXPECT_TRUE(rig.may_expire(kT, 0, x));
    // A second flow lands on the one slot too.
    Flow g = flow_not_on(rig, kT, {f});
    rig.sock(g.hash, kT);
    OutputRecord rec = rig.pkt(g);
    EXPECT_EQ(rec.action, SteerAction::kSteered);
    EXPECT_EQ(rig.slot_state(kT, 0).filter, rec.steer_id);
    FS_FINISH(rig);
  }
}

// 8.12: log >= 28 would overflow 10 << log; no build implements such a table: the write is refused
// (SLVERR) and the queue keeps its table.
TEST(DirectedSpec8, Spec8_12_TableAboveCapsIsRefused) {
  Rig rig(opts(112));
  rig.configure(RigSetup{});
  Flow f = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, f), st = rig.slot(kT, f.hash);
  const int max = int(rig.caps().slot_log2);
  EXPECT_EQ(rig.flow_cnt_log2(kT, max + 1), AxiResp::kSlvErr);
  EXPECT_EQ(rig.flow_cnt_log2(kT, 28), AxiResp::kSlvErr);
  EXPECT_EQ(rig.flow_cnt_log2(kT, 31), AxiResp::kSlvErr);
  EXPECT_EQ(rig.kernel().flow_table(kT)->size(), 16u);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  EXPECT_EQ(rig.flow_cnt_log2(3, max), AxiResp::kOkay);  // the largest implemented size works
  EXPECT_EQ(rig.kernel().flow_table(3)->size(), 1u << max);
  FS_FINISH(rig);
}

// 8.13: the recorded arrival queue >= real_num_rx_queues -> -1 (G2), from the LUT or a filter.
TEST(DirectedSpec8, Spec8_13_ArrivalQueueBeyondNumRxQueues) {
  Rig rig(opts(113));
  rig.configure(RigSetup{});
  rig.wr(r::NUM_RX_QUEUES::kAddr, 4);
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq >= 4; });
  rig.rps_map(f.rxq, {2});
  rig.sock(f.hash, 1);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.queue, f.rxq);
  EXPECT_EQ(rec.cpu, -1);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  Flow g = rig.find(gen_tcp, [&](const Flow& x) { return x.rxq < 4 && sock_apart(x, f); });
  ASSERT_EQ(rig.flt(r::FilterOp::kInsert, g.t, 77, 6), FilterErr::kOk);  // host filter to queue 6
  rig.sock(g.hash, 1);
  rec = rig.pkt(g);
  EXPECT_TRUE(rec.filter_hit);
  EXPECT_EQ(rec.queue, 6u);
  EXPECT_EQ(rec.cpu, -1);
  EXPECT_TRUE(rig.may_expire(6, 0, 77));
  rig.wr(r::NUM_RX_QUEUES::kAddr, 8);
  EXPECT_EQ(rig.pkt(g).cpu, 1);
  FS_FINISH(rig);
}

// 8.14: rmap(next_cpu) == arrival queue: no steer (S3), the receiving slot gets cpu, last_qtail.
TEST(DirectedSpec8, Spec8_14_RmapIsTheArrivalQueue) {
  Rig rig(opts(114));
  rig.configure(RigSetup{});
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  const uint32_t q = f.rxq, sl = rig.slot(q, f.hash);
  rig.sock(f.hash, q);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  EXPECT_EQ(rec.cpu, int(q));
  EXPECT_EQ(rig.slot_state(q, sl).cpu, q);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 1u);
  rec = rig.pkt(f);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(rig.slot_state(q, sl).last_qtail, 2u);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 0u);
  FS_FINISH(rig);
}

// 8.15: no rx_cpu_rmap or NTUPLE off -> no steer (S2).
TEST(DirectedSpec8, Spec8_15_NoRmapOrNtupleOff) {
  Rig rig(opts(115));
  rig.configure(RigSetup{});
  std::vector<Flow> seen;
  auto next = [&] {
    Flow f = flow_not_on(rig, kT, seen);
    seen.push_back(f);
    rig.sock(f.hash, kT);
    return rig.pkt(f);
  };
  rig.ctrl_bit(r::CTRL::RMAP, false);
  OutputRecord rec = next();
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNoAccel);
  EXPECT_EQ(rec.cpu, int(kT));
  rig.ctrl_bit(r::CTRL::RMAP, true);
  rig.ctrl_bit(r::CTRL::NTUPLE, false);
  rec = next();
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNoAccel);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  rig.ctrl_bit(r::CTRL::NTUPLE, true);
  rec = next();
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 1u);
  FS_FINISH(rig);
}

// 8.16: skb_get_hash == 0 -> no RPS/RFS at all, even with an RPS map and sock entries. An all-zero
// Toeplitz key makes every IP hash 0; non-IP frames have hash 0 anyway.
TEST(DirectedSpec8, Spec8_16_HashZeroMeansNoRps) {
  Rig rig(opts(116));
  rig.configure(RigSetup{});
  for (uint32_t q = 0; q < 8; ++q) rig.rps_map(q, {3});
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  rig.sock(f.hash, 2);
  for (uint32_t w = 0; w < 13; ++w) rig.wr(r::RSS_KEY::addr(w), 0);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.hash, 0u);
  EXPECT_FALSE(rec.hash_valid);
  EXPECT_EQ(rec.queue, 0u);  // lut[0]
  EXPECT_EQ(rec.cpu, -1);
  rec = rig.pkt(frame_non_ip(0x0806));
  EXPECT_FALSE(rec.hash_valid);
  EXPECT_EQ(rec.cpu, -1);
  auto words = key_words(flowsteer::hash::microsoft_key());
  for (uint32_t w = 0; w < 13; ++w) rig.wr(r::RSS_KEY::addr(w), words[w]);
  rec = rig.pkt(f);
  EXPECT_EQ(rec.hash, f.hash);
  EXPECT_NE(rec.cpu, -1);
  EXPECT_EQ(rig.cnt(r::Counter::kPktsHashed), 1u);
  FS_FINISH(rig);
}

// 8.17: sock-table index collision: the loser fails the ident check (G5b) every time.
TEST(DirectedSpec8, Spec8_17_SockIndexCollision) {
  Rig rig(opts(117));
  rig.configure(RigSetup{});
  rig.wr(r::SOCK_CFG::kAddr, r::SOCK_CFG::LOG2.put(4) | r::SOCK_CFG::PRESENT.put(1));  // 16 entries
  for (uint32_t q = 0; q < 8; ++q) rig.rps_map(q, {1});
  Flow f = rig.find(gen_tcp, [](const Flow&) { return true; });
  Flow g = rig.find(gen_tcp, [&](const Flow& x) {
    return (x.hash & 15) == (f.hash & 15) && ((x.hash ^ f.hash) & ~7u) != 0;
  });
  rig.sock(f.hash, 2);
  rig.sock(g.hash, 3);  // same index: overwrites f's entry
  for (auto& rec : rig.burst({f.f, f.f, f.f})) {
    EXPECT_EQ(rec.cpu, 1);  // RPS map
    EXPECT_EQ(rec.action, SteerAction::kNone);
  }
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(rig.pkt(g).cpu, 3);
  FS_FINISH(rig);
}

// 8.18: the driver returns rc < 0: the receiving slot gets cpu = next_cpu; no further calls for
// the flow on that queue while next_cpu is unchanged.
TEST(DirectedSpec8, Spec8_18_DriverErrorStopsFurtherCalls) {
  Rig rig(opts(118));
  rig.configure(RigSetup{});
  Flow f = rig.find([](uint32_t n) { return other4(1, n); }, [](const Flow& x) { return x.rxq != kT && x.rxq != 6; });
  const uint32_t sl = rig.slot(f.rxq, f.hash);
  rig.sock(f.hash, kT);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.cls, ParseClass::kIpv4Other);
  EXPECT_EQ(rec.action, SteerAction::kDriverError);
  EXPECT_EQ(rec.error, -EPROTONOSUPPORT);
  EXPECT_EQ(rec.cpu, int(kT));
  EXPECT_EQ(rig.slot_state(f.rxq, sl).cpu, kT);
  rec = rig.pkt(f);
  EXPECT_EQ(rec.action, SteerAction::kNone);
  EXPECT_EQ(rec.cpu, int(kT));
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 1u);
  rig.sock(f.hash, 6);
  rig.head_add(kT, rig.kernel().tail(kT));
  rec = rig.pkt(f);  // next_cpu changed: one more call
  EXPECT_EQ(rec.action, SteerAction::kDriverError);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), 2u);
  EXPECT_EQ(rig.cnt(r::Counter::kDriverErrors), 2u);
  EXPECT_EQ(rig.flt_count(), 0u);
  FS_FINISH(rig);
}

// 8.20/8.23/8.29: the same flow migrates CPU (ACTIVE filter, new queue): the engine re-targets the
// filter (same id, RETARGET event); the old slot's filter is reset (old.filter == rc).
TEST(DirectedSpec8, Spec8_20_23_29_FlowMovesQueueKeepsTheId) {
  Rig rig(opts(120));
  rig.configure(RigSetup{});
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq != 2 && x.rxq != kT; });
  const uint32_t x = steer_to_target(rig, f, 2), sl = rig.slot(2, f.hash);
  ASSERT_TRUE(rig.pop_event());
  EXPECT_TRUE(rig.pkt(f).filter_hit);
  rig.sock(f.hash, kT);
  rig.head_add(2, rig.kernel().tail(2));
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rec.steer_id, x);
  EXPECT_EQ(rig.last_decision().gate, GateRow::kNoFilter);
  EXPECT_EQ(rig.slot_state(2, sl).filter, RPS_NO_FILTER);
  EXPECT_EQ(rig.slot_state(kT, sl).filter, x);
  auto ev = rig.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->type, fe::EventType::kRetarget);
  EXPECT_EQ(ev->id, x);
  EXPECT_EQ(ev->queue, kT);
  ASSERT_EQ(rig.flt(r::FilterOp::kLookup, f.t), FilterErr::kOk);
  EXPECT_EQ(rig.rd(r::FLT_RESULT::kAddr), r::FLT_RESULT::ID.put(x) | r::FLT_RESULT::QUEUE.put(kT));
  EXPECT_EQ(rig.cnt(r::Counter::kSteerRetargets), 1u);
  EXPECT_EQ(rig.cnt(r::Counter::kSteerAdds), 1u);
  EXPECT_EQ(rig.pkt(f).queue, kT);
  FS_FINISH(rig);
}

// 8.22: identical 32-bit hash, different flows: A:p->B:q and A:q->B:p under symmetric-xor Toeplitz.
// PATCH1 takes them for one flow; with different next_cpu on one target queue it calls the driver,
// which inserts a second filter (tuple differs); the first one becomes expirable.
TEST(DirectedSpec8, Spec8_22_SameHashDifferentFlows) {
  Rig rig(opts(122));
  RigSetup s;
  s.hash = HashMode::kToeplitzSymXor;
  rig.configure(s);
  rig.rmap(6, kT);  // CPUs 5 and 6 both map to queue 5
  Flow f, g;
  for (uint16_t p = 1000;; ++p) {
    f = rig.flow(flowsteer::make_tuple("192.0.2.1", "198.51.100.7", p, uint16_t(p + 17)));
    g = rig.flow(flowsteer::make_tuple("192.0.2.1", "198.51.100.7", uint16_t(p + 17), p));
    if (f.rxq != kT && f.hash != 0) break;
  }
  ASSERT_EQ(f.hash, g.hash);
  EXPECT_EQ(rig.flow(f.t.reversed()).hash, f.hash);
  flowsteer::nic::Rss plain(8, HashMode::kToeplitz, 128);
  EXPECT_NE(plain.hash_tuple(f.t, true), plain.hash_tuple(g.t, true));  // not under plain Toeplitz
  const uint32_t a = steer_to_target(rig, f), st = rig.slot(kT, f.hash);
  rig.sock(f.hash, 6);  // same sock entry (same hash): the app moves to CPU 6
  OutputRecord rec = rig.pkt(g);
  EXPECT_EQ(rig.last_decision().gate, GateRow::kSameFlowNewCpu);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  const uint32_t b = rec.steer_id;
  EXPECT_NE(a, b);
  EXPECT_EQ(rig.slot_state(kT, st).filter, b);
  EXPECT_EQ(rig.flt_count(), 2u);
  auto e1 = rig.pop_event(), e2 = rig.pop_event();
  ASSERT_TRUE(e1 && e2);
  EXPECT_EQ(e1->tuple, f.t);
  EXPECT_EQ(e2->tuple, g.t);
  EXPECT_EQ(e2->type, fe::EventType::kInsert);
  EXPECT_EQ(e1->hash, e2->hash);
  EXPECT_TRUE(rig.may_expire(kT, st, a));
  EXPECT_FALSE(rig.may_expire(kT, st, b));
  FS_FINISH(rig);
}

// 8.24: dual role of a slot: flow B arriving on the target queue with the same slot rewrites the
// cpu/last_qtail of the slot that holds flow A's filter; A's activity is then measured on B's CPU.
TEST(DirectedSpec8, Spec8_24_DualRoleSlot) {
  Rig rig(opts(124));
  rig.configure(RigSetup{});
  rig.rmap(6, kT);
  Flow a = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, a), st = rig.slot(kT, a.hash);
  Flow b = rig.find(gen_tcp, [&](const Flow& y) {
    return y.rxq == kT && rig.slot(kT, y.hash) == st && y.hash != a.hash && sock_apart(y, a);
  });
  rig.sock(b.hash, 6);
  OutputRecord rec = rig.pkt(b);  // tcpu 5 has A's skb outstanding: hold, A's slot refreshed
  EXPECT_EQ(rec.cpu, int(kT));
  EXPECT_EQ(rig.slot_state(kT, st).last_qtail, 2u);
  rig.head_add(kT, 2);
  rec = rig.pkt(b);  // switch; S3 rmap(6) == arrival queue 5: S8/S9 on A's slot
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(rec.cpu, 6);
  EXPECT_EQ(rig.slot_state(kT, st).cpu, 6u);
  EXPECT_EQ(rig.slot_state(kT, st).filter, x);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.head_add(kT, 100000);  // A's own CPU drains: irrelevant now
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.head_add(6, kWindow);  // d = 159 on CPU 6
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.head_add(6, 1);
  EXPECT_TRUE(rig.may_expire(kT, st, x));
  FS_FINISH(rig);
}

// 8.25: voidflow: with the CPU from the RPS map the tail goes to a dummy, never to a slot. Here
// the steer's slot keeps last_qtail = head[next_cpu] (S8) although the map CPU's tail is 21.
TEST(DirectedSpec8, Spec8_25_VoidFlowTakesTheTail) {
  Rig rig(opts(125));
  rig.configure(RigSetup{});
  for (uint32_t q = 0; q < 8; ++q) rig.rps_map(q, {3});
  Flow m = rig.find(gen_tcp, [](const Flow&) { return true; });  // no sock entry: ident miss
  std::vector<Bytes> twenty(20, m.f);
  for (auto& rec : rig.burst(twenty)) EXPECT_EQ(rec.cpu, 3);
  EXPECT_EQ(rig.tail(3), 20u);
  rig.set_online(kT, false);
  Flow f = flow_not_on(rig, kT, {m});
  const uint32_t x = steer_to_target(rig, f), st = rig.slot(kT, f.hash);
  EXPECT_EQ(rig.tail(3), 21u);
  EXPECT_EQ(rig.slot_state(kT, st).last_qtail, 0u);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.head_add(kT, kWindow - 1);
  EXPECT_FALSE(rig.may_expire(kT, st, x));
  rig.head_add(kT, 1);  // d = 160 from head 0; a tail of 21 in the slot would give 139
  EXPECT_TRUE(rig.may_expire(kT, st, x));
  FS_FINISH(rig);
}

// 8.27: the ice rejections the engine can see: IPv4 fragments (first/middle/last), protocols other
// than TCP/UDP (ICMP, SCTP, GRE, ICMPv6) -> -EPROTONOSUPPORT; an IPv6 fragment is accepted with
// ports 0 (steered), unless its upper layer is not TCP/UDP. Non-IP never reaches the driver (hash 0).
TEST(DirectedSpec8, Spec8_27_IceRejections) {
  Rig rig(opts(127));
  rig.configure(RigSetup{});
  // Every frame gets its own sock index, receiving slot and target slots, so that each one
  // reaches the driver (no hold, no gate) whatever came before.
  std::vector<Flow> used;
  uint32_t n = 0;
  auto pick = [&](const std::function<Bytes(uint32_t)>& build) {
    for (;; ++n) {
      Bytes b = build(n);
      Flow f = rig.flow(b);
      bool ok = f.hash != 0;
      for (const auto& u : used)
        ok &= sock_apart(f, u) && !(f.rxq == u.rxq && rig.slot(f.rxq, f.hash) == rig.slot(u.rxq, u.hash)) &&
              rig.slot(kT, f.hash) != rig.slot(kT, u.hash) && rig.slot(6, f.hash) != rig.slot(6, u.hash);
      if (ok) {
        ++n;
        return b;
      }
    }
  };
  auto try_frame = [&](const Bytes& b) {
    Flow f = rig.flow(b);
    used.push_back(f);
    rig.sock(f.hash, f.rxq == kT ? 6 : kT);
    return rig.pkt(b);
  };
  auto tup = [](uint32_t k, uint8_t proto) {
    return flowsteer::make_tuple("10.9." + std::to_string(k / 200) + "." + std::to_string(1 + k % 200),
                                 "10.8.0.1", proto == 6 || proto == 17 ? uint16_t(3000 + k) : 0,
                                 proto == 6 || proto == 17 ? 80 : 0, proto);
  };
  auto tup6 = [](uint32_t k, uint8_t proto) {
    FlowTuple t = proto == 6 ? tcp6(k) : other6(proto);
    t.dst[14] = uint8_t(k >> 8);
    t.dst[15] = uint8_t(k);
    return t;
  };
  for (Frag fr : {Frag::kFirst, Frag::kMiddle, Frag::kLast}) {
    OutputRecord rec = try_frame(pick([&](uint32_t k) { return frame_ipv4_fragment(tup(k, 6), fr); }));
    EXPECT_EQ(rec.cls, ParseClass::kIpv4Fragment);
    EXPECT_EQ(rec.action, SteerAction::kDriverError);
    EXPECT_EQ(rec.error, -EPROTONOSUPPORT);
  }
  for (uint8_t proto : {uint8_t(1), uint8_t(132), uint8_t(47)}) {
    OutputRecord rec = try_frame(pick([&](uint32_t k) { return frame(tup(k, proto)); }));
    EXPECT_EQ(rec.cls, ParseClass::kIpv4Other);
    EXPECT_EQ(rec.error, -EPROTONOSUPPORT) << int(proto);
  }
  OutputRecord rec = try_frame(pick([&](uint32_t k) { return frame(tup6(k, 58)); }));
  EXPECT_EQ(rec.cls, ParseClass::kIpv6Other);
  EXPECT_EQ(rec.error, -EPROTONOSUPPORT);
  const Bytes v6frag = pick([&](uint32_t k) { return frame_ipv6_fragment(tup6(k, 6), Frag::kMiddle); });
  const FlowTuple v6t = rig.flow(v6frag).t;
  rec = try_frame(v6frag);
  EXPECT_EQ(rec.cls, ParseClass::kIpv6Fragment);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  auto ev = rig.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->tuple.family, 6);
  EXPECT_EQ(ev->tuple.proto, flowsteer::kIpProtoTcp);
  EXPECT_EQ(ev->tuple.sport, 0);
  EXPECT_EQ(ev->tuple.dport, 0);
  EXPECT_EQ(ev->tuple, v6t);
  rec = try_frame(pick([&](uint32_t k) { return frame_ipv6_fragment(tup6(k, 58), Frag::kFirst); }));
  EXPECT_EQ(rec.cls, ParseClass::kIpv6Fragment);
  EXPECT_EQ(rec.error, -EPROTONOSUPPORT);
  rec = rig.pkt(frame_non_ip(0x0806));
  EXPECT_EQ(rec.action, SteerAction::kNone);
  EXPECT_EQ(rig.cnt(r::Counter::kDriverErrors), 8u);
  EXPECT_EQ(rig.flt_count(), 1u);
  FS_FINISH(rig);
}

// 8.28/8.42: the in-flight window between the first steer and the rule taking effect, emulated
// with CTRL.FLT_LOOKUP = 0 (hits do not pick the arrival queue). Original: one driver call per
// packet; the existing filter (same queue) returns its id with no new event. Patched: one call,
// the second packet takes the skip path, then no calls.
TEST(DirectedSpec8, Spec8_28_42_InFlightWindow) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(v == Variant::kOriginal ? "original" : "patched");
    Rig rig(opts(v == Variant::kOriginal ? 128 : 1280));
    RigSetup s;
    s.variant = v;
    rig.configure(s);
    rig.ctrl_bit(r::CTRL::FLT_LOOKUP, false);
    Flow f = flow_not_on(rig, kT);
    rig.sock(f.hash, kT);
    auto recs = rig.burst({f.f, f.f, f.f, f.f, f.f});  // back to back: hazards on one slot
    EXPECT_EQ(recs[0].action, SteerAction::kSteered);
    const uint32_t x = recs[0].steer_id;
    for (size_t i = 1; i < recs.size(); ++i) {
      EXPECT_FALSE(recs[i].filter_hit);
      EXPECT_EQ(recs[i].queue, f.rxq);
      if (v == Variant::kOriginal) {
        EXPECT_EQ(recs[i].action, SteerAction::kSteered) << i;
        EXPECT_EQ(recs[i].steer_id, x);
      } else {
        EXPECT_EQ(recs[i].action, i == 1 ? SteerAction::kSkipped : SteerAction::kNone) << i;
      }
    }
    EXPECT_EQ(rig.cnt(r::Counter::kSteerCalls), v == Variant::kOriginal ? 5u : 1u);
    EXPECT_EQ(rig.cnt(r::Counter::kSteerAdds), 1u);
    EXPECT_EQ(rig.cnt(r::Counter::kGateSkips), v == Variant::kOriginal ? 0u : 1u);
    EXPECT_EQ(rig.evt_count(), 1u);
    EXPECT_EQ(rig.flt_count(), 1u);
    rig.ctrl_bit(r::CTRL::FLT_LOOKUP, true);
    OutputRecord rec = rig.pkt(f);
    EXPECT_TRUE(rec.filter_hit);
    EXPECT_EQ(rec.queue, kT);
    FS_FINISH(rig);
  }
}

// 8.33 (engine counterpart): a host delete of an id that is not there answers NOT_FOUND and
// counts nothing; a real delete counts once; the flow then falls back to RSS (patched: skip path,
// spec 7.9.4 "driver removes a filter on its own").
TEST(DirectedSpec8, Spec8_33_HostDeleteAndFallback) {
  Rig rig(opts(133));
  rig.configure(RigSetup{});
  Flow f = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, f);
  EXPECT_EQ(rig.flt_delete(x + 100), FilterErr::kNotFound);
  EXPECT_EQ(rig.cnt(r::Counter::kFltDeletes), 0u);
  EXPECT_EQ(rig.flt_delete(x), FilterErr::kOk);
  EXPECT_EQ(rig.flt_delete(x), FilterErr::kNotFound);
  EXPECT_EQ(rig.cnt(r::Counter::kFltDeletes), 1u);
  EXPECT_EQ(rig.flt_count(), 0u);
  OutputRecord rec = rig.pkt(f);
  EXPECT_FALSE(rec.filter_hit);
  EXPECT_EQ(rec.queue, f.rxq);
  EXPECT_EQ(rec.action, SteerAction::kSkipped);
  EXPECT_EQ(rig.last_decision().gate, GateRow::kSkipSameFlow);
  EXPECT_EQ(rig.pkt(f).action, SteerAction::kNone);
  FS_FINISH(rig);
}

// 8.37: filters dropped (CLEAR) while kernel slots keep their ids: patched takes the active slot
// for "same flow already steered" and never re-accelerates; original steers again (new id).
TEST(DirectedSpec8, Spec8_37_ClearKeepsSlotIds) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(v == Variant::kOriginal ? "original" : "patched");
    Rig rig(opts(v == Variant::kOriginal ? 137 : 1370));
    RigSetup s;
    s.variant = v;
    rig.configure(s);
    Flow f = flow_not_on(rig, kT);
    const uint32_t x = steer_to_target(rig, f);
    EXPECT_TRUE(rig.pkt(f).filter_hit);
    EXPECT_EQ(rig.flt_cmd(r::FilterOp::kClear), FilterErr::kOk);
    EXPECT_EQ(rig.flt_count(), 0u);
    EXPECT_EQ(rig.slot_state(kT, rig.slot(kT, f.hash)).filter, x);
    OutputRecord rec = rig.pkt(f);
    EXPECT_FALSE(rec.filter_hit);
    if (v == Variant::kPatched) {
      EXPECT_EQ(rec.action, SteerAction::kSkipped);
      EXPECT_EQ(rig.pkt(f).action, SteerAction::kNone);
      EXPECT_EQ(rig.flt_count(), 0u);
    } else {
      EXPECT_EQ(rec.action, SteerAction::kSteered);
      EXPECT_EQ(rec.steer_id, x + 1);
      EXPECT_EQ(rig.flt_count(), 1u);
    }
    FS_FINISH(rig);
  }
}

// 8.38: NTUPLE off (the driver's ethtool -K ntuple off: bit off, then CLEAR) stops the calls;
// on again, new flows steer; a known flow steers again once its CPU changes.
TEST(DirectedSpec8, Spec8_38_NtupleOffAndOn) {
  Rig rig(opts(138));
  rig.configure(RigSetup{});
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq != kT && x.rxq != 6; });
  steer_to_target(rig, f);
  rig.drv().set_ntuple(false);
  EXPECT_EQ(rig.flt_count(), 0u);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNoAccel);
  EXPECT_EQ(rec.cpu, int(kT));
  rig.drv().set_ntuple(true);
  EXPECT_EQ(rig.pkt(f).action, SteerAction::kNone);  // its receiving slot says cpu 5 already
  Flow g = flow_not_on(rig, kT, {f});
  rig.sock(g.hash, kT);
  EXPECT_EQ(rig.pkt(g).action, SteerAction::kSteered);
  rig.sock(f.hash, 6);
  rig.head_add(kT, rig.kernel().tail(kT));
  rec = rig.pkt(f);
  EXPECT_EQ(rec.action, SteerAction::kSteered);
  EXPECT_EQ(rig.flt_count(), 2u);
  FS_FINISH(rig);
}

// 8.40: a sock entry reset to RPS_NO_CPU (sock_rps_delete_flow) -> ident mismatch -> RPS map / -1.
TEST(DirectedSpec8, Spec8_40_SockEntryDeleted) {
  Rig rig(opts(140));
  rig.configure(RigSetup{});
  for (uint32_t q = 0; q < 8; ++q) rig.rps_map(q, {2});
  Flow f = rig.find(gen_tcp, [](const Flow& x) { return x.rxq == 4; });
  rig.sock(f.hash, 4);
  EXPECT_EQ(rig.pkt(f).cpu, 4);
  rig.sock_raw(f.hash & 255, RPS_NO_CPU);
  OutputRecord rec = rig.pkt(f);
  EXPECT_EQ(rec.cpu, 2);
  EXPECT_EQ(rig.last_decision().path, SetRpsCpuPath::kNotCalled);
  rig.wr(r::SOCK_INDEX::kAddr, f.hash & 255);
  rig.wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::READ.put(1));
  EXPECT_EQ(rig.rd(r::SOCK_VALUE::kAddr), uint32_t(RPS_NO_CPU));
  FS_FINISH(rig);
}

// 8.41: RSS key / LUT change at runtime. The engine's filters match the tuple (not the hash), so a
// steered flow keeps its filter but gets a new hash and slot; the old slot stops being refreshed and
// its filter becomes expirable. A LUT change moves unsteered flows. Then the same changes with
// frames in flight: the order gate makes each write atomic between two packets.
TEST(DirectedSpec8, Spec8_41_KeyAndLutChangeAtRuntime) {
  Rig rig(opts(141));
  rig.configure(RigSetup{});
  Flow f = flow_not_on(rig, kT);
  const uint32_t x = steer_to_target(rig, f), old_slot = rig.slot(kT, f.hash);
  auto words = key_words(flowsteer::hash::microsoft_key());
  rig.wr(r::RSS_KEY::addr(0), words[0] ^ 0x01000000u);
  Flow f2 = rig.flow(f.f);
  ASSERT_NE(f2.hash, f.hash);
  OutputRecord rec = rig.pkt(f);
  EXPECT_TRUE(rec.filter_hit);
  EXPECT_EQ(rec.queue, kT);
  EXPECT_EQ(rec.hash, f2.hash);
  rig.sock(f2.hash, kT);
  rec = rig.pkt(f);
  EXPECT_EQ(rec.cpu, int(kT));
  const uint32_t new_slot = rig.slot(kT, f2.hash);
  if (new_slot != old_slot) {
    for (int i = 0; i < 3; ++i) rig.pkt(f);
    rig.head_add(kT, rig.kernel().tail(kT) + kWindow);  // the flow is active, its old slot is not
    EXPECT_TRUE(rig.may_expire(kT, old_slot, x));
  }
  Flow g = rig.find(gen_tcp, [&](const Flow& y) { return sock_apart(y, f) && sock_apart(y, f2); });
  const uint32_t moved = (g.rxq + 3) % 8;
  rig.lut(g.hash & 127, moved);
  EXPECT_EQ(rig.pkt(g).queue, moved);
  // with frames in flight
  std::vector<Flow> mix;
  for (uint32_t n = 0; n < 6; ++n) mix.push_back(rig.flow(tcp4(500 + n)));
  for (const auto& m : mix) rig.sock(m.hash, (m.hash >> 8) % 8);
  for (int round = 0; round < 4; ++round) {
    for (const auto& m : mix) rig.send_async(m.f);
    rig.wr(r::RSS_KEY::addr(1), words[1] ^ (uint32_t(round) << 20));
    for (const auto& m : mix) rig.send_async(m.f);
    rig.lut(mix[size_t(round)].hash & 127, uint32_t(round));
    rig.send_async(f.f);
    rig.wr(r::HASH_CFG::kAddr, uint32_t(round % 3));
  }
  FS_FINISH(rig);
  EXPECT_GT(rig.sb().coverage().hazard.at("cmd_between_packets"), 0u);
}

// The catalogue (testbench/spec8/cases.json) names the directed conformance tests of every case
// the engine can observe; every Spec8_* test of this binary (DirectedSpec8, DirectedLimits,
// DirectedSeed) must be in it, under each case number its name carries.
TEST(DirectedSpec8, CatalogueMatchesTheSuite) {
  spec8::catalogue::expect_suite_matches(
      "conformance", [](const std::string& t) { return spec8::catalogue::is_spec8_test(t); });
}
