#include "flowsteer/nic/frame.h"

#include <stdexcept>

namespace flowsteer::nic {
namespace {

void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}

void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, uint16_t(v >> 16));
  put16(b, uint16_t(v));
}

}  // namespace

std::vector<uint8_t> build_frame(const FlowTuple& t, const FrameOptions& o) {
  if (t.family != 4 && t.family != 6) throw std::invalid_argument("build_frame: family must be 4 or 6");
  if (o.vlan_tags > 2) throw std::invalid_argument("build_frame: at most 2 VLAN tags");
  std::vector<uint8_t> b = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02};  // dst, src MAC
  if (o.vlan_tags == 2) {
    put16(b, 0x88A8);
    put16(b, o.vlan_tci);
  }
  if (o.vlan_tags >= 1) {
    put16(b, 0x8100);
    put16(b, o.vlan_tci);
  }
  const bool first_fragment_or_whole =
      !(t.family == 4 && o.ipv4_frag_offset != 0);
  size_t l4_len = 0;
  if (first_fragment_or_whole && t.proto == kIpProtoTcp) l4_len = 20;
  if (first_fragment_or_whole && t.proto == kIpProtoUdp) l4_len = 8;
  if (t.family == 6 && o.ipv6_fragment_header && o.ipv4_frag_offset != 0) l4_len = 0;
  const size_t l3_start = b.size();
  if (t.family == 4) {
    put16(b, 0x0800);
    size_t ihl = 5u + o.ipv4_option_words;
    if (ihl > 15) throw std::invalid_argument("build_frame: at most 10 IPv4 option words");
    size_t total = ihl * 4 + l4_len + o.payload;
    b.push_back(uint8_t(0x40 | ihl));
    b.push_back(0);
    put16(b, uint16_t(total));
    put16(b, 0x1234);  // identification
    put16(b, uint16_t((o.ipv4_more_fragments ? 0x2000 : 0) | (o.ipv4_frag_offset & 0x1FFF)));
    b.push_back(64);
    b.push_back(t.proto);
    put16(b, 0);  // checksum, filled below
    b.insert(b.end(), t.src.begin(), t.src.begin() + 4);
    b.insert(b.end(), t.dst.begin(), t.dst.begin() + 4);
    for (size_t i = 0; i < o.ipv4_option_words * 4; ++i) b.push_back(1);  // NOP
    uint32_t sum = 0;
    const size_t ip = l3_start + 2;
    for (size_t i = 0; i < ihl * 4; i += 2) sum += uint32_t(b[ip + i] << 8 | b[ip + i + 1]);
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    b[ip + 10] = uint8_t(~sum >> 8);
    b[ip + 11] = uint8_t(~sum);
  } else {
    put16(b, 0x86DD);
    size_t ext = o.ipv6_fragment_header ? 8 : 0;
    put32(b, 0x60000000);
    put16(b, uint16_t(ext + l4_len + o.payload));
    b.push_back(o.ipv6_fragment_header ? 44 : t.proto);
    b.push_back(64);
    b.insert(b.end(), t.src.begin(), t.src.end());
    b.insert(b.end(), t.dst.begin(), t.dst.end());
    if (o.ipv6_fragment_header) {
      b.push_back(t.proto);
      b.push_back(0);
      put16(b, uint16_t((o.ipv4_frag_offset << 3) | (o.ipv4_more_fragments ? 1 : 0)));
      put32(b, 0xCAFE);
    }
  }
  if (l4_len == 20) {
    put16(b, t.sport);
    put16(b, t.dport);
    put32(b, 1);           // seq
    put32(b, 0);           // ack
    b.push_back(0x50);     // data offset 5
    b.push_back(0x18);     // PSH|ACK
    put16(b, 65535);
    put16(b, 0);
    put16(b, 0);
  } else if (l4_len == 8) {
    put16(b, t.sport);
    put16(b, t.dport);
    put16(b, uint16_t(8 + o.payload));
    put16(b, 0);
  }
  b.insert(b.end(), o.payload, 0xA5);
  while (b.size() < 60) b.push_back(0);  // Ethernet minimum (without FCS)
  return b;
}

}  // namespace flowsteer::nic
