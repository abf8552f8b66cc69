// fs_filter_table against a std::map reference under a random insert / retarget / delete /
// lookup mix (commands and streamed lookups interleaved, with back-pressure), including
// full buckets, duplicate keys and ids, near-miss keys and CLEAR.
// The model is built with BUCKET_BITS=6, WAYS=4, ID_WIDTH=10 so buckets fill quickly.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "Vvfs_filter_table.h"
#include "flowsteer/engine/filter_store.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/tuple.h"
#include "rtl_sim.h"

namespace {

using flowsteer::FlowTuple;
using flowsteer::regs::FilterErr;
using flowsteer::regs::FilterOp;

constexpr int kBucketBits = VFS_FILTER_TABLE_BUCKET_BITS;  // hw/params.json set "test"
constexpr int kWays = VFS_FILTER_TABLE_WAYS;
constexpr int kIdWidth = VFS_FILTER_TABLE_ID_WIDTH;
constexpr uint32_t kQueueMask = (1u << 11) - 1;

using Key = std::tuple<uint8_t, uint8_t, std::array<uint8_t, 16>, std::array<uint8_t, 16>,
                       uint16_t, uint16_t>;
Key key_of(const FlowTuple& t) { return {t.family, t.proto, t.src, t.dst, t.sport, t.dport}; }

// hw/README.md: the bucket is the Toeplitz hash (Microsoft key, ports included) of the tuple
uint32_t bucket_of(const FlowTuple& t) {
  return flowsteer::hash::toeplitz_tuple(t, flowsteer::hash::microsoft_key(), true) &
         ((1u << kBucketBits) - 1);
}

struct Ref {
  struct Entry {
    uint32_t id;
    uint32_t queue;
    uint32_t bucket;
  };
  std::map<Key, Entry> by_key;
  std::map<uint32_t, Key> by_id;
  std::map<uint32_t, int> bucket_fill;

  struct Rsp {
    FilterErr err;
    uint32_t id;
    uint32_t queue;
  };
  Rsp apply(FilterOp op, const FlowTuple& t, uint32_t id, uint32_t queue) {
    switch (op) {
      case FilterOp::kInsert: {
        if (by_id.count(id)) return {FilterErr::kIdInUse, id, 0};
        auto it = by_key.find(key_of(t));
        if (it != by_key.end()) return {FilterErr::kExists, it->second.id, it->second.queue};
        const uint32_t b = bucket_of(t);
        if (bucket_fill[b] == kWays) return {FilterErr::kFull, id, 0};
        by_key[key_of(t)] = {id, queue, b};
        by_id[id] = key_of(t);
        ++bucket_fill[b];
        return {FilterErr::kOk, id, queue};
      }
      case FilterOp::kRetarget: {
        auto it = by_id.find(id);
        if (it == by_id.end()) return {FilterErr::kNotFound, id, 0};
        by_key[it->second].queue = queue;
        return {FilterErr::kOk, id, queue};
      }
      case FilterOp::kDelete: {
        auto it = by_id.find(id);
        if (it == by_id.end()) return {FilterErr::kNotFound, id, 0};
        auto& e = by_key[it->second];
        --bucket_fill[e.bucket];
        by_key.erase(it->second);
        by_id.erase(it);
        return {FilterErr::kOk, id, 0};
      }
      case FilterOp::kLookup: {
        auto it = by_key.find(key_of(t));
        if (it == by_key.end()) return {FilterErr::kNotFound, 0, 0};
        return {FilterErr::kOk, it->second.id, it->second.queue};
      }
      case FilterOp::kClear:
        by_key.clear();
        by_id.clear();
        bucket_fill.clear();
        return {FilterErr::kOk, 0, 0};
      default:
        return {FilterErr::kBadOp, 0, 0};
    }
  }
  std::optional<Entry> find(const FlowTuple& t) const {
    auto it = by_key.find(key_of(t));
    if (it == by_key.end()) return std::nullopt;
    return it->second;
  }
};

struct Cmd {
  FilterOp op;
  FlowTuple t;
  uint32_t id;
  uint32_t queue;
};

class FilterRtl : public ::testing::Test {
 protected:
  void SetUp() override {
    sim_->s_lookup_valid = 0;
    drive_lookup(FlowTuple{}, 0);
    sim_->m_lookup_ready = 1;
    sim_->s_cmd_valid = 0;
    drive_cmd({FilterOp::kNop, FlowTuple{}, 0, 0});
    sim_.reset();
    wait_idle();
  }

