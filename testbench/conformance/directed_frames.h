// Directed frame builders for the conformance suites (what nic::build_frame and
// sim/common/frame_gen.h do not offer): IPv6 extension-header chains, the malformed IPv4 and
// IPv6 headers of the parser contract (flowsteer/nic/parser.h), non-IP EtherTypes, a third VLAN
// tag, jumbo frames and prefixes. Every builder returns real bytes; the expected class is the
// golden parser's, so these only pick the stimulus.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "flowsteer/nic/frame.h"
#include "flowsteer/tuple.h"

namespace flowsteer::testbench::conformance {

using Bytes = std::vector<uint8_t>;
using flowsteer::FlowTuple;

inline void put16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}
inline void put32(Bytes& b, uint32_t v) {
  put16(b, uint16_t(v >> 16));
  put16(b, uint16_t(v));
}

// Flow n of a family: 10.0.0.1:(1000+n) -> 10.0.1.1:80 (TCP) or the IPv6 equivalent.
inline FlowTuple tcp4(uint32_t n, uint16_t dport = 80) {
  return flowsteer::make_tuple("10.0.0.1", "10.0.1.1", uint16_t(1000 + n), dport);
}
inline FlowTuple udp4(uint32_t n, uint16_t dport = 53) {
  return flowsteer::make_tuple("10.0.0.1", "10.0.1.1", uint16_t(1000 + n), dport, flowsteer::kIpProtoUdp);
}
inline FlowTuple tcp6(uint32_t n, uint16_t dport = 443) {
  return flowsteer::make_tuple("2001:db8::1", "2001:db8:1::7", uint16_t(1000 + n), dport);
}
inline FlowTuple udp6(uint32_t n, uint16_t dport = 4789) {
  return flowsteer::make_tuple("2001:db8::1", "2001:db8:1::7", uint16_t(1000 + n), dport,
                               flowsteer::kIpProtoUdp);
}
// A tuple with another IP protocol (ports 0): ICMP 1, SCTP 132, GRE 47, ICMPv6 58, ...
inline FlowTuple other4(uint8_t proto, uint32_t n = 0) {
  return flowsteer::make_tuple("10.0.0.1", "10.0.2." + std::to_string(1 + n % 250), 0, 0, proto);
}
inline FlowTuple other6(uint8_t proto) {
  return flowsteer::make_tuple("2001:db8::1", "2001:db8:2::9", 0, 0, proto);
}

inline Bytes frame(const FlowTuple& t, const flowsteer::nic::FrameOptions& o = {}) {
  return flowsteer::nic::build_frame(t, o);
}
inline Bytes frame_vlan(const FlowTuple& t, uint8_t tags) {
  flowsteer::nic::FrameOptions o;
  o.vlan_tags = tags;
  return flowsteer::nic::build_frame(t, o);
}
inline Bytes frame_payload(const FlowTuple& t, size_t payload, uint8_t vlan_tags = 0) {
  flowsteer::nic::FrameOptions o;
  o.payload = payload;
  o.vlan_tags = vlan_tags;
  return flowsteer::nic::build_frame(t, o);
}

// IPv4 fragments of a TCP/UDP flow: first (MF, offset 0), middle (MF, offset), last (offset).
enum class Frag { kFirst, kMiddle, kLast };
inline Bytes frame_ipv4_fragment(const FlowTuple& t, Frag f) {
  flowsteer::nic::FrameOptions o;
  o.ipv4_more_fragments = f != Frag::kLast;
  o.ipv4_frag_offset = f == Frag::kFirst ? 0 : f == Frag::kMiddle ? 185 : 370;
  o.payload = 64;
  return flowsteer::nic::build_frame(t, o);
}
inline Bytes frame_ipv6_fragment(const FlowTuple& t, Frag f) {
  flowsteer::nic::FrameOptions o;
  o.ipv6_fragment_header = true;
  o.ipv4_more_fragments = f != Frag::kLast;  // the M flag
  o.ipv4_frag_offset = f == Frag::kFirst ? 0 : f == Frag::kMiddle ? 185 : 370;
  o.payload = 64;
  return flowsteer::nic::build_frame(t, o);
}

// IPv4 header with `option_words` options (10 max) for a TCP/UDP tuple.
inline Bytes frame_ipv4_options(const FlowTuple& t, uint8_t option_words) {
  flowsteer::nic::FrameOptions o;
  o.ipv4_option_words = option_words;
  return flowsteer::nic::build_frame(t, o);
}

