`resetall
`timescale 1ns / 1ps
`default_nettype none

// The engine: every block joined (docs/engine-top.md is the interface and ordering contract;
// golden model flowsteer::engine::EngineRegisterFile).
//   frames -> fs_nic_front (fs_parser -> slice -> [order gate] -> fs_hash -> slice
//     -> fs_filter_table lookup -> FIFO -> fs_rss_lut) -> tag store -> scan stage S
//     -> issue stage M (fs_flt_forward) -> fs_rfs_core -> record -> out slice
//   fs_rfs_core m_drv_req -> fs_steer_driver (tuple from the tag store) -> filter commands
//   s_axil -> fs_axil_regs (ENGINE = 1): cfg, LUT window, filter and RFS-core commands,
//     event FIFO head/pop, counters.
// Order gate (fs_order_gate): a packet takes its place in the total order when it enters
// fs_hash; a register transaction by its register's class: free ones at once, core and rec
// ones when they arrive (the packets after them wait at M), the ones that change what the
// front end reads by draining. cmd_seq = transactions ordered, sampled at the gate.
// No hazard gate: packets of one flow follow each other into the RFS core; one behind a
// driver caller that may share its key is flushed from the core and presented again by S
// and M.
// Tags: packets get consecutive tags at the order gate (at most 2^TAG_LOG2 in flight; the
// pipeline never reorders), the tag store keeps each packet's fields for M, the steer driver
// and the record. Counters count when a record enters the output slice.
module fs_engine_top #(
    // AXI4-Stream frame data width (64..1024)
    parameter integer DATA_WIDTH = 512,
    // frame tuser width (record word 4 keeps 16 bits)
    parameter integer USER_WIDTH = 16,
    // RSS LUT depth (log2)
    parameter integer LUT_LOG2 = 11,
    // CPUs with state (log2; fs_rfs_core keeps per-CPU state in registers)
    parameter integer CPU_LOG2 = 6,
    // RX queues with a slot table (log2)
    parameter integer QUEUE_LOG2 = 6,
    // largest rps_flow_cnt per queue (log2); slot RAM = 2 copies of 2^(QUEUE+SLOT) x 96 bits
    parameter integer SLOT_LOG2 = 12,
    // largest sock flow table (log2)
    parameter integer SOCK_LOG2 = 16,
    // rps_map CPU pool (log2)
    parameter integer RPS_POOL_LOG2 = 12,
    // event FIFO depth (log2)
    parameter integer EVT_LOG2 = 9,
    // filter table geometry
    parameter integer FLT_BUCKET_BITS = 10,
    parameter integer FLT_WAYS = 4,
    parameter integer FLT_ID_WIDTH = 16,
    // packets in flight between the order gate and the record (log2)
    parameter integer TAG_LOG2 = 6
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

    // one 256-bit record per frame (layout rec: hw/regs/registers.md)
    output wire [255:0]            m_axis_rec_tdata,
    output wire                    m_axis_rec_tvalid,
    input  wire                    m_axis_rec_tready
);

`include "flowsteer_regs.vh"

localparam integer CPUS = 1 << CPU_LOG2;
localparam integer QUEUES = 1 << QUEUE_LOG2;
localparam integer TW = (TAG_LOG2 > 0) ? TAG_LOG2 : 1;      // tag width
localparam integer TAGS = 1 << TW;
localparam integer RQW = (QUEUES > 1) ? $clog2(QUEUES) : 1;  // fs_rfs_core queue width
localparam integer QWID = 16;                                // queue width of LUT/filters/events
localparam integer TUP_W = 1 + 1 + 8 + 128 + 128 + 16 + 16;  // {ipv6, ports, proto, src, dst, sp, dp}
localparam integer FW_LOG2 = 5;                              // fs_flt_forward change log
localparam integer FWS = FW_LOG2 + 1;                        // its stamp width
localparam integer KEY_W = 1 + 8 + 128 + 128 + 16 + 16;      // filter key
// tag store words: static {cmd_seq, user16, class, tuple, hash, hash_valid}; issue = static +
// lookup {hit, id, arrival queue}; filter = {hit, id, arrival queue} at core entry
localparam integer TS_TUP_HI = 32 + 16 + 4;                 // tag-store bits above the tuple
localparam integer TSS_W = TS_TUP_HI + TUP_W + 32 + 1;
localparam integer TSI_W = TSS_W + 1 + FLT_ID_WIDTH + 16;
localparam integer TSF_W = 1 + 16 + 16;
localparam integer LKF_LOG2 = 3;                             // lookup FIFO (> table latency 4 + 2)

`ifdef VERILATOR
if (CPU_LOG2 < 0 || CPU_LOG2 > 10 || QUEUE_LOG2 < 0 || QUEUE_LOG2 > 10 || SLOT_LOG2 < 1 ||
    SOCK_LOG2 < 1 || RPS_POOL_LOG2 < 1 || RPS_POOL_LOG2 > 12 || LUT_LOG2 < 1 || LUT_LOG2 > 11 ||
    EVT_LOG2 < 1 || EVT_LOG2 > 15 || TAG_LOG2 < 1 || FLT_ID_WIDTH < 1 ||
    FLT_ID_WIDTH > 16) begin : g_bad_param
    $error("fs_engine_top: parameters outside the register map (CAPS) or the blocks' ranges");
end
`endif

// ---------------------------------------------------------------- registers
// The signals marked public_flat_rd are read by the Verilator harness's pipeline probe
// (sim/verilator EngineSim::probe: clocks lost at the order gate, by cause); other tools
// ignore the comment.
logic ord_req /* verilator public_flat_rd */, ord_done /* verilator public_flat_rd */;
logic ord_grant, ord_placed, ord_free /* verilator public_flat_rd */, ord_core, ord_rec /* verilator public_flat_rd */;
logic ord_drv /* verilator public_flat_rd */;
logic ord_hold /* verilator public_flat_rd */;  // a transaction that needs its place among the packets
logic cfg_enable /* verilator public_flat_rd */;
logic cfg_patched, cfg_ntuple, cfg_rmap, cfg_slot_mask, cfg_rps;
logic cfg_flt_lookup /* verilator public_flat_rd */;
logic [15:0] cfg_num_rx_queues;
logic [4:0] cfg_lut_log2;
logic [1:0] cfg_hash_mode;
logic [31:0] cfg_hash_seed;
logic [415:0] cfg_rss_key;
logic cnt_clear;
logic evt_overflow_set;
logic lut_wr_en, lut_rd_en;
logic [LUT_LOG2-1:0] lut_wr_index, lut_rd_index;
logic [QWID-1:0] lut_wr_queue, lut_rd_queue;
// host filter commands
logic h_cmd_valid, h_cmd_ready, h_cmd_ipv6, h_rsp_valid, h_delete_done;
logic [3:0] h_cmd_op;
logic [7:0] h_cmd_proto;
logic [127:0] h_cmd_src, h_cmd_dst;
logic [15:0] h_cmd_sport, h_cmd_dport;
logic [FLT_ID_WIDTH-1:0] h_cmd_id;
logic [QWID-1:0] h_cmd_queue;
// filter table command port
logic t_cmd_valid, t_cmd_ready, t_cmd_ipv6, t_rsp_valid, flt_busy;
logic [3:0] t_cmd_op, t_rsp_err;
logic [7:0] t_cmd_proto;
logic [127:0] t_cmd_src, t_cmd_dst;
logic [15:0] t_cmd_sport, t_cmd_dport;
logic [FLT_ID_WIDTH-1:0] t_cmd_id, t_rsp_id;
logic [QWID-1:0] t_cmd_queue, t_rsp_queue;
logic [31:0] flt_count;
logic [FLT_ID_WIDTH-1:0] flt_id_mark;
// RFS-core commands
logic rc_cmd_valid, rc_cmd_ready, rc_rsp_valid;
logic core_cmd_ready;                    // fs_rfs_core's cmd_ready
logic [4:0] rc_cmd_op;
logic [15:0] rc_cmd_addr;
logic [31:0] rc_cmd_data0, rc_cmd_data1, rc_rsp_status, rc_rsp_data0, rc_rsp_data1;
// events
logic ev_valid, ev_pop, ev_ipv6;
logic [3:0] ev_type;
logic [FLT_ID_WIDTH-1:0] ev_id;
logic [QWID-1:0] ev_queue;
logic [31:0] ev_flow_id, ev_hash;
logic [7:0] ev_proto;
logic [127:0] ev_src, ev_dst;
logic [15:0] ev_sport, ev_dport;
logic [EVT_LOG2:0] ev_count;
// counters
logic [4:0] cnt_index;
logic [63:0] cnt_value;
logic init_busy;

