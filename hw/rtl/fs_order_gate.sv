`resetall
`timescale 1ns / 1ps
`default_nettype none

// The order gate of the engine (docs/engine-top.md "Total order"): where packets and register
// transactions take their places in one total order. A packet takes its place when it passes
// the gate into fs_hash and carries {cmd_seq, tag} from there. A register transaction, held by
// fs_axil_regs (ord_req .. ord_done), is one of five classes by its register:
//   free  (ord_free): touches nothing a packet reads or changes; runs at once, gate open;
//   core  (ord_core): only fs_rfs_core commands; takes its place on arrival (place_start:
//         cmd_seq counts it then; a packet passing in that clock is before it) and is granted
//         once every
//         packet before it has entered the RFS core (m_first_take) and none of them waits to
//         be presented again after a flush; its commands reach the core only then
//         (core_cmd_ok), and the core takes a command with its stages A-C empty and runs
//         it once the last of those packets has left stage D (a sock-table write: at
//         once, fs_rfs_core's write buffer keeps it from the packets ahead; a HEAD_ADD:
//         taken with packets ahead in A-C, run once they have left D);
//   rec   (ord_rec): state only the RFS core, the steer driver or the record stage read or
//         change (counters, kernel-plane tables); placed on arrival like a core
//         one, granted once the packets before it have their records (rec_fire) and the
//         driver is idle;
//   drv   (ord_drv): the event FIFO, which only the steer driver's calls push to; placed on
//         arrival, granted once the packets before it have left the core's stage D
//         (rfs_fin: their calls answered) and the driver is idle. The packets after it do
//         not wait at M: drv_hold keeps the driver from taking a call until it has run;
//   drain (the rest: state the front end reads between the gate and M) closes the gate
//         while pending and for its ord_done clock; granted with no packet in flight and
//         the driver idle (a posted INSERT may still be in the filter table).
// The packets ordered after a placed transaction pass the gate and wait at the issue stage M
// (their cmd_seq is above done_seq). A frame offered to fs_hash keeps the gate open until it
// is taken (AXI4-Stream: valid never withdrawn) with the cmd_seq it was offered with; it
// passes before the transaction that closed the gate, and a transaction is placed only
// after it.
module fs_order_gate #(
    // packets in flight between the gate and the record (log2)
    parameter integer TAG_LOG2 = 6
) (
    input  wire                  clk,
    input  wire                  rst,

    // the held register transaction (fs_axil_regs)
    input  wire                  ord_req,
    input  wire                  ord_done,
    input  wire                  ord_free,
    input  wire                  ord_core,
    input  wire                  ord_rec,
    input  wire                  ord_drv,
    output wire                  ord_grant,
    output wire                  ord_placed,      // the core, rec or drv transaction has its place
    output wire                  ord_hold,        // the gate is closed for a transaction
    output wire                  place_start,     // a core, rec or drv transaction takes its place
    output wire                  drv_hold,        // a placed drv transaction has not run and every
                                                  // packet before it has left stage D: no call

    input  wire                  cfg_enable,
    input  wire                  init_busy,       // the filter table's reset sweep
    input  wire                  drv_busy,        // the steer driver serves a request

    // packets
    input  wire                  q_valid,         // a parsed frame waits at the gate
    input  wire                  gate_pass,       // it enters fs_hash
    output wire                  gate_open,
    output wire [31:0]           gate_cmd_seq,    // rides with the packet
    output wire [TAG_LOG2-1:0]   gate_tag,
    input  wire                  m_first_take,    // the issue stage M gives a packet to the
                                                  // RFS core for the first time (not a replay)
    input  wire                  m_after,         // M holds a packet ordered after the placed one
    input  wire                  rp_busy,         // M presents flushed packets again
    input  wire                  rfs_flush,       // the RFS core flushes A-C in this clock
    output wire                  core_cmd_ok,     // fs_rfs_core commands may run
    input  wire                  core_cmd_take,   // fs_rfs_core accepts a command
    input  wire                  rfs_fin,         // a packet leaves the RFS core's stage D
    input  wire                  rec_fire,        // a record enters the output slice
    output wire                  wait_on,         // packets whose cmd_seq is wait_seq are ordered
    output wire [31:0]           wait_seq,        // after a placed transaction that has not run
    output wire [TAG_LOG2:0]     inflight         // packets between the gate and the output slice
);

localparam integer TAGS = 1 << TAG_LOG2;

logic [31:0] cmd_seq_reg = 32'd0;
logic [31:0] done_seq_p1_reg = 32'd1;      // transactions executed + 1
logic [TAG_LOG2-1:0] tag_next_reg = '0;
logic [TAG_LOG2:0] inflight_reg = '0;
logic placed_reg = 1'b0;                   // a core, rec or drv transaction has its place
logic [TAG_LOG2:0] unissued_reg = '0;      // packets past the gate, never given to the core
logic [TAG_LOG2:0] ahead_unissued_reg = '0;   // of those, ordered before the placed transaction
logic [TAG_LOG2:0] ahead_rec_reg = '0;     // packets before it without a record yet
logic [TAG_LOG2:0] pre_fin_reg = '0;       // packets past the gate that have not left stage D
logic [TAG_LOG2:0] ahead_fin_reg = '0;     // of those, ordered before the placed transaction
logic drv_placed_reg = 1'b0;               // the placed transaction is a drv one
logic drv_hold_reg = 1'b0;
logic offer_reg = 1'b0;
logic [31:0] offer_seq_reg = 32'd0;        // the offered frame's cmd_seq (a free transaction
                                           // may count meanwhile: they commute)
logic released_reg = 1'b0;                 // the placed core transaction's first command is
                                           // in the core: M may present the packets after it
logic placed_kind;                         // the transaction waits for packets, not the drain
logic ahead_in_core;                       // every packet before it has entered the core

assign placed_kind = ord_core || ord_rec || ord_drv;
// placed in a clock where no frame stays offered: a frame offered keeps its cmd_seq
assign place_start = ord_req && placed_kind && !placed_reg && !offer_reg &&
                     !(q_valid && gate_open && !gate_pass);
assign ord_hold = (ord_req || ord_done) && !ord_free && !placed_kind;
assign gate_open = offer_reg || (cfg_enable && !ord_hold && (inflight_reg != (TAG_LOG2+1)'(TAGS)));
// after a flush the packets before the transaction are in M's replay until M holds one
// ordered after it (M presents in tag order)
assign ahead_in_core = ahead_unissued_reg == '0 && !rfs_flush && (!rp_busy || m_after);
assign ord_grant = ord_req && !init_busy &&
                   (ord_free ||
                    (ord_core && placed_reg && ahead_in_core) ||
                    (ord_rec && placed_reg && ahead_rec_reg == '0 && !drv_busy) ||
                    (ord_drv && drv_placed_reg && ahead_fin_reg == '0 && !drv_busy) ||
                    (!placed_kind && inflight_reg == '0 && !drv_busy));
// outside a placed core transaction nothing is in flight ahead of a command (rec: every
// record out; drain: the pipeline empty; init: no packet yet)
assign core_cmd_ok = !(placed_reg && ord_core) || ahead_in_core;
assign ord_placed = placed_reg;
assign gate_cmd_seq = offer_reg ? offer_seq_reg : cmd_seq_reg;
assign gate_tag = tag_next_reg;
// The core takes a packet only with no command running (or in the EXEC clock of a sock
// write or HEAD_ADD, after its effect, or while a HEAD_ADD waits for the packets ahead:
// those after it wait in its stage C), so the packets after a core transaction may wait at
// its input from its first command on; a second command of the list
// (SOCK_CMD's READ after its WRITE) reads the sock table, which no packet changes.
// Transactions executed, with this clock's: done_seq_p1_reg when ord_done or released_reg, else
// done_seq_p1_reg - 1; a packet after them waits. A packet's cmd_seq is at most cmd_seq_reg,
// which is done_seq_p1_reg while a transaction is placed and one less otherwise (p_seq_gap), so
// the only count that waits is done_seq_p1_reg in a clock that does not release it (an
// equality, not a 32-bit subtraction on the way to the core's command take).
assign wait_on = !(ord_done || released_reg || drv_placed_reg);
assign drv_hold = drv_hold_reg;
assign wait_seq = done_seq_p1_reg;
assign inflight = inflight_reg;

// count + gate_pass - (a take or a record): the sums are formed from the registers and the
// late strobes only select (they come through the pipeline's ready chain)
function automatic [TAG_LOG2:0] step_count(input [TAG_LOG2:0] count, input up, input down);
    logic [TAG_LOG2:0] plus1, minus1;
    plus1 = count + (TAG_LOG2+1)'(1);
    minus1 = count - (TAG_LOG2+1)'(1);
    step_count = (up == down) ? count : (up ? plus1 : minus1);
endfunction
logic [TAG_LOG2:0] unissued_n, inflight_n, pre_fin_n;
assign unissued_n = step_count(unissued_reg, gate_pass, m_first_take);
assign inflight_n = step_count(inflight_reg, gate_pass, rec_fire);
assign pre_fin_n = step_count(pre_fin_reg, gate_pass, rfs_fin);
// the hold from the next clock on: a drv transaction placed and not done, none ahead of it in
// D's way; the late strobes (a finish, a place) only select among compares of registers
logic drv_placed_n, pre_fin_zero_n, ahead_fin_zero_n;
assign drv_placed_n = !ord_done && (drv_placed_reg || (place_start && ord_drv));
assign pre_fin_zero_n = gate_pass ? (rfs_fin && pre_fin_reg == '0) :
                        rfs_fin ? (pre_fin_reg == (TAG_LOG2+1)'(1)) : (pre_fin_reg == '0);
assign ahead_fin_zero_n = place_start ? pre_fin_zero_n :
                          rfs_fin ? (ahead_fin_reg <= (TAG_LOG2+1)'(1)) : (ahead_fin_reg == '0);

always_ff @(posedge clk) begin
    if (place_start || (ord_done && !placed_reg)) cmd_seq_reg <= cmd_seq_reg + 32'd1;
    if (ord_done) begin
        done_seq_p1_reg <= done_seq_p1_reg + 32'd1;
    end
    if (place_start) placed_reg <= 1'b1;
    if (placed_reg && ord_core && core_cmd_take) released_reg <= 1'b1;
    if (ord_done) begin
        placed_reg <= 1'b0;
        released_reg <= 1'b0;
    end
    drv_placed_reg <= drv_placed_n;
    drv_hold_reg <= drv_placed_n && ahead_fin_zero_n;
    unissued_reg <= unissued_n;
    pre_fin_reg <= pre_fin_n;
    // a packet passing the gate in the place_start clock carries the count before it: ahead
    if (place_start) begin
        ahead_unissued_reg <= unissued_n;
        ahead_rec_reg <= inflight_n;
        ahead_fin_reg <= pre_fin_n;
    end else begin
        if (ahead_fin_reg != '0 && rfs_fin) ahead_fin_reg <= ahead_fin_reg - (TAG_LOG2+1)'(1);
        if (ahead_unissued_reg != '0 && m_first_take) ahead_unissued_reg <= ahead_unissued_reg - (TAG_LOG2+1)'(1);
        if (ahead_rec_reg != '0 && rec_fire) ahead_rec_reg <= ahead_rec_reg - (TAG_LOG2+1)'(1);
    end
    if (gate_pass) tag_next_reg <= tag_next_reg + TAG_LOG2'(1);
    inflight_reg <= inflight_n;
    offer_reg <= q_valid && gate_open && !gate_pass;
    if (!offer_reg) offer_seq_reg <= cmd_seq_reg;
    if (rst) begin
        cmd_seq_reg <= 32'd0;
        done_seq_p1_reg <= 32'd1;
        placed_reg <= 1'b0;
        released_reg <= 1'b0;
        unissued_reg <= '0;
        ahead_unissued_reg <= '0;
        ahead_rec_reg <= '0;
        pre_fin_reg <= '0;
        ahead_fin_reg <= '0;
        drv_placed_reg <= 1'b0;
        drv_hold_reg <= 1'b0;
        tag_next_reg <= '0;
        inflight_reg <= '0;
        offer_reg <= 1'b0;
        offer_seq_reg <= 32'd0;
    end
end

`ifdef FORMAL
// The environment (fs_axil_regs, fs_nic_front, the issue stage M) as assumptions, checked as
// assertions in the simulations: one class per transaction, a packet passes only an open
// gate, M takes only packets past the gate, a record only for a packet M has taken.
// The gate's own contract: the counts of packets ahead of a placed transaction never exceed
// what is in flight (so they only fall to 0 through takes and records), a frame offered keeps
// the gate open with the same cmd_seq until it is taken, and the classes wait as documented.
logic f_past_reg = 1'b0;
always_ff @(posedge clk) begin
    f_past_reg <= !rst;
