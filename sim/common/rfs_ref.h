// The reference side of the fs_rfs_core benches, shared by the SystemC bench
// (sim/systemc/sc_rfs_core.cpp) and the Verilator GoogleTest suite (test_fs_rfs_core.cpp).
//
// * Op: the command op codes of fs_rfs_core (enum rfs_op of the register map).
// * RefDriver: the test ndo_rx_flow_steer (deterministic id allocator, sticky ids per hash,
//   error injection, rare out-of-u16 ids). Two instances built with the same seed give the
//   same answers for the same call sequence, so a bench can answer the core's driver port
//   with one instance and give the golden model the other.
// * RegRef: flowsteer::kernel::Kernel as the core's command port sees it. apply() turns one
//   accepted command into the Kernel calls and returns the expected response; packet() runs
//   netif_receive_skb. It keeps the register-level state the Kernel does not have (the shared
//   rps_map CPU pool with per-queue LEN/BASE; a pool write changes every map that covers it).
// * RecordFields / diff_record(): every field of one output record against an RxDecision.
#pragma once

#include <cerrno>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::sim::common::rfs {

using flowsteer::kernel::Kernel;
using flowsteer::kernel::KernelConfig;
using flowsteer::kernel::RxDecision;
using flowsteer::kernel::Skb;
using flowsteer::kernel::SlotMode;
using flowsteer::kernel::Variant;

// command ops: enum rfs_op of the register map; SET_MODE data0: its layout rfs_mode
using Op = flowsteer::regs::RfsOp;
inline const char* op_name(uint32_t op) { return flowsteer::regs::rfs_op_name(Op(op)); }

inline uint32_t mode_word(bool patched, bool mask_slots, bool ntuple, bool rmap) {
  flowsteer::regs::RfsMode m;
  m.patched = patched;
  m.slot_mask = mask_slots;
  m.ntuple = ntuple;
  m.rmap = rmap;
  return flowsteer::regs::pack_rfs_mode(m);
}

struct DriverCall {
  uint16_t queue;
  uint32_t flow_id;
  uint32_t hash;
  int rc;
};

// The test's ndo_rx_flow_steer: the engine's rejection of non-steerable frames, then a
// deterministic allocator (ids counter % 0xFFFF, sticky per hash like a filter re-target),
// error injection and rare out-of-u16 ids. The answer depends only on the sequence of calls.
class RefDriver : public flowsteer::kernel::RxFlowSteer {
 public:
  explicit RefDriver(uint64_t seed) : rng_(seed) {}
  double err_rate = 0.0, big_rate = 0.0, sticky = 0.85;
  std::deque<int> forced;  // directed tests: next answers
  std::vector<DriverCall> calls;
  int32_t counter = 0;

  int ndo_rx_flow_steer(const Skb& skb, uint16_t q, uint32_t fid) override {
    if (!skb.dissect_ok) return -EPROTONOSUPPORT;  // never reaches the driver port
    int rc;
    if (!forced.empty()) {
      rc = forced.front();
      forced.pop_front();
    } else if (uni() < err_rate) {
      static const int errs[] = {-ENOSPC, -EBUSY, -EADDRINUSE};
      rc = errs[rng_() % 3];
    } else if (uni() < big_rate) {
      rc = int(0x10000 + rng_() % 0x10000);
    } else {
      auto it = ids_.find(skb.hash);
      if (it != ids_.end() && uni() < sticky) {
        rc = it->second;
      } else {
        counter = int32_t(uint32_t(counter) + 1u);
        rc = counter % 0xFFFF;
        ids_[skb.hash] = rc;
      }
    }
    calls.push_back({q, fid, skb.hash, rc});
    return rc;
  }
  // the port-level form: a request that reached the driver port (always steerable)
  int answer(uint16_t q, uint32_t fid, uint32_t hash) {
    Skb skb;
    skb.hash = hash;
    skb.rx_queue = q;
    return ndo_rx_flow_steer(skb, q, fid);
  }

 private:
  double uni() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  std::mt19937_64 rng_;
  std::map<uint32_t, int> ids_;
};

// Core parameters the reference needs (the -G values of the model).
struct CoreDims {
  uint32_t cpus = 16, queues = 8, slot_log2_max = 6, sock_log2_max = 8, pool_log2 = 8;
};

struct Cmd {
  uint8_t op = 0;
  uint16_t addr = 0;
  uint32_t d0 = 0, d1 = 0;
};

