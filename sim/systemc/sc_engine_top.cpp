// SystemC conformance bench of the whole engine (hw/rtl/fs_engine_top.sv, interface and
// total-order contract in docs/engine-top.md) on its Verilated SystemC model, against the
// golden model flowsteer::engine::EngineRegisterFile.
//
//   axil      SC_THREAD  AXI4-Lite master, one transaction outstanding: the register bus of
//                        the shared engine mix (sim/common/engine_stim.h), each access one
//                        blocking handshake (AW and W with independent random delays, random
//                        BREADY/RREADY); notes every completed transaction in order
//   frames    SC_THREAD  AXI4-Stream frame source: 64-byte beats with random idle gaps,
//                        tuser = frame number; notes every frame whose last beat was taken
//   records   SC_THREAD  record sink with random back-pressure on m_axis_rec_tready
//   checker   SC_METHOD  falling edge: the total-order rule of docs/engine-top.md. Transactions
//                        are numbered by completion; before the record with cmd_seq = s is
//                        compared, transactions 0..s-1 are applied to the model; the rest are
//                        applied at the end. Every record field and every response (and read
//                        data, except the rtl_only counters of the register map) is compared.
// The first mismatch prints the event index (position in the total order), the clock, the
// expected and actual values, the seed and the command line that reruns it with an FST trace;
// the bench exits 1.
//
// Usage: sc_engine_top [--packets N] [--seed S] [--trace FILE.fst] [--gap P] [--ready P]
//                      [--bready P] [--txn-rate P] [--axil-delay N] [--frames mixed|small]
//                      [--mix hazard|uniform] [--hash MODE] [--variant V] [--ntuple 0|1]
//                      [--max-mismatches N]      (--help describes them)
// Env: FS_SC_TRACE=FILE.fst (same as --trace); SC_COPYRIGHT_MESSAGE=DISABLE drops the banner.
// Model parameters: hw/params.json (fs_engine_top set "standard", the Verilator harness's
// standard build); the bench gets them as VSC_ENGINE_TOP_* definitions.
#include <systemc.h>
#ifndef FS_SC_ENGINE_MODEL_DUT
#include <verilated.h>
#include <verilated_fst_sc.h>
#endif

#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <sstream>
#include <ctime>
#include <string>
#include <vector>

#include "engine_params.h"
#include "engine_record.h"
#include "engine_stim.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "sc_bench.h"

#ifndef VSC_ENGINE_TOP_LUT_LOG2
#error "sc_engine_top needs the VSC_ENGINE_TOP_* build parameters (sim/CMakeLists.txt)"
#endif

// sc_engine_top_selftest: the same bench on a stand-in built on the golden model
#ifdef FS_SC_ENGINE_MODEL_DUT
#include "engine_model_dut.h"
using EngineDut = flowsteer::sim::systemc::EngineModelDut;
#else
#include "Vvsc_engine_top.h"
using EngineDut = Vvsc_engine_top;
#endif

