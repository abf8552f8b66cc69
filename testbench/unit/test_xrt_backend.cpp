// The XRT backend without a card: every failure is one clear DeviceError, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/xrt/xrt_bus.h"

using flowsteer::bus::DeviceError;
using flowsteer::xrt::open_xrt;

namespace {
std::string write_file(const char* name, const std::string& bytes) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string message_of(const std::string& xclbin) {
  try {
    open_xrt(xclbin);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(XrtBackend, MissingFileIsAClearError) {
  EXPECT_NE(message_of("/nonexistent/engine.xclbin").find("cannot read xclbin"), std::string::npos);
}

TEST(XrtBackend, NotAnXclbinIsAClearError) {
  std::string path = write_file("bad.xclbin", "this is not an xclbin at all");
  EXPECT_NE(message_of(path).find("is not an xclbin"), std::string::npos);
}

TEST(XrtBackend, TruncatedXclbinIsAClearError) {
  // The right magic but nothing after it: XRT must fail to parse it, we must report that.
  std::string path = write_file("trunc.xclbin", std::string("xclbin2\0", 8) + std::string(16, '\0'));
  std::string msg = message_of(path);
  ASSERT_FALSE(msg.empty());
  if (flowsteer::xrt::xrt_available()) {
    EXPECT_NE(msg.find("not a valid xclbin"), std::string::npos) << msg;
  } else {
    EXPECT_NE(msg.find("without XRT"), std::string::npos) << msg;
  }
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
}

#if FLOWSTEER_HAVE_XRT
#include <experimental/xrt_xclbin.h>

#include <cstring>
#include <iterator>

#include "xclbin_writer.h"

namespace {
// An xclbin as v++ would describe the kernel of hw/alveo/kernel.xml: its <kernel> element in
// the embedded metadata (with one instance at 0x1800000) and an IP_LAYOUT entry with the given
// control protocol. Every `from` in the kernel element is replaced by `to` first.
std::string kernel_xml_path() { return std::string(FLOWSTEER_SOURCE_DIR) + "/hw/alveo/kernel.xml"; }

// A data mover as v++ describes an HLS kernel: an m_axi buffer argument and a scalar count.
struct ExtraKernel {
  std::string name;
  uint32_t control;
};
std::string mover_element(const ExtraKernel& k, uint64_t base) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)base);
  return "<kernel name=\"" + k.name + "\" language=\"c\" vlnv=\"xilinx.com:hls:" + k.name +
         ":1.0\" preferredWorkGroupSizeMultiple=\"0\" workGroupSize=\"1\" interrupt=\"true\">\n"
         " <port name=\"s_axi_control\" mode=\"slave\" range=\"0x1000\" dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>\n"
         " <port name=\"m_axi_gmem\" mode=\"master\" range=\"0xFFFFFFFF\" dataWidth=\"512\" portType=\"addressable\" base=\"0x0\"/>\n"
         " <arg name=\"buf\" addressQualifier=\"1\" id=\"0\" port=\"m_axi_gmem\" size=\"0x8\" offset=\"0x10\" hostOffset=\"0x0\" hostSize=\"0x8\" type=\"void*\"/>\n"
         " <arg name=\"n\" addressQualifier=\"0\" id=\"1\" port=\"s_axi_control\" size=\"0x4\" offset=\"0x1C\" hostOffset=\"0x0\" hostSize=\"0x4\" type=\"uint\"/>\n"
         " <instance name=\"" + k.name + "_1\">\n  <addrRemap base=\"" + b + "\" range=\"0x1000\" port=\"s_axi_control\"/>\n"
         " </instance>\n</kernel>\n";
}

std::string write_kernel_xclbin(const char* name, uint32_t control = AP_CTRL_NONE,
                                const std::string& from = "", const std::string& to = "",
                                const std::vector<ExtraKernel>& extra = {}) {
  std::ifstream in(kernel_xml_path());
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t b = xml.find("<kernel "), e = xml.find("</kernel>");
  if (b == std::string::npos || e == std::string::npos) return "";
  std::string kernel = xml.substr(b, e - b);
  // v++ writes <port> and <arg> straight under <kernel> in the xclbin metadata
  for (const char* wrap : {"<ports>", "</ports>", "<args>", "</args>"})
    for (size_t p = kernel.find(wrap); p != std::string::npos; p = kernel.find(wrap))
      kernel.erase(p, std::strlen(wrap));
  if (!from.empty())
    for (size_t p = kernel.find(from); p != std::string::npos; p = kernel.find(from, p + to.size()))
      kernel.replace(p, from.size(), to);
  const std::string meta =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project name=\"flowsteer\">\n"
      " <platform vendor=\"xilinx\" boardid=\"u250\" name=\"xdma\" featureRomTime=\"0\">\n"
      "  <version major=\"1\" minor=\"0\"/>\n  <description/>\n  <board name=\"\" vendor=\"\" fpgaDevice=\"\"/>\n"
      "  <device name=\"fpga0\" fpgaDevice=\"virtexuplus:xcu250:figd2104:-2L:e\" addrWidth=\"0\">\n   <systemClocks/>\n"
      "   <core name=\"OCL_REGION_0\" target=\"bitstream\" type=\"clc_region\" clockFreq=\"0MHz\" numComputeUnits=\"1\">\n" +
      kernel +
      " <instance name=\"flowsteer_1\">\n  <addrRemap base=\"0x1800000\" range=\"0x10000\" port=\"s_axi_control\"/>\n"
      " </instance>\n</kernel>\n" + [&] {
        std::string more;
        for (size_t i = 0; i < extra.size(); ++i) more += mover_element(extra[i], 0x1810000 + 0x10000 * i);
        return more;
      }() + "   </core>\n  </device>\n </platform>\n</project>\n";
  // IP_LAYOUT: the engine, then one entry per extra kernel
  std::vector<char> ipbuf(sizeof(ip_layout) + extra.size() * sizeof(ip_data), 0);
  ip_layout& ipl = *reinterpret_cast<ip_layout*>(ipbuf.data());
  ipl.m_count = int32_t(1 + extra.size());
  auto set_ip = [&](size_t i, uint32_t ctl, uint64_t base, const std::string& ipname) {
    ip_data& d = ipl.m_ip_data[i];
    d.m_type = IP_KERNEL;
    d.properties = ctl << IP_CONTROL_SHIFT;
    d.m_base_address = base;
    std::strncpy(reinterpret_cast<char*>(d.m_name), ipname.c_str(), sizeof d.m_name - 1);
  };
  set_ip(0, control, 0x1800000, "flowsteer:flowsteer_1");
  for (size_t i = 0; i < extra.size(); ++i)
    set_ip(1 + i, extra[i].control, 0x1810000 + 0x10000 * i, extra[i].name + ":" + extra[i].name + "_1");
  std::string out(sizeof(axlf) + sizeof(axlf_section_header), '\0');
  const size_t off_meta = out.size();
  out += meta;
  while (out.size() % 8) out.push_back('\0');
  const size_t off_ip = out.size();
  out.append(ipbuf.data(), ipbuf.size());
  axlf top{};
  std::memcpy(top.m_magic, "xclbin2", 8);
  std::memset(top.reserved, 0xFF, sizeof top.reserved);
  top.m_header.m_length = out.size();
  top.m_header.m_numSections = 2;
  top.m_header.m_versionMajor = 2;
  top.m_header.m_mode = XCLBIN_HW_EMU;
  std::memcpy(&out[0], &top, sizeof top);
  axlf_section_header sh[2]{};
  sh[0].m_sectionKind = EMBEDDED_METADATA;
  std::strcpy(sh[0].m_sectionName, "metadata");
  sh[0].m_sectionOffset = off_meta;
  sh[0].m_sectionSize = meta.size();
  sh[1].m_sectionKind = IP_LAYOUT;
  std::strcpy(sh[1].m_sectionName, "ip_layout");
  sh[1].m_sectionOffset = off_ip;
  sh[1].m_sectionSize = ipbuf.size();
  std::memcpy(&out[offsetof(axlf, m_sections)], sh, sizeof sh);
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary).write(out.data(), std::streamsize(out.size()));
  return path;
}
}  // namespace