struct CmdExpect {
  int32_t status = 0;
  bool check_data = false;
  uint32_t data0 = 0, data1 = 0;
  std::string bench_error;  // a command the golden model cannot express (a bench bug)
};

class RegRef {
 public:
  // nr_cpu_ids and the slot mode are fixed for a run: the bench must send SET_NR_CPU_IDS with
  // `nr` and keep SET_MODE's mask bit at `m` (apply() reports anything else as a bench error).
  RegRef(const CoreDims& dims, uint32_t nr, Variant v, SlotMode m, uint64_t drv_seed)
      : dims(dims), drv(drv_seed), pool_(size_t(1) << dims.pool_log2, 0),
        map_len_(dims.queues, 0), map_base_(dims.queues, 0), mode_(m) {
    KernelConfig c;
    c.nr_cpu_ids = nr;
    c.num_rx_queues = dims.queues;
    c.variant = v;
    c.slot_mode = m;
    c.ntuple = true;
    k = std::make_unique<Kernel>(c);
    k->set_driver(&drv);
  }

  RxDecision packet(uint32_t hash, uint8_t queue, bool steerable) {
    Skb skb;
    skb.hash = hash;
    skb.rx_queue = queue;
    skb.dissect_ok = steerable;
    return k->netif_receive_skb(skb);
  }

  CmdExpect apply(const Cmd& c) {
    CmdExpect e;
    Kernel& K = *k;
    const uint32_t nr = K.nr_cpu_ids();
    // HEAD_ADD, BACKLOG_DRAIN and READ_HEAD_TAIL reach every implemented CPU, the others
    // those below nr
    const bool any_cpu = Op(c.op) == Op::kHeadAdd || Op(c.op) == Op::kBacklogDrain ||
                         Op(c.op) == Op::kReadHeadTail;
    auto per_cpu_ok = [&] {
      if (c.addr >= (any_cpu ? dims.cpus : nr)) {
        e.status = -EINVAL;
        return false;
      }
      e.check_data = true;  // per-CPU ops return head/tail before the op
      e.data0 = K.head(c.addr);
      e.data1 = K.tail(c.addr);
      return true;
    };
    switch (Op(c.op)) {
      case Op::kSockRecord: K.rps_record_sock_flow(c.d0, c.d1); break;
      case Op::kSockDelete: K.sock_rps_delete_flow(c.d0); break;
      case Op::kSockSize:
        if ((c.d1 & 1) && c.d0 > dims.sock_log2_max) e.bench_error = "SOCK_SIZE log2 above max";
        else e.status = K.set_rps_sock_flow_entries((c.d1 & 1) ? (uint64_t(1) << c.d0) : 0);
        break;
      case Op::kQueueTable:
        if ((c.d1 & 1) && c.d0 > dims.slot_log2_max) e.bench_error = "QUEUE_TABLE log2 above max";
        else e.status = K.store_rps_flow_cnt(c.addr, (c.d1 & 1) ? (uint64_t(1) << c.d0) : 0);
        break;
      case Op::kHeadAdd:
        if (per_cpu_ok()) K.input_queue_head_add(c.addr, c.d0);
        break;
      case Op::kBacklogDrain:
        if (per_cpu_ok()) K.drain(c.addr);
        break;
      case Op::kSetHeadTail:
        if (per_cpu_ok()) K.set_backlog_counters(c.addr, c.d0, c.d1);
        break;
      case Op::kReadHeadTail: per_cpu_ok(); break;
      case Op::kMayExpire:
        e.check_data = true;
        e.data0 = K.rps_may_expire_flow(c.addr, c.d0, uint16_t(c.d1)) ? 1 : 0;
        break;
      case Op::kSetOnline:
        if (per_cpu_ok()) K.set_cpu_online(c.addr, c.d0 & 1);
        break;
      case Op::kSetRmap:
        if (c.d0 >= dims.queues) {  // the core checks the queue before the CPU
          e.status = -EINVAL;
        } else if (per_cpu_ok()) {
          K.set_rmap_entry(c.addr, uint16_t(c.d0));
        }
        break;
      case Op::kSetNrCpuIds:
        if (c.d0 != nr) e.bench_error = "SET_NR_CPU_IDS other than the run's nr_cpu_ids";
        break;
      case Op::kSetMode: {
        const flowsteer::regs::RfsMode m = flowsteer::regs::unpack_rfs_mode(&c.d0);
        if (m.slot_mask != (mode_ == SlotMode::kMask)) {
          e.bench_error = "SET_MODE changes the slot mode";
          break;
        }
        K.set_variant(m.patched ? Variant::kPatched : Variant::kOriginal);
        K.set_ntuple(m.ntuple);
        K.set_rx_cpu_rmap(m.rmap);
        break;
      }
      case Op::kSetCpuMask:
        if (!K.set_rps_cpu_mask(c.d0)) e.status = -EINVAL;
        break;
      case Op::kSockWrite: e.status = K.write_sock_entry(c.d0, c.d1) ? 0 : -EINVAL; break;
      case Op::kSockRead: {
        const auto* st = K.sock_table();
        if (st && c.d0 <= st->mask) {
          e.check_data = true;
          e.data0 = st->ents[c.d0];
        } else {
          e.status = -EINVAL;
        }
        break;
      }
      case Op::kRpsPool:
        if (c.d0 >= pool_.size()) {
          e.status = -EINVAL;
          break;
        }
        if (c.d1 >= nr) {
          e.bench_error = "RPS_POOL CPU >= nr_cpu_ids (the kernel rejects such maps)";
          break;
        }
        pool_[c.d0] = uint16_t(c.d1);
        for (uint32_t q = 0; q < dims.queues; ++q)  // every map that covers the entry
          if (map_len_[q] && c.d0 >= map_base_[q] && c.d0 < map_base_[q] + map_len_[q])
            push_map(q, e);
        break;
      case Op::kRpsMap:
        if (c.addr >= dims.queues || c.d0 > 0xFFFF || c.d1 > pool_.size() ||
            uint64_t(c.d0) + c.d1 > pool_.size()) {
          e.status = -EINVAL;
          break;
        }
        map_len_[c.addr] = c.d0;
        map_base_[c.addr] = c.d1;
        push_map(c.addr, e);
        break;
      default: e.status = -EINVAL; break;
    }
    return e;
  }

