// Builds Ethernet frames for a tuple: what tests, the conformance generator and the
// pcap tools feed the parser (and the RTL) as real bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "flowsteer/tuple.h"

namespace flowsteer::nic {

struct FrameOptions {
  uint8_t vlan_tags = 0;          // 0..2 (802.1ad outer 0x88A8, then 802.1Q 0x8100)
  uint16_t vlan_tci = 100;
  uint8_t ipv4_option_words = 0;  // IHL = 5 + this (options are NOPs)
  bool ipv4_more_fragments = false;
  uint16_t ipv4_frag_offset = 0;  // in 8-byte units
  bool ipv6_fragment_header = false;
  size_t payload = 0;             // bytes after the L4 header
};

// Ethernet + IPv4/IPv6 + TCP/UDP (other protocols: no L4 header, payload only).
// Lengths and the IPv4 header checksum are filled in; L4 checksums are 0.
std::vector<uint8_t> build_frame(const FlowTuple& t, const FrameOptions& o = {});

}  // namespace flowsteer::nic
