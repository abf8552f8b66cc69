// The frame port of a backend fed by the Alveo kit's data movers: frames are collected into
// fs_mm2s's buffer, each drain runs the two movers once (xrt::MoverRunner) and reads the
// records fs_s2mm wrote back. The same code runs on a card (XRT) and in CI over the model
// of the movers in front of the simulated engine (sim/verilator/mover_model.h).
#pragma once

#include <memory>
#include <string>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/xrt/movers.h"

namespace flowsteer::device {

// Frame i of the port's life carries tuser i mod 2^16; each record must carry its frame's
// (USER) and no reserved bit, else the drain throws DeviceError: a mover lost, repeated or
// reordered a frame, or the buffer layout is not the one the movers use.
class MoverFrames : public FramePort {
 public:
  MoverFrames(xrt::MoverRunner& movers, std::string who) : movers_(movers), who_(std::move(who)) {}
  using FramePort::send;
  void send(const uint8_t* frame, size_t len) override;
  uint64_t runs() const { return runs_; }  // mover runs so far (one per drain with frames)

 protected:
  void flush() override;

 private:
  xrt::MoverRunner& movers_;
  std::string who_;
  xrt::FrameBuffer buf_;
  uint64_t runs_ = 0;
};

// A backend of a register bus and a pair of movers (the movers may drive the same engine
// the bus reaches); kind names it ("xrt", "movers").
std::unique_ptr<EnginePort> open_mover_port(std::unique_ptr<RegisterBus> bus,
                                            std::unique_ptr<xrt::MoverRunner> movers,
                                            const char* kind);

}  // namespace flowsteer::device
