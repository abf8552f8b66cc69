`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Lite rules on a block's slave port (formal and simulation check, only compiled under
// FORMAL). The master's channels (AW, W, AR) hold still until ready (assumed); B and R hold
// still until ready and are low out of reset (asserted); one B per AW+W pair and one R per AR,
// in order, never without a request; with DECODE, the answer is SLVERR exactly where the
// register map (the generated FS_DEC_* table, sized as fs_reg_file sizes it) decodes nothing
// (EXACT_WR = 0: writes to decoded addresses may still be refused, as the engine refuses
// values it cannot hold); with RSP_BOUND > 0, a held request is answered within RSP_BOUND
// clocks while no answer waits for the master.
module fs_axil_check #(
    // 1: check SLVERR against the map's decode
    parameter integer DECODE = 1,
    // 1: a decoded write answers OKAY (the NIC plane); 0: only undecoded -> SLVERR
    parameter integer EXACT_WR = 1,
    // the map's blocks beyond the NIC plane are built (fs_reg_file ENGINE)
    parameter integer ENGINE = 0,
    // array sizes of the build (fs_reg_file's parameters of the same names)
    parameter integer LUT_LOG2 = 11,
    parameter integer CPU_LOG2 = 8,
    parameter integer QUEUE_LOG2 = 6,
    parameter integer RPS_POOL_LOG2 = 12,
    // clocks within which a request is answered (0: no bound checked; below 1024)
    parameter integer RSP_BOUND = 0
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  awaddr,
    input  wire         awvalid,
    input  wire         awready,
    input  wire [31:0]  wdata,
    input  wire [3:0]   wstrb,
    input  wire         wvalid,
    input  wire         wready,
    input  wire [1:0]   bresp,
    input  wire         bvalid,
    input  wire         bready,
    input  wire [15:0]  araddr,
    input  wire         arvalid,
    input  wire         arready,
    input  wire [31:0]  rdata,
    input  wire [1:0]   rresp,
    input  wire         rvalid,
    input  wire         rready,
    // requests accepted and not yet answered, per channel, for a block's induction invariants
    // (unused: connect `()`)
    output wire [2:0]   aw_inflight,
    output wire [2:0]   w_inflight,
    output wire [2:0]   ar_inflight
    ,
    // the decode bit per request in flight (oldest in bit 0), for fs_axil_regs's invariants
    output wire [3:0]   aw_dec_q,
    output wire [3:0]   ar_dec_q
);

`include "flowsteer_regs.vh"

localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;

fs_axis_check #(.WIDTH(16), .INPUT(1)) f_aw (.clk(clk), .rst(rst), .valid(awvalid), .ready(awready),
    .data(awaddr));
fs_axis_check #(.WIDTH(36), .INPUT(1)) f_w (.clk(clk), .rst(rst), .valid(wvalid), .ready(wready),
    .data({wdata, wstrb}));
fs_axis_check #(.WIDTH(16), .INPUT(1)) f_ar (.clk(clk), .rst(rst), .valid(arvalid), .ready(arready),
    .data(araddr));
fs_axis_check #(.WIDTH(2), .INPUT(0)) f_b (.clk(clk), .rst(rst), .valid(bvalid), .ready(bready),
    .data(bresp));
fs_axis_check #(.WIDTH(34), .INPUT(0)) f_r (.clk(clk), .rst(rst), .valid(rvalid), .ready(rready),
    .data({rdata, rresp}));

// ---------------------------------------------------------------- the map's decode
// the same table and sizing rule fs_reg_file decodes with (its "decode" section)
logic dec_aw, dec_ar;
fs_axil_dec #(.ENGINE(ENGINE), .LUT_LOG2(LUT_LOG2), .CPU_LOG2(CPU_LOG2), .QUEUE_LOG2(QUEUE_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2)) u_dec_aw (.addr(awaddr), .dec(dec_aw));
fs_axil_dec #(.ENGINE(ENGINE), .LUT_LOG2(LUT_LOG2), .CPU_LOG2(CPU_LOG2), .QUEUE_LOG2(QUEUE_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2)) u_dec_ar (.addr(araddr), .dec(dec_ar));

