// Spec section 8, ice-side corner cases 27-39, one test per case. Expected values come from
// spec 7.2-7.6 (R*/Y* steps, id arithmetic in signed 32-bit C, bucket = hash & 1023).
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>
#include <stdexcept>

#include "spec8/catalogue.h"
#include "spec8_helpers.h"

using namespace spec8;
using flowsteer::driver::ArfsEntry;
using flowsteer::driver::FltrState;
using flowsteer::driver::FlowType;
using flowsteer::driver::IceArfs;
using flowsteer::kernel::GateRow;
using flowsteer::kernel::RPS_NO_CPU;
using flowsteer::kernel::RPS_NO_FILTER;
using flowsteer::kernel::SetRpsCpuPath;
using flowsteer::kernel::Variant;

namespace {

// Ice mirror alone, with a scripted kernel answer for rps_may_expire_flow.
struct IceRig {
  RecordingFdir fdir;
  FakeExpire kern;
  IceArfs ice;
  int schedules = 0;
  IceRig() : ice(IceArfs::Options{}, &fdir) {
    ice.set_schedule_hook([this] { ++schedules; });
  }
  int steer(uint32_t hash, uint16_t q, uint32_t flow_id, const FlowTuple& t) {
    return ice.ice_rx_flow_steer(make_skb(hash, 0, t), q, flow_id);
  }
  int steer(const Skb& s, uint16_t q, uint32_t flow_id) {
    return ice.ice_rx_flow_steer(s, q, flow_id);
  }
  flowsteer::driver::SyncResult sync(uint64_t now_ms = 0) {
    return ice.ice_sync_arfs_fltrs(now_ms, kern);
  }
  const ArfsEntry& at(uint32_t bucket, uint32_t pos) const {
    for (const auto& v : ice.entries())
      if (v.bucket == bucket && v.position == pos) return *v.entry;
    throw std::out_of_range("no entry at that bucket position");
  }
};

constexpr uint32_t kH = 0x5A5A1000;  // hash_32(.., 4) = 11, bucket 0 (see test_kernel_spec8)
constexpr uint32_t kS = 11;
constexpr uint32_t kH2 = 0x6B6B2041;  // also slot 11, bucket 65, RSS queue 1

}  // namespace

