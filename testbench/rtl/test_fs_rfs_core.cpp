// fs_rfs_core (the engine's kernel plane) against flowsteer::kernel::Kernel, packet by packet
// and command by command, in one total order. The reference runs first (the same way
// EngineModel drives it: every skb has a recorded RX queue, the engine is the driver); its
// ndo_rx_flow_steer calls are recorded, and the RTL's driver port is answered from that list
// in order (the test checks queue, flow_id and hash of every request). So both see the same
// driver (a deterministic id allocator with sticky ids per hash and error injection).
// Models (hw/params.json fs_rfs_core sets "test" and "odd"): vfs_rfs_core NUM_CPUS=16, NUM_QUEUES=8, SLOT_LOG2_MAX=6,
// SOCK_LOG2_MAX=8, RPS_POOL_LOG2=8; vfs_rfs_core_odd 12 CPUs, 6 queues (not powers of two).
// Every run drives random input gaps / record back-pressure / driver latency per a Timing, and
// fails with its label and seed. Coverage of every SetRpsCpuPath and GateRow value is asserted
// over the random mixes (each test is its own process under ctest).
// Env: FS_RFS_TRACE=file.fst dumps an FST trace (each RTL run of the process overwrites it);
// FS_RFS_SEEDS=N runs N random-mix seeds instead of 16 (soak).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vvfs_rfs_core.h"
#include "Vvfs_rfs_core_odd.h"
#include "flowsteer/kernel/kernel.h"
#include "rfs_ref.h"
#include "rfs_stim.h"
#include "rtl_sim.h"
#if FS_MODEL_HAS_TRACE
#include <verilated_fst_c.h>
#endif

namespace {

using flowsteer::kernel::GateRow;
using flowsteer::kernel::Kernel;
using flowsteer::kernel::KernelConfig;
using flowsteer::kernel::RxDecision;
using flowsteer::kernel::SetRpsCpuPath;
using flowsteer::kernel::Skb;
using flowsteer::kernel::SlotMode;
using flowsteer::kernel::Variant;
// The command op codes, the test driver and the random mix are shared with the SystemC bench
// (rfs_ref.h, rfs_stim.h).
using namespace flowsteer::sim::common::rfs;  // NOLINT(google-build-using-namespace)

// the default test model (vfs_rfs_core) ...
constexpr uint32_t kQueues = VFS_RFS_CORE_NUM_QUEUES;  // hw/params.json set "test"
constexpr uint32_t kSlotLog2Max = 6;
constexpr uint32_t kSockLog2Max = 8;
// ... and the one with counts that are not powers of two (vfs_rfs_core_odd): NUM_CPUS=12,
// NUM_QUEUES=6 (arrival queues 6 and 7 exist on the 3-bit port: G2), SLOT_LOG2_MAX=5,
// SOCK_LOG2_MAX=7 (RPS_POOL_LOG2 8 and 7: 16 pool entries per queue)
struct Dims {
  uint32_t cpus, queues, slot_log2_max, sock_log2_max;
};
constexpr Dims kDefaultDims{16, kQueues, kSlotLog2Max, kSockLog2Max};
constexpr Dims kOddDims{12, 6, 5, 7};

constexpr uint32_t kPoolPerQueue = RfsStim::kPoolPerQueue;  // queue q: pool entries 16q .. 16q+15

struct Ev {
  bool is_cmd = false;
  // packet
  uint32_t hash = 0;
  uint8_t queue = 0;
  bool steerable = true;
  // command
  uint8_t op = 0;
  uint16_t addr = 0;
  uint32_t d0 = 0, d1 = 0;
  // expectations
  RxDecision dec;
  int32_t status = 0;
  bool check_data = false;
  uint32_t data0 = 0, data1 = 0;
};

using Call = flowsteer::sim::common::rfs::DriverCall;

struct Timing {
  double in_gap = 0.0;     // probability an input is withheld in a clock
  double out_ready = 1.0;  // m_axis_rec_tready probability
  double req_ready = 1.0;  // m_drv_req_ready probability
  int rsp_delay_max = 0;   // driver response delay 0..max clocks
  double now_rate = 0.5;   // a call answered with its request (s_drv_rsp_now)
  double refuse_rate = 0.5;  // s_drv_rsp_refuse high (binding when s_drv_pre_own is low)
};

struct RunStats {
  uint64_t cycles = 0, packets = 0, commands = 0, drv_stall = 0, cmd_stall = 0, fwd = 0;
  uint64_t first_pkt = 0, last_rec = 0;  // clock of the first packet handshake, last record
  uint64_t hzd_stall = 0;                // clocks D recomputed a forwarded activity flag
  uint64_t now = 0;                      // driver calls answered with the request
  uint64_t refused = 0;                  // ... of them announced as refusals, D done at once
};

// Coverage of the runs of one test (each test runs in its own process under ctest).
std::array<uint64_t, flowsteer::kernel::kSetRpsCpuPathCount> g_path{};
std::array<uint64_t, flowsteer::kernel::kGateRowCount> g_gate{};
uint64_t g_map_cpu = 0;  // packets whose CPU came from the rps_map (G6)

template <class Model>
class BenchT {
 public:
  BenchT(uint32_t nr_cpu_ids, Variant v, SlotMode m, bool ntuple = true, uint64_t seed = 1,
         Dims dims = kDefaultDims)
      : drv(seed * 7919 + 13), dims(dims), mode_(m) {
    KernelConfig c;
    c.nr_cpu_ids = nr_cpu_ids;
    c.num_rx_queues = dims.queues;
    c.variant = v;
    c.slot_mode = m;
    c.ntuple = ntuple;
    ref = std::make_unique<Kernel>(c);
    ref->set_driver(&drv);
    patched_ = v == Variant::kPatched;
    ntuple_ = ntuple;
    push_cmd(Op::kSetNrCpuIds, 0, nr_cpu_ids, 0);
    push_cmd(Op::kSetMode, 0, mode_word(), 0);
  }

