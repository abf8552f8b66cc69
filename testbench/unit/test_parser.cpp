// Parser unit tests: one directed test per class and per header feature (VLAN/QinQ,
// IPv4 options and fragments, IPv6 extension headers, window, truncation), plus a
// fuzz test of random and mutated frames. Contract: flowsteer/nic/parser.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "flowsteer/nic/parser.h"
#include "flowsteer/tuple.h"

using flowsteer::FlowTuple;
using flowsteer::nic::kHeaderWindow;
using flowsteer::nic::parse_class_name;
using flowsteer::nic::parse_frame;
using flowsteer::nic::ParseClass;
using flowsteer::nic::ParsedFrame;
using Bytes = std::vector<uint8_t>;

namespace {

uint32_t test_seed() {
  const char* s = std::getenv("FLOWSTEER_TEST_SEED");
  return s ? uint32_t(std::strtoul(s, nullptr, 0)) : 0xF10A5EEDu;
}

void put16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}

// Ethernet header with the given VLAN TPIDs (each followed by a TCI) and EtherType.
Bytes eth(uint16_t ethertype, std::vector<uint16_t> tpids = {}) {
  Bytes b = {0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2};
  for (uint16_t tpid : tpids) {
    put16(b, tpid);
    put16(b, 0x0123);  // TCI
  }
  put16(b, ethertype);
  return b;
}

const uint8_t kSrc4[4] = {192, 168, 1, 10};
const uint8_t kDst4[4] = {10, 0, 0, 7};
const uint8_t kSrc6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
const uint8_t kDst6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf};

// IPv4 header with ihl words (options filled with NOP 0x01), flags/offset word frag.
void ipv4(Bytes& b, uint8_t proto, int ihl = 5, uint16_t frag = 0, int total_len = -1,
          uint8_t version = 4) {
  const size_t hl = size_t(ihl) * 4;
  put16(b, uint16_t(version << 12 | ihl << 8));  // version/IHL, TOS 0
  put16(b, uint16_t(total_len < 0 ? hl + 20 : total_len));
  put16(b, 0x1234);  // ID
  put16(b, frag);
  b.push_back(64);
  b.push_back(proto);
  put16(b, 0);  // checksum (not checked)
  b.insert(b.end(), kSrc4, kSrc4 + 4);
  b.insert(b.end(), kDst4, kDst4 + 4);
  for (size_t i = 20; i < hl; ++i) b.push_back(0x01);
}

void ipv6(Bytes& b, uint8_t nh, uint8_t version = 6) {
  b.push_back(uint8_t(version << 4));
  b.push_back(0);
  put16(b, 0);
  put16(b, 100);  // payload length (ignored)
  b.push_back(nh);
  b.push_back(64);
  b.insert(b.end(), kSrc6, kSrc6 + 16);
  b.insert(b.end(), kDst6, kDst6 + 16);
}

// Generic IPv6 extension header of (len_units + 1) * 8 bytes.
void ext6(Bytes& b, uint8_t nh, uint8_t len_units = 0) {
  b.push_back(nh);
  b.push_back(len_units);
  for (size_t i = 2; i < (size_t(len_units) + 1) * 8; ++i) b.push_back(0);
}

void frag6(Bytes& b, uint8_t nh, uint16_t offset_units, bool more) {
  b.push_back(nh);
  b.push_back(0);
  put16(b, uint16_t(offset_units << 3 | (more ? 1 : 0)));
  put16(b, 0xabcd);
  put16(b, 0x0001);
}

void tcp(Bytes& b, uint16_t sport, uint16_t dport) {
  put16(b, sport);
  put16(b, dport);
  for (int i = 4; i < 20; ++i) b.push_back(i == 12 ? 0x50 : 0);
}

void udp(Bytes& b, uint16_t sport, uint16_t dport) {
  put16(b, sport);
  put16(b, dport);
  put16(b, 8);
  put16(b, 0);
}

void payload(Bytes& b, size_t n, uint8_t fill = 0xEE) { b.insert(b.end(), n, fill); }

ParsedFrame parse(const Bytes& b) { return parse_frame(b.data(), b.size()); }

