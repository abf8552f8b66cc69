#include "flowsteer/runs/device_run.h"

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"
#include "flowsteer/nic/parser.h"
#include "flowsteer/runs/replay.h"

namespace flowsteer::runs {

namespace r = flowsteer::regs;

namespace {

// The frames of a workload, millisecond by millisecond, each with the CPU its app reads on.
class Traffic {
 public:
  virtual ~Traffic() = default;
  // Appends the frames due at `now` (indices into frame()/app_cpu()).
  virtual void due(uint64_t now, std::vector<uint32_t>& out) = 0;
  // The next millisecond > now with frames, or UINT64_MAX.
  virtual uint64_t next_after(uint64_t now) const = 0;
  virtual uint64_t end_ms() const = 0;
  virtual const std::vector<uint8_t>& frame(uint32_t i) const = 0;
  virtual uint32_t app_cpu(uint32_t i) const = 0;
};

// Synthetic flows: each app reads on one CPU; a frame of the flow's tuple every period.
class SyntheticTraffic : public Traffic {
 public:
  SyntheticTraffic(const DeviceWorkload& w, uint32_t cpus)
      : end_(uint64_t(w.duration_s * 1000.0)),
        traffic_end_(w.traffic_s > 0 ? std::min(end_, uint64_t(w.traffic_s * 1000.0)) : end_),
        wheel_(2 * size_t(w.pkt_interval_ms) + 2) {
    std::mt19937_64 rng(w.seed);
    flows_.resize(w.flows);
    for (uint32_t i = 0; i < w.flows; ++i) {
      uint32_t a = uint32_t(rng()), b = uint32_t(rng());
      FlowTuple t;
      t.family = 4;
      t.proto = kIpProtoTcp;
      t.src = {10, 1, uint8_t(a >> 8), uint8_t(a)};
      t.dst = {10, 2, uint8_t(b >> 8), uint8_t(b)};
      t.sport = uint16_t(1024 + (a >> 16) % 64000);
      t.dport = uint16_t(1024 + (b >> 16) % 64000);
      Flow& f = flows_[i];
      f.app_cpu = uint16_t(rng() % cpus);
      f.period = uint16_t(std::max<uint32_t>(1, w.pkt_interval_ms / 2 + rng() % (w.pkt_interval_ms + 1)));
      wheel_[rng() % f.period].push_back(i);
      if (w.udp_percent && rng() % 100 < w.udp_percent) t.proto = kIpProtoUdp;
      f.frame = nic::build_frame(t);
    }
  }
  void due(uint64_t now, std::vector<uint32_t>& out) override {
    if (now >= traffic_end_) return;
    auto& bucket = wheel_[now % wheel_.size()];
    for (uint32_t fi : bucket) {
      out.push_back(fi);
      wheel_[(now + flows_[fi].period) % wheel_.size()].push_back(fi);
    }
    bucket.clear();
  }
  uint64_t next_after(uint64_t now) const override { return now + 1 < traffic_end_ ? now + 1 : UINT64_MAX; }
  uint64_t end_ms() const override { return end_; }
  const std::vector<uint8_t>& frame(uint32_t i) const override { return flows_[i].frame; }
  uint32_t app_cpu(uint32_t i) const override { return flows_[i].app_cpu; }