namespace {

namespace eng = flowsteer::engine;
namespace kern = flowsteer::kernel;
namespace nic = flowsteer::nic;
namespace regs = flowsteer::regs;
namespace stim = flowsteer::sim::common;
using flowsteer::bus::AxiResp;

// one AXI4-Lite transaction and what the stimulus made it for
struct RegOp {
  bool write = false;
  uint32_t offset = 0, data = 0;
  uint8_t strb = 0xF;
  stim::TxnKind kind = stim::TxnKind::kSetup;
};

constexpr int kDataWidth = VSC_ENGINE_TOP_DATA_WIDTH;
constexpr size_t kBeatBytes = kDataWidth / 8;
static_assert(kDataWidth == 512, "the bench drives a 512-bit stream (sc_bv<512>, 64-bit tkeep)");
// counters that are properties of the RTL pipeline (rtl_only in the register map: the model
// reads 0; docs/engine-top.md "Scoreboard rule")
constexpr uint32_t kCounters = regs::CNT_LO::kCount;

eng::EngineCaps build_caps() { return FS_ENGINE_CAPS(VSC_ENGINE_TOP); }

struct Options {
  uint64_t packets = 20000, seed = 1, axil_delay = 2, max_mismatches = 1, ntuple = 1,
           require_bins = 0;
  double gap = 0.2, ready = 0.75, txn_rate = -1, bready = 0.7;  // txn_rate < 0: by seed
  std::string trace, frames = "mixed", mix = "hazard", hash = "seed", variant = "seed";
};

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

// One record as the RTL produced it (docs/engine-top.md "Record"), decoded as the Verilator
// harness decodes it.
using Record = flowsteer::sim::common::EngineRecord;

std::string fmt_record(const Record& e) {
  const eng::OutputRecord& o = e.rec;
  std::ostringstream s;
  s << "class " << nic::parse_class_name(o.cls) << " hash " << hex(o.hash) << " hash_valid "
    << o.hash_valid << " queue " << o.queue << " filter_hit " << o.filter_hit << " filter_id "
    << o.filter_id << " cpu " << o.cpu << " action " << eng::steer_action_name(o.action)
    << " steer_id " << o.steer_id << " error " << o.error << " rc " << e.rc << " path "
    << (e.path < kern::kSetRpsCpuPathCount ? kern::path_name(kern::SetRpsCpuPath(e.path)) : "?")
    << " gate "
    << (e.gate < kern::kGateRowCount ? kern::gate_row_name(kern::GateRow(e.gate)) : "?")
    << " steer_called " << e.steer_called << " tail " << e.tail << " user " << e.user
    << " reserved " << hex(e.reserved);
  return s.str();
}

const char* resp_name(AxiResp r) { return r == AxiResp::kOkay ? "OKAY" : "SLVERR"; }
const char* resp_name(uint32_t r) {
  static const char* const n[] = {"OKAY", "EXOKAY", "SLVERR", "DECERR"};
  return n[r & 3];
}

SC_MODULE(EngineBench) {
  sc_in<bool> clk;

  sc_signal<bool> rst;
  // AXI4-Lite (names as the ports without s_axil_)
  sc_signal<uint32_t> awaddr, awprot, wdata, wstrb, bresp, araddr, arprot, rdata, rresp;
  sc_signal<bool> awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid,
      rready;
  // frames
  sc_signal<sc_bv<kDataWidth>> tdata;
  sc_signal<uint64_t> tkeep;
  sc_signal<bool> tvalid, tready, tlast;
  sc_signal<uint32_t> tuser;
  // records
  sc_signal<sc_bv<256>> rec_tdata;
  sc_signal<bool> rec_tvalid, rec_tready;

  EngineDut dut;

  SC_HAS_PROCESS(EngineBench);
  EngineBench(sc_module_name n, const Options& o, flowsteer::sim::systemc::RunReport& rep)
      : sc_module(n),
#ifdef FS_SC_ENGINE_MODEL_DUT
        dut("dut", build_caps(), o.seed),
#else
        dut("dut"),
#endif
        opt_(o), rep_(rep), caps_(build_caps()), model_(caps_),
        bus_(*this), stim_(bus_, model_, caps_, stim_options(o)), rng_axil_(o.seed ^ 0xD1B54A32D192ED03ull),
        rng_frm_(o.seed ^ 0x8CB92BA72F3D8DD7ull), rng_rec_(o.seed ^ 0x5DEECE66Dull) {
    dut.clk(clk);
    dut.rst(rst);
    dut.s_axil_awaddr(awaddr);
    dut.s_axil_awprot(awprot);
    dut.s_axil_awvalid(awvalid);
    dut.s_axil_awready(awready);
    dut.s_axil_wdata(wdata);
    dut.s_axil_wstrb(wstrb);
    dut.s_axil_wvalid(wvalid);
    dut.s_axil_wready(wready);
    dut.s_axil_bresp(bresp);
    dut.s_axil_bvalid(bvalid);
    dut.s_axil_bready(bready);
    dut.s_axil_araddr(araddr);
    dut.s_axil_arprot(arprot);
    dut.s_axil_arvalid(arvalid);
    dut.s_axil_arready(arready);
    dut.s_axil_rdata(rdata);
    dut.s_axil_rresp(rresp);
    dut.s_axil_rvalid(rvalid);
    dut.s_axil_rready(rready);
    dut.s_axis_tdata(tdata);
    dut.s_axis_tkeep(tkeep);
    dut.s_axis_tvalid(tvalid);
    dut.s_axis_tready(tready);
    dut.s_axis_tlast(tlast);
    dut.s_axis_tuser(tuser);
    dut.m_axis_rec_tdata(rec_tdata);
    dut.m_axis_rec_tvalid(rec_tvalid);
    dut.m_axis_rec_tready(rec_tready);

    SC_THREAD(axil_driver);
    SC_THREAD(frame_driver);
    SC_THREAD(record_monitor);
    SC_METHOD(checker);
    sensitive << clk.neg();
    dont_initialize();
  }

  bool passed() const { return done_ && rep_.error.empty() && rep_.mismatches == 0; }
  const stim::EngineStim& stim() const { return stim_; }
  uint64_t transactions() const { return applied_; }
  uint64_t rtl_counter(uint32_t i) const { return rtl_cnt_[i]; }

  // The coverage bins with no hit, by name (paths, gates, actions, frame and transaction
  // kinds, driver errnos, the in-flight hazards); empty when every bin was hit.
  // gate_rows: also the patched gate's rows (a run drawn original evaluates the gate only in
  // the patched windows of its mode flips, where the rarest row is hit a few times per
  // million packets; the patched run requires them)
  std::string empty_bins(bool gate_rows) const {
    std::string s;
    auto check = [&](const auto& hist, auto name, size_t n) {
      for (size_t i = 0; i < n; ++i)
        if (!hist[i]) s += std::string(" ") + name(i);
    };
    check(path_, [](size_t i) { return kern::path_name(kern::SetRpsCpuPath(i)); },
          size_t(kern::kSetRpsCpuPathCount));
    if (gate_rows) {
      check(gate_, [](size_t i) { return kern::gate_row_name(kern::GateRow(i)); },
            size_t(kern::kGateRowCount));
    }
    check(action_, [](size_t i) { return eng::steer_action_name(eng::SteerAction(i)); }, size_t(4));
    check(frame_kind_, [](size_t i) { return stim::frame_kind_name(stim::FrameKind(i)); },
          size_t(stim::FrameKind::kCount));
    check(txn_kind_, [](size_t i) { return stim::txn_kind_name(stim::TxnKind(i)); },
          size_t(stim::TxnKind::kCount));
    static const char* const errnos[] = {"enospc", "ebusy", "eaddrinuse", "eprotonosupport"};
    check(err_, [](size_t i) { return errnos[i]; }, size_t(4));
    const std::array<uint64_t, 4> hz{hz_same_flow_, hz_collision_, hz_steer_same_, hz_txn_between_};
    static const char* const hazards[] = {"same_flow_in_flight", "same_hash_other_tuple",
                                          "steer_then_same_flow", "txn_between_packets"};
    check(hz, [](size_t i) { return hazards[i]; }, size_t(4));
    return s;
  }

  void print_coverage() const {
    auto line = [](const char* what, const auto& hist, auto name, size_t n) {
      std::printf("sc_engine_top: %s:", what);
      for (size_t i = 0; i < n; ++i) std::printf(" %s %llu", name(i), (unsigned long long)hist[i]);
      std::printf("\n");
    };
    line("paths", path_, [](size_t i) { return kern::path_name(kern::SetRpsCpuPath(i)); },
         size_t(kern::kSetRpsCpuPathCount));
    line("gates", gate_, [](size_t i) { return kern::gate_row_name(kern::GateRow(i)); },
         size_t(kern::kGateRowCount));
    line("actions", action_, [](size_t i) { return eng::steer_action_name(eng::SteerAction(i)); },
         size_t(4));
    line("parse classes", cls_, [](size_t i) { return nic::parse_class_name(nic::ParseClass(i)); },
         size_t(nic::kParseClassCount));
    line("frames", frame_kind_,
         [](size_t i) { return stim::frame_kind_name(stim::FrameKind(i)); },
         size_t(stim::FrameKind::kCount));
    line("transactions", txn_kind_,
         [](size_t i) { return stim::txn_kind_name(stim::TxnKind(i)); },
         size_t(stim::TxnKind::kCount));
    std::printf("sc_engine_top: records: cpu_valid %llu filter_hit %llu hash_valid %llu\n",
                (unsigned long long)n_cpu_, (unsigned long long)n_hit_,
                (unsigned long long)n_hashed_);
    std::printf("sc_engine_top: hazards: same_flow_in_flight %llu same_hash_other_tuple %llu "
                "steer_then_same_flow %llu txn_between_packets %llu enospc %llu ebusy %llu "
                "eaddrinuse %llu eprotonosupport %llu slverr %llu\n",
                (unsigned long long)hz_same_flow_, (unsigned long long)hz_collision_,
                (unsigned long long)hz_steer_same_, (unsigned long long)hz_txn_between_,
                (unsigned long long)err_[0], (unsigned long long)err_[1],
                (unsigned long long)err_[2], (unsigned long long)err_[3],
                (unsigned long long)slverr_);
  }

 private:
  static stim::StimulusConfig stim_options(const Options& o) {
    stim::StimulusConfig s;
    s.seed = o.seed;
    s.single_beat = o.frames == "small";
    s.junk = !s.single_beat;  // junk frames are of any length
    s.ntuple = o.ntuple != 0;
    s.uniform = o.mix == "uniform";
    s.hash_mode = o.hash == "toeplitz" ? 0 : o.hash == "symxor" ? 1 : o.hash == "jhash" ? 2 : -1;
    s.patched = o.variant == "patched" ? 1 : o.variant == "original" ? 0 : -1;
    return s;
  }

  // The stimulus's register bus: each access is one AXI4-Lite handshake run by the axil
  // thread (wait() inside), so the stimulus can read back what it needs.
  class AxilBus : public flowsteer::bus::RegisterBus {
   public:
    explicit AxilBus(EngineBench& b) : b_(b) {}
    AxiResp read(uint32_t offset, uint32_t& value) override {
      return b_.access(RegOp{false, offset, 0, 0, b_.stim_.kind()}, value);
    }
    AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) override {
      uint32_t unused = 0;
      return b_.access(RegOp{true, offset, value, strb, b_.stim_.kind()}, unused);
    }
    std::string describe() const override { return "SystemC AXI4-Lite master"; }

   private:
    EngineBench& b_;
  };

