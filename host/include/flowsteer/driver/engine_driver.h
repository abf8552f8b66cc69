// The register-level driver of the engine: the one piece of host code that talks to the
// engine, whatever carries the registers (model, simulated RTL, Alveo card through XRT).
// It validates the kernel's knobs like the kernel does and implements EngineControl, so
// the aRFS runtime runs on top of it unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "flowsteer/bus/register_bus.h"
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

// A knob value the kernel, or the engine's capacity, refuses. what() is one line for the
// user; err() is the -errno the kernel's store returns for it (-EINVAL, -ENOENT), -ENOMEM
// for a table the engine cannot hold (the kernel's failed allocation).
class KnobError : public std::invalid_argument {
 public:
  KnobError(int err, const std::string& what) : std::invalid_argument(what), err_(err) {}
  int err() const { return err_; }

 private:
  int err_;
};

class EngineDriver : public EngineControl {
 public:
  // Checks ID/VERSION and reads CAPS; DeviceError if this is not a flowsteer engine.
  explicit EngineDriver(bus::RegisterBus& bus);

  // Programs everything in EngineSetup and enables the engine. Every value is checked
  // before anything is written: KnobError (or std::invalid_argument for a non-knob value)
  // with one line, and the engine is left as it was.
  void configure(const EngineSetup& s);

  // Ownership: configure() ends by writing a non-zero token to OWNER, which every reset or
  // reload returns to 0. True when the engine no longer holds it (reset behind our back).
  bool engine_was_reset() override;
  // After a reset: configure() with the setup and every knob written since (rps_flow_cnt
  // per queue, rps_sock_flow_entries, NTUPLE), as ice re-applies its configuration in
  // ice_rebuild. CPU online state and the rmap are the runtime's (ice_set_cpu_rx_rmap).
  void restore() override;

  // The kernel's knobs (spec 1.1), validated as the kernel's store paths do, plus the
  // engine's capacity from CAPS. Each throws KnobError and changes nothing on a refusal.
  //
  // sysfs queues/rx-<queue>/rps_flow_cnt (store_rps_dev_flow_table_cnt): 0 removes the
  // table; else the size is count rounded up to a power of two (1 -> 1), size - 1 must fit
  // 32 bits (-EINVAL) and the engine must hold it (CAPS0.SLOT_LOG2, -ENOMEM); a queue the
  // device does not have has no such file (-ENOENT). Every store is a new table (all slots
  // reset), as in the kernel. Returns the table size (0: removed).
  uint64_t set_rps_flow_cnt(uint32_t queue, uint64_t count);
  // sysctl net.core.rps_sock_flow_entries (rps_sock_flow_sysctl): 0 removes the table;
  // above 2^29 -EINVAL; else rounded up to a power of two, which the engine must hold
  // (CAPS1.SOCK_LOG2, -ENOMEM). Every write, the same size included, resets all
  // entries to RPS_NO_CPU; rps_cpu_mask is recomputed from nr_cpu_ids either way. CTRL.RPS
  // (the static key rps_needed) stays on: without a table get_rps_cpu finds no CPU, and
  // the engine may hold rps_maps this driver does not track. Returns the table size.
  uint64_t set_rps_sock_flow_entries(uint64_t entries);
  // sysfs queues/rx-<queue>/rps_cpus (store_rps_map): the map holds the CPUs of `mask` that
  // are online now (CPU_ONLINE), in CPU order; none: no map. A queue the device does not
  // have: -ENOENT. The map goes to the pool at queue * nr_cpu_ids (SLVERR, a DeviceError,
  // if the engine's pool is smaller). Returns the map's CPUs (what sysfs reads back).
  // mask: the cpumask as sysfs writes it, 32-bit groups, group 0 = CPUs 0-31
  std::vector<uint16_t> set_rps_cpus(uint32_t queue, const std::vector<uint32_t>& mask);
  const std::vector<uint16_t>& rps_cpus(uint32_t queue) const;  // as last written
  // rps_record_sock_flow from recvmsg on `cpu`: nothing for hash 0 or without a table;
  // the entry is written only if it differs (the kernel's READ_ONCE/WRITE_ONCE). A CPU
  // >= nr_cpu_ids cannot run recvmsg: -EINVAL. Returns true if the entry was written.
  bool rps_record_sock_flow(uint32_t hash, uint32_t cpu);
  // rps_input_queue_head_add(sd, n) after the backlog of `cpu` processed n skbs: the head
  // may not pass the tail (-EINVAL), CPU < nr_cpu_ids (-EINVAL). n = 0 writes nothing.
  void head_add(uint32_t cpu, uint32_t n);
  // The backlog of `cpu` processed in full: head advanced to the tail. Returns the skbs.
  uint32_t process_backlog(uint32_t cpu);
  // The same as one write (BACKLOG_DRAIN): head = tail at the write's place among the
  // packets, so the packets still inside the engine ahead of it are counted too (a tail read
  // and HEAD_ADD miss those). The head is read again when next needed.
  void drain_backlog(uint32_t cpu);
  // ethtool -K ntuple off: NTUPLE bit off, then every filter cleared (ice_vsi_manage_fdir).
  void set_ntuple(bool on) override;
  // Every filter deleted and every pending event dropped: a runtime starting with an empty
  // entry list starts with an empty table (ice_init_arfs on a fresh VSI).
  void clear_filters() override;
  // cpu_online of `cpu` (CPU_ONLINE bit); CPU >= nr_cpu_ids: -EINVAL.
  void set_cpu_online(uint32_t cpu, bool on) override;
  // rx_cpu_rmap near[cpu].index = queue (RMAP); CPU >= nr_cpu_ids or queue >=
  // num_rx_queues: -EINVAL.
  void set_rmap(uint32_t cpu, uint16_t queue) override;

