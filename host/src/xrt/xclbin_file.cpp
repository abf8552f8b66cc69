#include <cstring>
#include <fstream>

#include "flowsteer/xrt/xrt_bus.h"

namespace flowsteer::xrt {

using bus::DeviceError;

void check_xclbin_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw DeviceError("cannot read xclbin '" + path + "'");
  char magic[8] = {0};
  f.read(magic, sizeof magic);
  if (f.gcount() != sizeof magic || std::memcmp(magic, "xclbin2", 8) != 0)
    throw DeviceError("'" + path + "' is not an xclbin (no xclbin2 magic)");
}

}  // namespace flowsteer::xrt
