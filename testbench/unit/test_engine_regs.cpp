// The register-level golden model and the register-level driver on top of it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/runs/device_run.h"

using namespace flowsteer;
using bus::AxiResp;
namespace r = flowsteer::regs;

namespace {

engine::EngineCaps small_caps() {
  engine::EngineCaps c;
  c.lut_log2 = 7;
  c.cpu_log2 = 4;
  c.queue_log2 = 4;
  c.slot_log2 = 10;
  c.flt_bucket_bits = 6;
  c.sock_log2 = 12;
  c.evt_log2 = 5;
  c.rps_pool_log2 = 6;
  return c;
}

uint32_t rd(engine::EngineRegisterFile& f, uint32_t a) {
  uint32_t v = 0;
  EXPECT_EQ(f.read(a, v), AxiResp::kOkay) << std::hex << a;
  return v;
}

}  // namespace

TEST(EngineRegs, IdentityAndCaps) {
  engine::EngineRegisterFile f(small_caps());
  EXPECT_EQ(rd(f, r::ID::kAddr), 0x46535445u);
  EXPECT_EQ(r::VERSION::MAJOR.get(rd(f, r::VERSION::kAddr)), 1u);
  EXPECT_EQ(r::CAPS0::CPU_LOG2.get(rd(f, r::CAPS0::kAddr)), 4u);
  EXPECT_EQ(r::CAPS1::EVT_LOG2.get(rd(f, r::CAPS1::kAddr)), 5u);
  EXPECT_EQ(rd(f, r::CTRL::kAddr), r::CTRL::kReset);
  EXPECT_EQ(rd(f, r::NR_CPU_IDS::kAddr), 1u);
}

TEST(EngineRegs, BadAddressesAndValuesAnswerSlverrAndChangeNothing) {
  engine::EngineRegisterFile f(small_caps());
  uint32_t v = 123;
  EXPECT_EQ(f.read(0x003C, v), AxiResp::kSlvErr);  // a hole in GLOB
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(f.write(0xFFFC, 1), AxiResp::kSlvErr);
  EXPECT_EQ(f.read(0x0002, v), AxiResp::kSlvErr);  // misaligned
  EXPECT_EQ(f.write(r::RMAP::addr(16), 0), AxiResp::kSlvErr);  // past 2^CPU_LOG2
  EXPECT_EQ(f.read(r::LUT::addr(128), v), AxiResp::kSlvErr);   // past 2^LUT_LOG2
  EXPECT_EQ(f.write(r::NR_CPU_IDS::kAddr, 0), AxiResp::kSlvErr);
  EXPECT_EQ(f.write(r::NR_CPU_IDS::kAddr, 17), AxiResp::kSlvErr);
  EXPECT_EQ(rd(f, r::NR_CPU_IDS::kAddr), 1u);
  EXPECT_EQ(f.write(r::HASH_CFG::kAddr, 3), AxiResp::kSlvErr);
  EXPECT_EQ(f.write(r::LUT::addr(0), 16), AxiResp::kSlvErr);  // queue >= 2^QUEUE_LOG2
  EXPECT_EQ(f.write(r::RPS_FLOW_CNT::addr(0), r::RPS_FLOW_CNT::LOG2.put(11) | r::RPS_FLOW_CNT::PRESENT.put(1)),
            AxiResp::kSlvErr);  // above SLOT_LOG2
  EXPECT_EQ(f.model().kernel().flow_table(0), nullptr);
  EXPECT_EQ(f.write(r::SOCK_CMD::kAddr, 1), AxiResp::kSlvErr);  // no sock table yet
}