 private:
  struct Flow {
    std::vector<uint8_t> frame;
    uint16_t app_cpu = 0;
    uint16_t period = 1;
  };
  uint64_t end_, traffic_end_;
  std::vector<Flow> flows_;
  std::vector<std::vector<uint32_t>> wheel_;
};

// An Ethernet capture: capture time relative to the first frame; the app of a connection
// (both directions) reads on CPU (connection index % nr_cpu_ids), as `flowsteer replay`.
class PcapTraffic : public Traffic {
 public:
  PcapTraffic(const std::string& path, uint32_t cpus) {
    std::unordered_map<FlowTuple, uint32_t, FlowTupleHash> conns;
    uint64_t first = 0;
    for_each_pcap_frame(path, [&](const PcapFrame& f) {
      uint64_t ms = f.ms;
      if (frames_.empty()) first = ms;
      ms = ms >= first ? ms - first : 0;           // out-of-order stamps join the first ms
      if (!ms_.empty()) ms = std::max(ms, ms_.back());
      nic::ParsedFrame p = nic::parse_frame(f.data, f.caplen);
      uint32_t cpu = 0;
      if (p.is_ip()) cpu = conns.emplace(connection_key(p.tuple), uint32_t(conns.size())).first->second % cpus;
      // zero captured bytes: malformed, never fatal; one zero byte (a stream cannot carry
      // an empty frame) parses as truncated on every backend, as in `flowsteer replay`
      if (f.caplen) frames_.emplace_back(f.data, f.data + f.caplen);
      else frames_.emplace_back(1, uint8_t(0));
      ms_.push_back(ms);
      cpu_.push_back(cpu);
    });
  }
  void due(uint64_t now, std::vector<uint32_t>& out) override {
    while (pos_ < ms_.size() && ms_[pos_] <= now) out.push_back(uint32_t(pos_++));
  }
  uint64_t next_after(uint64_t now) const override {
    auto it = std::upper_bound(ms_.begin() + long(pos_), ms_.end(), now);
    return it == ms_.end() ? UINT64_MAX : *it;
  }
  uint64_t end_ms() const override { return ms_.empty() ? 0 : ms_.back() + 1; }
  const std::vector<uint8_t>& frame(uint32_t i) const override { return frames_[i]; }
  uint32_t app_cpu(uint32_t i) const override { return cpu_[i]; }

