// The kernel's knobs as the register-level driver validates them (spec 1.1): sysfs
// rps_flow_cnt, sysctl rps_sock_flow_entries, rps_record_sock_flow, the batched head
// advance. Each rule once, on the golden register model (the engine's capacity from CAPS).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"

using namespace flowsteer;
using driver::KnobError;
namespace r = flowsteer::regs;

namespace {

engine::EngineCaps caps() {
  engine::EngineCaps c;
  c.lut_log2 = 7;
  c.cpu_log2 = 4;    // 16 CPUs
  c.queue_log2 = 3;  // 8 queues
  c.slot_log2 = 10;  // 1024 slots per queue
  c.flt_bucket_bits = 6;
  c.sock_log2 = 12;  // 4096 sock entries
  c.evt_log2 = 5;
  c.rps_pool_log2 = 6;
  return c;
}

struct Rig {
  engine::EngineRegisterFile regs{caps()};
  driver::EngineDriver drv{regs};
  explicit Rig(uint64_t flow_cnt = 16, uint64_t sock = 256) {
    driver::EngineSetup s;
    s.nr_cpu_ids = 6;  // rps_cpu_mask 7
    s.num_rx_queues = 4;
    s.rps_flow_cnt = flow_cnt;
    s.rps_sock_flow_entries = sock;
    drv.configure(s);
  }
  const kernel::Kernel& k() { return regs.model().kernel(); }
  uint32_t reg(uint32_t a) {
    uint32_t v = 0;
    EXPECT_EQ(regs.read(a, v), bus::AxiResp::kOkay);
    return v;
  }
  // One frame of a TCP flow into the engine; its record.
  engine::OutputRecord frame(uint16_t sport) {
    auto f = nic::build_frame(make_tuple("192.0.2.1", "198.51.100.7", sport, 80));
    auto rec = regs.packet(f.data(), f.size());
    EXPECT_TRUE(rec);
    return rec ? *rec : engine::OutputRecord{};
  }
};

// The refusal: its errno, one line, and what the message must name.
template <class F>
void expect_refused(F f, int err, std::initializer_list<std::string> words) {
  try {
    f();
    ADD_FAILURE() << "accepted";
  } catch (const KnobError& e) {
    EXPECT_EQ(e.err(), err) << e.what();
    std::string w = e.what();
    EXPECT_EQ(w.find('\n'), std::string::npos) << w;
    for (const auto& word : words) EXPECT_NE(w.find(word), std::string::npos) << "'" << word << "' not in: " << w;
  }
}

}  // namespace

TEST(RuntimeKnobs, RpsFlowCntRoundsUpToAPowerOfTwo) {
  Rig rig;
  const std::pair<uint64_t, uint64_t> cases[] = {{1, 1}, {2, 2}, {3, 4}, {5, 8}, {16, 16}, {17, 32},
                                                 {1000, 1024}, {1024, 1024}};
  for (auto [count, size] : cases) {
    EXPECT_EQ(rig.drv.set_rps_flow_cnt(2, count), size) << count;
    EXPECT_EQ(rig.drv.rps_flow_cnt(2), size) << count;
    ASSERT_TRUE(rig.k().flow_table(2)) << count;
    EXPECT_EQ(rig.k().flow_table(2)->size(), size) << count;
  }
  EXPECT_EQ(rig.k().flow_table(1)->size(), 16u);  // other queues untouched
}

TEST(RuntimeKnobs, RpsFlowCntZeroRemovesTheTable) {
  Rig rig;
  ASSERT_TRUE(rig.k().flow_table(3));
  EXPECT_EQ(rig.drv.set_rps_flow_cnt(3, 0), 0u);
  EXPECT_EQ(rig.k().flow_table(3), nullptr);
  EXPECT_EQ(rig.drv.rps_flow_cnt(3), 0u);
  EXPECT_EQ(rig.drv.set_rps_flow_cnt(3, 7), 8u);  // and comes back
  EXPECT_EQ(rig.k().flow_table(3)->size(), 8u);
}

