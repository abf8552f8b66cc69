// Directed conformance: frames of every parse class through the whole engine, RTL against the
// golden model (class, tuple-derived hash, queue, RFS decision, steer, counters): malformed and
// truncated frames (every prefix of TCP frames), jumbo multi-beat frames in both builds, VLAN
// (single, QinQ, a third tag), IPv4 options and fragments, IPv6 TCP/UDP/fragment/extension
// headers (walked, unwalked, beyond the header window), non-IP. Most frames also carry a sock
// entry so that the parser's tuple feeds the steer path and the events.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "directed_rig.h"

using namespace flowsteer::testbench::conformance;
using flowsteer::nic::kHeaderWindow;

namespace {

RigOptions opts(uint64_t seed, EngineBuild b = EngineBuild::kStandard) {
  RigOptions o;
  o.seed = seed;
  o.build = b;
  return o;
}

RigSetup setup_for(const Rig& rig) {
  RigSetup s;
  s.cpus = std::min(8u, rig.max_cpus());
  s.queues = std::min(8u, rig.max_queues());
  s.lut_log2 = std::min(7u, rig.caps().lut_log2);
  s.flow_cnt = 1ull << std::min(4u, rig.caps().slot_log2);
  s.sock_entries = 1ull << std::min(8u, rig.caps().sock_log2);
  return s;
}

struct Case {
  std::string name;
  Bytes f;
  ParseClass want;
};

// Sends each case (with a sock entry for its hash on CPU 1 when it has one) and checks the class.
void run_cases(Rig& rig, const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name + " (" + std::to_string(c.f.size()) + " bytes)");
    Flow fl = rig.flow(c.f);
    if (fl.hash) rig.sock(fl.hash, 1);
    OutputRecord rec = rig.pkt(c.f, uint16_t(c.f.size()));
    EXPECT_EQ(rec.cls, c.want) << flowsteer::nic::parse_class_name(rec.cls);
    EXPECT_EQ(rec.hash, fl.hash);
  }
}

}  // namespace