 private:
  std::vector<std::vector<uint8_t>> frames_;
  std::vector<uint64_t> ms_;
  std::vector<uint32_t> cpu_;
  size_t pos_ = 0;
};

// The knobs as the kernel's files name them: sysctl, then per queue, then per CPU.
std::vector<std::pair<std::string, std::string>> read_knobs(driver::EngineDriver& drv,
                                                           const driver::ArfsRuntime& rt) {
  std::vector<std::pair<std::string, std::string>> k;
  k.emplace_back("/proc/sys/net/core/rps_sock_flow_entries", std::to_string(drv.rps_sock_flow_entries()));
  k.emplace_back("ethtool -k: ntuple-filters", rt.ice_is_arfs_active() ? "on" : "off");
  for (uint32_t q = 0; q < drv.num_rx_queues(); ++q) {
    const std::string dir = "/sys/class/net/<dev>/queues/rx-" + std::to_string(q);
    k.emplace_back(dir + "/rps_flow_cnt", std::to_string(drv.rps_flow_cnt(q)));
    // show_rps_map: "%*pb" over nr_cpu_ids bits, hex digits in 32-bit groups split by commas
    std::vector<bool> bits(drv.nr_cpu_ids(), false);
    for (uint16_t c : drv.rps_cpus(q)) bits[c] = true;
    std::string hex;
    const uint32_t digits = (drv.nr_cpu_ids() + 3) / 4;
    for (uint32_t d = digits; d-- > 0;) {
      unsigned v = 0;
      for (uint32_t b = 0; b < 4; ++b)
        if (d * 4 + b < bits.size() && bits[d * 4 + b]) v |= 1u << b;
      hex += "0123456789abcdef"[v];
      if (d && d % 8 == 0) hex += ',';
    }
    k.emplace_back(dir + "/rps_cpus", hex);
  }
  for (uint32_t c = 0; c < drv.nr_cpu_ids(); ++c) {
    k.emplace_back("/sys/devices/system/cpu/cpu" + std::to_string(c) + "/online", rt.cpu_online(c) ? "1" : "0");
    k.emplace_back("rx_cpu_rmap cpu" + std::to_string(c), "rx-" + std::to_string(rt.rmap(c)));
  }
  return k;
}

}  // namespace

DeviceReport run_device(device::EnginePort& port, const driver::EngineSetup& setup, const DeviceWorkload& w) {
  const auto t0 = std::chrono::steady_clock::now();
  bus::RegisterBus& bus = port.bus();
  device::FramePort* fp = port.frames();
  std::unique_ptr<Traffic> traffic;  // read before touching the engine: a bad file changes nothing
  if (fp) {
    if (!w.pcap.empty()) traffic = std::make_unique<PcapTraffic>(w.pcap, setup.nr_cpu_ids);
    else traffic = std::make_unique<SyntheticTraffic>(w, setup.nr_cpu_ids);
  }
  if (w.service_period_ms == 0) throw std::invalid_argument("service period must be at least 1 ms");
  for (const auto& c : w.changes) {  // files that do not exist, before touching the engine
    if (c.kind == KnobChange::Kind::kCpuOnline && c.index >= setup.nr_cpu_ids)
      throw driver::KnobError(-ENOENT, "cpu" + std::to_string(c.index) + " has no online file: nr_cpu_ids is " +
                                           std::to_string(setup.nr_cpu_ids) + " (-ENOENT)");
    if ((c.kind == KnobChange::Kind::kRpsFlowCnt || c.kind == KnobChange::Kind::kRpsCpus) &&
        c.index >= setup.num_rx_queues)
      throw driver::KnobError(-ENOENT, "rx-" + std::to_string(c.index) + " has no such file: the device has " +
                                           std::to_string(setup.num_rx_queues) + " RX queues (-ENOENT)");
  }
  driver::EngineDriver drv(bus);
  drv.configure(setup);
  driver::ArfsRuntime rt(drv);
  rt.ice_rebuild_arfs();                                          // empty lists over an empty table
  bus.write32(r::CNT_CLEAR::kAddr, r::CNT_CLEAR::ALL.put(1));  // counters of this run
  bool sched = false;
  rt.set_schedule_hook([&] { sched = true; });
  DeviceReport rep;
  rep.backend = bus.describe();
  rep.kind = port.kind();
  rep.queue_packets.assign(setup.num_rx_queues, 0);
  rep.cpu_packets.assign(setup.nr_cpu_ids, 0);
  std::vector<uint32_t> tail0(setup.nr_cpu_ids);
  for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c) tail0[c] = drv.tail(c);

  uint64_t sched_due = 0;
  // After the work of `now`: the service task runs every period and 2 ms after a new entry.
  auto service = [&](uint64_t now) {
    if (sched && sched_due == 0) sched_due = now + 2;
    if ((now > 0 && now % w.service_period_ms == 0) || (sched_due && now >= sched_due)) {
      rt.ice_sync_arfs_fltrs(now);
      ++rep.syncs;
      sched = false;
      sched_due = 0;
    }
  };
  auto next_service = [&](uint64_t now) {
    uint64_t t = (now / w.service_period_ms + 1) * w.service_period_ms;
    if (sched && sched_due == 0) return std::min(t, now + 2);
    return sched_due ? std::min(t, std::max(sched_due, now + 1)) : t;
  };

