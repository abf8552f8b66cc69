`resetall
`timescale 1ns / 1ps
`default_nettype none

// RSS indirection table: queue = lut[hash & (2^cfg_lut_log2 - 1)] (spec 6.5, DESIGN step 3).
// One lookup per clock, latency 1. Written one entry at a time from the register window;
// a second copy answers register reads without stealing lookup slots. Entries are not
// reset (their contents are undefined until written, as in the register map).
module fs_rss_lut #(
    // log2 of the table depth
    parameter integer LUT_LOG2 = 11,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // lookup sideband width
    parameter integer USER_WIDTH = 16
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [4:0]             cfg_lut_log2,    // entries in use = 2^min(value, LUT_LOG2)

    // table writes and read-back
    input  wire                   lut_wr_en,
    input  wire [LUT_LOG2-1:0]    lut_wr_index,
    input  wire [QUEUE_WIDTH-1:0] lut_wr_queue,
    input  wire                   lut_rd_en,
    input  wire [LUT_LOG2-1:0]    lut_rd_index,
    output wire [QUEUE_WIDTH-1:0] lut_rd_queue,    // one clock after lut_rd_en

    // lookups
    input  wire                   s_lut_valid,
    output wire                   s_lut_ready,
    input  wire [31:0]            s_lut_hash,
    input  wire [USER_WIDTH-1:0]  s_lut_user,

    output wire                   m_lut_valid,
    input  wire                   m_lut_ready,
    output wire [QUEUE_WIDTH-1:0] m_lut_queue,
    output wire [31:0]            m_lut_hash,
    output wire [USER_WIDTH-1:0]  m_lut_user
);

logic valid_reg = 1'b0;
logic [31:0] hash_reg;
logic [USER_WIDTH-1:0] user_reg;
logic ce;
logic [LUT_LOG2-1:0] mask;
logic [LUT_LOG2-1:0] index;

assign ce = !valid_reg || m_lut_ready;
assign s_lut_ready = ce;

always_comb begin
    for (int i = 0; i < LUT_LOG2; i++) begin
        mask[i] = (5'(i) < cfg_lut_log2);
    end
    index = s_lut_hash[LUT_LOG2-1:0] & mask;
end

fs_ram_sdp #(
    .DATA_WIDTH(QUEUE_WIDTH),
    .ADDR_WIDTH(LUT_LOG2)
) lookup_ram (
    .clk(clk),
    .wr_en(lut_wr_en),
    .wr_addr(lut_wr_index),
    .wr_data(lut_wr_queue),
    .rd_en(ce),
    .rd_addr(index),
    .rd_data(m_lut_queue)
);

fs_ram_sdp #(
    .DATA_WIDTH(QUEUE_WIDTH),
    .ADDR_WIDTH(LUT_LOG2)
) readback_ram (
    .clk(clk),
    .wr_en(lut_wr_en),
    .wr_addr(lut_wr_index),
    .wr_data(lut_wr_queue),
    .rd_en(lut_rd_en),
    .rd_addr(lut_rd_index),
    .rd_data(lut_rd_queue)
);

always_ff @(posedge clk) begin
    if (ce) begin
        valid_reg <= s_lut_valid;
        hash_reg <= s_lut_hash;
        user_reg <= s_lut_user;
    end
    if (rst) begin
        valid_reg <= 1'b0;
    end
end

assign m_lut_valid = valid_reg;
assign m_lut_hash = hash_reg;
assign m_lut_user = user_reg;

`ifdef FORMAL
// stream rules on both ports (hw/formal)
fs_axis_check #(.WIDTH(32 + USER_WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst), .valid(s_lut_valid),
    .ready(s_lut_ready), .data({s_lut_hash, s_lut_user}));
fs_axis_check #(.WIDTH(QUEUE_WIDTH + 32 + USER_WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst),
    .valid(m_lut_valid), .ready(m_lut_ready), .data({m_lut_queue, m_lut_hash, m_lut_user}));
`endif

endmodule

`resetall
