// Named traffic mixes over the Verilated engine top (see mix.h).
#include "mix.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"

namespace flowsteer::sim {

namespace r = flowsteer::regs;
using Order = MixSpec::Order;

const std::vector<MixSpec>& mix_specs() {
  static const std::vector<MixSpec> specs = {
      {"flow1", "1 flow (one elephant)", Order::kRandom, 1, 0, false},
      {"rand4", "4 flows, random order", Order::kRandom, 4, 0, false},
      {"rand16", "16 flows, random order", Order::kRandom, 16, 0, false},
      {"rand64", "64 flows, random order", Order::kRandom, 64, 0, false},
      {"rr64", "64 flows, strict round robin", Order::kRoundRobin, 64, 0, false},
      {"uni1024", "1,024 flows, uniform random", Order::kRandom, 1024, 0, false},
      {"zipf1000", "1,000 flows, Zipf (s = 1)", Order::kZipf, 1000, 0, false},
      {"move64", "1 flow, its application moves CPU every 64 packets", Order::kRandom, 1, 64, false},
      {"steer", "2,048 new flows, original set_rps_cpu: steers on as many packets as the table allows",
       Order::kFresh, 2048, 0, false, true},
      {"multibeat", "64 flows, frames of 65..1,514 bytes", Order::kRandom, 64, 0, true, false},
  };
  return specs;
}

const MixSpec* find_mix(const std::string& name) {
  for (const MixSpec& s : mix_specs())
    if (s.name == name) return &s;
  return nullptr;
}

namespace {

constexpr uint32_t kCpus = 16, kCpuMask = 15;

class MixRun {
 public:
  MixRun(Scoreboard& sb, const MixSpec& spec, const MixOptions& o)
      : sb_(sb), spec_(spec), o_(o), rng_(o.seed * 0x2545F4914F6CDD1Dull + 99), caps_(sb.sim().caps()) {}

  void setup();
  void warm_up();
  void measure(MixResult& res);

 private:
  struct Flow {
    FlowTuple tuple;
    uint32_t hash = 0, cpu = 0;
  };
  uint32_t rnd(uint32_t n) { return n ? uint32_t(rng_() % n) : 0; }
  void wr(uint32_t off, uint32_t v) { sb_.write(off, v); }
  uint32_t rd(uint32_t off) {
    uint32_t v = 0;
    sb_.read(off, v);
    return v;
  }
  void sock_write(const Flow& f) {
    wr(r::SOCK_INDEX::kAddr, f.hash & ((1u << sock_log2_) - 1));
    wr(r::SOCK_VALUE::kAddr, (f.hash & ~kCpuMask) | f.cpu);
    wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
  }
  void pop_all_events() {
    for (uint32_t n = r::EVT_STATUS::COUNT.get(rd(r::EVT_STATUS::kAddr)); n; --n)
      wr(r::EVT_POP::kAddr, r::EVT_POP::POP.put(1));
  }
  std::vector<uint8_t> frame(const Flow& f) {
    nic::FrameOptions fo;
    const size_t hdr = 14 + 20 + (f.tuple.proto == kIpProtoTcp ? 20 : 8);
    fo.payload = spec_.multi_beat ? 65 + rnd(1514 - 65 + 1) - hdr : rnd(uint32_t(64 - hdr + 1));
    return nic::build_frame(f.tuple, fo);
  }
  void send(const std::vector<uint8_t>& f) {
    EngineSim& sim = sb_.sim();
    while (sim.frames_pending() >= kQueued && sb_.ok()) sb_.step(4);
    sb_.frame(f, uint16_t(sent_++));
  }
  size_t next_flow();
  void host_transaction();
  // HEAD_ADD by the packets seen enqueued on the CPU (records lag the order by the packets in
  // flight, so the head never passes the tail)
  void advance_head(uint32_t c) {
    const int64_t n = std::max<int64_t>(0, enqueued_[c]);
    wr(r::HEAD_ADD::addr(c), uint32_t(n));
    enqueued_[c] -= n;
  }

