#include "flowsteer/runs/replay.h"

#include <pcap/pcap.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <unordered_map>

#include "flowsteer/driver/engine_runtime.h"

namespace flowsteer::runs {

FlowTuple connection_key(const FlowTuple& t) {
  // Endpoints (address, port) in lexicographic order, pairs kept together. (The kernel's
  // consistentify sorts addresses and ports independently, which breaks the pairs.)
  bool swap = t.dst < t.src || (t.dst == t.src && t.dport < t.sport);
  return swap ? t.reversed() : t;
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
  void backlogs_processed() override {
    for (uint32_t c = 0; c < cfg_.params.cpus; ++c) eng_.head_add(c, eng_.kernel().tail(c) - eng_.kernel().head(c));
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

}  // namespace

ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg) {
  ModelReplayEngine eng(cfg);
  return replay_pcap(path, cfg, eng);
}

void for_each_pcap_frame(const std::string& path, const std::function<void(const PcapFrame&)>& frame) {
  char err[PCAP_ERRBUF_SIZE] = {0};
  pcap_t* pc = pcap_open_offline(path.c_str(), err);
  if (!pc) throw std::runtime_error("cannot read pcap '" + path + "': " + err);
  struct Closer {
    pcap_t* p;
    ~Closer() { pcap_close(p); }
  } closer{pc};
  if (pcap_datalink(pc) != DLT_EN10MB)
    throw std::runtime_error("'" + path + "' is not an Ethernet capture (link type " +
                             std::to_string(pcap_datalink(pc)) + ")");
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
    throw std::runtime_error("error reading '" + path + "': " + pcap_geterr(pc));
}

ReplayResult replay_pcap(const std::string& path, const ReplayConfig& cfg, ReplayEngine& eng) {
  ReplayResult res;
  res.by_class.assign(nic::kParseClassCount, 0);
  std::unordered_map<FlowTuple, size_t, FlowTupleHash> index;
  uint64_t last_ms = 0, last_sync = 0;
  bool first = true;
  for_each_pcap_frame(path, [&](const PcapFrame& f) {
    const uint64_t ms = f.ms;
    if (first) last_ms = last_sync = ms, first = false;
    if (ms != last_ms) {  // the backlogs were processed meanwhile: heads catch up
      eng.backlogs_processed();
      last_ms = ms;
    }
    if (ms - last_sync >= cfg.service_period_ms) {
      eng.service(ms);
      last_sync = ms;
    }
    ++res.frames;
    if (f.caplen < f.len) ++res.truncated_by_snaplen;
    nic::ParsedFrame p = nic::parse_frame(f.data, f.caplen);
    engine::OutputRecord r = eng.packet(f.data, f.caplen);
    eng.take_events(ms);
    ++res.by_class[size_t(r.cls)];
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

std::string endpoint(const FlowTuple& t, bool src) {
  std::string ip = ip_to_string(t, src);
  if (t.family == 6) ip = "[" + ip + "]";
  return ip + ":" + std::to_string(src ? t.sport : t.dport);
}

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
