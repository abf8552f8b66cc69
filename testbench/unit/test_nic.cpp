// NIC plane tests: RSS (hash by mode and class, LUT), the exact-match filter table
// (against a std::map reference, including the full-table behaviour) and the Nic
// front end (parse -> hash -> filter else LUT).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "flowsteer/hash/hash.h"
#include "flowsteer/nic/filter_table.h"
#include "flowsteer/nic/nic.h"
#include "flowsteer/nic/rss.h"
#include "flowsteer/tuple.h"
#include "test_util.h"

namespace fh = flowsteer::hash;
using flowsteer::FlowTuple;
using flowsteer::make_tuple;
using namespace flowsteer::nic;
using Bytes = std::vector<uint8_t>;

namespace {

uint32_t test_seed() { return flowsteer::test::test_seed(0x5EED0001u); }
using flowsteer::test::random_tuple;

void put16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}

// A frame carrying tuple t: IPv4/IPv6, TCP/UDP header when t.proto is 6/17 and not
// a fragment; fragment = IPv4 MF set / IPv6 Fragment header.
Bytes frame_for(const FlowTuple& t, bool fragment = false) {
  Bytes b = {0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2};
  if (t.family == 4) {
    put16(b, 0x0800);
    put16(b, 0x4500);
    put16(b, 60);
    put16(b, 0);
    put16(b, fragment ? 0x2000 : 0);
    b.push_back(64);
    b.push_back(t.proto);
    put16(b, 0);
    b.insert(b.end(), t.src.begin(), t.src.begin() + 4);
    b.insert(b.end(), t.dst.begin(), t.dst.begin() + 4);
  } else {
    put16(b, 0x86DD);
    put16(b, 0x6000);
    put16(b, 0);
    put16(b, 40);
    b.push_back(fragment ? 44 : t.proto);
    b.push_back(64);
    b.insert(b.end(), t.src.begin(), t.src.end());
    b.insert(b.end(), t.dst.begin(), t.dst.end());
    if (fragment) {
      b.push_back(t.proto);
      b.push_back(0);
      put16(b, 1);  // offset 0, M set
      put16(b, 0);
      put16(b, 7);
    }
  }
  put16(b, t.sport);  // a TCP/UDP header (or payload bytes for the other cases)
  put16(b, t.dport);
  b.insert(b.end(), 16, 0);
  return b;
}

ParsedFrame parse(const Bytes& b) { return parse_frame(b.data(), b.size()); }

}  // namespace

// ------------------------------------------------------------------------------ RSS

TEST(RssConfig, Defaults) {
  Rss rss(12);
  EXPECT_EQ(rss.key(), fh::microsoft_key());
  EXPECT_EQ(rss.mode(), HashMode::kToeplitz);
  EXPECT_EQ(rss.jhash_seed(), 0u);
  ASSERT_EQ(rss.lut_size(), 2048u);
  for (size_t i = 0; i < rss.lut_size(); ++i) ASSERT_EQ(rss.lut()[i], i % 12);
  EXPECT_EQ(rss.queue(0x12345678u), (0x12345678u & 2047) % 12);
  EXPECT_EQ(rss.queue(2048 + 13), 1);
  EXPECT_STREQ(hash_mode_name(HashMode::kToeplitzSymXor), "toeplitz-symxor");
  EXPECT_EQ(uint8_t(HashMode::kJhashSym), 2);
}

TEST(RssConfig, KeyAndLutRules) {
  Rss rss;
  EXPECT_THROW(rss.set_key(fh::RssKey(39)), std::invalid_argument);
  EXPECT_THROW(rss.set_key(fh::RssKey(41)), std::invalid_argument);
  EXPECT_THROW(rss.set_key(fh::RssKey{}), std::invalid_argument);
  EXPECT_NO_THROW(rss.set_key(fh::RssKey(52, 0x5a)));
  EXPECT_NO_THROW(rss.set_key(fh::RssKey(40, 0x11)));
  EXPECT_THROW(rss.set_lut(std::vector<uint16_t>(3)), std::invalid_argument);
  EXPECT_THROW(rss.set_lut({}), std::invalid_argument);
  EXPECT_THROW(rss.fill_lut(0), std::invalid_argument);
  EXPECT_THROW(rss.fill_lut(4, 100), std::invalid_argument);
  EXPECT_THROW(Rss(4, HashMode::kToeplitz, 1000), std::invalid_argument);
  rss.set_lut({7, 8, 9, 10});
  EXPECT_EQ(rss.queue(0xFFFFFFFEu), 9);
  rss.set_lut_entry(2, 3);
  EXPECT_EQ(rss.queue(2), 3);
  EXPECT_THROW(rss.set_lut_entry(4, 0), std::out_of_range);
  rss.fill_lut(3, 64);
  EXPECT_EQ(rss.lut_size(), 64u);
  EXPECT_EQ(rss.queue(63), 0);  // 63 % 3
}

