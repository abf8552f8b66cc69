// Spec section 8, kernel-side corner cases 1-26 (+ 40 and 41, which are kernel events), one
// test per case. Expected values come from the spec text (hash_32 by ref_hash_32, windows
// 10 << log / 10 * mask, G*/S* steps), worked out in the comments.
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>

#include "flowsteer/hash/hash.h"
#include "spec8/catalogue.h"
#include "spec8_helpers.h"

using namespace spec8;
using flowsteer::driver::FltrState;
using flowsteer::driver::FlowType;
using flowsteer::kernel::GateRow;
using flowsteer::kernel::RflowRef;
using flowsteer::kernel::rps_dev_flow;
using flowsteer::kernel::rps_dev_flow_table;
using flowsteer::kernel::RPS_NO_CPU;
using flowsteer::kernel::RPS_NO_FILTER;
using flowsteer::kernel::SetRpsCpuPath;
using flowsteer::kernel::SlotMode;
using flowsteer::kernel::Variant;

namespace {

// The workhorse hash: hash_32(0x5A5A1000, 4) = 11 (top 4 bits of 0x5A5A1000 * 0x61C88647),
// hash_32(.., 3) = 5, hash_32(.., 6) = 44; ice bucket 0x000 = 0; RSS queue (h & 3) = 0.
constexpr uint32_t kH = 0x5A5A1000;
constexpr uint32_t kS = 11;
// Second flow colliding in a 16-slot table: hash_32(0x6B6B2041, 4) = 11, bucket 65, RSS q1.
constexpr uint32_t kH2 = 0x6B6B2041;
// Third colliding flow: hash_32(0x7C7C303E, 4) = 11, bucket 62, RSS q2.
constexpr uint32_t kH3 = 0x7C7C303E;

const Variant kBoth[] = {Variant::kOriginal, Variant::kPatched};

RflowRef ref(int q, uint32_t s) { return RflowRef{q, s}; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// spec 6.4 vectors and the hashes the tests below rely on.
TEST(KernelSpec8, Hash32VectorsAndTestHashes) {
  using flowsteer::hash::hash_32;
  EXPECT_EQ(hash_32(0x12345678u, 10), 478u);
  EXPECT_EQ(hash_32(0x00000001u, 8), 97u);
  EXPECT_EQ(hash_32(0xFFFFFFFFu, 15), 20251u);
  EXPECT_EQ(hash_32(0xDEADBEEFu, 14), 7030u);
  EXPECT_EQ(ref_hash_32(0x12345678u, 10), 478u);
  EXPECT_EQ(ref_hash_32(0x00000001u, 8), 97u);
  EXPECT_EQ(ref_hash_32(0xFFFFFFFFu, 15), 20251u);
  EXPECT_EQ(ref_hash_32(0xDEADBEEFu, 14), 7030u);
  // 0x00000001 * 0x61C88647 = 0x61C88647 -> top 8 bits 0x61 = 97.
  EXPECT_EQ(0x61C88647u >> 24, 97u);
  for (uint32_t h : {kH, kH2, kH3}) {
    EXPECT_EQ(ref_hash_32(h, 4), kS);
    EXPECT_EQ(hash_32(h, 4), kS);
  }
  EXPECT_EQ(ref_hash_32(kH, 3), 5u);
  EXPECT_EQ(ref_hash_32(kH, 6), 44u);
  EXPECT_EQ(ref_bucket(kH), 0u);
  EXPECT_EQ(ref_bucket(kH2), 65u);
  EXPECT_EQ(ref_bucket(kH3), 62u);
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  EXPECT_EQ(k.flow_table(0)->log, 4);
  EXPECT_EQ(k.flow_table(0)->slot(kH, SlotMode::kLog), kS);
  EXPECT_EQ(k.flow_table(0)->slot(kH, SlotMode::kMask), 0u);  // 0x...000 & 15
  EXPECT_EQ(k.rps_cpu_mask(), 3u);                            // roundup(4) - 1
  // a register-level host may widen it up to kMaxRpsCpuMask (CPU ids are u16), not past it
  EXPECT_TRUE(k.set_rps_cpu_mask(flowsteer::kernel::kMaxRpsCpuMask));
  EXPECT_EQ(k.rps_cpu_mask(), flowsteer::kernel::kMaxRpsCpuMask);
  EXPECT_FALSE(k.set_rps_cpu_mask(flowsteer::kernel::kMaxRpsCpuMask * 2 + 1));
  EXPECT_EQ(k.rps_cpu_mask(), flowsteer::kernel::kMaxRpsCpuMask);
}

// 1. next_cpu >= nr_cpu_ids: untouched sock entry 0x0000FFFF, 144 CPUs -> rps_cpu_mask 0xFF.
TEST(KernelSpec8, Spec8_01_NextCpuInvalid) {
  KernelConfig cfg;
  cfg.nr_cpu_ids = 144;
  cfg.num_rx_queues = 4;
  cfg.variant = Variant::kPatched;
  Kernel k(cfg);
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  ASSERT_EQ(k.rps_cpu_mask(), 0xFFu);  // roundup_pow_of_two(144) - 1
  // h = 0x0000FF42: index 0x42 holds 0x0000FFFF; (0xFFFF ^ 0xFF42) & ~0xFF = 0 -> ident match,
  // next_cpu = 0xFFFF & 0xFF = 255 >= 144. Receiving slot hash_32(0xFF42, 4) = 15.
  const uint32_t h = 0x0000FF42;
  const uint32_t s = 15;
  ASSERT_EQ(ref_hash_32(h, 4), s);
  ASSERT_EQ(k.sock_table()->ents[0x42], 0x0000FFFFu);
  k.flow_table(0)->flows[s].last_qtail = 0x1234;
  k.set_backlog_counters(0, 77, 77);

  RxDecision d = k.netif_receive_skb(make_skb(h, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kInvalidCpu);
  EXPECT_EQ(d.cpu, -1);  // G5f fails (255 >= 144), no RPS map -> G7
  EXPECT_FALSE(d.rflow.valid());
  EXPECT_FALSE(d.steer.called);
  EXPECT_TRUE(drv.calls.empty());
  EXPECT_EQ(k.flow_table(0)->flows[s].cpu, 255);            // S9 only
  EXPECT_EQ(k.flow_table(0)->flows[s].last_qtail, 0x1234u);  // S8 skipped
  EXPECT_EQ(k.flow_table(0)->flows[s].filter, RPS_NO_FILTER);

  // With an RPS map the map decides: cpus {5, 9}, (0xFF42 * 2) >> 32 = 0 -> CPU 5, voidflow.
  ASSERT_EQ(k.set_rps_map(0, {5, 9}), 0);
  d = k.netif_receive_skb(make_skb(h, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);  // tcpu 255 == next_cpu 255 now
  EXPECT_EQ(d.cpu, 5);
  EXPECT_FALSE(d.rflow.valid());
  EXPECT_EQ(k.tail(5), 1u);
  EXPECT_EQ(k.flow_table(0)->flows[s].last_qtail, 0x1234u);
}

// 2. next_cpu offline (< nr_cpu_ids): steer still happens to rmap(next_cpu); G5f then fails.
TEST(KernelSpec8, Spec8_02_NextCpuOfflineStillSteers) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Kernel k(small_config(v));
    setup_tables(k);
    FakeDriver drv;
    drv.rc = 7;
    k.set_driver(&drv);
    k.rps_record_sock_flow(kH, 2);
    k.set_cpu_online(2, false);
    k.set_backlog_counters(2, 40, 40);

    RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    ASSERT_TRUE(d.steer.called);
    EXPECT_EQ(d.steer.queue, 2);   // rmap(2) = 2
    EXPECT_EQ(d.steer.flow_id, kS);
    EXPECT_EQ(d.steer.rc, 7);
    EXPECT_EQ(d.cpu, -1);          // offline 2 fails G5f, no map
    EXPECT_FALSE(d.rflow.valid());
    EXPECT_EQ(k.tail(2), 40u);     // nothing enqueued
    const rps_dev_flow& t = k.flow_table(2)->flows[kS];
    EXPECT_EQ(t.cpu, 2);
    EXPECT_EQ(t.filter, 7);
    EXPECT_EQ(t.last_qtail, 40u);  // S8: head[2]
    EXPECT_EQ(t.hash, v == Variant::kPatched ? kH : 0u);
    EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, RPS_NO_CPU);  // receiving slot untouched

    // Second packet with an RPS map {1}: original steers again (receiving slot still NO_CPU);
    // patched hits the gate (filter 7, d = 40 - 40 = 0 < 160, same hash, same CPU): skip.
    ASSERT_EQ(k.set_rps_map(0, {1}), 0);
    d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
    EXPECT_EQ(d.cpu, 1);
    EXPECT_FALSE(d.rflow.valid());
    EXPECT_EQ(k.tail(1), 1u);
    if (v == Variant::kOriginal) {
      EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
      EXPECT_EQ(drv.calls.size(), 2u);
      EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, RPS_NO_CPU);
    } else {
      EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
      EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);
      EXPECT_EQ(drv.calls.size(), 1u);
      EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 2);
      EXPECT_EQ(k.flow_table(0)->flows[kS].last_qtail, 40u);
    }
  }
}

