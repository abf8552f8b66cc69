// runs::ReplayEngine over EngineSim + Scoreboard: the host side (EngineDriver, aRFS runtime)
// talks to the RTL through the scoreboarded register bus, frames go one at a time.
#include "replay_verilator.h"

#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/driver/engine_runtime.h"
#include "flowsteer/flowsteer_regs.h"
#include "stimulus.h"

namespace flowsteer::sim {

namespace {

class VerilatorReplayEngine : public runs::ReplayEngine {
 public:
  VerilatorReplayEngine(const runs::ReplayConfig& cfg, const VerilatorReplayOptions& o)
      : cfg_(cfg), sim_(sim_options(o)), sb_(sim_, o.seed, o.rerun), bus_(sb_), drv_(bus_), rt_(drv_),
        rerun_(o.rerun) {
    driver::EngineSetup s;
    s.nr_cpu_ids = cfg.params.cpus;
    s.num_rx_queues = cfg.params.queues;
    s.variant = cfg.params.variant;
    s.slot_mode = cfg.params.slot_mode;
    s.hash_mode = cfg.hash_mode;
    s.jhash_seed = cfg.jhash_seed;
    s.rps_flow_cnt = cfg.rps_flow_cnt;
    s.rps_sock_flow_entries = cfg.sock_flow_entries;
    drv_.configure(s);
    check();
    sb_.on_record([this](const EngineRecord& r, const std::vector<uint8_t>&) {
      last_ = r.rec;
      have_record_ = true;
    });
  }

  engine::OutputRecord packet(const uint8_t* frame, size_t len) override {
    have_record_ = false;
    // the stream cannot carry an empty frame; one zero byte parses the same (truncated)
    const uint8_t zero = 0;
    sb_.frame(len ? std::vector<uint8_t>(frame, frame + len) : std::vector<uint8_t>(1, zero));
    for (uint64_t n = 0; !have_record_ && sb_.ok(); ++n) {
      if (n > 1000000) throw std::runtime_error("verilator replay: no record within 10^6 clocks");
      sb_.step(1);
    }
    check();
    return last_;
  }
  void backlogs_processed() override {
    for (uint32_t c = 0; c < cfg_.params.cpus; ++c) {
      const uint32_t n = drv_.tail(c) - drv_.head(c);
      if (n) drv_.head_add(c, n);
    }
    check();
  }
  void service(uint64_t now_ms) override {
    rt_.sync(now_ms);
    check();
  }
  void take_events(uint64_t now_ms) override {
    rt_.take_events(now_ms);
    check();
  }
  void sock_record(uint32_t hash, uint32_t cpu) override {
    drv_.rps_record_sock_flow(hash, cpu);
    check();
  }
  void finish(runs::ReplayResult& r) override {
    namespace rg = flowsteer::regs;
    engine::EngineCounters& k = r.counters;
    using C = rg::Counter;
    k.pkts = drv_.counter(uint32_t(C::kPkts));
    k.pkts_hashed = drv_.counter(uint32_t(C::kPktsHashed));
    k.flt_hits = drv_.counter(uint32_t(C::kFltHits));
    k.rfs_cpu = drv_.counter(uint32_t(C::kRfsCpu));
    k.steer_calls = drv_.counter(uint32_t(C::kSteerCalls));
    k.steer_adds = drv_.counter(uint32_t(C::kSteerAdds));
    k.steer_retargets = drv_.counter(uint32_t(C::kSteerRetargets));
    k.gate_skips = drv_.counter(uint32_t(C::kGateSkips));
    k.driver_errors = drv_.counter(uint32_t(C::kDriverErrors));
    k.flt_deletes = drv_.counter(uint32_t(C::kFltDeletes));
    k.events = drv_.counter(uint32_t(C::kEvents));
    k.event_fifo_refusals = drv_.counter(uint32_t(C::kEvtRefusals));
    for (int i = 0; i < nic::kParseClassCount; ++i) k.parse_class[size_t(i)] = drv_.counter(uint32_t(C::kParseClass0) + uint32_t(i));
    r.runtime_adds = rt_.counters().add;
    r.runtime_dels = rt_.counters().del;
    uint32_t n = 0;
    bus_.read(rg::FLT_COUNT::kAddr, n);
    r.filters_end = n;
    sb_.finish();
    check();
  }

 private:
  static EngineSimOptions sim_options(const VerilatorReplayOptions& o) {
    EngineSimOptions s;
    s.build = o.build;
    s.seed = o.seed;
    s.trace_path = o.trace_path;
    return s;
  }
  void check() {
    if (!sb_.ok()) throw ReplayMismatch(sb_.mismatch()->format(sim_.seed(), rerun_));
  }

  runs::ReplayConfig cfg_;
  EngineSim sim_;
  Scoreboard sb_;
  ScoreboardBus bus_;
  driver::EngineDriver drv_;
  driver::ArfsRuntime rt_;
  engine::OutputRecord last_;
  bool have_record_ = false;
  std::string rerun_;
};

}  // namespace

std::unique_ptr<runs::ReplayEngine> make_verilator_replay_engine(const runs::ReplayConfig& cfg,
                                                           const VerilatorReplayOptions& opt) {
  return std::make_unique<VerilatorReplayEngine>(cfg, opt);
}

}  // namespace flowsteer::sim
