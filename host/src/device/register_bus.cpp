#include <cstdio>
#include <cstring>
#include <fstream>

#include "flowsteer/device/register_bus.h"

namespace flowsteer::device {

void check_xclbin_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw DeviceError("cannot read xclbin '" + path + "'");
  char magic[8] = {0};
  f.read(magic, sizeof magic);
  if (f.gcount() != sizeof magic || std::memcmp(magic, "xclbin2", 8) != 0)
    throw DeviceError("'" + path + "' is not an xclbin (no xclbin2 magic)");
}

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

}  // namespace flowsteer::device
