// The engine's golden model: the sequential contract over real frames, the
// engine as ndo_rx_flow_steer driver, and the host runtime that expires its filters.
#include <gtest/gtest.h>

#include <cerrno>
#include <map>
#include <random>

#include "flowsteer/driver/engine_runtime.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/frame.h"

using namespace flowsteer;
using engine::EngineModel;
using engine::EngineParams;
using engine::FilterErr;
using engine::SteerAction;

namespace {

constexpr uint32_t kTarget = 3;  // the CPU (and, 1:1, the queue) both apps run on
constexpr uint32_t kTableSize = 16;

EngineParams small_params(kernel::Variant v) {
  EngineParams p;
  p.cpus = 4;
  p.queues = 4;
  p.lut_size = 128;
  p.filter_bucket_bits = 4;
  p.filter_ways = 2;
  p.event_fifo_depth = 8;
  p.variant = v;
  return p;
}

void configure(EngineModel& e) {
  for (uint32_t q = 0; q < 4; ++q) ASSERT_EQ(e.set_rps_flow_cnt(q, kTableSize), 0);
  ASSERT_EQ(e.set_rps_sock_flow_entries(64), 0);  // rps_cpu_mask = 3 for 4 CPUs
}

struct TestFlow {
  FlowTuple tuple;
  uint32_t hash;
  std::vector<uint8_t> frame;
};

TestFlow make_flow(const EngineModel& e, uint16_t sport) {
  TestFlow f;
  f.tuple = make_tuple("192.0.2.1", "198.51.100.7", sport, 80);
  f.hash = e.rss().hash_tuple(f.tuple, true);
  f.frame = nic::build_frame(f.tuple);
  return f;
}

// Two flows whose RSS queues are not kTarget, whose hashes share a slot of kTarget's
// 16-entry table (V-log) and whose sock-table entries differ: the seed's pair (spec 7.9.3).
std::pair<TestFlow, TestFlow> colliding_pair(const EngineModel& e) {
  std::vector<TestFlow> seen;
  for (uint16_t sport = 1000; sport < 60000; ++sport) {
    TestFlow f = make_flow(e, sport);
    if (e.rss().queue(f.hash) == kTarget) continue;
    for (const auto& g : seen)
      if (hash::hash_32(g.hash, 4) == hash::hash_32(f.hash, 4) && (g.hash & 63) != (f.hash & 63) &&
          g.hash != f.hash)
        return {g, f};
    seen.push_back(f);
  }
  ADD_FAILURE() << "no colliding pair found";
  return {};
}

engine::OutputRecord send(EngineModel& e, const TestFlow& f) {
  return e.packet(f.frame.data(), f.frame.size());
}

}  // namespace

TEST(EngineModel, SeedTwoFlowsPatchedKeepsTheActiveFilter) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  auto [f1, f2] = colliding_pair(e);
  e.sock_record(f1.hash, kTarget);
  e.sock_record(f2.hash, kTarget);
  const uint32_t slot = hash::hash_32(f1.hash, 4);

  auto r = send(e, f1);
  EXPECT_EQ(r.cls, nic::ParseClass::kIpv4Tcp);
  EXPECT_TRUE(r.hash_valid);
  EXPECT_FALSE(r.filter_hit);
  EXPECT_EQ(r.queue, e.rss().queue(f1.hash));
  EXPECT_EQ(r.cpu, int(kTarget));
  EXPECT_EQ(r.action, SteerAction::kSteered);
  EXPECT_EQ(r.steer_id, 1u);  // first ice id
  auto ev = e.pop_event();
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->type, engine::EventType::kInsert);
  EXPECT_EQ(ev->id, 1u);
  EXPECT_EQ(ev->queue, kTarget);
  EXPECT_EQ(ev->flow_id, slot);
  EXPECT_EQ(ev->tuple, f1.tuple);
  const auto& t = *e.kernel().flow_table(kTarget);
  EXPECT_EQ(t.flows[slot].filter, 1u);
  EXPECT_EQ(t.flows[slot].hash, f1.hash);

  // The filter is inline: F1's next packet arrives on the target queue at once.
  r = send(e, f1);
  EXPECT_TRUE(r.filter_hit);
  EXPECT_EQ(r.filter_id, 1u);
  EXPECT_EQ(r.queue, kTarget);
  EXPECT_EQ(r.action, SteerAction::kNone);

  // F2 hits the S5g gate: active slot owned by another hash (spec 3.2 table row 3).
  r = send(e, f2);
  EXPECT_EQ(r.action, SteerAction::kSkipped);
  EXPECT_EQ(r.cpu, int(kTarget));
  EXPECT_EQ(e.last_decision().gate, kernel::GateRow::kSkipOtherFlow);
  r = send(e, f2);  // receiving slot now says cpu = T: no further driver calls
  EXPECT_EQ(r.action, SteerAction::kNone);
  EXPECT_EQ(t.flows[slot].filter, 1u);
  EXPECT_FALSE(e.pop_event());
  EXPECT_EQ(e.counters().steer_calls, 1u);
  EXPECT_EQ(e.counters().steer_adds, 1u);
  EXPECT_EQ(e.counters().gate_skips, 1u);
}

