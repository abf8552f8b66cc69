// 2 MB-aligned anonymous mappings advised MADV_HUGEPAGE (see huge_pages.h).
#include "flowsteer/kernel/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace flowsteer::kernel {
namespace {

constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kOwnMappingMin = kHugePage / 4;  // below: carved from a shared chunk
constexpr std::size_t kBlockAlign = 64;                // a cache line

std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

// bytes (a multiple of kHugePage) at a kHugePage-aligned address: over-map, trim both ends.
void* map_aligned(std::size_t bytes) {
  const std::size_t span = bytes + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto lo = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t base = round_up(lo, kHugePage);
  if (base > lo) munmap(raw, base - lo);
  if (const std::size_t tail = lo + span - (base + bytes))
    munmap(reinterpret_cast<void*>(base + bytes), tail);
  void* p = reinterpret_cast<void*>(base);
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP the memory still works
  return p;
}

struct ChunkHeap {
  std::mutex mu;
  std::uintptr_t current = 0;                            // chunk being carved, 0 = none
  std::size_t used = 0;                                  // bytes of it handed out
  std::unordered_map<std::uintptr_t, std::size_t> live;  // chunk -> blocks not yet freed
  // Freed mappings kept for the next allocation of their size: a run's tables are freed
  // and the next run's are the same sizes, and a fresh mapping costs a page fault and the
  // kernel zeroing each page. At most kCacheMax bytes are kept.
  std::unordered_multimap<std::size_t, void*> cached;
  std::size_t cached_bytes = 0;
};

constexpr std::size_t kCacheMax = std::size_t(128) << 20;

// A mapping of bytes (a multiple of kHugePage): cached, else new. Called with mu held.
void* take_mapping(ChunkHeap& h, std::size_t bytes) {
  auto it = h.cached.find(bytes);
  if (it == h.cached.end()) return map_aligned(bytes);
  void* p = it->second;
  h.cached.erase(it);
  h.cached_bytes -= bytes;
  return p;
}

// A freed mapping: kept while the cache has room, else unmapped. Called with mu held.
void drop_mapping(ChunkHeap& h, void* p, std::size_t bytes) noexcept {
  if (h.cached_bytes + bytes <= kCacheMax) {
    try {
      h.cached.emplace(bytes, p);
      h.cached_bytes += bytes;
      return;
    } catch (const std::bad_alloc&) {  // no room for the cache's node: unmap instead
    }
  }
  munmap(p, bytes);
}

ChunkHeap& heap() {
  static ChunkHeap* h = new ChunkHeap;  // never destroyed: frees may come from static dtors
  return *h;
}

}  // namespace

void* huge_page_alloc(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (bytes > std::numeric_limits<std::size_t>::max() - 2 * kHugePage) throw std::bad_alloc();
  ChunkHeap& h = heap();
  std::lock_guard<std::mutex> lock(h.mu);
  if (bytes >= kOwnMappingMin) return take_mapping(h, round_up(bytes, kHugePage));
  const std::size_t need = round_up(bytes, kBlockAlign);
  if (!h.current || h.used + need > kHugePage) {
    // The old chunk still has live blocks (an empty current chunk is carved again): its
    // last free drops it.
    h.current = reinterpret_cast<std::uintptr_t>(take_mapping(h, kHugePage));
    h.used = 0;
    h.live[h.current] = 0;
  }
  void* p = reinterpret_cast<void*>(h.current + h.used);
  h.used += need;
  ++h.live[h.current];
  return p;
}

void huge_page_free(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes == 0) bytes = 1;
  ChunkHeap& h = heap();
  std::lock_guard<std::mutex> lock(h.mu);
  if (bytes >= kOwnMappingMin) {
    drop_mapping(h, p, round_up(bytes, kHugePage));
    return;
  }
  const std::uintptr_t chunk = reinterpret_cast<std::uintptr_t>(p) / kHugePage * kHugePage;
  auto it = h.live.find(chunk);
  if (it == h.live.end()) return;  // not ours: a caller bug; leaking beats unmapping blindly
  if (--it->second == 0 && chunk != h.current) {
    h.live.erase(it);
    drop_mapping(h, reinterpret_cast<void*>(chunk), kHugePage);
  } else if (it->second == 0) {
    h.used = 0;  // the current chunk is empty again: carve it from the start
  }
}

}  // namespace flowsteer::kernel