// 27. Every rejection of spec 7.5 (Steer-C counts each call, Steer-L and Add do not move),
//     IPv6 fragments accepted with ports 0.
TEST(IceSpec8, Spec8_27_Rejections) {
  IceRig r;
  Skb s = make_skb(0x100, 0, tcp4(1));  // bucket 256
  s.encapsulation = true;
  EXPECT_EQ(r.steer(s, 1, 3), -EPROTONOSUPPORT);  // R2
  s = make_skb(0x100, 0, tcp4(1));
  s.dissect_ok = false;
  EXPECT_EQ(r.steer(s, 1, 3), -EPROTONOSUPPORT);  // R3
  s = make_skb(0x100, 0, tcp4(1));
  s.ipv4_fragment = true;
  EXPECT_EQ(r.steer(s, 1, 3), -EPROTONOSUPPORT);  // R4 fragment
  s = make_skb(0x100, 0, FlowTuple{});
  EXPECT_EQ(r.steer(s, 1, 3), -EPROTONOSUPPORT);  // R4 not IPv4/IPv6
  EXPECT_EQ(r.steer(0x100, 1, 3, flowsteer::make_tuple("10.0.0.1", "10.0.1.1", 0, 0, 1)),
            -EPROTONOSUPPORT);  // R5 ICMP
  EXPECT_EQ(r.steer(0x100, 1, 3, flowsteer::make_tuple("10.0.0.1", "10.0.1.1", 5, 6, 132)),
            -EPROTONOSUPPORT);  // R5 SCTP
  EXPECT_EQ(r.ice.counters().steer_c, 6u);
  EXPECT_EQ(r.ice.counters().steer_l, 0u);
  EXPECT_EQ(r.ice.counters().add, 0u);
  EXPECT_EQ(r.ice.num_entries(), 0u);
  EXPECT_EQ(r.schedules, 0);

  // R6: bitmap present, TCPv4 bit (bit 0) clear -> -EOPNOTSUPP; UDPv4 (bit 1) allowed.
  r.ice.set_perfect_flow_bitmap(true, 0x0E);
  EXPECT_EQ(r.steer(0x100, 1, 3, tcp4(1)), -EOPNOTSUPP);
  EXPECT_EQ(r.steer(0x100, 1, 3, udp4(1)), 1);
  r.ice.set_perfect_flow_bitmap(false);
  // Allocation failure: the bucket (256) is searched first (Steer-L +1), then -ENOMEM; the id
  // counter is not consumed (the id is assigned after the allocation).
  r.ice.fail_entry_allocs(1);
  EXPECT_EQ(r.steer(0x100, 1, 3, tcp4(1)), -ENOMEM);
  EXPECT_EQ(r.ice.counters().steer_l, 1u);
  EXPECT_EQ(r.ice.counters().add, 1u);
  EXPECT_EQ(r.steer(0x100, 1, 3, tcp4(1)), 2);
  // IPv6 fragment: the dissector gives ports 0; accepted.
  const FlowTuple v6frag = flowsteer::make_tuple("2001:db8::1", "2001:db8::2", 0, 0);
  EXPECT_EQ(r.steer(0x155, 2, 4, v6frag), 3);
  const ArfsEntry& e6 = r.at(0x155, 0);
  EXPECT_EQ(e6.fltr_info.flow_type, FlowType::kIpv6Tcp);
  EXPECT_EQ(e6.fltr_info.tuple.sport, 0);
  EXPECT_EQ(e6.fltr_info.tuple.dport, 0);
  EXPECT_EQ(r.ice.counters().steer_c, 11u);
  EXPECT_EQ(r.ice.counters().add, 3u);
  // R1: lists not allocated.
  r.ice.ice_clear_arfs();
  EXPECT_EQ(r.steer(0x100, 1, 3, tcp4(1)), -ENODEV);
  EXPECT_EQ(r.ice.counters().steer_c, 12u);
  EXPECT_EQ(r.ice.counters().add, 3u);
}

// 28. Existing entry: INACTIVE -> its id, nothing changes (not even a different queue);
//     ACTIVE on the same queue -> its id, no schedule.
TEST(IceSpec8, Spec8_28_ExistingEntrySameQueueOrInactive) {
  IceRig r;
  EXPECT_EQ(r.steer(0x200, 1, 5, tcp4(1)), 1);
  EXPECT_EQ(r.schedules, 1);
  EXPECT_EQ(r.steer(0x200, 2, 5, tcp4(1)), 1);  // INACTIVE: q stays 1, no schedule
  const ArfsEntry& e = r.at(0x200, 0);
  EXPECT_EQ(e.fltr_info.q_index, 1);
  EXPECT_EQ(e.fltr_state, FltrState::kInactive);
  EXPECT_EQ(r.schedules, 1);
  EXPECT_EQ(r.sync(0).added, ids({1}));
  EXPECT_EQ(e.fltr_state, FltrState::kActive);
  EXPECT_EQ(r.steer(0x200, 1, 5, tcp4(1)), 1);  // ACTIVE, same queue
  EXPECT_EQ(e.fltr_state, FltrState::kActive);
  EXPECT_EQ(e.fltr_info.q_index, 1);
  EXPECT_EQ(r.schedules, 1);
  EXPECT_EQ(r.ice.counters().add, 1u);
  EXPECT_EQ(r.ice.counters().steer_c, 3u);
  EXPECT_EQ(r.ice.counters().steer_l, 2u);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
}

