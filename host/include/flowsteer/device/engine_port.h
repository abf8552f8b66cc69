// A backend of the engine as the host runtime sees it: the register window (RegisterBus)
// plus, where the backend has one, the frame/record stream. Backends: the golden model
// (EngineRegisterFile + packet()), the simulated RTL (sim/verilator EngineSim, built only
// with FLOWSTEER_WITH_RTL), an Alveo card through XRT (frames through the kit's data movers,
// mover_port.h, when the xclbin has them). The simulated RTL's ports live with its harness
// (sim/verilator/verilator_port.h, mover_model.h), one floor up.
//
// Total order (docs/engine-top.md): every register access through bus() first waits until
// every frame sent before it has produced its record. So frames sent before a register
// access precede it on every backend, and the model and the simulated RTL see the same
// total order whatever the batching.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/engine/engine_regs.h"

namespace flowsteer::device {

using bus::AxiResp;
using bus::DeviceError;
using bus::RegisterBus;

// The frame stream: frames enter in the order sent, each produces one record, records
// come back in that order.
class FramePort {
 public:
  virtual ~FramePort() = default;
  virtual void send(const uint8_t* frame, size_t len) = 0;
  void send(const std::vector<uint8_t>& f) { send(f.data(), f.size()); }
  // Runs until every frame sent so far has its record and appends the records not yet
  // returned to `out`, oldest first. DeviceError if the engine does not take the frames
  // (CTRL.ENABLE is 0: the stream holds tready low).
  void drain(std::vector<engine::OutputRecord>& out);
  // Sent frames whose record drain() has not returned yet.
  size_t outstanding() const { return sent_ - returned_; }

 protected:
  // Runs the backend until every sent frame has its record; appends them to done_.
  virtual void flush() = 0;
  std::vector<engine::OutputRecord> done_;
  uint64_t sent_ = 0;

 private:
  friend class PortBus;
  uint64_t returned_ = 0;
};

// Register access that flushes the frame port before each access (the ordering rule above).
class PortBus : public RegisterBus {
 public:
  PortBus(RegisterBus& inner, FramePort* frames) : inner_(inner), frames_(frames) {}
  AxiResp read(uint32_t offset, uint32_t& value) override;
  AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) override;
  std::string describe() const override { return inner_.describe(); }
  uint64_t accesses() const { return accesses_; }

 private:
  RegisterBus& inner_;
  FramePort* frames_;
  uint64_t accesses_ = 0;
};

class EnginePort {
 public:
  virtual ~EnginePort() = default;
  virtual RegisterBus& bus() = 0;           // ordered after every frame sent before
  virtual FramePort* frames() = 0;          // nullptr: no stream port (a card without movers)
  virtual const char* kind() const = 0;     // "model", "verilator", "xrt", ...
  // Resets the engine behind the driver's back (a reset or a reload: the fault a runtime
  // must detect). DeviceError where the host cannot do it.
  virtual void reset_engine();
};

// The golden model with the given implemented sizes (compare with the simulated RTL by
// passing its caps()).
std::unique_ptr<EnginePort> open_model_port(const engine::EngineCaps& caps = engine::EngineCaps{});
// A card (xrt::open_xrt_card): with the xclbin's data movers a frame port over them, else
// registers only (need_movers: refuse an xclbin without movers). DeviceError with one line
// on any failure.
std::unique_ptr<EnginePort> open_xrt_port(const std::string& xclbin_path, unsigned device_index = 0,
                                          bool need_movers = false);
// Any register bus with a per-frame function (the model's packet() shape): the function
// returns false when the engine did not take the frame, else fills the record. An empty
// function gives a port without a stream (registers only).
using FrameFn = std::function<bool(const uint8_t* frame, size_t len, engine::OutputRecord* rec)>;
std::unique_ptr<EnginePort> open_callback_port(RegisterBus& bus, FrameFn fn, const char* kind);

}  // namespace flowsteer::device
