// The Alveo backend's entry points: an xclbin check, the engine's register window on a card
// through XRT and the kit's data movers (fs_mm2s, fs_s2mm: frames in, records out). Built
// with Debian's libxrt; without it open_xrt reports that it is not.
#pragma once

#include <memory>
#include <string>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/xrt/movers.h"

namespace flowsteer::xrt {

// Checks that `path` is a readable xclbin (magic "xclbin2"); throws bus::DeviceError otherwise.
void check_xclbin_file(const std::string& path);

// Opens card `device_index`, loads the xclbin and returns the register window of the
// engine kernel `kernel_name` (xrt::ip). Throws DeviceError with one line on any failure
// (XRT missing at run time, no card, bad xclbin, kernel not in it). Built only with XRT.
std::unique_ptr<bus::RegisterBus> open_xrt(const std::string& xclbin_path, unsigned device_index = 0,
                                      const std::string& kernel_name = "flowsteer");

// The data movers' kernels in the xclbin (hw/alveo/README.md "Streams and data movers").
inline constexpr const char* kMm2sKernel = "fs_mm2s";
inline constexpr const char* kS2mmKernel = "fs_s2mm";

// A card: the register window and, when the xclbin has both data movers, a runner of them
// (xrt::kernel runs over xrt::bo buffers in the movers' memory banks).
struct XrtCard {
  std::unique_ptr<bus::RegisterBus> bus;
  std::unique_ptr<MoverRunner> movers;  // nullptr: the xclbin has no data movers
  std::string no_movers;                // why movers is nullptr
};
// As open_xrt; with `need_movers` an xclbin without both movers is refused before the card is
// opened. A mover that is present but not XRT-managed (ap_ctrl_hs/chain) is always refused.
// `run_timeout_ms` bounds each mover run (a frame the engine does not take stops fs_mm2s).
XrtCard open_xrt_card(const std::string& xclbin_path, unsigned device_index = 0, bool need_movers = false,
                      unsigned run_timeout_ms = 10000, const std::string& kernel_name = "flowsteer");
bool xrt_available();  // false when flowsteer was built without libxrt

}  // namespace flowsteer::xrt
