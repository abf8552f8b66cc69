`resetall
`timescale 1ns / 1ps
`default_nettype none

// NIC plane of the engine (DESIGN "contract" steps 1-3) with its AXI4-Lite control:
//   frames -> fs_parser -> fs_hash -> fs_filter_table lookup -> fs_rss_lut -> records
// with a register slice (fs_skid) between blocks; record 27 clocks after tlast.
// arrival queue = filter hit ? filter queue : lut[hash & (2^LUT_CFG.LOG2 - 1)].
// hash_valid = IP class and hash != 0 (spec 2.2 G4); non-IP frames hash as 0 (queue lut[0])
// and never look up the filter table. One frame per clock; each stage stalls on the next.
// fs_engine_top joins these blocks with the RFS stage; this module stays the NIC plane alone.
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

// tuple bundle carried as a sideband: {user, class, ipv6, ports, proto, src, dst, sport, dport}
localparam integer TUP_W = 1 + 1 + 8 + 128 + 128 + 16 + 16;
localparam integer HU_W = USER_WIDTH + 4 + TUP_W;      // hash-stage sideband
localparam integer FU_W = USER_WIDTH + 4 + TUP_W + 32; // filter-stage sideband (+ hash)
localparam integer LU_W = 16;                           // LUT-stage sideband: pipeline tag

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
logic init_busy_reg = 1'b1;

// ENGINE = 0: no kernel plane here, so its configuration, the ordering handshake (nothing to
// order against: ord_grant tied high), the RFS-core and event ports and the parser extras
// are left open on purpose (fs_engine_top uses them)
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
    .ord_done(),
    .ord_free(),
    .ord_core(),
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
    .stat_init_busy(init_busy_reg),
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

// ---------------------------------------------------------------- parser
logic p_valid, p_ready, p_ipv6, p_ports;
logic [3:0] p_class;
logic [7:0] p_proto;
logic [127:0] p_src, p_dst;
logic [15:0] p_sport, p_dport;
logic [USER_WIDTH-1:0] p_user;
logic parser_tready;

fs_parser #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(USER_WIDTH)
) parser (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid && cfg_enable),
    .s_axis_tready(parser_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_rec_valid(p_valid),
    .m_rec_ready(p_ready),
    .m_rec_class(p_class),
    .m_rec_ipv6(p_ipv6),
    .m_rec_ports(p_ports),
    .m_rec_proto(p_proto),
    .m_rec_src(p_src),
    .m_rec_dst(p_dst),
    .m_rec_sport(p_sport),
    .m_rec_dport(p_dport),
    .m_rec_vlan_tags(),
    .m_rec_l3_offset(),
    .m_rec_l4_offset(),
    .m_rec_len(),
    .m_rec_user(p_user)
);
/* verilator lint_on PINCONNECTEMPTY */

assign s_axis_tready = parser_tready && cfg_enable;

// ---------------------------------------------------------------- register slices
// Between blocks, so no ready path crosses more than one block (the stages inside a block
// share one enable).
logic q_valid, q_ready;
logic [HU_W-1:0] q_bundle;
logic [TUP_W-1:0] q_tup;

fs_skid #(
    .WIDTH(HU_W)
) slice_parse (
    .clk(clk),
    .rst(rst),
    .s_valid(p_valid),
    .s_ready(p_ready),
    .s_data({p_user, p_class, p_ipv6, p_ports, p_proto, p_src, p_dst, p_sport, p_dport}),
    .m_valid(q_valid),
    .m_ready(q_ready),
    .m_data(q_bundle)
);
assign q_tup = q_bundle[TUP_W-1:0];

// ---------------------------------------------------------------- hash
logic h_valid, h_ready;
logic [31:0] h_hash;
logic [HU_W-1:0] h_user;

fs_hash #(
    .USER_WIDTH(HU_W)
) hasher (
    .clk(clk),
    .rst(rst),
    .cfg_mode(cfg_hash_mode),
    .cfg_key(cfg_rss_key[415 -: 320]),
    .cfg_seed(cfg_hash_seed),
    .s_tuple_valid(q_valid),
    .s_tuple_ready(q_ready),
    .s_tuple_ipv6(q_tup[TUP_W-1]),
    .s_tuple_ports(q_tup[TUP_W-2]),
    .s_tuple_src(q_tup[TUP_W-11 -: 128]),
    .s_tuple_dst(q_tup[TUP_W-139 -: 128]),
    .s_tuple_sport(q_tup[31:16]),
    .s_tuple_dport(q_tup[15:0]),
    .s_tuple_user(q_bundle),
    .m_hash_valid(h_valid),
    .m_hash_ready(h_ready),
    .m_hash(h_hash),
    .m_hash_user(h_user)
);

// ---------------------------------------------------------------- filter lookup
logic e_valid, e_ready, e_hit;
logic [FLT_ID_WIDTH-1:0] e_id;
logic [QUEUE_WIDTH-1:0] e_queue;
logic [FU_W-1:0] e_user;
logic f_valid, f_ready, f_hit;
logic [FLT_ID_WIDTH-1:0] f_id;
logic [QUEUE_WIDTH-1:0] f_queue;
logic [FU_W-1:0] f_user;
logic [FU_W-1:0] f_user_in;
logic [TUP_W-1:0] h_tup;

logic g_valid, g_ready;

fs_skid #(
    .WIDTH(FU_W)
) slice_hash (
    .clk(clk),
    .rst(rst),
    .s_valid(h_valid),
    .s_ready(h_ready),
    .s_data({h_user, h_hash}),
    .m_valid(g_valid),
    .m_ready(g_ready),
    .m_data(f_user_in)
);
assign h_tup = f_user_in[32 +: TUP_W];

fs_filter_table #(
    .BUCKET_BITS(FLT_BUCKET_BITS),
    .WAYS(FLT_WAYS),
    .ID_WIDTH(FLT_ID_WIDTH),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .USER_WIDTH(FU_W)
) filters (
    .clk(clk),
    .rst(rst),
    .s_lookup_valid(g_valid),
    .s_lookup_ready(g_ready),
    .s_lookup_ipv6(h_tup[TUP_W-1]),
    .s_lookup_proto(h_tup[TUP_W-3 -: 8]),
    .s_lookup_src(h_tup[TUP_W-11 -: 128]),
    .s_lookup_dst(h_tup[TUP_W-139 -: 128]),
    .s_lookup_sport(h_tup[31:16]),
    .s_lookup_dport(h_tup[15:0]),
    .s_lookup_user(f_user_in),
    .m_lookup_valid(e_valid),
    .m_lookup_ready(e_ready),
    .m_lookup_hit(e_hit),
    .m_lookup_id(e_id),
    .m_lookup_queue(e_queue),
    .m_lookup_user(e_user),
    .s_cmd_valid(flt_cmd_valid),
    .s_cmd_ready(flt_cmd_ready),
    .s_cmd_op(flt_cmd_op),
    .s_cmd_ipv6(flt_cmd_ipv6),
    .s_cmd_proto(flt_cmd_proto),
    .s_cmd_src(flt_cmd_src),
    .s_cmd_dst(flt_cmd_dst),
    .s_cmd_sport(flt_cmd_sport),
    .s_cmd_dport(flt_cmd_dport),
    .s_cmd_id(flt_cmd_id),
    .s_cmd_queue(flt_cmd_queue),
    .rsp_valid(flt_rsp_valid),
    .rsp_err(flt_rsp_err),
    .rsp_id(flt_rsp_id),
    .rsp_queue(flt_rsp_queue),
    .busy(flt_busy),
    .count(flt_count)
);

fs_skid #(
    .WIDTH(FU_W + 1 + FLT_ID_WIDTH + QUEUE_WIDTH)
) slice_filter (
    .clk(clk),
    .rst(rst),
    .s_valid(e_valid),
    .s_ready(e_ready),
    .s_data({e_user, e_hit, e_id, e_queue}),
    .m_valid(f_valid),
    .m_ready(f_ready),
    .m_data({f_user, f_hit, f_id, f_queue})
);

// STATUS.INIT_BUSY: from reset until the table's first sweep is done
always_ff @(posedge clk) begin
    if (!flt_busy) begin
        init_busy_reg <= 1'b0;
    end
    if (rst) begin
        init_busy_reg <= 1'b1;
    end
end

// ---------------------------------------------------------------- RSS LUT + record
logic [31:0] f_hash;
logic [3:0] f_class;
logic f_is_ip, f_use_hit;

assign f_hash = f_user[31:0];
assign f_class = f_user[32 + TUP_W +: 4];
assign f_is_ip = (f_class <= 4'(7));
assign f_use_hit = f_hit && f_is_ip && cfg_flt_lookup;

// the record fields wait in a register stage while the LUT reads
logic l_valid;
logic [QUEUE_WIDTH-1:0] l_queue;
logic [LU_W-1:0] unused_l_user;
logic [31:0] unused_l_hash;
logic [FU_W-1:0] rec_user_reg;
logic rec_hit_reg;
logic [FLT_ID_WIDTH-1:0] rec_id_reg;
logic [QUEUE_WIDTH-1:0] rec_fq_reg;
logic lut_ce;

assign lut_ce = !l_valid || m_rec_ready;

fs_rss_lut #(
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .USER_WIDTH(LU_W)
) lut (
    .clk(clk),
    .rst(rst),
    .cfg_lut_log2(cfg_lut_log2),
    .lut_wr_en(lut_wr_en),
    .lut_wr_index(lut_wr_index),
    .lut_wr_queue(lut_wr_queue),
    .lut_rd_en(lut_rd_en),
    .lut_rd_index(lut_rd_index),
    .lut_rd_queue(lut_rd_queue),
    .s_lut_valid(f_valid),
    .s_lut_ready(f_ready),
    .s_lut_hash(f_is_ip ? f_hash : 32'd0),
    .s_lut_user('0),
    .m_lut_valid(l_valid),
    .m_lut_ready(m_rec_ready),
    .m_lut_queue(l_queue),
    .m_lut_hash(unused_l_hash),
    .m_lut_user(unused_l_user)
);

always_ff @(posedge clk) begin
    if (lut_ce) begin
        rec_user_reg <= f_user;
        rec_hit_reg <= f_use_hit;
        rec_id_reg <= f_id;
        rec_fq_reg <= f_queue;
    end
end

logic [TUP_W-1:0] r_tup;
logic [3:0] r_class;
logic r_is_ip;
assign r_tup = rec_user_reg[32 +: TUP_W];
assign r_class = rec_user_reg[32 + TUP_W +: 4];

assign m_rec_valid = l_valid;
assign m_rec_class = r_class;
assign m_rec_ipv6 = r_tup[TUP_W-1];
assign m_rec_ports = r_tup[TUP_W-2];
assign m_rec_proto = r_tup[TUP_W-3 -: 8];
assign m_rec_src = r_tup[TUP_W-11 -: 128];
assign m_rec_dst = r_tup[TUP_W-139 -: 128];
assign m_rec_sport = r_tup[31:16];
assign m_rec_dport = r_tup[15:0];
assign r_is_ip = (r_class <= 4'(7));
assign m_rec_hash = r_is_ip ? rec_user_reg[31:0] : 32'd0;
assign m_rec_hash_valid = r_is_ip && (rec_user_reg[31:0] != 32'd0);
assign m_rec_flt_hit = rec_hit_reg;
assign m_rec_flt_id = rec_id_reg;
assign m_rec_queue = rec_hit_reg ? rec_fq_reg : l_queue;
assign m_rec_user = rec_user_reg[FU_W-1 -: USER_WIDTH];

// the LUT's pass-through outputs are not needed (the record keeps its own copy), and the
// tuple hash uses key bytes 0..39 of the 52-byte key register
wire unused_nic = &{1'b0, unused_l_user, unused_l_hash, cfg_rss_key[95:0]};

endmodule

`resetall
