#include "cli_common.h"

#include "cli_validate.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace flowsteer::cli {

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  harden_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (msg.empty()) msg = e.get_name();
    if (msg.size() > 300) msg = msg.substr(0, 300) + "...";  // CLI11 echoes the value whole
    return usage_error(app.get_name(), msg);
  }
  return std::nullopt;
}

uint64_t parse_number(const std::string& text, const std::string& what, uint64_t max) {
  try {
    return parse_u64(text, what, max);
  } catch (const UsageError& e) {
    throw std::invalid_argument(e.what());
  }
}

int usage_error(const std::string& verb, const std::string& message) {
  std::string line = one_line(message);
  if (line.size() > 1000) line = line.substr(0, 1000) + "...";  // a library's message that echoes input
  std::cerr << "flowsteer " << verb << ": " << line << "\n";
  return kExitUsage;
}

}  // namespace flowsteer::cli
