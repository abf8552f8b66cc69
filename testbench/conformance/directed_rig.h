// The rig of the directed conformance suites (test_directed_*.cpp).
//
// Every register access and every frame goes to the RTL through the Scoreboard, which
// compares each record and each register answer with its golden model. The rig also keeps a
// *shadow* golden model (engine::EngineRegisterFile) that it feeds the same transactions and
// frames synchronously, in the same total order: `pkt()` drains the engine before it returns,
// so a frame is always ordered before the next register access. The shadow's records and state
// are what the tests make their targeted assertions on (the Scoreboard guarantees that the RTL's
// records equal them); finish() checks that the shadow and the Scoreboard's model ended in the
// same state, so a test cannot silently assert on a different history than the one compared.
// Frames sent with send_async() (packets in flight across register writes) make the shadow
// stale; such tests assert on the Scoreboard's model after finish().
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "directed_frames.h"
#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/parser.h"
#include "scoreboard.h"

namespace flowsteer::testbench::conformance {

namespace r = flowsteer::regs;
namespace fe = flowsteer::engine;
namespace fk = flowsteer::kernel;
using flowsteer::bus::AxiResp;
using fe::FilterErr;
using fe::OutputRecord;
using fe::SteerAction;
using flowsteer::nic::HashMode;
using flowsteer::nic::ParseClass;
using flowsteer::sim::EngineBuild;

struct RigOptions {
  EngineBuild build = EngineBuild::kStandard;
  uint64_t seed = 1;
  double frame_gap = 0.05;  // idle clocks before frame beats
  double rec_ready = 0.8;   // record sink back-pressure
  uint64_t max_wait_clocks = 500'000;  // a hung transaction or drain fails fast
};

// What the directed tests configure (a subset of driver::EngineSetup, sized to the build).
struct RigSetup {
  uint32_t cpus = 8, queues = 8;
  fk::Variant variant = fk::Variant::kPatched;
  fk::SlotMode slot_mode = fk::SlotMode::kLog;
  HashMode hash = HashMode::kToeplitz;
  uint32_t lut_log2 = 7;
  uint64_t flow_cnt = 16;
  uint64_t sock_entries = 256;
  bool ntuple = true;
};

// A flow as the engine sees it: tuple, frame, hash (golden parser + RSS) and RSS queue.
struct Flow {
  FlowTuple t;
  Bytes f;
  uint32_t hash = 0;
  uint16_t rxq = 0;
};

inline std::string current_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info ? std::string(info->test_suite_name()) + "." + info->name() : "?";
}

class Rig : public flowsteer::bus::RegisterBus {
 public:
  explicit Rig(const RigOptions& o = RigOptions{}) : opt_(o) {
    flowsteer::sim::EngineSimOptions so;
    so.build = o.build;
    so.seed = o.seed;
    so.frame_gap = o.frame_gap;
    so.rec_ready = o.rec_ready;
    so.max_wait_clocks = o.max_wait_clocks;
    sim_ = std::make_unique<flowsteer::sim::EngineSim>(so);
    sb_ = std::make_unique<flowsteer::sim::Scoreboard>(
        *sim_, o.seed, "FS_ENGINE_TRACE=directed.fst test_conform --gtest_filter=" + current_test_name());
    shadow_ = std::make_unique<fe::EngineRegisterFile>(sim_->caps());
    drv_ = std::make_unique<flowsteer::driver::EngineDriver>(*this);
  }

  // ---- RegisterBus: the engine (through the scoreboard) and the shadow, same order --------
  AxiResp read(uint32_t off, uint32_t& v) override {
    AxiResp a = sb_->read(off, v);
    uint32_t sv = 0;
    shadow_->read(off, sv);  // same side effects (counter latch, ERR_STATUS)
    return a;  // the RTL's answer: driver code runs on the RTL, the scoreboard checks it
  }
  AxiResp write(uint32_t off, uint32_t v, uint8_t strb = 0xF) override {
    AxiResp a = sb_->write(off, v, strb);
    shadow_->write(off, v, strb);
    return a;
  }
  std::string describe() const override { return "directed conformance rig"; }

