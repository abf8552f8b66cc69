`resetall
`timescale 1ns / 1ps
`default_nettype none

// The engine's steer driver: the hardware ndo_rx_flow_steer (EngineModel::ndo_rx_flow_steer,
// docs/model-notes.md "The engine versus ice"). For each request it returns what the golden
// model returns and posts the events it posts:
//   not steerable or not TCP/UDP          -> -EPROTONOSUPPORT (spec 7.2 R3-R5, 7.5)
//   LOOKUP hit, same queue                -> id
//   LOOKUP hit, other queue               -> RETARGET, event RETARGET, id (spec 7.2 R9)
//   LOOKUP miss                           -> id = (counter + 1) % 0xFFFF, signed C (spec 7.2):
//       id < 0: counter advances, nothing inserted, rc = id
//       INSERT OK: counter advances, event INSERT, rc = id
//       FULL -> -ENOSPC, ID_IN_USE (or id >= 2^ID_WIDTH) -> -EADDRINUSE; the drawn id is
//       spent either way (counter advances, as ice's atomic_inc_return does)
//   an event needed and the event FIFO full -> -EBUSY, nothing programmed, refusal counted
//   the table answering what the sequence cannot produce (another agent changed it between
//   the driver's commands) -> -EIO, nothing posted
// Order: a request takes its place in the contract's total order when it is accepted. It
// sees the event FIFO as it was at that clock (a pop in the same clock comes after it) and
// holds the filter table (flt_lock) until its last table response, so the engine top must
// not interleave other table commands while flt_lock is high.
// One request at a time. Latency with fs_filter_table (idle, no lookups in flight) from the
// accepting clock to m_drv_rsp_valid: hit 5 (also a refused retarget); retarget 9; miss with
// INSERT (OK, FULL, ID_IN_USE) 9; miss refused before INSERT (negative id, -EBUSY) 6. An
// INSERT or RETARGET is answered in the clock the table answers it. With the lookup given
// (s_drv_req_lk_valid) there is no LOOKUP: the request is decided in the clock it is taken,
// retarget 1 (posted, below), miss with INSERT 4 (1 when posted). A request whose answer
// needs no table command (not steerable; with the lookup given: a hit on its queue, a
// refusal, a miss refused before the INSERT) is answered in the clock it is taken (latency
// 0): m_drv_rsp_now says so from the driver's registers and the request's fields, before
// s_drv_req_valid, and the caller takes
// m_drv_rsp_now_rc with the request (no m_drv_rsp_valid follows); so is a miss refused for a
// full event FIFO while the id pipeline settles (counter + 1 in (0, 2^30]: the id cannot be
// negative, so it is -EBUSY whatever the id). While the event FIFO is
// full, m_drv_rsp_refuse says so from registers alone, a clock ahead: every request is then
// answered with it, negative unless its given lookup hit its own queue (-EBUSY, p_refuse), so
// the caller can finish the call without the decision in its ready chain. The id allocation
// waits until 5 clocks after a counter write (with the lookup given, a request taken less
// than 5 clocks after it waits); a drawn id steps the id with the counter, no wait. The fast insert: a given
// miss whose lookup saw a free way with no change logged since (s_drv_req_lk_free) and
// whose id is above every stored one (id_mark) is answered OK the clock after it is taken
// (S_POST: counter, add and event then) and its INSERT offered in that clock
// (m_flt_cmd_posted: fs_flt_forward logs it as the table takes it); the driver stays busy
// (flt_lock) until the table answers, which must be OK (a_post_ok), and takes the next
// request in the answer's clock, as if idle (the table is idle then and takes lookups: a
// command offered in that clock would hold a lookup whose stamp the answer changes). A given
// hit on another queue is posted the same way (post_rt_reg: RETARGET, answered rc = its id):
// the filter it names is stored, since only the driver's INSERT/RETARGET change the table
// while packets are in flight (the host's commands drain) and neither removes a filter.
module fs_steer_driver #(
    // filter id width (1..16); ids >= 2^ID_WIDTH are refused like ids in use
    parameter integer ID_WIDTH = 16,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // log2 of the event FIFO depth (>= 1)
    parameter integer EVT_DEPTH_LOG2 = 9,
    // request tag width (passed through to the response)
    parameter integer TAG_WIDTH = 16
) (
    input  wire                      clk,
    input  wire                      rst,

    // driver calls: ndo_rx_flow_steer(skb, queue, flow_id)
    input  wire                      s_drv_req_valid,
    output wire                      s_drv_req_ready,
    input  wire [QUEUE_WIDTH-1:0]    s_drv_req_queue,
    input  wire [31:0]               s_drv_req_flow_id,
    input  wire [31:0]               s_drv_req_hash,
    input  wire                      s_drv_req_steerable, // parse class allows aRFS
    input  wire                      s_drv_req_ipv6,
    input  wire [7:0]                s_drv_req_proto,
    input  wire [127:0]              s_drv_req_src,       // byte 0 in [127:120]; IPv4 in [127:96]
    input  wire [127:0]              s_drv_req_dst,
    input  wire [15:0]               s_drv_req_sport,
    input  wire [15:0]               s_drv_req_dport,
    input  wire [TAG_WIDTH-1:0]      s_drv_req_tag,
    // the tuple's filter as the packet's own lookup found it, forwarded to the packet's place
    // in the order (fs_flt_forward): when lk_valid, that is the table's answer now, and the
    // driver does not look the tuple up again
    input  wire                      s_drv_req_lk_valid,
    input  wire                      s_drv_req_lk_hit,
    input  wire [ID_WIDTH-1:0]       s_drv_req_lk_id,
    input  wire [QUEUE_WIDTH-1:0]    s_drv_req_lk_queue,
    // with it: the lookup found a free way in the tuple's bucket and no change has been
    // logged since (the bucket is as it saw it), so a miss's INSERT cannot meet FULL
    input  wire                      s_drv_req_lk_free,
    // the filter table's id_mark: no stored filter's id is above it (no ID_IN_USE above it)
    input  wire [ID_WIDTH-1:0]       id_mark,

    output wire                      m_drv_rsp_valid,
    input  wire                      m_drv_rsp_ready,
    output wire [31:0]               m_drv_rsp_rc,        // signed: filter id >= 0 or -errno
    output wire [TAG_WIDTH-1:0]      m_drv_rsp_tag,
    // the request offered now is answered in its take clock (it changes no filter): the
    // caller takes m_drv_rsp_now_rc with it; independent of s_drv_req_valid
    output wire                      m_drv_rsp_now,
    output wire [31:0]               m_drv_rsp_now_rc,
    // from registers only (not the request): a request offered now is taken and answered
    // now (m_drv_rsp_now) with rc < 0, unless its given lookup hit on its own queue (the
    // event FIFO is full: -EBUSY), so a caller may finish the call in the request's clock
    output wire                      m_drv_rsp_refuse,

    // filter table command port (fs_filter_table s_cmd_* / rsp_*)
    output wire                      m_flt_cmd_valid,
    input  wire                      m_flt_cmd_ready,
    output wire [3:0]                m_flt_cmd_op,        // enum filter_op
    output wire                      m_flt_cmd_ipv6,
    output wire [7:0]                m_flt_cmd_proto,
    output wire [127:0]              m_flt_cmd_src,
    output wire [127:0]              m_flt_cmd_dst,
    output wire [15:0]               m_flt_cmd_sport,
    output wire [15:0]               m_flt_cmd_dport,
    output wire [ID_WIDTH-1:0]       m_flt_cmd_id,
    output wire [QUEUE_WIDTH-1:0]    m_flt_cmd_queue,
    output wire                      m_flt_cmd_posted,    // an INSERT already answered OK
    input  wire                      s_flt_rsp_valid,     // one-clock pulse per command
    input  wire [3:0]                s_flt_rsp_err,       // enum filter_err
    input  wire [ID_WIDTH-1:0]       s_flt_rsp_id,
    input  wire [QUEUE_WIDTH-1:0]    s_flt_rsp_queue,
    output wire                      flt_lock,            // the driver holds the table

    // the ice counter (spec 7.2): set the last id (the next id is value + 1); read back
    input  wire                      cfg_last_id_wr_valid,
    output wire                      cfg_last_id_wr_ready,
    input  wire [31:0]               cfg_last_id_wr_data,
    output wire [31:0]               cfg_last_id,

    // event FIFO head (first word falls through) and pop
    output wire                      m_evt_valid,
    input  wire                      m_evt_ready,         // pops the head
    output wire [3:0]                m_evt_type,          // enum event_type
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
    output wire [EVT_DEPTH_LOG2:0]   evt_count,           // events stored

    // counters (enum counter STEER_CALLS, STEER_ADDS, STEER_RETARGETS, DRIVER_ERRORS)
    output wire [63:0]               stat_steer_calls,
    output wire [63:0]               stat_steer_adds,
    output wire [63:0]               stat_steer_retargets,
    output wire [63:0]               stat_evt_refusals,   // -EBUSY answers
    output wire [63:0]               stat_driver_errors,  // answers < 0
    output wire                      busy                 // a request is in progress
);

`include "flowsteer_regs.vh"

