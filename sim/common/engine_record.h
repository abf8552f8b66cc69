// The engine's 256-bit output record (docs/engine-top.md "Record") as C++: one decoder for
// every bench that reads the RTL's record stream (Verilator harness, SystemC bench).
#pragma once

#include <cstdint>

#include "flowsteer/engine/engine_model.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::sim::common {

// One record as the RTL produced it (docs/engine-top.md "Record").
struct EngineRecord {
  engine::OutputRecord rec;     // the fields the golden model defines
  uint16_t user = 0;
  uint32_t cmd_seq = 0;         // register transactions ordered before this packet
  uint8_t path = 0, gate = 0;   // fs_rfs_core SetRpsCpuPath / GateRow (coverage)
  bool steer_called = false;
  uint32_t tail = 0;
  uint64_t clock = 0;           // clock the record was taken from the stream
  uint64_t accepted_clock = 0;  // clock the frame's last beat was accepted (hazard coverage)
  int32_t rc = 0;               // word 3 as sent (must be 0 unless STEERED or DRIVER_ERROR)
  uint32_t reserved = 0;        // reserved bits found set (must be 0)
};

// words[i] = bits 32i+31..32i of m_axis_rec_tdata; clock fields are the caller's. The layout
// is the register map's (regs::unpack_rec); this maps it onto the golden model's record.
inline EngineRecord decode_engine_record(const uint32_t w[regs::REC::kWords]) {
  const regs::Rec r = regs::unpack_rec(w);
  EngineRecord e;
  e.rec = engine::output_record(r);
  e.path = uint8_t(r.path);
  e.gate = uint8_t(r.gate);
  e.steer_called = r.steer_called;
  e.rc = r.rc;
  e.user = r.user;
  e.reserved = r.reserved;
  e.cmd_seq = r.cmd_seq;
  e.tail = r.tail;
  return e;
}

// The record words the RTL sends for `e` (the SystemC engine model's output).
inline void encode_engine_record(const EngineRecord& e, uint32_t w[regs::REC::kWords]) {
  const engine::OutputRecord& o = e.rec;
  regs::Rec r;
  r.hash = o.hash;
  r.parse_class = o.cls;
  r.hash_valid = o.hash_valid;
  r.filter_hit = o.filter_hit;
  r.cpu_valid = o.cpu >= 0;
  r.action = o.action;
  r.path = regs::SetRpsCpuPath(e.path);
  r.gate = regs::GateRow(e.gate);
  r.steer_called = e.steer_called;
  r.queue = o.queue;
  r.cpu = o.cpu >= 0 ? uint16_t(o.cpu) : 0;
  r.filter_id = o.filter_hit ? uint16_t(o.filter_id) : 0;
  r.rc = e.rc;
  r.user = e.user;
  r.cmd_seq = e.cmd_seq;
  r.tail = e.tail;
  regs::pack_rec(r, w);
}

// What the RTL must send for a packet, from the golden model's record and decision
// (tail and rc as the record carries them; user = the frame's tuser).
inline EngineRecord expected_engine_record(const engine::OutputRecord& want, const kernel::RxDecision& d,
                                           uint16_t user) {
  EngineRecord e;
  e.rec = want;
  e.path = uint8_t(d.path);
  e.gate = uint8_t(d.gate);
  e.steer_called = d.steer.called;
  e.tail = d.cpu >= 0 ? d.tail : 0;
  e.user = user;
  e.rc = want.action == engine::SteerAction::kSteered       ? int32_t(want.steer_id)
         : want.action == engine::SteerAction::kDriverError ? want.error
                                                            : 0;
  e.reserved = 0;
  return e;
}

// Every field the record defines (not the clocks or cmd_seq, which the checker places itself).
inline bool same_engine_record(const EngineRecord& a, const EngineRecord& b) {
  return a.rec == b.rec && a.path == b.path && a.gate == b.gate && a.steer_called == b.steer_called &&
         a.tail == b.tail && a.user == b.user && a.rc == b.rc && a.reserved == b.reserved;
}

}  // namespace flowsteer::sim::common
