// Scenario traces: the runner API and the `flowsteer scenario` binary reject
// malformed traces cleanly - exit 2 and a message naming the line number and the field - and
// accept the number forms and the resize the contract allows.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flowsteer/runs/scenario.h"

namespace {

using flowsteer::runs::ModelBackend;
using flowsteer::runs::ScenarioError;
using flowsteer::runs::ScenarioRunner;

const char* kConfig =
    R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256})";
const char* kFlow =
    R"("flow":{"family":4,"proto":"tcp","src":"10.0.0.1","dst":"10.0.1.1","sport":40001,"dport":5001})";

std::string packet(const std::string& rxq, const std::string& hash) {
  return R"({"op":"packet","rxq":)" + rxq + R"(,"hash":)" + hash + "," + kFlow + "}";
}

// Runs the lines through a fresh runner; returns the error, or fails if there was none.
ScenarioError run_error(const std::vector<std::string>& lines) {
  ModelBackend backend;
  ScenarioRunner runner(backend);
  try {
    for (const auto& l : lines) runner.feed_line(l);
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "trace was accepted";
  return ScenarioError(0, "", "none");
}

void expect_error(const std::vector<std::string>& lines, size_t line, const std::string& field) {
  ScenarioError e = run_error(lines);
  EXPECT_EQ(e.line(), line) << e.what();
  EXPECT_EQ(e.field(), field) << e.what();
  std::string what = e.what();
  EXPECT_EQ(what.rfind("line " + std::to_string(line) + ": ", 0), 0u) << what;
  if (!field.empty()) {
    EXPECT_NE(what.find("field '" + field + "'"), std::string::npos) << what;
  }
}

TEST(Scenario, BadJsonNamesTheLine) {
  expect_error({kConfig, "", R"({"op":"sync")"}, 3, "");
  ScenarioError e = run_error({kConfig, "not json"});
  EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  expect_error({kConfig, "[1,2]"}, 2, "");  // JSON, but not an event object
}

TEST(Scenario, UnknownOp) {
  expect_error({kConfig, R"({"op":"teleport"})"}, 2, "op");
  expect_error({kConfig, R"({"op":7})"}, 2, "op");
  expect_error({kConfig, R"({"hash":1})"}, 2, "op");
}

TEST(Scenario, MissingField) {
  expect_error({R"({"op":"config","queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256})"},
               1, "cpus");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"rps_flow_cnt":16,"sock_flow_entries":256})"}, 1,
               "variant");
  expect_error({kConfig, R"({"op":"packet","rxq":1,)" + std::string(kFlow) + "}"}, 2, "hash");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5})"}, 2, "flow");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"tcp","src":"10.0.0.1","dst":"10.0.0.2","sport":1}})"},
               2, "flow.dport");
  expect_error({kConfig, R"({"op":"record","hash":5})"}, 2, "cpu");
  expect_error({kConfig, R"({"op":"head_add","cpu":1})"}, 2, "n");
  expect_error({kConfig, R"({"op":"online","cpu":1})"}, 2, "state");
  expect_error({kConfig, R"({"op":"time"})"}, 2, "advance_ms");
}

TEST(Scenario, UnknownField) {
  expect_error({kConfig, R"({"op":"sync","now":1})"}, 2, "now");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_count":16})"}, 1,
               "rps_flow_count");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"tcp","src":"10.0.0.1","dst":"10.0.0.2","sport":1,"dport":2,"vlan":3}})"},
               2, "flow.vlan");
}

TEST(Scenario, WrongType) {
  expect_error({kConfig, R"({"op":"record","hash":5,"cpu":"three"})"}, 2, "cpu");
  expect_error({kConfig, R"({"op":"record","hash":5,"cpu":1.5})"}, 2, "cpu");
  expect_error({kConfig, R"({"op":"record","hash":true,"cpu":1})"}, 2, "hash");
  expect_error({kConfig, R"({"op":"online","cpu":1,"state":1})"}, 2, "state");
  expect_error({kConfig, R"({"op":"packet","rxq":"q1","hash":5,)" + std::string(kFlow) + "}"}, 2, "rxq");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":[]})"}, 2, "flow");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"tcp","src":167772161,"dst":"10.0.0.2","sport":1,"dport":2}})"},
               2, "flow.src");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"sctp","src":"10.0.0.1","dst":"10.0.0.2"}})"},
               2, "flow.proto");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"tcp","src":"2001:db8::1","dst":"10.0.0.2","sport":1,"dport":2}})"},
               2, "flow.src");
  expect_error({kConfig, packet("1", "5").substr(0, packet("1", "5").size() - 1) + R"(,"encap":"yes"})"},
               2, "encap");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"new","rps_flow_cnt":16,"sock_flow_entries":256})"},
               1, "variant");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":[16,false,16,16],"sock_flow_entries":256})"},
               1, "rps_flow_cnt[1]");
}

