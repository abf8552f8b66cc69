// A stand-in for the Verilated fs_engine_top with the same ports, built on the golden model:
// the self-test of the SystemC bench (sc_engine_top_selftest). It keeps the contract of
// docs/engine-top.md the simple way: a frame takes its place in the total order when its last
// beat is accepted (the "order gate"), a register transaction executes when AW+W (or AR) are
// held, nothing is in flight and the response channel is free, and frames wait while a
// transaction is pending or CTRL.ENABLE is 0. Records come out 20..27 clocks later through an
// 8-entry FIFO with back-pressure. The bench must pass against it for every seed: a failure
// here is a bench (stimulus, threads, checker) bug, not an RTL one.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "engine_record.h"
#include "flowsteer/engine/engine_regs.h"

namespace flowsteer::sim::systemc {

SC_MODULE(EngineModelDut) {
  sc_in<bool> clk, rst;
  sc_in<uint32_t> s_axil_awaddr, s_axil_awprot, s_axil_wdata, s_axil_wstrb, s_axil_araddr,
      s_axil_arprot;
  sc_in<bool> s_axil_awvalid, s_axil_wvalid, s_axil_bready, s_axil_arvalid, s_axil_rready;
  sc_out<bool> s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
  sc_out<uint32_t> s_axil_bresp, s_axil_rdata, s_axil_rresp;
  sc_in<sc_bv<512>> s_axis_tdata;
  sc_in<uint64_t> s_axis_tkeep;
  sc_in<bool> s_axis_tvalid, s_axis_tlast, m_axis_rec_tready;
  sc_out<bool> s_axis_tready, m_axis_rec_tvalid;
  sc_in<uint32_t> s_axis_tuser;
  sc_out<sc_bv<256>> m_axis_rec_tdata;

  SC_HAS_PROCESS(EngineModelDut);
  EngineModelDut(sc_module_name n, const flowsteer::engine::EngineCaps& caps, uint64_t seed)
      : sc_module(n), m_(caps), rng_(uint32_t(seed * 7 + 1)) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  template <class T>
  void trace(T*, int) {}
  void final() {}

 private:
  void tick() {
    ++now_;
    if (rst.read()) {
      aw_ = w_ = ar_ = bv_ = rv_ = false;
      pipe_.clear();
      fifo_.clear();
      cur_.clear();
      drive();
      return;
    }
    // handshakes of this edge (the values before it)
    if (s_axil_awvalid.read() && s_axil_awready.read()) aw_ = true, awa_ = s_axil_awaddr.read();
    if (s_axil_wvalid.read() && s_axil_wready.read())
      w_ = true, wd_ = s_axil_wdata.read(), ws_ = s_axil_wstrb.read();
    if (s_axil_arvalid.read() && s_axil_arready.read()) ar_ = true, ara_ = s_axil_araddr.read();
    if (bv_ && s_axil_bready.read()) bv_ = false;
    if (rv_ && s_axil_rready.read()) rv_ = false;
    if (m_axis_rec_tvalid.read() && m_axis_rec_tready.read()) fifo_.pop_front();
    if (s_axis_tvalid.read() && s_axis_tready.read()) beat();
    while (!pipe_.empty() && pipe_.front().first <= now_ && fifo_.size() < 8) {
      fifo_.push_back(pipe_.front().second);
      pipe_.pop_front();
    }
    // a transaction runs when nothing is in flight
    if (!bv_ && !rv_ && pipe_.empty()) {  // (a frame not complete has no place yet)
      if (aw_ && w_) {
        resp_ = uint32_t(m_.write(awa_, wd_, uint8_t(ws_)));
        aw_ = w_ = false;
        bv_ = true;
        ++seq_;
      } else if (ar_) {
        resp_ = uint32_t(m_.read(ara_, rd_));
        ar_ = false;
        rv_ = true;
        ++seq_;
      }
    }
    drive();
  }

  void beat() {
    const sc_bv<512> d = s_axis_tdata.read();
    const uint64_t k = s_axis_tkeep.read();
    for (int i = 0; i < 64; ++i)
      if ((k >> i) & 1) cur_.push_back(uint8_t(d.get_word(i / 4) >> (8 * (i % 4))));
    if (!s_axis_tlast.read()) return;
    const auto o = m_.packet(cur_.data(), cur_.size());  // enabled: frames wait otherwise
    flowsteer::sim::common::EngineRecord e =
        flowsteer::sim::common::expected_engine_record(*o, m_.model().last_decision(),
                                               uint16_t(s_axis_tuser.read() & 0xFFFF));
    e.cmd_seq = uint32_t(seq_);
    uint32_t w[flowsteer::regs::REC::kWords];
    flowsteer::sim::common::encode_engine_record(e, w);
    sc_bv<256> r;
    for (uint32_t i = 0; i < flowsteer::regs::REC::kWords; ++i) r.set_word(int(i), w[i]);
    pipe_.push_back({now_ + 20 + rng_() % 8, r});
    cur_.clear();
  }

  void drive() {
    s_axil_awready.write(!aw_);
    s_axil_wready.write(!w_);
    s_axil_arready.write(!ar_ && !aw_);
    s_axil_bvalid.write(bv_);
    s_axil_bresp.write(resp_);
    s_axil_rvalid.write(rv_);
    s_axil_rdata.write(rd_);
    s_axil_rresp.write(resp_);
    uint32_t ctrl = 0;
    m_.read(0x10, ctrl);  // CTRL
    const bool pending = (aw_ && w_) || ar_;
    s_axis_tready.write((ctrl & 1) && !pending && pipe_.size() + fifo_.size() < 16);
    m_axis_rec_tvalid.write(!fifo_.empty());
    if (!fifo_.empty()) m_axis_rec_tdata.write(fifo_.front());
  }

  flowsteer::engine::EngineRegisterFile m_;
  std::mt19937 rng_;
  bool aw_ = false, w_ = false, ar_ = false, bv_ = false, rv_ = false;
  uint32_t awa_ = 0, wd_ = 0, ws_ = 0, ara_ = 0, rd_ = 0, resp_ = 0;
  std::vector<uint8_t> cur_;
  std::deque<std::pair<uint64_t, sc_bv<256>>> pipe_;
  std::deque<sc_bv<256>> fifo_;
  uint64_t now_ = 0, seq_ = 0;
};

}  // namespace flowsteer::sim::systemc
