// fs_steer_driver (with fs_filter_table behind it, test top tb_fs_steer_driver) against the
// golden engine::EngineModel::ndo_rx_flow_steer: every rc, every event, the counters and the
// event FIFO fill. The model gets the same requests in the same total order: counter writes,
// host table commands and requests at the clock the RTL accepts them (a host command before
// a request accepted at the same clock), then the event pop of that clock.
// Test top: BUCKET_BITS 3, WAYS 2, ID_WIDTH 16, event FIFO depth 8.
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "Vvfs_steer_driver.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/engine/filter_store.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/skb.h"
#include "flowsteer/tuple.h"
#include "rtl_sim.h"

namespace {

using flowsteer::FlowTuple;
using flowsteer::engine::EngineModel;
using flowsteer::engine::EngineParams;
using flowsteer::engine::EventType;
using flowsteer::engine::FilterErr;
using flowsteer::engine::FilterEvent;
using flowsteer::kernel::Skb;
using flowsteer::regs::FilterOp;

constexpr unsigned kBucketBits = 3;
constexpr unsigned kWays = 2;
constexpr uint32_t kEvtDepth = 8;
constexpr uint64_t kReqCycleBound = 2000;   // accept-to-response and wait-to-accept bound
constexpr uint64_t kInitCycles = 70000;     // table sweep after reset: 2^ID_WIDTH clocks

struct Req {
  Skb skb;
  uint16_t queue = 0;
  uint32_t flow_id = 0;
};

struct HostCmd {
  bool is_write = false;  // counter write (else a table command)
  int32_t last_id = 0;
  FilterOp op = FilterOp::kDelete;
  uint32_t id = 0;
};

// What the RTL's steerable bit means: the parse class allows aRFS (the RTL adds TCP/UDP).
bool steerable_of(const Skb& s) {
  return s.dissect_ok && (s.tuple.family == 4 || s.tuple.family == 6) && !s.ipv4_fragment;
}

FlowTuple random_tuple(std::mt19937_64& rng, uint8_t proto) {
  FlowTuple t;
  t.family = (rng() & 1) ? 6 : 4;
  t.proto = proto;
  const size_t n = t.family == 6 ? 16 : 4;
  for (size_t i = 0; i < n; ++i) t.src[i] = uint8_t(rng());
  for (size_t i = 0; i < n; ++i) t.dst[i] = uint8_t(rng());
  t.sport = uint16_t(rng());
  t.dport = uint16_t(rng());
  return t;
}

Skb make_skb(const FlowTuple& t, uint32_t hash) {
  Skb s;
  s.tuple = t;
  s.hash = hash;
  return s;
}

class Bench {
 public:
  explicit Bench(uint64_t seed)
      : seed_(seed), sim_(seed), model_(params()), rng_(seed) {
    auto& d = sim_.dut();
    // randReset(2) randomizes the inputs too: drive every one before reset
    d.clk = 0;
    d.rst = 1;
    d.s_drv_req_valid = 0;
    drive_req(Req{});
    d.s_drv_req_lk_valid = 0;
    drive_lookup(Req{});
    d.m_drv_rsp_ready = 0;
    d.cfg_last_id_wr_valid = 0;
    d.cfg_last_id_wr_data = 0;
    d.m_evt_ready = 0;
    d.s_host_cmd_valid = 0;
    d.s_host_cmd_op = 0;
    d.s_host_cmd_id = 0;
    sim_.reset(4);
    for (uint64_t i = 0; i < kInitCycles && d.flt_busy; ++i) sim_.tick();
    EXPECT_FALSE(d.flt_busy) << "filter table init sweep did not finish";
  }
  static EngineParams params() {
    EngineParams p;
    p.filter_bucket_bits = kBucketBits;
    p.filter_ways = kWays;
    p.event_fifo_depth = kEvtDepth;
    return p;
  }

  // knobs
  double p_rsp_ready = 1.0;  // response back-pressure
  double p_pop = 0.0;        // event pops
  double p_gap = 0.0;        // idle clock before a request
  double p_given = 0.0;      // a request carries its lookup (the model's table at that clock)

  EngineModel& model() { return model_; }
  Vvfs_steer_driver& dut() { return sim_.dut(); }
  std::string where() const {
    return "seed " + std::to_string(seed_) + ", clock " + std::to_string(sim_.cycles());
  }

  void push_req(const Req& r) { reqs_.push_back(r); }
  void push_host(const HostCmd& c) { hosts_.push_back(c); }
  bool idle() const {
    return reqs_.empty() && hosts_.empty() && exp_rsp_.empty() && exp_host_.empty();
  }

