// The one way tests, the CLI and the host runtime drive the simulated engine
// (hw/rtl/fs_engine_top.sv, interface in docs/engine-top.md): a Verilator model with an
// AXI4-Lite master, an AXI4-Stream frame source (random idle gaps) and a record sink (random
// back-pressure), FST tracing on demand. Everything is single-threaded and deterministic for
// a given seed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "flowsteer/bus/register_bus.h"
#include "flowsteer/engine/engine_model.h"
#include "flowsteer/engine/engine_regs.h"
#include "engine_record.h"

namespace flowsteer::sim {

// the harness's records are the shared decoder's (sim/common)
using common::EngineRecord;

// Two Verilated builds of fs_engine_top (parameter sets "standard" and "small" of hw/params.json):
// kStandard: 16 CPUs, 16 queues, 1024-slot tables, 2048 filters, 32-entry event FIFO;
// kSmall: tiny filter table and event FIFO so FULL and FIFO refusals happen often.
enum class EngineBuild { kStandard, kSmall };

struct EngineSimOptions {
  EngineBuild build = EngineBuild::kStandard;
  uint64_t seed = 1;            // gaps and back-pressure draw from this
  double frame_gap = 0.0;       // probability of an idle clock before each frame beat
  double rec_ready = 1.0;       // probability the record sink is ready in a clock
  std::string trace_path;       // FST file; empty = no trace (env FS_ENGINE_TRACE also works)
  uint64_t max_wait_clocks = 10'000'000;  // a transaction or drain longer than this throws
};

// Why the order gate passed no packet in a clock (docs/engine-top.md "Throughput"). The first
// blocked stage downstream of the gate wins, in this order.
enum class GateLoss {
  kIdle,          // no parsed packet at the gate: source gaps, multi-beat frames, parser
  kDisabled,      // CTRL.ENABLE = 0
  kTransaction,   // gate closed for a register transaction (ord_req / ord_done)
  kTags,          // 2^TAG_LOG2 packets in flight
  kReplay,        // packets a steer flushed from fs_rfs_core are presented again (issue stage)
  kFwdScan,       // fs_flt_forward applying logged filter changes to the packet at the core input
  kSteer,         // fs_rfs_core not ready while a steer waits for the driver (request or busy)
  kRfsStall,      // fs_rfs_core not ready otherwise (its slot hazard stall, record back-pressure)
  kFwdWindow,     // lookups held: fs_flt_forward's window of packets past the lookup is full
  kLookup,        // filter table or lookup FIFO not ready (a table command, FIFO room)
  kRecordSink,    // the record stage waits for the output
  kRefill,        // none of these at this clock: the hash pipeline refilling after a stall
  kCount
};
const char* gate_loss_name(GateLoss l);

// The pipeline probe: every clock from the first to the last packet through the order gate
// (after probe_start) is a packet ordered or one GateLoss, so packets + sum(lost) = clocks.
struct PipeProbe {
  uint64_t packets = 0, clocks = 0;
  // register transactions answered inside the window (the master keeps one outstanding: when
  // the stream outruns it, the ones still owed run after the last packet and are not counted)
  uint64_t transactions = 0;
  std::array<uint64_t, size_t(GateLoss::kCount)> lost{};
  uint64_t beats = 0, beat_clocks = 0;  // input beats accepted; first..last accepted beat
  // fs_flt_forward: packets given a changed filter as M loads them (the stamp's change) and
  // by the scan at M (changes after it)
  uint64_t load_patches = 0, filter_patches = 0;
  uint64_t flushes = 0;                 // fs_rfs_core m_flush: packets behind a steer presented again
  // steer-driver calls for a steerable packet: decided from the caller's forwarded lookup
  // (CTRL.FLT_LOOKUP on), or with the driver's own LOOKUP command
  uint64_t drv_given = 0, drv_looked_up = 0;
  // ... of them refused as the driver announced from registers: D done in the request's clock
  uint64_t drv_refused = 0;
  uint64_t placed_transactions = 0;     // transactions placed on arrival (ord_core, ord_rec, ord_drv)
  uint64_t rec_transactions = 0;        // of those, ordered at the record (ord_rec) with packets in flight
  uint64_t drv_transactions = 0;        // ... at the driver's calls (ord_drv, the event FIFO's) likewise
  uint64_t drv_held = 0;                // clocks a call after such a transaction waited for it (drv_hold)
  // fs_rfs_core's sock-table write buffer: writes taken with packets ahead still in A-C,
  // clocks a packet at B took the buffered value, flushes while a write waited for them
  uint64_t sock_early = 0, sock_forwards = 0, sock_replays = 0;
  // head commands (HEAD_ADD, BACKLOG_DRAIN) taken with packets ahead still in A-C; flushes
  // while one waited for them
  uint64_t head_add_early = 0, head_add_replays = 0;
  double packets_per_clock() const { return clocks ? double(packets) / double(clocks) : 0.0; }
  double beats_per_clock() const { return beat_clocks ? double(beats) / double(beat_clocks) : 0.0; }
};

// One executed register transaction, in the order the master completed it.
struct AxilTransaction {
  bool write = false;
  uint32_t offset = 0, data = 0;   // data: written value, or value read
  uint8_t strb = 0xF;
  bus::AxiResp resp = bus::AxiResp::kOkay;
  uint64_t clock = 0;              // clock the response was taken
};

// Every executed transaction by its index in execution order; the ones a checker has
// consumed can be forgotten, so a long run holds only the unconsumed ones (flat memory).
class TransactionLog {
 public:
  const AxilTransaction& operator[](size_t i) const { return log_[i - base_]; }
  size_t size() const { return base_ + log_.size(); }  // executed so far
  const AxilTransaction& back() const { return log_.back(); }
  void push_back(const AxilTransaction& t) { log_.push_back(t); }
  void forget_before(size_t i) {
    while (base_ < i && !log_.empty()) log_.pop_front(), ++base_;
  }

