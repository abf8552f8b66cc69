`resetall
`timescale 1ns / 1ps
`default_nettype none

// Bucket freshness for the steer driver's fast insert (docs/engine-top.md "BUCKET WATCH AND ID
// STEP"): per packet in flight (tag), whether a filter change was logged in its key's bucket
// after its lookup was accepted. A caller whose lookup found a free way and whose bucket is
// fresh still has that way, whatever changed in other buckets meanwhile.
//   * each tag keeps its lookup's bucket (fs_filter_table gives it the clock after the
//     lookup is accepted, from its first stage) and a stale bit, cleared then;
//   * a change (chg_log, fs_flt_forward) sets, in its clock, the stale bit of every tag in
//     the bucket of the driver's command (taken with the command, dc_key). A change logged in
//     a lookup's clock was written before the table took the lookup (a posted change is
//     logged while the table holds lookups), and none is logged the clock after;
//   * rd_load (as D takes the driver's caller, at least 2 clocks after its lookup) copies the
//     tag's bit and bucket into registers; rd_clean also excludes the change logged in the
//     clock before (not in the copied bit: the read is a 2^TAG_W-way multiplexer, the stale
//     update must not be in series with it), so it covers every change before its clock.
// Changes are only the driver's: host filter commands run with the pipeline drained.
module fs_bucket_watch #(
    parameter integer TAG_W = 6,
    parameter integer BUCKET_BITS = 10
) (
    input  wire                   clk,
    input  wire                   rst,

    // a lookup accepted: its tag; its key's bucket the clock after
    input  wire                   lk_take,
    input  wire [TAG_W-1:0]       lk_tag,
    input  wire [BUCKET_BITS-1:0] lk_bucket,

    // the driver's table command taken ({ipv6, proto, src, dst, sport, dport}), and its
    // change logged (fs_flt_forward; never in the clock of a command's take)
    input  wire                   dc_take,
    input  wire [296:0]           dc_key,
    input  wire                   chg_log,

    // the caller's word
    input  wire                   rd_load,
    input  wire [TAG_W-1:0]       rd_tag,
    output wire                   rd_clean         // no change in its bucket since its lookup
);

localparam integer TAGS = 1 << TAG_W;

logic [BUCKET_BITS-1:0] dc_bucket;
fs_flt_bucket #(.BUCKET_BITS(BUCKET_BITS)) dc_bucket_of (.key(dc_key), .bucket(dc_bucket));

logic tk_reg = 1'b0;                     // a lookup was accepted last clock
logic [TAG_W-1:0] tk_tag_reg;
logic [BUCKET_BITS-1:0] chg_bucket_reg;  // the driver's command's bucket
logic [BUCKET_BITS-1:0] bucket_reg [TAGS];
logic [TAGS-1:0] stale_reg = '1;
logic [TAGS-1:0] hit;                    // this clock's change is in the tag's bucket
logic rd_clean_reg = 1'b0;
logic [BUCKET_BITS-1:0] rd_bucket_reg;
logic rd_pend_reg = 1'b0;                // a change was logged last clock
logic rd_stale;                          // rd_tag's bit
logic [BUCKET_BITS-1:0] rd_bucket;

// (the bit is read as an AND-OR with a decoded tag: Yosys 0.23's synth_xilinx -widemux fails
// to map the shift cell a 1-bit-wide multiplexer becomes)
logic [TAGS-1:0] rd_sel;
always_comb begin
    rd_bucket = '0;
    for (int t = 0; t < TAGS; t++) begin
        hit[t] = chg_log && bucket_reg[t] == chg_bucket_reg;
        rd_sel[t] = rd_tag == TAG_W'(t);
        if (rd_sel[t]) rd_bucket = bucket_reg[t];
    end
    rd_stale = |(stale_reg & rd_sel);
end

assign rd_clean = rd_clean_reg && !(rd_pend_reg && rd_bucket_reg == chg_bucket_reg);

always_ff @(posedge clk) begin
    tk_reg <= lk_take;
    tk_tag_reg <= lk_tag;
    if (dc_take) chg_bucket_reg <= dc_bucket;
    for (int t = 0; t < TAGS; t++) begin
        if (tk_reg && tk_tag_reg == TAG_W'(t)) begin
            bucket_reg[t] <= lk_bucket;
            stale_reg[t] <= 1'b0;
        end else begin
            stale_reg[t] <= stale_reg[t] || hit[t];
        end
    end
    rd_pend_reg <= chg_log;
    if (rd_load) begin
        rd_clean_reg <= !rd_stale;
        rd_bucket_reg <= rd_bucket;
    end else begin
        rd_clean_reg <= rd_clean;
    end
    if (rst) begin
        tk_reg <= 1'b0;
        stale_reg <= '1;
        rd_clean_reg <= 1'b0;
        rd_pend_reg <= 1'b0;
    end
end

`ifdef FORMAL
// Against a reference for one tag (f_tag): its lookup's bucket, and whether a change was
// logged in that bucket after the lookup's clock; the same for the word read last, from its
// read on. rd_clean must imply no such change before its clock (it may be pessimistic, never
// optimistic).
logic f_past_reg = 1'b0;
logic f_dc_reg = 1'b0;                   // a command was taken since reset
logic [BUCKET_BITS-1:0] f_cmd_bkt_reg;   // ... the last one's bucket
logic f_tk_reg = 1'b0;                   // f_tag's lookup was accepted last clock
logic f_taken_reg = 1'b0;                // f_tag was looked up since reset
logic [BUCKET_BITS-1:0] f_bkt_reg;       // ... in this bucket
logic f_chg_reg;                         // ... and a change was logged in it since
logic f_rd_reg = 1'b0;                   // the word read last is f_tag's
logic f_rd_dirty_reg;                    // ... and a change was logged in its bucket since its lookup
logic [BUCKET_BITS-1:0] f_rd_bkt_reg;
logic [BUCKET_BITS-1:0] f_bkt;           // f_tag's bucket (this clock's, the clock after the lookup)
logic f_chg_f, f_chg_rd;                 // this clock's change is in f_tag's / the word's bucket
logic [TAG_W-1:0] f_tag;
fs_anyconst #(.WIDTH(TAG_W)) f_tag_const (.value(f_tag));   // (simulation: 0)
assign f_bkt = f_tk_reg ? lk_bucket : f_bkt_reg;
assign f_chg_f = chg_log && f_cmd_bkt_reg == f_bkt;
assign f_chg_rd = chg_log && f_cmd_bkt_reg == f_rd_bkt_reg;

