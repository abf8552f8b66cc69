// The Verilator harness of fs_engine_top: one implementation templated over the Verilated
// class, so the standard and the small build share every line of the bus logic.
#include "engine_sim.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "Vvfs_engine_top.h"
#include "Vvfs_engine_top___024root.h"
#include "Vvfs_engine_top_small.h"
#include "Vvfs_engine_top_small___024root.h"
#include "flowsteer/flowsteer_regs.h"

#ifndef VFS_ENGINE_TOP_RPS_POOL_LOG2
#error "vfs_engine_top must export VFS_ENGINE_TOP_RPS_POOL_LOG2 (sim/CMakeLists.txt, hw/params.json)"
#endif
#ifndef VFS_ENGINE_TOP_SMALL_RPS_POOL_LOG2
#error "vfs_engine_top_small must export VFS_ENGINE_TOP_SMALL_RPS_POOL_LOG2 (sim/CMakeLists.txt, hw/params.json)"
#endif

namespace flowsteer::sim {

namespace r = flowsteer::regs;
using bus::AxiResp;

namespace {

// Frame bytes into one beat: byte k of the beat in tdata bits 8k+7..8k (AXI4-Stream lanes).
template <std::size_t N>
void put_beat(VlWide<N>& port, const uint8_t* bytes, size_t n) {
  for (size_t w = 0; w < N; ++w) {
    uint32_t v = 0;
    for (size_t b = 0; b < 4; ++b)
      if (w * 4 + b < n) v |= uint32_t(bytes[w * 4 + b]) << (8 * b);
    port[w] = v;
  }
}
inline void put_beat(QData& port, const uint8_t* bytes, size_t n) {
  QData v = 0;
  for (size_t b = 0; b < n && b < 8; ++b) v |= QData(bytes[b]) << (8 * b);
  port = v;
}
template <std::size_t N>
constexpr size_t beat_bytes(const VlWide<N>*) { return N * 4; }
constexpr size_t beat_bytes(const QData*) { return 8; }

template <std::size_t N>
uint32_t rec_word(const VlWide<N>& port, size_t w) { return port[w]; }

struct PendingFrame {
  std::vector<uint8_t> bytes;
  uint16_t user = 0;
};

// What a transaction in progress still waits for.
struct AxilState {
  bool active = false, write = false;
  bool addr_done = false, data_done = false;
  AxilTransaction t;
};

}  // namespace

// The part the public class sees; one derived template per Verilated class.
struct EngineSim::Impl {
  virtual ~Impl() = default;
  virtual void tick() = 0;
  virtual unsigned rps_pool_log2() const = 0;
  virtual void pulse_reset() = 0;

  EngineSimOptions opt;
  std::mt19937_64 rng;
  std::uniform_real_distribution<double> unit{0.0, 1.0};
  std::deque<PendingFrame> frames;     // [0] is on the bus
  size_t beat_offset = 0;              // bytes of frames[0] already accepted
  bool beat_valid = false;             // tvalid held until accepted (AXI4-Stream rule)
  std::deque<EngineRecord> records;
  std::deque<uint64_t> accept_clocks;  // per accepted frame, until its record arrives
  TransactionLog transactions;
  AxilState axil;
  uint64_t clocks = 0, frames_accepted = 0, rec_stalls = 0;
  engine::EngineCaps caps;
  // pipeline probe: clocks since the last packet (beat) not yet committed to the window
  PipeProbe probe;
  bool probe_open = false, beat_open = false;
  bool sock_pre_prev = false;
  std::array<uint64_t, size_t(GateLoss::kCount)> probe_pending{};
  uint64_t beat_pending = 0;
  uint64_t probe_txn_pending = 0;  // transactions answered since the last packet through the gate
  uint32_t inflight_max = 1;  // 2^TAG_LOG2

  void probe_clock(bool pass, GateLoss why, bool beat) {
    if (pass) {
      if (probe_open) {
        for (size_t i = 0; i < probe_pending.size(); ++i) {
          probe.lost[i] += probe_pending[i];
          probe.clocks += probe_pending[i];
        }
      }
      probe_pending.fill(0);
      if (probe_open) probe.transactions += probe_txn_pending;
      probe_txn_pending = 0;
      probe_open = true;
      ++probe.packets;
      ++probe.clocks;
    } else if (probe_open) {
      ++probe_pending[size_t(why)];
    }
    if (beat) {
      if (beat_open) probe.beat_clocks += beat_pending;
      beat_pending = 0;
      beat_open = true;
      ++probe.beats;
      ++probe.beat_clocks;
    } else if (beat_open) {
      ++beat_pending;
    }
  }
  void probe_reset() {
    probe = PipeProbe{};
    probe_open = beat_open = false;
    probe_pending.fill(0);
    beat_pending = 0;
    probe_txn_pending = 0;
  }

