// NIC- and kernel-side flow hashes (spec 6). See flowsteer/hash/hash.h.
#include "flowsteer/hash/hash.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace flowsteer::hash {

namespace {

inline uint32_t rol32(uint32_t x, unsigned k) { return (x << k) | (x >> (32 - k)); }

// Stored bytes read as a little-endian (x86-native) word, independent of the host.
inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// A port's two network-order bytes read as a native (LE) u16 (spec 6.1 v16[], 6.3 raw16).
inline uint16_t raw16(uint16_t port) { return uint16_t((port >> 8) | (port << 8)); }

inline void put_be16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}

// lookup3 final mix (spec 6.2).
inline void final3(uint32_t& a, uint32_t& b, uint32_t& c) {
  c ^= b; c -= rol32(b, 14);
  a ^= c; a -= rol32(c, 11);
  b ^= a; b -= rol32(a, 25);
  c ^= b; c -= rol32(b, 16);
  a ^= c; a -= rol32(c, 4);
  b ^= a; b -= rol32(a, 14);
  c ^= b; c -= rol32(b, 24);
}

// lookup3 block mix, used by jhash2 for every 3-word block but the last.
inline void mix3(uint32_t& a, uint32_t& b, uint32_t& c) {
  a -= c; a ^= rol32(c, 4);  c += b;
  b -= a; b ^= rol32(a, 6);  a += c;
  c -= b; c ^= rol32(b, 8);  b += a;
  a -= c; a ^= rol32(c, 16); c += b;
  b -= a; b ^= rol32(a, 19); a += c;
  c -= b; c ^= rol32(b, 4);  b += a;
}

constexpr uint32_t kJhashInitval = 0xDEADBEEFu;  // spec 6.2 JHASH_INITVAL
constexpr uint32_t kGoldenRatio = 0x9E3779B9u;   // spec 6.2 lookup2

uint32_t final_words(uint32_t a, uint32_t b, uint32_t c, uint32_t s) {
  a += s;
  b += s;
  c += s;
  final3(a, b, c);
  return c;
}

}  // namespace

const RssKey& microsoft_key() {
  static const RssKey key = {
      0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
      0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
      0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};
  return key;
}

// spec 6.5: for every set input bit i (MSB first), XOR in key bits [i, i+32).
// `window` holds key bits [i, i+32); each input byte shifts in one more key byte.
uint32_t toeplitz(const uint8_t* input, size_t len, const uint8_t* key, size_t key_len) {
  if (key_len < len + 4)
    throw std::invalid_argument("Toeplitz key of " + std::to_string(key_len) +
                                " bytes is too short for " + std::to_string(len) +
                                " input bytes (needs at least " + std::to_string(len + 4) + ")");
  uint32_t result = 0;
  uint64_t window = uint64_t(key[0]) << 56 | uint64_t(key[1]) << 48 | uint64_t(key[2]) << 40 |
                    uint64_t(key[3]) << 32;
  for (size_t j = 0; j < len; ++j) {
    window |= uint64_t(key[j + 4]) << 24;  // key bits for the next 8 shifts
    const uint8_t in = input[j];
    for (int bit = 7; bit >= 0; --bit) {
      if ((in >> bit) & 1) result ^= uint32_t(window >> 32);
      window <<= 1;
    }
  }
  return result;
}

uint32_t toeplitz(const std::vector<uint8_t>& input, const RssKey& key) {
  return toeplitz(input.data(), input.size(), key.data(), key.size());
}

std::vector<uint8_t> toeplitz_input(const FlowTuple& t, bool with_ports) {
  const size_t al = t.addr_len();
  std::vector<uint8_t> in(2 * al + (with_ports ? 4 : 0));
  std::memcpy(in.data(), t.src.data(), al);
  std::memcpy(in.data() + al, t.dst.data(), al);
  if (with_ports) {
    put_be16(&in[2 * al], t.sport);
    put_be16(&in[2 * al + 2], t.dport);
  }
  return in;
}

// spec 6.5 GLQF_HSYMM: each source word XORed with its destination word and vice versa.
std::vector<uint8_t> toeplitz_symxor_input(const FlowTuple& t, bool with_ports) {
  const size_t al = t.addr_len();
  std::vector<uint8_t> in(2 * al + (with_ports ? 4 : 0));
  for (size_t i = 0; i < al; ++i) in[i] = in[al + i] = uint8_t(t.src[i] ^ t.dst[i]);
  if (with_ports) {
    const uint16_t p = uint16_t(t.sport ^ t.dport);
    put_be16(&in[2 * al], p);
    put_be16(&in[2 * al + 2], p);
  }
  return in;
}

uint32_t toeplitz_tuple(const FlowTuple& t, const RssKey& key, bool with_ports) {
  return toeplitz(toeplitz_input(t, with_ports), key);
}

uint32_t toeplitz_symxor(const FlowTuple& t, const RssKey& key, bool with_ports) {
  return toeplitz(toeplitz_symxor_input(t, with_ports), key);
}

// spec 6.2, lookup3 forms.
uint32_t jhash_3words(uint32_t a, uint32_t b, uint32_t c, uint32_t initval) {
  return final_words(a, b, c, initval + kJhashInitval + (3u << 2));
}

uint32_t jhash_2words(uint32_t a, uint32_t b, uint32_t initval) {
  return final_words(a, b, 0, initval + kJhashInitval + (2u << 2));
}

uint32_t jhash_1word(uint32_t a, uint32_t initval) {
  return final_words(a, 0, 0, initval + kJhashInitval + (1u << 2));
}

