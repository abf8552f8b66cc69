// The Vitis RTL kernel "flowsteer" (hw/alveo/flowsteer_kernel.sv) around the engine top, at the
// small engine parameters (hw/alveo/alveo.cmake), through its Vitis ports:
//  * ap_ctrl_none: no XRT control registers — offsets 0x00..0x0C are the engine's ID, VERSION,
//    CAPS0 and CAPS1, an ap_start / GIE / IER / ISR write there changes nothing, there is no
//    interrupt port, frames flow without any start;
//  * the engine's register window at s_axi_control offset 0x0000 spans the whole 64 KiB:
//    CAPS report the small build, SCRATCH reads back, unmapped addresses answer SLVERR;
//  * ap_rst_n (active low, pipelined): every ready and valid output is 0 while it is held,
//    registers return to their reset values, mid-transaction resets leave nothing behind;
//  * frames in -> one record per frame out (tlast = 1), tuser and parse class vs
//    nic::parse_frame, cmd_seq between the register transactions before and after the frame,
//    record back-pressure.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <type_traits>
#include <vector>

#include "Vvfs_flowsteer_kernel.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/parser.h"
#include "frame_gen.h"

namespace {

namespace regs = flowsteer::regs;
using Model = Vvfs_flowsteer_kernel;

// the parameters of the model (hw/params.json, flowsteer set "small")
constexpr int kDataBytes = VFS_FLOWSTEER_KERNEL_DATA_WIDTH / 8;
constexpr uint32_t kLutLog2 = VFS_FLOWSTEER_KERNEL_LUT_LOG2, kCpuLog2 = VFS_FLOWSTEER_KERNEL_CPU_LOG2,
                   kQueueLog2 = VFS_FLOWSTEER_KERNEL_QUEUE_LOG2, kSlotLog2 = VFS_FLOWSTEER_KERNEL_SLOT_LOG2;
constexpr uint32_t kBucketBits = VFS_FLOWSTEER_KERNEL_FLT_BUCKET_BITS, kWays = VFS_FLOWSTEER_KERNEL_FLT_WAYS,
                   kSockLog2 = VFS_FLOWSTEER_KERNEL_SOCK_LOG2, kEvtLog2 = VFS_FLOWSTEER_KERNEL_EVT_LOG2;
constexpr uint32_t kOkay = 0, kSlverr = 2;
constexpr uint64_t kTimeout = 200000;  // clocks any single wait may take

// ap_ctrl_none: the kernel has no interrupt output (an ap_ctrl_hs kernel would)
template <class T, class = void>
struct HasInterrupt : std::false_type {};
template <class T>
struct HasInterrupt<T, std::void_t<decltype(std::declval<T&>().interrupt)>> : std::true_type {};
static_assert(!HasInterrupt<Model>::value, "an ap_ctrl_none kernel has no interrupt port");

class Kernel : public ::testing::Test {
 protected:
  Kernel() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);
    ctx_->randSeed(7);
    dut_ = std::make_unique<Model>(ctx_.get(), "top");
  }
  ~Kernel() override { dut_->final(); }

  void SetUp() override {
    idle_inputs();
    reset(16);
    // the engine may hold register transactions while its tables clear after reset
  }

  void idle_inputs() {
    Model& d = *dut_;
    d.s_axi_control_awaddr = 0;
    d.s_axi_control_awprot = 0;
    d.s_axi_control_awvalid = 0;
    d.s_axi_control_wdata = 0;
    d.s_axi_control_wstrb = 0;
    d.s_axi_control_wvalid = 0;
    d.s_axi_control_bready = 0;
    d.s_axi_control_araddr = 0;
    d.s_axi_control_arprot = 0;
    d.s_axi_control_arvalid = 0;
    d.s_axi_control_rready = 0;
    d.s_axis_frames_tdata = 0;
    d.s_axis_frames_tkeep = 0;
    d.s_axis_frames_tvalid = 0;
    d.s_axis_frames_tlast = 0;
    d.s_axis_frames_tuser = 0;
    d.m_axis_records_tready = 1;
  }

  // One clock; records offered and taken on this edge are collected. The record sink is ready
  // with probability rec_ready_pct_ in each clock.
  void tick() {
    Model& d = *dut_;
    d.m_axis_records_tready = rec_ready_pct_ >= 100 || int(rng_() % 100) < rec_ready_pct_;
    d.ap_clk = 0;
    d.eval();
    if (d.m_axis_records_tvalid && d.m_axis_records_tready) take_record();
    ctx_->timeInc(5);
    d.ap_clk = 1;
    d.eval();
    ctx_->timeInc(5);
    ++clocks_;
  }
  void reset(int cycles) {
    dut_->ap_rst_n = 0;
    for (int i = 0; i < cycles; ++i) tick();
    dut_->ap_rst_n = 1;
    tick();
  }

  struct Record {
    uint32_t w[regs::REC::kWords];
    bool last;
    regs::Rec f() const { return regs::unpack_rec(w); }
  };
  void take_record() {
    Record r{};
    for (uint32_t i = 0; i < regs::REC::kWords; ++i) r.w[i] = dut_->m_axis_records_tdata[i];
    r.last = dut_->m_axis_records_tlast;
    records_.push_back(r);
  }

  // AXI4-Lite write, AW and W together; returns BRESP.
  uint32_t write(uint32_t addr, uint32_t data, uint32_t strb = 0xF) {
    Model& d = *dut_;
    d.s_axi_control_awaddr = addr;
    d.s_axi_control_awvalid = 1;
    d.s_axi_control_wdata = data;
    d.s_axi_control_wstrb = strb;
    d.s_axi_control_wvalid = 1;
    d.s_axi_control_bready = 1;
    bool aw = false, w = false;
    for (uint64_t t = 0;; ++t) {
      if (t > kTimeout) ADD_FAILURE() << "write 0x" << std::hex << addr << " timed out";
      if (t > kTimeout) return 0xFF;
      d.ap_clk = 0;
      d.eval();
      const bool aw_hs = d.s_axi_control_awvalid && d.s_axi_control_awready;
      const bool w_hs = d.s_axi_control_wvalid && d.s_axi_control_wready;
      const bool b_hs = d.s_axi_control_bvalid && d.s_axi_control_bready;
      const uint32_t resp = d.s_axi_control_bresp;
      tick();
      if (aw_hs) aw = true, d.s_axi_control_awvalid = 0;
      if (w_hs) w = true, d.s_axi_control_wvalid = 0;
      if (b_hs) {
        EXPECT_TRUE(aw && w) << "B before AW and W";
        d.s_axi_control_bready = 0;
        ++transactions_;
        return resp;
      }
    }
  }
  uint32_t read(uint32_t addr, uint32_t& data) {
    Model& d = *dut_;
    d.s_axi_control_araddr = addr;
    d.s_axi_control_arvalid = 1;
    d.s_axi_control_rready = 1;
    for (uint64_t t = 0;; ++t) {
      if (t > kTimeout) ADD_FAILURE() << "read 0x" << std::hex << addr << " timed out";
      if (t > kTimeout) return 0xFF;
      d.ap_clk = 0;
      d.eval();
      const bool ar_hs = d.s_axi_control_arvalid && d.s_axi_control_arready;
      const bool r_hs = d.s_axi_control_rvalid && d.s_axi_control_rready;
      const uint32_t resp = d.s_axi_control_rresp;
      data = d.s_axi_control_rdata;
      tick();
      if (ar_hs) d.s_axi_control_arvalid = 0;
      if (r_hs) {
        d.s_axi_control_rready = 0;
        ++transactions_;
        return resp;
      }
    }
  }
  uint32_t read(uint32_t addr) {
    uint32_t v = 0;
    EXPECT_EQ(read(addr, v), kOkay) << "read 0x" << std::hex << addr;
    return v;
  }

  // Sends one frame (AXI byte order, tkeep on the last beat), optional idle clocks between beats.
  void send_frame(const std::vector<uint8_t>& f, uint16_t user, int gap = 0) {
    Model& d = *dut_;
    const size_t beats = (f.size() + kDataBytes - 1) / kDataBytes;
    for (size_t b = 0; b < beats; ++b) {
      uint64_t data = 0;
      uint32_t keep = 0;
      for (int i = 0; i < kDataBytes; ++i) {
        const size_t j = b * kDataBytes + size_t(i);
        if (j < f.size()) {
          data |= uint64_t(f[j]) << (8 * i);
          keep |= 1u << i;
        }
      }
      d.s_axis_frames_tdata = data;
      d.s_axis_frames_tkeep = keep;
      d.s_axis_frames_tlast = b + 1 == beats;
      d.s_axis_frames_tuser = user;
      d.s_axis_frames_tvalid = 1;
      for (uint64_t t = 0;; ++t) {
        ASSERT_LT(t, kTimeout) << "frame beat not accepted";
        d.ap_clk = 0;
        d.eval();
        const bool hs = d.s_axis_frames_tready;
        tick();
        if (hs) break;
      }
      d.s_axis_frames_tvalid = 0;
      for (int g = 0; g < gap; ++g) tick();
    }
  }
  void wait_records(size_t n) {
    for (uint64_t t = 0; records_.size() < n; ++t) {
      ASSERT_LT(t, kTimeout) << "waiting for record " << records_.size() + 1 << " of " << n;
      tick();
    }
  }
  void enable() {
    ASSERT_EQ(write(regs::CTRL::kAddr, regs::CTRL::kReset | regs::CTRL::ENABLE.put(1)), kOkay);
  }

  // every ready and valid output of the kernel, sampled before the next edge
  bool all_handshakes_low() {
    Model& d = *dut_;
    d.ap_clk = 0;
    d.eval();
    return !d.s_axi_control_awready && !d.s_axi_control_wready && !d.s_axi_control_bvalid &&
           !d.s_axi_control_arready && !d.s_axi_control_rvalid && !d.s_axis_frames_tready &&
           !d.m_axis_records_tvalid;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
  uint64_t clocks_ = 0;
  uint32_t transactions_ = 0;  // since the last reset of the count (the engine's cmd_seq)
  std::deque<Record> records_;
  int rec_ready_pct_ = 100;
  std::mt19937 rng_{5};
};

