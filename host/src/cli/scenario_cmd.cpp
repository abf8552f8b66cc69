// flowsteer scenario FILE [--json-out FILE]: a kernel-level event trace (JSON Lines) through
// the golden model, one JSON result per event (docs/scenario-format.md).
#include <fstream>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "cli_validate.h"
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
    if (!file) return usage_error("scenario", "cannot read trace " + quote(trace));
    in = &file;
  }
  OutputFile outfile;  // checked before the run, committed (renamed into place) after it
  std::ostream* out = &std::cout;
  if (!json_out.empty()) {
    outfile.open(json_out, "--json-out");
    out = &outfile.stream();
  }

  runs::ModelBackend backend;
  runs::ScenarioRunner runner(backend);
  const std::string name = trace == "-" ? "<stdin>" : trace;
  try {
    runner.run(*in, *out);
  } catch (const runs::ScenarioError& e) {
    out->flush();
    return usage_error("scenario", name + ": " + e.what());
  }
  if (in->bad()) return usage_error("scenario", "error reading trace " + quote(name));
  if (outfile.is_open()) {
    outfile.commit();  // UsageError naming --json-out on a failed write
  } else if (!flush_stdout()) {
    return usage_error("scenario", "error writing the results to standard output");
  }
  return kExitOk;
}

}  // namespace flowsteer::cli
