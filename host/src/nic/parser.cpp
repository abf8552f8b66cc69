// NIC plane header parser. The contract, check by check, is in flowsteer/nic/parser.h;
// this file follows it step by step (step numbers refer to that comment).
#include "flowsteer/nic/parser.h"

#include <algorithm>
#include <cstring>

namespace flowsteer::nic {

namespace {

constexpr uint16_t kEthIpv4 = 0x0800;
constexpr uint16_t kEthIpv6 = 0x86DD;
constexpr uint16_t kEthVlan = 0x8100;
constexpr uint16_t kEthQinQ = 0x88A8;
constexpr size_t kEthHeader = 14;
constexpr size_t kVlanTag = 4;
constexpr size_t kIpv4MinHeader = 20;
constexpr size_t kIpv6Header = 40;
constexpr size_t kTcpHeader = 20;
constexpr size_t kUdpHeader = 8;
constexpr size_t kIpv6FragHeader = 8;
constexpr int kMaxVlanTags = 2;

inline uint16_t be16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }

// Bounds of one parse: the frame length and the header window.
struct Bounds {
  size_t len;     // real frame length
  size_t window;  // min(len, kHeaderWindow): the bytes we may read
  // "need n bytes at off": kTruncated past the frame, kUnsupported past the window.
  bool need(size_t off, size_t n, ParseClass& fail) const {
    if (off + n <= window) return true;
    fail = off + n > len ? ParseClass::kTruncated : ParseClass::kUnsupported;
    return false;
  }
};

ParsedFrame finish(ParsedFrame& r, ParseClass c) {
  r.cls = c;
  if (!r.is_ip()) {
    r.tuple = FlowTuple{};
    r.l4_offset = 0;
  }
  return r;
}

void set_ports(ParsedFrame& r, const uint8_t* f, size_t l4) {
  r.tuple.sport = be16(f + l4);
  r.tuple.dport = be16(f + l4 + 2);
  r.l4_offset = uint16_t(l4);
}

ParsedFrame parse_ipv4(ParsedFrame& r, const uint8_t* f, const Bounds& b, size_t l3) {
  ParseClass fail = ParseClass::kTruncated;
  if (!b.need(l3, kIpv4MinHeader, fail)) return finish(r, fail);  // step 4
  const uint8_t* ip = f + l3;
  if ((ip[0] >> 4) != 4) return finish(r, ParseClass::kMalformed);
  const size_t ihl_bytes = size_t(ip[0] & 0x0F) * 4;
  if (ihl_bytes < kIpv4MinHeader) return finish(r, ParseClass::kMalformed);
  if (be16(ip + 2) < ihl_bytes) return finish(r, ParseClass::kMalformed);
  if (!b.need(l3, ihl_bytes, fail)) return finish(r, fail);

  r.tuple.family = 4;
  r.tuple.proto = ip[9];
  std::memcpy(r.tuple.src.data(), ip + 12, 4);
  std::memcpy(r.tuple.dst.data(), ip + 16, 4);

  const uint16_t frag = be16(ip + 6);
  if ((frag & 0x2000) != 0 || (frag & 0x1FFF) != 0)  // step 5
    return finish(r, ParseClass::kIpv4Fragment);

  const size_t l4 = l3 + ihl_bytes;  // step 6
  if (r.tuple.proto == kIpProtoTcp || r.tuple.proto == kIpProtoUdp) {
    const bool tcp = r.tuple.proto == kIpProtoTcp;
    if (!b.need(l4, tcp ? kTcpHeader : kUdpHeader, fail)) return finish(r, fail);
    set_ports(r, f, l4);
    return finish(r, tcp ? ParseClass::kIpv4Tcp : ParseClass::kIpv4Udp);
  }
  return finish(r, ParseClass::kIpv4Other);
}

ParsedFrame parse_ipv6(ParsedFrame& r, const uint8_t* f, const Bounds& b, size_t l3) {
  ParseClass fail = ParseClass::kTruncated;
  if (!b.need(l3, kIpv6Header, fail)) return finish(r, fail);  // step 7
  const uint8_t* ip = f + l3;
  if ((ip[0] >> 4) != 6) return finish(r, ParseClass::kMalformed);

  r.tuple.family = 6;
  std::memcpy(r.tuple.src.data(), ip + 8, 16);
  std::memcpy(r.tuple.dst.data(), ip + 24, 16);

  uint8_t nh = ip[6];  // step 8
  size_t off = l3 + kIpv6Header;
  int walked = 0;
  for (;;) {
    switch (nh) {
      case 0:
      case 43:
      case 60: {
        if (walked == kMaxIpv6ExtHeaders) return finish(r, ParseClass::kUnsupported);
        if (!b.need(off, 2, fail)) return finish(r, fail);
        const size_t n = (size_t(f[off + 1]) + 1) * 8;
        if (!b.need(off, n, fail)) return finish(r, fail);
        nh = f[off];
        off += n;
        ++walked;
        continue;
      }
      case 44:
        if (!b.need(off, kIpv6FragHeader, fail)) return finish(r, fail);
        r.tuple.proto = f[off];
        return finish(r, ParseClass::kIpv6Fragment);
      case kIpProtoTcp:
      case kIpProtoUdp: {
        const bool tcp = nh == kIpProtoTcp;
        if (!b.need(off, tcp ? kTcpHeader : kUdpHeader, fail)) return finish(r, fail);
        r.tuple.proto = nh;
        set_ports(r, f, off);
        return finish(r, tcp ? ParseClass::kIpv6Tcp : ParseClass::kIpv6Udp);
      }
      case 135:
      case 139:
      case 140:
      case 253:
      case 254:
        return finish(r, ParseClass::kUnsupported);
      default:
        r.tuple.proto = nh;
        return finish(r, ParseClass::kIpv6Other);
    }
  }
}

}  // namespace

bool ParsedFrame::has_ports() const {
  return cls == ParseClass::kIpv4Tcp || cls == ParseClass::kIpv4Udp ||
         cls == ParseClass::kIpv6Tcp || cls == ParseClass::kIpv6Udp;
}

bool ParsedFrame::is_ip() const { return uint8_t(cls) <= uint8_t(ParseClass::kIpv6Fragment); }

ParsedFrame parse_frame(const uint8_t* frame, size_t len) {
  ParsedFrame r;
  if (frame == nullptr) len = 0;
  const Bounds b{len, std::min(len, kHeaderWindow)};
  ParseClass fail = ParseClass::kTruncated;

  if (!b.need(0, kEthHeader, fail)) return finish(r, fail);  // step 1
  size_t off = 12;
  uint16_t ethertype = be16(frame + off);
  off += 2;
  while ((ethertype == kEthVlan || ethertype == kEthQinQ) && r.vlan_tags < kMaxVlanTags) {
    if (!b.need(off, kVlanTag, fail)) return finish(r, fail);  // step 2
    ethertype = be16(frame + off + 2);
    off += kVlanTag;
    ++r.vlan_tags;
  }
  r.l3_offset = uint16_t(off);  // step 3
  if (ethertype == kEthIpv4) return parse_ipv4(r, frame, b, off);
  if (ethertype == kEthIpv6) return parse_ipv6(r, frame, b, off);
  return finish(r, ParseClass::kNonIp);
}

}  // namespace flowsteer::nic
