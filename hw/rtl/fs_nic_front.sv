`resetall
`timescale 1ns / 1ps
`default_nettype none

// The per-frame front end, the one copy of this chain (fs_engine_top and fs_nic_plane use it):
//   frames -> fs_parser -> slice -> [gate] -> fs_hash -> slice -> [admission]
//     -> fs_filter_table lookup -> lookup buffer -> fs_rss_lut -> stage L
// Gate: a parsed frame enters fs_hash only while gate_open; gate_user rides along from there
// (the engine's order gate: {cmd_seq, tag}). Admission: a hashed frame looks the table up
// only while lk_admit and the lookup buffer has room; lk_stamp rides along from there.
// Lookup buffer: LKF_LOG2 = 0 a register slice; else a FIFO of 2^LKF_LOG2 and a lookup is
// admitted only while the FIFO can take every lookup not yet popped, so a table command
// that waits for the lookups in the table's RAM stages never waits on the FIFO's reader.
// Stage L holds the frame's fields while the LUT reads (a steer of the same tuple after its
// lookup is the top's to forward, at its issue stage).
// arrival queue = filter hit ? filter queue : lut[hash & (2^LUT_CFG.LOG2 - 1)];
// hash_valid = IP class and hash != 0 (spec 2.2 G4); non-IP frames hash as 0 (queue lut[0])
// and never take a filter hit. Filter commands share the table with the lookups.
module fs_nic_front #(
    // AXI4-Stream frame data width (64..1024)
    parameter integer DATA_WIDTH = 512,
    // frame tuser width
    parameter integer USER_WIDTH = 16,
    // tuser bits carried to stage L (low bits, zero-extended)
    parameter integer REC_USER_WIDTH = 16,
    // RSS LUT depth (log2)
    parameter integer LUT_LOG2 = 11,
    // RX queue number width (LUT and filter table)
    parameter integer QUEUE_WIDTH = 16,
    // filter table geometry
    parameter integer FLT_BUCKET_BITS = 10,
    parameter integer FLT_WAYS = 4,
    parameter integer FLT_ID_WIDTH = 16,
    // sideband taken at the gate and at the admission
    parameter integer GATE_WIDTH = 1,
    parameter integer STAMP_WIDTH = 1,
    // lookup buffer (log2 of the FIFO depth; 0: a register slice)
    parameter integer LKF_LOG2 = 0
) (
    input  wire                      clk,
    input  wire                      rst,

    // configuration (fs_axil_regs)
    input  wire                      cfg_enable,
    input  wire                      cfg_flt_lookup,
    input  wire [4:0]                cfg_lut_log2,
    input  wire [1:0]                cfg_hash_mode,
    input  wire [31:0]               cfg_hash_seed,
    input  wire [415:0]              cfg_rss_key,

    // LUT register window
    input  wire                      lut_wr_en,
    input  wire [LUT_LOG2-1:0]       lut_wr_index,
    input  wire [QUEUE_WIDTH-1:0]    lut_wr_queue,
    input  wire                      lut_rd_en,
    input  wire [LUT_LOG2-1:0]       lut_rd_index,
    output wire [QUEUE_WIDTH-1:0]    lut_rd_queue,

    // filter table command port
    input  wire                      flt_cmd_valid,
    output wire                      flt_cmd_ready,
    input  wire [3:0]                flt_cmd_op,
    input  wire                      flt_cmd_ipv6,
    input  wire [7:0]                flt_cmd_proto,
    input  wire [127:0]              flt_cmd_src,
    input  wire [127:0]              flt_cmd_dst,
    input  wire [15:0]               flt_cmd_sport,
    input  wire [15:0]               flt_cmd_dport,
    input  wire [FLT_ID_WIDTH-1:0]   flt_cmd_id,
    input  wire [QUEUE_WIDTH-1:0]    flt_cmd_queue,
    output wire                      flt_rsp_valid,
    output wire [3:0]                flt_rsp_err,
    output wire [FLT_ID_WIDTH-1:0]   flt_rsp_id,
    output wire [QUEUE_WIDTH-1:0]    flt_rsp_queue,
    output wire                      flt_busy,
    output wire [31:0]               flt_count,
    output wire [FLT_ID_WIDTH-1:0]   flt_id_mark,   // no stored filter id is above it
    // STATUS.INIT_BUSY: from reset until the table's first clear sweep is done
    output wire                      init_busy,

    // frames
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire [USER_WIDTH-1:0]     s_axis_tuser,

    // gate before fs_hash
    output wire                      q_valid,       // a parsed frame waits at the gate
    input  wire                      gate_open,
    input  wire [GATE_WIDTH-1:0]     gate_user,
    output wire                      gate_pass,     // it enters fs_hash this clock

    // admission to the filter lookup
    output wire                      g_valid,       // a hashed frame waits at the admission
    input  wire                      lk_admit,
    input  wire [STAMP_WIDTH-1:0]    lk_stamp,
    output wire                      lk_open,       // table ready and buffer room
    output wire                      lk_take,       // it looks the table up this clock
    output wire [GATE_WIDTH-1:0]     lk_gate_user,  // ... its gate sideband
    output wire [FLT_BUCKET_BITS-1:0] lk_bucket,    // ... its key's bucket, the clock after

    // stage L: one frame's fields while the LUT reads, then until l_ready
    output wire                      l_valid,
    input  wire                      l_ready,
    output wire                      lut_ce,        // stage L loads (the buffer's head if valid)
    output wire [STAMP_WIDTH-1:0]    f_stamp,       // the stamp it loads
    output wire [GATE_WIDTH-1:0]     l_gate_user,
    output wire [REC_USER_WIDTH-1:0] l_user,
    output wire [3:0]                l_class,
    output wire [297:0]              l_tup,         // TUP_W: {ipv6, ports, proto, src, dst, sp, dp}
    output wire                      l_is_ip,
    output wire [31:0]               l_hash,        // 0 for a non-IP frame
    output wire                      l_hv,
    output wire                      l_hit,         // filter hit (IP, CTRL.FLT_LOOKUP)
    output wire                      l_free,        // the lookup found a free way in the bucket
    output wire [FLT_ID_WIDTH-1:0]   l_id,
    output wire [QUEUE_WIDTH-1:0]    l_aq           // arrival queue
);

`include "flowsteer_regs.vh"

