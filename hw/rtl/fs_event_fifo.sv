`resetall
`timescale 1ns / 1ps
`default_nettype none

// Event FIFO of the steer driver: first-word-fall-through, exactly 2^DEPTH_LOG2 entries
// (the golden model's event_fifo_depth), one block RAM (fs_ram_sdp) and no extra storage.
// An entry stays in the RAM until it is popped; the RAM read register is the head.
// count counts every stored entry (head included) one clock after the push or pop;
// m_evt_valid rises 2 clocks after a push into an empty FIFO and falls (or shows the next
// entry) 1 clock after a pop. Nothing is dropped: s_evt_ready = count < 2^DEPTH_LOG2.
module fs_event_fifo #(
    // entry width in bits
    parameter integer DATA_WIDTH = 32,
    // log2 of the number of entries (>= 1)
    parameter integer DEPTH_LOG2 = 9
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_evt_valid,
    output wire                  s_evt_ready,
    input  wire [DATA_WIDTH-1:0] s_evt_data,

    output wire                  m_evt_valid,
    input  wire                  m_evt_ready,
    output wire [DATA_WIDTH-1:0] m_evt_data,

    output wire [DEPTH_LOG2:0]   count           // entries stored (0 .. 2^DEPTH_LOG2)
);

localparam [DEPTH_LOG2:0] DEPTH = (DEPTH_LOG2 + 1)'(1) << DEPTH_LOG2;

`ifdef VERILATOR
if (DEPTH_LOG2 < 1 || DATA_WIDTH < 1) begin : g_bad_param
    $error("fs_event_fifo: need DEPTH_LOG2 >= 1, DATA_WIDTH >= 1");
end
`endif

logic [DEPTH_LOG2-1:0] wr_ptr_reg = '0, wr_ptr_next;
logic [DEPTH_LOG2-1:0] rd_ptr_reg = '0, rd_ptr_next;
logic [DEPTH_LOG2:0] count_reg = '0, count_next;        // all stored entries
logic [DEPTH_LOG2:0] unread_reg = '0, unread_next;      // entries not yet in the read register
logic out_valid_reg = 1'b0, out_valid_next;

logic push, pop, rd_issue;

always_comb begin
    push = s_evt_valid && (count_reg != DEPTH);
    pop = out_valid_reg && m_evt_ready;
    // read the next entry when the head register is free or being freed; the address read
    // is never the one written in the same clock (unread >= 1 and a push needs count < DEPTH)
    rd_issue = (unread_reg != '0) && (!out_valid_reg || pop);

    wr_ptr_next = wr_ptr_reg;
    rd_ptr_next = rd_ptr_reg;
    count_next = count_reg;
    unread_next = unread_reg;
    out_valid_next = out_valid_reg;
    if (push) begin
        wr_ptr_next = wr_ptr_reg + 1'b1;
    end
    if (rd_issue) begin
        rd_ptr_next = rd_ptr_reg + 1'b1;
        out_valid_next = 1'b1;
    end else if (pop) begin
        out_valid_next = 1'b0;
    end
    if (push && !pop) begin
        count_next = count_reg + 1'b1;
    end else if (pop && !push) begin
        count_next = count_reg - 1'b1;
    end
    if (push && !rd_issue) begin
        unread_next = unread_reg + 1'b1;
    end else if (rd_issue && !push) begin
        unread_next = unread_reg - 1'b1;
    end
end

fs_ram_sdp #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(DEPTH_LOG2)
) evt_ram (
    .clk(clk),
    .wr_en(push),
    .wr_addr(wr_ptr_reg),
    .wr_data(s_evt_data),
    .rd_en(rd_issue),
    .rd_addr(rd_ptr_reg),
    .rd_data(m_evt_data)
);

always_ff @(posedge clk) begin
    wr_ptr_reg <= wr_ptr_next;
    rd_ptr_reg <= rd_ptr_next;
    count_reg <= count_next;
    unread_reg <= unread_next;
    out_valid_reg <= out_valid_next;
    if (rst) begin
        wr_ptr_reg <= '0;
        rd_ptr_reg <= '0;
        count_reg <= '0;
        unread_reg <= '0;
        out_valid_reg <= 1'b0;
    end
end

assign s_evt_ready = (count_reg != DEPTH);
assign m_evt_valid = out_valid_reg;
assign count = count_reg;

`ifdef FORMAL
// stream rules on both ports (hw/formal)
fs_axis_check #(.WIDTH(DATA_WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst), .valid(s_evt_valid),
    .ready(s_evt_ready), .data(s_evt_data));
fs_axis_check #(.WIDTH(DATA_WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst), .valid(m_evt_valid),
    .ready(m_evt_ready), .data(m_evt_data));
// the count: at most the depth, the unread entries plus the head (so a full FIFO refuses a
// push and a pop never meets an empty one)
always_comb begin
    if (!rst) begin
        p_count: assert (count_reg <= DEPTH &&
                         {1'b0, count_reg} == {1'b0, unread_reg} + (DEPTH_LOG2+2)'(out_valid_reg));
    end
end
`endif

endmodule

`resetall
