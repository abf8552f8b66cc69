// The host runtime (register-level driver + E810-style aRFS runtime) on the engine backends
// the seed's two flows (spec 7.9.3 / 7.9.4, original and patched) and a
// 1,000-flow system run, through the same code on the golden model and, when flowsteer is
// built with the Verilator harness, on the simulated RTL; both must give identical
// records, counters, runtime counters and filter tables.
#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/rss.h"
#include "flowsteer/runs/device_run.h"
#if defined(FLOWSTEER_HAVE_VERILATOR)
#include "verilator_port.h"
#endif

using namespace flowsteer;
namespace r = flowsteer::regs;

namespace {

constexpr uint32_t kT = 3;       // the CPU both seed apps read on (queue rmap(3) = 3)
constexpr int kSeedRounds = 8;

// The implemented sizes the comparison runs with: the simulated engine's when it is
// built (the model then takes the same), else the kStandard sizes of engine_sim.h.
engine::EngineCaps backend_caps() {
#if defined(FLOWSTEER_HAVE_VERILATOR)
  static const engine::EngineCaps caps = sim::verilator_caps(sim::EngineBuild::kStandard);
  return caps;
#else
  engine::EngineCaps c;
  c.lut_log2 = 7;
  c.cpu_log2 = 4;          // 16 CPUs
  c.queue_log2 = 4;        // 16 queues
  c.slot_log2 = 10;        // 1024-slot tables
  c.flt_bucket_bits = 9;   // 2048 filters
  c.flt_ways = 4;
  c.sock_log2 = 12;
  c.evt_log2 = 5;          // 32-entry event FIFO
  c.rps_pool_log2 = 8;
  return c;
#endif
}

driver::EngineSetup seed_setup(kernel::Variant v) {
  driver::EngineSetup s;
  s.nr_cpu_ids = 16;
  s.num_rx_queues = 16;
  s.variant = v;
  s.lut_log2 = std::min(7u, backend_caps().lut_log2);
  s.rps_flow_cnt = 16;          // log 4: hash_32(h, 4) picks the slot (V-log)
  s.rps_sock_flow_entries = 256;
  return s;
}

struct SeedFlow {
  FlowTuple tuple;
  uint32_t hash = 0;
  std::vector<uint8_t> frame;
};

// Flow #1 and Flow #2: RSS queues other than T, one slot of T's 16-entry table, distinct
// sock-table entries and ice buckets (spec 7.9.3).
std::pair<SeedFlow, SeedFlow> seed_pair(const driver::EngineSetup& s) {
  nic::Rss rss(uint16_t(s.num_rx_queues), s.hash_mode, size_t(1) << s.lut_log2);
  std::vector<SeedFlow> seen;
  for (uint16_t sport = 1000; sport < 60000; ++sport) {
    SeedFlow f;
    f.tuple = make_tuple("192.0.2.1", "198.51.100.7", sport, 80);
    f.hash = rss.hash_tuple(f.tuple, true);
    if (f.hash == 0 || rss.queue(f.hash) == kT) continue;
    f.frame = nic::build_frame(f.tuple);
    for (const auto& g : seen)
      if (hash::hash_32(g.hash, 4) == hash::hash_32(f.hash, 4) && (g.hash & 255) != (f.hash & 255) &&
          (g.hash & 1023) != (f.hash & 1023))
        return {g, f};
    seen.push_back(f);
  }
  ADD_FAILURE() << "no colliding pair";
  return {};
}

struct Round {
  std::vector<engine::OutputRecord> records;
  std::vector<uint32_t> deleted;
  driver::ArfsCounters runtime;
  uint32_t filter_count = 0;
  bool operator==(const Round& o) const {
    return records == o.records && deleted == o.deleted && runtime.steer_c == o.runtime.steer_c &&
           runtime.steer_l == o.runtime.steer_l && runtime.add == o.runtime.add && runtime.del == o.runtime.del &&
           filter_count == o.filter_count;
  }
};

struct SeedTrace {
  std::vector<Round> rounds;
  std::vector<uint64_t> counters;
  std::vector<runs::FilterRow> filters;
};

// Per round: F1 x3 and F2 x3 as one batch, both backlogs processed, one service-task run.
SeedTrace run_seed(device::EnginePort& port, kernel::Variant v) {
  SeedTrace tr;
  const driver::EngineSetup s = seed_setup(v);
  auto [f1, f2] = seed_pair(s);
  driver::EngineDriver drv(port.bus());
  drv.configure(s);
  drv.clear_filters();
  port.bus().write32(r::CNT_CLEAR::kAddr, r::CNT_CLEAR::ALL.put(1));
  driver::ArfsRuntime rt(drv);
  drv.rps_record_sock_flow(f1.hash, kT);  // both apps read on CPU T
  drv.rps_record_sock_flow(f2.hash, kT);
  device::FramePort* fp = port.frames();
  uint64_t now = 0;
  for (int round = 0; round < kSeedRounds; ++round) {
    Round rd;
    for (const SeedFlow* f : {&f1, &f1, &f1, &f2, &f2, &f2}) fp->send(f->frame);
    fp->drain(rd.records);
    for (uint32_t c = 0; c < s.nr_cpu_ids; ++c) drv.process_backlog(c);
    rd.deleted = rt.ice_sync_arfs_fltrs(now += 1000).deleted;
    rd.runtime = rt.counters();
    rd.filter_count = drv.filter_count();
    tr.rounds.push_back(rd);
  }
  for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i) tr.counters.push_back(drv.counter(i));
  for (const auto& e : rt.entries()) {
    runs::FilterRow row;
    row.tuple = e.tuple;
    row.id = e.id;
    row.queue = e.queue;
    if (auto h = drv.filter_lookup(e.tuple)) row = {e.tuple, e.id, e.queue, true, h->id, h->queue};
    row.state = e.fltr_state;
    row.flow_id = e.flow_id;
    tr.filters.push_back(row);
  }
  return tr;
}

