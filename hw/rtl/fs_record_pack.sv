`resetall
`timescale 1ns / 1ps
`default_nettype none

// The engine's 256-bit output record (layout rec of hw/regs/flowsteer_regs.json, generated
// offsets FS_REC_*): one packet's fields in, the record word out, combinational. Record
// semantics that are not plain copies live here too: the steer action follows the path,
// the rc is sent only for STEERED and DRIVER_ERROR, the CPU only when valid. Reserved
// bits are 0. Port widths are the layout's; a change of the map shows up as a lint WIDTH.
module fs_record_pack (
    input  wire [31:0]  s_rec_hash,
    input  wire [3:0]   s_rec_parse_class,
    input  wire         s_rec_hash_valid,
    input  wire         s_rec_filter_hit,
    input  wire         s_rec_cpu_valid,
    input  wire [2:0]   s_rec_path,            // enum set_rps_cpu_path
    input  wire [2:0]   s_rec_gate,            // enum gate_row
    input  wire         s_rec_steer_called,
    input  wire [15:0]  s_rec_queue,
    input  wire [15:0]  s_rec_cpu,
    input  wire [15:0]  s_rec_filter_id,       // 0 without a hit (the caller's)
    input  wire [31:0]  s_rec_rc,              // fs_rfs_core record rc
    input  wire [15:0]  s_rec_user,
    input  wire [31:0]  s_rec_cmd_seq,
    input  wire [31:0]  s_rec_tail,
    output wire [255:0] m_rec_data
);

`include "flowsteer_regs.vh"

localparam [2:0] P_STEERED = 3'(FS_SET_RPS_CPU_PATH_STEERED);
localparam [2:0] P_GATE_SKIP = 3'(FS_SET_RPS_CPU_PATH_GATE_SKIP);
localparam [2:0] P_DRV_ERROR = 3'(FS_SET_RPS_CPU_PATH_DRIVER_ERROR);

logic [1:0] action;
logic [255:0] r;
always_comb begin
    action = 2'(FS_STEER_ACTION_NONE);
    if (s_rec_path == P_STEERED) action = 2'(FS_STEER_ACTION_STEERED);
    if (s_rec_path == P_GATE_SKIP) action = 2'(FS_STEER_ACTION_SKIPPED);
    if (s_rec_path == P_DRV_ERROR) action = 2'(FS_STEER_ACTION_DRIVER_ERROR);
    r = '0;
    r[FS_REC_HASH_LSB +: FS_REC_HASH_WIDTH] = s_rec_hash;
    r[FS_REC_PARSE_CLASS_LSB +: FS_REC_PARSE_CLASS_WIDTH] = s_rec_parse_class;
    r[FS_REC_HASH_VALID_LSB +: FS_REC_HASH_VALID_WIDTH] = s_rec_hash_valid;
    r[FS_REC_FILTER_HIT_LSB +: FS_REC_FILTER_HIT_WIDTH] = s_rec_filter_hit;
    r[FS_REC_CPU_VALID_LSB +: FS_REC_CPU_VALID_WIDTH] = s_rec_cpu_valid;
    r[FS_REC_ACTION_LSB +: FS_REC_ACTION_WIDTH] = action;
    r[FS_REC_PATH_LSB +: FS_REC_PATH_WIDTH] = s_rec_path;
    r[FS_REC_GATE_LSB +: FS_REC_GATE_WIDTH] = s_rec_gate;
    r[FS_REC_STEER_CALLED_LSB +: FS_REC_STEER_CALLED_WIDTH] = s_rec_steer_called;
    r[FS_REC_QUEUE_LSB +: FS_REC_QUEUE_WIDTH] = s_rec_queue;
    r[FS_REC_CPU_LSB +: FS_REC_CPU_WIDTH] = s_rec_cpu_valid ? s_rec_cpu : 16'd0;
    r[FS_REC_FILTER_ID_LSB +: FS_REC_FILTER_ID_WIDTH] = s_rec_filter_id;
    r[FS_REC_RC_LSB +: FS_REC_RC_WIDTH] = (s_rec_path == P_STEERED || s_rec_path == P_DRV_ERROR) ? s_rec_rc : 32'd0;
    r[FS_REC_USER_LSB +: FS_REC_USER_WIDTH] = s_rec_user;
    r[FS_REC_CMD_SEQ_LSB +: FS_REC_CMD_SEQ_WIDTH] = s_rec_cmd_seq;
    r[FS_REC_TAIL_LSB +: FS_REC_TAIL_WIDTH] = s_rec_tail;
end
assign m_rec_data = r;

endmodule

`resetall