  // One clock. Returns false on a mismatch or a hang (the failure is recorded).
  bool cycle() {
    auto& d = sim_.dut();
    // ---- drive
    const bool want_req = !reqs_.empty() && !in_gap_;
    d.s_drv_req_valid = want_req;
    if (want_req) drive_req(reqs_.front());
    // the lookup is given only when no host command can come before the request: a table
    // command in the same clock is ordered first (as no packet passes a draining FLT_CMD)
    const bool given = want_req && gv_this_ && hosts_.empty() && exp_host_.empty();
    d.s_drv_req_lk_valid = given;
    if (given) drive_lookup(reqs_.front());
    const bool want_host = !hosts_.empty();
    d.cfg_last_id_wr_valid = want_host && hosts_.front().is_write;
    d.cfg_last_id_wr_data = want_host ? uint32_t(hosts_.front().last_id) : 0;
    d.s_host_cmd_valid = want_host && !hosts_.front().is_write;
    d.s_host_cmd_op = want_host ? uint8_t(hosts_.front().op) : 0;
    d.s_host_cmd_id = want_host ? hosts_.front().id : 0;
    d.m_drv_rsp_ready = coin(p_rsp_ready);
    d.m_evt_ready = coin(p_pop);
    sim_.settle();

    // ---- observe this clock's handshakes (registered outputs, settled inputs)
    const bool req_fire = d.s_drv_req_valid && d.s_drv_req_ready;
    const bool cfg_fire = d.cfg_last_id_wr_valid && d.cfg_last_id_wr_ready;
    const bool host_fire = d.s_host_cmd_valid && d.s_host_cmd_ready;
    const bool rsp_fire = d.m_drv_rsp_valid && d.m_drv_rsp_ready;
    const bool evt_fire = d.m_evt_valid && d.m_evt_ready;

    if (d.host_rsp_valid) {
      if (exp_host_.empty()) return fail("host response without a command");
      const FilterErr e = exp_host_.front();
      exp_host_.pop_front();
      if (d.host_rsp_err != uint8_t(e))
        return fail("host command err " + std::to_string(d.host_rsp_err) + ", model " +
                    flowsteer::engine::filter_err_name(e));
    }
    // an answer: taken from m_drv_rsp_*, or with the request (m_drv_rsp_now, latency 0)
    auto answer = [&](int32_t got, uint32_t got_tag) {
      if (exp_rsp_.empty()) return fail("response without a request");
      const auto [rc, tag] = exp_rsp_.front();
      exp_rsp_.pop_front();
      if (got != rc || got_tag != tag)
        return fail("rc " + std::to_string(got) + " tag " + std::to_string(got_tag) +
                    ", model rc " + std::to_string(rc) + " tag " + std::to_string(tag));
      last_rc_ = got;
      if (got == -ENOSPC) ++n_enospc_;
      if (got == -EADDRINUSE) ++n_eaddrinuse_;
      if (got == -EBUSY) ++n_ebusy_;
      if (got == -EPROTONOSUPPORT) ++n_eproto_;
      if (got < 0 && got != -ENOSPC && got != -EADDRINUSE && got != -EBUSY &&
          got != -EPROTONOSUPPORT)
        ++n_negative_id_;
      last_latency_ = sim_.cycles() - accept_cycle_;
      ++responses_;
      wait_ = 0;
      return true;
    };
    if (rsp_fire && !answer(int32_t(d.m_drv_rsp_rc), d.m_drv_rsp_tag)) return false;

    // ---- the model, in the RTL's order for this clock
    if (cfg_fire) {
      model_.set_last_fltr_id(hosts_.front().last_id);
      hosts_.pop_front();
    } else if (host_fire) {
      const HostCmd c = hosts_.front();
      hosts_.pop_front();
      if (c.op == FilterOp::kDelete) {
        const FilterErr e = model_.filter_delete(c.id);
        if (e == FilterErr::kOk) live_.erase(c.id);
        exp_host_.push_back(e);
      } else {
        return fail("test issues DELETE only");
      }
    }
    if (req_fire) {
      const Req r = reqs_.front();
      reqs_.pop_front();
      if (given) ++given_;
      gv_this_ = coin(p_given);
      const uint64_t adds = model_.counters().steer_adds;
      const uint64_t moves = model_.counters().steer_retargets;
      const int rc = model_.ndo_rx_flow_steer(r.skb, r.queue, r.flow_id);
      if (rc < 0) ++model_errors_;
      if (model_.counters().steer_adds != adds) live_.insert(uint32_t(rc));
      exp_rsp_.push_back({rc, tag_});
      accept_cycle_ = sim_.cycles();
      // a refusal announced from registers: answered now, rc < 0 unless a given hit on its queue
      if (d.m_drv_rsp_refuse) {
        const bool own = d.s_drv_req_lk_hit && d.s_drv_req_lk_queue == d.s_drv_req_queue;
        if (!d.m_drv_rsp_now || (rc >= 0 && !own))
          return fail("m_drv_rsp_refuse, but the request was answered " +
                      std::string(d.m_drv_rsp_now ? "now" : "later") + " with rc " +
                      std::to_string(rc));
        ++refuse_answers_;
      }
      // answered with the request: only an answer that changes no filter
      if (d.m_drv_rsp_now) {
        if (model_.counters().steer_adds != adds || model_.counters().steer_retargets != moves)
          return fail("a filter change answered with its request");
        if (!answer(int32_t(d.m_drv_rsp_now_rc), tag_)) return false;
        ++now_answers_;
      }
      tag_ = (tag_ + 1) & 0xffff;
      wait_ = 0;
      in_gap_ = coin(p_gap);
    } else if (in_gap_) {
      in_gap_ = !coin(0.5);
    }
    if (evt_fire) {
      const auto e = model_.pop_event();
      if (!e) return fail("RTL popped an event, the model has none");
      const FilterEvent got = rtl_head();
      if (!(got == *e))
        return fail("event mismatch: RTL type " + std::to_string(int(got.type)) + " id " +
                    std::to_string(got.id) + " q " + std::to_string(got.queue) + " flow " +
                    std::to_string(got.flow_id) + " " + flowsteer::to_string(got.tuple) +
                    "; model type " + std::to_string(int(e->type)) + " id " +
                    std::to_string(e->id) + " q " + std::to_string(e->queue) + " flow " +
                    std::to_string(e->flow_id) + " " + flowsteer::to_string(e->tuple));
      ++pops_;
    }

    sim_.tick();

    // ---- after the clock: with no request in flight the state must equal the model's
    if (!d.busy) {
      const auto& c = model_.counters();
      if (d.stat_steer_calls != c.steer_calls || d.stat_steer_adds != c.steer_adds ||
          d.stat_steer_retargets != c.steer_retargets ||
          d.stat_evt_refusals != c.event_fifo_refusals ||
          d.stat_driver_errors != model_errors_)
        return fail("counters calls/adds/retargets/refusals/errors " +
                    std::to_string(d.stat_steer_calls) + "/" + std::to_string(d.stat_steer_adds) +
                    "/" + std::to_string(d.stat_steer_retargets) + "/" +
                    std::to_string(d.stat_evt_refusals) + "/" +
                    std::to_string(d.stat_driver_errors) + ", model " +
                    std::to_string(c.steer_calls) + "/" + std::to_string(c.steer_adds) + "/" +
                    std::to_string(c.steer_retargets) + "/" +
                    std::to_string(c.event_fifo_refusals) + "/" + std::to_string(model_errors_));
      if (d.evt_count != model_.events_pending())
        return fail("event count " + std::to_string(d.evt_count) + ", model " +
                    std::to_string(model_.events_pending()));
    }
    if (!reqs_.empty() || !exp_rsp_.empty()) {
      if (++wait_ > kReqCycleBound) return fail("request hangs");
    }
    return true;
  }