// One frame of every class and header feature, in both builds.
TEST(DirectedFrames, EveryParseClassAndHeaderFeature) {
  for (EngineBuild b : {EngineBuild::kStandard, EngineBuild::kSmall}) {
    SCOPED_TRACE(b == EngineBuild::kStandard ? "standard build" : "small build");
    Rig rig(opts(b == EngineBuild::kStandard ? 501 : 502, b));
    rig.configure(setup_for(rig));
    std::vector<Case> cs = {
        {"ipv4 tcp", frame(tcp4(1)), ParseClass::kIpv4Tcp},
        {"ipv4 udp", frame(udp4(2)), ParseClass::kIpv4Udp},
        {"ipv4 icmp", frame(other4(1, 3)), ParseClass::kIpv4Other},
        {"ipv4 sctp", frame(other4(132, 4)), ParseClass::kIpv4Other},
        {"ipv4 esp", frame(other4(50, 5)), ParseClass::kIpv4Other},
        {"ipv6 tcp", frame(tcp6(6)), ParseClass::kIpv6Tcp},
        {"ipv6 udp", frame(udp6(7)), ParseClass::kIpv6Udp},
        {"ipv6 icmpv6", frame(other6(58)), ParseClass::kIpv6Other},
        {"ipv6 no next header", frame(other6(59)), ParseClass::kIpv6Other},
        {"vlan ipv4 tcp", frame_vlan(tcp4(8), 1), ParseClass::kIpv4Tcp},
        {"qinq ipv4 tcp", frame_vlan(tcp4(9), 2), ParseClass::kIpv4Tcp},
        {"vlan ipv6 udp", frame_vlan(udp6(10), 1), ParseClass::kIpv6Udp},
        {"qinq ipv6 tcp", frame_vlan(tcp6(11), 2), ParseClass::kIpv6Tcp},
        {"three tags", frame_non_ip(0x0800, {0x88A8, 0x8100, 0x8100}), ParseClass::kNonIp},
        {"arp", frame_non_ip(0x0806), ParseClass::kNonIp},
        {"lldp", frame_non_ip(0x88CC), ParseClass::kNonIp},
        {"802.3 length", frame_non_ip(0x05DC), ParseClass::kNonIp},
        {"vlan arp", frame_non_ip(0x0806, {0x8100}), ParseClass::kNonIp},
        {"ipv4 frag first", frame_ipv4_fragment(tcp4(12), Frag::kFirst), ParseClass::kIpv4Fragment},
        {"ipv4 frag middle", frame_ipv4_fragment(tcp4(13), Frag::kMiddle), ParseClass::kIpv4Fragment},
        {"ipv4 frag last", frame_ipv4_fragment(udp4(14), Frag::kLast), ParseClass::kIpv4Fragment},
        {"ipv6 frag first", frame_ipv6_fragment(tcp6(15), Frag::kFirst), ParseClass::kIpv6Fragment},
        {"ipv6 frag middle", frame_ipv6_fragment(udp6(16), Frag::kMiddle), ParseClass::kIpv6Fragment},
        {"ipv6 frag last", frame_ipv6_fragment(tcp6(17), Frag::kLast), ParseClass::kIpv6Fragment},
        {"ipv6 hbh tcp", frame_ipv6_ext(tcp6(18), {{0, 0}}), ParseClass::kIpv6Tcp},
        {"ipv6 routing udp", frame_ipv6_ext(udp6(19), {{43, 2}}), ParseClass::kIpv6Udp},
        {"ipv6 dstopt+hbh tcp", frame_ipv6_ext(tcp6(20), {{60, 1}, {0, 0}}), ParseClass::kIpv6Tcp},
        {"ipv6 hbh+frag", frame_ipv6_ext(tcp6(21), {{0, 0}, {44, 0}}), ParseClass::kIpv6Fragment},
        {"ipv6 three ext", frame_ipv6_ext(tcp6(22), {{0, 0}, {43, 0}, {60, 0}}), ParseClass::kUnsupported},
        {"ipv6 mobility", frame_ipv6_ext(tcp6(23), {{135, 0}}), ParseClass::kUnsupported},
        {"ipv6 hip", frame_ipv6_ext(tcp6(24), {{139, 1}}), ParseClass::kUnsupported},
        {"ipv6 shim6", frame_ipv6_ext(tcp6(25), {{140, 0}}), ParseClass::kUnsupported},
        {"ipv6 exp 253", frame_ipv6_ext(udp6(26), {{253, 0}}), ParseClass::kUnsupported},
        {"ipv6 ext beyond window", frame_ipv6_ext(tcp6(27), {{0, 15}}), ParseClass::kUnsupported},
        {"vlan ipv6 hbh udp", frame_ipv6_ext(udp6(28), {{0, 1}}, 1), ParseClass::kIpv6Udp},
        {"ipv4 bad version", frame_malformed(tcp4(29), Bad::kIpv4Version), ParseClass::kMalformed},
        {"ipv4 ihl 4", frame_malformed(tcp4(30), Bad::kIpv4IhlBelow5), ParseClass::kMalformed},
        {"ipv4 total length 19", frame_malformed(tcp4(31), Bad::kIpv4TotalLenBelowHeader), ParseClass::kMalformed},
        {"ipv6 bad version", frame_malformed(tcp6(32), Bad::kIpv6Version), ParseClass::kMalformed},
        {"runt", Bytes{1, 2, 3, 4, 5}, ParseClass::kTruncated},
        {"one byte", Bytes{0x55}, ParseClass::kTruncated},
    };
    for (uint8_t words = 1; words <= 10; ++words)
      cs.push_back({"ipv4 options " + std::to_string(words), frame_ipv4_options(tcp4(40u + words), words),
                    ParseClass::kIpv4Tcp});
    cs.push_back({"ipv4 options udp qinq", [] {
                    flowsteer::nic::FrameOptions o;
                    o.vlan_tags = 2;
                    o.ipv4_option_words = 10;  // 14 + 8 + 60 + 8 = 90 bytes of headers
                    return flowsteer::nic::build_frame(udp4(60), o);
                  }(),
                  ParseClass::kIpv4Udp});
    run_cases(rig, cs);
    FS_FINISH(rig);
    const auto& cov = rig.sb().coverage();
    for (int c = 0; c < flowsteer::nic::kParseClassCount; ++c)
      EXPECT_GT(cov.parse_class[size_t(c)], 0u) << flowsteer::nic::parse_class_name(ParseClass(c));
    EXPECT_GT(cov.action[size_t(SteerAction::kSteered)], 0u);
    EXPECT_GT(cov.action[size_t(SteerAction::kDriverError)], 0u);
  }
}

