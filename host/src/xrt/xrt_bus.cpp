// The XRT backend: the engine's AXI4-Lite window through the XRT native API (xrt::ip).
#include <xrt/xclbin.h>
#include <xrt/xrt_device.h>
#include <experimental/xrt_ip.h>
#include <experimental/xrt_xclbin.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

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

// XRT trusts the header of an xclbin and crashes on a truncated one: check the layout
// (total length, section table, every section inside the file) before handing it over.
static void check_xclbin_layout(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> buf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) {
    throw DeviceError("'" + path + "' is not a valid xclbin (" + why + ")");
  };
  if (buf.size() < sizeof(axlf)) bad("shorter than its header");
  axlf top;
  std::memcpy(&top, buf.data(), sizeof top);
  if (top.m_header.m_length != buf.size()) bad("length field says " + std::to_string(top.m_header.m_length) + " bytes");
  const uint64_t n = top.m_header.m_numSections;
  const uint64_t table_end = offsetof(axlf, m_sections) + n * sizeof(axlf_section_header);
  if (n == 0 || table_end > buf.size()) bad("section table outside the file");
  for (uint64_t i = 0; i < n; ++i) {
    axlf_section_header h;
    std::memcpy(&h, buf.data() + offsetof(axlf, m_sections) + i * sizeof h, sizeof h);
    if (h.m_sectionOffset > buf.size() || h.m_sectionSize > buf.size() - h.m_sectionOffset)
      bad("section " + std::to_string(i) + " outside the file");
  }
}

bool xrt_available() { return true; }

std::unique_ptr<RegisterBus> open_xrt(const std::string& xclbin_path, unsigned device_index,
                                      const std::string& kernel_name) {
  check_xclbin_file(xclbin_path);
  check_xclbin_layout(xclbin_path);
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
