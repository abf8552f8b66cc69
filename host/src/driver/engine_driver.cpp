#include "flowsteer/driver/engine_driver.h"

#include <cerrno>
#include <stdexcept>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::driver {

namespace r = flowsteer::regs;

namespace {
unsigned log2_ceil(uint64_t v) {  // v <= 2^63
  unsigned l = 0;
  while ((uint64_t(1) << l) < v) ++l;
  return l;
}
std::string num(uint64_t v) { return std::to_string(v); }
}  // namespace

EngineDriver::EngineDriver(bus::RegisterBus& bus) : bus_(bus) {
  if (r::ID::MAGIC.get(bus_.read32(r::ID::kAddr)) != r::ID::kReset)
    throw bus::DeviceError(bus_.describe() + " is not a flowsteer engine (ID register)");
  uint32_t version = bus_.read32(r::VERSION::kAddr);
  if (r::VERSION::MAJOR.get(version) != r::VERSION::MAJOR.get(r::kMapVersion))
    throw bus::DeviceError(bus_.describe() + ": register map version " +
                              std::to_string(r::VERSION::MAJOR.get(version)) + " (driver speaks " +
                              std::to_string(r::VERSION::MAJOR.get(r::kMapVersion)) + ")");
  uint32_t c0 = bus_.read32(r::CAPS0::kAddr), c1 = bus_.read32(r::CAPS1::kAddr);
  caps_ = {r::CAPS0::LUT_LOG2.get(c0),      r::CAPS0::CPU_LOG2.get(c0),  r::CAPS0::QUEUE_LOG2.get(c0),
           r::CAPS0::SLOT_LOG2.get(c0),     r::CAPS1::FLT_BUCKET_BITS.get(c1), r::CAPS1::FLT_WAYS.get(c1),
           r::CAPS1::FLT_ID_WIDTH.get(c1),  r::CAPS1::SOCK_LOG2.get(c1), r::CAPS1::EVT_LOG2.get(c1)};
  wait_idle(r::STATUS::INIT_BUSY.mask(), "initialisation");  // tables swept after reset
  // What the engine holds now (another driver may have configured it).
  nr_cpu_ids_ = r::NR_CPU_IDS::VALUE.get(bus_.read32(r::NR_CPU_IDS::kAddr));
  num_rx_queues_ = r::NUM_RX_QUEUES::VALUE.get(bus_.read32(r::NUM_RX_QUEUES::kAddr));
  rps_cpu_mask_ = bus_.read32(r::RPS_CPU_MASK::kAddr);
  uint32_t sock = bus_.read32(r::SOCK_CFG::kAddr);
  sock_size_ = r::SOCK_CFG::PRESENT.get(sock) ? uint64_t(1) << r::SOCK_CFG::LOG2.get(sock) : 0;
}

uint32_t EngineDriver::wait_done(uint32_t status_addr, uint32_t done_mask, const char* what) {
  for (int i = 0; i < 1000000; ++i) {
    uint32_t s = bus_.read32(status_addr);
    if (s & done_mask) return s;
  }
  throw bus::DeviceError(bus_.describe() + ": " + what + " did not complete");
}

void EngineDriver::wait_idle(uint32_t busy_mask, const char* what) {
  for (int i = 0; i < 1000000; ++i)
    if (!(bus_.read32(r::STATUS::kAddr) & busy_mask)) return;
  throw bus::DeviceError(bus_.describe() + ": " + what + " did not complete");
}

void EngineDriver::set_ctrl_bit(uint32_t mask, bool on) {
  uint32_t v = bus_.read32(r::CTRL::kAddr);
  bus_.write32(r::CTRL::kAddr, on ? v | mask : v & ~mask);
}

// store_rps_dev_flow_table_cnt (spec 1.1), count != 0.
unsigned EngineDriver::check_flow_cnt(uint64_t count, const std::string& where) const {
  if (count > (uint64_t(1) << 32))  // roundup - 1 would not fit the u32 mask
    throw KnobError(-EINVAL, "rps_flow_cnt " + num(count) + where +
                                 ": the table mask must fit 32 bits, at most 4294967296 (-EINVAL)");
  unsigned log2 = log2_ceil(count);
  if (log2 > caps_.slot_log2)
    throw KnobError(-ENOMEM, "rps_flow_cnt " + num(count) + where + " rounds up to " +
                                 num(uint64_t(1) << log2) + " slots: the engine holds at most " +
                                 num(uint64_t(1) << caps_.slot_log2) + " per queue (-ENOMEM)");
  return log2;
}

