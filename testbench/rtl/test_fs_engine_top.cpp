// Bring-up of fs_engine_top against engine::EngineRegisterFile (the golden register model):
// reset values of GLOB/CAPS, SLVERR cases, frames (TCP v4/v6, UDP, non-IP) with their records
// field by field, a steer in original and patched mode, an event read + pop, counters, a
// host FLT delete; record latency and one packet per clock on the standard build.
// The thorough random conformance suite is sim/verilator + testbench/conformance.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "Vvfs_engine_top.h"
#include "Vvfs_engine_top_small.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"
#include "flowsteer/tuple.h"
#include "engine_params.h"
#include "rtl_sim.h"

namespace {

namespace regs = flowsteer::regs;
namespace eng = flowsteer::engine;
using flowsteer::FlowTuple;
using Frame = std::vector<uint8_t>;

constexpr uint32_t kOkay = 0, kSlverr = 2;

// the small harness build (hw/params.json fs_engine_top set "small")
eng::EngineCaps small_caps() { return FS_ENGINE_CAPS(VFS_ENGINE_TOP_SMALL); }

// one record as taken from the stream; fields through the register map's layout
struct Rec {
  uint32_t w[regs::REC::kWords];
  regs::Rec f() const { return regs::unpack_rec(w); }
  uint32_t cls() const { return uint32_t(f().parse_class); }
  bool hv() const { return f().hash_valid; }
  bool hit() const { return f().filter_hit; }
  bool cpu_valid() const { return f().cpu_valid; }
  uint32_t action() const { return uint32_t(f().action); }
  uint32_t queue() const { return f().queue; }
  uint32_t cpu() const { return f().cpu; }
  uint32_t fid() const { return f().filter_id; }
  uint32_t hash() const { return f().hash; }
  uint32_t rc() const { return uint32_t(f().rc); }
  uint32_t cmd_seq() const { return f().cmd_seq; }
};

template <class Model>
class EngineTb {
 public:
  explicit EngineTb(uint64_t seed) : sim_(seed) {
    auto& d = sim_.dut();
    d.s_axil_awaddr = 0;
    d.s_axil_awprot = 0;
    d.s_axil_awvalid = 0;
    d.s_axil_wdata = 0;
    d.s_axil_wstrb = 0;
    d.s_axil_wvalid = 0;
    d.s_axil_bready = 0;
    d.s_axil_araddr = 0;
    d.s_axil_arprot = 0;
    d.s_axil_arvalid = 0;
    d.s_axil_rready = 0;
    clear_tdata();
    d.s_axis_tkeep = 0;
    d.s_axis_tvalid = 0;
    d.s_axis_tlast = 0;
    d.s_axis_tuser = 0;
    d.m_axis_rec_tready = 1;
    sim_.reset();
  }
  static constexpr int kBytes = sizeof(Model::s_axis_tdata);

  void clear_tdata() { set_beat(nullptr, 0); }
  void set_beat(const uint8_t* b, size_t n) {
    auto& d = sim_.dut();
    if constexpr (kBytes == 8) {
      uint64_t v = 0;
      for (size_t i = 0; i < n; ++i) v |= uint64_t(b[i]) << (8 * i);
      d.s_axis_tdata = v;
    } else {
      for (int w = 0; w < kBytes / 4; ++w) d.s_axis_tdata[w] = 0;
      for (size_t i = 0; i < n; ++i) d.s_axis_tdata[i / 4] |= uint32_t(b[i]) << (8 * (i % 4));
    }
  }

