// The data movers' buffer layout (register map layouts MM2S_HDR and REC).
#include "flowsteer/xrt/movers.h"

#include <stdexcept>

namespace flowsteer::xrt {

void load_words(const uint8_t* bytes, uint32_t* words, size_t n) {
  for (size_t i = 0; i < n; ++i)
    words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
               uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
}

void store_words(const uint32_t* words, uint8_t* bytes, size_t n) {
  for (size_t i = 0; i < n; ++i)
    for (size_t b = 0; b < 4; ++b) bytes[4 * i + b] = uint8_t(words[i] >> (8 * b));
}

void FrameBuffer::add(const uint8_t* frame, size_t len, uint16_t tuser) {
  // LEN 0 ends fs_mm2s's list, so an empty frame cannot be sent through it
  if (len == 0)
    throw std::invalid_argument("data movers: an empty frame cannot be sent (LEN 0 ends the list)");
  if (len > kMaxFrameBytes)
    throw std::invalid_argument("data movers: a " + std::to_string(len) +
                                "-byte frame is longer than fs_mm2s takes (" +
                                std::to_string(kMaxFrameBytes) + ")");
  regs::Mm2sHdr h;
  h.len = uint16_t(len);
  h.tuser = tuser;
  uint32_t w[regs::MM2S_HDR::kWords];
  regs::pack_mm2s_hdr(h, w);
  const size_t at = bytes_.size();
  const size_t data_words = (len + kMm2sWordBytes - 1) / kMm2sWordBytes;
  bytes_.resize(at + (1 + data_words) * kMm2sWordBytes, 0);  // the tail of the last word is 0
  store_words(w, &bytes_[at], regs::MM2S_HDR::kWords);
  std::copy(frame, frame + len, bytes_.begin() + std::ptrdiff_t(at + kMm2sWordBytes));
  ++frames_;
}

}  // namespace flowsteer::xrt
