// flowsteer replay over the golden engine model: pcap in (libpcap), per-connection summary.
#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>

#include "flowsteer/nic/frame.h"
#include "flowsteer/runs/replay.h"

using namespace flowsteer;

namespace {

struct PcapWriter {
  pcap_t* dead;
  pcap_dumper_t* dump;
  long usec = 0;
  PcapWriter(const std::string& path, int linktype = DLT_EN10MB) {
    dead = pcap_open_dead(linktype, 65535);
    dump = pcap_dump_open(dead, path.c_str());
  }
  ~PcapWriter() {
    pcap_dump_close(dump);
    pcap_close(dead);
  }
  void add(const std::vector<uint8_t>& frame, size_t caplen = SIZE_MAX) {
    pcap_pkthdr h{};
    usec += 300;  // 0.3 ms apart
    h.ts.tv_sec = usec / 1000000;
    h.ts.tv_usec = usec % 1000000;
    h.len = bpf_u_int32(frame.size());
    h.caplen = bpf_u_int32(std::min(caplen, frame.size()));
    pcap_dump(reinterpret_cast<u_char*>(dump), &h, frame.data());
  }
};

// Per process: ctest runs tests in parallel, and CI may run beside a developer.
std::string temp_path(const char* name) {
  return "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_" + name;
}

std::string write_capture() {
  std::string path = temp_path("replay.pcap");
  PcapWriter w(path);
  FlowTuple c2s = make_tuple("192.0.2.10", "198.51.100.20", 40000, 80);
  for (int i = 0; i < 3; ++i) {
    w.add(nic::build_frame(c2s));
    w.add(nic::build_frame(c2s.reversed()));
  }
  FlowTuple v6 = make_tuple("2001:db8::1", "2001:db8::2", 5353, 53, kIpProtoUdp);
  w.add(nic::build_frame(v6));
  std::vector<uint8_t> arp(60, 0);
  arp[12] = 0x08;
  arp[13] = 0x06;
  w.add(arp);
  w.add(nic::build_frame(c2s, {.vlan_tags = 1}), 30);  // cut by the snap length mid-IP header
  return path;
}

runs::ReplayConfig config(nic::HashMode m) {
  runs::ReplayConfig c;
  c.params.cpus = 4;
  c.params.queues = 4;
  c.rps_flow_cnt = 64;
  c.hash_mode = m;
  return c;
}

}  // namespace

TEST(Replay, BothDirectionsOfAConnectionAreReportedTogether) {
  std::string path = write_capture();
  runs::ReplayResult r = runs::replay_pcap(path, config(nic::HashMode::kToeplitzSymXor));
  EXPECT_EQ(r.frames, 9u);
  EXPECT_EQ(r.truncated_by_snaplen, 1u);
  EXPECT_EQ(r.by_class[size_t(nic::ParseClass::kIpv4Tcp)], 6u);
  EXPECT_EQ(r.by_class[size_t(nic::ParseClass::kIpv6Udp)], 1u);
  EXPECT_EQ(r.by_class[size_t(nic::ParseClass::kNonIp)], 1u);
  EXPECT_EQ(r.by_class[size_t(nic::ParseClass::kTruncated)], 1u);
  ASSERT_EQ(r.connections.size(), 2u);
  const auto& c = r.connections[0];
  EXPECT_EQ(c.ab.packets, 3u);
  EXPECT_EQ(c.ba.packets, 3u);
  EXPECT_EQ(c.ab.hash, c.ba.hash);  // symmetric-xor Toeplitz: one hash for both directions
  // aRFS filters match the received tuple, so only the steered direction hits one; the
  // other has the same hash, hence the same slot, and the patched gate skips it (case 22).
  EXPECT_EQ(c.steers, 1u);
  EXPECT_EQ(c.skips, 1u);
  EXPECT_EQ(c.ab.filter_hits + c.ba.filter_hits, 2u);
  EXPECT_EQ(r.connections[1].key.family, 6);
}

TEST(Replay, PlainToeplitzHashesTheDirectionsApart) {
  runs::ReplayResult r = runs::replay_pcap(write_capture(), config(nic::HashMode::kToeplitz));
  ASSERT_EQ(r.connections.size(), 2u);
  EXPECT_NE(r.connections[0].ab.hash, r.connections[0].ba.hash);
}

TEST(Replay, BadFilesAreOneLineErrors) {
  EXPECT_THROW(runs::replay_pcap("/nonexistent/x.pcap", config(nic::HashMode::kToeplitz)), std::runtime_error);
  std::string raw = temp_path("raw.pcap");
  { PcapWriter w(raw, DLT_RAW); }
  try {
    runs::replay_pcap(raw, config(nic::HashMode::kToeplitz));
    FAIL() << "a raw-IP capture must be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not an Ethernet capture"), std::string::npos) << e.what();
  }
}

TEST(Replay, CliExitCodes) {
  char self[PATH_MAX] = {0};
  ASSERT_GT(readlink("/proc/self/exe", self, sizeof self - 1), 0);
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  std::string bin = dir.substr(0, dir.rfind('/')) + "/flowsteer";
  if (access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "flowsteer binary not built at " << bin;
  std::string cap = write_capture();
  auto run = [&](const std::string& args) {
    int rc = std::system((bin + " replay " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  };
  EXPECT_EQ(run("--pcap " + cap + " --json " + temp_path("replay.json")), 0);
  EXPECT_EQ(run("--pcap /nonexistent.pcap"), 2);
  EXPECT_EQ(run("--pcap " + cap + " --backend fpga"), 2);  // verilator: test_replay_verilator
  EXPECT_EQ(run("--pcap " + cap + " --hash md5"), 2);
  EXPECT_EQ(run(""), 2);
}