  // Runs until every queued request and host command has been answered.
  bool drain(uint64_t bound = 100000) {
    for (uint64_t i = 0; i < bound; ++i) {
      if (idle()) return true;
      if (!cycle()) return false;
    }
    return fail("drain did not finish");
  }
  // One request, answered; returns its rc (the comparison with the model is in cycle()).
  int32_t steer(const Req& r) {
    push_req(r);
    EXPECT_TRUE(drain()) << where();
    return last_rc_;
  }
  void set_last_id(int32_t v) {
    push_host(HostCmd{true, v, FilterOp::kNop, 0});
    EXPECT_TRUE(drain()) << where();
  }
  // Pops every event (RTL and model compared in cycle()).
  void pop_all() {
    const double p = p_pop;
    p_pop = 1.0;
    for (int i = 0; i < 1000 && (model_.events_pending() || dut().m_evt_valid); ++i) {
      if (!cycle()) break;
    }
    p_pop = p;
    EXPECT_EQ(model_.events_pending(), 0u) << where();
  }
  void idle_clocks(int n) {
    for (int i = 0; i < n; ++i) {
      if (!cycle()) return;
    }
  }

  const std::set<uint32_t>& live() const { return live_; }
  uint64_t responses() const { return responses_; }
  uint64_t pops() const { return pops_; }
  uint64_t last_latency() const { return last_latency_; }
  uint64_t now_answers() const { return now_answers_; }  // answered with their request
  uint64_t refuse_answers() const { return refuse_answers_; }  // ... announced as refusals
  uint64_t given() const { return given_; }
  // the next request carries its lookup (if no host command is due)
  void give_next(bool on) { gv_this_ = on; }
  std::mt19937_64& rng() { return rng_; }
  bool coin(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }

 private:
  void drive_req(const Req& r) {
    auto& d = sim_.dut();
    const FlowTuple& t = r.skb.tuple;
    d.s_drv_req_queue = r.queue;
    d.s_drv_req_flow_id = r.flow_id;
    d.s_drv_req_hash = r.skb.hash;
    d.s_drv_req_steerable = steerable_of(r.skb);
    d.s_drv_req_ipv6 = t.family == 6;
    d.s_drv_req_proto = t.proto;
    flowsteer::testbench::rtl::set_be(d.s_drv_req_src, t.src.data(), 16);
    flowsteer::testbench::rtl::set_be(d.s_drv_req_dst, t.dst.data(), 16);
    d.s_drv_req_sport = t.sport;
    d.s_drv_req_dport = t.dport;
    d.s_drv_req_tag = tag_;
  }
  // the request's lookup as the model's table answers it now
  void drive_lookup(const Req& r) {
    auto& d = sim_.dut();
    const auto hit = model_.filter_lookup(r.skb.tuple);
    d.s_drv_req_lk_hit = hit.has_value();
    d.s_drv_req_lk_id = hit ? hit->id : 0;
    d.s_drv_req_lk_queue = hit ? hit->queue : 0;
    // the engine top's "free way, nothing logged since the lookup": true here, the lookup is now
    d.s_drv_req_lk_free = model_.filters().has_free_way(r.skb.tuple);
  }
  FilterEvent rtl_head() {
    auto& d = sim_.dut();
    FilterEvent e;
    e.type = EventType(d.m_evt_type);
    e.id = d.m_evt_id;
    e.queue = d.m_evt_queue;
    e.flow_id = d.m_evt_flow_id;
    e.hash = d.m_evt_hash;
    e.tuple.family = d.m_evt_ipv6 ? 6 : 4;
    e.tuple.proto = d.m_evt_proto;
    flowsteer::testbench::rtl::get_be(d.m_evt_src, e.tuple.src.data(), 16);
    flowsteer::testbench::rtl::get_be(d.m_evt_dst, e.tuple.dst.data(), 16);
    e.tuple.sport = d.m_evt_sport;
    e.tuple.dport = d.m_evt_dport;
    return e;
  }
  bool fail(const std::string& what) {
    ADD_FAILURE() << what << " (" << where() << ")";
    return false;
  }

  uint64_t seed_;
  flowsteer::testbench::rtl::Sim<Vvfs_steer_driver> sim_;
  EngineModel model_;
  std::mt19937_64 rng_;
  std::deque<Req> reqs_;
  std::deque<HostCmd> hosts_;
  std::deque<std::pair<int32_t, uint32_t>> exp_rsp_;
  std::deque<FilterErr> exp_host_;
  std::set<uint32_t> live_;
  uint32_t tag_ = 1;
  bool in_gap_ = false;
  uint64_t wait_ = 0, accept_cycle_ = 0, last_latency_ = 0, now_answers_ = 0;
  uint64_t refuse_answers_ = 0;
  uint64_t responses_ = 0, pops_ = 0, model_errors_ = 0, given_ = 0;
  bool gv_this_ = false;

 public:
  uint64_t n_enospc_ = 0, n_eaddrinuse_ = 0, n_ebusy_ = 0, n_eproto_ = 0, n_negative_id_ = 0;

