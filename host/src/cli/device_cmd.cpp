// flowsteer device: the host runtime on a backend (issue 6).
#include <iostream>

#include "cli_common.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/sim/device_run.h"

namespace flowsteer::cli {

int cmd_device(int argc, char** argv) {
  CLI::App app{"Run the E810-style aRFS runtime through the register-level driver on a backend: "
               "the golden model with synthetic flows, or an Alveo card through XRT",
               "device"};
  std::string backend = "model", xclbin, hash = "toeplitz-symxor", variant = "patched";
  unsigned device_index = 0;
  driver::EngineSetup setup;
  sim::DeviceWorkload w;
  app.add_option("--backend", backend, "model (default) | xrt")->check(CLI::IsMember({"model", "xrt"}));
  app.add_option("--xclbin", xclbin, "xclbin with the flowsteer kernel (xrt backend)");
  app.add_option("--device", device_index, "card index (xrt backend, default 0)");
  app.add_option("--cpus", setup.nr_cpu_ids, "nr_cpu_ids = RX queues (default 16)")->check(CLI::Range(1u, 65535u));
  app.add_option("--rps-flow-cnt", setup.rps_flow_cnt, "per-queue table size (default 256)");
  app.add_option("--flows", w.flows, "synthetic flows (model backend, default 1000)")->check(CLI::Range(1u, 1000000u));
  app.add_option("--duration-s", w.duration_s, "virtual (model) or wall-clock (card) seconds (default 5)")
      ->check(CLI::Range(0.001, 3600.0));
  app.add_option("--seed", w.seed, "workload seed (default 1)");
  app.add_option("--hash", hash, "toeplitz | toeplitz-symxor (default) | jhash-sym")
      ->check(CLI::IsMember({"toeplitz", "toeplitz-symxor", "jhash-sym"}));
  app.add_option("--variant", variant, "original | patched (default)")->check(CLI::IsMember({"original", "patched"}));
  if (auto rc = parse(app, argc, argv)) return *rc;
  setup.num_rx_queues = setup.nr_cpu_ids;
  setup.variant = variant == "original" ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  setup.hash_mode = hash == "toeplitz"          ? nic::HashMode::kToeplitz
                    : hash == "toeplitz-symxor" ? nic::HashMode::kToeplitzSymXor
                                                : nic::HashMode::kJhashSym;
  std::cerr << "flowsteer device: " << backend << " backend, seed " << w.seed << "\n";
  try {
    sim::DeviceReport rep;
    if (backend == "model") {
      engine::EngineRegisterFile regs;  // the register map's implemented sizes
      rep = sim::run_device(regs, setup, w, [&](const uint8_t* f, size_t n, engine::OutputRecord* rec) {
        auto r = regs.packet(f, n);
        if (r) *rec = *r;
        return bool(r);
      });
    } else {
      if (xclbin.empty()) return usage_error("device", "--backend xrt needs --xclbin FILE");
      auto bus = device::open_xrt(xclbin, device_index);
      rep = sim::run_device(*bus, setup, w, nullptr);
    }
    sim::print_device_report(std::cout, rep);
  } catch (const device::DeviceError& e) {
    return usage_error("device", e.what());
  } catch (const std::invalid_argument& e) {
    return usage_error("device", e.what());
  }
  return kExitOk;
}

}  // namespace flowsteer::cli