  void drive_lookup(const FlowTuple& t, uint16_t user) {
    sim_->s_lookup_ipv6 = t.family == 6;
    sim_->s_lookup_proto = t.proto;
    flowsteer::testbench::rtl::set_be(sim_->s_lookup_src, t.src.data(), 16);
    flowsteer::testbench::rtl::set_be(sim_->s_lookup_dst, t.dst.data(), 16);
    sim_->s_lookup_sport = t.sport;
    sim_->s_lookup_dport = t.dport;
    sim_->s_lookup_user = user;
  }
  void drive_cmd(const Cmd& c) {
    sim_->s_cmd_op = uint8_t(c.op);
    sim_->s_cmd_ipv6 = c.t.family == 6;
    sim_->s_cmd_proto = c.t.proto;
    flowsteer::testbench::rtl::set_be(sim_->s_cmd_src, c.t.src.data(), 16);
    flowsteer::testbench::rtl::set_be(sim_->s_cmd_dst, c.t.dst.data(), 16);
    sim_->s_cmd_sport = c.t.sport;
    sim_->s_cmd_dport = c.t.dport;
    sim_->s_cmd_id = uint16_t(c.id);
    sim_->s_cmd_queue = uint16_t(c.queue);
  }
  void wait_idle() {
    for (int i = 0; i < (1 << kIdWidth) + 100 && sim_->busy; ++i) sim_.tick();
    ASSERT_FALSE(sim_->busy) << "clear sweep did not finish";
  }

  FlowTuple random_tuple() {
    FlowTuple t;
    t.family = (rng_() & 1) ? 6 : 4;
    static const uint8_t protos[] = {6, 17, 6, 17, 1, 50};
    t.proto = protos[rng_() % 6];
    for (size_t i = 0; i < t.addr_len(); ++i) {
      t.src[i] = uint8_t(rng_());
      t.dst[i] = uint8_t(rng_());
    }
    if (t.proto == 6 || t.proto == 17) {
      t.sport = uint16_t(rng_());
      t.dport = uint16_t(rng_());
    }
    return t;
  }
  // a tuple that differs from t in exactly one key field
  FlowTuple near_miss(FlowTuple t) {
    switch (rng_() % 6) {
      case 0: t.proto ^= 0x17; break;
      case 1: t.sport ^= uint16_t(1u << (rng_() % 16)); break;
      case 2: t.dport ^= uint16_t(1u << (rng_() % 16)); break;
      case 3: t.src[rng_() % t.addr_len()] ^= uint8_t(1u << (rng_() % 8)); break;
      case 4: t.dst[rng_() % t.addr_len()] ^= uint8_t(1u << (rng_() % 8)); break;
      default:
        if (t.family == 4) {
          t.family = 6;  // same first 4 address bytes, other family
        } else {
          t.dst[15] ^= 0x80;
        }
    }
    return t;
  }
  const FlowTuple& pick_known() {
    auto it = known_.begin();
    std::advance(it, long(rng_() % known_.size()));
    return *it;
  }
  FlowTuple lookup_tuple() {
    if (known_.empty() || rng_() % 4 == 0) return random_tuple();
    const FlowTuple& t = pick_known();
    return rng_() % 5 == 0 ? near_miss(t) : t;
  }
  Cmd random_cmd() {
    Cmd c{FilterOp::kInsert, FlowTuple{}, uint32_t(rng_() % (1u << kIdWidth)),
          uint32_t(rng_()) & kQueueMask};
    const int r = int(rng_() % 100);
    auto any_id = [&]() {
      if (!ref_.by_id.empty() && rng_() % 5 != 0) {
        auto it = ref_.by_id.begin();
        std::advance(it, long(rng_() % ref_.by_id.size()));
        return it->first;
      }
      return uint32_t(rng_() % (1u << kIdWidth));
    };
    if (r < 50) {
      c.op = FilterOp::kInsert;
      c.t = (!known_.empty() && rng_() % 8 == 0) ? pick_known() : random_tuple();
      if (rng_() % 8 == 0) c.id = any_id();
      known_.push_back(c.t);
      if (known_.size() > 600) known_.pop_front();
    } else if (r < 65) {
      c.op = FilterOp::kRetarget;
      c.id = any_id();
    } else if (r < 88) {
      c.op = FilterOp::kDelete;
      c.id = any_id();
    } else if (r < 98) {
      c.op = FilterOp::kLookup;
      c.t = lookup_tuple();
    } else {
      c.op = rng_() % 4 == 0 ? FilterOp(9) : FilterOp::kNop;  // bad ops
    }
    return c;
  }