 private:
  int32_t last_rc_ = 0;
};

// ------------------------------------------------------------------ directed

Req req_of(const FlowTuple& t, uint16_t queue, uint32_t flow_id = 7, uint32_t hash = 0x1234) {
  Req r;
  r.skb = make_skb(t, hash);
  r.queue = queue;
  r.flow_id = flow_id;
  return r;
}

FlowTuple tcp4(uint8_t a, uint16_t sport) {
  FlowTuple t;
  t.family = 4;
  t.proto = flowsteer::kIpProtoTcp;
  t.src = {10, 0, 0, a};
  t.dst = {192, 168, 1, 1};
  t.sport = sport;
  t.dport = 80;
  return t;
}

// n distinct tuples whose bucket is `bucket`
std::vector<FlowTuple> same_bucket(uint32_t bucket, size_t n) {
  std::vector<FlowTuple> v;
  for (uint16_t p = 1000; v.size() < n; ++p) {
    FlowTuple t = tcp4(9, p);
    if (flowsteer::engine::filter_bucket(t, kBucketBits) == bucket) v.push_back(t);
  }
  return v;
}

TEST(SteerDriverRtl, NewFlowSameQueueRetarget) {
  Bench b(11);
  const FlowTuple t = tcp4(1, 5000);
  EXPECT_EQ(b.steer(req_of(t, 3)), 1);  // counter 0 -> first id 1
  EXPECT_EQ(b.last_latency(), 9u) << "insert latency";
  EXPECT_EQ(b.model().events_pending(), 1u);
  EXPECT_EQ(b.steer(req_of(t, 3, 8)), 1);  // hit, same queue: no event
  EXPECT_EQ(b.last_latency(), 5u) << "hit latency";
  EXPECT_EQ(b.model().events_pending(), 1u);
  EXPECT_EQ(b.steer(req_of(t, 5, 9)), 1);  // hit, other queue: RETARGET
  EXPECT_EQ(b.last_latency(), 9u) << "retarget latency";
  EXPECT_EQ(b.model().events_pending(), 2u);
  EXPECT_EQ(b.dut().stat_steer_retargets, 1u);
  b.pop_all();
  EXPECT_EQ(b.steer(req_of(t, 5)), 1);
  EXPECT_EQ(b.steer(req_of(tcp4(2, 5000), 0)), 2);
  b.pop_all();
  EXPECT_EQ(b.dut().stat_steer_calls, 5u);
  EXPECT_EQ(b.dut().stat_steer_adds, 2u);
  EXPECT_EQ(b.dut().flt_count, 2u);
}

TEST(SteerDriverRtl, NotSteerable) {
  Bench b(12);
  Req r = req_of(tcp4(1, 1), 2);
  r.skb.tuple.proto = 1;  // ICMP: steerable bit set, the protocol check refuses
  EXPECT_EQ(b.steer(r), -EPROTONOSUPPORT);
  EXPECT_EQ(b.last_latency(), 0u) << "refusal latency: answered with the request";
  r = req_of(tcp4(1, 1), 2);
  r.skb.ipv4_fragment = true;
  EXPECT_EQ(b.steer(r), -EPROTONOSUPPORT);
  r = req_of(tcp4(1, 1), 2);
  r.skb.dissect_ok = false;
  EXPECT_EQ(b.steer(r), -EPROTONOSUPPORT);
  r = req_of(tcp4(1, 1), 2);
  r.skb.tuple.proto = flowsteer::kIpProtoUdp;
  EXPECT_EQ(b.steer(r), 1);
  EXPECT_EQ(b.dut().stat_steer_calls, 4u);
  EXPECT_EQ(b.dut().stat_driver_errors, 3u);
  EXPECT_EQ(b.dut().stat_steer_adds, 1u);
}

TEST(SteerDriverRtl, FullBucket) {
  Bench b(13);
  const auto ts = same_bucket(5, kWays + 1);
  for (unsigned i = 0; i < kWays; ++i) EXPECT_EQ(b.steer(req_of(ts[i], 1)), int(i + 1));
  EXPECT_EQ(b.steer(req_of(ts[kWays], 1)), -ENOSPC);
  EXPECT_EQ(b.dut().cfg_last_id, kWays + 1);  // the drawn id is spent
  EXPECT_EQ(b.steer(req_of(tcp4(3, 3), 1)), int(kWays + 2)) << "bucket 5 only is full";
  b.pop_all();
}

TEST(SteerDriverRtl, IdWrap) {
  Bench b(14);
  b.set_last_id(65533);
  EXPECT_EQ(b.steer(req_of(tcp4(1, 1), 0)), 65534);
  EXPECT_EQ(b.steer(req_of(tcp4(2, 1), 0)), 0);  // 65535 % 0xFFFF
  EXPECT_EQ(b.steer(req_of(tcp4(3, 1), 0)), 1);
  EXPECT_EQ(b.dut().cfg_last_id, 65536u);
  b.pop_all();
}

TEST(SteerDriverRtl, NegativeIdsAfterIntMax) {
  Bench b(15);
  b.set_last_id(INT32_MAX);
  EXPECT_EQ(b.steer(req_of(tcp4(1, 1), 0)), -32768);  // INT_MIN % 0xFFFF
  EXPECT_EQ(b.last_latency(), 6u) << "negative id latency";
  EXPECT_EQ(b.dut().cfg_last_id, 0x80000000u);         // advanced, nothing inserted
  EXPECT_EQ(b.dut().flt_count, 0u);
  EXPECT_EQ(b.model().events_pending(), 0u);
  EXPECT_EQ(b.steer(req_of(tcp4(1, 1), 0)), int32_t(INT32_MIN + 1) % 0xFFFF);
  // -65535 % 0xFFFF = 0: not negative, so it is inserted as id 0
  b.set_last_id(-65536);
  EXPECT_EQ(b.steer(req_of(tcp4(1, 1), 0)), 0);
  EXPECT_EQ(b.dut().flt_count, 1u);
  EXPECT_EQ(b.steer(req_of(tcp4(2, 1), 0)), -65534);
  b.set_last_id(-2);
  EXPECT_EQ(b.steer(req_of(tcp4(3, 1), 0)), -1);
  EXPECT_EQ(b.steer(req_of(tcp4(3, 1), 0)), -EADDRINUSE) << "id 0 is live";
  // across INT_MAX by the counter's steps (the id steps with it, no pipeline in between)
  b.set_last_id(INT32_MAX - 2);
  EXPECT_EQ(b.steer(req_of(tcp4(7, 1), 0)), (INT32_MAX - 1) % 0xFFFF);
  EXPECT_EQ(b.steer(req_of(tcp4(8, 1), 0)), INT32_MAX % 0xFFFF);
  EXPECT_EQ(b.steer(req_of(tcp4(9, 1), 0)), -32768);
  EXPECT_EQ(b.dut().cfg_last_id, 0x80000000u);
  b.pop_all();
}

TEST(SteerDriverRtl, IdInUse) {
  Bench b(16);
  EXPECT_EQ(b.steer(req_of(tcp4(1, 1), 0)), 1);
  b.set_last_id(65535);  // next 65536 -> id 1, live
  EXPECT_EQ(b.steer(req_of(tcp4(2, 1), 0)), -EADDRINUSE);
  EXPECT_EQ(b.dut().cfg_last_id, 65536u);  // the id is spent: the next try gets id 2
  EXPECT_EQ(b.steer(req_of(tcp4(2, 1), 0)), 2);
  b.set_last_id(65535);
  b.push_host(HostCmd{false, 0, FilterOp::kDelete, 1});
  EXPECT_TRUE(b.drain());
  EXPECT_EQ(b.steer(req_of(tcp4(3, 1), 0)), 1);  // id 1 free again
  b.pop_all();
}

TEST(SteerDriverRtl, FifoFullRefusalThenPop) {
  Bench b(17);
  std::vector<FlowTuple> ts;
  for (uint8_t i = 0; ts.size() < kEvtDepth + 1; ++i) {
    const FlowTuple t = tcp4(uint8_t(100 + i), 7);
    // at most one tuple per bucket so the table cannot fill first
    bool clash = false;
    for (const auto& u : ts)
      clash |= flowsteer::engine::filter_bucket(u, kBucketBits) ==
               flowsteer::engine::filter_bucket(t, kBucketBits);
    if (!clash || ts.size() >= (1u << kBucketBits)) ts.push_back(t);
  }
  for (uint32_t i = 0; i < kEvtDepth; ++i) EXPECT_EQ(b.steer(req_of(ts[i], 1)), int(i + 1));
  EXPECT_EQ(b.dut().evt_count, kEvtDepth);
  EXPECT_EQ(b.steer(req_of(ts[kEvtDepth], 1)), -EBUSY);  // new flow
  EXPECT_EQ(b.last_latency(), 6u) << "refused insert latency";
  EXPECT_EQ(b.steer(req_of(ts[0], 2)), -EBUSY);          // retarget
  EXPECT_EQ(b.last_latency(), 5u) << "refused retarget latency";
  EXPECT_EQ(b.steer(req_of(ts[0], 1)), 1);               // same queue: no event needed
  EXPECT_EQ(b.dut().stat_evt_refusals, 2u);
  EXPECT_EQ(b.dut().cfg_last_id, kEvtDepth);             // nothing allocated
  b.p_pop = 1.0;                                          // one pop
  while (b.pops() == 0) ASSERT_TRUE(b.cycle());
  b.p_pop = 0.0;
  EXPECT_EQ(b.steer(req_of(ts[0], 2)), 1);  // retarget now fits
  EXPECT_EQ(b.steer(req_of(ts[kEvtDepth], 1)), -EBUSY);
  b.pop_all();
  const int id = b.steer(req_of(ts[kEvtDepth], 1));
  EXPECT_TRUE(id == int(kEvtDepth + 1) || id == -ENOSPC) << id;
  b.pop_all();
}

// The lookup given with the request (the engine top gives the caller's forwarded lookup):
// no LOOKUP command, the answer is decided in the clock the request is taken, and given in
// that clock when it needs no table command (m_drv_rsp_now); an insert the bucket has room
// for, with an id above every stored one, is answered the clock after (the fast insert; the
// bench gives the model's free-way answer with the lookup).
TEST(SteerDriverRtl, GivenLookup) {
  Bench b(18);
  const FlowTuple t = tcp4(1, 5000);
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(t, 3)), 1);
  EXPECT_EQ(b.last_latency(), 1u) << "fast insert: a free way, an id above id_mark";
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(t, 3, 8)), 1);
  EXPECT_EQ(b.last_latency(), 0u) << "hit latency, lookup given: answered with the request";
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(t, 5, 9)), 1);
  EXPECT_EQ(b.last_latency(), 1u) << "retarget latency, lookup given: posted, answered the next clock";
  EXPECT_EQ(b.dut().stat_steer_retargets, 1u);
  b.idle_clocks(8);
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(tcp4(2, 5000), 0)), 2);
  EXPECT_EQ(b.last_latency(), 1u) << "fast insert, counter settled";
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(tcp4(3, 5000), 0)), 3);
  // the fast insert before keeps the driver busy until the table answers it (the request
  // waits to be taken); its id stepped with the counter, so this one is fast too
  EXPECT_EQ(b.last_latency(), 1u) << "back to back: the id steps with the counter, no settle";
  // a counter write: the allocation waits for the id pipeline (5 clocks after the write)
  b.set_last_id(100);
  b.give_next(true);
  const int rc = b.steer(req_of(tcp4(5, 5000), 0));
  EXPECT_TRUE(rc == 101 || rc == -ENOSPC) << rc;  // (the model decides; the bench compares)
  EXPECT_GT(b.last_latency(), 4u) << "the id waits for the counter write";
  EXPECT_EQ(b.given(), 6u);
  b.pop_all();
  // a full event FIFO refuses from the given answer as from the looked-up one
  for (uint8_t i = 0; b.dut().evt_count < kEvtDepth; ++i) {
    b.give_next(true);
    b.steer(req_of(tcp4(uint8_t(200 + i), 9), 1));
  }
  b.idle_clocks(8);
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(t, 6)), -EBUSY);
  EXPECT_EQ(b.last_latency(), 0u) << "refused retarget latency, lookup given";
  b.give_next(true);
  EXPECT_EQ(b.steer(req_of(tcp4(4, 5000), 0)), -EBUSY);
  EXPECT_EQ(b.last_latency(), 0u) << "refused insert latency, lookup given";
  EXPECT_EQ(b.now_answers(), 3u) << "the hit and the two refusals, each with its request";
  // (the first had no lookup given the clock before: the bench gives one with its request)
  EXPECT_EQ(b.refuse_answers(), 1u) << "the second refusal announced from registers (FIFO full)";
  b.pop_all();
}

