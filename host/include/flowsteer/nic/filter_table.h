// NIC plane exact-match filter table (the E810 flow-director perfect filters the
// aRFS path programs, spec 7.4): full FlowTuple -> {fd_id, queue}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flowsteer/tuple.h"

namespace flowsteer::nic {

struct FilterEntry {
  uint32_t fd_id = 0;  // FD ID reported with hits (32-bit descriptor field, spec 7.4)
  uint16_t queue = 0;  // destination RX queue
  uint64_t hits = 0;   // lookups that matched this entry (kept across re-targets)
};

// The numeric values are also the RTL command-response encoding.
enum class FilterStatus : uint8_t {
  kInserted = 0,    // add: new entry
  kRetargeted = 1,  // add: tuple was present; its fd_id and queue were replaced
  kRemoved = 2,     // remove: entry (or entries, by id) deleted
  kNotFound = 3,    // remove: nothing matched
  kFull = 4,        // add: new tuple but size() == capacity(); table unchanged
  kInvalid = 5,     // add: family not 4/6, or IPv4 address bytes 4..15 not zero
};
const char* filter_status_name(FilterStatus s);

class ExactMatchTable {
 public:
  static constexpr size_t kDefaultCapacity = 16384;  // spec 1.3 ICE_FDIR_MAX_FLTRS

  // capacity >= 1, else std::invalid_argument. Memory for capacity entries is
  // reserved up front; lookup never allocates.
  explicit ExactMatchTable(size_t capacity = kDefaultCapacity);

  // Insert, or re-target an existing tuple (fd_id and queue replaced, hits kept).
  // A full table still accepts re-targets. fd_ids need not be unique.
  FilterStatus add(const FlowTuple& t, uint32_t fd_id, uint16_t queue);
  FilterStatus remove(const FlowTuple& t);
  // Removes every entry carrying fd_id (ice ids can alias after 65535 allocations,
  // spec 7.2/8.30); kRemoved if at least one went, with the count in *removed.
  FilterStatus remove_id(uint32_t fd_id, size_t* removed = nullptr);
  void clear();

  // Packet-path lookup: counts a hit (table and entry) or a miss. nullptr on a miss.
  const FilterEntry* lookup(const FlowTuple& t);
  // Inspection without touching the counters.
  const FilterEntry* find(const FlowTuple& t) const;
  size_t count_id(uint32_t fd_id) const;

  size_t size() const { return by_tuple_.size(); }
  size_t capacity() const { return capacity_; }
  bool full() const { return by_tuple_.size() >= capacity_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t full_rejects() const { return full_rejects_; }  // adds refused with kFull
  void reset_counters();

  // Snapshot of all entries (order unspecified).
  std::vector<std::pair<FlowTuple, FilterEntry>> entries() const;

 private:
  void unlink_id(uint32_t fd_id, const FlowTuple& t);

  size_t capacity_;
  std::unordered_map<FlowTuple, FilterEntry, FlowTupleHash> by_tuple_;
  std::unordered_multimap<uint32_t, FlowTuple> by_id_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
  uint64_t full_rejects_ = 0;
};

}  // namespace flowsteer::nic
