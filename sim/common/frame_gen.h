// Random Ethernet frame generator shared by the RTL tests: well-formed, malformed, short,
// cut and oversized frames over VLAN tags, IPv4 (options, fragments), IPv6 (extension
// headers, fragments), TCP, UDP and other protocols.
#pragma once

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

namespace flowsteer::sim::common {

using Frame = std::vector<uint8_t>;

class FrameGen {
 public:
  explicit FrameGen(uint64_t seed) : rng_(seed) {}
  uint32_t r(uint32_t n) { return uint32_t(rng_() % n); }
  bool chance(int pct) { return int(r(100)) < pct; }
  void put16(Frame& f, uint16_t v) {
    f.push_back(uint8_t(v >> 8));
    f.push_back(uint8_t(v));
  }
  void rand_bytes(Frame& f, size_t n) {
    for (size_t i = 0; i < n; ++i) f.push_back(uint8_t(rng_()));
  }

  void l4(Frame& f, uint8_t proto) {
    if (proto == 6) {
      put16(f, uint16_t(rng_()));
      put16(f, uint16_t(rng_()));
      rand_bytes(f, 16);
    } else if (proto == 17) {
      put16(f, uint16_t(rng_()));
      put16(f, uint16_t(rng_()));
      rand_bytes(f, 4);
    } else {
      rand_bytes(f, 8);
    }
  }
  uint8_t l4_proto() {
    static const uint8_t k[] = {6, 17, 6, 17, 6, 17, 1, 58, 132, 50};
    return chance(5) ? uint8_t(rng_()) : k[r(std::size(k))];
  }

  void ipv4(Frame& f) {
    const size_t l3 = f.size();
    int ihl = chance(70) ? 5 : int(5 + r(11));
    if (chance(3)) ihl = int(r(5));
    const uint8_t ver = chance(3) ? uint8_t(r(16)) : 4;
    const uint8_t proto = l4_proto();
    f.push_back(uint8_t(ver << 4 | ihl));
    f.push_back(uint8_t(rng_()));
    put16(f, 0);  // total length, patched below
    put16(f, uint16_t(rng_()));
    uint16_t frag = 0;
    if (chance(10)) frag = uint16_t(0x2000 | r(2) * r(0x1FFF));
    else if (chance(5)) frag = uint16_t(r(0x1FFF) + 1);
    if (chance(30)) frag |= 0x4000;  // DF does not matter
    put16(f, frag);
    f.push_back(64);
    f.push_back(proto);
    put16(f, 0);
    rand_bytes(f, 8);  // addresses
    for (int i = 5; i < ihl; ++i) rand_bytes(f, 4);  // options
    l4(f, proto);
    rand_bytes(f, r(4) == 0 ? r(200) : r(40));
    uint16_t tot = uint16_t(f.size() - l3);
    if (chance(4)) tot = uint16_t(r(unsigned(ihl) * 4 + 1));  // too short (maybe malformed)
    f[l3 + 2] = uint8_t(tot >> 8);
    f[l3 + 3] = uint8_t(tot);
  }

  void ipv6(Frame& f) {
    const uint8_t ver = chance(3) ? uint8_t(r(16)) : 6;
    f.push_back(uint8_t(ver << 4));
    rand_bytes(f, 3);
    put16(f, uint16_t(rng_()));
    const size_t nh_pos = f.size();
    f.push_back(0);
    f.push_back(64);
    rand_bytes(f, 32);
    int n_ext = chance(50) ? 0 : int(r(4));
    size_t prev = nh_pos;
    for (int i = 0; i < n_ext; ++i) {
      static const uint8_t ext[] = {0, 43, 60};
      f[prev] = ext[r(3)];
      prev = f.size();
      f.push_back(0);
      const uint8_t len = chance(80) ? uint8_t(r(3)) : uint8_t(r(256));
      f.push_back(len);
      rand_bytes(f, size_t(len + 1) * 8 - 2);
    }
    uint8_t last;
    if (chance(10)) {
      last = 44;
      f[prev] = last;
      f.push_back(l4_proto());
      rand_bytes(f, 7);
      rand_bytes(f, r(40));
      return;
    }
    static const uint8_t odd[] = {135, 139, 140, 253, 254, 59};
    last = chance(8) ? odd[r(std::size(odd))] : l4_proto();
    f[prev] = last;
    l4(f, last);
    rand_bytes(f, r(4) == 0 ? r(300) : r(40));
  }

  Frame frame() {
    Frame f;
    if (chance(3)) {  // tiny
      rand_bytes(f, r(20));
      return f;
    }
    rand_bytes(f, 12);
    int tags = chance(70) ? 0 : int(r(4));
    for (int i = 0; i < tags; ++i) {
      put16(f, chance(50) ? 0x8100 : 0x88A8);
      put16(f, uint16_t(rng_()));
    }
    const int kind = int(r(100));
    if (kind < 45) {
      put16(f, 0x0800);
      ipv4(f);
    } else if (kind < 90) {
      put16(f, 0x86DD);
      ipv6(f);
    } else {
      put16(f, chance(50) ? 0x0806 : uint16_t(rng_()));
      rand_bytes(f, r(80));
    }
    if (chance(25)) f.resize(r(uint32_t(f.size()) + 1));  // cut anywhere
    if (chance(5)) rand_bytes(f, 1500 + r(8000));           // oversized
    return f;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace flowsteer::sim::common
