`resetall
`timescale 1ns / 1ps
`default_nettype none

// Flow hash unit: one tuple per clock, fixed latency LATENCY, three runtime modes (spec 6):
//   0 Toeplitz over src, dst[, sport, dport]               (spec 6.5, MS RSS definition)
//   1 Toeplitz over (src^dst, dst^src[, sp^dp, dp^sp])      (ice symmetric-xor, spec 6.5)
//   2 jhash-sym: 2.6.35 sorted jhash_3words, lookup2 form, 0 becomes 1 (spec 6.1, 6.2)
// Addresses are in network order with byte 0 in the MSBs; an IPv4 address is in [127:96].
// Ports are used only when s_tuple_ports is set (TCP/UDP, not a fragment).
// The key and the seed are sampled two clocks after the tuple enters; change them only
// while no tuple is in flight.
module fs_hash #(
    // width of the user sideband carried alongside each tuple
    parameter integer USER_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    // configuration (quasi-static)
    input  wire [1:0]            cfg_mode,
    input  wire [319:0]          cfg_key,   // key bytes 0..39, byte 0 in [319:312]
    input  wire [31:0]           cfg_seed,

    // tuple input
    input  wire                  s_tuple_valid,
    output wire                  s_tuple_ready,
    input  wire                  s_tuple_ipv6,
    input  wire                  s_tuple_ports,
    input  wire [127:0]          s_tuple_src,
    input  wire [127:0]          s_tuple_dst,
    input  wire [15:0]           s_tuple_sport,
    input  wire [15:0]           s_tuple_dport,
    input  wire [USER_WIDTH-1:0] s_tuple_user,

    // hash output
    output wire                  m_hash_valid,
    input  wire                  m_hash_ready,
    output wire [31:0]           m_hash,
    output wire [USER_WIDTH-1:0] m_hash_user
`ifdef FORMAL
    ,
    // formal: the tuples held (taken, hash not yet taken), for fs_nic_front's invariant
    output wire [7:0]            f_items
`endif
);

`include "flowsteer_regs.vh"

// stages: 1 input/sort, 2 Toeplitz partials / jhash init, 3..11 jhash mix lines, 12 output
localparam integer LATENCY = 12;
localparam integer TIN_BITS = 288;   // longest Toeplitz input: 36 bytes (IPv6 + ports)
localparam integer NGROUP = 8;
localparam integer GROUP_BITS = TIN_BITS / NGROUP;
localparam [31:0] GOLDEN = 32'h9e3779b9;  // lookup2 initial value (spec 6.2)

logic [LATENCY-1:0] valid_reg = '0;
logic ce;

assign ce = !valid_reg[LATENCY-1] || m_hash_ready;
assign s_tuple_ready = ce;

// user sideband and mode travel with the tuple
logic [USER_WIDTH*LATENCY-1:0] user_reg;
logic [2*LATENCY-1:0] mode_reg;

always_ff @(posedge clk) begin
    if (ce) begin
        valid_reg <= {valid_reg[LATENCY-2:0], s_tuple_valid};
        user_reg <= {user_reg[USER_WIDTH*(LATENCY-1)-1:0], s_tuple_user};
        mode_reg <= {mode_reg[2*(LATENCY-1)-1:0], cfg_mode};
    end
    if (rst) begin
        valid_reg <= '0;
    end
end

// ---------------------------------------------------------------- Toeplitz path
logic symxor;
logic [127:0] t_src, t_dst;
logic [15:0] t_sport, t_dport;
logic [TIN_BITS-1:0] tin;

