// Conformance scoreboard: drives the simulated engine (EngineSim) and the golden model
// (engine::EngineRegisterFile) with the same stimulus and compares every record and every
// register response, in the total order of docs/engine-top.md ("Scoreboard rule").
// Used by the conformance GoogleTests, `flowsteer conform` and the SystemC bench's checker.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine_sim.h"

namespace flowsteer::sim {

// The first difference found (the scoreboard stops comparing after it).
struct Mismatch {
  uint64_t event_index = 0;   // position in the total order (packets and transactions)
  uint64_t clock = 0;
  std::string what;           // "record", "read data", "response", ...
  std::string expected, actual;
  std::string format(uint64_t seed, const std::string& rerun) const;  // multi-line report
};

// Functional coverage: every bin must be hit by a suite that claims it.
struct Coverage {
  std::array<uint64_t, 8> gate_row{};       // fs_rfs_core GateRow values (spec 3.2 table)
  std::array<uint64_t, 8> path{};           // SetRpsCpuPath values
  std::array<uint64_t, 4> action{};         // enum steer_action
  std::array<uint64_t, 16> parse_class{};   // enum parse_class
  std::map<std::string, uint64_t> hazard;   // hazard kinds (named bins)
  std::map<std::string, uint32_t> rtl_counters;  // last CNT_LO read of each rtl_only counter
  std::array<uint64_t, 8> driver_error{};   // -errno kinds seen (named in coverage_report)
  std::vector<std::string> empty_bins(bool need_all_parse_classes = true) const;
  std::string report() const;
};

struct ScoreboardStats {
  uint64_t packets = 0, transactions = 0, reads_checked = 0;
  uint64_t first_packet_clock = 0, last_record_clock = 0;
  double packets_per_clock() const;
};

class Scoreboard {
 public:
  // The model is built with sim.caps(); `rerun` is the command line that reproduces the run.
  Scoreboard(EngineSim& sim, uint64_t seed, std::string rerun);

  // Register access through the simulated engine; the response (and read data) is checked
  // against the model once the transaction's place in the total order is known.
  bus::AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF);
  bus::AxiResp read(uint32_t offset, uint32_t& value);
  // A frame into the engine's stream; its record is checked when it arrives.
  void frame(const std::vector<uint8_t>& f, uint16_t user = 0);
  void step(uint64_t clocks = 1);
  // Drains the engine, applies the remaining transactions, checks everything outstanding.
  void finish();

  bool ok() const { return !mismatch_; }
  const std::optional<Mismatch>& mismatch() const { return mismatch_; }
  const Coverage& coverage() const { return cov_; }
  const ScoreboardStats& stats() const { return stats_; }
  engine::EngineRegisterFile& model() { return model_; }
  EngineSim& sim() { return sim_; }
  // Called for each record after it was checked (the replay's summary reads them).
  using RecordHook = std::function<void(const EngineRecord&, const std::vector<uint8_t>& frame)>;
  void on_record(RecordHook hook) { record_hook_ = std::move(hook); }
  // Hazard bins the suites claim (Coverage::hazard keys).
  static const std::vector<std::string>& hazard_bins();

 private:
  void poll();  // consume records and transactions the sim has produced so far
  void apply_transaction(size_t index);
  void check_record(const EngineRecord& actual);
  void fail(uint64_t clock, const std::string& what, const std::string& expected,
            const std::string& actual);
  EngineSim& sim_;
  engine::EngineRegisterFile model_;
  uint64_t seed_;
  std::string rerun_;
  std::optional<Mismatch> mismatch_;
  Coverage cov_;
  ScoreboardStats stats_;
  std::deque<std::pair<std::vector<uint8_t>, uint16_t>> frames_;  // sent, record not yet seen
  size_t applied_ = 0;        // transactions applied to the model
  std::deque<EngineRecord> pending_;  // records whose transactions have not completed yet
  uint64_t seq64_ = 0;        // cmd_seq of the last record, widened past 2^32
  int last_cnt_lo_ = -1;      // counter index latched into CNT_HI by the last CNT_LO read
  struct PrevPacket {
    bool valid = false;
    int32_t slot_queue = -1;
    uint32_t slot = 0, hash = 0;
    uint64_t seq = 0, record_clock = 0;
  } prev_;
  RecordHook record_hook_;
};

}  // namespace flowsteer::sim