// 3. tcpu unset or offline: switch at once, no in-order wait.
TEST(KernelSpec8, Spec8_03_UnsetOrOfflineTcpuSwitchesAtOnce) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 0);
  k.set_backlog_counters(0, 100, 100);
  // Unset slot: switch; next_cpu 0 -> rmap queue 0 == arrival queue (S3), S8/S9 then enqueue.
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(d.cpu, 0);
  EXPECT_EQ(d.rflow, ref(0, kS));
  EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 0);
  EXPECT_EQ(k.flow_table(0)->flows[kS].last_qtail, 101u);  // head 100, then ++tail = 101

  // Offline tcpu with outstanding skbs (head 0x400 < last_qtail 0x500): still switches.
  rps_dev_flow& f = k.flow_table(0)->flows[kS];
  f.cpu = 1;
  f.last_qtail = 0x500;
  k.set_backlog_counters(1, 0x400, 0x500);
  k.set_cpu_online(1, false);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(d.cpu, 0);
  EXPECT_EQ(f.cpu, 0);
  EXPECT_EQ(f.last_qtail, 102u);
  EXPECT_TRUE(drv.calls.empty());
}

// 4. In-order hold while int32(head - last_qtail) < 0; difference exactly 0 switches.
TEST(KernelSpec8, Spec8_04_InOrderHoldAndBoundary) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 0);
  rps_dev_flow& f = k.flow_table(0)->flows[kS];
  f.cpu = 1;
  f.last_qtail = 51;
  k.set_backlog_counters(1, 50, 51);
  // d = 50 - 51 = -1: hold, skb to old CPU 1, tail 52 recorded in the receiving slot.
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(d.cpu, 1);
  EXPECT_EQ(d.rflow, ref(0, kS));
  EXPECT_EQ(f.cpu, 1);
  EXPECT_EQ(f.last_qtail, 52u);
  k.input_queue_head_add(1, 1);  // head 51, d = -1: still hold
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 1);
  EXPECT_EQ(f.last_qtail, 53u);
  k.input_queue_head_add(1, 2);  // head 53 = last_qtail: d = 0 -> switch allowed
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(d.cpu, 0);
  EXPECT_EQ(f.cpu, 0);
  EXPECT_EQ(f.last_qtail, 1u);  // head[0] = 0, then tail[0] = 1
  EXPECT_EQ(k.tail(1), 53u);
}

// 5. u32 wrap of head/tail/last_qtail; a difference of exactly 2^31 flips sign.
TEST(KernelSpec8, Spec8_05_U32WrapAndSignFlip) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 0);
  rps_dev_flow& f = k.flow_table(0)->flows[kS];
  // Wrapped tail: last_qtail 2, head 0xFFFFFFFE -> d = 0xFFFFFFFC = -4: hold.
  f.cpu = 1;
  f.last_qtail = 2;
  k.set_backlog_counters(1, 0xFFFFFFFEu, 2);
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 1);
  EXPECT_EQ(f.last_qtail, 3u);
  k.input_queue_head_add(1, 5);  // 0xFFFFFFFE + 5 = 3 (mod 2^32) -> d = 0: switch
  EXPECT_EQ(k.head(1), 3u);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 0);
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);

  // Exactly 2^31 dequeued since last_qtail 0: int32(0x80000000) < 0 -> hold (sign flip).
  f.cpu = 1;
  f.last_qtail = 0;
  k.set_backlog_counters(1, 0x80000000u, 0x80000000u);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  // 2^31 - 1: positive -> switch.
  f.cpu = 1;
  f.last_qtail = 0;
  k.set_backlog_counters(1, 0x7FFFFFFFu, 0x7FFFFFFFu);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 0);

  // Activity window across the wrap: last_qtail 0xFFFFFFF0, window 160.
  rps_dev_flow p;
  p.cpu = 2;
  p.last_qtail = 0xFFFFFFF0u;
  const rps_dev_flow_table& t = *k.flow_table(2);
  k.set_backlog_counters(2, 0x8Fu, 0x8Fu);  // d = 0x8F + 0x10 = 159
  EXPECT_TRUE(k.rps_flow_is_active(p, t, 2));
  k.set_backlog_counters(2, 0x90u, 0x90u);  // d = 160
  EXPECT_FALSE(k.rps_flow_is_active(p, t, 2));
  p.last_qtail = 0;
  k.set_backlog_counters(2, 0x80000000u, 0x80000000u);  // d = INT_MIN < 160: "active"
  EXPECT_TRUE(k.rps_flow_is_active(p, t, 2));
  k.set_backlog_counters(2, 0x7FFFFFFFu, 0x7FFFFFFFu);
  EXPECT_FALSE(k.rps_flow_is_active(p, t, 2));
}