always_comb begin
    symxor = (cfg_mode == 2'(FS_HASH_MODE_TOEPLITZ_SYMXOR));
    t_src = symxor ? (s_tuple_src ^ s_tuple_dst) : s_tuple_src;
    t_dst = symxor ? (s_tuple_src ^ s_tuple_dst) : s_tuple_dst;
    t_sport = s_tuple_ports ? (symxor ? (s_tuple_sport ^ s_tuple_dport) : s_tuple_sport) : 16'd0;
    t_dport = s_tuple_ports ? (symxor ? (s_tuple_sport ^ s_tuple_dport) : s_tuple_dport) : 16'd0;
    if (s_tuple_ipv6) begin
        tin = {t_src, t_dst, t_sport, t_dport};
    end else begin
        tin = {t_src[127:96], t_dst[127:96], t_sport, t_dport, 192'd0};
    end
end

logic [TIN_BITS-1:0] tin_reg;
logic [32*NGROUP-1:0] part_next;
logic [32*NGROUP-1:0] part_reg;
logic [31:0] toep_next;
logic [32*(LATENCY-3)-1:0] toep_reg;   // Toeplitz result, stages 3..LATENCY-1

// input bit i (i = 0 is the first bit on the wire) selects key bits i .. i+31
always_comb begin
    part_next = '0;
    for (int g = 0; g < NGROUP; g++) begin
        for (int k = 0; k < GROUP_BITS; k++) begin
            part_next[32*g +: 32] = part_next[32*g +: 32] ^
                ({32{tin_reg[TIN_BITS-1-(g*GROUP_BITS+k)]}} & cfg_key[288-(g*GROUP_BITS+k) +: 32]);
        end
    end
    toep_next = '0;
    for (int g = 0; g < NGROUP; g++) begin
        toep_next = toep_next ^ part_reg[32*g +: 32];
    end
end

always_ff @(posedge clk) begin
    if (ce) begin
        tin_reg <= tin;
        part_reg <= part_next;
        toep_reg <= {toep_reg[32*(LATENCY-4)-1:0], toep_next};
    end
end

// ---------------------------------------------------------------- jhash-sym path
// The 2010 code reads the address words and the port pair natively on a little-endian
// host (spec 6.1): byte-swap the network-order fields, then sort each pair.
logic [31:0] j_a1, j_a2, j_p0, j_p1;

always_comb begin
    if (s_tuple_ipv6) begin
        j_a1 = {s_tuple_src[7:0], s_tuple_src[15:8], s_tuple_src[23:16], s_tuple_src[31:24]};
        j_a2 = {s_tuple_dst[7:0], s_tuple_dst[15:8], s_tuple_dst[23:16], s_tuple_dst[31:24]};
    end else begin
        j_a1 = {s_tuple_src[103:96], s_tuple_src[111:104], s_tuple_src[119:112], s_tuple_src[127:120]};
        j_a2 = {s_tuple_dst[103:96], s_tuple_dst[111:104], s_tuple_dst[119:112], s_tuple_dst[127:120]};
    end
    j_p0 = s_tuple_ports ? {16'd0, s_tuple_sport[7:0], s_tuple_sport[15:8]} : 32'd0;
    j_p1 = s_tuple_ports ? {16'd0, s_tuple_dport[7:0], s_tuple_dport[15:8]} : 32'd0;
end

logic [31:0] j_a1_reg, j_a2_reg;
logic [15:0] j_p0_reg, j_p1_reg;
logic j_aswap_reg, j_pswap_reg;

always_ff @(posedge clk) begin
    if (ce) begin
        j_a1_reg <= j_a1;
        j_a2_reg <= j_a2;
        j_p0_reg <= j_p0[15:0];
        j_p1_reg <= j_p1[15:0];
        j_aswap_reg <= (j_a2 < j_a1);
        j_pswap_reg <= (j_p1 < j_p0);
    end
end

// state after stage s (s = 0: initial values, s = 1..9: after mix line s)
logic [32*10-1:0] ja_reg, jb_reg, jc_reg;

always_ff @(posedge clk) begin
    if (ce) begin
        ja_reg[31:0] <= (j_aswap_reg ? j_a2_reg : j_a1_reg) + GOLDEN;
        jb_reg[31:0] <= (j_aswap_reg ? j_a1_reg : j_a2_reg) + GOLDEN;
        jc_reg[31:0] <= (j_pswap_reg ? {j_p0_reg, j_p1_reg} : {j_p1_reg, j_p0_reg}) + cfg_seed;
    end
end

// mix line s updates a (s % 3 == 0), b (1) or c (2): x -= y; x -= z; x ^= z >> n or y << n
genvar s;
generate
    for (s = 0; s < 9; s = s + 1) begin : g_mix
        localparam integer SH = (s == 0) ? 13 : (s == 1) ? 8 : (s == 2) ? 13 :
                                (s == 3) ? 12 : (s == 4) ? 16 : (s == 5) ? 5 :
                                (s == 6) ? 3 : (s == 7) ? 10 : 15;
        logic [31:0] a, b, c;
        assign a = ja_reg[32*s +: 32];
        assign b = jb_reg[32*s +: 32];
        assign c = jc_reg[32*s +: 32];
        always_ff @(posedge clk) begin
            if (ce) begin
                if (s % 3 == 0) begin
                    ja_reg[32*(s+1) +: 32] <= (a - b - c) ^ (c >> SH);
                    jb_reg[32*(s+1) +: 32] <= b;
                    jc_reg[32*(s+1) +: 32] <= c;
                end else if (s % 3 == 1) begin
                    ja_reg[32*(s+1) +: 32] <= a;
                    jb_reg[32*(s+1) +: 32] <= (b - c - a) ^ (a << SH);
                    jc_reg[32*(s+1) +: 32] <= c;
                end else begin
                    ja_reg[32*(s+1) +: 32] <= a;
                    jb_reg[32*(s+1) +: 32] <= b;
                    jc_reg[32*(s+1) +: 32] <= (c - a - b) ^ (b >> SH);
                end
            end
        end
    end
endgenerate

// ---------------------------------------------------------------- output stage
logic [31:0] jfinal;
logic [31:0] hash_reg;

assign jfinal = jc_reg[32*9 +: 32];

always_ff @(posedge clk) begin
    if (ce) begin
        if (mode_reg[2*(LATENCY-2) +: 2] == 2'(FS_HASH_MODE_JHASH_SYM)) begin
            hash_reg <= (jfinal == 32'd0) ? 32'd1 : jfinal;
        end else begin
            hash_reg <= toep_reg[32*(LATENCY-4) +: 32];
        end
    end
end

assign m_hash_valid = valid_reg[LATENCY-1];
assign m_hash = hash_reg;
assign m_hash_user = user_reg[USER_WIDTH*(LATENCY-1) +: USER_WIDTH];

// jhash returns c only (a and b after the last line are dead), the byte-swapped port
// words are 16 bits, and the mode is not needed after the output stage
wire unused_hash = &{1'b0, ja_reg[32*9 +: 32], jb_reg[32*9 +: 32], j_p0[31:16], j_p1[31:16],
                     mode_reg[2*(LATENCY-1) +: 2]};

`ifdef FORMAL
// stream rules on both ports (hw/formal)
fs_axis_check #(.WIDTH(2 + 128 + 128 + 32 + USER_WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst),
    .valid(s_tuple_valid), .ready(s_tuple_ready),
    .data({s_tuple_ipv6, s_tuple_ports, s_tuple_src, s_tuple_dst, s_tuple_sport, s_tuple_dport, s_tuple_user}));
fs_axis_check #(.WIDTH(32 + USER_WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst), .valid(m_hash_valid),
    .ready(m_hash_ready), .data({m_hash, m_hash_user}));
assign f_items = 8'($countones(valid_reg));
`endif

endmodule

`resetall
