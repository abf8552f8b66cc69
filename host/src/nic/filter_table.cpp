#include "flowsteer/nic/filter_table.h"

#include <stdexcept>

namespace flowsteer::nic {

namespace {

bool valid_tuple(const FlowTuple& t) {
  if (t.family == 6) return true;
  if (t.family != 4) return false;
  for (size_t i = 4; i < 16; ++i)
    if (t.src[i] != 0 || t.dst[i] != 0) return false;
  return true;
}

}  // namespace

const char* filter_status_name(FilterStatus s) {
  switch (s) {
    case FilterStatus::kInserted: return "inserted";
    case FilterStatus::kRetargeted: return "retargeted";
    case FilterStatus::kRemoved: return "removed";
    case FilterStatus::kNotFound: return "not-found";
    case FilterStatus::kFull: return "full";
    case FilterStatus::kInvalid: return "invalid";
  }
  return "unknown";
}

ExactMatchTable::ExactMatchTable(size_t capacity) : capacity_(capacity) {
  if (capacity == 0) throw std::invalid_argument("filter table capacity must be >= 1");
  by_tuple_.reserve(capacity);
  by_id_.reserve(capacity);
}

void ExactMatchTable::unlink_id(uint32_t fd_id, const FlowTuple& t) {
  auto range = by_id_.equal_range(fd_id);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second == t) {
      by_id_.erase(it);
      return;
    }
  }
}

FilterStatus ExactMatchTable::add(const FlowTuple& t, uint32_t fd_id, uint16_t queue) {
  if (!valid_tuple(t)) return FilterStatus::kInvalid;
  auto it = by_tuple_.find(t);
  if (it != by_tuple_.end()) {
    if (it->second.fd_id != fd_id) {
      unlink_id(it->second.fd_id, t);
      by_id_.emplace(fd_id, t);
    }
    it->second.fd_id = fd_id;
    it->second.queue = queue;
    return FilterStatus::kRetargeted;
  }
  if (full()) {
    ++full_rejects_;
    return FilterStatus::kFull;
  }
  FilterEntry e;
  e.fd_id = fd_id;
  e.queue = queue;
  by_tuple_.emplace(t, e);
  by_id_.emplace(fd_id, t);
  return FilterStatus::kInserted;
}

FilterStatus ExactMatchTable::remove(const FlowTuple& t) {
  auto it = by_tuple_.find(t);
  if (it == by_tuple_.end()) return FilterStatus::kNotFound;
  unlink_id(it->second.fd_id, t);
  by_tuple_.erase(it);
  return FilterStatus::kRemoved;
}

FilterStatus ExactMatchTable::remove_id(uint32_t fd_id, size_t* removed) {
  auto range = by_id_.equal_range(fd_id);
  size_t n = 0;
  for (auto it = range.first; it != range.second; ++it, ++n) by_tuple_.erase(it->second);
  by_id_.erase(range.first, range.second);
  if (removed) *removed = n;
  return n ? FilterStatus::kRemoved : FilterStatus::kNotFound;
}

void ExactMatchTable::clear() {
  by_tuple_.clear();
  by_id_.clear();
}

const FilterEntry* ExactMatchTable::lookup(const FlowTuple& t) {
  auto it = by_tuple_.find(t);
  if (it == by_tuple_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  ++it->second.hits;
  return &it->second;
}

const FilterEntry* ExactMatchTable::find(const FlowTuple& t) const {
  auto it = by_tuple_.find(t);
  return it == by_tuple_.end() ? nullptr : &it->second;
}

size_t ExactMatchTable::count_id(uint32_t fd_id) const { return by_id_.count(fd_id); }

void ExactMatchTable::reset_counters() {
  hits_ = misses_ = full_rejects_ = 0;
  for (auto& kv : by_tuple_) kv.second.hits = 0;
}

std::vector<std::pair<FlowTuple, FilterEntry>> ExactMatchTable::entries() const {
  return {by_tuple_.begin(), by_tuple_.end()};
}

}  // namespace flowsteer::nic