// rps_sock_flow_sysctl (spec 1.1), entries != 0.
unsigned EngineDriver::check_sock_entries(uint64_t entries) const {
  if (entries > kernel::kMaxSockFlowEntries)
    throw KnobError(-EINVAL, "rps_sock_flow_entries " + num(entries) +
                                 " is above the kernel's limit 536870912 (2^29) (-EINVAL)");
  unsigned log2 = log2_ceil(entries);
  if (log2 > caps_.sock_log2)
    throw KnobError(-ENOMEM, "rps_sock_flow_entries " + num(entries) + " rounds up to " +
                                 num(uint64_t(1) << log2) + ": the engine holds at most " +
                                 num(uint64_t(1) << caps_.sock_log2) + " entries (-ENOMEM)");
  return log2;
}

void EngineDriver::check_cpu(uint32_t cpu, const char* what) const {
  if (cpu >= nr_cpu_ids_)
    throw KnobError(-EINVAL, std::string(what) + " on CPU " + num(cpu) + ": nr_cpu_ids is " +
                                 num(nr_cpu_ids_) + " (-EINVAL)");
}

void EngineDriver::configure(const EngineSetup& s) {
  const uint32_t max_cpus = 1u << caps_.cpu_log2, max_queues = 1u << caps_.queue_log2;
  // Everything is checked before the first write.
  if (s.nr_cpu_ids == 0 || s.nr_cpu_ids > max_cpus)
    throw std::invalid_argument("nr_cpu_ids " + std::to_string(s.nr_cpu_ids) + " not in 1.." +
                                std::to_string(max_cpus) + " (engine capacity)");
  if (s.num_rx_queues == 0 || s.num_rx_queues > max_queues)
    throw std::invalid_argument("num_rx_queues " + std::to_string(s.num_rx_queues) + " not in 1.." +
                                std::to_string(max_queues));
  if (s.lut_log2 > caps_.lut_log2)
    throw std::invalid_argument("LUT of 2^" + std::to_string(s.lut_log2) + " entries is larger than the engine's");
  if (s.key.size() != 40 && s.key.size() != 52) throw std::invalid_argument("RSS key must be 40 or 52 bytes");
  unsigned slot_log2 = s.rps_flow_cnt ? check_flow_cnt(s.rps_flow_cnt, "") : 0;
  // sysctl rps_sock_flow_entries; 0 = nr_cpu_ids x the rounded rps_flow_cnt (spec 7.9).
  uint64_t entries = s.rps_sock_flow_entries ? s.rps_sock_flow_entries
                                             : s.rps_flow_cnt ? uint64_t(s.nr_cpu_ids) << slot_log2 : 0;
  unsigned sock_log2 = entries ? check_sock_entries(entries) : 0;

  bus_.write32(r::CTRL::kAddr, 0);  // disabled while configuring
  bus_.write32(r::NR_CPU_IDS::kAddr, s.nr_cpu_ids);
  bus_.write32(r::NUM_RX_QUEUES::kAddr, s.num_rx_queues);
  nr_cpu_ids_ = s.nr_cpu_ids;
  num_rx_queues_ = s.num_rx_queues;
  for (uint32_t w = 0; w < (max_cpus + 31) / 32; ++w) {  // all CPUs online
    uint32_t bits = 0;
    for (uint32_t b = 0; b < 32; ++b)
      if (w * 32 + b < s.nr_cpu_ids) bits |= 1u << b;
    bus_.write32(r::CPU_ONLINE::addr(w), bits);
  }
  for (uint32_t c = 0; c < s.nr_cpu_ids; ++c)  // IRQs 1:1 (cpu_rmap default, spec 1.2)
    bus_.write32(r::RMAP::addr(c), c % s.num_rx_queues);
  bus_.write32(r::HASH_CFG::kAddr, r::HASH_CFG::MODE.put(uint32_t(s.hash_mode)));
  bus_.write32(r::HASH_SEED::kAddr, s.jhash_seed);
  for (uint32_t w = 0; w < 13; ++w) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 4; ++b)
      word |= uint32_t(w * 4 + b < s.key.size() ? s.key[w * 4 + b] : 0) << (24 - 8 * b);
    bus_.write32(r::RSS_KEY::addr(w), word);
  }
  for (uint32_t i = 0; i < (1u << s.lut_log2); ++i) bus_.write32(r::LUT::addr(i), i % s.num_rx_queues);
  bus_.write32(r::LUT_CFG::kAddr, r::LUT_CFG::LOG2.put(s.lut_log2));
  for (uint32_t q = 0; q < s.num_rx_queues; ++q)
    bus_.write32(r::RPS_FLOW_CNT::addr(q), s.rps_flow_cnt ? r::RPS_FLOW_CNT::LOG2.put(slot_log2) |
                                                                r::RPS_FLOW_CNT::PRESENT.put(1)
                                                          : 0);
  rps_cpu_mask_ = uint32_t(kernel::roundup_pow_of_two(s.nr_cpu_ids) - 1);
  bus_.write32(r::RPS_CPU_MASK::kAddr, rps_cpu_mask_);
  write_sock_cfg(entries ? uint64_t(1) << sock_log2 : 0, sock_log2);
  wait_idle(r::STATUS::SOCK_BUSY.mask() | r::STATUS::QRESET_BUSY.mask(), "table reset");
  uint32_t ctrl = r::CTRL::ENABLE.put(1) | r::CTRL::PATCHED.put(s.variant == kernel::Variant::kPatched) |
                  r::CTRL::NTUPLE.put(s.ntuple) | r::CTRL::RMAP.put(1) |
                  r::CTRL::SLOT_MASK.put(s.slot_mode == kernel::SlotMode::kMask) |
                  r::CTRL::RPS.put(1) | r::CTRL::FLT_LOOKUP.put(1);
  bus_.write32(r::CTRL::kAddr, ctrl);
  setup_ = s;
  configured_ = true;
  flow_cnt_.assign(s.num_rx_queues, s.rps_flow_cnt);
  for (uint32_t q = 0; q < rps_maps_.size() && q < s.num_rx_queues; ++q)  // maps of before
    if (!rps_maps_[q].empty()) bus_.write32(r::RPS_MAP::addr(q), 0);
  rps_maps_.assign(s.num_rx_queues, {});
  sock_entries_ = entries;
  head_shadow_.clear();  // heads as the engine holds them now
  static uint32_t tokens = 0;
  owner_ = 0x4F570000u | (++tokens & 0xFFFFu);  // never 0
  bus_.write32(r::OWNER::kAddr, owner_);
}

