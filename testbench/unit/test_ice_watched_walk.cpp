// The service-task walk with the kernel's ExpiryTracker (the system simulator's walk, which
// asks only the entries whose answer may have changed) against the walk that asks about every
// ACTIVE entry: two Kernel + IceArfs rigs get the same random packets, steers, head advances,
// slot writes and knob changes; every sync must give the same delete and add lists, in order.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "spec8_helpers.h"
#include "test_util.h"

using namespace spec8;
using flowsteer::driver::SyncResult;
using flowsteer::kernel::ExpiryKeep;
using flowsteer::kernel::ExpiryQuery;
using flowsteer::kernel::ExpiryTracker;
using flowsteer::kernel::RpsMayExpireFlow;
using flowsteer::kernel::SlotMode;
using flowsteer::kernel::Variant;

namespace {

// Forwards to a kernel and counts the rps_may_expire_flow answers the walk asked for.
struct CountingKernel : RpsMayExpireFlow, ExpiryTracker {
  Kernel& k;
  ExpiryTracker* t = nullptr;
  uint64_t asked = 0;
  explicit CountingKernel(Kernel& kern) : k(kern) {}
  bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t id) override {
    ++asked;
    return k.rps_may_expire_flow(rxq, flow_id, id);
  }
  void rps_may_expire_flows(ExpiryQuery* q, size_t n) override {
    asked += n;
    k.rps_may_expire_flows(q, n);
  }
  ExpiryTracker* expiry_tracker() override {
    t = k.expiry_tracker();
    return t ? this : nullptr;
  }
  uint64_t epoch() const override { return t->epoch(); }
  uint64_t head_advanced(uint32_t cpu) const override { return t->head_advanced(cpu); }
  uint64_t take_written_slots(std::vector<uint64_t>& out) override {
    return t->take_written_slots(out);
  }
  void ask(ExpiryQuery* q, ExpiryKeep* keep, size_t n) override {
    asked += n;
    t->ask(q, keep, n);
  }
};

struct TestFlow {
  uint32_t hash;
  FlowTuple tuple;
  uint16_t app_cpu;
};

KernelConfig walk_config(Variant v) {
  KernelConfig c = small_config(v);
  c.nr_cpu_ids = 6;  // of 8: set_nr_cpu_ids moves it
  c.max_cpus = 8;
  c.num_rx_queues = 6;
  c.max_queues = 6;
  return c;
}