// ------------------------------------------------------------------ random

struct PoolEntry {
  Skb skb;
};

void random_run(uint64_t seed, uint64_t n_requests) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  Bench b(seed);
  auto& rng = b.rng();
  // a small pool: 24 steerable tuples (16 filter slots, so FULL), a few that are not
  std::vector<Skb> pool;
  for (int i = 0; i < 24; ++i) {
    const uint8_t proto = (i % 3 == 2) ? flowsteer::kIpProtoUdp : flowsteer::kIpProtoTcp;
    pool.push_back(make_skb(random_tuple(rng, proto), uint32_t(rng())));
  }
  for (int i = 0; i < 4; ++i) {
    Skb s = make_skb(random_tuple(rng, i == 0 ? 1 : flowsteer::kIpProtoTcp), uint32_t(rng()));
    if (i == 1) s.ipv4_fragment = true;
    if (i == 2) s.dissect_ok = false;
    if (i == 3) s.tuple.proto = 47;  // GRE
    pool.push_back(s);
  }
  uint64_t issued = 0;
  uint64_t phase_len = 0;
  while (b.responses() < n_requests) {
    if (phase_len-- == 0) {  // phases of back-pressure, pop rate and request gaps
      phase_len = 200 + rng() % 2000;
      const double pops[] = {0.0, 0.02, 0.1, 0.5, 1.0};
      b.p_pop = pops[rng() % 5];
      b.p_rsp_ready = (rng() % 4 == 0) ? 1.0 : 0.3 + 0.7 * double(rng() % 100) / 100.0;
      b.p_gap = double(rng() % 4) / 4.0;
      b.p_given = double(rng() % 3) / 2.0;
    }
    if (issued < n_requests && b.coin(0.5)) {
      Req r;
      r.skb = pool[rng() % pool.size()];
      r.queue = uint16_t(rng() % 4);
      r.flow_id = uint32_t(rng() % 4096);
      b.push_req(r);
      ++issued;
    }
    const uint32_t pick = uint32_t(rng() % 1000);
    if (pick < 20 && !b.live().empty()) {  // delete a live filter
      auto it = b.live().begin();
      std::advance(it, rng() % b.live().size());
      b.push_host(HostCmd{false, 0, FilterOp::kDelete, *it});
    } else if (pick < 22) {  // delete a random id (mostly NOT_FOUND)
      b.push_host(HostCmd{false, 0, FilterOp::kDelete, uint32_t(rng() % 0x10000)});
    } else if (pick < 23 && !b.live().empty()) {  // aim the next id at a live one
      auto it = b.live().begin();
      std::advance(it, rng() % b.live().size());
      const int64_t k = int64_t(rng() % 3);
      b.push_host(HostCmd{true, int32_t(int64_t(*it) - 1 + 65535 * k), FilterOp::kNop, 0});
    } else if (pick < 24) {  // near the 16-bit wrap, INT_MAX, or zero
      const int32_t bases[] = {65530, INT32_MAX - 3, -65540, -4, 0};
      b.push_host(HostCmd{true, bases[rng() % 5], FilterOp::kNop, 0});
    } else if (pick < 27) {  // somewhere in the positive range
      b.push_host(HostCmd{true, int32_t(rng() % 0x7fffffff), FilterOp::kNop, 0});
    }
    // let the queues drain at about the rate they fill
    for (int i = 0; i < 4; ++i) {
      if (!b.cycle()) return;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_TRUE(b.drain()) << b.where();
  b.pop_all();
  const auto& c = b.model().counters();
  EXPECT_GT(c.steer_adds, 100u);
  EXPECT_GT(c.steer_retargets, 100u);
  EXPECT_GT(c.event_fifo_refusals, 10u);
  EXPECT_GT(b.n_enospc_, 10u);
  EXPECT_GT(b.n_eaddrinuse_, 10u);
  EXPECT_GT(b.n_eproto_, 10u);
  EXPECT_GT(b.n_negative_id_, 10u);
  EXPECT_GT(b.given(), n_requests / 10) << "requests with their lookup given";
  EXPECT_GT(b.now_answers(), n_requests / 20) << "requests answered with the request";
  EXPECT_GT(b.refuse_answers(), 0u) << "requests announced as refused (m_drv_rsp_refuse)";
  std::printf("seed %llu: %llu requests (%llu with the lookup given), %llu adds, %llu retargets, "
              "%llu pops; -EBUSY %llu, -ENOSPC %llu, -EADDRINUSE %llu, -EPROTONOSUPPORT %llu, "
              "negative ids %llu; announced refusals %llu\n",
              (unsigned long long)seed, (unsigned long long)b.responses(),
              (unsigned long long)b.given(),
              (unsigned long long)c.steer_adds, (unsigned long long)c.steer_retargets,
              (unsigned long long)b.pops(), (unsigned long long)b.n_ebusy_,
              (unsigned long long)b.n_enospc_, (unsigned long long)b.n_eaddrinuse_,
              (unsigned long long)b.n_eproto_, (unsigned long long)b.n_negative_id_,
              (unsigned long long)b.refuse_answers());
}

TEST(SteerDriverRtl, RandomSeed1) { random_run(1, 60000); }
TEST(SteerDriverRtl, RandomSeed2) { random_run(0x5eed2, 60000); }
TEST(SteerDriverRtl, RandomSeed3) { random_run(20261129, 60000); }

}  // namespace