  bool draw(double p) { return p >= 1.0 ? true : p <= 0.0 ? false : unit(rng) < p; }
  [[noreturn]] void timeout(const std::string& what) const {
    throw std::runtime_error("engine sim: " + what + " did not finish within " +
                             std::to_string(opt.max_wait_clocks) + " clocks (clock " +
                             std::to_string(clocks) + ")");
  }
};

template <class Model>
struct EngineSim::ModelImpl final : EngineSim::Impl {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Model> m;
  std::unique_ptr<VerilatedFstC> fst;
  unsigned pool_log2;
  using Data = std::remove_reference_t<decltype(Model::s_axis_tdata)>;
  using Keep = std::remove_reference_t<decltype(Model::s_axis_tkeep)>;
  static constexpr size_t kBeat = beat_bytes(static_cast<const Data*>(nullptr));

  ModelImpl(const EngineSimOptions& o, unsigned pool) : pool_log2(pool) {
    opt = o;
    rng.seed(o.seed);
    ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);  // pairs with --x-initial unique: reset must not depend on X
    ctx->randSeed(int(o.seed & 0x7fffffff));
    std::string trace = o.trace_path;
    if (trace.empty())
      if (const char* env = std::getenv("FS_ENGINE_TRACE")) trace = env;
    if (!trace.empty()) ctx->traceEverOn(true);
    m = std::make_unique<Model>(ctx.get(), "engine");
    if (!trace.empty()) {
      fst = std::make_unique<VerilatedFstC>();
      m->trace(fst.get(), 99);
      fst->open(trace.c_str());
      if (!fst->isOpen()) throw std::runtime_error("engine sim: cannot write trace '" + trace + "'");
    }
    idle_inputs();
    m->rst = 1;
    for (int i = 0; i < 8; ++i) tick();
    m->rst = 0;
  }
  ~ModelImpl() override {
    // Verilator erases a model's scopes from the thread's current context, which is the one
    // made last: make it this one, or a second engine (made or dropped since) breaks the erase
    Verilated::threadContextp(ctx.get());
    m->final();
    if (fst) fst->close();
    fst.reset();
    m.reset();
  }
  unsigned rps_pool_log2() const override { return pool_log2; }
  void pulse_reset() override {
    m->rst = 1;
    for (int i = 0; i < 8; ++i) tick();
    m->rst = 0;
  }

  void idle_inputs() {
    m->clk = 0;
    m->s_axil_awvalid = 0;
    m->s_axil_wvalid = 0;
    m->s_axil_bready = 0;
    m->s_axil_arvalid = 0;
    m->s_axil_rready = 0;
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    m->s_axis_tvalid = 0;
    m->s_axis_tlast = 0;
    m->m_axis_rec_tready = 0;
  }

  // Drives the frame source for the coming clock.
  void drive_stream() {
    if (!beat_valid && !frames.empty() && !m->rst)
      beat_valid = !draw(opt.frame_gap);
    m->s_axis_tvalid = beat_valid;
    if (!beat_valid) return;
    const PendingFrame& f = frames.front();
    const size_t n = std::min(kBeat, f.bytes.size() - beat_offset);
    put_beat(m->s_axis_tdata, f.bytes.data() + beat_offset, n);
    const bool last = beat_offset + n >= f.bytes.size();
    m->s_axis_tkeep = n >= kBeat ? Keep(~Keep(0)) : Keep((Keep(1) << n) - 1);
    m->s_axis_tlast = last;
    m->s_axis_tuser = f.user;
  }

  void drive_axil() {
    AxilState& a = axil;
    m->s_axil_awvalid = a.active && a.write && !a.addr_done;
    m->s_axil_wvalid = a.active && a.write && !a.data_done;
    m->s_axil_arvalid = a.active && !a.write && !a.addr_done;
    m->s_axil_bready = a.active && a.write;
    m->s_axil_rready = a.active && !a.write;
    m->s_axil_awaddr = uint16_t(a.t.offset);
    m->s_axil_araddr = uint16_t(a.t.offset);
    m->s_axil_wdata = a.t.data;
    m->s_axil_wstrb = a.t.strb;
  }