  // ---------------------------------------------------------------- what the threads note
  struct Done {  // a completed AXI4-Lite transaction
    RegOp op;
    uint32_t rdata = 0, resp = 0;
    uint64_t clock = 0;
  };
  struct SentFrame {
    std::vector<uint8_t> bytes;
    uint16_t user = 0;
    stim::FrameKind kind = stim::FrameKind::kFlow;
    uint64_t accepted = 0;  // clock of the last beat
  };

  // ---------------------------------------------------------------- AXI4-Lite master
  void axil_driver() {
    idle_axil();
    awprot.write(0);
    arprot.write(0);
    rst.write(true);
    for (int i = 0; i < 8; ++i) wait(clk.posedge_event());
    rst.write(false);
    wait(clk.posedge_event());
    stim_.setup();
    setup_done_ = true;
    while (!frames_done_) {
      idle_axil();
      wait(clk.posedge_event());
      if (!frames_done_ && flowsteer::sim::systemc::chance(rng_axil_, opt_.txn_rate)) stim_.commands();
    }
    stim_.finish();
    idle_axil();
    txns_done_ = true;
  }
  void idle_axil() {
    awvalid.write(false);
    wvalid.write(false);
    arvalid.write(false);
    bready.write(false);
    rready.write(false);
  }

  // One transaction, from the clock it is issued to the one its response is taken: AW and W
  // with independent random delays, valid up until its handshake (AXI rule), random
  // BREADY/RREADY. Notes the transaction for the checker and returns what the RTL answered.
  AxiResp access(const RegOp& op, uint32_t& value) {
    std::mt19937_64& rng = rng_axil_;
    axil_busy_ = true;
    axil_op_ = op;
    bool aw_done = false, w_done = false;
    uint32_t resp = 0;
    uint64_t aw_delay = opt_.axil_delay ? rng() % (opt_.axil_delay + 1) : 0;
    uint64_t w_delay = opt_.axil_delay ? rng() % (opt_.axil_delay + 1) : 0;
    awaddr.write(op.offset);
    araddr.write(op.offset);
    wdata.write(op.data);
    wstrb.write(op.strb);
    for (;;) {
      const bool aw = !aw_done && (aw_delay == 0 || aw_delay-- == 1);
      const bool w = op.write && !w_done && (w_delay == 0 || w_delay-- == 1);
      awvalid.write(aw && op.write);
      arvalid.write(aw && !op.write);
      wvalid.write(w);
      bready.write(op.write && flowsteer::sim::systemc::chance(rng, opt_.bready));
      rready.write(!op.write && flowsteer::sim::systemc::chance(rng, opt_.bready));
      wait(clk.posedge_event());
      const uint64_t cyc = cycle_;
      if (op.write) {
        if (awvalid.read() && awready.read()) aw_done = true;
        if (wvalid.read() && wready.read()) w_done = true;
        if (bvalid.read() && bready.read()) {
          if (!aw_done || !w_done)
            rep_.mismatch(event(), cyc, "AXI4-Lite protocol", "BVALID after the AW and W handshakes",
                          "BVALID for the write of " + hex(op.offset) + " before " +
                              (aw_done ? "W" : "AW"));
          resp = bresp.read();
          done_txns_.push_back({op, 0, resp, cyc});
          break;
        }
      } else {
        if (arvalid.read() && arready.read()) aw_done = true;
        if (rvalid.read() && rready.read()) {
          if (!aw_done)
            rep_.mismatch(event(), cyc, "AXI4-Lite protocol", "RVALID after the AR handshake",
                          "RVALID for the read of " + hex(op.offset) + " before AR");
          value = rdata.read();
          resp = rresp.read();
          done_txns_.push_back({op, value, resp, cyc});
          break;
        }
      }
    }
    progress_ = true;
    axil_busy_ = false;
    idle_axil();  // the next access, issued in this clock, drives over it
    return resp == 0 ? AxiResp::kOkay : AxiResp::kSlvErr;
  }

