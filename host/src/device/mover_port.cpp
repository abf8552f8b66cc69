// The data movers' frame port (mover_port.h).
#include "flowsteer/device/mover_port.h"

#include <utility>
#include <vector>

namespace flowsteer::device {

void MoverFrames::send(const uint8_t* frame, size_t len) {
  buf_.add(frame, len, uint16_t(sent_));
  ++sent_;
}

void MoverFrames::flush() {
  const uint32_t n = buf_.frames();
  if (n == 0) return;
  const uint64_t first = sent_ - n;  // index of the buffer's first frame
  std::vector<uint8_t> recs(size_t(n) * xrt::kRecordBytes);
  try {
    movers_.run(buf_.bytes(), n, recs.data(), n);
  } catch (...) {
    sent_ = first;  // dropped: nothing will come back for them
    buf_.clear();
    throw;
  }
  buf_.clear();
  ++runs_;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t w[regs::REC::kWords];
    xrt::load_words(&recs[size_t(i) * xrt::kRecordBytes], w, regs::REC::kWords);
    const regs::Rec r = regs::unpack_rec(w);
    const uint16_t want = uint16_t(first + i);
    if (r.user != want || r.reserved != 0) {
      sent_ = first + i;
      throw DeviceError(
          who_ + ": record " + std::to_string(i) + " of a " + std::to_string(n) + "-frame run " +
          (r.user != want ? "carries tuser " + std::to_string(r.user) + ", its frame " +
                                std::to_string(want) + " (a frame lost or out of order)"
                          : "has reserved bits set (not the record layout)"));
    }
    done_.push_back(engine::output_record(r));
  }
}

namespace {

class MoverPort : public EnginePort {
 public:
  MoverPort(std::unique_ptr<RegisterBus> bus, std::unique_ptr<xrt::MoverRunner> movers,
            const char* kind)
      : inner_(std::move(bus)),
        movers_(std::move(movers)),
        frames_(*movers_, inner_->describe() + " via " + movers_->describe()),
        bus_(*inner_, &frames_),
        kind_(kind) {}
  RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return &frames_; }
  const char* kind() const override { return kind_; }

 private:
  std::unique_ptr<RegisterBus> inner_;
  std::unique_ptr<xrt::MoverRunner> movers_;
  MoverFrames frames_;
  PortBus bus_;
  const char* kind_;
};

}  // namespace

std::unique_ptr<EnginePort> open_mover_port(std::unique_ptr<RegisterBus> bus,
                                            std::unique_ptr<xrt::MoverRunner> movers,
                                            const char* kind) {
  return std::make_unique<MoverPort>(std::move(bus), std::move(movers), kind);
}

}  // namespace flowsteer::device