  // frames kept ahead of the engine: the wire keeps delivering while the host waits for an
  // answer, and a transaction can wait for every packet in flight (2^TAG_LOG2) to leave
  static constexpr size_t kQueued = 256;
  Scoreboard& sb_;
  const MixSpec& spec_;
  MixOptions o_;
  std::mt19937_64 rng_;
  engine::EngineCaps caps_;
  std::vector<Flow> flows_;
  std::vector<double> zipf_cdf_;
  uint32_t queues_ = 16, sock_log2_ = 12;
  uint64_t sent_ = 0, rr_ = 0, fresh_ = 0;
  unsigned host_step_ = 0;
  size_t host_flow_ = 0;
  std::vector<int64_t> enqueued_;   // records per CPU not yet given back by HEAD_ADD
  // per CPU: the transactions ordered before its last BACKLOG_DRAIN's effect; a record with a
  // lower cmd_seq was drained by it
  std::vector<uint64_t> drained_before_;
};

void MixRun::setup() {
  const uint32_t cpus = std::min<uint32_t>(kCpus, 1u << caps_.cpu_log2);
  queues_ = std::min<uint32_t>(16, 1u << caps_.queue_log2);
  sock_log2_ = caps_.sock_log2;
  const uint32_t lut_log2 = caps_.lut_log2;
  enqueued_.assign(kCpus, 0);
  drained_before_.assign(kCpus, 0);
  wr(r::CTRL::kAddr, 0);
  wr(r::NR_CPU_IDS::kAddr, cpus);
  wr(r::NUM_RX_QUEUES::kAddr, queues_);
  wr(r::CPU_ONLINE::addr(0), (1u << cpus) - 1);
  for (uint32_t c = 0; c < cpus; ++c) wr(r::RMAP::addr(c), c % queues_);
  wr(r::HASH_CFG::kAddr, 0);  // Toeplitz
  const hash::RssKey& key = hash::microsoft_key();
  for (uint32_t w = 0; w < 13; ++w) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 4; ++b) word |= uint32_t(w * 4 + b < key.size() ? key[w * 4 + b] : 0) << (24 - 8 * b);
    wr(r::RSS_KEY::addr(w), word);
  }
  for (uint32_t i = 0; i < (1u << lut_log2); ++i) wr(r::LUT::addr(i), i % queues_);
  wr(r::LUT_CFG::kAddr, lut_log2);
  for (uint32_t q = 0; q < queues_; ++q)
    wr(r::RPS_FLOW_CNT::addr(q), r::RPS_FLOW_CNT::LOG2.put(caps_.slot_log2) | r::RPS_FLOW_CNT::PRESENT.put(1));
  wr(r::RPS_CPU_MASK::kAddr, kCpuMask);
  wr(r::SOCK_CFG::kAddr, r::SOCK_CFG::LOG2.put(sock_log2_) | r::SOCK_CFG::PRESENT.put(1));
  wr(r::CTRL::kAddr, r::CTRL::ENABLE.put(1) | r::CTRL::PATCHED.put(!spec_.original) | r::CTRL::NTUPLE.put(1) |
                         r::CTRL::RMAP.put(1) | r::CTRL::RPS.put(1) | r::CTRL::FLT_LOOKUP.put(1));
  // flows: IPv4 TCP/UDP with distinct sock-table indexes (so every flow has its own entry)
  std::vector<bool> used(size_t(1) << sock_log2_, false);
  const uint32_t want = std::min<uint32_t>(spec_.flows, (1u << sock_log2_) / 2);
  for (uint32_t tries = 0; flows_.size() < want && tries < 100 * want + 1000; ++tries) {
    Flow f;
    f.tuple.family = 4;
    f.tuple.proto = rnd(2) ? kIpProtoTcp : kIpProtoUdp;
    for (size_t i = 0; i < 4; ++i) {
      f.tuple.src[i] = uint8_t(rng_());
      f.tuple.dst[i] = uint8_t(rng_());
    }
    f.tuple.sport = uint16_t(rng_());
    f.tuple.dport = uint16_t(rng_());
    const std::vector<uint8_t> bytes = nic::build_frame(f.tuple);
    f.hash = sb_.model().model().rss().hash(nic::parse_frame(bytes.data(), bytes.size()));
    const uint32_t idx = f.hash & ((1u << sock_log2_) - 1);
    if (!f.hash || used[idx]) continue;
    used[idx] = true;
    f.cpu = rnd(cpus);
    flows_.push_back(f);
  }
  if (flows_.empty()) throw std::runtime_error("mix: no flows");
  for (const Flow& f : flows_) sock_write(f);
  if (spec_.order == Order::kZipf) {
    double sum = 0;
    for (size_t k = 1; k <= flows_.size(); ++k) zipf_cdf_.push_back(sum += 1.0 / double(k));
    for (double& c : zipf_cdf_) c /= sum;
  }
}

