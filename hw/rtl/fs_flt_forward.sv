`resetall
`timescale 1ns / 1ps
`default_nettype none

// Filter forwarding unit of the engine top (docs/engine-top.md "Hazards inside the packet
// pipeline"). Packets of one flow look up the filter table back to back; a steer changes the
// filter of its tuple (INSERT or RETARGET by fs_steer_driver) after later packets of that
// tuple may already have looked it up. This unit makes each packet enter fs_rfs_core with the
// filter state the sequential model gives it:
//   * change log: every driver INSERT/RETARGET the table answered OK is logged as
//     {key, id, queue} (the state the tuple's lookups see afterwards: hit, id, queue);
//     changes are numbered (chg_cnt). A posted one (the driver answered OK before the table
//     ran it, dc_posted) is logged the clock after the table takes it, its answer ignored.
//   * stamp: a packet takes the count of changes the table answered when its lookup is
//     accepted (lk_stamp; the table runs commands between lookups, so the lookup saw every
//     change numbered below it, and maybe the one answered in the same clock: applying a
//     change twice is harmless). It is one below chg_cnt while a posted change waits for the
//     table, so a lookup offered meanwhile keeps its stamp, and scans it.
//   * scan: before the RFS core the packet applies, in order, the logged changes numbered
//     from its stamp up to the count: the first in stage S (read as the tag store is read,
//     compared with the key the read gives) -> load_patch_*, applied as M loads the packet;
//     the rest at the core input M -> patch_*: M keeps a mask of the changes still to apply
//     whose key fold (FOLD_W bits) equals the packet's, taken as M loads it and kept as changes
//     are logged; a packet whose mask is empty goes, one with a set bit reads the log one change
//     per clock (read one, compare the one before) until the mask empties.
//   * no hold: a packet behind one that steers enters the core with the state before the
//     steer; the core drops it when the steerer leaves (fs_rfs_core m_flush) and the top
//     presents it again from its lookup result and stamp, so this scan applies the change.
//   * window: lookups are admitted while fewer than 2^LOG_LOG2 - 2 packets are between the
//     lookup and their record, so a packet never needs a change the log has overwritten
//     (a presented-again packet stays inside the window).
// Stalls: stat_scan (a logged change after the first whose key fold is the packet's); the
// lookup window (lk_room low) is a second, never reached at one packet per clock.
module fs_flt_forward #(
    // filter key width {ipv6, proto, src, dst, sport, dport}
    parameter integer KEY_W = 297,
    parameter integer ID_WIDTH = 16,
    parameter integer QUEUE_WIDTH = 16,
    // change log depth (log2)
    parameter integer LOG_LOG2 = 4,
    // key fold compared before the scan reads a change (false matches cost one clock each)
    parameter integer FOLD_W = 12
) (
    input  wire                   clk,
    input  wire                   rst,

    // filter lookups
    input  wire                   lk_take,         // a lookup accepted this clock
    output wire [LOG_LOG2:0]      lk_stamp,        // its stamp
    output wire                   lk_room,         // the lookup window has room

    // the steer driver's table commands and their responses
    input  wire                   dc_take,
    input  wire [3:0]             dc_op,           // enum filter_op
    input  wire [KEY_W-1:0]       dc_key,
    input  wire [ID_WIDTH-1:0]    dc_id,
    input  wire [QUEUE_WIDTH-1:0] dc_queue,
    input  wire                   dc_posted,       // answered OK already: logged when taken
    input  wire                   dr_valid,
    input  wire [3:0]             dr_err,          // enum filter_err
    output wire                   chg_log,         // a change is logged this clock

    // stage S: the packet read from the tag store, before M
    input  wire                   s_load,          // a packet is read into S
    input  wire [LOG_LOG2:0]      s_load_stamp,    // ... its stamp
    input  wire [KEY_W-1:0]       s_key,           // the packet in S (from the clock after s_load)
    output wire                   load_patch_valid, // S's packet's filter becomes hit/id/queue
    output wire [ID_WIDTH-1:0]    load_patch_id,    // (its stamp's change) as M loads it
    output wire [QUEUE_WIDTH-1:0] load_patch_queue,

    // the packet at the RFS core input (M)
    input  wire                   p_load,          // S's packet moves to M
    input  wire                   p_valid,
    input  wire [KEY_W-1:0]       p_key,
    output wire                   p_go,            // may enter the core this clock
    output wire                   patch_valid,     // the packet's filter becomes hit/id/queue
    output wire [ID_WIDTH-1:0]    patch_id,
    output wire [QUEUE_WIDTH-1:0] patch_queue,

    // the RFS core
    input  wire                   core_exit,       // a record left the core

    output wire                   stat_scan
);

`include "flowsteer_regs.vh"