localparam integer TUP_W = 1 + 1 + 8 + 128 + 128 + 16 + 16;  // = 298, the l_tup port
localparam integer UK = (USER_WIDTH < REC_USER_WIDTH) ? USER_WIDTH : REC_USER_WIDTH;
localparam integer PB_W = REC_USER_WIDTH + 4 + TUP_W;        // parse bundle {user, class, tuple}
localparam integer HU_W = GATE_WIDTH + PB_W;                 // {gate_user, parse bundle}
localparam integer FU_W = HU_W + 32;                         // + hash
localparam integer LKB_W = STAMP_WIDTH + FU_W + 2 + FLT_ID_WIDTH + QUEUE_WIDTH;

// ---------------------------------------------------------------- parser
logic p_valid, p_ready, p_ipv6, p_ports;
logic [3:0] p_class;
logic [7:0] p_proto;
logic [127:0] p_src, p_dst;
logic [15:0] p_sport, p_dport;
logic [USER_WIDTH-1:0] p_user;
logic parser_tready;
`ifdef FORMAL
// items each pipelined block holds (its f_items port), for the conservation invariant below
logic [7:0] f_parser_items, f_hash_items, f_table_items, f_buf_items;
logic [1:0] f_q_items, f_g_items;     // the parser's and the hash's output slices
logic f_armed_reg = 1'b0;   // a reset was seen (checks start)
always_ff @(posedge clk) begin
    if (rst) f_armed_reg <= 1'b1;
end
`endif

