`resetall
`timescale 1ns / 1ps
`default_nettype none

// The engine's counters (enum counter of the register map; docs/engine-top.md "Counters"):
// the record counters count when a record enters the output slice (rec_fire, with that
// record's fields); STEER_ADDS, STEER_RETARGETS, EVENTS and EVT_REFUSALS come from the steer
// driver's own counters, RFS_FWD and RFS_HZD_STALL from fs_rfs_core's statistics and
// HAZARD_STALLS, REPLAY_STALLS, FWD_WINDOW_STALLS and DRV_HOLD_STALLS count the clocks of the
// pipeline's stall causes (docs/engine-top.md "Hazards inside the packet pipeline"), FAST_ADDS
// the driver's posted INSERTs (docs/engine-top.md "FAST INSERT"). The block counters cannot be cleared, so a
// clear keeps their value as a base. cnt_value is registered (valid the clock after
// cnt_index). evt_overflow_set pulses the clock after the driver refused an event.
module fs_counters (
    input  wire         clk,
    input  wire         rst,

    // the record entering the output slice
    input  wire         rec_fire,
    input  wire         rec_hash_valid,
    input  wire         rec_filter_hit,
    input  wire         rec_cpu_valid,
    input  wire         rec_steer_called,
    input  wire [2:0]   rec_path,
    input  wire [3:0]   rec_parse_class,
    // other sources
    input  wire         flt_delete_done,   // a host DELETE removed a filter
    input  wire         fwd_scan,          // fs_flt_forward applies a logged change
    input  wire         replay_busy,       // flushed packets are being presented again
    input  wire         fwd_window_full,   // a lookup waits: the forwarding window is full
    input  wire         drv_hold_wait,     // a driver call waits for an event-FIFO transaction
    input  wire         fast_add,          // the table takes a posted INSERT (a fast insert)
    input  wire [63:0]  stat_steer_adds,
    input  wire [63:0]  stat_steer_retargets,
    input  wire [63:0]  stat_evt_refusals,
    input  wire [31:0]  stat_rfs_fwd,
    input  wire [31:0]  stat_rfs_hzd_stall,

    // the register window
    input  wire         cnt_clear,
    input  wire [4:0]   cnt_index,
    output wire [63:0]  cnt_value,
    output wire         evt_overflow_set
);

`include "flowsteer_regs.vh"

localparam [2:0] P_GATE_SKIP = 3'(FS_SET_RPS_CPU_PATH_GATE_SKIP);
localparam [2:0] P_DRV_ERROR = 3'(FS_SET_RPS_CPU_PATH_DRIVER_ERROR);

logic [63:0] cnt_value_reg = 64'd0;
logic evt_overflow_set_reg = 1'b0;
logic [63:0] hazard_stalls_reg = 64'd0, replay_stalls_reg = 64'd0, window_stalls_reg = 64'd0;
logic [63:0] drv_hold_stalls_reg = 64'd0, fast_adds_reg = 64'd0;

logic [63:0] c_pkts_reg = 64'd0, c_hashed_reg = 64'd0, c_hits_reg = 64'd0, c_cpu_reg = 64'd0;
logic [63:0] c_calls_reg = 64'd0, c_skips_reg = 64'd0, c_errors_reg = 64'd0, c_dels_reg = 64'd0;
logic [63:0] c_class_reg [12];
logic [63:0] b_adds_reg = 64'd0, b_retargets_reg = 64'd0, b_refusals_reg = 64'd0;
logic [31:0] b_fwd_reg = 32'd0, b_hzd_reg = 32'd0;
logic [63:0] refusals_d1_reg = 64'd0;