// --------------------------------------------------------------------------- ap_ctrl_none

TEST_F(Kernel, XrtControlOffsetsAreTheEngineIdentity) {
  EXPECT_EQ(read(0x00), regs::ID::kReset);   // ap_ctrl_hs would have AP_CTRL here
  EXPECT_EQ(read(0x04), regs::VERSION::kReset);  // GIE
  const uint32_t caps0 = read(0x08);             // IER
  const uint32_t caps1 = read(0x0C);             // ISR
  EXPECT_EQ(regs::CAPS0::LUT_LOG2.get(caps0), kLutLog2);
  EXPECT_EQ(regs::CAPS0::CPU_LOG2.get(caps0), kCpuLog2);
  EXPECT_EQ(regs::CAPS0::QUEUE_LOG2.get(caps0), kQueueLog2);
  EXPECT_EQ(regs::CAPS0::SLOT_LOG2.get(caps0), kSlotLog2);
  EXPECT_EQ(regs::CAPS1::FLT_BUCKET_BITS.get(caps1), kBucketBits);
  EXPECT_EQ(regs::CAPS1::FLT_WAYS.get(caps1), kWays);
  EXPECT_EQ(regs::CAPS1::SOCK_LOG2.get(caps1), kSockLog2);
  EXPECT_EQ(regs::CAPS1::EVT_LOG2.get(caps1), kEvtLog2);

  // what XRT would write to an ap_ctrl_hs kernel: ap_start, GIE, IER, ISR toggles
  EXPECT_EQ(write(0x00, 0x1), kOkay);  // RO registers ignore writes
  EXPECT_EQ(write(0x04, 0x1), kOkay);
  EXPECT_EQ(write(0x08, 0x3), kOkay);
  EXPECT_EQ(write(0x0C, 0x3), kOkay);
  EXPECT_EQ(read(0x00), regs::ID::kReset);
  EXPECT_EQ(read(0x04), regs::VERSION::kReset);
  EXPECT_EQ(read(0x08), caps0);
  EXPECT_EQ(read(0x0C), caps1);
  // ...and nothing started: frames still wait for the engine's own CTRL.ENABLE
  for (int i = 0; i < 20; ++i) {
    dut_->ap_clk = 0;
    dut_->eval();
    EXPECT_FALSE(dut_->s_axis_frames_tready);
    tick();
  }
}