// With switch_modes, the watched walk turns to asking every entry for a while when a run
// handled much, and back (full_walk_min_entries 0); else it never does (120 entries < 1024).
void run_random_walk(Variant v, uint32_t seed, int steps, bool switch_modes) {
  SCOPED_TRACE("variant " + std::string(flowsteer::kernel::variant_name(v)) + " seed=" +
               std::to_string(seed) + " (FLOWSTEER_TEST_SEED replays it)");
  std::mt19937 rng(seed);
  Rig full(walk_config(v), 16, 256), watched(walk_config(v), 16, 256);
  watched.k.set_expiry_tracking(true);
  if (switch_modes) {
    flowsteer::driver::IceArfs::Options opt;
    opt.full_walk_min_entries = 0;
    watched.ice = flowsteer::driver::IceArfs(opt, &watched.fdir);
  }
  CountingKernel full_k(full.k), watched_k(watched.k);
  Rig* rigs[2] = {&full, &watched};
  for (Rig* r : rigs) r->k.store_rps_flow_cnt(5, 64);  // two table sizes (windows 160, 640)

  // 120 flows in 32 buckets (several entries per bucket), a fifth UDP; tables of 16 and 64
  // slots, so flows share slots and steer each other's filters away.
  std::vector<TestFlow> flows;
  for (int i = 0; i < 120; ++i) {
    uint32_t h = (rng() & ~1023u) | (rng() % 32);
    if (h == 0) h = 1;
    flows.push_back({h, i % 5 == 0 ? udp4(i) : tcp4(i), uint16_t(rng() % 6)});
  }
  auto rand = [&](uint32_t n) { return uint32_t(rng() % n); };
  uint64_t now_ms = 0;
  int syncs = 0;
  for (int step = 0; step < steps; ++step) {
    const uint32_t op = rand(1000);
    if (op < 600) {  // a packet (netif_rx for a tenth), after the app's recvmsg on its CPU
      TestFlow& f = flows[rand(uint32_t(flows.size()))];
      const bool rx = rand(10) == 0;
      const uint32_t cur = rand(6);
      RxDecision d[2];
      for (int i = 0; i < 2; ++i) {
        Rig& r = *rigs[i];
        r.k.rps_record_sock_flow(f.hash, f.app_cpu);
        Skb s = make_skb(f.hash, r.fdir.arrival_queue(f.tuple, int(f.hash % 6)), f.tuple);
        d[i] = rx ? r.k.netif_rx(s, cur) : r.k.netif_receive_skb(s);
      }
      ASSERT_EQ(d[0].cpu, d[1].cpu) << "step " << step;
      ASSERT_EQ(d[0].steer.rc, d[1].steer.rc) << "step " << step;
    } else if (op < 680) {  // the app thread moves
      flows[rand(uint32_t(flows.size()))].app_cpu = uint16_t(rand(8));
    } else if (op < 850) {  // backlog processing: part of it, all of it, or a long stretch
      const uint32_t c = rand(8), how = rand(10);
      const uint32_t backlog = full.k.tail(c) - full.k.head(c);
      const uint32_t part = rand(backlog + 1), far = 100 + rand(700);
      for (Rig* r : rigs) {
        if (how < 5) r->k.input_queue_head_add(c, part);
        else if (how < 9) r->k.drain(c);
        else r->k.input_queue_head_add(c, far);  // past the tail too
      }
    } else if (op < 860) {  // close
      const TestFlow& f = flows[rand(uint32_t(flows.size()))];
      for (Rig* r : rigs) r->k.sock_rps_delete_flow(f.hash);
    } else if (op < 864) {  // test hooks and knobs (each one starts the tracker over)
      const uint32_t which = rand(6), q = rand(6), x = rand(16);
      const uint32_t a = rng(), b = rng();
      for (Rig* r : rigs) {
        switch (which) {
          case 0: r->k.flow_table(q)->flows[x] = {uint16_t(a % 8), uint16_t(b % 64), a, b}; break;
          case 1: r->k.set_backlog_counters(q, a, a + b % 50); break;
          case 2: r->k.set_slot_mode(a & 1 ? SlotMode::kMask : SlotMode::kLog); break;
          case 3: r->k.set_nr_cpu_ids(a & 1 ? 8 : 6); break;
          case 4: r->k.store_rps_flow_cnt(q, a & 1 ? 16 : 64); break;
          default: r->k.set_cpu_online(q, a & 1); break;
        }
      }
    } else if (op < 866) {  // a failed wrapper allocation (case 31)
      for (Rig* r : rigs) r->ice.fail_wrapper_allocs(1);
    } else if (op < 870) {  // ids come round again (case 30): two live entries share one
      const int32_t id = int32_t(rand(40));
      for (Rig* r : rigs) r->ice.set_last_fltr_id(id);
    } else if (op < 930) {  // one service-task run
      now_ms += rand(1500);
      SyncResult a = full.ice.ice_sync_arfs_fltrs(now_ms, full_k);
      SyncResult b = watched.ice.ice_sync_arfs_fltrs(now_ms, watched_k);
      ++syncs;
      ASSERT_EQ(a.deleted, b.deleted) << "sync " << syncs << " step " << step;
      ASSERT_EQ(a.deleted_seq, b.deleted_seq) << "sync " << syncs << " step " << step;
      ASSERT_EQ(a.added, b.added) << "sync " << syncs << " step " << step;
    }
    // else: nothing happens this step
  }
  const auto& ca = full.ice.counters();
  const auto& cb = watched.ice.counters();
  EXPECT_EQ(ca.steer_c, cb.steer_c);
  EXPECT_EQ(ca.steer_l, cb.steer_l);
  EXPECT_EQ(ca.add, cb.add);
  EXPECT_EQ(ca.del, cb.del);
  EXPECT_GT(ca.del, 100u);  // the walk did delete, through both kinds of expiry
  auto ea = full.ice.entries(), eb = watched.ice.entries();
  ASSERT_EQ(ea.size(), eb.size());
  for (size_t i = 0; i < ea.size(); ++i) {
    EXPECT_EQ(ea[i].bucket, eb[i].bucket);
    EXPECT_EQ(ea[i].entry->fltr_info.fltr_id, eb[i].entry->fltr_info.fltr_id);
    EXPECT_EQ(ea[i].entry->fltr_state, eb[i].entry->fltr_state);
  }
  EXPECT_EQ(full_k.t, nullptr);  // the full walk never saw a tracker
  if (!switch_modes) {
    EXPECT_LT(watched_k.asked * 2, full_k.asked) << "the tracker saved few calls";
  }
  std::printf("[ seed %u %s ] %d syncs, %llu deletes, rps_may_expire_flow answers: %llu asked "
              "about every entry, %llu watched\n",
              seed, flowsteer::kernel::variant_name(v), syncs, (unsigned long long)ca.del,
              (unsigned long long)full_k.asked, (unsigned long long)watched_k.asked);
}

uint32_t test_seed() { return flowsteer::test::test_seed(0x3A7C11u); }

}  // namespace

TEST(IceWatchedWalk, SameListsAsAskingEveryEntryOriginal) {
  run_random_walk(Variant::kOriginal, test_seed(), 200000, false);
}

TEST(IceWatchedWalk, SameListsAsAskingEveryEntryPatched) {
  run_random_walk(Variant::kPatched, test_seed() + 1, 200000, false);
}

TEST(IceWatchedWalk, SameListsAcrossFullWalks) {
  run_random_walk(Variant::kOriginal, test_seed() + 2, 200000, true);
}
