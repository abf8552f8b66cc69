`resetall
`timescale 1ns / 1ps
`default_nettype none

// Exact-match filter table for IPv4/IPv6 5-tuples (the engine's flow director).
// WAYS-way set-associative: 2^BUCKET_BITS buckets of WAYS entries, one block RAM per way,
// plus an id map (2^ID_WIDTH words: valid, bucket, way) so filters are addressed by id.
// Bucket of a key: fs_flt_bucket (so the golden model can predict FULL).
//
// Lookups: one per clock, fixed latency 4 (input accepted -> m_lookup_valid); with the hit,
// whether the key's bucket had a free way (so a driver that saw no change since can predict
// an INSERT's FULL), and id_mark bounds the ids stored (ID_IN_USE).
// Commands (INSERT, RETARGET, DELETE, LOOKUP, CLEAR; enum filter_op) run one at a time:
// a command reads the RAMs once the lookups already accepted have read them (in the clock
// the last one compares its data, at the earliest the clock after it is taken), new lookups
// are held off (s_lookup_ready low) until it completes, so every lookup sees exactly the
// commands accepted before it. rsp_valid pulses for one clock with the result, 3 clocks
// after the command is taken (RETARGET 4) when no lookup is reading; rsp_* hold until the
// next command completes. After reset (and CLEAR) the table is swept empty,
// which takes max(2^BUCKET_BITS, 2^ID_WIDTH) clocks (busy high).
module fs_filter_table #(
    // log2 of the number of buckets
    parameter integer BUCKET_BITS = 10,
    // entries per bucket (1..8)
    parameter integer WAYS = 4,
    // filter id width
    parameter integer ID_WIDTH = 16,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // lookup sideband width
    parameter integer USER_WIDTH = 16
) (
    input  wire                   clk,
    input  wire                   rst,

    // lookups
    input  wire                   s_lookup_valid,
    output wire                   s_lookup_ready,
    input  wire                   s_lookup_ipv6,
    input  wire [7:0]             s_lookup_proto,
    input  wire [127:0]           s_lookup_src,    // byte 0 in [127:120]; IPv4 in [127:96]
    input  wire [127:0]           s_lookup_dst,
    input  wire [15:0]            s_lookup_sport,
    input  wire [15:0]            s_lookup_dport,
    input  wire [USER_WIDTH-1:0]  s_lookup_user,

    output wire                   m_lookup_valid,
    input  wire                   m_lookup_ready,
    output wire                   m_lookup_hit,
    output wire                   m_lookup_free,   // the key's bucket had a free way
    output wire [ID_WIDTH-1:0]    m_lookup_id,
    output wire [QUEUE_WIDTH-1:0] m_lookup_queue,
    output wire [USER_WIDTH-1:0]  m_lookup_user,

    // commands
    input  wire                   s_cmd_valid,
    output wire                   s_cmd_ready,
    input  wire [3:0]             s_cmd_op,        // enum filter_op
    input  wire                   s_cmd_ipv6,
    input  wire [7:0]             s_cmd_proto,
    input  wire [127:0]           s_cmd_src,
    input  wire [127:0]           s_cmd_dst,
    input  wire [15:0]            s_cmd_sport,
    input  wire [15:0]            s_cmd_dport,
    input  wire [ID_WIDTH-1:0]    s_cmd_id,
    input  wire [QUEUE_WIDTH-1:0] s_cmd_queue,

    output wire                   rsp_valid,
    output wire [3:0]             rsp_err,         // enum filter_err
    output wire [ID_WIDTH-1:0]    rsp_id,          // LOOKUP hit / EXISTS: the filter's id
    output wire [QUEUE_WIDTH-1:0] rsp_queue,       // LOOKUP hit / EXISTS: its queue

    output wire                   busy,            // a command or the clear sweep is running
    output wire [31:0]            count,           // filters in the table
    // the highest id an INSERT stored since reset or CLEAR: no filter has a higher one
    output wire [ID_WIDTH-1:0]    id_mark,
    // the bucket (fs_flt_bucket) of the lookup accepted last clock
    output wire [BUCKET_BITS-1:0] lk1_bucket
`ifdef FORMAL
    ,
    // formal: the lookups held (taken, answer not yet taken), for fs_nic_front's invariant
    output wire [7:0]             f_items