  // ---------------------------------------------------------------- frame source
  void frame_driver() {
    std::mt19937_64& rng = rng_frm_;
    tvalid.write(false);
    tlast.write(false);
    tkeep.write(0);
    tuser.write(0);
    if (opt_.packets == 0) frames_done_ = true;
    while (!setup_done_) wait(clk.posedge_event());
    SentFrame cur;
    bool have = false, beat = false;
    size_t off = 0, n = 0;
    uint64_t issued = 0;
    sc_bv<kDataWidth> bv;
    for (;;) {
      wait(clk.posedge_event());
      if (beat && tvalid.read() && tready.read()) {
        progress_ = true;
        if (rep_.first_in_cycle == ~uint64_t(0)) rep_.first_in_cycle = cycle_;
        off += n;
        beat = false;
        if (off >= cur.bytes.size()) {
          cur.accepted = cycle_;
          sent_.push_back(std::move(cur));
          have = false;
          if (issued == opt_.packets) frames_done_ = true;
        }
      }
      if (!have && issued < opt_.packets) {
        stim::StimFrame f = stim_.next_frame();
        cur = SentFrame{std::move(f.bytes), uint16_t(issued), f.kind, 0};
        ++issued;
        have = true;
        off = 0;
      }
      if (have && !beat && !flowsteer::sim::systemc::chance(rng, opt_.gap)) {
        n = std::min(kBeatBytes, cur.bytes.size() - off);
        for (size_t wd = 0; wd < kBeatBytes / 4; ++wd) {
          uint32_t v = 0;
          for (size_t b = 0; b < 4; ++b)
            if (wd * 4 + b < n) v |= uint32_t(cur.bytes[off + wd * 4 + b]) << (8 * b);
          bv.set_word(int(wd), v);
        }
        tdata.write(bv);
        tkeep.write(n >= kBeatBytes ? ~uint64_t(0) : (uint64_t(1) << n) - 1);
        tlast.write(off + n >= cur.bytes.size());
        tuser.write(cur.user);
        beat = true;
      }
      tvalid.write(beat);
    }
  }

