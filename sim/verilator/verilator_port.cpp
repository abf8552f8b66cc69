// The `verilator` backend: the simulated RTL engine (EngineSim) as a device::EnginePort.
#include "verilator_port.h"

namespace flowsteer::sim {

namespace {

using device::FramePort;
using device::PortBus;

// Frames go to the AXI4-Stream source as they are sent; flush() clocks the RTL until each
// has its record (EngineSim::drain throws after max_wait_clocks, e.g. while CTRL.ENABLE is
// 0) and takes the records in stream order.
class SimFrames : public FramePort {
 public:
  explicit SimFrames(EngineSim& s) : sim_(s) {}
  using FramePort::send;
  void send(const uint8_t* frame, size_t len) override {
    sim_.send_frame(frame, len);
    ++sent_;
  }

 protected:
  void flush() override {
    sim_.drain();
    EngineRecord r;
    while (sim_.pop_record(r)) done_.push_back(r.rec);
  }

 private:
  EngineSim& sim_;
};

class VerilatorPort : public device::EnginePort {
 public:
  explicit VerilatorPort(const EngineSimOptions& o) : sim_(o), frames_(sim_), bus_(sim_, &frames_) {}
  bus::RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return &frames_; }
  const char* kind() const override { return "verilator"; }
  void reset_engine() override { sim_.reset(); }

 private:
  EngineSim sim_;
  SimFrames frames_;
  PortBus bus_;
};

}  // namespace

std::unique_ptr<device::EnginePort> open_verilator_port(const EngineSimOptions& opt) {
  return std::make_unique<VerilatorPort>(opt);
}

engine::EngineCaps verilator_caps(EngineBuild build) {
  EngineSimOptions o;
  o.build = build;
  return EngineSim(o).caps();
}

}  // namespace flowsteer::sim