  // The CPU an app reads on: its own, or the next online one after a hot-unplug.
  auto app_cpu = [&](uint32_t cpu) {
    for (uint32_t k = 0; k < setup.nr_cpu_ids; ++k) {
      const uint32_t c = (cpu + k) % setup.nr_cpu_ids;
      if (rt.cpu_online(c)) return c;
    }
    return cpu;
  };
  std::map<uint32_t, uint32_t> recorded;  // hash -> the app's own CPU, for re-recording
  size_t next_change = 0;
  auto apply_changes = [&](uint64_t now) {
    for (; next_change < w.changes.size() && w.changes[next_change].at_ms <= now; ++next_change) {
      const KnobChange& c = w.changes[next_change];
      ChangeSnapshot snap;
      snap.at_ms = now;
      switch (c.kind) {
        case KnobChange::Kind::kNtuple:
          rt.set_features_ntuple(c.value != 0);
          break;
        case KnobChange::Kind::kCpuOnline:
          snap.removed = rt.set_cpu_online(c.index, c.value != 0);
          for (const auto& [hash, cpu] : recorded)  // the migrated apps read again
            rep.sock_writes += drv.rps_record_sock_flow(hash, app_cpu(cpu));
          break;
        case KnobChange::Kind::kRpsFlowCnt:
          drv.set_rps_flow_cnt(c.index, c.value);
          break;
        case KnobChange::Kind::kRpsCpus:
          drv.set_rps_cpus(c.index, c.mask);
          break;
        case KnobChange::Kind::kEngineReset:
          port.reset_engine();
          break;
        case KnobChange::Kind::kSockFlowEntries:
          drv.set_rps_sock_flow_entries(c.value);
          for (const auto& [hash, cpu] : recorded)  // every entry reset: the apps record again
            rep.sock_writes += drv.rps_record_sock_flow(hash, app_cpu(cpu));
          break;
      }
      if (c.kind != KnobChange::Kind::kEngineReset) rt.take_events(now);  // (a reset engine: the next ms)
      snap.arfs_active = rt.ice_is_arfs_active();
      snap.runtime_entries = rt.num_entries();
      snap.filter_count = c.kind == KnobChange::Kind::kEngineReset ? 0 : drv.filter_count();
      snap.steer_c = rt.counters().steer_c;
      rep.changes.push_back(snap);
    }
  };
  // A reset behind our back: the tails restart at 0 (the frames enqueued before it are
  // counted from the heads this run processed up to them), the runtime rebuilds, and the
  // apps record their flows again in the new sock table.
  std::vector<uint64_t> cpu_before(setup.nr_cpu_ids, 0);
  auto check_reset = [&] {
    if (!drv.engine_was_reset()) return;
    for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c) {
      if (auto h = drv.processed_head(c)) cpu_before[c] += uint32_t(*h - tail0[c]);
      tail0[c] = 0;
    }
    rt.ice_check_reset();
    ++rep.engine_resets;
    for (const auto& [hash, cpu] : recorded) rep.sock_writes += drv.rps_record_sock_flow(hash, app_cpu(cpu));
  };
  auto next_change_ms = [&](uint64_t now) {
    return next_change < w.changes.size() ? std::max(w.changes[next_change].at_ms, now + 1) : UINT64_MAX;
  };

  if (fp) {
    std::vector<uint32_t> batch;
    std::vector<engine::OutputRecord> recs;
    std::vector<bool> enqueued(setup.nr_cpu_ids, false);  // records name the CPUs whose tail moved
    const uint64_t end_ms = traffic->end_ms();
    if (w.progress) w.progress(0, end_ms, 0);
    for (uint64_t now = 0; now < end_ms;) {
      if (!w.changes.empty()) check_reset();
      batch.clear();
      traffic->due(now, batch);
      if (!batch.empty()) {
        recs.clear();
        for (size_t i = 0; i < batch.size(); ++i) {
          fp->send(traffic->frame(batch[i]));
          if (w.max_batch && (i + 1) % w.max_batch == 0) fp->drain(recs);
        }
        fp->drain(recs);
        if (recs.size() != batch.size())
          throw bus::DeviceError(rep.backend + ": " + std::to_string(recs.size()) + " records for " +
                                    std::to_string(batch.size()) + " frames");
        rep.frames += batch.size();
        for (size_t i = 0; i < batch.size(); ++i) {
          const engine::OutputRecord& rec = recs[i];
          if (rec.queue < rep.queue_packets.size()) ++rep.queue_packets[rec.queue];
          if (rec.cpu >= 0 && uint32_t(rec.cpu) < setup.nr_cpu_ids) enqueued[uint32_t(rec.cpu)] = true;
          // recvmsg on the app's CPU records the skb hash the engine delivered (spec 1.1).
          if (rec.hash_valid) {
            const uint32_t own = traffic->app_cpu(batch[i]);
            rep.sock_writes += drv.rps_record_sock_flow(rec.hash, app_cpu(own));
            if (!w.changes.empty()) recorded[rec.hash] = own;
          }
        }
      }
      rt.take_events(now);
      for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c)  // the backlogs that grew are processed
        if (enqueued[c]) {
          if (rt.cpu_online(c)) drv.process_backlog(c);  // an offline CPU's head is frozen (spec 8 case 7)
          enqueued[c] = false;
        }
      service(now);
      apply_changes(now);
      if (w.progress) w.progress(now, end_ms, rep.frames);
      now = std::min({traffic->next_after(now), next_service(now), next_change_ms(now)});
    }
  } else {
    // A card: the runtime keeps the filters of live traffic for duration_s of wall time;
    // the backlogs are processed every millisecond.
    const uint64_t end_ms = uint64_t(w.duration_s * 1000.0);
    if (w.progress) w.progress(0, end_ms, 0);
    auto start = std::chrono::steady_clock::now();
    for (uint64_t now = 0; now < end_ms; ++now) {
      std::this_thread::sleep_until(start + std::chrono::milliseconds(now));
      check_reset();  // a card can be reset or reloaded under us at any time
      rt.take_events(now);
      for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c)
        if (rt.cpu_online(c)) drv.process_backlog(c);
      service(now);
      apply_changes(now);
    }
  }
  rt.take_events(traffic ? traffic->end_ms() : uint64_t(w.duration_s * 1000.0));
  for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i) rep.counters.push_back(drv.counter(i));
  if (!w.changes.empty()) check_reset();
  for (uint32_t c = 0; c < setup.nr_cpu_ids; ++c)
    rep.cpu_packets[c] = cpu_before[c] + uint32_t(drv.tail(c) - tail0[c]);
  rep.runtime = rt.counters();
  rep.runtime_entries = rt.num_entries();
  rep.delete_errors = rt.delete_errors();
  rep.engine_resets = rt.resets();
  rep.filter_count = drv.filter_count();
  rep.arfs_active = rt.ice_is_arfs_active();
  for (int t = 0; t < driver::kFlowTypeCount; ++t) rep.active_fltr_cnt[t] = rt.active_fltr_cnt(driver::FlowType(t));
  for (const auto& e : rt.entries()) {
    FilterRow row;
    row.tuple = e.tuple;
    row.id = e.id;
    row.queue = e.queue;
    row.state = e.fltr_state;
    row.flow_id = e.flow_id;
    if (auto h = drv.filter_lookup(e.tuple)) {
      row.found = true;
      row.engine_id = h->id;
      row.engine_queue = h->queue;
    }
    rep.filters.push_back(row);
  }
  rep.knobs = read_knobs(drv, rt);
  if (auto* pb = dynamic_cast<device::PortBus*>(&bus)) rep.register_accesses = pb->accesses();
  rep.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

