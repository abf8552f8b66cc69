// Scenario traces (format in docs/scenario-format.md). Parsing and the event loop
// are here once; ModelBackend maps events onto the kernel plane (spec 1-5) and the ice
// mirror (spec 7).
#include "flowsteer/runs/scenario.h"

#include "flowsteer/quote.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <set>

namespace flowsteer::runs {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string describe(const std::string& field, const std::string& what) {
  return field.empty() ? what : "field " + quote_bytes(field) + ": " + what;
}

const char* type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a non-integer number";
    default: return "a number";
  }
}

// A number: a JSON integer, or a string in decimal or "0x" hex (the issue-7 contract).
uint64_t to_u64(const json& v, const std::string& field, uint64_t min, uint64_t max) {
  auto range = [&](const std::string& shown) {
    return FieldError(field, "value " + shown + " out of range (" + std::to_string(min) + ".." +
                                 std::to_string(max) + ")");
  };
  uint64_t x = 0;
  if (v.is_number_unsigned()) {
    x = v.get<uint64_t>();
  } else if (v.is_number_integer()) {
    int64_t s = v.get<int64_t>();
    if (s < 0) throw range(std::to_string(s));
    x = uint64_t(s);
  } else if (v.is_string()) {
    const std::string text = v.get<std::string>();
    std::string digits = text;
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      base = 16;
      digits = digits.substr(2);
    }
    bool ok = !digits.empty();
    for (char c : digits)
      if (!(base == 16 ? std::isxdigit(static_cast<unsigned char>(c))
                       : std::isdigit(static_cast<unsigned char>(c))))
        ok = false;
    if (!ok) {
      if (!text.empty() && text[0] == '-') throw range(quote_bytes(text));
      throw FieldError(field, quote_bytes(text) + " is not a number (decimal or \"0x...\")");
    }
    errno = 0;
    unsigned long long r = std::strtoull(digits.c_str(), nullptr, base);
    if (errno == ERANGE || r < min || r > max) throw range(quote_bytes(text));
    x = r;
  } else {
    throw FieldError(field, std::string("expected a number (or a decimal/\"0x...\" string), got ") +
                                type_name(v));
  }
  if (x < min || x > max) throw range(std::to_string(x));
  return x;
}

bool to_bool(const json& v, const std::string& field) {
  if (!v.is_boolean())
    throw FieldError(field, std::string("expected true or false, got ") + type_name(v));
  return v.get<bool>();
}

std::string to_string_field(const json& v, const std::string& field) {
  if (!v.is_string()) throw FieldError(field, std::string("expected a string, got ") + type_name(v));
  return v.get<std::string>();
}

// Field access on one event object, with the allowed field set checked once.
class Fields {
 public:
  Fields(const json& obj, std::string prefix, std::set<std::string> allowed, const std::string& op)
      : obj_(obj), prefix_(std::move(prefix)) {
    if (prefix_.empty()) allowed.insert("op");
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!allowed.count(it.key()))
        throw FieldError(path(it.key()), "unknown field for " +
                                             (prefix_.empty() ? "op " + quote_bytes(op) : quote_bytes(prefix_)));
  }
  std::string path(const std::string& key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }
  const json* get(const std::string& key) const {
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }
  const json& need(const std::string& key) const {
    const json* v = get(key);
    if (!v) throw FieldError(path(key), "missing");
    return *v;
  }
  uint64_t num(const std::string& key, uint64_t min, uint64_t max) const {
    return to_u64(need(key), path(key), min, max);
  }
  bool flag(const std::string& key, bool def) const {
    const json* v = get(key);
    return v ? to_bool(*v, path(key)) : def;
  }

 private:
  const json& obj_;
  std::string prefix_;
};

