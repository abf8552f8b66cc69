// The ice aRFS interface over the engine, register level on the golden model (spec 7.1,
// 7.10): entry states, the per-type active counters, NTUPLE, the rmap on CPU hot-plug,
// and register errors surfacing as one DeviceError.
#include <gtest/gtest.h>

#include <string>

#include "flowsteer/driver/engine_driver.h"
#include "flowsteer/engine/engine_regs.h"
#include "flowsteer/flowsteer_regs.h"
#include "flowsteer/nic/frame.h"

using namespace flowsteer;
namespace r = flowsteer::regs;
using driver::FltrState;

namespace {

// The model's register file; reports ERR_STATUS.CMD_BUSY once when asked to (a command
// the RTL ignored because its block was busy).
class BusyOnceBus : public bus::RegisterBus {
 public:
  explicit BusyOnceBus(engine::EngineRegisterFile& inner) : inner_(inner) {}
  bus::AxiResp read(uint32_t a, uint32_t& v) override {
    bus::AxiResp resp = inner_.read(a, v);
    if (a == r::ERR_STATUS::kAddr && busy) v |= r::ERR_STATUS::CMD_BUSY.mask();
    return resp;
  }
  bus::AxiResp write(uint32_t a, uint32_t v, uint8_t strb) override {
    if (a == r::ERR_STATUS::kAddr && (v & r::ERR_STATUS::CMD_BUSY.mask())) busy = false;  // W1C
    return inner_.write(a, v, strb);
  }
  std::string describe() const override { return inner_.describe(); }
  bool busy = false;

 private:
  engine::EngineRegisterFile& inner_;
};

struct Rig {
  engine::EngineRegisterFile regs;
  BusyOnceBus bus{regs};
  driver::EngineDriver drv{bus};
  driver::ArfsRuntime rt{drv};
  Rig() {
    driver::EngineSetup s;
    s.nr_cpu_ids = 4;
    s.num_rx_queues = 4;
    s.rps_flow_cnt = 64;
    drv.configure(s);
    rt.ice_rebuild_arfs();
  }
  // One frame of the flow on its RSS queue, after its app recorded on `cpu`.
  void frame(uint16_t sport, uint32_t cpu) {
    auto f = nic::build_frame(make_tuple("192.0.2.1", "198.51.100.7", sport, 80));
    auto rec = regs.packet(f.data(), f.size());
    ASSERT_TRUE(rec);
    if (rec->hash_valid) drv.rps_record_sock_flow(rec->hash, cpu);
    for (uint32_t c = 0; c < 4; ++c) drv.process_backlog(c);
  }
};

}  // namespace

TEST(ArfsRuntimeIce, StatesFollowTheServiceTask) {
  Rig g;
  EXPECT_TRUE(g.rt.ice_is_arfs_active());
  for (uint16_t p = 1000; p < 1010; ++p) g.frame(p, 2), g.frame(p, 2);  // recorded, then steered
  g.rt.take_events(0);
  ASSERT_GT(g.rt.num_entries(), 0u);
  for (const auto& e : g.rt.entries()) EXPECT_EQ(e.fltr_state, FltrState::kInactive);
  EXPECT_EQ(g.rt.active_fltr_cnt(driver::FlowType::kIpv4Tcp), 0);
  g.rt.ice_sync_arfs_fltrs(1000);  // where ice writes them: ACTIVE, counted, not yet checked
  for (const auto& e : g.rt.entries()) EXPECT_EQ(e.fltr_state, FltrState::kActive);
  EXPECT_EQ(size_t(g.rt.active_fltr_cnt(driver::FlowType::kIpv4Tcp)), g.rt.num_entries());
  EXPECT_EQ(g.drv.filter_count(), g.rt.num_entries());
}

TEST(ArfsRuntimeIce, NtupleOffClearsOnReinitialises) {
  Rig g;
  for (uint16_t p = 2000; p < 2010; ++p) g.frame(p, 1), g.frame(p, 1);
  g.rt.ice_sync_arfs_fltrs(1000);
  ASSERT_GT(g.drv.filter_count(), 0u);
  g.rt.set_features_ntuple(false);
  EXPECT_FALSE(g.rt.ice_is_arfs_active());
  EXPECT_EQ(g.rt.num_entries(), 0u);
  EXPECT_EQ(g.drv.filter_count(), 0u);
  const uint64_t steers = g.drv.steer_calls();
  for (uint16_t p = 3000; p < 3010; ++p) g.frame(p, 1), g.frame(p, 1);
  EXPECT_EQ(g.drv.steer_calls(), steers);  // the kernel stops calling the steer op
  EXPECT_TRUE(g.rt.ice_sync_arfs_fltrs(2000).deleted.empty());
  g.rt.set_features_ntuple(true);
  EXPECT_TRUE(g.rt.ice_is_arfs_active());
  for (uint16_t p = 4000; p < 4010; ++p) g.frame(p, 1), g.frame(p, 1);
  g.rt.take_events(3000);
  EXPECT_GT(g.rt.num_entries(), 0u);
  EXPECT_EQ(g.drv.filter_count(), g.rt.num_entries());
}

TEST(ArfsRuntimeIce, CpuOfflineDeletesTheFiltersOfItsQueue) {
  Rig g;
  for (uint16_t p = 5000; p < 5020; ++p) g.frame(p, uint32_t(p % 4)), g.frame(p, uint32_t(p % 4));
  g.rt.ice_sync_arfs_fltrs(1000);
  size_t on2 = 0;
  for (const auto& e : g.rt.entries()) on2 += e.queue == 2;
  ASSERT_GT(on2, 0u);
  const uint64_t del = g.rt.counters().del;
  EXPECT_EQ(g.rt.set_cpu_online(2, false), on2);
  EXPECT_EQ(g.rt.counters().del, del + on2);
  for (const auto& e : g.rt.entries()) EXPECT_NE(e.queue, 2);
  EXPECT_EQ(g.drv.filter_count(), g.rt.num_entries());
  EXPECT_EQ(g.regs.model().kernel().cpu_online(2), false);
  EXPECT_EQ(g.rt.set_cpu_online(2, true), 0u);
  EXPECT_EQ(g.regs.model().kernel().cpu_online(2), true);
  EXPECT_EQ(g.rt.rmap(2), 2);
}

TEST(ArfsRuntimeIce, IgnoredCommandIsOneDeviceError) {
  Rig g;
  g.rt.ice_sync_arfs_fltrs(1000);
  g.bus.busy = true;
  try {
    g.rt.ice_sync_arfs_fltrs(2000);
    ADD_FAILURE() << "no error";
  } catch (const bus::DeviceError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("CMD_BUSY"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_FALSE(g.bus.busy);  // cleared: the next run goes on
  EXPECT_NO_THROW(g.rt.ice_sync_arfs_fltrs(3000));
}
