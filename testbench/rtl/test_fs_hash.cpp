// fs_hash against flowsteer::hash: the Microsoft RSS vectors and random tuples in all three
// modes, with random input gaps and output back-pressure.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "Vvfs_hash.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/tuple.h"
#include "rtl_sim.h"
#include "../unit/ms_rss_vectors.h"

namespace {

using flowsteer::FlowTuple;
using flowsteer::regs::HashMode;
namespace fh = flowsteer::hash;

struct Job {
  FlowTuple t;
  bool ports;
};

class HashRtl : public ::testing::Test {
 protected:
  void SetUp() override {
    sim_->cfg_mode = 0;
    sim_->cfg_seed = 0;
    for (int w = 0; w < 10; ++w) sim_->cfg_key[w] = 0;
    sim_->s_tuple_valid = 0;
    sim_->s_tuple_ipv6 = 0;
    sim_->s_tuple_ports = 0;
    for (int w = 0; w < 4; ++w) sim_->s_tuple_src[w] = sim_->s_tuple_dst[w] = 0;
    sim_->s_tuple_sport = sim_->s_tuple_dport = 0;
    sim_->s_tuple_user = 0;
    sim_->m_hash_ready = 1;
    sim_.reset();
  }

  void configure(HashMode mode, const fh::RssKey& key, uint32_t seed) {
    sim_->cfg_mode = uint8_t(mode);
    flowsteer::testbench::rtl::set_be(sim_->cfg_key, key.data(), 40);
    sim_->cfg_seed = seed;
  }

  // Runs jobs through the unit; returns the hashes in order. gap/stall are percentages.
  std::vector<uint32_t> run(const std::vector<Job>& jobs, int gap = 0, int stall = 0) {
    std::vector<uint32_t> out;
    size_t next = 0;
    uint64_t guard = 0;
    const uint64_t limit = 100 * (jobs.size() + 20);
    while (out.size() < jobs.size()) {
      EXPECT_LT(++guard, limit) << "hash unit stopped producing results";
      if (guard >= limit) break;
      // drive inputs for this cycle
      const bool offer = next < jobs.size() && int(rng_() % 100) >= gap;
      sim_->s_tuple_valid = offer;
      if (offer) {
        const Job& j = jobs[next];
        sim_->s_tuple_ipv6 = j.t.family == 6;
        sim_->s_tuple_ports = j.ports;
        flowsteer::testbench::rtl::set_be(sim_->s_tuple_src, j.t.src.data(), 16);
        flowsteer::testbench::rtl::set_be(sim_->s_tuple_dst, j.t.dst.data(), 16);
        sim_->s_tuple_sport = j.t.sport;
        sim_->s_tuple_dport = j.t.dport;
        sim_->s_tuple_user = uint16_t(next);
      }
      sim_->m_hash_ready = int(rng_() % 100) >= stall;
      sim_.settle();
      const bool took = offer && sim_->s_tuple_ready;
      if (sim_->m_hash_valid && sim_->m_hash_ready) {
        EXPECT_EQ(sim_->m_hash_user, uint16_t(out.size()));
        out.push_back(sim_->m_hash);
      }
      sim_.tick();
      if (took) ++next;
    }
    sim_->s_tuple_valid = 0;
    return out;
  }

  static uint32_t model(HashMode mode, const Job& j, const fh::RssKey& key, uint32_t seed) {
    switch (mode) {
      case HashMode::kToeplitz: return fh::toeplitz_tuple(j.t, key, j.ports);
      case HashMode::kToeplitzSymxor: return fh::toeplitz_symxor(j.t, key, j.ports);
      case HashMode::kJhashSym: return fh::jhash_sym_2010(j.t, seed, fh::JhashForm::Lookup2);
    }
    return 0;
  }

  FlowTuple random_tuple() {
    FlowTuple t;
    t.family = (rng_() & 1) ? 6 : 4;
    for (size_t i = 0; i < t.addr_len(); ++i) {
      t.src[i] = uint8_t(rng_());
      t.dst[i] = uint8_t(rng_());
    }
    return t;
  }
  // A tuple as the parser delivers it: ports only for TCP/UDP (what jhash-sym keys on).
  Job random_job() {
    Job j{random_tuple(), (rng_() % 4) != 0};
    if (j.ports) {
      j.t.proto = (rng_() & 1) ? flowsteer::kIpProtoTcp : flowsteer::kIpProtoUdp;
      j.t.sport = uint16_t(rng_());
      j.t.dport = uint16_t(rng_());
      if (rng_() % 8 == 0) j.t.dport = j.t.sport;  // equal ports
    } else {
      j.t.proto = uint8_t(rng_() % 4 == 0 ? 1 : 50);
    }
    if (rng_() % 16 == 0) j.t.dst = j.t.src;  // equal addresses
    return j;
  }