  // ---- setup --------------------------------------------------------------------------
  const fe::EngineCaps& caps() const { return shadow_->caps(); }
  uint32_t max_cpus() const { return 1u << caps().cpu_log2; }
  uint32_t max_queues() const { return 1u << caps().queue_log2; }
  // Programs everything through the register-level driver (EngineDriver::configure) and
  // enables the engine.
  void configure(const RigSetup& s) {
    setup_ = s;
    flowsteer::driver::EngineSetup e;
    e.nr_cpu_ids = std::min(s.cpus, max_cpus());
    e.num_rx_queues = std::min(s.queues, max_queues());
    e.variant = s.variant;
    e.slot_mode = s.slot_mode;
    e.hash_mode = s.hash;
    e.lut_log2 = std::min<uint32_t>(s.lut_log2, caps().lut_log2);
    e.rps_flow_cnt = s.flow_cnt;
    e.rps_sock_flow_entries = s.sock_entries;
    e.ntuple = s.ntuple;
    drv_->configure(e);
    setup_.cpus = e.nr_cpu_ids;
    setup_.queues = e.num_rx_queues;
  }
  const RigSetup& setup() const { return setup_; }

  // ---- frames -------------------------------------------------------------------------
  // One frame, drained: returns the golden record (the RTL's is compared by the scoreboard).
  OutputRecord pkt(const Bytes& f, uint16_t user = 0) {
    sb_->frame(f, user);
    sim_->drain();
    sb_->step(0);
    auto rec = shadow_->packet(f.data(), f.size());
    if (!rec) ADD_FAILURE() << "frame sent while CTRL.ENABLE is 0 (the engine would wait forever)";
    last_ = shadow_->model().last_decision();
    return rec.value_or(OutputRecord{});
  }
  OutputRecord pkt(const Flow& fl) { return pkt(fl.f); }
  // Back-to-back frames with no register access between them (pipelined, hazards), drained.
  std::vector<OutputRecord> burst(const std::vector<Bytes>& frames) {
    for (const auto& f : frames) sb_->frame(f);
    sim_->drain();
    sb_->step(0);
    std::vector<OutputRecord> out;
    out.reserve(frames.size());
    for (const auto& f : frames) {
      auto rec = shadow_->packet(f.data(), f.size());
      if (!rec) ADD_FAILURE() << "frame sent while CTRL.ENABLE is 0";
      out.push_back(rec.value_or(OutputRecord{}));
    }
    last_ = shadow_->model().last_decision();
    return out;
  }
  // A frame left in flight: later register accesses may be ordered before it. The shadow is
  // stale from here on; assert on sb().model() after finish().
  void send_async(const Bytes& f, uint16_t user = 0) {
    sb_->frame(f, user);
    stale_ = true;
  }
  const fk::RxDecision& last_decision() const { return last_; }

  // ---- the end of every test ------------------------------------------------------------
  // Drains, applies everything, checks. Returns ok(); a mismatch is reported as a failure.
  bool finish() {
    sb_->finish();
    if (!sb_->ok()) {
      ADD_FAILURE() << sb_->mismatch()->format(opt_.seed, "FS_ENGINE_TRACE=directed.fst test_conform --gtest_filter=" +
                                                              current_test_name());
      return false;
    }
    if (!stale_) {  // the shadow saw the same history as the scoreboard's model
      const fe::EngineModel& a = shadow_->model();
      fe::EngineModel& b = sb_->model().model();
      EXPECT_EQ(a.counters().pkts, b.counters().pkts) << "shadow and scoreboard model diverged";
      EXPECT_EQ(a.counters().steer_calls, b.counters().steer_calls);
      EXPECT_EQ(a.counters().events, b.counters().events);
      EXPECT_EQ(a.filters().size(), b.filters().size());
      EXPECT_EQ(a.events_pending(), b.events_pending());
      EXPECT_EQ(a.last_fltr_id(), b.last_fltr_id());
    }
    EXPECT_EQ(sb_->stats().packets, sim_->frames_accepted());
    return true;
  }

