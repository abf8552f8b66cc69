// NIC plane front end: parse -> hash -> exact-match filter (hit: its queue) else RSS
// LUT (DESIGN "Sequential contract" steps 1-3).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "flowsteer/nic/filter_table.h"
#include "flowsteer/nic/parser.h"
#include "flowsteer/nic/rss.h"

namespace flowsteer::nic {

struct RxResult {
  ParsedFrame parsed;
  uint32_t hash = 0;        // Rss::hash; 0 = no hash (spec G4)
  bool filter_hit = false;
  uint32_t fd_id = 0;       // the hit filter's id; 0 on a miss
  uint16_t queue = 0;       // arrival RX queue
};

struct NicCounters {
  uint64_t packets = 0;
  uint64_t filter_hits = 0;
  uint64_t no_hash = 0;                                // packets with hash 0
  std::array<uint64_t, kParseClassCount> by_class{};   // indexed by ParseClass value
};

class Nic {
 public:
  // num_queues fills the default LUT (lut[i] = i % num_queues).
  explicit Nic(uint16_t num_queues = 1, HashMode mode = HashMode::kToeplitz,
               size_t lut_size = Rss::kDefaultLutSize,
               size_t filter_capacity = ExactMatchTable::kDefaultCapacity);

  // One frame: parse_frame, Rss::hash, then the filter table is looked up with the
  // parsed tuple for every IP class (fragments and *Other included: the key is the full
  // tuple, ports 0 where the class has none); a hit gives its queue, otherwise
  // queue = rss.queue(hash) (non-IP and bad frames: hash 0 -> lut[0]).
  // Allocation-free.
  RxResult receive(const uint8_t* frame, size_t len);
  // Steps 2-3 for an already parsed frame (same result as receive without parsing).
  RxResult steer(const ParsedFrame& parsed);

  Rss& rss() { return rss_; }
  const Rss& rss() const { return rss_; }
  ExactMatchTable& filters() { return filters_; }
  const ExactMatchTable& filters() const { return filters_; }
  const NicCounters& counters() const { return counters_; }
  void reset_counters();

 private:
  Rss rss_;
  ExactMatchTable filters_;
  NicCounters counters_;
};

}  // namespace flowsteer::nic