TEST(RssHash, MatchesReferenceFunctions) {
  const uint32_t seed = test_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed) + " (set FLOWSTEER_TEST_SEED to replay)");
  std::mt19937 rng(seed);
  fh::RssKey key52(52);
  for (auto& k : key52) k = uint8_t(rng());
  for (const fh::RssKey& key : {fh::microsoft_key(), key52}) {
    Rss rss;
    rss.set_key(key);
    rss.set_jhash_seed(rng());
    for (int i = 0; i < 3000; ++i) {
      FlowTuple t = random_tuple(rng, (i & 1) ? 4 : 6);
      const bool ports = (i & 2) != 0;
      rss.set_mode(HashMode::kToeplitz);
      ASSERT_EQ(rss.hash_tuple(t, ports), fh::toeplitz_tuple(t, key, ports));
      rss.set_mode(HashMode::kToeplitzSymXor);
      ASSERT_EQ(rss.hash_tuple(t, ports), fh::toeplitz_symxor(t, key, ports));
      rss.set_mode(HashMode::kJhashSym);
      FlowTuple z = t;
      if (!ports) z.sport = z.dport = 0;
      rss.set_jhash_form(fh::JhashForm::Lookup2);
      ASSERT_EQ(rss.hash_tuple(t, ports), fh::jhash_sym_2010(z, rss.jhash_seed()));
      rss.set_jhash_form(fh::JhashForm::Lookup3);
      ASSERT_EQ(rss.hash_tuple(t, ports),
                fh::jhash_sym_2010(z, rss.jhash_seed(), fh::JhashForm::Lookup3));
    }
  }
}