TEST(EngineDriver, BacklogDrainTakesHeadToTailInOneWrite) {
  engine::EngineRegisterFile f(small_caps());
  driver::EngineDriver drv(f);
  driver::EngineSetup s;
  s.rps_flow_cnt = 16;
  drv.configure(s);
  const FlowTuple t = make_tuple("192.0.2.1", "198.51.100.7", 1000, 80);
  const auto frame = nic::build_frame(t);
  drv.rps_record_sock_flow(f.model().rss().hash_tuple(t, true), 5);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(f.packet(frame.data(), frame.size()));
  const uint32_t head = drv.head(5), tail = drv.tail(5);
  EXPECT_EQ(tail - head, 3u);  // the flow's three packets wait on CPU 5
  drv.drain_backlog(5);
  EXPECT_EQ(drv.head(5), tail);
  EXPECT_EQ(drv.tail(5), tail);
  // a CPU past the implemented 16: SLVERR, nothing moves
  EXPECT_EQ(f.write(r::BACKLOG_DRAIN::kAddr, 16), AxiResp::kSlvErr);
  EXPECT_EQ(f.write(r::BACKLOG_DRAIN::kAddr, 5), AxiResp::kOkay);  // already empty
  EXPECT_EQ(drv.head(5), tail);
}

TEST(EngineRegs, AccessKinds) {
  engine::EngineRegisterFile f(small_caps());
  EXPECT_EQ(f.write(r::ID::kAddr, 0), AxiResp::kOkay);  // RO: ignored
  EXPECT_EQ(rd(f, r::ID::kAddr), 0x46535445u);
  EXPECT_EQ(f.write(r::HEAD_ADD::addr(3), 5), AxiResp::kOkay);
  EXPECT_EQ(rd(f, r::HEAD_ADD::addr(3)), 0u);  // WO reads 0
  EXPECT_EQ(rd(f, r::HEAD::addr(3)), 5u);
  EXPECT_EQ(f.write(r::SCRATCH::kAddr, 0x11223344), AxiResp::kOkay);
  EXPECT_EQ(f.write(r::SCRATCH::kAddr, 0xAABBCCDD, 0b0101), AxiResp::kOkay);  // bytes 0 and 2
  EXPECT_EQ(rd(f, r::SCRATCH::kAddr), 0x11BB33DDu);
  EXPECT_EQ(f.write(r::CTRL::kAddr, 0xFFFFFFFF), AxiResp::kOkay);
  EXPECT_EQ(rd(f, r::CTRL::kAddr), r::CTRL::ENABLE.mask() | 0x7Eu);  // only field bits stick
}

TEST(EngineRegs, CounterHighWordIsLatchedByTheLowRead) {
  engine::EngineRegisterFile f(small_caps());
  ASSERT_EQ(f.write(r::CTRL::kAddr, r::CTRL::kReset | r::CTRL::ENABLE.mask()), AxiResp::kOkay);
  auto frame = nic::build_frame(make_tuple("10.0.0.1", "10.0.0.2", 1, 2));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(f.packet(frame.data(), frame.size()));
  EXPECT_EQ(rd(f, r::CNT_LO::addr(uint32_t(r::Counter::kPkts))), 3u);
  EXPECT_EQ(rd(f, r::CNT_HI::addr(uint32_t(r::Counter::kPkts))), 0u);
  EXPECT_EQ(rd(f, r::CNT_LO::addr(uint32_t(r::Counter::kParseClass0))), 3u);  // ipv4-tcp
  ASSERT_EQ(f.write(r::CNT_CLEAR::kAddr, 1), AxiResp::kOkay);
  EXPECT_EQ(rd(f, r::CNT_LO::addr(uint32_t(r::Counter::kPkts))), 0u);
  ASSERT_EQ(f.write(r::CTRL::kAddr, r::CTRL::kReset), AxiResp::kOkay);
  EXPECT_FALSE(f.packet(frame.data(), frame.size()));  // disabled: the stream waits
}

