// Built when libxrt is absent: the XRT backend says so instead of pretending.
#include "flowsteer/device/register_bus.h"

namespace flowsteer::device {

bool xrt_available() { return false; }

std::unique_ptr<RegisterBus> open_xrt(const std::string& xclbin_path, unsigned, const std::string&) {
  check_xclbin_file(xclbin_path);
  throw DeviceError("this flowsteer was built without XRT (install libxrt-dev: scripts/setup.sh)");
}

}  // namespace flowsteer::device
