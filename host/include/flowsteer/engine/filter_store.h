// The engine's exact-match filter table as the RTL builds it: 2^bucket_bits buckets of
// `ways` entries, a tuple lives in the bucket its index hash names, and filter ids are
// unique (an id table finds an entry for retarget/delete). "Full" is per bucket.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flowsteer/tuple.h"

namespace flowsteer::engine {

// Numeric values are the register map's filter_err encoding.
enum class FilterErr : uint8_t { kOk = 0, kFull = 1, kExists = 2, kNotFound = 3, kIdInUse = 4 };
const char* filter_err_name(FilterErr e);

struct FilterHit {
  uint32_t id;
  uint16_t queue;
};

// Bucket index of a tuple: Toeplitz (Microsoft key) over the standard input with ports,
// low bucket_bits bits. Independent of the RSS configuration, so filters keep matching
// when the RSS key or mode changes (as E810 flow-director rules do).
uint32_t filter_bucket(const FlowTuple& t, unsigned bucket_bits);

class FilterStore {
 public:
  FilterStore(unsigned bucket_bits, unsigned ways, unsigned id_bits = 16);

  FilterErr insert(const FlowTuple& t, uint32_t id, uint16_t queue);
  FilterErr retarget(uint32_t id, uint16_t queue);
  FilterErr remove(uint32_t id);
  void clear();
  std::optional<FilterHit> lookup(const FlowTuple& t) const;
  // t's bucket has a way an INSERT could take (what the RTL's lookup reports with its hit)
  bool has_free_way(const FlowTuple& t) const;
  const FlowTuple* tuple_of(uint32_t id) const;

  size_t size() const { return live_; }
  size_t capacity() const { return slots_.size(); }
  unsigned ways() const { return ways_; }
  unsigned bucket_bits() const { return bucket_bits_; }

 private:
  struct Slot {
    bool valid = false;
    FlowTuple tuple;
    uint32_t id = 0;
    uint16_t queue = 0;
  };
  // index in slots_ of way 0 of t's bucket
  size_t bucket_base(const FlowTuple& t) const { return size_t(filter_bucket(t, bucket_bits_)) * ways_; }
  unsigned bucket_bits_, ways_;
  std::vector<Slot> slots_;           // bucket * ways + way
  std::vector<int32_t> where_;        // id -> slot index, -1 = free
  size_t live_ = 0;
};

}  // namespace flowsteer::engine