// 6. Activity window boundary: V-log 10 << 4 = 160 -> 159 active, 160 inactive;
//    V-mask 10 * 15 = 150 -> 149 active, 150 inactive. Also through the patched gate.
TEST(KernelSpec8, Spec8_06_ActivityWindowBoundary) {
  for (SlotMode mode : {SlotMode::kLog, SlotMode::kMask}) {
    SCOPED_TRACE(flowsteer::kernel::slot_mode_name(mode));
    KernelConfig cfg = small_config(Variant::kPatched);
    cfg.slot_mode = mode;
    Kernel k(cfg);
    setup_tables(k);
    const uint32_t w = mode == SlotMode::kLog ? 160u : 150u;
    EXPECT_EQ(k.flow_table(2)->window(mode), int32_t(w));
    rps_dev_flow& p = k.flow_table(2)->flows[3];
    p.cpu = 2;
    p.filter = 9;
    p.last_qtail = 1000;
    k.set_backlog_counters(2, 1000 + w - 1, 1000 + w - 1);
    EXPECT_FALSE(k.rps_may_expire_flow(2, 3, 9));
    EXPECT_TRUE(k.rps_flow_is_active(p, *k.flow_table(2), 2));
    k.set_backlog_counters(2, 1000 + w, 1000 + w);
    EXPECT_TRUE(k.rps_may_expire_flow(2, 3, 9));
    EXPECT_FALSE(k.rps_flow_is_active(p, *k.flow_table(2), 2));
  }
  // The gate (V-log): T3[11] holds another flow's filter 9 (hash kH2) on CPU 3.
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  drv.rc = 4;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 3);
  rps_dev_flow& p = k.flow_table(3)->flows[kS];
  p = rps_dev_flow{3, 9, 500, kH2};
  k.set_backlog_counters(3, 659, 659);  // d = 159: active, hash differs -> skip
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.gate, GateRow::kSkipOtherFlow);
  EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
  EXPECT_TRUE(drv.calls.empty());
  EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 3);
  // Receiving slot reset so the next packet reaches set_rps_cpu again; d = 160: inactive.
  k.flow_table(0)->flows[kS].cpu = RPS_NO_CPU;
  k.set_backlog_counters(3, 660, 660);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.gate, GateRow::kInactive);
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(p.filter, 4);
  EXPECT_EQ(p.hash, kH);
  EXPECT_EQ(d.rflow, ref(3, kS));
}

// 7. rps_flow_is_active: stored CPU >= nr_cpu_ids -> inactive; offline CPU -> frozen head,
//    the slot stays active indefinitely.
TEST(KernelSpec8, Spec8_07_FlowIsActiveInvalidAndOfflineCpu) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  rps_dev_flow& p = k.flow_table(2)->flows[5];
  p.filter = 9;
  p.last_qtail = 0;
  p.cpu = RPS_NO_CPU;
  EXPECT_FALSE(k.rps_flow_is_active(p, *k.flow_table(2), RPS_NO_CPU));
  EXPECT_TRUE(k.rps_may_expire_flow(2, 5, 9));
  p.cpu = 4;  // == nr_cpu_ids
  EXPECT_FALSE(k.rps_flow_is_active(p, *k.flow_table(2), 4));
  EXPECT_TRUE(k.rps_may_expire_flow(2, 5, 9));

  p.cpu = 2;
  p.last_qtail = 500;
  k.set_backlog_counters(2, 500, 500);
  k.set_cpu_online(2, false);
  EXPECT_FALSE(k.rps_may_expire_flow(2, 5, 9));  // no online check (spec 4.1)
  for (uint32_t c : {0u, 1u, 3u}) k.input_queue_head_add(c, 1000000);
  EXPECT_FALSE(k.rps_may_expire_flow(2, 5, 9));  // CPU 2's head is frozen at 500
  EXPECT_TRUE(k.rps_flow_is_active(p, *k.flow_table(2), 2));
}

// 8. Receiving queue without a table: no RFS (map or -1). Target queue without a table: no
//    steer, and rps_may_expire_flow says true for every filter on it.
TEST(KernelSpec8, Spec8_08_NoReceivingOrTargetTable) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 2);
  ASSERT_EQ(k.store_rps_flow_cnt(1, 0), 0);
  EXPECT_EQ(k.flow_table(1), nullptr);
  RxDecision d = k.netif_receive_skb(make_skb(kH, 1, tcp4(1)));
  EXPECT_EQ(d.cpu, -1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  EXPECT_FALSE(d.rflow.valid());
  ASSERT_EQ(k.set_rps_map(1, {3}), 0);
  d = k.netif_receive_skb(make_skb(kH, 1, tcp4(1)));
  EXPECT_EQ(d.cpu, 3);
  EXPECT_FALSE(d.rflow.valid());

  ASSERT_EQ(k.store_rps_flow_cnt(2, 0), 0);  // target queue of CPU 2 has no table
  k.set_backlog_counters(2, 30, 30);
  d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoTargetTable);
  EXPECT_FALSE(d.steer.called);
  EXPECT_EQ(d.cpu, 2);
  EXPECT_EQ(d.rflow, ref(0, kS));
  EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 2);
  EXPECT_EQ(k.flow_table(0)->flows[kS].last_qtail, 31u);
  EXPECT_TRUE(drv.calls.empty());
  EXPECT_TRUE(k.rps_may_expire_flow(2, kS, 0));
  EXPECT_TRUE(k.rps_may_expire_flow(2, 0, RPS_NO_FILTER));
}

// 9. Table resize/replace: slots reset, the driver filter on that queue expires at next sync
//    (slot filter NO_FILTER after a same-size replace; flow_id 11 >= 8 after shrinking to 8).
TEST(KernelSpec8, Spec8_09_TableResizeExpiresFilters) {
  for (uint32_t new_cnt : {16u, 8u}) {
    SCOPED_TRACE(new_cnt);
    Rig r(small_config(Variant::kPatched));
    r.k.rps_record_sock_flow(kH, 2);
    RxDecision d = r.rx(kH, 0, tcp4(1));
    ASSERT_EQ(d.path, SetRpsCpuPath::kSteered);
    ASSERT_EQ(d.steer.rc, 1);
    EXPECT_EQ(r.sync(0).added, ids({1}));
    d = r.rx(kH, 2, tcp4(1));  // HW filter: the flow now arrives on queue 2
    EXPECT_EQ(d.cpu, 2);
    EXPECT_EQ(d.rflow, ref(2, kS));
    auto s = r.sync(1000);
    EXPECT_TRUE(s.deleted.empty());  // active, filter 1 in T2[11]

    ASSERT_EQ(r.k.store_rps_flow_cnt(2, new_cnt), 0);
    EXPECT_EQ(r.k.flow_table(2)->size(), new_cnt);
    if (new_cnt == 16) {
      EXPECT_EQ(r.slot(2, kS).filter, RPS_NO_FILTER);
      EXPECT_EQ(r.slot(2, kS).cpu, RPS_NO_CPU);
    }
    EXPECT_TRUE(r.k.rps_may_expire_flow(2, kS, 1));
    s = r.sync(2000);
    EXPECT_EQ(s.deleted, ids({1}));
    EXPECT_TRUE(s.added.empty());
    EXPECT_EQ(r.ice.counters().del, 1u);
    EXPECT_EQ(r.ice.num_entries(), 0u);
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
    ASSERT_FALSE(r.fdir.ops.empty());
    EXPECT_FALSE(r.fdir.ops.back().add);
    EXPECT_EQ(r.fdir.ops.back().id, 1u);
    EXPECT_EQ(r.fdir.ops.back().q, 2);
  }
}

