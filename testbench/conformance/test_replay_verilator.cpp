// flowsteer replay --backend verilator: a generated pcap through the simulated engine with
// every record checked against the model; its summary must equal the model backend's.
#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <cstdio>
#include <random>
#include <string>

#include "flowsteer/nic/frame.h"
#include "test_util.h"

namespace {

// A few TCP/UDP connections, both directions, over several milliseconds (head catch-up and
// runtime sync passes happen), plus non-IP and truncated frames.
std::string write_pcap(const std::string& path) {
  pcap_t* dead = pcap_open_dead(DLT_EN10MB, 65535);
  pcap_dumper_t* d = pcap_dump_open(dead, path.c_str());
  if (!d) return pcap_geterr(dead);
  std::mt19937 rng(flowsteer::test::test_seed(11));
  std::vector<flowsteer::FlowTuple> conns;
  for (int i = 0; i < 12; ++i) conns.push_back(flowsteer::test::random_tuple(rng, i % 4 == 3 ? 6 : 4));
  uint64_t usec = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> f;
    if (i % 97 == 5) {
      f.assign(60, 0x11);
      f[12] = 0x08, f[13] = 0x06;  // ARP
    } else {
      const auto& t = conns[rng() % conns.size()];
      flowsteer::nic::FrameOptions o;
      o.payload = rng() % 40;
      f = flowsteer::nic::build_frame(rng() % 3 ? t : t.reversed(), o);
      if (i % 131 == 7) f.resize(20);  // truncated
    }
    usec += 50 + rng() % 3000;
    pcap_pkthdr h{};
    h.ts.tv_sec = long(usec / 1000000);
    h.ts.tv_usec = long(usec % 1000000);
    h.caplen = h.len = uint32_t(f.size());
    pcap_dump(reinterpret_cast<u_char*>(d), &h, f.data());
  }
  pcap_dump_close(d);
  pcap_close(dead);
  return "";
}

TEST(ReplayVerilator, SameSummaryAsTheModelAndNoMismatch) {
  const std::string pcap = ::testing::TempDir() + "conform_replay.pcap";
  ASSERT_EQ(write_pcap(pcap), "");
  for (const char* variant : {"patched", "original"}) {
    const std::string args = " replay --pcap " + pcap + " --cpus 8 --rps-flow-cnt 16 --variant " + variant;
    std::string model, rtl;
    ASSERT_EQ(flowsteer::test::run_command(std::string(FLOWSTEER_BIN) + args + " --backend model", model), 0) << model;
    ASSERT_EQ(flowsteer::test::run_command(std::string(FLOWSTEER_BIN) + args + " --backend verilator 2>&1", rtl), 0) << rtl;
    EXPECT_NE(model.find("3000 frames"), std::string::npos) << model;
    EXPECT_EQ(rtl, model);
  }
}

TEST(ReplayVerilator, CpusBeyondTheEngineAreAUsageError) {
  const std::string pcap = ::testing::TempDir() + "conform_replay_small.pcap";
  ASSERT_EQ(write_pcap(pcap), "");
  std::string out;
  EXPECT_EQ(flowsteer::test::run_command(std::string(FLOWSTEER_BIN) + " replay --pcap " + pcap + " --cpus 4096 --backend verilator 2>&1", out), 2) << out;
}

}  // namespace
