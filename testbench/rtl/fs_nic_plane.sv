`resetall
`timescale 1ns / 1ps
`default_nettype none

// NIC plane of the engine (DESIGN "contract" steps 1-3) with its AXI4-Lite control: only
// joins fs_axil_regs (ENGINE = 0) and the front end fs_nic_front, the one the engine top
// uses, with nothing to order against (gate always open) and a register
// slice as its lookup buffer; record 27 clocks after tlast, one frame per clock.
module fs_nic_plane #(
    // AXI4-Stream frame data width
    parameter integer DATA_WIDTH = 512,
    // frame tuser width (returned in the record)
    parameter integer USER_WIDTH = 16,
    // RSS LUT depth (log2)
    parameter integer LUT_LOG2 = 11,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // filter table geometry
    parameter integer FLT_BUCKET_BITS = 10,
    parameter integer FLT_WAYS = 4,
    parameter integer FLT_ID_WIDTH = 16,
    // CPUs with state (log2)
    parameter integer CPU_LOG2 = 8
) (
    input  wire                    clk,
    input  wire                    rst,

    // AXI4-Lite control
    input  wire [15:0]             s_axil_awaddr,
    input  wire [2:0]              s_axil_awprot,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [15:0]             s_axil_araddr,
    input  wire [2:0]              s_axil_arprot,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,

    // frames
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire [USER_WIDTH-1:0]   s_axis_tuser,

    // one record per frame
    output wire                    m_rec_valid,
    input  wire                    m_rec_ready,
    output wire [3:0]              m_rec_class,
    output wire                    m_rec_ipv6,
    output wire                    m_rec_ports,
    output wire [7:0]              m_rec_proto,
    output wire [127:0]            m_rec_src,
    output wire [127:0]            m_rec_dst,
    output wire [15:0]             m_rec_sport,
    output wire [15:0]             m_rec_dport,
    output wire [31:0]             m_rec_hash,
    output wire                    m_rec_hash_valid,
    output wire                    m_rec_flt_hit,
    output wire [FLT_ID_WIDTH-1:0] m_rec_flt_id,
    output wire [QUEUE_WIDTH-1:0]  m_rec_queue,
    output wire [USER_WIDTH-1:0]   m_rec_user
);

// ---------------------------------------------------------------- control
logic cfg_enable, cfg_flt_lookup;
logic [4:0] cfg_lut_log2;
logic [1:0] cfg_hash_mode;
logic [31:0] cfg_hash_seed;
logic [415:0] cfg_rss_key;
logic lut_wr_en, lut_rd_en;
logic [LUT_LOG2-1:0] lut_wr_index, lut_rd_index;
logic [QUEUE_WIDTH-1:0] lut_wr_queue, lut_rd_queue;
logic flt_cmd_valid, flt_cmd_ready, flt_cmd_ipv6, flt_rsp_valid, flt_busy;
logic [3:0] flt_cmd_op, flt_rsp_err;
logic [7:0] flt_cmd_proto;
logic [127:0] flt_cmd_src, flt_cmd_dst;
logic [15:0] flt_cmd_sport, flt_cmd_dport;
logic [FLT_ID_WIDTH-1:0] flt_cmd_id, flt_rsp_id;
logic [QUEUE_WIDTH-1:0] flt_cmd_queue, flt_rsp_queue;
logic [31:0] flt_count;
logic init_busy;

// ENGINE = 0: no kernel plane here, so its configuration, the ordering handshake (nothing to
// order against: ord_grant tied high), the RFS-core and event ports are left open on
// purpose (fs_engine_top uses them)
/* verilator lint_off PINCONNECTEMPTY */
fs_axil_regs #(
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .ID_WIDTH(FLT_ID_WIDTH),
    .CPU_LOG2(CPU_LOG2),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS)
) regs (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .ord_req(),
    .ord_grant(1'b1),
    .ord_placed(1'b1),
    .ord_done(),
    .ord_free(),
    .ord_core(),
    .ord_rec(),
    .ord_drv(),
    .cfg_enable(cfg_enable),
    .cfg_patched(),
    .cfg_ntuple(),
    .cfg_rmap(),
    .cfg_slot_mask(),
    .cfg_rps(),
    .cfg_flt_lookup(cfg_flt_lookup),
    .cfg_nr_cpu_ids(),
    .cfg_num_rx_queues(),
    .cfg_rps_cpu_mask(),
    .cfg_sock_log2(),
    .cfg_sock_present(),
    .cfg_sock_wr(),
    .cfg_lut_log2(cfg_lut_log2),
    .cfg_cpu_online(),
    .cfg_hash_mode(cfg_hash_mode),
    .cfg_hash_seed(cfg_hash_seed),
    .cfg_rss_key(cfg_rss_key),
    .cnt_clear(),
    .stat_init_busy(init_busy),
    .evt_overflow_set(1'b0),
    .lut_wr_en(lut_wr_en),
    .lut_wr_index(lut_wr_index),
    .lut_wr_queue(lut_wr_queue),
    .lut_rd_en(lut_rd_en),
    .lut_rd_index(lut_rd_index),
    .lut_rd_queue(lut_rd_queue),
    .flt_cmd_valid(flt_cmd_valid),
    .flt_cmd_ready(flt_cmd_ready),
    .flt_cmd_op(flt_cmd_op),
    .flt_cmd_ipv6(flt_cmd_ipv6),
    .flt_cmd_proto(flt_cmd_proto),
    .flt_cmd_src(flt_cmd_src),
    .flt_cmd_dst(flt_cmd_dst),
    .flt_cmd_sport(flt_cmd_sport),
    .flt_cmd_dport(flt_cmd_dport),
    .flt_cmd_id(flt_cmd_id),
    .flt_cmd_queue(flt_cmd_queue),
    .flt_rsp_valid(flt_rsp_valid),
    .flt_rsp_err(flt_rsp_err),
    .flt_rsp_id(flt_rsp_id),
    .flt_rsp_queue(flt_rsp_queue),
    .flt_busy(flt_busy),
    .flt_count(flt_count),
    .flt_delete_done(),
    .rfs_cmd_valid(),
    .rfs_cmd_ready(1'b1),
    .rfs_cmd_op(),
    .rfs_cmd_addr(),
    .rfs_cmd_data0(),
    .rfs_cmd_data1(),
    .rfs_rsp_valid(1'b0),
    .rfs_rsp_status(32'd0),
    .rfs_rsp_data0(32'd0),
    .rfs_rsp_data1(32'd0),
    .evt_valid(1'b0),
    .evt_pop(),
    .evt_type(4'd0),
    .evt_id('0),
    .evt_queue(16'd0),
    .evt_flow_id(32'd0),
    .evt_hash(32'd0),
    .evt_ipv6(1'b0),
    .evt_proto(8'd0),
    .evt_src(128'd0),
    .evt_dst(128'd0),
    .evt_sport(16'd0),
    .evt_dport(16'd0),
    .evt_count(16'd0),
    .cnt_index(),
    .cnt_value(64'd0)
);
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------- front end
// l_tup: {ipv6, ports, proto, src, dst, sport, dport}
localparam integer TUP_W = 1 + 1 + 8 + 128 + 128 + 16 + 16;
logic [TUP_W-1:0] l_tup;
logic l_is_ip;
logic unused_q_valid, unused_gate_pass, unused_g_valid, unused_lk_open, unused_lk_take;
logic unused_lut_ce, unused_f_stamp, unused_l_gate_user, unused_l_free;
logic [FLT_ID_WIDTH-1:0] unused_id_mark;
logic unused_lk_gate_user;
logic [FLT_BUCKET_BITS-1:0] unused_lk_bucket;

fs_nic_front #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(USER_WIDTH),
    .REC_USER_WIDTH(USER_WIDTH),
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS),
    .FLT_ID_WIDTH(FLT_ID_WIDTH),
    .GATE_WIDTH(1),
    .STAMP_WIDTH(1),
    .LKF_LOG2(0)
) front (
    .clk(clk),
    .rst(rst),
    .cfg_enable(cfg_enable),
    .cfg_flt_lookup(cfg_flt_lookup),
    .cfg_lut_log2(cfg_lut_log2),
    .cfg_hash_mode(cfg_hash_mode),
    .cfg_hash_seed(cfg_hash_seed),
    .cfg_rss_key(cfg_rss_key),
    .lut_wr_en(lut_wr_en),
    .lut_wr_index(lut_wr_index),
    .lut_wr_queue(lut_wr_queue),
    .lut_rd_en(lut_rd_en),
    .lut_rd_index(lut_rd_index),
    .lut_rd_queue(lut_rd_queue),
    .flt_cmd_valid(flt_cmd_valid),
    .flt_cmd_ready(flt_cmd_ready),
    .flt_cmd_op(flt_cmd_op),
    .flt_cmd_ipv6(flt_cmd_ipv6),
    .flt_cmd_proto(flt_cmd_proto),
    .flt_cmd_src(flt_cmd_src),
    .flt_cmd_dst(flt_cmd_dst),
    .flt_cmd_sport(flt_cmd_sport),
    .flt_cmd_dport(flt_cmd_dport),
    .flt_cmd_id(flt_cmd_id),
    .flt_cmd_queue(flt_cmd_queue),
    .flt_rsp_valid(flt_rsp_valid),
    .flt_rsp_err(flt_rsp_err),
    .flt_rsp_id(flt_rsp_id),
    .flt_rsp_queue(flt_rsp_queue),
    .flt_busy(flt_busy),
    .flt_count(flt_count),
    .flt_id_mark(unused_id_mark),
    .init_busy(init_busy),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .q_valid(unused_q_valid),
    .gate_open(1'b1),
    .gate_user(1'b0),
    .gate_pass(unused_gate_pass),
    .g_valid(unused_g_valid),
    .lk_admit(1'b1),
    .lk_stamp(1'b0),
    .lk_open(unused_lk_open),
    .lk_take(unused_lk_take),
    .lk_gate_user(unused_lk_gate_user),
    .lk_bucket(unused_lk_bucket),
    .l_valid(m_rec_valid),
    .l_ready(m_rec_ready),
    .lut_ce(unused_lut_ce),
    .f_stamp(unused_f_stamp),
    .l_gate_user(unused_l_gate_user),
    .l_user(m_rec_user),
    .l_class(m_rec_class),
    .l_tup(l_tup),
    .l_is_ip(l_is_ip),
    .l_hash(m_rec_hash),
    .l_hv(m_rec_hash_valid),
    .l_hit(m_rec_flt_hit),
    .l_free(unused_l_free),
    .l_id(m_rec_flt_id),
    .l_aq(m_rec_queue)
);

assign m_rec_ipv6 = l_tup[TUP_W-1];
assign m_rec_ports = l_tup[TUP_W-2];
assign m_rec_proto = l_tup[TUP_W-3 -: 8];
assign m_rec_src = l_tup[TUP_W-11 -: 128];
assign m_rec_dst = l_tup[TUP_W-139 -: 128];
assign m_rec_sport = l_tup[31:16];
assign m_rec_dport = l_tup[15:0];

// the engine's seams (order gate, lookup admission) are not used here
wire unused_nic = &{1'b0, unused_q_valid, unused_gate_pass, unused_g_valid, unused_lk_open,
                    unused_lk_take, unused_lut_ce, unused_f_stamp, unused_l_gate_user, l_is_ip,
                    unused_l_free, unused_id_mark, unused_lk_gate_user, unused_lk_bucket};

endmodule

`resetall
