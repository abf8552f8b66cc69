// The XRT backend: the engine's AXI4-Lite window through the XRT native API (xrt::ip).
#include <xrt/xrt_device.h>
#include <experimental/xrt_ip.h>
#include <experimental/xrt_xclbin.h>

#include "flowsteer/device/register_bus.h"

namespace flowsteer::device {
namespace {

class XrtBus : public RegisterBus {
 public:
  XrtBus(xrt::device dev, xrt::uuid uuid, xrt::ip ip, std::string what)
      : dev_(std::move(dev)), uuid_(std::move(uuid)), ip_(std::move(ip)), what_(std::move(what)) {}
  // XRT reports bus errors as exceptions; byte strobes are not exposed (whole words only).
  AxiResp read(uint32_t offset, uint32_t& value) override {
    value = ip_.read_register(offset);
    return AxiResp::kOkay;
  }
  AxiResp write(uint32_t offset, uint32_t value, uint8_t strb) override {
    if (strb != 0xF) throw DeviceError("xrt backend: partial-word register writes are not supported");
    ip_.write_register(offset, value);
    return AxiResp::kOkay;
  }
  std::string describe() const override { return what_; }

 private:
  xrt::device dev_;
  xrt::uuid uuid_;
  xrt::ip ip_;
  std::string what_;
};

}  // namespace

bool xrt_available() { return true; }

std::unique_ptr<RegisterBus> open_xrt(const std::string& xclbin_path, unsigned device_index,
                                      const std::string& kernel_name) {
  check_xclbin_file(xclbin_path);
  xrt::xclbin xclbin;
  try {
    xclbin = xrt::xclbin(xclbin_path);
  } catch (const std::exception& e) {
    throw DeviceError("cannot parse xclbin '" + xclbin_path + "': " + e.what());
  }
  bool has_kernel = false;
  for (const auto& k : xclbin.get_kernels()) has_kernel |= k.get_name() == kernel_name;
  if (!has_kernel) throw DeviceError("xclbin '" + xclbin_path + "' has no kernel '" + kernel_name + "'");
  xrt::device dev;
  try {
    dev = xrt::device(device_index);
  } catch (const std::exception& e) {
    throw DeviceError("no Alveo card " + std::to_string(device_index) + " (XRT: " + e.what() + ")");
  }
  try {
    xrt::uuid uuid = dev.load_xclbin(xclbin);
    xrt::ip ip(dev, uuid, kernel_name);
    return std::make_unique<XrtBus>(dev, uuid, ip,
                                    "xrt device " + std::to_string(device_index) + " kernel " + kernel_name);
  } catch (const std::exception& e) {
    throw DeviceError("cannot load '" + xclbin_path + "' on card " + std::to_string(device_index) + ": " +
                      e.what());
  }
}

}  // namespace flowsteer::device