always_ff @(posedge clk) begin
    f_past_reg <= !rst;
    if (dc_take) begin
        f_dc_reg <= 1'b1;
        f_cmd_bkt_reg <= dc_bucket;
    end
    f_tk_reg <= lk_take && lk_tag == f_tag;
    if (f_tk_reg) f_bkt_reg <= lk_bucket;
    if (f_chg_f) f_chg_reg <= 1'b1;
    if (lk_take && lk_tag == f_tag) begin
        f_taken_reg <= 1'b1;
        f_chg_reg <= 1'b0;
    end
    if (f_chg_rd) f_rd_dirty_reg <= 1'b1;
    if (rd_load) begin
        f_rd_reg <= rd_tag == f_tag;
        f_rd_dirty_reg <= !f_taken_reg || f_chg_reg || f_chg_f;
        f_rd_bkt_reg <= f_bkt;
    end
    if (rst) begin
        f_dc_reg <= 1'b0;
        f_tk_reg <= 1'b0;
        f_taken_reg <= 1'b0;
        f_rd_reg <= 1'b0;
    end
end

always_comb begin
    if (!rst) begin
        // the top reads a caller's word long after its lookup (tags are unique in flight)
        if (rd_load) a_rd_take: assume (!(lk_take && rd_tag == lk_tag) &&
                                        !(tk_reg && rd_tag == tk_tag_reg));
        // fs_flt_forward logs a change after its command was taken, never in a take's clock
        // (one command at a time) nor the clock after a lookup (the table's command and
        // lookup exclusion; see above)
        if (chg_log) a_log: assume (f_dc_reg && !dc_take && !tk_reg);
    end
end
always_ff @(posedge clk) begin
    if (f_past_reg && !rst) begin
        if (f_dc_reg) p_inv_cmd: assert (chg_bucket_reg == f_cmd_bkt_reg);
        if (f_taken_reg && !f_tk_reg) p_inv_bkt: assert (bucket_reg[f_tag] == f_bkt_reg);
        p_inv_tk: assert (f_tk_reg == (tk_reg && tk_tag_reg == f_tag));
        p_inv_pend: assert (rd_pend_reg == $past(chg_log));
        if (!stale_reg[f_tag] && !f_tk_reg) p_fresh: assert (f_taken_reg && !f_chg_reg);
        if (f_rd_reg && rd_clean) p_clean: assert (!f_rd_dirty_reg);
        if (f_rd_reg && rd_clean_reg) p_inv_rd: assert (rd_bucket_reg == f_rd_bkt_reg &&
                                                         (!f_rd_dirty_reg || rd_pend_reg));
        // a clean answer beside a change in another bucket; a read made stale after it
        c_clean: cover (f_rd_reg && rd_clean && rd_pend_reg);
        c_stale_late: cover (f_rd_reg && !rd_clean && $past(f_rd_reg && rd_clean));
    end
end
`endif

endmodule

`resetall
