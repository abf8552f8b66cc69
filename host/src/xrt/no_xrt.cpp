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

}  // namespace flowsteer::xrt
