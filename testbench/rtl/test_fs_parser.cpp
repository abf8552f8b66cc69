// fs_parser against flowsteer::nic::parse_frame: random well-formed, malformed, short and
// oversized frames with random tvalid gaps and record back-pressure. Every frame must give
// exactly one record, in order, and the parser must never stop making progress.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vvfs_parser.h"
#include "Vvfs_parser64.h"
#include "flowsteer/nic/parser.h"
#include "frame_gen.h"
#include "rtl_sim.h"

namespace {

namespace nic = flowsteer::nic;
using flowsteer::sim::common::Frame;
using flowsteer::sim::common::FrameGen;

constexpr int kLatency = 7;  // record clocks after the tlast beat (hw/README.md)

// tdata access for the two models: 512-bit (VlWide) and 64-bit (uint64_t) ports
template <class W>
void set_tdata(W& port, int k, uint8_t v) {
  const uint32_t sh = 8 * (k % 4);
  port[k / 4] = (port[k / 4] & ~(0xFFu << sh)) | uint32_t(v) << sh;
}
inline void set_tdata(uint64_t& port, int k, uint8_t v) {
  const uint32_t sh = 8 * k;
  port = (port & ~(uint64_t(0xFF) << sh)) | uint64_t(v) << sh;
}
template <class W>
void randomize_tdata(W& port, std::mt19937_64& rng) {
  for (int w = 0; w < 16; ++w) port[w] = uint32_t(rng());
}
inline void randomize_tdata(uint64_t& port, std::mt19937_64& rng) { port = rng(); }

struct Wide512 {
  using Model = Vvfs_parser;
  static constexpr int kBytesPerBeat = 64;
};
struct Narrow64 {
  using Model = Vvfs_parser64;
  static constexpr int kBytesPerBeat = 8;
};

// ---------------------------------------------------------------- driver / checker
struct Sent {
  Frame f;
  uint64_t last_cycle = 0;
};

template <class P>
class ParserRtl : public ::testing::Test {
 protected:
  static constexpr int kBytesPerBeat = P::kBytesPerBeat;
  void SetUp() override {
    std::mt19937_64 z(0);
    randomize_tdata(sim_->s_axis_tdata, z);
    sim_->s_axis_tkeep = 0;
    sim_->s_axis_tvalid = 0;
    sim_->s_axis_tlast = 0;
    sim_->s_axis_tuser = 0;
    sim_->m_rec_ready = 1;
    sim_.reset();
  }

  // Sends frames with the given tvalid gap / record stall percentages and checks every
  // record against the model. tkeep_gaps: set random tkeep bits above the first zero on
  // the last beat (those bytes are not part of the frame).
  void run(const std::vector<Frame>& frames, int gap, int stall, bool tkeep_gaps,
           bool check_latency = false) {
    std::mt19937_64 rng(99 + frames.size());
    size_t fi = 0, off = 0, got = 0;
    std::deque<uint64_t> tlast_cycle;
    int idle = 0;
    while (got < frames.size()) {
      ASSERT_LT(idle, 200) << "no progress for 200 clocks (frame " << fi << ", record " << got
                           << ")";
      const bool offer = fi < frames.size() && int(rng() % 100) >= gap;
      sim_->s_axis_tvalid = offer;
      bool last = false;
      if (offer) {
        const Frame& f = frames[fi];
        const size_t n = std::min<size_t>(kBytesPerBeat, f.size() - off);
        last = off + n >= f.size();
        uint64_t keep = 0;
        randomize_tdata(sim_->s_axis_tdata, rng);
        for (size_t k = 0; k < n; ++k) {
          set_tdata(sim_->s_axis_tdata, int(k), f[off + k]);
          keep |= uint64_t(1) << k;
        }
        if (last && n + 1 < kBytesPerBeat && tkeep_gaps) keep |= (rng() << (n + 1));
        if (!last) keep = ~uint64_t(0);
        if (kBytesPerBeat < 64) keep &= (uint64_t(1) << kBytesPerBeat) - 1;
        sim_->s_axis_tkeep = keep;
        sim_->s_axis_tlast = last;
        sim_->s_axis_tuser = uint16_t(fi);
      }
      sim_->m_rec_ready = int(rng() % 100) >= stall;
      sim_.settle();
      const bool took = offer && sim_->s_axis_tready;
      bool progress = took;
      if (sim_->m_rec_valid && sim_->m_rec_ready) {
        progress = true;
        check_record(frames, got);
        if (check_latency) {
          EXPECT_EQ(sim_.cycles() - tlast_cycle.front(), uint64_t(kLatency)) << got;
        }
        tlast_cycle.pop_front();
        ++got;
        if (HasFailure()) return;
      }
      if (took && last) tlast_cycle.push_back(sim_.cycles());
      sim_.tick();
      idle = progress ? 0 : idle + 1;
      if (took) {
        if (last) {
          ++fi;
          off = 0;
        } else {
          off += kBytesPerBeat;
        }
      }
    }
    sim_->s_axis_tvalid = 0;
    for (int i = 0; i < 20; ++i) {
      sim_.tick();
      EXPECT_FALSE(sim_->m_rec_valid) << "extra record";
    }
  }

