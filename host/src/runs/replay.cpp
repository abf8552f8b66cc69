#include "flowsteer/runs/replay.h"

#include "flowsteer/quote.h"

#include <pcap/pcap.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <unordered_map>

#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/driver/engine_runtime.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/parser.h"

namespace flowsteer::runs {

FlowTuple connection_key(const FlowTuple& t) {
  // Endpoints (address, port) in lexicographic order, pairs kept together. (The kernel's
  // consistentify sorts addresses and ports independently, which breaks the pairs.)
  bool swap = t.dst < t.src || (t.dst == t.src && t.dport < t.sport);
  return swap ? t.reversed() : t;
}

std::string endpoint_text(const FlowTuple& t, bool src) {
  std::string ip = ip_to_string(t, src);
  if (t.family == 6) ip = "[" + ip + "]";
  return ip + ":" + std::to_string(src ? t.sport : t.dport);
}

namespace {

// The golden model with the host runtime on top of it.
class ModelReplayEngine : public ReplayEngine {
 public:
  explicit ModelReplayEngine(const ReplayConfig& cfg) : cfg_(cfg), eng_(cfg.params), ctl_(eng_), rt_(ctl_) {
    eng_.set_hash_mode(cfg.hash_mode);
    eng_.set_jhash_seed(cfg.jhash_seed);
    for (uint32_t q = 0; q < cfg.params.queues; ++q)
      if (eng_.set_rps_flow_cnt(q, cfg.rps_flow_cnt) != 0) throw std::invalid_argument("bad --rps-flow-cnt");
    uint64_t sock = cfg.sock_flow_entries ? cfg.sock_flow_entries : uint64_t(cfg.params.cpus) * cfg.rps_flow_cnt;
    if (eng_.set_rps_sock_flow_entries(sock) != 0) throw std::invalid_argument("bad sock flow entries");
  }
  engine::OutputRecord packet(const uint8_t* frame, size_t len) override {
    nic::ParsedFrame p = nic::parse_frame(frame, len);
    return eng_.steer(p, eng_.rss().hash(p));
  }
  void backlogs_processed(const std::vector<uint32_t>& cpus) override {
    for (uint32_t c : cpus) eng_.head_add(c, eng_.kernel().tail(c) - eng_.kernel().head(c));
  }
  void service(uint64_t now_ms) override { rt_.sync(now_ms); }
  void take_events(uint64_t now_ms) override { rt_.take_events(now_ms); }
  void sock_record(uint32_t hash, uint32_t cpu) override { eng_.sock_record(hash, cpu); }
  void finish(ReplayResult& r) override {
    r.counters = eng_.counters();
    r.runtime_adds = rt_.counters().add;
    r.runtime_dels = rt_.counters().del;
    r.filters_end = eng_.filters().size();
  }

 private:
  ReplayConfig cfg_;
  engine::EngineModel eng_;
  driver::ModelEngineControl ctl_;
  driver::ArfsRuntime rt_;
};

// The golden register model behind the register-level driver, configured from the same
// EngineSetup as the simulated RTL (replay_setup): both sides of a --backend verilator
// comparison hold the same tables.
class RegisterModelReplayEngine : public ReplayEngine {
 public:
  RegisterModelReplayEngine(const ReplayConfig& cfg, const engine::EngineCaps& caps)
      : cfg_(cfg), regs_(caps), drv_(regs_), rt_(drv_) {
    drv_.configure(replay_setup(cfg));
  }
  engine::OutputRecord packet(const uint8_t* frame, size_t len) override {
    auto r = regs_.packet(frame, len);
    if (!r) throw std::runtime_error("model engine: the frame port is disabled");
    return *r;
  }
  void backlogs_processed(const std::vector<uint32_t>& cpus) override {
    for (uint32_t c : cpus) drv_.process_backlog(c);
  }
  void service(uint64_t now_ms) override { rt_.sync(now_ms); }
  void take_events(uint64_t now_ms) override { rt_.take_events(now_ms); }
  void sock_record(uint32_t hash, uint32_t cpu) override { drv_.rps_record_sock_flow(hash, cpu); }
  void finish(ReplayResult& r) override { read_driver_counters(drv_, rt_, r); }