TEST(EngineModel, SeedTwoFlowsOriginalThrashesThroughTheRuntime) {
  EngineModel e(small_params(kernel::Variant::kOriginal));
  configure(e);
  driver::ModelEngineControl ctl(e);
  driver::ArfsRuntime rt(ctl);
  auto [f1, f2] = colliding_pair(e);
  e.sock_record(f1.hash, kTarget);
  e.sock_record(f2.hash, kTarget);
  const uint32_t slot = hash::hash_32(f1.hash, 4);
  const auto& t = *e.kernel().flow_table(kTarget);

  // Round 0: both steer (inline filters a, b; the slot keeps b). From then on each sync
  // deletes the filter the slot no longer names, its flow falls back to its RSS queue and
  // steers again, overwriting the other's: one Add and one Del per round (spec 7.9.3).
  uint64_t now = 0;
  uint64_t adds_before = 0, dels_before = 0;
  for (int round = 0; round < 6; ++round) {
    auto r1 = send(e, f1);
    auto r2 = send(e, f2);
    e.head_add(kTarget, 2);
    if (round == 0 || round >= 2) {
      bool f1_turn = round == 0 || round % 2 == 0;
      EXPECT_EQ((f1_turn ? r1 : r2).action, SteerAction::kSteered) << "round " << round;
      EXPECT_EQ(t.flows[slot].filter, (round == 0 ? r2 : f1_turn ? r1 : r2).steer_id);
    }
    auto res = rt.sync(now += 10);
    if (round >= 1) {
      EXPECT_EQ(res.deleted.size(), 1u) << "round " << round;
      EXPECT_GT(rt.counters().del, dels_before);
    }
    if (round >= 2) {
      EXPECT_GT(rt.counters().add, adds_before);
    }
    adds_before = rt.counters().add;
    dels_before = rt.counters().del;
  }
  EXPECT_EQ(e.counters().steer_adds, 6u);
  EXPECT_EQ(rt.counters().add, 6u);
  EXPECT_EQ(rt.counters().del, 5u);
}

