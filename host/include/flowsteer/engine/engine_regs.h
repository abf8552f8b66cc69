// The golden model of the engine's AXI4-Lite register slave: every register of
// hw/regs/flowsteer_regs.json decoded onto the EngineModel. It is the `model` backend of
// the register-level driver, and the reference the RTL's register responses must equal.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/engine/engine_model.h"

namespace flowsteer::engine {

// Implemented sizes (CAPS0/CAPS1); defaults are the register map's reset values.
struct EngineCaps {
  unsigned lut_log2 = 11, cpu_log2 = 6, queue_log2 = 6, slot_log2 = 12;
  unsigned flt_bucket_bits = 10, flt_ways = 4, flt_id_width = 16;
  unsigned sock_log2 = 16, evt_log2 = 9, rps_pool_log2 = 12;
};

class EngineRegisterFile : public bus::RegisterBus {
 public:
  explicit EngineRegisterFile(const EngineCaps& caps = EngineCaps{});

  bus::AxiResp read(uint32_t offset, uint32_t& value) override;
  bus::AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) override;
  std::string describe() const override { return "model engine"; }

  // The frame stream: nullopt while CTRL.ENABLE is 0 (the RTL holds tready low).
  std::optional<OutputRecord> packet(const uint8_t* frame, size_t len);

  // The engine's reset (or a reload): every register and table back to its reset state.
  void reset();

  EngineModel& model() { return model_; }
  const EngineCaps& caps() const { return caps_; }

 private:
  struct Decoded;
  bool decode(uint32_t offset, Decoded& d) const;
  uint32_t read_reg(const Decoded& d);
  bool write_reg(const Decoded& d, uint32_t value);
  void apply_ctrl(uint32_t v);
  void apply_lut_cfg();
  void apply_rps_map(uint32_t q);
  FlowTuple flt_key() const;
  uint64_t counter(uint32_t i) const;

  EngineCaps caps_;
  EngineModel model_;
  std::vector<uint32_t> store_;       // RW register values by word address (64 KiB window)
  std::vector<uint16_t> lut_;         // every implemented LUT entry
  std::vector<uint16_t> rps_pool_;    // RPS_MAP_CPUS
  uint32_t flt_status_ = 0, flt_result_ = 0, exp_status_ = 0, err_status_ = 0;
  uint32_t cnt_hi_latch_ = 0;
  uint64_t refusals_seen_ = 0;
  bool enabled_ = false;
};

}  // namespace flowsteer::engine
