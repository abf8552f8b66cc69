// flowsteer: one binary, one verb per job (DESIGN.md "The command line").
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include <new>

#include "cli_common.h"
#include "cli_validate.h"

namespace flowsteer::cli {
int cmd_conform(int argc, char** argv);  // conform_cmd.cpp
}

namespace {

struct Verb {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

const Verb kVerbs[] = {
    {"hash", flowsteer::cli::cmd_hash, "compute a NIC or kernel flow hash"},
    {"experiment", flowsteer::cli::cmd_experiment,
     "reproduce the 2025 seed experiment (original vs patched RFS/aRFS)"},
    {"scenario", flowsteer::cli::cmd_scenario,
     "run a kernel-level event trace (JSON Lines) through the golden model"},
    {"replay", flowsteer::cli::cmd_replay,
     "an Ethernet pcap through the engine, per-connection summary"},
    {"device", flowsteer::cli::cmd_device,
     "the aRFS runtime through the register-level driver (model or Alveo card)"},
    {"conform", flowsteer::cli::cmd_conform,
     "random traffic through the simulated engine, checked against the golden model"},
};

void print_usage(std::ostream& os) {
  os << "usage: flowsteer <verb> [options]   (flowsteer <verb> --help for each)\n\nverbs:\n";
  for (const auto& v : kVerbs) os << "  " << v.name << std::string(12 - std::strlen(v.name), ' ') << v.summary << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::string names;
    for (const auto& v : kVerbs) names += std::string(names.empty() ? "" : ", ") + v.name;
    std::cerr << "flowsteer: missing verb (" << names << "); flowsteer --help describes them\n";
    return flowsteer::cli::kExitUsage;
  }
  std::string verb = argv[1];
  if (verb == "--help" || verb == "-h" || verb == "help") {
    print_usage(std::cout);
    return 0;
  }
  for (const auto& v : kVerbs) {
    if (verb == v.name) {
      namespace c = flowsteer::cli;
      int rc;
      try {
        rc = v.run(argc - 1, argv + 1);
      } catch (const std::bad_alloc&) {
        std::cerr << "flowsteer " << verb << ": out of memory (an allocation failed; smaller tables or "
                  << "fewer flows need less)\n";
        return c::kExitUsage;
      } catch (const std::exception& e) {  // UsageError and anything a run lets through: one line
        return c::usage_error(verb, e.what());
      }
      errno = 0;
      if (!c::flush_stdout()) {  // a result that did not reach stdout is not a success
        const int e = errno;
        std::cerr << "flowsteer " << verb << ": cannot write standard output"
                  << (e ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
        return rc == c::kExitOk ? c::kExitUsage : rc;
      }
      return rc;
    }
  }
  std::cerr << "flowsteer: unknown verb '" << verb << "' (try flowsteer --help)\n";
  return flowsteer::cli::kExitUsage;
}