bool EngineDriver::engine_was_reset() {
  return configured_ && bus_.read32(r::OWNER::kAddr) != owner_;
}

void EngineDriver::restore() {
  if (!configured_) return;
  wait_idle(r::STATUS::INIT_BUSY.mask(), "initialisation");  // tables swept after reset
  const std::vector<uint64_t> counts = flow_cnt_;
  const uint64_t sock = sock_entries_;
  const std::vector<std::vector<uint16_t>> maps = rps_maps_;
  rps_maps_.clear();  // the engine's maps went with the reset
  configure(setup_);
  for (uint32_t q = 0; q < maps.size(); ++q)
    if (!maps[q].empty()) write_rps_map(q, maps[q]);
  for (uint32_t q = 0; q < counts.size(); ++q)
    if (counts[q] != setup_.rps_flow_cnt) set_rps_flow_cnt(q, counts[q]);
  if (sock != sock_entries_) set_rps_sock_flow_entries(sock);
}

// A SOCK_CFG write clears the table to RPS_NO_CPU (register map).
void EngineDriver::write_sock_cfg(uint64_t size, unsigned log2) {
  bus_.write32(r::SOCK_CFG::kAddr, size ? r::SOCK_CFG::LOG2.put(log2) | r::SOCK_CFG::PRESENT.put(1) : 0);
  sock_size_ = size;
  sock_shadow_.clear();
  sock_shadow_valid_ = true;
}

uint64_t EngineDriver::set_rps_flow_cnt(uint32_t queue, uint64_t count) {
  const std::string where = " of rx-" + num(queue);
  if (queue >= num_rx_queues_)
    throw KnobError(-ENOENT, "rx-" + num(queue) + " has no rps_flow_cnt: the device has " +
                                 num(num_rx_queues_) + " RX queues (-ENOENT)");
  if (count == 0) {
    bus_.write32(r::RPS_FLOW_CNT::addr(queue), 0);
    if (queue < flow_cnt_.size()) flow_cnt_[queue] = 0;
    return 0;
  }
  unsigned log2 = check_flow_cnt(count, where);
  bus_.write32(r::RPS_FLOW_CNT::addr(queue), r::RPS_FLOW_CNT::LOG2.put(log2) | r::RPS_FLOW_CNT::PRESENT.put(1));
  wait_idle(r::STATUS::QRESET_BUSY.mask(), "queue table reset");
  if (queue < flow_cnt_.size()) flow_cnt_[queue] = count;
  return uint64_t(1) << log2;
}

