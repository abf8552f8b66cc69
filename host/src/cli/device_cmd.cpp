// flowsteer device: the host runtime on a backend.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "flowsteer/device/engine_port.h"
#include "flowsteer/runs/device_run.h"
#if defined(FLOWSTEER_HAVE_VERILATOR)
#include "verilator_port.h"
#endif

namespace flowsteer::cli {

int cmd_device(int argc, char** argv) {
  CLI::App app{"Run the E810-style aRFS runtime through the register-level driver on a backend: "
               "the golden model or the simulated RTL with synthetic flows or a pcap, or an Alveo "
               "card through XRT",
               "device"};
  std::string backend = "model", xclbin, hash = "toeplitz-symxor", variant = "patched", json_path;
  std::string model_caps = "map", build = "standard", trace;
  unsigned device_index = 0;
  driver::EngineSetup setup;
  runs::DeviceWorkload w;
  double frame_gap = 0.0, rec_ready = 1.0;
  app.add_option("--backend", backend, "model (default) | verilator | xrt")
      ->check(CLI::IsMember({"model", "verilator", "xrt"}));
  app.add_option("--xclbin", xclbin, "xclbin with the flowsteer kernel (xrt backend)");
  app.add_option("--device", device_index, "card index (xrt backend, default 0)");
  app.add_option("--pcap", w.pcap, "replay this Ethernet capture instead of synthetic flows");
  app.add_option("--cpus", setup.nr_cpu_ids, "nr_cpu_ids = RX queues (default 16)")->check(CLI::Range(1u, 65535u));
  app.add_option("--rps-flow-cnt", setup.rps_flow_cnt,
                 "rps_flow_cnt of every queue, rounded up like sysfs; 0 = no tables (default 256)");
  app.add_option("--sock-flow-entries", setup.rps_sock_flow_entries,
                 "net.core.rps_sock_flow_entries (default cpus x rounded rps_flow_cnt)");
  app.add_option("--flows", w.flows, "synthetic flows (default 1000)")->check(CLI::Range(1u, 1000000u));
  app.add_option("--udp-percent", w.udp_percent, "share of UDP flows (default 0)")->check(CLI::Range(0u, 100u));
  app.add_option("--duration-s", w.duration_s, "virtual (model, verilator) or wall-clock (card) seconds (default 5)")
      ->check(CLI::Range(0.001, 3600.0));
  app.add_option("--traffic-s", w.traffic_s, "synthetic frames stop after this; the runtime runs on (default: "
                                             "the whole duration)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--service-period-ms", w.service_period_ms, "service-task period (default 1000)")
      ->check(CLI::Range(1u, 3600000u));
  app.add_option("--seed", w.seed, "workload seed (default 1)");
  app.add_option("--hash", hash, "toeplitz | toeplitz-symxor (default) | jhash-sym")
      ->check(CLI::IsMember({"toeplitz", "toeplitz-symxor", "jhash-sym"}));
  app.add_option("--variant", variant, "original | patched (default)")->check(CLI::IsMember({"original", "patched"}));
  app.add_option("--model-caps", model_caps,
                 "model backend sizes: map (the register map's, default) | verilator (the simulated "
                 "engine's, to compare with --backend verilator)")
      ->check(CLI::IsMember({"map", "verilator"}));
  app.add_option("--build", build, "verilator build: standard (default) | small")
      ->check(CLI::IsMember({"standard", "small"}));
  app.add_option("--frame-gap", frame_gap, "verilator: idle probability before a frame beat (default 0)")
      ->check(CLI::Range(0.0, 0.99));
  app.add_option("--rec-ready", rec_ready, "verilator: record sink ready probability (default 1)")
      ->check(CLI::Range(0.01, 1.0));
  app.add_option("--trace", trace, "verilator: FST trace file");
  app.add_option("--batch", w.max_batch, "frames per drain within a millisecond (default 0 = all; "
                                         "results do not depend on it)");
  app.add_option("--json", json_path, "write the report as JSON");
  if (auto rc = parse(app, argc, argv)) return *rc;
  setup.num_rx_queues = setup.nr_cpu_ids;
  setup.variant = variant == "original" ? kernel::Variant::kOriginal : kernel::Variant::kPatched;
  setup.hash_mode = hash == "toeplitz"          ? nic::HashMode::kToeplitz
                    : hash == "toeplitz-symxor" ? nic::HashMode::kToeplitzSymXor
                                                : nic::HashMode::kJhashSym;
#if !defined(FLOWSTEER_HAVE_VERILATOR)
  if (backend == "verilator" || model_caps == "verilator")
    return usage_error("device", "this flowsteer was built without the simulated engine (configure with "
                                 "-DFLOWSTEER_WITH_RTL=ON and Verilator 5)");
#endif
  if (backend == "xrt" && xclbin.empty()) return usage_error("device", "--backend xrt needs --xclbin FILE");
  if (backend == "xrt" && !w.pcap.empty())
    return usage_error("device", "--pcap needs a backend with a frame port (model, verilator)");
  std::ofstream json;
  if (!json_path.empty()) {
    json.open(json_path);
    if (!json) return usage_error("device", "cannot write '" + json_path + "'");
  }
  std::cerr << "flowsteer device: " << backend << " backend, seed " << w.seed << "\n";
  try {
    std::unique_ptr<device::EnginePort> port;
    if (backend == "model") {
      engine::EngineCaps caps;  // the register map's implemented sizes
#if defined(FLOWSTEER_HAVE_VERILATOR)
      if (model_caps == "verilator")
        caps = sim::verilator_caps(build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard);
#endif
      port = device::open_model_port(caps);
    } else if (backend == "verilator") {
#if defined(FLOWSTEER_HAVE_VERILATOR)
      sim::EngineSimOptions o;
      o.build = build == "small" ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
      o.seed = w.seed;
      o.frame_gap = frame_gap;
      o.rec_ready = rec_ready;
      o.trace_path = trace;
      port = sim::open_verilator_port(o);
#endif
    } else {
      port = device::open_xrt_port(xclbin, device_index);
    }
    runs::DeviceReport rep = runs::run_device(*port, setup, w);
    runs::print_device_report(std::cout, rep);
    if (json) runs::write_device_json(json, rep);
  } catch (const bus::DeviceError& e) {
    return usage_error("device", e.what());
  } catch (const std::invalid_argument& e) {
    return usage_error("device", e.what());
  } catch (const std::runtime_error& e) {  // unreadable pcap
    return usage_error("device", e.what());
  }
  return kExitOk;
}

}  // namespace flowsteer::cli