  void tick() override {
    if (!m->rst) {
      drive_stream();
      drive_axil();
      m->m_axis_rec_tready = draw(opt.rec_ready);
    }
    m->clk = 0;  // falling edge: settles ready/valid for this clock's inputs
    m->eval();
    if (fst) fst->dump(ctx->time());
    ctx->timeInc(5);
    const bool beat_fire = m->s_axis_tvalid && m->s_axis_tready;
    const bool beat_last = beat_fire && m->s_axis_tlast;
    const bool gate_pass = root()->fs_engine_top__DOT__gate_pass;
    probe_clock(gate_pass, gate_loss(), beat_fire);
    if (root()->fs_engine_top__DOT__m_load && root()->fs_engine_top__DOT__fw_load_patch) ++probe.load_patches;
    if (root()->fs_engine_top__DOT__fw_patch) ++probe.filter_patches;
    if (root()->fs_engine_top__DOT__rfs_flush) ++probe.flushes;
    if (root()->fs_engine_top__DOT__drv_fire && root()->fs_engine_top__DOT__dt_steerable)
      ++(root()->fs_engine_top__DOT__cfg_flt_lookup ? probe.drv_given : probe.drv_looked_up);
    if (root()->fs_engine_top__DOT__drv_fire && root()->fs_engine_top__DOT__rs_refuse &&
        !root()->fs_engine_top__DOT__drv_own_reg)
      ++probe.drv_refused;
    {
      const auto* t = root();
      const bool pre = t->fs_engine_top__DOT__rfs__DOT__pre_left_reg != 0;
      const bool wb = t->fs_engine_top__DOT__rfs__DOT__wb_valid_reg;
      if (pre && !sock_pre_prev) {
        // the clock after the take: the command's kind is registered
        if (t->fs_engine_top__DOT__rfs__DOT__cmd_sock_reg) {
          ++probe.sock_early;
        } else {
          ++probe.head_add_early;
        }
      }
      sock_pre_prev = pre;
      if (wb && t->fs_engine_top__DOT__rfs__DOT__b_wbhit_reg && t->fs_engine_top__DOT__rfs__DOT__b_valid_reg)
        ++probe.sock_forwards;
      if (pre && t->fs_engine_top__DOT__rfs_flush) {
        if (t->fs_engine_top__DOT__rfs__DOT__cmd_sock_reg) {
          ++probe.sock_replays;
        } else {
          ++probe.head_add_replays;
        }
      }
    }
    if (root()->fs_engine_top__DOT__place_start) ++probe.placed_transactions;
    if (root()->fs_engine_top__DOT__place_start && root()->fs_engine_top__DOT__ord_rec &&
        root()->fs_engine_top__DOT__inflight != 0)
      ++probe.rec_transactions;
    if (root()->fs_engine_top__DOT__place_start && root()->fs_engine_top__DOT__ord_drv &&
        root()->fs_engine_top__DOT__inflight != 0)
      ++probe.drv_transactions;
    if (root()->fs_engine_top__DOT__rq_valid && root()->fs_engine_top__DOT__drv_hold) ++probe.drv_held;
    const bool rec_fire = m->m_axis_rec_tvalid && m->m_axis_rec_tready;
    if (m->m_axis_rec_tvalid && !m->m_axis_rec_tready) ++rec_stalls;
    if (rec_fire) records.push_back(decode_record());
    AxilState& a = axil;
    const bool aw_fire = m->s_axil_awvalid && m->s_axil_awready;
    const bool w_fire = m->s_axil_wvalid && m->s_axil_wready;
    const bool ar_fire = m->s_axil_arvalid && m->s_axil_arready;
    const bool b_fire = m->s_axil_bvalid && m->s_axil_bready;
    const bool r_fire = m->s_axil_rvalid && m->s_axil_rready;
    uint32_t rdata = m->s_axil_rdata;
    uint8_t resp = b_fire ? m->s_axil_bresp : m->s_axil_rresp;

    m->clk = 1;  // rising edge
    m->eval();
    if (fst) fst->dump(ctx->time());
    ctx->timeInc(5);
    ++clocks;

    if (beat_fire) {
      beat_valid = false;
      beat_offset += std::min(kBeat, frames.front().bytes.size() - beat_offset);
      if (beat_last) {
        frames.pop_front();
        beat_offset = 0;
        ++frames_accepted;
        accept_clocks.push_back(clocks);
      }
    }
    if (a.active) {
      if (aw_fire || ar_fire) a.addr_done = true;
      if (w_fire) a.data_done = true;
      if ((a.write && b_fire) || (!a.write && r_fire)) {
        a.t.resp = resp == 0 ? AxiResp::kOkay : AxiResp::kSlvErr;
        if (resp != 0 && resp != 2)
          throw std::runtime_error("engine sim: AXI4-Lite response code " + std::to_string(resp) +
                                   " (only OKAY and SLVERR are defined), clock " + std::to_string(clocks));
        if (!a.write) a.t.data = rdata;
        a.t.clock = clocks;
        transactions.push_back(a.t);
        if (probe_open) ++probe_txn_pending;
        a.active = false;
      }
    }
  }

