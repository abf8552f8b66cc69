// fs_nic_plane (fs_axil_regs + parser + hash + filter table + RSS LUT) through its AXI4-Lite
// port and frame stream:
//  * every register of the generated map: reset values, RW read-back, byte strobes, W1C,
//    WO reads, SLVERR on every unimplemented or unmapped address (read and write);
//  * filter commands through the FLT registers;
//  * frames end to end against the golden model: parse_frame, the configured hash, the
//    filter table (std::map reference) and the LUT.
// Model parameters: FLT_BUCKET_BITS=6, FLT_ID_WIDTH=10 (short clear sweep), rest default.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "Vvfs_nic_plane.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/parser.h"
#include "frame_gen.h"
#include "rtl_sim.h"

namespace {

namespace regs = flowsteer::regs;
namespace nic = flowsteer::nic;
namespace fh = flowsteer::hash;
using flowsteer::FlowTuple;
using flowsteer::sim::common::Frame;

constexpr uint32_t kLutDepth = 2048;
constexpr uint32_t kOnlineWords = 256 / 32;
constexpr int kIdWidth = VFS_NIC_PLANE_FLT_ID_WIDTH;  // hw/params.json set "test"
constexpr uint32_t kOkay = 0, kSlverr = 2;

// blocks built so far; every other register answers SLVERR
const std::set<std::string> kImplemented = {
    "ID", "VERSION", "CAPS0", "CAPS1", "CTRL", "STATUS", "ERR_STATUS", "SCRATCH", "OWNER", "NR_CPU_IDS",
    "NUM_RX_QUEUES", "RPS_CPU_MASK", "SOCK_CFG", "LUT_CFG", "CNT_CLEAR", "CPU_ONLINE",
    "HASH_CFG", "HASH_SEED", "RSS_KEY", "FLT_SRC", "FLT_DST", "FLT_PORTS", "FLT_META", "FLT_ID",
    "FLT_QUEUE", "FLT_CMD", "FLT_STATUS", "FLT_RESULT", "FLT_COUNT", "LUT"};

uint32_t implemented_count(const regs::RegInfo& r) {
  if (!kImplemented.count(r.name)) return 0;
  if (std::string(r.name) == "CPU_ONLINE") return kOnlineWords;
  if (std::string(r.name) == "LUT") return kLutDepth;
  return r.count;
}

class NicPlane : public ::testing::Test {
 protected:
  void SetUp() override {
    sim_->s_axil_awaddr = 0;
    sim_->s_axil_awprot = 0;
    sim_->s_axil_awvalid = 0;
    sim_->s_axil_wdata = 0;
    sim_->s_axil_wstrb = 0;
    sim_->s_axil_wvalid = 0;
    sim_->s_axil_bready = 0;
    sim_->s_axil_araddr = 0;
    sim_->s_axil_arprot = 0;
    sim_->s_axil_arvalid = 0;
    sim_->s_axil_rready = 0;
    for (int w = 0; w < 16; ++w) sim_->s_axis_tdata[w] = 0;
    sim_->s_axis_tkeep = 0;
    sim_->s_axis_tvalid = 0;
    sim_->s_axis_tlast = 0;
    sim_->s_axis_tuser = 0;
    sim_->m_rec_ready = 1;
    sim_.reset();
    for (int i = 0; i < (1 << kIdWidth) + 50; ++i) sim_.tick();  // filter clear sweep
  }