size_t MixRun::next_flow() {
  switch (spec_.order) {
    case Order::kRoundRobin: return size_t(rr_++ % flows_.size());
    case Order::kFresh: return size_t(fresh_++ % flows_.size());
    case Order::kZipf: {
      const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
      return size_t(std::lower_bound(zipf_cdf_.begin(), zipf_cdf_.end(), u) - zipf_cdf_.begin()) % flows_.size();
    }
    case Order::kRandom: break;
  }
  return rnd(uint32_t(flows_.size()));
}

// Every flow steers once (its sock CPU's queue usually differs from its RSS queue) with the
// events served, so the measured stream starts from filters in place and no steer in flight;
// the fresh-flow mix skips this (its flows steer in the measured stream).
void MixRun::warm_up() {
  if (spec_.order == Order::kFresh) return;
  for (size_t i = 0; i < flows_.size() && sb_.ok(); ++i) {
    send(frame(flows_[i]));
    if (i % 16 == 15) pop_all_events();
  }
  // every warm-up record out (the last steers answered, their events queued), then served
  sb_.sim().drain();
  sb_.step(1);
  pop_all_events();
}

// One register transaction in the host's rotation: rps_record_sock_flow (its three writes
// count as three transactions) and a head advance by the packets the engine enqueued.
void MixRun::host_transaction() {
  const Flow& f = flows_[host_flow_];
  switch (host_step_++ % 4) {
    case 0: wr(r::SOCK_INDEX::kAddr, f.hash & ((1u << sock_log2_) - 1)); break;
    case 1: wr(r::SOCK_VALUE::kAddr, (f.hash & ~kCpuMask) | f.cpu); break;
    case 2:
      wr(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
      host_flow_ = (host_flow_ + 1) % flows_.size();
      break;
    default: {
      if (spec_.order == Order::kFresh) {  // the steer mix: the runtime serves an event
        wr(r::EVT_POP::kAddr, r::EVT_POP::POP.put(1));
        break;
      }
      const uint32_t c = uint32_t(host_step_ / 4) % kCpus;
      advance_head(c);
      break;
    }
  }
}

void MixRun::measure(MixResult& res) {
  EngineSim& sim = sb_.sim();
  const uint64_t start = sim.clocks();
  // the backlog of every CPU as the warm-up left it (drained: every transaction applied)
  const kernel::Kernel& k = sb_.model().model().kernel();
  for (uint32_t c = 0; c < enqueued_.size(); ++c) enqueued_[c] = int32_t(k.tail(c) - k.head(c));
  sb_.on_record([&](const EngineRecord& e, const std::vector<uint8_t>& bytes) {
    if (e.rec.cpu >= 0 && size_t(e.rec.cpu) < enqueued_.size() &&
        e.cmd_seq >= drained_before_[size_t(e.rec.cpu)])
      ++enqueued_[size_t(e.rec.cpu)];
    // a CPU's backlog head never passes its tail in Linux; a host that made it do so would
    // measure states no kernel reaches
    for (uint32_t c = 0; c < enqueued_.size(); ++c)
      if (int32_t(k.head(c) - k.tail(c)) > 0)
        throw std::logic_error("mix: the host advanced CPU " + std::to_string(c) + "'s head past its tail");
    if (e.accepted_clock <= start) return;
    ++res.packets;
    res.frame_bytes += bytes.size();
    if (e.steer_called) ++res.steers;
    if (e.rec.action == engine::SteerAction::kSteered) ++res.steered;
  });
  sim.probe_start();
  Flow* moving = spec_.move_every ? &flows_[0] : nullptr;
  uint64_t owed = 0;  // host transactions due, not yet issued
  const uint32_t cpus = std::min<uint32_t>(kCpus, 1u << caps_.cpu_log2);
  uint64_t moves = 0;  // application moves due, not yet made
  auto move = [&] {
    // The application moved (its recvmsg records the new CPU); the old CPU then drains the
    // flow's backlog (BACKLOG_DRAIN: head = tail at the write's place, the packets still in
    // the engine ahead of it included), so the next packet steers, and the runtime serves an
    // event. The wire keeps running: the packets ordered between the sock write and the
    // drain are the old CPU's too. The drain is the next transaction executed (one master).
    const uint32_t old_cpu = moving->cpu;
    moving->cpu = (moving->cpu + 1 + rnd(cpus - 1)) % cpus;
    sock_write(*moving);
    drained_before_[old_cpu] = sim.transactions().size() + 1;
    enqueued_[old_cpu] = 0;
    wr(r::BACKLOG_DRAIN::kAddr, r::BACKLOG_DRAIN::CPU.put(old_cpu));
    wr(r::EVT_POP::kAddr, r::EVT_POP::POP.put(1));
    ++res.moves;
  };
  for (uint64_t n = 0; n < o_.packets && sb_.ok(); ++n) {
    if (moving && n && n % spec_.move_every == 0) ++moves;
    // one transaction per txn_every packets; host work is issued while the frame queue is
    // full: frames come from the wire and keep arriving while the host's master waits
    if (o_.txn_every && n && n % o_.txn_every == 0) ++owed;
    send(frame(flows_[next_flow()]));
    if (sim.frames_pending() >= kQueued) {
      if (moves) {
        move();
        --moves;
      } else if (owed) {
        host_transaction();
        --owed;
      }
    }
  }
  // moves still due after the last frame are dropped: no packet is left to steer
  for (; owed && sb_.ok(); --owed) host_transaction();
  // the probe window closes at the last packet through the gate: run until all are through
  while (sim.frames_pending() && sb_.ok()) sb_.step(4);
  sb_.step(64);
  res.probe = sim.probe();
}

}  // namespace