// 29. Existing ACTIVE entry, new queue -> INACTIVE with the new q_index, counter -1, schedule;
//     the next run re-adds it with the same id (no Add, no Del).
TEST(IceSpec8, Spec8_29_ActiveEntryNewQueue) {
  IceRig r;
  EXPECT_EQ(r.steer(0x200, 1, 5, tcp4(1)), 1);
  r.sync(0);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
  EXPECT_EQ(r.steer(0x200, 3, 5, tcp4(1)), 1);
  const ArfsEntry& e = r.at(0x200, 0);
  EXPECT_EQ(e.fltr_state, FltrState::kInactive);
  EXPECT_EQ(e.fltr_info.q_index, 3);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
  EXPECT_EQ(r.schedules, 2);
  auto s = r.sync(1000);
  EXPECT_TRUE(s.deleted.empty());
  EXPECT_EQ(s.added, ids({1}));
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
  ASSERT_EQ(r.fdir.ops.size(), 2u);
  EXPECT_TRUE(r.fdir.ops[0].add);
  EXPECT_EQ(r.fdir.ops[0].q, 1);
  EXPECT_TRUE(r.fdir.ops[1].add);
  EXPECT_EQ(r.fdir.ops[1].q, 3);
  EXPECT_EQ(r.fdir.ops[1].id, 1u);
  EXPECT_EQ(r.fdir.installed.at(1).q_index, 3);
  EXPECT_EQ(r.ice.counters().add, 1u);
  EXPECT_EQ(r.ice.counters().del, 0u);
}

// 30. Filter ids: counter % 0xFFFF -> 1, 2, 3 ...; 65534, then 0 (counter 65535), then 1 again
//     (aliasing after 65535 allocations); counter INT_MIN -> -32768 (fltr_id 0xFFFF8000).
TEST(IceSpec8, Spec8_30_FilterIdSequenceAndWrap) {
  IceRig r;
  EXPECT_EQ(r.steer(1, 0, 1, tcp4(1)), 1);
  EXPECT_EQ(r.steer(2, 0, 1, tcp4(2)), 2);
  EXPECT_EQ(r.steer(3, 0, 1, tcp4(3)), 3);
  r.ice.set_last_fltr_id(65533);
  EXPECT_EQ(r.steer(4, 0, 1, tcp4(4)), 65534);
  EXPECT_EQ(r.steer(5, 0, 1, tcp4(5)), 0);  // counter 65535: 0xFFFF is never produced
  EXPECT_EQ(r.steer(6, 0, 1, tcp4(6)), 1);  // counter 65536: aliases the live id 1
  EXPECT_EQ(r.ice.last_fltr_id(), 65536);
  int with_id1 = 0;
  for (const auto& v : r.ice.entries()) with_id1 += v.entry->fltr_info.fltr_id == 1u;
  EXPECT_EQ(with_id1, 2);
  r.ice.set_last_fltr_id(131069);
  EXPECT_EQ(r.steer(7, 0, 1, tcp4(7)), 0);  // 131070 = 2 * 65535
  r.ice.set_last_fltr_id(INT32_MAX);
  EXPECT_EQ(r.steer(8, 0, 1, tcp4(8)), -32768);  // INT_MIN % 65535 = -32768 in C
  EXPECT_EQ(r.at(8, 0).fltr_info.fltr_id, 0xFFFF8000u);
  EXPECT_EQ(r.ice.last_fltr_id(), INT32_MIN);
  EXPECT_EQ(r.steer(9, 0, 1, tcp4(9)), -32767);  // 2147483647 = 65535 * 32768 + 32767
  EXPECT_EQ(r.at(9, 0).fltr_info.fltr_id, 0xFFFF8001u);
  EXPECT_EQ(r.ice.counters().add, 9u);
}