// the parser's extras (VLAN tags, offsets, length) are not part of the front end's record
// CTRL.ENABLE = 0 stops frames at the parser; a beat offered before it and not yet taken stays
// offered until taken (AXI4-Stream: valid is never withdrawn). The order gate after the parser
// also closes on disable, so that frame still takes its place after the next enable.
logic in_offer_reg = 1'b0;
logic in_open;
assign in_open = cfg_enable || in_offer_reg;
always_ff @(posedge clk) begin
    in_offer_reg <= s_axis_tvalid && in_open && !parser_tready;
    if (rst) in_offer_reg <= 1'b0;
end

/* verilator lint_off PINCONNECTEMPTY */
fs_parser #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(USER_WIDTH)
) parser (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid && in_open),
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
`ifdef FORMAL
    , .f_items(f_parser_items)
`endif
);
/* verilator lint_on PINCONNECTEMPTY */

assign s_axis_tready = parser_tready && in_open;

logic [REC_USER_WIDTH-1:0] p_user_k;
always_comb begin
    p_user_k = '0;
    for (int i = 0; i < UK; i++) begin
        p_user_k[i] = p_user[i];
    end
end

logic q_ready;
logic [PB_W-1:0] q_bundle;
fs_skid #(
    .WIDTH(PB_W)
) slice_parse (
    .clk(clk),
    .rst(rst),
    .s_valid(p_valid),
    .s_ready(p_ready),
    .s_data({p_user_k, p_class, p_ipv6, p_ports, p_proto, p_src, p_dst, p_sport, p_dport}),
    .m_valid(q_valid),
    .m_ready(q_ready),
    .m_data(q_bundle)
`ifdef FORMAL
    , .f_items(f_q_items)
`endif
);

// ---------------------------------------------------------------- gate + hash
logic hs_ready;
assign q_ready = hs_ready && gate_open;
assign gate_pass = q_valid && q_ready;

logic h_valid, h_ready;
logic [31:0] h_hash;
logic [HU_W-1:0] h_user;
logic [TUP_W-1:0] q_tup;
assign q_tup = q_bundle[TUP_W-1:0];

fs_hash #(
    .USER_WIDTH(HU_W)
) hasher (
    .clk(clk),
    .rst(rst),
    .cfg_mode(cfg_hash_mode),
    .cfg_key(cfg_rss_key[415 -: 320]),
    .cfg_seed(cfg_hash_seed),
    .s_tuple_valid(q_valid && gate_open),
    .s_tuple_ready(hs_ready),
    .s_tuple_ipv6(q_tup[TUP_W-1]),
    .s_tuple_ports(q_tup[TUP_W-2]),
    .s_tuple_src(q_tup[TUP_W-11 -: 128]),
    .s_tuple_dst(q_tup[TUP_W-139 -: 128]),
    .s_tuple_sport(q_tup[31:16]),
    .s_tuple_dport(q_tup[15:0]),
    .s_tuple_user({gate_user, q_bundle}),
    .m_hash_valid(h_valid),
    .m_hash_ready(h_ready),
    .m_hash(h_hash),
    .m_hash_user(h_user)
`ifdef FORMAL
    , .f_items(f_hash_items)
`endif
);

logic g_ready;
logic [FU_W-1:0] g_user;
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
    .m_data(g_user)
`ifdef FORMAL
    , .f_items(f_g_items)
`endif
);

// ---------------------------------------------------------------- admission + filter table
logic lk_ready, lk_room;
logic [TUP_W-1:0] g_tup;
assign g_tup = g_user[32 +: TUP_W];
assign lk_open = lk_ready && lk_room;
assign g_ready = lk_open && lk_admit;
assign lk_take = g_valid && g_ready;
assign lk_gate_user = g_user[FU_W-1 -: GATE_WIDTH];

logic e_valid, e_ready, e_hit, e_free;
logic [FLT_ID_WIDTH-1:0] e_id;
logic [QUEUE_WIDTH-1:0] e_queue;
logic [FU_W-1:0] e_user;
logic [STAMP_WIDTH-1:0] e_stamp;

