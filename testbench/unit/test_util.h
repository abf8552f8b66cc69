// Helpers shared by the unit tests: a replayable seed and random tuples.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>

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

}  // namespace flowsteer::test
