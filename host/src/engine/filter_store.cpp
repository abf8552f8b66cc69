#include "flowsteer/engine/filter_store.h"

#include <stdexcept>

#include "flowsteer/nic/rss.h"

namespace flowsteer::engine {

const char* filter_err_name(FilterErr e) {
  static const char* const names[] = {"ok", "full", "exists", "not_found", "id_in_use"};
  return names[static_cast<int>(e)];
}

uint32_t filter_bucket(const FlowTuple& t, unsigned bucket_bits) {
  static const nic::Rss index_hash(1);  // Microsoft key, Toeplitz; table-driven
  uint32_t h = index_hash.hash_tuple(t, true);
  return bucket_bits >= 32 ? h : h & ((1u << bucket_bits) - 1);
}

FilterStore::FilterStore(unsigned bucket_bits, unsigned ways, unsigned id_bits)
    : bucket_bits_(bucket_bits), ways_(ways) {
  if (bucket_bits > 20 || ways == 0 || ways > 16 || id_bits == 0 || id_bits > 20)
    throw std::invalid_argument("filter store: bucket_bits <= 20, ways 1..16, id_bits 1..20");
  slots_.resize((size_t(1) << bucket_bits) * ways);
  where_.assign(size_t(1) << id_bits, -1);
}

bool FilterStore::has_free_way(const FlowTuple& t) const {
  const size_t base = bucket_base(t);
  for (unsigned w = 0; w < ways_; ++w)
    if (!slots_[base + w].valid) return true;
  return false;
}

FilterErr FilterStore::insert(const FlowTuple& t, uint32_t id, uint16_t queue) {
  if (id >= where_.size() || where_[id] >= 0) return FilterErr::kIdInUse;
  const size_t base = bucket_base(t);
  int free_way = -1;
  for (unsigned w = 0; w < ways_; ++w) {
    const Slot& s = slots_[base + w];
    if (s.valid && s.tuple == t) return FilterErr::kExists;
    if (!s.valid && free_way < 0) free_way = int(w);  // lowest free way, as the RTL picks
  }
  if (free_way < 0) return FilterErr::kFull;
  Slot& s = slots_[base + unsigned(free_way)];
  s = Slot{true, t, id, queue};
  where_[id] = int32_t(base + unsigned(free_way));
  ++live_;
  return FilterErr::kOk;
}

FilterErr FilterStore::retarget(uint32_t id, uint16_t queue) {
  if (id >= where_.size() || where_[id] < 0) return FilterErr::kNotFound;
  slots_[size_t(where_[id])].queue = queue;
  return FilterErr::kOk;
}

FilterErr FilterStore::remove(uint32_t id) {
  if (id >= where_.size() || where_[id] < 0) return FilterErr::kNotFound;
  slots_[size_t(where_[id])].valid = false;
  where_[id] = -1;
  --live_;
  return FilterErr::kOk;
}

void FilterStore::clear() {
  for (auto& s : slots_) s.valid = false;
  for (auto& w : where_) w = -1;
  live_ = 0;
}

std::optional<FilterHit> FilterStore::lookup(const FlowTuple& t) const {
  const size_t base = bucket_base(t);
  for (unsigned w = 0; w < ways_; ++w) {
    const Slot& s = slots_[base + w];
    if (s.valid && s.tuple == t) return FilterHit{s.id, s.queue};
  }
  return std::nullopt;
}

const FlowTuple* FilterStore::tuple_of(uint32_t id) const {
  if (id >= where_.size() || where_[id] < 0) return nullptr;
  return &slots_[size_t(where_[id])].tuple;
}

}  // namespace flowsteer::engine