logic [63:0] sel_raw, sel_base;
always_comb begin
    sel_base = 64'd0;
    case (cnt_index)
        5'(FS_COUNTER_PKTS): sel_raw = c_pkts_reg;
        5'(FS_COUNTER_PKTS_HASHED): sel_raw = c_hashed_reg;
        5'(FS_COUNTER_FLT_HITS): sel_raw = c_hits_reg;
        5'(FS_COUNTER_RFS_CPU): sel_raw = c_cpu_reg;
        5'(FS_COUNTER_STEER_CALLS): sel_raw = c_calls_reg;
        5'(FS_COUNTER_STEER_ADDS): begin
            sel_raw = stat_steer_adds;
            sel_base = b_adds_reg;
        end
        5'(FS_COUNTER_STEER_RETARGETS): begin
            sel_raw = stat_steer_retargets;
            sel_base = b_retargets_reg;
        end
        5'(FS_COUNTER_GATE_SKIPS): sel_raw = c_skips_reg;
        5'(FS_COUNTER_DRIVER_ERRORS): sel_raw = c_errors_reg;
        5'(FS_COUNTER_FLT_DELETES): sel_raw = c_dels_reg;
        5'(FS_COUNTER_EVENTS): begin                 // adds + retargets
            sel_raw = stat_steer_adds + stat_steer_retargets;
            sel_base = b_adds_reg + b_retargets_reg;
        end
        5'(FS_COUNTER_EVT_REFUSALS): begin
            sel_raw = stat_evt_refusals;
            sel_base = b_refusals_reg;
        end
        5'(FS_COUNTER_HAZARD_STALLS): sel_raw = hazard_stalls_reg;
        5'(FS_COUNTER_RFS_FWD): begin                // 32-bit block counter, modulo 2^32
            sel_raw = {32'd0, stat_rfs_fwd - b_fwd_reg};
        end
        5'(FS_COUNTER_RFS_HZD_STALL): begin
            sel_raw = {32'd0, stat_rfs_hzd_stall - b_hzd_reg};
        end
        5'(FS_COUNTER_REPLAY_STALLS): sel_raw = replay_stalls_reg;
        5'(FS_COUNTER_FWD_WINDOW_STALLS): sel_raw = window_stalls_reg;
        5'(FS_COUNTER_DRV_HOLD_STALLS): sel_raw = drv_hold_stalls_reg;
        5'(FS_COUNTER_FAST_ADDS): sel_raw = fast_adds_reg;
        default: begin
            sel_raw = 64'd0;
            for (int k = 0; k < 12; k++) begin
                if (cnt_index == 5'(FS_COUNTER_PARSE_CLASS0 + k)) sel_raw = c_class_reg[k];
            end
        end
    endcase
end

always_ff @(posedge clk) begin
    if (rec_fire) begin
        c_pkts_reg <= c_pkts_reg + 64'd1;
        c_hashed_reg <= c_hashed_reg + 64'(rec_hash_valid);
        c_hits_reg <= c_hits_reg + 64'(rec_filter_hit);
        c_cpu_reg <= c_cpu_reg + 64'(rec_cpu_valid);
        c_calls_reg <= c_calls_reg + 64'(rec_steer_called);
        c_skips_reg <= c_skips_reg + 64'(rec_path == P_GATE_SKIP);
        c_errors_reg <= c_errors_reg + 64'(rec_path == P_DRV_ERROR);
        for (int k = 0; k < 12; k++) begin
            if (rec_parse_class == 4'(k)) c_class_reg[k] <= c_class_reg[k] + 64'd1;
        end
    end
    if (flt_delete_done) c_dels_reg <= c_dels_reg + 64'd1;
    refusals_d1_reg <= stat_evt_refusals;
    evt_overflow_set_reg <= stat_evt_refusals != refusals_d1_reg;

    // the window's value: the selected raw count minus its base (a block counter's value at
    // the last clear, else 0), subtracted after the select (for LUT depth)
    cnt_value_reg <= sel_raw - sel_base;

    if (cnt_clear || rst) begin
        c_pkts_reg <= 64'd0;
        c_hashed_reg <= 64'd0;
        c_hits_reg <= 64'd0;
        c_cpu_reg <= 64'd0;
        c_calls_reg <= 64'd0;
        c_skips_reg <= 64'd0;
        c_errors_reg <= 64'd0;
        c_dels_reg <= 64'd0;
        for (int k = 0; k < 12; k++) begin
            c_class_reg[k] <= 64'd0;
        end
        b_adds_reg <= stat_steer_adds;
        b_retargets_reg <= stat_steer_retargets;
        b_refusals_reg <= stat_evt_refusals;
        b_fwd_reg <= stat_rfs_fwd;
        b_hzd_reg <= stat_rfs_hzd_stall;
    end
    if (rst) begin
        evt_overflow_set_reg <= 1'b0;
    end
end

always_ff @(posedge clk) begin
    if (fwd_scan) hazard_stalls_reg <= hazard_stalls_reg + 64'd1;
    if (replay_busy) replay_stalls_reg <= replay_stalls_reg + 64'd1;
    if (fwd_window_full) window_stalls_reg <= window_stalls_reg + 64'd1;
    if (drv_hold_wait) drv_hold_stalls_reg <= drv_hold_stalls_reg + 64'd1;
    if (fast_add) fast_adds_reg <= fast_adds_reg + 64'd1;
    if (cnt_clear || rst) begin
        hazard_stalls_reg <= 64'd0;
        replay_stalls_reg <= 64'd0;
        window_stalls_reg <= 64'd0;
        drv_hold_stalls_reg <= 64'd0;
        fast_adds_reg <= 64'd0;
    end
end

assign cnt_value = cnt_value_reg;
assign evt_overflow_set = evt_overflow_set_reg;

endmodule

`resetall