TEST(Scenario, NumberOutOfRange) {
  expect_error({kConfig, R"({"op":"record","hash":"0x100000000","cpu":1})"}, 2, "hash");
  expect_error({kConfig, R"({"op":"record","hash":4294967296,"cpu":1})"}, 2, "hash");
  expect_error({kConfig, R"({"op":"record","hash":-1,"cpu":1})"}, 2, "hash");
  expect_error({kConfig, R"({"op":"record","hash":"-1","cpu":1})"}, 2, "hash");
  expect_error({kConfig, R"({"op":"record","hash":1,"cpu":4})"}, 2, "cpu");  // config has 4 cpus
  expect_error({kConfig, R"({"op":"drain","cpu":"0x4"})"}, 2, "cpu");
  expect_error({kConfig, R"({"op":"head_add","cpu":0,"n":"0x100000000"})"}, 2, "n");
  expect_error({kConfig, packet("65535", "1")}, 2, "rxq");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":4,"proto":"udp","src":"10.0.0.1","dst":"10.0.0.2","sport":65536,"dport":2}})"},
               2, "flow.sport");
  expect_error({kConfig, R"({"op":"packet","rxq":1,"hash":5,"flow":{"family":5,"proto":"udp","src":"10.0.0.1","dst":"10.0.0.2","sport":1,"dport":2}})"},
               2, "flow.family");
  expect_error({R"({"op":"config","cpus":0,"queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256})"},
               1, "cpus");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":"0x8000000","sock_flow_entries":256})"},
               1, "rps_flow_cnt");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":536870913})"},
               1, "sock_flow_entries");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256,"rmap":[0,1,2,4]})"},
               1, "rmap[3]");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":16,"sock_flow_entries":256,"rmap":[0,1,2]})"},
               1, "rmap");
  expect_error({R"({"op":"config","cpus":4,"queues":4,"variant":"patched","rps_flow_cnt":[16,16],"sock_flow_entries":256})"},
               1, "rps_flow_cnt");
  expect_error({kConfig, R"({"op":"time","advance_ms":"0xFFFFFFFFFFFFFFFF"})",
                R"({"op":"time","advance_ms":1})"},
               3, "advance_ms");
}

TEST(Scenario, ConfigMustComeFirst) {
  expect_error({"# a comment", "", R"({"op":"record","hash":1,"cpu":0})", kConfig}, 3, "op");
  expect_error({R"({"op":"sync"})"}, 1, "op");
}

TEST(Scenario, LaterConfigMayOnlyResize) {
  expect_error({kConfig, R"({"op":"config","variant":"original","rps_flow_cnt":16})"}, 2, "variant");
  expect_error({kConfig, R"({"op":"config","cpus":8,"rps_flow_cnt":16})"}, 2, "cpus");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":16,"sock_flow_entries":512})"}, 2,
               "sock_flow_entries");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":16,"ntuple":false})"}, 2, "ntuple");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":16,"rmap":[1,1,1,1]})"}, 2, "rmap");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":16,"slot":"mask"})"}, 2, "slot");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":16,"match":"flow_id"})"}, 2, "match");
  expect_error({kConfig, R"({"op":"config","cpus":4})"}, 2, "rps_flow_cnt");
  expect_error({kConfig, R"({"op":"config","rps_flow_cnt":[16,16,32]})"}, 2, "rps_flow_cnt");
}

TEST(Scenario, ResizeWritesOnlyChangedQueues) {
  ModelBackend backend;
  ScenarioRunner runner(backend);
  runner.feed_line(kConfig);
  runner.feed_line(R"({"op":"record","hash":"0x11111111","cpu":3})");
  // Steered to queue 3, slot 7 (spec 8 case 9 setup): queue 3's slot holds the filter.
  auto out = runner.feed_line(packet("1", "\"0x11111111\""));
  ASSERT_TRUE(out);
  EXPECT_EQ((*out)["steer"]["rc"], 1);
  const auto* t3 = backend.kernel()->flow_table(3);
  ASSERT_NE(t3, nullptr);
  EXPECT_EQ(t3->flows[7].filter, 1);
  // Same counts, every field repeated: nothing is written, the slot survives.
  runner.feed_line(R"({"op":"config","cpus":4,"queues":4,"variant":"patched","slot":"log","match":"tuple","rps_flow_cnt":[16,16,16,16],"sock_flow_entries":256,"rmap":[0,1,2,3],"ntuple":true})");
  EXPECT_EQ(backend.kernel()->flow_table(3)->flows[7].filter, 1);
  // Queue 3 rewritten with the same rounded size (15 -> 16 slots): a full reset (spec 1.1).
  runner.feed_line(R"({"op":"config","rps_flow_cnt":[16,16,16,15]})");
  EXPECT_EQ(backend.kernel()->flow_table(3)->size(), 16u);
  EXPECT_EQ(backend.kernel()->flow_table(3)->flows[7].filter, flowsteer::kernel::RPS_NO_FILTER);
  runner.feed_line(R"({"op":"config","rps_flow_cnt":[16,16,0,15]})");
  EXPECT_EQ(backend.kernel()->flow_table(2), nullptr);
}

