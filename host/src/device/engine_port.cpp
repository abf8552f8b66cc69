// Backends of the engine for the host runtime: model, callback (any bus + packet function),
// XRT. The Verilator one is in verilator_port.cpp (built only with the RTL harness).
#include "flowsteer/device/engine_port.h"
#include "flowsteer/device/mover_port.h"
#include "flowsteer/xrt/xrt_bus.h"

#include <utility>

namespace flowsteer::device {

void FramePort::drain(std::vector<engine::OutputRecord>& out) {
  flush();
  out.insert(out.end(), done_.begin(), done_.end());
  returned_ += done_.size();
  done_.clear();
}

AxiResp PortBus::read(uint32_t offset, uint32_t& value) {
  if (frames_ && frames_->sent_ != frames_->returned_ + frames_->done_.size()) frames_->flush();
  ++accesses_;
  return inner_.read(offset, value);
}

AxiResp PortBus::write(uint32_t offset, uint32_t value, uint8_t strb) {
  if (frames_ && frames_->sent_ != frames_->returned_ + frames_->done_.size()) frames_->flush();
  ++accesses_;
  return inner_.write(offset, value, strb);
}

namespace {

// Frames go through a packet function at once (a sequential model has no pipeline); a
// frame it does not take is an error at the next flush, as the RTL's drain would be.
class CallbackFrames : public FramePort {
 public:
  CallbackFrames(FrameFn fn, std::string who) : fn_(std::move(fn)), who_(std::move(who)) {}
  using FramePort::send;
  void send(const uint8_t* frame, size_t len) override {
    ++sent_;
    engine::OutputRecord rec;
    if (refused_ == 0 && fn_(frame, len, &rec)) done_.push_back(rec);
    else ++refused_;
  }

 protected:
  void flush() override {
    if (refused_ == 0) return;
    uint64_t n = refused_;
    sent_ -= n;  // dropped: nothing will come back for them
    refused_ = 0;
    throw DeviceError(who_ + ": " + std::to_string(n) +
                      " frame(s) not taken (CTRL.ENABLE is 0, the stream holds tready low)");
  }

 private:
  FrameFn fn_;
  std::string who_;
  uint64_t refused_ = 0;
};

class CallbackPort : public EnginePort {
 public:
  CallbackPort(RegisterBus& bus, FrameFn fn, const char* kind)
      : has_frames_(bool(fn)),
        frames_(std::move(fn), bus.describe()),
        bus_(bus, has_frames_ ? &frames_ : nullptr),
        kind_(kind) {}
  RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return has_frames_ ? &frames_ : nullptr; }
  const char* kind() const override { return kind_; }

 private:
  bool has_frames_;
  CallbackFrames frames_;
  PortBus bus_;
  const char* kind_;
};

class ModelPort : public EnginePort {
 public:
  explicit ModelPort(const engine::EngineCaps& caps)
      : regs_(caps),
        frames_(
            [this](const uint8_t* f, size_t n, engine::OutputRecord* rec) {
              auto r = regs_.packet(f, n);
              if (r) *rec = *r;
              return bool(r);
            },
            regs_.describe()),
        bus_(regs_, &frames_) {}
  RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return &frames_; }
  const char* kind() const override { return "model"; }
  void reset_engine() override { regs_.reset(); }

 private:
  engine::EngineRegisterFile regs_;
  CallbackFrames frames_;
  PortBus bus_;
};

class XrtPort : public EnginePort {
 public:
  explicit XrtPort(std::unique_ptr<RegisterBus> bus) : inner_(std::move(bus)), bus_(*inner_, nullptr) {}
  RegisterBus& bus() override { return bus_; }
  FramePort* frames() override { return nullptr; }
  const char* kind() const override { return "xrt"; }

 private:
  std::unique_ptr<RegisterBus> inner_;
  PortBus bus_;
};

}  // namespace

void EnginePort::reset_engine() {
  throw DeviceError(std::string(kind()) + " backend: the host cannot reset the engine");
}

std::unique_ptr<EnginePort> open_model_port(const engine::EngineCaps& caps) {
  return std::make_unique<ModelPort>(caps);
}

std::unique_ptr<EnginePort> open_callback_port(RegisterBus& bus, FrameFn fn, const char* kind) {
  return std::make_unique<CallbackPort>(bus, std::move(fn), kind);
}

std::unique_ptr<EnginePort> open_xrt_port(const std::string& xclbin_path, unsigned device_index, bool need_movers) {
  xrt::XrtCard card = xrt::open_xrt_card(xclbin_path, device_index, need_movers);
  if (card.movers) return open_mover_port(std::move(card.bus), std::move(card.movers), "xrt");
  return std::make_unique<XrtPort>(std::move(card.bus));
}

}  // namespace flowsteer::device
