// The buffers of the Alveo kit's data movers (hw/alveo/fs_mm2s.cpp, fs_s2mm.cpp) as the host
// writes and reads them, and the thing that runs the two movers over them: XRT on a card
// (open_xrt_card), or the C++ model of the movers in front of the simulated engine
// (sim/verilator/mover_model.h). The layout is the register map's (MM2S_HDR, REC in
// hw/regs/flowsteer_regs.json); nothing here retypes a bit position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "flowsteer/engine/engine_model.h"
#include "flowsteer/flowsteer_regs.h"

namespace flowsteer::xrt {

// fs_mm2s reads 64-byte words; fs_s2mm writes 32-byte records.
inline constexpr size_t kMm2sWordBytes = regs::MM2S_HDR::kWords * 4;
inline constexpr size_t kRecordBytes = regs::REC::kWords * 4;
inline constexpr size_t kMaxFrameBytes = (size_t(1) << regs::MM2S_HDR::LEN.f.width) - 1;

// The frame buffer fs_mm2s reads: per frame a header word and its data words.
class FrameBuffer {
 public:
  // Appends one frame; std::invalid_argument for an empty frame or one longer than LEN holds.
  void add(const uint8_t* frame, size_t len, uint16_t tuser);
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  uint32_t frames() const { return frames_; }
  void clear() { bytes_.clear(), frames_ = 0; }

 private:
  std::vector<uint8_t> bytes_;
  uint32_t frames_ = 0;
};

// One 64-byte word / one record as little-endian 32-bit words (the AXI byte order).
void load_words(const uint8_t* bytes, uint32_t* words, size_t n);
void store_words(const uint32_t* words, uint8_t* bytes, size_t n);

// Runs fs_s2mm for `nrecords` records into `records` (nrecords * kRecordBytes bytes) and
// fs_mm2s over `frames` (nframes frame entries), and returns once both finished. Throws
// bus::DeviceError with one line when a mover fails or does not finish (CTRL.ENABLE 0: the
// engine holds tready low and fs_mm2s cannot finish).
class MoverRunner {
 public:
  virtual ~MoverRunner() = default;
  virtual void run(const std::vector<uint8_t>& frames, uint32_t nframes, uint8_t* records,
                   uint32_t nrecords) = 0;
  virtual std::string describe() const = 0;
};

}  // namespace flowsteer::xrt
