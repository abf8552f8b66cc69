// The system simulator (spec 7.9.5): kernel plane + ice mirror + NIC model,
// stepped in 1 ms ticks, reproducing the seed experiment's counters.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flowsteer/driver/ice_arfs.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::system {

struct SystemConfig {
  uint32_t cpus = 144;                 // = RX queues, IRQs 1:1 (cpu_rmap near[c] = c)
  uint32_t flows = 12000;              // TCP request/response connections
  uint32_t rps_flow_cnt = 4096;        // per RX queue; sock table = cpus * this (spec 7.9.1)
  kernel::Variant variant = kernel::Variant::kPatched;
  bool engine = false;                 // the hardware engine replaces NIC + ice (inline filters)
  kernel::SlotMode slot_mode = kernel::SlotMode::kLog;
  driver::MatchMode match = driver::MatchMode::kTuple;
  double duration_s = 30.0;            // virtual time
  double warmup_s = 5.0;               // counts up to here are taken whole
  uint32_t pkt_interval_ms = 10;       // mean per-flow gap; each flow draws [gap/2, 3gap/2]
  uint32_t service_delay_ms = 2;       // ice_service_task_schedule -> run
  uint32_t service_period_ms = 1000;   // the service timer (HZ)
  uint32_t hw_delay_ms = 2;            // filter write -> packets follow it
  uint32_t cpu_budget_per_ms = 0;      // skbs a CPU's backlog drains per tick; 0 = all
  uint32_t lut_size = 2048;            // ICE_LUT_PF_SIZE, lut[i] = i % cpus
  double udp_share = 0.0;              // fraction of flows that are UDP (5 s expiry)
  double migrations_per_s = 0.0;       // app-thread moves per flow per second
  double projection_s = 480.0;         // the seed's 8-minute runs
  uint64_t seed = 1;
};

struct PacketShares {
  uint64_t packets = 0;
  uint64_t hw_steered = 0;   // arrived through an installed filter
  uint64_t sw_steered = 0;   // RFS picked a CPU whose queue is not the arrival queue
  uint64_t rss_local = 0;    // RFS CPU's queue is the RSS queue already
  uint64_t not_steered = 0;  // get_rps_cpu gave no RFS CPU (RPS map / -1)
};

struct SystemResult {
  SystemConfig cfg;
  driver::ArfsCounters at_warmup;
  driver::ArfsCounters at_end;
  PacketShares shares;
  uint64_t service_runs = 0;
  uint64_t hw_writes = 0;
  uint64_t filters_installed_end = 0;
  uint64_t hw_full_rejects = 0;        // ice adds the full flow-director table dropped
  uint64_t driver_errors = 0;          // steer calls the driver refused (engine: full, busy)
  // How often each set_rps_cpu path and each patched-gate row was taken (spec 3).
  std::array<uint64_t, kernel::kSetRpsCpuPathCount> paths{};
  std::array<uint64_t, kernel::kGateRowCount> gate_rows{};
  double wall_s = 0.0;

  // Count at warm-up plus the steady-state rate after it, over projection_s.
  double projected(uint64_t driver::ArfsCounters::*field) const;
  double rate_per_s(uint64_t driver::ArfsCounters::*field) const;
};

// Runs one configuration. progress(packets_so_far) is called now and then.
SystemResult run_system(const SystemConfig& cfg,
                        const std::function<void(uint64_t)>& progress = nullptr);

// "original", "patched", or "engine" (the hardware engine, its mode register patched)
// / "engine-original".
std::string config_name(const SystemConfig& c);

// Checks a config before a run; returns an empty string or what is wrong.
std::string validate(const SystemConfig& cfg);

}  // namespace flowsteer::system