fs_filter_table #(
    .BUCKET_BITS(FLT_BUCKET_BITS),
    .WAYS(FLT_WAYS),
    .ID_WIDTH(FLT_ID_WIDTH),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .USER_WIDTH(STAMP_WIDTH + FU_W)
) filters (
    .clk(clk),
    .rst(rst),
    .s_lookup_valid(g_valid && lk_room && lk_admit),
    .s_lookup_ready(lk_ready),
    .s_lookup_ipv6(g_tup[TUP_W-1]),
    .s_lookup_proto(g_tup[TUP_W-3 -: 8]),
    .s_lookup_src(g_tup[TUP_W-11 -: 128]),
    .s_lookup_dst(g_tup[TUP_W-139 -: 128]),
    .s_lookup_sport(g_tup[31:16]),
    .s_lookup_dport(g_tup[15:0]),
    .s_lookup_user({lk_stamp, g_user}),
    .m_lookup_valid(e_valid),
    .m_lookup_ready(e_ready),
    .m_lookup_hit(e_hit),
    .m_lookup_free(e_free),
    .m_lookup_id(e_id),
    .m_lookup_queue(e_queue),
    .m_lookup_user({e_stamp, e_user}),
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
    .count(flt_count),
    .id_mark(flt_id_mark),
    .lk1_bucket(lk_bucket)
`ifdef FORMAL
    , .f_items(f_table_items)
`endif
);

logic init_busy_reg = 1'b1;
assign init_busy = init_busy_reg;
always_ff @(posedge clk) begin
    if (!flt_busy) init_busy_reg <= 1'b0;
    if (rst) init_busy_reg <= 1'b1;
end

// ---------------------------------------------------------------- lookup buffer
logic f_valid, f_ready, f_hit, f_free;
logic [FLT_ID_WIDTH-1:0] f_id;
logic [QUEUE_WIDTH-1:0] f_queue;
logic [FU_W-1:0] f_user;

if (LKF_LOG2 > 0) begin : g_fifo
    logic [LKF_LOG2:0] lk_cnt_reg = '0;  // lookups admitted, not yet popped from the FIFO
    logic [LKF_LOG2:0] unused_count;
    assign lk_room = lk_cnt_reg != (LKF_LOG2+1)'(1 << LKF_LOG2);
    always_ff @(posedge clk) begin
        lk_cnt_reg <= lk_cnt_reg + (LKF_LOG2+1)'(lk_take) - (LKF_LOG2+1)'(f_valid && f_ready);
        if (rst) lk_cnt_reg <= '0;
    end
    fs_event_fifo #(
        .DATA_WIDTH(LKB_W),
        .DEPTH_LOG2(LKF_LOG2)
    ) fifo_filter (
        .clk(clk),
        .rst(rst),
        .s_evt_valid(e_valid),
        .s_evt_ready(e_ready),
        .s_evt_data({e_stamp, e_user, e_hit, e_free, e_id, e_queue}),
        .m_evt_valid(f_valid),
        .m_evt_ready(f_ready),
        .m_evt_data({f_stamp, f_user, f_hit, f_free, f_id, f_queue}),
        .count(unused_count)
    );
    // the admission counts for itself (it also counts lookups still in the table)
    wire unused_fifo = &{1'b0, unused_count};
`ifdef FORMAL
    assign f_buf_items = 8'(unused_count);
    // the admission's contract: the FIFO always has room for the table's answer, so the
    // table (and a command waiting for its lookups) never waits on the FIFO's reader;
    // inductive with the count of admitted lookups = those in the table + those in the FIFO
    always_ff @(posedge clk) begin
        if (f_armed_reg && !rst) begin
            p_inv_admit: assert ({1'b0, lk_cnt_reg} == (LKF_LOG2+2)'(f_table_items)
                                                       + (LKF_LOG2+2)'(unused_count));
            p_inv_admit_max: assert (lk_cnt_reg <= (LKF_LOG2+1)'(1 << LKF_LOG2));
            p_fifo_room: assert (!e_valid || e_ready);
        end
    end
`endif
end else begin : g_slice
    assign lk_room = 1'b1;
`ifdef FORMAL
    logic [1:0] f_f_items;
`endif
    fs_skid #(
        .WIDTH(LKB_W)
    ) slice_filter (
        .clk(clk),
        .rst(rst),
        .s_valid(e_valid),
        .s_ready(e_ready),
        .s_data({e_stamp, e_user, e_hit, e_free, e_id, e_queue}),
        .m_valid(f_valid),
        .m_ready(f_ready),
        .m_data({f_stamp, f_user, f_hit, f_free, f_id, f_queue})
`ifdef FORMAL
        , .f_items(f_f_items)
`endif
    );
