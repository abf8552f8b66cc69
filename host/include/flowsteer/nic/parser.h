// NIC plane header parser: raw Ethernet frame bytes -> class + tuple.
// The RTL parser (hw/rtl) must produce the same class and tuple for every frame.
//
// Exact contract (the RTL matches it bit for bit). Offsets are from the first byte
// of the frame; multi-byte fields are big-endian. L = min(len, kHeaderWindow).
// "Need n bytes at off" means: off + n <= L, otherwise the frame is kTruncated when
// off + n > len, and kUnsupported when the bytes exist but lie beyond the window
// (only reachable through long IPv6 extension headers; IPv4 needs at most 102 bytes).
// Checks happen in this order and the first failing one decides the class:
//  1. Ethernet: need 14 bytes. EtherType at 12.
//  2. VLAN: while EtherType is 0x8100 or 0x88A8 (either TPID at either position) and
//     fewer than 2 tags were skipped: need 4 bytes (TCI, inner EtherType), skip them.
//     A third tag is not skipped, so that frame is kNonIp. TCI/PCP/DEI are ignored.
//  3. EtherType 0x0800 -> IPv4, 0x86DD -> IPv6, anything else (incl. 802.3 lengths) ->
//     kNonIp. l3_offset = 14 + 4*tags from here on (whatever the class).
//  IPv4 (l3 = l3_offset):
//  4. need 20 bytes; version (byte 0 >> 4) != 4 -> kMalformed; IHL (byte 0 & 15) < 5 ->
//     kMalformed; total length (bytes 2..3) < 4*IHL -> kMalformed; need 4*IHL bytes
//     (options present). Checksum, TOS, TTL, ID, DF and the reserved flag are ignored;
//     total length is not compared with the frame length (padding/trailers are allowed,
//     and headers are bounded by the frame only, as the kernel's dissector sees it
//     before ip_rcv trims the skb).
//  5. MF (0x2000 of bytes 6..7) set or fragment offset (0x1FFF) != 0 -> kIpv4Fragment:
//     addresses + protocol (byte 9), ports 0, l4_offset 0; nothing after the header is read.
//  6. protocol 6 -> need 20 bytes at l4 = l3 + 4*IHL (fixed TCP header) -> kIpv4Tcp;
//     protocol 17 -> need 8 bytes at l4 (UDP header) -> kIpv4Udp; ports from l4+0, l4+2.
//     The TCP data offset and flags and the UDP length/checksum are not checked.
//     Any other protocol (ICMP, AH 51, ESP 50, SCTP, GRE, ...) -> kIpv4Other, ports 0.
//  IPv6 (l3 = l3_offset):
//  7. need 40 bytes; version != 6 -> kMalformed. Payload length, traffic class, flow
//     label and hop limit are ignored (not compared with the frame length).
//  8. nh = byte 6, off = l3 + 40, walked = 0. Loop on nh:
//       0 (Hop-by-Hop), 43 (Routing), 60 (Destination Options): if walked == 2 ->
//         kUnsupported; need 2 bytes at off, n = (byte off+1 + 1) * 8; need n bytes at
//         off (the whole header); nh = byte off; off += n; walked++. (Hop-by-Hop is
//         accepted anywhere in the chain.)
//       44 (Fragment): need 8 bytes at off -> kIpv6Fragment, proto = byte off (its next
//         header, whatever it is), ports 0, l4_offset 0; offset/M flag/ID are not read,
//         so first, later and atomic fragments are all kIpv6Fragment.
//       6: need 20 bytes at off -> kIpv6Tcp;  17: need 8 bytes at off -> kIpv6Udp.
//       135 (Mobility), 139 (HIP), 140 (Shim6), 253, 254 (experimental): extension
//         headers the parser does not walk -> kUnsupported.
//       Anything else (ICMPv6 58, No Next Header 59, ESP 50, AH 51, SCTP, ...) ->
//         kIpv6Other with proto = nh, ports 0.
//     AH/ESP decision: both families treat AH and ESP as the upper-layer protocol
//     (class *Other, proto 50/51, addresses hashed, SPI not used as ports); the parser
//     never looks behind them, so nothing after AH can be misread as ports.
// Outputs: tuple is all-zero (family 0) for kNonIp/kTruncated/kMalformed/kUnsupported;
// for IP classes family/proto/addresses are set (IPv4 in bytes 0..3, bytes 4..15 zero)
// and ports only for the four TCP/UDP classes. vlan_tags = tags skipped before the
// decision (also when it is kTruncated/kNonIp). l3_offset = 0 until step 3 is reached.
// l4_offset = the TCP/UDP header offset for the four port classes, else 0.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/tuple.h"

namespace flowsteer::nic {

// Every frame gets exactly one class (enum parse_class of the register map: the values are
// the RTL encoding, the names the register document's).
using ParseClass = regs::ParseClass;
inline constexpr int kParseClassCount = regs::kParseClassCount;
using regs::parse_class_name;

// Bytes of a frame the parser may look at; the RTL captures the same window.
inline constexpr size_t kHeaderWindow = 128;
// IPv6 extension headers walked (Hop-by-Hop 0, Routing 43, Destination Options 60).
inline constexpr int kMaxIpv6ExtHeaders = 2;

struct ParsedFrame {
  ParseClass cls = ParseClass::kTruncated;
  FlowTuple tuple;          // family 0 for kNonIp/kTruncated/kMalformed/kUnsupported
  uint8_t vlan_tags = 0;    // 802.1Q / 802.1ad tags skipped (0..2)
  uint16_t l3_offset = 0;   // offset of the IP header
  uint16_t l4_offset = 0;   // offset of the TCP/UDP header when ports are valid, else 0

  bool has_ports() const;   // TCP/UDP, not a fragment
  bool is_ip() const;       // addresses valid
};

// Never reads past len or past kHeaderWindow; never throws.
ParsedFrame parse_frame(const uint8_t* frame, size_t len);

}  // namespace flowsteer::nic