localparam [3:0] OP_INSERT = 4'(FS_FILTER_OP_INSERT);
localparam [3:0] OP_RETARGET = 4'(FS_FILTER_OP_RETARGET);
localparam [3:0] OP_LOOKUP = 4'(FS_FILTER_OP_LOOKUP);
localparam [3:0] E_OK = 4'(FS_FILTER_ERR_OK);
localparam [3:0] E_FULL = 4'(FS_FILTER_ERR_FULL);
localparam [3:0] E_NOT_FOUND = 4'(FS_FILTER_ERR_NOT_FOUND);
localparam [3:0] E_ID_IN_USE = 4'(FS_FILTER_ERR_ID_IN_USE);
localparam [3:0] T_INSERT = 4'(FS_EVENT_TYPE_INSERT);
localparam [3:0] T_RETARGET = 4'(FS_EVENT_TYPE_RETARGET);

// negative errno values as the kernel sees them (spec 7.5; the engine's own in model-notes)
localparam [31:0] RC_EIO = ~32'd5 + 32'd1;
localparam [31:0] RC_EBUSY = ~32'd16 + 32'd1;
localparam [31:0] RC_ENOSPC = ~32'd28 + 32'd1;
localparam [31:0] RC_EPROTONOSUPPORT = ~32'd93 + 32'd1;
localparam [31:0] RC_EADDRINUSE = ~32'd98 + 32'd1;
localparam [7:0] PROTO_TCP = 8'd6;
localparam [7:0] PROTO_UDP = 8'd17;

// clocks for the id pipeline to follow a counter write (last_id_reg -> id_reg)
localparam [2:0] SETTLE = 3'd5;

localparam integer EVT_W = 1 + ID_WIDTH + QUEUE_WIDTH + 32 + 32 + 1 + 8 + 128 + 128 + 16 + 16;

`ifdef VERILATOR
if (ID_WIDTH < 1 || ID_WIDTH > 16 || QUEUE_WIDTH < 1 || EVT_DEPTH_LOG2 < 1 ||
    TAG_WIDTH < 1) begin : g_bad_param
    $error("fs_steer_driver: need 1 <= ID_WIDTH <= 16, QUEUE_WIDTH, EVT_DEPTH_LOG2, TAG_WIDTH >= 1");
end
`endif

// ---------------------------------------------------------------- state
localparam [3:0] S_IDLE = 4'd0, S_LOOKUP = 4'd1, S_LOOKUP_WAIT = 4'd2, S_ALLOC = 4'd3,
                 S_INSERT = 4'd4, S_INSERT_WAIT = 4'd5, S_RETARGET = 4'd6,
                 S_RETARGET_WAIT = 4'd7, S_RSP = 4'd8, S_POST = 4'd9, S_PWAIT = 4'd10,
                 S_PDONE = 4'd11;

logic [3:0] state_reg = S_IDLE, state_next;
logic [3:0] id_next, ans_next;
logic [31:0] rc_reg, rc_next;
logic [ID_WIDTH-1:0] flt_id_reg, flt_id_next;
logic [31:0] last_id_reg = '0, last_id_next;
logic [2:0] settle_reg = SETTLE, settle_next;
logic room_reg;                      // the event FIFO had room when the request was accepted
// S_PWAIT: the posted INSERT's answer to the caller, or the command, not yet taken (S_PDONE:
// both taken, the table's answer awaited)
logic rsp_owed_reg = 1'b0, rsp_owed_next;
logic post_rt_reg = 1'b0;            // S_POST..S_PDONE: the posted command is a RETARGET
logic cmd_owed_reg = 1'b0, cmd_owed_next;
// S_IDLE, counter + 1 in (0, 2^30], the event FIFO full, with no request possible in
// the last clock that changes any of it (each was answered in its clock: p_refuse)
logic refuse_reg = 1'b0;
// S_PDONE and the table answers now: the driver is idle from this clock
logic pdone_take;

