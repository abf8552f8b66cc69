// The engine's 256-bit output record (docs/engine-top.md "Record") as C++: one decoder for
// every bench that reads the RTL's record stream (Verilator harness, SystemC bench).
#pragma once

#include <cstdint>

#include "flowsteer/engine/engine_model.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::sim {

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
  uint32_t reserved = 0;        // word 4 bits 31:16 | word 7 (must be 0)
};

// words[i] = bits 32i+31..32i of m_axis_rec_tdata; clock fields are the caller's.
inline EngineRecord decode_engine_record(const uint32_t w[8]) {
  EngineRecord e;
  engine::OutputRecord& o = e.rec;
  o.hash = w[0];
  o.cls = nic::ParseClass(w[1] & 0xF);
  o.hash_valid = (w[1] >> 4) & 1;
  o.filter_hit = (w[1] >> 5) & 1;
  const bool cpu_valid = (w[1] >> 6) & 1;
  o.action = engine::SteerAction((w[1] >> 7) & 3);
  e.path = uint8_t((w[1] >> 9) & 7);
  e.gate = uint8_t((w[1] >> 12) & 7);
  e.steer_called = (w[1] >> 15) & 1;
  o.queue = uint16_t(w[1] >> 16);
  o.cpu = cpu_valid ? int32_t(w[2] & 0xFFFF) : -1;
  o.filter_id = o.filter_hit ? (w[2] >> 16) : 0;
  e.rc = int32_t(w[3]);
  if (o.action == engine::SteerAction::kSteered) o.steer_id = uint32_t(e.rc);
  if (o.action == engine::SteerAction::kDriverError) o.error = e.rc;
  e.user = uint16_t(w[4]);
  e.reserved = (w[4] >> 16) | w[7];
  e.cmd_seq = w[5];
  e.tail = w[6];
  return e;
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

}  // namespace flowsteer::sim