TEST(XrtBackend, XclbinWithoutTheEngineKernel) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_other.xclbin";
  flowsteer::test::write_xclbin(path, "vadd");
  EXPECT_EQ(message_of(path), "xclbin '" + path + "' has no kernel 'flowsteer'");
}

// hw/alveo/kernel.xml as XRT 2.13 reads it: one free-running CU whose register range is the
// engine's 64 KiB window (XRT sizes it from the port of the kernel's arguments).
TEST(XrtBackend, KernelXmlDescribesTheEngineWindow) {
  std::string path = write_kernel_xclbin("kxml.xclbin");
  ASSERT_FALSE(path.empty()) << "cannot read " << kernel_xml_path();
  xrt::xclbin x(path);
  xrt::xclbin::kernel k = x.get_kernel("flowsteer");
  ASSERT_TRUE(bool(k));
  ASSERT_EQ(k.get_cus().size(), 1u);
  const xrt::xclbin::ip cu = k.get_cus().front();
  EXPECT_EQ(cu.get_name(), "flowsteer:flowsteer_1");
  EXPECT_EQ(cu.get_size(), 0x10000u);
  EXPECT_EQ(cu.get_control_type(), xrt::xclbin::ip::control_type::none);
  EXPECT_FALSE(bool(x.get_ip("flowsteer"))) << "xrt::ip needs the CU name, not the kernel name";
}

