// Helpers shared by the unit tests: a replayable seed, random tuples, a shell command's
// output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "flowsteer/tuple.h"

namespace flowsteer::test {

// FLOWSTEER_TEST_SEED overrides a test's fixed seed (print it on failure to replay).
inline uint32_t test_seed(uint32_t fixed) {
  const char* s = std::getenv("FLOWSTEER_TEST_SEED");
  return s ? uint32_t(std::strtoul(s, nullptr, 0)) : fixed;
}

// A random TCP or UDP tuple of the given family (4 or 6).
inline FlowTuple random_tuple(std::mt19937& rng, int family) {
  FlowTuple t;
  t.family = uint8_t(family);
  t.proto = (rng() & 1) ? kIpProtoTcp : kIpProtoUdp;
  for (size_t i = 0; i < t.addr_len(); ++i) {
    t.src[i] = uint8_t(rng());
    t.dst[i] = uint8_t(rng());
  }
  t.sport = uint16_t(rng());
  t.dport = uint16_t(rng());
  return t;
}

// Runs cmd through the shell; its stdout in out; the exit status (-1 if it did not exit).
inline int run_command(const std::string& cmd, std::string& out) {
  out.clear();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace flowsteer::test