  // ---------------------------------------------------------------- record sink
  void record_monitor() {
    std::mt19937_64& rng = rng_rec_;
    rec_tready.write(false);
    for (;;) {
      wait(clk.posedge_event());
      if (rst.read()) continue;
      if (rec_tvalid.read() && rec_tready.read()) {
        const sc_bv<256> d = rec_tdata.read();
        uint32_t w[8];
        for (int i = 0; i < 8; ++i) w[i] = d.get_word(i);
        Record r = flowsteer::sim::common::decode_engine_record(w);
        r.clock = cycle_;
        recs_.push_back(r);
        progress_ = true;
      }
      rec_tready.write(flowsteer::sim::systemc::chance(rng, opt_.ready));
    }
  }

  // ---------------------------------------------------------------- checker
  void checker() {
    const uint64_t cyc = cycle_++;
    rep_.cycles = cycle_;
    if (!rep_.error.empty() || done_) return;
    while (!recs_.empty() && rep_.error.empty()) {
      const Record& a = recs_.front();
      // widen cmd_seq: records come in packet order, so it never goes backwards
      const uint64_t seq = seq64_ + uint32_t(a.cmd_seq - uint32_t(seq64_));
      if (seq > applied_ + done_txns_.size()) {
        if (seq > applied_ + done_txns_.size() + 1) {  // one transaction outstanding at most
          rep_.mismatch(event(), a.clock, "record order (cmd_seq)",
                        "cmd_seq <= " + std::to_string(applied_ + done_txns_.size() + 1) +
                            " (transactions completed + the one outstanding)",
                        std::to_string(a.cmd_seq) + ": " + fmt_record(a));
          return;
        }
        break;  // the transaction before it has executed, its response is on its way
      }
      if (seq < applied_) {
        rep_.mismatch(event(), a.clock, "record order (cmd_seq)",
                      "cmd_seq >= " + std::to_string(applied_),
                      std::to_string(a.cmd_seq) +
                          ": the packet claims a place before transactions already ordered");
        return;
      }
      if (sent_.empty()) {
        rep_.mismatch(event(), a.clock, "record stream", "no record (every frame sent has its record)",
                      fmt_record(a));
        return;
      }
      while (applied_ < seq && rep_.error.empty()) apply_one();
      if (!rep_.error.empty()) return;
      seq64_ = seq;
      check_record(a, sent_.front());
      sent_.pop_front();
      recs_.pop_front();
    }
    // every sent frame has its record: each completed transaction precedes all later packets
    if (sent_.empty() && recs_.empty())
      while (!done_txns_.empty() && rep_.error.empty()) apply_one();
    if (!rep_.error.empty()) return;
    if (progress_) {
      last_progress_ = cyc;
      progress_ = false;
    }
    if (txns_done_ && frames_done_ && sent_.empty() && recs_.empty() && done_txns_.empty() &&
        packets_ == opt_.packets) {
      done_ = true;
      sc_stop();
      return;
    }
    if (cyc - last_progress_ > 200000)
      rep_.mismatch(
          event(), cyc, "no progress for 200000 clocks",
          std::to_string(sent_.size()) + " more records (" + std::to_string(packets_) +
              " received" + oldest_frame() + "), then more frames and transactions",
          std::string("nothing: s_axis_tvalid ") + std::to_string(tvalid.read()) + " tready " +
              std::to_string(tready.read()) + ", m_axis_rec_tvalid " +
              std::to_string(rec_tvalid.read()) + ", AXI4-Lite " +
              (axil_busy_ ? std::string(axil_op_.write ? "write of " : "read of ") +
                                hex(axil_op_.offset) + " (" + stim::txn_kind_name(axil_op_.kind) +
                                ") unanswered"
                          : std::string("idle")));
  }

  uint64_t event() const { return applied_ + packets_; }

  std::string fmt_txn(const Done& t) const {
    if (applied_ == 0) return "none";
    return std::string(t.op.write ? "write " : "read ") + hex(t.op.offset) + " " +
           (t.op.write ? "data " + hex(t.op.data) : "-> " + hex(t.rdata)) + " " +
           resp_name(t.resp) + " (" + stim::txn_kind_name(t.op.kind) + ")";
  }

  // Names the oldest frame without a record and what the model makes of it (the run is
  // over: the frame may go into the model now, after the transactions completed so far).
  std::string oldest_frame() {
    if (sent_.empty()) return "";
    const SentFrame& f = sent_.front();
    const nic::ParsedFrame p = nic::parse_frame(f.bytes.data(), f.bytes.size());
    std::string s = "; oldest without a record: frame " + std::to_string(packets_) + ", " +
                    std::to_string(f.bytes.size()) + "-byte " + stim::frame_kind_name(f.kind) +
                    " " + nic::parse_class_name(p.cls) + " " + flowsteer::to_string(p.tuple) +
                    ", accepted at clock " + std::to_string(f.accepted);
    while (!done_txns_.empty() && rep_.error.empty()) apply_one();
    if (auto r = model_.packet(f.bytes.data(), f.bytes.size())) {
      const kern::RxDecision& d = model_.model().last_decision();
      s += "; the model, after every completed transaction: queue " + std::to_string(r->queue) +
           " cpu " + std::to_string(r->cpu) + " path " + kern::path_name(d.path) + " action " +
           eng::steer_action_name(r->action) + " driver called " +
           std::to_string(d.steer.called) + " rc " + std::to_string(d.steer.rc);
    }
    return s;
  }