TEST(Scenario, NumbersAcceptDecimalAndHexStrings) {
  ModelBackend backend;
  ScenarioRunner runner(backend);
  EXPECT_FALSE(runner.feed_line("   # indented comment"));
  EXPECT_FALSE(runner.feed_line(" \t\r"));
  runner.feed_line(R"({"op":"config","cpus":"4","queues":"0x4","variant":"patched","rps_flow_cnt":["16","0x10",16,"0X10"],"sock_flow_entries":"0x100"})");
  ASSERT_TRUE(runner.configured());
  EXPECT_EQ(runner.config()->rps_flow_cnt, (std::vector<uint64_t>{16, 16, 16, 16}));
  EXPECT_EQ(runner.config()->sock_flow_entries, 256u);
  runner.feed_line(R"({"op":"record","hash":"286331153","cpu":"0x3"})");
  auto a = runner.feed_line(packet("\"1\"", "\"0x11111111\""));
  auto b = runner.feed_line(packet("1", "286331153"));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->dump(),
            R"({"op":"packet","cpu":3,"rflow":{"queue":3,"slot":7},"steer":{"queue":3,"flow_id":7,"rc":1},"tail":1})");
  // Patched, in flight: the gate's skip path (same hash, same CPU), receiving slot written.
  EXPECT_EQ(b->dump(), R"({"op":"packet","cpu":3,"rflow":{"queue":1,"slot":7},"steer":null,"tail":2})");
  auto t = runner.feed_line(R"({"op":"time","advance_ms":"0x3e8"})");
  EXPECT_EQ(t->dump(), R"({"op":"time","ok":true})");
  EXPECT_EQ(runner.now_ms(), 1000u);
  EXPECT_EQ(runner.lines_read(), 7u);
}

TEST(Scenario, GateDecisionsThroughTheBackend) {
  // The seed's two flows on one slot (spec 7.9.4), asserted on the RxDecision the JSON
  // output is made from: path and gate row.
  using flowsteer::kernel::GateRow;
  using flowsteer::kernel::SetRpsCpuPath;
  ModelBackend backend;
  ScenarioRunner runner(backend);
  runner.feed_line(kConfig);
  runner.feed_line(R"({"op":"record","hash":"0x11111111","cpu":3})");
  runner.feed_line(R"({"op":"record","hash":"0x12345678","cpu":3})");
  flowsteer::runs::PacketEvent f1;
  f1.rxq = 1;
  f1.hash = 0x11111111;
  f1.flow = flowsteer::make_tuple("10.0.0.1", "10.0.1.1", 40001, 5001);
  flowsteer::runs::PacketEvent f2 = f1;
  f2.rxq = 2;
  f2.hash = 0x12345678;
  f2.flow = flowsteer::make_tuple("10.0.0.2", "10.0.1.1", 40002, 5001);
  auto d = backend.packet(f1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  EXPECT_EQ(d.gate, GateRow::kNoFilter);
  d = backend.packet(f1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
  EXPECT_EQ(d.gate, GateRow::kSkipSameFlow);
  d = backend.packet(f2);
  EXPECT_EQ(d.path, SetRpsCpuPath::kGateSkip);
  EXPECT_EQ(d.gate, GateRow::kSkipOtherFlow);
  EXPECT_EQ(flowsteer::runs::packet_json(d).dump(),
            R"({"op":"packet","cpu":3,"rflow":{"queue":2,"slot":7},"steer":null,"tail":3})");
}

TEST(Scenario, RunStreamsResultsUntilTheBadLine) {
  ModelBackend backend;
  ScenarioRunner runner(backend);
  std::istringstream in(std::string(kConfig) + "\n# comment\n\n{\"op\":\"sync\"}\n{\"op\":\"sink\"}\n{\"op\":\"sync\"}\n");
  std::ostringstream out;
  try {
    runner.run(in, out);
    FAIL() << "bad line accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.line(), 5u);
    EXPECT_EQ(e.field(), "op");
  }
  EXPECT_EQ(out.str(), "{\"op\":\"config\",\"ok\":true}\n{\"op\":\"sync\",\"deleted\":[],\"added\":[]}\n");
}

// ---- the binary ---------------------------------------------------------------------------

std::string flowsteer_binary() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string exe(buf, size_t(n));
  std::string dir = exe.substr(0, exe.rfind('/'));     // .../build/testbench
  std::string parent = dir.substr(0, dir.rfind('/'));  // .../build
  return parent + "/flowsteer";
}

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "flowsteer_scenario_" + std::to_string(getpid()) + "_" + name;
}