 private:
  ReplayConfig cfg_;
  engine::EngineRegisterFile regs_;
  driver::EngineDriver drv_;
  driver::ArfsRuntime rt_;
};

}  // namespace

driver::EngineSetup replay_setup(const ReplayConfig& cfg) {
  driver::EngineSetup s;
  s.nr_cpu_ids = cfg.params.cpus;
  s.num_rx_queues = cfg.params.queues;
  s.variant = cfg.params.variant;
  s.slot_mode = cfg.params.slot_mode;
  s.hash_mode = cfg.hash_mode;
  s.jhash_seed = cfg.jhash_seed;
  s.rps_flow_cnt = cfg.rps_flow_cnt;
  s.rps_sock_flow_entries = cfg.sock_flow_entries;
  return s;
}

void read_driver_counters(driver::EngineDriver& drv, driver::ArfsRuntime& rt, ReplayResult& r) {
  namespace rg = flowsteer::regs;
  engine::EngineCounters& k = r.counters;
  using C = rg::Counter;
  k.pkts = drv.counter(uint32_t(C::kPkts));
  k.pkts_hashed = drv.counter(uint32_t(C::kPktsHashed));
  k.flt_hits = drv.counter(uint32_t(C::kFltHits));
  k.rfs_cpu = drv.counter(uint32_t(C::kRfsCpu));
  k.steer_calls = drv.counter(uint32_t(C::kSteerCalls));
  k.steer_adds = drv.counter(uint32_t(C::kSteerAdds));
  k.steer_retargets = drv.counter(uint32_t(C::kSteerRetargets));
  k.gate_skips = drv.counter(uint32_t(C::kGateSkips));
  k.driver_errors = drv.counter(uint32_t(C::kDriverErrors));
  k.flt_deletes = drv.counter(uint32_t(C::kFltDeletes));
  k.events = drv.counter(uint32_t(C::kEvents));
  k.event_fifo_refusals = drv.counter(uint32_t(C::kEvtRefusals));
  for (int i = 0; i < nic::kParseClassCount; ++i)
    k.parse_class[size_t(i)] = drv.counter(uint32_t(C::kParseClass0) + uint32_t(i));
  r.runtime_adds = rt.counters().add;
  r.runtime_dels = rt.counters().del;
  r.filters_end = drv.filter_count();
}

std::unique_ptr<ReplayEngine> make_model_replay_engine(const ReplayConfig& cfg, const engine::EngineCaps& caps) {
  return std::make_unique<RegisterModelReplayEngine>(cfg, caps);
}

std::string first_difference(const ReplayResult& a, const ReplayResult& b) {
  auto conn = [](const ConnectionSummary& c) {
    return std::string(c.key.proto == kIpProtoTcp ? "tcp " : c.key.proto == kIpProtoUdp ? "udp " : "ip ") +
           endpoint_text(c.key, true) + " " + endpoint_text(c.key, false);
  };
  auto dir = [](const Direction& x, const Direction& y) {
    return x.packets == y.packets && x.hash == y.hash && x.queues == y.queues && x.cpus == y.cpus &&
           x.filter_hits == y.filter_hits;
  };
  const size_t n = std::min(a.connections.size(), b.connections.size());
  for (size_t i = 0; i < n; ++i) {
    const ConnectionSummary &x = a.connections[i], &y = b.connections[i];
    if (!(x.key == y.key)) return "connection " + std::to_string(i) + ": " + conn(x) + " vs " + conn(y);
    auto num = [&](const char* what, uint64_t u, uint64_t v) {
      return "connection " + std::to_string(i) + " (" + conn(x) + "): " + what + " " + std::to_string(u) +
             " vs " + std::to_string(v);
    };
    if (x.steers != y.steers) return num("steers", x.steers, y.steers);
    if (x.skips != y.skips) return num("gate skips", x.skips, y.skips);
    if (x.driver_errors != y.driver_errors) return num("driver errors", x.driver_errors, y.driver_errors);
    if (!dir(x.ab, y.ab) || !dir(x.ba, y.ba))
      return "connection " + std::to_string(i) + " (" + conn(x) + "): queues, CPUs, hashes or filter hits";
  }
  if (a.connections.size() != b.connections.size())
    return std::to_string(a.connections.size()) + " vs " + std::to_string(b.connections.size()) + " connections";
  if (a.frames != b.frames) return std::to_string(a.frames) + " vs " + std::to_string(b.frames) + " frames";
  if (a.by_class != b.by_class) return "parse classes";
  const auto &k = a.counters, &m = b.counters;
  if (k.steer_calls != m.steer_calls || k.steer_adds != m.steer_adds || k.steer_retargets != m.steer_retargets ||
      k.gate_skips != m.gate_skips || k.driver_errors != m.driver_errors || k.flt_hits != m.flt_hits ||
      k.events != m.events)
    return "engine counters";
  if (a.runtime_adds != b.runtime_adds || a.runtime_dels != b.runtime_dels || a.filters_end != b.filters_end)
    return "runtime counters or filters at the end";
  return "";
}

ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg) {
  ModelReplayEngine eng(cfg);
  return replay_pcap(path, cfg, eng);
}

