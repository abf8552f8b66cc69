// Driver plane: a mirror of the E810 ice driver's aRFS code (ice_arfs.c, spec 7).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "flowsteer/kernel/kernel.h"
#include "flowsteer/tuple.h"

namespace flowsteer::driver {

inline constexpr uint32_t ICE_MAX_ARFS_LIST = 1024;
inline constexpr uint32_t ICE_ARFS_LST_MASK = ICE_MAX_ARFS_LIST - 1;
inline constexpr uint64_t ICE_ARFS_TIME_DELTA_EXPIRATION_MS = 5000;

enum class FltrState : uint8_t { kInactive = 0, kActive = 1, kToDel = 2 };
enum class FlowType : uint8_t { kIpv4Tcp = 0, kIpv4Udp = 1, kIpv6Tcp = 2, kIpv6Udp = 3 };
inline constexpr int kFlowTypeCount = 4;
// ICE-CMP full-tuple match (default) or the ICE-2020 flow_id-only match (spec 0, 7.2).
enum class MatchMode : uint8_t { kTuple = 0, kFlowId = 1 };

const char* fltr_state_name(FltrState s);
const char* flow_type_name(FlowType t);
inline bool is_udp(FlowType t) { return t == FlowType::kIpv4Udp || t == FlowType::kIpv6Udp; }

// struct ice_fdir_fltr, the fields aRFS fills (spec 1.3).
struct FltrInfo {
  FlowType flow_type = FlowType::kIpv4Tcp;
  FlowTuple tuple;
  int16_t q_index = 0;
  uint16_t dest_vsi = 0;
  uint32_t fltr_id = 0;
};

// Where filters go: the ice_fdir_write_fltr shape (spec 7.4). 0 = posted.
class FdirWriter {
 public:
  virtual ~FdirWriter() = default;
  virtual int ice_fdir_write_fltr(const FltrInfo& fltr, bool add) = 0;
};

struct ArfsEntry {
  FltrInfo fltr_info;
  uint32_t flow_id = 0;
  uint64_t time_activated = 0;  // virtual ms (HZ = 1000), UDP only
  FltrState fltr_state = FltrState::kInactive;
  uint64_t alloc_seq = 0;       // order of its devm_kzalloc among all entries built
};

// The seed experiment's counters, exactly where spec 7.9.2 puts them.
struct ArfsCounters {
  uint64_t steer_c = 0;  // every ndo_rx_flow_steer call
  uint64_t steer_l = 0;  // every bucket entry visited by the search loop (R9)
  uint64_t add = 0;      // every entry built (R10)
  uint64_t del = 0;      // every expired entry processed (Y3)
};

struct SyncResult {
  std::vector<uint32_t> deleted;  // filter ids in hardware-write order
  std::vector<uint32_t> added;
  std::vector<uint64_t> deleted_seq;  // their entries' alloc_seq, in devm_kfree order (Y3)
};

// One entry as seen from outside: where it sits and what it holds.
struct EntryView {
  const ArfsEntry* entry;
  uint32_t bucket;
  uint32_t position;  // 0 = head of the bucket
};

class IceArfs : public kernel::RxFlowSteer {
 public:
  struct Options {
    MatchMode match = MatchMode::kTuple;
    uint16_t vsi = 0;
    // Simulator-only (the walk with an ExpiryTracker): fewer entries never switch to asking
    // about every entry for a while.
    uint32_t full_walk_min_entries = 1024;
  };
  IceArfs(const Options& opt, FdirWriter* hw);

  // Lifecycle (spec 7.1).
  void ice_init_arfs();    // no-op when already active (newer ice)
  void ice_clear_arfs();   // frees entries and lists, no per-entry HW delete
  void ice_rebuild_arfs(); // clear + init: ids restart from 1
  bool active() const { return active_; }

  int ndo_rx_flow_steer(const kernel::Skb& skb, uint16_t rxq_index, uint32_t flow_id) override {
    return ice_rx_flow_steer(skb, rxq_index, flow_id);
  }
  int ice_rx_flow_steer(const kernel::Skb& skb, uint16_t rxq_idx, uint32_t flow_id);  // 7.2
  // One service-task run (spec 7.3) at virtual time now_ms.
  SyncResult ice_sync_arfs_fltrs(uint64_t now_ms, kernel::RpsMayExpireFlow& kernel);

  // Called when ice_service_task_schedule would be (new entry, queue change).
  void set_schedule_hook(std::function<void()> hook) { schedule_ = std::move(hook); }
  // R6: per-flow-type perfect-flow bitmap; absent (default) allows every type.
  void set_perfect_flow_bitmap(bool present, uint8_t type_bits = 0xF);

  // Fault injection (spec 8 cases 27, 31).
  void fail_entry_allocs(int n) { fail_entry_allocs_ = n; }
  void fail_wrapper_allocs(int n) { fail_wrapper_allocs_ = n; }
  // Test hook for the id wrap (spec 7.2, case 30): the next id is counter + 1.
  void set_last_fltr_id(int32_t counter) { last_fltr_id_ = counter; }
  int32_t last_fltr_id() const { return last_fltr_id_; }

  const ArfsCounters& counters() const { return counters_; }
  int32_t active_fltr_cnt(FlowType t) const { return active_cnt_[static_cast<int>(t)]; }
  size_t num_entries() const { return live_; }
  uint64_t entries_built() const { return built_; }  // alloc_seq of the next entry
  std::vector<EntryView> entries() const;  // bucket order, head first
  const ArfsEntry* find(uint32_t fltr_id) const;