TEST(RuntimeKnobs, RpsFlowCntStoreIsANewTable) {
  Rig rig;
  rig.drv.rps_record_sock_flow(rig.frame(1000).hash, 5);
  ASSERT_EQ(rig.frame(1000).cpu, 5);  // the flow now owns a slot in one queue's table
  auto used = [&](uint32_t q) {
    size_t n = 0;
    for (const auto& s : rig.k().flow_table(q)->flows) n += s.cpu != kernel::RPS_NO_CPU;
    return n;
  };
  uint32_t q = 0;
  while (q < 4 && used(q) == 0) ++q;
  ASSERT_LT(q, 4u);
  EXPECT_EQ(used(q), 1u);
  rig.drv.set_rps_flow_cnt(q, 16);  // same size: still a fresh table (spec 1.1)
  EXPECT_EQ(used(q), 0u);
}

TEST(RuntimeKnobs, RpsFlowCntAboveTheEngineIsENOMEMAndChangesNothing) {
  Rig rig;
  expect_refused([&] { rig.drv.set_rps_flow_cnt(1, 1025); }, -ENOMEM, {"1025", "2048", "1024", "rx-1"});
  EXPECT_EQ(rig.k().flow_table(1)->size(), 16u);
  EXPECT_EQ(rig.drv.set_rps_flow_cnt(1, 1024), 1024u);  // the largest the engine holds
}

TEST(RuntimeKnobs, RpsFlowCntMaskMustFit32Bits) {
  Rig rig;
  // 2^32 + 1 rounds up to 2^33: the u32 mask cannot hold it; the kernel says -EINVAL before
  // any allocation, so that comes before the engine's capacity.
  expect_refused([&] { rig.drv.set_rps_flow_cnt(0, (uint64_t(1) << 32) + 1); }, -EINVAL, {"32 bits"});
  expect_refused([&] { rig.drv.set_rps_flow_cnt(0, UINT64_MAX); }, -EINVAL, {"18446744073709551615"});
  expect_refused([&] { rig.drv.set_rps_flow_cnt(0, uint64_t(1) << 32); }, -ENOMEM, {"4294967296"});
  EXPECT_EQ(rig.k().flow_table(0)->size(), 16u);
}

TEST(RuntimeKnobs, RpsFlowCntOfAQueueTheDeviceLacksIsENOENT) {
  Rig rig;  // 4 RX queues in use, the engine has 8
  expect_refused([&] { rig.drv.set_rps_flow_cnt(4, 16); }, -ENOENT, {"rx-4", "4 RX queues"});
  EXPECT_EQ(rig.k().flow_table(4), nullptr);
}

TEST(RuntimeKnobs, ConfigureChecksEverythingBeforeWriting) {
  Rig rig;
  const uint32_t ctrl = rig.reg(r::CTRL::kAddr);
  driver::EngineSetup s;
  s.nr_cpu_ids = 6;
  s.num_rx_queues = 4;
  s.rps_flow_cnt = 2048;  // above 2^10
  expect_refused([&] { rig.drv.configure(s); }, -ENOMEM, {"2048"});
  s.rps_flow_cnt = 256;  // 6 x 256 = 1536 sock entries fine; ask for too many explicitly
  s.rps_sock_flow_entries = 5000;  // rounds up to 8192 > 2^12
  expect_refused([&] { rig.drv.configure(s); }, -ENOMEM, {"5000", "8192", "4096"});
  EXPECT_EQ(rig.reg(r::CTRL::kAddr), ctrl);  // still enabled, nothing rewritten
  EXPECT_EQ(rig.reg(r::NR_CPU_IDS::kAddr), 6u);
  EXPECT_EQ(rig.k().flow_table(0)->size(), 16u);
  // The default sock table is nr_cpu_ids x the rounded count: 6 x 256 -> 2048 entries.
  s.rps_sock_flow_entries = 0;
  s.rps_flow_cnt = 200;
  rig.drv.configure(s);
  EXPECT_EQ(rig.drv.rps_sock_flow_entries(), 2048u);
  EXPECT_EQ(rig.k().flow_table(0)->size(), 256u);
}

TEST(RuntimeKnobs, SockFlowEntriesRoundUpAndRecomputeTheCpuMask) {
  Rig rig;
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(3000), 4096u);
  ASSERT_TRUE(rig.k().sock_table());
  EXPECT_EQ(rig.k().sock_table()->mask, 4095u);
  EXPECT_EQ(rig.drv.rps_cpu_mask(), 7u);  // roundup_pow_of_two(6) - 1
  EXPECT_EQ(rig.reg(r::RPS_CPU_MASK::kAddr), 7u);
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(1), 1u);
  EXPECT_EQ(rig.k().sock_table()->mask, 0u);
}

