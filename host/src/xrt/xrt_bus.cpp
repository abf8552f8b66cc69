// The XRT backend: the engine's AXI4-Lite window through the XRT native API (xrt::ip), and
// the data movers (fs_mm2s, fs_s2mm: ap_ctrl_hs HLS kernels) run with xrt::kernel/xrt::run
// over xrt::bo buffers allocated in the bank of each mover's m_axi argument (group_id(0)).
// The flowsteer kernel (hw/alveo) is ap_ctrl_none: XRT reserves nothing in its s_axi_control
// space, and the engine's 64 KiB register window starts at kEngineWindowOffset there
// (hw/alveo/README.md). Register offsets given to this bus are relative to that window.
#include <xrt/xclbin.h>
#include <xrt/xrt_device.h>
#include <experimental/xrt_bo.h>
#include <experimental/xrt_ip.h>
#include <experimental/xrt_kernel.h>
#include <experimental/xrt_xclbin.h>

#include <cstddef>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "flowsteer/xrt/xrt_bus.h"

namespace flowsteer::xrt {

using bus::AxiResp;
using bus::DeviceError;
using bus::RegisterBus;
namespace {

// The engine's register window inside the kernel's s_axi_control space: offset 0x0000, 64 KiB
// (hw/alveo/flowsteer_kernel.sv ENGINE_BASE; XRT maps at most 64 KiB of a compute unit).
constexpr uint32_t kEngineWindowOffset = 0x0000;
constexpr uint32_t kEngineWindowSize = 0x10000;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// XRT messages may span lines; a DeviceError is one line for the user
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

class XrtBus : public RegisterBus {
 public:
  XrtBus(::xrt::device dev, ::xrt::uuid uuid, ::xrt::ip ip, std::string what)
      : dev_(std::move(dev)), uuid_(std::move(uuid)), ip_(std::move(ip)), what_(std::move(what)) {}
  // Offsets outside the window or not word-aligned answer SLVERR without touching the card
  // (the register map decodes only aligned words). XRT does not report the AXI response of an
  // access, so anything inside the window reads as OKAY; XRT exceptions become DeviceError.
  // Byte strobes are not exposed by xrt::ip (whole words only).
  AxiResp read(uint32_t offset, uint32_t& value) override {
    value = 0;
    if (!in_window(offset)) return AxiResp::kSlvErr;
    try {
      value = ip_.read_register(kEngineWindowOffset + offset);
    } catch (const std::exception& e) {
      throw DeviceError("xrt backend: register read at " + hex(offset) + " failed: " + one_line(e.what()));
    }
    return AxiResp::kOkay;
  }
  AxiResp write(uint32_t offset, uint32_t value, uint8_t strb) override {
    if (strb != 0xF) throw DeviceError("xrt backend: partial-word register writes are not supported");
    if (!in_window(offset)) return AxiResp::kSlvErr;
    try {
      ip_.write_register(kEngineWindowOffset + offset, value);
    } catch (const std::exception& e) {
      throw DeviceError("xrt backend: register write at " + hex(offset) + " failed: " + one_line(e.what()));
    }
    return AxiResp::kOkay;
  }
  std::string describe() const override { return what_; }

 private:
  ::xrt::device dev_;
  ::xrt::uuid uuid_;
  ::xrt::ip ip_;
  std::string what_;