  flowsteer::testbench::rtl::Sim<Vvfs_hash> sim_{7};
  std::mt19937_64 rng_{12345};
};

using flowsteer::test::kMsRssVectors;

TEST_F(HashRtl, MicrosoftVectors) {
  configure(HashMode::kToeplitz, fh::microsoft_key(), 0);
  std::vector<Job> jobs;
  for (const auto& v : kMsRssVectors) {
    FlowTuple t = flowsteer::make_tuple(v.src, v.dst, v.sport, v.dport);
    jobs.push_back({t, false});
    jobs.push_back({t, true});
  }
  const auto got = run(jobs);
  ASSERT_EQ(got.size(), jobs.size());
  for (size_t i = 0; i < std::size(kMsRssVectors); ++i) {
    EXPECT_EQ(got[2 * i], kMsRssVectors[i].addr_only) << kMsRssVectors[i].src;
    EXPECT_EQ(got[2 * i + 1], kMsRssVectors[i].with_ports) << kMsRssVectors[i].src;
  }
}

TEST_F(HashRtl, SymxorVectorBothDirections) {
  configure(HashMode::kToeplitzSymxor, fh::microsoft_key(), 0);
  FlowTuple t = flowsteer::make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  const auto got = run({{t, true}, {t.reversed(), true}});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 0xAC2B58CAu);  // spec 6.5 model value
  EXPECT_EQ(got[1], 0xAC2B58CAu);
}

TEST_F(HashRtl, JhashKnownValues) {
  // lookup2 jhash_3words(0x0100007F, 0x0200007F, 0x5000D204, 0x12345678) = 0x72372513
  // (spec 6.2): 127.0.0.1 -> 127.0.0.2, ports as bytes 04 d2 00 50 read little-endian.
  configure(HashMode::kJhashSym, fh::microsoft_key(), 0x12345678);
  FlowTuple t = flowsteer::make_tuple("127.0.0.1", "127.0.0.2", 1234, 80);
  const auto got = run({{t, true}, {t.reversed(), true}});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], fh::jhash_sym_2010(t, 0x12345678));
  EXPECT_EQ(got[1], got[0]);
}

class HashRtlRandom : public HashRtl, public ::testing::WithParamInterface<HashMode> {};

TEST_P(HashRtlRandom, MatchesModelUnderBackPressure) {
  const HashMode mode = GetParam();
  for (int batch = 0; batch < 3; ++batch) {
    fh::RssKey key(40);
    for (auto& b : key) b = uint8_t(rng_());
    if (batch == 0) key = fh::microsoft_key();
    const uint32_t seed = batch == 2 ? 0 : uint32_t(rng_());
    configure(mode, key, seed);
    std::vector<Job> jobs;
    for (int i = 0; i < 1000; ++i) jobs.push_back(random_job());
    const int gap = batch == 0 ? 0 : 30;
    const int stall = batch == 0 ? 0 : 40;
    const auto got = run(jobs, gap, stall);
    ASSERT_EQ(got.size(), jobs.size());
    int bad = 0;
    for (size_t i = 0; i < jobs.size(); ++i) {
      const uint32_t want = model(mode, jobs[i], key, seed);
      if (got[i] != want && ++bad < 5) {
        ADD_FAILURE() << "tuple " << i << " " << flowsteer::to_string(jobs[i].t) << " ports "
                      << jobs[i].ports << ": rtl 0x" << std::hex << got[i] << " model 0x" << want;
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

class HashRtlSymmetric : public HashRtl, public ::testing::WithParamInterface<HashMode> {};

TEST_P(HashRtlSymmetric, IgnoresDirection) {
  const HashMode mode = GetParam();
  fh::RssKey key(40);
  for (auto& b : key) b = uint8_t(rng_());
  configure(mode, key, uint32_t(rng_()));
  std::vector<Job> jobs;
  for (int i = 0; i < 500; ++i) {
    Job j = random_job();
    jobs.push_back(j);
    jobs.push_back({j.t.reversed(), j.ports});
  }
  const auto got = run(jobs, 10, 10);
  ASSERT_EQ(got.size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); i += 2) EXPECT_EQ(got[i], got[i + 1]) << i;
}

std::string mode_name(const ::testing::TestParamInfo<HashMode>& info) {
  switch (info.param) {
    case HashMode::kToeplitz: return "Toeplitz";
    case HashMode::kToeplitzSymxor: return "ToeplitzSymxor";
    default: return "JhashSym";
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, HashRtlRandom,
                         ::testing::Values(HashMode::kToeplitz, HashMode::kToeplitzSymxor,
                                           HashMode::kJhashSym),
                         mode_name);
INSTANTIATE_TEST_SUITE_P(Modes, HashRtlSymmetric,
                         ::testing::Values(HashMode::kToeplitzSymxor, HashMode::kJhashSym),
                         mode_name);

}  // namespace