TEST_F(Kernel, FreeRunningWithoutStart) {
  // no ap_start is ever written: enabling the engine is all it takes
  enable();
  std::vector<uint8_t> f(60, 0);
  f[12] = 0x08;  // IPv4, TCP
  f[13] = 0x00;
  f[14] = 0x45;
  f[16] = 0;
  f[17] = 46;
  f[23] = 6;
  send_frame(f, 0x1234);
  wait_records(1);
  EXPECT_EQ(records_[0].f().user, 0x1234u);
  EXPECT_EQ(records_[0].f().parse_class, regs::ParseClass::kIpv4Tcp);
  EXPECT_TRUE(records_[0].last);
}

// --------------------------------------------------------------------------- register window

TEST_F(Kernel, WholeControlSpaceIsTheEngineWindow) {
  EXPECT_EQ(read(regs::SCRATCH::kAddr), regs::SCRATCH::kReset);
  EXPECT_EQ(write(regs::SCRATCH::kAddr, 0xA5C3F00Du), kOkay);
  EXPECT_EQ(read(regs::SCRATCH::kAddr), 0xA5C3F00Du);
  EXPECT_EQ(write(regs::SCRATCH::kAddr, 0x11223344u, 0x5), kOkay);  // byte strobes reach the engine
  EXPECT_EQ(read(regs::SCRATCH::kAddr), 0xA522F044u);
  // holes of the map, the unused top of the window and its last word: SLVERR both ways
  for (uint32_t a : {0x003Cu, 0x0700u, 0x0FFCu, 0xD000u, 0xE000u, 0xF000u, 0xFFFCu}) {
    uint32_t v = 0;
    EXPECT_EQ(read(a, v), kSlverr) << std::hex << a;
    EXPECT_EQ(write(a, 0xFFFFFFFFu), kSlverr) << std::hex << a;
  }
  // LUT entries past the implemented 2^5: SLVERR; inside: read back
  EXPECT_EQ(write(regs::LUT::addr(3), 5), kOkay);
  EXPECT_EQ(read(regs::LUT::addr(3)), 5u);
  uint32_t v = 0;
  EXPECT_EQ(read(regs::LUT::addr(1u << kLutLog2), v), kSlverr);
  EXPECT_EQ(read(regs::SCRATCH::kAddr), 0xA522F044u);  // the failed writes changed nothing
}