TEST(RssHash, ByParseClass) {
  Rss rss;
  FlowTuple tcp = make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  EXPECT_EQ(rss.hash(parse(frame_for(tcp))), 0x51CCC178u);
  FlowTuple udp = tcp;
  udp.proto = flowsteer::kIpProtoUdp;
  Bytes fu = frame_for(udp);
  EXPECT_EQ(rss.hash(parse_frame(fu.data(), fu.size())), 0x51CCC178u);
  Bytes ff = frame_for(tcp, true);  // IPv4 fragment: 2-tuple
  ParsedFrame pf = parse_frame(ff.data(), ff.size());
  ASSERT_EQ(pf.cls, ParseClass::kIpv4Fragment);
  EXPECT_EQ(rss.hash(pf), 0x323E8FC2u);
  FlowTuple icmp = tcp;
  icmp.proto = 1;
  Bytes fi = frame_for(icmp);
  EXPECT_EQ(rss.hash(parse_frame(fi.data(), fi.size())), 0x323E8FC2u);
  // IPv6 (Microsoft table row 1) as TCP and as a fragment.
  FlowTuple t6 = make_tuple("3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766);
  Bytes f6 = frame_for(t6);
  EXPECT_EQ(rss.hash(parse_frame(f6.data(), f6.size())), 0x40207d3du);
  Bytes f6f = frame_for(t6, true);
  ParsedFrame p6f = parse_frame(f6f.data(), f6f.size());
  ASSERT_EQ(p6f.cls, ParseClass::kIpv6Fragment);
  EXPECT_EQ(rss.hash(p6f), 0x2cc18cd5u);
  // No hash for the non-IP classes, in every mode.
  for (HashMode m : {HashMode::kToeplitz, HashMode::kToeplitzSymXor, HashMode::kJhashSym}) {
    rss.set_mode(m);
    for (ParseClass c : {ParseClass::kNonIp, ParseClass::kTruncated, ParseClass::kMalformed,
                         ParseClass::kUnsupported}) {
      ParsedFrame p;
      p.cls = c;
      EXPECT_EQ(rss.hash(p), 0u) << int(c);
    }
  }
  // Symmetric modes: both directions hash alike through real frames.
  for (HashMode m : {HashMode::kToeplitzSymXor, HashMode::kJhashSym}) {
    rss.set_mode(m);
    Bytes a = frame_for(tcp), b = frame_for(tcp.reversed());
    EXPECT_EQ(rss.hash(parse_frame(a.data(), a.size())),
              rss.hash(parse_frame(b.data(), b.size())));
  }
  rss.set_mode(HashMode::kToeplitzSymXor);
  EXPECT_EQ(rss.hash(parse(frame_for(tcp))), 0xAC2B58CAu);
}

// ----------------------------------------------------------------------- Filter table

namespace {

struct TupleLess {
  bool operator()(const FlowTuple& a, const FlowTuple& b) const {
    return std::tie(a.family, a.proto, a.src, a.dst, a.sport, a.dport) <
           std::tie(b.family, b.proto, b.src, b.dst, b.sport, b.dport);
  }
};

}  // namespace

TEST(FilterTable, BasicOperations) {
  ExactMatchTable t(4);
  EXPECT_EQ(t.capacity(), 4u);
  FlowTuple a = make_tuple("10.0.0.1", "10.0.0.2", 1000, 80);
  FlowTuple b = make_tuple("10.0.0.1", "10.0.0.2", 1001, 80);
  EXPECT_EQ(t.add(a, 7, 3), FilterStatus::kInserted);
  EXPECT_EQ(t.size(), 1u);
  const FilterEntry* e = t.lookup(a);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->fd_id, 7u);
  EXPECT_EQ(e->queue, 3);
  EXPECT_EQ(e->hits, 1u);
  EXPECT_EQ(t.lookup(b), nullptr);
  EXPECT_EQ(t.lookup(a.reversed()), nullptr);  // exact match: one direction only
  EXPECT_EQ(t.hits(), 1u);
  EXPECT_EQ(t.misses(), 2u);
  // Re-target: id and queue replaced, hits kept.
  EXPECT_EQ(t.add(a, 9, 5), FilterStatus::kRetargeted);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.find(a)->fd_id, 9u);
  EXPECT_EQ(t.find(a)->queue, 5);
  EXPECT_EQ(t.find(a)->hits, 1u);
  EXPECT_EQ(t.count_id(7), 0u);
  EXPECT_EQ(t.count_id(9), 1u);
  // Duplicate ids are allowed; remove_id takes them all.
  EXPECT_EQ(t.add(b, 9, 1), FilterStatus::kInserted);
  size_t n = 0;
  EXPECT_EQ(t.remove_id(9, &n), FilterStatus::kRemoved);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.remove_id(9, &n), FilterStatus::kNotFound);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(t.remove(a), FilterStatus::kNotFound);
  // Invalid tuples.
  EXPECT_EQ(t.add(FlowTuple{}, 1, 1), FilterStatus::kInvalid);
  FlowTuple junk = a;
  junk.src[7] = 1;
  EXPECT_EQ(t.add(junk, 1, 1), FilterStatus::kInvalid);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_THROW(ExactMatchTable(0), std::invalid_argument);
  EXPECT_EQ(ExactMatchTable().capacity(), 16384u);
  EXPECT_STREQ(filter_status_name(FilterStatus::kFull), "full");
}

TEST(FilterTable, FullTableIsExplicit) {
  ExactMatchTable t(3);
  std::vector<FlowTuple> v;
  for (int i = 0; i < 5; ++i) v.push_back(make_tuple("2001:db8::1", "2001:db8::2", 1, uint16_t(i)));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.add(v[i], i, 0), FilterStatus::kInserted);
  EXPECT_TRUE(t.full());
  EXPECT_EQ(t.add(v[3], 3, 0), FilterStatus::kFull);
  EXPECT_EQ(t.find(v[3]), nullptr);
  EXPECT_EQ(t.full_rejects(), 1u);
  EXPECT_EQ(t.add(v[1], 11, 2), FilterStatus::kRetargeted);  // re-target still works
  EXPECT_EQ(t.remove(v[0]), FilterStatus::kRemoved);
  EXPECT_EQ(t.add(v[3], 3, 0), FilterStatus::kInserted);
  EXPECT_EQ(t.add(v[4], 4, 0), FilterStatus::kFull);
  EXPECT_EQ(t.size(), 3u);
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.add(v[4], 4, 0), FilterStatus::kInserted);
}