  // AXI4-Lite write; returns BRESP. AW and W are offered with independent random delays.
  uint32_t write(uint32_t addr, uint32_t data, uint32_t strb = 0xF) {
    int aw_delay = int(rng_() % 3), w_delay = int(rng_() % 3);
    bool aw_done = false, w_done = false;
    sim_->s_axil_bready = 1;
    for (int c = 0; c < 100; ++c) {
      sim_->s_axil_awvalid = !aw_done && aw_delay-- <= 0;
      sim_->s_axil_awaddr = uint16_t(addr);
      sim_->s_axil_wvalid = !w_done && w_delay-- <= 0;
      sim_->s_axil_wdata = data;
      sim_->s_axil_wstrb = uint8_t(strb);
      sim_.settle();
      const bool aw = sim_->s_axil_awvalid && sim_->s_axil_awready;
      const bool w = sim_->s_axil_wvalid && sim_->s_axil_wready;
      const bool b = sim_->s_axil_bvalid;
      const uint32_t resp = sim_->s_axil_bresp;
      sim_.tick();
      aw_done |= aw;
      w_done |= w;
      if (b) {
        EXPECT_TRUE(aw_done && w_done) << "BVALID before AW and W";
        sim_->s_axil_awvalid = 0;
        sim_->s_axil_wvalid = 0;
        sim_->s_axil_bready = 0;
        return resp;
      }
    }
    ADD_FAILURE() << "write 0x" << std::hex << addr << " timed out";
    return 0xFF;
  }
  std::pair<uint32_t, uint32_t> read(uint32_t addr) {
    sim_->s_axil_arvalid = 1;
    sim_->s_axil_araddr = uint16_t(addr);
    sim_->s_axil_rready = 1;
    bool ar_done = false;
    for (int c = 0; c < 100; ++c) {
      sim_.settle();
      const bool ar = sim_->s_axil_arvalid && sim_->s_axil_arready;
      const bool r = sim_->s_axil_rvalid;
      const uint32_t data = sim_->s_axil_rdata, resp = sim_->s_axil_rresp;
      sim_.tick();
      if (ar) {
        ar_done = true;
        sim_->s_axil_arvalid = 0;
      }
      if (r) {
        EXPECT_TRUE(ar_done);
        sim_->s_axil_rready = 0;
        return {data, resp};
      }
    }
    ADD_FAILURE() << "read 0x" << std::hex << addr << " timed out";
    return {0, 0xFF};
  }
  uint32_t rd(uint32_t addr) {
    auto [d, r] = read(addr);
    EXPECT_EQ(r, kOkay) << "read 0x" << std::hex << addr;
    return d;
  }
  void wr(uint32_t addr, uint32_t v) { EXPECT_EQ(write(addr, v), kOkay) << std::hex << addr; }

  // filter command through the FLT registers; returns FLT_STATUS.ERR
  uint32_t filter_cmd(regs::FilterOp op, const FlowTuple& t, uint32_t id, uint32_t queue) {
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t s = 0, d = 0;
      for (uint32_t b = 0; b < 4; ++b) {
        s = s << 8 | t.src[4 * i + b];
        d = d << 8 | t.dst[4 * i + b];
      }
      wr(regs::FLT_SRC::addr(i), s);
      wr(regs::FLT_DST::addr(i), d);
    }
    wr(regs::FLT_PORTS::kAddr, regs::FLT_PORTS::SPORT.put(t.sport) | regs::FLT_PORTS::DPORT.put(t.dport));
    wr(regs::FLT_META::kAddr,
       regs::FLT_META::PROTO.put(t.proto) | regs::FLT_META::IPV6.put(t.family == 6));
    wr(regs::FLT_ID::kAddr, id);
    wr(regs::FLT_QUEUE::kAddr, queue);
    wr(regs::FLT_CMD::kAddr, regs::FLT_CMD::OP.put(uint32_t(op)));
    for (int i = 0; i < 50; ++i) {
      const uint32_t st = rd(regs::FLT_STATUS::kAddr);
      if (!regs::FLT_STATUS::BUSY.get(st) && regs::FLT_STATUS::DONE.get(st))
        return regs::FLT_STATUS::ERR.get(st);
    }
    ADD_FAILURE() << "filter command did not complete";
    return 0xFF;
  }

  flowsteer::testbench::rtl::Sim<Vvfs_nic_plane> sim_{11};
  std::mt19937_64 rng_{77};
};

