// System simulator: the seed experiment's world in 1 ms ticks (spec 7.9.5), packet
// times in microseconds. Per tick: the ice service task completes / is scheduled by its
// 1 s timer / starts if scheduled; every flow whose turn it is delivers its skbs of this
// millisecond through the NIC (filter else RSS) and get_rps_cpu (filter writes that became
// due take effect before each skb); every CPU drains its backlog (one batched
// input_queue_head add, spec 5 HEAD-BATCH). A service-task run takes virtual time (walk and
// filter writes, on a CPU shared with traffic) and holds ICE_SERVICE_SCHED meanwhile
// (spec 7.3, 7.7); see docs/model-notes.md.
#include "flowsteer/system/system_sim.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "flowsteer/driver/engine_runtime.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/kernel/kernel.h"
#include "flowsteer/nic/filter_table.h"
#include "flowsteer/nic/rss.h"

namespace flowsteer::system {
namespace {

struct Flow {
  kernel::Skb skb;          // tuple + hash; rx_queue is set per packet
  uint16_t rss_queue = 0;   // lut[hash & (lut_size-1)]
  int32_t hw_queue = -1;    // queue of the installed filter, -1 = none (engine: as of its last skb)
  uint32_t hw_id = 0;
  uint16_t app_cpu = 0;     // where recvmsg runs (sock flow table next_cpu)
  bool started = false;
  uint32_t period_us = 10000;  // the gap between its skbs
  uint64_t next_us = 0;     // time of its next received skb
  uint64_t end_us = 0;      // the flow's last skb is before this (netperf's run ends)
};

// The NIC's flow-director table as the ice mirror writes it (spec 7.4), 16,384 perfect
// filters like the E810's; ice never checks, so an add to a full table is only counted. Writes
// take effect hw_delay later, in order; flows cache their installed queue so the
// packet path needs no table lookup (packets only come from known flows).
class NicFilterPort : public driver::FdirWriter {
 public:
  NicFilterPort(std::vector<Flow>& flows, uint32_t delay_us)
      : flows_(flows), delay_(delay_us), table_(nic::ExactMatchTable::kDefaultCapacity) {
    flow_of_.reserve(flows.size() * 2);
    for (uint32_t i = 0; i < flows.size(); ++i) flow_of_.emplace(flows[i].skb.tuple, i);
  }

  // The writes of one service-task run: mark() before it, then post_at(i, t) gives the i-th
  // write since the mark its posting time (spec 7.3 Y3/Y4); each takes effect delay_us later.
  size_t mark() const { return pending_.size(); }
  void post_at(size_t mark, size_t i, double t_us) { pending_[mark + i].due = uint64_t(t_us) + delay_; }
  uint64_t writes() const { return writes_; }
  size_t installed() const { return table_.size(); }
  uint64_t full_rejects() const { return table_.full_rejects(); }

  int ice_fdir_write_fltr(const driver::FltrInfo& f, bool add) override {
    pending_.push_back(Op{0, add, f.tuple, f.fltr_id, uint16_t(f.q_index)});
    ++writes_;
    return 0;  // "posted" (spec 7.4)
  }

  void apply_due(uint64_t now_us) {
    while (!pending_.empty() && pending_.front().due <= now_us) {
      const Op& op = pending_.front();
      auto it = flow_of_.find(op.tuple);
      Flow* fl = it == flow_of_.end() ? nullptr : &flows_[it->second];
      if (op.add) {
        auto st = table_.add(op.tuple, op.id, op.queue);
        if (fl && (st == nic::FilterStatus::kInserted || st == nic::FilterStatus::kRetargeted)) {
          fl->hw_queue = op.queue;
          fl->hw_id = op.id;
        }
      } else {
        // A delete removes the rule only if it still carries this FD ID (a newer add of
        // the same tuple under another id stays).
        const nic::FilterEntry* e = table_.find(op.tuple);
        if (e && e->fd_id == op.id) {
          table_.remove(op.tuple);
          if (fl) fl->hw_queue = -1;
        }
      }
      pending_.pop_front();
    }
  }

