// The register-level driver of the engine: the one piece of host code that talks to the
// engine, whatever carries the registers (model, simulated RTL, Alveo card through XRT).
// It validates the kernel's knobs like the kernel does and implements EngineControl, so
// the aRFS runtime runs on top of it unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flowsteer/device/register_bus.h"
#include "flowsteer/driver/engine_runtime.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/kernel/rps.h"
#include "flowsteer/nic/rss.h"

namespace flowsteer::driver {

struct EngineCapsRead {
  unsigned lut_log2, cpu_log2, queue_log2, slot_log2;
  unsigned flt_bucket_bits, flt_ways, flt_id_width, sock_log2, evt_log2;
};

// What a deployment sets up (the sysfs/sysctl/ethtool knobs of an E810 host).
struct EngineSetup {
  uint32_t nr_cpu_ids = 16;
  uint32_t num_rx_queues = 16;
  kernel::Variant variant = kernel::Variant::kPatched;
  kernel::SlotMode slot_mode = kernel::SlotMode::kLog;
  nic::HashMode hash_mode = nic::HashMode::kToeplitzSymXor;
  hash::RssKey key = hash::microsoft_key();  // 40 or 52 bytes
  uint32_t jhash_seed = 0;
  uint32_t lut_log2 = 7;                     // LUT in use: lut[i] = i % num_rx_queues
  uint64_t rps_flow_cnt = 256;               // every queue; rounded up like sysfs
  uint64_t rps_sock_flow_entries = 0;        // 0 = nr_cpu_ids * rps_flow_cnt (rounded up)
  bool ntuple = true;
};

class EngineDriver : public EngineControl {
 public:
  // Checks ID/VERSION and reads CAPS; DeviceError if this is not a flowsteer engine.
  explicit EngineDriver(device::RegisterBus& bus);

  // Programs everything in EngineSetup and enables the engine. Throws std::invalid_argument
  // with one line for a value the kernel or the engine would refuse.
  void configure(const EngineSetup& s);
  // sysfs rps_flow_cnt of one queue: 0 removes, rounds up (spec 1.1); false if too large.
  bool set_rps_flow_cnt(uint32_t queue, uint64_t count);
  // ethtool -K ntuple off: NTUPLE bit off, then every filter cleared (ice_vsi_manage_fdir).
  void set_ntuple(bool on);

  void rps_record_sock_flow(uint32_t hash, uint32_t cpu);  // spec 1.1, from recvmsg
  void head_add(uint32_t cpu, uint32_t n);                  // batched input_queue_head add
  uint64_t counter(uint32_t index);                         // 64-bit CNT_LO/CNT_HI pair
  uint32_t head(uint32_t cpu);
  uint32_t tail(uint32_t cpu);
  const EngineCapsRead& caps() const { return caps_; }

  // EngineControl
  std::optional<engine::FilterEvent> pop_event() override;
  bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t filter_id) override;
  engine::FilterErr filter_delete(uint32_t id) override;
  uint64_t steer_calls() override;

 private:
  uint32_t wait_done(uint32_t status_addr, uint32_t done_mask, const char* what);
  void wait_idle(uint32_t busy_mask, const char* what);
  void set_ctrl_bit(uint32_t mask, bool on);

  device::RegisterBus& bus_;
  EngineCapsRead caps_{};
  uint32_t rps_cpu_mask_ = 0;
  uint32_t sock_mask_ = 0;
  bool sock_present_ = false;
};

}  // namespace flowsteer::driver