TEST_F(NicPlane, ResetValuesAndSlverrSweep) {
  std::set<uint32_t> mapped;
  for (const auto& r : regs::kRegisters) {
    const uint32_t impl = implemented_count(r);
    for (uint32_t i = 0; i < r.count; ++i) {
      const uint32_t a = r.addr + i * r.stride;
      mapped.insert(a);
      const std::string name = std::string(r.name) + "[" + std::to_string(i) + "]";
      // sample large arrays: first/last implemented elements and a few others
      if (r.count > 64 && i > 8 && i + 8 < r.count && i != impl && i + 1 != impl && rng_() % 64)
        continue;
      auto [data, resp] = read(a);
      if (i >= impl) {
        EXPECT_EQ(resp, kSlverr) << name << " read";
        EXPECT_EQ(write(a, 0), kSlverr) << name << " write";
        continue;
      }
      EXPECT_EQ(resp, kOkay) << name;
      const std::string n = r.name;
      if (n == "CAPS0" || n == "CAPS1" || n == "STATUS" || n == "LUT") continue;
      if (r.access == regs::Access::kWO) {
        EXPECT_EQ(data, 0u) << name;
      } else {
        EXPECT_EQ(data, r.reset) << name;
      }
    }
  }
  // CAPS report the build parameters
  const uint32_t caps1 = rd(regs::CAPS1::kAddr);
  EXPECT_EQ(regs::CAPS1::FLT_BUCKET_BITS.get(caps1), 6u);
  EXPECT_EQ(regs::CAPS1::FLT_WAYS.get(caps1), 4u);
  EXPECT_EQ(regs::CAPS1::FLT_ID_WIDTH.get(caps1), uint32_t(kIdWidth));
  EXPECT_EQ(regs::CAPS0::LUT_LOG2.get(rd(regs::CAPS0::kAddr)), 11u);
  // unmapped holes of the 64 KiB window
  int holes = 0;
  for (uint32_t a = 0; a < 0x10000 && holes < 400; a += 4 * (1 + rng_() % 37)) {
    if (mapped.count(a)) continue;
    ++holes;
    EXPECT_EQ(read(a).second, kSlverr) << std::hex << a;
    EXPECT_EQ(write(a, 0xFFFFFFFF), kSlverr) << std::hex << a;
  }
  EXPECT_GT(holes, 100);
}

TEST_F(NicPlane, ReadWriteMasksStrobesW1C) {
  for (const auto& r : regs::kRegisters) {
    if (r.access != regs::Access::kRW || !implemented_count(r)) continue;
    if (std::string(r.name) == "LUT") continue;  // checked below (entry width)
    const uint32_t n = std::min(implemented_count(r), 16u);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t v = uint32_t(rng_());
      wr(r.addr + i * r.stride, v);
      EXPECT_EQ(rd(r.addr + i * r.stride), v & r.mask) << r.name << "[" << i << "]";
    }
  }
  // byte strobes
  wr(regs::SCRATCH::kAddr, 0x11223344);
  EXPECT_EQ(write(regs::SCRATCH::kAddr, 0xAABBCCDD, 0x5), kOkay);
  EXPECT_EQ(rd(regs::SCRATCH::kAddr), 0x11BB33DDu);
  // LUT entries keep QUEUE_WIDTH = 11 bits
  for (uint32_t i : {0u, 1u, 777u, kLutDepth - 1}) {
    wr(regs::LUT::addr(i), 0xFFFF0000u | (i * 3));
    EXPECT_EQ(rd(regs::LUT::addr(i)), (i * 3) & 0x7FF);
  }
  // W1C: a second FLT_CMD while the first is still pending sets ERR_STATUS.CMD_BUSY
  EXPECT_EQ(rd(regs::ERR_STATUS::kAddr), 0u);
  wr(regs::FLT_CMD::kAddr, uint32_t(regs::FilterOp::kClear));
  wr(regs::FLT_CMD::kAddr, uint32_t(regs::FilterOp::kClear));
  const uint32_t err = rd(regs::ERR_STATUS::kAddr);
  EXPECT_EQ(regs::ERR_STATUS::CMD_BUSY.get(err), 1u);
  wr(regs::ERR_STATUS::kAddr, 0);  // writing 0 clears nothing
  EXPECT_EQ(rd(regs::ERR_STATUS::kAddr), err);
  wr(regs::ERR_STATUS::kAddr, regs::ERR_STATUS::CMD_BUSY.put(1));
  EXPECT_EQ(rd(regs::ERR_STATUS::kAddr), 0u);
}

TEST_F(NicPlane, FilterCommandsThroughRegisters) {
  const FlowTuple t = flowsteer::make_tuple("10.0.0.1", "10.0.0.2", 1000, 80);
  using E = regs::FilterErr;
  EXPECT_EQ(filter_cmd(regs::FilterOp::kInsert, t, 5, 17), uint32_t(E::kOk));
  EXPECT_EQ(rd(regs::FLT_COUNT::kAddr), 1u);
  EXPECT_EQ(filter_cmd(regs::FilterOp::kInsert, t, 6, 18), uint32_t(E::kExists));
  const uint32_t res = rd(regs::FLT_RESULT::kAddr);
  EXPECT_EQ(regs::FLT_RESULT::ID.get(res), 5u);
  EXPECT_EQ(regs::FLT_RESULT::QUEUE.get(res), 17u);
  EXPECT_EQ(filter_cmd(regs::FilterOp::kRetarget, t, 5, 42), uint32_t(E::kOk));
  EXPECT_EQ(filter_cmd(regs::FilterOp::kLookup, t, 0, 0), uint32_t(E::kOk));
  EXPECT_EQ(regs::FLT_RESULT::QUEUE.get(rd(regs::FLT_RESULT::kAddr)), 42u);
  EXPECT_EQ(filter_cmd(regs::FilterOp::kDelete, t, 5, 0), uint32_t(E::kOk));
  EXPECT_EQ(filter_cmd(regs::FilterOp::kDelete, t, 5, 0), uint32_t(E::kNotFound));
  EXPECT_EQ(filter_cmd(regs::FilterOp::kLookup, t, 0, 0), uint32_t(E::kNotFound));
  EXPECT_EQ(rd(regs::FLT_COUNT::kAddr), 0u);
}