void expect_v4_addrs(const ParsedFrame& p) {
  EXPECT_EQ(p.tuple.family, 4);
  EXPECT_EQ(0, std::memcmp(p.tuple.src.data(), kSrc4, 4));
  EXPECT_EQ(0, std::memcmp(p.tuple.dst.data(), kDst4, 4));
  for (size_t i = 4; i < 16; ++i) EXPECT_EQ(p.tuple.src[i] | p.tuple.dst[i], 0);
}

void expect_v6_addrs(const ParsedFrame& p) {
  EXPECT_EQ(p.tuple.family, 6);
  EXPECT_EQ(0, std::memcmp(p.tuple.src.data(), kSrc6, 16));
  EXPECT_EQ(0, std::memcmp(p.tuple.dst.data(), kDst6, 16));
}

void expect_no_tuple(const ParsedFrame& p) {
  EXPECT_EQ(p.tuple, FlowTuple{});
  EXPECT_EQ(p.l4_offset, 0);
  EXPECT_FALSE(p.is_ip());
  EXPECT_FALSE(p.has_ports());
}

Bytes v4_tcp_frame(uint16_t sport = 40000, uint16_t dport = 443) {
  Bytes b = eth(0x0800);
  ipv4(b, 6);
  tcp(b, sport, dport);
  return b;
}

}  // namespace

TEST(ParserClass, Names) {
  std::set<std::string> names;
  for (int c = 0; c < flowsteer::nic::kParseClassCount; ++c)
    names.insert(parse_class_name(ParseClass(c)));
  EXPECT_EQ(names.size(), size_t(flowsteer::nic::kParseClassCount));
  EXPECT_STREQ(parse_class_name(ParseClass::kIpv4Tcp), "ipv4-tcp");
}

TEST(ParserIpv4, Tcp) {
  Bytes b = v4_tcp_frame(40000, 443);
  payload(b, 10);
  ParsedFrame p = parse(b);
  EXPECT_EQ(p.cls, ParseClass::kIpv4Tcp);
  expect_v4_addrs(p);
  EXPECT_EQ(p.tuple.proto, 6);
  EXPECT_EQ(p.tuple.sport, 40000);
  EXPECT_EQ(p.tuple.dport, 443);
  EXPECT_EQ(p.vlan_tags, 0);
  EXPECT_EQ(p.l3_offset, 14);
  EXPECT_EQ(p.l4_offset, 34);
  EXPECT_TRUE(p.has_ports());
  EXPECT_TRUE(p.is_ip());
}

TEST(ParserIpv4, Udp) {
  Bytes b = eth(0x0800);
  ipv4(b, 17);
  udp(b, 53, 5353);
  ParsedFrame p = parse(b);
  EXPECT_EQ(p.cls, ParseClass::kIpv4Udp);
  expect_v4_addrs(p);
  EXPECT_EQ(p.tuple.proto, 17);
  EXPECT_EQ(p.tuple.sport, 53);
  EXPECT_EQ(p.tuple.dport, 5353);
}

TEST(ParserIpv4, OtherProtocols) {
  for (uint8_t proto : {1, 2, 47, 50, 51, 132, 0, 255}) {
    SCOPED_TRACE(int(proto));
    Bytes b = eth(0x0800);
    ipv4(b, proto);
    payload(b, 20, 0x77);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv4Other);
    expect_v4_addrs(p);
    EXPECT_EQ(p.tuple.proto, proto);
    EXPECT_EQ(p.tuple.sport | p.tuple.dport, 0);
    EXPECT_EQ(p.l4_offset, 0);
    EXPECT_FALSE(p.has_ports());
    EXPECT_TRUE(p.is_ip());
  }
  // No payload at all is fine for *Other.
  Bytes b = eth(0x0800);
  ipv4(b, 1);
  EXPECT_EQ(parse(b).cls, ParseClass::kIpv4Other);
}