  // ---- the total order, applied to the reference as it is built
  RxDecision pkt(uint32_t hash, uint8_t queue, bool steerable = true) {
    Ev e;
    e.hash = hash;
    e.queue = queue;
    e.steerable = steerable;
    Skb skb;
    skb.hash = hash;
    skb.rx_queue = queue;
    skb.dissect_ok = steerable;
    e.dec = ref->netif_receive_skb(skb);
    evs.push_back(e);
    return e.dec;
  }
  void sock_record(uint32_t hash, uint32_t cpu) {
    ref->rps_record_sock_flow(hash, cpu);
    push_cmd(Op::kSockRecord, 0, hash, cpu);
  }
  // raw entry access (the register map's SOCK_CMD)
  void sock_write(uint32_t index, uint32_t value) {
    bool ok = ref->write_sock_entry(index, value);
    push_cmd(Op::kSockWrite, 0, index, value).status = ok ? 0 : -EINVAL;
  }
  void sock_read(uint32_t index) {
    const auto* st = ref->sock_table();
    Ev& e = push_cmd(Op::kSockRead, 0, index, 0);
    if (st && index <= st->mask) {
      e.check_data = true;
      e.data0 = st->ents[index];
    } else {
      e.status = -EINVAL;
    }
  }
  // rps_cpus of queue q: pool entries written first, then LEN/BASE (empty removes)
  void rps_map(uint32_t q, const std::vector<uint16_t>& cpus) {
    ASSERT_LE(cpus.size(), kPoolPerQueue);
    for (size_t i = 0; i < cpus.size(); ++i)
      push_cmd(Op::kRpsPool, 0, uint32_t(q * kPoolPerQueue + i), cpus[i]);
    int rc = ref->set_rps_map(q, cpus);
    ASSERT_EQ(rc, 0);
    push_cmd(Op::kRpsMap, uint16_t(q), uint32_t(cpus.size()), q * kPoolPerQueue);
  }
  void sock_delete(uint32_t hash) {
    ref->sock_rps_delete_flow(hash);
    push_cmd(Op::kSockDelete, 0, hash, 0);
  }
  void sock_size(int log2) {  // -1 removes
    int rc = ref->set_rps_sock_flow_entries(log2 < 0 ? 0 : (uint64_t(1) << log2));
    push_cmd(Op::kSockSize, 0, log2 < 0 ? 0 : uint32_t(log2), log2 < 0 ? 0 : 1).status = rc;
  }
  void set_cpu_mask(uint32_t m) {  // the engine's RPS_CPU_MASK register
    push_cmd(Op::kSetCpuMask, 0, m, 0).status = ref->set_rps_cpu_mask(m) ? 0 : -EINVAL;
  }
  void queue_table(uint32_t q, int log2) {  // -1 removes
    int rc = ref->store_rps_flow_cnt(q, log2 < 0 ? 0 : (uint64_t(1) << log2));
    push_cmd(Op::kQueueTable, uint16_t(q), log2 < 0 ? 0 : uint32_t(log2), log2 < 0 ? 0 : 1).status =
        rc;
  }
  void head_add(uint32_t cpu, uint32_t n) {
    ref->input_queue_head_add(cpu, n);
    push_cmd(Op::kHeadAdd, uint16_t(cpu), n, 0);
  }
  void backlog_drain(uint32_t cpu) {
    ref->drain(cpu);
    push_cmd(Op::kBacklogDrain, uint16_t(cpu), 0, 0);
  }
  void set_head_tail(uint32_t cpu, uint32_t head, uint32_t tail) {
    ref->set_backlog_counters(cpu, head, tail);
    push_cmd(Op::kSetHeadTail, uint16_t(cpu), head, tail);
  }
  void read_head_tail(uint32_t cpu) {
    Ev& e = push_cmd(Op::kReadHeadTail, uint16_t(cpu), 0, 0);
    e.check_data = true;
    e.data0 = ref->head(cpu);
    e.data1 = ref->tail(cpu);
  }
  bool may_expire(uint32_t q, uint32_t flow_id, uint16_t id) {
    bool r = ref->rps_may_expire_flow(uint16_t(q), flow_id, id);
    Ev& e = push_cmd(Op::kMayExpire, uint16_t(q), flow_id, id);
    e.check_data = true;
    e.data0 = r ? 1 : 0;
    return r;
  }
  void set_online(uint32_t cpu, bool on) {
    ref->set_cpu_online(cpu, on);
    push_cmd(Op::kSetOnline, uint16_t(cpu), on ? 1 : 0, 0);
  }
  void set_rmap(uint32_t cpu, uint16_t q) {
    ref->set_rmap_entry(cpu, q);
    push_cmd(Op::kSetRmap, uint16_t(cpu), q, 0);
  }
  void set_variant(Variant v) {
    ref->set_variant(v);
    patched_ = v == Variant::kPatched;
    push_cmd(Op::kSetMode, 0, mode_word(), 0);
  }
  void set_rmap_present(bool on) {
    ref->set_rx_cpu_rmap(on);
    rmap_ = on;
    push_cmd(Op::kSetMode, 0, mode_word(), 0);
  }
  void set_ntuple(bool on) {
    ref->set_ntuple(on);
    ntuple_ = on;
    push_cmd(Op::kSetMode, 0, mode_word(), 0);
  }

  // One command of the shared generator (rfs_stim.h), through the typed calls above. The
  // generator writes a queue's pool entries before its RPS_MAP and owns entries 16q..16q+15.
  void cmd(const Cmd& c) {
    switch (Op(c.op)) {
      case Op::kSetNrCpuIds:
        ASSERT_EQ(c.d0, ref->nr_cpu_ids());  // fixed for the run
        push_cmd(Op::kSetNrCpuIds, 0, c.d0, 0);
        break;
      case Op::kSetMode: {
        const flowsteer::regs::RfsMode m = flowsteer::regs::unpack_rfs_mode(&c.d0);
        ASSERT_EQ(m.slot_mask, mode_ == SlotMode::kMask);  // fixed for the run
        patched_ = m.patched;
        ntuple_ = m.ntuple;
        rmap_ = m.rmap;
        ref->set_variant(patched_ ? Variant::kPatched : Variant::kOriginal);
        ref->set_ntuple(ntuple_);
        ref->set_rx_cpu_rmap(rmap_);
        push_cmd(Op::kSetMode, 0, mode_word(), 0);
        break;
      }
      case Op::kSockRecord: sock_record(c.d0, c.d1); break;
      case Op::kSockDelete: sock_delete(c.d0); break;
      case Op::kSockSize: sock_size((c.d1 & 1) ? int(c.d0) : -1); break;
      case Op::kSetCpuMask: set_cpu_mask(c.d0); break;
      case Op::kQueueTable: queue_table(c.addr, (c.d1 & 1) ? int(c.d0) : -1); break;
      case Op::kHeadAdd: head_add(c.addr, c.d0); break;
      case Op::kBacklogDrain: backlog_drain(c.addr); break;
      case Op::kSetHeadTail: set_head_tail(c.addr, c.d0, c.d1); break;
      case Op::kReadHeadTail: read_head_tail(c.addr); break;
      case Op::kMayExpire: may_expire(c.addr, c.d0, uint16_t(c.d1)); break;
      case Op::kSetOnline: set_online(c.addr, c.d0 & 1); break;
      case Op::kSetRmap: set_rmap(c.addr, uint16_t(c.d0)); break;
      case Op::kSockWrite: sock_write(c.d0, c.d1); break;
      case Op::kSockRead: sock_read(c.d0); break;
      case Op::kRpsPool:
        ASSERT_LT(c.d0, pool_.size());
        pool_[c.d0] = uint16_t(c.d1);
        push_cmd(Op::kRpsPool, 0, c.d0, c.d1);
        break;
      case Op::kRpsMap: {
        ASSERT_EQ(c.d1, c.addr * kPoolPerQueue);
        ASSERT_LE(c.d0, kPoolPerQueue);
        const std::vector<uint16_t> cpus(pool_.begin() + c.d1, pool_.begin() + c.d1 + c.d0);
        ASSERT_EQ(ref->set_rps_map(c.addr, cpus), 0);
        push_cmd(Op::kRpsMap, c.addr, c.d0, c.d1);
        break;
      }
      default: FAIL() << "the generator sent op " << unsigned(c.op);
    }
  }

