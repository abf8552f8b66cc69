// flowsteer scenario FILE [--json-out FILE]: a kernel-level event trace (JSON Lines) through
// the golden model, one JSON result per event (docs/scenario-format.md).
#include <fstream>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "flowsteer/runs/scenario.h"

namespace flowsteer::cli {

int cmd_scenario(int argc, char** argv) {
  CLI::App app{"Replay a kernel-level event trace (JSON Lines) through the golden model: "
               "kernel RFS/aRFS plane and the ice aRFS mirror. One JSON object per event.",
               "scenario"};
  std::string trace;
  std::string json_out;
  app.add_option("FILE", trace, "trace file (JSON Lines); - reads stdin")->required();
  app.add_option("--json-out", json_out, "write the results to FILE instead of stdout");
  if (auto rc = parse(app, argc, argv)) return *rc;

  std::ifstream file;
  std::istream* in = &std::cin;
  if (trace != "-") {
    file.open(trace);
    if (!file) return usage_error("scenario", "cannot read trace '" + trace + "'");
    in = &file;
  }
  std::ofstream outfile;
  std::ostream* out = &std::cout;
  if (!json_out.empty()) {
    outfile.open(json_out, std::ios::trunc);
    if (!outfile) return usage_error("scenario", "cannot write '" + json_out + "'");
    out = &outfile;
  }

  runs::ModelBackend backend;
  runs::ScenarioRunner runner(backend);
  try {
    runner.run(*in, *out);
  } catch (const runs::ScenarioError& e) {
    out->flush();
    return usage_error("scenario", std::string(trace == "-" ? "<stdin>" : trace) + ": " + e.what());
  }
  if (in->bad()) return usage_error("scenario", "error reading trace '" + trace + "'");
  out->flush();
  if (!*out) return usage_error("scenario", "error writing the results");
  return kExitOk;
}

}  // namespace flowsteer::cli
