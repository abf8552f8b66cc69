`resetall
`timescale 1ns / 1ps
`default_nettype none

// Bucket of a filter key in fs_filter_table: the low BUCKET_BITS of the Toeplitz hash with the
// Microsoft key over (src, dst, sport, dport) (hw/README.md), so the golden model can predict
// FULL. A constant key makes it XOR trees. The table places its lookups and commands with it;
// the engine top tracks, per packet in flight, whether its bucket changed since its lookup.
module fs_flt_bucket #(
    parameter integer BUCKET_BITS = 10
) (
    input  wire [296:0]            key,     // {ipv6, proto, src, dst, sport, dport}
    output wire [BUCKET_BITS-1:0]  bucket
);

// the Microsoft RSS key (spec 6.5), bytes 0..39
localparam [319:0] MS_KEY = 320'h6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa;

logic [287:0] tin;      // the hash input: 36 bytes of IPv6, or 12 of IPv4 then zeros
logic [BUCKET_BITS-1:0] h;
wire unused_proto = &{1'b0, key[295:288]};     // the hash does not cover the protocol
always_comb begin
    if (key[296]) begin
        tin = key[287:0];
    end else begin
        tin = {key[287:256], key[159:128], key[31:0], 192'd0};
    end
    // input bit i adds MS_KEY's 32-bit window at 288 - i; only its low BUCKET_BITS are kept
    h = '0;
    for (int i = 0; i < 288; i++) begin
        h = h ^ ({BUCKET_BITS{tin[287-i]}} & MS_KEY[288-i +: BUCKET_BITS]);
    end
end

assign bucket = h;

endmodule

`resetall