TEST(FilterTable, RandomOpsAgainstMapReference) {
  const uint32_t seed = test_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed) + " (set FLOWSTEER_TEST_SEED to replay)");
  std::mt19937 rng(seed);
  std::vector<FlowTuple> universe;
  for (int i = 0; i < 400; ++i) universe.push_back(random_tuple(rng, (i % 3) ? 4 : 6));
  const size_t kCap = 150;
  ExactMatchTable t(kCap);
  struct Ref {
    uint32_t id;
    uint16_t queue;
    uint64_t hits;
  };
  std::map<FlowTuple, Ref, TupleLess> ref;
  uint64_t hits = 0, misses = 0, fulls = 0;
  int saw_full = 0;
  for (int op = 0; op < 200000; ++op) {
    const FlowTuple& k = universe[rng() % universe.size()];
    const unsigned r = rng() % 100;
    if (r < 40) {  // add / re-target
      const uint32_t id = rng() % 300;  // small id space: duplicates happen
      const uint16_t q = uint16_t(rng() % 64);
      FilterStatus want;
      auto it = ref.find(k);
      if (it != ref.end()) {
        it->second.id = id;
        it->second.queue = q;
        want = FilterStatus::kRetargeted;
      } else if (ref.size() >= kCap) {
        want = FilterStatus::kFull;
        ++fulls;
        ++saw_full;
      } else {
        ref[k] = Ref{id, q, 0};
        want = FilterStatus::kInserted;
      }
      ASSERT_EQ(t.add(k, id, q), want) << "op " << op;
    } else if (r < 55) {
      const bool present = ref.erase(k) > 0;
      ASSERT_EQ(t.remove(k), present ? FilterStatus::kRemoved : FilterStatus::kNotFound);
    } else if (r < 60) {
      const uint32_t id = rng() % 300;
      size_t want = 0;
      for (auto it = ref.begin(); it != ref.end();) {
        if (it->second.id == id) {
          it = ref.erase(it);
          ++want;
        } else {
          ++it;
        }
      }
      size_t got = 99;
      ASSERT_EQ(t.remove_id(id, &got), want ? FilterStatus::kRemoved : FilterStatus::kNotFound);
      ASSERT_EQ(got, want);
    } else {
      const FilterEntry* e = t.lookup(k);
      auto it = ref.find(k);
      if (it == ref.end()) {
        ASSERT_EQ(e, nullptr);
        ++misses;
      } else {
        ASSERT_NE(e, nullptr);
        ++hits;
        ++it->second.hits;
        ASSERT_EQ(e->fd_id, it->second.id);
        ASSERT_EQ(e->queue, it->second.queue);
        ASSERT_EQ(e->hits, it->second.hits);
      }
    }
    ASSERT_EQ(t.size(), ref.size());
    if (op % 5000 == 0) {
      auto all = t.entries();
      ASSERT_EQ(all.size(), ref.size());
      for (const auto& [tuple, entry] : all) {
        auto it = ref.find(tuple);
        ASSERT_NE(it, ref.end());
        ASSERT_EQ(entry.fd_id, it->second.id);
        ASSERT_EQ(t.count_id(entry.fd_id),
                  size_t(std::count_if(ref.begin(), ref.end(), [&](const auto& kv) {
                    return kv.second.id == entry.fd_id;
                  })));
      }
    }
  }
  EXPECT_EQ(t.hits(), hits);
  EXPECT_EQ(t.misses(), misses);
  EXPECT_EQ(t.full_rejects(), fulls);
  EXPECT_GT(saw_full, 0) << "the mix should reach the full table";
}

// ------------------------------------------------------------------------------- NIC