TEST_F(NicPlane, RecordLatencyAndOneFramePerClock) {
  wr(regs::CTRL::kAddr, regs::CTRL::kReset | regs::CTRL::ENABLE.put(1));
  sim_->m_rec_ready = 1;
  uint64_t first_last = 0, first_rec = 0, last_accept = 0, last_rec = 0;
  int sent = 0, recs = 0;
  for (int c = 0; c < 120; ++c) {
    // 64-byte single-beat frames back to back
    sim_->s_axis_tvalid = sent < 50;
    for (int w = 0; w < 16; ++w) sim_->s_axis_tdata[w] = uint32_t(rng_());
    sim_->s_axis_tkeep = ~uint64_t(0);
    sim_->s_axis_tlast = 1;
    sim_->s_axis_tuser = uint16_t(sent);
    sim_.settle();
    if (sim_->m_rec_valid) {
      if (recs == 0) first_rec = sim_.cycles();
      EXPECT_EQ(sim_->m_rec_user, uint16_t(recs));
      ++recs;
    }
    if (sim_->s_axis_tvalid && sim_->s_axis_tready) {
      if (sent == 0) first_last = sim_.cycles();
      last_accept = sim_.cycles();
      ++sent;
    }
    if (sim_->m_rec_valid) last_rec = sim_.cycles();
    sim_.tick();
  }
  EXPECT_EQ(sent, 50);
  EXPECT_EQ(recs, 50);
  EXPECT_EQ(first_rec - first_last, 27u);  // hw/README.md: 7 + 12 + 4 + 1 + 3 slices
  EXPECT_EQ(last_accept - first_last, 49u);  // one frame per clock in
  EXPECT_EQ(last_rec - first_rec, 49u);      // and one record per clock out
}

using Key = std::tuple<uint8_t, uint8_t, std::array<uint8_t, 16>, std::array<uint8_t, 16>,
                       uint16_t, uint16_t>;

class NicPlaneTraffic : public NicPlane, public ::testing::WithParamInterface<regs::HashMode> {};