  // ---- the RTL run
  RunStats run_rtl(const Timing& t, uint64_t seed, const std::string& label) {
    RunStats st;
    flowsteer::testbench::rtl::Sim<Model> sim(seed);
    auto& d = sim.dut();
    std::mt19937_64 rng(seed ^ 0x5DEECE66Dull);
    auto uni = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
#if FS_MODEL_HAS_TRACE
    std::unique_ptr<VerilatedFstC> fst;
    if (const char* path = std::getenv("FS_RFS_TRACE")) {
      Verilated::traceEverOn(true);
      fst = std::make_unique<VerilatedFstC>();
      d.trace(fst.get(), 99);
      fst->open(path);
    }
#endif
    // drive every input before reset
    d.clk = 0;
    d.rst = 1;
    d.s_axis_pkt_tvalid = 0;
    d.s_axis_pkt_hash = 0;
    d.s_axis_pkt_queue = 0;
    d.s_axis_pkt_steerable = 0;
    d.s_axis_pkt_tag = 0;
    d.m_axis_rec_tready = 0;
    d.m_drv_req_ready = 0;
    d.s_drv_rsp_valid = 0;
    d.s_drv_rsp_rc = 0;
    d.s_drv_rsp_now = 0;
    d.s_drv_rsp_now_rc = 0;
    d.s_drv_rsp_refuse = 0;
    d.s_drv_pre_own = 0;
    d.cmd_valid = 0;
    d.cmd_op = 0;
    d.cmd_addr = 0;
    d.cmd_data0 = 0;
    d.cmd_data1 = 0;
    sim.reset();

    std::vector<size_t> pkt_idx, cmd_idx;  // events in order, split by kind
    for (size_t i = 0; i < evs.size(); ++i) (evs[i].is_cmd ? cmd_idx : pkt_idx).push_back(i);
    size_t in = 0, rec = 0, rsp = 0, call = 0, in_pkts = 0;
    bool rsp_pending = false;
    int rsp_wait = 0;
    int rsp_rc = 0;
    // cycle bound: 40 clocks per event plus a full clear sweep per command
    const uint64_t sweep = uint64_t(1) << std::max(dims.slot_log2_max, dims.sock_log2_max);
    const uint64_t bound = 1000 + 40 * uint64_t(evs.size()) + sweep * cmd_idx.size();
    bool offered = false;  // an offered input stays valid until accepted (AXI rule)
    bool ok = true;
    auto fail = [&](const std::string& what, size_t ev) {
      ADD_FAILURE() << label << " seed " << seed << " event " << ev << " (cycle " << st.cycles
                    << "): " << what;
      ok = false;
    };
    while ((rec < pkt_idx.size() || rsp < cmd_idx.size()) && ok) {
      if (st.cycles > bound) {
        fail("cycle bound exceeded: records " + std::to_string(rec) + "/" +
                 std::to_string(pkt_idx.size()) + ", responses " + std::to_string(rsp) + "/" +
                 std::to_string(cmd_idx.size()),
             in);
        break;
      }
      // inputs for this clock
      bool offer = in < evs.size() && (offered || uni() >= t.in_gap);
      offered = offer;
      d.s_axis_pkt_tvalid = 0;
      d.cmd_valid = 0;
      if (offer) {
        const Ev& e = evs[in];
        if (e.is_cmd) {
          d.cmd_valid = 1;
          d.cmd_op = e.op;
          d.cmd_addr = e.addr;
          d.cmd_data0 = e.d0;
          d.cmd_data1 = e.d1;
        } else {
          d.s_axis_pkt_tvalid = 1;
          d.s_axis_pkt_hash = e.hash;
          d.s_axis_pkt_queue = e.queue;
          d.s_axis_pkt_steerable = e.steerable;
          d.s_axis_pkt_tag = uint32_t(in);
        }
      } else {  // junk on idle inputs
        d.s_axis_pkt_hash = uint32_t(rng());
        d.cmd_op = uint8_t(rng() & 31);
      }
      d.m_axis_rec_tready = uni() < t.out_ready;
      d.m_drv_req_ready = uni() < t.req_ready;
      d.s_drv_rsp_valid = rsp_pending && rsp_wait == 0;
      d.s_drv_rsp_rc = uint32_t(rsp_rc);
      // the next call (calls come in order) answered with its request, whatever it is: the
      // core does not depend on which calls are, only the top's flush does
      const bool now_ok = !rsp_pending && call < drv.calls.size();
      d.s_drv_rsp_now = now_ok && uni() < t.now_rate;
      d.s_drv_rsp_now_rc = now_ok ? uint32_t(drv.calls[call].rc) : uint32_t(rng());
      // a refusal announced from registers binds the driver unless the caller's lookup hit
      // its own queue (s_drv_pre_own): high only where the next call's answer is negative
      const bool refuse = uni() < t.refuse_rate;
      const bool can_refuse = now_ok && drv.calls[call].rc < 0;
      d.s_drv_rsp_refuse = refuse;
      d.s_drv_pre_own = refuse && !(can_refuse && uni() < 0.9);
      if (refuse && !d.s_drv_pre_own) {
        d.m_drv_req_ready = 1;
        d.s_drv_rsp_now = 1;
      }
      sim.settle();

      // handshakes at the coming edge
      if (d.s_axis_pkt_tvalid && d.s_axis_pkt_tready) {
        if (in_pkts++ == 0) st.first_pkt = st.cycles;
        ++in;
        offered = false;
      }
      if (d.cmd_valid && d.cmd_ready) {
        ++in;
        offered = false;
      }
      if (d.m_axis_rec_tvalid && d.m_axis_rec_tready) {
        if (rec >= pkt_idx.size()) {
          fail("extra record", 0);
          break;
        }
        check_record(d, pkt_idx[rec], fail);
        ++rec;
        st.last_rec = st.cycles;
      }
      if (d.s_drv_rsp_valid && d.s_drv_rsp_ready) rsp_pending = false;
      if (d.m_drv_req_valid && d.m_drv_req_ready) {
        if (rsp_pending) fail("driver request while a response is pending", 0);
        if (call >= drv.calls.size()) {
          fail("driver request the reference did not make", 0);
          break;
        }
        const Call& c = drv.calls[call++];
        if (d.m_drv_req_queue != c.queue || d.m_drv_req_flow_id != c.flow_id ||
            d.m_drv_req_hash != c.hash)
          fail("driver request mismatch: rtl q " + std::to_string(d.m_drv_req_queue) + " fid " +
                   std::to_string(d.m_drv_req_flow_id) + " hash " +
                   std::to_string(d.m_drv_req_hash) + ", ref q " + std::to_string(c.queue) +
                   " fid " + std::to_string(c.flow_id) + " hash " + std::to_string(c.hash),
               d.m_drv_req_tag);
        rsp_pending = !d.s_drv_rsp_now;
        if (d.s_drv_rsp_now) ++st.now;
        if (d.s_drv_rsp_refuse && !d.s_drv_pre_own) ++st.refused;
        rsp_rc = c.rc;
        rsp_wait = t.rsp_delay_max ? int(rng() % uint64_t(t.rsp_delay_max + 1)) : 0;
      } else if (rsp_pending && rsp_wait > 0) {
        --rsp_wait;
      }
      if (d.rsp_valid) {
        if (rsp >= cmd_idx.size()) {
          fail("extra command response", 0);
          break;
        }
        const Ev& e = evs[cmd_idx[rsp]];
        if (int32_t(d.rsp_status) != e.status)
          fail("command status " + std::to_string(int32_t(d.rsp_status)) + " expected " +
                   std::to_string(e.status) + " op " + std::to_string(e.op),
               cmd_idx[rsp]);
        if (e.check_data && (d.rsp_data0 != e.data0 || d.rsp_data1 != e.data1))
          fail("command data " + std::to_string(d.rsp_data0) + "," + std::to_string(d.rsp_data1) +
                   " expected " + std::to_string(e.data0) + "," + std::to_string(e.data1) +
                   " op " + std::to_string(e.op),
               cmd_idx[rsp]);
        ++rsp;
      }
      sim.tick();
      ++st.cycles;
#if FS_MODEL_HAS_TRACE
      if (fst) fst->dump(sim.cycles() * 10);
#endif
    }
    if (ok && call != drv.calls.size()) fail("driver calls missing", 0);
    st.packets = pkt_idx.size();
    st.commands = cmd_idx.size();
    st.drv_stall = d.stat_drv_stall;
    st.cmd_stall = d.stat_cmd_stall;
    st.fwd = d.stat_fwd;
    st.hzd_stall = d.stat_hzd_stall;
#if FS_MODEL_HAS_TRACE
    if (fst) fst->close();
#endif
    if (ok) {
      for (size_t i : pkt_idx) {
        ++g_path[size_t(evs[i].dec.path)];
        ++g_gate[size_t(evs[i].dec.gate)];
        if (evs[i].dec.cpu >= 0 && !evs[i].dec.rflow.valid()) ++g_map_cpu;
      }
    }
    return st;
  }