TEST(ParserIpv4, Options) {
  for (int ihl = 5; ihl <= 15; ++ihl) {
    SCOPED_TRACE(ihl);
    Bytes b = eth(0x0800);
    ipv4(b, 17, ihl);
    udp(b, 1111, 2222);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv4Udp);
    EXPECT_EQ(p.l4_offset, 14 + 4 * ihl);
    EXPECT_EQ(p.tuple.sport, 1111);
    EXPECT_EQ(p.tuple.dport, 2222);
    // Options cut short: truncated, never read as ports.
    Bytes cut(b.begin(), b.begin() + 14 + 4 * ihl - 1);
    if (ihl > 5) {
      EXPECT_EQ(parse(cut).cls, ParseClass::kTruncated);
    }
  }
}

TEST(ParserIpv4, Fragments) {
  struct Case {
    uint16_t frag;
    bool is_frag;
  } cases[] = {
      {0x0000, false}, {0x4000, false} /* DF */,  {0x8000, false} /* reserved bit */,
      {0x2000, true} /* first: MF */,  {0x00b9, true} /* last: offset 185 */,
      {0x20b9, true} /* middle */,     {0x6001, true} /* DF|MF|offset 1 */,
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.frag);
    Bytes b = eth(0x0800);
    ipv4(b, 6, 5, c.frag);
    tcp(b, 0x1234, 0x5678);  // the first fragment really carries the TCP header
    ParsedFrame p = parse(b);
    if (!c.is_frag) {
      EXPECT_EQ(p.cls, ParseClass::kIpv4Tcp);
      continue;
    }
    EXPECT_EQ(p.cls, ParseClass::kIpv4Fragment);
    expect_v4_addrs(p);
    EXPECT_EQ(p.tuple.proto, 6);
    EXPECT_EQ(p.tuple.sport, 0);
    EXPECT_EQ(p.tuple.dport, 0);
    EXPECT_EQ(p.l4_offset, 0);
    EXPECT_FALSE(p.has_ports());
    EXPECT_TRUE(p.is_ip());
    // A fragment with no bytes after the IP header is still a fragment.
    Bytes hdr_only(b.begin(), b.begin() + 34);
    EXPECT_EQ(parse(hdr_only).cls, ParseClass::kIpv4Fragment);
  }
}

TEST(ParserIpv4, Malformed) {
  {
    Bytes b = eth(0x0800);
    ipv4(b, 6, 5, 0, -1, 6);  // version 6 under EtherType IPv4
    tcp(b, 1, 2);
    EXPECT_EQ(parse(b).cls, ParseClass::kMalformed);
    expect_no_tuple(parse(b));
  }
  for (int ihl = 0; ihl < 5; ++ihl) {
    Bytes b = eth(0x0800);
    ipv4(b, 6, 5);
    b[14] = uint8_t(0x40 | ihl);
    tcp(b, 1, 2);
    EXPECT_EQ(parse(b).cls, ParseClass::kMalformed) << ihl;
  }
  {
    Bytes b = eth(0x0800);
    ipv4(b, 6, 6, 0, 23);  // total length < 24-byte header
    tcp(b, 1, 2);
    EXPECT_EQ(parse(b).cls, ParseClass::kMalformed);
    b[17] = 24;  // == header length: fine (the TCP header is bounded by the frame only)
    EXPECT_EQ(parse(b).cls, ParseClass::kIpv4Tcp);
    b[16] = 0xff;  // longer than the frame: not checked
    EXPECT_EQ(parse(b).cls, ParseClass::kIpv4Tcp);
  }
}