// 30 (kernel view). A negative id is an error to the kernel: no filter stored, but the entry
// stays, is programmed with FD ID 0xFFFF8000, and is deleted at the following sync because
// rps_may_expire_flow gets u16 0x8000 and finds NO_FILTER.
TEST(IceSpec8, Spec8_30_NegativeIdThroughKernel) {
  Rig r(small_config(Variant::kPatched));
  r.ice.set_last_fltr_id(INT32_MAX);
  r.k.rps_record_sock_flow(kH, 2);
  RxDecision d = r.rx(kH, 0, tcp4(1));
  EXPECT_EQ(d.path, SetRpsCpuPath::kDriverError);
  EXPECT_EQ(d.steer.rc, -32768);
  EXPECT_EQ(r.slot(0, kS).cpu, 2);
  EXPECT_EQ(r.slot(2, kS).filter, RPS_NO_FILTER);
  EXPECT_EQ(r.ice.num_entries(), 1u);
  auto s = r.sync(0);
  EXPECT_EQ(s.added, ids({0xFFFF8000u}));
  EXPECT_EQ(r.fdir.ops.back().id, 0xFFFF8000u);
  s = r.sync(1000);
  EXPECT_EQ(s.deleted, ids({0xFFFF8000u}));
  EXPECT_EQ(r.ice.num_entries(), 0u);
  EXPECT_EQ(r.ice.counters().add, 1u);
  EXPECT_EQ(r.ice.counters().del, 1u);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
}

// 31. Add-list wrapper allocation failure: entry stays INACTIVE, retried next run.
TEST(IceSpec8, Spec8_31_WrapperAllocFailureRetried) {
  IceRig r;
  EXPECT_EQ(r.steer(0x10, 1, 2, tcp4(1)), 1);
  r.ice.fail_wrapper_allocs(1);
  auto s = r.sync(0);
  EXPECT_TRUE(s.added.empty());
  EXPECT_EQ(r.at(0x10, 0).fltr_state, FltrState::kInactive);
  EXPECT_TRUE(r.fdir.ops.empty());
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
  s = r.sync(1000);
  EXPECT_EQ(s.added, ids({1}));
  EXPECT_EQ(r.at(0x10, 0).fltr_state, FltrState::kActive);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 1);
}

// 32. HW add failure: entry ACTIVE without a HW rule, counter not incremented; the later
//     (successful) delete still decrements it -> -1 (spec 7.6 drift).
TEST(IceSpec8, Spec8_32_HwAddFailure) {
  IceRig r;
  r.fdir.add_rc = -EAGAIN;
  EXPECT_EQ(r.steer(0x10, 1, 2, tcp4(1)), 1);
  auto s = r.sync(0);
  EXPECT_EQ(s.added, ids({1}));  // the write was attempted
  EXPECT_EQ(r.at(0x10, 0).fltr_state, FltrState::kActive);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
  EXPECT_TRUE(r.fdir.installed.empty());
  s = r.sync(1000);  // not re-added: it is ACTIVE
  EXPECT_TRUE(s.added.empty());
  r.kern.expire = true;
  s = r.sync(2000);
  EXPECT_EQ(s.deleted, ids({1}));
  EXPECT_EQ(r.ice.counters().del, 1u);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), -1);
}

// 33. HW delete failure: entry freed anyway, counter unchanged, Del counted.
TEST(IceSpec8, Spec8_33_HwDeleteFailure) {
  IceRig r;
  EXPECT_EQ(r.steer(0x10, 1, 2, udp4(1)), 1);
  r.sync(0);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Udp), 1);
  r.fdir.del_rc = -EAGAIN;
  r.kern.expire = true;
  auto s = r.sync(1000);
  EXPECT_EQ(s.deleted, ids({1}));
  EXPECT_EQ(r.ice.num_entries(), 0u);
  EXPECT_EQ(r.ice.find(1), nullptr);
  EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Udp), 1);
  EXPECT_EQ(r.ice.counters().del, 1u);
  EXPECT_EQ(r.fdir.installed.count(1), 1u);  // the HW rule is still there
}