  RefDriver drv;
  Dims dims;
  std::unique_ptr<Kernel> ref;
  std::vector<Ev> evs;

 private:
  std::vector<uint16_t> pool_ = std::vector<uint16_t>(kPoolPerQueue * 16, 0);  // rps_map CPU pool
  uint32_t mode_word() const {
    return flowsteer::sim::common::rfs::mode_word(patched_, mode_ == SlotMode::kMask, ntuple_, rmap_);
  }
  Ev& push_cmd(Op op, uint16_t addr, uint32_t d0, uint32_t d1) {
    Ev e;
    e.is_cmd = true;
    e.op = uint8_t(op);
    e.addr = addr;
    e.d0 = d0;
    e.d1 = d1;
    evs.push_back(e);
    return evs.back();
  }
  template <class Fail>
  void check_record(const Model& d, size_t ev, Fail& fail) {
    RecordFields r;  // the record port, compared field by field by the shared reference
    r.tag = d.m_axis_rec_tag;
    r.cpu_valid = d.m_axis_rec_cpu_valid;
    r.cpu = d.m_axis_rec_cpu;
    r.path = d.m_axis_rec_path;
    r.gate = d.m_axis_rec_gate;
    r.steer = d.m_axis_rec_steer;
    r.steer_queue = d.m_axis_rec_steer_queue;
    r.steer_flow_id = d.m_axis_rec_steer_flow_id;
    r.steer_rc = d.m_axis_rec_steer_rc;
    r.rflow_valid = d.m_axis_rec_rflow_valid;
    r.rflow_queue = d.m_axis_rec_rflow_queue;
    r.rflow_slot = d.m_axis_rec_rflow_slot;
    r.tail = d.m_axis_rec_tail;
    const std::string m = diff_record(r, evs[ev].dec, ev);
    if (!m.empty())
      fail("record mismatch (hash " + std::to_string(evs[ev].hash) + " q " +
               std::to_string(evs[ev].queue) + "):" + m,
           ev);
  }

  SlotMode mode_;
  bool patched_ = true;
  bool ntuple_ = true;
  bool rmap_ = true;
};

const Timing kFast{};                       // no gaps, no back-pressure, driver answers at once
const Timing kRough{0.3, 0.7, 0.6, 3};      // gaps, back-pressure, slow driver

using Bench = BenchT<Vvfs_rfs_core>;
using BenchOdd = BenchT<Vvfs_rfs_core_odd>;

void run_both(Bench& b, const std::string& label) {
  b.run_rtl(kFast, 11, label + "/fast");
  b.run_rtl(kRough, 12, label + "/rough");
}

uint32_t slot_of(uint32_t h, unsigned log, SlotMode m) {
  if (m == SlotMode::kMask) return h & ((1u << log) - 1);
  return log == 0 ? 0 : uint32_t(h * 0x61C88647u) >> (32 - log);
}

// a hash whose slot in a 2^log table is `slot` (searching from `start`)
uint32_t hash_for_slot(uint32_t start, unsigned log, uint32_t slot, SlotMode m) {
  for (uint32_t h = start;; ++h)
    if (h != 0 && slot_of(h, log, m) == slot) return h;
}

// ------------------------------------------------------------------ directed cases

// The seed experiment's pair (spec 3.2 consequences): two active flows whose target slot is
// the same. Original: the second overwrites the slot and the first filter becomes expirable.
// Patched: the second is skipped at the gate, the first filter stays.
TEST(RfsCore, SeedTwoFlowsOneSlot) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    for (SlotMode m : {SlotMode::kLog, SlotMode::kMask}) {
      Bench b(16, v, m);
      b.sock_size(8);
      for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 2);
      uint32_t ha = hash_for_slot(0x12345600, 2, 1, m);
      uint32_t hb = hash_for_slot(ha + 1, 2, 1, m);
      while ((hb & 0xFF) == (ha & 0xFF)) hb = hash_for_slot(hb + 1, 2, 1, m);
      b.sock_record(ha, 1);   // CPU 1 -> queue 1
      b.sock_record(hb, 9);   // CPU 9 -> queue 1
      RxDecision a = b.pkt(ha, 0);
      ASSERT_EQ(a.path, SetRpsCpuPath::kSteered);
      int ida = a.steer.rc;
      RxDecision bb = b.pkt(hb, 0);
      if (v == Variant::kOriginal) {
        EXPECT_EQ(bb.path, SetRpsCpuPath::kSteered);
        EXPECT_EQ(bb.steer.flow_id, a.steer.flow_id);
        EXPECT_TRUE(b.may_expire(1, a.steer.flow_id, uint16_t(ida)));
      } else {
        EXPECT_EQ(bb.path, SetRpsCpuPath::kGateSkip);
        EXPECT_EQ(bb.gate, GateRow::kSkipOtherFlow);
        EXPECT_FALSE(b.may_expire(1, a.steer.flow_id, uint16_t(ida)));
      }
      // both flows keep sending on their RSS queue and the steered queue
      for (int i = 0; i < 6; ++i) {
        b.pkt(ha, uint8_t(i & 1 ? 1 : 0));
        b.pkt(hb, uint8_t(i & 1 ? 1 : 0));
      }
      b.read_head_tail(1);
      b.read_head_tail(9);
      run_both(b, std::string("seed/") + flowsteer::kernel::variant_name(v) + "/" +
                      flowsteer::kernel::slot_mode_name(m));
    }
  }
}

// Every row of the spec 3.2 gate table, on one target slot.
TEST(RfsCore, GateRows) {
  for (SlotMode m : {SlotMode::kLog, SlotMode::kMask}) {
    Bench b(16, Variant::kPatched, m);
    b.sock_size(8);
    for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 1);
    uint32_t ha = hash_for_slot(0x40000000, 1, 0, m);
    uint32_t hb = hash_for_slot(ha + 1, 1, 0, m);
    while ((hb & 0xFF) == (ha & 0xFF)) hb = hash_for_slot(hb + 1, 1, 0, m);
    std::array<int, 6> seen{};
    auto note = [&](const RxDecision& d) { ++seen[size_t(d.gate)]; };
    b.sock_record(ha, 2);                // queue 2
    note(b.pkt(ha, 0));                  // no filter -> steer
    note(b.pkt(ha, 0));                  // same flow, same CPU, active -> skip
    note(b.pkt(hb, 1));                  // no sock entry for hb yet -> not evaluated
    b.sock_record(hb, 10);               // queue 2 as well
    note(b.pkt(hb, 1));                  // active, other hash -> skip
    b.sock_record(ha, 10);               // the flow moves to CPU 10 (queue 2)
    note(b.pkt(ha, 3));                  // active, same hash, new CPU -> steer
    uint32_t w = m == SlotMode::kMask ? 10 * 1 : 10 * 2;
    b.head_add(10, w + 5);               // everything on CPU 10 dequeued long ago
    b.sock_record(hb, 2);
    note(b.pkt(hb, 4));                  // inactive -> steer over the stale slot
    for (int g = 1; g < 6; ++g) EXPECT_GT(seen[size_t(g)], 0) << "gate row " << g;
    run_both(b, std::string("gates/") + flowsteer::kernel::slot_mode_name(m));
  }
}