TEST(NicReceive, LutThenFilter) {
  Nic nic(16);
  FlowTuple t = make_tuple("66.9.149.187", "161.142.100.80", 2794, 1766);
  Bytes f = frame_for(t);
  RxResult r = nic.receive(f.data(), f.size());
  EXPECT_EQ(r.parsed.cls, ParseClass::kIpv4Tcp);
  EXPECT_EQ(r.hash, 0x51CCC178u);
  EXPECT_FALSE(r.filter_hit);
  EXPECT_EQ(r.fd_id, 0u);
  EXPECT_EQ(r.queue, (0x51CCC178u & 2047) % 16);
  ASSERT_EQ(nic.filters().add(t, 42, 9), FilterStatus::kInserted);
  r = nic.receive(f.data(), f.size());
  EXPECT_TRUE(r.filter_hit);
  EXPECT_EQ(r.fd_id, 42u);
  EXPECT_EQ(r.queue, 9);
  EXPECT_EQ(r.hash, 0x51CCC178u);  // the hash is reported on a hit too
  // The reverse direction is another tuple: LUT.
  Bytes rf = frame_for(t.reversed());
  r = nic.receive(rf.data(), rf.size());
  EXPECT_FALSE(r.filter_hit);
  EXPECT_EQ(r.queue, nic.rss().queue(r.hash));
  // Re-target moves the flow.
  nic.filters().add(t, 42, 3);
  EXPECT_EQ(nic.receive(f.data(), f.size()).queue, 3);
  nic.filters().remove(t);
  EXPECT_FALSE(nic.receive(f.data(), f.size()).filter_hit);
  const NicCounters& c = nic.counters();
  EXPECT_EQ(c.packets, 5u);
  EXPECT_EQ(c.filter_hits, 2u);
  EXPECT_EQ(c.by_class[size_t(ParseClass::kIpv4Tcp)], 5u);
  nic.reset_counters();
  EXPECT_EQ(nic.counters().packets, 0u);
  EXPECT_EQ(nic.filters().hits(), 0u);
}

TEST(NicReceive, NonIpAndBadFramesGoToLut0) {
  Nic nic(8, HashMode::kJhashSym);
  nic.rss().set_lut_entry(0, 5);
  Bytes arp = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06};
  arp.resize(60, 0);
  RxResult r = nic.receive(arp.data(), arp.size());
  EXPECT_EQ(r.parsed.cls, ParseClass::kNonIp);
  EXPECT_EQ(r.hash, 0u);
  EXPECT_EQ(r.queue, 5);
  EXPECT_FALSE(r.filter_hit);
  r = nic.receive(arp.data(), 5);
  EXPECT_EQ(r.parsed.cls, ParseClass::kTruncated);
  EXPECT_EQ(r.queue, 5);
  EXPECT_EQ(nic.counters().no_hash, 2u);
  EXPECT_EQ(nic.counters().by_class[size_t(ParseClass::kTruncated)], 1u);
}

TEST(NicReceive, FilterOnFragmentTuple) {
  // IPv6 fragments keep addresses + inner protocol with ports 0 (ice accepts them,
  // spec 8.27); a filter on that tuple catches them, the full-port tuple does not.
  Nic nic(4, HashMode::kToeplitzSymXor);
  FlowTuple t = make_tuple("2001:db8::1", "2001:db8::2", 5000, 6000, flowsteer::kIpProtoUdp);
  Bytes frag = frame_for(t, true);
  FlowTuple no_ports = t;
  no_ports.sport = no_ports.dport = 0;
  nic.filters().add(t, 1, 2);
  RxResult r = nic.receive(frag.data(), frag.size());
  EXPECT_EQ(r.parsed.cls, ParseClass::kIpv6Fragment);
  EXPECT_FALSE(r.filter_hit);
  EXPECT_EQ(r.hash, fh::toeplitz_symxor(t, fh::microsoft_key(), false));
  nic.filters().add(no_ports, 2, 3);
  r = nic.receive(frag.data(), frag.size());
  EXPECT_TRUE(r.filter_hit);
  EXPECT_EQ(r.fd_id, 2u);
  EXPECT_EQ(r.queue, 3);
  // steer() on a parsed frame gives the same result as receive().
  RxResult s = nic.steer(r.parsed);
  EXPECT_EQ(s.queue, r.queue);
  EXPECT_EQ(s.hash, r.hash);
}