  auto* root() const { return m->rootp; }
  // The first blocked stage downstream of the order gate (signals marked public_flat_rd in
  // hw/rtl/fs_engine_top.sv), valid after the falling-edge eval.
  GateLoss gate_loss() const {
    const auto* t = root();
    if (!t->fs_engine_top__DOT__cfg_enable) return GateLoss::kDisabled;
    if (t->fs_engine_top__DOT__ord_hold) return GateLoss::kTransaction;
    if (!t->fs_engine_top__DOT__q_valid) return GateLoss::kIdle;
    if (t->fs_engine_top__DOT__inflight >= inflight_max) return GateLoss::kTags;
    if (t->fs_engine_top__DOT__rp_busy_reg) return GateLoss::kReplay;
    if (t->fs_engine_top__DOT__m_valid_reg && t->fs_engine_top__DOT__m_seq_wait) return GateLoss::kTransaction;
    if (t->fs_engine_top__DOT__m_valid_reg &&
        !(t->fs_engine_top__DOT__m_go && t->fs_engine_top__DOT__rfs_in_ready)) {
      if (t->fs_engine_top__DOT__fw_scan) return GateLoss::kFwdScan;
      // a call waiting for an event-FIFO transaction ordered before it (drv_hold)
      if (t->fs_engine_top__DOT__rq_valid && t->fs_engine_top__DOT__drv_hold) return GateLoss::kTransaction;
      return t->fs_engine_top__DOT__rq_valid || t->fs_engine_top__DOT__drv_busy ? GateLoss::kSteer
                                                                                  : GateLoss::kRfsStall;
    }
    const bool g_valid = t->fs_engine_top__DOT__g_valid;
    if (g_valid && !t->fs_engine_top__DOT__fw_lk_room) return GateLoss::kFwdWindow;
    if (g_valid && !t->fs_engine_top__DOT__lk_open) return GateLoss::kLookup;
    if (t->fs_engine_top__DOT__r1_valid_reg && !t->fs_engine_top__DOT__out_ready) return GateLoss::kRecordSink;
    return GateLoss::kRefill;
  }

  EngineRecord decode_record() {
    uint32_t w[regs::REC::kWords];
    for (size_t i = 0; i < regs::REC::kWords; ++i) w[i] = rec_word(m->m_axis_rec_tdata, i);
    EngineRecord e = common::decode_engine_record(w);
    e.clock = clocks + 1;  // taken at the coming edge
    if (!accept_clocks.empty()) {
      e.accepted_clock = accept_clocks.front();
      accept_clocks.pop_front();
    }
    return e;
  }
};

EngineSim::EngineSim(const EngineSimOptions& opt) {
  if (opt.build == EngineBuild::kStandard)
    impl_ = std::make_unique<ModelImpl<Vvfs_engine_top>>(opt, VFS_ENGINE_TOP_RPS_POOL_LOG2);
  else
    impl_ = std::make_unique<ModelImpl<Vvfs_engine_top_small>>(opt, VFS_ENGINE_TOP_SMALL_RPS_POOL_LOG2);
  impl_->inflight_max = 1u << (opt.build == EngineBuild::kStandard ? VFS_ENGINE_TOP_TAG_LOG2 : VFS_ENGINE_TOP_SMALL_TAG_LOG2);
  uint32_t c0 = 0, c1 = 0;
  if (read(r::CAPS0::kAddr, c0) != AxiResp::kOkay || read(r::CAPS1::kAddr, c1) != AxiResp::kOkay)
    throw std::runtime_error("engine sim: CAPS0/CAPS1 answered SLVERR");
  engine::EngineCaps& c = impl_->caps;
  c.lut_log2 = r::CAPS0::LUT_LOG2.get(c0);
  c.cpu_log2 = r::CAPS0::CPU_LOG2.get(c0);
  c.queue_log2 = r::CAPS0::QUEUE_LOG2.get(c0);
  c.slot_log2 = r::CAPS0::SLOT_LOG2.get(c0);
  c.flt_bucket_bits = r::CAPS1::FLT_BUCKET_BITS.get(c1);
  c.flt_ways = r::CAPS1::FLT_WAYS.get(c1);
  c.flt_id_width = r::CAPS1::FLT_ID_WIDTH.get(c1);
  c.sock_log2 = r::CAPS1::SOCK_LOG2.get(c1);
  c.evt_log2 = r::CAPS1::EVT_LOG2.get(c1);
  c.rps_pool_log2 = impl_->rps_pool_log2();
}