void for_each_pcap_frame(const std::string& path, const std::function<void(const PcapFrame&)>& frame) {
  char err[PCAP_ERRBUF_SIZE] = {0};
  pcap_t* pc = pcap_open_offline(path.c_str(), err);
  if (!pc) throw std::runtime_error("cannot read pcap " + quote_bytes(path) + ": " + err);
  struct Closer {
    pcap_t* p;
    ~Closer() { pcap_close(p); }
  } closer{pc};
  if (const int dlt = pcap_datalink(pc); dlt != DLT_EN10MB) {
    const char* name = pcap_datalink_val_to_name(dlt);
    const char* desc = pcap_datalink_val_to_description(dlt);
    throw std::runtime_error(quote_bytes(path) + " is not an Ethernet capture (its link type is " +
                             (name ? std::string(name) : "DLT " + std::to_string(dlt)) +
                             (desc ? std::string(": ") + desc : std::string()) + ")");
  }
  struct pcap_pkthdr* hdr = nullptr;
  const u_char* data = nullptr;
  int rc;
  while ((rc = pcap_next_ex(pc, &hdr, &data)) == 1) {
    PcapFrame f;
    f.ms = uint64_t(hdr->ts.tv_sec) * 1000 + uint64_t(hdr->ts.tv_usec) / 1000;
    f.data = data;
    f.caplen = hdr->caplen;
    f.len = hdr->len;
    frame(f);
  }
  if (rc == PCAP_ERROR)
    throw std::runtime_error("error reading " + quote_bytes(path) + ": " + pcap_geterr(pc));
}

ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg, ReplayEngine& eng) {
  ReplayResult res;
  res.by_class.assign(nic::kParseClassCount, 0);
  std::unordered_map<FlowTuple, size_t, FlowTupleHash> index;
  uint64_t last_ms = 0, last_sync = 0;
  std::vector<bool> enqueued(cfg.params.cpus, false);  // a record enqueued on it since the catch-up
  std::vector<uint32_t> grown;
  bool first = true;
  for_each_pcap_frame(path, [&](const PcapFrame& f) {
    const uint64_t ms = f.ms;
    if (first) last_ms = last_sync = ms, first = false;
    if (ms != last_ms) {  // the backlogs were processed meanwhile: heads catch up
      if (!grown.empty()) eng.backlogs_processed(grown);
      for (uint32_t c : grown) enqueued[c] = false;
      grown.clear();
      last_ms = ms;
    }
    if (ms - last_sync >= cfg.service_period_ms) {
      eng.service(ms);
      last_sync = ms;
    }
    ++res.frames;
    if (f.caplen < f.len) ++res.truncated_by_snaplen;
    nic::ParsedFrame p = nic::parse_frame(f.data, f.caplen);
    // A frame of zero captured bytes is malformed, never fatal: every backend gets one zero
    // byte instead (the stream cannot carry an empty frame), which parses as truncated.
    static const uint8_t kZero = 0;
    engine::OutputRecord r = f.caplen ? eng.packet(f.data, f.caplen) : eng.packet(&kZero, 1);
    eng.take_events(ms);
    ++res.by_class[size_t(r.cls)];
    if (r.cpu >= 0 && uint32_t(r.cpu) < enqueued.size() && !enqueued[size_t(r.cpu)]) {
      enqueued[size_t(r.cpu)] = true;
      grown.push_back(uint32_t(r.cpu));
    }
    if (!p.is_ip()) return;
    FlowTuple key = connection_key(p.tuple);
    auto [it, fresh] = index.emplace(key, res.connections.size());
    if (fresh) {
      ConnectionSummary c;
      c.key = key;
      c.app_cpu = uint32_t(res.connections.size() % cfg.params.cpus);  // spread the apps
      res.connections.push_back(c);
    }
    ConnectionSummary& c = res.connections[it->second];
    Direction& d = (p.tuple.src == key.src && p.tuple.sport == key.sport) ? c.ab : c.ba;
    ++d.packets;
    d.hash = r.hash;
    d.queues.insert(r.queue);
    d.cpus.insert(r.cpu);
    d.filter_hits += r.filter_hit;
    c.steers += r.action == engine::SteerAction::kSteered;
    c.skips += r.action == engine::SteerAction::kSkipped;
    c.driver_errors += r.action == engine::SteerAction::kDriverError;
    if (r.hash_valid) eng.sock_record(r.hash, c.app_cpu);  // the app reads on its CPU
  });
  eng.finish(res);
  return res;
}

namespace {

std::string endpoint(const FlowTuple& t, bool src) { return endpoint_text(t, src); }

std::string proto_name(uint8_t p) {
  return p == kIpProtoTcp ? "tcp" : p == kIpProtoUdp ? "udp" : "ip/" + std::to_string(p);
}

template <class S>
std::string join(const S& s) {
  std::string out;
  for (auto v : s) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out.empty() ? "-" : out;
}

}  // namespace