// the request (datapath)
logic [QUEUE_WIDTH-1:0] req_queue_reg;
logic [31:0] req_flow_id_reg;
logic [31:0] req_hash_reg;
logic req_ipv6_reg;
logic [7:0] req_proto_reg;
logic [127:0] req_src_reg, req_dst_reg;
logic [15:0] req_sport_reg, req_dport_reg;
logic [TAG_WIDTH-1:0] req_tag_reg;

logic [63:0] calls_reg = '0, adds_reg = '0, retargets_reg = '0, refusals_reg = '0;
logic [63:0] errors_reg = '0;

logic req_take, rsp_take;
logic step;                          // an id is drawn: the counter advances to next_reg
logic inc_adds, inc_retargets, inc_refusals;
logic evt_push, evt_retarget;
logic steerable;
logic in_take;          // S_IDLE takes a request with its lookup given
logic now_pre, now_take;  // S_IDLE would answer the offered request in its clock; it does
logic [31:0] now_rc;

// ---------------------------------------------------------------- id allocation (spec 7.2)
// id = next % 0xFFFF with C semantics, next = last_id + 1 (signed, wrapping). Free-running
// pipeline: 2^16 = 1 (mod 0xFFFF), so |next| mod 0xFFFF is two 16-bit folds.
logic [31:0] next_reg;               // counter + 1
logic [31:0] mag_reg;                // |next|
logic neg1_reg, neg2_reg, neg3_reg;
logic [16:0] sum_reg;                // |next|[31:16] + |next|[15:0]
logic [15:0] fold_reg;               // = |next| (mod 0xFFFF), 0..0xFFFF
logic [16:0] id_reg;                 // the signed id (|id| < 0xFFFF), 17 bits
logic [31:0] id_ext;                 // ... extended
logic [15:0] rem;
logic id_fits;