uint64_t EngineDriver::rps_flow_cnt(uint32_t queue) {
  uint32_t v = bus_.read32(r::RPS_FLOW_CNT::addr(queue));
  return r::RPS_FLOW_CNT::PRESENT.get(v) ? uint64_t(1) << r::RPS_FLOW_CNT::LOG2.get(v) : 0;
}

uint64_t EngineDriver::set_rps_sock_flow_entries(uint64_t entries) {
  unsigned log2 = entries ? check_sock_entries(entries) : 0;
  const uint64_t size = entries ? uint64_t(1) << log2 : 0;
  rps_cpu_mask_ = uint32_t(kernel::roundup_pow_of_two(nr_cpu_ids_) - 1);
  bus_.write32(r::RPS_CPU_MASK::kAddr, rps_cpu_mask_);
  // Every write, the same size included, resets the entries to RPS_NO_CPU (spec 1.1).
  write_sock_cfg(size, log2);
  wait_idle(r::STATUS::SOCK_BUSY.mask(), "sock table reset");
  sock_entries_ = entries;
  return size;
}

void EngineDriver::write_rps_map(uint32_t queue, const std::vector<uint16_t>& cpus) {
  const uint32_t base = queue * nr_cpu_ids_;
  for (uint32_t i = 0; i < cpus.size(); ++i) bus_.write32(r::RPS_MAP_CPUS::addr(base + i), cpus[i]);
  bus_.write32(r::RPS_MAP::addr(queue), cpus.empty() ? 0
                                                     : r::RPS_MAP::LEN.put(uint32_t(cpus.size())) |
                                                           r::RPS_MAP::BASE.put(base));
  rps_maps_[queue] = cpus;
}

std::vector<uint16_t> EngineDriver::set_rps_cpus(uint32_t queue, const std::vector<uint32_t>& mask) {
  if (queue >= num_rx_queues_)
    throw KnobError(-ENOENT, "rx-" + num(queue) + " has no rps_cpus: the device has " + num(num_rx_queues_) +
                                 " RX queues (-ENOENT)");
  std::vector<uint16_t> cpus;  // for_each_cpu_and(mask, cpu_online_mask)
  for (uint32_t w = 0; w < mask.size() && w * 32 < nr_cpu_ids_; ++w) {
    if (mask[w] == 0) continue;
    const uint32_t online = bus_.read32(r::CPU_ONLINE::addr(w));
    for (uint32_t b = 0; b < 32 && w * 32 + b < nr_cpu_ids_; ++b)
      if ((mask[w] >> b & 1) && (online >> b & 1)) cpus.push_back(uint16_t(w * 32 + b));
  }
  write_rps_map(queue, cpus);
  return cpus;
}

const std::vector<uint16_t>& EngineDriver::rps_cpus(uint32_t queue) const {
  static const std::vector<uint16_t> none;
  return queue < rps_maps_.size() ? rps_maps_[queue] : none;
}

