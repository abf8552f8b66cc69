// Hash unit tests (spec 6): Toeplitz (Microsoft verification suite), symmetric-xor,
// lookup2/lookup3 jhash, the 2010 symmetric rule, consistentify, hash_32.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "flowsteer/hash/hash.h"
#include "flowsteer/tuple.h"
#include "ms_rss_vectors.h"
#include "test_util.h"

namespace fh = flowsteer::hash;
using flowsteer::FlowTuple;
using flowsteer::make_tuple;

namespace {

uint32_t test_seed() { return flowsteer::test::test_seed(20250829u); }
using flowsteer::test::random_tuple;

using flowsteer::test::kMsRssIpv4Rows;
using flowsteer::test::kMsRssVectors;

void check_ms_rows(size_t first, size_t end) {
  for (size_t i = first; i < end; ++i) {
    const auto& r = kMsRssVectors[i];
    SCOPED_TRACE(std::string(r.src) + " -> " + r.dst);
    FlowTuple t = make_tuple(r.src, r.dst, r.sport, r.dport);
    EXPECT_EQ(fh::toeplitz_tuple(t, fh::microsoft_key(), false), r.addr_only);
    EXPECT_EQ(fh::toeplitz_tuple(t, fh::microsoft_key(), true), r.with_ports);
  }
}

}  // namespace

TEST(HashToeplitz, MicrosoftKeyBytes) {
  const auto& k = fh::microsoft_key();
  ASSERT_EQ(k.size(), 40u);
  EXPECT_EQ(k[0], 0x6d);
  EXPECT_EQ(k[39], 0xfa);
}

TEST(HashToeplitz, MicrosoftVerificationIpv4) { check_ms_rows(0, kMsRssIpv4Rows); }

TEST(HashToeplitz, MicrosoftVerificationIpv6) {
  check_ms_rows(kMsRssIpv4Rows, std::size(kMsRssVectors));
}

TEST(HashToeplitz, RawBytesMatchTupleInput) {
  // spec 6.5 vector as raw input: 66.9.149.187, 161.142.100.80, 2794, 1766.
  const std::vector<uint8_t> in = {66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6};
  EXPECT_EQ(fh::toeplitz(in, fh::microsoft_key()), 0x51CCC178u);
  const std::vector<uint8_t> addrs(in.begin(), in.begin() + 8);
  EXPECT_EQ(fh::toeplitz(addrs, fh::microsoft_key()), 0x323E8FC2u);
  FlowTuple t = make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  EXPECT_EQ(fh::toeplitz_input(t, true), in);
}

TEST(HashToeplitz, KeyLengthRule) {
  const auto& k = fh::microsoft_key();
  std::vector<uint8_t> in(36, 0xff);
  EXPECT_NO_THROW(fh::toeplitz(in.data(), 36, k.data(), 40));
  EXPECT_THROW(fh::toeplitz(in.data(), 37, k.data(), 40), std::invalid_argument);
  EXPECT_THROW(fh::toeplitz(in.data(), 1, k.data(), 4), std::invalid_argument);
  EXPECT_NO_THROW(fh::toeplitz(in.data(), 0, k.data(), 4));
  EXPECT_EQ(fh::toeplitz(in.data(), 0, k.data(), 4), 0u);
  // One set bit at input bit i yields key bits [i, i+32).
  uint8_t one[2] = {0x00, 0x01};  // bit 15
  const uint32_t expect = uint32_t(k[1]) << 31 | uint32_t(k[2]) << 23 | uint32_t(k[3]) << 15 |
                        uint32_t(k[4]) << 7 | uint32_t(k[5]) >> 1;
  EXPECT_EQ(fh::toeplitz(one, 2, k.data(), 6), expect);
}

TEST(HashToeplitz, SymXorVectorBothDirections) {
  FlowTuple t = make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  EXPECT_EQ(fh::toeplitz_symxor(t, fh::microsoft_key(), true), 0xAC2B58CAu);  // spec 6.5
  EXPECT_EQ(fh::toeplitz_symxor(t.reversed(), fh::microsoft_key(), true), 0xAC2B58CAu);
  auto in = fh::toeplitz_symxor_input(t, true);
  ASSERT_EQ(in.size(), 12u);
  EXPECT_EQ(in[0], 66 ^ 161);
  EXPECT_EQ(in[4], 66 ^ 161);
  EXPECT_EQ(in[8], uint8_t((2794 ^ 1766) >> 8));
  EXPECT_EQ(in[10], uint8_t((2794 ^ 1766) >> 8));
  EXPECT_EQ(fh::toeplitz_symxor_input(t, false).size(), 8u);
}