uint64_t cnt(const std::vector<uint64_t>& c, r::Counter i) { return c[size_t(i)]; }

// The 1,000-flow system run: 20% UDP flows, the original variant (slot overwrites make
// filters expire and come back while traffic runs); traffic stops after 0.5 s and the
// runtime runs on to 6.5 s, so every UDP filter meets its 5 s expiry (spec 7.3).
runs::DeviceWorkload system_workload() {
  runs::DeviceWorkload w;
  w.flows = 1000;
  w.udp_percent = 20;
  w.pkt_interval_ms = 10;
  w.traffic_s = 0.5;
  w.duration_s = 6.5;
  w.service_period_ms = 250;
  w.seed = 11;
  return w;
}

size_t udp_filters(const runs::DeviceReport& rep) {
  size_t n = 0;
  for (const auto& f : rep.filters) n += f.tuple.proto == kIpProtoUdp;
  return n;
}

driver::EngineSetup system_setup() {
  driver::EngineSetup s = seed_setup(kernel::Variant::kOriginal);
  s.rps_flow_cnt = 64;
  s.rps_sock_flow_entries = 0;  // 16 x 64
  return s;
}

// Every filter the runtime lists is in the engine's table under its id and queue, and the
// table holds nothing else.
void expect_runtime_matches_table(const runs::DeviceReport& rep) {
  EXPECT_EQ(rep.filter_count, rep.runtime_entries);
  EXPECT_EQ(rep.filters.size(), rep.runtime_entries);
  for (const auto& f : rep.filters) {
    EXPECT_TRUE(f.found) << to_string(f.tuple);
    EXPECT_EQ(f.engine_id, f.id) << to_string(f.tuple);
    EXPECT_EQ(f.engine_queue, f.queue) << to_string(f.tuple);
  }
}

std::string flowsteer_bin() { return FLOWSTEER_BIN; }