  uint32_t write(uint32_t addr, uint32_t data, uint32_t strb = 0xF) {
    auto& d = sim_.dut();
    d.s_axil_awvalid = 1;
    d.s_axil_awaddr = uint16_t(addr);
    d.s_axil_wvalid = 1;
    d.s_axil_wdata = data;
    d.s_axil_wstrb = uint8_t(strb);
    d.s_axil_bready = 1;
    for (int c = 0; c < 200000; ++c) {
      sim_.settle();
      const bool aw = d.s_axil_awvalid && d.s_axil_awready, w = d.s_axil_wvalid && d.s_axil_wready;
      const bool b = d.s_axil_bvalid;
      const uint32_t resp = d.s_axil_bresp;
      tick();
      if (aw) d.s_axil_awvalid = 0;
      if (w) d.s_axil_wvalid = 0;
      if (b) {
        d.s_axil_bready = 0;
        return resp;
      }
    }
    ADD_FAILURE() << "write timeout " << std::hex << addr;
    return 0xFF;
  }
  std::pair<uint32_t, uint32_t> read(uint32_t addr) {
    auto& d = sim_.dut();
    d.s_axil_arvalid = 1;
    d.s_axil_araddr = uint16_t(addr);
    d.s_axil_rready = 1;
    for (int c = 0; c < 200000; ++c) {
      sim_.settle();
      const bool ar = d.s_axil_arvalid && d.s_axil_arready, r = d.s_axil_rvalid;
      const uint32_t data = d.s_axil_rdata, resp = d.s_axil_rresp;
      tick();
      if (ar) d.s_axil_arvalid = 0;
      if (r) {
        d.s_axil_rready = 0;
        return {data, resp};
      }
    }
    ADD_FAILURE() << "read timeout " << std::hex << addr;
    return {0, 0xFF};
  }
  // one clock; collects records
  void tick() {
    auto& d = sim_.dut();
    sim_.settle();
    if (d.m_axis_rec_tvalid && d.m_axis_rec_tready) {
      Rec r;
      for (uint32_t i = 0; i < regs::REC::kWords; ++i) r.w[i] = d.m_axis_rec_tdata[i];
      recs_.push_back(r);
      rec_cycle_.push_back(sim_.cycles());
    }
    sim_.tick();
  }
  // sends one frame (tuser = user); returns the cycle its last beat was accepted
  uint64_t send(const Frame& f, uint16_t user) {
    auto& d = sim_.dut();
    size_t off = 0;
    uint64_t at = 0;
    for (int c = 0; c < 100000 && off < f.size(); ++c) {
      const size_t n = std::min<size_t>(kBytes, f.size() - off);
      set_beat(f.data() + off, n);
      d.s_axis_tkeep = n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
      d.s_axis_tlast = off + n >= f.size();
      d.s_axis_tuser = user;
      d.s_axis_tvalid = 1;
      sim_.settle();
      const bool acc = d.s_axis_tready;
      at = sim_.cycles();
      tick();
      if (acc) off += n;
    }
    d.s_axis_tvalid = 0;
    return at;
  }
  void run(int n) {
    for (int i = 0; i < n; ++i) tick();
  }

  flowsteer::testbench::rtl::Sim<Model> sim_;
  std::vector<Rec> recs_;
  std::vector<uint64_t> rec_cycle_;
};

// DUT and model side by side: every access goes to both and must answer the same
class EngineTop : public ::testing::Test {
 protected:
  EngineTop() : model_(small_caps()) {}
  void SetUp() override { tb_.run(70000); }  // filter table init sweep (2^16 ids)

