// The one access path every backend offers the register-level driver: 32-bit reads and
// writes of the engine's AXI4-Lite window (model, Verilator harness, XRT on a card).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace flowsteer::bus {

// A backend that cannot be opened or used: the message is one line for the user.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// AXI4-Lite response codes a register access can get.
enum class AxiResp : uint8_t { kOkay = 0, kSlvErr = 2 };

class RegisterBus {
 public:
  virtual ~RegisterBus() = default;
  virtual AxiResp read(uint32_t offset, uint32_t& value) = 0;
  // strb: byte enables (bit i = byte i); command registers act on any strobe.
  virtual AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) = 0;
  virtual std::string describe() const = 0;

  // For driver code: an SLVERR is a DeviceError naming the offset.
  uint32_t read32(uint32_t offset);
  void write32(uint32_t offset, uint32_t value);
};

}  // namespace flowsteer::bus