// --------------------------------------------------------------------------- reset

TEST_F(Kernel, ActiveLowResetHoldsEveryInterface) {
  ASSERT_EQ(write(regs::SCRATCH::kAddr, 0x5A5A5A5Au), kOkay);
  enable();
  // a read and a frame beat are pending when ap_rst_n falls
  Model& d = *dut_;
  d.s_axi_control_araddr = regs::ID::kAddr;
  d.s_axi_control_arvalid = 1;
  d.s_axi_control_rready = 0;
  d.s_axis_frames_tvalid = 1;
  d.s_axis_frames_tkeep = 0xFF;
  d.s_axis_frames_tlast = 1;
  rec_ready_pct_ = 0;
  tick();
  d.ap_rst_n = 0;
  for (int i = 0; i < 3; ++i) tick();  // the reset pipeline (RST_STAGES)
  for (int i = 0; i < 40; ++i) {
    EXPECT_TRUE(all_handshakes_low()) << "clock " << i << " of the reset";
    tick();
  }
  idle_inputs();
  rec_ready_pct_ = 100;
  d.ap_rst_n = 1;
  tick();
  EXPECT_TRUE(records_.empty());
  transactions_ = 0;
  EXPECT_EQ(read(regs::SCRATCH::kAddr), regs::SCRATCH::kReset);
  EXPECT_EQ(read(regs::CTRL::kAddr), regs::CTRL::kReset);  // ENABLE back to 0
  EXPECT_EQ(read(regs::ID::kAddr), regs::ID::kReset);
}