// 10. Queues with different table sizes: flow_id differs (16 slots: 11; 64 slots: 44), ice
//     misses the existing entry and builds a second one for the same tuple. The model computes
//     flow_id from the TARGET table (FIX), never the receiving table's slot (PATCH2 bug).
TEST(KernelSpec8, Spec8_10_DifferentTableSizesSecondEntry) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Rig r(small_config(v));
    ASSERT_EQ(r.k.store_rps_flow_cnt(2, 64), 0);
    EXPECT_EQ(r.k.flow_table(2)->log, 6);
    r.k.rps_record_sock_flow(kH, 1);
    RxDecision d = r.rx(kH, 0, tcp4(1));
    ASSERT_EQ(d.steer.flow_id, kS);
    ASSERT_EQ(d.steer.queue, 1);
    r.sync(0);
    d = r.rx(kH, 1, tcp4(1));  // arrives on queue 1 via the filter
    EXPECT_EQ(d.cpu, 1);
    r.k.drain(1);
    r.k.rps_record_sock_flow(kH, 2);  // app moves to CPU 2 (queue 2, 64-slot table)
    d = r.rx(kH, 1, tcp4(1));
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    EXPECT_EQ(d.steer.queue, 2);
    EXPECT_EQ(d.steer.flow_id, 44u);  // hash_32(kH, 6), not 11
    EXPECT_EQ(d.steer.rc, 2);         // second entry, id 2
    EXPECT_EQ(r.ice.counters().add, 2u);
    EXPECT_EQ(r.ice.counters().steer_l, 1u);  // visited entry 1 (flow_id 11 != 44)
    auto es = r.ice.entries();
    ASSERT_EQ(es.size(), 2u);
    EXPECT_EQ(es[0].bucket, 0u);
    EXPECT_EQ(es[0].position, 0u);
    EXPECT_EQ(es[0].entry->fltr_info.fltr_id, 2u);
    EXPECT_EQ(es[0].entry->flow_id, 44u);
    EXPECT_EQ(es[0].entry->fltr_info.q_index, 2);
    EXPECT_EQ(es[0].entry->fltr_state, FltrState::kInactive);
    EXPECT_EQ(es[1].position, 1u);
    EXPECT_EQ(es[1].entry->fltr_info.fltr_id, 1u);
    EXPECT_EQ(es[1].entry->flow_id, kS);
    EXPECT_EQ(es[1].entry->fltr_info.q_index, 1);
    EXPECT_EQ(es[1].entry->fltr_state, FltrState::kActive);
    EXPECT_EQ(es[0].entry->fltr_info.tuple, es[1].entry->fltr_info.tuple);
    EXPECT_EQ(r.slot(2, 44).filter, 2);
    EXPECT_EQ(r.slot(1, kS).filter, 1);  // 1 != rc 2: old slot keeps its id
  }
}

// 11. rps_flow_cnt = 1: V-log log 0 -> the model pins slot 0 (hash_32(h, 0) is a 32-bit shift
//     in C) and window 10 << 0 = 10; V-mask window 10 * 0 = 0 -> always expirable.
TEST(KernelSpec8, Spec8_11_FlowCntOne) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  ASSERT_EQ(k.store_rps_flow_cnt(0, 1), 0);
  const rps_dev_flow_table& t = *k.flow_table(0);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.log, 0);
  for (uint32_t h : {kH, 0xFFFFFFFFu, 1u}) EXPECT_EQ(t.slot(h, SlotMode::kLog), 0u);
  EXPECT_EQ(t.window(SlotMode::kLog), 10);
  k.rps_record_sock_flow(kH, 0);
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.rflow, ref(0, 0));
  rps_dev_flow& p = k.flow_table(0)->flows[0];
  p.filter = 3;
  p.last_qtail = 100;
  p.cpu = 0;
  k.set_backlog_counters(0, 109, 109);
  EXPECT_FALSE(k.rps_may_expire_flow(0, 0, 3));
  k.set_backlog_counters(0, 110, 110);
  EXPECT_TRUE(k.rps_may_expire_flow(0, 0, 3));
  EXPECT_TRUE(k.rps_may_expire_flow(0, 1, 3));  // flow_id 1 >= size 1

  KernelConfig cfg = small_config(Variant::kPatched);
  cfg.slot_mode = SlotMode::kMask;
  Kernel m(cfg);
  setup_tables(m);
  ASSERT_EQ(m.store_rps_flow_cnt(0, 1), 0);
  EXPECT_EQ(m.flow_table(0)->window(SlotMode::kMask), 0);
  rps_dev_flow& q = m.flow_table(0)->flows[0];
  q.filter = 3;
  q.cpu = 0;
  q.last_qtail = 0;  // head 0: d = 0, not < 0
  EXPECT_TRUE(m.rps_may_expire_flow(0, 0, 3));
}

// 12. Very large tables: 10 << log overflows int for log >= 28 (computed with wrap); the model
//     refuses tables above 2^26 slots with -ENOMEM, and sizes whose mask exceeds 32 bits -EINVAL.
TEST(KernelSpec8, Spec8_12_HugeTableWindowOverflow) {
  rps_dev_flow_table t;
  t.log = 27;
  EXPECT_EQ(t.window(SlotMode::kLog), 1342177280);  // 10 * 2^27 = 0x50000000
  t.log = 28;
  EXPECT_EQ(t.window(SlotMode::kLog), -1610612736);  // 0xA0000000
  t.log = 29;
  EXPECT_EQ(t.window(SlotMode::kLog), 1073741824);  // 0x140000000 -> 0x40000000
  t.log = 30;
  EXPECT_EQ(t.window(SlotMode::kLog), INT32_MIN);  // 0x280000000 -> 0x80000000
  t.log = 31;
  EXPECT_EQ(t.window(SlotMode::kLog), 0);  // 0x500000000 -> 0
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  rps_dev_flow p;
  p.cpu = 0;
  p.last_qtail = 0;
  t.log = 28;
  EXPECT_FALSE(k.rps_flow_is_active(p, t, 0));  // 0 < negative window: never active

  EXPECT_EQ(k.store_rps_flow_cnt(0, (1ull << 32) + 1), -EINVAL);  // size 2^33, mask > 32 bits
  EXPECT_EQ(k.store_rps_flow_cnt(0, 1ull << 32), -ENOMEM);        // model limit 2^26
  EXPECT_EQ(k.store_rps_flow_cnt(0, 1ull << 28), -ENOMEM);
  EXPECT_EQ(k.store_rps_flow_cnt(0, (1ull << 26) + 1), -ENOMEM);  // rounds up to 2^27
  EXPECT_EQ(k.store_rps_flow_cnt(7, 16), -EINVAL);                // no such queue
  EXPECT_EQ(k.flow_table(0)->size(), 16u);                        // unchanged after errors
  EXPECT_EQ(k.store_rps_flow_cnt(1, 17), 0);  // rounds up to 32, log 5, window 320
  EXPECT_EQ(k.flow_table(1)->size(), 32u);
  EXPECT_EQ(k.flow_table(1)->log, 5);
  EXPECT_EQ(k.flow_table(1)->window(SlotMode::kLog), 320);
}