EngineSim::~EngineSim() = default;

namespace {
std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%04x", v);
  return b;
}
}  // namespace

AxiResp EngineSim::read(uint32_t offset, uint32_t& value) {
  Impl& s = *impl_;
  s.axil = AxilState{};
  s.axil.active = true;
  s.axil.t.write = false;
  s.axil.t.offset = offset;
  s.axil.t.strb = 0;
  for (uint64_t n = 0; s.axil.active; ++n) {
    if (n > s.opt.max_wait_clocks) s.timeout("read of " + hex32(offset));
    s.tick();
  }
  value = s.transactions.back().data;
  return s.transactions.back().resp;
}

AxiResp EngineSim::write(uint32_t offset, uint32_t value, uint8_t strb) {
  Impl& s = *impl_;
  s.axil = AxilState{};
  s.axil.active = true;
  s.axil.write = true;
  s.axil.t.write = true;
  s.axil.t.offset = offset;
  s.axil.t.data = value;
  s.axil.t.strb = strb;
  for (uint64_t n = 0; s.axil.active; ++n) {
    if (n > s.opt.max_wait_clocks) s.timeout("write of " + hex32(offset));
    s.tick();
  }
  return s.transactions.back().resp;
}

void EngineSim::send_frame(const uint8_t* data, size_t len, uint16_t user) {
  if (len == 0) throw std::invalid_argument("engine sim: a frame needs at least one byte");
  impl_->frames.push_back(PendingFrame{std::vector<uint8_t>(data, data + len), user});
}

size_t EngineSim::frames_pending() const { return impl_->frames.size(); }

bool EngineSim::pop_record(EngineRecord& r) {
  if (impl_->records.empty()) return false;
  r = impl_->records.front();
  impl_->records.pop_front();
  return true;
}

size_t EngineSim::records_pending() const { return impl_->records.size(); }

void EngineSim::reset() {
  if (!impl_->frames.empty() || !impl_->accept_clocks.empty())
    throw std::logic_error("engine sim: reset with frames in flight");
  impl_->pulse_reset();
}

void EngineSim::step(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) impl_->tick();
}

void EngineSim::drain() {
  Impl& s = *impl_;
  // every accepted frame has an entry in accept_clocks until its record arrives
  for (uint64_t n = 0; !s.frames.empty() || !s.accept_clocks.empty(); ++n) {
    if (n > s.opt.max_wait_clocks)
      s.timeout("drain (" + std::to_string(s.frames.size()) + " frames not accepted, " +
                std::to_string(s.accept_clocks.size()) + " records missing)");
    s.tick();
  }
}

const TransactionLog& EngineSim::transactions() const { return impl_->transactions; }
void EngineSim::forget_transactions_before(size_t index) { impl_->transactions.forget_before(index); }
void EngineSim::probe_start() { impl_->probe_reset(); }
const PipeProbe& EngineSim::probe() const { return impl_->probe; }

const char* gate_loss_name(GateLoss l) {
  switch (l) {
    case GateLoss::kIdle: return "idle";
    case GateLoss::kDisabled: return "disabled";
    case GateLoss::kTransaction: return "transaction";
    case GateLoss::kTags: return "tags";
    case GateLoss::kReplay: return "replay";
    case GateLoss::kFwdScan: return "fwd_scan";
    case GateLoss::kFwdWindow: return "fwd_window";
    case GateLoss::kSteer: return "steer";
    case GateLoss::kRfsStall: return "rfs_stall";
    case GateLoss::kLookup: return "lookup";
    case GateLoss::kRecordSink: return "record_sink";
    case GateLoss::kRefill: return "refill";
    case GateLoss::kCount: break;
  }
  return "?";
}

uint64_t EngineSim::clocks() const { return impl_->clocks; }
uint64_t EngineSim::frames_accepted() const { return impl_->frames_accepted; }
engine::EngineCaps EngineSim::caps() const { return impl_->caps; }
void EngineSim::set_rec_ready(double p) { impl_->opt.rec_ready = p; }
void EngineSim::set_frame_gap(double p) { impl_->opt.frame_gap = p; }
uint64_t EngineSim::rec_stall_clocks() const { return impl_->rec_stalls; }
uint64_t EngineSim::seed() const { return impl_->opt.seed; }

}  // namespace flowsteer::sim
