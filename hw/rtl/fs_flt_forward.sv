`resetall
`timescale 1ns / 1ps
`default_nettype none

// Filter forwarding unit of the engine top (docs/engine-top.md "Hazards inside the packet
// pipeline"). Packets of one flow look up the filter table back to back; a steer changes the
// filter of its tuple (INSERT or RETARGET by fs_steer_driver) after later packets of that
// tuple may already have looked it up. This unit makes each packet enter fs_rfs_core with the
// filter state the sequential model gives it:
//   * change log: every driver INSERT/RETARGET the table answered OK is logged as
//     {key, id, queue} (the state the tuple's lookups see afterwards: hit, id, queue);
//     changes are numbered (chg_cnt).
//   * stamp: a packet takes the change count when its lookup is accepted (lk_stamp; the
//     table runs commands between lookups, so the lookup saw every change numbered below it,
//     and maybe the one answered in the same clock: applying a change twice is harmless).
//   * scan: at the RFS core input the packet applies, in order, the logged changes numbered
//     from its stamp up to the count (one per clock: read one, compare the one before) -> patch_*.
//   * no hold: a packet behind one that steers enters the core with the state before the
//     steer; the core drops it when the steerer leaves (fs_rfs_core m_flush) and the top
//     presents it again from its lookup result and stamp, so this scan applies the change.
//   * window: lookups are admitted while fewer than 2^LOG_LOG2 - 2 packets are between the
//     lookup and their record, so a packet never needs a change the log has overwritten
//     (a presented-again packet stays inside the window).
// Stalls: stat_scan (changes to apply); the lookup window (lk_room low) is a second, never
// reached at one packet per clock.
module fs_flt_forward #(
    // filter key width {ipv6, proto, src, dst, sport, dport}
    parameter integer KEY_W = 297,
    parameter integer ID_WIDTH = 16,
    parameter integer QUEUE_WIDTH = 16,
    // change log depth (log2)
    parameter integer LOG_LOG2 = 4
) (
    input  wire                   clk,
    input  wire                   rst,

    // filter lookups
    input  wire                   lk_take,         // a lookup accepted this clock
    output wire [LOG_LOG2:0]      lk_stamp,        // its stamp
    output wire                   lk_room,         // the lookup window has room

    // the steer driver's table commands and their responses
    input  wire                   dc_take,
    input  wire [3:0]             dc_op,           // enum filter_op
    input  wire [KEY_W-1:0]       dc_key,
    input  wire [ID_WIDTH-1:0]    dc_id,
    input  wire [QUEUE_WIDTH-1:0] dc_queue,
    input  wire                   dr_valid,
    input  wire [3:0]             dr_err,          // enum filter_err

    // the packet at the RFS core input
    input  wire                   p_load,          // a new packet (or none) replaces it
    input  wire [LOG_LOG2:0]      p_load_stamp,
    input  wire                   p_valid,
    input  wire [KEY_W-1:0]       p_key,
    output wire                   p_go,            // may enter the core this clock
    output wire                   patch_valid,     // the packet's filter becomes hit/id/queue
    output wire [ID_WIDTH-1:0]    patch_id,
    output wire [QUEUE_WIDTH-1:0] patch_queue,

    // the RFS core
    input  wire                   core_exit,       // a record left the core

    output wire                   stat_scan
);

`include "flowsteer_regs.vh"

localparam integer LOGN = 1 << LOG_LOG2;
localparam integer SW = LOG_LOG2 + 1;
localparam integer ENT_W = KEY_W + ID_WIDTH + QUEUE_WIDTH;
localparam integer WW = LOG_LOG2 + 2;                            // window counter width
localparam [3:0] OP_INSERT = 4'(FS_FILTER_OP_INSERT);
localparam [3:0] OP_RETARGET = 4'(FS_FILTER_OP_RETARGET);
localparam [3:0] E_OK = 4'(FS_FILTER_ERR_OK);

`ifdef VERILATOR
if (LOG_LOG2 < 2) begin : g_bad_param
    $error("fs_flt_forward: need LOG_LOG2 >= 2");
end
`endif

// ---------------------------------------------------------------- change log
logic [SW-1:0] chg_cnt_reg = '0;
logic [ENT_W-1:0] log_reg [LOGN];
logic dc_change_reg = 1'b0;              // the driver's command in progress can change state
logic [ENT_W-1:0] dc_ent_reg;

always_ff @(posedge clk) begin
    if (dc_take) begin
        dc_change_reg <= (dc_op == OP_INSERT) || (dc_op == OP_RETARGET);
        dc_ent_reg <= {dc_key, dc_id, dc_queue};
    end
    if (dr_valid && dc_change_reg && dr_err == E_OK) begin
        log_reg[chg_cnt_reg[LOG_LOG2-1:0]] <= dc_ent_reg;
        chg_cnt_reg <= chg_cnt_reg + SW'(1);
    end
    if (rst) begin
        chg_cnt_reg <= '0;
        dc_change_reg <= 1'b0;
    end
end

assign lk_stamp = chg_cnt_reg;

// ---------------------------------------------------------------- lookup window
logic [WW-1:0] win_reg = '0;             // lookups accepted, record not yet out of the core
assign lk_room = win_reg < WW'(LOGN - 2);
always_ff @(posedge clk) begin
    win_reg <= win_reg + WW'(lk_take) - WW'(core_exit);
    if (rst) win_reg <= '0;
end

// ---------------------------------------------------------------- scan
// one change per clock: entry sp (read the clock before) is compared while entry rp = sp + 1
// is read
logic [SW-1:0] rp_reg = '0;              // next change to read
logic sc_pend_reg = 1'b0;                // a log entry read into sc_ent_reg, compared now
logic [ENT_W-1:0] sc_ent_reg;
logic sc_match, scanning;

assign sc_match = sc_pend_reg && (sc_ent_reg[ENT_W-1 -: KEY_W] == p_key);
assign scanning = sc_pend_reg || (rp_reg != chg_cnt_reg);

always_ff @(posedge clk) begin
    if (p_load) begin
        rp_reg <= p_load_stamp;
        sc_pend_reg <= 1'b0;
    end else if (p_valid) begin
        sc_pend_reg <= 1'b0;
        if (rp_reg != chg_cnt_reg) begin
            sc_ent_reg <= log_reg[rp_reg[LOG_LOG2-1:0]];
            sc_pend_reg <= 1'b1;
            rp_reg <= rp_reg + SW'(1);
        end
    end
    if (rst) sc_pend_reg <= 1'b0;
end

assign patch_valid = p_valid && sc_match;
assign patch_id = sc_ent_reg[QUEUE_WIDTH +: ID_WIDTH];
assign patch_queue = sc_ent_reg[QUEUE_WIDTH-1:0];

assign p_go = p_valid && !scanning;
assign stat_scan = p_valid && scanning;

endmodule

`resetall
