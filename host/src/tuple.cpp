#include "flowsteer/tuple.h"

#include <arpa/inet.h>

#include <cstring>
#include <stdexcept>

namespace flowsteer {

bool parse_ip(const std::string& text, FlowTuple& t, bool is_src) {
  auto& out = is_src ? t.src : t.dst;
  out.fill(0);
  if (text.find('\0') != std::string::npos) return false;  // inet_pton would stop at the NUL
  unsigned char buf[16];
  if (inet_pton(AF_INET, text.c_str(), buf) == 1) {
    if (t.family != 0 && t.family != 4) return false;
    t.family = 4;
    std::memcpy(out.data(), buf, 4);
    return true;
  }
  if (inet_pton(AF_INET6, text.c_str(), buf) == 1) {
    if (t.family != 0 && t.family != 6) return false;
    t.family = 6;
    std::memcpy(out.data(), buf, 16);
    return true;
  }
  return false;
}

FlowTuple make_tuple(const std::string& src, const std::string& dst, uint16_t sport,
                     uint16_t dport, uint8_t proto) {
  FlowTuple t;
  if (!parse_ip(src, t, true)) throw std::invalid_argument("bad source address '" + src + "'");
  if (!parse_ip(dst, t, false))
    throw std::invalid_argument("bad destination address '" + dst +
                                "' (or its family differs from the source's)");
  t.proto = proto;
  t.sport = sport;
  t.dport = dport;
  return t;
}

std::string ip_to_string(const FlowTuple& t, bool src) {
  char buf[INET6_ADDRSTRLEN] = {0};
  const auto& a = src ? t.src : t.dst;
  inet_ntop(t.family == 6 ? AF_INET6 : AF_INET, a.data(), buf, sizeof buf);
  return buf;
}

std::string to_string(const FlowTuple& t) {
  const char* p = t.proto == kIpProtoTcp ? "tcp" : t.proto == kIpProtoUdp ? "udp" : "ip";
  auto host = [&](bool s) {
    std::string ip = ip_to_string(t, s);
    return t.family == 6 ? "[" + ip + "]" : ip;
  };
  return std::string(p) + " " + host(true) + ":" + std::to_string(t.sport) + " -> " +
         host(false) + ":" + std::to_string(t.dport);
}

size_t FlowTupleHash::operator()(const FlowTuple& t) const {
  // Word-wise multiply-xorshift mix: this sits on the simulator's filter-write path.
  auto mix = [](uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
  };
  uint64_t w[4];
  std::memcpy(w, t.src.data(), 16);
  std::memcpy(w + 2, t.dst.data(), 16);
  uint64_t h = uint64_t(t.family) << 40 | uint64_t(t.proto) << 32 | uint64_t(t.sport) << 16 | t.dport;
  for (uint64_t v : w) h = mix(h, v);
  return size_t(h ^ (h >> 29));
}

}  // namespace flowsteer