DeviceReport run_device(bus::RegisterBus& bus, const driver::EngineSetup& setup, const DeviceWorkload& w,
                        const FrameSink& frames) {
  auto port = device::open_callback_port(bus, frames, frames ? "callback" : "registers");
  return run_device(*port, setup, w);
}

std::string first_difference(const DeviceReport& a, const DeviceReport& b) {
  auto num = [](const std::string& what, uint64_t x, uint64_t y) {
    return what + " " + std::to_string(x) + " vs " + std::to_string(y);
  };
  if (a.frames != b.frames) return num("frames", a.frames, b.frames);
  for (size_t i = 0; i < std::min(a.counters.size(), b.counters.size()); ++i) {
    if (r::counter_rtl_only(uint32_t(i))) continue;  // the RTL's own
    if (a.counters[i] != b.counters[i]) return num("CNT_" + counter_name(uint32_t(i)), a.counters[i], b.counters[i]);
  }
  const auto &x = a.runtime, &y = b.runtime;
  if (x.steer_c != y.steer_c) return num("runtime Steer-C", x.steer_c, y.steer_c);
  if (x.add != y.add) return num("runtime Add", x.add, y.add);
  if (x.del != y.del) return num("runtime Del", x.del, y.del);
  if (a.syncs != b.syncs) return num("syncs", a.syncs, b.syncs);
  if (a.engine_resets != b.engine_resets) return num("engine resets", a.engine_resets, b.engine_resets);
  for (size_t q = 0; q < std::min(a.queue_packets.size(), b.queue_packets.size()); ++q)
    if (a.queue_packets[q] != b.queue_packets[q])
      return num("frames of rx-" + std::to_string(q), a.queue_packets[q], b.queue_packets[q]);
  for (size_t c = 0; c < std::min(a.cpu_packets.size(), b.cpu_packets.size()); ++c)
    if (a.cpu_packets[c] != b.cpu_packets[c])
      return num("frames enqueued on cpu" + std::to_string(c), a.cpu_packets[c], b.cpu_packets[c]);
  if (a.filter_count != b.filter_count) return num("FLT_COUNT", a.filter_count, b.filter_count);
  for (size_t i = 0; i < std::min(a.filters.size(), b.filters.size()); ++i)
    if (!(a.filters[i] == b.filters[i])) return "filter row " + std::to_string(i) + " (" + to_string(a.filters[i].tuple) + ")";
  if (a.filters.size() != b.filters.size()) return num("filter rows", a.filters.size(), b.filters.size());
  if (a.sock_writes != b.sock_writes) return num("sock-table stores", a.sock_writes, b.sock_writes);
  for (int t = 0; t < driver::kFlowTypeCount; ++t)
    if (a.active_fltr_cnt[t] != b.active_fltr_cnt[t])
      return num(std::string("active ") + driver::flow_type_name(driver::FlowType(t)) + " filters",
                 uint64_t(a.active_fltr_cnt[t]), uint64_t(b.active_fltr_cnt[t]));
  if (a.changes.size() != b.changes.size()) return num("knob changes", a.changes.size(), b.changes.size());
  for (size_t i = 0; i < a.changes.size(); ++i)
    if (!(a.changes[i] == b.changes[i])) return "after knob change " + std::to_string(i);
  if (a.knobs != b.knobs) return "knob values";
  return "";
}