  // The first mismatch stops the run (RunReport prints it), unless --max-mismatches N > 1:
  // then record and response mismatches are listed as they come and the run stops at the
  // N-th (triage mode). Ordering and stream errors always stop it.
  void fail(uint64_t ev, uint64_t cyc, const std::string& what, const std::string& expected,
            const std::string& actual) {
    if (opt_.max_mismatches > 1 && rep_.mismatches + 1 < opt_.max_mismatches) {
      ++rep_.mismatches;
      std::fprintf(stderr, "sc_engine_top: mismatch %llu at event %llu (cycle %llu): %s\n"
                   "  expected: %s\n  actual:   %s\n",
                   (unsigned long long)rep_.mismatches, (unsigned long long)ev,
                   (unsigned long long)cyc, what.c_str(), expected.c_str(), actual.c_str());
      return;
    }
    rep_.mismatch(ev, cyc, what, expected, actual);
  }

  void apply_one() {
    const Done t = done_txns_.front();
    done_txns_.pop_front();
    last_txn_ = t;
    const uint64_t ev = event();
    ++applied_;
    ++txn_kind_[size_t(t.op.kind)];
    const std::string where = std::string(t.op.write ? "write" : "read") + " of " +
                              hex(t.op.offset) + " (transaction " + std::to_string(applied_ - 1) +
                              ", " + stim::txn_kind_name(t.op.kind) + ")";
    ++rep_.checked_cmds;
    if (t.resp != 0 && t.resp != 2) {
      fail(ev, t.clock, "response code of the " + where, "OKAY or SLVERR",
                    resp_name(t.resp));
      return;
    }
    const AxiResp got = t.resp == 0 ? AxiResp::kOkay : AxiResp::kSlvErr;
    if (got == AxiResp::kSlvErr) ++slverr_;
    if (t.op.write) {
      const AxiResp want = model_.write(t.op.offset, t.op.data, t.op.strb);
      if (want != got)
        fail(ev, t.clock, "response of the " + where + " data " + hex(t.op.data) +
                                       " strb " + hex(t.op.strb),
                      resp_name(want), resp_name(got));
      return;
    }
    uint32_t want_data = 0;
    const AxiResp want = model_.read(t.op.offset, want_data);
    bool exempt = false;
    const uint32_t off = t.op.offset;
    if (regs::CNT_LO::index_of(off, last_cnt_lo_)) {
      exempt = regs::counter_rtl_only(last_cnt_lo_);
      if (exempt) rtl_cnt_[last_cnt_lo_] = t.rdata;
    } else if (uint32_t hi = 0; regs::CNT_HI::index_of(off, hi)) {
      exempt = regs::counter_rtl_only(last_cnt_lo_);
    }
    if (want != got) {
      fail(ev, t.clock, "response of the " + where, resp_name(want), resp_name(got));
    } else if (!exempt && want_data != t.rdata) {
      fail(ev, t.clock, "data of the " + where, hex(want_data), hex(t.rdata));
    }
  }

  void check_record(const Record& a, const SentFrame& f) {
    const uint64_t ev = event();
    std::optional<eng::OutputRecord> want = model_.packet(f.bytes.data(), f.bytes.size());
    if (!want) {
      rep_.mismatch(ev, a.clock, "record (the model holds frames while CTRL.ENABLE is 0)",
                    "no record", fmt_record(a));
      return;
    }
    const kern::RxDecision& d = model_.model().last_decision();
    const Record e = flowsteer::sim::common::expected_engine_record(*want, d, f.user);
    ++rep_.checked_outputs;
    rep_.last_out_cycle = a.clock;
    if (!flowsteer::sim::common::same_engine_record(e, a)) {
      fail(ev, a.clock,
                    "record of packet " + std::to_string(packets_) + " (" +
                        std::to_string(f.bytes.size()) + "-byte " +
                        stim::frame_kind_name(f.kind) + " frame accepted at clock " +
                        std::to_string(f.accepted) + ", cmd_seq " + std::to_string(a.cmd_seq) +
                        "; the transaction before it: " + fmt_txn(last_txn_) + ")",
                    fmt_record(e), fmt_record(a));
      ++packets_;
      return;
    }
    ++packets_;
    // coverage
    ++path_[e.path & 7];
    ++gate_[e.gate & 7];
    ++action_[size_t(e.rec.action) & 3];
    ++cls_[size_t(e.rec.cls) & 15];
    ++frame_kind_[size_t(f.kind)];
    n_cpu_ += e.rec.cpu >= 0;
    n_hit_ += e.rec.filter_hit;
    n_hashed_ += e.rec.hash_valid;
    if (e.rec.action == eng::SteerAction::kDriverError) {
      const int32_t er = -e.rec.error;
      if (er == ENOSPC) ++err_[0];
      else if (er == EBUSY) ++err_[1];
      else if (er == EADDRINUSE) ++err_[2];
      else if (er == EPROTONOSUPPORT) ++err_[3];
    }
    const nic::ParsedFrame p = nic::parse_frame(f.bytes.data(), f.bytes.size());
    const bool together = prev_valid_ && f.accepted < prev_record_clock_;  // both in flight
    if (together && e.rec.hash_valid && e.rec.hash == prev_hash_) {
      if (p.tuple == prev_tuple_) ++hz_same_flow_;
      else ++hz_collision_;
      if (prev_steered_) ++hz_steer_same_;
    }
    if (together && seq64_ != prev_seq_) ++hz_txn_between_;
    prev_valid_ = true;
    prev_hash_ = e.rec.hash_valid ? e.rec.hash : 0;
    prev_tuple_ = p.tuple;
    prev_steered_ = e.rec.action == eng::SteerAction::kSteered;
    prev_seq_ = seq64_;
    prev_record_clock_ = a.clock;
  }

