#include "cli_common.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace flowsteer::cli {

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (msg.empty()) msg = e.get_name();
    return usage_error(app.get_name(), msg);
  }
  return std::nullopt;
}

uint64_t parse_number(const std::string& text, const std::string& what, uint64_t max) {
  std::string t = text;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t = t.substr(2);
  }
  if (t.empty() || t[0] == '-' || t[0] == '+' || t[0] == ' ')
    throw std::invalid_argument(what + ": '" + text + "' is not a number");
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(t.c_str(), &end, base);
  if (*end != '\0') throw std::invalid_argument(what + ": '" + text + "' is not a number");
  if (errno == ERANGE || v > max)
    throw std::invalid_argument(what + ": '" + text + "' is out of range (max " +
                                std::to_string(max) + ")");
  return v;
}

int usage_error(const std::string& verb, const std::string& message) {
  std::cerr << "flowsteer " << verb << ": " << message << "\n";
  return kExitUsage;
}

}  // namespace flowsteer::cli
