`resetall
`timescale 1ns / 1ps
`default_nettype none

// The register map's decode of one AXI4-Lite address (formal only): the generated FS_DEC_*
// table, each array sized as fs_reg_file sizes it; the engine (ENGINE) decodes as the model
// does, an unaligned address is unmapped. fs_axil_check's SLVERR expectation, and the same
// for an address a block holds (its induction invariants).
module fs_axil_dec #(
    // the map's blocks beyond the NIC plane are built (fs_reg_file ENGINE)
    parameter integer ENGINE = 0,
    // array sizes of the build (fs_reg_file's parameters of the same names)
    parameter integer LUT_LOG2 = 11,
    parameter integer CPU_LOG2 = 8,
    parameter integer QUEUE_LOG2 = 6,
    parameter integer RPS_POOL_LOG2 = 12
) (
    input  wire [15:0]  addr,
    output wire         dec         // the map decodes addr
);

`include "flowsteer_regs.vh"

localparam bit EN = (ENGINE != 0);

logic [FS_DEC_N-1:0] hit;
wire [13:0] wa = addr[15:2];
for (genvar i = 0; i < FS_DEC_N; i++) begin : g_dec
    localparam integer BASE = 32'(FS_DEC_WADDR[FS_DEC_WADDR_W*i +: FS_DEC_WADDR_W]);
    localparam integer WS = 32'(FS_DEC_WSTRIDE_LOG2[FS_DEC_WSTRIDE_LOG2_W*i +: FS_DEC_WSTRIDE_LOG2_W]);
    localparam integer IMPL = fs_dec_impl(i, LUT_LOG2, CPU_LOG2, QUEUE_LOG2, RPS_POOL_LOG2);
    localparam integer LAST = BASE + ((IMPL - 1) << WS);       // word address of the last element
    localparam bit BUILT = EN || FS_DEC_NIC[i];
    assign hit[i] = BUILT && 32'(wa) + 1 > BASE && 32'(wa) <= LAST &&
                    (WS == 0 || ((32'(wa) - BASE) & ((1 << WS) - 1)) == 0);
end

assign dec = hit != '0 && (!EN || addr[1:0] == 2'b00);

endmodule

`resetall