// In-order hold (G5e) and the exactly-0 boundary of int32(head - last_qtail) >= 0.
TEST(RfsCore, InOrderHoldBoundary) {
  Bench b(16, Variant::kPatched, SlotMode::kLog);
  b.sock_size(6);
  b.queue_table(0, 3);
  b.set_ntuple(false);  // software RFS only: the slot stays on queue 0
  const uint32_t h = 0x00ABCD01;
  b.sock_record(h, 2);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(b.pkt(h, 0).cpu, 2);
  b.sock_record(h, 3);
  RxDecision d = b.pkt(h, 0);  // 6 outstanding on CPU 2: hold
  EXPECT_EQ(d.cpu, 2);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
  b.head_add(2, 5);            // head - last_qtail = -1: hold
  EXPECT_EQ(b.pkt(h, 0).cpu, 2);
  b.head_add(2, 6);            // exactly 0: switch
  d = b.pkt(h, 0);
  EXPECT_EQ(d.cpu, 3);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoAccel);
  b.read_head_tail(2);
  b.read_head_tail(3);
  run_both(b, "inorder");
}

// u32 wrap of head and tail (spec 5: modulo 2^32, signed differences).
TEST(RfsCore, HeadTailWrap) {
  Bench b(16, Variant::kOriginal, SlotMode::kLog);
  b.sock_size(6);
  b.queue_table(0, 2);
  b.set_ntuple(false);
  const uint32_t h = 0x7777AB05;
  b.set_head_tail(4, 0xFFFFFFF8u, 0xFFFFFFF8u);
  b.set_head_tail(5, 0x7FFFFFF0u, 0x7FFFFFF0u);
  b.sock_record(h, 4);
  for (int i = 0; i < 12; ++i) b.pkt(h, 0);  // tail[4] wraps past 0
  b.read_head_tail(4);
  b.sock_record(h, 5);
  EXPECT_EQ(b.pkt(h, 0).cpu, 4);             // held: head - last_qtail < 0 across the wrap
  b.head_add(4, 11);
  EXPECT_EQ(b.pkt(h, 0).cpu, 4);
  b.head_add(4, 3);
  EXPECT_EQ(b.pkt(h, 0).cpu, 5);             // exactly 0 after the wrap
  for (int i = 0; i < 20; ++i) b.pkt(h, 0);  // tail[5] crosses 2^31
  b.head_add(5, 0x90000000u);                // difference >= 2^31 flips sign
  b.sock_record(h, 4);
  b.pkt(h, 0);
  b.read_head_tail(4);
  b.read_head_tail(5);
  run_both(b, "wrap");
}

// Activity window 10*size-1 (active) and 10*size (inactive), V-log and V-mask (10*(size-1)).
TEST(RfsCore, ActivityWindowBoundary) {
  for (SlotMode m : {SlotMode::kLog, SlotMode::kMask}) {
    for (unsigned log : {0u, 2u, 5u}) {
      Bench b(16, Variant::kPatched, m);
      b.sock_size(8);
      for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, int(log));
      const uint32_t win = m == SlotMode::kLog ? (10u << log) : 10u * ((1u << log) - 1);
      uint32_t ha = hash_for_slot(0x51000000, log, 0, m);
      uint32_t hb = hash_for_slot(ha + 1, log, 0, m);
      while ((hb & 0xFF) == (ha & 0xFF)) hb = hash_for_slot(hb + 1, log, 0, m);
      b.sock_record(ha, 3);
      RxDecision a = b.pkt(ha, 0);  // steered to queue 3, P.last_qtail = tail[3] = 1
      ASSERT_EQ(a.path, SetRpsCpuPath::kSteered);
      b.sock_record(hb, 11);        // queue 3, same slot
      if (win > 0) {
        b.head_add(3, win);         // head 0 + win - 1... head - last_qtail = win - 1
        EXPECT_FALSE(b.may_expire(3, a.steer.flow_id, uint16_t(a.steer.rc)));
        RxDecision x = b.pkt(hb, 0);
        EXPECT_EQ(x.gate, GateRow::kSkipOtherFlow);
        b.head_add(3, 1);           // exactly the window
      } else {
        b.head_add(3, 1);
      }
      EXPECT_TRUE(b.may_expire(3, a.steer.flow_id, uint16_t(a.steer.rc)));
      b.sock_record(hb, 12);        // queue 4 for a fresh gate on hb's own slot is fine too
      b.sock_record(hb, 11);
      b.pkt(hb, 1);                 // inactive now: steer
      b.read_head_tail(3);
      run_both(b, std::string("window/") + flowsteer::kernel::slot_mode_name(m) + "/" +
                      std::to_string(log));
    }
  }
}

// next_cpu >= nr_cpu_ids (S1), including the initial 0x0000FFFF entry's ident match.
TEST(RfsCore, NextCpuInvalid) {
  Bench b(12, Variant::kPatched, SlotMode::kLog);  // rps_cpu_mask 15
  b.sock_size(4);
  for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 3);
  const uint32_t h = 0x00ABC101;
  b.sock_record(h, 13);
  RxDecision d = b.pkt(h, 0);
  EXPECT_EQ(d.path, SetRpsCpuPath::kInvalidCpu);
  EXPECT_EQ(d.cpu, -1);
  b.pkt(h, 0);
  b.sock_record(h, 5);
  b.pkt(h, 0);
  EXPECT_EQ(b.pkt(0x0000FFF2, 1).path, SetRpsCpuPath::kInvalidCpu);  // initial entry, cpu 15
  b.pkt(0x0000FFF3, 1);
  b.may_expire(5 % kQueues, 0, 1);
  b.set_rmap_present(false);                 // no rx_cpu_rmap: S2
  b.sock_record(h, 6);
  b.head_add(5, 100);
  EXPECT_EQ(b.pkt(h, 0).path, SetRpsCpuPath::kNoAccel);
  b.set_rmap_present(true);
  b.sock_record(h, 7);
  b.head_add(6, 100);
  EXPECT_EQ(b.pkt(h, 0).path, SetRpsCpuPath::kSteered);
  run_both(b, "nextcpu");
}

// Offline CPUs: an offline old CPU is left at once; an offline next CPU gets the slot but no
// packet (G5f).
TEST(RfsCore, OfflineCpus) {
  Bench b(16, Variant::kPatched, SlotMode::kLog);
  b.sock_size(8);
  for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 3);
  const uint32_t h = 0x0BADF00D;
  b.set_ntuple(false);
  b.sock_record(h, 2);
  for (int i = 0; i < 3; ++i) b.pkt(h, 0);
  b.set_online(2, false);
  b.sock_record(h, 3);
  EXPECT_EQ(b.pkt(h, 0).cpu, 3);  // old CPU offline: switch although packets are queued
  b.set_online(4, false);
  b.sock_record(h, 4);
  b.head_add(3, 100);
  RxDecision d = b.pkt(h, 0);
  EXPECT_EQ(d.cpu, -1);
  EXPECT_EQ(d.path, SetRpsCpuPath::kNoAccel);
  b.pkt(h, 0);
  b.set_online(4, true);
  b.pkt(h, 0);
  b.set_ntuple(true);
  b.set_online(6, false);
  b.sock_record(h, 6);
  b.head_add(4, 100);
  b.pkt(h, 0);                      // steered, but CPU 6 offline: no CPU
  b.pkt(h, 6);
  b.read_head_tail(6);
  run_both(b, "offline");
}