std::string counter_name(uint32_t i) {
  const uint32_t k = i - uint32_t(r::Counter::kParseClass0);
  if (i >= uint32_t(r::Counter::kParseClass0) && k < uint32_t(nic::kParseClassCount)) {
    std::string n = std::string("PARSE_") + nic::parse_class_name(nic::ParseClass(k));
    for (auto& ch : n) ch = ch == '-' ? '_' : char(std::toupper(static_cast<unsigned char>(ch)));
    return n;
  }
  if (const char* n = r::counter_map_name(i)) return n;
  return "CNT" + std::to_string(i);
}

void print_device_report(std::ostream& os, const DeviceReport& r) {
  char line[320];
  os << "backend: " << r.backend << " (" << r.kind << ")\n";
  os << "engine counters (CNT_*):\n";
  for (size_t i = 0; i < r.counters.size(); ++i) {
    const std::string name = counter_name(uint32_t(i));
    if (name.rfind("CNT", 0) == 0 && r.counters[i] == 0) continue;  // unassigned index
    std::snprintf(line, sizeof line, "  %2zu %-22s %14llu\n", i, name.c_str(),
                  (unsigned long long)r.counters[i]);
    os << line;
  }
  std::snprintf(line, sizeof line,
                "runtime: Steer-C %llu, Steer-L %llu, Add %llu, Del %llu; %llu syncs, %zu filters listed, "
                "FLT_COUNT %u, %llu delete errors, %llu engine resets rebuilt after\n",
                (unsigned long long)r.runtime.steer_c, (unsigned long long)r.runtime.steer_l,
                (unsigned long long)r.runtime.add, (unsigned long long)r.runtime.del, (unsigned long long)r.syncs,
                r.runtime_entries, r.filter_count, (unsigned long long)r.delete_errors,
                (unsigned long long)r.engine_resets);
  os << line;
  os << "per queue (frames arrived):\n";
  for (size_t q = 0; q < r.queue_packets.size(); ++q) {
    std::snprintf(line, sizeof line, "  rx-%-4zu %12llu\n", q, (unsigned long long)r.queue_packets[q]);
    os << line;
  }
  os << "per CPU (frames enqueued on its backlog):\n";
  for (size_t c = 0; c < r.cpu_packets.size(); ++c) {
    std::snprintf(line, sizeof line, "  cpu%-4zu %12llu\n", c, (unsigned long long)r.cpu_packets[c]);
    os << line;
  }
  std::snprintf(line, sizeof line, "%llu frames, %llu sock-table stores, %llu register accesses, %.2f s wall\n",
                (unsigned long long)r.frames, (unsigned long long)r.sock_writes,
                (unsigned long long)r.register_accesses, r.wall_s);
  os << line;
}