TEST(EngineModel, FilterIdsFollowTheIceCounterAndWrap) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  e.sock_record(1, 0);
  e.set_last_fltr_id(65533);  // next ids: 65534, then 65535 % 0xFFFF = 0 (spec 7.2)
  std::vector<uint32_t> ids;
  for (uint16_t sport = 1000; ids.size() < 2 && sport < 60000; ++sport) {
    TestFlow f = make_flow(e, sport);
    if (e.rss().queue(f.hash) == 1) continue;
    e.sock_record(f.hash, 1);
    auto r = send(e, f);
    if (r.action == SteerAction::kSteered) ids.push_back(r.steer_id);
  }
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], 65534u);
  EXPECT_EQ(ids[1], 0u);  // 0 is a valid id, not RPS_NO_FILTER (case 19)

  // After 2^31 allocations the signed counter is negative: the kernel gets rc < 0 (case 30).
  e.set_last_fltr_id(INT32_MAX);
  for (uint16_t sport = 20000; sport < 60000; ++sport) {
    TestFlow f = make_flow(e, sport);
    if (e.rss().queue(f.hash) == 2) continue;
    e.sock_record(f.hash, 2);
    auto r = send(e, f);
    if (r.action == SteerAction::kNone) continue;
    EXPECT_EQ(r.action, SteerAction::kDriverError);
    EXPECT_EQ(r.error, -32768);  // INT_MIN % 65535
    break;
  }
}

TEST(EngineModel, RefusesWhenTheEventFifoIsFullAndLosesNothing) {
  EngineParams p = small_params(kernel::Variant::kPatched);
  p.event_fifo_depth = 2;
  p.filter_bucket_bits = 8;
  EngineModel e(p);
  configure(e);
  int steered = 0, refused = 0;
  for (uint16_t sport = 1000; sport < 2000 && steered + refused < 4; ++sport) {
    TestFlow f = make_flow(e, sport);
    if (e.rss().queue(f.hash) == 0) continue;
    e.sock_record(f.hash, 0);
    auto r = send(e, f);
    if (r.action == SteerAction::kSteered) ++steered;
    if (r.action == SteerAction::kDriverError) {
      EXPECT_EQ(r.error, -EBUSY);
      EXPECT_FALSE(e.filters().lookup(f.tuple));
      ++refused;
    }
  }
  EXPECT_EQ(steered, 2);
  EXPECT_EQ(refused, 2);
  EXPECT_EQ(e.counters().event_fifo_refusals, 2u);
  EXPECT_EQ(e.filters().size(), e.events_pending());
}

TEST(EngineModel, RetargetKeepsTheIdWhenTheAppMoves) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  TestFlow f;
  for (uint16_t sport = 1000;; ++sport) {
    f = make_flow(e, sport);
    if (e.rss().queue(f.hash) == 0) break;
  }
  e.sock_record(f.hash, 2);
  ASSERT_EQ(send(e, f).action, SteerAction::kSteered);
  auto ev = e.pop_event();
  ASSERT_TRUE(ev);
  auto r = send(e, f);
  EXPECT_TRUE(r.filter_hit);
  EXPECT_EQ(r.queue, 2u);
  e.sock_record(f.hash, 1);  // recvmsg now runs on CPU 1
  e.head_add(2, 100);        // CPU 2 drained: the in-order condition holds
  r = send(e, f);
  EXPECT_EQ(r.action, SteerAction::kSteered);
  EXPECT_EQ(r.steer_id, ev->id);  // the engine finds the tuple: same id, new queue
  // Queue 1's slot had no filter (gate row 1); the old slot gives its id up (case 20).
  EXPECT_EQ(e.last_decision().gate, kernel::GateRow::kNoFilter);
  const uint32_t slot = hash::hash_32(f.hash, 4);
  EXPECT_EQ(e.kernel().flow_table(1)->flows[slot].filter, ev->id);
  EXPECT_EQ(e.kernel().flow_table(2)->flows[slot].filter, kernel::RPS_NO_FILTER);
  auto ev2 = e.pop_event();
  ASSERT_TRUE(ev2);
  EXPECT_EQ(ev2->type, engine::EventType::kRetarget);
  EXPECT_EQ(ev2->queue, 1u);
  EXPECT_EQ(e.filters().lookup(f.tuple)->queue, 1u);
}