  // Streams `n_lookups` lookups and `cmds` commands interleaved; checks everything.
  void run(std::vector<Cmd> cmds, int n_lookups, int lookup_pct, int stall_pct) {
    size_t ci = 0;
    int sent = 0;
    uint16_t tag = 0;
    std::deque<std::pair<uint16_t, std::optional<Ref::Entry>>> expect;
    std::optional<Ref::Rsp> pending;
    bool lookup_offer = false;
    FlowTuple lt;
    int idle = 0;
    while (ci < cmds.size() || sent < n_lookups || !expect.empty() || pending) {
      ASSERT_LT(idle, 5000) << "table stopped making progress";
      if (!lookup_offer && sent < n_lookups && int(rng_() % 100) < lookup_pct) {
        lt = lookup_tuple();
        lookup_offer = true;
      }
      sim_->s_lookup_valid = lookup_offer;
      if (lookup_offer) drive_lookup(lt, tag);
      const bool cmd_offer = !pending && ci < cmds.size() && rng_() % 3 == 0;
      sim_->s_cmd_valid = cmd_offer;
      if (cmd_offer) drive_cmd(cmds[ci]);
      sim_->m_lookup_ready = int(rng_() % 100) >= stall_pct;
      sim_.settle();
      bool progress = false;
      if (sim_->m_lookup_valid && sim_->m_lookup_ready) {
        progress = true;
        ASSERT_FALSE(expect.empty()) << "unexpected lookup result";
        const auto& [etag, want] = expect.front();
        EXPECT_EQ(sim_->m_lookup_user, etag);
        EXPECT_EQ(bool(sim_->m_lookup_hit), want.has_value()) << "lookup " << etag;
        if (want && sim_->m_lookup_hit) {
          EXPECT_EQ(sim_->m_lookup_id, want->id) << "lookup " << etag;
          EXPECT_EQ(sim_->m_lookup_queue, want->queue) << "lookup " << etag;
        }
        expect.pop_front();
        ++lookups_checked_;
      }
      if (sim_->rsp_valid) {
        progress = true;
        ASSERT_TRUE(pending.has_value()) << "response without a command";
        EXPECT_EQ(int(sim_->rsp_err), int(pending->err)) << "command " << ci - 1;
        if (pending->err == FilterErr::kOk || pending->err == FilterErr::kExists) {
          EXPECT_EQ(sim_->rsp_id, pending->id) << "command " << ci - 1;
          EXPECT_EQ(sim_->rsp_queue, pending->queue) << "command " << ci - 1;
        }
        EXPECT_EQ(sim_->count, ref_.by_key.size()) << "command " << ci - 1;
        ++err_seen_[int(pending->err)];
        pending.reset();
      }
      // acceptance happens at this edge: lookups and commands never in the same cycle
      const bool ltake = lookup_offer && sim_->s_lookup_ready;
      const bool ctake = cmd_offer && sim_->s_cmd_ready;
      ASSERT_FALSE(ltake && ctake);
      if (ltake) {
        expect.emplace_back(tag, ref_.find(lt));
        ++tag;
        ++sent;
        lookup_offer = false;
        progress = true;
      }
      if (ctake) {
        const Cmd& c = cmds[ci++];
        pending = ref_.apply(c.op, c.t, c.id, c.queue);
        check_golden(c, *pending);
        progress = true;
      }
      sim_.tick();
      idle = progress ? 0 : idle + 1;
      if (ctake && cmds[ci - 1].op == FilterOp::kClear) idle = -(1 << kIdWidth);
    }
    sim_->s_lookup_valid = 0;
    sim_->s_cmd_valid = 0;
  }

  // the golden engine model's filter store must give the same answers as the reference
  void check_golden(const Cmd& c, const Ref::Rsp& want) {
    namespace fe = flowsteer::engine;
    const uint16_t q = uint16_t(c.queue);
    switch (c.op) {
      case FilterOp::kInsert:
        EXPECT_EQ(int(store_.insert(c.t, c.id, q)), int(want.err)) << "golden insert";
        break;
      case FilterOp::kRetarget:
        EXPECT_EQ(int(store_.retarget(c.id, q)), int(want.err)) << "golden retarget";
        break;
      case FilterOp::kDelete:
        EXPECT_EQ(int(store_.remove(c.id)), int(want.err)) << "golden delete";
        break;
      case FilterOp::kLookup: {
        const std::optional<fe::FilterHit> h = store_.lookup(c.t);
        EXPECT_EQ(h.has_value(), want.err == FilterErr::kOk) << "golden lookup";
        if (h) {
          EXPECT_EQ(h->queue, want.queue);
        }
        break;
      }
      case FilterOp::kClear: store_.clear(); break;
      default: break;
    }
    EXPECT_EQ(store_.size(), ref_.by_key.size());
  }

