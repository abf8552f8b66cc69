// `flowsteer device`: the host runtime (register-level driver + aRFS runtime) on a backend,
// with a workload. The same code runs against the golden model's registers and a card.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "flowsteer/device/register_bus.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_model.h"

namespace flowsteer::sim {

struct DeviceWorkload {
  uint32_t flows = 1000;          // synthetic TCP flows (model backend)
  uint32_t pkt_interval_ms = 10;  // per flow
  double duration_s = 5.0;        // virtual (model) or wall-clock (card) seconds
  uint32_t service_period_ms = 1000;
  uint64_t seed = 1;
};

struct DeviceReport {
  std::string backend;
  std::vector<uint64_t> counters;        // CNT_* by index (register map enum counter)
  driver::ArfsCounters runtime;          // Steer-C (engine), Add, Del
  std::vector<uint64_t> queue_packets;   // frames per arrival queue (model backend)
  std::vector<uint64_t> cpu_packets;     // frames per chosen CPU (tail advance)
  uint64_t syncs = 0;
  size_t runtime_entries = 0;
};

// Frames are injected only when the backend has a frame port (the model); on a card the
// traffic comes from the network and the runtime just keeps the filters.
// The sink returns false when the engine did not take the frame, else fills its record.
using FrameSink = std::function<bool(const uint8_t*, size_t, engine::OutputRecord* rec)>;

DeviceReport run_device(device::RegisterBus& bus, const driver::EngineSetup& setup,
                        const DeviceWorkload& w, const FrameSink& frames);
void print_device_report(std::ostream& os, const DeviceReport& r);

}  // namespace flowsteer::sim