// Every prefix (1..80 bytes) of 80-byte TCP frames (IPv4, IPv4 in QinQ, IPv6): kTruncated until the
// TCP header is complete, then TCP. A 0-byte frame cannot be sent on AXI4-Stream (a transfer carries
// at least one byte with TLAST): the harness refuses it.
TEST(DirectedFrames, TruncatedEveryLength) {
  Rig rig(opts(503));
  rig.configure(setup_for(rig));
  EXPECT_THROW(rig.sim().send_frame(nullptr, 0), std::invalid_argument);
  struct Full {
    std::string name;
    Bytes f;
    size_t need;  // bytes up to the end of the TCP header
  };
  const std::vector<Full> fulls = {
      {"ipv4", frame_payload(tcp4(1), 26), 14 + 20 + 20},
      {"qinq ipv4", frame_payload(tcp4(2), 18, 2), 22 + 20 + 20},
      {"ipv6", frame_payload(tcp6(3), 6), 14 + 40 + 20},
  };
  for (const auto& full : fulls) {
    ASSERT_EQ(full.f.size(), 80u) << full.name;
    Flow fl = rig.flow(full.f);
    rig.sock(fl.hash, 2);
    std::vector<Bytes> frames;
    for (size_t n = 1; n <= 80; ++n) frames.push_back(prefix(full.f, n));
    auto recs = rig.burst(frames);
    for (size_t n = 1; n <= 80; ++n) {
      const ParseClass want = n < full.need ? ParseClass::kTruncated
                              : full.name == "ipv6" ? ParseClass::kIpv6Tcp
                                                    : ParseClass::kIpv4Tcp;
      EXPECT_EQ(recs[n - 1].cls, want) << full.name << " prefix " << n;
      if (n < full.need) {
        EXPECT_FALSE(recs[n - 1].hash_valid) << full.name << " prefix " << n;
      }
    }
  }
  FS_FINISH(rig);
  EXPECT_GE(rig.sb().coverage().parse_class[size_t(ParseClass::kTruncated)], 3u * 50u);
}

// Jumbo and odd-sized multi-beat frames in both builds, with back-pressure: 9000-byte frames of
// every family, sizes around the beat width, and steering decided on a jumbo frame.
TEST(DirectedFrames, JumboAndMultiBeatBothBuilds) {
  for (EngineBuild b : {EngineBuild::kStandard, EngineBuild::kSmall}) {
    SCOPED_TRACE(b == EngineBuild::kStandard ? "standard build" : "small build");
    RigOptions o = opts(b == EngineBuild::kStandard ? 504 : 505, b);
    o.frame_gap = 0.2;
    o.rec_ready = 0.5;
    Rig rig(o);
    rig.configure(setup_for(rig));
    const uint32_t t = 1;
    Flow j4 = rig.find([](uint32_t n) { return tcp4(n); }, [&](const Flow& f) { return f.rxq != t; });
    const Bytes jumbo4 = frame_payload(j4.t, 9000 - 54);
    ASSERT_EQ(jumbo4.size(), 9000u);
    rig.sock(rig.flow(jumbo4).hash, t);
    OutputRecord rec = rig.pkt(jumbo4, 0xBEEF);
    EXPECT_EQ(rec.cls, ParseClass::kIpv4Tcp);
    EXPECT_EQ(rec.action, SteerAction::kSteered);
    auto ev = rig.pop_event();
    ASSERT_TRUE(ev);
    EXPECT_EQ(ev->tuple, j4.t);
    rec = rig.pkt(jumbo4);
    EXPECT_TRUE(rec.filter_hit);
    std::vector<Bytes> frames = {
        frame_payload(tcp6(70), 9000 - 74),
        frame_payload(udp4(71), 9000 - 42 - 4, 1),
        frame_payload(udp6(72), 8000, 2),
        frame_ipv6_ext(tcp6(73), {{0, 15}}),  // ext header reaches past the header window
        frame_non_ip(0x0806, {}, 9000 - 14),
        frame_payload(tcp4(74), 9001 - 54),
    };
    for (size_t n : {63u, 64u, 65u, 127u, 128u, 129u, 191u, 192u, 193u, 1514u, 1518u, 1519u})
      frames.push_back(frame_payload(tcp4(uint32_t(100 + n)), n - 54));
    for (const auto& f : frames) {
      Flow fl = rig.flow(f);
      if (fl.hash) rig.sock(fl.hash, 2);
    }
    auto recs = rig.burst(frames);
    EXPECT_EQ(recs[0].cls, ParseClass::kIpv6Tcp);
    EXPECT_EQ(recs[1].cls, ParseClass::kIpv4Udp);
    EXPECT_EQ(recs[2].cls, ParseClass::kIpv6Udp);
    EXPECT_EQ(recs[3].cls, ParseClass::kUnsupported);
    EXPECT_EQ(recs[4].cls, ParseClass::kNonIp);
    for (size_t i = 5; i < recs.size(); ++i) EXPECT_EQ(recs[i].cls, ParseClass::kIpv4Tcp) << i;
    EXPECT_GT(frames[3].size(), kHeaderWindow);
    FS_FINISH(rig);
  }
}