ConfigEvent parse_config(const Fields& f) {
  ConfigEvent ev;
  if (auto* v = f.get("cpus")) ev.cpus = uint32_t(to_u64(*v, "cpus", 1, 65535));
  if (auto* v = f.get("queues")) ev.queues = uint32_t(to_u64(*v, "queues", 1, 65535));
  if (auto* v = f.get("variant")) {
    std::string s = to_string_field(*v, "variant");
    if (s == "original") ev.variant = kernel::Variant::kOriginal;
    else if (s == "patched") ev.variant = kernel::Variant::kPatched;
    else throw FieldError("variant", quote_bytes(s) + " is not \"original\" or \"patched\"");
  }
  if (auto* v = f.get("slot")) {
    std::string s = to_string_field(*v, "slot");
    if (s == "log") ev.slot = kernel::SlotMode::kLog;
    else if (s == "mask") ev.slot = kernel::SlotMode::kMask;
    else throw FieldError("slot", quote_bytes(s) + " is not \"log\" or \"mask\"");
  }
  if (auto* v = f.get("match")) {
    std::string s = to_string_field(*v, "match");
    if (s == "tuple") ev.match = driver::MatchMode::kTuple;
    else if (s == "flow_id") ev.match = driver::MatchMode::kFlowId;
    else throw FieldError("match", quote_bytes(s) + " is not \"tuple\" or \"flow_id\"");
  }
  if (auto* v = f.get("rps_flow_cnt")) {
    std::vector<uint64_t> counts;
    if (v->is_array()) {
      if (v->empty()) throw FieldError("rps_flow_cnt", "empty list");
      for (size_t i = 0; i < v->size(); ++i)
        counts.push_back(to_u64((*v)[i], "rps_flow_cnt[" + std::to_string(i) + "]", 0,
                                kernel::kModelMaxFlowCnt));
    } else {
      counts.push_back(to_u64(*v, "rps_flow_cnt", 0, kernel::kModelMaxFlowCnt));
      ev.rps_flow_cnt_broadcast = true;
    }
    ev.rps_flow_cnt = counts;
  }
  if (auto* v = f.get("sock_flow_entries"))
    ev.sock_flow_entries = to_u64(*v, "sock_flow_entries", 0, kernel::kMaxSockFlowEntries);
  if (auto* v = f.get("rmap")) {
    if (!v->is_array())
      throw FieldError("rmap", std::string("expected a list of queues, got ") + type_name(*v));
    std::vector<uint16_t> rmap;
    for (size_t i = 0; i < v->size(); ++i)
      rmap.push_back(uint16_t(to_u64((*v)[i], "rmap[" + std::to_string(i) + "]", 0, 65534)));
    ev.rmap = rmap;
  }
  if (auto* v = f.get("ntuple")) ev.ntuple = to_bool(*v, "ntuple");
  return ev;
}

PacketEvent parse_packet(const Fields& f) {
  PacketEvent ev;
  const json& rxq = f.need("rxq");
  ev.rxq = rxq.is_null() ? -1 : int32_t(to_u64(rxq, "rxq", 0, 65534));  // queue_mapping - 1
  ev.hash = uint32_t(f.num("hash", 0, 0xFFFFFFFFu));
  const json& flow = f.need("flow");
  if (!flow.is_object())
    throw FieldError("flow", std::string("expected an object, got ") + type_name(flow));
  Fields ff(flow, "flow", {"family", "proto", "src", "dst", "sport", "dport"}, "packet");
  uint64_t family = ff.num("family", 0, 255);
  if (family != 4 && family != 6) throw FieldError("flow.family", "must be 4 or 6");
  std::string proto = to_string_field(ff.need("proto"), "flow.proto");
  FlowTuple& t = ev.flow;
  if (proto == "tcp") t.proto = kIpProtoTcp;
  else if (proto == "udp") t.proto = kIpProtoUdp;
  else if (proto == "other") t.proto = 0;  // any non-TCP/UDP protocol (spec 7.2 R5)
  else throw FieldError("flow.proto", quote_bytes(proto) + " is not \"tcp\", \"udp\" or \"other\"");
  t.family = uint8_t(family);
  for (bool src : {true, false}) {
    const char* key = src ? "src" : "dst";
    std::string text = to_string_field(ff.need(key), ff.path(key));
    if (!parse_ip(text, t, src) || t.family != family)
      throw FieldError(ff.path(key), quote_bytes(text) + " is not an IPv" + std::to_string(family) +
                                         " address");
  }
  bool ports = t.proto != 0;  // required for TCP/UDP, optional (0) otherwise
  for (const char* key : {"sport", "dport"}) {
    uint16_t p = 0;
    if (ports || ff.get(key)) p = uint16_t(ff.num(key, 0, 65535));
    (std::string(key) == "sport" ? t.sport : t.dport) = p;
  }
  ev.encap = f.flag("encap", false);
  ev.frag = f.flag("frag", false);
  return ev;
}

}  // namespace

