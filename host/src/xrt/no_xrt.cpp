// Built when libxrt is absent: the XRT backend says so instead of pretending.
#include "flowsteer/xrt/xrt_bus.h"

namespace flowsteer::xrt {

using bus::DeviceError;
using bus::RegisterBus;

bool xrt_available() { return false; }

std::unique_ptr<RegisterBus> open_xrt(const std::string& xclbin_path, unsigned, const std::string&) {
  check_xclbin_file(xclbin_path);
  throw DeviceError("this flowsteer was built without XRT (install libxrt-dev: scripts/setup.sh)");
}

XrtCard open_xrt_card(const std::string& xclbin_path, unsigned device_index, bool, unsigned,
                      const std::string& kernel_name) {
  XrtCard c;
  c.bus = open_xrt(xclbin_path, device_index, kernel_name);
  return c;
}

}  // namespace flowsteer::xrt