  static bool in_window(uint32_t offset) { return offset % 4 == 0 && offset < kEngineWindowSize; }
};

// The compute unit of `kernel_name` that the bus opens, checked against what the wrapper is:
// free-running (not XRT-managed) and with a control range that holds the engine window.
// Returns the CU name xrt::ip needs ("kernel:instance").
std::string engine_cu(const ::xrt::xclbin& xclbin, const std::string& path, const std::string& kernel_name) {
  ::xrt::xclbin::kernel kernel = xclbin.get_kernel(kernel_name);
  const std::vector<::xrt::xclbin::ip> cus = kernel ? kernel.get_cus() : std::vector<::xrt::xclbin::ip>{};
  if (cus.empty()) throw DeviceError("xclbin '" + path + "' has no compute unit of kernel '" + kernel_name + "'");
  const ::xrt::xclbin::ip& cu = cus.front();
  const auto ctl = cu.get_control_type();
  if (ctl == ::xrt::xclbin::ip::control_type::hs || ctl == ::xrt::xclbin::ip::control_type::chain)
    throw DeviceError("kernel '" + kernel_name + "' in xclbin '" + path +
                      "' is XRT-managed (ap_ctrl_hs/chain); the flowsteer kernel is free-running "
                      "(ap_ctrl_none, hw/alveo/kernel.xml)");
  const uint64_t need = uint64_t(kEngineWindowOffset) + kEngineWindowSize;
  if (cu.get_size() < need)
    throw DeviceError("kernel '" + kernel_name + "' in xclbin '" + path + "' has a " + hex(cu.get_size()) +
                      "-byte register range; the engine window needs " + hex(kEngineWindowOffset) + ".." +
                      hex(need - 1) + " (hw/alveo/kernel.xml: s_axi_control range 0x10000 and an argument on it)");
  return cu.get_name();
}


// The two movers: fs_s2mm(records, nrecords, stream) starts first and waits for the records;
// fs_mm2s(frames, nframes, stream) then streams the frames in. Buffers grow as batches do.
class XrtMovers : public MoverRunner {
 public:
  XrtMovers(::xrt::device dev, ::xrt::uuid uuid, unsigned timeout_ms)
      : dev_(std::move(dev)), timeout_ms_(timeout_ms) {
    try {
      mm2s_ = ::xrt::kernel(dev_, uuid, kMm2sKernel);
      s2mm_ = ::xrt::kernel(dev_, uuid, kS2mmKernel);
    } catch (const std::exception& e) {
      throw DeviceError("xrt backend: cannot open the data movers: " + one_line(e.what()));
    }
  }
  void run(const std::vector<uint8_t>& frames, uint32_t nframes, uint8_t* records, uint32_t nrecords) override {
    if (nframes == 0) return;
    try {
      grow(in_, frames.size(), mm2s_);
      grow(out_, size_t(nrecords) * kRecordBytes, s2mm_);
      in_.write(frames.data(), frames.size(), 0);
      in_.sync(XCL_BO_SYNC_BO_TO_DEVICE, frames.size(), 0);
      ::xrt::run out(s2mm_);
      out.set_arg(0, out_);
      out.set_arg(1, nrecords);  // argument 2 is the stream: connected in the xclbin, never set
      out.start();
      ::xrt::run in(mm2s_);
      in.set_arg(0, in_);
      in.set_arg(1, nframes);
      in.start();
      finish(in, kMm2sKernel, &out);
      finish(out, kS2mmKernel, nullptr);
      out_.sync(XCL_BO_SYNC_BO_FROM_DEVICE, size_t(nrecords) * kRecordBytes, 0);
      out_.read(records, size_t(nrecords) * kRecordBytes, 0);
    } catch (const DeviceError&) {
      throw;
    } catch (const std::exception& e) {
      throw DeviceError("xrt backend: data mover run failed: " + one_line(e.what()));
    }
  }
  std::string describe() const override { return std::string(kMm2sKernel) + " + " + kS2mmKernel; }

 private:
  ::xrt::device dev_;
  ::xrt::kernel mm2s_, s2mm_;
  ::xrt::bo in_, out_;
  unsigned timeout_ms_;

