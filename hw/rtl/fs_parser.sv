`resetall
`timescale 1ns / 1ps
`default_nettype none

// Header parser: AXI4-Stream frames in, exactly one parse record per frame out.
// Captures the first 128 bytes of each frame (the header window of flowsteer::nic) and
// classifies it with the same checks, in the same order, as nic::parse_frame: Ethernet,
// up to two 802.1Q/802.1ad tags, IPv4 (options, fragments, malformed headers), IPv6 with
// up to two extension headers (0, 43, 60) and the fragment header, TCP/UDP ports.
// A check that needs bytes [off, off+n) fails with TRUNCATED when the frame is shorter than
// off+n, else with UNSUPPORTED when off+n is past the window.
// Frame length: KEEP_WIDTH bytes per beat, the last beat counts the leading ones of tkeep.
// s_axis_tready is low only while the record output is stalled, so the parser never hangs.
// Record latency: 7 clocks after the tlast beat is accepted.
module fs_parser #(
    // AXI4-Stream data width in bits: 64, 128, 256, 512 or 1024
    parameter integer DATA_WIDTH = 512,
    // tkeep width (bytes per beat)
    parameter integer KEEP_WIDTH = DATA_WIDTH / 8,
    // tuser width, sampled on the tlast beat and returned with the record
    parameter integer USER_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    // frames
    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [USER_WIDTH-1:0] s_axis_tuser,

    // parse records
    output wire                  m_rec_valid,
    input  wire                  m_rec_ready,
    output wire [3:0]            m_rec_class,     // enum parse_class
    output wire                  m_rec_ipv6,      // family 6 (valid for IP classes)
    output wire                  m_rec_ports,     // TCP/UDP ports valid
    output wire [7:0]            m_rec_proto,
    output wire [127:0]          m_rec_src,       // byte 0 in [127:120]; IPv4 in [127:96]
    output wire [127:0]          m_rec_dst,
    output wire [15:0]           m_rec_sport,
    output wire [15:0]           m_rec_dport,
    output wire [1:0]            m_rec_vlan_tags,
    output wire [7:0]            m_rec_l3_offset,
    output wire [7:0]            m_rec_l4_offset,
    output wire [15:0]           m_rec_len,       // frame length, saturated at 65535
    output wire [USER_WIDTH-1:0] m_rec_user
`ifdef FORMAL
    ,
    // formal: the frames held (tlast taken, record not yet taken), for fs_nic_front's invariant
    output wire [7:0]            f_items
`endif
);

`include "flowsteer_regs.vh"

localparam integer WIN = 128;                       // header window, bytes
localparam integer NBEATS = WIN / KEEP_WIDTH;       // beats that fill the window
localparam integer BEAT_BITS = (NBEATS > 1) ? $clog2(NBEATS + 1) : 1;
localparam integer CNT_BITS = $clog2(KEEP_WIDTH + 1);
localparam integer NST = 7;                         // pipeline stages after the capture

localparam [3:0] C_V4TCP = 4'(FS_PARSE_CLASS_IPV4_TCP);
localparam [3:0] C_V4UDP = 4'(FS_PARSE_CLASS_IPV4_UDP);
localparam [3:0] C_V4OTH = 4'(FS_PARSE_CLASS_IPV4_OTHER);
localparam [3:0] C_V6TCP = 4'(FS_PARSE_CLASS_IPV6_TCP);
localparam [3:0] C_V6UDP = 4'(FS_PARSE_CLASS_IPV6_UDP);
localparam [3:0] C_V6OTH = 4'(FS_PARSE_CLASS_IPV6_OTHER);
localparam [3:0] C_V4FRG = 4'(FS_PARSE_CLASS_IPV4_FRAGMENT);
localparam [3:0] C_V6FRG = 4'(FS_PARSE_CLASS_IPV6_FRAGMENT);
localparam [3:0] C_NONIP = 4'(FS_PARSE_CLASS_NON_IP);
localparam [3:0] C_TRUNC = 4'(FS_PARSE_CLASS_TRUNCATED);
localparam [3:0] C_MALF  = 4'(FS_PARSE_CLASS_MALFORMED);
localparam [3:0] C_UNSUP = 4'(FS_PARSE_CLASS_UNSUPPORTED);

`ifdef VERILATOR
if (DATA_WIDTH < 64 || DATA_WIDTH > 1024 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0 ||
    KEEP_WIDTH * 8 != DATA_WIDTH) begin : g_bad_param
    $error("fs_parser: DATA_WIDTH must be a power of two in 64..1024, KEEP_WIDTH = DATA_WIDTH/8");
end
`endif