ScenarioError::ScenarioError(size_t line, std::string field, const std::string& what)
    : std::runtime_error("line " + std::to_string(line) + ": " + describe(field, what)),
      line_(line),
      field_(std::move(field)),
      detail_(what) {}

Event parse_event(const json& j) {
  if (!j.is_object())
    throw FieldError("", std::string("an event must be a JSON object, got ") + type_name(j));
  auto op_it = j.find("op");
  if (op_it == j.end()) throw FieldError("op", "missing");
  const std::string op = to_string_field(*op_it, "op");
  if (op == "config") {
    Fields f(j, "", {"cpus", "queues", "variant", "slot", "match", "rps_flow_cnt",
                     "sock_flow_entries", "rmap", "ntuple"}, op);
    return parse_config(f);
  }
  if (op == "record") {
    Fields f(j, "", {"hash", "cpu"}, op);
    RecordEvent ev;
    ev.hash = uint32_t(f.num("hash", 0, 0xFFFFFFFFu));
    ev.cpu = uint32_t(f.num("cpu", 0, 65534));
    return ev;
  }
  if (op == "packet") {
    Fields f(j, "", {"rxq", "hash", "flow", "encap", "frag"}, op);
    return parse_packet(f);
  }
  if (op == "drain") {
    Fields f(j, "", {"cpu"}, op);
    return DrainEvent{uint32_t(f.num("cpu", 0, 65534))};
  }
  if (op == "head_add") {
    Fields f(j, "", {"cpu", "n"}, op);
    HeadAddEvent ev;
    ev.cpu = uint32_t(f.num("cpu", 0, 65534));
    ev.n = uint32_t(f.num("n", 0, 0xFFFFFFFFu));
    return ev;
  }
  if (op == "online") {
    Fields f(j, "", {"cpu", "state"}, op);
    OnlineEvent ev;
    ev.cpu = uint32_t(f.num("cpu", 0, 65534));
    ev.state = to_bool(f.need("state"), "state");
    return ev;
  }
  if (op == "sync") {
    Fields f(j, "", {}, op);
    return SyncEvent{};
  }
  if (op == "time") {
    Fields f(j, "", {"advance_ms"}, op);
    return TimeEvent{f.num("advance_ms", 0, UINT64_MAX)};
  }
  if (op == "dump") {
    Fields f(j, "", {}, op);
    return DumpEvent{};
  }
  throw FieldError("op", "unknown op " + quote_bytes(op) +
                             " (config, record, packet, drain, head_add, online, sync, time, dump)");
}

// ---- JSON results ----------------------------------------------------------------------