// the NIC-plane-only configuration outputs are not needed: the kernel plane gets its state
// through the RFS-core commands
/* verilator lint_off PINCONNECTEMPTY */
fs_axil_regs #(
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QWID),
    .ID_WIDTH(FLT_ID_WIDTH),
    .CPU_LOG2(CPU_LOG2),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS),
    .QUEUE_LOG2(QUEUE_LOG2),
    .SLOT_LOG2(SLOT_LOG2),
    .SOCK_LOG2(SOCK_LOG2),
    .EVT_LOG2(EVT_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2),
    .ENGINE(1)
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
    .ord_req(ord_req),
    .ord_grant(ord_grant),
    .ord_placed(ord_placed),
    .ord_done(ord_done),
    .ord_free(ord_free),
    .ord_core(ord_core),
    .ord_rec(ord_rec),
    .ord_drv(ord_drv),
    .cfg_enable(cfg_enable),
    .cfg_patched(cfg_patched),
    .cfg_ntuple(cfg_ntuple),
    .cfg_rmap(cfg_rmap),
    .cfg_slot_mask(cfg_slot_mask),
    .cfg_rps(cfg_rps),
    .cfg_flt_lookup(cfg_flt_lookup),
    .cfg_nr_cpu_ids(),
    .cfg_num_rx_queues(cfg_num_rx_queues),
    .cfg_rps_cpu_mask(),
    .cfg_sock_log2(),
    .cfg_sock_present(),
    .cfg_sock_wr(),
    .cfg_lut_log2(cfg_lut_log2),
    .cfg_cpu_online(),
    .cfg_hash_mode(cfg_hash_mode),
    .cfg_hash_seed(cfg_hash_seed),
    .cfg_rss_key(cfg_rss_key),
    .cnt_clear(cnt_clear),
    .stat_init_busy(init_busy),
    .evt_overflow_set(evt_overflow_set),
    .lut_wr_en(lut_wr_en),
    .lut_wr_index(lut_wr_index),
    .lut_wr_queue(lut_wr_queue),
    .lut_rd_en(lut_rd_en),
    .lut_rd_index(lut_rd_index),
    .lut_rd_queue(lut_rd_queue),
    .flt_cmd_valid(h_cmd_valid),
    .flt_cmd_ready(h_cmd_ready),
    .flt_cmd_op(h_cmd_op),
    .flt_cmd_ipv6(h_cmd_ipv6),
    .flt_cmd_proto(h_cmd_proto),
    .flt_cmd_src(h_cmd_src),
    .flt_cmd_dst(h_cmd_dst),
    .flt_cmd_sport(h_cmd_sport),
    .flt_cmd_dport(h_cmd_dport),
    .flt_cmd_id(h_cmd_id),
    .flt_cmd_queue(h_cmd_queue),
    .flt_rsp_valid(h_rsp_valid),
    .flt_rsp_err(t_rsp_err),
    .flt_rsp_id(t_rsp_id),
    .flt_rsp_queue(t_rsp_queue),
    .flt_busy(flt_busy),
    .flt_count(flt_count),
    .flt_delete_done(h_delete_done),
    .rfs_cmd_valid(rc_cmd_valid),
    .rfs_cmd_ready(rc_cmd_ready),
    .rfs_cmd_op(rc_cmd_op),
    .rfs_cmd_addr(rc_cmd_addr),
    .rfs_cmd_data0(rc_cmd_data0),
    .rfs_cmd_data1(rc_cmd_data1),
    .rfs_rsp_valid(rc_rsp_valid),
    .rfs_rsp_status(rc_rsp_status),
    .rfs_rsp_data0(rc_rsp_data0),
    .rfs_rsp_data1(rc_rsp_data1),
    .evt_valid(ev_valid),
    .evt_pop(ev_pop),
    .evt_type(ev_type),
    .evt_id(ev_id),
    .evt_queue(ev_queue),
    .evt_flow_id(ev_flow_id),
    .evt_hash(ev_hash),
    .evt_ipv6(ev_ipv6),
    .evt_proto(ev_proto),
    .evt_src(ev_src),
    .evt_dst(ev_dst),
    .evt_sport(ev_sport),
    .evt_dport(ev_dport),
    .evt_count(16'(ev_count)),
    .cnt_index(cnt_index),
    .cnt_value(cnt_value)
);

// ---------------------------------------------------------------- front end
// parser -> slice -> [order gate] -> hash -> slice -> [lookup admission] -> filter lookup
//   -> lookup FIFO -> RSS LUT -> stage L (fs_nic_front)
logic q_valid /* verilator public_flat_rd */;
logic gate_pass /* verilator public_flat_rd */;
logic g_valid /* verilator public_flat_rd */, lk_open /* verilator public_flat_rd */;
logic lk_take;
logic [31:0] unused_lk_cmd_seq;
logic [TW-1:0] lk_tag;
logic [FLT_BUCKET_BITS-1:0] lk_bucket;
logic l_valid /* verilator public_flat_rd */, l_ready /* verilator public_flat_rd */;
logic lut_ce;
logic fw_lk_room /* verilator public_flat_rd */;
logic [FWS-1:0] fw_stamp, f_stamp;
logic fw_patch /* verilator public_flat_rd */, fw_load_patch /* verilator public_flat_rd */;
logic [FLT_ID_WIDTH-1:0] fw_patch_id, fw_load_patch_id;
logic [QWID-1:0] fw_patch_queue, fw_load_patch_queue;
logic [TUP_W-1:0] l_tup;
logic [3:0] l_class;
logic [15:0] l_user16;
logic [TW-1:0] l_tag;
logic [31:0] l_cmd_seq, l_hash;
logic l_is_ip, l_hv, l_hit, l_free;
logic [FLT_ID_WIDTH-1:0] l_id;
logic [QWID-1:0] l_aq;
logic gate_open;

