// Small harness shared by the RTL unit tests: one Verilated model with clk/rst, random
// X initialisation (pairs with --x-initial unique) and helpers for wide ports.
#pragma once

#include <verilated.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace flowsteer::testbench::rtl {

template <class Model>
class Sim {
 public:
  explicit Sim(uint64_t seed = 1) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);  // randomize every register and input at construction
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    dut_ = std::make_unique<Model>(ctx_.get(), "top");
  }
  ~Sim() { dut_->final(); }
  Model* operator->() { return dut_.get(); }
  Model& dut() { return *dut_; }

  // One clock: falling edge, then rising edge. Inputs must be set before calling.
  void tick() {
    dut_->clk = 0;
    dut_->eval();
    ctx_->timeInc(5);
    dut_->clk = 1;
    dut_->eval();
    ctx_->timeInc(5);
    ++cycles_;
  }
  // Settle combinational outputs after changing inputs (clock high, no edge).
  void settle() { dut_->eval(); }
  void reset(int cycles = 4) {
    dut_->rst = 1;
    for (int i = 0; i < cycles; ++i) tick();
    dut_->rst = 0;
  }
  uint64_t cycles() const { return cycles_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
  uint64_t cycles_ = 0;
};

// Big-endian byte string -> wide port: byte 0 lands in the most significant byte.
template <class Wide>
void set_be(Wide& port, const uint8_t* bytes, size_t n) {
  for (size_t w = 0; w < (n + 3) / 4; ++w) port[w] = 0;
  for (size_t j = 0; j < n; ++j) {
    const size_t bit = 8 * (n - 1 - j);
    port[bit / 32] |= uint32_t(bytes[j]) << (bit % 32);
  }
}
template <class Wide>
void get_be(const Wide& port, uint8_t* bytes, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const size_t bit = 8 * (n - 1 - j);
    bytes[j] = uint8_t(port[bit / 32] >> (bit % 32));
  }
}

}  // namespace flowsteer::testbench::rtl
