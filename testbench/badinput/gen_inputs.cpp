// Writes the captures and traces the adversarial suite (label badinput) needs into a folder:
// plain pcap files (the classic format, written byte by byte, so a capture can hold what
// libpcap's writer would not: zero-length records, another link type) and JSON Lines traces.
// Usage: badinput_gen DIR
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "flowsteer/nic/frame.h"
#include "flowsteer/tuple.h"

namespace {

class PcapWriter {
 public:
  PcapWriter(const std::string& path, uint32_t linktype) : f_(path, std::ios::binary) {
    put32(0xa1b2c3d4);
    put16(2);
    put16(4);
    put32(0);
    put32(0);
    put32(65535);
    put32(linktype);
  }
  void frame(uint64_t usec, const std::vector<uint8_t>& b) {
    put32(uint32_t(usec / 1000000));
    put32(uint32_t(usec % 1000000));
    put32(uint32_t(b.size()));
    put32(uint32_t(b.size()));
    f_.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
  }
  bool ok() {
    f_.flush();
    return bool(f_);
  }

 private:
  void put32(uint32_t v) { f_.write(reinterpret_cast<const char*>(&v), 4); }  // host order + magic
  void put16(uint16_t v) { f_.write(reinterpret_cast<const char*>(&v), 2); }
  std::ofstream f_;
};

flowsteer::FlowTuple tcp(uint32_t i, bool v6 = false) {
  flowsteer::FlowTuple t;
  t.family = v6 ? 6 : 4;
  t.proto = flowsteer::kIpProtoTcp;
  if (v6) {
    t.src[0] = 0xfd, t.dst[0] = 0xfd, t.src[15] = uint8_t(i), t.src[14] = uint8_t(i >> 8), t.dst[15] = 1;
  } else {
    t.src = {10, 1, uint8_t(i >> 8), uint8_t(i)};
    t.dst = {10, 2, 0, 1};
  }
  t.sport = uint16_t(20000 + i % 40000);
  t.dport = 5001;
  return t;
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return bool(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: badinput_gen DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  mkdir(dir.c_str(), 0755);  // may exist
  using flowsteer::nic::build_frame;
  bool ok = true;
  std::mt19937 rng(13);

  {  // a dozen connections, both directions, a few ms apart: the small replay
    PcapWriter w(dir + "/small.pcap", 1);
    uint64_t us = 0;
    for (int i = 0; i < 600; ++i) {
      const auto t = tcp(uint32_t(rng() % 12), i % 5 == 4);
      w.frame(us += 200 + rng() % 3000, build_frame(rng() % 3 ? t : t.reversed()));
    }
    ok &= w.ok();
  }
  {  // 3,000 connections of 3 frames: more filters than the standard build's table holds
    PcapWriter w(dir + "/many.pcap", 1);
    uint64_t us = 0;
    for (int round = 0; round < 3; ++round)
      for (uint32_t i = 0; i < 3000; ++i) w.frame(us += 50, build_frame(round == 1 ? tcp(i).reversed() : tcp(i)));
    ok &= w.ok();
  }
  {  // zero-length records between ordinary frames
    PcapWriter w(dir + "/zero.pcap", 1);
    uint64_t us = 0;
    for (int i = 0; i < 40; ++i) w.frame(us += 700, i % 7 == 3 ? std::vector<uint8_t>{} : build_frame(tcp(uint32_t(i % 4))));
    ok &= w.ok();
  }
  {  // raw IP (LINKTYPE_RAW 101): an IPv4 packet with no Ethernet header
    PcapWriter w(dir + "/rawip.pcap", 101);
    auto f = build_frame(tcp(1));
    w.frame(1000, std::vector<uint8_t>(f.begin() + 14, f.end()));
    ok &= w.ok();
  }
  {  // 2,000 frames of 4 connections, one frame a second: 2,000 s of capture time, mostly idle
    PcapWriter w(dir + "/idle.pcap", 1);
    for (uint32_t i = 0; i < 2000; ++i) w.frame(uint64_t(i) * 1000000 + 17, build_frame(tcp(i % 4)));
    ok &= w.ok();
  }

  const std::string config =
      R"({"op":"config","cpus":3,"queues":3,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256})";
  auto packet = [](const std::string& src) {
    return R"({"op":"packet","rxq":0,"hash":"0xFFFD","flow":{"family":4,"proto":"tcp","src":")" + src +
           R"(","dst":"10.0.1.1","sport":40001,"dport":5001}})";
  };
  ok &= write_text(dir + "/newline_in_string.jsonl", config + "\n" + packet("10.0.0.1\\nsecond line") + "\n");
  ok &= write_text(dir + "/big_value.jsonl", config + "\n" + packet(std::string(20u << 20, '9')) + "\n");
  ok &= write_text(dir + "/nul_escape.jsonl", config + "\n" + packet("10.0.0.1\\u0000garbage") + "\n");
  ok &= write_text(dir + "/cr_only.jsonl", "# CR-only line ends\r" + config + "\r" + packet("10.0.0.1") + "\r");
  ok &= write_text(dir + "/bom_comment.jsonl", "\xEF\xBB\xBF# a comment after a byte-order mark\n" + config + "\n" +
                                                   packet("10.0.0.1") + "\n");
  ok &= write_text(dir + "/vtab_line.jsonl", config + "\n\v\n" + packet("10.0.0.1") + "\n");
  ok &= write_text(dir + "/bad_json_long.jsonl", config + "\n{\"op\":\"packet\",\"rxq\":" + std::string(1u << 20, '7') +
                                                     "x}\n");
  if (!ok) {
    std::fprintf(stderr, "badinput_gen: cannot write into %s\n", dir.c_str());
    return 2;
  }
  return 0;
}