  CoreDims dims;
  RefDriver drv;
  std::unique_ptr<Kernel> k;

 private:
  void push_map(uint32_t q, CmdExpect& e) {
    std::vector<uint16_t> cpus(pool_.begin() + map_base_[q],
                               pool_.begin() + map_base_[q] + map_len_[q]);
    if (k->set_rps_map(q, cpus) != 0) e.bench_error = "set_rps_map rejected the pool slice";
  }
  std::vector<uint16_t> pool_;
  std::vector<uint32_t> map_len_, map_base_;
  SlotMode mode_;
};

// One output record as the core's m_axis_rec_* ports carry it.
struct RecordFields {
  uint64_t tag = 0;
  bool cpu_valid = false;
  uint32_t cpu = 0, path = 0, gate = 0;
  bool steer = false;
  uint32_t steer_queue = 0, steer_flow_id = 0, steer_rc = 0;
  bool rflow_valid = false;
  uint32_t rflow_queue = 0, rflow_slot = 0, tail = 0;
};

// "" when equal, else " field rtl X ref Y;" for every differing field. Fields qualified by a
// valid bit (cpu, steer_*, rflow_*) are compared only when the reference sets that bit.
inline std::string diff_record(const RecordFields& a, const RxDecision& x, uint64_t tag) {
  std::string m;
  auto chk = [&](const char* what, uint64_t got, uint64_t want) {
    if (got != want)
      m += std::string(" ") + what + " rtl " + std::to_string(got) + " ref " +
           std::to_string(want) + ";";
  };
  chk("tag", a.tag, tag);
  chk("cpu_valid", a.cpu_valid, x.cpu >= 0);
  if (x.cpu >= 0) chk("cpu", a.cpu, uint32_t(x.cpu));
  chk("path", a.path, uint32_t(x.path));
  chk("gate", a.gate, uint32_t(x.gate));
  chk("steer", a.steer, x.steer.called);
  if (x.steer.called) {
    chk("steer_queue", a.steer_queue, x.steer.queue);
    chk("steer_flow_id", a.steer_flow_id, x.steer.flow_id);
    chk("steer_rc", a.steer_rc, uint32_t(x.steer.rc));
  }
  chk("rflow_valid", a.rflow_valid, x.rflow.valid());
  if (x.rflow.valid()) {
    chk("rflow_queue", a.rflow_queue, uint32_t(x.rflow.queue));
    chk("rflow_slot", a.rflow_slot, x.rflow.slot);
  }
  chk("tail", a.tail, x.enqueued ? x.tail : 0);
  return m;
}

}  // namespace flowsteer::sim::common::rfs