// ---------------------------------------------------------------- requests in flight
// per channel, the decode of each accepted request, oldest in bit 0 (at most 3 in flight)
logic [3:0] aw_q_reg = '0, ar_q_reg = '0;       // decoded bit per request
logic [2:0] aw_n_reg = '0, w_n_reg = '0, ar_n_reg = '0;
logic aw_hs, w_hs, ar_hs, b_hs, r_hs;
assign aw_hs = awvalid && awready;
assign w_hs = wvalid && wready;
assign ar_hs = arvalid && arready;
assign b_hs = bvalid && bready;
assign r_hs = rvalid && rready;

always_ff @(posedge clk) begin
    aw_n_reg <= aw_n_reg + 3'(aw_hs) - 3'(b_hs);
    w_n_reg <= w_n_reg + 3'(w_hs) - 3'(b_hs);
    ar_n_reg <= ar_n_reg + 3'(ar_hs) - 3'(r_hs);
    if (b_hs) begin
        aw_q_reg <= aw_q_reg >> 1;
        if (aw_hs) aw_q_reg[2'(aw_n_reg - 3'd1)] <= dec_aw;
    end else if (aw_hs) begin
        aw_q_reg[aw_n_reg[1:0]] <= dec_aw;
    end
    if (r_hs) begin
        ar_q_reg <= ar_q_reg >> 1;
        if (ar_hs) ar_q_reg[2'(ar_n_reg - 3'd1)] <= dec_ar;
    end else if (ar_hs) begin
        ar_q_reg[ar_n_reg[1:0]] <= dec_ar;
    end
    if (rst) begin
        aw_n_reg <= '0;
        w_n_reg <= '0;
        ar_n_reg <= '0;
    end
end

assign aw_inflight = aw_n_reg;
assign w_inflight = w_n_reg;
assign ar_inflight = ar_n_reg;
assign aw_dec_q = aw_q_reg;
assign ar_dec_q = ar_q_reg;

// clocks a request has waited with no answer pending (saturates)
logic [9:0] wait_reg = '0;
logic waiting;
assign waiting = (ar_n_reg != '0 || (aw_n_reg != '0 && w_n_reg != '0)) && !bvalid && !rvalid;
always_ff @(posedge clk) begin
    if (waiting && wait_reg != '1) wait_reg <= wait_reg + 10'd1;
    if (!waiting || rst) wait_reg <= '0;
end

logic armed_reg = 1'b0;
always_ff @(posedge clk) begin
    if (rst) armed_reg <= 1'b1;
end

always_ff @(posedge clk) begin
    if (armed_reg && !rst) begin
        // no answer without a request; at most 3 in flight per channel (the slave holds one)
        if (bvalid) p_b_req: assert (aw_n_reg != '0 && w_n_reg != '0);
        if (rvalid) p_r_req: assert (ar_n_reg != '0);
        p_inflight: assert (aw_n_reg < 3'd3 && w_n_reg < 3'd3 && ar_n_reg < 3'd3);
        c_b_slverr: cover (b_hs && bresp == RESP_SLVERR);
        c_r_slverr: cover (r_hs && rresp == RESP_SLVERR);
        c_r_okay: cover (r_hs && rresp == RESP_OKAY);
        c_b_okay: cover (b_hs && bresp == RESP_OKAY);
    end
end

if (DECODE != 0) begin : g_decode
    always_ff @(posedge clk) begin
        if (armed_reg && !rst) begin
            if (bvalid && !aw_q_reg[0]) p_b_slverr: assert (bresp == RESP_SLVERR);
            if (EXACT_WR != 0 && bvalid && aw_q_reg[0]) p_b_okay: assert (bresp == RESP_OKAY);
            if (rvalid) p_r_decode: assert ((rresp == RESP_SLVERR) == !ar_q_reg[0]);
        end
    end
end

if (RSP_BOUND > 0) begin : g_bound
    always_ff @(posedge clk) begin
        if (armed_reg && !rst) p_answer: assert (wait_reg < 10'(RSP_BOUND));
    end
end

endmodule

`resetall