always_comb begin
    rem = (fold_reg == 16'hFFFF) ? 16'd0 : fold_reg;
    id_ext = {{15{id_reg[16]}}, id_reg};
    id_fits = (id_ext >> ID_WIDTH) == 32'd0;
end

// A step (the counter + 1) needs no pipeline: next_reg and id_reg step with it (id_step), so
// ids are drawn on consecutive clocks; only a counter write waits for the pipeline (SETTLE).
logic [16:0] id_step;                // the id of counter + 2
always_comb begin
    if (next_reg == 32'h7FFFFFFF) begin
        id_step = 17'h18000;             // -2^31 % 0xFFFF = -2^15 (2^16 = 1 mod 0xFFFF)
    end else if (!next_reg[31] && id_reg == 17'd65534) begin
        id_step = 17'd0;
    end else if (next_reg[31] && id_reg == 17'd0) begin
        id_step = 17'h10002;             // -0xFFFE: |next| falls from a multiple of 0xFFFF
    end else begin
        id_step = id_reg + 17'd1;
    end
end

always_ff @(posedge clk) begin
    next_reg <= step ? next_reg + 32'd1 : last_id_reg + 32'd1;
    mag_reg <= next_reg[31] ? (32'd0 - next_reg) : next_reg;
    neg1_reg <= next_reg[31];
    sum_reg <= {1'b0, mag_reg[31:16]} + {1'b0, mag_reg[15:0]};
    neg2_reg <= neg1_reg;
    fold_reg <= sum_reg[15:0] + {15'd0, sum_reg[16]};
    neg3_reg <= neg2_reg;
    if (settle_reg != 3'd0) begin
        id_reg <= neg3_reg ? (17'd0 - {1'b0, rem}) : {1'b0, rem};
    end else if (step) begin
        id_reg <= id_step;
    end
end

// ---------------------------------------------------------------- control
// The draw of an id once the pipeline has settled (S_ALLOC, or the request's clock when its
// lookup is given and missed), with the event room the request saw:
// {next state, rc, the counter advances, refused (-EBUSY)}.
function automatic [37:0] draw_of(input logic [31:0] id, input logic fits, input logic room);
    if (id[31]) begin
        // after 2^31 allocations: a negative rc, counter advances (spec 7.2)
        draw_of = {S_RSP, id, 1'b1, 1'b0};
    end else if (!room) begin
        draw_of = {S_RSP, RC_EBUSY, 1'b0, 1'b1};
    end else if (!fits) begin
        // the id is drawn (counter advances) but cannot be stored
        draw_of = {S_RSP, RC_EADDRINUSE, 1'b1, 1'b0};
    end else begin
        draw_of = {S_INSERT, id, 1'b0, 1'b0};
    end
endfunction

// A lookup's answer, classified once: a hit on the request's queue needs nothing, a hit on
// another one a RETARGET unless the event FIFO has no room (-EBUSY). The looked-up answer
// comes from the table (S_LOOKUP_WAIT); a given one with the request, decided in its clock.
logic lk_hit, lk_same_q, lk_refused;
logic [3:0] lw_next;    // S_LOOKUP_WAIT's next state once the lookup answers
logic in_same_q, in_refused, in_early_busy, in_fast;
logic [3:0] in_next;    // S_IDLE's next state for a request with its lookup given
logic [31:0] in_rc;
logic [3:0] al_next, in_draw_next;
logic [31:0] al_rc, in_draw_rc;
logic al_step, al_refused, in_draw_step, in_draw_refused;
logic evt_wr_ready;
always_comb begin
    {al_next, al_rc, al_step, al_refused} = draw_of(id_ext, id_fits, room_reg);
    {in_draw_next, in_draw_rc, in_draw_step, in_draw_refused} =
        draw_of(id_ext, id_fits, evt_wr_ready);
    lk_hit = s_flt_rsp_err == E_OK;
    lk_same_q = s_flt_rsp_queue == req_queue_reg;
    lk_refused = lk_hit && !lk_same_q && !room_reg;
    if (lk_hit) begin
        lw_next = (lk_same_q || lk_refused) ? S_RSP : S_RETARGET;
    end else if (s_flt_rsp_err == E_NOT_FOUND) begin
        lw_next = S_ALLOC;
    end else begin
        lw_next = S_RSP;
    end
    in_same_q = s_drv_req_lk_queue == s_drv_req_queue;
    in_refused = s_drv_req_lk_hit && !in_same_q && !evt_wr_ready;
    // a miss with the event FIFO full and counter + 1 in (0, 2^30]: its id is not negative,
    // so it is -EBUSY without a step (draw_of), decided without waiting for the id pipeline
    in_early_busy = !evt_wr_ready && last_id_reg[31:30] == 2'b00;
    in_rc = in_refused ? RC_EBUSY : 32'(s_drv_req_lk_id);
    // a miss whose INSERT must succeed: a free way its lookup saw, an id no filter has
    in_fast = s_drv_req_lk_free && id_reg[ID_WIDTH-1:0] > id_mark;
    if (s_drv_req_lk_hit) begin
        in_next = (in_same_q || in_refused) ? S_RSP : S_RETARGET;
    end else if (settle_reg == 3'd0) begin
        in_next = in_draw_next;
        in_rc = in_draw_rc;
    end else if (in_early_busy) begin
        in_next = S_RSP;
        in_rc = RC_EBUSY;
    end else begin
        in_next = S_ALLOC;
    end
end

// the table's answer to an INSERT or RETARGET is the request's: answered in that clock
logic fin;
logic [31:0] fin_rc;
always_comb begin
    fin = (state_reg == S_INSERT_WAIT || state_reg == S_RETARGET_WAIT) && s_flt_rsp_valid;
    if (s_flt_rsp_err == E_OK) begin
        fin_rc = rc_reg;
    end else if (state_reg == S_INSERT_WAIT && s_flt_rsp_err == E_FULL) begin
        fin_rc = RC_ENOSPC;
    end else if (state_reg == S_INSERT_WAIT && s_flt_rsp_err == E_ID_IN_USE) begin
        fin_rc = RC_EADDRINUSE;
    end else begin
        fin_rc = RC_EIO;
    end
end

always_comb begin
    steerable = s_drv_req_steerable &&
                (s_drv_req_proto == PROTO_TCP || s_drv_req_proto == PROTO_UDP);
    pdone_take = state_reg == S_PDONE && s_flt_rsp_valid && !cfg_last_id_wr_valid;
    in_take = (state_reg == S_IDLE || pdone_take) && !cfg_last_id_wr_valid && s_drv_req_valid &&
              steerable && s_drv_req_lk_valid;
    // no table command: not steerable, or a given answer without one (from registers and
    // the request's fields; s_drv_req_valid only in now_take)
    now_pre = (state_reg == S_IDLE || pdone_take) && !cfg_last_id_wr_valid &&
              (!steerable || (s_drv_req_lk_valid && in_next == S_RSP));
    now_rc = steerable ? in_rc : RC_EPROTONOSUPPORT;
    now_take = now_pre && s_drv_req_valid;
    rsp_take = m_drv_rsp_valid && m_drv_rsp_ready;

    state_next = state_reg;
    // S_IDLE's next state (S_PDONE's in its answer clock): a given request's is in_take's
    id_next = S_IDLE;
    if (!cfg_last_id_wr_valid && s_drv_req_valid) begin
        if (!steerable) id_next = S_RSP;
        else if (!s_drv_req_lk_valid) id_next = S_LOOKUP;
    end
    // a waiting command's answer: S_RSP holds the driver's answer until it is taken
    ans_next = (m_drv_rsp_ready || (state_reg == S_PWAIT && !rsp_owed_reg)) ? S_IDLE : S_RSP;
    rc_next = rc_reg;
    flt_id_next = flt_id_reg;
    last_id_next = last_id_reg;
    settle_next = (settle_reg != 3'd0) ? settle_reg - 3'd1 : 3'd0;
    req_take = 1'b0;
    step = 1'b0;
    inc_adds = 1'b0;
    inc_retargets = 1'b0;
    inc_refusals = 1'b0;
    evt_push = 1'b0;
    evt_retarget = 1'b0;
    rsp_owed_next = rsp_owed_reg;
    cmd_owed_next = cmd_owed_reg;

    case (state_reg)
        // S_PDONE's answer clock takes a request as S_IDLE does (the table's answer to a
        // posted command needs nothing, a_post_ok); the counter is written only in S_IDLE
        S_IDLE, S_PDONE: begin
            // (the state is selected after the case, see id_next)
            if (cfg_last_id_wr_valid) begin
                if (state_reg == S_IDLE) begin
                    last_id_next = cfg_last_id_wr_data;
                    settle_next = SETTLE;
                end
            end else if (s_drv_req_valid && (state_reg == S_IDLE || s_flt_rsp_valid)) begin
                req_take = 1'b1;
                if (!steerable) begin
                    rc_next = RC_EPROTONOSUPPORT;
                end else if (s_drv_req_lk_valid) begin
                    // the given answer stands for the LOOKUP's: decided in this clock (its
                    // state and rc are selected after the case, see in_take)
                    if (s_drv_req_lk_hit) begin
                        flt_id_next = s_drv_req_lk_id;
                        inc_refusals = in_refused;
                    end else if (settle_reg == 3'd0) begin
                        flt_id_next = id_reg[ID_WIDTH-1:0];
                        step = in_draw_step;
                        inc_refusals = in_draw_refused;
                    end else if (in_early_busy) begin
                        inc_refusals = 1'b1;
                    end
                end
            end
        end
        S_LOOKUP: begin
            if (m_flt_cmd_ready) begin
                state_next = S_LOOKUP_WAIT;
            end
        end
        S_LOOKUP_WAIT: begin
            if (s_flt_rsp_valid) begin
                if (lk_hit) begin
                    flt_id_next = s_flt_rsp_id;
                    rc_next = lk_refused ? RC_EBUSY : 32'(s_flt_rsp_id);
                    inc_refusals = lk_refused;
                end else if (s_flt_rsp_err != E_NOT_FOUND) begin
                    rc_next = RC_EIO;
                end
                // (the state is selected after the case, see lw_next)
            end
        end
        S_ALLOC: begin
            if (settle_reg == 3'd0) begin
                flt_id_next = id_reg[ID_WIDTH-1:0];
                rc_next = al_rc;
                state_next = al_next;
                step = al_step;
                inc_refusals = al_refused;
            end
        end
        S_INSERT: begin
            if (m_flt_cmd_ready) begin
                state_next = S_INSERT_WAIT;
            end
        end
        S_INSERT_WAIT: begin
            if (s_flt_rsp_valid) begin
                // answered now (fin); S_RSP holds the answer until it is taken (the state
                // after the case, see ans_next)
                rc_next = fin_rc;
                if (s_flt_rsp_err == E_OK) begin
                    step = 1'b1;
                    inc_adds = 1'b1;
                    evt_push = 1'b1;
                end else if (s_flt_rsp_err == E_FULL || s_flt_rsp_err == E_ID_IN_USE) begin
                    step = 1'b1;              // a drawn id is spent, as in ice
                end
            end
        end
        S_RETARGET: begin
            if (m_flt_cmd_ready) begin
                state_next = S_RETARGET_WAIT;
            end
        end
        S_RETARGET_WAIT: begin
            if (s_flt_rsp_valid) begin
                rc_next = fin_rc;
                if (s_flt_rsp_err == E_OK) begin
                    inc_retargets = 1'b1;
                    evt_push = 1'b1;
                    evt_retarget = 1'b1;
                end
            end
        end
        S_RSP: begin
            if (m_drv_rsp_ready) begin
                state_next = S_IDLE;
            end
        end
        S_POST: begin
            // answered OK now, the command offered now: the counter and the add (an INSERT)
            // or the retarget, and the event, are this answer's, whatever the handshakes
            step = !post_rt_reg;
            inc_adds = !post_rt_reg;
            inc_retargets = post_rt_reg;
            evt_push = 1'b1;
            evt_retarget = post_rt_reg;
            rsp_owed_next = !m_drv_rsp_ready;
            cmd_owed_next = !m_flt_cmd_ready;
            state_next = (m_drv_rsp_ready && m_flt_cmd_ready) ? S_PDONE : S_PWAIT;
        end
        S_PWAIT: begin
            if (m_drv_rsp_ready) rsp_owed_next = 1'b0;
            if (m_flt_cmd_ready) cmd_owed_next = 1'b0;
            // (the table's answer: the state after the case, see ans_next)
            if (!rsp_owed_next && !cmd_owed_next) begin
                state_next = S_PDONE;
            end
        end
        default: begin
            state_next = S_IDLE;
        end
    endcase
    // the table's answer and a request taken in S_IDLE or S_PDONE pick the next state after
    // the case on state_reg: inside it, s_flt_rsp_valid ran through the case's wide
    // multiplexer (the top mapped filters.state_reg -> state_reg at 7 LUT levels)
    if (state_reg == S_IDLE || (state_reg == S_PDONE && s_flt_rsp_valid)) begin
        state_next = id_next;
    end
    if (s_flt_rsp_valid && (state_reg == S_INSERT_WAIT || state_reg == S_RETARGET_WAIT ||
                            state_reg == S_PWAIT)) begin
        state_next = ans_next;
    end
    // the lookup's answer picks the next state in its own multiplexer, after the case on
    // state_reg (inside it, the queue compare ran through the case's wide multiplexer)
    if (state_reg == S_LOOKUP_WAIT && s_flt_rsp_valid) begin
        state_next = lw_next;
    end
    // so does a given request's (the queue compare last, not through the case); the fast
    // insert's choice after it, so the answer-now decision (now_pre) does not see id_mark
    if (in_take) begin
        state_next = ((in_next == S_INSERT && in_fast) || in_next == S_RETARGET) ? S_POST :
                     in_next;
        rc_next = in_rc;
    end
    // answered with the request: nothing to hold
    if (now_take) begin
        state_next = S_IDLE;
    end
    if (step) begin
        last_id_next = next_reg;
    end
end

// ---------------------------------------------------------------- event FIFO
logic [EVT_W-1:0] evt_wr_data, evt_rd_data;
logic [EVT_DEPTH_LOG2:0] evt_count_int;

assign evt_wr_data = {evt_retarget, flt_id_reg, req_queue_reg, req_flow_id_reg, req_hash_reg,
                      req_ipv6_reg, req_proto_reg, req_src_reg, req_dst_reg, req_sport_reg,
                      req_dport_reg};

fs_event_fifo #(
    .DATA_WIDTH(EVT_W),
    .DEPTH_LOG2(EVT_DEPTH_LOG2)
) evt_fifo (
    .clk(clk),
    .rst(rst),
    .s_evt_valid(evt_push),
    .s_evt_ready(evt_wr_ready),
    .s_evt_data(evt_wr_data),
    .m_evt_valid(m_evt_valid),
    .m_evt_ready(m_evt_ready),
    .m_evt_data(evt_rd_data),
    .count(evt_count_int)
);

// ---------------------------------------------------------------- registers
always_ff @(posedge clk) begin
    state_reg <= state_next;
    if (in_take) post_rt_reg <= in_next == S_RETARGET;
    rsp_owed_reg <= rsp_owed_next;
    cmd_owed_reg <= cmd_owed_next;
    rc_reg <= rc_next;
    flt_id_reg <= flt_id_next;
    last_id_reg <= last_id_next;
    settle_reg <= settle_next;
    // last clock every request was answered in its clock without a step or an event; no pop
    refuse_reg <= state_reg == S_IDLE && !cfg_last_id_wr_valid && s_drv_req_lk_valid &&
                  in_early_busy && !(m_evt_valid && m_evt_ready) && !rst;
    if (req_take) begin
        room_reg <= evt_wr_ready;
        req_queue_reg <= s_drv_req_queue;
        req_flow_id_reg <= s_drv_req_flow_id;
        req_hash_reg <= s_drv_req_hash;
        req_ipv6_reg <= s_drv_req_ipv6;
        req_proto_reg <= s_drv_req_proto;
        req_src_reg <= s_drv_req_src;
        req_dst_reg <= s_drv_req_dst;
        req_sport_reg <= s_drv_req_sport;
        req_dport_reg <= s_drv_req_dport;
        req_tag_reg <= s_drv_req_tag;
    end
    if (req_take) begin
        calls_reg <= calls_reg + 64'd1;
    end
    if (inc_adds) begin
        adds_reg <= adds_reg + 64'd1;
    end
    if (inc_retargets) begin
        retargets_reg <= retargets_reg + 64'd1;
    end
    if (inc_refusals) begin
        refusals_reg <= refusals_reg + 64'd1;
    end
    if ((rsp_take && m_drv_rsp_rc[31]) || (now_take && now_rc[31])) begin
        errors_reg <= errors_reg + 64'd1;
    end
    if (rst) begin
        state_reg <= S_IDLE;
        rsp_owed_reg <= 1'b0;
        cmd_owed_reg <= 1'b0;
        last_id_reg <= '0;
        settle_reg <= SETTLE;
        calls_reg <= '0;
        adds_reg <= '0;
        retargets_reg <= '0;
        refusals_reg <= '0;
        errors_reg <= '0;
    end
end

// ---------------------------------------------------------------- outputs
assign s_drv_req_ready = (state_reg == S_IDLE || pdone_take) && !cfg_last_id_wr_valid;
assign cfg_last_id_wr_ready = (state_reg == S_IDLE);
assign cfg_last_id = last_id_reg;

assign m_drv_rsp_valid = (state_reg == S_RSP) || fin || (state_reg == S_POST) ||
                        (state_reg == S_PWAIT && rsp_owed_reg);
assign m_drv_rsp_rc = fin ? fin_rc : rc_reg;
assign m_drv_rsp_tag = req_tag_reg;
assign m_drv_rsp_now = now_pre;
assign m_drv_rsp_now_rc = now_rc;
assign m_drv_rsp_refuse = refuse_reg && s_drv_req_lk_valid && !cfg_last_id_wr_valid;

assign m_flt_cmd_valid = (state_reg == S_LOOKUP) || (state_reg == S_INSERT) ||
                         (state_reg == S_RETARGET) || (state_reg == S_POST) ||
                         (state_reg == S_PWAIT && cmd_owed_reg);
assign m_flt_cmd_posted = (state_reg == S_POST) || (state_reg == S_PWAIT) ||
                          (state_reg == S_PDONE);
assign m_flt_cmd_op = (state_reg == S_INSERT || (m_flt_cmd_posted && !post_rt_reg)) ? OP_INSERT :
                      (state_reg == S_RETARGET || m_flt_cmd_posted) ? OP_RETARGET : OP_LOOKUP;
assign m_flt_cmd_ipv6 = req_ipv6_reg;
assign m_flt_cmd_proto = req_proto_reg;
assign m_flt_cmd_src = req_src_reg;
assign m_flt_cmd_dst = req_dst_reg;
assign m_flt_cmd_sport = req_sport_reg;
assign m_flt_cmd_dport = req_dport_reg;
assign m_flt_cmd_id = flt_id_reg;
assign m_flt_cmd_queue = req_queue_reg;
assign flt_lock = (state_reg != S_IDLE) && (state_reg != S_RSP);

assign m_evt_type = evt_rd_data[EVT_W-1] ? T_RETARGET : T_INSERT;
assign {m_evt_id, m_evt_queue, m_evt_flow_id, m_evt_hash, m_evt_ipv6, m_evt_proto, m_evt_src,
        m_evt_dst, m_evt_sport, m_evt_dport} = evt_rd_data[EVT_W-2:0];
assign evt_count = evt_count_int;

assign stat_steer_calls = calls_reg;
assign stat_steer_adds = adds_reg;
assign stat_steer_retargets = retargets_reg;
assign stat_evt_refusals = refusals_reg;
assign stat_driver_errors = errors_reg;
assign busy = (state_reg != S_IDLE);

`ifdef FORMAL
// Contract (hw/README.md "Formal checks"): one request at a time, answered once with its
// tag; one table command at a time, under flt_lock, for the request's tuple and queue, and
// no LOOKUP when the request's lookup is given; no event pushed into a full FIFO; the counter
// moves only by one drawn id or a write, and once the id pipeline has settled its id is the
// C remainder of counter + 1 by 0xFFFF (spec 7.2), so every drawn id is; and a request
// spends at most F_SELF clocks on its own before its answer (the rest it waits for the
// table or for its answer's taker). The table as assumptions (checked in the engine top's simulations): it answers
// only a command it took, once, from the clock after.
localparam integer F_TUP_W = 1 + 8 + 128 + 128 + 16 + 16;
localparam [4:0] F_SELF = 5'd6;     // a counter write, then a given miss that inserts
logic f_pend_reg = 1'b0;                 // a request taken, not yet answered
logic [TAG_WIDTH-1:0] f_tag_reg;         // ... its tag
logic [F_TUP_W-1:0] f_tup_reg;           // ... its tuple
logic [QUEUE_WIDTH-1:0] f_queue_reg;     // ... its queue
logic f_gv_reg;                          // ... its lookup was given
logic f_out_reg = 1'b0;                  // a table command taken, not yet answered
logic [4:0] f_self_reg = '0;             // clocks the request spent on its own
logic [31:0] f_last_d_reg;               // the counter last clock
logic f_wr_d_reg = 1'b0;                 // ... and a write was taken then
logic f_past_reg = 1'b0;                 // a clock out of reset
logic f_added_reg = 1'b0;                // ... inserted
logic f_moved_reg = 1'b0;                // ... retargeted
logic f_cmd_take, f_req_take, f_rsp_take, f_waits;
// the id's check: |next| = q * 0xFFFF + rem with rem < 0xFFFF makes rem |next| mod 0xFFFF
// (q is the checker's witness: 2^16 = 0xFFFF + 1), and C's % keeps the dividend's sign
logic [31:0] f_next, f_mag, f_q;
logic [16:0] f_s;
logic [15:0] f_fold, f_rem;
assign f_next = last_id_reg + 32'd1;
assign f_mag = f_next[31] ? 32'd0 - f_next : f_next;
assign f_s = {1'b0, f_mag[31:16]} + {1'b0, f_mag[15:0]};
assign f_fold = f_s[15:0] + {15'd0, f_s[16]};
assign f_q = 32'(f_mag[31:16]) + 32'(f_s[16]) + 32'(f_fold == 16'hFFFF);
assign f_rem = f_next[31] ? 16'(32'd0 - id_ext) : id_ext[15:0];
assign f_cmd_take = m_flt_cmd_valid && m_flt_cmd_ready;
assign f_req_take = s_drv_req_valid && s_drv_req_ready;
assign f_rsp_take = m_drv_rsp_valid && m_drv_rsp_ready;
assign f_waits = (m_flt_cmd_valid && !m_flt_cmd_ready) || f_out_reg ||
                 (m_drv_rsp_valid && !m_drv_rsp_ready);

always_ff @(posedge clk) begin
    f_past_reg <= !rst;
    if (f_req_take) begin
        f_pend_reg <= !m_drv_rsp_now;    // else answered in this clock
        f_tag_reg <= s_drv_req_tag;
        f_tup_reg <= {s_drv_req_ipv6, s_drv_req_proto, s_drv_req_src, s_drv_req_dst,
                      s_drv_req_sport, s_drv_req_dport};
        f_queue_reg <= s_drv_req_queue;
        f_gv_reg <= s_drv_req_lk_valid;
        f_self_reg <= '0;
        f_added_reg <= 1'b0;
        f_moved_reg <= 1'b0;
    end else if (f_pend_reg && !f_waits && f_self_reg != 5'd31) begin
        f_self_reg <= f_self_reg + 5'd1;
    end
    if (f_rsp_take) f_pend_reg <= 1'b0;
    if (f_cmd_take) begin
        f_out_reg <= 1'b1;
    end
    if (inc_adds) f_added_reg <= 1'b1;
    if (inc_retargets) f_moved_reg <= 1'b1;
    if (s_flt_rsp_valid) f_out_reg <= 1'b0;
    f_last_d_reg <= last_id_reg;
    f_wr_d_reg <= cfg_last_id_wr_valid && cfg_last_id_wr_ready;
    if (rst) begin
        f_pend_reg <= 1'b0;
        f_out_reg <= 1'b0;
        f_wr_d_reg <= 1'b1;              // (reset writes the counter)
    end
end

// stream rules (hw/formal): requests and counter writes in, answers and table commands out
fs_axis_check #(.WIDTH(QUEUE_WIDTH + 32 + 32 + 1 + F_TUP_W + TAG_WIDTH + 1 + 1 + ID_WIDTH +
                       QUEUE_WIDTH), .INPUT(1)) f_req (
    .clk(clk), .rst(rst), .valid(s_drv_req_valid), .ready(s_drv_req_ready),
    .data({s_drv_req_queue, s_drv_req_flow_id, s_drv_req_hash, s_drv_req_steerable,
           s_drv_req_ipv6, s_drv_req_proto, s_drv_req_src, s_drv_req_dst, s_drv_req_sport,
           s_drv_req_dport, s_drv_req_tag, s_drv_req_lk_valid, s_drv_req_lk_hit,
           s_drv_req_lk_id, s_drv_req_lk_queue}));
fs_axis_check #(.WIDTH(32), .INPUT(1)) f_cfg (
    .clk(clk), .rst(rst), .valid(cfg_last_id_wr_valid), .ready(cfg_last_id_wr_ready),
    .data(cfg_last_id_wr_data));
fs_axis_check #(.WIDTH(32 + TAG_WIDTH), .INPUT(0)) f_rsp (
    .clk(clk), .rst(rst), .valid(m_drv_rsp_valid), .ready(m_drv_rsp_ready),
    .data({m_drv_rsp_rc, m_drv_rsp_tag}));
fs_axis_check #(.WIDTH(5 + F_TUP_W + ID_WIDTH + QUEUE_WIDTH), .INPUT(0)) f_cmd (
    .clk(clk), .rst(rst), .valid(m_flt_cmd_valid), .ready(m_flt_cmd_ready),
    .data({m_flt_cmd_op, m_flt_cmd_posted, m_flt_cmd_ipv6, m_flt_cmd_proto, m_flt_cmd_src, m_flt_cmd_dst,
           m_flt_cmd_sport, m_flt_cmd_dport, m_flt_cmd_id, m_flt_cmd_queue}));

always_comb begin
    if (f_past_reg && !rst) begin
        // the table answers a command it took, once, from the clock after
        a_rsp_out: assume (!s_flt_rsp_valid || f_out_reg);
        // ... and a posted INSERT OK: the driver predicted it (the engine top's simulations
        // check it, with the table, its id_mark and the lookups' free bits)
        a_post_ok: assume (!((state_reg == S_PWAIT || state_reg == S_PDONE) && s_flt_rsp_valid) ||
                           s_flt_rsp_err == E_OK);

        // one request at a time, answered once, with its tag
        p_one_req: assert (!s_drv_req_ready || !f_pend_reg);
        p_rsp_req: assert (!m_drv_rsp_valid || (f_pend_reg && m_drv_rsp_tag == f_tag_reg));
        // an answer in the take clock leaves nothing behind: no command, no event, idle
        p_now_none: assert (!now_take || (state_next == S_IDLE && !evt_push));
        // a refusal announced from registers is the answer the request gets in its clock
        p_inv_refuse: assert (!refuse_reg || (state_reg == S_IDLE && in_early_busy));
        p_refuse: assert (!m_drv_rsp_refuse || (now_pre && s_drv_req_ready &&
                          (now_rc[31] || (steerable && s_drv_req_lk_hit && in_same_q))));
        // one table command at a time, within the request, under the lock, for its tuple
        p_cmd_one: assert (!m_flt_cmd_valid ||
                           (!f_out_reg && (f_pend_reg || state_reg == S_PWAIT) && flt_lock));
        p_cmd_lock: assert (!f_out_reg || flt_lock);
        p_cmd_tuple: assert (!m_flt_cmd_valid ||
                             ({m_flt_cmd_ipv6, m_flt_cmd_proto, m_flt_cmd_src, m_flt_cmd_dst,
                               m_flt_cmd_sport, m_flt_cmd_dport} == f_tup_reg &&
                              m_flt_cmd_queue == f_queue_reg));
        p_no_lookup: assert (!(m_flt_cmd_valid && m_flt_cmd_op == OP_LOOKUP && f_gv_reg));
        // an event is never refused by the FIFO (the room was checked at the request)
        p_evt_room: assert (!evt_push || evt_wr_ready);
        // the counter steps by one or is written; a settled pipeline holds the C remainder
        p_counter: assert (f_wr_d_reg || last_id_reg == f_last_d_reg ||
                           last_id_reg == f_last_d_reg + 32'd1);
        p_id: assert (settle_reg != 3'd0 ||
                      (f_mag == (f_q << 16) - f_q + 32'(f_rem) && f_rem != 16'hFFFF &&
                       id_ext == (f_next[31] ? 32'd0 - 32'(f_rem) : 32'(f_rem))));
        // progress: what the request does on its own is bounded
        p_self: assert (!f_pend_reg || f_self_reg <= F_SELF);
        // invariants (induction): the state follows the request and the command
        p_inv_pend: assert (f_pend_reg == (state_reg != S_IDLE &&
                                           !(state_reg == S_PWAIT && !rsp_owed_reg) &&
                                           state_reg != S_PDONE));
        p_inv_out: assert (f_out_reg == (state_reg == S_LOOKUP_WAIT ||
                                         state_reg == S_INSERT_WAIT ||
                                         state_reg == S_RETARGET_WAIT ||
                                         (state_reg == S_PWAIT && !cmd_owed_reg) ||
                                         state_reg == S_PDONE));
        p_inv_pdone: assert (state_reg != S_PDONE || (!rsp_owed_reg && !cmd_owed_reg));
        p_inv_pwait: assert (state_reg != S_PWAIT || rsp_owed_reg || cmd_owed_reg);
        p_inv_state: assert (state_reg <= S_PDONE);
        p_inv_gv: assert (!f_gv_reg || !(state_reg == S_LOOKUP || state_reg == S_LOOKUP_WAIT));
        p_inv_tup: assert (!f_pend_reg ||
                           ({req_ipv6_reg, req_proto_reg, req_src_reg, req_dst_reg,
                             req_sport_reg, req_dport_reg} == f_tup_reg &&
                            req_queue_reg == f_queue_reg && req_tag_reg == f_tag_reg));
        p_inv_settle: assert (settle_reg <= SETTLE);
        // the clocks spent so far, by state (a counter write just before the request leaves
        // at most 4 clocks of the id pipeline to wait for: settle_reg <= 4 once it is taken)
        p_inv_self: assert (
            (state_reg != S_LOOKUP || (f_self_reg == 5'd0 && settle_reg <= 3'd4)) &&
            (state_reg != S_LOOKUP_WAIT || (f_self_reg == 5'd1 && settle_reg <= 3'd3)) &&
            (state_reg != S_ALLOC || 6'(f_self_reg) + 6'(settle_reg) <= 6'd4) &&
            (state_reg != S_RETARGET || f_self_reg <= 5'd1) &&
            (state_reg != S_RETARGET_WAIT || f_self_reg <= 5'd2) &&
            (state_reg != S_INSERT || f_self_reg <= F_SELF - 5'd1) &&
            (state_reg != S_POST || f_self_reg == 5'd0) &&
            (state_reg != S_PWAIT || f_self_reg == 5'd0) &&
            // (S_POST's clock counts only if both its handshakes were taken: then S_PDONE)
            (state_reg != S_PDONE || f_self_reg <= 5'd1));
        // (a settled pipeline's later stages lag a step: id_reg steps itself, p_id)
        p_inv_next: assert (settle_reg > 3'd4 || next_reg == last_id_reg + 32'd1);
        p_inv_step: assert (!step || settle_reg == 3'd0);
        // (a drawn id's states: the counter is written only in S_IDLE)
        p_inv_drawn: assert (settle_reg == 3'd0 || !(state_reg == S_INSERT ||
                                                     state_reg == S_INSERT_WAIT ||
                                                     ((state_reg == S_POST ||
                                                       state_reg == S_PWAIT ||
                                                       state_reg == S_PDONE) && !post_rt_reg)));
        p_inv_mag: assert (settle_reg > 3'd3 || settle_reg == 3'd0 ||
                           (neg1_reg == next_reg[31] &&
                            mag_reg == (next_reg[31] ? 32'd0 - next_reg : next_reg)));
        p_inv_sum: assert (settle_reg > 3'd2 || settle_reg == 3'd0 ||
                           (neg2_reg == neg1_reg &&
                            sum_reg == {1'b0, mag_reg[31:16]} + {1'b0, mag_reg[15:0]}));
        p_inv_fold: assert (settle_reg > 3'd1 || settle_reg == 3'd0 ||
                            (neg3_reg == neg2_reg &&
                             fold_reg == sum_reg[15:0] + {15'd0, sum_reg[16]}));
        // (the room seen at the request lasts until its event: only this driver pushes)
        p_inv_room: assert (!(f_pend_reg && room_reg && state_reg != S_RSP &&
                              state_reg != S_PWAIT) ||
                            evt_count_int != (EVT_DEPTH_LOG2+1)'(1 << EVT_DEPTH_LOG2));
        // ... and a change is commanded only with that room
        p_inv_room_cmd: assert (room_reg || !(state_reg == S_INSERT ||
                                              state_reg == S_INSERT_WAIT ||
                                              state_reg == S_POST ||
                                              state_reg == S_RETARGET ||
                                              state_reg == S_RETARGET_WAIT));

        // not vacuous: each way a request can go, given or looked up
        c_given_insert: cover (f_rsp_take && f_gv_reg && f_added_reg);
        // (a given retarget is posted: counted in its answer's clock)
        c_given_retarget: cover (f_rsp_take && f_gv_reg && (f_moved_reg || inc_retargets));
        c_post_retarget: cover (state_reg == S_PDONE && post_rt_reg && s_flt_rsp_valid);
        c_given_hit: cover (now_take && s_drv_req_lk_valid && s_drv_req_lk_hit && !now_rc[31]);
        c_lookup_insert: cover (f_rsp_take && !f_gv_reg && f_added_reg);
        c_lookup_retarget: cover (f_rsp_take && !f_gv_reg && f_moved_reg);
        c_ebusy: cover (f_rsp_take && m_drv_rsp_rc == RC_EBUSY);
        c_now_ebusy: cover (now_take && now_rc == RC_EBUSY);
        c_early_busy: cover (now_take && steerable && !s_drv_req_lk_hit && settle_reg != 3'd0 &&
                             now_rc == RC_EBUSY);
        c_now_eproto: cover (now_take && now_rc == RC_EPROTONOSUPPORT);
        c_refuse: cover (now_take && m_drv_rsp_refuse && now_rc == RC_EBUSY);
        c_eio: cover (f_rsp_take && m_drv_rsp_rc == RC_EIO);
        c_stalled_rsp: cover (f_rsp_take && f_self_reg == F_SELF);
        c_posted: cover (state_reg == S_PDONE && s_flt_rsp_valid && f_added_reg);
        // a request taken in a posted command's answer clock, its command offered next
        c_pdone_take: cover (pdone_take && in_take && in_next != S_RSP);
    end
end
`endif

endmodule

`resetall
