// Flow tuple shared by every plane: what the flow dissector (kernel), the ice
// filter (driver) and the exact-match table (NIC) all key on.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace flowsteer {

inline constexpr uint8_t kIpProtoTcp = 6;
inline constexpr uint8_t kIpProtoUdp = 17;

struct FlowTuple {
  uint8_t family = 0;               // 4 or 6; 0 = not IP
  uint8_t proto = 0;                // IP protocol number
  std::array<uint8_t, 16> src{};    // network byte order; IPv4 uses bytes 0..3
  std::array<uint8_t, 16> dst{};
  uint16_t sport = 0;               // numeric port values (host order)
  uint16_t dport = 0;

  bool operator==(const FlowTuple& o) const {
    return family == o.family && proto == o.proto && src == o.src && dst == o.dst &&
           sport == o.sport && dport == o.dport;
  }
  bool operator!=(const FlowTuple& o) const { return !(*this == o); }

  // The other direction of the same connection.
  FlowTuple reversed() const {
    FlowTuple r = *this;
    r.src = dst;
    r.dst = src;
    r.sport = dport;
    r.dport = sport;
    return r;
  }
  size_t addr_len() const { return family == 6 ? 16 : 4; }
};

// "1.2.3.4" or an IPv6 literal into bytes; returns false on a malformed address.
bool parse_ip(const std::string& text, FlowTuple& t, bool is_src);
// Builds a tuple from text addresses; throws std::invalid_argument naming the bad field.
FlowTuple make_tuple(const std::string& src, const std::string& dst, uint16_t sport,
                     uint16_t dport, uint8_t proto = kIpProtoTcp);
std::string ip_to_string(const FlowTuple& t, bool src);
std::string to_string(const FlowTuple& t);

// Hash functor for unordered containers keyed by a tuple (one direction).
struct FlowTupleHash {
  size_t operator()(const FlowTuple& t) const;
};

}  // namespace flowsteer