 private:
  std::deque<AxilTransaction> log_;
  size_t base_ = 0;
};

class EngineSim : public bus::RegisterBus {
 public:
  explicit EngineSim(const EngineSimOptions& opt = EngineSimOptions{});
  ~EngineSim() override;
  EngineSim(const EngineSim&) = delete;
  EngineSim& operator=(const EngineSim&) = delete;

  // AXI4-Lite master, one transaction outstanding: clocks the model until the response.
  // Frames queued with send_frame keep flowing while a transaction waits.
  bus::AxiResp read(uint32_t offset, uint32_t& value) override;
  bus::AxiResp write(uint32_t offset, uint32_t value, uint8_t strb = 0xF) override;
  std::string describe() const override { return "verilator engine"; }

  // Frame source: queue a frame (sent in DATA_WIDTH beats with tkeep, tuser = user).
  void send_frame(const uint8_t* data, size_t len, uint16_t user = 0);
  void send_frame(const std::vector<uint8_t>& f, uint16_t user = 0) { send_frame(f.data(), f.size(), user); }
  size_t frames_pending() const;          // queued, not yet fully accepted

  // Record sink: records received so far, oldest first.
  bool pop_record(EngineRecord& r);
  size_t records_pending() const;

  void step(uint64_t clocks = 1);         // run the clock
  // Pulses rst (8 clocks) between transactions, with no frame in flight: every register
  // and table back to reset, as a reset or reload behind the driver's back.
  void reset();
  // Runs until every queued frame has produced its record (or throws after max_wait_clocks).
  void drain();

  const TransactionLog& transactions() const;  // every executed one, in order
  void forget_transactions_before(size_t index);  // consumed by a checker
  uint64_t clocks() const;
  uint64_t frames_accepted() const;       // frames whose last beat was accepted
  // CAPS0/CAPS1 read at construction; rps_pool_log2 (not in CAPS) from the build
  engine::EngineCaps caps() const;
  void set_rec_ready(double p);           // change back-pressure on the fly
  void set_frame_gap(double p);
  // Clocks a record was offered while the sink was not ready (back-pressure coverage).
  uint64_t rec_stall_clocks() const;
  uint64_t seed() const;
  // Restarts the pipeline probe (its window opens at the next packet through the order gate).
  void probe_start();
  const PipeProbe& probe() const;

 private:
  struct Impl;
  template <class Model>
  struct ModelImpl;  // Impl over one Verilated class
  std::unique_ptr<Impl> impl_;
};

}  // namespace flowsteer::sim