 private:
  struct Op {
    uint64_t due;
    bool add;
    FlowTuple tuple;
    uint32_t id;
    uint16_t queue;
  };
  std::vector<Flow>& flows_;
  uint32_t delay_;
  nic::ExactMatchTable table_;
  std::unordered_map<FlowTuple, uint32_t, FlowTupleHash> flow_of_;
  std::deque<Op> pending_;
  uint64_t writes_ = 0;
};

// A flow's gap, drawn from [gap/2, 3gap/2]: on the 1 ms grid of the tick when the mean is
// 2 ms or more, else in microseconds.
struct PeriodDraw {
  uint32_t grid;
  std::uniform_int_distribution<uint32_t> steps;
  explicit PeriodDraw(double mean_us) : grid(std::max(2.0, mean_us) >= 2000 ? 1000 : 1) {
    const double gap = std::max(2.0, mean_us);
    const uint32_t lo = std::max(1u, uint32_t(gap / 2 / grid));
    steps = std::uniform_int_distribution<uint32_t>(lo, std::max(lo, uint32_t(gap * 1.5 / grid)));
  }
  uint32_t operator()(std::mt19937_64& rng) { return steps(rng) * grid; }
};

std::vector<Flow> make_flows(const SystemConfig& cfg, std::mt19937_64& rng, const nic::Rss& rss) {
  std::vector<Flow> flows(cfg.flows);
  std::unordered_set<FlowTuple, FlowTupleHash> seen;
  std::uniform_int_distribution<uint32_t> u32;
  std::bernoulli_distribution is_udp(cfg.udp_share);
  // Each flow keeps one gap (PeriodDraw). (With continuous periods,
  // sock-table index collisions of near-equal pairs alternate for long stretches and churn
  // in the patched code; see docs/model-notes.md.)
  PeriodDraw period(cfg.pkt_interval_us);
  std::uniform_int_distribution<uint32_t> cpu(0, cfg.cpus - 1);
  for (auto& f : flows) {
    FlowTuple t;
    do {  // the client's view: server 10.1/16:port -> client 10.2/16:ephemeral
      t.family = 4;
      t.proto = is_udp(rng) ? kIpProtoUdp : kIpProtoTcp;
      uint32_t s = u32(rng), d = u32(rng);
      t.src = {10, 1, uint8_t(s >> 8), uint8_t(s)};
      t.dst = {10, 2, uint8_t(d >> 8), uint8_t(d)};
      t.sport = uint16_t(1024 + (s >> 16) % 64512);
      t.dport = uint16_t(1024 + (d >> 16) % 64512);
    } while (!seen.insert(t).second);
    f.skb.tuple = t;
    f.skb.hash = rss.hash_tuple(t, true);
    f.rss_queue = rss.queue(f.skb.hash);
    f.app_cpu = uint16_t(cpu(rng));  // uniform application placement (spec 7.9.3)
    f.period_us = period(rng);
  }
  return flows;
}


// What carries a packet from the wire to get_rps_cpu and programs filters: the NIC + the
// ice mirror, or the hardware engine + its host runtime. The tick loop is shared.
class SteeringPlane {
 public:
  virtual ~SteeringPlane() = default;
  virtual kernel::Kernel& kern() = 0;
  // Service task (completion, timer, start) at a tick; share = its CPU share now.
  virtual void tick(uint64_t now_us, double share) = 0;
  // One skb of flow f at t_us: returns get_rps_cpu's CPU; *hw says it came through a filter.
  virtual int receive(Flow& f, uint64_t t_us, bool* hw, uint16_t* arrival, SystemResult& res) = 0;
  virtual driver::ArfsCounters counters() const = 0;
  virtual void finish(SystemResult& r) const = 0;
};

// ice_service_task's life (spec 7.3, 7.7): ice_service_task_schedule sets ICE_SERVICE_SCHED
// and queues the work unless the flag is already set; the flag is cleared when the run
// completes (ice_service_task_complete), so a schedule while a run lasts is lost. The 1 s
// service timer schedules too; a run that took longer than the period re-arms it at once.
struct ServiceTask {
  uint64_t delay_us, period_us;
  bool sched = false;       // ICE_SERVICE_SCHED
  bool running = false;
  bool by_timer = false;
  uint64_t start_due = 0, started = 0, end_us = 0;
  uint64_t next_timer;
  double busy_us = 0;
  uint64_t timer_runs = 0;
  ServiceTask(uint64_t delay, uint64_t period) : delay_us(delay), period_us(period), next_timer(period) {}

