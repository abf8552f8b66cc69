// The named traffic mixes of sim/verilator/mix.h on the standard build:
// * ThroughputMix: fixed stimulus, no gaps, no back-pressure. Clock counts are deterministic,
//   so each mix asserts a floor on packets per clock (beats per clock for multi-beat frames),
//   plain and with one register transaction per 16 packets. Every record and register answer
//   is also checked against the golden model.
// * MixConform: the same mixes with random seeds, idle gaps and back-pressure, register
//   transactions interleaved, 0 mismatches.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "flowsteer/flowsteer_regs.h"
#include "mix.h"
#include "test_util.h"

namespace flowsteer::sim {
namespace {

struct MixCase {
  std::string mix;
  uint32_t txn_every;
  double floor;  // packets per clock (beats per clock for multibeat) the RTL must reach
};

std::string describe(const MixCase& c) { return c.mix + (c.txn_every ? "_txn" + std::to_string(c.txn_every) : ""); }
std::string case_name(const ::testing::TestParamInfo<MixCase>& info) { return describe(info.param); }
[[maybe_unused]] void PrintTo(const MixCase& c, std::ostream* os) { *os << describe(c); }

std::string rerun_line() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return "FS_ENGINE_TRACE=mix.fst " + ::testing::internal::GetArgvs()[0] + " --gtest_filter='" +
         info->test_suite_name() + "." + info->name() + "'";
}

class ThroughputMix : public ::testing::TestWithParam<MixCase> {};

TEST_P(ThroughputMix, MeetsItsFloorAndMatchesModel) {
  const MixCase& c = GetParam();
  MixOptions o;
  o.mix = c.mix;
  o.seed = 12;
  o.packets = 6000;
  o.txn_every = c.txn_every;
  o.rerun = rerun_line();
  const MixResult res = run_mix(o);
  ASSERT_FALSE(res.mismatch) << res.mismatch_report;
  EXPECT_EQ(res.packets, o.packets);
  std::printf("%s%s", mix_table_header().c_str(), mix_table_row(describe(c), res).c_str());
  const PipeProbe& p = res.probe;
  uint64_t lost = 0;
  for (uint64_t l : p.lost) lost += l;
  EXPECT_EQ(p.packets + lost, p.clocks) << "the probe must classify every clock of its window";
  const bool beats = find_mix(c.mix)->multi_beat;
  const double rate = beats ? p.beats_per_clock() : p.packets_per_clock();
  EXPECT_GE(rate, c.floor) << (beats ? "beats" : "packets") << " per clock";
  // the RTL's stall counters (read at the end, warm-up included) count at least the clocks the
  // probe's window lost to their cause; move64 replays (a same-flow packet behind each steer),
  // steer with host work fills the forwarding window (distinct flows, so no replay; without
  // host work its inserts, one per 4 clocks since the driver takes a call in the clock its
  // posted INSERT is answered, no longer fill it)
  const auto& rc = res.coverage.rtl_counters;
  ASSERT_EQ(rc.count("REPLAY_STALLS") + rc.count("FWD_WINDOW_STALLS") + rc.count("HAZARD_STALLS") +
                rc.count("DRV_HOLD_STALLS"),
            4u);
  EXPECT_GE(rc.at("REPLAY_STALLS"), p.lost[size_t(GateLoss::kReplay)]);
  EXPECT_GE(rc.at("FWD_WINDOW_STALLS"), p.lost[size_t(GateLoss::kFwdWindow)]);
  EXPECT_GE(rc.at("HAZARD_STALLS"), p.lost[size_t(GateLoss::kFwdScan)]);
  // a call held for an event-FIFO transaction ordered before it: every such clock since the
  // probe started (the window's share of them is in its transaction cause)
  EXPECT_GE(rc.at("DRV_HOLD_STALLS"), p.drv_held);
  if (c.mix == "move64") {
    EXPECT_GT(rc.at("REPLAY_STALLS"), 0u);
    // each move drains the old CPU exactly (BACKLOG_DRAIN: head == tail with the wire
    // running), so the next packet steers
    EXPECT_GT(res.moves, 0u);
    EXPECT_EQ(res.steers, res.moves) << "a move without its steer (or a steer without a move)";
  }
  if (c.mix == "steer") {
    if (c.txn_every) {
      EXPECT_GT(rc.at("DRV_HOLD_STALLS"), 0u) << "no driver call waited for an EVT_POP ordered before it";
      EXPECT_GT(rc.at("FWD_WINDOW_STALLS"), 0u);
    }
    // the calls after the event FIFO filled: refused as the driver announced, one clock each
    EXPECT_GT(res.probe.drv_refused, 1000u) << "calls refused from the driver's registers";
    // its inserts are fast (a free way in a bucket no change touched since the lookup, an id
    // above every stored one): without host work the event FIFO's 32, all of them
    if (c.txn_every) {
      EXPECT_GT(rc.at("FAST_ADDS"), 32u);
    } else {
      EXPECT_EQ(rc.at("FAST_ADDS"), 32u) << "an insert of the steer mix took the slow path";
    }
  }
  RecordProperty("rate", std::to_string(rate));
}

// Floors: the measured rate of this fixed stimulus, rounded down (docs/engine-top.md
// "Throughput by traffic mix" has the table and the targets, 0.99 and 0.99 x (1 - 2 x txn rate)).
std::vector<MixCase> throughput_cases() {
  return {
      {"flow1", 0, 0.99},     {"rand4", 0, 0.99},     {"rand16", 0, 0.99},  {"rand64", 0, 0.99},
      {"rr64", 0, 0.99},      {"uni1024", 0, 0.99},   {"zipf1000", 0, 0.99}, {"move64", 0, 0.92},
      {"steer", 0, 0.98},     {"multibeat", 0, 0.99},
      {"flow1", 16, 0.97},    {"rand4", 16, 0.97},    {"rand16", 16, 0.97}, {"rand64", 16, 0.97},
      {"rr64", 16, 0.97},     {"uni1024", 16, 0.96},  {"zipf1000", 16, 0.96}, {"move64", 16, 0.92},
      {"steer", 16, 0.95},    {"multibeat", 16, 0.99},
  };
}

INSTANTIATE_TEST_SUITE_P(Mix, ThroughputMix, ::testing::ValuesIn(throughput_cases()), case_name);

class MixConform : public ::testing::TestWithParam<std::string> {};

TEST_P(MixConform, MatchesModelWithGapsBackPressureAndTransactions) {
  MixOptions o;
  o.mix = GetParam();
  o.seed = test::test_seed(300 + uint32_t(std::hash<std::string>{}(o.mix) % 1000));
  o.packets = 5000;
  o.txn_every = 8 + uint32_t(o.seed % 16);
  o.frame_gap = 0.05 + 0.1 * double(o.seed % 3);
  o.rec_ready = 0.6 + 0.15 * double(o.seed % 3);
  o.rerun = rerun_line() + " (FLOWSTEER_TEST_SEED=" + std::to_string(o.seed) + ")";
  const MixResult res = run_mix(o);
  ASSERT_FALSE(res.mismatch) << res.mismatch_report;
  EXPECT_EQ(res.packets, o.packets);
  // coverage of fs_flt_forward's patch path: packets behind a steer of their own flow that
  // had looked the table up before the steer changed it
  // and of the flush: packets of the moving flow behind its steer, presented again
  if (o.mix == "move64") {
    EXPECT_GT(res.probe.load_patches, 0u) << "no packet took a forwarded filter change as M loaded it";
    EXPECT_GT(res.probe.flushes, 0u) << "no steer flushed a same-key packet from the RFS core";
  }
  // the steer driver decides from the caller's forwarded lookup (lookups are on in every mix)
  if (o.mix == "move64" || o.mix == "steer") {
    EXPECT_GT(res.probe.drv_given, 0u) << "no driver call took its caller's lookup";
    EXPECT_EQ(res.probe.drv_looked_up, 0u) << "a driver call looked its tuple up with lookups on";
  }
  if (o.mix == "steer") {
    EXPECT_GT(res.probe.drv_refused, 0u) << "no call was refused as the driver announced it";
  }
  // the host's SOCK_CMD and HEAD_ADD run at the RFS core input with packets in flight
  EXPECT_GT(res.probe.placed_transactions, 0u) << "no transaction was ordered at the RFS core";
  // the EVT_POPs of move64 and steer are ordered at the driver's calls, behind packets in
  // flight; in steer the calls after one wait for it at D (drv_hold)
  if (o.mix == "move64" || o.mix == "steer") {
    EXPECT_GT(res.probe.drv_transactions, 0u) << "no EVT_POP was ordered behind packets in flight";
  }
  if (o.mix == "steer") {
    EXPECT_GT(res.probe.drv_held, 0u) << "no driver call waited for an EVT_POP ordered before it";
  }
  // the RTL counts those waits itself (DRV_HOLD_STALLS, from reset and read after the last
  // record; the probe from the end of the warm-up), so on steer it is above 0 too
  ASSERT_EQ(res.coverage.rtl_counters.count("DRV_HOLD_STALLS"), 1u);
  EXPECT_GE(res.coverage.rtl_counters.at("DRV_HOLD_STALLS"), res.probe.drv_held);
  // sock-table writes taken with packets ahead still in the RFS core (fs_rfs_core's buffer)
  EXPECT_GT(res.probe.sock_early, 0u) << "no sock-table write was taken with packets ahead in A-C";
  // HEAD_ADDs (and move64's BACKLOG_DRAINs) taken likewise (the packets after them wait in C
  // until they have run); the steer mix's rotation pops events instead
  if (o.mix != "steer") {
    EXPECT_GT(res.probe.head_add_early, 0u) << "no HEAD_ADD was taken with packets ahead in A-C";
  }
  RecordProperty("load_patches", std::to_string(res.probe.load_patches));
  RecordProperty("filter_patches", std::to_string(res.probe.filter_patches));
  RecordProperty("flushes", std::to_string(res.probe.flushes));
  RecordProperty("drv_given", std::to_string(res.probe.drv_given));
  RecordProperty("drv_held", std::to_string(res.probe.drv_held));
  RecordProperty("sock_early", std::to_string(res.probe.sock_early));
  RecordProperty("head_add_early", std::to_string(res.probe.head_add_early));
  RecordProperty("sock_forwards", std::to_string(res.probe.sock_forwards));
  RecordProperty("sock_replays", std::to_string(res.probe.sock_replays));
  RecordProperty("head_add_replays", std::to_string(res.probe.head_add_replays));
  std::printf("sock-table buffer: %lu early writes, %lu forwards, %lu flushes while waiting; "
              "%lu early HEAD_ADDs, %lu flushes while one waited\n",
              (unsigned long)res.probe.sock_early, (unsigned long)res.probe.sock_forwards,
              (unsigned long)res.probe.sock_replays, (unsigned long)res.probe.head_add_early,
              (unsigned long)res.probe.head_add_replays);
}

std::vector<std::string> mix_names() {
  std::vector<std::string> v;
  for (const MixSpec& s : mix_specs()) v.push_back(s.name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Mix, MixConform, ::testing::ValuesIn(mix_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// `flowsteer conform --mix NAME --throughput --json FILE`: the file holds the table's row with
// the probe's counters, and they add up (every clock of the window is a packet or a cause)
TEST(MixCli, JsonRowAddsUp) {
  const std::string path = "/tmp/flowsteer_mix_json_" + std::to_string(getpid()) + ".json";
  std::string out;
  const std::string cmd = std::string(FLOWSTEER_BIN) +
                          " conform --mix move64 --packets 600 --seed 12 --throughput --json " + path;
  ASSERT_EQ(flowsteer::test::run_command(cmd + " 2>&1", out), 0) << out;
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "no " << path;
  const nlohmann::json j = nlohmann::json::parse(in);
  std::remove(path.c_str());
  ASSERT_EQ(j.at("mixes").size(), 1u);
  const auto& r = j.at("mixes").at(0);
  EXPECT_EQ(r.at("mix"), "move64");
  EXPECT_EQ(r.at("packets").get<uint64_t>(), 600u);
  EXPECT_EQ(r.at("mismatches").get<int>(), 0);
  uint64_t lost = 0;
  for (const auto& [cause, n] : r.at("lost_clocks").items()) lost += n.get<uint64_t>();
  EXPECT_EQ(r.at("packets").get<uint64_t>() + lost, r.at("clocks").get<uint64_t>());
  EXPECT_DOUBLE_EQ(r.at("packets_per_clock").get<double>(),
                   600.0 / double(r.at("clocks").get<uint64_t>()));
  EXPECT_GT(r.at("moves").get<uint64_t>(), 0u);
  EXPECT_GT(r.at("probe").at("drv_transactions").get<uint64_t>(), 0u);
  // and the RTL's stall counters, each named as in the register map
  size_t rtl_only = 0;
  for (uint32_t i = 0; i < regs::CNT_LO::kCount; ++i) rtl_only += regs::counter_rtl_only(i);
  EXPECT_EQ(r.at("rtl_counters").size(), rtl_only);
  EXPECT_GT(r.at("rtl_counters").at("REPLAY_STALLS").get<uint64_t>(), 0u);
  EXPECT_GE(r.at("rtl_counters").at("DRV_HOLD_STALLS").get<uint64_t>(), r.at("probe").at("drv_held").get<uint64_t>());
  // the table on stdout shows the same rate
  char rate[16];
  std::snprintf(rate, sizeof rate, "%.3f", r.at("packets_per_clock").get<double>());
  const size_t row = out.find("\nmove64 ");
  ASSERT_NE(row, std::string::npos) << out;
  const std::string line = out.substr(row + 1, out.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(rate), std::string::npos) << line;
}

}  // namespace
}  // namespace flowsteer::sim