void print_replay(std::ostream& os, const ReplayResult& r) {
  char line[512];
  std::snprintf(line, sizeof line, "%llu frames (%llu cut by the snap length), %zu connections\n",
                (unsigned long long)r.frames, (unsigned long long)r.truncated_by_snaplen,
                r.connections.size());
  os << line << "parse classes:";
  for (int i = 0; i < nic::kParseClassCount; ++i)
    if (r.by_class[size_t(i)])
      os << " " << nic::parse_class_name(nic::ParseClass(i)) << "=" << r.by_class[size_t(i)];
  os << "\n\n";
  std::snprintf(line, sizeof line, "%-5s %-44s %-44s %7s %7s %-10s %-10s %-4s %-7s %-7s %5s %5s\n", "proto",
                "endpoint A", "endpoint B", "pkts>", "pkts<", "hash>", "hash<", "sym", "queues",
                "cpus", "hw", "steer");
  os << line;
  for (const auto& c : r.connections) {
    char h1[16], h2[16];
    std::snprintf(h1, sizeof h1, "0x%08x", c.ab.hash);
    std::snprintf(h2, sizeof h2, "0x%08x", c.ba.hash);
    std::set<uint16_t> qs = c.ab.queues;
    qs.insert(c.ba.queues.begin(), c.ba.queues.end());
    std::set<int32_t> cs = c.ab.cpus;
    cs.insert(c.ba.cpus.begin(), c.ba.cpus.end());
    bool both = c.ab.packets && c.ba.packets;
    std::snprintf(line, sizeof line, "%-5s %-44s %-44s %7llu %7llu %-10s %-10s %-4s %-7s %-7s %5llu %5llu\n",
                  proto_name(c.key.proto).c_str(), endpoint(c.key, true).c_str(),
                  endpoint(c.key, false).c_str(), (unsigned long long)c.ab.packets,
                  (unsigned long long)c.ba.packets, c.ab.packets ? h1 : "-", c.ba.packets ? h2 : "-",
                  both ? (c.ab.hash == c.ba.hash ? "yes" : "no") : "-", join(qs).c_str(), join(cs).c_str(),
                  (unsigned long long)(c.ab.filter_hits + c.ba.filter_hits), (unsigned long long)c.steers);
    os << line;
  }
  const auto& k = r.counters;
  std::snprintf(line, sizeof line,
                "\nengine: %llu steer calls, %llu filters added, %llu re-targeted, %llu gate skips, "
                "%llu driver errors, %llu filter hits; runtime: %llu deleted, %zu filters at the end\n",
                (unsigned long long)k.steer_calls, (unsigned long long)k.steer_adds,
                (unsigned long long)k.steer_retargets, (unsigned long long)k.gate_skips,
                (unsigned long long)k.driver_errors, (unsigned long long)k.flt_hits,
                (unsigned long long)r.runtime_dels, r.filters_end);
  os << line;
}

void write_replay_json(std::ostream& os, const ReplayResult& r) {
  using nlohmann::json;
  json j;
  j["frames"] = r.frames;
  j["truncated_by_snaplen"] = r.truncated_by_snaplen;
  j["parse_classes"] = json::object();
  for (int i = 0; i < nic::kParseClassCount; ++i)
    j["parse_classes"][nic::parse_class_name(nic::ParseClass(i))] = r.by_class[size_t(i)];
  j["connections"] = json::array();
  auto dir = [](const Direction& d) {
    return json{{"packets", d.packets}, {"hash", d.hash}, {"queues", d.queues}, {"cpus", d.cpus},
                {"filter_hits", d.filter_hits}};
  };
  for (const auto& c : r.connections) {
    j["connections"].push_back({{"proto", proto_name(c.key.proto)},
                                {"a", endpoint(c.key, true)},
                                {"b", endpoint(c.key, false)},
                                {"a_to_b", dir(c.ab)},
                                {"b_to_a", dir(c.ba)},
                                {"symmetric_hash", c.ab.packets && c.ba.packets && c.ab.hash == c.ba.hash},
                                {"app_cpu", c.app_cpu},
                                {"steers", c.steers},
                                {"skips", c.skips},
                                {"driver_errors", c.driver_errors}});
  }
  const auto& k = r.counters;
  j["engine"] = {{"steer_calls", k.steer_calls}, {"adds", k.steer_adds}, {"retargets", k.steer_retargets},
                 {"gate_skips", k.gate_skips}, {"driver_errors", k.driver_errors},
                 {"filter_hits", k.flt_hits}, {"events", k.events}};
  j["runtime"] = {{"adds", r.runtime_adds}, {"deletes", r.runtime_dels}, {"filters_end", r.filters_end}};
  os << j.dump(2) << "\n";
}

}  // namespace flowsteer::runs