  void check_record(const std::vector<Frame>& frames, size_t i) {
    const Frame& f = frames[i];
    const nic::ParsedFrame want = nic::parse_frame(f.data(), f.size());
    ++seen_[size_t(want.cls)];
    std::array<uint8_t, 16> src{}, dst{};
    flowsteer::testbench::rtl::get_be(sim_->m_rec_src, src.data(), 16);
    flowsteer::testbench::rtl::get_be(sim_->m_rec_dst, dst.data(), 16);
    const std::string ctx = "frame " + std::to_string(i) + " len " + std::to_string(f.size()) +
                            " class " + nic::parse_class_name(want.cls);
    ASSERT_EQ(sim_->m_rec_user, uint16_t(i)) << ctx;
    EXPECT_EQ(int(sim_->m_rec_class), int(want.cls)) << ctx;
    EXPECT_EQ(sim_->m_rec_ipv6 != 0, want.tuple.family == 6) << ctx;
    EXPECT_EQ(sim_->m_rec_ports != 0, want.has_ports()) << ctx;
    EXPECT_EQ(int(sim_->m_rec_proto), int(want.tuple.proto)) << ctx;
    EXPECT_EQ(src, want.tuple.src) << ctx;
    EXPECT_EQ(dst, want.tuple.dst) << ctx;
    EXPECT_EQ(sim_->m_rec_sport, want.tuple.sport) << ctx;
    EXPECT_EQ(sim_->m_rec_dport, want.tuple.dport) << ctx;
    EXPECT_EQ(int(sim_->m_rec_vlan_tags), int(want.vlan_tags)) << ctx;
    EXPECT_EQ(int(sim_->m_rec_l3_offset), int(want.l3_offset)) << ctx;
    EXPECT_EQ(int(sim_->m_rec_l4_offset), int(want.l4_offset)) << ctx;
    EXPECT_EQ(sim_->m_rec_len, uint16_t(std::min<size_t>(f.size(), 0xFFFF))) << ctx;
  }

  flowsteer::testbench::rtl::Sim<typename P::Model> sim_{3};
  std::array<int, nic::kParseClassCount> seen_{};
};

using Widths = ::testing::Types<Wide512, Narrow64>;
class WidthNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return T::kBytesPerBeat == 64 ? "Data512" : "Data64";
  }
};
TYPED_TEST_SUITE(ParserRtl, Widths, WidthNames);

TYPED_TEST(ParserRtl, RandomFramesStreamingNoStalls) {
  FrameGen gen(1);
  std::vector<Frame> frames;
  for (int i = 0; i < 3000; ++i) frames.push_back(gen.frame());
  this->run(frames, 0, 0, false, true);
  for (int c = 0; c < nic::kParseClassCount; ++c)
    EXPECT_GT(this->seen_[size_t(c)], 0) << "class never generated: "
                                   << nic::parse_class_name(nic::ParseClass(c));
}

TYPED_TEST(ParserRtl, RandomFramesGapsBackPressureTkeepGaps) {
  FrameGen gen(2);
  std::vector<Frame> frames;
  for (int i = 0; i < 3000; ++i) frames.push_back(gen.frame());
  this->run(frames, 30, 40, true);
}

TYPED_TEST(ParserRtl, ShortAndEmptyFrames) {
  FrameGen gen(3);
  std::vector<Frame> frames;
  for (size_t n = 0; n <= 130; ++n) {
    Frame f = gen.frame();
    f.resize(std::min(f.size(), n));
    frames.push_back(f);
  }
  this->run(frames, 20, 20, true);
}

TYPED_TEST(ParserRtl, BoundaryFramesAroundWindow) {
  // IPv6 + extension headers ending at and beyond the 128-byte window, long frames
  FrameGen gen(4);
  std::vector<Frame> frames;
  for (int i = 0; i < 2000; ++i) {
    Frame f = gen.frame();
    if (f.size() > 100) f.resize(100 + gen.r(60));
    frames.push_back(f);
  }
  this->run(frames, 10, 10, false);
}

TYPED_TEST(ParserRtl, LongFramesAroundLengthBitBoundaries) {
  // the header checks compare offsets with the 16-bit saturated length: frames just past
  // 2^15 bytes (where a 15-bit compare would see a short frame) and past 2^16
  FrameGen gen(5);
  std::vector<Frame> frames;
  for (size_t len : {32767u, 32768u, 32800u, 34000u, 65535u, 65536u, 66000u}) {
    for (int i = 0; i < 6; ++i) {
      Frame f = gen.frame();
      if (f.size() < 64) continue;  // tiny frames stay tiny
      f.resize(len, 0x5a);
      frames.push_back(f);
    }
  }
  this->run(frames, 0, 5, false);
}

}  // namespace
