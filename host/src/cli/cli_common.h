// Shared pieces of the flowsteer verbs: argument parsing with the CLI contract
// (exit 2 and one line on bad usage), number parsing (decimal or 0x).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace flowsteer::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitUsage = 2;

// Parses argv into app. Returns an exit status when the verb must stop now
// (help printed: 0; bad usage: 2 after one line on stderr), or nullopt to go on.
std::optional<int> parse(CLI::App& app, int argc, char** argv);

// "123" or "0x7b"; throws std::invalid_argument naming `what` on bad text or overflow.
uint64_t parse_number(const std::string& text, const std::string& what,
                      uint64_t max = UINT64_MAX);

// Prints "flowsteer <verb>: <message>" on stderr and returns kExitUsage.
int usage_error(const std::string& verb, const std::string& message);

int cmd_hash(int argc, char** argv);
int cmd_experiment(int argc, char** argv);
int cmd_scenario(int argc, char** argv);
int cmd_replay(int argc, char** argv);
int cmd_device(int argc, char** argv);

}  // namespace flowsteer::cli