// IPv6 with an extension-header chain before the upper layer of t. Each element is
// (header type, length in 8-byte units minus 1): 0 Hop-by-Hop, 43 Routing, 60 Dest. options,
// 44 Fragment (len ignored: always 8 bytes), or an unwalked type (135, 139, 140, 253, 254).
inline Bytes frame_ipv6_ext(const FlowTuple& t, std::initializer_list<std::pair<uint8_t, uint8_t>> chain,
                            uint8_t vlan_tags = 0) {
  Bytes b = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02};
  if (vlan_tags == 2) {
    put16(b, 0x88A8);
    put16(b, 100);
  }
  if (vlan_tags >= 1) {
    put16(b, 0x8100);
    put16(b, 100);
  }
  put16(b, 0x86DD);
  const size_t l3 = b.size();
  put32(b, 0x60000000);
  put16(b, 0);  // payload length, patched below (the parser ignores it)
  const size_t nh0 = b.size();
  b.push_back(0);
  b.push_back(64);
  b.insert(b.end(), t.src.begin(), t.src.end());
  b.insert(b.end(), t.dst.begin(), t.dst.end());
  size_t prev = nh0;
  for (auto [type, len] : chain) {
    b[prev] = type;
    prev = b.size();
    b.push_back(0);  // next header, set by the following element
    if (type == 44) {
      b.push_back(0);
      put16(b, 0);
      put32(b, 0xBEEF);
      continue;
    }
    b.push_back(len);
    for (size_t i = 2; i < size_t(len + 1) * 8; ++i) b.push_back(i == 2 ? 1 : 0);  // PadN-ish
  }
  b[prev] = t.proto;
  if (t.proto == flowsteer::kIpProtoTcp) {
    put16(b, t.sport);
    put16(b, t.dport);
    put32(b, 1);
    put32(b, 0);
    b.push_back(0x50);
    b.push_back(0x10);
    put16(b, 65535);
    put32(b, 0);
  } else if (t.proto == flowsteer::kIpProtoUdp) {
    put16(b, t.sport);
    put16(b, t.dport);
    put16(b, 8);
    put16(b, 0);
  } else {
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(i));
  }
  const size_t pl = b.size() - l3 - 40;
  b[l3 + 4] = uint8_t(pl >> 8);
  b[l3 + 5] = uint8_t(pl);
  while (b.size() < 60) b.push_back(0);
  return b;
}

// Non-IP frames: an EtherType (ARP 0x0806, LLDP 0x88CC, MPLS 0x8847, an 802.3 length 0x05DC)
// with `len` bytes of payload, optionally behind VLAN TPIDs (three tags: the third is not skipped).
inline Bytes frame_non_ip(uint16_t ethertype, std::initializer_list<uint16_t> tpids = {}, size_t len = 46) {
  Bytes b = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02};
  for (uint16_t tpid : tpids) {
    put16(b, tpid);
    put16(b, 0x0042);
  }
  put16(b, ethertype);
  for (size_t i = 0; i < len; ++i) b.push_back(uint8_t(0x30 + i));
  return b;
}

// Malformed IP headers of the parser contract (step 4 and 7): every one is kMalformed.
enum class Bad { kIpv4Version, kIpv4IhlBelow5, kIpv4TotalLenBelowHeader, kIpv6Version };
inline Bytes frame_malformed(const FlowTuple& t, Bad what) {
  if (what == Bad::kIpv6Version) {
    Bytes b = flowsteer::nic::build_frame(t);  // t must be IPv6
    b[14] = uint8_t(0x40 | (b[14] & 0x0F));   // version 4 in an 0x86DD frame
    return b;
  }
  Bytes b = flowsteer::nic::build_frame(t);  // t must be IPv4
  switch (what) {
    case Bad::kIpv4Version: b[14] = 0x65; break;       // version 6 in an 0x0800 frame
    case Bad::kIpv4IhlBelow5: b[14] = 0x44; break;     // IHL 4
    case Bad::kIpv4TotalLenBelowHeader:                  // total length 19 < 20
      b[16] = 0;
      b[17] = 19;
      break;
    default: break;
  }
  return b;
}

// The first n bytes of f (n <= f.size()).
inline Bytes prefix(const Bytes& f, size_t n) { return Bytes(f.begin(), f.begin() + long(n)); }

}  // namespace flowsteer::testbench::conformance
