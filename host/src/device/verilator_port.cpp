// The `verilator` backend: the simulated RTL engine (sim/verilator/engine_sim.h) as an
// EnginePort. host/CMakeLists.txt compiles every host/src file into flowsteer_model, which
// has no Verilator harness: there this file is empty. It is compiled for real into
// fs_device_verilator (host/verilator_backend.cmake), which defines FLOWSTEER_HAVE_VERILATOR
// and exists only when the harness target fs_engine_sim does.
#if defined(FLOWSTEER_HAVE_VERILATOR)

#include "engine_sim.h"
#include "flowsteer/device/engine_port.h"

namespace flowsteer::device {

namespace {

sim::EngineSimOptions sim_options(const VerilatorPortOptions& o) {
  sim::EngineSimOptions s;
  s.build = o.small_build ? sim::EngineBuild::kSmall : sim::EngineBuild::kStandard;
  s.seed = o.seed;
  s.frame_gap = o.frame_gap;
  s.rec_ready = o.rec_ready;
  s.trace_path = o.trace_path;
  s.max_wait_clocks = o.max_wait_clocks;
  return s;
}

// Frames go to the AXI4-Stream source as they are sent; flush() clocks the RTL until each
// has its record (EngineSim::drain throws after max_wait_clocks, e.g. while CTRL.ENABLE is
// 0) and takes the records in stream order.
class SimFrames : public FramePort {
 public:
  explicit SimFrames(sim::EngineSim& s) : sim_(s) {}
  using FramePort::send;
  void send(const uint8_t* frame, size_t len) override {
    sim_.send_frame(frame, len);
    ++sent_;
  }

 protected:
  void flush() override {
    sim_.drain();
    sim::EngineRecord r;
    while (sim_.pop_record(r)) done_.push_back(r.rec);
  }

 private:
  sim::EngineSim& sim_;
};

class VerilatorPort : public EnginePort {
 public:
  explicit VerilatorPort(const VerilatorPortOptions& o) : sim_(sim_options(o)), frames_(sim_), bus_(sim_, &frames_) {}
  RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return &frames_; }
  const char* kind() const override { return "verilator"; }

 private:
  sim::EngineSim sim_;
  SimFrames frames_;
  PortBus bus_;
};

}  // namespace

std::unique_ptr<EnginePort> open_verilator_port(const VerilatorPortOptions& opt) {
  return std::make_unique<VerilatorPort>(opt);
}

engine::EngineCaps verilator_caps(bool small_build) {
  VerilatorPortOptions o;
  o.small_build = small_build;
  return sim::EngineSim(sim_options(o)).caps();
}

}  // namespace flowsteer::device

#endif  // FLOWSTEER_HAVE_VERILATOR