// 13. No recorded RX queue: rx[0] is used, no steer (S2). Recorded queue >= real_num_rx_queues:
//     -1 with no state change, even with an RPS map on queue 0.
TEST(KernelSpec8, Spec8_13_NoRecordedQueueOrOutOfRange) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 2);
  k.set_backlog_counters(2, 9, 9);
  RxDecision d = k.netif_receive_skb(make_skb(kH, -1, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoAccel);
  EXPECT_EQ(d.cpu, 2);
  EXPECT_EQ(d.rflow, ref(0, kS));
  EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 2);
  EXPECT_EQ(k.flow_table(0)->flows[kS].last_qtail, 10u);
  EXPECT_TRUE(drv.calls.empty());

  ASSERT_EQ(k.set_rps_map(0, {1}), 0);
  k.rps_record_sock_flow(kH2, 3);
  d = k.netif_receive_skb(make_skb(kH2, 4, tcp4(2)));
  EXPECT_EQ(d.cpu, -1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  EXPECT_FALSE(d.enqueued);
  for (uint32_t q = 0; q < 4; ++q) EXPECT_EQ(k.flow_table(q)->flows[kS].cpu, q == 0 ? 2 : RPS_NO_CPU);
  EXPECT_EQ(k.tail(1), 0u);
}

// 14. rmap(next_cpu) == arrival queue: no steer; receiving slot gets cpu, last_qtail.
TEST(KernelSpec8, Spec8_14_TargetIsArrivalQueue) {
  Kernel k(small_config(Variant::kOriginal));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 2);
  k.set_backlog_counters(2, 7, 7);
  RxDecision d = k.netif_receive_skb(make_skb(kH, 2, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);
  EXPECT_FALSE(d.steer.called);
  EXPECT_EQ(d.cpu, 2);
  EXPECT_EQ(d.rflow, ref(2, kS));
  EXPECT_EQ(k.flow_table(2)->flows[kS].cpu, 2);
  EXPECT_EQ(k.flow_table(2)->flows[kS].last_qtail, 8u);
  EXPECT_EQ(k.flow_table(2)->flows[kS].filter, RPS_NO_FILTER);
  EXPECT_TRUE(drv.calls.empty());
}

// 15. No rx_cpu_rmap, or NTUPLE off: no steer (S2), receiving slot updated.
TEST(KernelSpec8, Spec8_15_NoRmapOrNtupleOff) {
  for (int which = 0; which < 2; ++which) {
    Kernel k(small_config(Variant::kPatched));
    setup_tables(k);
    FakeDriver drv;
    k.set_driver(&drv);
    if (which == 0) k.set_ntuple(false);
    else k.set_rx_cpu_rmap(false);
    k.rps_record_sock_flow(kH, 3);
    RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
    EXPECT_EQ(d.path, SetRpsCpuPath::kNoAccel);
    EXPECT_EQ(d.cpu, 3);
    EXPECT_EQ(d.rflow, ref(0, kS));
    EXPECT_EQ(k.flow_table(0)->flows[kS].cpu, 3);
    EXPECT_EQ(k.flow_table(0)->flows[kS].last_qtail, 1u);
    EXPECT_EQ(k.flow_table(3)->flows[kS].filter, RPS_NO_FILTER);
    EXPECT_TRUE(drv.calls.empty());
  }
}

// 16. skb_get_hash == 0: no RPS/RFS at all (map ignored); netif_rx uses the current CPU.
TEST(KernelSpec8, Spec8_16_HashZero) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  ASSERT_EQ(k.set_rps_map(0, {1, 2}), 0);
  k.rps_record_sock_flow(0, 2);  // sk_rxhash 0: nothing recorded
  EXPECT_EQ(k.sock_table()->ents[0], 0x0000FFFFu);
  RxDecision d = k.netif_receive_skb(make_skb(0, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, -1);
  EXPECT_FALSE(d.enqueued);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  d = k.netif_rx(make_skb(0, 0, tcp4(1)), 3);
  EXPECT_EQ(d.cpu, -1);
  EXPECT_TRUE(d.enqueued);
  EXPECT_FALSE(d.rflow.valid());
  EXPECT_EQ(k.tail(3), 1u);
  for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(k.tail(c), 0u);
  for (const auto& f : k.flow_table(0)->flows) EXPECT_EQ(f.cpu, RPS_NO_CPU);
  EXPECT_TRUE(drv.calls.empty());
}

// 17. Sock-table index collision: 0x11111101 and 0x22222201 share index 0x01 (mask 0xFF); the
//     loser fails the ident check -> RPS map / -1.
TEST(KernelSpec8, Spec8_17_SockTableIndexCollision) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  const uint32_t a = 0x11111101, b = 0x22222201;
  k.rps_record_sock_flow(a, 2);
  EXPECT_EQ(k.sock_table()->ents[1], 0x11111102u);  // (a & ~3) | 2
  RxDecision d = k.netif_receive_skb(make_skb(b, 0, tcp4(2)));
  EXPECT_EQ(d.cpu, -1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  ASSERT_EQ(k.set_rps_map(0, {1, 3}), 0);
  d = k.netif_receive_skb(make_skb(b, 0, tcp4(2)));
  EXPECT_EQ(d.cpu, 1);  // (0x22222201 * 2) >> 32 = 0
  EXPECT_FALSE(d.rflow.valid());
  d = k.netif_receive_skb(make_skb(a, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);  // winner: next_cpu 2
  k.rps_record_sock_flow(b, 3);                // now b owns the entry
  EXPECT_EQ(k.sock_table()->ents[1], 0x22222203u);
  d = k.netif_receive_skb(make_skb(a, 0, tcp4(1)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  EXPECT_EQ(d.cpu, 1);  // map again
  EXPECT_FALSE(d.rflow.valid());
}

// 18. Driver rc < 0: receiving slot gets cpu = next_cpu; no further call while next_cpu holds.
TEST(KernelSpec8, Spec8_18_DriverErrorNoRetry) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Rig r(small_config(v));
    r.k.rps_record_sock_flow(kH, 2);
    Skb s = make_skb(kH, 0, tcp4(1));
    s.encapsulation = true;  // ice R2
    RxDecision d = r.k.netif_receive_skb(s);
    EXPECT_EQ(d.path, SetRpsCpuPath::kDriverError);
    EXPECT_EQ(d.steer.rc, -EPROTONOSUPPORT);
    EXPECT_EQ(d.cpu, 2);
    EXPECT_EQ(d.rflow, ref(0, kS));
    EXPECT_EQ(r.slot(0, kS).cpu, 2);
    EXPECT_EQ(r.slot(0, kS).last_qtail, 1u);
    EXPECT_EQ(r.slot(0, kS).filter, RPS_NO_FILTER);
    EXPECT_EQ(r.slot(2, kS).filter, RPS_NO_FILTER);
    for (int i = 0; i < 3; ++i) {
      d = r.k.netif_receive_skb(s);
      EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
      EXPECT_EQ(d.cpu, 2);
    }
    EXPECT_EQ(r.ice.counters().steer_c, 1u);
    EXPECT_EQ(r.ice.counters().add, 0u);
    r.k.drain(2);
    r.k.rps_record_sock_flow(kH, 3);  // next_cpu changes: called again
    d = r.k.netif_receive_skb(s);
    EXPECT_EQ(d.path, SetRpsCpuPath::kDriverError);
    EXPECT_EQ(r.ice.counters().steer_c, 2u);
  }
}

// 19. Driver returns 0 (a valid id; counter 65535 % 65535): stored, 0 != RPS_NO_FILTER.
TEST(KernelSpec8, Spec8_19_FilterIdZeroIsValid) {
  Rig r(small_config(Variant::kPatched));
  r.ice.set_last_fltr_id(65534);
  r.k.rps_record_sock_flow(kH, 2);
  RxDecision d = r.rx(kH, 0, tcp4(1));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(d.steer.rc, 0);
  EXPECT_EQ(r.slot(2, kS).filter, 0);
  EXPECT_EQ(r.slot(2, kS).hash, kH);
  EXPECT_EQ(d.rflow, ref(2, kS));
  EXPECT_EQ(r.slot(0, kS).filter, RPS_NO_FILTER);  // old.filter 0xFFFF != 0
  d = r.rx(kH, 0, tcp4(1));  // second in-flight packet: gate sees a real filter
  EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);
  EXPECT_EQ(r.sync(0).added, ids({0}));
  EXPECT_FALSE(r.k.rps_may_expire_flow(2, kS, 0));
  EXPECT_TRUE(r.k.rps_may_expire_flow(2, kS, RPS_NO_FILTER));
}