// 34. UDP expires 5000 ms after (re)activation even while the kernel says active; TCP never.
TEST(IceSpec8, Spec8_34_UdpTimerExpiry) {
  IceRig r;  // kern.expire = false: the kernel keeps every flow
  EXPECT_EQ(r.steer(0x20, 1, 2, udp4(1)), 1);
  EXPECT_EQ(r.steer(0x21, 1, 3, tcp4(1)), 2);
  EXPECT_EQ(r.steer(0x22, 1, 4, udp4(2)), 3);
  EXPECT_EQ(r.sync(1000).added.size(), 3u);
  EXPECT_EQ(r.at(0x20, 0).time_activated, 1000u);
  EXPECT_EQ(r.at(0x21, 0).time_activated, 0u);  // TCP: not set
  EXPECT_EQ(r.steer(0x22, 2, 4, udp4(2)), 3);   // t = 3000: queue change -> INACTIVE
  auto s = r.sync(4000);                        // re-activated at 4000
  EXPECT_EQ(s.added, ids({3}));
  EXPECT_EQ(r.at(0x22, 0).time_activated, 4000u);
  EXPECT_TRUE(r.sync(5999).deleted.empty());    // 1000 + 5000 - 1
  EXPECT_EQ(r.sync(6000).deleted, ids({1}));    // id 1 at 1000 + 5000
  EXPECT_TRUE(r.sync(8999).deleted.empty());
  EXPECT_EQ(r.sync(9000).deleted, ids({3}));    // id 3 at 4000 + 5000
  EXPECT_TRUE(r.sync(1000000000).deleted.empty());
  EXPECT_NE(r.ice.find(2), nullptr);
  EXPECT_EQ(r.ice.counters().del, 2u);
}

// 35. An entry activated in a pass is not expiry-checked in that pass.
TEST(IceSpec8, Spec8_35_NoExpiryInActivationPass) {
  IceRig r;
  r.kern.expire = true;
  EXPECT_EQ(r.steer(0x30, 2, 9, tcp4(1)), 1);
  auto s = r.sync(0);
  EXPECT_EQ(s.added, ids({1}));
  EXPECT_TRUE(s.deleted.empty());
  EXPECT_TRUE(r.kern.asked.empty());
  s = r.sync(1000);
  EXPECT_EQ(s.deleted, ids({1}));
  ASSERT_EQ(r.kern.asked.size(), 1u);
  EXPECT_EQ(r.kern.asked[0].first, 2);
  EXPECT_EQ(r.kern.asked[0].second, 9u);
}

// 36. New entries go to the bucket head; Steer-L counts visited entries; the sync writes
//     deletes then adds, each in reverse discovery order (head insertion into the lists).
TEST(IceSpec8, Spec8_36_BucketOrderAndSteerL) {
  IceRig r;
  // Hashes 5, 1029, 2053, 3077 all land in bucket 5 (h & 1023).
  EXPECT_EQ(r.steer(5, 1, 1, tcp4(1)), 1);     // visits 0
  EXPECT_EQ(r.steer(1029, 1, 2, tcp4(2)), 2);  // visits 1
  EXPECT_EQ(r.steer(2053, 1, 3, tcp4(3)), 3);  // visits 2
  EXPECT_EQ(r.ice.counters().steer_l, 3u);
  EXPECT_EQ(r.at(5, 0).fltr_info.fltr_id, 3u);
  EXPECT_EQ(r.at(5, 1).fltr_info.fltr_id, 2u);
  EXPECT_EQ(r.at(5, 2).fltr_info.fltr_id, 1u);
  EXPECT_EQ(r.steer(5, 1, 1, tcp4(1)), 1);  // tail entry: 3 visits
  EXPECT_EQ(r.ice.counters().steer_l, 6u);
  EXPECT_EQ(r.steer(2053, 1, 3, tcp4(3)), 3);  // head entry: 1 visit
  EXPECT_EQ(r.ice.counters().steer_l, 7u);
  EXPECT_EQ(r.steer(3077, 1, 4, tcp4(4)), 4);  // new: whole bucket (3) then head
  EXPECT_EQ(r.ice.counters().steer_l, 10u);
  EXPECT_EQ(r.at(5, 0).fltr_info.fltr_id, 4u);
  EXPECT_EQ(r.at(5, 3).fltr_info.fltr_id, 1u);
  // Same flow_id, different tuple, same bucket (ICE-CMP): a second entry.
  EXPECT_EQ(r.steer(5, 1, 1, tcp4(9)), 5);
  EXPECT_EQ(r.ice.counters().steer_l, 14u);

  IceRig o;
  EXPECT_EQ(o.steer(5, 1, 1, tcp4(1)), 1);     // bucket 5
  EXPECT_EQ(o.steer(3, 1, 2, tcp4(2)), 2);     // bucket 3
  EXPECT_EQ(o.steer(1029, 1, 3, tcp4(3)), 3);  // bucket 5, head
  // Discovery: bucket 3 (2), bucket 5 (3, 1) -> lists 1, 3, 2.
  EXPECT_EQ(o.sync(0).added, ids({1, 3, 2}));
  o.kern.expire = true;
  EXPECT_EQ(o.sync(1000).deleted, ids({1, 3, 2}));
  ASSERT_EQ(o.fdir.ops.size(), 6u);
  EXPECT_EQ(o.fdir.ops[3].id, 1u);
  EXPECT_FALSE(o.fdir.ops[3].add);
}