// need(off, n) of the model: [off, off+n) must lie inside the frame (else TRUNCATED) and
// inside the window (else UNSUPPORTED). For each n the walk tests (need k: n = LEN_N[k],
// k < NNEED) it carries the rooms len - off - n and WIN - off - n as registers, so a test is a
// sign bit and a move over an extension header subtracts the same amount from every room:
// no compare of two variables (a carry chain in front of the class decision) is on the walk's
// path. The same rooms at off = l3 give the Ethernet and IP header length checks (n = 0,
// 20, 40); they start in stage 1 as the length before the last beat minus l3 + n, to which
// stage 2 adds the last beat's bytes (one two-operand add, its sign the check).
localparam integer NNEED = 4;
localparam integer NLEN = 5;
localparam integer RLEN_BITS = 18;   // len - off - n, signed (len < 2^17 unsaturated)
localparam integer RWIN_BITS = 15;   // WIN - off - n, signed (off < 2^13)
localparam [NLEN*6-1:0] LEN_N = {6'd40, 6'd20, 6'd8, 6'd2, 6'd0};
localparam integer N0 = 0, N2 = 1, N8 = 2, N20 = 3, N40 = 4;   // k of n = 0, 2, 8, 20, 40

// ---------------------------------------------------------------- pipeline control
logic [NST-1:0] valid_reg = '0;
logic ce;
assign ce = !valid_reg[NST-1] || m_rec_ready;
assign s_axis_tready = ce;

wire beat = s_axis_tvalid && ce;

// ---------------------------------------------------------------- capture
logic [8*WIN-1:0] cap_win_reg;     // byte 0 in the MSBs
logic [8*WIN-1:0] cap_win_next;
logic [BEAT_BITS-1:0] cap_beat_reg = '0;
logic [15:0] cap_len_reg = '0;
logic [CNT_BITS-1:0] beat_bytes;
logic [16:0] full_sum;
logic [15:0] full_next;    // length after a full (non-last) beat

logic [KEEP_WIDTH-1:0] first_zero;   // one-hot: the lowest clear tkeep bit (0 if none)
assign first_zero = ~s_axis_tkeep & (s_axis_tkeep + 1'b1);

always_comb begin
    // bytes of this beat: all of them, or the leading ones of tkeep on the last beat
    // (one-hot to binary by OR trees, not a priority chain)
    beat_bytes = CNT_BITS'(KEEP_WIDTH);
    if (s_axis_tlast && (first_zero != '0)) begin
        beat_bytes = '0;
        for (int k = 0; k < KEEP_WIDTH; k++) begin
            beat_bytes = beat_bytes | (first_zero[k] ? CNT_BITS'(k) : '0);
        end
    end
    // tkeep only matters on the last beat; its byte count is added in stage 2
    full_sum = {1'b0, cap_len_reg} + 17'(KEEP_WIDTH);
    full_next = full_sum[16] ? 16'hffff : full_sum[15:0];

    cap_win_next = cap_win_reg;
    for (int b = 0; b < NBEATS; b++) begin
        if (cap_beat_reg == BEAT_BITS'(b)) begin
            for (int k = 0; k < KEEP_WIDTH; k++) begin
                cap_win_next[8*WIN-8-8*(b*KEEP_WIDTH+k) +: 8] = s_axis_tdata[8*k +: 8];
            end
        end
    end
end

always_ff @(posedge clk) begin
    if (beat) begin
        cap_win_reg <= cap_win_next;
        if (s_axis_tlast) begin
            cap_beat_reg <= '0;
            cap_len_reg <= '0;
        end else begin
            if (cap_beat_reg != BEAT_BITS'(NBEATS)) begin
                cap_beat_reg <= cap_beat_reg + 1'b1;
            end
            cap_len_reg <= full_next;
        end
    end
    if (rst) begin
        cap_beat_reg <= '0;
        cap_len_reg <= '0;
    end
end

// ---------------------------------------------------------------- stage 1: frame complete
logic [8*WIN-1:0] s1_win_reg;
logic [15:0] s1_base_reg;           // bytes before the last beat
logic [CNT_BITS-1:0] s1_bytes_reg;   // bytes of the last beat
logic [USER_WIDTH*NST-1:0] user_reg;
logic [3*NLEN*RLEN_BITS-1:0] s1_basem_reg;   // bytes before the last beat - l3 - n

always_ff @(posedge clk) begin
    if (ce) begin
        for (int c = 0; c < 3; c++) begin     // l3 = 14, 18, 22
            for (int k = 0; k < NLEN; k++) begin
                s1_basem_reg[(c*NLEN+k)*RLEN_BITS +: RLEN_BITS] <=
                    RLEN_BITS'(cap_len_reg) - RLEN_BITS'(14 + 4 * c) - RLEN_BITS'(LEN_N[6*k +: 6]);
            end
        end
    end
end

always_ff @(posedge clk) begin
    if (ce) begin
        valid_reg <= {valid_reg[NST-2:0], beat && s_axis_tlast};
        s1_win_reg <= cap_win_next;
        s1_base_reg <= cap_len_reg;
        s1_bytes_reg <= beat_bytes;
        user_reg <= {user_reg[USER_WIDTH*(NST-1)-1:0], s_axis_tuser};
    end
    if (rst) begin
        valid_reg <= '0;
    end
end

// byte i of a window
`define FS_BYTE(w, i) w[8*WIN-8-8*(i) +: 8]

// the next header's kinds the walk branches on, decoded the clock before it is read
localparam integer NH_TCP = 4, NH_UDP = 3, NH_EXT = 2, NH_FRAG = 1, NH_UNSUP = 0;
function automatic logic [4:0] nh_decode(input logic [7:0] nh);
    nh_decode[NH_TCP] = (nh == 8'd6);
    nh_decode[NH_UDP] = (nh == 8'd17);
    nh_decode[NH_EXT] = (nh == 8'd0) || (nh == 8'd43) || (nh == 8'd60);
    nh_decode[NH_FRAG] = (nh == 8'd44);
    nh_decode[NH_UNSUP] = (nh == 8'd135) || (nh == 8'd139) || (nh == 8'd140) ||
                          (nh == 8'd253) || (nh == 8'd254);
endfunction

// ---------------------------------------------------------------- stage 2: Ethernet + VLAN
logic [8*WIN-1:0] s2_win_reg;
logic [15:0] s2_len_reg;
logic [1:0] s2_tags_reg;
logic [4:0] s2_l3_reg;
logic s2_v4_reg, s2_v6_reg, s2_done_reg;
logic [3:0] s2_cls_reg;
logic s2_lt40_reg;                 // len < l3 + 40 (an IPv6 header; len < l3 + 20 is the sign
                                   // of s2_rlen_reg's N20 room)
logic [3:0] s2_lenq_reg;           // min((len - l3) / 4, 15): len < l3 + IHL * 4 is lenq < IHL
logic [NNEED*RLEN_BITS-1:0] s2_rlen_reg;   // len - l3 - n
logic [NNEED*RWIN_BITS-1:0] s2_rwin_reg;   // WIN - l3 - n
logic s2_v4bad_reg;                // IPv4: version != 4, IHL < 5 or total length < IHL * 4
logic s2_v6bad_reg;                // IPv6: version != 6
logic s2_frag_reg;                 // IPv4: MF set or a fragment offset
logic s2_l4ports_reg;              // IPv4: protocol TCP or UDP
logic [8*40-1:0] s2_iph_reg;       // bytes l3 .. l3+39 (the IPv6 header; IPv4 uses 20)

logic [16:0] s1_sum;
logic [15:0] s1_len;   // frame length (saturated), from the stage-1 registers
assign s1_sum = {1'b0, s1_base_reg} + 17'(s1_bytes_reg);
assign s1_len = s1_sum[16] ? 16'hffff : s1_sum[15:0];

logic [15:0] et0, et1, et2;
logic vlan0, vlan1;
always_comb begin
    et0 = {`FS_BYTE(s1_win_reg, 12), `FS_BYTE(s1_win_reg, 13)};
    et1 = {`FS_BYTE(s1_win_reg, 16), `FS_BYTE(s1_win_reg, 17)};
    et2 = {`FS_BYTE(s1_win_reg, 20), `FS_BYTE(s1_win_reg, 21)};
    vlan0 = (et0 == 16'h8100) || (et0 == 16'h88a8);
    vlan1 = (et1 == 16'h8100) || (et1 == 16'h88a8);
end

// Stage 3's IP header checks and rooms, computed here for each of the three places the
// header can start (l3 = 14, 18, 22: 0, 1 or 2 tags) and selected by the tags: stage 3 then
// reads registered verdicts (its header checks behind a compare were 7 LUT levels). The
// lengths are unsaturated (the same answers: every bound is far below 2^16).
logic [2:0] c_v4bad, c_v6bad, c_frag, c_l4ports;
logic [3*4-1:0] c_lenq;
logic [3*NLEN*RLEN_BITS-1:0] c_rlen;   // len - l3 - n
logic [2:0] c_short;                   // len < l3
for (genvar c = 0; c < 3; c++) begin : g_l3
    localparam integer L3 = 14 + 4 * c;
    logic [7:0] vb, pr;
    logic [15:2] tot;             // total length / 4
    logic [13:0] frg;             // MF and the fragment offset
    logic [RLEN_BITS-1:2] rl3;    // (len - l3) / 4
    assign vb = `FS_BYTE(s1_win_reg, L3);
    assign tot = {`FS_BYTE(s1_win_reg, L3 + 2), s1_win_reg[8*WIN-8-8*(L3+3)+2 +: 6]};
    assign frg = 14'({`FS_BYTE(s1_win_reg, L3 + 6), `FS_BYTE(s1_win_reg, L3 + 7)});
    assign pr = `FS_BYTE(s1_win_reg, L3 + 9);
    // total length < IHL * 4 (at most 60): below 64 and its quarter below IHL
    assign c_v4bad[c] = (vb[7:4] != 4'd4) || (vb[3:0] < 4'd5) ||
                        (tot[15:6] == 10'd0 && tot[5:2] < vb[3:0]);
    assign c_v6bad[c] = (vb[7:4] != 4'd6);
    assign c_frag[c] = frg[13] || (frg[12:0] != 13'd0);
    assign c_l4ports[c] = (pr == 8'd6) || (pr == 8'd17);
    for (genvar k = 0; k < NLEN; k++) begin : g_len
        assign c_rlen[(c*NLEN+k)*RLEN_BITS +: RLEN_BITS] =
            s1_basem_reg[(c*NLEN+k)*RLEN_BITS +: RLEN_BITS] + RLEN_BITS'(s1_bytes_reg);
    end
    assign rl3 = c_rlen[(c*NLEN+N0)*RLEN_BITS + 2 +: RLEN_BITS-2];
    assign c_lenq[4*c +: 4] = (rl3[RLEN_BITS-1:6] == '0) ? rl3[5:2] : 4'd15;
    assign c_short[c] = rl3[RLEN_BITS-1];
end

// the candidate of the tags, as an AND-OR select of a one-hot (an indexed part-select
// made Yosys build a shifter behind a multiplier of the index)
logic [2:0] s1_at;   // one-hot: the IP header starts at 14, 18, 22
assign s1_at = {vlan0 && vlan1, vlan0 && !vlan1, !vlan0};
logic [3:0] s1_lenq;
logic s1_v4bad, s1_v6bad, s1_frag, s1_l4ports, s1_lt40;
logic [NNEED*RLEN_BITS-1:0] s1_rlen;
logic [NNEED*RWIN_BITS-1:0] s1_rwin;
always_comb begin
    s1_lenq = '0;
    {s1_v4bad, s1_v6bad, s1_frag, s1_l4ports, s1_lt40} = '0;
    s1_rlen = '0;
    s1_rwin = '0;
    for (int c = 0; c < 3; c++) begin
        if (s1_at[c]) begin
            s1_lenq = s1_lenq | c_lenq[4*c +: 4];
            s1_v4bad = s1_v4bad | c_v4bad[c];
            s1_v6bad = s1_v6bad | c_v6bad[c];
            s1_frag = s1_frag | c_frag[c];
            s1_l4ports = s1_l4ports | c_l4ports[c];
            s1_rlen = s1_rlen | c_rlen[NLEN*RLEN_BITS*c +: NNEED*RLEN_BITS];
            s1_lt40 = s1_lt40 | c_rlen[(c*NLEN+N40)*RLEN_BITS + RLEN_BITS-1];
            for (int k = 0; k < NNEED; k++) begin
                s1_rwin[k*RWIN_BITS +: RWIN_BITS] = s1_rwin[k*RWIN_BITS +: RWIN_BITS] |
                    (RWIN_BITS'(WIN - 14 - 4 * c) - RWIN_BITS'(LEN_N[6*k +: 6]));
            end
        end
    end
end

always_ff @(posedge clk) begin
    if (ce) begin
        s2_win_reg <= s1_win_reg;
        s2_len_reg <= s1_len;
        s2_lt40_reg <= s1_lt40;
        s2_lenq_reg <= s1_lenq;
        s2_v4bad_reg <= s1_v4bad;
        s2_v6bad_reg <= s1_v6bad;
        s2_frag_reg <= s1_frag;
        s2_l4ports_reg <= s1_l4ports;
        s2_rlen_reg <= s1_rlen;
        s2_rwin_reg <= s1_rwin;
        s2_iph_reg <= (vlan0 && vlan1) ? s1_win_reg[8*WIN-8*22-1 -: 8*40]
                                       : (vlan0 ? s1_win_reg[8*WIN-8*18-1 -: 8*40] : s1_win_reg[8*WIN-8*14-1 -: 8*40]);
        s2_done_reg <= 1'b1;
        s2_cls_reg <= C_NONIP;
        s2_v4_reg <= 1'b0;
        s2_v6_reg <= 1'b0;
        s2_tags_reg <= 2'd0;
        s2_l3_reg <= 5'd0;
        if (c_short[0]) begin           // len < 14
            s2_cls_reg <= C_TRUNC;
        end else if (vlan0 && c_short[1]) begin     // len < 18
            s2_cls_reg <= C_TRUNC;
        end else if (vlan0 && vlan1 && c_short[2]) begin    // len < 22
            s2_cls_reg <= C_TRUNC;
            s2_tags_reg <= 2'd1;
        end else begin
            if (vlan0 && vlan1) begin
                s2_tags_reg <= 2'd2;
                s2_l3_reg <= 5'd22;
                s2_v4_reg <= (et2 == 16'h0800);
                s2_v6_reg <= (et2 == 16'h86dd);
                s2_done_reg <= !((et2 == 16'h0800) || (et2 == 16'h86dd));
            end else if (vlan0) begin
                s2_tags_reg <= 2'd1;
                s2_l3_reg <= 5'd18;
                s2_v4_reg <= (et1 == 16'h0800);
                s2_v6_reg <= (et1 == 16'h86dd);
                s2_done_reg <= !((et1 == 16'h0800) || (et1 == 16'h86dd));
            end else begin
                s2_l3_reg <= 5'd14;
                s2_v4_reg <= (et0 == 16'h0800);
                s2_v6_reg <= (et0 == 16'h86dd);
                s2_done_reg <= !((et0 == 16'h0800) || (et0 == 16'h86dd));
            end
        end
    end
end

// ---------------------------------------------------------------- stage 3: IP header
// the IP header starts at byte 14, 18 or 22: stage 2 extracted it and checked it
logic [8*40-1:0] iph;
assign iph = s2_iph_reg;

`define FS_IPH(i) iph[8*40-8-8*(i) +: 8]

logic [3:0] ip_ihl;
logic [6:0] ip_hl;     // the IP header's length: IHL * 4 (IPv4) or 40 (IPv6)
logic [7:0] ip_nh;     // the first next header: the protocol (IPv4) or next header (IPv6)
always_comb begin
    ip_ihl = iph[8*40-5 -: 4];    // byte 0, low nibble
    ip_hl = s2_v4_reg ? {1'b0, ip_ihl, 2'b00} : 7'd40;
    ip_nh = s2_v4_reg ? `FS_IPH(9) : `FS_IPH(6);
end

// walker state: element 0 is written by stage 3, element k by step k (packed arrays)
logic [4*8*WIN-1:0] st_win_reg;
logic [4*16-1:0] st_len_reg;
logic [4*2-1:0] st_tags_reg;
logic [4*5-1:0] st_l3_reg;
logic [3:0] st_ipv6_reg;
logic [3:0] st_done_reg;
logic [4*4-1:0] st_cls_reg;
logic [4*8-1:0] st_proto_reg;
logic [4*8-1:0] st_nh_reg;
logic [4*5-1:0] st_nhd_reg;        // nh_decode(nh)
// nh_decode of the window's bytes 4k + 2, the first byte of each word a step can select (off
// is 2 mod 4): decoded once as the window enters the walk and carried with it, so a step's
// next class is a word select from registers, not a decode behind the select (ABC chained
// that decode to 7 LUT levels in the top)
// (8 bits per word, 3 of them 0, so the select's index is a shift like the word select's: with
// a 5-bit stride Yosys 0.23 failed to map the select in fs_nic_front and the kernel)
localparam integer NW = WIN / 4;
logic [4*8*NW-1:0] st_nhds_reg;
function automatic logic [8*NW-1:0] nhd_words(input logic [8*WIN-1:0] win);
    for (int k = 0; k < NW; k++) begin
        nhd_words[8*k +: 8] = {3'd0, nh_decode(win[8*WIN-1-8*(4*k+2) -: 8])};
    end
endfunction
logic [4*128-1:0] st_src_reg;
logic [4*128-1:0] st_dst_reg;
logic [4*13-1:0] st_off_reg;
logic [4*NNEED*RLEN_BITS-1:0] st_rlen_reg;   // len - off - n
logic [4*NNEED*RWIN_BITS-1:0] st_rwin_reg;   // WIN - off - n
logic [4*16-1:0] st_sport_reg;
logic [4*16-1:0] st_dport_reg;
logic [4*8-1:0] st_l4_reg;
logic [3:0] st_ports_reg;

always_ff @(posedge clk) begin
    if (ce) begin
        st_win_reg[8*WIN*0 +: 8*WIN] <= s2_win_reg;
        st_nhds_reg[8*NW*0 +: 8*NW] <= nhd_words(s2_win_reg);
        st_len_reg[16*0 +: 16] <= s2_len_reg;
        st_tags_reg[2*0 +: 2] <= s2_tags_reg;
        st_l3_reg[5*0 +: 5] <= s2_l3_reg;
        st_done_reg[0] <= 1'b1;
        st_cls_reg[4*0 +: 4] <= s2_cls_reg;
        st_ipv6_reg[0] <= s2_v6_reg;
        // the tuple fields are written whatever the checks say: a failed check gives a
        // non-IP class, whose tuple stage 7 clears, and the walk reads nh, off and the rooms
        // only when done is clear (so no field waits for the checks' priority chain)
        st_proto_reg[8*0 +: 8] <= s2_v4_reg ? `FS_IPH(9) : 8'd0;
        st_nh_reg[8*0 +: 8] <= ip_nh;
        st_nhd_reg[5*0 +: 5] <= nh_decode(ip_nh);
        st_src_reg[128*0 +: 128] <= s2_v4_reg ? {`FS_IPH(12), `FS_IPH(13), `FS_IPH(14), `FS_IPH(15), 96'd0}
                                              : iph[8*40-8*8-1 -: 128];
        st_dst_reg[128*0 +: 128] <= s2_v4_reg ? {`FS_IPH(16), `FS_IPH(17), `FS_IPH(18), `FS_IPH(19), 96'd0}
                                              : iph[8*40-8*24-1 -: 128];
        st_off_reg[13*0 +: 13] <= 13'(s2_l3_reg) + 13'(ip_hl);
        for (int k = 0; k < NNEED; k++) begin
            st_rlen_reg[k*RLEN_BITS +: RLEN_BITS] <= s2_rlen_reg[k*RLEN_BITS +: RLEN_BITS] - RLEN_BITS'(ip_hl);
            st_rwin_reg[k*RWIN_BITS +: RWIN_BITS] <= s2_rwin_reg[k*RWIN_BITS +: RWIN_BITS] - RWIN_BITS'(ip_hl);
        end
        st_sport_reg[16*0 +: 16] <= 16'd0;
        st_dport_reg[16*0 +: 16] <= 16'd0;
        st_l4_reg[8*0 +: 8] <= 8'd0;
        st_ports_reg[0] <= 1'b0;
        if (s2_done_reg) begin
            // Ethernet verdict stands
        end else if (s2_v4_reg) begin
            if (s2_rlen_reg[N20*RLEN_BITS + RLEN_BITS-1]) begin   // len < l3 + 20
                st_cls_reg[4*0 +: 4] <= C_TRUNC;
            end else if (s2_v4bad_reg) begin
                st_cls_reg[4*0 +: 4] <= C_MALF;
            end else if (s2_lenq_reg < ip_ihl) begin   // len < l3 + IHL * 4
                st_cls_reg[4*0 +: 4] <= C_TRUNC;
            end else if (s2_frag_reg) begin
                st_cls_reg[4*0 +: 4] <= C_V4FRG;
            end else if (s2_l4ports_reg) begin
                st_done_reg[0] <= 1'b0;    // ports: one step with next header = protocol at l4
            end else begin
                st_cls_reg[4*0 +: 4] <= C_V4OTH;
            end
        end else begin
            if (s2_lt40_reg) begin
                st_cls_reg[4*0 +: 4] <= C_TRUNC;
            end else if (s2_v6bad_reg) begin
                st_cls_reg[4*0 +: 4] <= C_MALF;
            end else begin
                st_done_reg[0] <= 1'b0;
            end
        end
    end
end

// ---------------------------------------------------------------- stages 4..6: L4 walk
// Each step looks at one next header at offset off (always 2 mod 4: l3 is 14, 18 or 22
// and every header length is a multiple of 4) and either finishes the record or moves
// over one IPv6 extension header. Steps: IPv4 ports; IPv6 ext 1, ext 2, final header.
// A step that is not done has made exactly gs moves, so "a third extension header" and
// "the previous step moved" are constants of the step. A move checks need(off, 2) itself
// but leaves need(off, hdrlen) to the next step (its room is the one the move computes);
// the next step checks it before anything else, so the order of checks is the model's.
// A move's results (off, nh, rooms) are written whether or not the step moves: a step
// that does not move sets done, and nothing after it reads them.
genvar gs;
generate
    for (gs = 0; gs < 3; gs = gs + 1) begin : g_step
        // the 4 bytes at off (off = 4*idx + 2); bytes past the window read as 0
        logic [8*WIN-1:0] wpad;       // bytes 2 .. WIN-1, then two zero bytes
        logic [31:0] w4;
        logic [7:0] b0, b1;
        logic [12:0] off;
        logic [7:0] nh;
        logic [4:0] nhd;
        logic [9:0] endn_hi;    // off / 8 + hdrlen + 1 (mod 2^10, as endn is mod 2^13)
        logic [12:0] endn;   // < 2^13: off <= WIN when a move is made, plus at most 2048 + 8
        logic [NNEED-1:0] tr, un;    // need k fails: past the frame, past the window
        logic pend_fail;
        assign off = st_off_reg[13*(gs) +: 13];
        assign nh = st_nh_reg[8*(gs) +: 8];
        assign nhd = st_nhd_reg[5*(gs) +: 5];
        assign wpad = {st_win_reg[8*WIN*(gs) +: 8*WIN-16], 16'd0};
        // the window as words in select order (word k: bytes 4k+2 .. 4k+5), then a 32-way
        // word select Yosys maps to wide multiplexers (MUXF7/MUXF8: 2 LUT levels; the
        // shifter it built from the computed offset before was 4-5)
        logic [32*(WIN/4)-1:0] words;
        for (genvar k = 0; k < WIN / 4; k++) begin : g_word
            assign words[32*k +: 32] = wpad[8*WIN-1-32*k -: 32];
        end
        assign w4 = words[32*off[6:2] +: 32];
        logic [8*NW-1:0] nhdw;        // this step's copy of the window's decoded next headers
        assign nhdw = st_nhds_reg[8*NW*(gs) +: 8*NW];
        assign b0 = w4[31:24];
        assign b1 = w4[23:16];
        // endn = off + (hdrlen + 1) * 8; the + 1 rides in as the carry of one two-operand add
        // (a third operand made a full-adder row in front of the carry chain, on the path
        // from the window's byte mux)
        assign endn_hi = 10'(({1'b0, off[12:3], 1'b1} + {3'd0, b1, 1'b1}) >> 1);
        assign endn = {endn_hi, off[2:0]};
        for (genvar k = 0; k < NNEED; k++) begin : g_need
            assign tr[k] = st_rlen_reg[((gs)*NNEED+k)*RLEN_BITS + RLEN_BITS-1];
            assign un[k] = st_rwin_reg[((gs)*NNEED+k)*RWIN_BITS + RWIN_BITS-1];
        end
        // the previous step's move: off is the extension header's end
        assign pend_fail = (gs != 0) && (tr[N0] || un[N0]);

        always_ff @(posedge clk) begin
            if (ce) begin
                st_win_reg[8*WIN*(gs+1) +: 8*WIN] <= st_win_reg[8*WIN*(gs) +: 8*WIN];
                st_nhds_reg[8*NW*(gs+1) +: 8*NW] <= st_nhds_reg[8*NW*(gs) +: 8*NW];
                st_len_reg[16*(gs+1) +: 16] <= st_len_reg[16*(gs) +: 16];
                st_tags_reg[2*(gs+1) +: 2] <= st_tags_reg[2*(gs) +: 2];
                st_l3_reg[5*(gs+1) +: 5] <= st_l3_reg[5*(gs) +: 5];
                st_ipv6_reg[gs+1] <= st_ipv6_reg[gs];
                st_done_reg[gs+1] <= st_done_reg[gs];
                st_cls_reg[4*(gs+1) +: 4] <= st_cls_reg[4*(gs) +: 4];
                st_proto_reg[8*(gs+1) +: 8] <= st_proto_reg[8*(gs) +: 8];
                st_src_reg[128*(gs+1) +: 128] <= st_src_reg[128*(gs) +: 128];
                st_dst_reg[128*(gs+1) +: 128] <= st_dst_reg[128*(gs) +: 128];
                st_sport_reg[16*(gs+1) +: 16] <= st_sport_reg[16*(gs) +: 16];
                st_dport_reg[16*(gs+1) +: 16] <= st_dport_reg[16*(gs) +: 16];
                st_l4_reg[8*(gs+1) +: 8] <= st_l4_reg[8*(gs) +: 8];
                st_ports_reg[gs+1] <= st_ports_reg[gs];
                // a move's results: the header after this one, its end, the rooms left
                st_nh_reg[8*(gs+1) +: 8] <= b0;
                st_nhd_reg[5*(gs+1) +: 5] <= nhdw[8*off[6:2] +: 5];
                st_off_reg[13*(gs+1) +: 13] <= endn;
                for (int k = 0; k < NNEED; k++) begin
                    // room - (hdrlen + 1) * 8: the low 3 bits stay, -(b1 + 1) is ~b1
                    st_rlen_reg[((gs+1)*NNEED+k)*RLEN_BITS +: RLEN_BITS] <=
                        {st_rlen_reg[((gs)*NNEED+k)*RLEN_BITS + 3 +: RLEN_BITS-3] + {{(RLEN_BITS-11){1'b1}}, ~b1},
                         st_rlen_reg[((gs)*NNEED+k)*RLEN_BITS +: 3]};
                    st_rwin_reg[((gs+1)*NNEED+k)*RWIN_BITS +: RWIN_BITS] <=
                        {st_rwin_reg[((gs)*NNEED+k)*RWIN_BITS + 3 +: RWIN_BITS-3] + {{(RWIN_BITS-11){1'b1}}, ~b1},
                         st_rwin_reg[((gs)*NNEED+k)*RWIN_BITS +: 3]};
                end
                if (!st_done_reg[gs]) begin
                    st_done_reg[gs+1] <= 1'b1;
                    if (pend_fail) begin
                        st_cls_reg[4*(gs+1) +: 4] <= tr[N0] ? C_TRUNC : C_UNSUP;
                    end else if (nhd[NH_TCP] || nhd[NH_UDP]) begin
                        if (nhd[NH_TCP] ? (tr[N20] || un[N20]) : (tr[N8] || un[N8])) begin
                            st_cls_reg[4*(gs+1) +: 4] <= (nhd[NH_TCP] ? tr[N20] : tr[N8]) ? C_TRUNC : C_UNSUP;
                        end else begin
                            st_cls_reg[4*(gs+1) +: 4] <= st_ipv6_reg[gs] ? (nhd[NH_TCP] ? C_V6TCP : C_V6UDP)
                                                                 : (nhd[NH_TCP] ? C_V4TCP : C_V4UDP);
                            st_proto_reg[8*(gs+1) +: 8] <= nh;
                            st_sport_reg[16*(gs+1) +: 16] <= w4[31:16];
                            st_dport_reg[16*(gs+1) +: 16] <= w4[15:0];
                            st_l4_reg[8*(gs+1) +: 8] <= 8'(off);
                            st_ports_reg[gs+1] <= 1'b1;
                        end
                    end else if (nhd[NH_EXT]) begin
                        if (gs == 2) begin   // a third extension header
                            st_cls_reg[4*(gs+1) +: 4] <= C_UNSUP;
                        end else if (tr[N2] || un[N2]) begin
                            st_cls_reg[4*(gs+1) +: 4] <= tr[N2] ? C_TRUNC : C_UNSUP;
                        end else begin
                            st_done_reg[gs+1] <= 1'b0;
                        end
                    end else if (nhd[NH_FRAG]) begin
                        if (tr[N8] || un[N8]) begin
                            st_cls_reg[4*(gs+1) +: 4] <= tr[N8] ? C_TRUNC : C_UNSUP;
                        end else begin
                            st_cls_reg[4*(gs+1) +: 4] <= C_V6FRG;
                            st_proto_reg[8*(gs+1) +: 8] <= b0;
                        end
                    end else if (nhd[NH_UNSUP]) begin
                        st_cls_reg[4*(gs+1) +: 4] <= C_UNSUP;
                    end else begin
                        st_cls_reg[4*(gs+1) +: 4] <= C_V6OTH;
                        st_proto_reg[8*(gs+1) +: 8] <= nh;
                    end
                end
            end
        end
    end
endgenerate

// ---------------------------------------------------------------- stage 7: record
logic [3:0] r_cls_reg;
logic r_ipv6_reg, r_ports_reg;
logic [7:0] r_proto_reg, r_l3_reg, r_l4_reg;
logic [127:0] r_src_reg, r_dst_reg;
logic [15:0] r_sport_reg, r_dport_reg, r_len_reg;
logic [1:0] r_tags_reg;
logic r_ip;

// IP classes are 0..7; every other class carries an empty tuple (as the model's finish())
assign r_ip = (st_cls_reg[4*3 +: 4] <= C_V6FRG);

always_ff @(posedge clk) begin
    if (ce) begin
        // a walk that never finished cannot happen (the third step always finishes)
        r_cls_reg <= st_cls_reg[4*3 +: 4];
        r_ipv6_reg <= r_ip && st_ipv6_reg[3];
        r_ports_reg <= r_ip && st_ports_reg[3];
        r_proto_reg <= r_ip ? st_proto_reg[8*3 +: 8] : 8'd0;
        r_src_reg <= r_ip ? st_src_reg[128*3 +: 128] : 128'd0;
        r_dst_reg <= r_ip ? st_dst_reg[128*3 +: 128] : 128'd0;
        r_sport_reg <= r_ip ? st_sport_reg[16*3 +: 16] : 16'd0;
        r_dport_reg <= r_ip ? st_dport_reg[16*3 +: 16] : 16'd0;
        r_l4_reg <= r_ip ? st_l4_reg[8*3 +: 8] : 8'd0;
        r_l3_reg <= 8'(st_l3_reg[5*3 +: 5]);
        r_tags_reg <= st_tags_reg[2*3 +: 2];
        r_len_reg <= st_len_reg[16*3 +: 16];
    end
end

assign m_rec_valid = valid_reg[NST-1];
assign m_rec_class = r_cls_reg;
assign m_rec_ipv6 = r_ipv6_reg;
assign m_rec_ports = r_ports_reg;
assign m_rec_proto = r_proto_reg;
assign m_rec_src = r_src_reg;
assign m_rec_dst = r_dst_reg;
assign m_rec_sport = r_sport_reg;
assign m_rec_dport = r_dport_reg;
assign m_rec_vlan_tags = r_tags_reg;
assign m_rec_l3_offset = r_l3_reg;
assign m_rec_l4_offset = r_l4_reg;
assign m_rec_len = r_len_reg;
assign m_rec_user = user_reg[USER_WIDTH*(NST-1) +: USER_WIDTH];

// the last step's window, offset, rooms and next header have no further use (and the
// version nibble, TOS, total length, IP id and fragment field reach stage 3 as stage 2's verdicts)
wire unused_parser = &{1'b0, st_win_reg[8*WIN*3 +: 8*WIN], st_nhds_reg[8*NW*3 +: 8*NW], st_off_reg[13*3 +: 13],
                       st_rlen_reg[3*NNEED*RLEN_BITS +: NNEED*RLEN_BITS],
                       st_rwin_reg[3*NNEED*RWIN_BITS +: NNEED*RWIN_BITS],
                       st_nh_reg[8*3 +: 8], st_nhd_reg[5*3 +: 5], st_done_reg[3],
                       `FS_IPH(0), `FS_IPH(1), `FS_IPH(2), `FS_IPH(3), `FS_IPH(4), `FS_IPH(5),
                       `FS_IPH(7)};

`undef FS_BYTE
`undef FS_IPH

`ifdef FORMAL
// stream rules on both ports (hw/formal)
fs_axis_check #(.WIDTH(DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst),
    .valid(s_axis_tvalid), .ready(s_axis_tready), .data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}));
fs_axis_check #(.WIDTH(4 + 2 + 8 + 256 + 32 + 2 + 16 + 16 + USER_WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst),
    .valid(m_rec_valid), .ready(m_rec_ready),
    .data({m_rec_class, m_rec_ipv6, m_rec_ports, m_rec_proto, m_rec_src, m_rec_dst, m_rec_sport, m_rec_dport,
           m_rec_vlan_tags, m_rec_l3_offset, m_rec_l4_offset, m_rec_len, m_rec_user}));
assign f_items = 8'($countones(valid_reg));
`endif

endmodule

`resetall