ordered_json packet_json(const kernel::RxDecision& d) {
  ordered_json o;
  o["op"] = "packet";
  o["cpu"] = d.cpu;
  if (d.enqueued && d.rflow.valid())
    o["rflow"] = ordered_json{{"queue", d.rflow.queue}, {"slot", d.rflow.slot}};
  else
    o["rflow"] = nullptr;
  if (d.steer.called)
    o["steer"] = ordered_json{{"queue", d.steer.queue}, {"flow_id", d.steer.flow_id},
                              {"rc", d.steer.rc}};
  else
    o["steer"] = nullptr;
  if (d.enqueued) o["tail"] = d.tail;
  else o["tail"] = nullptr;
  return o;
}

ordered_json sync_json(const driver::SyncResult& r) {
  ordered_json o;
  o["op"] = "sync";
  o["deleted"] = r.deleted;
  o["added"] = r.added;
  return o;
}

ordered_json dump_json(const DumpState& s) {
  ordered_json o;
  o["op"] = "dump";
  ordered_json slots = ordered_json::array();
  for (const auto& sl : s.slots)
    slots.push_back(ordered_json{{"queue", sl.queue},
                                 {"slot", sl.slot},
                                 {"cpu", sl.flow.cpu},
                                 {"filter", sl.flow.filter},
                                 {"last_qtail", sl.flow.last_qtail},
                                 {"hash", sl.flow.hash}});
  o["slots"] = slots;
  ordered_json entries = ordered_json::array();
  for (const auto& e : s.entries)
    entries.push_back(ordered_json{{"fltr_id", e.fltr_id},
                                   {"flow_id", e.flow_id},
                                   {"q_index", e.q_index},
                                   {"state", driver::fltr_state_name(e.state)},
                                   {"bucket", e.bucket},
                                   {"position", e.position}});
  o["entries"] = entries;
  o["heads"] = s.heads;
  o["tails"] = s.tails;
  o["counters"] = ordered_json{{"steer_c", s.counters.steer_c},
                               {"steer_l", s.counters.steer_l},
                               {"add", s.counters.add},
                               {"del", s.counters.del}};
  return o;
}

// ---- the golden-model backend -------------------------------------------------------------

void ModelBackend::configure(const ScenarioConfig& cfg) {
  kernel::KernelConfig kc;
  kc.nr_cpu_ids = cfg.cpus;
  kc.num_rx_queues = cfg.queues;
  kc.variant = cfg.variant;
  kc.slot_mode = cfg.slot;
  kc.ntuple = cfg.ntuple;
  kc.has_rx_cpu_rmap = true;
  kc.rmap = cfg.rmap;
  kc.max_backlog = 0;  // the scenario contract: never dropped
  kernel_ = std::make_unique<kernel::Kernel>(kc);
  for (uint32_t q = 0; q < cfg.queues; ++q)
    if (cfg.rps_flow_cnt[q] != 0) store_rps_flow_cnt(q, cfg.rps_flow_cnt[q]);
  if (kernel_->set_rps_sock_flow_entries(cfg.sock_flow_entries) != 0)
    throw FieldError("sock_flow_entries", "rejected by the kernel model");
  driver::IceArfs::Options opt;
  opt.match = cfg.match;
  ice_ = std::make_unique<driver::IceArfs>(opt, &hw_);
  kernel_->set_driver(ice_.get());
}

void ModelBackend::store_rps_flow_cnt(uint32_t queue, uint64_t count) {
  int rc = kernel_->store_rps_flow_cnt(queue, count);
  if (rc != 0)
    throw FieldError("rps_flow_cnt", "queue " + std::to_string(queue) + ": count " +
                                         std::to_string(count) + " rejected (" +
                                         std::to_string(rc) + ")");
}

void ModelBackend::record(uint32_t hash, uint32_t cpu) { kernel_->rps_record_sock_flow(hash, cpu); }

kernel::RxDecision ModelBackend::packet(const PacketEvent& ev) {
  kernel::Skb skb;
  skb.hash = ev.hash;
  skb.rx_queue = ev.rxq;
  skb.tuple = ev.flow;
  skb.encapsulation = ev.encap;
  skb.ipv4_fragment = ev.frag && ev.flow.family == 4;
  if (ev.frag && ev.flow.family == 6) {  // spec 7.2 R4: IPv6 fragment, dissector gives no ports
    skb.tuple.sport = 0;
    skb.tuple.dport = 0;
  }
  return kernel_->netif_receive_skb(skb);
}