// 36 (ICE-2020 option): flow_id-only match takes a different flow's entry in the bucket.
TEST(IceSpec8, Spec8_36_FlowIdOnlyMatchOption) {
  RecordingFdir fdir;
  IceArfs::Options opt;
  opt.match = flowsteer::driver::MatchMode::kFlowId;
  IceArfs ice(opt, &fdir);
  EXPECT_EQ(ice.ice_rx_flow_steer(make_skb(5, 0, tcp4(1)), 1, 7), 1);
  EXPECT_EQ(ice.ice_rx_flow_steer(make_skb(1029, 0, tcp4(2)), 2, 7), 1);  // wrong flow's id
  EXPECT_EQ(ice.counters().add, 1u);
  EXPECT_EQ(ice.ice_rx_flow_steer(make_skb(1029, 0, tcp4(2)), 2, 8), 2);
}

// 37. Reset/rebuild: ice entries dropped, ids restart at 1, no per-entry HW delete; kernel slots
//     keep the old ids -> patched takes a false "same flow" skip and the flow is not
//     re-accelerated; original re-steers and gets id 1 again.
TEST(IceSpec8, Spec8_37_RebuildStaleKernelIds) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    SCOPED_TRACE(flowsteer::kernel::variant_name(v));
    Rig r(small_config(v));
    r.k.rps_record_sock_flow(kH, 3);
    r.k.rps_record_sock_flow(kH2, 3);
    ASSERT_EQ(r.rx(kH, 0, tcp4(1)).steer.rc, 1);
    EXPECT_EQ(r.sync(0).added, ids({1}));
    r.ice.ice_rebuild_arfs();
    EXPECT_TRUE(r.ice.active());
    EXPECT_EQ(r.ice.num_entries(), 0u);
    EXPECT_EQ(r.ice.last_fltr_id(), 0);
    EXPECT_EQ(r.ice.active_fltr_cnt(FlowType::kIpv4Tcp), 0);
    EXPECT_EQ(r.fdir.ops.size(), 1u);  // no HW delete
    EXPECT_EQ(r.slot(3, kS).filter, 1);
    RxDecision d = r.rx(kH, 0, tcp4(1));  // flow back on its RSS queue
    if (v == Variant::kPatched) {
      EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);  // stale id 1 looks like "already steered"
      EXPECT_FALSE(d.steer.called);
      EXPECT_EQ(r.ice.num_entries(), 0u);
      d = r.rx(kH2, 1, tcp4(2));
      EXPECT_EQ(d.gate, GateRow::kSkipOtherFlow);  // the stale id blocks a colliding flow
      EXPECT_EQ(r.ice.num_entries(), 0u);
    } else {
      EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
      EXPECT_EQ(d.steer.rc, 1);  // counter restarted
      EXPECT_EQ(r.ice.find(1)->fltr_info.tuple, tcp4(1));
      EXPECT_EQ(r.slot(3, kS).filter, 1);
    }
  }
}