TEST(ParserVlan, SingleAndQinQ) {
  const std::vector<std::vector<uint16_t>> stacks = {
      {0x8100}, {0x88A8}, {0x88A8, 0x8100}, {0x8100, 0x8100}, {0x8100, 0x88A8}};
  for (const auto& tags : stacks) {
    SCOPED_TRACE(tags.size());
    Bytes b = eth(0x0800, tags);
    ipv4(b, 6);
    tcp(b, 7, 8);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv4Tcp);
    EXPECT_EQ(p.vlan_tags, tags.size());
    EXPECT_EQ(p.l3_offset, 14 + 4 * tags.size());
    EXPECT_EQ(p.l4_offset, 34 + 4 * tags.size());
    EXPECT_EQ(p.tuple.sport, 7);
    Bytes v6 = eth(0x86DD, tags);
    ipv6(v6, 17);
    udp(v6, 9, 10);
    EXPECT_EQ(parse(v6).cls, ParseClass::kIpv6Udp);
    EXPECT_EQ(parse(v6).l4_offset, 54 + 4 * tags.size());
  }
  // A third tag is not skipped: non-IP.
  Bytes b = eth(0x0800, {0x88A8, 0x8100, 0x8100});
  ipv4(b, 6);
  tcp(b, 7, 8);
  ParsedFrame p = parse(b);
  EXPECT_EQ(p.cls, ParseClass::kNonIp);
  EXPECT_EQ(p.vlan_tags, 2);
  EXPECT_EQ(p.l3_offset, 22);
  expect_no_tuple(p);
  // Tag cut short.
  Bytes t = eth(0x0800, {0x8100});
  t.resize(16);
  EXPECT_EQ(parse(t).cls, ParseClass::kTruncated);
  EXPECT_EQ(parse(t).vlan_tags, 0);
}

TEST(ParserNonIp, EtherTypes) {
  for (uint16_t et : {0x0806, 0x88CC, 0x8847, 0x0000, 0x05DC, 0x86DC, 0x0801}) {
    Bytes b = eth(et);
    payload(b, 46);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kNonIp) << et;
    EXPECT_EQ(p.l3_offset, 14);
    expect_no_tuple(p);
  }
  Bytes tagged = eth(0x0806, {0x8100});
  payload(tagged, 28);
  EXPECT_EQ(parse(tagged).cls, ParseClass::kNonIp);
  EXPECT_EQ(parse(tagged).vlan_tags, 1);
}

TEST(ParserTruncated, EveryPrefix) {
  std::vector<Bytes> frames;
  frames.push_back(v4_tcp_frame());
  {
    Bytes b = eth(0x0800, {0x8100});
    ipv4(b, 17, 7);
    udp(b, 1, 2);
    frames.push_back(b);
  }
  {
    Bytes b = eth(0x86DD, {0x88A8, 0x8100});
    ipv6(b, 0);
    ext6(b, 60, 1);
    ext6(b, 6, 0);
    tcp(b, 3, 4);
    frames.push_back(b);
  }
  {
    Bytes b = eth(0x86DD);
    ipv6(b, 44);
    frag6(b, 17, 0, true);
    frames.push_back(b);
  }
  for (const Bytes& full : frames) {
    const ParseClass want = parse(full).cls;
    ASSERT_TRUE(parse(full).is_ip());
    for (size_t n = 0; n < full.size(); ++n) {
      Bytes cut(full.begin(), full.begin() + n);
      ParsedFrame p = parse(cut);
      EXPECT_EQ(p.cls, ParseClass::kTruncated) << "len " << n << " of " << full.size();
      expect_no_tuple(p);
    }
    Bytes padded = full;
    payload(padded, 3);
    EXPECT_EQ(parse(padded).cls, want);
  }
  EXPECT_EQ(parse_frame(nullptr, 0).cls, ParseClass::kTruncated);
  EXPECT_EQ(parse_frame(nullptr, 100).cls, ParseClass::kTruncated);
}

TEST(ParserIpv6, TcpUdpOther) {
  {
    Bytes b = eth(0x86DD);
    ipv6(b, 6);
    tcp(b, 22, 50000);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Tcp);
    expect_v6_addrs(p);
    EXPECT_EQ(p.tuple.proto, 6);
    EXPECT_EQ(p.tuple.sport, 22);
    EXPECT_EQ(p.tuple.dport, 50000);
    EXPECT_EQ(p.l3_offset, 14);
    EXPECT_EQ(p.l4_offset, 54);
  }
  {
    Bytes b = eth(0x86DD);
    ipv6(b, 17);
    udp(b, 4789, 4789);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Udp);
    EXPECT_EQ(p.tuple.proto, 17);
    EXPECT_EQ(p.tuple.sport, 4789);
  }
  // ICMPv6, No Next Header, ESP, AH (decision: upper layer, *Other), SCTP, GRE.
  for (uint8_t nh : {58, 59, 50, 51, 132, 47}) {
    Bytes b = eth(0x86DD);
    ipv6(b, nh);
    payload(b, 8, 0x11);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Other) << int(nh);
    expect_v6_addrs(p);
    EXPECT_EQ(p.tuple.proto, nh);
    EXPECT_EQ(p.tuple.sport | p.tuple.dport, 0);
    EXPECT_EQ(p.l4_offset, 0);
  }
  // AH followed by TCP: the TCP ports behind AH are never used.
  Bytes ah = eth(0x86DD);
  ipv6(ah, 51);
  ext6(ah, 6, 2);
  tcp(ah, 1, 2);
  EXPECT_EQ(parse(ah).cls, ParseClass::kIpv6Other);
  EXPECT_EQ(parse(ah).tuple.sport, 0);
}