void ModelBackend::drain(uint32_t cpu) { kernel_->drain(cpu); }
void ModelBackend::head_add(uint32_t cpu, uint32_t n) { kernel_->input_queue_head_add(cpu, n); }
void ModelBackend::set_online(uint32_t cpu, bool online) { kernel_->set_cpu_online(cpu, online); }

driver::SyncResult ModelBackend::sync(uint64_t now_ms) {
  return ice_->ice_sync_arfs_fltrs(now_ms, *kernel_);
}

DumpState ModelBackend::dump() const {
  DumpState s;
  const kernel::Kernel& k = *kernel_;
  for (uint32_t q = 0; q < k.num_rx_queues(); ++q) {
    const kernel::rps_dev_flow_table* t = k.flow_table(q);
    if (!t) continue;
    for (uint32_t i = 0; i < t->size(); ++i) {
      const kernel::rps_dev_flow& f = t->flows[i];
      if (f.cpu != kernel::RPS_NO_CPU || f.filter != kernel::RPS_NO_FILTER)
        s.slots.push_back(SlotState{q, i, f});
    }
  }
  for (const driver::EntryView& v : ice_->entries())
    s.entries.push_back(EntryState{v.entry->fltr_info.fltr_id, v.entry->flow_id,
                                   v.entry->fltr_info.q_index, v.entry->fltr_state, v.bucket,
                                   v.position});
  for (uint32_t c = 0; c < k.nr_cpu_ids(); ++c) {
    s.heads.push_back(k.head(c));
    s.tails.push_back(k.tail(c));
  }
  s.counters = ice_->counters();
  return s;
}

// ---- the event loop --------------------------------------------------------------------

void ScenarioRunner::check_cpu(uint32_t cpu, const char* field) const {
  if (cpu >= config_->cpus)
    throw FieldError(field, "cpu " + std::to_string(cpu) + " out of range (config has " +
                                std::to_string(config_->cpus) + " cpus)");
}