  void grow(::xrt::bo& bo, size_t need, const ::xrt::kernel& k) {
    if (bo && bo.size() >= need) return;
    bo = ::xrt::bo(dev_, need, k.group_id(0));
  }
  void finish(::xrt::run& r, const char* name, ::xrt::run* other) {
    const ert_cmd_state st = r.wait(std::chrono::milliseconds(timeout_ms_));
    if (st == ERT_CMD_STATE_COMPLETED) return;
    r.abort();
    if (other) other->abort();
    if (st == ERT_CMD_STATE_TIMEOUT)
      throw DeviceError(std::string("xrt backend: ") + name + " did not finish in " + std::to_string(timeout_ms_) +
                        " ms (the engine takes no frames while CTRL.ENABLE is 0)");
    throw DeviceError(std::string("xrt backend: ") + name + " ended in state " + std::to_string(int(st)));
  }
};

// Both movers or neither; each must be XRT-managed (xrt::kernel starts and waits for it).
// Returns "" when both are usable, else why the xclbin has none.
std::string check_movers(const ::xrt::xclbin& xclbin, const std::string& path) {
  bool have[2] = {false, false};
  const char* names[2] = {kMm2sKernel, kS2mmKernel};
  for (int i = 0; i < 2; ++i) {
    ::xrt::xclbin::kernel k = xclbin.get_kernel(names[i]);
    if (!k || k.get_cus().empty()) continue;
    have[i] = true;
    const auto ctl = k.get_cus().front().get_control_type();
    if (ctl != ::xrt::xclbin::ip::control_type::hs && ctl != ::xrt::xclbin::ip::control_type::chain)
      throw DeviceError("kernel '" + std::string(names[i]) + "' in xclbin '" + path +
                        "' is not XRT-managed; the data movers are ap_ctrl_hs HLS kernels (hw/alveo/" + names[i] +
                        ".cpp)");
  }
  if (have[0] != have[1])
    throw DeviceError("xclbin '" + path + "' has " + (have[0] ? kMm2sKernel : kS2mmKernel) + " but not " +
                      (have[0] ? kS2mmKernel : kMm2sKernel) + " (the data movers come as a pair)");
  if (!have[0])
    return "xclbin '" + path + "' has no data movers (" + kMm2sKernel + ", " + kS2mmKernel +
           "): frames cannot be sent from the host";
  return "";
}
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
  return open_xrt_card(xclbin_path, device_index, false, 0, kernel_name).bus;
}

XrtCard open_xrt_card(const std::string& xclbin_path, unsigned device_index, bool need_movers,
                      unsigned run_timeout_ms, const std::string& kernel_name) {
  check_xclbin_file(xclbin_path);
  check_xclbin_layout(xclbin_path);
  ::xrt::xclbin xclbin;
  try {
    xclbin = ::xrt::xclbin(xclbin_path);
  } catch (const std::exception& e) {
    throw DeviceError("cannot parse xclbin '" + xclbin_path + "': " + one_line(e.what()));
  }
  bool has_kernel = false;
  for (const auto& k : xclbin.get_kernels()) has_kernel |= k.get_name() == kernel_name;
  if (!has_kernel) throw DeviceError("xclbin '" + xclbin_path + "' has no kernel '" + kernel_name + "'");
  const std::string cu_name = engine_cu(xclbin, xclbin_path, kernel_name);
  XrtCard card;
  card.no_movers = check_movers(xclbin, xclbin_path);
  if (need_movers && !card.no_movers.empty()) throw DeviceError(card.no_movers);
  ::xrt::device dev;
  try {
    dev = ::xrt::device(device_index);
  } catch (const std::exception& e) {
    throw DeviceError("no Alveo card " + std::to_string(device_index) + " (XRT: " + one_line(e.what()) + ")");
  }
  ::xrt::uuid uuid;
  try {
    uuid = dev.load_xclbin(xclbin);
    // xrt::ip finds an IP by its full name ("flowsteer:flowsteer_1"), not by the kernel name
    ::xrt::ip ip(dev, uuid, cu_name);
    card.bus = std::make_unique<XrtBus>(dev, uuid, ip, "xrt device " + std::to_string(device_index) + " kernel " +
                                                           kernel_name + " (" + cu_name + ")");
  } catch (const std::exception& e) {
    throw DeviceError("cannot load '" + xclbin_path + "' on card " + std::to_string(device_index) + ": " +
                      one_line(e.what()));
  }
  if (card.no_movers.empty()) card.movers = std::make_unique<XrtMovers>(dev, uuid, run_timeout_ms);
  return card;
}

}  // namespace flowsteer::xrt
