// The implemented sizes of a Verilated engine-top build, from the parameter definitions its
// model library exports (hw/params.json through fs_verilate: <LIB>_<NAME>), so a bench sizes
// the golden model like the RTL it checks without a second list of numbers.
#pragma once

#include "flowsteer/engine/engine_model.h"

// FS_ENGINE_CAPS(VFS_ENGINE_TOP_SMALL) -> engine::EngineCaps of that build
#define FS_ENGINE_CAPS(P)                           \
  ([] {                                             \
    ::flowsteer::engine::EngineCaps c;              \
    c.lut_log2 = P##_LUT_LOG2;                      \
    c.cpu_log2 = P##_CPU_LOG2;                      \
    c.queue_log2 = P##_QUEUE_LOG2;                  \
    c.slot_log2 = P##_SLOT_LOG2;                    \
    c.flt_bucket_bits = P##_FLT_BUCKET_BITS;        \
    c.flt_ways = P##_FLT_WAYS;                      \
    c.flt_id_width = P##_FLT_ID_WIDTH;              \
    c.sock_log2 = P##_SOCK_LOG2;                    \
    c.evt_log2 = P##_EVT_LOG2;                      \
    c.rps_pool_log2 = P##_RPS_POOL_LOG2;            \
    return c;                                       \
  }())