  uint64_t counter(uint32_t index);                         // 64-bit CNT_LO/CNT_HI pair
  uint32_t head(uint32_t cpu);  // reads HEAD
  // The head as this driver last moved or read it (none: not touched since configure).
  std::optional<uint32_t> processed_head(uint32_t cpu) const {
    return cpu < head_shadow_.size() ? head_shadow_[cpu] : std::nullopt;
  }
  uint32_t tail(uint32_t cpu);
  std::optional<engine::FilterHit> filter_lookup(const FlowTuple& t);  // FLT LOOKUP
  uint32_t filter_count();                                              // FLT_COUNT
  uint64_t rps_flow_cnt(uint32_t queue);  // table size of a queue (0: none)
  uint64_t rps_sock_flow_entries() const { return sock_size_; }
  uint32_t rps_cpu_mask() const { return rps_cpu_mask_; }
  uint32_t nr_cpu_ids() const override { return nr_cpu_ids_; }
  uint32_t num_rx_queues() const override { return num_rx_queues_; }
  const EngineCapsRead& caps() const { return caps_; }

  // EngineControl
  std::optional<engine::FilterEvent> pop_event() override;
  bool rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t filter_id) override;
  engine::FilterErr filter_delete(uint32_t id) override;
  uint64_t steer_calls() override;
  // ERR_STATUS.CMD_BUSY (a command written while its block was busy was ignored): cleared,
  // then DeviceError with one line.
  void check_errors() override;

 private:
  uint32_t wait_done(uint32_t status_addr, uint32_t done_mask, const char* what);
  void wait_idle(uint32_t busy_mask, const char* what);
  void set_ctrl_bit(uint32_t mask, bool on);
  unsigned check_flow_cnt(uint64_t count, const std::string& where) const;  // log2 of the size
  unsigned check_sock_entries(uint64_t entries) const;                      // log2 of the size
  void check_cpu(uint32_t cpu, const char* what) const;
  uint32_t known_head(uint32_t cpu);
  void write_sock_cfg(uint64_t size, unsigned log2);
  void write_rps_map(uint32_t queue, const std::vector<uint16_t>& cpus);

  bus::RegisterBus& bus_;
  EngineCapsRead caps_{};
  uint32_t nr_cpu_ids_ = 0, num_rx_queues_ = 0;
  uint32_t rps_cpu_mask_ = 0;
  uint64_t sock_size_ = 0;  // 0: no sock table
  // Entries written since the table was last cleared (others are RPS_NO_CPU); valid only
  // once this driver has cleared the table itself.
  std::unordered_map<uint32_t, uint32_t> sock_shadow_;
  // input_queue_head of each CPU: only HEAD_ADD writes move it, and only this driver
  // writes HEAD_ADD; read once, then kept (the backlog is then one TAIL read).
  std::vector<std::optional<uint32_t>> head_shadow_;
  bool sock_shadow_valid_ = false;
  // What restore() re-applies.
  EngineSetup setup_;
  bool configured_ = false;
  std::vector<uint64_t> flow_cnt_;  // per queue, as last written (sysfs value)
  uint64_t sock_entries_ = 0;       // as last written (sysctl value)
  std::vector<std::vector<uint16_t>> rps_maps_;  // per queue, as last written
  uint32_t owner_ = 0;
};

}  // namespace flowsteer::driver
