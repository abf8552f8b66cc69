// SystemC conformance bench of the RFS core (hw/rtl/fs_rfs_core.sv) on its Verilated SystemC
// model, against the golden model flowsteer::kernel::Kernel (sim/common/rfs_ref.h).
//
//   driver    SC_THREAD  seeded packet stream and command stream, each valid/ready with
//                        random idle gaps; notes every handshake (the accepted total order)
//   responder SC_THREAD  answers the core's driver port (m_drv_req / s_drv_rsp) after random
//                        delays with its own RefDriver (same seed and rule as the reference's)
//   monitor   SC_THREAD  random back-pressure on m_axis_rec_tready; notes records and
//                        command responses
//   scoreboard SC_METHOD falling edge: applies the clock's accepted command or packet to the
//                        golden model, then compares every driver request (queue, flow_id,
//                        hash), every record field and every command response
// The first mismatch prints the event index, expected and actual values, the seed and the
// command line that reruns it with an FST trace, and the bench exits 1.
//
// Usage: sc_rfs_core [--packets N] [--seed S] [--trace FILE.fst] [--gap P] [--ready P]
//                    [--req-ready P] [--rsp-delay N] [--cmd-rate P]
// Env: FS_SC_TRACE=FILE.fst (same as --trace); SC_COPYRIGHT_MESSAGE=DISABLE drops the SystemC
// banner (libsystemc 2.3.4 reads that name or SYSTEMC_DISABLE_COPYRIGHT_MESSAGE).
// Model parameters (hw/params.json, fs_rfs_core set "test", as the GoogleTest suite): NUM_CPUS=16,
// NUM_QUEUES=8, SLOT_LOG2_MAX=6, SOCK_LOG2_MAX=8, RPS_POOL_LOG2=8, TAG_WIDTH=32.
#include <systemc.h>
#include <verilated.h>
#include <verilated_fst_sc.h>

#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vvsc_rfs_core.h"
#include "rfs_ref.h"
#include "rfs_stim.h"
#include "sc_bench.h"

