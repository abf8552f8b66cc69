// Kernel RPS/RFS state (spec 1.1): rps_dev_flow tables, sock flow table, constants.
#pragma once

#include <cstdint>
#include <vector>

#include "flowsteer/hash/hash.h"
#include "flowsteer/kernel/huge_pages.h"

namespace flowsteer::kernel {

inline constexpr uint16_t RPS_NO_CPU = 0xFFFF;
inline constexpr uint16_t RPS_NO_FILTER = 0xFFFF;
inline constexpr uint32_t kActivityFactor = 10;        // window = 10 * table size
inline constexpr uint32_t kMaxSockFlowEntries = 1u << 29;
// Widest rps_cpu_mask the engine accepts: rps_dev_flow.cpu is a u16, and a kernel's mask,
// roundup_pow_of_two(nr_cpu_ids) - 1, is below 2^16 (a wider one gives next_cpu values no slot
// can hold; the engine's SET_CPU_MASK refuses it).
inline constexpr uint32_t kMaxRpsCpuMask = 0xFFFF;
// Largest rps_flow_cnt the model allocates (the kernel allows up to 2^32 slots on 64-bit).
inline constexpr uint64_t kModelMaxFlowCnt = 1ull << 26;

// Before ("original") or after ("patched") 97bcc5b6f454 (spec 0, 3.1, 3.2).
enum class Variant : uint8_t { kOriginal = 0, kPatched = 1 };
// Slot index: V-log hash_32(h, log) (default) or V-mask h & mask (spec 0, 6.4).
enum class SlotMode : uint8_t { kLog = 0, kMask = 1 };

const char* variant_name(Variant v);
const char* slot_mode_name(SlotMode m);

struct rps_dev_flow {
  uint16_t cpu = RPS_NO_CPU;
  uint16_t filter = RPS_NO_FILTER;  // initialised in both variants (spec 1.1 known divergence)
  uint32_t last_qtail = 0;
  uint32_t hash = 0;                // PATCH1 only; written on a successful steer
};

struct rps_dev_flow_table {
  uint8_t log = 0;                  // size = 1 << log
  std::vector<rps_dev_flow, HugePageAllocator<rps_dev_flow>> flows;  // read at random per packet

  uint32_t size() const { return uint32_t(flows.size()); }
  uint32_t mask() const { return size() - 1; }
  // spec 6.4; log 0 is pinned to slot 0 (hash_32(h, 0) is a 32-bit shift in C, spec 8 case 11).
  // Inline: every packet computes one or two.
  uint32_t slot(uint32_t hash, SlotMode mode) const {
    if (mode == SlotMode::kMask) return hash & mask();
    return hash::hash_32(hash, log);
  }
  // Activity window as the kernel's int arithmetic gives it (spec 4.2; wraps for log >= 28,
  // spec 8 case 12): 10 * mask (V-mask) or 10 << log (V-log).
  int32_t window(SlotMode mode) const {
    uint32_t w = mode == SlotMode::kMask ? kActivityFactor * mask() : kActivityFactor << log;
    return static_cast<int32_t>(w);
  }
};

struct rps_sock_flow_table {
  uint32_t mask = 0;
  std::vector<uint32_t, HugePageAllocator<uint32_t>> ents;  // read at random per packet
};

}  // namespace flowsteer::kernel