// ---------------------------------------------------------------- order gate
logic [31:0] gate_cmd_seq, wait_seq;
logic wait_on;
logic [TW-1:0] gate_tag;
logic [TW:0] inflight /* verilator public_flat_rd */;   // gate .. output slice
logic place_start /* verilator public_flat_rd */;       // a core, rec or drv transaction is placed
logic drv_hold /* verilator public_flat_rd */;          // no driver call: a drv transaction waits
logic rfs_fin;                           // a packet leaves the RFS core's stage D
logic rec_fire;
logic rec_accept;                        // a record leaves the RFS core
logic drv_busy /* verilator public_flat_rd */;
logic m_valid_reg /* verilator public_flat_rd */ = 1'b0;
logic m_seq_wait /* verilator public_flat_rd */;   // ordered after a placed transaction not yet run
logic m_first_take;                      // M gives a packet to the core for the first time
logic rp_busy_reg /* verilator public_flat_rd */ = 1'b0;   // flushed packets still to re-enter
logic rfs_flush /* verilator public_flat_rd */;
logic core_cmd_ok;                       // RFS-core commands may run (fs_order_gate)

// CTRL.ENABLE = 0 also closes the gate: a frame parsed before a disable waits there and
// takes its place in the order after the next enable (the model holds frames while disabled)
fs_order_gate #(
    .TAG_LOG2(TW)
) gate (
    .clk(clk),
    .rst(rst),
    .ord_req(ord_req),
    .ord_done(ord_done),
    .ord_free(ord_free),
    .ord_core(ord_core),
    .ord_rec(ord_rec),
    .ord_drv(ord_drv),
    .ord_grant(ord_grant),
    .ord_placed(ord_placed),
    .ord_hold(ord_hold),
    .place_start(place_start),
    .drv_hold(drv_hold),
    .cfg_enable(cfg_enable),
    .init_busy(init_busy),
    .drv_busy(drv_busy),
    .q_valid(q_valid),
    .gate_pass(gate_pass),
    .gate_open(gate_open),
    .gate_cmd_seq(gate_cmd_seq),
    .gate_tag(gate_tag),
    .m_first_take(m_first_take),
    .m_after(m_valid_reg && m_seq_wait),
    .rp_busy(rp_busy_reg),
    .rfs_flush(rfs_flush),
    .core_cmd_ok(core_cmd_ok),
    .core_cmd_take(rc_cmd_valid && rc_cmd_ready),
    .rfs_fin(rfs_fin),
    .rec_fire(rec_fire),
    .wait_on(wait_on),
    .wait_seq(wait_seq),
    .inflight(inflight)
);

fs_nic_front #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(USER_WIDTH),
    .REC_USER_WIDTH(16),
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QWID),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS),
    .FLT_ID_WIDTH(FLT_ID_WIDTH),
    .GATE_WIDTH(32 + TW),
    .STAMP_WIDTH(FWS),
    .LKF_LOG2(LKF_LOG2)
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
    .flt_cmd_valid(t_cmd_valid),
    .flt_cmd_ready(t_cmd_ready),
    .flt_cmd_op(t_cmd_op),
    .flt_cmd_ipv6(t_cmd_ipv6),
    .flt_cmd_proto(t_cmd_proto),
    .flt_cmd_src(t_cmd_src),
    .flt_cmd_dst(t_cmd_dst),
    .flt_cmd_sport(t_cmd_sport),
    .flt_cmd_dport(t_cmd_dport),
    .flt_cmd_id(t_cmd_id),
    .flt_cmd_queue(t_cmd_queue),
    .flt_rsp_valid(t_rsp_valid),
    .flt_rsp_err(t_rsp_err),
    .flt_rsp_id(t_rsp_id),
    .flt_rsp_queue(t_rsp_queue),
    .flt_busy(flt_busy),
    .flt_count(flt_count),
    .flt_id_mark(flt_id_mark),
    .init_busy(init_busy),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .q_valid(q_valid),
    .gate_open(gate_open),
    .gate_user({gate_cmd_seq, gate_tag}),
    .gate_pass(gate_pass),
    .g_valid(g_valid),
    .lk_admit(fw_lk_room),
    .lk_stamp(fw_stamp),
    .lk_open(lk_open),
    .lk_take(lk_take),
    .lk_gate_user({unused_lk_cmd_seq, lk_tag}),
    .lk_bucket(lk_bucket),
    .l_valid(l_valid),
    .l_ready(l_ready),
    .lut_ce(lut_ce),
    .f_stamp(f_stamp),
    .l_gate_user({l_cmd_seq, l_tag}),
    .l_user(l_user16),
    .l_class(l_class),
    .l_tup(l_tup),
    .l_is_ip(l_is_ip),
    .l_hash(l_hash),
    .l_hv(l_hv),
    .l_hit(l_hit),
    .l_free(l_free),
    .l_id(l_id),
    .l_aq(l_aq)
);

// ---------------------------------------------------------------- filter table command port
logic d_cmd_valid, d_cmd_ready, d_cmd_ipv6, d_cmd_posted, flt_lock;
logic d_cmd_take;                        // the table takes the driver's command
logic [KEY_W-1:0] d_cmd_key;             // ... its filter key
logic [3:0] d_cmd_op;
logic [7:0] d_cmd_proto;
logic [127:0] d_cmd_src, d_cmd_dst;
logic [15:0] d_cmd_sport, d_cmd_dport;
logic [FLT_ID_WIDTH-1:0] d_cmd_id;
logic [QWID-1:0] d_cmd_queue;
logic host_wait_reg = 1'b0;              // a host command's response is due
logic host_sel;

// Host commands run only under ord_grant (the driver is idle then); the steer driver holds
// the port for a whole request (flt_lock) and never meets a host command.
assign host_sel = h_cmd_valid || host_wait_reg;
assign t_cmd_valid = host_sel ? h_cmd_valid : d_cmd_valid;
assign t_cmd_op = host_sel ? h_cmd_op : d_cmd_op;
assign t_cmd_ipv6 = host_sel ? h_cmd_ipv6 : d_cmd_ipv6;
assign t_cmd_proto = host_sel ? h_cmd_proto : d_cmd_proto;
assign t_cmd_src = host_sel ? h_cmd_src : d_cmd_src;
assign t_cmd_dst = host_sel ? h_cmd_dst : d_cmd_dst;
assign t_cmd_sport = host_sel ? h_cmd_sport : d_cmd_sport;
assign t_cmd_dport = host_sel ? h_cmd_dport : d_cmd_dport;
assign t_cmd_id = host_sel ? h_cmd_id : d_cmd_id;
assign t_cmd_queue = host_sel ? h_cmd_queue : d_cmd_queue;
assign h_cmd_ready = host_sel && t_cmd_ready;
assign d_cmd_ready = !host_sel && t_cmd_ready;
assign d_cmd_take = d_cmd_valid && d_cmd_ready;
assign d_cmd_key = {d_cmd_ipv6, d_cmd_proto, d_cmd_src, d_cmd_dst, d_cmd_sport, d_cmd_dport};
assign h_rsp_valid = t_rsp_valid && host_wait_reg;

always_ff @(posedge clk) begin
    if (h_cmd_valid && h_cmd_ready) host_wait_reg <= 1'b1;
    if (t_rsp_valid) host_wait_reg <= 1'b0;
    if (rst) host_wait_reg <= 1'b0;
end

// ---------------------------------------------------------------- stage L -> tag store
// the packet after its lookup and LUT goes into the tag store (its slot is free: tags are
// unique in flight) and never waits; its lookup stamp is kept with it
logic [FWS-1:0] l_stamp_reg;
always_ff @(posedge clk) begin
    if (lut_ce) l_stamp_reg <= f_stamp;
end
assign l_ready = 1'b1;