bool EngineDriver::rps_record_sock_flow(uint32_t hash, uint32_t cpu) {
  check_cpu(cpu, "rps_record_sock_flow");
  if (sock_size_ == 0 || hash == 0) return false;  // spec 1.1: nothing recorded
  const uint32_t index = hash & uint32_t(sock_size_ - 1), val = (hash & ~rps_cpu_mask_) | cpu;
  if (sock_shadow_valid_) {
    auto it = sock_shadow_.find(index);
    if ((it == sock_shadow_.end() ? uint32_t(kernel::RPS_NO_CPU) : it->second) == val) return false;
  }
  bus_.write32(r::SOCK_INDEX::kAddr, index);
  bus_.write32(r::SOCK_VALUE::kAddr, val);
  bus_.write32(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
  if (sock_shadow_valid_) sock_shadow_[index] = val;
  return true;
}

void EngineDriver::head_add(uint32_t cpu, uint32_t n) {
  check_cpu(cpu, "input_queue_head add");
  if (n == 0) return;
  const uint32_t backlog = tail(cpu) - known_head(cpu);  // u32 sequence numbers (spec 5)
  if (n > backlog)
    throw KnobError(-EINVAL, "input_queue_head of CPU " + num(cpu) + " advanced by " + num(n) +
                                 " would pass its tail (backlog " + num(backlog) + ") (-EINVAL)");
  bus_.write32(r::HEAD_ADD::addr(cpu), n);
  head_shadow_[cpu] = known_head(cpu) + n;
}

uint32_t EngineDriver::process_backlog(uint32_t cpu) {
  check_cpu(cpu, "backlog processing");
  const uint32_t t = tail(cpu), n = t - known_head(cpu);
  if (n) bus_.write32(r::HEAD_ADD::addr(cpu), n);
  head_shadow_[cpu] = t;
  return n;
}

void EngineDriver::drain_backlog(uint32_t cpu) {
  check_cpu(cpu, "backlog processing");
  bus_.write32(r::BACKLOG_DRAIN::kAddr, r::BACKLOG_DRAIN::CPU.put(cpu));
  if (cpu < head_shadow_.size()) head_shadow_[cpu].reset();
}

uint32_t EngineDriver::known_head(uint32_t cpu) {
  if (head_shadow_.size() <= cpu) head_shadow_.resize(size_t(cpu) + 1);
  if (!head_shadow_[cpu]) head_shadow_[cpu] = head(cpu);
  return *head_shadow_[cpu];
}

void EngineDriver::set_cpu_online(uint32_t cpu, bool on) {
  check_cpu(cpu, "cpu_online");
  const uint32_t a = r::CPU_ONLINE::addr(cpu / 32), bit = 1u << (cpu % 32);
  const uint32_t v = bus_.read32(a);
  bus_.write32(a, on ? v | bit : v & ~bit);
}

void EngineDriver::set_rmap(uint32_t cpu, uint16_t queue) {
  check_cpu(cpu, "rx_cpu_rmap");
  if (queue >= num_rx_queues_)
    throw KnobError(-EINVAL, "rx_cpu_rmap of CPU " + num(cpu) + " to rx-" + num(queue) + ": the device has " +
                                 num(num_rx_queues_) + " RX queues (-EINVAL)");
  bus_.write32(r::RMAP::addr(cpu), queue);
}

void EngineDriver::set_ntuple(bool on) {
  set_ctrl_bit(r::CTRL::NTUPLE.mask(), on);
  setup_.ntuple = on;
  if (on) return;
  bus_.write32(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(r::FilterOp::kClear)));
  wait_done(r::FLT_STATUS::kAddr, r::FLT_STATUS::DONE.mask(), "filter clear");
}

uint32_t EngineDriver::head(uint32_t cpu) { return bus_.read32(r::HEAD::addr(cpu)); }
uint32_t EngineDriver::tail(uint32_t cpu) { return bus_.read32(r::TAIL::addr(cpu)); }

uint64_t EngineDriver::counter(uint32_t index) {
  uint64_t lo = bus_.read32(r::CNT_LO::addr(index));  // latches the high word
  return uint64_t(bus_.read32(r::CNT_HI::addr(index))) << 32 | lo;
}

void EngineDriver::clear_filters() {
  bus_.write32(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(r::FilterOp::kClear)));
  wait_done(r::FLT_STATUS::kAddr, r::FLT_STATUS::DONE.mask(), "filter clear");
  while (pop_event()) {
  }
}

std::optional<engine::FilterHit> EngineDriver::filter_lookup(const FlowTuple& t) {
  const uint32_t words = t.family == 6 ? 4 : 1;
  for (uint32_t w = 0; w < 4; ++w) {
    uint32_t sv = 0, dv = 0;
    for (uint32_t b = 0; b < 4 && w < words; ++b) {
      sv |= uint32_t(t.src[w * 4 + b]) << (24 - 8 * b);
      dv |= uint32_t(t.dst[w * 4 + b]) << (24 - 8 * b);
    }
    bus_.write32(r::FLT_SRC::addr(w), sv);
    bus_.write32(r::FLT_DST::addr(w), dv);
  }
  bus_.write32(r::FLT_PORTS::kAddr, r::FLT_PORTS::SPORT.put(t.sport) | r::FLT_PORTS::DPORT.put(t.dport));
  bus_.write32(r::FLT_META::kAddr, r::FLT_META::PROTO.put(t.proto) | r::FLT_META::IPV6.put(t.family == 6));
  bus_.write32(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(r::FilterOp::kLookup)));
  uint32_t st = wait_done(r::FLT_STATUS::kAddr, r::FLT_STATUS::DONE.mask(), "filter lookup");
  if (r::FLT_STATUS::ERR.get(st) != uint32_t(r::FilterErr::kOk)) return std::nullopt;
  uint32_t res = bus_.read32(r::FLT_RESULT::kAddr);
  return engine::FilterHit{r::FLT_RESULT::ID.get(res), uint16_t(r::FLT_RESULT::QUEUE.get(res))};
}