`endif
);

`include "flowsteer_regs.vh"

localparam integer KEY_W = 1 + 8 + 128 + 128 + 16 + 16;
localparam integer ENT_W = 1 + KEY_W + ID_WIDTH + QUEUE_WIDTH;   // valid, key, id, queue
localparam integer WAY_BITS = (WAYS > 1) ? $clog2(WAYS) : 1;
localparam integer MAP_W = 1 + BUCKET_BITS + WAY_BITS;           // valid, bucket, way
localparam integer SWEEP_BITS = (BUCKET_BITS > ID_WIDTH) ? BUCKET_BITS : ID_WIDTH;

localparam [3:0] OP_INSERT = 4'(FS_FILTER_OP_INSERT);
localparam [3:0] OP_RETARGET = 4'(FS_FILTER_OP_RETARGET);
localparam [3:0] OP_DELETE = 4'(FS_FILTER_OP_DELETE);
localparam [3:0] OP_LOOKUP = 4'(FS_FILTER_OP_LOOKUP);
localparam [3:0] OP_CLEAR = 4'(FS_FILTER_OP_CLEAR);
localparam [3:0] E_OK = 4'(FS_FILTER_ERR_OK);
localparam [3:0] E_FULL = 4'(FS_FILTER_ERR_FULL);
localparam [3:0] E_EXISTS = 4'(FS_FILTER_ERR_EXISTS);
localparam [3:0] E_NOT_FOUND = 4'(FS_FILTER_ERR_NOT_FOUND);
localparam [3:0] E_ID_IN_USE = 4'(FS_FILTER_ERR_ID_IN_USE);
localparam [3:0] E_BAD_OP = 4'(FS_FILTER_ERR_BAD_OP);

`ifdef VERILATOR
if (WAYS < 1 || WAYS > 8 || BUCKET_BITS < 1 || ID_WIDTH < 1) begin : g_bad_param
    $error("fs_filter_table: need 1 <= WAYS <= 8, BUCKET_BITS >= 1, ID_WIDTH >= 1");
end
`endif

// ---------------------------------------------------------------- FSM state
localparam [2:0] S_INIT = 3'd0, S_IDLE = 3'd1, S_DRAIN = 3'd2, S_EVAL = 3'd4, S_EVAL2 = 3'd5;
logic [2:0] state_reg = S_INIT;
logic [SWEEP_BITS-1:0] sweep_reg = '0;
logic [3:0] op_reg;
logic [KEY_W-1:0] cmd_key_reg;
logic [ID_WIDTH-1:0] cmd_id_reg;
logic [QUEUE_WIDTH-1:0] cmd_queue_reg;
logic [31:0] count_reg = '0;
logic [ID_WIDTH-1:0] id_mark_reg = '0;
logic rsp_valid_reg = 1'b0;
logic [3:0] rsp_err_reg;
logic [ID_WIDTH-1:0] rsp_id_reg;
logic [QUEUE_WIDTH-1:0] rsp_queue_reg;
logic [MAP_W-2:0] map_hold_reg;    // bucket and way from the id map, for RETARGET

// ---------------------------------------------------------------- lookup pipeline
logic v1_reg = 1'b0, v2_reg = 1'b0, v3_reg = 1'b0, v4_reg = 1'b0;
logic [KEY_W-1:0] key1_reg, key2_reg;
logic [USER_WIDTH-1:0] user1_reg, user2_reg, user3_reg, user4_reg;
logic [WAYS-1:0] hitv3_reg;
logic [WAYS*ID_WIDTH-1:0] ids3_reg;
logic [WAYS*QUEUE_WIDTH-1:0] queues3_reg;
logic hit4_reg;
logic free3_reg, free4_reg;
logic [ID_WIDTH-1:0] id4_reg;
logic [QUEUE_WIDTH-1:0] queue4_reg;