// ---------------------------------------------------------------- tag store
// Written when a packet leaves the LUT stage: tags_rec (the record's fields) and tags_iss
// (the issue stage: also the lookup result and stamp, so a packet the RFS core flushed is
// presented again as it was looked up). Written as it enters the core: tags_flt (the filter
// state it entered with, after forwarding, for its record) and tags_drv (the steer driver's
// view of it).
logic ts_wr;
logic [TSS_W-1:0] ts_wr_data, ts_rec_data;
logic [1+TUP_W+TSF_W-1:0] ts_drv_data;
logic [TSI_W-1:0] ts_iss_data;
logic [TSF_W-1:0] ts_flt_data;
logic [TW-1:0] drv_tag, rec_tag;
logic [FWS-1:0] ts_stamp_reg [TAGS];
logic ts_free_reg [TAGS];                // its lookup found a free way in the key's bucket
assign ts_wr = l_valid && l_ready;
assign ts_wr_data = {l_cmd_seq, l_user16, l_class, l_tup, l_hash, l_hv};

// the filter key of a tuple: all of it but the ports flag
function automatic [KEY_W-1:0] key_of(input logic [TUP_W-1:0] tup);
    key_of = {tup[TUP_W-1], tup[TUP_W-3:0]};
endfunction

always_ff @(posedge clk) begin
    if (ts_wr) ts_stamp_reg[l_tag] <= l_stamp_reg;
    if (ts_wr) ts_free_reg[l_tag] <= l_free;
end

fs_ram_sdp #(.DATA_WIDTH(TSS_W), .ADDR_WIDTH(TW)) tags_rec (
    .clk(clk), .wr_en(ts_wr), .wr_addr(l_tag), .wr_data(ts_wr_data),
    .rd_en(rec_accept), .rd_addr(rec_tag), .rd_data(ts_rec_data));

// ---------------------------------------------------------------- stages S and M
// S reads the tag store in tag order (ip_reg) while fs_flt_forward reads the change logged at
// the packet's stamp, and compares it with the key the read gives; the issue stage M
// presents the packet to fs_rfs_core once fs_flt_forward has applied the changes logged
// after that one. m_flush (a driver caller left the core's stage D) drops the packets behind
// it in the core, in M and in S: ip_reg goes back to the tag after the caller's, and they are
// read and scanned again.
logic s_valid_reg = 1'b0;
logic [TW-1:0] s_tag_reg;
logic [TW-1:0] m_tag_reg;
logic [TSI_W-1:0] m_iss_reg;             // the tag store's read, moved on from S
logic [TW-1:0] ip_reg = '0;              // next tag to read
logic [TW:0] n_wr_reg = '0;              // written, not yet read (or read again after a flush)
logic m_go /* verilator public_flat_rd */;
logic m_take, fw_go, s_load;
logic m_load /* verilator public_flat_rd */;
logic rfs_in_ready /* verilator public_flat_rd */;
logic [TW-1:0] rp_end_reg;                // the first tag not flushed
logic m_pat_reg = 1'b0;                  // a change the scan at M found
logic m_lpat_reg;                         // the stamp's change, compared in S (a register of
                                          // its own: the compare is its D, no reset, no mux)
logic m_patched;
logic [FLT_ID_WIDTH-1:0] m_pid_reg;
logic [QWID-1:0] m_pq_reg;