  // ---- access ----------------------------------------------------------------------------
  flowsteer::sim::Scoreboard& sb() { return *sb_; }
  flowsteer::sim::EngineSim& sim() { return *sim_; }
  fe::EngineRegisterFile& shadow() { return *shadow_; }
  fe::EngineModel& golden() { return shadow_->model(); }
  const fk::Kernel& kernel() { return shadow_->model().kernel(); }
  flowsteer::driver::EngineDriver& drv() { return *drv_; }
  bool stale() const { return stale_; }

  // ---- register helpers (RTL answers) ----------------------------------------------------
  uint32_t rd(uint32_t off) {
    uint32_t v = 0;
    EXPECT_EQ(read(off, v), AxiResp::kOkay) << "read of 0x" << std::hex << off;
    return v;
  }
  void wr(uint32_t off, uint32_t v) { EXPECT_EQ(write(off, v), AxiResp::kOkay) << "write of 0x" << std::hex << off; }
  uint64_t cnt(r::Counter c) { return drv_->counter(uint32_t(c)); }
  uint32_t ctrl() { return rd(r::CTRL::kAddr); }
  void ctrl_bit(r::Field f, bool on) {
    uint32_t v = ctrl();
    wr(r::CTRL::kAddr, on ? v | f.mask() : v & ~f.mask());
  }
  void set_online(uint32_t cpu, bool on) {
    uint32_t w = rd(r::CPU_ONLINE::addr(cpu / 32));
    wr(r::CPU_ONLINE::addr(cpu / 32), on ? w | (1u << (cpu % 32)) : w & ~(1u << (cpu % 32)));
  }
  void rmap(uint32_t cpu, uint32_t q) { wr(r::RMAP::addr(cpu), q); }
  void lut(uint32_t i, uint32_t q) { wr(r::LUT::addr(i), q); }
  void head_add(uint32_t cpu, uint32_t n) { wr(r::HEAD_ADD::addr(cpu), n); }
  uint32_t head(uint32_t cpu) { return rd(r::HEAD::addr(cpu)); }
  uint32_t tail(uint32_t cpu) { return rd(r::TAIL::addr(cpu)); }
  // rps_flow_cnt of one queue: 0 removes, else 2^log2 slots.
  AxiResp flow_cnt_log2(uint32_t q, int log2) {
    return write(r::RPS_FLOW_CNT::addr(q),
                 log2 < 0 ? 0u : r::RPS_FLOW_CNT::LOG2.put(uint32_t(log2)) | r::RPS_FLOW_CNT::PRESENT.put(1));
  }
  // The same RPS map {cpus...} for queue q (pool entries from `base`).
  void rps_map(uint32_t q, const std::vector<uint32_t>& cpus, uint32_t base = 0) {
    for (size_t i = 0; i < cpus.size(); ++i) wr(r::RPS_MAP_CPUS::addr(base + uint32_t(i)), cpus[i]);
    wr(r::RPS_MAP::addr(q), r::RPS_MAP::LEN.put(uint32_t(cpus.size())) | r::RPS_MAP::BASE.put(base));
  }
  // rps_record_sock_flow(hash, cpu) with the sock table and rps_cpu_mask the engine has now.
  void sock(uint32_t hash, uint32_t cpu) {
    const auto* st = kernel().sock_table();
    ASSERT_NE(st, nullptr) << "no sock flow table";
    sock_raw(hash & st->mask, (hash & ~kernel().rps_cpu_mask()) | cpu);
  }
  void sock_raw(uint32_t index, uint32_t value) {
    wr(r::SOCK_INDEX::kAddr, index);
    wr(r::SOCK_VALUE::kAddr, value);
    wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
  }
  bool may_expire(uint32_t q, uint32_t flow_id, uint32_t id) {
    return drv_->rps_may_expire_flow(uint16_t(q), flow_id, uint16_t(id));
  }
  // A host filter command with a tuple operand; returns FLT_STATUS.ERR as the RTL reports it.
  FilterErr flt(r::FilterOp op, const FlowTuple& t, uint32_t id = 0, uint32_t q = 0) {
    for (uint32_t w = 0; w < 4; ++w) {
      uint32_t s = 0, d = 0;
      for (uint32_t b = 0; b < 4; ++b) {
        s |= uint32_t(t.src[w * 4 + b]) << (24 - 8 * b);
        d |= uint32_t(t.dst[w * 4 + b]) << (24 - 8 * b);
      }
      wr(r::FLT_SRC::addr(w), s);
      wr(r::FLT_DST::addr(w), d);
    }
    wr(r::FLT_PORTS::kAddr, r::FLT_PORTS::SPORT.put(t.sport) | r::FLT_PORTS::DPORT.put(t.dport));
    wr(r::FLT_META::kAddr, r::FLT_META::PROTO.put(t.proto) | r::FLT_META::IPV6.put(t.family == 6));
    wr(r::FLT_ID::kAddr, id);
    wr(r::FLT_QUEUE::kAddr, q);
    return flt_cmd(op);
  }
  FilterErr flt_cmd(r::FilterOp op) {
    wr(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(op)));
    uint32_t s = rd(r::FLT_STATUS::kAddr);
    EXPECT_TRUE(r::FLT_STATUS::DONE.get(s)) << "FLT_STATUS " << std::hex << s;
    return FilterErr(r::FLT_STATUS::ERR.get(s));
  }
  FilterErr flt_delete(uint32_t id) { return drv_->filter_delete(id); }
  std::optional<fe::FilterEvent> pop_event() { return drv_->pop_event(); }
  uint32_t evt_count() { return r::EVT_STATUS::COUNT.get(rd(r::EVT_STATUS::kAddr)); }
  uint32_t flt_count() { return rd(r::FLT_COUNT::kAddr); }

  // ---- flows ------------------------------------------------------------------------------
  // Hash and RSS queue the engine computes for a frame now (golden parser + the shadow's RSS).
  Flow flow(const Bytes& f) const {
    Flow fl;
    fl.f = f;
    flowsteer::nic::ParsedFrame p = flowsteer::nic::parse_frame(f.data(), f.size());
    fl.t = p.tuple;
    fl.hash = shadow_->model().rss().hash(p);
    fl.rxq = shadow_->model().rss().queue(fl.hash);
    return fl;
  }
  Flow flow(const FlowTuple& t) const { return flow(frame(t)); }
  // Slot of `hash` in queue q's table as the kernel computes it (spec 2.2 slot_T).
  uint32_t slot(uint32_t q, uint32_t hash) {
    const fk::rps_dev_flow_table* t = kernel().flow_table(q);
    EXPECT_NE(t, nullptr) << "queue " << q << " has no table";
    return t ? t->slot(hash, kernel().config().slot_mode) : 0;
  }
  const fk::rps_dev_flow& slot_state(uint32_t q, uint32_t s) { return kernel().flow_table(q)->flows.at(s); }
  // First flow gen(n), n = start.., with pred; fails the test when none is found.
  Flow find(const std::function<FlowTuple(uint32_t)>& gen, const std::function<bool(const Flow&)>& pred,
            uint32_t start = 0, uint32_t limit = 60000) {
    for (uint32_t n = start; n < start + limit; ++n) {
      Flow fl = flow(gen(n));
      if (fl.hash != 0 && pred(fl)) return fl;
    }
    ADD_FAILURE() << "no flow with the wanted property";
    return Flow{};
  }

 private:
  RigOptions opt_;
  RigSetup setup_;
  std::unique_ptr<flowsteer::sim::EngineSim> sim_;
  std::unique_ptr<flowsteer::sim::Scoreboard> sb_;
  std::unique_ptr<fe::EngineRegisterFile> shadow_;
  std::unique_ptr<flowsteer::driver::EngineDriver> drv_;
  fk::RxDecision last_;
  bool stale_ = false;
};

// spec 6.4 hash_32, written from the spec (64-bit product), for expected flow_ids.
inline uint32_t ref_hash_32(uint32_t h, unsigned bits) {
  uint64_t p = (uint64_t(h) * 0x61C88647ull) & 0xFFFFFFFFull;
  return bits == 0 ? 0u : uint32_t(p >> (32 - bits));
}

#define FS_FINISH(rig) ASSERT_TRUE((rig).finish())

}  // namespace flowsteer::testbench::conformance