logic ce;
assign ce = !v4_reg || m_lookup_ready;
assign s_lookup_ready = ce && (state_reg == S_IDLE) && !s_cmd_valid;
assign s_cmd_ready = (state_reg == S_IDLE);

wire lookup_take = s_lookup_valid && s_lookup_ready;
wire cmd_take = s_cmd_valid && s_cmd_ready;

// ---------------------------------------------------------------- RAMs
logic rd_en;
logic [BUCKET_BITS-1:0] rd_bucket;
logic [BUCKET_BITS-1:0] wr_bucket;
logic [WAYS-1:0] wr_way_en;
logic [ENT_W-1:0] wr_entry;
logic [WAYS*ENT_W-1:0] rd_entries;

logic map_rd_en, map_wr_en;
logic [ID_WIDTH-1:0] map_rd_addr, map_wr_addr;
logic [MAP_W-1:0] map_wr_data, map_rd_data;

genvar gw;
generate
    for (gw = 0; gw < WAYS; gw = gw + 1) begin : g_way
        fs_ram_sdp #(
            .DATA_WIDTH(ENT_W),
            .ADDR_WIDTH(BUCKET_BITS)
        ) way_ram (
            .clk(clk),
            .wr_en(wr_way_en[gw]),
            .wr_addr(wr_bucket),
            .wr_data(wr_entry),
            .rd_en(rd_en),
            .rd_addr(rd_bucket),
            .rd_data(rd_entries[ENT_W*gw +: ENT_W])
        );
    end
endgenerate

fs_ram_sdp #(
    .DATA_WIDTH(MAP_W),
    .ADDR_WIDTH(ID_WIDTH)
) map_ram (
    .clk(clk),
    .wr_en(map_wr_en),
    .wr_addr(map_wr_addr),
    .wr_data(map_wr_data),
    .rd_en(map_rd_en),
    .rd_addr(map_rd_addr),
    .rd_data(map_rd_data)
);

// ---------------------------------------------------------------- compare (shared)
// RAM data belongs to the lookup in stage 2, or to the command in S_EVAL/S_EVAL2.
logic cmd_phase;
logic [KEY_W-1:0] cmp_key;
logic [WAYS-1:0] hitv, freev;
logic [WAYS*ID_WIDTH-1:0] rd_ids;
logic [WAYS*QUEUE_WIDTH-1:0] rd_queues;

always_comb begin
    cmd_phase = (state_reg == S_EVAL) || (state_reg == S_EVAL2);
    cmp_key = cmd_phase ? cmd_key_reg : key2_reg;
    for (int w = 0; w < WAYS; w++) begin
        // entry layout: {valid, key, id, queue}
        freev[w] = !rd_entries[ENT_W*w + ENT_W - 1];
        hitv[w] = rd_entries[ENT_W*w + ENT_W - 1] &&
                  (rd_entries[ENT_W*w + ID_WIDTH + QUEUE_WIDTH +: KEY_W] == cmp_key);
        rd_ids[ID_WIDTH*w +: ID_WIDTH] = rd_entries[ENT_W*w + QUEUE_WIDTH +: ID_WIDTH];
        rd_queues[QUEUE_WIDTH*w +: QUEUE_WIDTH] = rd_entries[ENT_W*w +: QUEUE_WIDTH];
    end
end