  flowsteer::engine::FilterStore store_{kBucketBits, kWays, kIdWidth};
  flowsteer::testbench::rtl::Sim<Vvfs_filter_table> sim_{5};
  std::mt19937_64 rng_{2024};
  Ref ref_;
  std::deque<FlowTuple> known_;
  std::map<int, int> err_seen_;
  int lookups_checked_ = 0;
};

TEST_F(FilterRtl, RandomMixMatchesReference) {
  std::vector<Cmd> cmds;
  for (int i = 0; i < 3000; ++i) cmds.push_back(random_cmd());
  run(cmds, 6000, 60, 20);
  EXPECT_GT(lookups_checked_, 5000);
  for (FilterErr e : {FilterErr::kOk, FilterErr::kFull, FilterErr::kExists, FilterErr::kNotFound,
                      FilterErr::kIdInUse, FilterErr::kBadOp})
    EXPECT_GT(err_seen_[int(e)], 0) << "error code never exercised: " << int(e);
}

TEST_F(FilterRtl, OneBucketFillsThenReportsFull) {
  // tuples that all land in bucket 5: WAYS inserts succeed, the next ones are FULL,
  // a delete frees one way for exactly one more insert
  std::vector<FlowTuple> same;
  while (same.size() < kWays + 3) {
    FlowTuple t = random_tuple();
    if (bucket_of(t) == 5) same.push_back(t);
  }
  std::vector<Cmd> cmds;
  for (size_t i = 0; i < same.size(); ++i)
    cmds.push_back({FilterOp::kInsert, same[i], uint32_t(100 + i), uint32_t(i)});
  cmds.push_back({FilterOp::kDelete, FlowTuple{}, 101, 0});
  cmds.push_back({FilterOp::kInsert, same[kWays], 200, 7});
  cmds.push_back({FilterOp::kInsert, same[kWays + 1], 201, 8});
  for (auto& t : same) cmds.push_back({FilterOp::kLookup, t, 0, 0});
  run(cmds, 0, 0, 0);
  EXPECT_EQ(err_seen_[int(FilterErr::kFull)], 3 + 1);
}

TEST_F(FilterRtl, FillWholeTableThenClear) {
  // insert until every bucket is full (capacity 2^6 * 4 = 256), then CLEAR
  std::vector<Cmd> cmds;
  for (int i = 0; i < 1000; ++i) {
    FlowTuple t = random_tuple();
    known_.push_back(t);
    cmds.push_back({FilterOp::kInsert, t, uint32_t(i), uint32_t(i) & kQueueMask});
  }
  run(cmds, 2000, 50, 10);
  EXPECT_GT(ref_.by_key.size(), 200u);
  EXPECT_GT(err_seen_[int(FilterErr::kFull)], 0);
  run({{FilterOp::kClear, FlowTuple{}, 0, 0}}, 0, 0, 0);
  EXPECT_EQ(sim_->count, 0u);
  run({}, 500, 80, 0);  // everything misses now
  std::vector<Cmd> again;
  for (int i = 0; i < 50; ++i) again.push_back({FilterOp::kInsert, known_[size_t(i)], uint32_t(i), 1});
  run(again, 300, 50, 30);
}

TEST_F(FilterRtl, LookupLatencyIsFourAndOnePerClock) {
  FlowTuple t = random_tuple();
  run({{FilterOp::kInsert, t, 3, 9}}, 0, 0, 0);
  sim_->m_lookup_ready = 1;
  sim_->s_cmd_valid = 0;
  int accepted = 0, results = 0;
  uint64_t first_accept = 0, first_result = 0;
  for (int c = 0; c < 40; ++c) {
    sim_->s_lookup_valid = c < 30;
    drive_lookup(t, uint16_t(c));
    sim_.settle();
    if (sim_->m_lookup_valid) {
      if (results++ == 0) first_result = sim_.cycles();
      EXPECT_TRUE(sim_->m_lookup_hit);
      EXPECT_EQ(sim_->m_lookup_queue, 9u);
    }
    if (sim_->s_lookup_valid && sim_->s_lookup_ready) {
      if (accepted++ == 0) first_accept = sim_.cycles();
    }
    sim_.tick();
  }
  EXPECT_EQ(accepted, 30);
  EXPECT_EQ(results, 30);
  EXPECT_EQ(first_result - first_accept, 4u);
}

}  // namespace