TEST(ParserIpv6, Malformed) {
  Bytes b = eth(0x86DD);
  ipv6(b, 6, 4);
  tcp(b, 1, 2);
  EXPECT_EQ(parse(b).cls, ParseClass::kMalformed);
  expect_no_tuple(parse(b));
}

TEST(ParserIpv6, ExtensionHeaders) {
  // One and two walked headers, lengths from the hdr_ext_len field.
  for (uint8_t first : {0, 43, 60}) {
    for (uint8_t units : {0, 1, 3}) {
      Bytes b = eth(0x86DD);
      ipv6(b, first);
      ext6(b, 6, units);
      tcp(b, 80, 8080);
      ParsedFrame p = parse(b);
      EXPECT_EQ(p.cls, ParseClass::kIpv6Tcp) << int(first) << "/" << int(units);
      EXPECT_EQ(p.l4_offset, 54 + (units + 1) * 8);
      EXPECT_EQ(p.tuple.dport, 8080);
    }
  }
  {
    Bytes b = eth(0x86DD);
    ipv6(b, 0);
    ext6(b, 43, 0);
    ext6(b, 17, 1);  // Routing
    udp(b, 5, 6);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Udp);
    EXPECT_EQ(p.l4_offset, 54 + 8 + 16);
    expect_v6_addrs(p);
  }
  {  // Three walkable headers: beyond what is walked.
    Bytes b = eth(0x86DD);
    ipv6(b, 0);
    ext6(b, 60, 0);
    ext6(b, 43, 0);
    ext6(b, 6, 0);
    tcp(b, 5, 6);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kUnsupported);
    expect_no_tuple(p);
  }
  // Extension headers the parser does not walk.
  for (uint8_t nh : {135, 139, 140, 253, 254}) {
    Bytes b = eth(0x86DD);
    ipv6(b, nh);
    ext6(b, 6, 0);
    tcp(b, 5, 6);
    EXPECT_EQ(parse(b).cls, ParseClass::kUnsupported) << int(nh);
  }
  {  // Second header unwalkable.
    Bytes b = eth(0x86DD);
    ipv6(b, 60);
    ext6(b, 135, 0);
    ext6(b, 6, 0);
    tcp(b, 5, 6);
    EXPECT_EQ(parse(b).cls, ParseClass::kUnsupported);
  }
}

TEST(ParserIpv6, Fragments) {
  struct Case {
    uint16_t offset;
    bool more;
  } cases[] = {{0, true}, {100, true}, {100, false}, {0, false} /* atomic */};
  for (const auto& c : cases) {
    Bytes b = eth(0x86DD);
    ipv6(b, 44);
    frag6(b, 6, c.offset, c.more);
    tcp(b, 0xAAAA, 0xBBBB);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Fragment);
    expect_v6_addrs(p);
    EXPECT_EQ(p.tuple.proto, 6);  // inner next header
    EXPECT_EQ(p.tuple.sport | p.tuple.dport, 0);
    EXPECT_EQ(p.l4_offset, 0);
    EXPECT_TRUE(p.is_ip());
    EXPECT_FALSE(p.has_ports());
  }
  {  // After two walked headers (the fragment header is not counted).
    Bytes b = eth(0x86DD);
    ipv6(b, 0);
    ext6(b, 60, 0);
    ext6(b, 44, 0);
    frag6(b, 17, 0, true);
    udp(b, 1, 2);
    ParsedFrame p = parse(b);
    EXPECT_EQ(p.cls, ParseClass::kIpv6Fragment);
    EXPECT_EQ(p.tuple.proto, 17);
  }
  {  // Fragment header cut short.
    Bytes b = eth(0x86DD);
    ipv6(b, 44);
    frag6(b, 6, 0, true);
    b.pop_back();
    EXPECT_EQ(parse(b).cls, ParseClass::kTruncated);
  }
}