  uint32_t wr(uint32_t a, uint32_t v, uint32_t strb = 0xF) {
    const uint32_t got = tb_.write(a, v, strb);
    const uint32_t want = uint32_t(model_.write(a, v, uint8_t(strb)));
    EXPECT_EQ(got, want) << "write 0x" << std::hex << a << " = 0x" << v;
    return got;
  }
  uint32_t rd(uint32_t a) {
    auto [data, resp] = tb_.read(a);
    uint32_t mv = 0;
    const uint32_t want = uint32_t(model_.read(a, mv));
    EXPECT_EQ(resp, want) << "read resp 0x" << std::hex << a;
    EXPECT_EQ(data, mv) << "read data 0x" << std::hex << a;
    return data;
  }
  // one frame through both; compares the record with the model's
  Rec frame(const Frame& f, uint16_t user) {
    const size_t before = tb_.recs_.size();
    tb_.send(f, user);
    for (int c = 0; c < 400 && tb_.recs_.size() == before; ++c) tb_.tick();
    EXPECT_EQ(tb_.recs_.size(), before + 1);
    if (tb_.recs_.size() != before + 1) return Rec{};
    const Rec r = tb_.recs_.back();
    const auto m = model_.packet(f.data(), f.size());
    EXPECT_TRUE(m.has_value());
    if (!m) return r;
    EXPECT_EQ(r.cls(), uint32_t(m->cls));
    EXPECT_EQ(r.hash(), m->hash);
    EXPECT_EQ(r.hv(), m->hash_valid);
    EXPECT_EQ(r.hit(), m->filter_hit);
    if (m->filter_hit) {
      EXPECT_EQ(r.fid(), m->filter_id);
    }
    EXPECT_EQ(r.queue(), m->queue);
    EXPECT_EQ(r.cpu_valid(), m->cpu >= 0) << "user " << user << " path " << int(model_.model().last_decision().path);
    if (m->cpu >= 0) {
      EXPECT_EQ(r.cpu(), uint32_t(m->cpu));
    }
    EXPECT_EQ(r.action(), uint32_t(m->action));
    if (m->action == eng::SteerAction::kSteered) {
      EXPECT_EQ(r.rc(), m->steer_id);
    }
    if (m->action == eng::SteerAction::kDriverError) {
      EXPECT_EQ(r.f().rc, m->error);
    }
    EXPECT_EQ(r.f().user, user);
    EXPECT_EQ(r.f().reserved, 0u);
    const auto& d = model_.model().last_decision();
    EXPECT_EQ(r.f().path, d.path);
    EXPECT_EQ(r.f().gate, d.gate);
    EXPECT_EQ(r.f().tail, m->cpu >= 0 ? model_.model().kernel().tail(uint32_t(m->cpu)) : 0u);
    return r;
  }