TEST(HashJhash, Lookup3Vectors) {  // spec 6.2
  EXPECT_EQ(fh::jhash_3words(1, 2, 3, 0), 0xA46158F5u);
  EXPECT_EQ(fh::jhash_3words(0, 0, 0, 0), 0x1B68E557u);
  EXPECT_EQ(fh::jhash_3words(0x0100007F, 0x0200007F, 0x5000D204, 0x12345678), 0x0AA906E7u);
}

TEST(HashJhash, Lookup2Vectors) {  // spec 6.2
  EXPECT_EQ(fh::jhash_3words_lookup2(1, 2, 3, 0), 0x17E8BDC2u);
  EXPECT_EQ(fh::jhash_3words_lookup2(0, 0, 0, 0), 0xBD49D10Du);
  EXPECT_EQ(fh::jhash_3words_lookup2(0x0100007F, 0x0200007F, 0x5000D204, 0x12345678),
            0x72372513u);
}

TEST(HashJhash, ShortFormsAndJhash2Agree) {
  std::mt19937 rng(test_seed());
  SCOPED_TRACE("seed=" + std::to_string(test_seed()));
  for (int i = 0; i < 1000; ++i) {
    uint32_t w[3] = {uint32_t(rng()), uint32_t(rng()), uint32_t(rng())};
    uint32_t iv = rng();
    // jhash2 over 1..3 words is the same computation as the n-word forms (spec 6.2).
    ASSERT_EQ(fh::jhash2(w, 3, iv), fh::jhash_3words(w[0], w[1], w[2], iv));
    ASSERT_EQ(fh::jhash2(w, 2, iv), fh::jhash_2words(w[0], w[1], iv));
    ASSERT_EQ(fh::jhash2(w, 1, iv), fh::jhash_1word(w[0], iv));
    ASSERT_EQ(fh::jhash_2words(w[0], w[1], iv),
              fh::jhash_3words(w[0], w[1], 0, iv - 4));  // only the length term differs
  }
  EXPECT_EQ(fh::jhash2(nullptr, 0, 7), 0xDEADBEEFu + 7);
}

TEST(HashJhash, Jhash2LongInputs) {
  // Longer keys go through the block mix: results differ per length, are deterministic,
  // and every word matters.
  std::vector<uint32_t> w(10);
  for (size_t i = 0; i < w.size(); ++i) w[i] = uint32_t(i * 0x01010101u);
  uint32_t prev = 0;
  for (size_t n = 4; n <= w.size(); ++n) {
    uint32_t h = fh::jhash2(w.data(), n, 0);
    EXPECT_NE(h, prev);
    prev = h;
    for (size_t j = 0; j < n; ++j) {
      auto v = w;
      v[j] ^= 1;
      EXPECT_NE(fh::jhash2(v.data(), n, 0), h) << "n=" << n << " j=" << j;
    }
  }
}

TEST(HashJhashSym2010, DirectedValues) {
  // 127.0.0.1:1234 -> 127.0.0.2:80: a1 = 0x0100007F, a2 = 0x0200007F (LE reads);
  // v16 = {0xD204, 0x5000} -> swapped -> ports word 0xD2045000 (spec 6.1).
  FlowTuple t = make_tuple("127.0.0.1", "127.0.0.2", 1234, 80);
  const uint32_t l2 = fh::jhash_3words_lookup2(0x0100007F, 0x0200007F, 0xD2045000, 0x12345678);
  const uint32_t l3 = fh::jhash_3words(0x0100007F, 0x0200007F, 0xD2045000, 0x12345678);
  EXPECT_EQ(fh::jhash_sym_2010(t, 0x12345678), l2);
  EXPECT_EQ(fh::jhash_sym_2010(t, 0x12345678, fh::JhashForm::Lookup3), l3);
  EXPECT_EQ(fh::jhash_sym_2010(t.reversed(), 0x12345678), l2);
  // Sorting is on the LE words, not on numeric network order: 2.0.0.1 (0x01000002) sorts
  // before 1.0.0.2 (0x02000001).
  FlowTuple u = make_tuple("1.0.0.2", "2.0.0.1", 0, 0, 1 /* ICMP: ports 0 */);
  EXPECT_EQ(fh::jhash_sym_2010(u, 5), fh::jhash_3words_lookup2(0x01000002, 0x02000001, 0, 5));
  // Ports sorted independently: A:p->B:q equals A:q->B:p.
  FlowTuple v = t;
  std::swap(v.sport, v.dport);
  EXPECT_EQ(fh::jhash_sym_2010(v, 0x12345678), l2);
  // Non-TCP/UDP ignores the ports; IPv6 uses the last word; non-IP has no hash.
  FlowTuple w = t;
  w.proto = 47;
  EXPECT_EQ(fh::jhash_sym_2010(w, 9), fh::jhash_3words_lookup2(0x0100007F, 0x0200007F, 0, 9));
  FlowTuple s6 = make_tuple("2001:db8::1:0:0:4", "2001:db8::9:0:0:3", 80, 80);
  EXPECT_EQ(fh::jhash_sym_2010(s6, 0),
            fh::jhash_3words_lookup2(0x03000000, 0x04000000, 0x50005000, 0));
  EXPECT_EQ(fh::jhash_sym_2010(FlowTuple{}, 0), 0u);
}