// lookup3 over `length` u32 words: full 3-word blocks go through mix3, the last
// 1..3 words through final3; length 0 returns the seeded c untouched.
uint32_t jhash2(const uint32_t* k, size_t length, uint32_t initval) {
  uint32_t a, b, c;
  a = b = c = kJhashInitval + (uint32_t(length) << 2) + initval;
  while (length > 3) {
    a += k[0];
    b += k[1];
    c += k[2];
    mix3(a, b, c);
    length -= 3;
    k += 3;
  }
  switch (length) {
    case 3: c += k[2]; [[fallthrough]];
    case 2: b += k[1]; [[fallthrough]];
    case 1:
      a += k[0];
      final3(a, b, c);
      break;
    default:
      break;
  }
  return c;
}

// spec 6.2, lookup2 form (no length term for the 3-word form).
uint32_t jhash_3words_lookup2(uint32_t a, uint32_t b, uint32_t c, uint32_t initval) {
  a += kGoldenRatio;
  b += kGoldenRatio;
  c += initval;
  a -= b; a -= c; a ^= c >> 13;
  b -= c; b -= a; b ^= a << 8;
  c -= a; c -= b; c ^= b >> 13;
  a -= b; a -= c; a ^= c >> 12;
  b -= c; b -= a; b ^= a << 16;
  c -= a; c -= b; c ^= b >> 5;
  a -= b; a -= c; a ^= c >> 3;
  b -= c; b -= a; b ^= a << 10;
  c -= a; c -= b; c ^= b >> 15;
  return c;
}

// spec 6.1. Non-IP (family 0) has no hash: returns 0.
uint32_t jhash_sym_2010(const FlowTuple& t, uint32_t hashrnd, JhashForm form) {
  uint32_t a1, a2;
  if (t.family == 4) {
    a1 = load_le32(t.src.data());
    a2 = load_le32(t.dst.data());
  } else if (t.family == 6) {
    a1 = load_le32(t.src.data() + 12);  // last 32-bit word
    a2 = load_le32(t.dst.data() + 12);
  } else {
    return 0;
  }
  uint32_t ports = 0;
  if (t.proto == kIpProtoTcp || t.proto == kIpProtoUdp) {
    uint16_t v0 = raw16(t.sport), v1 = raw16(t.dport);
    if (v1 < v0) std::swap(v0, v1);
    ports = uint32_t(v0) | uint32_t(v1) << 16;  // the union read as a native LE u32
  }
  if (a2 < a1) std::swap(a1, a2);
  uint32_t h = form == JhashForm::Lookup2 ? jhash_3words_lookup2(a1, a2, ports, hashrnd)
                                          : jhash_3words(a1, a2, ports, hashrnd);
  return h == 0 ? 1 : h;
}

// spec 6.3 (current form): addresses and ports sorted independently.
FlowTuple consistentify(const FlowTuple& t) {
  FlowTuple r = t;
  bool swap_addr = false;
  if (t.family == 4) {
    swap_addr = load_le32(t.dst.data()) < load_le32(t.src.data());
  } else if (t.family == 6) {
    swap_addr = std::memcmp(t.dst.data(), t.src.data(), 16) < 0;
  } else {
    return r;  // other address types: unchanged
  }
  if (swap_addr) std::swap(r.src, r.dst);
  if (raw16(t.dport) < raw16(t.sport)) std::swap(r.sport, r.dport);
  return r;
}

// Key bytes hashed (our layout, modelled on flow_keys from `basic` on, spec 6.3):
//   [0..1] n_proto, big-endian (0x0800 IPv4, 0x86DD IPv6, 0 otherwise)
//   [2]    ip_proto   [3] 0 (padding)
//   [4..5] sport, [6..7] dport, big-endian (network order, as stored by the dissector)
//   [8..]  src then dst address: 4+4 bytes (IPv4), 16+16 (IPv6), none (other)
// Total 16 / 40 / 8 bytes (always a whole number of u32 words), taken after consistentify.
uint32_t flow_hash_from_keys(const FlowTuple& t, const KeyHash& final_hash) {
  const FlowTuple k = consistentify(t);
  uint8_t buf[40] = {};
  size_t len = 8;
  const uint16_t n_proto = k.family == 4 ? 0x0800 : k.family == 6 ? 0x86DD : 0;
  put_be16(buf, n_proto);
  buf[2] = k.proto;
  put_be16(buf + 4, k.sport);
  put_be16(buf + 6, k.dport);
  if (k.family == 4 || k.family == 6) {
    const size_t al = k.addr_len();
    std::memcpy(buf + 8, k.src.data(), al);
    std::memcpy(buf + 8 + al, k.dst.data(), al);
    len += 2 * al;
  }
  const uint32_t h = final_hash(buf, len);
  return h == 0 ? 1 : h;
}

KeyHash jhash2_key_hash(uint32_t initval) {
  return [initval](const uint8_t* data, size_t len) {
    uint32_t words[16];  // flow_hash_from_keys hashes at most 40 bytes
    size_t n = (len + 3) / 4;
    if (n > 16) throw std::invalid_argument("jhash2_key_hash: key longer than 64 bytes");
    for (size_t i = 0; i < n; ++i) {
      uint8_t w[4] = {};
      for (size_t j = 0; j < 4 && 4 * i + j < len; ++j) w[j] = data[4 * i + j];
      words[i] = load_le32(w);
    }
    return jhash2(words, n, initval);
  };
}

}  // namespace flowsteer::hash