logic [TW-1:0] rp_n;                      // packets read after the flushing caller (mod 2^TW)
assign rp_n = ip_reg - drv_tag - TW'(1);
assign m_load = s_valid_reg && (!m_valid_reg || m_take) && !rfs_flush;
assign s_load = (n_wr_reg != '0) && (!s_valid_reg || m_load) && !rfs_flush;
logic [31:0] m_cmd_seq;
// (a packet that passed the gate beside a free transaction's ord_done carries the count
// before it: only a count above the executed ones waits; fs_order_gate's wait_seq is the one
// count that can be, p_seq_ahead)
assign m_seq_wait = wait_on && m_cmd_seq == wait_seq;
assign m_go = m_valid_reg && fw_go && !m_seq_wait;
assign m_take = m_go && rfs_in_ready;
// tags leave M in order; a flush sends M back below nx_reg, so a take of nx_reg is a first one
logic [TW-1:0] nx_reg = '0;              // the first tag never given to the core
assign m_first_take = m_take && m_tag_reg == nx_reg;

always_ff @(posedge clk) begin
    if (s_load) begin
        ip_reg <= ip_reg + TW'(1);
        s_tag_reg <= ip_reg;
        s_valid_reg <= 1'b1;
    end else if (m_load) begin
        s_valid_reg <= 1'b0;
    end
    if (m_load) begin
        m_tag_reg <= s_tag_reg;
        m_iss_reg <= ts_iss_data;
        m_valid_reg <= 1'b1;
        m_pat_reg <= 1'b0;
        m_lpat_reg <= fw_load_patch;
        m_pid_reg <= fw_load_patch_id;
        m_pq_reg <= fw_load_patch_queue;
    end else if (m_take) begin
        m_valid_reg <= 1'b0;
    end else if (fw_patch) begin
        // a steer of the same tuple changed the filter after this packet's lookup
        m_pat_reg <= 1'b1;
        m_pid_reg <= fw_patch_id;
        m_pq_reg <= fw_patch_queue;
    end
    if (m_first_take) nx_reg <= nx_reg + TW'(1);
    n_wr_reg <= n_wr_reg + (TW+1)'(ts_wr) - (TW+1)'(s_load) + (rfs_flush ? (TW+1)'(rp_n) : '0);
    if (rp_busy_reg && m_take && m_tag_reg + TW'(1) == rp_end_reg) rp_busy_reg <= 1'b0;
    if (rfs_flush) begin
        ip_reg <= drv_tag + TW'(1);
        s_valid_reg <= 1'b0;
        m_valid_reg <= 1'b0;
        rp_end_reg <= ip_reg;
        rp_busy_reg <= rp_n != '0;
    end
    if (rst) begin
        ip_reg <= '0;
        nx_reg <= '0;
        n_wr_reg <= '0;
        s_valid_reg <= 1'b0;
        m_valid_reg <= 1'b0;
        m_pat_reg <= 1'b0;
        rp_busy_reg <= 1'b0;
    end
end

fs_ram_sdp #(.DATA_WIDTH(TSI_W), .ADDR_WIDTH(TW)) tags_iss (
    .clk(clk), .wr_en(ts_wr), .wr_addr(l_tag),
    .wr_data({ts_wr_data, l_hit, l_id, l_aq}),
    .rd_en(s_load), .rd_addr(ip_reg), .rd_data(ts_iss_data));

// the packet as it enters the RFS core
logic [TUP_W-1:0] m_tup;
logic [3:0] m_class;
logic [31:0] m_hash, m_rfs_hash;
logic m_is_ip, m_hv, m_steerable, m_s_hit, m_hit;
logic [FLT_ID_WIDTH-1:0] m_s_id;
logic [QWID-1:0] m_s_aq, m_fq, m_aq;
logic [FLT_ID_WIDTH-1:0] m_id;
logic [15:0] unused_m_hi;
assign {m_cmd_seq, unused_m_hi, m_class, m_tup, m_hash, m_hv, m_s_hit, m_s_id, m_s_aq} = m_iss_reg;
assign m_is_ip = (m_class <= 4'(FS_PARSE_CLASS_IPV6_FRAGMENT));
assign m_patched = m_pat_reg || m_lpat_reg;
assign m_hit = m_patched ? (m_is_ip && cfg_flt_lookup) : m_s_hit;
assign m_id = m_patched ? m_pid_reg : m_s_id;
// stage L gives the arrival queue (filter queue on a hit, else the LUT's); a patch cannot
// clear a hit (an IP packet, lookups on), so without a hit the stored queue is the LUT's
assign m_fq = m_patched ? m_pq_reg : m_s_aq;
assign m_aq = m_hit ? m_fq : m_s_aq;
// ndo_rx_flow_steer would accept it: an IP tuple, TCP or UDP, not an IPv4 fragment
assign m_steerable = m_is_ip && (m_class != 4'(FS_PARSE_CLASS_IPV4_FRAGMENT)) &&
                     (m_tup[TUP_W-3 -: 8] == 8'd6 || m_tup[TUP_W-3 -: 8] == 8'd17);
// no get_rps_cpu (rps_needed off) and G2 (queue >= real_num_rx_queues) end like G4: hash 0
assign m_rfs_hash = (cfg_rps && m_aq < cfg_num_rx_queues) ? m_hash : 32'd0;

logic [TSF_W-1:0] tsf_wr_data;
assign tsf_wr_data = {m_hit, m_hit ? 16'(m_id) : 16'd0, m_aq};
fs_ram_sdp #(.DATA_WIDTH(TSF_W), .ADDR_WIDTH(TW)) tags_flt (
    .clk(clk), .wr_en(m_take), .wr_addr(m_tag_reg), .wr_data(tsf_wr_data),
    .rd_en(rec_accept), .rd_addr(rec_tag), .rd_data(ts_flt_data));
// tags_drv: what the steer driver needs of its caller, written as the packet enters the core
// (a flushed packet rewrites its word as it enters again): whether ice would take it, its
// tuple, and the same filter word, its filter as its lookup found it, forwarded to its place
// in the order (a change after that flushed it), so the driver need not look the tuple up
// again. Read (LUTRAM, no read clock) at C's tag as D takes that packet, into a register
// beside D's: the driver takes a request in the clock the caller asks, from registers.
// With the word, whether its lookup hit on the request's queue (drv_own_reg): the one case
// in which the driver's refusal from registers (m_drv_rsp_refuse) answers rc >= 0.
logic [1+TUP_W+TSF_W-1:0] tags_drv [TAGS];
logic drv_pre_valid;
logic [TW-1:0] drv_pre_tag;
logic [RQW-1:0] drv_pre_queue;
logic [1+TUP_W+TSF_W-1:0] drv_pre_word;
logic drv_own_reg /* verilator public_flat_rd */;
// with it, whether the caller's lookup found a free way in its bucket, and (fs_bucket_watch)
// whether no change was logged in that bucket since: the driver's fast insert needs both
logic drv_free_reg;
logic drv_fresh;
logic drv_lk_free;
assign drv_pre_word = tags_drv[drv_pre_tag];
assign drv_lk_free = drv_free_reg && drv_fresh;
always_ff @(posedge clk) begin
    if (m_take) tags_drv[m_tag_reg] <= {m_steerable, m_tup, tsf_wr_data};
    if (drv_pre_valid) begin
        ts_drv_data <= drv_pre_word;
        drv_free_reg <= ts_free_reg[drv_pre_tag];
        // (the word ends {hit, id, arrival queue}, TSF_W = 1 + 16 + 16)
        drv_own_reg <= drv_pre_word[TSF_W-1] && drv_pre_word[QWID-1:0] == QWID'(drv_pre_queue);
    end
end

// ---------------------------------------------------------------- filter forwarding
logic fw_scan /* verilator public_flat_rd */;
logic fw_chg_log;
fs_flt_forward #(
    .KEY_W(KEY_W),
    .ID_WIDTH(FLT_ID_WIDTH),
    .QUEUE_WIDTH(QWID),
    .LOG_LOG2(FW_LOG2)
) fwd (
    .clk(clk),
    .rst(rst),
    .lk_take(lk_take),
    .lk_stamp(fw_stamp),
    .lk_room(fw_lk_room),
    .dc_take(d_cmd_take),
    .dc_op(d_cmd_op),
    .dc_key(d_cmd_key),
    .dc_id(d_cmd_id),
    .dc_queue(d_cmd_queue),
    .dc_posted(d_cmd_posted),
    .dr_valid(t_rsp_valid && !host_wait_reg),
    .dr_err(t_rsp_err),
    .chg_log(fw_chg_log),
    .s_load(s_load),
    .s_load_stamp(ts_stamp_reg[ip_reg]),
    .s_key(key_of(ts_iss_data[TSI_W-TS_TUP_HI-1 -: TUP_W])),
    .load_patch_valid(fw_load_patch),
    .load_patch_id(fw_load_patch_id),
    .load_patch_queue(fw_load_patch_queue),
    .p_load(m_load),
    .p_valid(m_valid_reg),
    .p_key(key_of(m_tup)),
    .p_go(fw_go),
    .patch_valid(fw_patch),
    .patch_id(fw_patch_id),
    .patch_queue(fw_patch_queue),
    .core_exit(rec_accept),
    .stat_scan(fw_scan)
);

fs_bucket_watch #(
    .TAG_W(TW),
    .BUCKET_BITS(FLT_BUCKET_BITS)
) bucket_watch (
    .clk(clk),
    .rst(rst),
    .lk_take(lk_take),
    .lk_tag(lk_tag),
    .lk_bucket(lk_bucket),
    .dc_take(d_cmd_take),
    .dc_key(d_cmd_key),
    .chg_log(fw_chg_log),
    .rd_load(drv_pre_valid),
    .rd_tag(drv_pre_tag),
    .rd_clean(drv_fresh)
);

// ---------------------------------------------------------------- RFS core
// a command waits (hidden from the core, which would hold packets off for it) while packets
// ordered before its transaction are still to enter the core
assign rc_cmd_ready = core_cmd_ready && core_cmd_ok;
logic rq_valid /* verilator public_flat_rd */;
logic rq_ready, rs_valid, rs_ready, rs_now;
logic rs_refuse /* verilator public_flat_rd */;
logic [RQW-1:0] rq_queue;
logic [SLOT_LOG2-1:0] rq_flow_id;
logic [31:0] rq_hash, rs_rc, rs_now_rc;
logic cr_valid, cr_ready, cr_cpu_valid, cr_steer;    // the core's record
logic [15:0] cr_cpu;
logic [2:0] cr_path, cr_gate;
logic [31:0] cr_rc, cr_tail;
logic [TW-1:0] cr_tag;
logic rr_valid, rr_ready, rr_cpu_valid, rr_steer;    // ... after slice_rec
logic [15:0] rr_cpu;
logic [2:0] rr_path, rr_gate;
logic [31:0] rr_rc, rr_tail;
logic [31:0] stat_fwd, stat_hzd;
logic [31:0] unused_drv_stall, unused_cmd_stall;
logic [RQW-1:0] unused_rr_sq, unused_rr_rq;
logic [SLOT_LOG2-1:0] unused_rr_sf, unused_rr_rs;
logic unused_rr_rv;

