#include <cstdio>
#include <cstring>

#include "flowsteer/bus/register_bus.h"

namespace flowsteer::bus {

namespace {
std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}
}  // namespace

uint32_t RegisterBus::read32(uint32_t offset) {
  uint32_t v = 0;
  if (read(offset, v) != AxiResp::kOkay)
    throw DeviceError(describe() + ": SLVERR reading register " + hex(offset));
  return v;
}

void RegisterBus::write32(uint32_t offset, uint32_t value) {
  if (write(offset, value) != AxiResp::kOkay)
    throw DeviceError(describe() + ": SLVERR writing register " + hex(offset));
}

}  // namespace flowsteer::bus