uint32_t EngineDriver::filter_count() { return bus_.read32(r::FLT_COUNT::kAddr); }

void EngineDriver::check_errors() {
  const uint32_t err = bus_.read32(r::ERR_STATUS::kAddr);
  if (!r::ERR_STATUS::CMD_BUSY.get(err)) return;
  bus_.write32(r::ERR_STATUS::kAddr, r::ERR_STATUS::CMD_BUSY.mask());
  throw bus::DeviceError(bus_.describe() + ": a command was ignored because its block was busy (ERR_STATUS.CMD_BUSY)");
}

uint64_t EngineDriver::steer_calls() { return counter(uint32_t(r::Counter::kSteerCalls)); }

std::optional<engine::FilterEvent> EngineDriver::pop_event() {
  uint32_t st = bus_.read32(r::EVT_STATUS::kAddr);
  if (!r::EVT_STATUS::VALID.get(st)) return std::nullopt;
  engine::FilterEvent e;
  uint32_t info = bus_.read32(r::EVT_INFO::kAddr);
  e.type = engine::EventType(r::EVT_INFO::TYPE.get(info));
  e.tuple.family = r::EVT_INFO::IPV6.get(info) ? 6 : 4;
  e.tuple.proto = uint8_t(r::EVT_INFO::PROTO.get(info));
  uint32_t f = bus_.read32(r::EVT_FILTER::kAddr);
  e.id = r::EVT_FILTER::ID.get(f);
  e.queue = uint16_t(r::EVT_FILTER::QUEUE.get(f));
  e.flow_id = bus_.read32(r::EVT_FLOW_ID::kAddr);
  e.hash = bus_.read32(r::EVT_HASH::kAddr);
  uint32_t ports = bus_.read32(r::EVT_PORTS::kAddr);
  e.tuple.sport = uint16_t(r::EVT_PORTS::SPORT.get(ports));
  e.tuple.dport = uint16_t(r::EVT_PORTS::DPORT.get(ports));
  const uint32_t words = e.tuple.family == 6 ? 4 : 1;
  for (uint32_t w = 0; w < words; ++w) {
    uint32_t s = bus_.read32(r::EVT_SRC::addr(w)), d = bus_.read32(r::EVT_DST::addr(w));
    for (uint32_t b = 0; b < 4; ++b) {
      e.tuple.src[w * 4 + b] = uint8_t(s >> (24 - 8 * b));
      e.tuple.dst[w * 4 + b] = uint8_t(d >> (24 - 8 * b));
    }
  }
  bus_.write32(r::EVT_POP::kAddr, r::EVT_POP::POP.put(1));
  return e;
}

bool EngineDriver::rps_may_expire_flow(uint16_t rxq, uint32_t flow_id, uint16_t filter_id) {
  bus_.write32(r::EXP_QUEUE::kAddr, rxq);
  bus_.write32(r::EXP_FLOW_ID::kAddr, flow_id);
  bus_.write32(r::EXP_FILTER_ID::kAddr, filter_id);
  bus_.write32(r::EXP_CMD::kAddr, r::EXP_CMD::GO.put(1));
  return r::EXP_STATUS::MAY_EXPIRE.get(wait_done(r::EXP_STATUS::kAddr, r::EXP_STATUS::DONE.mask(),
                                                 "rps_may_expire_flow"));
}

engine::FilterErr EngineDriver::filter_delete(uint32_t id) {
  bus_.write32(r::FLT_ID::kAddr, id);
  bus_.write32(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(r::FilterOp::kDelete)));
  uint32_t s = wait_done(r::FLT_STATUS::kAddr, r::FLT_STATUS::DONE.mask(), "filter delete");
  return engine::FilterErr(r::FLT_STATUS::ERR.get(s));
}

}  // namespace flowsteer::driver
