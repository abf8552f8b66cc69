// A C++ model of the Alveo kit's two data movers (hw/alveo/fs_mm2s.cpp, fs_s2mm.cpp) in front
// of the simulated engine: it reads the frame buffer as fs_mm2s does (header word, data words,
// tkeep on the last) into the engine's AXI4-Stream, and writes the records into the record
// buffer as fs_s2mm does. With it the host's card code (device::MoverFrames, the buffer layout)
// runs in CI against the RTL: the `movers` backend.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine_sim.h"
#include "flowsteer/device/engine_port.h"
#include "flowsteer/xrt/movers.h"

namespace flowsteer::sim {

class MoverModel : public xrt::MoverRunner {
 public:
  explicit MoverModel(EngineSim& sim) : sim_(sim) {}
  // DeviceError where a card's run would fail or never end: a frame entry past the buffer,
  // fewer records than nrecords (fs_s2mm would wait), frames the engine does not take.
  void run(const std::vector<uint8_t>& frames, uint32_t nframes, uint8_t* records,
           uint32_t nrecords) override;
  std::string describe() const override { return "fs_mm2s + fs_s2mm model"; }
  uint64_t beats_read() const { return beats_; }  // data words fs_mm2s streamed

 private:
  EngineSim& sim_;
  uint64_t beats_ = 0;
};

// The simulated engine (registers through its AXI4-Lite master) with frames through the
// mover model: kind "movers".
std::unique_ptr<device::EnginePort> open_mover_model_port(
    const EngineSimOptions& opt = EngineSimOptions{});

}  // namespace flowsteer::sim