`ifdef FORMAL
    assign f_buf_items = 8'(f_f_items);
`endif
end

// ---------------------------------------------------------------- RSS LUT + stage L
logic [3:0] f_class;
logic f_is_ip;
assign f_class = f_user[32 + TUP_W +: 4];
assign f_is_ip = (f_class <= 4'(FS_PARSE_CLASS_IPV6_FRAGMENT));

logic [QUEUE_WIDTH-1:0] l_queue;
logic [31:0] unused_l_hash;
logic unused_l_user;
logic [FU_W-1:0] l_user_reg;
logic l_hit_reg, l_free_reg;
logic [FLT_ID_WIDTH-1:0] l_id_reg;
logic [QUEUE_WIDTH-1:0] l_fq_reg;
assign lut_ce = !l_valid || l_ready;

fs_rss_lut #(
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .USER_WIDTH(1)
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
    .s_lut_hash(f_is_ip ? f_user[31:0] : 32'd0),
    .s_lut_user(1'b0),
    .m_lut_valid(l_valid),
    .m_lut_ready(l_ready),
    .m_lut_queue(l_queue),
    .m_lut_hash(unused_l_hash),
    .m_lut_user(unused_l_user)
);

always_ff @(posedge clk) begin
    if (lut_ce) begin
        l_user_reg <= f_user;
        l_hit_reg <= f_hit && f_is_ip && cfg_flt_lookup;
        l_free_reg <= f_free;
        l_id_reg <= f_id;
        l_fq_reg <= f_queue;
    end
end

assign l_tup = l_user_reg[32 +: TUP_W];
assign l_class = l_user_reg[32 + TUP_W +: 4];
assign l_user = l_user_reg[32 + TUP_W + 4 +: REC_USER_WIDTH];
assign l_gate_user = l_user_reg[32 + PB_W +: GATE_WIDTH];
assign l_is_ip = (l_class <= 4'(FS_PARSE_CLASS_IPV6_FRAGMENT));
assign l_hash = l_is_ip ? l_user_reg[31:0] : 32'd0;
assign l_hv = l_hash != 32'd0;
assign l_hit = l_hit_reg;
assign l_free = l_free_reg;
assign l_id = l_id_reg;
assign l_aq = l_hit_reg ? l_fq_reg : l_queue;

// the LUT's pass-through outputs are not needed (stage L keeps its own copy), and the tuple
// hash uses key bytes 0..39 of the 52-byte key register
wire unused_front = &{1'b0, unused_l_hash, unused_l_user, cfg_rss_key[95:0]};

`ifdef FORMAL
// the chain's contract (hw/formal): stream rules on stage L (the blocks' own checkers hold
// the ports before it: the parser's the frame input, the filter table's its command input);
// conservation: stage L offers a frame only after a frame's tlast beat was taken (the parser
// answers after tlast), one per frame, and the frames between their tlast and stage L stay
// within the chain's depth (up to 8 in the parser, 2 per slice, 12 in fs_hash, 4 in the
// table, the lookup buffer, stage L)
localparam integer F_FRAMES_MAX = 32 + (1 << LKF_LOG2);
fs_axis_check #(.WIDTH(GATE_WIDTH + REC_USER_WIDTH + 4 + TUP_W + 32 + 2 + FLT_ID_WIDTH + QUEUE_WIDTH),
    .INPUT(0)) f_l (.clk(clk), .rst(rst), .valid(l_valid), .ready(l_ready),
    .data({l_gate_user, l_user, l_class, l_tup, l_hash, l_hit, l_free, l_id, l_aq}));
logic [7:0] f_inflight;
fs_frames_check #(.MAX(F_FRAMES_MAX), .COUNT_WIDTH(8)) f_frames (.clk(clk), .rst(rst),
    .in_last(s_axis_tvalid && s_axis_tready && s_axis_tlast), .out_valid(l_valid),
    .out_ready(l_ready), .inflight(f_inflight));
// the invariant that makes the conservation inductive: the frames between their tlast and
// stage L are exactly the items the chain's stages hold
logic [7:0] f_held;
assign f_held = f_parser_items + 8'(f_q_items) + f_hash_items + 8'(f_g_items) + f_table_items
              + f_buf_items + 8'(l_valid);
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) p_inv_frames: assert (f_inflight == f_held);
end

`ifdef FORMAL_TOP_fs_nic_front
`ifndef VERILATOR
// Progress (job nic_front_flow; the other nic_front jobs remove these, hw/formal/no_flow.ys):
// with stage L always ready, the gate and the admission open, the engine enabled and no table
// command, once the table's clear sweep is done no stage of the chain ever stalls: the table
// is idle, every slice empty and the frame input always ready. With the slice as the lookup
// buffer (a FIFO's admission window is sized for the top, not for formal_fifo's 2 entries).
localparam integer F_SWEEP = 1 << ((FLT_BUCKET_BITS > FLT_ID_WIDTH) ? FLT_BUCKET_BITS : FLT_ID_WIDTH);
localparam integer F_START = F_SWEEP + 4;     // the sweep, then the slices drain
always_comb begin
    a_flow: assume (l_ready && gate_open && lk_admit && cfg_enable && !flt_cmd_valid);
end
logic [7:0] f_flow_reg = '0;                  // clocks since the last reset, saturating
always_ff @(posedge clk) begin
    if (f_flow_reg != 8'hff) f_flow_reg <= f_flow_reg + 8'd1;
    if (rst) f_flow_reg <= '0;
end
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst && LKF_LOG2 == 0 && 32'(f_flow_reg) >= F_START) begin
        p_flow_idle: assert (!flt_busy);
        p_flow_ready: assert (s_axis_tready && p_ready && h_ready && e_ready);
        c_flow_frame: cover (l_valid);   // a frame through the whole chain
    end
end
// Latency (job nic_front_lat, BMC; nic_front_flow removes it, hw/formal/no_lat.ys): in the flow
// a frame reaches stage L exactly F_LAT clocks after its tlast beat was taken, and nothing else
// does. Checked once every frame before F_START has left (at most F_LAT clocks after it).
localparam integer F_LAT = 7 + 12 + 4 + 1 + 3;   // hw/README.md: parser, hash, lookup, LUT, 3 slices
logic [F_LAT-1:0] f_lat_reg = '0;                // tlast beats taken, the last F_LAT clocks
always_ff @(posedge clk) begin
    f_lat_reg <= {f_lat_reg[F_LAT-2:0], s_axis_tvalid && s_axis_tready && s_axis_tlast};
    if (rst) f_lat_reg <= '0;
end
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst && LKF_LOG2 == 0 && 32'(f_flow_reg) >= F_START + F_LAT) begin
        p_flow_lat: assert (l_valid == f_lat_reg[F_LAT-1]);
        c_flow_lat: cover (l_valid);     // a frame checked
    end
end
`endif
`endif
`endif

endmodule

`resetall