// 38. NTUPLE off: lists freed (no per-entry HW delete), kernel stops calling; on: lists
//     reallocated, ids restart, kernel calls again.
TEST(IceSpec8, Spec8_38_NtupleOffOn) {
  Rig r(small_config(Variant::kPatched));
  r.k.rps_record_sock_flow(kH, 3);
  const uint32_t hn = 0x13572461;  // slot 2, RSS queue 1: clear of kH's slot 11
  r.k.rps_record_sock_flow(hn, 2);
  ASSERT_EQ(r.rx(kH, 0, tcp4(1)).steer.rc, 1);
  r.sync(0);
  r.k.set_ntuple(false);
  r.ice.ice_clear_arfs();
  EXPECT_FALSE(r.ice.active());
  EXPECT_EQ(r.ice.num_entries(), 0u);
  EXPECT_EQ(r.fdir.ops.size(), 1u);  // no per-entry HW delete
  RxDecision d = r.rx(hn, 1, tcp4(2));
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoAccel);
  EXPECT_EQ(d.cpu, 2);
  EXPECT_EQ(r.slot(1, 2).cpu, 2);
  EXPECT_EQ(r.ice.counters().steer_c, 1u);
  EXPECT_EQ(r.ice.ice_rx_flow_steer(make_skb(hn, 1, tcp4(2)), 3, 2), -ENODEV);
  EXPECT_TRUE(r.sync(1000).added.empty());  // Y1: aRFS inactive

  r.k.set_ntuple(true);
  r.ice.ice_init_arfs();
  EXPECT_TRUE(r.ice.active());
  r.k.rps_record_sock_flow(hn, 3);  // app moves: the flow reaches set_rps_cpu again
  r.k.drain(2);
  d = r.rx(hn, 1, tcp4(2));
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(d.steer.queue, 3);
  EXPECT_EQ(d.steer.flow_id, 2u);
  EXPECT_EQ(d.steer.rc, 1);  // ids restart
  EXPECT_EQ(r.ice.counters().steer_c, 3u);
}

// 39. Service task busy: the model serialises events; the schedule hook fires on each new
//     entry and queue change, and a steer after a sync pass waits for the next sync call.
TEST(IceSpec8, Spec8_39_SteerBetweenRunsWaitsForNextRun) {
  IceRig r;
  bool pending = false;
  int queued = 0;
  r.ice.set_schedule_hook([&] {  // ICE_SERVICE_SCHED: queue only if not already scheduled
    ++r.schedules;
    if (!pending) {
      pending = true;
      ++queued;
    }
  });
  EXPECT_EQ(r.steer(0x40, 1, 1, tcp4(1)), 1);
  EXPECT_EQ(r.steer(0x41, 1, 2, tcp4(2)), 2);
  EXPECT_EQ(r.schedules, 2);
  EXPECT_EQ(queued, 1);
  EXPECT_EQ(r.sync(0).added, ids({2, 1}));  // discovery 1 (bucket 0x40), 2 -> reversed
  pending = false;
  EXPECT_EQ(r.steer(0x42, 1, 3, tcp4(3)), 3);
  EXPECT_EQ(r.at(0x42, 0).fltr_state, FltrState::kInactive);
  EXPECT_EQ(queued, 2);
  EXPECT_EQ(r.sync(1000).added, ids({3}));
}

// The catalogue (testbench/spec8/cases.json) names the tests of every ice-side case; every
// Spec8_* test here must be in it, under each case number its name carries.
TEST(IceSpec8, CatalogueMatchesTheSuite) {
  spec8::catalogue::expect_suite_matches(
      "ice_unit", [](const std::string& t) { return spec8::catalogue::is_spec8_test(t, "IceSpec8"); });
}