fs_rfs_core #(
    .NUM_CPUS(CPUS),
    .NUM_QUEUES(QUEUES),
    .SLOT_LOG2_MAX(SLOT_LOG2),
    .SOCK_LOG2_MAX(SOCK_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2),
    .TAG_WIDTH(TW),
    .FLUSH_ON_STEER(1)
) rfs (
    .clk(clk),
    .rst(rst),
    .s_axis_pkt_tvalid(m_go),
    .s_axis_pkt_tready(rfs_in_ready),
    .s_axis_pkt_hash(m_rfs_hash),
    .s_axis_pkt_queue(RQW'(m_aq)),
    .s_axis_pkt_steerable(m_steerable),
    .s_axis_pkt_tag(m_tag_reg),
    .s_axis_pkt_zkey(m_is_ip && m_tup[31:0] == 32'd0),
    .m_axis_rec_tvalid(cr_valid),
    .m_axis_rec_tready(cr_ready),
    .m_axis_rec_cpu_valid(cr_cpu_valid),
    .m_axis_rec_cpu(cr_cpu),
    .m_axis_rec_path(cr_path),
    .m_axis_rec_gate(cr_gate),
    .m_axis_rec_steer(cr_steer),
    .m_axis_rec_steer_queue(unused_rr_sq),
    .m_axis_rec_steer_flow_id(unused_rr_sf),
    .m_axis_rec_steer_rc(cr_rc),
    .m_axis_rec_rflow_valid(unused_rr_rv),
    .m_axis_rec_rflow_queue(unused_rr_rq),
    .m_axis_rec_rflow_slot(unused_rr_rs),
    .m_axis_rec_tail(cr_tail),
    .m_axis_rec_tag(cr_tag),
    .m_drv_req_valid(rq_valid),
    .m_drv_req_ready(rq_ready),
    .m_drv_req_queue(rq_queue),
    .m_drv_req_flow_id(rq_flow_id),
    .m_drv_req_hash(rq_hash),
    .m_drv_req_tag(drv_tag),
    .m_drv_pre_valid(drv_pre_valid),
    .m_drv_pre_tag(drv_pre_tag),
    .m_drv_pre_queue(drv_pre_queue),
    .s_drv_pre_own(drv_own_reg),
    .s_drv_rsp_valid(rs_valid),
    .s_drv_rsp_ready(rs_ready),
    .s_drv_rsp_rc(rs_rc),
    .s_drv_rsp_now(rs_now),
    .s_drv_rsp_now_rc(rs_now_rc),
    .s_drv_rsp_refuse(rs_refuse && !drv_hold),
    .m_flush(rfs_flush),
    .m_fin(rfs_fin),
    .cmd_valid(rc_cmd_valid && core_cmd_ok),
    .cmd_ready(core_cmd_ready),
    .cmd_op(rc_cmd_op),
    .cmd_addr(rc_cmd_addr),
    .cmd_data0(rc_cmd_data0),
    .cmd_data1(rc_cmd_data1),
    .rsp_valid(rc_rsp_valid),
    .rsp_status(rc_rsp_status),
    .rsp_data0(rc_rsp_data0),
    .rsp_data1(rc_rsp_data1),
    .stat_drv_stall(unused_drv_stall),
    .stat_cmd_stall(unused_cmd_stall),
    .stat_fwd(stat_fwd),
    .stat_hzd_stall(stat_hzd)
);

// ---------------------------------------------------------------- steer driver
logic dq_ready;
logic drv_fire /* verilator public_flat_rd */;
logic [TUP_W-1:0] dt_tup;
logic dt_steerable /* verilator public_flat_rd */;
logic dt_hit;
logic [15:0] dt_id, dt_aq;
logic [63:0] st_calls, st_adds, st_retargets, st_refusals, st_errors;
logic [31:0] unused_last_id;
logic unused_last_id_ready;
logic [TW-1:0] unused_rsp_tag;

assign {dt_steerable, dt_tup, dt_hit, dt_id, dt_aq} = ts_drv_data;
// A placed event-FIFO transaction (ord_drv) with every packet before it out of D: the call
// D offers is after it, so the driver neither sees it nor refuses it until it has run.
// drv_hold is a register (fs_order_gate), one gate in each of the three paths.
logic dv_valid;
assign dv_valid = rq_valid && !drv_hold;
assign rq_ready = dq_ready && !drv_hold;
assign drv_fire = rq_valid && rq_ready;

fs_steer_driver #(
    .ID_WIDTH(FLT_ID_WIDTH),
    .QUEUE_WIDTH(QWID),
    .EVT_DEPTH_LOG2(EVT_LOG2),
    .TAG_WIDTH(TW)
) driver (
    .clk(clk),
    .rst(rst),
    .s_drv_req_valid(dv_valid),
    .s_drv_req_ready(dq_ready),
    .s_drv_req_queue(QWID'(rq_queue)),
    .s_drv_req_flow_id(32'(rq_flow_id)),
    .s_drv_req_hash(rq_hash),
    .s_drv_req_steerable(dt_steerable),
    .s_drv_req_ipv6(dt_tup[TUP_W-1]),
    .s_drv_req_proto(dt_tup[TUP_W-3 -: 8]),
    .s_drv_req_src(dt_tup[TUP_W-11 -: 128]),
    .s_drv_req_dst(dt_tup[TUP_W-139 -: 128]),
    .s_drv_req_sport(dt_tup[31:16]),
    .s_drv_req_dport(dt_tup[15:0]),
    .s_drv_req_tag(drv_tag),
    // with lookups on (CTRL.FLT_LOOKUP, a draining register) the caller's lookup is the
    // table's answer at its place in the order
    .s_drv_req_lk_valid(cfg_flt_lookup),
    .s_drv_req_lk_hit(dt_hit),
    .s_drv_req_lk_id(FLT_ID_WIDTH'(dt_id)),
    .s_drv_req_lk_queue(QWID'(dt_aq)),
    .s_drv_req_lk_free(drv_lk_free),
    .id_mark(flt_id_mark),
    .m_drv_rsp_valid(rs_valid),
    .m_drv_rsp_ready(rs_ready),
    .m_drv_rsp_rc(rs_rc),
    .m_drv_rsp_tag(unused_rsp_tag),
    .m_drv_rsp_now(rs_now),
    .m_drv_rsp_now_rc(rs_now_rc),
    .m_drv_rsp_refuse(rs_refuse),
    .m_flt_cmd_valid(d_cmd_valid),
    .m_flt_cmd_ready(d_cmd_ready),
    .m_flt_cmd_op(d_cmd_op),
    .m_flt_cmd_ipv6(d_cmd_ipv6),
    .m_flt_cmd_proto(d_cmd_proto),
    .m_flt_cmd_src(d_cmd_src),
    .m_flt_cmd_dst(d_cmd_dst),
    .m_flt_cmd_sport(d_cmd_sport),
    .m_flt_cmd_dport(d_cmd_dport),
    .m_flt_cmd_id(d_cmd_id),
    .m_flt_cmd_queue(d_cmd_queue),
    .m_flt_cmd_posted(d_cmd_posted),
    .s_flt_rsp_valid(t_rsp_valid && !host_wait_reg),
    .s_flt_rsp_err(t_rsp_err),
    .s_flt_rsp_id(t_rsp_id),
    .s_flt_rsp_queue(t_rsp_queue),
    .flt_lock(flt_lock),
    .cfg_last_id_wr_valid(1'b0),
    .cfg_last_id_wr_ready(unused_last_id_ready),
    .cfg_last_id_wr_data(32'd0),
    .cfg_last_id(unused_last_id),
    .m_evt_valid(ev_valid),
    .m_evt_ready(ev_pop),
    .m_evt_type(ev_type),
    .m_evt_id(ev_id),
    .m_evt_queue(ev_queue),
    .m_evt_flow_id(ev_flow_id),
    .m_evt_hash(ev_hash),
    .m_evt_ipv6(ev_ipv6),
    .m_evt_proto(ev_proto),
    .m_evt_src(ev_src),
    .m_evt_dst(ev_dst),
    .m_evt_sport(ev_sport),
    .m_evt_dport(ev_dport),
    .evt_count(ev_count),
    .stat_steer_calls(st_calls),
    .stat_steer_adds(st_adds),
    .stat_steer_retargets(st_retargets),
    .stat_evt_refusals(st_refusals),
    .stat_driver_errors(st_errors),
    .busy(drv_busy)
);

// the core's record output through a register slice: the core's record ready is then a
// register, not R1's and the output slice's ready (that chain ran on through the core's
// finish, its input ready and M's take into fs_flt_forward's log read: 7 LUT levels)
localparam integer CRW = 1 + 16 + 3 + 3 + 1 + 32 + 32 + TW;
`ifdef FORMAL
logic [1:0] unused_f_rec_items, unused_f_out_items;   // (the top's invariants do not count them)
`endif
fs_skid #(
    .WIDTH(CRW)
) slice_rec (
    .clk(clk),
    .rst(rst),
    .s_valid(cr_valid),
    .s_ready(cr_ready),
    .s_data({cr_cpu_valid, cr_cpu, cr_path, cr_gate, cr_steer, cr_rc, cr_tail, cr_tag}),
    .m_valid(rr_valid),
    .m_ready(rr_ready),
    .m_data({rr_cpu_valid, rr_cpu, rr_path, rr_gate, rr_steer, rr_rc, rr_tail, rec_tag})
`ifdef FORMAL
    , .f_items(unused_f_rec_items)
`endif
);

// ---------------------------------------------------------------- record
// stage R1 holds the RFS record while the tag store reads the packet's fields
logic r1_valid_reg /* verilator public_flat_rd */ = 1'b0;
logic r1_cpu_valid_reg, r1_steer_reg;
logic [15:0] r1_cpu_reg;
logic [2:0] r1_path_reg, r1_gate_reg;
logic [31:0] r1_rc_reg, r1_tail_reg;
logic out_ready /* verilator public_flat_rd */;

assign rec_fire = r1_valid_reg && out_ready;
assign rr_ready = !r1_valid_reg || out_ready;
assign rec_accept = rr_valid && rr_ready;

always_ff @(posedge clk) begin
    if (rr_ready) begin
        r1_valid_reg <= rr_valid;
        if (rr_valid) begin
            r1_cpu_valid_reg <= rr_cpu_valid;
            r1_cpu_reg <= rr_cpu;
            r1_path_reg <= rr_path;
            r1_gate_reg <= rr_gate;
            r1_steer_reg <= rr_steer;
            r1_rc_reg <= rr_rc;
            r1_tail_reg <= rr_tail;
        end
    end
    if (rst) r1_valid_reg <= 1'b0;
end

logic [31:0] o_cmd_seq, o_hash;
logic [15:0] o_user, o_id, o_queue;
logic [3:0] o_class;
logic o_hv, o_hit;
logic [255:0] o_rec;
logic [TUP_W-1:0] unused_o_tup;
assign {o_cmd_seq, o_user, o_class, unused_o_tup, o_hash, o_hv} = ts_rec_data;
assign {o_hit, o_id, o_queue} = ts_flt_data;

fs_record_pack rec_pack (
    .s_rec_hash(o_hash),
    .s_rec_parse_class(o_class),
    .s_rec_hash_valid(o_hv),
    .s_rec_filter_hit(o_hit),
    .s_rec_cpu_valid(r1_cpu_valid_reg),
    .s_rec_path(r1_path_reg),
    .s_rec_gate(r1_gate_reg),
    .s_rec_steer_called(r1_steer_reg),
    .s_rec_queue(o_queue),
    .s_rec_cpu(r1_cpu_reg),
    .s_rec_filter_id(o_id),
    .s_rec_rc(r1_rc_reg),
    .s_rec_user(o_user),
    .s_rec_cmd_seq(o_cmd_seq),
    .s_rec_tail(r1_tail_reg),
    .m_rec_data(o_rec)
);

fs_skid #(
    .WIDTH(256)
) slice_out (
    .clk(clk),
    .rst(rst),
    .s_valid(r1_valid_reg),
    .s_ready(out_ready),
    .s_data(o_rec),
    .m_valid(m_axis_rec_tvalid),
    .m_ready(m_axis_rec_tready),
    .m_data(m_axis_rec_tdata)
`ifdef FORMAL
    , .f_items(unused_f_out_items)
`endif
);

// ---------------------------------------------------------------- counters (enum counter)
// a looked-up packet waits for the forwarding window (the probe's fwd_window cause)
logic fwd_window_full;
assign fwd_window_full = g_valid && !fw_lk_room;
// a driver call waits at D for an event-FIFO transaction ordered before it (the probe's drv_held)
logic drv_hold_wait;
assign drv_hold_wait = rq_valid && drv_hold;

fs_counters counters (
    .clk(clk),
    .rst(rst),
    .rec_fire(rec_fire),
    .rec_hash_valid(o_hv),
    .rec_filter_hit(o_hit),
    .rec_cpu_valid(r1_cpu_valid_reg),
    .rec_steer_called(r1_steer_reg),
    .rec_path(r1_path_reg),
    .rec_parse_class(o_class),
    .flt_delete_done(h_delete_done),
    .fwd_scan(fw_scan),
    .replay_busy(rp_busy_reg),
    .fwd_window_full(fwd_window_full),
    .drv_hold_wait(drv_hold_wait),
    // (a posted RETARGET is not an add)
    .fast_add(d_cmd_take && d_cmd_posted && d_cmd_op == 4'(FS_FILTER_OP_INSERT)),
    .stat_steer_adds(st_adds),
    .stat_steer_retargets(st_retargets),
    .stat_evt_refusals(st_refusals),
    .stat_rfs_fwd(stat_fwd),
    .stat_rfs_hzd_stall(stat_hzd),
    .cnt_clear(cnt_clear),
    .cnt_index(cnt_index),
    .cnt_value(cnt_value),
    .evt_overflow_set(evt_overflow_set)
);

// unused block outputs: the RFS record's slot bookkeeping, stall statistics, the driver's
// tag echo, id read-back, lock (host commands never meet it: they run under ord_grant),
// calls/errors (counted from records, which also see the calls fs_rfs_core answers itself);
// the driver's copy of the filter id is stored 16 wide (bits above FLT_ID_WIDTH are 0)
wire unused_top = &{1'b0, unused_m_hi, m_hv, l_is_ip, unused_drv_stall, unused_cmd_stall,
                    dt_id,
                    unused_rr_sq, unused_rr_rq, unused_rr_sf, unused_rr_rs, unused_rr_rv,
                    unused_last_id, unused_last_id_ready, unused_rsp_tag, unused_o_tup, flt_lock,
                    st_calls, st_errors, cfg_patched, cfg_ntuple, cfg_rmap,
                    cfg_slot_mask};

`ifdef FORMAL
// the engine's contracts (hw/formal): stream rules on the frame and record ports, AXI4-Lite
// rules with SLVERR wherever the map decodes nothing, and conservation: a record only for an
// accepted frame, records in the packets' order, frames in flight bounded by the pipeline,
// and while frames are in flight, the record sink is ready and no register transaction is
// placed or running, a record leaves within F_PROGRESS clocks (a bounded form of "never
// stuck"; a transaction may hold the packets after it longer: a sock-table clear alone takes
// 2^SOCK_LOG2 clocks); the same bound holds the frame input's tready low at most (p_tready)
localparam integer F_PROGRESS = 256;
// A lone frame (its tlast taken with no frame in flight, no frame taken after it until its
// record, no register transaction placed or running meanwhile, the sink ready): its record is
// valid exactly F_LATENCY clocks after the tlast's clock (hw/README.md's 41) unless it called
// the steer driver, and at most F_LONE_CALL clocks later if it did (D holds its caller until
// the driver's answer: the simulations' lone callers take 2 or 5 clocks more; 8 leaves room
// for a lookup the driver makes itself)
localparam integer F_LATENCY = 41;
localparam integer F_LONE_CALL = 8;
// frames between their tlast and their record: at most TAGS from the order gate to the output
// slice, and fewer than 32 in the parser, the slices before the gate and the output slice
localparam integer F_FRAMES_MAX = TAGS + 32;
fs_axis_check #(.WIDTH(DATA_WIDTH + DATA_WIDTH / 8 + 1 + USER_WIDTH), .INPUT(1)) f_s (.clk(clk),
    .rst(rst), .valid(s_axis_tvalid), .ready(s_axis_tready),
    .data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}));
fs_axis_check #(.WIDTH(256), .INPUT(0)) f_m (.clk(clk), .rst(rst), .valid(m_axis_rec_tvalid),
    .ready(m_axis_rec_tready), .data(m_axis_rec_tdata));
fs_axil_check #(.DECODE(1), .EXACT_WR(0), .ENGINE(1), .LUT_LOG2(LUT_LOG2), .CPU_LOG2(CPU_LOG2),
    .QUEUE_LOG2(QUEUE_LOG2), .RPS_POOL_LOG2(RPS_POOL_LOG2)) f_axil (.clk(clk), .rst(rst),
    .awaddr(s_axil_awaddr), .awvalid(s_axil_awvalid), .awready(s_axil_awready),
    .wdata(s_axil_wdata), .wstrb(s_axil_wstrb), .wvalid(s_axil_wvalid), .wready(s_axil_wready),
    .bresp(s_axil_bresp), .bvalid(s_axil_bvalid), .bready(s_axil_bready),
    .araddr(s_axil_araddr), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rvalid(s_axil_rvalid), .rready(s_axil_rready),
    .aw_inflight(), .w_inflight(), .ar_inflight(), .aw_dec_q(), .ar_dec_q());
// frames accepted (tlast taken) minus records taken: a record only while one is in flight,
// at most F_FRAMES_MAX of them
logic [31:0] f_inflight;
logic f_tlast;                         // a frame's tlast taken this clock
assign f_tlast = s_axis_tvalid && s_axis_tready && s_axis_tlast;
fs_frames_check #(.MAX(F_FRAMES_MAX), .COUNT_WIDTH(32)) f_frames (.clk(clk), .rst(rst),
    .in_last(f_tlast), .out_valid(m_axis_rec_tvalid),
    .out_ready(m_axis_rec_tready), .inflight(f_inflight));
logic f_armed_reg = 1'b0;
logic f_lone_reg = 1'b0;               // a lone frame is in flight
logic [6:0] f_lone_age_reg = '0;       // clocks since its tlast's clock
logic [8:0] f_quiet_reg = '0;          // clocks in a row with frames in flight, sink ready,
                                       // no record and no register transaction
logic [8:0] f_shut_reg = '0;           // clocks in a row a beat is offered and not taken,
                                       // engine enabled, sink ready, no register transaction
logic f_rec;
logic f_seen_reg = 1'b0;               // a record was taken since reset
logic [31:0] f_seq_reg = '0;           // its cmd_seq
logic [31:0] f_rec_seq;
logic [31:0] f_done_seq;               // transactions executed, with this clock's
assign f_done_seq = wait_on ? wait_seq - 32'd1 : wait_seq;
assign f_rec_seq = m_axis_rec_tdata[FS_REC_CMD_SEQ_LSB +: 32];
assign f_rec = m_axis_rec_tvalid && m_axis_rec_tready;
always_ff @(posedge clk) begin
    if (f_rec) begin
        f_seen_reg <= 1'b1;
        f_seq_reg <= f_rec_seq;
    end
    if (f_inflight != '0 && m_axis_rec_tready && !m_axis_rec_tvalid && !ord_req) begin
        if (f_quiet_reg != '1) f_quiet_reg <= f_quiet_reg + 9'd1;
    end else begin
        f_quiet_reg <= '0;
    end
    if (s_axis_tvalid && !s_axis_tready && cfg_enable && m_axis_rec_tready && !ord_req &&
        !ord_done) begin
        if (f_shut_reg != '1) f_shut_reg <= f_shut_reg + 9'd1;
    end else begin
        f_shut_reg <= '0;
    end
    if (f_lone_reg && f_lone_age_reg != '1) f_lone_age_reg <= f_lone_age_reg + 7'd1;
    if (f_tlast) begin
        f_lone_reg <= f_inflight == '0 && !f_lone_reg;
        f_lone_age_reg <= 7'd1;
    end
    if (ord_req || !m_axis_rec_tready || f_rec) f_lone_reg <= 1'b0;
    if (rst) begin
        f_armed_reg <= 1'b1;
        f_lone_reg <= 1'b0;
        f_seen_reg <= 1'b0;
        f_quiet_reg <= '0;
        f_shut_reg <= '0;
    end
end
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) begin
        p_progress: assert (32'(f_quiet_reg) < F_PROGRESS);
        // nor is the frame input shut for good: an offered beat is taken within F_PROGRESS
        // clocks while the engine is enabled, the sink ready and no transaction placed or run
        p_tready: assert (32'(f_shut_reg) < F_PROGRESS);
        // the documented latency, for a lone frame
        if (f_lone_reg && !m_axis_rec_tvalid)
            p_lone_late: assert (32'(f_lone_age_reg) < F_LATENCY + F_LONE_CALL);
        if (f_lone_reg && m_axis_rec_tvalid) begin
            p_lone_lat: assert (32'(f_lone_age_reg) == F_LATENCY ||
                                (m_axis_rec_tdata[FS_REC_STEER_CALLED_LSB] &&
                                 32'(f_lone_age_reg) > F_LATENCY &&
                                 32'(f_lone_age_reg) <= F_LATENCY + F_LONE_CALL));
            c_lone: cover (1'b1);
        end
        // in order: records leave in the order their packets took their places (cmd_seq
        // never falls)
        if (f_rec && f_seen_reg) p_rec_in_order: assert (f_rec_seq >= f_seq_reg);
        // M's packet is at most one transaction ahead of those executed (m_seq_wait's equality)
        if (m_valid_reg) p_seq_ahead: assert ($signed(m_cmd_seq - f_done_seq) <= 1);
        // the driver's word, loaded as D took its caller, is the tag store's for D's tag
        if (rq_valid) p_drv_word: assert (ts_drv_data == tags_drv[drv_tag]);
        if (rq_valid) p_drv_own: assert (drv_own_reg == (dt_hit && dt_aq == QWID'(rq_queue)));
        c_rec_stall: cover (m_axis_rec_tvalid && !m_axis_rec_tready);
    end
end
`endif

endmodule

`resetall
