`resetall
`timescale 1ns / 1ps
`default_nettype none

// Test top for test_fs_steer_driver.cpp: fs_steer_driver driving an fs_filter_table through
// its command port (the table's lookup port is idle), small tables so FULL and a full event
// FIFO happen quickly. A host command port (DELETE etc.) shares the table the way the engine
// top will share it: the host gets the port only while the driver does not hold it
// (flt_lock low); a response goes to whoever issued the last command.
module tb_fs_steer_driver #(
    // log2 of the number of filter buckets
    parameter integer BUCKET_BITS = 3,
    // entries per bucket
    parameter integer WAYS = 2,
    // filter id width (16: the golden model's id space)
    parameter integer ID_WIDTH = 16,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // log2 of the event FIFO depth
    parameter integer EVT_DEPTH_LOG2 = 3,
    // request tag width
    parameter integer TAG_WIDTH = 16
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire                      s_drv_req_valid,
    output wire                      s_drv_req_ready,
    input  wire [QUEUE_WIDTH-1:0]    s_drv_req_queue,
    input  wire [31:0]               s_drv_req_flow_id,
    input  wire [31:0]               s_drv_req_hash,
    input  wire                      s_drv_req_steerable,
    input  wire                      s_drv_req_ipv6,
    input  wire [7:0]                s_drv_req_proto,
    input  wire [127:0]              s_drv_req_src,
    input  wire [127:0]              s_drv_req_dst,
    input  wire [15:0]               s_drv_req_sport,
    input  wire [15:0]               s_drv_req_dport,
    input  wire [TAG_WIDTH-1:0]      s_drv_req_tag,
    input  wire                      s_drv_req_lk_valid,
    input  wire                      s_drv_req_lk_hit,
    input  wire [ID_WIDTH-1:0]       s_drv_req_lk_id,
    input  wire [QUEUE_WIDTH-1:0]    s_drv_req_lk_queue,
    input  wire                      s_drv_req_lk_free,   // the bench's claim: a free way

    output wire                      m_drv_rsp_valid,
    input  wire                      m_drv_rsp_ready,
    output wire [31:0]               m_drv_rsp_rc,
    output wire [TAG_WIDTH-1:0]      m_drv_rsp_tag,
    output wire                      m_drv_rsp_now,
    output wire [31:0]               m_drv_rsp_now_rc,
    output wire                      m_drv_rsp_refuse,

    input  wire                      cfg_last_id_wr_valid,
    output wire                      cfg_last_id_wr_ready,
    input  wire [31:0]               cfg_last_id_wr_data,
    output wire [31:0]               cfg_last_id,

    output wire                      m_evt_valid,
    input  wire                      m_evt_ready,
    output wire [3:0]                m_evt_type,
    output wire [ID_WIDTH-1:0]       m_evt_id,
    output wire [QUEUE_WIDTH-1:0]    m_evt_queue,
    output wire [31:0]               m_evt_flow_id,
    output wire [31:0]               m_evt_hash,
    output wire                      m_evt_ipv6,
    output wire [7:0]                m_evt_proto,
    output wire [127:0]              m_evt_src,
    output wire [127:0]              m_evt_dst,
    output wire [15:0]               m_evt_sport,
    output wire [15:0]               m_evt_dport,
    output wire [EVT_DEPTH_LOG2:0]   evt_count,

    output wire [63:0]               stat_steer_calls,
    output wire [63:0]               stat_steer_adds,
    output wire [63:0]               stat_steer_retargets,
    output wire [63:0]               stat_evt_refusals,
    output wire [63:0]               stat_driver_errors,
    input  wire                      s_host_cmd_valid,
    output wire                      s_host_cmd_ready,
    input  wire [3:0]                s_host_cmd_op,
    input  wire [ID_WIDTH-1:0]       s_host_cmd_id,
    output wire                      host_rsp_valid,
    output wire [3:0]                host_rsp_err,

    output wire                      busy,
    output wire                      flt_lock,
    output wire                      flt_busy,
    output wire [31:0]               flt_count
);

wire                   cmd_valid, cmd_ready, cmd_ipv6;
wire [3:0]             cmd_op;
wire                   drv_cmd_valid, drv_cmd_ipv6;
wire [3:0]             drv_cmd_op;
wire [7:0]             drv_cmd_proto;
wire [127:0]           drv_cmd_src, drv_cmd_dst;
wire [15:0]            drv_cmd_sport, drv_cmd_dport;
wire [ID_WIDTH-1:0]    drv_cmd_id;
wire [QUEUE_WIDTH-1:0] drv_cmd_queue;
wire                   drv_rsp_valid;
logic                  host_owner_reg = 1'b0;   // the last command came from the host
wire [7:0]             cmd_proto;
wire [127:0]           cmd_src, cmd_dst;
wire [15:0]            cmd_sport, cmd_dport;
wire [ID_WIDTH-1:0]    cmd_id;
wire [QUEUE_WIDTH-1:0] cmd_queue;
wire                   rsp_valid;
wire [3:0]             rsp_err;
wire [ID_WIDTH-1:0]    rsp_id;
wire [QUEUE_WIDTH-1:0] rsp_queue;

fs_steer_driver #(
    .ID_WIDTH(ID_WIDTH),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .EVT_DEPTH_LOG2(EVT_DEPTH_LOG2),
    .TAG_WIDTH(TAG_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_drv_req_valid(s_drv_req_valid),
    .s_drv_req_ready(s_drv_req_ready),
    .s_drv_req_queue(s_drv_req_queue),
    .s_drv_req_flow_id(s_drv_req_flow_id),
    .s_drv_req_hash(s_drv_req_hash),
    .s_drv_req_steerable(s_drv_req_steerable),
    .s_drv_req_ipv6(s_drv_req_ipv6),
    .s_drv_req_proto(s_drv_req_proto),
    .s_drv_req_src(s_drv_req_src),
    .s_drv_req_dst(s_drv_req_dst),
    .s_drv_req_sport(s_drv_req_sport),
    .s_drv_req_dport(s_drv_req_dport),
    .s_drv_req_tag(s_drv_req_tag),
    .s_drv_req_lk_valid(s_drv_req_lk_valid),
    .s_drv_req_lk_hit(s_drv_req_lk_hit),
    .s_drv_req_lk_id(s_drv_req_lk_id),
    .s_drv_req_lk_queue(s_drv_req_lk_queue),
    .s_drv_req_lk_free(s_drv_req_lk_free),
    .id_mark(flt_id_mark),
    .m_drv_rsp_valid(m_drv_rsp_valid),
    .m_drv_rsp_ready(m_drv_rsp_ready),
    .m_drv_rsp_rc(m_drv_rsp_rc),
    .m_drv_rsp_tag(m_drv_rsp_tag),
    .m_drv_rsp_now(m_drv_rsp_now),
    .m_drv_rsp_now_rc(m_drv_rsp_now_rc),
    .m_drv_rsp_refuse(m_drv_rsp_refuse),
    .m_flt_cmd_valid(drv_cmd_valid),
    .m_flt_cmd_ready(cmd_ready),
    .m_flt_cmd_op(drv_cmd_op),
    .m_flt_cmd_ipv6(drv_cmd_ipv6),
    .m_flt_cmd_proto(drv_cmd_proto),
    .m_flt_cmd_src(drv_cmd_src),
    .m_flt_cmd_dst(drv_cmd_dst),
    .m_flt_cmd_sport(drv_cmd_sport),
    .m_flt_cmd_dport(drv_cmd_dport),
    .m_flt_cmd_id(drv_cmd_id),
    .m_flt_cmd_queue(drv_cmd_queue),
    .m_flt_cmd_posted(unused_cmd_posted),
    .s_flt_rsp_valid(drv_rsp_valid),
    .s_flt_rsp_err(rsp_err),
    .s_flt_rsp_id(rsp_id),
    .s_flt_rsp_queue(rsp_queue),
    .flt_lock(flt_lock),
    .cfg_last_id_wr_valid(cfg_last_id_wr_valid),
    .cfg_last_id_wr_ready(cfg_last_id_wr_ready),
    .cfg_last_id_wr_data(cfg_last_id_wr_data),
    .cfg_last_id(cfg_last_id),
    .m_evt_valid(m_evt_valid),
    .m_evt_ready(m_evt_ready),
    .m_evt_type(m_evt_type),
    .m_evt_id(m_evt_id),
    .m_evt_queue(m_evt_queue),
    .m_evt_flow_id(m_evt_flow_id),
    .m_evt_hash(m_evt_hash),
    .m_evt_ipv6(m_evt_ipv6),
    .m_evt_proto(m_evt_proto),
    .m_evt_src(m_evt_src),
    .m_evt_dst(m_evt_dst),
    .m_evt_sport(m_evt_sport),
    .m_evt_dport(m_evt_dport),
    .evt_count(evt_count),
    .stat_steer_calls(stat_steer_calls),
    .stat_steer_adds(stat_steer_adds),
    .stat_steer_retargets(stat_steer_retargets),
    .stat_evt_refusals(stat_evt_refusals),
    .stat_driver_errors(stat_driver_errors),
    .busy(busy)
);

// command port arbitration: the driver while it holds the table, else the host
assign cmd_valid = flt_lock ? drv_cmd_valid : s_host_cmd_valid;
assign cmd_op = flt_lock ? drv_cmd_op : s_host_cmd_op;
assign cmd_ipv6 = flt_lock ? drv_cmd_ipv6 : 1'b0;
assign cmd_proto = flt_lock ? drv_cmd_proto : 8'd0;
assign cmd_src = flt_lock ? drv_cmd_src : 128'd0;
assign cmd_dst = flt_lock ? drv_cmd_dst : 128'd0;
assign cmd_sport = flt_lock ? drv_cmd_sport : 16'd0;
assign cmd_dport = flt_lock ? drv_cmd_dport : 16'd0;
assign cmd_id = flt_lock ? drv_cmd_id : s_host_cmd_id;
assign cmd_queue = flt_lock ? drv_cmd_queue : '0;
assign s_host_cmd_ready = !flt_lock && cmd_ready;
assign drv_rsp_valid = rsp_valid && !host_owner_reg;
assign host_rsp_valid = rsp_valid && host_owner_reg;
assign host_rsp_err = rsp_err;

always_ff @(posedge clk) begin
    if (cmd_valid && cmd_ready) begin
        host_owner_reg <= !flt_lock;
    end
    if (rst) begin
        host_owner_reg <= 1'b0;
    end
end

// the lookup port stays idle; its outputs are not needed here
wire                   unused_lookup_ready, unused_lookup_valid, unused_lookup_hit;
wire                   unused_lookup_free, unused_cmd_posted;
wire [ID_WIDTH-1:0]    flt_id_mark;
wire [ID_WIDTH-1:0]    unused_lookup_id;
wire [QUEUE_WIDTH-1:0] unused_lookup_queue;
wire [0:0]             unused_lookup_user;
wire [BUCKET_BITS-1:0] unused_lk1_bucket;
`ifdef FORMAL
wire [7:0]             unused_flt_items;
`endif

fs_filter_table #(
    .BUCKET_BITS(BUCKET_BITS),
    .WAYS(WAYS),
    .ID_WIDTH(ID_WIDTH),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .USER_WIDTH(1)
) table_i (
    .clk(clk),
    .rst(rst),
    .s_lookup_valid(1'b0),
    .s_lookup_ready(unused_lookup_ready),
    .s_lookup_ipv6(1'b0),
    .s_lookup_proto(8'd0),
    .s_lookup_src(128'd0),
    .s_lookup_dst(128'd0),
    .s_lookup_sport(16'd0),
    .s_lookup_dport(16'd0),
    .s_lookup_user(1'b0),
    .m_lookup_valid(unused_lookup_valid),
    .m_lookup_ready(1'b1),
    .m_lookup_hit(unused_lookup_hit),
    .m_lookup_free(unused_lookup_free),
    .m_lookup_id(unused_lookup_id),
    .m_lookup_queue(unused_lookup_queue),
    .m_lookup_user(unused_lookup_user),
    .s_cmd_valid(cmd_valid),
    .s_cmd_ready(cmd_ready),
    .s_cmd_op(cmd_op),
    .s_cmd_ipv6(cmd_ipv6),
    .s_cmd_proto(cmd_proto),
    .s_cmd_src(cmd_src),
    .s_cmd_dst(cmd_dst),
    .s_cmd_sport(cmd_sport),
    .s_cmd_dport(cmd_dport),
    .s_cmd_id(cmd_id),
    .s_cmd_queue(cmd_queue),
    .rsp_valid(rsp_valid),
    .rsp_err(rsp_err),
    .rsp_id(rsp_id),
    .rsp_queue(rsp_queue),
    .busy(flt_busy),
    .count(flt_count),
    .id_mark(flt_id_mark),
    .lk1_bucket(unused_lk1_bucket)
`ifdef FORMAL
    , .f_items(unused_flt_items)
`endif
);

endmodule

`resetall