TEST(EngineRegs, HostFilterCommands) {
  engine::EngineRegisterFile f(small_caps());
  // 192.0.2.1:1000 -> 198.51.100.7:80 tcp as FLT_* operands
  ASSERT_EQ(f.write(r::FLT_SRC::addr(0), 0xC0000201), AxiResp::kOkay);
  ASSERT_EQ(f.write(r::FLT_DST::addr(0), 0xC6336407), AxiResp::kOkay);
  ASSERT_EQ(f.write(r::FLT_PORTS::kAddr, r::FLT_PORTS::SPORT.put(1000) | r::FLT_PORTS::DPORT.put(80)), AxiResp::kOkay);
  ASSERT_EQ(f.write(r::FLT_META::kAddr, r::FLT_META::PROTO.put(6)), AxiResp::kOkay);
  ASSERT_EQ(f.write(r::FLT_ID::kAddr, 42), AxiResp::kOkay);
  ASSERT_EQ(f.write(r::FLT_QUEUE::kAddr, 3), AxiResp::kOkay);
  auto cmd = [&](r::FilterOp op) {
    EXPECT_EQ(f.write(r::FLT_CMD::kAddr, uint32_t(op)), AxiResp::kOkay);
    uint32_t s = rd(f, r::FLT_STATUS::kAddr);
    EXPECT_TRUE(r::FLT_STATUS::DONE.get(s));
    return r::FilterErr(r::FLT_STATUS::ERR.get(s));
  };
  EXPECT_EQ(cmd(r::FilterOp::kInsert), r::FilterErr::kOk);
  EXPECT_EQ(rd(f, r::FLT_COUNT::kAddr), 1u);
  ASSERT_EQ(f.write(r::FLT_ID::kAddr, 43), AxiResp::kOkay);
  EXPECT_EQ(cmd(r::FilterOp::kInsert), r::FilterErr::kExists);
  EXPECT_EQ(rd(f, r::FLT_RESULT::kAddr), r::FLT_RESULT::ID.put(42) | r::FLT_RESULT::QUEUE.put(3));
  EXPECT_EQ(cmd(r::FilterOp::kLookup), r::FilterErr::kOk);
  auto t = make_tuple("192.0.2.1", "198.51.100.7", 1000, 80);
  ASSERT_TRUE(f.model().filters().lookup(t));
  EXPECT_EQ(f.model().filters().lookup(t)->id, 42u);
  EXPECT_EQ(cmd(r::FilterOp::kDelete), r::FilterErr::kNotFound);  // id 43 is not there
  EXPECT_EQ(cmd(r::FilterOp(9)), r::FilterErr::kBadOp);
  EXPECT_EQ(cmd(r::FilterOp::kClear), r::FilterErr::kOk);
  EXPECT_EQ(rd(f, r::FLT_COUNT::kAddr), 0u);
}

TEST(EngineDriver, RefusesWhatIsNotAnEngineAndOversizedKnobs) {
  engine::EngineRegisterFile f(small_caps());
  driver::EngineDriver drv(f);
  EXPECT_EQ(drv.caps().cpu_log2, 4u);
  driver::EngineSetup s;
  s.nr_cpu_ids = 17;
  EXPECT_THROW(drv.configure(s), std::invalid_argument);
  s.nr_cpu_ids = 16;
  s.rps_flow_cnt = 2000;  // rounds up to 2048 > 2^10
  EXPECT_THROW(drv.configure(s), std::invalid_argument);
  s.rps_flow_cnt = 1000;  // rounds up to 1024 (spec 1.1)
  EXPECT_THROW(drv.configure(s), std::invalid_argument);  // 16 x 1024 sock entries > 2^12
  s.rps_sock_flow_entries = 3000;                          // rounds up to 4096
  drv.configure(s);
  EXPECT_EQ(f.model().kernel().flow_table(5)->size(), 1024u);
}

