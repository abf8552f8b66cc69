// The data movers' buffer layout (register map MM2S_HDR, REC) and the frame port over them,
// with runners that stand in for a card's movers: a loopback through the golden model, and
// movers that lose or corrupt a record.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "flowsteer/device/mover_port.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/xrt/movers.h"

using namespace flowsteer;

namespace {

// Reads the frame buffer as fs_mm2s does and answers each frame through the golden model,
// writing the records as fs_s2mm does; `fault` damages record `fault_at` of every run.
class ModelMovers : public xrt::MoverRunner {
 public:
  enum class Fault { kNone, kSwapUser, kReservedBit };
  explicit ModelMovers(engine::EngineRegisterFile& regs, Fault f = Fault::kNone)
      : regs_(regs), fault_(f) {}
  void run(const std::vector<uint8_t>& frames, uint32_t nframes, uint8_t* records,
           uint32_t nrecords) override {
    size_t at = 0;
    std::vector<regs::Rec> out;
    for (uint32_t f = 0; f < nframes; ++f) {
      uint32_t w[regs::MM2S_HDR::kWords];
      xrt::load_words(&frames[at], w, regs::MM2S_HDR::kWords);
      const regs::Mm2sHdr h = regs::unpack_mm2s_hdr(w);
      at += xrt::kMm2sWordBytes;
      auto rec = regs_.packet(&frames[at], h.len);
      if (!rec) throw bus::DeviceError("model movers: frame not taken");
      regs::Rec r;
      r.hash = rec->hash;
      r.parse_class = rec->cls;
      r.hash_valid = rec->hash_valid;
      r.queue = rec->queue;
      r.user = h.tuser;
      out.push_back(r);
      at += (h.len + xrt::kMm2sWordBytes - 1) / xrt::kMm2sWordBytes * xrt::kMm2sWordBytes;
    }
    ASSERT_EQ(at, frames.size());
    if (fault_ == Fault::kSwapUser && out.size() > 1) std::swap(out[0].user, out[1].user);
    for (uint32_t i = 0; i < nrecords && i < out.size(); ++i) {
      uint32_t w[regs::REC::kWords];
      regs::pack_rec(out[i], w);
      if (fault_ == Fault::kReservedBit && i == 1) w[7] |= 1;
      xrt::store_words(w, records + size_t(i) * xrt::kRecordBytes, regs::REC::kWords);
    }
    ++runs;
  }
  std::string describe() const override { return "model movers"; }
  int runs = 0;

 private:
  engine::EngineRegisterFile& regs_;
  Fault fault_;
};

std::vector<uint8_t> tcp_frame(uint16_t sport, size_t pad = 0) {
  std::vector<uint8_t> f = nic::build_frame(make_tuple("10.0.0.1", "10.0.0.2", sport, 80));
  f.resize(f.size() + pad, 0xA5);
  return f;
}

}  // namespace

TEST(MoverLayout, FrameBufferIsHeaderThenDataWords) {
  xrt::FrameBuffer b;
  std::vector<uint8_t> f1(64, 0x11), f2(65, 0x22);
  b.add(f1.data(), f1.size(), 7);
  b.add(f2.data(), f2.size(), 0xBEEF);
  EXPECT_EQ(b.frames(), 2u);
  ASSERT_EQ(b.bytes().size(), (1 + 1 + 1 + 2) * 64u);  // header + 1 word, header + 2 words
  // header: LEN in bits 15:0, TUSER in 31:16 of the first 32-bit word, the rest 0
  EXPECT_EQ(b.bytes()[0], 64);
  EXPECT_EQ(b.bytes()[1], 0);
  EXPECT_EQ(b.bytes()[2], 7);
  for (size_t i = 4; i < 64; ++i) EXPECT_EQ(b.bytes()[i], 0) << i;
  EXPECT_EQ(b.bytes()[64], 0x11);
  EXPECT_EQ(b.bytes()[127], 0x11);
  const size_t h2 = 128;
  EXPECT_EQ(b.bytes()[h2], 65);
  EXPECT_EQ(b.bytes()[h2 + 2], 0xEF);
  EXPECT_EQ(b.bytes()[h2 + 3], 0xBE);
  EXPECT_EQ(b.bytes()[h2 + 64 + 64], 0x22);  // frame byte 64: first byte of data word 1
  EXPECT_EQ(b.bytes()[h2 + 64 + 65], 0);     // the tail of the last word is 0
  EXPECT_THROW(b.add(f1.data(), 0, 0), std::invalid_argument);
  std::vector<uint8_t> big(xrt::kMaxFrameBytes + 1);
  EXPECT_THROW(b.add(big.data(), big.size(), 0), std::invalid_argument);
  EXPECT_EQ(xrt::kMaxFrameBytes, 65535u);
  EXPECT_EQ(xrt::kRecordBytes, 32u);
}

