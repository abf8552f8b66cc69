// NIC- and kernel-side flow hashes (spec section 6).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "flowsteer/tuple.h"

namespace flowsteer::hash {

using RssKey = std::vector<uint8_t>;

// The 40-byte key of the Microsoft RSS verification suite (spec 6.5).
const RssKey& microsoft_key();

// Toeplitz over raw bytes (spec 6.5). Throws std::invalid_argument unless
// key_len >= len + 4 (the last input bit needs a full 32-bit key window).
uint32_t toeplitz(const uint8_t* input, size_t len, const uint8_t* key, size_t key_len);
uint32_t toeplitz(const std::vector<uint8_t>& input, const RssKey& key);

// Standard Toeplitz input: src addr, dst addr[, sport, dport], network order.
std::vector<uint8_t> toeplitz_input(const FlowTuple& t, bool with_ports);
// ice symmetric-xor input (spec 6.5): (src^dst, dst^src[, sport^dport, dport^sport]).
std::vector<uint8_t> toeplitz_symxor_input(const FlowTuple& t, bool with_ports);
uint32_t toeplitz_tuple(const FlowTuple& t, const RssKey& key, bool with_ports);
uint32_t toeplitz_symxor(const FlowTuple& t, const RssKey& key, bool with_ports);

// Jenkins hashes, current lookup3 form of include/linux/jhash.h (spec 6.2).
uint32_t jhash_3words(uint32_t a, uint32_t b, uint32_t c, uint32_t initval);
uint32_t jhash_2words(uint32_t a, uint32_t b, uint32_t initval);
uint32_t jhash_1word(uint32_t a, uint32_t initval);
uint32_t jhash2(const uint32_t* k, size_t length, uint32_t initval);
// The lookup2 form used by the 2010 RPS code (spec 6.2).
uint32_t jhash_3words_lookup2(uint32_t a, uint32_t b, uint32_t c, uint32_t initval);

enum class JhashForm { Lookup2, Lookup3 };

// 2.6.35 in-line RPS hash (spec 6.1): addresses and ports sorted independently,
// words read as on x86 (little-endian), jhash_3words, 0 becomes 1. Symmetric.
// IPv6 uses the last 32-bit word of each address. Ports are 0 for non-port protocols.
uint32_t jhash_sym_2010(const FlowTuple& t, uint32_t hashrnd, JhashForm form = JhashForm::Lookup2);

// Modern __flow_hash_consistentify order (spec 6.3): returns the tuple with
// addresses and ports each put in canonical order.
FlowTuple consistentify(const FlowTuple& t);
// flow_hash_from_keys with a pluggable final hash over the canonical key bytes
// (n_proto, ip_proto, ports, addresses); 0 becomes 1 (spec 6.3).
// Key layout (ours; the kernel's struct layout and SipHash key are not observable),
// built from consistentify(t):
//   [0..1] n_proto big-endian (0x0800 IPv4, 0x86DD IPv6, 0 other)
//   [2] ip_proto, [3] 0
//   [4..5] sport, [6..7] dport, big-endian (network order)
//   [8..] src address then dst address: 4+4 bytes (IPv4), 16+16 (IPv6), nothing otherwise
// Length 16 (IPv4), 40 (IPv6) or 8 (other): always whole u32 words.
using KeyHash = std::function<uint32_t(const uint8_t* data, size_t len)>;
uint32_t flow_hash_from_keys(const FlowTuple& t, const KeyHash& final_hash);
// A final hash of the pre-2019 (jhash era) kind: the key bytes read as little-endian
// u32 words (a partial last word zero-padded), then jhash2 (lookup3) with initval.
KeyHash jhash2_key_hash(uint32_t initval);

// hash_32 (spec 6.4). bits in 1..32; bits == 0 is pinned to 0 (the C shift is undefined).
inline uint32_t hash_32(uint32_t val, unsigned bits) {
  if (bits == 0) return 0;
  return uint32_t(val * 0x61C88647u) >> (32 - bits);
}

}  // namespace flowsteer::hash