// The same seed scenario through (a) the model directly and (b) registers: the runtime
// must see the same events, delete the same filters and count the same.
TEST(EngineDriver, RegisterLevelRuntimeEqualsTheDirectModel) {
  engine::EngineRegisterFile f(small_caps());
  driver::EngineDriver drv(f);
  driver::EngineSetup s;
  s.variant = kernel::Variant::kOriginal;
  s.rps_flow_cnt = 16;
  drv.configure(s);
  driver::ArfsRuntime rt_regs(drv);

  engine::EngineParams p;
  p.cpus = 16;
  p.queues = 16;
  p.lut_size = 128;
  p.filter_bucket_bits = 6;
  p.event_fifo_depth = 32;
  p.variant = kernel::Variant::kOriginal;
  engine::EngineModel direct(p);
  direct.set_hash_mode(nic::HashMode::kToeplitzSymXor);
  for (uint32_t q = 0; q < 16; ++q) direct.set_rps_flow_cnt(q, 16);
  direct.set_rps_sock_flow_entries(256);
  driver::ModelEngineControl ctl(direct);
  driver::ArfsRuntime rt_direct(ctl);

  // Two flows whose apps run on CPU 5 and whose hashes share a slot of queue 5's table.
  std::vector<std::vector<uint8_t>> frames;
  std::vector<uint32_t> hashes;
  for (uint16_t sport = 1000; frames.size() < 2 && sport < 60000; ++sport) {
    FlowTuple t = make_tuple("192.0.2.1", "198.51.100.7", sport, 80);
    uint32_t h = direct.rss().hash_tuple(t, true);
    if (direct.rss().queue(h) == 5) continue;
    if (!hashes.empty() && (hash::hash_32(h, 4) != hash::hash_32(hashes[0], 4) || (h & 255) == (hashes[0] & 255)))
      continue;
    hashes.push_back(h);
    frames.push_back(nic::build_frame(t));
  }
  ASSERT_EQ(frames.size(), 2u);
  uint64_t now = 0;
  for (int round = 0; round < 8; ++round) {
    for (size_t i = 0; i < 2; ++i) {
      drv.rps_record_sock_flow(hashes[i], 5);
      direct.sock_record(hashes[i], 5);
      auto a = f.packet(frames[i].data(), frames[i].size());
      auto b = direct.packet(frames[i].data(), frames[i].size());
      ASSERT_TRUE(a);
      EXPECT_EQ(*a, b) << "round " << round << " flow " << i;
    }
    drv.head_add(5, 2);
    direct.head_add(5, 2);
    auto x = rt_regs.sync(now += 10), y = rt_direct.sync(now);
    EXPECT_EQ(x.deleted, y.deleted) << "round " << round;
  }
  EXPECT_EQ(rt_regs.counters().add, rt_direct.counters().add);
  EXPECT_EQ(rt_regs.counters().del, rt_direct.counters().del);
  EXPECT_EQ(rt_regs.counters().steer_c, rt_direct.counters().steer_c);
  EXPECT_GE(rt_regs.counters().del, 5u);  // the original's add/delete cycle ran
  EXPECT_EQ(drv.tail(5), direct.kernel().tail(5));
}

TEST(DeviceRun, ModelBackendCountsAddUp) {
  engine::EngineRegisterFile regs(small_caps());
  driver::EngineSetup setup;
  setup.rps_flow_cnt = 64;
  runs::DeviceWorkload w;
  w.flows = 200;
  w.duration_s = 2.5;
  auto rep = runs::run_device(regs, setup, w, [&](const uint8_t* f, size_t n, engine::OutputRecord* rec) {
    auto r = regs.packet(f, n);
    if (r) *rec = *r;
    return bool(r);
  });
  using C = r::Counter;
  uint64_t frames = rep.counters[size_t(C::kPkts)];
  uint64_t per_queue = 0;
  for (auto n : rep.queue_packets) per_queue += n;
  EXPECT_EQ(per_queue, frames);
  EXPECT_GT(frames, 40000u);  // 200 flows x ~100 frames/s x 2.5 s
  EXPECT_EQ(rep.runtime.add, rep.counters[size_t(C::kSteerAdds)]);
  EXPECT_EQ(rep.runtime.del, rep.counters[size_t(C::kFltDeletes)]);
  EXPECT_EQ(rep.runtime.steer_c, rep.counters[size_t(C::kSteerCalls)]);
  EXPECT_GT(rep.counters[size_t(C::kFltHits)], frames / 2);  // most traffic follows its filter
  EXPECT_GE(rep.syncs, 2u);
}

TEST(DeviceRun, CliExitCodes) {
  char self[4096] = {0};
  ASSERT_GT(readlink("/proc/self/exe", self, sizeof self - 1), 0);
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  std::string bin = dir.substr(0, dir.rfind('/')) + "/flowsteer";
  if (access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "flowsteer binary not built at " << bin;
  auto run = [&](const std::string& args) {
    int rc = std::system((bin + " device " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  };
  EXPECT_EQ(run("--flows 50 --cpus 4 --duration-s 1"), 0);
  EXPECT_EQ(run("--backend xrt"), 2);                             // no --xclbin
  EXPECT_EQ(run("--backend xrt --xclbin /nonexistent.xclbin"), 2);
  EXPECT_EQ(run("--cpus 300"), 2);                                // above the engine's 2^8 CPUs
  EXPECT_EQ(run("--backend verilog"), 2);
}