  Options opt_;
  flowsteer::sim::systemc::RunReport& rep_;
  eng::EngineCaps caps_;
  eng::EngineRegisterFile model_;
  AxilBus bus_;
  stim::EngineStim stim_;
  std::mt19937_64 rng_axil_, rng_frm_, rng_rec_;
  // inbox (threads at the rising edge -> checker at the falling edge)
  std::deque<Done> done_txns_;
  std::deque<SentFrame> sent_;
  std::deque<Record> recs_;
  Done last_txn_;
  bool axil_busy_ = false;
  RegOp axil_op_;
  bool setup_done_ = false, frames_done_ = false, txns_done_ = false, done_ = false,
       progress_ = false;
  uint64_t cycle_ = 0, last_progress_ = 0, applied_ = 0, packets_ = 0, seq64_ = 0, slverr_ = 0;
  uint32_t last_cnt_lo_ = 0;
  std::array<uint64_t, kCounters> rtl_cnt_{};  // the last read of each RTL-only counter
  // coverage
  std::array<uint64_t, 8> path_{}, gate_{};
  std::array<uint64_t, 4> action_{}, err_{};
  std::array<uint64_t, 16> cls_{};
  std::array<uint64_t, size_t(stim::FrameKind::kCount)> frame_kind_{};
  std::array<uint64_t, size_t(stim::TxnKind::kCount)> txn_kind_{};
  uint64_t n_cpu_ = 0, n_hit_ = 0, n_hashed_ = 0;
  uint64_t hz_same_flow_ = 0, hz_collision_ = 0, hz_steer_same_ = 0, hz_txn_between_ = 0;
  bool prev_valid_ = false, prev_steered_ = false;
  uint32_t prev_hash_ = 0;
  flowsteer::FlowTuple prev_tuple_;
  uint64_t prev_seq_ = 0, prev_record_clock_ = 0;
};

}  // namespace

