// The card's frame path in CI: the host code that drives the Alveo data movers
// (device::MoverFrames, the buffer layout) over the C++ model of the movers in front of the
// simulated engine (sim::MoverModel) gives what the golden model and the directly fed RTL give.
#include <gtest/gtest.h>

#if defined(FLOWSTEER_HAVE_VERILATOR)
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/device/mover_port.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/runs/device_run.h"
#include "mover_model.h"
#include "verilator_port.h"

using namespace flowsteer;

namespace {

runs::DeviceWorkload workload() {
  runs::DeviceWorkload w;
  w.flows = 300;
  w.udp_percent = 20;
  w.traffic_s = 0.3;
  w.duration_s = 1.5;
  w.service_period_ms = 250;
  w.seed = 5;
  return w;
}

driver::EngineSetup setup() {
  driver::EngineSetup s;
  s.variant = kernel::Variant::kOriginal;  // slot overwrites: filters expire and come back
  s.rps_flow_cnt = 64;
  return s;
}

int run_flowsteer(const std::string& args) {
  const int rc =
      std::system((std::string(FLOWSTEER_BIN) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST(MoverModel, RuntimeGivesTheModelsReport) {
  sim::EngineSimOptions o;
  o.max_wait_clocks = 1'000'000;
  o.frame_gap = 0.2;  // the movers' stream with idle beats and a slow record sink
  o.rec_ready = 0.7;
  auto model = device::open_model_port(sim::verilator_caps());
  auto movers = sim::open_mover_model_port(o);
  const runs::DeviceReport m = runs::run_device(*model, setup(), workload());
  const runs::DeviceReport v = runs::run_device(*movers, setup(), workload());
  EXPECT_EQ(v.kind, "movers");
  EXPECT_GT(v.frames, 1000u);
  EXPECT_GT(v.runtime.add, 0u);
  EXPECT_GT(v.runtime.del, 0u);
  EXPECT_EQ(runs::first_difference(m, v), "");
  auto* fp = dynamic_cast<device::MoverFrames*>(movers->frames());
  ASSERT_NE(fp, nullptr);
  EXPECT_GT(fp->runs(), 10u);  // one mover run per millisecond with frames
}

// Multi-word frames, the tkeep of a partial last word, and frames of exactly 64 bytes go
// through the model of fs_mm2s as the RTL parses them when fed directly.
TEST(MoverModel, FrameLengthsAcrossWordBoundaries) {
  auto movers = sim::open_mover_model_port();
  auto direct = sim::open_verilator_port();
  for (auto* p : {movers.get(), direct.get()}) {
    driver::EngineDriver d(p->bus());
    d.configure(setup());
  }
  std::vector<engine::OutputRecord> a, b;
  for (size_t pad : {0, 1, 5, 63, 64, 65, 127, 128, 200}) {
    auto f = nic::build_frame(make_tuple("10.1.0.1", "10.1.0.2", uint16_t(2000 + pad), 443));
    f.resize(f.size() + pad, uint8_t(pad));
    movers->frames()->send(f);
    direct->frames()->send(f);
  }
  std::vector<uint8_t> exact(64, 0);  // a 64-byte non-IP frame: one full data word
  movers->frames()->send(exact);
  direct->frames()->send(exact);
  movers->frames()->drain(a);
  direct->frames()->drain(b);
  ASSERT_EQ(a.size(), 10u);
  ASSERT_EQ(b.size(), 10u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(a[i] == b[i]) << "frame " << i;
}

// The engine disabled: fs_mm2s cannot finish; the drain is one DeviceError, not a hang.
TEST(MoverModel, DisabledEngineIsAnErrorNotAHang) {
  sim::EngineSimOptions o;
  o.max_wait_clocks = 200'000;  // the reset sweep of the tables fits, a stuck stream does not
  auto movers = sim::open_mover_model_port(o);  // CTRL.ENABLE is 0 after reset
  movers->frames()->send(nic::build_frame(make_tuple("10.1.0.1", "10.1.0.2", 1, 2)));
  std::vector<engine::OutputRecord> out;
  try {
    movers->frames()->drain(out);
    ADD_FAILURE() << "no error";
  } catch (const bus::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("did not take the frames"), std::string::npos) << e.what();
  }
  EXPECT_EQ(movers->frames()->outstanding(), 0u);
}

TEST(MoverModel, CliBackends) {
  EXPECT_EQ(run_flowsteer("device --backend movers --flows 50 --duration-s 0.3"), 0);
  EXPECT_EQ(run_flowsteer("conform --backend movers --packets 3000 --seed 2"), 0);
  EXPECT_EQ(run_flowsteer("conform --backend xrt"), 2);  // needs --xclbin
  EXPECT_EQ(run_flowsteer("conform --backend xrt --xclbin /nonexistent.xclbin"), 2);
}
#endif