ordered_json ScenarioRunner::apply_config(const ConfigEvent& ev) {
  ordered_json ok{{"op", "config"}, {"ok", true}};
  if (!config_) {
    ScenarioConfig c;
    if (!ev.cpus) throw FieldError("cpus", "missing (required in the first config)");
    if (!ev.queues) throw FieldError("queues", "missing (required in the first config)");
    if (!ev.variant) throw FieldError("variant", "missing (required in the first config)");
    if (!ev.rps_flow_cnt) throw FieldError("rps_flow_cnt", "missing (required in the first config)");
    if (!ev.sock_flow_entries)
      throw FieldError("sock_flow_entries", "missing (required in the first config)");
    c.cpus = *ev.cpus;
    c.queues = *ev.queues;
    c.variant = *ev.variant;
    c.slot = ev.slot.value_or(kernel::SlotMode::kLog);
    c.match = ev.match.value_or(driver::MatchMode::kTuple);
    c.sock_flow_entries = *ev.sock_flow_entries;
    c.ntuple = ev.ntuple.value_or(true);
    if (ev.rps_flow_cnt_broadcast) {
      c.rps_flow_cnt.assign(c.queues, ev.rps_flow_cnt->front());
    } else {
      if (ev.rps_flow_cnt->size() != c.queues)
        throw FieldError("rps_flow_cnt", "has " + std::to_string(ev.rps_flow_cnt->size()) +
                                             " counts for " + std::to_string(c.queues) + " queues");
      c.rps_flow_cnt = *ev.rps_flow_cnt;
    }
    uint64_t total = 0;
    for (uint64_t n : c.rps_flow_cnt) total += n ? kernel::roundup_pow_of_two(n) : 0;
    if (total > kernel::kModelMaxFlowCnt)
      throw FieldError("rps_flow_cnt", "the tables total " + std::to_string(total) +
                                           " slots; the model allows " +
                                           std::to_string(kernel::kModelMaxFlowCnt));
    if (ev.rmap) {
      if (ev.rmap->size() != c.cpus)
        throw FieldError("rmap", "has " + std::to_string(ev.rmap->size()) + " queues for " +
                                     std::to_string(c.cpus) + " cpus");
      for (size_t i = 0; i < ev.rmap->size(); ++i)
        if ((*ev.rmap)[i] >= c.queues)
          throw FieldError("rmap[" + std::to_string(i) + "]",
                           "queue " + std::to_string((*ev.rmap)[i]) + " out of range (config has " +
                               std::to_string(c.queues) + " queues)");
      c.rmap = *ev.rmap;
    } else {
      for (uint32_t cpu = 0; cpu < c.cpus; ++cpu) c.rmap.push_back(uint16_t(cpu % c.queues));
    }
    backend_.configure(c);
    config_ = c;
    return ok;
  }
  // A later config is a resize (spec 1.1): everything else must stay as it is.
  ScenarioConfig& c = *config_;
  auto same = [](const char* field, bool equal) {
    if (!equal) throw FieldError(field, "a later config may change only rps_flow_cnt");
  };
  if (ev.cpus) same("cpus", *ev.cpus == c.cpus);
  if (ev.queues) same("queues", *ev.queues == c.queues);
  if (ev.variant) same("variant", *ev.variant == c.variant);
  if (ev.slot) same("slot", *ev.slot == c.slot);
  if (ev.match) same("match", *ev.match == c.match);
  if (ev.sock_flow_entries) same("sock_flow_entries", *ev.sock_flow_entries == c.sock_flow_entries);
  if (ev.rmap) same("rmap", *ev.rmap == c.rmap);
  if (ev.ntuple) same("ntuple", *ev.ntuple == c.ntuple);
  if (!ev.rps_flow_cnt) throw FieldError("rps_flow_cnt", "missing (a later config is a resize)");
  std::vector<uint64_t> counts = *ev.rps_flow_cnt;
  if (ev.rps_flow_cnt_broadcast) counts.assign(c.queues, counts.front());
  if (counts.size() != c.queues)
    throw FieldError("rps_flow_cnt", "has " + std::to_string(counts.size()) + " counts for " +
                                         std::to_string(c.queues) + " queues");
  uint64_t total = 0;
  for (uint64_t n : counts) total += n ? kernel::roundup_pow_of_two(n) : 0;
  if (total > kernel::kModelMaxFlowCnt)
    throw FieldError("rps_flow_cnt", "the tables total " + std::to_string(total) +
                                         " slots; the model allows " +
                                         std::to_string(kernel::kModelMaxFlowCnt));
  // Only the queues whose count changed are written (each write is a full reset of that
  // queue's table, spec 1.1 / 8 case 9); an unchanged count means the file was not written.
  for (uint32_t q = 0; q < c.queues; ++q) {
    if (counts[q] == c.rps_flow_cnt[q]) continue;
    backend_.store_rps_flow_cnt(q, counts[q]);
    c.rps_flow_cnt[q] = counts[q];
  }
  return ok;
}

