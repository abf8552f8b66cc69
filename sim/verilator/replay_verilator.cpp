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
    drv_.configure(runs::replay_setup(cfg));  // the same setup the model replay gets
    check();
    sb_.on_record([this](const EngineRecord& r, const std::vector<uint8_t>&) {
      last_ = r.rec;
      have_record_ = true;
    });
  }

  engine::OutputRecord packet(const uint8_t* frame, size_t len) override {
    have_record_ = false;
    if (len == 0) throw std::invalid_argument("verilator replay: an empty frame (replay_pcap sends one zero byte)");
    sb_.frame(std::vector<uint8_t>(frame, frame + len));
    for (uint64_t n = 0; !have_record_ && sb_.ok(); ++n) {
      if (n > 1000000) throw std::runtime_error("verilator replay: no record within 10^6 clocks");
      sb_.step(1);
    }
    check();
    return last_;
  }
  void backlogs_processed(const std::vector<uint32_t>& cpus) override {
    for (uint32_t c : cpus) drv_.process_backlog(c);
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
    runs::read_driver_counters(drv_, rt_, r);
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