TEST(EngineModel, BadFramesAreClassifiedAndNeverSteered) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  const uint8_t runt[5] = {1, 2, 3, 4, 5};
  auto r = e.packet(runt, sizeof runt);
  EXPECT_EQ(r.cls, nic::ParseClass::kTruncated);
  EXPECT_FALSE(r.hash_valid);
  EXPECT_EQ(r.queue, e.rss().lut()[0]);
  EXPECT_EQ(r.cpu, -1);
  // An ICMP packet of a flow the sock table knows reaches the driver and is refused (R5).
  FlowTuple icmp = make_tuple("192.0.2.1", "198.51.100.7", 0, 0, 1);
  auto frame = nic::build_frame(icmp);
  uint32_t h = e.rss().hash_tuple(icmp, false);
  uint32_t other = (e.rss().queue(h) + 1) % 4;
  e.sock_record(h, other);
  r = e.packet(frame.data(), frame.size());
  EXPECT_EQ(r.cls, nic::ParseClass::kIpv4Other);
  EXPECT_EQ(r.action, SteerAction::kDriverError);
  EXPECT_EQ(r.error, -EPROTONOSUPPORT);
  EXPECT_EQ(e.counters().parse_class[size_t(nic::ParseClass::kTruncated)], 1u);
}

TEST(EngineModel, NtupleOffStopsSteering) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  TestFlow f;
  for (uint16_t sport = 1000;; ++sport) {
    f = make_flow(e, sport);
    if (e.rss().queue(f.hash) != 3) break;
  }
  e.sock_record(f.hash, 3);
  ASSERT_EQ(send(e, f).action, SteerAction::kSteered);
  e.set_ntuple(false);  // the driver turns NTUPLE off, then clears (ice_vsi_manage_fdir)
  EXPECT_EQ(e.filters().size(), 1u);
  e.filter_clear();
  EXPECT_EQ(e.filters().size(), 0u);
  e.sock_record(f.hash, 2);
  e.head_add(3, 10);
  auto r = send(e, f);
  EXPECT_FALSE(r.filter_hit);
  EXPECT_EQ(e.last_decision().path, kernel::SetRpsCpuPath::kNoAccel);  // spec 3 S2, case 15
}

TEST(FilterStore, MatchesAReferenceMapAndReportsFullBuckets) {
  std::mt19937 rng(12345);
  engine::FilterStore s(3, 2, 8);  // 8 buckets x 2 ways, ids < 256
  std::map<uint32_t, std::pair<FlowTuple, uint16_t>> ref;
  std::map<uint32_t, int> per_bucket;
  int fulls = 0;
  for (int i = 0; i < 20000; ++i) {
    FlowTuple t = make_tuple("10.0.0.1", "10.0.0.2", uint16_t(rng() % 64), 80);
    uint32_t id = rng() % 256;
    switch (rng() % 3) {
      case 0: {
        bool present = false;
        for (auto& [k, v] : ref) present |= v.first == t;
        uint32_t b = engine::filter_bucket(t, 3);
        FilterErr err = s.insert(t, id, uint16_t(id % 7));
        if (ref.count(id)) {
          EXPECT_EQ(err, FilterErr::kIdInUse);
        } else if (present) {
          EXPECT_EQ(err, FilterErr::kExists);
        } else if (per_bucket[b] == 2) {
          EXPECT_EQ(err, FilterErr::kFull);
          ++fulls;
        } else {
          ASSERT_EQ(err, FilterErr::kOk);
          ref[id] = {t, uint16_t(id % 7)};
          ++per_bucket[b];
        }
        break;
      }
      case 1: {
        FilterErr err = s.remove(id);
        if (ref.count(id)) {
          EXPECT_EQ(err, FilterErr::kOk);
          --per_bucket[engine::filter_bucket(ref[id].first, 3)];
          ref.erase(id);
        } else {
          EXPECT_EQ(err, FilterErr::kNotFound);
        }
        break;
      }
      default: {
        auto hit = s.lookup(t);
        const std::pair<const uint32_t, std::pair<FlowTuple, uint16_t>>* want = nullptr;
        for (auto& kv : ref)
          if (kv.second.first == t) want = &kv;
        ASSERT_EQ(bool(hit), want != nullptr);
        if (want) {
          EXPECT_EQ(hit->id, want->first);
          EXPECT_EQ(hit->queue, want->second.second);
        }
      }
    }
    ASSERT_EQ(s.size(), ref.size());
  }
  EXPECT_GT(fulls, 0);
}

