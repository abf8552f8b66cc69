// Directed conformance: the three hash modes (HASH_CFG: Toeplitz, Toeplitz symmetric-xor,
// symmetric jhash) on the RTL against the golden model, with the spec 6.5 vectors and the
// symmetric check: in the symmetric modes both directions of a connection get one hash (so one
// RSS queue, one sock entry, one CPU); in plain Toeplitz they differ.
#include <gtest/gtest.h>

#include <string>

#include "directed_rig.h"

using namespace flowsteer::testbench::conformance;

namespace {

struct Pair {
  std::string name;
  Bytes fwd, rev;
};

std::vector<Pair> pairs() {
  const FlowTuple ms = flowsteer::make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  const FlowTuple u4 = udp4(7), t6 = tcp6(9), u6 = udp6(11), icmp = other4(1, 5);
  std::vector<Pair> p = {
      {"ms tcp4", frame(ms), frame(ms.reversed())},
      {"udp4", frame(u4), frame(u4.reversed())},
      {"tcp6", frame(t6), frame(t6.reversed())},
      {"udp6 vlan", frame_vlan(u6, 1), frame_vlan(u6.reversed(), 2)},
      {"icmp4", frame(icmp), frame(icmp.reversed())},
      {"ipv4 fragment", frame_ipv4_fragment(tcp4(3), Frag::kMiddle), frame_ipv4_fragment(tcp4(3).reversed(), Frag::kMiddle)},
      {"ipv6 fragment", frame_ipv6_fragment(tcp6(4), Frag::kFirst), frame_ipv6_fragment(tcp6(4).reversed(), Frag::kFirst)},
      {"ipv6 ext udp", frame_ipv6_ext(u6, {{0, 0}, {60, 1}}), frame_ipv6_ext(u6.reversed(), {{43, 0}})},
  };
  return p;
}

}  // namespace

TEST(DirectedHash, ThreeModesAndTheSymmetricCheck) {
  RigOptions o;
  o.seed = 601;
  Rig rig(o);
  rig.configure(RigSetup{});
  EXPECT_EQ(rig.write(r::HASH_CFG::kAddr, 3), AxiResp::kSlvErr);  // no fourth mode
  const HashMode modes[] = {HashMode::kToeplitz, HashMode::kToeplitzSymXor, HashMode::kJhashSym};
  for (HashMode m : modes) {
    SCOPED_TRACE(flowsteer::nic::hash_mode_name(m));
    rig.wr(r::HASH_CFG::kAddr, r::HASH_CFG::MODE.put(uint32_t(m)));
    EXPECT_EQ(rig.flt_cmd(r::FilterOp::kClear), FilterErr::kOk);  // the last mode's filters
    if (m == HashMode::kJhashSym) rig.wr(r::HASH_SEED::kAddr, 0x5eed1234u);
    EXPECT_EQ(rig.rd(r::HASH_CFG::kAddr), uint32_t(m));
    const bool sym = m != HashMode::kToeplitz;
    int differ = 0;
    for (const auto& p : pairs()) {
      SCOPED_TRACE(p.name);
      Flow ff = rig.flow(p.fwd);
      ASSERT_NE(ff.hash, 0u);
      rig.sock(ff.hash, 3);
      OutputRecord rf = rig.pkt(p.fwd), rr = rig.pkt(p.rev);
      EXPECT_TRUE(rf.hash_valid);
      EXPECT_TRUE(rr.hash_valid);
      if (sym) {
        EXPECT_EQ(rf.hash, rr.hash);
        EXPECT_EQ(rf.queue, rr.queue);
        EXPECT_EQ(rr.cpu, 3);  // the reverse direction finds the forward's sock entry
      } else {
        differ += rf.hash != rr.hash;
      }
      if (p.name == "ms tcp4" && m == HashMode::kToeplitz) {
        EXPECT_EQ(rf.hash, 0x51CCC178u);  // spec 6.5
      }
      if (p.name == "ms tcp4" && m == HashMode::kToeplitzSymXor) {
        EXPECT_EQ(rf.hash, 0xAC2B58CAu);
      }
    }
    if (!sym) {
      EXPECT_EQ(differ, int(pairs().size()));
    }
  }
  // ICMP's 2-tuple vector (spec 6.5: 0x323E8FC2 for the addresses alone)
  rig.wr(r::HASH_CFG::kAddr, 0);
  FlowTuple a2 = flowsteer::make_tuple("66.9.149.187", "161.142.100.80", 0, 0, 1);
  EXPECT_EQ(rig.pkt(frame(a2)).hash, 0x323E8FC2u);
  // the seed and the mode changing with frames in flight
  for (int round = 0; round < 6; ++round) {
    for (const auto& p : pairs()) {
      rig.send_async(p.fwd);
      rig.send_async(p.rev);
    }
    rig.wr(r::HASH_SEED::kAddr, 0x1000u * uint32_t(round));
    rig.wr(r::HASH_CFG::kAddr, uint32_t(round % 3));
  }
  FS_FINISH(rig);
  EXPECT_GT(rig.sb().coverage().hazard.at("cmd_between_packets"), 0u);
}
