// Opens an engine backend (the golden model, or a card: arfs_filters CARD.xclbin), sets the
// kernel's knobs, runs synthetic TCP flows through it with the E810-style aRFS runtime and
// prints the filters the runtime holds, each checked against the engine's own table.
#include <cstdio>
#include <exception>
#include <memory>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/runs/device_run.h"

int main(int argc, char** argv) {
  using namespace flowsteer;
  try {
    std::unique_ptr<device::EnginePort> port =
        argc > 1 ? device::open_xrt_port(argv[1], 0, true) : device::open_model_port();
    driver::EngineSetup knobs;  // what sysfs, sysctl and ethtool set on an E810 host
    knobs.nr_cpu_ids = knobs.num_rx_queues = 8;
    knobs.rps_flow_cnt = 512;            // /sys/class/net/<dev>/queues/rx-*/rps_flow_cnt
    knobs.rps_sock_flow_entries = 4096;  // net.core.rps_sock_flow_entries
    knobs.variant = kernel::Variant::kPatched;
    runs::DeviceWorkload traffic;
    traffic.flows = 40;
    traffic.duration_s = 2.0;  // virtual seconds on a backend with a frame port
    const runs::DeviceReport r = runs::run_device(*port, knobs, traffic);
    std::printf("%s backend: %llu frames, %llu filters added, %llu deleted, %zu held\n",
                r.kind.c_str(), (unsigned long long)r.frames, (unsigned long long)r.runtime.add,
                (unsigned long long)r.runtime.del, r.filters.size());
    for (const runs::FilterRow& f : r.filters)
      std::printf("filter %u: %s -> queue %u (engine: %s)\n", f.id, to_string(f.tuple).c_str(),
                  unsigned(f.queue), f.found && f.engine_queue == f.queue ? "same" : "DIFFERENT");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arfs_filters: %s\n", e.what());
    return 2;
  }
}