namespace {

uint32_t rol(uint32_t x, unsigned k) { return (x << k) | (x >> (32 - k)); }
uint32_t load_le(const std::array<uint8_t, 16>& a) {
  return uint32_t(a[0]) | uint32_t(a[1]) << 8 | uint32_t(a[2]) << 16 | uint32_t(a[3]) << 24;
}
void store_le(std::array<uint8_t, 16>& a, uint32_t v) {
  for (int i = 0; i < 4; ++i) a[i] = uint8_t(v >> (8 * i));
}

// Runs the lookup2 mix (spec 6.2) backwards from a final state with c == 0, giving
// inputs (a1, a2, ports 0, seed) whose raw jhash is 0.
void invert_lookup2(uint32_t a, uint32_t b, uint32_t& a1, uint32_t& a2, uint32_t& seed) {
  uint32_t c = 0;
  c ^= b >> 15; c += b; c += a;
  b ^= a << 10; b += a; b += c;
  a ^= c >> 3;  a += c; a += b;
  c ^= b >> 5;  c += b; c += a;
  b ^= a << 16; b += a; b += c;
  a ^= c >> 12; a += c; a += b;
  c ^= b >> 13; c += b; c += a;
  b ^= a << 8;  b += a; b += c;
  a ^= c >> 13; a += c; a += b;
  a1 = a - 0x9E3779B9u;
  a2 = b - 0x9E3779B9u;
  seed = c;  // c = ports (0) + initval
}

// Same for the lookup3 final mix: a = a1 + s, b = a2 + s, c = 0 + s with
// s = seed + 0xDEADBEEF + 12.
void invert_lookup3(uint32_t a, uint32_t b, uint32_t& a1, uint32_t& a2, uint32_t& seed) {
  uint32_t c = 0;
  c += rol(b, 24); c ^= b;
  b += rol(a, 14); b ^= a;
  a += rol(c, 4);  a ^= c;
  c += rol(b, 16); c ^= b;
  b += rol(a, 25); b ^= a;
  a += rol(c, 11); a ^= c;
  c += rol(b, 14); c ^= b;
  const uint32_t s = c;
  a1 = a - s;
  a2 = b - s;
  seed = s - 0xDEADBEEFu - 12;
}

}  // namespace

TEST(HashJhashSym2010, ZeroBecomesOne) {  // spec 6.1 step 4
  for (auto form : {fh::JhashForm::Lookup2, fh::JhashForm::Lookup3}) {
    uint32_t a1 = 0, a2 = 0, seed = 0;
    for (uint32_t k = 1;; ++k) {  // pick a final state whose inputs are already sorted
      (form == fh::JhashForm::Lookup2 ? invert_lookup2 : invert_lookup3)(k * 0x9E3779B1u,
                                                                         k, a1, a2, seed);
      if (a1 <= a2) break;
    }
    const uint32_t raw = form == fh::JhashForm::Lookup2
                             ? fh::jhash_3words_lookup2(a1, a2, 0, seed)
                             : fh::jhash_3words(a1, a2, 0, seed);
    ASSERT_EQ(raw, 0u);
    FlowTuple t;
    t.family = 4;
    t.proto = 1;  // ICMP: ports word 0
    store_le(t.src, a1);
    store_le(t.dst, a2);
    ASSERT_EQ(load_le(t.src), a1);
    EXPECT_EQ(fh::jhash_sym_2010(t, seed, form), 1u);
    EXPECT_EQ(fh::jhash_sym_2010(t.reversed(), seed, form), 1u);
  }
}

TEST(HashSymmetry, RandomTuplesBothDirections) {
  const uint32_t seed = test_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed) + " (set FLOWSTEER_TEST_SEED to replay)");
  std::mt19937 rng(seed);
  const auto& key = fh::microsoft_key();
  const fh::KeyHash sip = fh::jhash2_key_hash(0x1234);
  int plain_equal = 0;
  const int kN = 4000;
  for (int i = 0; i < kN; ++i) {
    FlowTuple t = random_tuple(rng, (i & 1) ? 6 : 4);
    FlowTuple r = t.reversed();
    SCOPED_TRACE(flowsteer::to_string(t));
    for (bool ports : {false, true})
      ASSERT_EQ(fh::toeplitz_symxor(t, key, ports), fh::toeplitz_symxor(r, key, ports));
    const uint32_t hr = rng();
    ASSERT_EQ(fh::jhash_sym_2010(t, hr), fh::jhash_sym_2010(r, hr));
    ASSERT_EQ(fh::jhash_sym_2010(t, hr, fh::JhashForm::Lookup3),
              fh::jhash_sym_2010(r, hr, fh::JhashForm::Lookup3));
    ASSERT_EQ(fh::consistentify(t), fh::consistentify(r));
    ASSERT_EQ(fh::flow_hash_from_keys(t, sip), fh::flow_hash_from_keys(r, sip));
    if (fh::toeplitz_tuple(t, key, true) == fh::toeplitz_tuple(r, key, true)) ++plain_equal;
  }
  EXPECT_LT(plain_equal, kN / 100) << "plain Toeplitz should usually be direction-dependent";
}