namespace {

const char* ethtool_rule_type(const FlowTuple& t) {
  const bool tcp = t.proto == kIpProtoTcp;
  if (t.family == 6) return tcp ? "TCP over IPv6" : "UDP over IPv6";
  return tcp ? "TCP over IPv4" : "UDP over IPv4";
}

// ethtool -S names: ice's rx_queue_<n>_packets, then the engine's and the runtime's.
std::vector<std::pair<std::string, uint64_t>> stats_of(const DeviceReport& r) {
  std::vector<std::pair<std::string, uint64_t>> s;
  for (size_t q = 0; q < r.queue_packets.size(); ++q)
    s.emplace_back("rx_queue_" + std::to_string(q) + "_packets", r.queue_packets[q]);
  for (size_t c = 0; c < r.cpu_packets.size(); ++c)
    s.emplace_back("cpu" + std::to_string(c) + "_backlog_enqueued", r.cpu_packets[c]);
  for (size_t i = 0; i < r.counters.size(); ++i) {
    std::string n = counter_name(uint32_t(i));
    if (n.rfind("CNT", 0) == 0 && r.counters[i] == 0) continue;  // unassigned index
    for (auto& ch : n) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    s.emplace_back("engine_" + n, r.counters[i]);
  }
  s.emplace_back("arfs_steer_calls", r.runtime.steer_c);
  s.emplace_back("arfs_adds", r.runtime.add);
  s.emplace_back("arfs_dels", r.runtime.del);
  s.emplace_back("arfs_delete_errors", r.delete_errors);
  s.emplace_back("arfs_service_runs", r.syncs);
  static const char* const active[] = {"arfs_active_tcpv4", "arfs_active_udpv4", "arfs_active_tcpv6",
                                       "arfs_active_udpv6"};  // driver::FlowType order
  for (int t = 0; t < driver::kFlowTypeCount; ++t) s.emplace_back(active[t], uint64_t(std::max(0, r.active_fltr_cnt[t])));
  return s;
}

}  // namespace

void print_filters_ethtool(std::ostream& os, const DeviceReport& r) {
  os << r.queue_packets.size() << " RX rings available\n";
  os << "Total " << r.filters.size() << " rules\n\n";
  for (const auto& f : r.filters) {
    os << "Filter: " << f.id << "\n";
    os << "\tRule Type: " << ethtool_rule_type(f.tuple) << "\n";
    const char* zero = f.tuple.family == 6 ? "::" : "0.0.0.0";
    os << "\tSrc IP addr: " << ip_to_string(f.tuple, true) << " mask: " << zero << "\n";
    os << "\tDest IP addr: " << ip_to_string(f.tuple, false) << " mask: " << zero << "\n";
    os << "\tSrc port: " << f.tuple.sport << " mask: 0x0\n";
    os << "\tDest port: " << f.tuple.dport << " mask: 0x0\n";
    os << "\tAction: Direct to queue " << f.queue << "\n";
    os << "\taRFS: " << driver::fltr_state_name(f.state) << ", flow_id " << f.flow_id << ", engine "
       << (f.found ? "rx-" + std::to_string(f.engine_queue) + " id " + std::to_string(f.engine_id) : std::string("none"))
       << "\n\n";
  }
}