TEST(RuntimeKnobs, SockFlowEntriesZeroRemovesTheTable) {
  Rig rig;
  const uint32_t h = rig.frame(1000).hash;
  ASSERT_TRUE(rig.drv.rps_record_sock_flow(h, 1));
  ASSERT_EQ(rig.frame(1000).cpu, 1);
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(0), 0u);
  EXPECT_EQ(rig.k().sock_table(), nullptr);
  EXPECT_EQ(rig.drv.rps_sock_flow_entries(), 0u);
  EXPECT_FALSE(rig.drv.rps_record_sock_flow(h, 1));  // nothing to record into
  EXPECT_EQ(rig.frame(1000).cpu, -1);                 // RFS finds no CPU (no rps_map either)
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(100), 128u);
  EXPECT_EQ(rig.k().sock_table()->mask, 127u);
  EXPECT_TRUE(rig.drv.rps_record_sock_flow(h, 1));
  EXPECT_EQ(rig.frame(1000).cpu, 1);
}

TEST(RuntimeKnobs, SockFlowEntriesLimits) {
  Rig rig;
  // Above 2^29 is the kernel's -EINVAL, whatever the engine; 2^29 itself passes the kernel's
  // check and is then too large for this engine (2^12).
  expect_refused([&] { rig.drv.set_rps_sock_flow_entries((1u << 29) + 1); }, -EINVAL, {"536870913", "2^29"});
  expect_refused([&] { rig.drv.set_rps_sock_flow_entries(UINT64_MAX); }, -EINVAL, {"2^29"});
  expect_refused([&] { rig.drv.set_rps_sock_flow_entries(1u << 29); }, -ENOMEM, {"536870912", "4096"});
  expect_refused([&] { rig.drv.set_rps_sock_flow_entries(4097); }, -ENOMEM, {"4097", "8192"});
  EXPECT_EQ(rig.k().sock_table()->mask, 255u);  // unchanged
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(4096), 4096u);
}

// rps_sock_flow_sysctl resets every entry to RPS_NO_CPU on every non-zero write, the same
// size included (spec 1.1); the driver must write and then know the table is clear.
TEST(RuntimeKnobs, SockFlowEntriesEveryWriteResetsTheEntries) {
  Rig rig;
  const uint32_t h = 0xABCD1235;  // index 0x35 of 256
  const uint32_t want = (h & ~7u) | 4;
  ASSERT_TRUE(rig.drv.rps_record_sock_flow(h, 4));
  EXPECT_EQ(rig.k().sock_table()->ents[h & 255], want);
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(200), 256u);  // rounds to the same size
  EXPECT_EQ(rig.k().sock_table()->mask, 255u);
  EXPECT_EQ(rig.k().sock_table()->ents[h & 255], kernel::RPS_NO_CPU);
  EXPECT_TRUE(rig.drv.rps_record_sock_flow(h, 4));  // the driver knows the table was cleared
  EXPECT_EQ(rig.k().sock_table()->ents[h & 255], want);
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(256), 256u);  // the exact same value
  EXPECT_EQ(rig.k().sock_table()->ents[h & 255], kernel::RPS_NO_CPU);
  EXPECT_TRUE(rig.drv.rps_record_sock_flow(h, 4));
  EXPECT_EQ(rig.drv.set_rps_sock_flow_entries(512), 512u);
  EXPECT_EQ(rig.k().sock_table()->ents[h & 511], kernel::RPS_NO_CPU);
  EXPECT_TRUE(rig.drv.rps_record_sock_flow(h, 4));
  EXPECT_EQ(rig.k().sock_table()->ents[h & 511], want);
}

// The golden kernel alone: the same-size write resets the recorded flows too.
TEST(RuntimeKnobs, KernelSockFlowSameSizeWriteResets) {
  kernel::Kernel k(kernel::KernelConfig{});
  ASSERT_EQ(k.set_rps_sock_flow_entries(256), 0);
  const uint32_t h = 0x12345678;
  k.rps_record_sock_flow(h, 3);
  ASSERT_NE(k.sock_table()->ents[h & 255], kernel::RPS_NO_CPU);
  ASSERT_EQ(k.set_rps_sock_flow_entries(256), 0);
  EXPECT_EQ(k.sock_table()->ents[h & 255], kernel::RPS_NO_CPU);
}