 private:
  uint32_t alloc_slot();
  void free_slot(uint32_t idx);
  // Y2 over every entry (asks the kernel about each ACTIVE one), or over the entries the
  // kernel's ExpiryTracker says may have changed, plus every INACTIVE and UDP one.
  void walk_all(uint64_t now_ms, kernel::RpsMayExpireFlow& k, std::vector<uint32_t>& add_list,
                std::vector<uint32_t>& del_list);
  void walk_watched(uint64_t now_ms, kernel::ExpiryTracker& t, std::vector<uint32_t>& add_list,
                    std::vector<uint32_t>& del_list);
  void unwatch_all();
  void queue_visit(uint32_t entry, bool ask);
  void watch(uint32_t entry, const kernel::ExpiryKeep& keep, kernel::ExpiryTracker& t);
  void end_watch(uint32_t entry);
  void compact_watches();
  static uint64_t slot_hash(uint64_t key) { return key * 0x9E3779B97F4A7C15ull; }
  size_t slot_home(uint64_t key) const { return size_t(slot_hash(key) >> slot_shift_); }
  // by_slot_ may hold key only if its bit in slot_bits_ is set (most written slots are not).
  static size_t slot_bit(uint64_t key) { return size_t(slot_hash(key) >> (64 - kSlotBitsLog)); }
  bool slot_maybe(uint64_t key) const {
    return slot_bits_[slot_bit(key) / 64] >> (slot_bit(key) % 64) & 1;
  }
  void slot_insert(uint64_t key, uint32_t entry, uint32_t tag);
  void slot_rebuild();
  bool tuple_eq(const ArfsEntry& e, const FlowTuple& fk) const;
  bool udp_timed_out(const ArfsEntry& e, uint64_t now_ms) const;
  void schedule() {
    if (schedule_) schedule_();
  }

  Options opt_;
  FdirWriter* hw_;
  bool active_ = false;
  // A bucket's entries, [0] = head. An entry's flow_id never changes once it is built, so
  // the bucket keeps a copy: R9's search skips other flows without loading their entries.
  struct BucketSlot {
    uint32_t entry;  // index into pool_
    uint32_t flow_id;
  };
  std::vector<std::vector<BucketSlot>> buckets_;
  std::vector<ArfsEntry> pool_;
  std::vector<uint32_t> free_;
  size_t live_ = 0;
  uint64_t built_ = 0;
  int32_t last_fltr_id_ = 0;
  int32_t active_cnt_[kFlowTypeCount] = {0, 0, 0, 0};
  ArfsCounters counters_;
  bool perfect_bitmap_present_ = false;
  uint8_t perfect_bits_ = 0xF;
  int fail_entry_allocs_ = 0;
  int fail_wrapper_allocs_ = 0;
  std::function<void()> schedule_;
  // One sync's scratch, kept for its capacity: what the first pass saw of each entry (walk
  // order), the expiry calls.
  struct WalkVisit {
    FltrState state;
    bool udp;
  };
  std::vector<WalkVisit> seen_;
  std::vector<kernel::ExpiryQuery> expiry_;

  // Simulator-only (walk_watched): the walk remembers each ACTIVE entry's last "keep" so that
  // a run asks only about entries whose answer may have changed; the lists come out the same.
  struct EntryWatch {      // per pool index
    uint32_t bucket = 0;
    bool live = false;     // in a bucket (a freed pool index reads as INACTIVE)
    bool queued = false;   // in visit_
    bool ask = false;      // visit_ asks the kernel (else an ACTIVE one is only time-checked)
    bool udp_listed = false;
    // Id of its keep (0 = none) and of its by_slot_ item (0 = none): items of another id are
    // stale. The item outlives keeps until its slot is written. (Ids wrap: a stale item taken
    // for a live one only adds a visit.)
    uint32_t watch = 0;
    uint32_t slot_tag = 0;
  };
  struct DueItem {
    uint64_t until;
    uint32_t entry;
    uint32_t watch;
    bool operator>(const DueItem& o) const { return until > o.until; }
  };
  struct SlotItem {  // by_slot_: open addressing, linear probing
    uint64_t key;    // rxq << 32 | flow_id, or kNoKey, kGone (a tombstone)
    uint32_t entry;
    uint32_t tag;
  };
  static constexpr uint64_t kNoKey = ~uint64_t(0), kGone = ~uint64_t(0) - 1;
  struct VisitKey {
    uint32_t bucket;
    uint32_t entry;
    uint64_t alloc_seq;
  };
  bool watching_ = false;  // the state below is complete (else the next watched walk resets it)
  static constexpr uint32_t kFullWalks = 100;
  uint32_t full_walks_ = 0;  // runs left that use walk_all though the kernel has a tracker
  const kernel::ExpiryTracker* tracker_ = nullptr;
  uint64_t tracker_epoch_ = 0, tracker_takes_ = 0;
  uint32_t next_id_ = 0;
  size_t watched_ = 0, due_items_ = 0;
  std::vector<EntryWatch> watch_;
  std::vector<std::vector<DueItem>> due_;  // per CPU, min-heaps on until
  std::vector<SlotItem> by_slot_;          // watched entries by slot key, power-of-two size
  size_t by_slot_used_ = 0;                // items and tombstones
  unsigned slot_shift_ = 64;
  static constexpr unsigned kSlotBitsLog = 16;
  std::vector<uint64_t> slot_bits_ = std::vector<uint64_t>((size_t(1) << kSlotBitsLog) / 64);
  std::vector<uint32_t> udp_active_;
  std::vector<uint32_t> visit_;            // the next run's visits (any order)
  std::vector<VisitKey> run_, sorted_;     // this run's, in walk order
  std::vector<uint32_t> bucket_start_;
  std::vector<uint64_t> written_;
  std::vector<kernel::ExpiryKeep> keep_;
};

}  // namespace flowsteer::driver