namespace {

using flowsteer::sim::common::rfs::Cmd;
using flowsteer::sim::common::rfs::CmdExpect;
using flowsteer::sim::common::rfs::CoreDims;
using flowsteer::sim::common::rfs::RecordFields;
using flowsteer::sim::common::rfs::RxDecision;
using flowsteer::sim::common::rfs::SlotMode;
using flowsteer::sim::common::rfs::Variant;

constexpr CoreDims kDims{16, 8, 6, 8, 8};  // the -G values of vsc_rfs_core

struct Options {
  uint64_t packets = 20000, seed = 1, rsp_delay = 3;
  double gap = 0.2, ready = 0.75, req_ready = 0.7, cmd_rate = -1;  // < 0: by seed
  std::string trace;
};

// The run configuration a seed selects (as test_fs_rfs_core.cpp's random mixes).
struct RunCfg {
  Variant v;
  SlotMode m;
  uint32_t nr;
};
RunCfg cfg_for_seed(uint64_t seed) {
  static const RunCfg cfgs[] = {
      {Variant::kPatched, SlotMode::kLog, 16},  {Variant::kOriginal, SlotMode::kLog, 16},
      {Variant::kPatched, SlotMode::kMask, 16}, {Variant::kOriginal, SlotMode::kMask, 16},
      {Variant::kPatched, SlotMode::kLog, 11},  {Variant::kOriginal, SlotMode::kMask, 6},
      {Variant::kPatched, SlotMode::kMask, 13}, {Variant::kPatched, SlotMode::kLog, 16},
  };
  return cfgs[seed % 8];
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

// expected = true: the fields the comparison ignores (qualified by a clear valid bit) as "-"
std::string fmt_record(const RecordFields& r, bool expected = false) {
  auto f = [&](bool shown, uint64_t v) { return shown ? std::to_string(v) : std::string("-"); };
  const bool cpu = !expected || r.cpu_valid, st = !expected || r.steer,
             rf = !expected || r.rflow_valid;
  std::ostringstream s;
  s << "tag " << r.tag << " cpu_valid " << r.cpu_valid << " cpu " << f(cpu, r.cpu) << " path "
    << flowsteer::kernel::path_name(flowsteer::kernel::SetRpsCpuPath(r.path & 7)) << " gate "
    << flowsteer::kernel::gate_row_name(flowsteer::kernel::GateRow(r.gate % 6)) << " steer "
    << r.steer << " steer_queue " << f(st, r.steer_queue) << " steer_flow_id "
    << f(st, r.steer_flow_id) << " steer_rc " << (st ? std::to_string(int32_t(r.steer_rc)) : "-")
    << " rflow_valid " << r.rflow_valid << " rflow_queue " << f(rf, r.rflow_queue)
    << " rflow_slot " << f(rf, r.rflow_slot) << " tail " << r.tail;
  return s.str();
}

RecordFields expected_record(const RxDecision& x, uint64_t tag) {
  RecordFields r;
  r.tag = tag;
  r.cpu_valid = x.cpu >= 0;
  r.cpu = x.cpu >= 0 ? uint32_t(x.cpu) : 0xFFFF;
  r.path = uint32_t(x.path);
  r.gate = uint32_t(x.gate);
  r.steer = x.steer.called;
  r.steer_queue = x.steer.queue;
  r.steer_flow_id = x.steer.flow_id;
  r.steer_rc = uint32_t(x.steer.rc);
  r.rflow_valid = x.rflow.valid();
  r.rflow_queue = x.rflow.valid() ? uint32_t(x.rflow.queue) : 0;
  r.rflow_slot = x.rflow.slot;
  r.tail = x.enqueued ? x.tail : 0;
  return r;
}

std::string fmt_cmd(const Cmd& c) {
  return std::string(flowsteer::sim::common::rfs::op_name(c.op)) + " addr " + std::to_string(c.addr) + " d0 " +
         hex(c.d0) + " d1 " + hex(c.d1);
}

SC_MODULE(RfsBench) {
  sc_in<bool> clk;

  // DUT signals (names as the ports without the m_axis_/s_axis_ prefixes)
  sc_signal<bool> rst, pkt_valid, pkt_ready, pkt_steerable, pkt_zkey, flush, fin;
  sc_signal<uint32_t> pkt_hash, pkt_queue, pkt_tag;
  sc_signal<bool> rec_valid, rec_ready, rec_cpu_valid, rec_steer, rec_rflow_valid;
  sc_signal<uint32_t> rec_cpu, rec_path, rec_gate, rec_steer_queue, rec_steer_flow_id,
      rec_steer_rc, rec_rflow_queue, rec_rflow_slot, rec_tail, rec_tag;
  sc_signal<bool> req_valid, req_ready, drsp_valid, drsp_ready, drsp_now, drsp_refuse, pre_own;
  sc_signal<uint32_t> req_queue, req_flow_id, req_hash, req_tag, drsp_rc, drsp_now_rc;
  sc_signal<bool> pre_valid;
  sc_signal<uint32_t> pre_tag, pre_queue;
  sc_signal<bool> cmd_valid, cmd_ready, rsp_valid;
  sc_signal<uint32_t> cmd_op, cmd_addr, cmd_d0, cmd_d1, rsp_status, rsp_d0, rsp_d1;
  sc_signal<uint32_t> stat_drv_stall, stat_cmd_stall, stat_fwd, stat_hzd_stall;

  Vvsc_rfs_core dut;

  SC_HAS_PROCESS(RfsBench);
  RfsBench(sc_module_name n, const Options& o, flowsteer::sim::systemc::RunReport& rep)
      : sc_module(n), dut("dut"), opt_(o), rep_(rep), cfg_(cfg_for_seed(o.seed)),
        ref_(kDims, cfg_.nr, cfg_.v, cfg_.m, o.seed * 7919 + 13),
        rdrv_(o.seed * 7919 + 13),
        stim_(kDims, cfg_.nr, cfg_.v, cfg_.m, o.seed),
        rng_drv_(o.seed ^ 0xD1B54A32D192ED03ull), rng_rsp_(o.seed ^ 0x8CB92BA72F3D8DD7ull),
        rng_mon_(o.seed ^ 0x5DEECE66Dull) {
    // the reference driver and the port responder: the same rule, the same seed
    for (auto* d : {&ref_.drv, &rdrv_}) {
      d->err_rate = 0.05;
      d->big_rate = 0.01;
      if (o.seed % 3 == 0) d->counter = 0xFFF0;  // ids wrap through 0xFFFE -> 0
    }
    dut.clk(clk);
    dut.rst(rst);
    dut.s_axis_pkt_tvalid(pkt_valid);
    dut.s_axis_pkt_tready(pkt_ready);
    dut.s_axis_pkt_hash(pkt_hash);
    dut.s_axis_pkt_queue(pkt_queue);
    dut.s_axis_pkt_steerable(pkt_steerable);
    dut.s_axis_pkt_tag(pkt_tag);
    dut.s_axis_pkt_zkey(pkt_zkey);  // FLUSH_ON_STEER is 0 here: never read
    dut.m_axis_rec_tvalid(rec_valid);
    dut.m_axis_rec_tready(rec_ready);
    dut.m_axis_rec_cpu_valid(rec_cpu_valid);
    dut.m_axis_rec_cpu(rec_cpu);
    dut.m_axis_rec_path(rec_path);
    dut.m_axis_rec_gate(rec_gate);
    dut.m_axis_rec_steer(rec_steer);
    dut.m_axis_rec_steer_queue(rec_steer_queue);
    dut.m_axis_rec_steer_flow_id(rec_steer_flow_id);
    dut.m_axis_rec_steer_rc(rec_steer_rc);
    dut.m_axis_rec_rflow_valid(rec_rflow_valid);
    dut.m_axis_rec_rflow_queue(rec_rflow_queue);
    dut.m_axis_rec_rflow_slot(rec_rflow_slot);
    dut.m_axis_rec_tail(rec_tail);
    dut.m_axis_rec_tag(rec_tag);
    dut.m_drv_req_valid(req_valid);
    dut.m_drv_req_ready(req_ready);
    dut.m_drv_req_queue(req_queue);
    dut.m_drv_req_flow_id(req_flow_id);
    dut.m_drv_req_hash(req_hash);
    dut.m_drv_req_tag(req_tag);
    dut.m_drv_pre_valid(pre_valid);
    dut.m_drv_pre_tag(pre_tag);
    dut.m_drv_pre_queue(pre_queue);
    dut.s_drv_pre_own(pre_own);
    dut.s_drv_rsp_valid(drsp_valid);
    dut.s_drv_rsp_ready(drsp_ready);
    dut.s_drv_rsp_rc(drsp_rc);
    dut.s_drv_rsp_now(drsp_now);
    dut.s_drv_rsp_now_rc(drsp_now_rc);
    dut.s_drv_rsp_refuse(drsp_refuse);
    dut.m_flush(flush);
    dut.m_fin(fin);
    dut.cmd_valid(cmd_valid);
    dut.cmd_ready(cmd_ready);
    dut.cmd_op(cmd_op);
    dut.cmd_addr(cmd_addr);
    dut.cmd_data0(cmd_d0);
    dut.cmd_data1(cmd_d1);
    dut.rsp_valid(rsp_valid);
    dut.rsp_status(rsp_status);
    dut.rsp_data0(rsp_d0);
    dut.rsp_data1(rsp_d1);
    dut.stat_drv_stall(stat_drv_stall);
    dut.stat_cmd_stall(stat_cmd_stall);
    dut.stat_fwd(stat_fwd);
    dut.stat_hzd_stall(stat_hzd_stall);

    SC_THREAD(driver);
    SC_THREAD(responder);
    SC_THREAD(monitor);
    SC_METHOD(scoreboard);
    sensitive << clk.neg();
    dont_initialize();
  }

  bool passed() const { return done_ && rep_.error.empty(); }
  // how often each SetRpsCpuPath / GateRow value was expected (and matched, on a pass)
  void print_coverage() const {
    std::printf("sc_rfs_core: paths:");
    for (size_t p = 0; p < path_hist_.size(); ++p)
      std::printf(" %s %llu", flowsteer::kernel::path_name(flowsteer::kernel::SetRpsCpuPath(p)),
                  (unsigned long long)path_hist_[p]);
    std::printf("\nsc_rfs_core: gates:");
    for (size_t g = 0; g < gate_hist_.size(); ++g)
      std::printf(" %s %llu", flowsteer::kernel::gate_row_name(flowsteer::kernel::GateRow(g)),
                  (unsigned long long)gate_hist_[g]);
    std::printf("\nsc_rfs_core: driver calls answered with the request (s_drv_rsp_now): %llu, "
                "announced as refusals (s_drv_rsp_refuse): %llu\n",
                (unsigned long long)now_answers_, (unsigned long long)refused_answers_);
  }
  uint64_t commands() const { return n_cmds_acc_; }
  RunCfg cfg() const { return cfg_; }

 private:
  // ---------------------------------------------------------------- what the threads note
  struct Accepted {  // one handshake on the packet or the command port
    bool is_cmd = false;
    Cmd cmd;
    flowsteer::sim::common::rfs::RfsPkt pkt;
    uint32_t tag = 0;
  };
  struct DrvReq {
    uint32_t queue, flow_id, hash, tag;
    int rc;  // what the responder answers
    uint32_t pre_tag;  // the tag D last announced taking (m_drv_pre_tag): must be tag
  };
  struct Rsp {
    uint32_t status, d0, d1;
  };
  struct ExpRec {
    uint64_t event;
    Accepted in;
    RxDecision dec;
  };
  struct ExpRsp {
    uint64_t event;
    Cmd cmd;
    CmdExpect e;
  };

  // ---------------------------------------------------------------- driver
  void driver() {
    std::mt19937_64& rng = rng_drv_;
    rst.write(true);
    for (int i = 0; i < 6; ++i) wait(clk.posedge_event());
    rst.write(false);
    std::deque<Cmd> setup;
    for (const Cmd& c : stim_.setup()) setup.push_back(c);
    const size_t n_setup = setup.size();
    size_t setup_acc = 0;
    bool pkt_pend = false, cmd_pend = false, finishing = false;
    std::deque<Cmd> fin;
    flowsteer::sim::common::rfs::RfsPkt pkt;
    Cmd cmd;
    uint64_t pkts_issued = 0;
    for (;;) {
      wait(clk.posedge_event());
      // handshakes at this edge (at most one: the core holds packets off while cmd_valid)
      if (cmd_valid.read() && cmd_ready.read()) {
        Accepted a;
        a.is_cmd = true;
        a.cmd = cmd;
        in_.push_back(a);
        cmd_pend = false;
        if (setup_acc < n_setup) ++setup_acc;
      }
      if (pkt_valid.read() && pkt_ready.read()) {
        Accepted a;
        a.pkt = pkt;
        a.tag = pkt_tag.read();
        in_.push_back(a);
        pkt_pend = false;
      }
      // command lane: setup, then random commands, then the final reads
      if (!cmd_pend) {
        if (!setup.empty()) {
          cmd = setup.front();
          setup.pop_front();
          cmd_pend = true;
        } else if (setup_acc == n_setup && pkts_issued < opt_.packets &&
                   flowsteer::sim::systemc::chance(rng, opt_.cmd_rate)) {
          cmd = stim_.next_cmd(*ref_.k, steers_);
          cmd_pend = true;
        } else if (pkts_issued == opt_.packets && !pkt_pend && !finishing) {
          finishing = true;
          for (const Cmd& c : stim_.finish()) fin.push_back(c);
        }
        if (!cmd_pend && finishing && !fin.empty()) {
          cmd = fin.front();
          fin.pop_front();
          cmd_pend = true;
        }
      }
      // packet lane: starts when the setup is in, random idle gaps
      if (!pkt_pend && setup_acc == n_setup && pkts_issued < opt_.packets &&
          !flowsteer::sim::systemc::chance(rng, opt_.gap)) {
        pkt = stim_.next_pkt(*ref_.k);
        pkt_tag.write(uint32_t(pkts_issued++));
        pkt_pend = true;
      }
      pkt_valid.write(pkt_pend);
      if (pkt_pend) {
        pkt_hash.write(pkt.hash);
        pkt_queue.write(pkt.queue);
        pkt_steerable.write(pkt.steerable);
      } else {  // junk on an idle port
        pkt_hash.write(uint32_t(rng()));
        pkt_queue.write(uint32_t(rng() & 7));
        pkt_steerable.write(rng() & 1);
      }
      cmd_valid.write(cmd_pend);
      if (cmd_pend) {
        cmd_op.write(cmd.op);
        cmd_addr.write(cmd.addr);
        cmd_d0.write(cmd.d0);
        cmd_d1.write(cmd.d1);
      } else {
        cmd_op.write(uint32_t(rng() & 31));
        cmd_d0.write(uint32_t(rng()));
      }
      if (finishing && fin.empty() && !cmd_pend && !pkt_pend) stim_done_ = true;
    }
  }

  // ---------------------------------------------------------------- driver-port responder
  void responder() {
    std::mt19937_64& rng = rng_rsp_;
    struct Pending {
      int rc;
      uint64_t delay;
    };
    std::deque<Pending> pend;
    bool active = false;
    uint32_t d_tag = ~0u;  // the tag of the packet D holds, as D announced it
    for (;;) {
      wait(clk.posedge_event());
      if (rst.read()) continue;
      if (drsp_valid.read() && drsp_ready.read()) {
        active = false;
        pend.pop_front();
      }
      if (req_valid.read() && req_ready.read()) {
        DrvReq r{req_queue.read(), req_flow_id.read(), req_hash.read(), req_tag.read(), 0, d_tag};
        r.rc = rdrv_.answer(uint16_t(r.queue), r.flow_id, r.hash);
        reqs_.push_back(r);
        // answered with the request (drsp_now as offered): nothing pending
        if (!drsp_now.read()) pend.push_back({r.rc, opt_.rsp_delay ? rng() % (opt_.rsp_delay + 1) : 0});
        else ++now_answers_;
        if (drsp_refuse.read() && !pre_own.read()) ++refused_answers_;
      } else if (!active && !pend.empty() && pend.front().delay > 0) {
        --pend.front().delay;
      }
      if (pre_valid.read()) d_tag = pre_tag.read();
      req_ready.write(flowsteer::sim::systemc::chance(rng, opt_.req_ready));
      if (!active && !pend.empty() && pend.front().delay == 0) active = true;
      drsp_valid.write(active);
      drsp_rc.write(active ? uint32_t(pend.front().rc) : uint32_t(rng()));
      // the request D offers after this edge, answered with it at random: its answer is the
      // reference's (a copy answers it; the handshake asks the real one again)
      wait(SC_ZERO_TIME);
      const bool now = !active && pend.empty() && req_valid.read() &&
                       flowsteer::sim::systemc::chance(rng, 0.5);
      uint32_t now_rc = uint32_t(rng());
      if (now) {
        flowsteer::sim::common::rfs::RefDriver probe = rdrv_;
        now_rc = uint32_t(probe.answer(uint16_t(req_queue.read()), req_flow_id.read(), req_hash.read()));
      }
      // half the negative ones announced as refusals (s_drv_rsp_refuse, binding with
      // s_drv_pre_own low): D then finishes the call in the request's clock
      const bool refuse = now && int32_t(now_rc) < 0 && flowsteer::sim::systemc::chance(rng, 0.5);
      if (refuse) req_ready.write(true);
      drsp_refuse.write(refuse);
      pre_own.write(false);
      drsp_now.write(now);
      drsp_now_rc.write(now_rc);
    }
  }

  // ---------------------------------------------------------------- monitor
  void monitor() {
    std::mt19937_64& rng = rng_mon_;
    for (;;) {
      wait(clk.posedge_event());
      if (rst.read()) continue;
      // m_fin: one pulse per record, made into the output register (at most one held there)
      const bool rec_take = rec_valid.read() && rec_ready.read();
      if (fin.read()) ++fins_;
      if (rec_take) ++fin_taken_;
      if (fin_taken_ > fins_ || fins_ - fin_taken_ > 1)
        rep_.mismatch(event_, cycle_, "m_fin",
                      "records taken <= m_fin pulses <= records taken + 1",
                      std::to_string(fins_) + " pulses, " + std::to_string(fin_taken_) + " records taken");
      if (rec_take) {
        RecordFields r;
        r.tag = rec_tag.read();
        r.cpu_valid = rec_cpu_valid.read();
        r.cpu = rec_cpu.read();
        r.path = rec_path.read();
        r.gate = rec_gate.read();
        r.steer = rec_steer.read();
        r.steer_queue = rec_steer_queue.read();
        r.steer_flow_id = rec_steer_flow_id.read();
        r.steer_rc = rec_steer_rc.read();
        r.rflow_valid = rec_rflow_valid.read();
        r.rflow_queue = rec_rflow_queue.read();
        r.rflow_slot = rec_rflow_slot.read();
        r.tail = rec_tail.read();
        recs_.push_back(r);
      }
      if (rsp_valid.read()) rsps_.push_back({rsp_status.read(), rsp_d0.read(), rsp_d1.read()});
      rec_ready.write(flowsteer::sim::systemc::chance(rng, opt_.ready));
    }
  }

  // ---------------------------------------------------------------- scoreboard
  void scoreboard() {
    const uint64_t cyc = cycle_++;
    rep_.cycles = cycle_;
    if (!rep_.error.empty()) return;
    const bool progress = !in_.empty() || !reqs_.empty() || !recs_.empty() || !rsps_.empty();
    // 1. the accepted inputs of this clock, in handshake order, into the golden model
    if (in_.size() > 1) {
      rep_.mismatch(event_, cyc, "packet and command accepted in the same clock",
                    "one handshake per clock", fmt_cmd(in_.front().cmd));
      return;
    }
    for (const Accepted& a : in_) {
      if (a.is_cmd) {
        ExpRsp x{event_, a.cmd, ref_.apply(a.cmd)};
        if (!x.e.bench_error.empty()) {
          rep_.mismatch(event_, cyc, "bench error: " + x.e.bench_error, "-", fmt_cmd(a.cmd));
          return;
        }
        exp_rsp_.push_back(x);
        ++n_cmds_acc_;
      } else {
        if (rep_.first_in_cycle == ~uint64_t(0)) rep_.first_in_cycle = cyc;
        ExpRec x{event_, a, ref_.packet(a.pkt.hash, a.pkt.queue, a.pkt.steerable)};
        if (x.dec.steer.called && x.dec.steer.rc >= 0) {
          steers_.push_back({x.dec.steer.queue, x.dec.steer.flow_id, uint32_t(x.dec.steer.rc)});
          if (steers_.size() > 64) steers_.pop_front();
        }
        ++path_hist_[size_t(x.dec.path) & 7];
        ++gate_hist_[size_t(x.dec.gate) % 6];
        exp_rec_.push_back(x);
      }
      ++event_;
    }
    in_.clear();
    // 2. driver-port requests against the reference's ndo_rx_flow_steer calls, in order
    auto& calls = ref_.drv.calls;
    for (const DrvReq& r : reqs_) {
      const std::string act = "queue " + std::to_string(r.queue) + " flow_id " +
                              std::to_string(r.flow_id) + " hash " + hex(r.hash) + " rc " +
                              std::to_string(r.rc) + " (tag " + std::to_string(r.tag) + ")";
      if (call_ >= calls.size()) {
        rep_.mismatch(event_of_tag(r.tag), cyc, "driver request the reference did not make",
                      "no request; reference record " + expected_of_tag(r.tag), act);
        return;
      }
      if (r.pre_tag != r.tag) {
        rep_.mismatch(event_of_tag(r.tag), cyc, "driver request's tag against m_drv_pre_tag",
                      "tag " + std::to_string(r.pre_tag) + " (announced as D took it)", act);
        return;
      }
      const auto& c = calls[call_++];
      ++rep_.checked_requests;
      if (c.queue != r.queue || c.flow_id != r.flow_id || c.hash != r.hash || c.rc != r.rc) {
        rep_.mismatch(event_of_tag(r.tag), cyc, "driver request",
                      "queue " + std::to_string(c.queue) + " flow_id " +
                          std::to_string(c.flow_id) + " hash " + hex(c.hash) + " rc " +
                          std::to_string(c.rc) + "; reference record " + expected_of_tag(r.tag),
                      act);
        return;
      }
    }
    reqs_.clear();
    if (call_ == calls.size() && call_ > 4096) {  // keep the list short on long runs
      calls.clear();
      call_ = 0;
    }
    // 3. records, every field
    for (const RecordFields& r : recs_) {
      if (exp_rec_.empty()) {
        rep_.mismatch(event_, cyc, "record without an accepted packet", "no record",
                      fmt_record(r));
        return;
      }
      const ExpRec x = exp_rec_.front();
      exp_rec_.pop_front();
      const std::string d = flowsteer::sim::common::rfs::diff_record(r, x.dec, x.in.tag);
      ++rep_.checked_outputs;
      rep_.last_out_cycle = cyc;
      if (!d.empty()) {
        rep_.mismatch(x.event, cyc,
                      "record of packet tag " + std::to_string(x.in.tag) + " (hash " +
                          hex(x.in.pkt.hash) + " queue " + std::to_string(x.in.pkt.queue) +
                          " steerable " + std::to_string(x.in.pkt.steerable) + "):" + d,
                      fmt_record(expected_record(x.dec, x.in.tag), true), fmt_record(r));
        return;
      }
    }
    recs_.clear();
    // 4. command responses
    for (const Rsp& r : rsps_) {
      const std::string act = "status " + std::to_string(int32_t(r.status)) + " data0 " +
                              hex(r.d0) + " data1 " + hex(r.d1);
      if (exp_rsp_.empty()) {
        rep_.mismatch(event_, cyc, "command response without an accepted command", "none", act);
        return;
      }
      const ExpRsp x = exp_rsp_.front();
      exp_rsp_.pop_front();
      ++rep_.checked_cmds;
      const bool bad = int32_t(r.status) != x.e.status ||
                       (x.e.check_data && (r.d0 != x.e.data0 || r.d1 != x.e.data1));
      if (bad) {
        rep_.mismatch(x.event, cyc, "response to " + fmt_cmd(x.cmd),
                      "status " + std::to_string(x.e.status) +
                          (x.e.check_data ? " data0 " + hex(x.e.data0) + " data1 " +
                                                hex(x.e.data1)
                                          : std::string(" (data not checked)")),
                      act);
        return;
      }
    }
    rsps_.clear();
    // 5. done, or stuck
    if (progress) last_progress_ = cyc;
    if (stim_done_ && exp_rec_.empty() && exp_rsp_.empty() && call_ == calls.size()) {
      done_ = true;
      sc_stop();
      return;
    }
    if (cyc - last_progress_ > 100000) {
      rep_.mismatch(event_, cyc, "no progress for 100000 clocks",
                    std::to_string(exp_rec_.size()) + " records, " +
                        std::to_string(exp_rsp_.size()) + " responses, " +
                        std::to_string(calls.size() - call_) + " driver requests outstanding",
                    "nothing");
    }
  }

  std::string expected_of_tag(uint32_t tag) const {
    for (const ExpRec& x : exp_rec_)
      if (x.in.tag == tag) return fmt_record(expected_record(x.dec, x.in.tag), true);
    return "(none: tag " + std::to_string(tag) + " not outstanding)";
  }
  uint64_t event_of_tag(uint32_t tag) const {
    for (const ExpRec& x : exp_rec_)
      if (x.in.tag == tag) return x.event;
    return event_;
  }

  Options opt_;
  flowsteer::sim::systemc::RunReport& rep_;
  RunCfg cfg_;
  flowsteer::sim::common::rfs::RegRef ref_;        // golden model + reference driver
  flowsteer::sim::common::rfs::RefDriver rdrv_;    // the driver port's answers
  flowsteer::sim::common::rfs::RfsStim stim_;
  std::mt19937_64 rng_drv_, rng_rsp_, rng_mon_;
  // inbox of one clock (threads at the rising edge -> scoreboard at the falling edge)
  std::vector<Accepted> in_;
  std::vector<DrvReq> reqs_;
  std::vector<RecordFields> recs_;
  uint64_t fins_ = 0, fin_taken_ = 0;  // m_fin pulses, records taken
  std::vector<Rsp> rsps_;
  // expectations in order
  std::deque<ExpRec> exp_rec_;
  std::deque<ExpRsp> exp_rsp_;
  std::deque<flowsteer::sim::common::rfs::SteerRef> steers_;
  size_t call_ = 0;
  std::array<uint64_t, 8> path_hist_{};
  std::array<uint64_t, 6> gate_hist_{};
  uint64_t cycle_ = 0, event_ = 0, n_cmds_acc_ = 0, last_progress_ = 0;
  uint64_t now_answers_ = 0;  // driver calls answered with the request
  uint64_t refused_answers_ = 0;  // ... announced as refusals, D finished with the request
  bool stim_done_ = false, done_ = false;
};

}  // namespace

int sc_main(int argc, char** argv) {
  // sc_stop's "Simulation stopped by user" note is the normal end here
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  Options o;
  flowsteer::sim::systemc::ArgParser ap("sc_rfs_core");
  ap.add("packets", &o.packets, "random packets");
  ap.add("seed", &o.seed, "stimulus seed (also selects variant, slot mode, nr_cpu_ids)");
  ap.add("trace", &o.trace, "FST trace file (or env FS_SC_TRACE)");
  ap.add("gap", &o.gap, "probability of an idle clock on the packet port");
  ap.add("ready", &o.ready, "m_axis_rec_tready probability");
  ap.add("req-ready", &o.req_ready, "m_drv_req_ready probability");
  ap.add("rsp-delay", &o.rsp_delay, "driver response delay 0..N clocks");
  ap.add("cmd-rate", &o.cmd_rate,
         "probability per clock of a new random command (< 0: 0.05 odd seeds, 0.15 even: churn)");
  if (!ap.parse(argc, argv)) return ap.help_requested() ? 0 : 2;
  if (o.cmd_rate < 0) o.cmd_rate = o.seed % 2 ? 0.05 : 0.15;
  if (o.trace.empty())
    if (const char* e = std::getenv("FS_SC_TRACE")) o.trace = e;

  std::ostringstream rerun;
  rerun << argv[0] << " --packets " << o.packets << " --seed " << o.seed << " --gap " << o.gap
        << " --ready " << o.ready << " --req-ready " << o.req_ready << " --rsp-delay "
        << o.rsp_delay << " --cmd-rate " << o.cmd_rate;
  flowsteer::sim::systemc::RunReport rep("sc_rfs_core", o.seed, rerun.str());

  Verilated::commandArgs(argc, argv);
  Verilated::randReset(2);  // random register init (--x-initial unique)
  Verilated::randSeed(int(o.seed & 0x7fffffff));
  if (!o.trace.empty()) Verilated::traceEverOn(true);

  sc_clock clk("clk", 10, SC_NS);
  RfsBench bench("bench", o, rep);
  bench.clk(clk);

  std::unique_ptr<VerilatedFstSc> fst;
  sc_start(SC_ZERO_TIME);  // elaborate before tracing
  if (!o.trace.empty()) {
    fst = std::make_unique<VerilatedFstSc>();
    bench.dut.trace(fst.get(), 99);
    fst->open(o.trace.c_str());
  }
  const RunCfg c = bench.cfg();
  std::printf("sc_rfs_core: seed %llu, %llu packets, %s, %s slots, nr_cpu_ids %u%s%s\n",
              (unsigned long long)o.seed, (unsigned long long)o.packets,
              flowsteer::kernel::variant_name(c.v), flowsteer::kernel::slot_mode_name(c.m), c.nr,
              o.trace.empty() ? "" : ", trace ", o.trace.c_str());
  rep.start_wall();
  sc_start();
  rep.stop_wall();
  if (fst) fst->close();
  bench.dut.final();

  rep.summary("packet", "packets");
  bench.print_coverage();
  std::printf("sc_rfs_core: %llu commands; DUT stats: %u forwarded views, %u driver-stall, "
              "%u command-stall clocks\n",
              (unsigned long long)bench.commands(), bench.stat_fwd.read(),
              bench.stat_drv_stall.read(), bench.stat_cmd_stall.read());
  if (!bench.passed()) {
    if (rep.error.empty()) std::fprintf(stderr, "sc_rfs_core: FAIL: stopped before the end\n");
    std::printf("sc_rfs_core: FAIL\n");
    return 1;
  }
  std::printf("sc_rfs_core: PASS\n");
  return 0;
}
