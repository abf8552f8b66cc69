// The conformance scoreboard: the RTL's records and register answers against the golden
// model in the total order of docs/engine-top.md.
#include "scoreboard.h"

#include <cerrno>
#include <cstdio>
#include <sstream>

#include "flowsteer/flowsteer_regs.h"

namespace flowsteer::sim {

namespace r = flowsteer::regs;
using bus::AxiResp;

namespace {

// Counters that are properties of the RTL pipeline (rtl_only in the register map: the model
// reads 0) are exempt from the data comparison; four of them feed a hazard bin.
const char* rtl_counter_bin(int i) {
  switch (r::Counter(i)) {
    case r::Counter::kHazardStalls: return "hazard_gate_stall";
    case r::Counter::kRfsFwd: return "rfs_forward";
    case r::Counter::kRfsHzdStall: return "rfs_hazard_stall";
    case r::Counter::kFastAdds: return "fast_insert";
    default: return nullptr;
  }
}

// driver_error bins: the errnos the engine's driver can return (engine_model.cpp)
const char* const kDriverErrorNames[] = {"EPROTONOSUPPORT", "EBUSY", "ENOSPC", "EADDRINUSE", "other"};
constexpr int kDriverErrorClaimed = 4;  // "other" would be an errno the model never returns
int driver_error_bin(int32_t rc) {
  switch (-rc) {
    case EPROTONOSUPPORT: return 0;
    case EBUSY: return 1;
    case ENOSPC: return 2;
    case EADDRINUSE: return 3;
    default: return 4;
  }
}

const char* gate_name(unsigned g) {
  return g < unsigned(kernel::kGateRowCount) ? kernel::gate_row_name(kernel::GateRow(g)) : "?";
}
const char* path_label(unsigned p) {
  return p < unsigned(kernel::kSetRpsCpuPathCount) ? kernel::path_name(kernel::SetRpsCpuPath(p)) : "?";
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

std::string describe(const EngineRecord& e) {
  const engine::OutputRecord& o = e.rec;
  std::ostringstream s;
  s << "class=" << nic::parse_class_name(o.cls) << " hash=" << hex(o.hash) << " hash_valid=" << o.hash_valid
    << " queue=" << o.queue << " filter_hit=" << o.filter_hit << " filter_id=" << o.filter_id
    << " cpu=" << o.cpu << " action=" << engine::steer_action_name(o.action) << " steer_id=" << o.steer_id
    << " error=" << o.error << " rc=" << e.rc << " path=" << path_label(e.path) << " gate=" << gate_name(e.gate)
    << " steer_called=" << e.steer_called << " tail=" << e.tail << " user=" << e.user
    << " reserved=" << hex(e.reserved);
  return s.str();
}

std::string resp_name(AxiResp r) { return r == AxiResp::kOkay ? "OKAY" : "SLVERR"; }

bool rtl_counter(int i) { return i >= 0 && r::counter_rtl_only(uint32_t(i)); }

}  // namespace

std::string Mismatch::format(uint64_t seed, const std::string& rerun) const {
  std::ostringstream s;
  s << "MISMATCH in " << what << " at event #" << event_index << " (clock " << clock << ")\n"
    << "  expected: " << expected << "\n"
    << "  actual:   " << actual << "\n"
    << "  seed:     " << seed << "\n"
    << "  rerun with a trace: " << rerun << "\n";
  return s.str();
}

const std::vector<std::string>& Scoreboard::hazard_bins() {
  static const std::vector<std::string> bins = {
      "hazard_gate_stall",      // HAZARD_STALLS > 0: a packet at the issue stage applied logged filter changes
      "rfs_forward",            // RFS_FWD > 0: fs_rfs_core forwarded a slot/sock/CPU value
      "rfs_hazard_stall",       // RFS_HZD_STALL > 0: fs_rfs_core stalled on a hazard
      "same_slot_back_to_back", // consecutive packets on one flow-table slot, both in flight
      "same_flow_back_to_back", // consecutive packets with one hash, both in flight
      "cmd_between_packets",    // a register transaction ordered between two packets in flight
      "rec_backpressure",       // clocks a record waited for the sink
      "fast_insert",            // FAST_ADDS > 0: the driver answered an insert before the table ran it
      "backlog_drain",          // a BACKLOG_DRAIN emptied a CPU's backlog that held packets
  };
  return bins;
}

std::vector<std::string> Coverage::empty_bins(bool need_all_parse_classes) const {
  std::vector<std::string> out;
  for (int g = 0; g < kernel::kGateRowCount; ++g)
    if (!gate_row[size_t(g)]) out.push_back(std::string("gate:") + gate_name(unsigned(g)));
  for (int p = 0; p < kernel::kSetRpsCpuPathCount; ++p)
    if (!path[size_t(p)]) out.push_back(std::string("path:") + path_label(unsigned(p)));
  for (int a = 0; a < 4; ++a)
    if (!action[size_t(a)]) out.push_back(std::string("action:") + engine::steer_action_name(engine::SteerAction(a)));
  if (need_all_parse_classes)
    for (int c = 0; c < nic::kParseClassCount; ++c)
      if (!parse_class[size_t(c)]) out.push_back(std::string("parse:") + nic::parse_class_name(nic::ParseClass(c)));
  for (int e = 0; e < kDriverErrorClaimed; ++e)
    if (!driver_error[size_t(e)]) out.push_back(std::string("driver_error:") + kDriverErrorNames[e]);
  for (const auto& h : Scoreboard::hazard_bins()) {
    auto it = hazard.find(h);
    if (it == hazard.end() || it->second == 0) out.push_back("hazard:" + h);
  }
  return out;
}

std::string Coverage::report() const {
  std::ostringstream s;
  char line[96];
  auto row = [&](const std::string& group, const std::string& bin, uint64_t n) {
    std::snprintf(line, sizeof line, "  %-13s %-26s %12llu%s\n", group.c_str(), bin.c_str(),
                  (unsigned long long)n, n ? "" : "   <- empty");
    s << line;
  };
  s << "coverage:\n";
  for (int g = 0; g < kernel::kGateRowCount; ++g) row("gate row", gate_name(unsigned(g)), gate_row[size_t(g)]);
  for (int p = 0; p < kernel::kSetRpsCpuPathCount; ++p) row("rps_cpu path", path_label(unsigned(p)), path[size_t(p)]);
  for (int a = 0; a < 4; ++a) row("steer action", engine::steer_action_name(engine::SteerAction(a)), action[size_t(a)]);
  for (int e = 0; e < 5; ++e) row("driver error", kDriverErrorNames[e], driver_error[size_t(e)]);
  for (int c = 0; c < nic::kParseClassCount; ++c)
    row("parse class", nic::parse_class_name(nic::ParseClass(c)), parse_class[size_t(c)]);
  for (const auto& h : Scoreboard::hazard_bins()) {
    auto it = hazard.find(h);
    row("hazard", h, it == hazard.end() ? 0 : it->second);
  }
  return s.str();
}

double ScoreboardStats::packets_per_clock() const {
  if (!packets || last_record_clock <= first_packet_clock) return 0.0;
  return double(packets) / double(last_record_clock - first_packet_clock);
}

Scoreboard::Scoreboard(EngineSim& sim, uint64_t seed, std::string rerun)
    : sim_(sim), model_(sim.caps()), seed_(seed), rerun_(std::move(rerun)) {
  for (const auto& h : hazard_bins()) cov_.hazard[h] = 0;
  poll();  // the CAPS reads of the harness's construction
}

AxiResp Scoreboard::write(uint32_t offset, uint32_t value, uint8_t strb) {
  AxiResp resp = sim_.write(offset, value, strb);
  poll();
  return resp;
}

AxiResp Scoreboard::read(uint32_t offset, uint32_t& value) {
  AxiResp resp = sim_.read(offset, value);
  poll();
  return resp;
}

void Scoreboard::frame(const std::vector<uint8_t>& f, uint16_t user) {
  frames_.emplace_back(f, user);
  sim_.send_frame(f, user);
}

void Scoreboard::step(uint64_t clocks) {
  sim_.step(clocks);
  poll();
}

void Scoreboard::fail(uint64_t clock, const std::string& what, const std::string& expected,
                      const std::string& actual) {
  if (mismatch_) return;
  Mismatch m;
  m.event_index = stats_.packets + applied_;
  m.clock = clock;
  m.what = what;
  m.expected = expected;
  m.actual = actual;
  mismatch_ = m;
}

void Scoreboard::apply_transaction(size_t index) {
  const AxilTransaction& t = sim_.transactions()[index];
  const std::string where = std::string(t.write ? "write" : "read") + " of " + hex(t.offset) +
                            " (transaction " + std::to_string(index) + ")";
  if (t.write) {
    const kernel::Kernel& k = model_.model().kernel();
    const bool drain = t.offset == r::BACKLOG_DRAIN::kAddr &&
                       t.data < (1u << model_.caps().cpu_log2) && k.head(t.data) != k.tail(t.data);
    AxiResp want = model_.write(t.offset, t.data, t.strb);
    if (drain && want == AxiResp::kOkay) ++cov_.hazard["backlog_drain"];
    if (want != t.resp) fail(t.clock, "response of the " + where + " data " + hex(t.data), resp_name(want), resp_name(t.resp));
  } else {
    uint32_t want_data = 0;
    AxiResp want = model_.read(t.offset, want_data);
    uint32_t cnt = 0;
    bool exempt = false;
    if (r::CNT_LO::index_of(t.offset, cnt)) {
      exempt = r::counter_rtl_only(cnt);
      last_cnt_lo_ = int(cnt);
      if (exempt) cov_.rtl_counters[r::counter_map_name(cnt)] = t.data;
      if (const char* name = exempt ? rtl_counter_bin(int(cnt)) : nullptr) {
        uint64_t& bin = cov_.hazard[name];
        bin = std::max<uint64_t>(bin, t.data);
      }
    } else if (uint32_t hi = 0; r::CNT_HI::index_of(t.offset, hi)) {
      exempt = rtl_counter(last_cnt_lo_);  // CNT_HI answers the last CNT_LO's latch
    }
    if (want != t.resp) fail(t.clock, "response of the " + where, resp_name(want), resp_name(t.resp));
    else if (!exempt && want_data != t.data) fail(t.clock, "data of the " + where, hex(want_data), hex(t.data));
    ++stats_.reads_checked;
  }
  ++applied_;
  ++stats_.transactions;
}

void Scoreboard::check_record(const EngineRecord& a) {
  const auto& [bytes, user] = frames_.front();
  std::optional<engine::OutputRecord> want = model_.packet(bytes.data(), bytes.size());
  if (!want) {
    fail(a.clock, "record (the model holds frames while CTRL.ENABLE is 0)", "no record", describe(a));
    return;
  }
  const kernel::RxDecision& d = model_.model().last_decision();
  const EngineRecord e = common::expected_engine_record(*want, d, user);
  if (!common::same_engine_record(e, a)) {
    fail(a.clock, "record of packet " + std::to_string(stats_.packets) + " (" + std::to_string(bytes.size()) +
                      "-byte frame, cmd_seq " + std::to_string(a.cmd_seq) + ")",
         describe(e), describe(a));
    return;
  }
  // coverage
  ++cov_.gate_row[a.gate];
  ++cov_.path[a.path];
  ++cov_.action[size_t(a.rec.action)];
  ++cov_.parse_class[size_t(a.rec.cls) & 15];
  if (a.rec.action == engine::SteerAction::kDriverError) ++cov_.driver_error[size_t(driver_error_bin(a.rec.error))];
  const bool together = prev_.valid && a.accepted_clock < prev_.record_clock;  // both in flight
  if (together && d.rflow.valid() && d.rflow.queue == prev_.slot_queue && d.rflow.slot == prev_.slot)
    ++cov_.hazard["same_slot_back_to_back"];
  if (together && a.rec.hash_valid && a.rec.hash == prev_.hash) ++cov_.hazard["same_flow_back_to_back"];
  if (together && seq64_ != prev_.seq) ++cov_.hazard["cmd_between_packets"];
  prev_.valid = true;
  prev_.slot_queue = d.rflow.valid() ? d.rflow.queue : -1;
  prev_.slot = d.rflow.slot;
  prev_.hash = a.rec.hash_valid ? a.rec.hash : 0;
  prev_.seq = seq64_;
  prev_.record_clock = a.clock;

  if (stats_.packets == 0) stats_.first_packet_clock = a.accepted_clock;
  stats_.last_record_clock = a.clock;
  ++stats_.packets;
  if (record_hook_) record_hook_(a, bytes);
}

void Scoreboard::poll() {
  if (mismatch_) return;
  EngineRecord rec;
  while (sim_.pop_record(rec)) pending_.push_back(rec);
  const auto& txns = sim_.transactions();
  while (!pending_.empty() && !mismatch_) {
    const EngineRecord& a = pending_.front();
    // widen cmd_seq: records come in packet order, so it never goes backwards
    const uint64_t seq = seq64_ + uint32_t(a.cmd_seq - uint32_t(seq64_));
    if (seq > txns.size()) break;  // a transaction before it has not answered yet
    if (frames_.empty()) {
      fail(a.clock, "record stream", "no record (every frame sent has its record)", describe(a));
      return;
    }
    if (seq < applied_) {
      fail(a.clock, "record order (cmd_seq)", "cmd_seq >= " + std::to_string(applied_),
           std::to_string(a.cmd_seq) + ": the packet claims a place before transactions already ordered");
      return;
    }
    while (applied_ < seq && !mismatch_) apply_transaction(applied_);
    seq64_ = seq;
    check_record(a);
    frames_.pop_front();
    pending_.pop_front();
  }
  // No packet is sent and unrecorded: every completed transaction precedes all later packets.
  if (frames_.empty() && pending_.empty())
    while (applied_ < txns.size() && !mismatch_) apply_transaction(applied_);
  cov_.hazard["rec_backpressure"] = sim_.rec_stall_clocks();
  sim_.forget_transactions_before(applied_);  // checked: memory stays flat on long runs
}

void Scoreboard::finish() {
  // every counter once (the RTL-only ones feed the hazard bins), then the drained state
  for (uint32_t i = 0; i < r::CNT_LO::kCount; ++i) {
    uint32_t v;
    read(r::CNT_LO::addr(i), v);
    read(r::CNT_HI::addr(i), v);
  }
  sim_.drain();
  poll();
  if (mismatch_) return;
  if (!pending_.empty()) {
    fail(pending_.front().clock, "record order (cmd_seq)",
         "cmd_seq <= " + std::to_string(sim_.transactions().size()) + " transactions",
         std::to_string(pending_.front().cmd_seq));
    return;
  }
  if (!frames_.empty()) {
    fail(sim_.clocks(), "record stream", std::to_string(frames_.size()) + " more records", "drain ended");
    return;
  }
  while (applied_ < sim_.transactions().size() && !mismatch_) apply_transaction(applied_);
}

}  // namespace flowsteer::sim