  // Completes a run that ended by t.
  void advance(uint64_t t) {
    if (running && t >= end_us) {
      running = false;
      sched = false;
      if (end_us - started > period_us) schedule(end_us);  // mod_timer(jiffies)
    }
  }
  void schedule(uint64_t t, bool timer = false) {
    advance(t);
    if (sched) return;
    sched = true;
    by_timer = timer;
    start_due = t + delay_us;
  }
  // At a tick: the timer, then whether a run starts now.
  bool start_at(uint64_t now) {
    advance(now);
    while (now >= next_timer) {  // ice_service_timer
      schedule(next_timer, true);
      next_timer += period_us;
    }
    if (!sched || running || now < start_due) return false;
    if (by_timer) ++timer_runs;
    return true;
  }
  void ran(uint64_t now, double dur_us) {
    running = true;
    started = now;
    end_us = now + uint64_t(std::ceil(dur_us));
    busy_us += dur_us;
    advance(now);  // a run of zero length completes at once
  }
};

void configure_tables(kernel::Kernel& k, const SystemConfig& cfg) {
  for (uint32_t q = 0; q < cfg.cpus; ++q) k.store_rps_flow_cnt(q, cfg.rps_flow_cnt);
  k.set_rps_sock_flow_entries(uint64_t(cfg.cpus) * cfg.rps_flow_cnt);  // spec 7.9.1
}

class IcePlane : public SteeringPlane {
 public:
  IcePlane(const SystemConfig& cfg, std::vector<Flow>& flows)
      : cfg_(cfg),
        k_(kernel::KernelConfig::sized(cfg.cpus, cfg.cpus, cfg.variant, cfg.slot_mode)),
        port_(flows, cfg.hw_delay_us),
        ice_(driver::IceArfs::Options{cfg.match, 0}, &port_),
        svc_(cfg.service_delay_us, uint64_t(cfg.service_period_ms) * 1000) {
    configure_tables(k_, cfg);
    k_.set_driver(&ice_);
    k_.set_expiry_tracking(true);  // the service task asks only what may have changed
    ice_.set_schedule_hook([this] { svc_.schedule(now_); });
  }
  kernel::Kernel& kern() override { return k_; }
  void tick(uint64_t now, double share) override {
    now_ = now;
    port_.apply_due(now);
    if (!svc_.start_at(now)) return;
    // One run: Y2 walks every entry of the 1024 buckets (modelled at the run's start) and
    // devm_kzalloc's one add-list wrapper per INACTIVE entry; Y3 posts each delete and
    // devm_kfree's its entry; Y4 posts each add and frees its wrapper (the newest node, one
    // step). devm_kfree searches the device's devres list from its newest node back
    // (drivers/base/devres.c find_dr): freeing an entry visits every live node newer than it,
    // i.e. this run's wrappers and the entries built after it. CPU time, stretched by the
    // share of its CPU that the traffic leaves it, is the run's length.
    for (uint64_t q = seen_; q < ice_.entries_built(); ++q) live_.insert(q);
    seen_ = ice_.entries_built();
    const double walked = double(ice_.num_entries());
    const size_t mark = port_.mark();
    driver::SyncResult r = ice_.ice_sync_arfs_fltrs(now / 1000, k_);
    const double wrappers = double(r.added.size());
    const double ns_to_us = 1e-3 / share;
    double t = double(now) + walked * cfg_.walk_ns * ns_to_us;
    size_t i = 0;
    for (uint64_t q : r.deleted_seq) {
      t += cfg_.write_ns * ns_to_us;
      port_.post_at(mark, i++, t);
      const double newer = double(live_.size() - live_.order_of_key(q) - 1);
      t += (newer + wrappers + 1) * cfg_.devres_ns * ns_to_us;
      live_.erase(q);
    }
    for (size_t a = 0; a < r.added.size(); ++a) {
      t += cfg_.write_ns * ns_to_us;
      port_.post_at(mark, i++, t);
      t += cfg_.devres_ns * ns_to_us;
    }
    svc_.ran(now, t - double(now));
    ++runs_;
  }
  int receive(Flow& f, uint64_t t, bool* hw, uint16_t* arrival, SystemResult& res) override {
    now_ = t;
    port_.apply_due(t);
    *hw = f.hw_queue >= 0;
    *arrival = *hw ? uint16_t(f.hw_queue) : f.rss_queue;
    f.skb.rx_queue = *arrival;
    kernel::RxDecision d = k_.netif_receive_skb(f.skb);
    ++res.paths[static_cast<int>(d.path)];
    ++res.gate_rows[static_cast<int>(d.gate)];
    if (d.path == kernel::SetRpsCpuPath::kDriverError) ++driver_errors_;
    return d.rflow.valid() ? d.cpu : -1;
  }
  driver::ArfsCounters counters() const override { return ice_.counters(); }
  void finish(SystemResult& r) const override {
    r.service_runs = runs_;
    r.timer_runs = svc_.timer_runs;
    r.service_busy_s = svc_.busy_us / 1e6;
    r.hw_writes = port_.writes();
    r.filters_installed_end = port_.installed();
    r.hw_full_rejects = port_.full_rejects();
    r.driver_errors = driver_errors_;
  }