  EngineTb<Vvfs_engine_top_small> tb_{3};
  eng::EngineRegisterFile model_;
};

TEST_F(EngineTop, ResetValuesAndSlverr) {
  std::mt19937 rng(9);
  // every GLOB/CAPS register and a sample of every other block (reads)
  for (const auto& r : regs::kRegisters) {
    for (uint32_t i = 0; i < r.count; ++i) {
      if (r.count > 40 && i > 4 && i + 4 < r.count && rng() % 97) continue;
      rd(r.addr + i * r.stride);
    }
  }
  // unmapped holes
  for (uint32_t a : {0x3Cu, 0xFCu, 0x104u, 0x2FCu, 0x328u, 0x608u, 0xD000u, 0xFFFCu, 0x2u}) {
    rd(a);
    wr(a, 0);
  }
  // values the engine cannot hold, elements past the implemented sizes
  const uint32_t cpus = 1u << VFS_ENGINE_TOP_SMALL_CPU_LOG2, queues = 1u << VFS_ENGINE_TOP_SMALL_QUEUE_LOG2;
  wr(regs::NR_CPU_IDS::kAddr, 0);
  wr(regs::NR_CPU_IDS::kAddr, cpus + 1);
  wr(regs::NR_CPU_IDS::kAddr, cpus);
  wr(regs::NUM_RX_QUEUES::kAddr, 0);
  wr(regs::NUM_RX_QUEUES::kAddr, queues + 1);
  wr(regs::SOCK_CFG::kAddr, regs::SOCK_CFG::PRESENT.put(1) | (VFS_ENGINE_TOP_SMALL_SOCK_LOG2 + 1));
  wr(regs::LUT_CFG::kAddr, VFS_ENGINE_TOP_SMALL_LUT_LOG2 + 1);
  wr(regs::HASH_CFG::kAddr, 3);
  wr(regs::RMAP::addr(0), queues);
  wr(regs::RMAP::addr(cpus), 0);
  wr(regs::LUT::addr(1), queues);
  wr(regs::LUT::addr(1u << VFS_ENGINE_TOP_SMALL_LUT_LOG2), 0);
  wr(regs::RPS_FLOW_CNT::addr(0), regs::RPS_FLOW_CNT::PRESENT.put(1) | (VFS_ENGINE_TOP_SMALL_SLOT_LOG2 + 1));
  wr(regs::RPS_MAP::addr(0), regs::RPS_MAP::BASE.put(60) | regs::RPS_MAP::LEN.put(5));
  wr(regs::RPS_MAP_CPUS::addr(0), cpus);
  wr(regs::RPS_MAP_CPUS::addr(1u << VFS_ENGINE_TOP_SMALL_RPS_POOL_LOG2), 0);
  wr(regs::SOCK_CMD::kAddr, regs::SOCK_CMD::READ.put(1));  // no sock table
  wr(regs::HEAD_ADD::addr(cpus), 1);
  wr(regs::BACKLOG_DRAIN::kAddr, cpus);  // no such CPU
  rd(regs::HEAD::addr(cpus));
  rd(regs::CPU_ONLINE::addr(1));
  // strobes on an RW array element, then everything read back
  wr(regs::RMAP::addr(3), 0x0505, 0x1);
  wr(regs::LUT::addr(3), 0x0102, 0x2);
  for (uint32_t a : {regs::NR_CPU_IDS::kAddr, regs::NUM_RX_QUEUES::kAddr, regs::SOCK_CFG::kAddr,
                     regs::LUT_CFG::kAddr, regs::HASH_CFG::kAddr, regs::RMAP::addr(0),
                     regs::RMAP::addr(3), regs::LUT::addr(3), regs::RPS_FLOW_CNT::addr(0),
                     regs::RPS_MAP::addr(0), regs::RPS_MAP_CPUS::addr(0), regs::HEAD::addr(1),
                     regs::TAIL::addr(cpus - 1), regs::STATUS::kAddr, regs::ERR_STATUS::kAddr})
    rd(a);
}

TEST_F(EngineTop, FramesSteersEventsCountersDelete) {
  const uint32_t cpus = 4, queues = 4;
  // key, LUT, kernel plane: 4 CPUs online, rmap c -> c, tables on every queue, a sock table
  const auto& key = flowsteer::hash::microsoft_key();
  for (uint32_t i = 0; i < 10; ++i)
    wr(regs::RSS_KEY::addr(i), uint32_t(key[4 * i]) << 24 | uint32_t(key[4 * i + 1]) << 16 |
                                   uint32_t(key[4 * i + 2]) << 8 | key[4 * i + 3]);
  for (uint32_t i = 0; i < (1u << VFS_ENGINE_TOP_SMALL_LUT_LOG2); ++i) wr(regs::LUT::addr(i), i % queues);
  wr(regs::NR_CPU_IDS::kAddr, cpus);
  wr(regs::NUM_RX_QUEUES::kAddr, queues);
  wr(regs::RPS_CPU_MASK::kAddr, cpus - 1);
  wr(regs::CPU_ONLINE::addr(0), 0xF);
  for (uint32_t c = 0; c < cpus; ++c) wr(regs::RMAP::addr(c), c);
  for (uint32_t q = 0; q < queues; ++q)
    wr(regs::RPS_FLOW_CNT::addr(q), regs::RPS_FLOW_CNT::PRESENT.put(1) | 5);
  wr(regs::SOCK_CFG::kAddr, regs::SOCK_CFG::PRESENT.put(1) | 6);
  const uint32_t ctrl = regs::CTRL::kReset | regs::CTRL::ENABLE.put(1);
  wr(regs::CTRL::kAddr, ctrl);

  // plain frames of each kind
  using flowsteer::make_tuple;
  const FlowTuple t4 = make_tuple("10.0.0.1", "10.0.0.2", 1000, 80);
  const FlowTuple t6 = make_tuple("2001:db8::1", "2001:db8::2", 3000, 443);
  const FlowTuple u4 = make_tuple("10.0.0.3", "10.0.0.9", 53, 5353, flowsteer::kIpProtoUdp);
  Frame nonip(60, 0);
  nonip[12] = 0x88;
  nonip[13] = 0xB5;
  const Rec r4 = frame(flowsteer::nic::build_frame(t4), 1);
  frame(flowsteer::nic::build_frame(t6), 2);
  frame(flowsteer::nic::build_frame(u4), 3);
  frame(nonip, 4);
  EXPECT_EQ(tb_.recs_.back().cmd_seq(), tb_.recs_.front().cmd_seq());  // no transaction between them

  // a sock entry that names a CPU on another queue: the next t4 packet steers (original)
  auto steer_to = [&](uint32_t hash, uint32_t arrival) {
    const uint32_t cpu = (arrival + 1) % cpus;
    wr(regs::SOCK_INDEX::kAddr, hash & 63);
    wr(regs::SOCK_VALUE::kAddr, (hash & ~(cpus - 1)) | cpu);
    wr(regs::SOCK_CMD::kAddr, regs::SOCK_CMD::WRITE.put(1) | regs::SOCK_CMD::READ.put(1));
    rd(regs::SOCK_VALUE::kAddr);
    return cpu;
  };
  steer_to(r4.hash(), r4.queue());
  const Rec s1 = frame(flowsteer::nic::build_frame(t4), 5);
  EXPECT_EQ(s1.action(), uint32_t(eng::SteerAction::kSteered));
  EXPECT_GT(s1.cmd_seq(), r4.cmd_seq());  // cmd_seq moved
  // the filter now sends t4 to the steered queue
  const Rec s2 = frame(flowsteer::nic::build_frame(t4), 6);
  EXPECT_TRUE(s2.hit());
  // event: read the head, pop it
  for (uint32_t a = regs::EVT_STATUS::kAddr; a <= regs::EVT_DST::addr(3); a += 4) rd(a);
  wr(regs::EVT_POP::kAddr, 1);
  rd(regs::EVT_STATUS::kAddr);
  rd(regs::EVT_INFO::kAddr);

  // patched mode, UDP flow
  wr(regs::CTRL::kAddr, ctrl | regs::CTRL::PATCHED.put(1));
  const Rec ru = frame(flowsteer::nic::build_frame(u4), 7);
  steer_to(ru.hash(), ru.queue());
  frame(flowsteer::nic::build_frame(u4), 8);
  frame(flowsteer::nic::build_frame(u4), 9);
  frame(flowsteer::nic::build_frame(t6), 10);

  // counters (every index), head/tail, expiry query
  for (uint32_t i = 0; i < 32; ++i) {
    if (regs::counter_rtl_only(i)) {
      // the RTL's own counters (the model reads 0): the response only, and the RTL's value
      // where this sequence fixes it (its two inserts were fast: FAST_ADDS)
      for (uint32_t a : {regs::CNT_LO::addr(i), regs::CNT_HI::addr(i)}) {
        auto [data, resp] = tb_.read(a);
        uint32_t mv = 0;
        EXPECT_EQ(resp, uint32_t(model_.read(a, mv))) << "read resp 0x" << std::hex << a;
        if (a == regs::CNT_LO::addr(uint32_t(regs::Counter::kFastAdds))) {
          EXPECT_EQ(data, 2u);
        }
      }
      continue;
    }
    rd(regs::CNT_LO::addr(i));
    rd(regs::CNT_HI::addr(i));
  }
  for (uint32_t c = 0; c < cpus; ++c) {
    rd(regs::HEAD::addr(c));
    rd(regs::TAIL::addr(c));
  }
  wr(regs::HEAD_ADD::addr(1), 3);
  rd(regs::HEAD::addr(1));
  // the rest of each CPU's backlog in one write: head = tail
  for (uint32_t c = 0; c < cpus; ++c) {
    wr(regs::BACKLOG_DRAIN::kAddr, c);
    EXPECT_EQ(rd(regs::HEAD::addr(c)), rd(regs::TAIL::addr(c))) << "CPU " << c;
  }
  wr(regs::EXP_QUEUE::kAddr, s1.queue());
  wr(regs::EXP_FLOW_ID::kAddr, 0);
  wr(regs::EXP_FILTER_ID::kAddr, s1.rc());
  wr(regs::EXP_CMD::kAddr, 1);
  rd(regs::EXP_STATUS::kAddr);

  // host FLT delete of the steered filter; t4 falls back to the LUT
  wr(regs::FLT_ID::kAddr, s1.rc());
  wr(regs::FLT_CMD::kAddr, uint32_t(regs::FilterOp::kDelete));
  rd(regs::FLT_STATUS::kAddr);
  rd(regs::FLT_COUNT::kAddr);
  rd(regs::CNT_LO::addr(uint32_t(regs::Counter::kFltDeletes)));
  frame(flowsteer::nic::build_frame(t4), 11);
  wr(regs::CNT_CLEAR::kAddr, 1);
  rd(regs::CNT_LO::addr(0));
  rd(regs::ERR_STATUS::kAddr);
}

// standard build: record latency and one packet per clock with distinct flows
TEST(EngineTopStd, LatencyAndOnePacketPerClock) {
  EngineTb<Vvfs_engine_top> tb(5);
  tb.run(70000);
  ASSERT_EQ(tb.write(regs::CTRL::kAddr, regs::CTRL::kReset | regs::CTRL::ENABLE.put(1)), kOkay);
  std::vector<Frame> frames;
  for (int i = 0; i < 200; ++i) {
    frames.push_back(flowsteer::nic::build_frame(
        flowsteer::make_tuple("10.1.0." + std::to_string(i % 250), "10.2.0.1", uint16_t(1000 + i), 80)));
  }
  auto& d = tb.sim_.dut();
  size_t sent = 0;
  uint64_t first_in = 0, last_in = 0;
  for (int c = 0; c < 600; ++c) {
    if (sent < frames.size()) {
      tb.set_beat(frames[sent].data(), frames[sent].size());
      d.s_axis_tkeep = (uint64_t(1) << frames[sent].size()) - 1;
      d.s_axis_tlast = 1;
      d.s_axis_tuser = uint16_t(sent);
      d.s_axis_tvalid = 1;
    } else {
      d.s_axis_tvalid = 0;
    }
    tb.sim_.settle();
    const bool acc = d.s_axis_tvalid && d.s_axis_tready;
    if (acc) {
      if (sent == 0) first_in = tb.sim_.cycles();
      last_in = tb.sim_.cycles();
    }
    tb.tick();
    if (acc) ++sent;
  }
  ASSERT_EQ(tb.recs_.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(tb.recs_[i].f().user, i);
    EXPECT_EQ(tb.recs_[i].f().reserved, 0u);
  }
  const uint64_t latency = tb.rec_cycle_.front() - first_in;
  const uint64_t in_span = last_in - first_in, out_span = tb.rec_cycle_.back() - tb.rec_cycle_.front();
  std::printf("engine top: record latency %llu clocks after tlast; %zu frames in %llu clocks, out in %llu\n",
              (unsigned long long)latency, frames.size(), (unsigned long long)in_span + 1,
              (unsigned long long)out_span + 1);
  EXPECT_EQ(in_span, frames.size() - 1);   // one frame per clock in
  EXPECT_EQ(out_span, frames.size() - 1);  // one record per clock out
  EXPECT_LT(latency, 60u);
}

}  // namespace