// Queues without a table (G3 / S4) and a resize (full reset of the queue's slots).
TEST(RfsCore, NoTableAndResize) {
  Bench b(16, Variant::kPatched, SlotMode::kLog);
  b.sock_size(8);
  b.queue_table(0, 4);
  const uint32_t h = 0x31415926;
  b.sock_record(h, 5);                               // queue 5 has no table
  EXPECT_EQ(b.pkt(h, 0).path, SetRpsCpuPath::kNoTargetTable);
  EXPECT_EQ(b.pkt(h, 1).cpu, -1);                    // arrival queue without a table
  b.queue_table(5, 2);
  b.head_add(5, 10);
  b.sock_record(h, 13);                              // queue 5
  RxDecision d = b.pkt(h, 0);
  EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
  b.pkt(h, 5);
  EXPECT_FALSE(b.may_expire(5, d.steer.flow_id, uint16_t(d.steer.rc)));
  b.queue_table(5, 2);                               // same size: still a full reset
  EXPECT_TRUE(b.may_expire(5, d.steer.flow_id, uint16_t(d.steer.rc)));
  b.pkt(h, 5);
  b.pkt(h, 0);
  b.queue_table(0, 6);                               // resize the arrival queue
  b.pkt(h, 0);
  b.queue_table(0, -1);
  b.pkt(h, 0);
  b.sock_size(-1);
  b.queue_table(0, 0);
  b.pkt(h, 0);
  b.sock_size(3);
  b.sock_record(h, 13);
  b.pkt(h, 0);
  b.sock_size(3);                                    // same size: entries reset too
  b.pkt(h, 0);
  b.sock_delete(h);
  b.pkt(h, 0);
  b.queue_table(9, 2);                               // bad queue: -EINVAL
  run_both(b, "resize");
}

// rps_may_expire_flow answers (spec 4.2).
TEST(RfsCore, MayExpire) {
  for (SlotMode m : {SlotMode::kLog, SlotMode::kMask}) {
    Bench b(16, Variant::kOriginal, m);
    b.sock_size(8);
    for (uint32_t q = 0; q < 4; ++q) b.queue_table(q, 2);
    const uint32_t h = 0x22220001;
    b.sock_record(h, 1);
    RxDecision d = b.pkt(h, 0);
    ASSERT_EQ(d.path, SetRpsCpuPath::kSteered);
    uint16_t id = uint16_t(d.steer.rc);
    EXPECT_FALSE(b.may_expire(1, d.steer.flow_id, id));      // active, same id
    EXPECT_TRUE(b.may_expire(1, d.steer.flow_id, id + 1));   // other id
    EXPECT_TRUE(b.may_expire(1, 4, id));                     // flow_id >= size
    EXPECT_TRUE(b.may_expire(6, d.steer.flow_id, id));       // no table
    EXPECT_TRUE(b.may_expire(2, d.steer.flow_id, id));       // other queue's slot
    b.head_add(1, m == SlotMode::kLog ? 38 : 28);
    b.may_expire(1, d.steer.flow_id, id);                    // window - 1 (relative to lq 0)
    b.head_add(1, 5);
    EXPECT_TRUE(b.may_expire(1, d.steer.flow_id, id));
    run_both(b, std::string("mayexpire/") + flowsteer::kernel::slot_mode_name(m));
  }
}

// Driver errors, non-steerable frames, hash 0 and ids outside u16 (old.filter == rc).
TEST(RfsCore, DriverAnswers) {
  Bench b(16, Variant::kOriginal, SlotMode::kLog);
  b.sock_size(8);
  for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 3);
  const uint32_t h = 0x600DCAFE;
  b.sock_record(h, 1);
  b.drv.forced = {-ENOSPC, 7, 7, 0x10007, 7};
  EXPECT_EQ(b.pkt(h, 0).path, SetRpsCpuPath::kDriverError);
  b.sock_record(h, 2);
  b.head_add(1, 10);
  EXPECT_EQ(b.pkt(h, 0).path, SetRpsCpuPath::kSteered);    // id 7 into queue 2
  b.pkt(h, 0);                                              // original: again, id 7
  b.sock_record(h, 3);
  b.head_add(2, 10);
  b.pkt(h, 2);                                              // queue 2 slot -> queue 3, id 0x10007
  EXPECT_FALSE(b.may_expire(2, slot_of(h, 3, SlotMode::kLog), 7));  // 7 != 0x10007 as int
  b.sock_record(h, 4);
  b.head_add(3, 10);
  b.pkt(h, 2);                                              // id 7 again: old slot cleared
  b.pkt(h, 5, false);                                       // not steerable: -EPROTONOSUPPORT
  b.pkt(0, 0);                                              // no hash
  b.may_expire(2, slot_of(h, 3, SlotMode::kLog), 7);
  b.may_expire(4, slot_of(h, 3, SlotMode::kLog), 7);
  run_both(b, "driver");
}

// The one forwarded view that costs a stall (stat_hzd_stall): a packet writes last_qtail =
// tail + 1 into a slot while head - (tail + 1) > 0 (head set past the tail), and the next
// packet, back to back, evaluates the S5g gate on that slot as its P: the activity flag
// needs the window compare, recomputed in D. Inside the window (skip), outside (steer), and
// 0 (head - last_qtail == 0 with an enqueue: no stall).
TEST(RfsCore, ForwardedActivityStall) {
  for (uint32_t head : {60u, 100u, 51u}) {
    Bench b(16, Variant::kPatched, SlotMode::kLog);
    b.sock_size(8);
    for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 2);   // window 40
    const uint32_t ha = 0x1357A001;
    const uint32_t sa = slot_of(ha, 2, SlotMode::kLog);
    uint32_t hb = hash_for_slot(ha + 1, 2, sa, SlotMode::kLog);
    while ((hb & 0xFF) == (ha & 0xFF)) hb = hash_for_slot(hb + 1, 2, sa, SlotMode::kLog);
    b.sock_record(ha, 2);                     // CPU 2 -> queue 2
    b.sock_record(hb, 10);                    // CPU 10 -> queue 2, same slot in table 2
    RxDecision d = b.pkt(ha, 0);              // steered: slot sa of queue 2 gets a filter
    ASSERT_EQ(d.path, SetRpsCpuPath::kSteered);
    b.set_head_tail(2, head, 50);             // head - (tail + 1) = head - 51
    for (int i = 0; i < 3; ++i) {
      d = b.pkt(ha, 2);                       // R = sa, same CPU: last_qtail = tail + 1
      EXPECT_EQ(d.path, SetRpsCpuPath::kNotCalled);
      const uint8_t qb = uint8_t(i == 2 ? 3 : i);   // a fresh R slot each time (not queue 2)
      RxDecision x = b.pkt(hb, qb);           // P = sa, gate on the slot just written
      ASSERT_TRUE(x.steer.called || x.path == SetRpsCpuPath::kGateSkip)
          << "head " << head << " i " << i << " path " << int(x.path) << " cpu " << x.cpu;
      if (head == 60) {
        EXPECT_EQ(x.gate, GateRow::kSkipOtherFlow);
      }
    }
    RunStats st = b.run_rtl(kFast, 21, "hzd/" + std::to_string(head));
    if (head == 51) {
      EXPECT_EQ(st.hzd_stall, 0u);
    } else {
      EXPECT_GT(st.hzd_stall, 0u);
    }
    b.run_rtl(kRough, 22, "hzd/rough/" + std::to_string(head));
  }
}

