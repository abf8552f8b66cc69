// NIC plane RSS: per-packet hash by the configured mode and the indirection table
// (LUT) that turns it into an RX queue (spec 6.5, DESIGN "Sequential contract" 2-3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/parser.h"

namespace flowsteer::nic {

// The value is also the RTL mode-register encoding.
enum class HashMode : uint8_t {
  kToeplitz = 0,        // standard Toeplitz over the key (spec 6.5)
  kToeplitzSymXor = 1,  // ice symmetric-xor input (spec 6.5)
  kJhashSym = 2,        // 2010 in-line symmetric jhash, seed = jhash_seed (spec 6.1)
};
const char* hash_mode_name(HashMode m);

class Rss {
 public:
  static constexpr size_t kDefaultLutSize = 2048;  // spec 6.5 ICE_LUT_PF_SIZE

  // Microsoft key, LUT of lut_size entries filled lut[i] = i % num_queues, seed 0.
  // Throws std::invalid_argument if num_queues == 0 or lut_size is not a power of two.
  explicit Rss(uint16_t num_queues = 1, HashMode mode = HashMode::kToeplitz,
               size_t lut_size = kDefaultLutSize);

  // Key of 40 or 52 bytes (spec 6.5), else std::invalid_argument.
  void set_key(const hash::RssKey& key);
  const hash::RssKey& key() const { return key_; }
  void set_mode(HashMode m) { mode_ = m; }
  HashMode mode() const { return mode_; }
  void set_jhash_seed(uint32_t seed) { seed_ = seed; }
  uint32_t jhash_seed() const { return seed_; }
  // Which jhash kJhashSym uses; Lookup2 (the 2010 kernel's) by default.
  void set_jhash_form(hash::JhashForm f) { form_ = f; }
  hash::JhashForm jhash_form() const { return form_; }

  // Replaces the LUT; size must be a non-zero power of two (std::invalid_argument).
  void set_lut(const std::vector<uint16_t>& lut);
  // Resizes (power of two) and refills lut[i] = i % num_queues (spec 6.5 default fill).
  void fill_lut(uint16_t num_queues, size_t lut_size = kDefaultLutSize);
  void set_lut_entry(size_t index, uint16_t queue);  // std::out_of_range on a bad index
  const std::vector<uint16_t>& lut() const { return lut_; }
  size_t lut_size() const { return lut_.size(); }

  // Hash of a parsed frame: 4-tuple for the TCP/UDP classes, 2-tuple (addresses) for
  // the other IP classes including fragments, 0 ("no hash") for non-IP, truncated,
  // malformed and unsupported frames. Toeplitz may legitimately return 0, which then
  // also means "no hash" downstream (spec 6.5); kJhashSym never returns 0 for IP.
  // Allocation-free.
  uint32_t hash(const ParsedFrame& p) const;
  // Same, from a tuple: with_ports selects the 4-tuple (for kJhashSym ports are used
  // when with_ports and proto is TCP/UDP). family 0 -> 0.
  uint32_t hash_tuple(const FlowTuple& t, bool with_ports) const;
  // lut[hash & (lut_size - 1)] (spec 6.5; LSB indexing).
  uint16_t queue(uint32_t hash) const { return lut_[hash & lut_mask_]; }

 private:
  uint32_t toeplitz_fast(const uint8_t* in, size_t len) const;
  void rebuild_table();

  hash::RssKey key_;
  HashMode mode_;
  uint32_t seed_ = 0;
  hash::JhashForm form_ = hash::JhashForm::Lookup2;
  std::vector<uint16_t> lut_;
  size_t lut_mask_ = 0;
  // table_[pos * 256 + byte]: Toeplitz contribution of `byte` at input position pos,
  // for the longest input (IPv6 4-tuple, 36 bytes). Rebuilt on set_key.
  std::vector<uint32_t> table_;
};

}  // namespace flowsteer::nic
