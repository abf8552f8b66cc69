// Simulated packets per second of the system simulator on one core (target:
// >= 10 million). Each iteration is a full seed-scale run of a few virtual seconds.
#include <benchmark/benchmark.h>

#include "flowsteer/system/system_sim.h"

using namespace flowsteer;

static void BM_SystemSim(benchmark::State& state) {
  system::SystemConfig c;  // 144 CPUs, 12,000 flows: the seed's scale
  c.rps_flow_cnt = uint32_t(state.range(0));
  c.variant = state.range(1) ? kernel::Variant::kPatched : kernel::Variant::kOriginal;
  c.duration_s = 3;
  c.warmup_s = 1;
  // 1: the default end at the transaction rate (most of the packets); 0: the steady rate only.
  if (!state.range(2)) c.end_pkt_interval_us = 0;
  uint64_t packets = 0;
  for (auto _ : state) {
    system::SystemResult r = system::run_system(c);
    packets += r.shares.packets;
    benchmark::DoNotOptimize(r.at_end.add);
  }
  state.SetItemsProcessed(int64_t(packets));
  state.SetLabel(std::string(kernel::variant_name(c.variant)) + " rps_flow_cnt " +
                 std::to_string(c.rps_flow_cnt) + (state.range(2) ? " end 220us" : " steady only"));
}
BENCHMARK(BM_SystemSim)
    ->ArgsProduct({{256, 4096, 32768}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