// RPS maps (G6): a queue without a table but with a map, the fall-through after an ident
// miss or an offline RFS CPU (set_rps_cpu's writes still happen), offline map CPUs, hash 0,
// and raw sock-table writes / reads.
TEST(RfsCore, RpsMapsAndRawSock) {
  for (Variant v : {Variant::kOriginal, Variant::kPatched}) {
    Bench b(16, v, SlotMode::kLog);
    b.sock_size(6);
    b.queue_table(0, 3);
    b.queue_table(2, 3);
    b.rps_map(1, {3, 4, 5});
    b.rps_map(0, {7});
    const uint32_t h = 0x89ABCDE1;
    RxDecision d = b.pkt(h, 1);              // no table, map: reciprocal_scale pick
    EXPECT_GE(d.cpu, 3);
    EXPECT_FALSE(d.rflow.valid());
    b.pkt(0, 1);                             // hash 0: none
    b.pkt(h, 0);                             // table, no sock entry (ident miss): map CPU 7
    b.sock_record(h, 2);                     // queue 2
    d = b.pkt(h, 0);
    EXPECT_EQ(d.path, SetRpsCpuPath::kSteered);
    b.set_online(9, false);
    b.sock_record(h, 9);                     // queue 1 (no table): S4, CPU 9 offline
    b.head_add(2, 100);
    b.head_add(7, 100);
    d = b.pkt(h, 0);
    EXPECT_EQ(d.cpu, 7);                     // G5f fails, G6 gives the map CPU
    EXPECT_EQ(d.path, SetRpsCpuPath::kNoTargetTable);
    b.pkt(h, 0);
    b.set_online(7, false);
    EXPECT_EQ(b.pkt(h, 0).cpu, -1);          // map CPU offline
    b.rps_map(0, {});
    b.pkt(h, 0);
    b.sock_write(h & 63, (h & ~15u) | 11u);  // raw entry: CPU 11 (queue 3, no table)
    b.sock_read(h & 63);
    b.sock_read(64);                         // index > mask: -EINVAL
    b.sock_write(64, 0);
    b.pkt(h, 0);
    b.sock_size(-1);
    b.sock_read(0);
    b.pkt(h, 1);
    b.read_head_tail(3);
    b.read_head_tail(4);
    b.read_head_tail(5);
    run_both(b, std::string("rpsmap/") + flowsteer::kernel::variant_name(v));
  }
}

// ------------------------------------------------------------------ random mixes

// The shared generator (rfs_stim.h) in one total order: a command with probability
// cmd_rate, else a packet; a command group (an rps_map, SOCK_SIZE + RPS_CPU_MASK) is sent
// whole. Steers the reference makes feed MAY_EXPIRE.
template <class B>
void random_mix(B& b, uint64_t seed, size_t packets, uint32_t nr, Variant v, SlotMode m,
                double cmd_rate = 0.07) {
  CoreDims dims;
  dims.cpus = b.dims.cpus;
  dims.queues = b.dims.queues;
  dims.slot_log2_max = b.dims.slot_log2_max;
  dims.sock_log2_max = b.dims.sock_log2_max;
  RfsStim mix(dims, nr, v, m, seed);
  const Kernel& k = *b.ref;
  for (const Cmd& c : mix.setup()) b.cmd(c);
  std::deque<SteerRef> steers;
  for (size_t n = 0; n < packets;) {
    if (mix.command_next(cmd_rate)) {
      do b.cmd(mix.next_cmd(k, steers));
      while (mix.group_pending());
      continue;
    }
    const RfsPkt p = mix.next_pkt(k);
    const RxDecision d = b.pkt(p.hash, p.queue, p.steerable);
    if (d.steer.called && d.steer.rc >= 0)
      steers.push_back({d.steer.queue, d.steer.flow_id, uint32_t(d.steer.rc)});
    if (steers.size() > 64) steers.pop_front();
    ++n;
  }
  for (const Cmd& c : mix.finish()) b.cmd(c);
}

TEST(RfsCore, RandomMixes) {
  struct Cfg {
    Variant v;
    SlotMode m;
    uint32_t nr;
  };
  const Cfg cfgs[] = {
      {Variant::kPatched, SlotMode::kLog, 16},  {Variant::kOriginal, SlotMode::kLog, 16},
      {Variant::kPatched, SlotMode::kMask, 16}, {Variant::kOriginal, SlotMode::kMask, 16},
      {Variant::kPatched, SlotMode::kLog, 11},  {Variant::kOriginal, SlotMode::kMask, 6},
      {Variant::kPatched, SlotMode::kMask, 13}, {Variant::kPatched, SlotMode::kLog, 16},
  };
  const Timing timings[] = {kFast, kRough, {0.05, 0.9, 0.9, 1}, {0.0, 0.5, 1.0, 0}};
  g_path.fill(0);
  g_gate.fill(0);
  g_map_cpu = 0;
  uint64_t total = 0;
  RunStats sum;
  // FS_RFS_SEEDS=N runs N seeds (soak); the default 16 gives 208k packets
  uint64_t seeds = 16;
  if (const char* e = std::getenv("FS_RFS_SEEDS")) seeds = std::strtoull(e, nullptr, 10);
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const Cfg& c = cfgs[seed % 8];
    Bench b(c.nr, c.v, c.m, true, seed);
    b.drv.err_rate = 0.05;
    b.drv.big_rate = 0.01;
    if (seed % 3 == 0) b.drv.counter = 0xFFF0;  // ids wrap through 0xFFFE -> 0
    random_mix(b, seed, 13000, c.nr, c.v, c.m, seed % 2 ? 0.07 : 0.2);  // 0.2: heavy churn
    RunStats st = b.run_rtl(timings[seed % 4], seed, "random seed " + std::to_string(seed));
    total += st.packets;
    sum.cycles += st.cycles;
    sum.fwd += st.fwd;
    sum.drv_stall += st.drv_stall;
    sum.cmd_stall += st.cmd_stall;
    sum.hzd_stall += st.hzd_stall;
    sum.now += st.now;
    sum.refused += st.refused;
    if (HasFailure()) {
      std::printf("random mix failed at seed %llu\n", (unsigned long long)seed);
      return;
    }
  }
  std::printf("random: %llu packets, %llu clocks, %llu forwarded views, %llu driver-stall, "
              "%llu command-stall clocks\n",
              (unsigned long long)total, (unsigned long long)sum.cycles,
              (unsigned long long)sum.fwd, (unsigned long long)sum.drv_stall,
              (unsigned long long)sum.cmd_stall);
  std::printf("rps_map (G6) CPUs: %llu packets\n", (unsigned long long)g_map_cpu);
  std::printf("hazard-stall clocks (stat_hzd_stall): %llu\n", (unsigned long long)sum.hzd_stall);
  std::printf("driver calls answered with the request: %llu, refused from registers: %llu\n",
              (unsigned long long)sum.now, (unsigned long long)sum.refused);
  EXPECT_GE(total, std::min<uint64_t>(200000u, 13000u * seeds));
  EXPECT_GT(sum.fwd, 1000u);
  EXPECT_GT(sum.now, 1000u) << "driver calls answered with the request";
  EXPECT_GT(sum.refused, 30u) << "calls refused from registers, D finished with the request";
  EXPECT_GT(g_map_cpu, 0u);
  // every SetRpsCpuPath and GateRow value was produced (and matched) by these runs
  for (int p = 0; p < flowsteer::kernel::kSetRpsCpuPathCount; ++p) {
    std::printf("path %-16s %llu\n", flowsteer::kernel::path_name(SetRpsCpuPath(p)),
                (unsigned long long)g_path[size_t(p)]);
    EXPECT_GT(g_path[size_t(p)], 0u) << flowsteer::kernel::path_name(SetRpsCpuPath(p));
  }
  for (int g = 0; g < flowsteer::kernel::kGateRowCount; ++g) {
    std::printf("gate %-17s %llu\n", flowsteer::kernel::gate_row_name(GateRow(g)),
                (unsigned long long)g_gate[size_t(g)]);
    EXPECT_GT(g_gate[size_t(g)], 0u) << flowsteer::kernel::gate_row_name(GateRow(g));
  }
}

