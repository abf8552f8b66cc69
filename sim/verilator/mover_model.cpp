// The data movers' model (mover_model.h).
#include "mover_model.h"

#include <stdexcept>

#include "flowsteer/device/mover_port.h"

namespace flowsteer::sim {

using bus::DeviceError;

void MoverModel::run(const std::vector<uint8_t>& frames, uint32_t nframes, uint8_t* records,
                     uint32_t nrecords) {
  const size_t words = frames.size() / xrt::kMm2sWordBytes;
  size_t word = 0;
  std::vector<uint8_t> frame;
  // fs_mm2s: frame_loop / beat_loop
  for (uint32_t f = 0; f < nframes; ++f) {
    if (word >= words)
      throw DeviceError("fs_mm2s model: the header of frame " + std::to_string(f) +
                        " is past the " + std::to_string(frames.size()) + "-byte buffer");
    uint32_t w[regs::MM2S_HDR::kWords];
    xrt::load_words(&frames[word++ * xrt::kMm2sWordBytes], w, regs::MM2S_HDR::kWords);
    const regs::Mm2sHdr h = regs::unpack_mm2s_hdr(w);
    if (h.len == 0) break;
    const size_t beats = (h.len + xrt::kMm2sWordBytes - 1) / xrt::kMm2sWordBytes;
    if (word + beats > words)
      throw DeviceError("fs_mm2s model: the data of frame " + std::to_string(f) +
                        " runs past the buffer");
    // the last beat's tkeep keeps len % 64 bytes (all 64 when 0): the frame is its first len bytes
    const uint8_t* data = &frames[word * xrt::kMm2sWordBytes];
    frame.assign(data, data + h.len);
    word += beats;
    beats_ += beats;
    sim_.send_frame(frame, h.tuser);
  }
  // fs_s2mm: record_loop, one 256-bit record per element
  for (uint32_t i = 0; i < nrecords; ++i) {
    EngineRecord r;
    if (!sim_.pop_record(r)) {
      try {
        sim_.drain();
      } catch (const std::runtime_error& e) {  // the harness's timeout: as a card's run timeout
        throw DeviceError(
            std::string("fs_mm2s model: the engine did not take the frames (CTRL.ENABLE 0?): ") +
            e.what());
      }
      if (!sim_.pop_record(r))
        throw DeviceError("fs_s2mm model: " + std::to_string(i) + " of " +
                          std::to_string(nrecords) + " records came (the run would not finish)");
    }
    uint32_t rw[regs::REC::kWords];
    encode_engine_record(r, rw);
    xrt::store_words(rw, records + size_t(i) * xrt::kRecordBytes, regs::REC::kWords);
  }
}

namespace {

// The engine is the register bus of the port and the stream behind the movers; the port
// owns both through this bus (EngineSim is not movable).
class SimBus : public bus::RegisterBus {
 public:
  explicit SimBus(const EngineSimOptions& o) : sim(o) {}
  bus::AxiResp read(uint32_t offset, uint32_t& value) override { return sim.read(offset, value); }
  bus::AxiResp write(uint32_t offset, uint32_t value, uint8_t strb) override {
    return sim.write(offset, value, strb);
  }
  std::string describe() const override { return sim.describe(); }
  EngineSim sim;
};

}  // namespace

std::unique_ptr<device::EnginePort> open_mover_model_port(const EngineSimOptions& opt) {
  auto bus = std::make_unique<SimBus>(opt);
  auto movers = std::make_unique<MoverModel>(bus->sim);
  return device::open_mover_port(std::move(bus), std::move(movers), "movers");
}

}  // namespace flowsteer::sim
