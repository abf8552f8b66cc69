#include "flowsteer/sim/device_run.h"

#include <chrono>
#include <cstdio>
#include <ostream>
#include <random>
#include <thread>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"

namespace flowsteer::sim {

namespace r = flowsteer::regs;

DeviceReport run_device(device::RegisterBus& bus, const driver::EngineSetup& setup,
                        const DeviceWorkload& w, const FrameSink& frames) {
  driver::EngineDriver drv(bus);
  drv.configure(setup);
  driver::ArfsRuntime rt(drv);
  bool sched = false;
  rt.set_schedule_hook([&] { sched = true; });
  DeviceReport rep;
  rep.backend = bus.describe();
  rep.queue_packets.assign(setup.num_rx_queues, 0);
  rep.cpu_packets.assign(setup.nr_cpu_ids, 0);
  const uint64_t end_ms = uint64_t(w.duration_s * 1000.0);

  if (frames) {
    // Synthetic flows: each app reads on one CPU; frames of the flow's tuple every gap.
    std::mt19937_64 rng(w.seed);
    struct Flow {
      std::vector<uint8_t> frame;
      uint32_t hash;
      uint16_t app_cpu;
      uint16_t period;
    };
    std::vector<Flow> flows(w.flows);
    std::vector<std::vector<uint32_t>> wheel(2 * w.pkt_interval_ms + 2);
    for (uint32_t i = 0; i < w.flows; ++i) {
      uint32_t a = uint32_t(rng()), b = uint32_t(rng());
      FlowTuple t;
      t.family = 4;
      t.proto = kIpProtoTcp;
      t.src = {10, 1, uint8_t(a >> 8), uint8_t(a)};
      t.dst = {10, 2, uint8_t(b >> 8), uint8_t(b)};
      t.sport = uint16_t(1024 + (a >> 16) % 64000);
      t.dport = uint16_t(1024 + (b >> 16) % 64000);
      flows[i].frame = nic::build_frame(t);
      flows[i].app_cpu = uint16_t(rng() % setup.nr_cpu_ids);
      flows[i].period = uint16_t(std::max<uint32_t>(1, w.pkt_interval_ms / 2 + rng() % (w.pkt_interval_ms + 1)));
      flows[i].hash = 0;  // learnt from the first record, like sk_rxhash
      wheel[rng() % flows[i].period].push_back(i);
    }
    uint64_t sched_due = 0;
    for (uint64_t now = 0; now < end_ms; ++now) {
      auto& bucket = wheel[now % wheel.size()];
      for (uint32_t fi : bucket) {
        Flow& f = flows[fi];
        engine::OutputRecord rec;
        if (frames(f.frame.data(), f.frame.size(), &rec)) {
          if (rec.queue < rep.queue_packets.size()) ++rep.queue_packets[rec.queue];
          // recvmsg on the app's CPU records the skb hash the engine delivered (spec 1.1).
          if (rec.hash != f.hash) {
            f.hash = rec.hash;
            drv.rps_record_sock_flow(f.hash, f.app_cpu);
          }
        }
        wheel[(now + f.period) % wheel.size()].push_back(fi);
      }
      bucket.clear();
      rt.take_events(now);
      for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c) {  // backlogs drained each ms
        uint32_t backlog = drv.tail(c) - drv.head(c);
        if (backlog) drv.head_add(c, backlog);
      }
      if (sched && sched_due == 0) sched_due = now + 2;
      if ((now > 0 && now % w.service_period_ms == 0) || (sched_due && now >= sched_due)) {
        rt.sync(now);
        ++rep.syncs;
        sched = false;
        sched_due = 0;
      }
    }
  } else {
    // A card: the runtime keeps the filters of live traffic for duration_s of wall time.
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t now = 0; now < end_ms; now += w.service_period_ms) {
      std::this_thread::sleep_until(t0 + std::chrono::milliseconds(now));
      rt.sync(now);
      ++rep.syncs;
    }
  }
  for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i) rep.counters.push_back(drv.counter(i));
  for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c) rep.cpu_packets[c] = drv.tail(c);
  rep.runtime = rt.counters();
  rep.runtime_entries = rt.num_entries();
  return rep;
}

void print_device_report(std::ostream& os, const DeviceReport& r) {
  char line[160];
  os << "backend: " << r.backend << "\n";
  const char* names[] = {"frames", "hashed", "filter hits", "RFS CPU", "Steer-C", "Add (engine)",
                         "re-targets", "gate skips", "driver errors", "host deletes", "events",
                         "event-FIFO refusals"};
  for (size_t i = 0; i < 12 && i < r.counters.size(); ++i) {
    std::snprintf(line, sizeof line, "  %-22s %12llu\n", names[i], (unsigned long long)r.counters[i]);
    os << line;
  }
  std::snprintf(line, sizeof line, "runtime: %llu syncs, Add %llu, Del %llu, %zu filters listed\n",
                (unsigned long long)r.syncs, (unsigned long long)r.runtime.add,
                (unsigned long long)r.runtime.del, r.runtime_entries);
  os << line;
  if (!r.queue_packets.empty()) {
    os << "per queue (frames arrived) / per CPU (frames enqueued):\n";
    for (size_t q = 0; q < r.queue_packets.size(); ++q) {
      std::snprintf(line, sizeof line, "  %4zu %12llu %12llu\n", q, (unsigned long long)r.queue_packets[q],
                    q < r.cpu_packets.size() ? (unsigned long long)r.cpu_packets[q] : 0ull);
      os << line;
    }
  }
}

}  // namespace flowsteer::sim
