// The Alveo backend's entry points: an xclbin check and the engine's register window on a
// card through XRT. Built with Debian's libxrt; without it open_xrt reports that it is not.
#pragma once

#include <memory>
#include <string>

#include "flowsteer/bus/register_bus.h"

namespace flowsteer::xrt {

// Checks that `path` is a readable xclbin (magic "xclbin2"); throws bus::DeviceError otherwise.
void check_xclbin_file(const std::string& path);

// Opens card `device_index`, loads the xclbin and returns the register window of the
// engine kernel `kernel_name` (xrt::ip). Throws DeviceError with one line on any failure
// (XRT missing at run time, no card, bad xclbin, kernel not in it). Built only with XRT.
std::unique_ptr<bus::RegisterBus> open_xrt(const std::string& xclbin_path, unsigned device_index = 0,
                                      const std::string& kernel_name = "flowsteer");
bool xrt_available();  // false when flowsteer was built without libxrt

}  // namespace flowsteer::xrt
