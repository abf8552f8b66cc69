#include "flowsteer/driver/engine_driver.h"

#include <stdexcept>

#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/kernel/kernel.h"

namespace flowsteer::driver {

namespace r = flowsteer::regs;

namespace {
unsigned log2_ceil(uint64_t v) {
  unsigned l = 0;
  while ((uint64_t(1) << l) < v) ++l;
  return l;
}
}  // namespace

EngineDriver::EngineDriver(device::RegisterBus& bus) : bus_(bus) {
  if (r::ID::MAGIC.get(bus_.read32(r::ID::kAddr)) != r::ID::kReset)
    throw device::DeviceError(bus_.describe() + " is not a flowsteer engine (ID register)");
  uint32_t version = bus_.read32(r::VERSION::kAddr);
  if (r::VERSION::MAJOR.get(version) != r::VERSION::MAJOR.get(r::kMapVersion))
    throw device::DeviceError(bus_.describe() + ": register map version " +
                              std::to_string(r::VERSION::MAJOR.get(version)) + " (driver speaks " +
                              std::to_string(r::VERSION::MAJOR.get(r::kMapVersion)) + ")");
  uint32_t c0 = bus_.read32(r::CAPS0::kAddr), c1 = bus_.read32(r::CAPS1::kAddr);
  caps_ = {r::CAPS0::LUT_LOG2.get(c0),      r::CAPS0::CPU_LOG2.get(c0),  r::CAPS0::QUEUE_LOG2.get(c0),
           r::CAPS0::SLOT_LOG2.get(c0),     r::CAPS1::FLT_BUCKET_BITS.get(c1), r::CAPS1::FLT_WAYS.get(c1),
           r::CAPS1::FLT_ID_WIDTH.get(c1),  r::CAPS1::SOCK_LOG2.get(c1), r::CAPS1::EVT_LOG2.get(c1)};
  wait_idle(r::STATUS::INIT_BUSY.mask(), "initialisation");  // tables swept after reset
}

uint32_t EngineDriver::wait_done(uint32_t status_addr, uint32_t done_mask, const char* what) {
  for (int i = 0; i < 1000000; ++i) {
    uint32_t s = bus_.read32(status_addr);
    if (s & done_mask) return s;
  }
  throw device::DeviceError(bus_.describe() + ": " + what + " did not complete");
}

void EngineDriver::wait_idle(uint32_t busy_mask, const char* what) {
  for (int i = 0; i < 1000000; ++i)
    if (!(bus_.read32(r::STATUS::kAddr) & busy_mask)) return;
  throw device::DeviceError(bus_.describe() + ": " + what + " did not complete");
}

void EngineDriver::set_ctrl_bit(uint32_t mask, bool on) {
  uint32_t v = bus_.read32(r::CTRL::kAddr);
  bus_.write32(r::CTRL::kAddr, on ? v | mask : v & ~mask);
}

void EngineDriver::configure(const EngineSetup& s) {
  const uint32_t max_cpus = 1u << caps_.cpu_log2, max_queues = 1u << caps_.queue_log2;
  if (s.nr_cpu_ids == 0 || s.nr_cpu_ids > max_cpus)
    throw std::invalid_argument("nr_cpu_ids " + std::to_string(s.nr_cpu_ids) + " not in 1.." +
                                std::to_string(max_cpus) + " (engine capacity)");
  if (s.num_rx_queues == 0 || s.num_rx_queues > max_queues)
    throw std::invalid_argument("num_rx_queues " + std::to_string(s.num_rx_queues) + " not in 1.." +
                                std::to_string(max_queues));
  if (s.lut_log2 > caps_.lut_log2)
    throw std::invalid_argument("LUT of 2^" + std::to_string(s.lut_log2) + " entries is larger than the engine's");
  if (s.key.size() != 40 && s.key.size() != 52) throw std::invalid_argument("RSS key must be 40 or 52 bytes");
  bus_.write32(r::CTRL::kAddr, 0);  // disabled while configuring
  bus_.write32(r::NR_CPU_IDS::kAddr, s.nr_cpu_ids);
  bus_.write32(r::NUM_RX_QUEUES::kAddr, s.num_rx_queues);
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
    if (!set_rps_flow_cnt(q, s.rps_flow_cnt))
      throw std::invalid_argument("rps_flow_cnt " + std::to_string(s.rps_flow_cnt) +
                                  " is larger than the engine's 2^" + std::to_string(caps_.slot_log2));
  // sysctl rps_sock_flow_entries: rounds up, 0 removes, at most 2^29 (spec 1.1).
  uint64_t entries = s.rps_sock_flow_entries ? s.rps_sock_flow_entries
                                             : uint64_t(s.nr_cpu_ids) * kernel::roundup_pow_of_two(s.rps_flow_cnt);
  if (entries > kernel::kMaxSockFlowEntries) throw std::invalid_argument("rps_sock_flow_entries above 2^29");
  unsigned sock_log2 = log2_ceil(entries);
  if (sock_log2 > caps_.sock_log2)
    throw std::invalid_argument("rps_sock_flow_entries " + std::to_string(entries) +
                                " is larger than the engine's 2^" + std::to_string(caps_.sock_log2));
  rps_cpu_mask_ = uint32_t(kernel::roundup_pow_of_two(s.nr_cpu_ids) - 1);
  bus_.write32(r::RPS_CPU_MASK::kAddr, rps_cpu_mask_);
  sock_present_ = entries != 0;
  sock_mask_ = sock_present_ ? uint32_t((uint64_t(1) << sock_log2) - 1) : 0;
  bus_.write32(r::SOCK_CFG::kAddr, r::SOCK_CFG::LOG2.put(sock_log2) | r::SOCK_CFG::PRESENT.put(sock_present_));
  wait_idle(r::STATUS::SOCK_BUSY.mask() | r::STATUS::QRESET_BUSY.mask(), "table reset");
  uint32_t ctrl = r::CTRL::ENABLE.put(1) | r::CTRL::PATCHED.put(s.variant == kernel::Variant::kPatched) |
                  r::CTRL::NTUPLE.put(s.ntuple) | r::CTRL::RMAP.put(1) |
                  r::CTRL::SLOT_MASK.put(s.slot_mode == kernel::SlotMode::kMask) | r::CTRL::RPS.put(1) |
                  r::CTRL::FLT_LOOKUP.put(1);
  bus_.write32(r::CTRL::kAddr, ctrl);
}

bool EngineDriver::set_rps_flow_cnt(uint32_t queue, uint64_t count) {
  if (count == 0) {
    bus_.write32(r::RPS_FLOW_CNT::addr(queue), 0);
    return true;
  }
  unsigned log2 = log2_ceil(count);
  if (log2 > caps_.slot_log2) return false;
  bus_.write32(r::RPS_FLOW_CNT::addr(queue), r::RPS_FLOW_CNT::LOG2.put(log2) | r::RPS_FLOW_CNT::PRESENT.put(1));
  return true;
}

void EngineDriver::set_ntuple(bool on) {
  set_ctrl_bit(r::CTRL::NTUPLE.mask(), on);
  if (on) return;
  bus_.write32(r::FLT_CMD::kAddr, r::FLT_CMD::OP.put(uint32_t(r::FilterOp::kClear)));
  wait_done(r::FLT_STATUS::kAddr, r::FLT_STATUS::DONE.mask(), "filter clear");
}

void EngineDriver::rps_record_sock_flow(uint32_t hash, uint32_t cpu) {
  if (!sock_present_ || hash == 0) return;  // spec 1.1: nothing recorded
  bus_.write32(r::SOCK_INDEX::kAddr, hash & sock_mask_);
  bus_.write32(r::SOCK_VALUE::kAddr, (hash & ~rps_cpu_mask_) | cpu);
  bus_.write32(r::SOCK_CMD::kAddr, r::SOCK_CMD::WRITE.put(1));
}

void EngineDriver::head_add(uint32_t cpu, uint32_t n) { bus_.write32(r::HEAD_ADD::addr(cpu), n); }
uint32_t EngineDriver::head(uint32_t cpu) { return bus_.read32(r::HEAD::addr(cpu)); }
uint32_t EngineDriver::tail(uint32_t cpu) { return bus_.read32(r::TAIL::addr(cpu)); }

uint64_t EngineDriver::counter(uint32_t index) {
  uint64_t lo = bus_.read32(r::CNT_LO::addr(index));  // latches the high word
  return uint64_t(bus_.read32(r::CNT_HI::addr(index))) << 32 | lo;
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