// 20. old.filter == rc: a flow moves from queue 1 to queue 2, ice returns the same id 1 (ACTIVE
//     entry re-targeted), the previous slot T1[11] is reset to NO_FILTER.
TEST(KernelSpec8, Spec8_20_SameIdMovesBetweenQueues) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Rig r(small_config(v));
    r.k.rps_record_sock_flow(kH, 1);
    RxDecision d = r.rx(kH, 0, tcp4(1));
    ASSERT_EQ(d.steer.rc, 1);
    EXPECT_EQ(r.sync(0).added, ids({1}));
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
    d = r.rx(kH, 1, tcp4(1));
    EXPECT_EQ(d.rflow, ref(1, kS));
    r.k.drain(1);
    r.k.rps_record_sock_flow(kH, 2);
    d = r.rx(kH, 1, tcp4(1));
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    EXPECT_EQ(d.steer.queue, 2);
    EXPECT_EQ(d.steer.rc, 1);
    EXPECT_EQ(d.cpu, 2);
    EXPECT_EQ(d.rflow, ref(2, kS));
    EXPECT_EQ(r.slot(2, kS).filter, 1);
    EXPECT_EQ(r.slot(2, kS).cpu, 2);
    EXPECT_EQ(r.slot(1, kS).filter, RPS_NO_FILTER);  // S7 old.filter == rc
    EXPECT_EQ(r.slot(1, kS).cpu, 1);                 // old slot otherwise untouched
    const auto* e = r.ice.find(1);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->fltr_info.q_index, 2);
    EXPECT_EQ(e->fltr_state, FltrState::kInactive);
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
    EXPECT_EQ(r.schedules, 2);
    auto s = r.sync(1000);
    EXPECT_TRUE(s.deleted.empty());
    EXPECT_EQ(s.added, ids({1}));
    EXPECT_EQ(r.fdir.ops.back().q, 2);
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
    EXPECT_EQ(r.ice.counters().add, 1u);
    EXPECT_EQ(r.ice.counters().del, 0u);
  }
}

// 21. Same target slot, different flows, all active: F1 (q0), F2 (q1), F3 (q2), apps on CPU 3,
//     all hash to T3 slot 11. Original overwrites and expires; patched keeps F1.
TEST(KernelSpec8, Spec8_21_TwoActiveFlowsOneSlot) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    const bool orig = v == Variant::kOriginal;
    Rig r(small_config(v));
    for (uint32_t h : {kH, kH2, kH3}) r.k.rps_record_sock_flow(h, 3);
    RxDecision d = r.rx(kH, 0, tcp4(1));
    ASSERT_EQ(d.path, SetRpsCpuPath::kSteered);
    EXPECT_EQ(d.steer.flow_id, kS);
    EXPECT_EQ(r.sync(0).added, ids({1}));
    d = r.rx(kH, 3, tcp4(1));  // F1 on its filter queue
    EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
    EXPECT_EQ(r.slot(3, kS).last_qtail, 2u);
    r.k.drain(3);  // head[3] = 2: F1's slot fully fresh (d = 0)

    d = r.rx(kH2, 1, tcp4(2));  // F2 on its RSS queue 1
    EXPECT_EQ(d.cpu, 3);
    if (orig) {
      EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
      EXPECT_EQ(d.steer.rc, 2);
      EXPECT_EQ(d.rflow, ref(3, kS));
      EXPECT_EQ(r.slot(3, kS).filter, 2);  // overwritten
      EXPECT_EQ(r.slot(1, kS).cpu, RPS_NO_CPU);
    } else {
      EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
      EXPECT_EQ(d.gate, GateRow::kSkipOtherFlow);
      EXPECT_FALSE(d.steer.called);
      EXPECT_EQ(d.rflow, ref(1, kS));
      EXPECT_EQ(r.slot(1, kS).cpu, 3);
      EXPECT_EQ(r.slot(1, kS).last_qtail, 3u);  // head[3] = 2, then tail 3
      EXPECT_EQ(r.slot(3, kS).filter, 1);
      EXPECT_EQ(r.slot(3, kS).hash, kH);
    }
    auto s = r.sync(1000);
    if (orig) {
      EXPECT_EQ(s.deleted, ids({1}));  // active F1 expired: filter 2 != 1
      EXPECT_EQ(s.added, ids({2}));
    } else {
      EXPECT_TRUE(s.deleted.empty());
      EXPECT_TRUE(s.added.empty());
    }

    d = r.rx(kH3, 2, tcp4(3));  // third flow on the same slot
    if (orig) {
      EXPECT_EQ(d.steer.rc, 3);
      EXPECT_EQ(r.slot(3, kS).filter, 3);
      s = r.sync(2000);
      EXPECT_EQ(s.deleted, ids({2}));
      EXPECT_EQ(s.added, ids({3}));
      EXPECT_EQ(r.ice.counters().add, 3u);
      EXPECT_EQ(r.ice.counters().del, 2u);
      EXPECT_EQ(r.ice.counters().steer_c, 3u);
    } else {
      EXPECT_EQ(d.gate, GateRow::kSkipOtherFlow);
      EXPECT_EQ(r.slot(2, kS).cpu, 3);
      s = r.sync(2000);
      EXPECT_TRUE(s.deleted.empty());
      EXPECT_EQ(r.ice.counters().add, 1u);
      EXPECT_EQ(r.ice.counters().del, 0u);
      EXPECT_EQ(r.ice.counters().steer_c, 1u);
      EXPECT_EQ(r.slot(3, kS).filter, 1);
    }
    EXPECT_EQ(r.ice.num_entries(), 1u);
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
  }
}