TEST(ParserWindow, LongFramesAndWindowLimit) {
  // Long frame: only the window is looked at.
  Bytes b = v4_tcp_frame(1, 2);
  payload(b, 1400);
  EXPECT_EQ(parse(b).cls, ParseClass::kIpv4Tcp);
  // IPv4 with maximum options behind two tags: still inside the window (102 bytes).
  Bytes m = eth(0x0800, {0x88A8, 0x8100});
  ipv4(m, 6, 15);
  tcp(m, 3, 4);
  EXPECT_EQ(m.size(), 102u);
  EXPECT_EQ(parse(m).cls, ParseClass::kIpv4Tcp);
  // IPv6 extension header reaching past the window: unsupported if the frame goes on,
  // truncated if the frame itself ends there.
  Bytes v = eth(0x86DD);
  ipv6(v, 60);
  ext6(v, 6, 7);  // 64 bytes: 54 + 64 = 118, TCP needs up to 138 > 128
  tcp(v, 5, 6);
  payload(v, 100);
  EXPECT_EQ(parse(v).cls, ParseClass::kUnsupported);
  Bytes vt(v.begin(), v.begin() + 130);  // TCP would need bytes up to 138 > 130
  EXPECT_EQ(parse(vt).cls, ParseClass::kTruncated);
  // The extension header itself crossing the window (54 + 88 = 142 > 128).
  Bytes w = eth(0x86DD);
  ipv6(w, 0);
  ext6(w, 17, 10);
  udp(w, 5, 6);
  EXPECT_EQ(parse(w).cls, ParseClass::kUnsupported);
  Bytes wt(w.begin(), w.begin() + 100);
  EXPECT_EQ(parse(wt).cls, ParseClass::kTruncated);
}