TEST_P(NicPlaneTraffic, FramesMatchGoldenModel) {
  const regs::HashMode mode = GetParam();
  // configuration: key, mode, seed, LUT of 2^9 entries in use, random queues
  fh::RssKey key(52);
  for (auto& b : key) b = uint8_t(rng_());
  for (uint32_t i = 0; i < 13; ++i)
    wr(regs::RSS_KEY::addr(i), uint32_t(key[4 * i]) << 24 | uint32_t(key[4 * i + 1]) << 16 |
                                   uint32_t(key[4 * i + 2]) << 8 | key[4 * i + 3]);
  const uint32_t seed = uint32_t(rng_());
  wr(regs::HASH_SEED::kAddr, seed);
  wr(regs::HASH_CFG::kAddr, uint32_t(mode));
  const uint32_t lut_log2 = 9;
  wr(regs::LUT_CFG::kAddr, lut_log2);
  std::vector<uint32_t> lut(kLutDepth);
  for (uint32_t i = 0; i < (1u << lut_log2); ++i) {
    lut[i] = uint32_t(rng_() % 144);
    wr(regs::LUT::addr(i), lut[i]);
  }
  // frames; filters for a fifth of the IP flows
  flowsteer::sim::common::FrameGen gen(5 + uint64_t(mode));
  std::vector<Frame> frames;
  std::map<Key, std::pair<uint32_t, uint32_t>> filters;
  for (int i = 0; i < 1500; ++i) {
    frames.push_back(gen.frame());
    const auto p = nic::parse_frame(frames.back().data(), frames.back().size());
    if (p.is_ip() && rng_() % 5 == 0 && filters.size() < 120) {
      const Key k{p.tuple.family, p.tuple.proto, p.tuple.src, p.tuple.dst, p.tuple.sport,
                  p.tuple.dport};
      if (filters.count(k)) continue;
      const uint32_t id = uint32_t(filters.size() + 1), q = 1000 + id;
      if (filter_cmd(regs::FilterOp::kInsert, p.tuple, id, q) == uint32_t(regs::FilterErr::kOk))
        filters[k] = {id, q};
    }
  }
  ASSERT_GT(filters.size(), 40u);
  wr(regs::CTRL::kAddr, regs::CTRL::kReset | regs::CTRL::ENABLE.put(1));

  size_t fi = 0, off = 0, got = 0;
  int idle = 0;
  while (got < frames.size()) {
    ASSERT_LT(idle, 300) << "no progress";
    const bool offer = fi < frames.size() && rng_() % 10 != 0;
    sim_->s_axis_tvalid = offer;
    bool last = false;
    if (offer) {
      const Frame& f = frames[fi];
      const size_t n = std::min<size_t>(64, f.size() - off);
      last = off + n >= f.size();
      uint64_t keep = 0;
      for (size_t k = 0; k < 64; ++k) {
        const uint8_t v = k < n ? f[off + k] : uint8_t(rng_());
        const uint32_t sh = 8 * (k % 4);
        sim_->s_axis_tdata[k / 4] = (sim_->s_axis_tdata[k / 4] & ~(0xFFu << sh)) | uint32_t(v) << sh;
        if (k < n) keep |= uint64_t(1) << k;
      }
      sim_->s_axis_tkeep = last ? keep : ~uint64_t(0);
      sim_->s_axis_tlast = last;
      sim_->s_axis_tuser = uint16_t(fi);
    }
    sim_->m_rec_ready = rng_() % 4 != 0;
    sim_.settle();
    const bool took = offer && sim_->s_axis_tready;
    bool progress = took;
    if (sim_->m_rec_valid && sim_->m_rec_ready) {
      progress = true;
      const Frame& f = frames[got];
      const auto p = nic::parse_frame(f.data(), f.size());
      const std::string ctx = "frame " + std::to_string(got) + " " + nic::parse_class_name(p.cls);
      ASSERT_EQ(sim_->m_rec_user, uint16_t(got));
      EXPECT_EQ(int(sim_->m_rec_class), int(p.cls)) << ctx;
      uint32_t h = 0;
      if (p.is_ip()) {
        switch (mode) {
          case regs::HashMode::kToeplitz: h = fh::toeplitz_tuple(p.tuple, key, p.has_ports()); break;
          case regs::HashMode::kToeplitzSymxor:
            h = fh::toeplitz_symxor(p.tuple, key, p.has_ports());
            break;
          default: h = fh::jhash_sym_2010(p.tuple, seed); break;
        }
      }
      EXPECT_EQ(sim_->m_rec_hash, h) << ctx;
      EXPECT_EQ(bool(sim_->m_rec_hash_valid), p.is_ip() && h != 0) << ctx;
      const Key k{p.tuple.family, p.tuple.proto, p.tuple.src, p.tuple.dst, p.tuple.sport,
                  p.tuple.dport};
      const auto it = p.is_ip() ? filters.find(k) : filters.end();
      const bool hit = it != filters.end();
      EXPECT_EQ(bool(sim_->m_rec_flt_hit), hit) << ctx;
      if (hit) {
        EXPECT_EQ(sim_->m_rec_flt_id, it->second.first) << ctx;
        EXPECT_EQ(sim_->m_rec_queue, it->second.second) << ctx;
      } else {
        EXPECT_EQ(sim_->m_rec_queue, lut[h & ((1u << lut_log2) - 1)]) << ctx;
      }
      ++got;
      if (HasFailure()) return;
    }
    sim_.tick();
    idle = progress ? 0 : idle + 1;
    if (took) {
      if (last) {
        ++fi;
        off = 0;
      } else {
        off += 64;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, NicPlaneTraffic,
                         ::testing::Values(regs::HashMode::kToeplitz,
                                           regs::HashMode::kToeplitzSymxor,
                                           regs::HashMode::kJhashSym),
                         [](const auto& info) {
                           switch (info.param) {
                             case regs::HashMode::kToeplitz: return std::string("Toeplitz");
                             case regs::HashMode::kToeplitzSymxor:
                               return std::string("ToeplitzSymxor");
                             default: return std::string("JhashSym");
                           }
                         });

}  // namespace
