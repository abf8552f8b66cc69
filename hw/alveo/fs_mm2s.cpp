// Data mover for host-driven frames (Vitis HLS kernel "fs_mm2s", ap_ctrl_hs): reads frames that
// the host wrote to device memory and streams them into the flowsteer kernel's s_axis_frames.
//
// Buffer layout: layout MM2S_HDR of hw/regs/flowsteer_regs.json (the host writes it with
// the generated regs::pack_mm2s_hdr, host/src/xrt/movers.cpp): per frame one 64-byte header
// word (LEN, TUSER) and ceil(LEN / 64) data words; the last beat's tkeep marks the bytes
// present; LEN 0 ends the list early. The field positions come from fs_layouts.h, which
// scripts/gen_regs.py --layouts-h generates from the same map (scripts/build-xclbin.sh passes
// its folder to v++ -I).
#include <ap_axi_sdata.h>
#include <ap_int.h>
#include <hls_stream.h>

#include "fs_layouts.h"

typedef ap_axiu<512, 16, 0, 0> frame_beat;

extern "C" void fs_mm2s(const ap_uint<512>* frames, unsigned int nframes,
                        hls::stream<frame_beat>& out) {
#pragma HLS INTERFACE m_axi port = frames offset = slave bundle = gmem max_read_burst_length = 64
#pragma HLS INTERFACE axis port = out
#pragma HLS INTERFACE s_axilite port = frames
#pragma HLS INTERFACE s_axilite port = nframes
#pragma HLS INTERFACE s_axilite port = return
  unsigned int word = 0;
frame_loop:
  for (unsigned int f = 0; f < nframes; ++f) {
    const ap_uint<512> hdr = frames[word++];
    const unsigned int len =
        hdr.range(FS_MM2S_HDR_LEN_LSB + FS_MM2S_HDR_LEN_WIDTH - 1, FS_MM2S_HDR_LEN_LSB);
    if (len == 0) break;
    const unsigned int beats = (len + 63) / 64;
    const unsigned int tail = len % 64;
  beat_loop:
    for (unsigned int b = 0; b < beats; ++b) {
#pragma HLS PIPELINE II = 1
      frame_beat v;
      v.data = frames[word++];
      const bool last = b + 1 == beats;
      ap_uint<64> keep = ~ap_uint<64>(0);
      if (last && tail != 0) keep = (ap_uint<64>(1) << tail) - 1;
      v.keep = keep;
      v.strb = keep;
      v.user = hdr.range(FS_MM2S_HDR_TUSER_LSB + FS_MM2S_HDR_TUSER_WIDTH - 1, FS_MM2S_HDR_TUSER_LSB);
      v.last = last;
      out.write(v);
    }
  }
}