void print_stats_ethtool(std::ostream& os, const DeviceReport& r) {
  os << "NIC statistics:\n";
  for (const auto& [name, value] : stats_of(r)) os << "     " << name << ": " << value << "\n";
}

void print_knobs(std::ostream& os, const DeviceReport& r) {
  for (const auto& [path, value] : r.knobs) os << path << " = " << value << "\n";
}

void write_listing_json(std::ostream& os, const DeviceReport& r, const std::string& what) {
  nlohmann::ordered_json j;
  if (what == "filters" || what == "report") {
    nlohmann::ordered_json flt = nlohmann::ordered_json::array();
    for (const auto& f : r.filters)
      flt.push_back({{"id", f.id},
                     {"flow_type", ethtool_rule_type(f.tuple)},
                     {"src_ip", ip_to_string(f.tuple, true)},
                     {"dst_ip", ip_to_string(f.tuple, false)},
                     {"src_port", f.tuple.sport},
                     {"dst_port", f.tuple.dport},
                     {"action_queue", f.queue},
                     {"state", driver::fltr_state_name(f.state)},
                     {"flow_id", f.flow_id},
                     {"in_engine", f.found}});
    j["filters"] = flt;
  }
  if (what == "stats" || what == "report") {
    nlohmann::ordered_json st;
    for (const auto& [name, value] : stats_of(r)) st[name] = value;
    j["stats"] = st;
  }
  if (what == "knobs" || what == "report") {
    nlohmann::ordered_json kn;
    for (const auto& [path, value] : r.knobs) kn[path] = value;
    j["knobs"] = kn;
  }
  os << j.dump(2) << "\n";
}

void write_device_json(std::ostream& os, const DeviceReport& r) {
  nlohmann::ordered_json j;
  j["backend"] = r.backend;
  j["kind"] = r.kind;
  nlohmann::ordered_json cnt;
  for (size_t i = 0; i < r.counters.size(); ++i) cnt[counter_name(uint32_t(i))] = r.counters[i];
  j["counters"] = cnt;
  j["runtime"] = {{"steer_c", r.runtime.steer_c}, {"steer_l", r.runtime.steer_l}, {"add", r.runtime.add},
                  {"del", r.runtime.del},         {"syncs", r.syncs},              {"entries", r.runtime_entries},
                  {"delete_errors", r.delete_errors}, {"engine_resets", r.engine_resets}};
  j["queue_packets"] = r.queue_packets;
  j["cpu_packets"] = r.cpu_packets;
  j["frames"] = r.frames;
  j["sock_writes"] = r.sock_writes;
  j["register_accesses"] = r.register_accesses;
  j["filter_count"] = r.filter_count;
  nlohmann::ordered_json flt = nlohmann::ordered_json::array();
  for (const auto& f : r.filters)
    flt.push_back({{"tuple", to_string(f.tuple)}, {"id", f.id}, {"queue", f.queue}, {"found", f.found},
                   {"engine_id", f.engine_id}, {"engine_queue", f.engine_queue},
                   {"state", driver::fltr_state_name(f.state)}, {"flow_id", f.flow_id}});
  j["filters"] = flt;
  j["arfs_active"] = r.arfs_active;
  nlohmann::ordered_json kn;
  for (const auto& [path, value] : r.knobs) kn[path] = value;
  j["knobs"] = kn;
  j["wall_s"] = r.wall_s;
  os << j.dump(2) << "\n";
}

}  // namespace flowsteer::runs
