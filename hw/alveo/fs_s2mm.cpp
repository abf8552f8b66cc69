// Data mover for records (Vitis HLS kernel "fs_s2mm", ap_ctrl_hs): takes `nrecords` records
// from the flowsteer kernel's m_axis_records and writes them to device memory, one 32-byte
// record per element (layout: docs/engine-top.md "Record"). The run ends after nrecords, so
// the host sizes it to the frames it sent through fs_mm2s (one record per frame).
#include <ap_int.h>
#include <hls_stream.h>

extern "C" void fs_s2mm(ap_uint<256>* records, unsigned int nrecords,
                        hls::stream<ap_uint<256> >& in) {
#pragma HLS INTERFACE m_axi port = records offset = slave bundle = gmem max_write_burst_length = 64
#pragma HLS INTERFACE axis port = in
#pragma HLS INTERFACE s_axilite port = records
#pragma HLS INTERFACE s_axilite port = nrecords
#pragma HLS INTERFACE s_axilite port = return
record_loop:
  for (unsigned int i = 0; i < nrecords; ++i) {
#pragma HLS PIPELINE II = 1
    records[i] = in.read();
  }
}