// first hit / first free way (priority to way 0)
logic any_hit, any_free;
logic [WAY_BITS-1:0] hit_way, free_way;
logic [ID_WIDTH-1:0] hit_id;
logic [QUEUE_WIDTH-1:0] hit_queue;
always_comb begin
    any_hit = 1'b0;
    any_free = 1'b0;
    hit_way = '0;
    free_way = '0;
    for (int w = WAYS - 1; w >= 0; w--) begin
        if (hitv[w]) begin
            any_hit = 1'b1;
            hit_way = WAY_BITS'(w);
        end
        if (freev[w]) begin
            any_free = 1'b1;
            free_way = WAY_BITS'(w);
        end
    end
    // explicit per-way muxes (a variable part-select becomes a full barrel shifter)
    hit_id = '0;
    hit_queue = '0;
    for (int w = 0; w < WAYS; w++) begin
        if (hit_way == WAY_BITS'(w)) begin
            hit_id = rd_ids[ID_WIDTH*w +: ID_WIDTH];
            hit_queue = rd_queues[QUEUE_WIDTH*w +: QUEUE_WIDTH];
        end
    end
end

// ---------------------------------------------------------------- lookup stages
always_ff @(posedge clk) begin
    if (ce) begin
        v1_reg <= lookup_take;
        key1_reg <= {s_lookup_ipv6, s_lookup_proto, s_lookup_src, s_lookup_dst,
                     s_lookup_sport, s_lookup_dport};
        user1_reg <= s_lookup_user;
        v2_reg <= v1_reg;
        key2_reg <= key1_reg;
        user2_reg <= user1_reg;
        v3_reg <= v2_reg;
        user3_reg <= user2_reg;
        hitv3_reg <= hitv;
        free3_reg <= |freev;
        ids3_reg <= rd_ids;
        queues3_reg <= rd_queues;
        v4_reg <= v3_reg;
        user4_reg <= user3_reg;
        hit4_reg <= |hitv3_reg;
        free4_reg <= free3_reg;
        id4_reg <= '0;
        queue4_reg <= '0;
        for (int w = 0; w < WAYS; w++) begin
            if (hitv3_reg[w]) begin
                id4_reg <= ids3_reg[ID_WIDTH*w +: ID_WIDTH];
                queue4_reg <= queues3_reg[QUEUE_WIDTH*w +: QUEUE_WIDTH];
            end
        end
    end
    if (rst) begin
        v1_reg <= 1'b0;
        v2_reg <= 1'b0;
        v3_reg <= 1'b0;
        v4_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- RAM port control
logic [BUCKET_BITS-1:0] cmd_bucket;
logic map_valid;
logic [BUCKET_BITS-1:0] map_bucket, hold_bucket;
logic [WAY_BITS-1:0] map_way, hold_way;
logic [KEY_W-1:0] lookup_key1;

assign lookup_key1 = key1_reg;
fs_flt_bucket #(.BUCKET_BITS(BUCKET_BITS)) cmd_bucket_of (.key(cmd_key_reg), .bucket(cmd_bucket));
fs_flt_bucket #(.BUCKET_BITS(BUCKET_BITS)) lk1_bucket_of (.key(lookup_key1), .bucket(lk1_bucket));
assign map_valid = map_rd_data[MAP_W-1];
assign map_bucket = map_rd_data[WAY_BITS +: BUCKET_BITS];
assign map_way = map_rd_data[WAY_BITS-1:0];
assign hold_bucket = map_hold_reg[WAY_BITS +: BUCKET_BITS];
assign hold_way = map_hold_reg[WAY_BITS-1:0];

// S_DRAIN reads for the command once stage 1 is empty (no lookup needs the port) and stage 2
// is empty or leaves now (its RAM data, read the clock before, is compared this clock)
logic drain_go;
assign drain_go = !v1_reg && (!v2_reg || ce);

always_comb begin
    // reads: the lookup in stage 1 while idle, the command in S_DRAIN / RETARGET in S_EVAL
    rd_en = ce;
    rd_bucket = lk1_bucket;
    map_rd_en = 1'b0;
    map_rd_addr = cmd_id_reg;
    if (state_reg == S_DRAIN && !v1_reg) begin
        rd_en = !v2_reg || ce;
        rd_bucket = cmd_bucket;
        map_rd_en = 1'b1;
    end else if (state_reg == S_EVAL) begin
        rd_en = (op_reg == OP_RETARGET);
        rd_bucket = map_bucket;
    end else if (state_reg != S_IDLE && state_reg != S_DRAIN) begin
        rd_en = 1'b0;
    end

    // writes
    wr_way_en = '0;
    wr_bucket = map_bucket;
    wr_entry = {1'b1, cmd_key_reg, cmd_id_reg, cmd_queue_reg};
    map_wr_en = 1'b0;
    map_wr_addr = cmd_id_reg;
    map_wr_data = {1'b1, cmd_bucket, free_way};
    if (state_reg == S_INIT) begin
        wr_bucket = sweep_reg[BUCKET_BITS-1:0];
        wr_entry = '0;
        if ((SWEEP_BITS == BUCKET_BITS) ||
            (sweep_reg >> BUCKET_BITS) == '0) begin
            wr_way_en = '1;
        end
        map_wr_en = (SWEEP_BITS == ID_WIDTH) || ((sweep_reg >> ID_WIDTH) == '0);
        map_wr_addr = sweep_reg[ID_WIDTH-1:0];
        map_wr_data = '0;
    end else if (state_reg == S_EVAL) begin
        case (op_reg)
            OP_INSERT: begin
                if (!any_hit && !map_valid && any_free) begin
                    wr_bucket = cmd_bucket;
                    for (int w = 0; w < WAYS; w++) begin
                        wr_way_en[w] = (free_way == WAY_BITS'(w));
                    end
                    map_wr_en = 1'b1;
                end
            end
            OP_DELETE: begin
                if (map_valid) begin
                    wr_bucket = map_bucket;
                    wr_entry = '0;
                    for (int w = 0; w < WAYS; w++) begin
                        wr_way_en[w] = (map_way == WAY_BITS'(w));
                    end
                    map_wr_en = 1'b1;
                    map_wr_data = '0;
                end
            end
            default: begin
            end
        endcase
    end else if (state_reg == S_EVAL2) begin
        // RETARGET: rewrite the entry with the new queue
        wr_bucket = hold_bucket;
        for (int w = 0; w < WAYS; w++) begin
            wr_way_en[w] = (hold_way == WAY_BITS'(w));
            if (hold_way == WAY_BITS'(w)) begin
                wr_entry = {rd_entries[ENT_W*w + QUEUE_WIDTH +: ENT_W - QUEUE_WIDTH],
                            cmd_queue_reg};
            end
        end
    end
end

// ---------------------------------------------------------------- command FSM
always_ff @(posedge clk) begin
    rsp_valid_reg <= 1'b0;
    case (state_reg)
        S_INIT: begin
            sweep_reg <= sweep_reg + 1'b1;
            count_reg <= '0;
            id_mark_reg <= '0;
            if (sweep_reg == '1) begin
                state_reg <= S_IDLE;
                if (op_reg == OP_CLEAR) begin
                    rsp_valid_reg <= 1'b1;
                    rsp_err_reg <= E_OK;
                    rsp_id_reg <= '0;
                    rsp_queue_reg <= '0;
                end
            end
        end
        S_IDLE: begin
            op_reg <= 4'd0;
            if (cmd_take) begin
                op_reg <= s_cmd_op;
                cmd_key_reg <= {s_cmd_ipv6, s_cmd_proto, s_cmd_src, s_cmd_dst,
                                s_cmd_sport, s_cmd_dport};
                cmd_id_reg <= s_cmd_id;
                cmd_queue_reg <= s_cmd_queue;
                state_reg <= S_DRAIN;
            end
        end
        S_DRAIN: begin
            // the lookups still reading the RAMs leave stage 2 first (its last clock may be
            // the command's read)
            if (drain_go) begin
                if (op_reg == OP_CLEAR) begin
                    state_reg <= S_INIT;
                    sweep_reg <= '0;
                end else if (op_reg == OP_INSERT || op_reg == OP_RETARGET ||
                             op_reg == OP_DELETE || op_reg == OP_LOOKUP) begin
                    state_reg <= S_EVAL;
                end else begin
                    state_reg <= S_IDLE;
                    rsp_valid_reg <= 1'b1;
                    rsp_err_reg <= E_BAD_OP;
                    rsp_id_reg <= '0;
                    rsp_queue_reg <= '0;
                end
            end
        end
        S_EVAL: begin
            state_reg <= S_IDLE;
            rsp_valid_reg <= 1'b1;
            rsp_err_reg <= E_OK;
            rsp_id_reg <= hit_id;
            rsp_queue_reg <= hit_queue;
            map_hold_reg <= map_rd_data[MAP_W-2:0];
            case (op_reg)
                OP_INSERT: begin
                    // same order as engine::FilterStore::insert
                    if (map_valid) begin
                        rsp_err_reg <= E_ID_IN_USE;
                        rsp_id_reg <= cmd_id_reg;
                        rsp_queue_reg <= '0;
                    end else if (any_hit) begin
                        rsp_err_reg <= E_EXISTS;
                    end else if (!any_free) begin
                        rsp_err_reg <= E_FULL;
                        rsp_id_reg <= cmd_id_reg;
                        rsp_queue_reg <= '0;
                    end else begin
                        rsp_id_reg <= cmd_id_reg;
                        rsp_queue_reg <= cmd_queue_reg;
                        count_reg <= count_reg + 1'b1;
                        if (cmd_id_reg > id_mark_reg) id_mark_reg <= cmd_id_reg;
                    end
                end
                OP_LOOKUP: begin
                    if (!any_hit) begin
                        rsp_err_reg <= E_NOT_FOUND;
                        rsp_id_reg <= '0;
                        rsp_queue_reg <= '0;
                    end
                end
                OP_DELETE: begin
                    rsp_id_reg <= cmd_id_reg;
                    rsp_queue_reg <= '0;
                    if (!map_valid) begin
                        rsp_err_reg <= E_NOT_FOUND;
                    end else begin
                        count_reg <= count_reg - 1'b1;
                    end
                end
                default: begin   // OP_RETARGET
                    rsp_id_reg <= cmd_id_reg;
                    rsp_queue_reg <= cmd_queue_reg;
                    if (!map_valid) begin
                        rsp_err_reg <= E_NOT_FOUND;
                        rsp_queue_reg <= '0;
                    end else begin
                        rsp_valid_reg <= 1'b0;
                        state_reg <= S_EVAL2;
                    end
                end
            endcase
        end
        S_EVAL2: begin
            state_reg <= S_IDLE;
            rsp_valid_reg <= 1'b1;
        end
        default: begin
            state_reg <= S_IDLE;
        end
    endcase
    if (rst) begin
        state_reg <= S_INIT;
        sweep_reg <= '0;
        op_reg <= 4'd0;
        count_reg <= '0;
        id_mark_reg <= '0;
        rsp_valid_reg <= 1'b0;
    end
end

assign m_lookup_valid = v4_reg;
assign m_lookup_hit = hit4_reg;
assign m_lookup_free = free4_reg;
assign m_lookup_id = id4_reg;
assign m_lookup_queue = queue4_reg;
assign m_lookup_user = user4_reg;

assign rsp_valid = rsp_valid_reg;
assign rsp_err = rsp_err_reg;
assign rsp_id = rsp_id_reg;
assign rsp_queue = rsp_queue_reg;
assign busy = (state_reg != S_IDLE);
assign count = count_reg;
assign id_mark = id_mark_reg;

`ifdef FORMAL
// stream rules on the lookup ports and the command input (hw/formal)
fs_axis_check #(.WIDTH(1 + 8 + 256 + 32 + USER_WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst),
    .valid(s_lookup_valid), .ready(s_lookup_ready),
    .data({s_lookup_ipv6, s_lookup_proto, s_lookup_src, s_lookup_dst, s_lookup_sport, s_lookup_dport, s_lookup_user}));
fs_axis_check #(.WIDTH(2 + ID_WIDTH + QUEUE_WIDTH + USER_WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst),
    .valid(m_lookup_valid), .ready(m_lookup_ready),
    .data({m_lookup_hit, m_lookup_free, m_lookup_id, m_lookup_queue, m_lookup_user}));
fs_axis_check #(.WIDTH(4 + 1 + 8 + 256 + 32 + ID_WIDTH + QUEUE_WIDTH), .INPUT(1)) f_cmd (.clk(clk), .rst(rst),
    .valid(s_cmd_valid), .ready(s_cmd_ready),
    .data({s_cmd_op, s_cmd_ipv6, s_cmd_proto, s_cmd_src, s_cmd_dst, s_cmd_sport, s_cmd_dport, s_cmd_id, s_cmd_queue}));
assign f_items = 8'(v1_reg) + 8'(v2_reg) + 8'(v3_reg) + 8'(v4_reg);
`endif

endmodule

`resetall