localparam integer LOGN = 1 << LOG_LOG2;
localparam integer SW = LOG_LOG2 + 1;
localparam integer ENT_W = KEY_W + ID_WIDTH + QUEUE_WIDTH;
localparam integer WW = LOG_LOG2 + 2;                            // window counter width
localparam [3:0] OP_INSERT = 4'(FS_FILTER_OP_INSERT);
localparam [3:0] OP_RETARGET = 4'(FS_FILTER_OP_RETARGET);
localparam [3:0] E_OK = 4'(FS_FILTER_ERR_OK);
localparam integer FD_W = (FOLD_W < KEY_W) ? FOLD_W : KEY_W;     // fold width (the key if shorter)

// key bit k goes to fold bit k mod FD_W (an XOR of FD_W-bit slices: per-bit code made the
// simulated top several times slower)
function automatic [FD_W-1:0] fold(input logic [KEY_W-1:0] key);
    fold = '0;
    for (int c = 0; c < KEY_W; c += FD_W) fold = fold ^ FD_W'(key >> c);
endfunction

// entry i is among the changes numbered lo .. hi - 1 (their indexes; hi - lo < 2^LOG_LOG2)
function automatic logic in_win(input logic [LOG_LOG2-1:0] i, input logic [LOG_LOG2-1:0] lo,
                                input logic [LOG_LOG2-1:0] hi);
    in_win = (hi < lo) ? (i >= lo || i < hi) : (i >= lo && i < hi);
endfunction

`ifdef VERILATOR
if (LOG_LOG2 < 2) begin : g_bad_param
    $error("fs_flt_forward: need LOG_LOG2 >= 2");
end
`endif

// ---------------------------------------------------------------- change log
logic [SW-1:0] chg_cnt_reg = '0;
// changes the table holds: a lookup's stamp (it saw those), so a lookup waiting to be taken
// keeps its stamp; one behind chg_cnt_reg while a posted change is logged, not yet written
logic [SW-1:0] land_cnt_reg = '0;
logic [ENT_W-1:0] log_reg [LOGN];
logic [ENT_W-1:0] log_rp_reg [LOGN];     // a copy of log_reg for the scan's read (see ld_ent)
logic [FD_W-1:0] log_fold_reg [LOGN];   // each entry's key fold
logic dc_change_reg = 1'b0;              // the driver's command in progress can change state
logic dc_posted_reg = 1'b0;              // ... and was answered OK before the table ran it
logic post_wr_reg = 1'b0;                // such a command was taken last clock: log it now
logic [ENT_W-1:0] dc_ent_reg;
logic [FD_W-1:0] dc_fold_reg;            // ... its key fold
logic log_wr;                            // the command's change is logged this clock
logic dc_is_change;                      // the command taken is an INSERT or RETARGET
logic dr_chg_ok;                         // the table answered the command's change OK

assign dc_is_change = (dc_op == OP_INSERT) || (dc_op == OP_RETARGET);
assign dr_chg_ok = dr_valid && dc_change_reg && dr_err == E_OK;
assign log_wr = (dr_chg_ok && !dc_posted_reg) || post_wr_reg;
assign chg_log = log_wr;