TEST(HashConsistentify, Rules) {
  // IPv4: raw LE word compare; 2.0.0.1 (0x01000002) < 1.0.0.2 (0x02000001).
  FlowTuple t = make_tuple("1.0.0.2", "2.0.0.1", 80, 1024);
  FlowTuple c = fh::consistentify(t);
  EXPECT_EQ(flowsteer::ip_to_string(c, true), "2.0.0.1");
  EXPECT_EQ(flowsteer::ip_to_string(c, false), "1.0.0.2");
  // Ports: raw16(80) = 0x5000, raw16(1024) = 0x0004 -> 1024 first; sorted independently.
  EXPECT_EQ(c.sport, 1024);
  EXPECT_EQ(c.dport, 80);
  // Already ordered stays.
  EXPECT_EQ(fh::consistentify(c), c);
  // IPv6: byte-lexicographic memcmp; raw16(1) = 0x0100 < raw16(2) = 0x0200.
  FlowTuple s = make_tuple("2001:db8::2", "2001:db8::1", 2, 1);
  FlowTuple cs = fh::consistentify(s);
  EXPECT_EQ(flowsteer::ip_to_string(cs, true), "2001:db8::1");
  EXPECT_EQ(flowsteer::ip_to_string(cs, false), "2001:db8::2");
  EXPECT_EQ(cs.sport, 1);
  EXPECT_EQ(cs.dport, 2);
  // Raw (LE) order differs from numeric order: 256 (raw 0x0001) sorts before 1 (0x0100).
  FlowTuple p = make_tuple("10.0.0.1", "10.0.0.1", 1, 256);
  EXPECT_EQ(fh::consistentify(p).sport, 256);
  FlowTuple other;
  other.sport = 5;
  other.dport = 1;
  EXPECT_EQ(fh::consistentify(other), other);  // non-IP unchanged
}

TEST(HashFlowKeys, LayoutAndZeroRule) {
  FlowTuple t = make_tuple("10.0.0.1", "10.0.0.2", 0x1234, 0x5678, flowsteer::kIpProtoUdp);
  std::vector<uint8_t> seen;
  auto capture = [&](const uint8_t* d, size_t n) {
    seen.assign(d, d + n);
    return 0u;  // forces the 0 -> 1 rule
  };
  EXPECT_EQ(fh::flow_hash_from_keys(t, capture), 1u);
  const std::vector<uint8_t> want = {0x08, 0x00, 17, 0,  0x12, 0x34, 0x56, 0x78,
                                     10,   0,    0,  1,  10,   0,    0,    2};
  EXPECT_EQ(seen, want);
  FlowTuple t6 = make_tuple("::1", "::2", 1, 2);
  fh::flow_hash_from_keys(t6, capture);
  ASSERT_EQ(seen.size(), 40u);
  EXPECT_EQ(seen[0], 0x86);
  EXPECT_EQ(seen[1], 0xDD);
  EXPECT_EQ(seen[23], 1);
  EXPECT_EQ(seen[39], 2);
  fh::flow_hash_from_keys(FlowTuple{}, capture);
  EXPECT_EQ(seen.size(), 8u);
  // jhash2 key hash = jhash2 over the LE words.
  uint32_t words[4] = {0x00110008u, 0x78563412u, 0x0100000Au, 0x0200000Au};
  EXPECT_EQ(fh::flow_hash_from_keys(t, fh::jhash2_key_hash(3)), fh::jhash2(words, 4, 3));
}

TEST(HashHash32, Vectors) {  // spec 6.4
  EXPECT_EQ(fh::hash_32(0x12345678, 10), 478u);
  EXPECT_EQ(fh::hash_32(0x00000001, 8), 97u);
  EXPECT_EQ(fh::hash_32(0xFFFFFFFF, 15), 20251u);
  EXPECT_EQ(fh::hash_32(0xDEADBEEF, 14), 7030u);
  EXPECT_EQ(fh::hash_32(0xDEADBEEF, 0), 0u);
  EXPECT_EQ(fh::hash_32(1, 32), 0x61C88647u);
}
