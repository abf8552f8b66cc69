// Memory on 2 MB transparent huge pages for the tables every packet reads at random (the
// sock flow table, the rps_dev_flow tables): at the seed's scale they span ~90 MB, far more
// than the TLB reaches with 4 KB pages, so most lookups would miss the TLB as well.
#pragma once

#include <cstddef>
#include <limits>
#include <new>

namespace flowsteer::kernel {

// Blocks of 512 KB and more get their own 2 MB-aligned mapping; smaller ones are carved from
// shared 2 MB chunks (a chunk goes when its last block is freed). Both are advised
// MADV_HUGEPAGE; up to 128 MB of freed mappings are kept for reuse. Thread-safe; throws
// std::bad_alloc. The memory is not zeroed on reuse (the containers initialise it).
void* huge_page_alloc(std::size_t bytes);
void huge_page_free(void* p, std::size_t bytes) noexcept;

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(huge_page_alloc(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { huge_page_free(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace flowsteer::kernel