always_ff @(posedge clk) begin
    post_wr_reg <= 1'b0;
    if (dc_take) begin
        dc_change_reg <= dc_is_change;
        dc_posted_reg <= dc_posted;
        post_wr_reg <= dc_posted && dc_is_change;
        dc_ent_reg <= {dc_key, dc_id, dc_queue};
        dc_fold_reg <= fold(dc_key);
    end
    if (dr_chg_ok) land_cnt_reg <= land_cnt_reg + SW'(1);
    if (log_wr) begin
        log_reg[chg_cnt_reg[LOG_LOG2-1:0]] <= dc_ent_reg;
        log_rp_reg[chg_cnt_reg[LOG_LOG2-1:0]] <= dc_ent_reg;
        log_fold_reg[chg_cnt_reg[LOG_LOG2-1:0]] <= dc_fold_reg;
        chg_cnt_reg <= chg_cnt_reg + SW'(1);
    end
    if (rst) begin
        chg_cnt_reg <= '0;
        land_cnt_reg <= '0;
        dc_change_reg <= 1'b0;
        dc_posted_reg <= 1'b0;
        post_wr_reg <= 1'b0;
    end
end

assign lk_stamp = land_cnt_reg;

// ---------------------------------------------------------------- lookup window
logic [WW-1:0] win_reg = '0;             // lookups accepted, record not yet out of the core
assign lk_room = win_reg < WW'(LOGN - 2);
always_ff @(posedge clk) begin
    win_reg <= win_reg + WW'(lk_take) - WW'(core_exit);
    if (rst) win_reg <= '0;
end

// ---------------------------------------------------------------- scan
// S reads the stamp's entry as the tag store is read (written: the window keeps the count
// within 2^LOG_LOG2 - 2 of a stamp, so the entry written in that clock is another) and
// compares it with the key the read gives, both from registers, so a packet with one change
// to apply goes the clock after M loads it, as one with none. M loads the mask of the later
// changes whose fold is the packet's (mk_reg; a change logged in that clock or while M holds
// the packet sets its bit the same way) and goes when it is empty. Otherwise M scans one
// change per clock: entry sp (read the clock before) is compared while entry rp = sp + 1 is
// read and its bit cleared; a compared entry whose fold differs cannot match and does not hold.
logic s_pend_reg = 1'b0;                 // S: its stamp's entry read into s_ent_reg
logic [ENT_W-1:0] s_ent_reg;
logic [SW-1:0] s_rp_reg;                 // ... the next change to read after it
logic [SW-1:0] rp_reg = '0;              // M: next change to read
logic [LOGN-1:0] mk_reg = '0;            // ... changes from rp_reg on whose fold is the packet's
logic [FD_W-1:0] p_fold_reg;             // ... the packet's key fold
logic sc_pend_reg = 1'b0;                // a log entry read into sc_ent_reg, compared now
logic sc_fm_reg;                         // ... its fold is the packet's
logic [ENT_W-1:0] sc_ent_reg;
logic sc_match, scanning, ld_pend, sc_rd;
logic [FD_W-1:0] s_fold;
logic [LOGN-1:0] mk_load, mk_wr;

