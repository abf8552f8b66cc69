// The `verilator` backend of the host runtime: the simulated RTL engine (EngineSim) behind
// the same device::EnginePort as the model and the card, for `flowsteer device` and the
// system tests.
#pragma once

#include <memory>

#include "engine_sim.h"
#include "flowsteer/device/engine_port.h"

namespace flowsteer::sim {

std::unique_ptr<device::EnginePort> open_verilator_port(const EngineSimOptions& opt = EngineSimOptions{});
// The implemented sizes of a build, for a model configured like it.
engine::EngineCaps verilator_caps(EngineBuild build = EngineBuild::kStandard);

}  // namespace flowsteer::sim