TEST(ParserFuzz, RandomAndMutatedFrames) {
  const uint32_t seed = test_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed) + " (set FLOWSTEER_TEST_SEED to replay)");
  std::mt19937 rng(seed);
  std::vector<Bytes> seeds;
  seeds.push_back(v4_tcp_frame());
  {
    Bytes b = eth(0x0800, {0x8100});
    ipv4(b, 17, 8, 0x2000);
    udp(b, 1, 2);
    seeds.push_back(b);
  }
  {
    Bytes b = eth(0x86DD, {0x88A8, 0x8100});
    ipv6(b, 0);
    ext6(b, 43, 1);
    udp(b, 3, 4);
    seeds.push_back(b);
  }
  {
    Bytes b = eth(0x86DD);
    ipv6(b, 60);
    ext6(b, 44, 0);
    frag6(b, 6, 0, true);
    tcp(b, 5, 6);
    seeds.push_back(b);
  }
  {
    Bytes b = eth(0x0800);
    ipv4(b, 6, 15, 0x00b9);
    tcp(b, 7, 8);
    seeds.push_back(b);
  }
  const int kFrames = 240000;
  int counts[flowsteer::nic::kParseClassCount] = {};
  Bytes guard(512);
  for (int i = 0; i < kFrames; ++i) {
    Bytes f;
    if (i % 2 == 0) {  // random bytes, often with a plausible EtherType and version
      f.resize(rng() % 201);
      for (auto& x : f) x = uint8_t(rng());
      if (f.size() >= 14 && (rng() % 4) != 0) {
        static const uint16_t kTypes[] = {0x0800, 0x86DD, 0x8100, 0x88A8};
        const uint16_t et = kTypes[rng() % 4];
        f[12] = uint8_t(et >> 8);
        f[13] = uint8_t(et);
        if (f.size() > 14) f[14] = uint8_t((et == 0x86DD ? 0x60 : 0x40) | (f[14] & 0x0F));
      }
    } else {  // mutated valid frame
      f = seeds[rng() % seeds.size()];
      if (rng() % 2) payload(f, rng() % 80, uint8_t(rng()));
      const int flips = 1 + int(rng() % 4);
      for (int k = 0; k < flips && !f.empty(); ++k) {
        size_t at = rng() % f.size();
        if (rng() % 2) f[at] ^= uint8_t(1u << (rng() % 8));
        else f[at] = uint8_t(rng());
      }
      if (rng() % 3 == 0) f.resize(rng() % (f.size() + 1));
    }
    // The frame sits in a larger buffer whose tail is garbage: the result must not
    // depend on bytes past len (or past the window).
    std::copy(f.begin(), f.end(), guard.begin());
    for (size_t k = f.size(); k < guard.size(); ++k) guard[k] = uint8_t(rng());
    const Bytes exact(f);  // heap block of exactly len bytes (ASan catches over-reads)
    const ParsedFrame p = parse_frame(exact.data(), exact.size());
    const ParsedFrame q = parse_frame(guard.data(), f.size());
    ASSERT_EQ(int(p.cls), int(q.cls)) << "read past len, frame " << i;
    ASSERT_TRUE(p.tuple == q.tuple);
    ASSERT_LT(int(p.cls), flowsteer::nic::kParseClassCount);
    ++counts[int(p.cls)];
    if (f.size() > kHeaderWindow) {  // bytes past the window never matter
      Bytes g = f;
      for (size_t k = kHeaderWindow; k < g.size(); ++k) g[k] = uint8_t(~g[k]);
      const ParsedFrame r = parse_frame(g.data(), g.size());
      ASSERT_EQ(int(p.cls), int(r.cls));
      ASSERT_TRUE(p.tuple == r.tuple);
    }
    ASSERT_LE(p.vlan_tags, 2);
    if (!p.is_ip()) {
      ASSERT_TRUE(p.tuple == FlowTuple{});
      ASSERT_EQ(p.l4_offset, 0);
      continue;
    }
    ASSERT_EQ(p.l3_offset, 14 + 4 * p.vlan_tags);
    const bool v4 = p.cls == ParseClass::kIpv4Tcp || p.cls == ParseClass::kIpv4Udp ||
                    p.cls == ParseClass::kIpv4Other || p.cls == ParseClass::kIpv4Fragment;
    ASSERT_EQ(p.tuple.family, v4 ? 4 : 6);
    const size_t l3 = p.l3_offset;
    if (v4) {
      ASSERT_EQ(0, std::memcmp(p.tuple.src.data(), &f[l3 + 12], 4));
      ASSERT_EQ(0, std::memcmp(p.tuple.dst.data(), &f[l3 + 16], 4));
      const uint16_t frag = uint16_t(f[l3 + 6] << 8 | f[l3 + 7]);
      ASSERT_EQ(p.cls == ParseClass::kIpv4Fragment, (frag & 0x3FFF) != 0);
    } else {
      ASSERT_EQ(0, std::memcmp(p.tuple.src.data(), &f[l3 + 8], 16));
    }
    if (p.has_ports()) {
      ASSERT_GE(p.l4_offset, l3 + (v4 ? 20 : 40));
      ASSERT_LE(p.l4_offset + size_t(p.tuple.proto == 6 ? 20 : 8),
                std::min(f.size(), kHeaderWindow));
      ASSERT_EQ(p.tuple.sport, uint16_t(f[p.l4_offset] << 8 | f[p.l4_offset + 1]));
      ASSERT_EQ(p.tuple.dport, uint16_t(f[p.l4_offset + 2] << 8 | f[p.l4_offset + 3]));
      if (v4) {
        ASSERT_EQ(p.l4_offset, l3 + 4 * (f[l3] & 0x0F));
      }
    } else {
      ASSERT_EQ(p.tuple.sport, 0);  // fragments and *Other never carry ports
      ASSERT_EQ(p.tuple.dport, 0);
      ASSERT_EQ(p.l4_offset, 0);
    }
  }
  for (int c = 0; c < flowsteer::nic::kParseClassCount; ++c)
    EXPECT_GT(counts[c], 0) << "fuzz never produced class " << parse_class_name(ParseClass(c));
}