MixResult run_mix(const MixOptions& o) {
  const MixSpec* spec = find_mix(o.mix);
  if (!spec) throw std::invalid_argument("mix: unknown mix '" + o.mix + "'");
  const auto t0 = std::chrono::steady_clock::now();
  EngineSimOptions so;
  so.build = o.build;
  so.seed = o.seed;
  so.trace_path = o.trace_path;
  EngineSim sim(so);
  Scoreboard sb(sim, o.seed, o.rerun);
  MixRun run(sb, *spec, o);
  MixResult res;
  run.setup();
  sim.set_frame_gap(o.frame_gap);
  sim.set_rec_ready(o.rec_ready);
  run.warm_up();
  run.measure(res);
  if (sb.ok()) {
    sim.set_rec_ready(1.0);
    sb.finish();
  }
  res.stats = sb.stats();
  res.coverage = sb.coverage();
  res.mismatch = sb.mismatch();
  if (res.mismatch) res.mismatch_report = res.mismatch->format(o.seed, o.rerun);
  res.clocks = sim.clocks();
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

std::string mix_table_header() {
  std::string h = "mix        pkt/clk beat/clk steer/pkt txn/pkt  lost clocks by cause (% of window)";
  return h + "\n";
}

std::string mix_table_row(const std::string& label, const MixResult& r) {
  const PipeProbe& p = r.probe;
  char b[256];
  const double pk = r.packets ? double(r.packets) : 1.0;
  std::snprintf(b, sizeof b, "%-10s %7.3f %8.3f %9.3f %7.3f ", label.c_str(), p.packets_per_clock(),
                p.beats_per_clock(), double(r.steers) / pk, double(p.transactions) / pk);
  std::string s = b;
  for (size_t i = 0; i < p.lost.size(); ++i) {
    if (!p.lost[i]) continue;
    std::snprintf(b, sizeof b, " %s %.1f%%", gate_loss_name(GateLoss(i)),
                  p.clocks ? 100.0 * double(p.lost[i]) / double(p.clocks) : 0.0);
    s += b;
  }
  return s + "\n";
}

}  // namespace flowsteer::sim