 private:
  const SystemConfig& cfg_;
  kernel::Kernel k_;
  NicFilterPort port_;
  driver::IceArfs ice_;
  ServiceTask svc_;
  // alloc_seq of the live ice entries (their devres nodes), for devm_kfree's search.
  __gnu_pbds::tree<uint64_t, __gnu_pbds::null_type, std::less<uint64_t>, __gnu_pbds::rb_tree_tag,
                   __gnu_pbds::tree_order_statistics_node_update>
      live_;
  uint64_t seen_ = 0;
  uint64_t now_ = 0;
  uint64_t runs_ = 0, driver_errors_ = 0;
};

engine::EngineParams engine_params(const SystemConfig& cfg) {
  engine::EngineParams p;
  p.cpus = cfg.cpus;
  p.queues = cfg.cpus;
  p.lut_size = cfg.lut_size;
  unsigned bits = 0;  // 4-way buckets at most half loaded: few full buckets (driver errors)
  while ((1ull << bits) < 2ull * cfg.flows && bits < 20) ++bits;
  p.filter_bucket_bits = bits;
  p.filter_ways = 4;
  p.event_fifo_depth = 4096;
  p.variant = cfg.variant;
  p.slot_mode = cfg.slot_mode;
  return p;
}

class EnginePlane : public SteeringPlane {
 public:
  EnginePlane(const SystemConfig& cfg, const nic::Rss& rss)
      : eng_(engine_params(cfg)),
        ctl_(eng_),
        rt_(ctl_),
        svc_(cfg.service_delay_us, uint64_t(cfg.service_period_ms) * 1000) {
    const auto& lut = rss.lut();
    eng_.set_key(rss.key());
    for (uint32_t i = 0; i < lut.size(); ++i) eng_.set_lut_entry(i, lut[i]);
    for (uint32_t q = 0; q < cfg.cpus; ++q) eng_.set_rps_flow_cnt(q, cfg.rps_flow_cnt);
    eng_.set_rps_sock_flow_entries(uint64_t(cfg.cpus) * cfg.rps_flow_cnt);
    rt_.set_schedule_hook([this] { svc_.schedule(now_); });
  }
  kernel::Kernel& kern() override { return const_cast<kernel::Kernel&>(eng_.kernel()); }
  // The host runtime's sync is not costed: its runs are instant.
  void tick(uint64_t now, double) override {
    now_ = now;
    rt_.take_events(now / 1000);  // the host reads the event FIFO (its interrupt/poll)
    if (svc_.start_at(now)) {
      rt_.sync(now / 1000);
      svc_.ran(now, 0);
      ++runs_;
    }
  }
  int receive(Flow& f, uint64_t t, bool* hw, uint16_t* arrival, SystemResult& res) override {
    now_ = t;
    parsed_.cls = f.skb.tuple.proto == kIpProtoTcp ? nic::ParseClass::kIpv4Tcp : nic::ParseClass::kIpv4Udp;
    parsed_.tuple = f.skb.tuple;
    engine::OutputRecord r = eng_.steer(parsed_, f.skb.hash);
    ++res.paths[static_cast<int>(eng_.last_decision().path)];
    ++res.gate_rows[static_cast<int>(eng_.last_decision().gate)];
    *hw = r.filter_hit;
    *arrival = r.queue;
    f.hw_queue = r.filter_hit ? int32_t(r.queue) : -1;  // for the tick loop's prefetch only
    return r.cpu;
  }
  driver::ArfsCounters counters() const override { return rt_.counters(); }
  void finish(SystemResult& r) const override {
    r.service_runs = runs_;
    r.timer_runs = svc_.timer_runs;
    r.hw_writes = eng_.counters().steer_adds + eng_.counters().steer_retargets +
                  eng_.counters().flt_deletes;
    r.filters_installed_end = eng_.filters().size();
    r.driver_errors = eng_.counters().driver_errors;
  }