TEST(XrtBackend, GoodXclbinButNoCard) {
  std::string path = write_kernel_xclbin("fs.xclbin");
  unsetenv("XILINX_XRT");  // as on a machine with Debian's XRT and no card
  std::string msg = message_of(path);
  EXPECT_EQ(msg.rfind("no Alveo card 0", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

// Without an argument on s_axi_control XRT gives the CU a 0-byte range and every xrt::ip
// access would throw: refused before the card is touched.
TEST(XrtBackend, KernelWithoutRegisterRangeIsAClearError) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_norange.xclbin";
  flowsteer::test::write_xclbin(path, "flowsteer");  // no <arg>: range 0
  EXPECT_EQ(message_of(path), "kernel 'flowsteer' in xclbin '" + path +
                                  "' has a 0x0-byte register range; the engine window needs 0x0..0xffff "
                                  "(hw/alveo/kernel.xml: s_axi_control range 0x10000 and an argument on it)");
}

TEST(XrtBackend, SmallControlRangeIsAClearError) {
  std::string path = write_kernel_xclbin("small.xclbin", AP_CTRL_NONE, "range=\"0x10000\"", "range=\"0x1000\"");
  std::string msg = message_of(path);
  EXPECT_NE(msg.find("has a 0x1000-byte register range"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(XrtBackend, XrtManagedKernelIsAClearError) {
  for (uint32_t ctl : {uint32_t(AP_CTRL_HS), uint32_t(AP_CTRL_CHAIN)}) {
    std::string path = write_kernel_xclbin("hs.xclbin", ctl);
    EXPECT_EQ(message_of(path), "kernel 'flowsteer' in xclbin '" + path +
                                    "' is XRT-managed (ap_ctrl_hs/chain); the flowsteer kernel is free-running "
                                    "(ap_ctrl_none, hw/alveo/kernel.xml)");
  }
}
#endif

#if FLOWSTEER_HAVE_XRT
namespace {
std::string card_message(const std::string& xclbin, bool need_movers) {
  try {
    flowsteer::xrt::open_xrt_card(xclbin, 0, need_movers);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// The data movers are checked in the xclbin before the card is opened: both or neither, each
// XRT-managed; frames (need_movers) refuse an xclbin without them.
TEST(XrtBackend, DataMoversAreCheckedBeforeTheCard) {
  unsetenv("XILINX_XRT");
  const std::string none = write_kernel_xclbin("nomov.xclbin");
  EXPECT_EQ(card_message(none, true), "xclbin '" + none +
                                           "' has no data movers (fs_mm2s, fs_s2mm): frames cannot be sent from "
                                           "the host");
  EXPECT_EQ(card_message(none, false).rfind("no Alveo card 0", 0), 0u);  // registers only
  const std::string half = write_kernel_xclbin("half.xclbin", AP_CTRL_NONE, "", "", {{"fs_mm2s", AP_CTRL_HS}});
  EXPECT_EQ(card_message(half, false),
            "xclbin '" + half + "' has fs_mm2s but not fs_s2mm (the data movers come as a pair)");
  const std::string free = write_kernel_xclbin("freemov.xclbin", AP_CTRL_NONE, "", "",
                                               {{"fs_mm2s", AP_CTRL_HS}, {"fs_s2mm", AP_CTRL_NONE}});
  EXPECT_EQ(card_message(free, false), "kernel 'fs_s2mm' in xclbin '" + free +
                                           "' is not XRT-managed; the data movers are ap_ctrl_hs HLS kernels "
                                           "(hw/alveo/fs_s2mm.cpp)");
  const std::string both = write_kernel_xclbin("both.xclbin", AP_CTRL_NONE, "", "",
                                               {{"fs_mm2s", AP_CTRL_HS}, {"fs_s2mm", AP_CTRL_HS}});
  const std::string msg = card_message(both, true);  // good xclbin: fails only at the card
  EXPECT_EQ(msg.rfind("no Alveo card 0", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  flowsteer::xrt::check_xclbin_file(both);
  xrt::xclbin x(both);
  EXPECT_EQ(x.get_kernels().size(), 3u);
  EXPECT_EQ(x.get_kernel("fs_s2mm").get_cus().front().get_control_type(), xrt::xclbin::ip::control_type::hs);
}
#endif
