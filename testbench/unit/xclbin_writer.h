// Writes a minimal but well-formed xclbin (EMBEDDED_METADATA + IP_LAYOUT) naming one RTL
// kernel, so the XRT backend's checks can be tested without Vitis or a card.
#pragma once

#include <xrt/xclbin.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace flowsteer::test {

inline void write_xclbin(const std::string& path, const std::string& kernel) {
  const std::string meta =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project name=\"" + kernel + "\">\n"
      " <platform vendor=\"xilinx\" boardid=\"u250\" name=\"xdma\" featureRomTime=\"0\">\n"
      "  <version major=\"1\" minor=\"0\"/>\n  <description/>\n"
      "  <board name=\"\" vendor=\"\" fpgaDevice=\"\"/>\n"
      "  <device name=\"fpga0\" fpgaDevice=\"virtexuplus:xcu250:figd2104:-2L:e\" addrWidth=\"0\">\n"
      "   <systemClocks/>\n"
      "   <core name=\"OCL_REGION_0\" target=\"bitstream\" type=\"clc_region\" clockFreq=\"0MHz\" numComputeUnits=\"1\">\n"
      "    <kernel name=\"" + kernel + "\" language=\"ip_c\" vlnv=\"flowsteer:rtl:" + kernel +
      ":1.0\" preferredWorkGroupSizeMultiple=\"0\" workGroupSize=\"1\" interrupt=\"false\" "
      "hwControlProtocol=\"ap_ctrl_none\">\n"
      "     <port name=\"S_AXI_CONTROL\" mode=\"slave\" range=\"0x10000\" dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>\n"
      "     <instance name=\"" + kernel + "_1\">\n"
      "      <addrRemap base=\"0x1800000\" range=\"0x10000\" port=\"S_AXI_CONTROL\"/>\n"
      "     </instance>\n    </kernel>\n   </core>\n  </device>\n </platform>\n</project>\n";
  ip_layout ipl{};
  ipl.m_count = 1;
  ipl.m_ip_data[0].m_type = IP_KERNEL;
  ipl.m_ip_data[0].properties = 0x0300;  // m_ip_control: ap_ctrl_none
  ipl.m_ip_data[0].m_base_address = 0x1800000;
  const std::string ip_name = kernel + ":" + kernel + "_1";
  std::strncpy(reinterpret_cast<char*>(ipl.m_ip_data[0].m_name), ip_name.c_str(),
               sizeof ipl.m_ip_data[0].m_name - 1);

  const size_t sections = 2;
  std::vector<char> out(sizeof(axlf) + (sections - 1) * sizeof(axlf_section_header));
  const size_t off_meta = out.size();
  out.insert(out.end(), meta.begin(), meta.end());
  while (out.size() % 8) out.push_back(0);
  const size_t off_ip = out.size();
  const char* ipb = reinterpret_cast<const char*>(&ipl);
  out.insert(out.end(), ipb, ipb + sizeof ipl);

  axlf top{};
  std::memcpy(top.m_magic, "xclbin2", 8);
  std::memset(top.reserved, 0xFF, sizeof top.reserved);
  top.m_header.m_length = out.size();
  top.m_header.m_numSections = sections;
  top.m_header.m_versionMajor = 2;
  top.m_header.m_mode = XCLBIN_HW_EMU;
  std::memcpy(out.data(), &top, sizeof top);
  axlf_section_header sh[2]{};
  sh[0].m_sectionKind = EMBEDDED_METADATA;
  std::strcpy(sh[0].m_sectionName, "metadata");
  sh[0].m_sectionOffset = off_meta;
  sh[0].m_sectionSize = meta.size();
  sh[1].m_sectionKind = IP_LAYOUT;
  std::strcpy(sh[1].m_sectionName, "ip_layout");
  sh[1].m_sectionOffset = off_ip;
  sh[1].m_sectionSize = sizeof ipl;
  std::memcpy(out.data() + offsetof(axlf, m_sections), sh, sizeof sh);
  std::ofstream(path, std::ios::binary).write(out.data(), std::streamsize(out.size()));
}

}  // namespace flowsteer::test