TEST(ArfsRuntime, UdpExpiresFiveSecondsAfterActivationTcpNever) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  driver::ModelEngineControl ctl(e);
  driver::ArfsRuntime rt(ctl);
  std::vector<TestFlow> flows;
  for (uint8_t proto : {kIpProtoTcp, kIpProtoUdp}) {
    for (uint16_t sport = 1000;; ++sport) {
      TestFlow f;
      f.tuple = make_tuple("192.0.2.1", "198.51.100.7", sport, 53, proto);
      f.hash = e.rss().hash_tuple(f.tuple, true);
      f.frame = nic::build_frame(f.tuple);
      if (e.rss().queue(f.hash) == 3) continue;
      bool shares_slot = false;  // keep the two flows off one slot (no gate skip)
      for (auto& g : flows) shares_slot |= hash::hash_32(g.hash, 4) == hash::hash_32(f.hash, 4);
      if (shares_slot) continue;
      e.sock_record(f.hash, 3);
      ASSERT_EQ(send(e, f).action, SteerAction::kSteered);
      flows.push_back(f);
      break;
    }
  }
  int schedules = 0;
  rt.set_schedule_hook([&] { ++schedules; });
  EXPECT_EQ(rt.take_events(1000), 2u);
  EXPECT_EQ(schedules, 2);
  // Both flows keep arriving (through their filters): slots stay active.
  auto keep_active = [&] {
    for (auto& f : flows) send(e, f);
    e.head_add(3, 2);
  };
  keep_active();
  EXPECT_TRUE(rt.sync(1000).deleted.empty());  // first pass: new entries are not checked
  keep_active();
  EXPECT_TRUE(rt.sync(5999).deleted.empty());
  keep_active();
  auto res = rt.sync(6000);  // 5 s after activation (spec 7.3 EXPIRED)
  ASSERT_EQ(res.deleted.size(), 1u);
  EXPECT_EQ(rt.num_entries(), 1u);
  EXPECT_FALSE(e.filters().lookup(flows[1].tuple));
  EXPECT_TRUE(e.filters().lookup(flows[0].tuple));
  keep_active();
  EXPECT_TRUE(rt.sync(60000).deleted.empty());
}

TEST(EngineModel, RawSockWriteIsWhatRecordWrites) {
  EngineModel a(small_params(kernel::Variant::kPatched)), b(small_params(kernel::Variant::kPatched));
  configure(a);
  configure(b);
  TestFlow f = make_flow(a, 4242);
  a.sock_record(f.hash, 2);
  // index = hash & 63, value = (hash & ~rps_cpu_mask) | cpu, rps_cpu_mask = 3 (spec 1.1)
  EXPECT_TRUE(b.sock_write(f.hash & 63, (f.hash & ~3u) | 2));
  EXPECT_FALSE(b.sock_write(64, 0));  // past the table
  EXPECT_EQ(a.kernel().sock_table()->ents, b.kernel().sock_table()->ents);
  EXPECT_EQ(send(a, f), send(b, f));
}

TEST(EngineModel, RpsMapFallbackUsesTheDummyFlow) {
  EngineModel e(small_params(kernel::Variant::kPatched));
  configure(e);
  TestFlow f = make_flow(e, 777);  // no sock entry: ident check fails (spec G5b)
  uint16_t q = e.rss().queue(f.hash);
  ASSERT_EQ(e.set_rps_map(q, {2}), 0);
  auto r = send(e, f);
  EXPECT_EQ(r.cpu, 2);
  EXPECT_EQ(r.action, SteerAction::kNone);
  EXPECT_FALSE(e.last_decision().rflow.valid());  // voidflow (case 25)
  EXPECT_EQ(e.kernel().tail(2), 1u);
}