// 22. Identical 32-bit hash, different flows (10.0.0.1:1111->10.0.1.1:2222 and its port-swapped
//     twin). Patched treats them as one flow; with different next_cpu on one target queue
//     (rmap CPU 2 and 3 -> queue 3) it reprograms, ice builds a second entry, the first expires.
TEST(KernelSpec8, Spec8_22_IdenticalHashDifferentFlows) {
  KernelConfig cfg = small_config(Variant::kPatched);
  cfg.rmap = {0, 1, 3, 3};
  Rig r(cfg);
  const FlowTuple f1 = flowsteer::make_tuple("10.0.0.1", "10.0.1.1", 1111, 2222);
  const FlowTuple f2 = flowsteer::make_tuple("10.0.0.1", "10.0.1.1", 2222, 1111);
  r.k.rps_record_sock_flow(kH, 3);
  RxDecision d = r.rx(kH, 0, f1);
  ASSERT_EQ(d.steer.rc, 1);
  EXPECT_EQ(r.sync(0).added, ids({1}));
  d = r.rx(kH, 0, f2);  // same hash, same CPU: looks like "same flow already steered"
  EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);
  EXPECT_EQ(r.ice.counters().steer_c, 1u);
  EXPECT_EQ(r.slot(0, kS).cpu, 3);
  r.k.drain(3);                     // head[3] = 2
  r.k.rps_record_sock_flow(kH, 2);  // F2's app on CPU 2 (same sock entry)
  d = r.rx(kH, 0, f2);
  EXPECT_EQ(d.gate, GateRow::kSameFlowNewCpu);  // T3[11]: d = 2 - 1 = 1 active, same hash
  EXPECT_EQ(d.steer.queue, 3);
  EXPECT_EQ(d.steer.rc, 2);                     // tuple differs: new entry
  EXPECT_EQ(r.slot(3, kS).filter, 2);
  EXPECT_EQ(r.slot(3, kS).cpu, 2);
  EXPECT_EQ(r.ice.counters().add, 2u);
  EXPECT_EQ(r.ice.counters().steer_l, 1u);
  auto s = r.sync(1000);
  EXPECT_EQ(s.deleted, ids({1}));
  EXPECT_EQ(s.added, ids({2}));
  ASSERT_EQ(r.ice.num_entries(), 1u);
  EXPECT_EQ(r.ice.find(2)->fltr_info.tuple, f2);
}

// 23. Same flow migrating CPU while its entry is still INACTIVE: ice returns id 1 without
//     changing q_index (1); the kernel records it in T2[11] and T1[11] keeps it; the rule is
//     installed to the old queue and expires later through T1[11]'s inactivity.
TEST(KernelSpec8, Spec8_23_MigrateWhileEntryInactive) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Rig r(small_config(v));
    r.k.rps_record_sock_flow(kH, 1);
    RxDecision d = r.rx(kH, 0, tcp4(1));
    ASSERT_EQ(d.steer.rc, 1);
    EXPECT_EQ(r.slot(1, kS).last_qtail, 1u);
    r.k.rps_record_sock_flow(kH, 2);
    d = r.rx(kH, 0, tcp4(1));  // receiving slot T0[11] still NO_CPU
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    EXPECT_EQ(d.steer.queue, 2);
    EXPECT_EQ(d.steer.rc, 1);
    EXPECT_EQ(r.ice.find(1)->fltr_info.q_index, 1);  // unchanged
    EXPECT_EQ(r.ice.find(1)->fltr_state, FltrState::kInactive);
    EXPECT_EQ(r.schedules, 1);
    EXPECT_EQ(r.ice.counters().add, 1u);
    EXPECT_EQ(r.slot(2, kS).filter, 1);
    EXPECT_EQ(r.slot(1, kS).filter, 1);
    auto s = r.sync(0);
    EXPECT_EQ(s.added, ids({1}));
    EXPECT_EQ(r.fdir.ops.back().q, 1);  // installed to the old queue
    r.k.input_queue_head_add(1, 160);   // d = 160 - 1 = 159: still active
    EXPECT_TRUE(r.sync(1000).deleted.empty());
    r.k.input_queue_head_add(1, 1);     // d = 160
    EXPECT_EQ(r.sync(2000).deleted, ids({1}));
  }
}

// 24. Dual role: T3[11] holds flow A's filter; flow B (hash 0x1E1E0007, slot 11, RSS q3, app on
//     CPU 1, queue 1 without table) rewrites T3[11].cpu/last_qtail; A is then measured on CPU 1.
TEST(KernelSpec8, Spec8_24_DualRoleSlot) {
  const uint32_t hb = 0x1E1E0007;
  ASSERT_EQ(ref_hash_32(hb, 4), kS);
  Rig r(small_config(Variant::kPatched));
  ASSERT_EQ(r.k.store_rps_flow_cnt(1, 0), 0);
  r.k.rps_record_sock_flow(kH, 3);
  ASSERT_EQ(r.rx(kH, 0, tcp4(1)).steer.rc, 1);
  r.sync(0);
  r.rx(kH, 3, tcp4(1));
  r.k.drain(3);  // head[3] = tail[3] = 2 = T3[11].last_qtail
  r.k.rps_record_sock_flow(hb, 1);
  RxDecision d = r.rx(hb, 3, tcp4(9));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoTargetTable);
  EXPECT_EQ(d.cpu, 1);
  EXPECT_EQ(d.rflow, ref(3, kS));
  EXPECT_EQ(r.slot(3, kS).cpu, 1);
  EXPECT_EQ(r.slot(3, kS).filter, 1);      // A's filter
  EXPECT_EQ(r.slot(3, kS).last_qtail, 1u); // tail[1]
  r.k.input_queue_head_add(3, 10000);      // A's CPU busy: irrelevant now
  EXPECT_FALSE(r.k.rps_may_expire_flow(3, kS, 1));
  r.k.input_queue_head_add(1, 160);        // head[1] = 160, d = 159
  EXPECT_FALSE(r.k.rps_may_expire_flow(3, kS, 1));
  r.k.input_queue_head_add(1, 1);          // d = 160: A's filter expirable
  EXPECT_TRUE(r.k.rps_may_expire_flow(3, kS, 1));
  EXPECT_EQ(r.sync(1000).deleted, ids({1}));
}