TEST_F(Kernel, ResetIsPipelined) {
  // ap_rst_n low for one clock still resets the engine (it is registered, not sampled by it)
  ASSERT_EQ(write(regs::SCRATCH::kAddr, 0x1u), kOkay);
  dut_->ap_rst_n = 0;
  tick();
  dut_->ap_rst_n = 1;
  for (int i = 0; i < 5; ++i) tick();
  EXPECT_EQ(read(regs::SCRATCH::kAddr), 0u);
}

// --------------------------------------------------------------------------- streams

TEST_F(Kernel, FramesInRecordsOut) {
  flowsteer::sim::common::FrameGen gen(11);
  std::mt19937 rng(3);
  enable();
  std::vector<std::vector<uint8_t>> frames;
  std::vector<uint16_t> users;
  std::vector<uint32_t> seq;
  for (int i = 0; i < 60; ++i) {
    std::vector<uint8_t> f = gen.frame();
    if (f.empty()) f.push_back(0);
    if (i % 10 == 5) {  // a register transaction between frames moves cmd_seq
      ASSERT_EQ(write(regs::SCRATCH::kAddr, uint32_t(i)), kOkay);
    }
    rec_ready_pct_ = int(rng() % 3) * 40 + 20;  // back-pressure on the records: 20, 60, 100 %
    const uint16_t user = uint16_t(rng());
    seq.push_back(transactions_);
    send_frame(f, user, int(rng() % 2));
    frames.push_back(f);
    users.push_back(user);
  }
  rec_ready_pct_ = 100;
  wait_records(frames.size());
  for (int i = 0; i < 200; ++i) tick();
  ASSERT_EQ(records_.size(), frames.size()) << "one record per frame";
  seq.push_back(transactions_);
  for (size_t i = 0; i < frames.size(); ++i) {
    const auto pf = flowsteer::nic::parse_frame(frames[i].data(), frames[i].size());
    const Record& r = records_[i];
    EXPECT_EQ(r.f().parse_class, pf.cls) << "frame " << i;
    EXPECT_EQ(r.f().user, users[i]) << "frame " << i;
    EXPECT_EQ(r.f().reserved, 0u) << "frame " << i;
    // a frame takes its place in the order at the engine's order gate, after its parser: the
    // transactions before it are those done before it was sent, and maybe the next one
    EXPECT_GE(r.f().cmd_seq, seq[i]) << "frame " << i << ": cmd_seq";
    EXPECT_LE(r.f().cmd_seq, seq[i + 1]) << "frame " << i << ": cmd_seq";
    if (i > 0) {
      EXPECT_GE(r.f().cmd_seq, records_[i - 1].f().cmd_seq) << "frame " << i << ": cmd_seq order";
    }
    EXPECT_TRUE(r.last) << "frame " << i;
  }
}

TEST_F(Kernel, RecordHeldUnderBackPressure) {
  enable();
  rec_ready_pct_ = 0;
  std::vector<uint8_t> f(64, 0xEE);  // not IP
  send_frame(f, 0x77);
  Model& d = *dut_;
  uint64_t t = 0;
  for (d.ap_clk = 0, d.eval(); !d.m_axis_records_tvalid; d.ap_clk = 0, d.eval()) {
    ASSERT_LT(++t, kTimeout);
    tick();
  }
  uint32_t first[regs::REC::kWords];
  for (uint32_t i = 0; i < regs::REC::kWords; ++i) first[i] = d.m_axis_records_tdata[i];
  for (int c = 0; c < 50; ++c) {
    tick();
    d.ap_clk = 0;
    d.eval();
    ASSERT_TRUE(d.m_axis_records_tvalid) << "valid dropped without ready";
    for (uint32_t i = 0; i < regs::REC::kWords; ++i) ASSERT_EQ(d.m_axis_records_tdata[i], first[i]);
  }
  rec_ready_pct_ = 100;
  wait_records(1);
  EXPECT_EQ(records_[0].f().user, 0x77u);
  EXPECT_EQ(records_[0].f().parse_class, flowsteer::nic::ParseClass::kNonIp);
}

}  // namespace