 private:
  engine::EngineModel eng_;
  driver::ModelEngineControl ctl_;
  driver::ArfsRuntime rt_;
  ServiceTask svc_;
  nic::ParsedFrame parsed_;
  uint64_t now_ = 0;
  uint64_t runs_ = 0;
};
}  // namespace

std::string validate(const SystemConfig& c) {
  if (c.cpus == 0 || c.cpus > 4096) return "--cpus must be 1..4096";
  if (c.flows == 0 || c.flows > 10'000'000) return "--flows must be 1..10000000";
  if (c.rps_flow_cnt == 0 || c.rps_flow_cnt > (1u << 24)) return "--rps-flow-cnt must be 1..16777216";
  if (uint64_t(c.cpus) * c.rps_flow_cnt > kernel::kMaxSockFlowEntries)
    return "cpus * rps_flow_cnt exceeds rps_sock_flow_entries' limit (2^29)";
  if (!(c.duration_s > 0) || c.duration_s > 3600) return "--duration-s must be in (0, 3600]";
  if (!(c.warmup_s >= 0) || c.warmup_s >= c.duration_s) return "--warmup-s must be in [0, duration)";
  if (!(c.start_spread_s >= 0) || c.start_spread_s >= c.duration_s)
    return "--start-spread-s must be in [0, duration)";
  if (!(c.teardown_s >= 0) || c.teardown_s > 3600) return "--teardown-s must be in [0, 3600]";
  if (!(c.pkt_interval_us >= 2) || c.pkt_interval_us > 1e7) return "--pkt-interval-us must be 2..10000000";
  if (!(c.end_pkt_interval_us == 0 || (c.end_pkt_interval_us >= 2 && c.end_pkt_interval_us <= 1e7)))
    return "--end-pkt-interval-us must be 0 or 2..10000000";
  if (c.service_period_ms == 0) return "--service-period-ms must be >= 1";
  if (!(c.min_service_share > 0) || c.min_service_share > 1) return "--min-service-share must be in (0, 1]";
  if (c.lut_size == 0 || (c.lut_size & (c.lut_size - 1))) return "--lut-size must be a power of two";
  if (!(c.udp_share >= 0 && c.udp_share <= 1)) return "--udp-share must be in [0, 1]";  // NaN too
  // at most one move per flow per millisecond: the credit loop stays bounded (NaN, inf refused)
  if (!(c.migrations_per_s >= 0 && c.migrations_per_s <= 1000)) return "--migrations-per-s must be in [0, 1000]";
  return {};
}

double SystemResult::rate_per_s(uint64_t driver::ArfsCounters::*field) const {
  double span = cfg.duration_s - cfg.warmup_s;
  return span > 0 ? double(at_steady_end.*field - at_warmup.*field) / span : 0.0;
}

double SystemResult::projected(uint64_t driver::ArfsCounters::*field) const {
  using C = driver::ArfsCounters;
  // Entries are deleted only after they were built: Del is Add minus the entries still
  // live when the client reads, taken to be those live at the end of the simulated run.
  if (field == &C::del) return projected(&C::add) - (double(at_end.add) - double(at_end.del));
  return double(at_warmup.*field) + rate_per_s(field) * (cfg.projection_s - cfg.warmup_s) +
         double(at_end.*field - at_steady_end.*field);
}

std::string config_name(const SystemConfig& c) {
  if (c.engine) return c.variant == kernel::Variant::kPatched ? "engine" : "engine-original";
  return kernel::variant_name(c.variant);
}

double service_share(const SystemConfig& c, uint64_t active_flows, double gap_us) {
  // Packets per second each CPU receives (flows spread evenly) times the CPU each costs.
  double load = double(active_flows) / c.cpus * (1e6 / gap_us) * c.pkt_ns * 1e-9;
  return std::max(c.min_service_share, 1.0 - load);
}

// The tables a flow's next skb reads are far larger than the caches at the seed's scale
// (sock table 256 x rps_flow_cnt entries, 144 slot tables): their loads are most of the
// simulator's time, so the tick loop fetches them a few flows ahead (and the flows, visited
// in wheel order, twice as far ahead).
constexpr size_t kPrefetchAhead = 8;

void prefetch_packet(const kernel::Kernel& k, const Flow& f, kernel::SlotMode mode) {
  const uint32_t h = f.skb.hash;
  if (const kernel::rps_sock_flow_table* s = k.sock_table()) __builtin_prefetch(&s->ents[h & s->mask]);
  const uint32_t rxq = f.hw_queue >= 0 ? uint32_t(f.hw_queue) : f.rss_queue;
  if (rxq >= k.num_rx_queues()) return;
  if (const kernel::rps_dev_flow_table* t = k.flow_table(rxq); t && t->size())
    __builtin_prefetch(&t->flows[t->slot(h, mode)]);
}

SystemResult run_system(const SystemConfig& cfg, const std::function<void(uint64_t)>& progress) {
  if (std::string err = validate(cfg); !err.empty()) throw std::invalid_argument(err);
  auto wall0 = std::chrono::steady_clock::now();
  std::mt19937_64 rng(cfg.seed);

  nic::Rss rss(uint16_t(cfg.cpus), nic::HashMode::kToeplitz, cfg.lut_size);
  hash::RssKey key(52);  // random per boot, like netdev_rss_key_fill (spec 6.5)
  for (auto& b : key) b = uint8_t(rng());
  rss.set_key(key);

  std::vector<Flow> flows = make_flows(cfg, rng, rss);
  std::unique_ptr<SteeringPlane> plane;
  if (cfg.engine) plane = std::make_unique<EnginePlane>(cfg, rss);
  else plane = std::make_unique<IcePlane>(cfg, flows);
  kernel::Kernel& k = plane->kern();

  // Flow i starts at U(0, start_spread) (its connection set-up: the app reads once on its CPU
  // before the first skb, spec 1.1 recording), receives one skb per period (random phase) and
  // lives duration_s: its last skb is before duration_s + its start offset.
  const uint64_t spread_us = uint64_t(cfg.start_spread_s * 1e6);
  const uint64_t dur_us = uint64_t(cfg.duration_s * 1e6);
  uint64_t max_period_ms = 1;
  for (auto& f : flows) {
    uint64_t start = spread_us ? std::uniform_int_distribution<uint64_t>(0, spread_us - 1)(rng) : 0;
    f.next_us = start + std::uniform_int_distribution<uint32_t>(0, f.period_us - 1)(rng);
    f.end_us = start + dur_us;
    max_period_ms = std::max<uint64_t>(max_period_ms, f.period_us / 1000 + 1);
  }
  if (cfg.end_pkt_interval_us > 0)  // the end's gaps too
    max_period_ms = std::max<uint64_t>(max_period_ms, uint64_t(cfg.end_pkt_interval_us * 1.5) / 1000 + 1);
  // One slot per ms, wide enough for the latest first skb and the longest period.
  const uint32_t wheel_size = uint32_t(max_period_ms + spread_us / 1000 + 2);
  std::vector<std::vector<uint32_t>> wheel(wheel_size);
  for (uint32_t i = 0; i < flows.size(); ++i) wheel[(flows[i].next_us / 1000) % wheel_size].push_back(i);

  SystemResult res;
  res.cfg = cfg;
  const uint64_t steady_end_ms = dur_us / 1000;
  const uint64_t end_ms = (dur_us + spread_us) / 1000 + uint64_t(cfg.teardown_s * 1000.0) + 1;
  const uint64_t warm_ms = uint64_t(cfg.warmup_s * 1000.0);
  const double moves_per_tick = cfg.migrations_per_s * cfg.flows / 1000.0;
  double move_credit = 0;
  std::uniform_int_distribution<uint32_t> pick_flow(0, cfg.flows - 1);
  std::uniform_int_distribution<uint32_t> pick_cpu(0, cfg.cpus - 1);
  PacketShares& sh = res.shares;
  uint64_t active = 0;  // flows started and not ended
  res.service_share = service_share(cfg, cfg.flows, cfg.pkt_interval_us);
  double gap_us = cfg.pkt_interval_us;  // the mean gap in force

  for (uint64_t now = 0; now < end_ms; ++now) {
    if (now == warm_ms) res.at_warmup = plane->counters();
    if (now == steady_end_ms) res.at_steady_end = plane->counters();
    if (now == steady_end_ms && cfg.end_pkt_interval_us > 0) {
      // The flows' last stretch at the transaction rate: each flow's next skb stays as
      // scheduled, the ones after it follow at a new gap (spec 4.2: after a flow's end, its
      // slot expires once its CPU has dequeued 10 x rps_flow_cnt more skbs).
      gap_us = cfg.end_pkt_interval_us;
      PeriodDraw period(gap_us);
      for (auto& f : flows) f.period_us = period(rng);
    }
    plane->tick(now * 1000, service_share(cfg, active, gap_us));
    for (move_credit += moves_per_tick; move_credit >= 1.0; move_credit -= 1.0)
      flows[pick_flow(rng)].app_cpu = uint16_t(pick_cpu(rng));

    auto& bucket = wheel[now % wheel_size];
    const uint64_t tick_end = (now + 1) * 1000;
    for (size_t bi = 0; bi < bucket.size(); ++bi) {
      if (bi + 2 * kPrefetchAhead < bucket.size()) {  // a Flow spans two cache lines
        const char* far = reinterpret_cast<const char*>(&flows[bucket[bi + 2 * kPrefetchAhead]]);
        __builtin_prefetch(far);
        __builtin_prefetch(far + sizeof(Flow) - 1);
      }
      if (bi + kPrefetchAhead < bucket.size()) prefetch_packet(k, flows[bucket[bi + kPrefetchAhead]], cfg.slot_mode);
      const uint32_t fi = bucket[bi];
      Flow& f = flows[fi];
      for (; f.next_us < tick_end && f.next_us < f.end_us; f.next_us += f.period_us) {
        if (!f.started) {
          f.started = true;
          ++active;
          k.rps_record_sock_flow(f.skb.hash, f.app_cpu);
        }
        bool hw = false;
        uint16_t arrival = 0;
        const int cpu = plane->receive(f, f.next_us, &hw, &arrival, res);
        ++sh.packets;
        if (cpu < 0) ++sh.not_steered;
        else if (hw) ++sh.hw_steered;
        else if (k.rmap_lookup(uint32_t(cpu)) == arrival) ++sh.rss_local;
        else ++sh.sw_steered;
        k.rps_record_sock_flow(f.skb.hash, f.app_cpu);  // recvmsg on the app's CPU
      }
      if (f.next_us < f.end_us) {
        wheel[(f.next_us / 1000) % wheel_size].push_back(fi);
      } else if (f.started) {  // netperf ends: close() clears the sock entry (spec 1.1, 6.18)
        k.sock_rps_delete_flow(f.skb.hash);
        --active;
        f.started = false;
      }
    }
    bucket.clear();

    for (uint32_t c = 0; c < cfg.cpus; ++c) {  // backlog NAPI polls: one batched head add
      uint32_t backlog = k.tail(c) - k.head(c);
      uint32_t n = cfg.cpu_budget_per_ms ? std::min(backlog, cfg.cpu_budget_per_ms) : backlog;
      if (n) k.input_queue_head_add(c, n);
    }
    if (progress && now % 250 == 0) progress(sh.packets);
  }
  if (warm_ms >= end_ms) res.at_warmup = plane->counters();
  if (steady_end_ms >= end_ms) res.at_steady_end = plane->counters();
  res.at_end = plane->counters();
  plane->finish(res);
  if (progress) progress(sh.packets);
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

}  // namespace flowsteer::system
