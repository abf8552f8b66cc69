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
  // Virtual time simulated per run (see run_system): flows start over start_spread_s,
  // traffic until duration_s, then each flow ends (staggered like its start) and the
  // service timer keeps running for teardown_s; the counters are read after that.
  double duration_s = 30.0;            // end of the steady window (flows still running)
  double warmup_s = 5.0;               // counts up to here are taken whole
  double start_spread_s = 1.0;         // flow i starts at U(0, spread); ends as late after duration_s
  double teardown_s = 5.0;             // after the last flow ended: service runs, then the client reads
  double pkt_interval_us = 10000;      // mean per-flow gap between received packets; each flow draws [gap/2, 3gap/2]
  // From duration_s on (while the flows end): the published latency column's rate, one packet
  // per ~220 us transaction; it sets how far the heads move after a flow's end. 0 = as above.
  double end_pkt_interval_us = 220;
  uint32_t service_delay_us = 2000;    // ice_service_task_schedule -> the work starts running
  uint32_t service_period_ms = 1000;   // the service timer (HZ)
  uint32_t hw_delay_us = 2000;         // a filter write posted -> packets follow it
  // Service-task cost (spec 7.3): a run lasts (entries walked x walk_ns + filters written x
  // write_ns + devres nodes its devm_kfree calls visit x devres_ns) / its CPU share; its CPU also carries traffic: share = 1 - packets/s per CPU x
  // pkt_ns (at least min_service_share). While a run lasts, ICE_SERVICE_SCHED stays set (spec 7.7).
  uint32_t walk_ns = 100;              // per entry walked in Y2 (rps_may_expire_flow's slot read)
  uint32_t write_ns = 5000;            // per ice_fdir_write_fltr (buffers, training packet, 2 descriptors)
  uint32_t devres_ns = 30;             // per devres node devm_kfree's reverse search visits
  uint32_t pkt_ns = 2500;              // CPU per received packet (softirq + the application's turn)
  double min_service_share = 0.05;     // the service task's floor share of a saturated CPU
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
  driver::ArfsCounters at_warmup;      // at warmup_s
  driver::ArfsCounters at_steady_end;  // at duration_s, before any flow ends
  driver::ArfsCounters at_end;         // as the client reads them, after the teardown
  PacketShares shares;
  uint64_t service_runs = 0;
  uint64_t timer_runs = 0;             // runs the 1 s timer scheduled (not a new entry)
  double service_busy_s = 0.0;         // virtual time the service task spent running
  double service_share = 1.0;          // its CPU share during the steady window
  uint64_t hw_writes = 0;
  uint64_t filters_installed_end = 0;
  uint64_t hw_full_rejects = 0;        // ice adds the full flow-director table dropped
  uint64_t driver_errors = 0;          // steer calls the driver refused (engine: full, busy)
  // How often each set_rps_cpu path and each patched-gate row was taken (spec 3).
  std::array<uint64_t, kernel::kSetRpsCpuPathCount> paths{};
  std::array<uint64_t, kernel::kGateRowCount> gate_rows{};
  double wall_s = 0.0;

  // Count at warm-up, plus the steady-state rate after it over the rest of projection_s, plus
  // what the flows' end and the teardown added. Del: projected Add minus the
  // entries live at the read (so Del <= Add, as in ice).
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