end
always_comb begin
    if (!rst) begin
        if (ord_req) a_one_class: assume (32'(ord_free) + 32'(ord_core) + 32'(ord_rec) + 32'(ord_drv) <= 1);
        if (gate_pass) a_pass_open: assume (q_valid && gate_open);
        if (m_first_take) a_take_passed: assume (unissued_reg != '0);
        if (rec_fire) a_fire_taken: assume (inflight_reg != pre_fin_reg);
        if (rfs_fin) a_fin_taken: assume (pre_fin_reg != unissued_reg);
    end
end
always_ff @(posedge clk) begin
    if (f_past_reg && !rst) begin
        p_ahead_le_unissued: assert (ahead_unissued_reg <= unissued_reg);
        p_unissued_le_inflight: assert (unissued_reg <= inflight_reg);
        p_ahead_rec_le_inflight: assert (ahead_rec_reg <= inflight_reg);
        p_unissued_le_pre_fin: assert (unissued_reg <= pre_fin_reg);
        p_pre_fin_le_inflight: assert (pre_fin_reg <= inflight_reg);
        p_ahead_fin_le_pre_fin: assert (ahead_fin_reg <= pre_fin_reg);
        if (drv_placed_reg) p_drv_placed: assert (placed_reg);
        // the hold is exactly its definition, from registers (the top gates the driver's
        // request with it: a call after the transaction waits, none before it does)
        p_drv_hold: assert (drv_hold == (drv_placed_reg && ahead_fin_reg == '0));
        p_inflight_bound: assert (inflight_reg <= (TAG_LOG2+1)'(TAGS));
        p_seq_gap: assert (cmd_seq_reg + 32'd1 == done_seq_p1_reg + 32'(placed_reg));
        if (offer_reg) p_offer_room: assert (inflight_reg != (TAG_LOG2+1)'(TAGS));
        if ($past(q_valid && gate_open && !gate_pass) && !$past(rst)) begin
            p_offer_open: assert (gate_open);
            p_offer_seq: assert (gate_cmd_seq == $past(gate_cmd_seq));
            p_offer_tag: assert (gate_tag == $past(gate_tag));
        end
        if (ord_grant && ord_core) p_core_ahead_in: assert (ahead_unissued_reg == '0);
        if (ord_grant && ord_rec) p_rec_ahead_out: assert (ahead_rec_reg == '0);
        if (ord_grant && ord_drv) p_drv_ahead_out: assert (ahead_fin_reg == '0 && drv_hold);
        if (ord_grant && !ord_free && !ord_core && !ord_rec && !ord_drv) p_drain_empty: assert (inflight_reg == '0);
        c_core_wait: cover (placed_reg && ord_core && ahead_unissued_reg != '0);
        c_rec_wait: cover (placed_reg && ord_rec && ahead_rec_reg != '0);
        c_drv_wait: cover (placed_reg && ord_drv && ahead_fin_reg != '0);
        c_drv_hold: cover (drv_hold && pre_fin_reg != unissued_reg);
        c_released: cover (released_reg && m_after);
    end
end
`endif

endmodule

`resetall
