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
#include "rtl_sim.h"

namespace {

namespace nic = flowsteer::nic;
using Frame = std::vector<uint8_t>;

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

// ---------------------------------------------------------------- frame generator
class FrameGen {
 public:
  explicit FrameGen(uint64_t seed) : rng_(seed) {}
  uint32_t r(uint32_t n) { return uint32_t(rng_() % n); }
  bool chance(int pct) { return int(r(100)) < pct; }
  void put16(Frame& f, uint16_t v) {
    f.push_back(uint8_t(v >> 8));
    f.push_back(uint8_t(v));
  }
  void rand_bytes(Frame& f, size_t n) {
    for (size_t i = 0; i < n; ++i) f.push_back(uint8_t(rng_()));
  }

  void l4(Frame& f, uint8_t proto) {
    if (proto == 6) {
      put16(f, uint16_t(rng_()));
      put16(f, uint16_t(rng_()));
      rand_bytes(f, 16);
    } else if (proto == 17) {
      put16(f, uint16_t(rng_()));
      put16(f, uint16_t(rng_()));
      rand_bytes(f, 4);
    } else {
      rand_bytes(f, 8);
    }
  }
  uint8_t l4_proto() {
    static const uint8_t k[] = {6, 17, 6, 17, 6, 17, 1, 58, 132, 50};
    return chance(5) ? uint8_t(rng_()) : k[r(std::size(k))];
  }

  void ipv4(Frame& f) {
    const size_t l3 = f.size();
    int ihl = chance(70) ? 5 : int(5 + r(11));
    if (chance(3)) ihl = int(r(5));
    const uint8_t ver = chance(3) ? uint8_t(r(16)) : 4;
    const uint8_t proto = l4_proto();
    f.push_back(uint8_t(ver << 4 | ihl));
    f.push_back(uint8_t(rng_()));
    put16(f, 0);  // total length, patched below
    put16(f, uint16_t(rng_()));
    uint16_t frag = 0;
    if (chance(10)) frag = uint16_t(0x2000 | r(2) * r(0x1FFF));
    else if (chance(5)) frag = uint16_t(r(0x1FFF) + 1);
    if (chance(30)) frag |= 0x4000;  // DF does not matter
    put16(f, frag);
    f.push_back(64);
    f.push_back(proto);
    put16(f, 0);
    rand_bytes(f, 8);  // addresses
    for (int i = 5; i < ihl; ++i) rand_bytes(f, 4);  // options
    l4(f, proto);
    rand_bytes(f, r(4) == 0 ? r(200) : r(40));
    uint16_t tot = uint16_t(f.size() - l3);
    if (chance(4)) tot = uint16_t(r(unsigned(ihl) * 4 + 1));  // too short (maybe malformed)
    f[l3 + 2] = uint8_t(tot >> 8);
    f[l3 + 3] = uint8_t(tot);
  }

  void ipv6(Frame& f) {
    const uint8_t ver = chance(3) ? uint8_t(r(16)) : 6;
    f.push_back(uint8_t(ver << 4));
    rand_bytes(f, 3);
    put16(f, uint16_t(rng_()));
    const size_t nh_pos = f.size();
    f.push_back(0);
    f.push_back(64);
    rand_bytes(f, 32);
    int n_ext = chance(50) ? 0 : int(r(4));
    size_t prev = nh_pos;
    for (int i = 0; i < n_ext; ++i) {
      static const uint8_t ext[] = {0, 43, 60};
      f[prev] = ext[r(3)];
      prev = f.size();
      f.push_back(0);
      const uint8_t len = chance(80) ? uint8_t(r(3)) : uint8_t(r(256));
      f.push_back(len);
      rand_bytes(f, size_t(len + 1) * 8 - 2);
    }
    uint8_t last;
    if (chance(10)) {
      last = 44;
      f[prev] = last;
      f.push_back(l4_proto());
      rand_bytes(f, 7);
      rand_bytes(f, r(40));
      return;
    }
    static const uint8_t odd[] = {135, 139, 140, 253, 254, 59};
    last = chance(8) ? odd[r(std::size(odd))] : l4_proto();
    f[prev] = last;
    l4(f, last);
    rand_bytes(f, r(4) == 0 ? r(300) : r(40));
  }

  Frame frame() {
    Frame f;
    if (chance(3)) {  // tiny
      rand_bytes(f, r(20));
      return f;
    }
    rand_bytes(f, 12);
    int tags = chance(70) ? 0 : int(r(4));
    for (int i = 0; i < tags; ++i) {
      put16(f, chance(50) ? 0x8100 : 0x88A8);
      put16(f, uint16_t(rng_()));
    }
    const int kind = int(r(100));
    if (kind < 45) {
      put16(f, 0x0800);
      ipv4(f);
    } else if (kind < 90) {
      put16(f, 0x86DD);
      ipv6(f);
    } else {
      put16(f, chance(50) ? 0x0806 : uint16_t(rng_()));
      rand_bytes(f, r(80));
    }
    if (chance(25)) f.resize(r(uint32_t(f.size()) + 1));  // cut anywhere
    if (chance(5)) rand_bytes(f, 1500 + r(8000));           // oversized
    return f;
  }

 private:
  std::mt19937_64 rng_;
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
    fs_tb::get_be(sim_->m_rec_src, src.data(), 16);
    fs_tb::get_be(sim_->m_rec_dst, dst.data(), 16);
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

  fs_tb::Sim<typename P::Model> sim_{3};
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

}  // namespace