// Runs `flowsteer <args>` through the shell (args are trusted test strings).
RunResult run_binary(const std::string& args, const std::string& stdin_file = "") {
  RunResult r;
  const std::string bin = flowsteer_binary();
  const std::string out = temp_path("stdout"), err = temp_path("stderr");
  std::string cmd = "'" + bin + "' " + args + " >'" + out + "' 2>'" + err + "'";
  if (!stdin_file.empty()) cmd += " <'" + stdin_file + "'";
  int rc = std::system(cmd.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

std::string write_trace(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

#define ASSERT_FLOWSTEER_BINARY()                                                    \
  ASSERT_EQ(access(flowsteer_binary().c_str(), X_OK), 0)                             \
      << "flowsteer binary not found at " << flowsteer_binary()                      \
      << " (build the flowsteer target)"

TEST(Scenario, BinaryBadLineExitsTwoNamingLineAndField) {
  ASSERT_FLOWSTEER_BINARY();
  struct Case {
    std::string line;
    std::string field;
  };
  const std::vector<Case> cases = {
      {R"({"op":"sync")", ""},                                     // bad JSON
      {R"({"op":"warp"})", "field 'op'"},                          // unknown op
      {R"({"op":"record","cpu":1})", "field 'hash'"},              // missing field
      {R"({"op":"record","hash":1,"cpu":"x"})", "field 'cpu'"},    // wrong type
      {R"({"op":"record","hash":"0x1FFFFFFFF","cpu":1})", "field 'hash'"},  // out of range
      {R"({"op":"config","rps_flow_cnt":32,"queues":8})", "field 'queues'"},  // not a resize
  };
  for (const auto& c : cases) {
    std::string path = write_trace("bad.jsonl", std::string("# header\n") + kConfig + "\n" + c.line + "\n");
    RunResult r = run_binary("scenario '" + path + "'");
    EXPECT_EQ(r.status, 2) << c.line;
    EXPECT_NE(r.err.find("line 3: "), std::string::npos) << r.err;
    if (!c.field.empty()) {
      EXPECT_NE(r.err.find(c.field), std::string::npos) << r.err;
    }
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_EQ(r.out, "{\"op\":\"config\",\"ok\":true}\n") << c.line;
    std::remove(path.c_str());
  }
  std::string path = write_trace("first.jsonl", "{\"op\":\"dump\"}\n");
  RunResult r = run_binary("scenario '" + path + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("line 1: field 'op': the first event must be a config"), std::string::npos) << r.err;
  std::remove(path.c_str());
}

TEST(Scenario, BinaryStdinJsonOutAndUsage) {
  ASSERT_FLOWSTEER_BINARY();
  std::string trace = std::string(kConfig) + "\n" + R"({"op":"dump"})" + "\n";
  std::string path = write_trace("ok.jsonl", trace);
  const std::string expected =
      "{\"op\":\"config\",\"ok\":true}\n"
      "{\"op\":\"dump\",\"slots\":[],\"entries\":[],\"heads\":[0,0,0,0],\"tails\":[0,0,0,0],"
      "\"counters\":{\"steer_c\":0,\"steer_l\":0,\"add\":0,\"del\":0}}\n";
  RunResult r = run_binary("scenario -", path);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, expected);

  std::string json_out = temp_path("out.jsonl");
  r = run_binary("scenario '" + path + "' --json-out '" + json_out + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(json_out), expected);
  std::remove(json_out.c_str());
  std::remove(path.c_str());

  r = run_binary("scenario '" + temp_path("does-not-exist.jsonl") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read trace"), std::string::npos) << r.err;
  r = run_binary("scenario");
  EXPECT_EQ(r.status, 2);
  r = run_binary("scenario a.jsonl --bogus");
  EXPECT_EQ(r.status, 2);
}

}  // namespace
