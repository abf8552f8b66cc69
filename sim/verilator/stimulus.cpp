// The conformance runs on the Verilator harness (see stimulus.h).
#include "stimulus.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace flowsteer::sim {

const char* build_name(EngineBuild b) { return b == EngineBuild::kStandard ? "standard" : "small"; }

Stimulus::Stimulus(Scoreboard& sb, const StimulusConfig& cfg)
    : sb_(sb), cfg_(cfg), bus_(sb), gen_(bus_, sb.model(), sb.sim().caps(), cfg) {}

void Stimulus::run(uint64_t packets, const std::function<void(uint64_t)>& progress) {
  EngineSim& sim = sb_.sim();
  const uint64_t progress_every = std::max<uint64_t>(1, packets / 50);
  uint64_t last_accepted = sim.frames_accepted(), last_progress_clock = sim.clocks();
  while (sent_ < packets && sb_.ok()) {
    if (sim.frames_pending() >= cfg_.queued_frames) {
      sb_.step(cfg_.single_beat ? 4 : 2);
      if (sim.frames_accepted() != last_accepted) {
        last_accepted = sim.frames_accepted();
        last_progress_clock = sim.clocks();
      } else if (sim.clocks() - last_progress_clock > 1000000) {  // a deadlock, not back-pressure
        throw std::runtime_error("stimulus: the engine accepted no frame for 10^6 clocks (clock " +
                                 std::to_string(sim.clocks()) + ", " + std::to_string(sent_) +
                                 " frames sent, " + std::to_string(sb_.stats().packets) + " records checked)");
      }
      continue;
    }
    const std::vector<uint8_t> f = gen_.next_frame().bytes;
    sb_.frame(f, uint16_t(sent_));
    ++sent_;
    if (progress && sent_ % progress_every == 0) progress(sent_);
    gen_.after_frame();
  }
}

ConformResult run_conformance(const ConformOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  EngineSimOptions so;
  so.build = o.build;
  so.seed = o.seed;
  so.frame_gap = 0;
  so.rec_ready = 1;
  so.trace_path = o.trace_path;
  EngineSim sim(so);
  Scoreboard sb(sim, o.seed, o.rerun);
  StimulusConfig sc = o.stim;
  sc.seed = o.seed;
  Stimulus stim(sb, sc);
  stim.setup();
  sim.set_frame_gap(o.frame_gap);
  sim.set_rec_ready(o.rec_ready);
  stim.run(o.packets, [&](uint64_t n) {
    if (o.progress) o.progress(n, o.packets);
  });
  if (sb.ok()) {
    sim.set_rec_ready(1.0);  // the final drain needs the sink
    sb.finish();
  }
  ConformResult res;
  res.stats = sb.stats();
  res.coverage = sb.coverage();
  res.mismatch = sb.mismatch();
  if (res.mismatch) res.mismatch_report = res.mismatch->format(o.seed, o.rerun);
  res.clocks = sim.clocks();
  res.caps = sim.caps();
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace flowsteer::sim