TEST(RuntimeKnobs, RecordSockFlowWritesOnlyWhatChanges) {
  engine::EngineRegisterFile regs{caps()};
  device::PortBus bus(regs, nullptr);  // counts the accesses
  driver::EngineDriver drv(bus);
  driver::EngineSetup s;
  s.nr_cpu_ids = 6;
  s.num_rx_queues = 4;
  s.rps_flow_cnt = 16;
  s.rps_sock_flow_entries = 256;
  drv.configure(s);
  const auto& k = regs.model().kernel();
  const uint32_t h = 0x00C0FFEE;
  uint64_t a0 = bus.accesses();
  EXPECT_TRUE(drv.rps_record_sock_flow(h, 2));
  EXPECT_EQ(k.sock_table()->ents[h & 255], (h & ~7u) | 2);
  EXPECT_GT(bus.accesses(), a0);
  a0 = bus.accesses();
  EXPECT_FALSE(drv.rps_record_sock_flow(h, 2));  // same value: no store (spec 1.1)
  EXPECT_EQ(bus.accesses(), a0);
  EXPECT_TRUE(drv.rps_record_sock_flow(h, 3));   // the app moved
  EXPECT_EQ(k.sock_table()->ents[h & 255], (h & ~7u) | 3);
  a0 = bus.accesses();
  EXPECT_FALSE(drv.rps_record_sock_flow(0, 3));  // sk_rxhash 0: nothing recorded
  EXPECT_EQ(bus.accesses(), a0);
}

TEST(RuntimeKnobs, RecordSockFlowOnACpuBeyondNrCpuIdsIsEINVAL) {
  Rig rig;
  expect_refused([&] { rig.drv.rps_record_sock_flow(0x1234, 6); }, -EINVAL, {"CPU 6", "nr_cpu_ids is 6"});
  for (uint32_t e : rig.k().sock_table()->ents) EXPECT_EQ(e, kernel::RPS_NO_CPU);
  EXPECT_TRUE(rig.drv.rps_record_sock_flow(0x1234, 5));
}

TEST(RuntimeKnobs, HeadAdvanceStaysBehindTheTail) {
  Rig rig;
  rig.drv.rps_record_sock_flow(rig.frame(2000).hash, 3);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(rig.frame(2000).cpu, 3);
  const uint32_t tail = rig.drv.tail(3), head = rig.drv.head(3);
  ASSERT_EQ(tail - head, 5u);
  rig.drv.head_add(3, 2);
  EXPECT_EQ(rig.drv.head(3), head + 2);
  expect_refused([&] { rig.drv.head_add(3, 4); }, -EINVAL, {"CPU 3", "backlog 3"});
  EXPECT_EQ(rig.drv.head(3), head + 2);  // unchanged
  rig.drv.head_add(3, 0);                // nothing processed: nothing written
  EXPECT_EQ(rig.drv.head(3), head + 2);
  EXPECT_EQ(rig.drv.process_backlog(3), 3u);
  EXPECT_EQ(rig.drv.head(3), tail);
  EXPECT_EQ(rig.drv.process_backlog(3), 0u);
  expect_refused([&] { rig.drv.head_add(6, 1); }, -EINVAL, {"CPU 6"});
}

TEST(RuntimeKnobs, HeadAdvanceAcrossTheU32Wrap) {
  Rig rig;
  rig.regs.model().kernel_plane().set_backlog_counters(2, 0xFFFFFFFEu, 0xFFFFFFFEu);
  rig.drv.rps_record_sock_flow(rig.frame(3000).hash, 2);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(rig.frame(3000).cpu, 2);
  EXPECT_EQ(rig.drv.tail(2), 2u);  // wrapped
  expect_refused([&] { rig.drv.head_add(2, 5); }, -EINVAL, {"backlog 4"});
  rig.drv.head_add(2, 3);
  EXPECT_EQ(rig.drv.head(2), 1u);
  EXPECT_EQ(rig.drv.process_backlog(2), 1u);
  EXPECT_EQ(rig.drv.head(2), 2u);
}