TEST(MoverLayout, RecordWordsRoundTrip) {
  regs::Rec r;
  r.hash = 0x12345678;
  r.parse_class = regs::ParseClass(3);
  r.hash_valid = true;
  r.cpu_valid = true;
  r.cpu = 9;
  r.queue = 5;
  r.filter_hit = true;
  r.filter_id = 44;
  r.action = engine::SteerAction::kSteered;
  r.rc = 44;
  uint32_t w[regs::REC::kWords];
  regs::pack_rec(r, w);
  uint8_t bytes[xrt::kRecordBytes];
  xrt::store_words(w, bytes, regs::REC::kWords);
  EXPECT_EQ(bytes[0], 0x78);  // little-endian words, word 0 first
  EXPECT_EQ(bytes[3], 0x12);
  uint32_t back[regs::REC::kWords];
  xrt::load_words(bytes, back, regs::REC::kWords);
  const engine::OutputRecord o = engine::output_record(regs::unpack_rec(back));
  EXPECT_EQ(o.hash, 0x12345678u);
  EXPECT_EQ(o.cpu, 9);
  EXPECT_EQ(o.queue, 5);
  EXPECT_TRUE(o.filter_hit);
  EXPECT_EQ(o.filter_id, 44u);
  EXPECT_EQ(o.steer_id, 44u);
  r.cpu_valid = false;
  regs::pack_rec(r, w);
  EXPECT_EQ(engine::output_record(regs::unpack_rec(w)).cpu, -1);
}

// Through the movers, the frame port gives the records the model gives for the same frames.
TEST(MoverPort, RecordsEqualTheModelsInOrder) {
  engine::EngineRegisterFile mover_engine, direct;
  for (auto* e : {&mover_engine, &direct}) e->write(regs::CTRL::kAddr, regs::CTRL::ENABLE.mask());
  ModelMovers movers(mover_engine);
  device::MoverFrames port(movers, "test");
  std::vector<engine::OutputRecord> got;
  for (int round = 0; round < 3; ++round) {
    std::vector<engine::OutputRecord> want;
    for (uint16_t i = 0; i < 50; ++i) {
      auto f = tcp_frame(uint16_t(1000 + 50 * round + i), i % 70);
      port.send(f);
      want.push_back(*direct.packet(f.data(), f.size()));
    }
    got.clear();
    port.drain(got);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(got[i] == want[i]) << "round " << round << " frame " << i;
  }
  port.drain(got);  // nothing sent: no run
  EXPECT_EQ(movers.runs, 3);
  EXPECT_EQ(port.runs(), 3u);
  EXPECT_EQ(port.outstanding(), 0u);
}

TEST(MoverPort, ALostOrCorruptRecordIsOneError) {
  for (auto fault : {ModelMovers::Fault::kSwapUser, ModelMovers::Fault::kReservedBit}) {
    engine::EngineRegisterFile e;
    e.write(regs::CTRL::kAddr, regs::CTRL::ENABLE.mask());
    ModelMovers movers(e, fault);
    device::MoverFrames port(movers, "card");
    for (uint16_t i = 0; i < 4; ++i) port.send(tcp_frame(i));
    std::vector<engine::OutputRecord> got;
    try {
      port.drain(got);
      ADD_FAILURE() << "no error";
    } catch (const bus::DeviceError& err) {
      const std::string m = err.what();
      EXPECT_EQ(m.find('\n'), std::string::npos);
      EXPECT_NE(m.find(fault == ModelMovers::Fault::kSwapUser
                           ? "record 0 of a 4-frame run carries tuser 1, its frame 0"
                           : "record 1 of a 4-frame run has reserved bits set"),
                std::string::npos)
          << m;
    }
  }
}