// The throughput benches' setup: a 256-entry sock table, 64-slot tables on every queue and
// n flows recorded on CPUs 0..15 in turn; returns their hashes.
std::vector<uint32_t> throughput_setup(Bench& b, std::mt19937_64& rng, int n) {
  b.sock_size(8);
  for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 6);
  std::vector<uint32_t> hs;
  for (int i = 0; i < n; ++i) {
    hs.push_back(uint32_t(rng()) | 1u);
    b.sock_record(hs.back(), uint32_t(i % 16));
  }
  return hs;
}

// Packets per clock with no input gaps, no back-pressure and no commands: steady traffic
// that needs no driver call (every flow settled) and the same traffic with steers.
TEST(RfsCore, Throughput) {
  for (int with_steers = 0; with_steers < 2; ++with_steers) {
    Bench b(16, Variant::kPatched, SlotMode::kLog);
    std::mt19937_64 rng(99);
    const std::vector<uint32_t> hs = throughput_setup(b, rng, 32);
    if (!with_steers) b.set_ntuple(false);
    size_t warm = b.evs.size();
    for (int i = 0; i < 20000; ++i) {
      uint32_t h = hs[size_t(i % 3 == 0 ? (i / 3) % 32 : rng() % 32)];
      b.pkt(h, uint8_t(i % 5 ? 0 : rng() % kQueues));
      if (with_steers && i % 500 == 0) b.sock_record(h, uint32_t(rng() % 16));
    }
    RunStats st = b.run_rtl(kFast, 5, "throughput");
    // from the first packet handshake to the last record (the setup commands come first)
    const uint64_t span = st.last_rec - st.first_pkt + 1;
    double ppc = double(st.packets) / double(span);
    std::printf("throughput (%s): %llu packets, first accepted at clock %llu, last record at "
                "clock %llu: %.4f packets/clock (%zu setup events before), %llu forwarded "
                "views, %llu driver-stall clocks, %llu command-stall clocks\n",
                with_steers ? "with steers" : "no steers", (unsigned long long)st.packets,
                (unsigned long long)st.first_pkt, (unsigned long long)st.last_rec, ppc, warm,
                (unsigned long long)st.fwd, (unsigned long long)st.drv_stall,
                (unsigned long long)st.cmd_stall);
    std::printf("throughput (%s): %llu hazard-stall clocks\n",
                with_steers ? "with steers" : "no steers", (unsigned long long)st.hzd_stall);
    if (!with_steers) {
      EXPECT_GT(ppc, 0.999);  // one packet per clock (latency 7 adds 6 clocks)
    } else {
      EXPECT_GT(ppc, 0.9);
    }
  }
}

// HEAD_ADD is taken with packets ahead still in A-C and runs once the last of them has left
// D; the packets after it enter meanwhile and wait in C (their flags read head): on a full
// stream of one packet per clock each HEAD_ADD costs at most two packet slots. The records
// are checked against the model as everywhere (head moves between packets of one flow).
TEST(RfsCore, HeadAddCostsAtMostTwoSlots) {
  uint64_t span[2] = {0, 0}, packets = 0, head_adds = 0;
  for (int with_adds = 0; with_adds < 2; ++with_adds) {
    Bench b(16, Variant::kPatched, SlotMode::kLog);
    std::mt19937_64 rng(41);
    const std::vector<uint32_t> hs = throughput_setup(b, rng, 16);
    b.set_ntuple(false);  // no driver calls: every clock lost is the HEAD_ADDs'
    head_adds = 0;
    for (int i = 0; i < 12000; ++i) {
      b.pkt(hs[size_t(rng() % hs.size())], uint8_t(rng() % kQueues));
      const uint32_t cpu = uint32_t(rng() % 16), n = uint32_t(rng() % 3);
      if (i % 64 == 63) {
        if (with_adds) b.head_add(cpu, n);
        ++head_adds;
      }
    }
    RunStats st = b.run_rtl(kFast, 7, with_adds ? "head_add cost" : "head_add baseline");
    span[with_adds] = st.last_rec - st.first_pkt + 1;
    packets = st.packets;
  }
  // the same packets without the HEAD_ADDs give the span of an unbroken stream
  const double per = double(span[1] - span[0]) / double(head_adds);
  std::printf("head_add cost: %llu packets, %llu HEAD_ADDs, %llu clocks first packet to last "
              "record (%llu without them): %.3f packet slots per HEAD_ADD\n",
              (unsigned long long)packets, (unsigned long long)head_adds,
              (unsigned long long)span[1], (unsigned long long)span[0], per);
  EXPECT_LE(per, 2.0);
  EXPECT_GE(per, 1.0);  // the command's own clock at the input
}

// The same mixes on the model with NUM_CPUS=12, NUM_QUEUES=6: rmap default cpu % 6, arrival
// queues >= real_num_rx_queues (G2), next_cpu up to rps_cpu_mask 15 >= NUM_CPUS.
TEST(RfsCore, RandomMixesOddCounts) {
  g_path.fill(0);
  g_gate.fill(0);
  uint64_t total = 0;
  const Timing timings[] = {kFast, kRough};
  for (uint64_t seed = 101; seed <= 106; ++seed) {
    const Variant v = seed % 2 ? Variant::kPatched : Variant::kOriginal;
    const SlotMode m = seed % 3 ? SlotMode::kLog : SlotMode::kMask;
    const uint32_t nr = seed % 4 ? 12 : 9;
    BenchOdd b(nr, v, m, true, seed, kOddDims);
    b.drv.err_rate = 0.05;
    b.drv.big_rate = 0.01;
    random_mix(b, seed, 10000, nr, v, m, seed % 3 ? 0.07 : 0.2);
    RunStats st = b.run_rtl(timings[seed % 2], seed, "odd seed " + std::to_string(seed));
    total += st.packets;
    if (HasFailure()) {
      std::printf("odd-count random mix failed at seed %llu\n", (unsigned long long)seed);
      return;
    }
  }
  EXPECT_GE(total, 60000u);
  for (int p = 0; p < flowsteer::kernel::kSetRpsCpuPathCount; ++p)
    EXPECT_GT(g_path[size_t(p)], 0u) << flowsteer::kernel::path_name(SetRpsCpuPath(p));
  for (int g = 0; g < flowsteer::kernel::kGateRowCount; ++g)
    EXPECT_GT(g_gate[size_t(g)], 0u) << flowsteer::kernel::gate_row_name(GateRow(g));
}

}  // namespace

// A mask wider than 16 bits is refused (-EINVAL): with it, next_cpu could be 2^16 or more, and
// S9 would store its low 16 bits, a CPU the packet behind in the pipeline was told (by the
// forwarded "not usable" flag of the 32-bit value) it could not use: the formal rfs_core job's
// p_r_ok counterexample at step 18 (hw/README.md). The same scenario, with the refusal: the
// mask stays 15, the entry's ident no longer matches (G5b), and both packets follow the model.
TEST(RfsCore, CpuMaskAbove16BitsRefused) {
  Bench b(16, Variant::kPatched, SlotMode::kLog);
  b.sock_size(4);
  for (uint32_t q = 0; q < kQueues; ++q) b.queue_table(q, 3);
  b.set_rmap_present(false);
  b.set_head_tail(1, 1000, 1000);
  const uint32_t h = 0x00ABC101;
  b.sock_record(h, 1);
  b.pkt(h, 0);
  b.set_online(1, false);
  b.set_cpu_mask(0x1FFFF);  // refused
  b.set_cpu_mask(0xFFFF);   // the widest accepted
  b.sock_write(h & 15, (h & ~0xFFFFu) | 0xFFF0u);
  b.pkt(h, 0);
  b.pkt(h, 0);
  b.set_cpu_mask(15);
  b.sock_write(h & 15, (h & ~0x1FFFFu) | 0x10000u);
  b.pkt(h, 0);
  b.pkt(h, 0);
  run_both(b, "cpu_mask_u16");
}