assign sc_match = sc_pend_reg && (sc_ent_reg[ENT_W-1 -: KEY_W] == p_key);
assign scanning = (sc_pend_reg && sc_fm_reg) || (mk_reg != '0);
assign ld_pend = s_load_stamp != chg_cnt_reg;
assign sc_rd = p_valid && !p_load && (mk_reg != '0);
assign s_fold = fold(s_key);

always_comb begin
    for (int i = 0; i < LOGN; i++) begin
        mk_load[i] = in_win(LOG_LOG2'(i), s_rp_reg[LOG_LOG2-1:0], chg_cnt_reg[LOG_LOG2-1:0]) && log_fold_reg[i] == s_fold;
        mk_wr[i] = log_wr && chg_cnt_reg[LOG_LOG2-1:0] == LOG_LOG2'(i) &&
                   dc_fold_reg == (p_load ? s_fold : p_fold_reg);
    end
end

// two copies of the log, one per read, as Yosys merges two reads of one memory into one read
// behind a mux of their addresses
logic [ENT_W-1:0] ld_ent, rp_ent;
assign ld_ent = log_reg[s_load_stamp[LOG_LOG2-1:0]];
assign rp_ent = log_rp_reg[rp_reg[LOG_LOG2-1:0]];

assign load_patch_valid = s_pend_reg && (s_ent_reg[ENT_W-1 -: KEY_W] == s_key);
assign load_patch_id = s_ent_reg[QUEUE_WIDTH +: ID_WIDTH];
assign load_patch_queue = s_ent_reg[QUEUE_WIDTH-1:0];

always_ff @(posedge clk) begin
    if (s_load) begin
        s_ent_reg <= ld_ent;
        s_pend_reg <= ld_pend;
        s_rp_reg <= s_load_stamp + SW'(ld_pend);
    end
    if (p_load) begin
        sc_pend_reg <= 1'b0;
        rp_reg <= s_rp_reg;
        mk_reg <= mk_load | mk_wr;
        p_fold_reg <= s_fold;
    end else begin
        mk_reg <= mk_reg | mk_wr;
        if (p_valid) sc_pend_reg <= 1'b0;
        if (sc_rd) begin
            sc_ent_reg <= rp_ent;
            sc_fm_reg <= mk_reg[rp_reg[LOG_LOG2-1:0]];
            sc_pend_reg <= 1'b1;
            rp_reg <= rp_reg + SW'(1);
            mk_reg[rp_reg[LOG_LOG2-1:0]] <= 1'b0;      // (the entry written is another)
        end
    end
    if (rst) begin
        sc_pend_reg <= 1'b0;
        mk_reg <= '0;
    end
end

assign patch_valid = p_valid && sc_match;
assign patch_id = sc_ent_reg[QUEUE_WIDTH +: ID_WIDTH];
assign patch_queue = sc_ent_reg[QUEUE_WIDTH-1:0];

assign p_go = p_valid && !scanning;
assign stat_scan = p_valid && scanning;

`ifdef FORMAL
// Forwarding contract against a reference: for one key (f_key), the value of its latest
// logged change and how many changes came after it; for the packet in S its stamp, for the
// packet at the core input its stamp and the patches it took.
// When the packet goes (p_go), it carries the key's latest change numbered from its stamp up
// to the count, or no patch when there is none (an older change was in its lookup already).
// The environment (the engine top) as assumptions, checked as assertions in the simulations:
// one driver command at a time with one response, S keeps its key until M loads it (M loads
// only what S holds), a loaded packet is valid the next clock with S's key and keeps it
// (p_valid rises only after a load), a stamp is a count taken since reset, and the lookup
// window: at most 2^LOG_LOG2 - 2 changes since a packet's stamp while it waits in S or M
// (each is a driver call by a packet ahead of it in flight).
localparam [SW-1:0] F_WIN = SW'(LOGN - 2);
localparam integer F_VW = ID_WIDTH + QUEUE_WIDTH;
logic f_past_reg = 1'b0;
logic f_pend_reg = 1'b0;                 // a driver command awaits its response
logic f_chg_reg;                         // ... an INSERT or RETARGET
logic f_post_reg = 1'b0;                 // ... posted (answered OK before it ran)
logic f_post_now_reg = 1'b0;             // a posted change was taken last clock
logic [ENT_W-1:0] f_cmd_reg;
logic f_change;                          // a change is logged this clock
logic [SW-1:0] f_cnt_reg = '0;           // changes logged
logic [SW-1:0] f_nchg_reg = '0;          // ... since reset, up to 2^LOG_LOG2
logic [SW-1:0] f_since_reg = SW'(LOGN);  // changes logged after f_key's latest (2^LOG_LOG2: none
                                         // among the last 2^LOG_LOG2)
logic [F_VW-1:0] f_last_reg;             // ... and its {id, queue}
logic f_sv_reg = 1'b0;                   // S holds a packet (read, not yet moved to M)
logic [SW-1:0] f_ss_reg;                 // ... its stamp
logic f_trk_reg = 1'b0;                  // a packet was loaded since reset
logic [SW-1:0] f_s_reg;                  // its stamp
logic f_acc_reg;                         // it took a patch
logic [F_VW-1:0] f_acc_v_reg;            // ... the last one
logic f_in_range;
logic [KEY_W-1:0] f_key;
`ifdef VERILATOR
// simulation: the key of the first change after reset (no packet of it goes unchecked)
logic f_kset_reg = 1'b0;
logic [KEY_W-1:0] f_key_reg;
assign f_key = f_kset_reg ? f_key_reg : f_cmd_reg[ENT_W-1 -: KEY_W];
always_ff @(posedge clk) begin
    if (f_change) begin
        f_kset_reg <= 1'b1;
        if (!f_kset_reg) f_key_reg <= f_cmd_reg[ENT_W-1 -: KEY_W];
    end
    if (rst) f_kset_reg <= 1'b0;
end
`else
(* anyconst *) logic [KEY_W-1:0] f_key_any;
assign f_key = f_key_any;
`endif

assign f_change = (dr_valid && f_pend_reg && f_chg_reg && !f_post_reg && dr_err == E_OK) ||
                  f_post_now_reg;
assign f_in_range = f_since_reg < f_cnt_reg - f_s_reg;
// for the invariants: each entry's age (changes logged after it), the scan's end
logic [SW-1:0] f_age [LOGN];
logic [LOG_LOG2-1:0] f_rp_m1;              // the entry read last
logic [SW-1:0] f_e;
logic f_log_ok;
logic f_mk_ok;                             // M's mask: the window's entries whose fold is the key's
always_comb begin
    for (int i = 0; i < LOGN; i++) begin
        f_age[i] = SW'(LOG_LOG2'(chg_cnt_reg[LOG_LOG2-1:0] - LOG_LOG2'(i) - LOG_LOG2'(1)));
    end
    // the log holds f_key's latest change at its age and no younger change of f_key
    f_log_ok = 1'b1;
    for (int i = 0; i < LOGN; i++) begin
        if (f_age[i] < f_nchg_reg) begin
            if (f_age[i] < f_since_reg && log_reg[i][ENT_W-1 -: KEY_W] == f_key) f_log_ok = 1'b0;
            if (f_age[i] == f_since_reg && log_reg[i] != {f_key, f_last_reg}) f_log_ok = 1'b0;
            if (log_rp_reg[i] != log_reg[i]) f_log_ok = 1'b0;    // the scan's copy
            if (log_fold_reg[i] != fold(log_reg[i][ENT_W-1 -: KEY_W])) f_log_ok = 1'b0;
        end
    end
    // (entry and packet folds as the registers hold them: p_inv_log and p_inv_fold tie them
    // to the keys)
    f_mk_ok = 1'b1;
    for (int i = 0; i < LOGN; i++) begin
        if (mk_reg[i] != (in_win(LOG_LOG2'(i), rp_reg[LOG_LOG2-1:0],
                                 chg_cnt_reg[LOG_LOG2-1:0]) &&
                          log_fold_reg[i] == p_fold_reg)) f_mk_ok = 1'b0;
    end
    f_rp_m1 = rp_reg[LOG_LOG2-1:0] - LOG_LOG2'(1);
    f_e = rp_reg - SW'(sc_pend_reg);
end

always_ff @(posedge clk) begin
    f_past_reg <= !rst;
    if (dr_valid) f_pend_reg <= 1'b0;
    f_post_now_reg <= 1'b0;
    if (dc_take) begin
        f_pend_reg <= 1'b1;
        f_chg_reg <= dc_is_change;
        f_post_reg <= dc_posted;
        f_post_now_reg <= dc_posted && dc_is_change;
        f_cmd_reg <= {dc_key, dc_id, dc_queue};
    end
    if (f_change) begin
        f_cnt_reg <= f_cnt_reg + SW'(1);
        if (f_nchg_reg != SW'(LOGN)) f_nchg_reg <= f_nchg_reg + SW'(1);
        if (f_since_reg != SW'(LOGN)) f_since_reg <= f_since_reg + SW'(1);
        if (f_cmd_reg[ENT_W-1 -: KEY_W] == f_key) begin
            f_since_reg <= '0;
            f_last_reg <= f_cmd_reg[F_VW-1:0];
        end
    end
    if (patch_valid) begin
        f_acc_reg <= 1'b1;
        f_acc_v_reg <= {patch_id, patch_queue};
    end
    if (p_load) f_sv_reg <= 1'b0;
    if (s_load) begin
        f_sv_reg <= 1'b1;
        f_ss_reg <= s_load_stamp;
    end
    if (p_load) begin
        f_trk_reg <= 1'b1;
        f_s_reg <= f_ss_reg;
        f_acc_reg <= load_patch_valid;
        f_acc_v_reg <= {load_patch_id, load_patch_queue};
    end
    if (rst) begin
        f_pend_reg <= 1'b0;
        f_post_reg <= 1'b0;
        f_post_now_reg <= 1'b0;
        f_cnt_reg <= '0;
        f_nchg_reg <= '0;
        f_since_reg <= SW'(LOGN);
        f_sv_reg <= 1'b0;
        f_trk_reg <= 1'b0;
    end
end

always_comb begin
    if (!rst) begin
        if (dc_take) a_one_cmd: assume (!f_pend_reg || dr_valid);
        if (dr_valid) a_rsp_cmd: assume (f_pend_reg);
        // a posted change is answered OK (fs_steer_driver's a_post_ok), after its log clock
        if (dr_valid && f_post_reg) a_post_ok: assume (dr_err == E_OK && !f_post_now_reg);
        if (s_load) a_load_window: assume (f_cnt_reg - s_load_stamp <= F_WIN &&
                                           f_cnt_reg - s_load_stamp <= f_nchg_reg);
        if (f_sv_reg) a_s_window: assume (f_cnt_reg - f_ss_reg <= F_WIN);
        if (p_load) a_load_s: assume (f_sv_reg);
        if (f_trk_reg && p_valid) a_window: assume (f_cnt_reg - f_s_reg <= F_WIN);
        if (!f_past_reg) a_first_idle: assume (!p_valid);
    end
end
always_ff @(posedge clk) begin
    if (f_past_reg && !rst) begin
        if ($past(p_load)) a_load_valid: assume (p_valid);
        if (p_valid && !$past(p_valid)) a_valid_loaded: assume ($past(p_load));
        if (p_valid && $past(p_valid) && !$past(p_load)) a_key_hold: assume (p_key == $past(p_key));
        if (f_sv_reg && $past(f_sv_reg) && !$past(s_load)) a_s_key_hold: assume (s_key == $past(s_key));
        if ($past(p_load)) a_load_key: assume (p_key == $past(s_key));

        p_count: assert (chg_cnt_reg == f_cnt_reg);
        if (patch_valid) p_patch_excl: assert (!p_go);
        // invariants that make the contract inductive: the log (f_log_ok), and the scan so far
        // ([stamp, f_e)) agrees with the patches taken
        if (f_since_reg != SW'(LOGN)) p_inv_since: assert (f_since_reg < f_nchg_reg);
        p_inv_sat: assert (f_nchg_reg <= SW'(LOGN) && f_since_reg <= SW'(LOGN));
        p_inv_log: assert (f_log_ok);
        if (f_pend_reg) p_inv_cmd: assert (dc_change_reg == f_chg_reg && dc_ent_reg == f_cmd_reg &&
                                           dc_fold_reg == fold(f_cmd_reg[ENT_W-1 -: KEY_W]) &&
                                           dc_posted_reg == f_post_reg);
        p_inv_post: assert (post_wr_reg == f_post_now_reg &&
                            (!f_post_now_reg || (f_pend_reg && f_chg_reg)));
        p_inv_land: assert (land_cnt_reg == chg_cnt_reg -
                            SW'(f_pend_reg && f_post_reg && f_chg_reg && !f_post_now_reg));
        // S: the stamp's entry read with the packet, the scan's next entry after it
        if (f_sv_reg) begin
            p_inv_s_win: assert (f_cnt_reg - f_ss_reg <= f_nchg_reg);
            p_inv_s_rp: assert (s_rp_reg == f_ss_reg + SW'(s_pend_reg));
            if (s_pend_reg) begin
                p_inv_s_pend: assert (f_cnt_reg != f_ss_reg);
                p_inv_s_ent: assert (s_ent_reg == log_reg[f_ss_reg[LOG_LOG2-1:0]]);
            end
        end
        if (f_trk_reg && p_valid) begin
            p_inv_rp: assert (rp_reg - f_s_reg <= f_cnt_reg - f_s_reg);
            p_inv_m_win: assert (f_cnt_reg - f_s_reg <= f_nchg_reg);
            p_inv_fold: assert (p_fold_reg == fold(p_key));
            p_inv_mk: assert (f_mk_ok);
            if (sc_pend_reg) begin
                p_inv_pend: assert (rp_reg != f_s_reg);
                p_inv_ent: assert (sc_ent_reg == log_reg[f_rp_m1]);
                p_inv_fm: assert (sc_fm_reg == (fold(sc_ent_reg[ENT_W-1 -: KEY_W]) == p_fold_reg));
            end
            if (p_key == f_key) begin
                if (f_since_reg < f_cnt_reg - f_s_reg &&
                    f_since_reg >= f_cnt_reg - f_e) begin
                    p_inv_acc: assert (f_acc_reg && f_acc_v_reg == f_last_reg);
                end
                if (!f_in_range) p_inv_noacc: assert (!f_acc_reg);
            end
        end
        if (p_go && f_trk_reg && p_key == f_key) begin
            if (f_in_range) begin
                p_fwd_latest: assert (f_acc_reg && f_acc_v_reg == f_last_reg);
            end else begin
                p_fwd_none: assert (!f_acc_reg);
            end
        end
        c_fwd: cover (p_go && f_trk_reg && p_key == f_key && f_acc_reg &&
                      f_cnt_reg - f_s_reg >= SW'(2));
        // (the clock after a load, f_acc_reg is the load's patch: the load overrides a scan's)
        c_fwd_load: cover (p_go && $past(p_load) && f_trk_reg && p_key == f_key && f_acc_reg);
        c_fwd_older: cover (p_go && f_trk_reg && p_key == f_key && f_since_reg != SW'(LOGN) && !f_in_range);
        c_fwd_other: cover (p_go && f_trk_reg && p_key != f_key && f_in_range);
        // a packet goes past a logged change it did not read (its fold differs), and one reads
        // a change whose fold is its own but whose key is not
        c_fwd_skip: cover (p_go && rp_reg != chg_cnt_reg);
        // a posted change logged, and later answered by the table (its stamp count follows)
        c_post_log: cover (post_wr_reg);
        c_post_land: cover (dr_valid && f_post_reg);
        c_fold_false: cover (sc_pend_reg && sc_fm_reg && !sc_match);
    end
end
`endif

endmodule

`resetall