// 25. voidflow: CPU from the RPS map -> the tail goes to a dummy; no slot changes.
TEST(KernelSpec8, Spec8_25_VoidflowFromRpsMap) {
  Kernel k(small_config(Variant::kPatched));
  ASSERT_EQ(k.store_rps_flow_cnt(0, 16), 0);  // table but no sock table: G5 skipped
  ASSERT_EQ(k.set_rps_map(0, {1, 2}), 0);
  RxDecision d = k.netif_receive_skb(make_skb(0x80000000u, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, 2);  // (0x80000000 * 2) >> 32 = 1 -> cpus[1]
  EXPECT_FALSE(d.rflow.valid());
  EXPECT_TRUE(d.enqueued);
  EXPECT_EQ(d.tail, 1u);
  EXPECT_EQ(k.tail(2), 1u);
  for (const auto& f : k.flow_table(0)->flows) {
    EXPECT_EQ(f.cpu, RPS_NO_CPU);
    EXPECT_EQ(f.last_qtail, 0u);
  }
}

// 26. Dropped skbs (backlog full) advance nothing: max_backlog 2 drops when tail - head > 2.
TEST(KernelSpec8, Spec8_26_DroppedSkbAdvancesNothing) {
  KernelConfig cfg = small_config(Variant::kPatched);
  cfg.max_backlog = 2;
  Kernel k(cfg);
  setup_tables(k);
  k.rps_record_sock_flow(kH, 1);
  for (uint32_t i = 1; i <= 3; ++i) {
    RxDecision d = k.netif_receive_skb(make_skb(kH, 1, tcp4(1)));
    EXPECT_TRUE(d.enqueued);
    EXPECT_EQ(d.tail, i);
  }
  RxDecision d = k.netif_receive_skb(make_skb(kH, 1, tcp4(1)));  // qlen 3 > 2
  EXPECT_EQ(d.cpu, 1);
  EXPECT_TRUE(d.dropped);
  EXPECT_FALSE(d.enqueued);
  EXPECT_EQ(k.tail(1), 3u);
  EXPECT_EQ(k.flow_table(1)->flows[kS].last_qtail, 3u);
  k.input_queue_head_add(1, 1);  // qlen 2: accepted again
  d = k.netif_receive_skb(make_skb(kH, 1, tcp4(1)));
  EXPECT_TRUE(d.enqueued);
  EXPECT_EQ(k.tail(1), 4u);
  EXPECT_EQ(k.flow_table(1)->flows[kS].last_qtail, 4u);
}

// 40. Socket close (sock_rps_delete_flow): entry back to 0x0000FFFF -> ident mismatch.
TEST(KernelSpec8, Spec8_40_SockDeleteFlowIdentMismatch) {
  Kernel k(small_config(Variant::kPatched));
  setup_tables(k);
  FakeDriver drv;
  k.set_driver(&drv);
  k.rps_record_sock_flow(kH, 2);
  EXPECT_EQ(k.netif_receive_skb(make_skb(kH, 0, tcp4(1))).cpu, 2);
  k.sock_rps_delete_flow(kH);
  EXPECT_EQ(k.sock_table()->ents[kH & 0xFF], 0x0000FFFFu);
  RxDecision d = k.netif_receive_skb(make_skb(kH, 0, tcp4(1)));
  EXPECT_EQ(d.cpu, -1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  ASSERT_EQ(k.set_rps_map(0, {1}), 0);
  EXPECT_EQ(k.netif_receive_skb(make_skb(kH, 0, tcp4(1))).cpu, 1);
  // A deleted entry still "matches" hashes 0x0000FFFC..0x0000FFFF at its index (spec 2.2
  // note); with 4 CPUs that yields next_cpu 0xFFFF & 3 = 3, a valid CPU.
  d = k.netif_receive_skb(make_skb(0x0000FFFDu, 0, tcp4(5)));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(d.steer.queue, 3);
  EXPECT_EQ(d.cpu, 3);
}

// 41. RSS key change: the flow's hash goes 0x5A5A1000 (slot 11, bucket 0, q0) ->
//     0x13572461 (slot 2, bucket 97, q1). The old entry expires through T3[11]; a new entry
//     with the same tuple is built in bucket 97 with flow_id 2.
TEST(KernelSpec8, Spec8_41_RssKeyChange) {
  const uint32_t hn = 0x13572461;
  ASSERT_EQ(ref_hash_32(hn, 4), 2u);
  ASSERT_EQ(ref_bucket(hn), 97u);
  Rig r(small_config(Variant::kPatched));
  r.k.rps_record_sock_flow(kH, 3);
  ASSERT_EQ(r.rx(kH, 0, tcp4(1)).steer.rc, 1);  // tail[3] = 1 = T3[11].last_qtail
  r.sync(0);
  r.k.rps_record_sock_flow(hn, 3);  // sk_rxhash follows the new skb hash
  RxDecision d = r.rx(hn, 3, tcp4(1));  // HW filter still matches the tuple: queue 3
  EXPECT_EQ(d.path, SetRpsCpuPath::kSameQueue);
  EXPECT_EQ(d.rflow, ref(3, 2));
  for (int i = 0; i < 158; ++i) r.rx(hn, 3, tcp4(1));  // tail[3] = 160
  r.k.drain(3);                                         // d(T3[11]) = 160 - 1 = 159
  EXPECT_TRUE(r.sync(1000).deleted.empty());
  r.rx(hn, 3, tcp4(1));
  r.k.drain(3);  // d = 160
  EXPECT_EQ(r.sync(2000).deleted, ids({1}));
  d = r.rx(hn, 1, tcp4(1));  // back on the RSS queue of the new hash
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(d.steer.flow_id, 2u);
  EXPECT_EQ(d.steer.rc, 2);
  auto es = r.ice.entries();
  ASSERT_EQ(es.size(), 1u);
  EXPECT_EQ(es[0].bucket, 97u);
  EXPECT_EQ(es[0].entry->flow_id, 2u);
  EXPECT_EQ(es[0].entry->fltr_info.tuple, tcp4(1));
  EXPECT_EQ(r.ice.counters().add, 2u);
  EXPECT_EQ(r.ice.counters().del, 1u);
}

// 42. In-flight window before the HW rule works (5 packets on RSS queue 0, no sync):
//     original -> 5 driver calls (Steer-C 5, Steer-L 0+1+1+1+1 = 4, Add 1);
//     patched -> 1 call, packet 2 takes the skip path, packets 3-5 never reach set_rps_cpu.
TEST(KernelSpec8, Spec8_42_InFlightWindow) {
  for (Variant v : kBoth) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    const bool orig = v == Variant::kOriginal;
    Rig r(small_config(v));
    r.k.rps_record_sock_flow(kH, 3);
    for (int i = 1; i <= 5; ++i) {
      RxDecision d = r.rx(kH, 0, tcp4(1));
      EXPECT_EQ(d.cpu, 3);
      if (orig || i == 1) {
        EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
        EXPECT_EQ(d.steer.rc, 1);
        EXPECT_EQ(d.rflow, ref(3, kS));
      } else if (i == 2) {
        EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
        EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);
        EXPECT_EQ(d.rflow, ref(0, kS));
      } else {
        EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
        EXPECT_EQ(d.rflow, ref(0, kS));
      }
    }
    EXPECT_EQ(r.ice.counters().steer_c, orig ? 5u : 1u);
    EXPECT_EQ(r.ice.counters().steer_l, orig ? 4u : 0u);
    EXPECT_EQ(r.ice.counters().add, 1u);
    EXPECT_EQ(r.slot(0, kS).cpu, orig ? RPS_NO_CPU : 3);
    EXPECT_EQ(r.slot(3, kS).filter, 1);
    EXPECT_EQ(r.slot(3, kS).last_qtail, orig ? 5u : 1u);
    EXPECT_EQ(r.slot(0, kS).last_qtail, orig ? 0u : 5u);
  }
}

// The catalogue (testbench/spec8/cases.json) names the test of every kernel-side case; every
// Spec8_* test here must be in it, under each case number its name carries.
TEST(KernelSpec8, CatalogueMatchesTheSuite) {
  catalogue::expect_suite_matches(
      "kernel_unit", [](const std::string& t) { return catalogue::is_spec8_test(t, "KernelSpec8"); });
}