ordered_json ScenarioRunner::apply(const Event& ev, size_t line) {
  try {
    if (!config_ && !std::holds_alternative<ConfigEvent>(ev))
      throw FieldError("op", "the first event must be a config");
    if (auto* e = std::get_if<ConfigEvent>(&ev)) return apply_config(*e);
    ordered_json ok{{"op", ""}, {"ok", true}};
    if (auto* e = std::get_if<RecordEvent>(&ev)) {
      check_cpu(e->cpu, "cpu");
      backend_.record(e->hash, e->cpu);
      ok["op"] = "record";
      return ok;
    }
    if (auto* e = std::get_if<PacketEvent>(&ev)) return packet_json(backend_.packet(*e));
    if (auto* e = std::get_if<DrainEvent>(&ev)) {
      check_cpu(e->cpu, "cpu");
      backend_.drain(e->cpu);
      ok["op"] = "drain";
      return ok;
    }
    if (auto* e = std::get_if<HeadAddEvent>(&ev)) {
      check_cpu(e->cpu, "cpu");
      backend_.head_add(e->cpu, e->n);
      ok["op"] = "head_add";
      return ok;
    }
    if (auto* e = std::get_if<OnlineEvent>(&ev)) {
      check_cpu(e->cpu, "cpu");
      backend_.set_online(e->cpu, e->state);
      ok["op"] = "online";
      return ok;
    }
    if (std::holds_alternative<SyncEvent>(ev)) return sync_json(backend_.sync(now_ms_));
    if (auto* e = std::get_if<TimeEvent>(&ev)) {
      if (e->advance_ms > UINT64_MAX - now_ms_)
        throw FieldError("advance_ms", "the virtual clock would overflow 64 bits");
      now_ms_ += e->advance_ms;
      ok["op"] = "time";
      return ok;
    }
    return dump_json(backend_.dump());
  } catch (const FieldError& e) {
    throw ScenarioError(line, e.field(), e.what());
  }
}

std::optional<ordered_json> ScenarioRunner::feed_line(const std::string& raw) {
  const size_t line = ++line_;
  size_t first = raw.find_first_not_of(" \t\r\n\v\f");  // blank lines are skipped
  if (first == std::string::npos || raw[first] == '#') return std::nullopt;
  json j;
  try {
    j = json::parse(raw);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number overflow
    std::string msg = e.what();
    if (auto p = msg.find("] "); p != std::string::npos && msg[0] == '[') msg = msg.substr(p + 2);
    if (auto p = msg.find("at line 1, column"); p != std::string::npos) msg.erase(p + 3, 8);
    if (auto p = msg.find("; last read: '"); p != std::string::npos) {  // the token, bounded
      std::string token = msg.substr(p + 14);
      if (!token.empty() && token.back() == '\'') token.pop_back();
      msg = msg.substr(0, p) + "; last read: " + quote_bytes(token);
    }
    if (auto p = msg.find(" parsing '"); p != std::string::npos) {  // the number, bounded
      std::string token = msg.substr(p + 10);
      if (!token.empty() && token.back() == '\'') token.pop_back();
      msg = msg.substr(0, p) + " parsing " + quote_bytes(token);
    }
    if (msg.size() > 240) msg = msg.substr(0, 240) + "...";
    throw ScenarioError(line, "", "not valid JSON (" + msg + ")");
  }
  Event ev;
  try {
    ev = parse_event(j);
  } catch (const FieldError& e) {
    throw ScenarioError(line, e.field(), e.what());
  }
  return apply(ev, line);
}

void ScenarioRunner::run(std::istream& in, std::ostream& out) {
  // Lines end with LF, CRLF or a lone CR; a UTF-8 byte-order mark at the start is skipped.
  std::string raw;
  bool first = true;
  auto feed = [&](const std::string& line) {
    if (auto o = feed_line(line)) {
      out << o->dump() << '\n';
      out.flush();
    }
  };
  while (std::getline(in, raw)) {
    if (first && raw.compare(0, 3, "\xEF\xBB\xBF") == 0) raw.erase(0, 3);
    first = false;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();  // CRLF
    size_t start = 0;
    for (size_t cr; (cr = raw.find('\r', start)) != std::string::npos; start = cr + 1)
      feed(raw.substr(start, cr - start));  // CR-only line ends
    feed(start ? raw.substr(start) : raw);
  }
}

}  // namespace flowsteer::runs