// Runs the CLI; returns the exit status, stderr in *err.
int run_cli(const std::string& args, std::string* err = nullptr) {
  char tmpl[] = "/tmp/fs_device_XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return -1;
  close(fd);
  int rc = std::system((flowsteer_bin() + " device " + args + " >/dev/null 2>" + tmpl).c_str());
  if (err) {
    std::ifstream f(tmpl);
    err->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::remove(tmpl);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// The error line: the last of stderr (the CLI names its backend first).
std::string last_line(const std::string& s) {
  if (s.empty() || s.back() != '\n') return "";
  size_t b = s.rfind('\n', s.size() - 2);
  return s.substr(b == std::string::npos ? 0 : b + 1);
}

}  // namespace

// Original (spec 7.9.3): the slot of T keeps the last steered flow's filter; each sync
// deletes the other's, which steers again: one Add and one Del per round.
TEST(DeviceBackends, SeedTwoFlowsOriginalThrashesOnTheModel) {
  auto port = device::open_model_port(backend_caps());
  SeedTrace tr = run_seed(*port, kernel::Variant::kOriginal);
  ASSERT_EQ(tr.rounds.size(), size_t(kSeedRounds));
  const Round& r0 = tr.rounds[0];
  ASSERT_EQ(r0.records.size(), 6u);
  EXPECT_EQ(r0.records[0].action, engine::SteerAction::kSteered);  // F1 -> id 1
  EXPECT_EQ(r0.records[0].cpu, int(kT));
  EXPECT_TRUE(r0.records[1].filter_hit);                           // inline filter
  EXPECT_EQ(r0.records[1].queue, kT);
  EXPECT_EQ(r0.records[3].action, engine::SteerAction::kSteered);  // F2 overwrites the slot
  EXPECT_TRUE(r0.deleted.empty());                                 // new entries: not checked yet
  for (int k = 1; k < kSeedRounds; ++k) {
    SCOPED_TRACE(k);
    const Round& rd = tr.rounds[size_t(k)];
    EXPECT_EQ(rd.deleted.size(), 1u);
    EXPECT_EQ(rd.runtime.add, uint64_t(k) + 1);
    EXPECT_EQ(rd.runtime.del, uint64_t(k));
    EXPECT_EQ(rd.filter_count, 1u);
  }
  EXPECT_EQ(cnt(tr.counters, r::Counter::kSteerAdds), uint64_t(kSeedRounds));
  EXPECT_EQ(cnt(tr.counters, r::Counter::kFltDeletes), uint64_t(kSeedRounds - 1));
  EXPECT_EQ(cnt(tr.counters, r::Counter::kPkts), 6u * kSeedRounds);
  ASSERT_EQ(tr.filters.size(), 1u);
  EXPECT_TRUE(tr.filters[0].found);
  EXPECT_EQ(tr.filters[0].engine_id, tr.filters[0].id);
  // built by this round's steer, made ACTIVE by this round's pass (checked from the next)
  EXPECT_EQ(tr.filters[0].state, driver::FltrState::kActive);
}

// Patched (spec 7.9.4): F1 keeps the slot; F2 hits the active-slot gate once and is served
// by software RFS; nothing is ever deleted, Steer-C stays 1.
TEST(DeviceBackends, SeedTwoFlowsPatchedKeepsTheWinnerOnTheModel) {
  auto port = device::open_model_port(backend_caps());
  SeedTrace tr = run_seed(*port, kernel::Variant::kPatched);
  const Round& r0 = tr.rounds[0];
  EXPECT_EQ(r0.records[0].action, engine::SteerAction::kSteered);
  EXPECT_EQ(r0.records[3].action, engine::SteerAction::kSkipped);
  EXPECT_EQ(r0.records[3].cpu, int(kT));
  for (const Round& rd : tr.rounds) {
    EXPECT_TRUE(rd.deleted.empty());
    EXPECT_EQ(rd.runtime.add, 1u);
    EXPECT_EQ(rd.runtime.del, 0u);
    EXPECT_EQ(rd.runtime.steer_c, 1u);
    EXPECT_EQ(rd.filter_count, 1u);
  }
  EXPECT_EQ(cnt(tr.counters, r::Counter::kGateSkips), 1u);
  EXPECT_EQ(cnt(tr.counters, r::Counter::kFltHits), 3u * kSeedRounds - 1);  // F1 after its first
}

TEST(DeviceBackends, SystemRunRuntimeMatchesTheEngineOnTheModel) {
  auto port = device::open_model_port(backend_caps());
  runs::DeviceReport rep = runs::run_device(*port, system_setup(), system_workload());
  const auto& c = rep.counters;
  EXPECT_EQ(rep.kind, "model");
  EXPECT_GT(rep.frames, 45000u);  // 1,000 flows x ~100 frames/s x 0.5 s
  EXPECT_EQ(cnt(c, r::Counter::kPkts), rep.frames);
  uint64_t per_queue = 0, per_cpu = 0;
  for (auto n : rep.queue_packets) per_queue += n;
  for (auto n : rep.cpu_packets) per_cpu += n;
  EXPECT_EQ(per_queue, rep.frames);
  EXPECT_EQ(per_cpu, cnt(c, r::Counter::kRfsCpu));
  EXPECT_EQ(rep.runtime.add, cnt(c, r::Counter::kSteerAdds));
  EXPECT_EQ(rep.runtime.del, cnt(c, r::Counter::kFltDeletes));
  EXPECT_EQ(rep.runtime.steer_c, cnt(c, r::Counter::kSteerCalls));
  EXPECT_EQ(rep.delete_errors, 0u);
  EXPECT_GT(rep.runtime.del, 0u);                         // expiry ran
  EXPECT_EQ(udp_filters(rep), 0u);                        // every UDP filter expired
  EXPECT_GT(rep.filters.size(), 100u);                    // idle TCP flows keep theirs
  EXPECT_GT(c[size_t(r::Counter::kParseClass0) + 1], 0u);  // UDP flows (parse class IPV4_UDP)
  EXPECT_GT(cnt(c, r::Counter::kFltHits), 0u);
  expect_runtime_matches_table(rep);
  // The same run again is the same run (one seed, no wall-clock input).
  auto port2 = device::open_model_port(backend_caps());
  runs::DeviceReport again = runs::run_device(*port2, system_setup(), system_workload());
  EXPECT_EQ(again.counters, rep.counters);
  EXPECT_EQ(again.filters, rep.filters);
  // The patched gate keeps active flows' filters: far fewer deletes and driver calls than
  // the original's overwrites on the same traffic (the seed experiment's point, spec 7.9).
  driver::EngineSetup patched = system_setup();
  patched.variant = kernel::Variant::kPatched;
  auto port3 = device::open_model_port(backend_caps());
  runs::DeviceReport p = runs::run_device(*port3, patched, system_workload());
  expect_runtime_matches_table(p);
  EXPECT_GT(cnt(p.counters, r::Counter::kGateSkips), 0u);
  EXPECT_EQ(udp_filters(p), 0u);
  EXPECT_LT(p.runtime.steer_c * 2, rep.runtime.steer_c);
  EXPECT_LT(p.runtime.del, rep.runtime.del);
  std::printf("1,000 flows on the model: original Steer-C %llu Add %llu Del %llu, patched Steer-C %llu Add %llu Del %llu\n",
              (unsigned long long)rep.runtime.steer_c, (unsigned long long)rep.runtime.add,
              (unsigned long long)rep.runtime.del, (unsigned long long)p.runtime.steer_c,
              (unsigned long long)p.runtime.add, (unsigned long long)p.runtime.del);
}

// A run on a port that already served another one starts from an empty table.
TEST(DeviceBackends, SecondRunOnOnePortStartsClean) {
  auto port = device::open_model_port(backend_caps());
  run_seed(*port, kernel::Variant::kOriginal);
  runs::DeviceWorkload w = system_workload();
  w.flows = 100;
  w.duration_s = 0.5;
  runs::DeviceReport rep = runs::run_device(*port, system_setup(), w);
  expect_runtime_matches_table(rep);
  EXPECT_EQ(cnt(rep.counters, r::Counter::kPkts), rep.frames);
}

TEST(DeviceBackends, PcapWorkload) {
  // Two TCP connections (both directions) and one ARP-like frame, 3 ms apart.
  char path[] = "/tmp/fs_device_pcap_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  pcap_t* dead = pcap_open_dead(DLT_EN10MB, 65535);
  pcap_dumper_t* d = pcap_dump_open(dead, path);
  ASSERT_TRUE(d);
  FlowTuple a = make_tuple("192.0.2.10", "198.51.100.20", 40000, 443);
  FlowTuple b = make_tuple("192.0.2.11", "198.51.100.21", 40001, 80);
  std::vector<std::vector<uint8_t>> frames;
  for (int i = 0; i < 20; ++i) {
    frames.push_back(nic::build_frame(i % 2 ? a.reversed() : a));
    frames.push_back(nic::build_frame(b));
  }
  std::vector<uint8_t> arp(60, 0);
  arp[12] = 0x08, arp[13] = 0x06;
  frames.push_back(arp);
  for (size_t i = 0; i < frames.size(); ++i) {
    struct pcap_pkthdr h {};
    h.ts.tv_sec = 1000;
    h.ts.tv_usec = suseconds_t(i * 3000);
    h.caplen = h.len = bpf_u_int32(frames[i].size());
    pcap_dump(reinterpret_cast<u_char*>(d), &h, frames[i].data());
  }
  pcap_dump_close(d);
  pcap_close(dead);
  auto port = device::open_model_port(backend_caps());
  runs::DeviceWorkload w;
  w.pcap = path;
  runs::DeviceReport rep = runs::run_device(*port, seed_setup(kernel::Variant::kPatched), w);
  std::remove(path);
  EXPECT_EQ(rep.frames, frames.size());
  EXPECT_EQ(cnt(rep.counters, r::Counter::kPkts), frames.size());
  EXPECT_EQ(rep.counters[size_t(r::Counter::kParseClass0) + size_t(nic::ParseClass::kNonIp)], 1u);
  // Connection a's app reads on CPU 0, b's on CPU 1; each flow's first frame precedes its
  // recvmsg, so it has no CPU. a's reverse direction steers next (filter 1), then b
  // (filter 2); a's forward direction has the same symmetric hash, so it meets its own
  // active slot in queue 0's table: one gate skip, served by software RFS from then on.
  EXPECT_EQ(rep.runtime.add, 2u);
  EXPECT_EQ(cnt(rep.counters, r::Counter::kGateSkips), 1u);
  expect_runtime_matches_table(rep);
  EXPECT_THROW(
      {
        w.pcap = "/nonexistent.pcap";
        runs::run_device(*port, seed_setup(kernel::Variant::kPatched), w);
      },
      std::runtime_error);
}

TEST(DeviceBackends, CliReportAndJson) {
  if (access(flowsteer_bin().c_str(), X_OK) != 0) GTEST_SKIP() << "no flowsteer binary";
  char path[] = "/tmp/fs_device_json_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(run_cli(std::string("--flows 200 --duration-s 0.5 --udp-percent 50 --json ") + path), 0);
  std::ifstream f(path);
  auto j = nlohmann::json::parse(f);
  std::remove(path);
  uint64_t q = 0;
  for (auto n : j["queue_packets"]) q += n.get<uint64_t>();
  EXPECT_EQ(j["counters"]["PKTS"].get<uint64_t>(), q);
  EXPECT_GT(q, 0u);
  EXPECT_EQ(j["counters"]["STEER_ADDS"], j["runtime"]["add"]);
  EXPECT_EQ(j["filter_count"].get<size_t>(), j["filters"].size());
  EXPECT_EQ(j["kind"], "model");
  std::string err;
  EXPECT_EQ(run_cli("--rps-flow-cnt 100000", &err), 2);  // rounds up to 131072 > 2^15 slots
  EXPECT_NE(last_line(err).find("flowsteer device: rps_flow_cnt 100000 rounds up to 131072"), std::string::npos)
      << err;
  EXPECT_EQ(run_cli("--sock-flow-entries 600000000", &err), 2);
  EXPECT_NE(last_line(err).find("2^29"), std::string::npos) << err;
  EXPECT_EQ(run_cli("--pcap /nonexistent.pcap", &err), 2);
  EXPECT_EQ(run_cli("--backend xrt --xclbin x.xclbin --pcap y.pcap", &err), 2);
#if !defined(FLOWSTEER_HAVE_VERILATOR)
  EXPECT_EQ(run_cli("--backend verilator", &err), 2);
  EXPECT_NE(err.find("without the simulated engine"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), err.size() - 1) << err;  // nothing but the one line
#endif
}

#if defined(FLOWSTEER_HAVE_VERILATOR)

namespace {

void expect_same_counters(const std::vector<uint64_t>& m, const std::vector<uint64_t>& v) {
  ASSERT_EQ(m.size(), v.size());
  for (size_t i = 0; i < m.size(); ++i) {
    if (r::counter_rtl_only(uint32_t(i))) continue;  // the RTL's own
    EXPECT_EQ(m[i], v[i]) << runs::counter_name(uint32_t(i));
  }
}

}  // namespace

// The acceptance scenario: on each backend, one engine instance runs the seed's two flows
// (original, then patched) and then the 1,000-flow system run; everything the runtime and
// the engine report must be identical.
TEST(DeviceBackends, ModelAndVerilatorGiveIdenticalResults) {
  auto model = device::open_model_port(backend_caps());
  sim::EngineSimOptions opt;
  opt.max_wait_clocks = 1'000'000;  // a stuck pipeline fails in seconds (a drain needs ~1e3)
  auto rtl = sim::open_verilator_port(opt);
  for (kernel::Variant v : {kernel::Variant::kOriginal, kernel::Variant::kPatched}) {
    SCOPED_TRACE(v == kernel::Variant::kOriginal ? "seed original" : "seed patched");
    SeedTrace a = run_seed(*model, v), b = run_seed(*rtl, v);
    ASSERT_EQ(a.rounds.size(), b.rounds.size());
    for (size_t k = 0; k < a.rounds.size(); ++k) {
      EXPECT_EQ(a.rounds[k].records, b.rounds[k].records) << "round " << k;
      EXPECT_TRUE(a.rounds[k] == b.rounds[k]) << "round " << k;
    }
    expect_same_counters(a.counters, b.counters);
    EXPECT_EQ(a.filters, b.filters);
  }
  runs::DeviceReport m = runs::run_device(*model, system_setup(), system_workload());
  runs::DeviceReport v = runs::run_device(*rtl, system_setup(), system_workload());
  std::printf("1,000-flow run (%llu frames): model %.2f s, verilator %.2f s wall, %llu register accesses\n",
              (unsigned long long)m.frames, m.wall_s, v.wall_s, (unsigned long long)v.register_accesses);
  EXPECT_EQ(v.kind, "verilator");
  EXPECT_EQ(m.frames, v.frames);
  expect_same_counters(m.counters, v.counters);
  EXPECT_EQ(m.runtime.steer_c, v.runtime.steer_c);
  EXPECT_EQ(m.runtime.steer_l, v.runtime.steer_l);
  EXPECT_EQ(m.runtime.add, v.runtime.add);
  EXPECT_EQ(m.runtime.del, v.runtime.del);
  EXPECT_EQ(m.syncs, v.syncs);
  EXPECT_EQ(m.queue_packets, v.queue_packets);
  EXPECT_EQ(m.cpu_packets, v.cpu_packets);
  EXPECT_EQ(m.filter_count, v.filter_count);
  EXPECT_EQ(m.filters, v.filters);
  EXPECT_EQ(m.sock_writes, v.sock_writes);
  EXPECT_GT(m.runtime.del, 0u);
  EXPECT_EQ(udp_filters(v), 0u);
  expect_runtime_matches_table(v);
}

TEST(DeviceBackends, CliVerilatorBackend) {
  std::string err;
  // --batch 4: the CLI plumbing, not the pipeline (ModelAndVerilator... sends whole batches)
  EXPECT_EQ(run_cli("--backend verilator --flows 50 --duration-s 0.2 --batch 4", &err), 0) << err;
  EXPECT_EQ(run_cli("--backend verilator --cpus 64", &err), 2);  // kStandard has 16 CPUs
  EXPECT_NE(last_line(err).find("nr_cpu_ids 64"), std::string::npos) << err;
}

#endif  // FLOWSTEER_HAVE_VERILATOR
