// The ice aRFS interface over the engine (spec 7.1, 7.10) while traffic runs: NTUPLE off
// and on, a CPU offline and back, an rps_flow_cnt resize, the same-size
// rps_sock_flow_entries write. Each on the golden model and, when built, on the simulated
// RTL; the two must agree on everything, and no filter may be left on a queue or CPU that
// no longer serves it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flowsteer/device/engine_port.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/runs/device_run.h"
#if defined(FLOWSTEER_HAVE_VERILATOR)
#include "verilator_port.h"
#endif

using namespace flowsteer;
namespace r = flowsteer::regs;
using Kind = runs::KnobChange::Kind;

namespace {

engine::EngineCaps caps() {
#if defined(FLOWSTEER_HAVE_VERILATOR)
  static const engine::EngineCaps c = sim::verilator_caps(sim::EngineBuild::kStandard);
  return c;
#else
  engine::EngineCaps c;
  c.lut_log2 = 7;
  c.cpu_log2 = 4;
  c.queue_log2 = 4;
  c.slot_log2 = 10;
  c.flt_bucket_bits = 9;
  c.flt_ways = 4;
  c.sock_log2 = 12;
  c.evt_log2 = 5;
  c.rps_pool_log2 = 8;
  return c;
#endif
}

std::vector<std::unique_ptr<device::EnginePort>> ports() {
  std::vector<std::unique_ptr<device::EnginePort>> p;
  p.push_back(device::open_model_port(caps()));
#if defined(FLOWSTEER_HAVE_VERILATOR)
  sim::EngineSimOptions opt;
  opt.max_wait_clocks = 1'000'000;
  p.push_back(sim::open_verilator_port(opt));
#endif
  return p;
}

driver::EngineSetup setup(kernel::Variant v = kernel::Variant::kPatched) {
  driver::EngineSetup s;
  s.nr_cpu_ids = 16;
  s.num_rx_queues = 16;
  s.variant = v;
  s.lut_log2 = std::min(7u, caps().lut_log2);
  s.rps_flow_cnt = 64;
  s.rps_sock_flow_entries = 0;  // 16 x 64
  return s;
}

runs::DeviceWorkload workload(std::vector<runs::KnobChange> changes, double traffic_s,
                              double duration_s) {
  runs::DeviceWorkload w;
  w.flows = 300;
  w.udp_percent = 10;
  w.pkt_interval_ms = 10;
  w.traffic_s = traffic_s;
  w.duration_s = duration_s;
  w.service_period_ms = 100;
  w.seed = 5;
  w.changes = std::move(changes);
  return w;
}

// Runs on every backend; checks they agree; returns the model's report.
runs::DeviceReport run_all(const driver::EngineSetup& s, const runs::DeviceWorkload& w) {
  std::vector<runs::DeviceReport> reps;
  for (auto& p : ports()) reps.push_back(runs::run_device(*p, s, w));
  for (size_t i = 1; i < reps.size(); ++i) {
    EXPECT_EQ(runs::first_difference(reps[0], reps[i]), "") << reps[i].kind;
    EXPECT_EQ(reps[0].filters, reps[i].filters) << reps[i].kind;
  }
  return reps[0];
}

// The runtime's list is the engine's table, entry for entry.
void expect_list_is_table(const runs::DeviceReport& rep) {
  EXPECT_EQ(rep.filter_count, rep.runtime_entries);
  for (const auto& f : rep.filters) {
    EXPECT_TRUE(f.found) << to_string(f.tuple);
    EXPECT_EQ(f.engine_id, f.id) << to_string(f.tuple);
    EXPECT_EQ(f.engine_queue, f.queue) << to_string(f.tuple);
  }
  int32_t active = 0;
  size_t listed_active = 0;
  for (int t = 0; t < driver::kFlowTypeCount; ++t) active += rep.active_fltr_cnt[t];
  for (const auto& f : rep.filters) listed_active += f.state == driver::FltrState::kActive;
  EXPECT_EQ(size_t(active), listed_active);
}

size_t on_queue(const runs::DeviceReport& rep, uint16_t q) {
  size_t n = 0;
  for (const auto& f : rep.filters) n += f.queue == q;
  return n;
}

// `flowsteer device ARGS`: exit status; stdout and stderr.
int device_cli(const std::string& args, std::string& out, std::string& err) {
  char o[] = "/tmp/fs_ice_out_XXXXXX", e[] = "/tmp/fs_ice_err_XXXXXX";
  int fo = mkstemp(o), fe = mkstemp(e);
  if (fo < 0 || fe < 0) return -1;
  close(fo);
  close(fe);
  int rc =
      std::system((std::string(FLOWSTEER_BIN) + " device " + args + " >" + o + " 2>" + e).c_str());
  auto slurp = [](const char* p) {
    std::ifstream f(p);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  };
  out = slurp(o);
  err = slurp(e);
  std::remove(o);
  std::remove(e);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

// ethtool -K ntuple off: filters flushed, aRFS inactive, no steering; on: empty lists over
// an empty table, then steering starts again.
TEST(IceRuntime, NtupleOffClearsAndStopsOnRestarts) {
  const auto rep = run_all(
      setup(), workload({{200, Kind::kNtuple, 0, 0, {}}, {400, Kind::kNtuple, 0, 1, {}}}, 0.7, 0.8));
  ASSERT_EQ(rep.changes.size(), 2u);
  const auto &off = rep.changes[0], &on = rep.changes[1];
  EXPECT_FALSE(off.arfs_active);
  EXPECT_EQ(off.runtime_entries, 0u);
  EXPECT_EQ(off.filter_count, 0u);
  EXPECT_GT(off.steer_c, 0u);
  EXPECT_TRUE(on.arfs_active);
  EXPECT_EQ(on.runtime_entries, 0u);
  EXPECT_EQ(on.filter_count, 0u);
  EXPECT_EQ(on.steer_c, off.steer_c);  // nothing steered while off
  EXPECT_TRUE(rep.arfs_active);
  EXPECT_GT(rep.runtime.steer_c, on.steer_c);  // steering resumed
  // only for flows that change CPU: the others' slots already name their CPU (spec 7.10)
  EXPECT_GT(rep.filters.size(), 0u);
  expect_list_is_table(rep);
}

// CPU 3 offline: every filter on rx-3 (the queue only CPU 3 maps to) is deleted at once,
// its apps move and their flows are steered to their new CPUs' queues; none comes back to
// rx-3 while CPU 3 is away.
TEST(IceRuntime, CpuOfflineRemovesItsFiltersAndBackRestoresTheQueue) {
  const auto away = run_all(setup(), workload({{200, Kind::kCpuOnline, 3, 0, {}}}, 0.45, 0.5));
  ASSERT_EQ(away.changes.size(), 1u);
  EXPECT_GT(away.changes[0].removed, 0u);
  EXPECT_EQ(on_queue(away, 3), 0u);
  EXPECT_GT(away.filters.size(), 50u);
  expect_list_is_table(away);
  bool listed_offline = false;
  for (const auto& [path, value] : away.knobs)
    if (path == "/sys/devices/system/cpu/cpu3/online") listed_offline = value == "0";
  EXPECT_TRUE(listed_offline);

  const auto back = run_all(
      setup(), workload({{200, Kind::kCpuOnline, 3, 0, {}}, {350, Kind::kCpuOnline, 3, 1, {}}}, 0.6, 0.7));
  ASSERT_EQ(back.changes.size(), 2u);
  EXPECT_EQ(back.changes[1].removed, 0u);
  for (const auto& f : back.filters) EXPECT_LT(f.queue, 16u);
  expect_list_is_table(back);
}

// A new slot table on rx-0..3 (rps_flow_cnt 64 -> 128) and none on rx-5: after the traffic
// stops, the next syncs expire every filter on those queues (spec 8 case 9); the other
// queues keep theirs.
TEST(IceRuntime, RpsFlowCntResizeExpiresTheQueuesFilters) {
  std::vector<runs::KnobChange> ch;
  for (uint32_t q = 0; q < 4; ++q) ch.push_back({300, Kind::kRpsFlowCnt, q, 128, {}});
  ch.push_back({300, Kind::kRpsFlowCnt, 5, 0, {}});
  const auto rep = run_all(setup(), workload(ch, 0.3, 0.6));
  for (uint16_t q : {0, 1, 2, 3, 5}) EXPECT_EQ(on_queue(rep, q), 0u) << "rx-" << q;
  EXPECT_GT(rep.filters.size(), 50u);
  expect_list_is_table(rep);
  bool resized = false, removed = false;
  for (const auto& [path, value] : rep.knobs) {
    if (path == "/sys/class/net/<dev>/queues/rx-2/rps_flow_cnt") resized = value == "128";
    if (path == "/sys/class/net/<dev>/queues/rx-5/rps_flow_cnt") removed = value == "0";
  }
  EXPECT_TRUE(resized);
  EXPECT_TRUE(removed);
}

// rps_cpus live, without RFS tables: from the write on, every frame goes to a CPU of its
// queue's map (spec 2.2 G6), only CPUs online at the write (CPU 6 is offline), and the
// knob reads back the map; CPU 6 back online does not join it.
TEST(IceRuntime, RpsCpusWrittenLiveMapsOnlyOnlineCpus) {
  driver::EngineSetup s = setup();
  s.rps_flow_cnt = 0;  // no slot tables, no sock table: RPS only
  std::vector<runs::KnobChange> ch = {{0, Kind::kCpuOnline, 6, 0, {}}};
  for (uint32_t q = 0; q < 16; ++q) ch.push_back({0, Kind::kRpsCpus, q, 0, {0x00F0}});
  ch.push_back({200, Kind::kCpuOnline, 6, 1, {}});
  const auto rep = run_all(s, workload(ch, 0.3, 0.3));
  uint64_t mapped = 0;
  for (uint32_t c = 0; c < 16; ++c) {
    if (c == 4 || c == 5 || c == 7)
      mapped += rep.cpu_packets[c];
    else
      EXPECT_EQ(rep.cpu_packets[c], 0u) << "cpu" << c;
  }
  EXPECT_GT(mapped, 1000u);
  EXPECT_EQ(rep.runtime.steer_c, 0u);  // no RFS: nothing to steer
  std::string map3;
  for (const auto& [path, value] : rep.knobs)
    if (path == "/sys/class/net/<dev>/queues/rx-3/rps_cpus") map3 = value;
  EXPECT_EQ(map3, "00b0");  // %*pb over nr_cpu_ids = 16 bits
}

// The engine reset behind the runtime's back while traffic runs (after an rps_flow_cnt
// change and with CPU 5 offline): detected before the next millisecond's frames by OWNER,
// the knobs re-applied, the tables re-created, steering resumes; no filter of before the
// reset is listed, none points at a queue that no longer serves it.
TEST(IceRuntime, EngineResetMidTrafficRebuilds) {
  std::vector<runs::KnobChange> ch = {{100, Kind::kRpsFlowCnt, 4, 256, {}},
                                      {150, Kind::kCpuOnline, 5, 0, {}},
                                      {300, Kind::kEngineReset, 0, 0, {}}};
  const auto rep = run_all(setup(), workload(ch, 0.55, 0.6));
  EXPECT_EQ(rep.engine_resets, 1u);
  ASSERT_EQ(rep.changes.size(), 3u);
  EXPECT_GT(rep.changes[1].runtime_entries, 50u);  // before the reset
  EXPECT_GT(rep.filters.size(), 50u);              // steering resumed after it
  EXPECT_EQ(on_queue(rep, 5), 0u);
  expect_list_is_table(rep);
  for (const auto& f : rep.filters) EXPECT_NE(f.state, driver::FltrState::kToDel);
  std::string rx4, cpu5;
  for (const auto& [path, value] : rep.knobs) {
    if (path == "/sys/class/net/<dev>/queues/rx-4/rps_flow_cnt") rx4 = value;
    if (path == "/sys/devices/system/cpu/cpu5/online") cpu5 = value;
  }
  EXPECT_EQ(rx4, "256");  // re-applied
  EXPECT_EQ(cpu5, "0");
  uint64_t frames = 0, per_queue = 0;
  for (auto n : rep.queue_packets) per_queue += n;
  frames = rep.frames;
  EXPECT_EQ(per_queue, frames);
}

// The reset on the model alone with a longer run: the engine's counters restart with it,
// so the runtime's Add after the reset equals the engine's STEER_ADDS.
TEST(IceRuntime, EngineResetCountersRestart) {
  auto port = device::open_model_port(caps());
  const auto rep =
      runs::run_device(*port, setup(), workload({{200, Kind::kEngineReset, 0, 0, {}}}, 0.4, 0.5));
  EXPECT_EQ(rep.engine_resets, 1u);
  EXPECT_GT(rep.runtime.add, rep.counters[size_t(r::Counter::kSteerAdds)]);  // adds of before, too
  EXPECT_GT(rep.counters[size_t(r::Counter::kSteerAdds)], 0u);
  expect_list_is_table(rep);
}

// rps_sock_flow_sysctl resets every entry on every non-zero write, the same size included
// (spec 1.1): read back through SOCK_CMD READ on each backend.
TEST(IceRuntime, SockFlowEntriesSameSizeWriteResetsTheTable) {
  for (auto& p : ports()) {
    SCOPED_TRACE(p->kind());
    driver::EngineDriver drv(p->bus());
    drv.configure(setup());
    const uint32_t h = 0x5A5A1234, index = h & uint32_t(drv.rps_sock_flow_entries() - 1);
    auto read = [&] {
      p->bus().write32(r::SOCK_INDEX::kAddr, index);
      p->bus().write32(r::SOCK_CMD::kAddr, r::SOCK_CMD::READ.put(1));
      return p->bus().read32(r::SOCK_VALUE::kAddr);
    };
    ASSERT_TRUE(drv.rps_record_sock_flow(h, 7));
    EXPECT_EQ(read(), (h & ~drv.rps_cpu_mask()) | 7);
    EXPECT_EQ(drv.set_rps_sock_flow_entries(drv.rps_sock_flow_entries()), 1024u);  // same size
    EXPECT_EQ(read(), kernel::RPS_NO_CPU);
    EXPECT_TRUE(drv.rps_record_sock_flow(h, 7));  // the driver knows the entry is gone
    EXPECT_EQ(read(), (h & ~drv.rps_cpu_mask()) | 7);
  }
}

// The listings: ethtool -n filters, ethtool -S stats, knobs as paths; --json of each; a bad
// --change is one line and exit 2.
TEST(IceRuntime, CliListings) {
  if (access(FLOWSTEER_BIN, X_OK) != 0) GTEST_SKIP() << "no flowsteer binary";
  const std::string base = "--flows 100 --duration-s 0.4 --service-period-ms 100 ";
  std::string out, err;
  ASSERT_EQ(device_cli(base + "--show filters", out, err), 0) << err;
  EXPECT_NE(out.find("16 RX rings available"), std::string::npos) << out;
  EXPECT_NE(out.find("Filter: "), std::string::npos) << out;
  EXPECT_NE(out.find("\tRule Type: TCP over IPv4\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\tAction: Direct to queue "), std::string::npos) << out;
  ASSERT_EQ(device_cli(base + "--show stats", out, err), 0) << err;
  EXPECT_NE(out.find("NIC statistics:\n     rx_queue_0_packets: "), std::string::npos) << out;
  EXPECT_NE(out.find("     arfs_active_tcpv4: "), std::string::npos) << out;
  ASSERT_EQ(device_cli(
                base + "--show knobs --change cpu2/online=0@200 --change rx-1/rps_flow_cnt=100@100",
                out, err),
            0)
      << err;
  EXPECT_NE(out.find("/sys/devices/system/cpu/cpu2/online = 0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("/sys/class/net/<dev>/queues/rx-1/rps_flow_cnt = 128\n"), std::string::npos)
      << out;  // reads back the size
  for (const char* what : {"filters", "stats", "knobs"}) {
    char path[] = "/tmp/fs_ice_json_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    ASSERT_EQ(device_cli(base + "--show " + what + " --json " + path, out, err), 0) << err;
    std::ifstream f(path);
    auto j = nlohmann::json::parse(f);
    std::remove(path);
    ASSERT_TRUE(j.contains(what)) << what;
    if (std::string(what) == "filters") {
      ASSERT_FALSE(j["filters"].empty());
      EXPECT_TRUE(j["filters"][0].contains("action_queue"));
      EXPECT_EQ(j["filters"][0]["flow_type"], "TCP over IPv4");
    }
  }
  for (const char* bad :
       {"--change cpu99/online=0@10", "--change ntuple=maybe@10", "--change foo=1@10",
        "--change rx-99/rps_flow_cnt=16@10", "--change ntuple=off", "--show everything",
        "--change rx-1/rps_cpus=xyz@10"}) {
    EXPECT_EQ(device_cli(base + bad, out, err), 2) << bad;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << bad << ": " << err;
  }
}
