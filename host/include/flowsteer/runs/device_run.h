// `flowsteer device`: the host runtime (register-level driver + aRFS runtime) on a backend,
// with a workload. The same code runs against the golden model, the simulated RTL and a card.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/bus/register_bus.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_model.h"

namespace flowsteer::runs {

// A knob changed while traffic runs (ethtool -K ntuple, CPU hot-plug, sysfs/sysctl), or a
// fault: the engine reset behind the runtime's back (kEngineReset, detected and rebuilt at
// the start of the next millisecond, before its frames).
struct KnobChange {
  enum class Kind : uint8_t { kNtuple, kCpuOnline, kRpsFlowCnt, kSockFlowEntries, kEngineReset, kRpsCpus };
  uint64_t at_ms = 0;  // applied after the work of this millisecond
  Kind kind = Kind::kNtuple;
  uint32_t index = 0;  // CPU (kCpuOnline) or RX queue (kRpsFlowCnt, kRpsCpus)
  uint64_t value = 0;  // on/off, rps_flow_cnt, rps_sock_flow_entries
  std::vector<uint32_t> mask;  // rps_cpus: 32-bit groups, group 0 = CPUs 0-31
};

struct DeviceWorkload {
  uint32_t flows = 1000;          // synthetic flows (backends with a frame port)
  uint32_t udp_percent = 0;       // share of the synthetic flows that are UDP (spec 7.3 expiry)
  uint32_t pkt_interval_ms = 10;  // mean gap between two frames of a flow
  double duration_s = 5.0;        // virtual (frame port) or wall-clock (card) seconds
  double traffic_s = 0;           // synthetic frames stop after this (0: at duration_s); the
                                  // runtime keeps running, so UDP filters expire (spec 7.3)
  uint32_t service_period_ms = 1000;
  uint64_t seed = 1;
  std::string pcap;               // non-empty: the frames of this Ethernet capture instead
  // Frames per drain within a millisecond (0: all of them). No register access comes
  // between two drains of one millisecond, so the total order, and every result, is the
  // same for any value; only the pipeline's occupancy changes.
  uint32_t max_batch = 0;
  // Called once the engine is configured (now 0) and after each millisecond with work:
  // virtual time, its end and the frames sent so far (progress display; may be empty).
  std::function<void(uint64_t now_ms, uint64_t end_ms, uint64_t frames)> progress;
  // Applied in order (frame-port backends); a CPU going offline moves its apps to the next
  // online CPU, where they record their flows again (recvmsg after the migration).
  std::vector<KnobChange> changes;
};

// A filter the runtime lists, read back from the engine with FLT LOOKUP of its tuple.
struct FilterRow {
  FlowTuple tuple;
  uint32_t id = 0;          // the runtime's entry
  uint16_t queue = 0;
  bool found = false;       // the engine's answer
  uint32_t engine_id = 0;
  uint16_t engine_queue = 0;
  driver::FltrState state = driver::FltrState::kInactive;  // the runtime's entry state
  uint32_t flow_id = 0;
  bool operator==(const FilterRow& o) const {
    return tuple == o.tuple && id == o.id && queue == o.queue && found == o.found &&
           engine_id == o.engine_id && engine_queue == o.engine_queue && state == o.state &&
           flow_id == o.flow_id;
  }
};

// The runtime and the engine right after a knob change.
struct ChangeSnapshot {
  uint64_t at_ms = 0;
  bool arfs_active = false;
  size_t runtime_entries = 0;
  uint32_t filter_count = 0;
  uint64_t steer_c = 0;
  size_t removed = 0;  // filters the change made the runtime delete
  bool operator==(const ChangeSnapshot& o) const {
    return at_ms == o.at_ms && arfs_active == o.arfs_active && runtime_entries == o.runtime_entries &&
           filter_count == o.filter_count && steer_c == o.steer_c && removed == o.removed;
  }
};

struct DeviceReport {
  std::string backend;                   // the bus's describe()
  std::string kind;                      // model | verilator | xrt | ...
  std::vector<uint64_t> counters;        // CNT_* by index (register map enum counter)
  driver::ArfsCounters runtime;          // Steer-C (engine), Steer-L (0), Add, Del
  std::vector<uint64_t> queue_packets;   // frames per arrival queue (from the records)
  std::vector<uint64_t> cpu_packets;     // frames enqueued per CPU (tail advance in the run)
  uint64_t frames = 0;                   // frames sent
  uint64_t syncs = 0;
  uint64_t sock_writes = 0;              // rps_record_sock_flow stores that changed an entry
  uint64_t delete_errors = 0;            // runtime deletes the engine refused
  uint64_t engine_resets = 0;            // resets the runtime detected and rebuilt after
  uint64_t register_accesses = 0;
  size_t runtime_entries = 0;
  uint32_t filter_count = 0;             // FLT_COUNT at the end
  std::vector<FilterRow> filters;        // every runtime entry, bucket order
  int32_t active_fltr_cnt[driver::kFlowTypeCount] = {0, 0, 0, 0};  // by driver::FlowType
  bool arfs_active = false;               // ice_is_arfs_active at the end
  std::vector<ChangeSnapshot> changes;    // one per workload change
  // The knobs at the end, as the kernel's files name them (path, value).
  std::vector<std::pair<std::string, std::string>> knobs;
  double wall_s = 0;
};

// Runs the workload through the runtime on `port`. With a frame port: per millisecond of
// virtual time the frames due are sent as one batch and drained (records in order), the
// apps record their flows (rps_record_sock_flow on the flow's CPU), the runtime takes the
// engine's events, every backlog is processed (head advance) and the service task runs
// every service_period_ms and 2 ms after a new entry. Frames precede the register accesses
// of their millisecond on every backend (engine_port.h), so model and simulated RTL see
// the same total order. Without one (a card): the runtime keeps the filters of live
// traffic for duration_s of wall time. Throws driver::KnobError / std::invalid_argument for
// a bad setup, std::runtime_error for an unreadable pcap, bus::DeviceError.
DeviceReport run_device(device::EnginePort& port, const driver::EngineSetup& setup, const DeviceWorkload& w);

// The same over a bus and a per-frame function (nullptr: no frame port).
// The sink returns false when the engine did not take the frame, else fills its record.
using FrameSink = std::function<bool(const uint8_t*, size_t, engine::OutputRecord* rec)>;
DeviceReport run_device(bus::RegisterBus& bus, const driver::EngineSetup& setup,
                        const DeviceWorkload& w, const FrameSink& frames);

// The first difference between two runs' results (counters but the RTL's own hazard
// counters, runtime counters, per-queue/CPU frames, filter table), or "".
std::string first_difference(const DeviceReport& a, const DeviceReport& b);

// CNT_* name of a counter index ("PKTS", "PARSE_IPV4_TCP", "CNT13").
std::string counter_name(uint32_t index);
void print_device_report(std::ostream& os, const DeviceReport& r);
void write_device_json(std::ostream& os, const DeviceReport& r);

// The listings kernel engineers know (flowsteer device --show):
// the runtime's filters as `ethtool -n` prints ntuple rules (id, flow type, addresses,
// ports, action = queue; then the aRFS state), per-queue and per-CPU statistics as
// `ethtool -S` does, and the knobs as sysfs/sysctl paths with their values.
void print_filters_ethtool(std::ostream& os, const DeviceReport& r);
void print_stats_ethtool(std::ostream& os, const DeviceReport& r);
void print_knobs(std::ostream& os, const DeviceReport& r);
// The same as JSON ("filters", "stats", "knobs"): one of them, or all for "report".
void write_listing_json(std::ostream& os, const DeviceReport& r, const std::string& what);

}  // namespace flowsteer::runs
