#include "flowsteer/nic/rss.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace flowsteer::nic {

namespace {

constexpr size_t kMaxInput = 36;  // IPv6 addresses + ports

bool is_pow2(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

inline void put_be16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}

// Toeplitz input into buf (no allocation); returns its length. spec 6.5.
size_t build_input(const FlowTuple& t, bool with_ports, bool symxor, uint8_t* buf) {
  const size_t al = t.addr_len();
  if (symxor) {
    for (size_t i = 0; i < al; ++i) buf[i] = buf[al + i] = uint8_t(t.src[i] ^ t.dst[i]);
  } else {
    std::memcpy(buf, t.src.data(), al);
    std::memcpy(buf + al, t.dst.data(), al);
  }
  if (!with_ports) return 2 * al;
  const uint16_t sp = symxor ? uint16_t(t.sport ^ t.dport) : t.sport;
  const uint16_t dp = symxor ? sp : t.dport;
  put_be16(buf + 2 * al, sp);
  put_be16(buf + 2 * al + 2, dp);
  return 2 * al + 4;
}

}  // namespace

const char* hash_mode_name(HashMode m) {
  switch (m) {
    case HashMode::kToeplitz: return "toeplitz";
    case HashMode::kToeplitzSymXor: return "toeplitz-symxor";
    case HashMode::kJhashSym: return "jhash-sym";
  }
  return "invalid";
}

Rss::Rss(uint16_t num_queues, HashMode mode, size_t lut_size) : mode_(mode) {
  set_key(hash::microsoft_key());
  fill_lut(num_queues, lut_size);
}

void Rss::set_key(const hash::RssKey& key) {
  if (key.size() != 40 && key.size() != 52)
    throw std::invalid_argument("RSS key must be 40 or 52 bytes, got " +
                                std::to_string(key.size()));
  key_ = key;
  rebuild_table();
}

void Rss::rebuild_table() {
  table_.assign(kMaxInput * 256, 0);
  for (size_t pos = 0; pos < kMaxInput; ++pos) {
    // Key window for each of the 8 bits of the byte at pos (bit 7 first).
    uint32_t win[8];
    for (int bit = 0; bit < 8; ++bit) {
      uint8_t one[kMaxInput] = {};
      one[pos] = uint8_t(0x80 >> bit);
      win[bit] = hash::toeplitz(one, pos + 1, key_.data(), key_.size());
    }
    for (unsigned v = 1; v < 256; ++v) {
      uint32_t h = 0;
      for (int bit = 0; bit < 8; ++bit)
        if (v & (0x80u >> bit)) h ^= win[bit];
      table_[pos * 256 + v] = h;
    }
  }
}

void Rss::set_lut(const std::vector<uint16_t>& lut) {
  if (!is_pow2(lut.size()))
    throw std::invalid_argument("RSS LUT size must be a non-zero power of two, got " +
                                std::to_string(lut.size()));
  lut_ = lut;
  lut_mask_ = lut_.size() - 1;
}

void Rss::fill_lut(uint16_t num_queues, size_t lut_size) {
  if (num_queues == 0) throw std::invalid_argument("RSS needs at least one queue");
  if (!is_pow2(lut_size))
    throw std::invalid_argument("RSS LUT size must be a non-zero power of two, got " +
                                std::to_string(lut_size));
  lut_.resize(lut_size);
  for (size_t i = 0; i < lut_size; ++i) lut_[i] = uint16_t(i % num_queues);  // spec 6.5
  lut_mask_ = lut_size - 1;
}

void Rss::set_lut_entry(size_t index, uint16_t queue) {
  if (index >= lut_.size())
    throw std::out_of_range("RSS LUT index " + std::to_string(index) + " out of range");
  lut_[index] = queue;
}

uint32_t Rss::toeplitz_fast(const uint8_t* in, size_t len) const {
  uint32_t h = 0;
  const uint32_t* t = table_.data();
  for (size_t i = 0; i < len; ++i, t += 256) h ^= t[in[i]];
  return h;
}

uint32_t Rss::hash_tuple(const FlowTuple& t, bool with_ports) const {
  if (t.family != 4 && t.family != 6) return 0;
  if (mode_ == HashMode::kJhashSym) {
    if (with_ports) return hash::jhash_sym_2010(t, seed_, form_);
    FlowTuple no_ports = t;  // spec 6.1: ports 0 without a port header
    no_ports.sport = no_ports.dport = 0;
    return hash::jhash_sym_2010(no_ports, seed_, form_);
  }
  uint8_t buf[kMaxInput];
  const size_t n = build_input(t, with_ports, mode_ == HashMode::kToeplitzSymXor, buf);
  return toeplitz_fast(buf, n);
}

uint32_t Rss::hash(const ParsedFrame& p) const {
  if (!p.is_ip()) return 0;
  return hash_tuple(p.tuple, p.has_ports());
}

}  // namespace flowsteer::nic