int sc_main(int argc, char** argv) {
  // sc_stop's "Simulation stopped by user" note is the normal end here
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  Options o;
  flowsteer::sim::systemc::ArgParser ap("sc_engine_top");
  ap.add("packets", &o.packets, "random frames");
  ap.add("seed", &o.seed, "stimulus seed (also selects hash mode, variant, slot mode, sizes)");
  ap.add("trace", &o.trace, "FST trace file (or env FS_SC_TRACE)");
  ap.add("gap", &o.gap, "probability of an idle clock before a frame beat");
  ap.add("ready", &o.ready, "m_axis_rec_tready probability");
  ap.add("bready", &o.bready, "BREADY / RREADY probability");
  ap.add("axil-delay", &o.axil_delay, "AW / W / AR valid delay 0..N clocks");
  ap.add("txn-rate", &o.txn_rate,
         "probability per idle clock of a new register transaction group (< 0: 0.005 odd "
         "seeds, 0.02 even seeds; 0: setup and final reads only)");
  ap.add("mix", &o.mix,
         "flow mix: hazard (bursts, planted collisions, scenarios) or uniform (1024 flows, no bias)");
  ap.add("hash", &o.hash, "hash mode at setup: toeplitz, symxor, jhash, or seed (from the seed)");
  ap.add("variant", &o.variant, "set_rps_cpu variant at setup: original, patched, or seed");
  ap.add("ntuple", &o.ntuple, "CTRL.NTUPLE at setup (0: the engine never calls its driver)");
  ap.add("max-mismatches", &o.max_mismatches,
         "stop at the N-th mismatch (N > 1: list each in one line, triage)");
  ap.add("frames", &o.frames, "frame mix: mixed, or small (every frame one 64-byte beat)");
  ap.add("require-bins", &o.require_bins,
         "1: fail unless every coverage bin (paths, gates, actions, frame and transaction kinds, "
         "driver errnos, in-flight hazards) was hit");
  if (!ap.parse(argc, argv)) return ap.help_requested() ? 0 : 2;
  if (o.frames != "mixed" && o.frames != "small") {
    std::fprintf(stderr, "sc_engine_top: --frames is mixed or small\n");
    return 2;
  }
  if (o.mix != "hazard" && o.mix != "uniform") {
    std::fprintf(stderr, "sc_engine_top: --mix is hazard or uniform\n");
    return 2;
  }
  if (o.hash != "seed" && o.hash != "toeplitz" && o.hash != "symxor" && o.hash != "jhash") {
    std::fprintf(stderr, "sc_engine_top: --hash is toeplitz, symxor, jhash or seed\n");
    return 2;
  }
  if (o.variant != "seed" && o.variant != "original" && o.variant != "patched") {
    std::fprintf(stderr, "sc_engine_top: --variant is original, patched or seed\n");
    return 2;
  }
  if (o.txn_rate < 0) o.txn_rate = o.seed % 2 ? 0.005 : 0.02;
  if (o.trace.empty())
    if (const char* e = std::getenv("FS_SC_TRACE")) o.trace = e;

  std::ostringstream rerun;
  rerun << argv[0] << " --packets " << o.packets << " --seed " << o.seed << " --gap " << o.gap
        << " --ready " << o.ready << " --bready " << o.bready << " --axil-delay "
        << o.axil_delay << " --txn-rate " << o.txn_rate << " --frames " << o.frames;
  if (o.ntuple != 1) rerun << " --ntuple " << o.ntuple;
  if (o.mix != "hazard") rerun << " --mix " << o.mix;
  if (o.hash != "seed") rerun << " --hash " << o.hash;
  if (o.variant != "seed") rerun << " --variant " << o.variant;
  if (o.max_mismatches != 1) rerun << " --max-mismatches " << o.max_mismatches;
  if (o.require_bins) rerun << " --require-bins " << o.require_bins;
  flowsteer::sim::systemc::RunReport rep("sc_engine_top", o.seed, rerun.str());

#ifndef FS_SC_ENGINE_MODEL_DUT
  Verilated::commandArgs(argc, argv);
  Verilated::randReset(2);  // random register init (--x-initial unique)
  Verilated::randSeed(int(o.seed & 0x7fffffff));
  if (!o.trace.empty()) Verilated::traceEverOn(true);
#else
  if (!o.trace.empty()) {
    std::fprintf(stderr, "sc_engine_top: --trace: the model stand-in has no waveform\n");
    return 2;
  }
#endif

  sc_clock clk("clk", 10, SC_NS);
  auto bench = std::make_unique<EngineBench>("bench", o, rep);
  bench->clk(clk);

  sc_start(SC_ZERO_TIME);  // elaborate before tracing
#ifndef FS_SC_ENGINE_MODEL_DUT
  std::unique_ptr<VerilatedFstSc> fst;
  if (!o.trace.empty()) {
    fst = std::make_unique<VerilatedFstSc>();
    bench->dut.trace(fst.get(), 99);
    fst->open(o.trace.c_str());
  }
#endif
  const stim::EngineStim& st = bench->stim();
  std::printf("sc_engine_top: seed %llu, %llu packets, hash %s, %s, %s slots, nr_cpu_ids %u, "
              "%zu flows (%zu hash-collision), frames %s, txn rate %.3f%s%s\n",
              (unsigned long long)o.seed, (unsigned long long)o.packets,
              nic::hash_mode_name(nic::HashMode(st.hash_mode())), st.patched() ? "patched" : "original",
              st.slot_mask() ? "V-mask" : "V-log", st.nr_cpu_ids(), st.flows(),
              st.collision_flows(), o.frames.c_str(), o.txn_rate,
              o.trace.empty() ? "" : ", trace ", o.trace.c_str());
  std::fflush(stdout);
  const bool drawn_patched = st.patched();  // mode flips change it during the run
  rep.start_wall();
  const std::clock_t cpu0 = std::clock();
  sc_start();
  const double cpu_s = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  rep.stop_wall();
#ifndef FS_SC_ENGINE_MODEL_DUT
  if (fst) fst->close();
#endif
  bench->dut.final();

  rep.summary("packet", "packets");
  bench->print_coverage();
  std::printf("sc_engine_top: %.2f s CPU: %.0f simulated packets/s, %.0f clocks/s per CPU "
              "second (the wall-clock figures above depend on the machine's load)\n",
              cpu_s, cpu_s > 0 ? double(rep.checked_outputs) / cpu_s : 0.0,
              cpu_s > 0 ? double(rep.cycles) / cpu_s : 0.0);
  std::printf("sc_engine_top: %llu register transactions checked; RTL-only counters (last read):",
              (unsigned long long)bench->transactions());
  for (uint32_t i = 0; i < kCounters; ++i)
    if (const char* name = regs::counter_rtl_only(i) ? regs::counter_map_name(i) : nullptr)
      std::printf(" %s %llu", name, (unsigned long long)bench->rtl_counter(i));
  std::printf("\n");
  if (!bench->passed()) {
    if (rep.error.empty()) std::fprintf(stderr, "sc_engine_top: FAIL: stopped before the end\n");
    std::printf("sc_engine_top: FAIL\n");
    return 1;
  }
  if (o.require_bins) {
    if (const std::string empty = bench->empty_bins(drawn_patched); !empty.empty()) {
      std::printf("sc_engine_top: FAIL: empty coverage bins:%s (seed %llu)\n", empty.c_str(),
                  (unsigned long long)o.seed);
      return 1;
    }
  }
  std::printf("sc_engine_top: PASS\n");
  return 0;
}
