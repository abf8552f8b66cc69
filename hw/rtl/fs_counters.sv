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

`ifdef FORMAL
`ifndef VERILATOR
// Against a reference for one index (f_idx, any) read every clock: the window shows the
// count of that counter's events since the last reset or clear (a block counter: its input
// minus its value then). No state depends on cnt_index, so one index held is every read.
// (Simulations compare every counter read with the golden model instead.)
(* anyconst *) logic [4:0] f_idx;
logic f_seen_reg = 1'b0;                 // a reset was seen (the class counters start unknown)
logic f_chk_reg = 1'b0;                  // ... before last clock: the value read is defined
logic [63:0] f_cnt_reg = 64'd0;          // f_idx's events since the last reset or clear
logic [63:0] f_b_adds_reg = 64'd0, f_b_ret_reg = 64'd0, f_b_ref_reg = 64'd0;
logic [31:0] f_b_fwd_reg = 32'd0, f_b_hzd_reg = 32'd0;
logic [63:0] f_exp_reg;                  // the value read last clock must be this
logic f_ovf_reg = 1'b0;                  // stat_evt_refusals moved last clock
logic [63:0] f_ref_reg = 64'd0;
logic f_ev;                              // an event of f_idx this clock
logic [63:0] f_exp;                      // what the window shows for f_idx now
// a block counter's input and its base, subtracted after the select as the window does: the
// solver then matches like with like (per-index differences selected took the induction
// 384 s, for 64-bit subtractions under a free index)
logic [63:0] f_raw, f_base;
always_comb begin
    f_ev = 1'b0;
    f_raw = f_cnt_reg;
    f_base = 64'd0;
    case (f_idx)
        5'(FS_COUNTER_PKTS): f_ev = rec_fire;
        5'(FS_COUNTER_PKTS_HASHED): f_ev = rec_fire && rec_hash_valid;
        5'(FS_COUNTER_FLT_HITS): f_ev = rec_fire && rec_filter_hit;
        5'(FS_COUNTER_RFS_CPU): f_ev = rec_fire && rec_cpu_valid;
        5'(FS_COUNTER_STEER_CALLS): f_ev = rec_fire && rec_steer_called;
        5'(FS_COUNTER_GATE_SKIPS): f_ev = rec_fire && rec_path == P_GATE_SKIP;
        5'(FS_COUNTER_DRIVER_ERRORS): f_ev = rec_fire && rec_path == P_DRV_ERROR;
        5'(FS_COUNTER_FLT_DELETES): f_ev = flt_delete_done;
        5'(FS_COUNTER_HAZARD_STALLS): f_ev = fwd_scan;
        5'(FS_COUNTER_REPLAY_STALLS): f_ev = replay_busy;
        5'(FS_COUNTER_FWD_WINDOW_STALLS): f_ev = fwd_window_full;
        5'(FS_COUNTER_DRV_HOLD_STALLS): f_ev = drv_hold_wait;
        5'(FS_COUNTER_FAST_ADDS): f_ev = fast_add;
        5'(FS_COUNTER_STEER_ADDS): begin
            f_raw = stat_steer_adds;
            f_base = f_b_adds_reg;
        end
        5'(FS_COUNTER_STEER_RETARGETS): begin
            f_raw = stat_steer_retargets;
            f_base = f_b_ret_reg;
        end
        5'(FS_COUNTER_EVENTS): begin
            f_raw = stat_steer_adds + stat_steer_retargets;
            f_base = f_b_adds_reg + f_b_ret_reg;
        end
        5'(FS_COUNTER_EVT_REFUSALS): begin
            f_raw = stat_evt_refusals;
            f_base = f_b_ref_reg;
        end
        5'(FS_COUNTER_RFS_FWD): f_raw = {32'd0, stat_rfs_fwd - f_b_fwd_reg};
        5'(FS_COUNTER_RFS_HZD_STALL): f_raw = {32'd0, stat_rfs_hzd_stall - f_b_hzd_reg};
        default: begin
            // PARSE_CLASS0 + k counts class k; an index the map leaves free reads 0
            f_ev = rec_fire && f_idx >= 5'(FS_COUNTER_PARSE_CLASS0) &&
                   f_idx < 5'(FS_COUNTER_PARSE_CLASS0 + 12) &&
                   5'(rec_parse_class) == f_idx - 5'(FS_COUNTER_PARSE_CLASS0);
        end
    endcase
    f_exp = f_raw - f_base;
end
always_ff @(posedge clk) begin
    f_seen_reg <= f_seen_reg || rst;
    f_chk_reg <= f_seen_reg;
    f_exp_reg <= f_exp;
    f_ref_reg <= stat_evt_refusals;
    f_ovf_reg <= !rst && stat_evt_refusals != f_ref_reg;
    f_cnt_reg <= f_cnt_reg + 64'(f_ev);
    if (cnt_clear || rst) begin
        f_cnt_reg <= 64'd0;
        f_b_adds_reg <= stat_steer_adds;
        f_b_ret_reg <= stat_steer_retargets;
        f_b_ref_reg <= stat_evt_refusals;
        f_b_fwd_reg <= stat_rfs_fwd;
        f_b_hzd_reg <= stat_rfs_hzd_stall;
    end
end
always_comb begin
    a_idx: assume (cnt_index == f_idx);
end
always_ff @(posedge clk) begin
    if (f_chk_reg) begin
        p_value: assert (cnt_value == f_exp_reg);
    end
    if (f_seen_reg) begin
        // invariants: the count the window reads next, and the bases, as the reference's
        p_inv_now: assert (sel_raw - sel_base == f_exp);
        p_inv_base: assert (b_adds_reg == f_b_adds_reg && b_retargets_reg == f_b_ret_reg &&
                            b_refusals_reg == f_b_ref_reg && b_fwd_reg == f_b_fwd_reg &&
                            b_hzd_reg == f_b_hzd_reg && refusals_d1_reg == f_ref_reg);
        p_overflow: assert (evt_overflow_set == f_ovf_reg);
        // a count read across a clear; a block counter read after a clear moved its base
        c_clear: cover (cnt_value != 64'd0 && $past(cnt_clear) && f_cnt_reg == 64'd0 && f_ev);
        c_base: cover (f_b_adds_reg != 64'd0 && f_idx == 5'(FS_COUNTER_EVENTS) && cnt_value != 64'd0);
    end
end
`endif
`endif

endmodule

`resetall

