`resetall
`timescale 1ns / 1ps
`default_nettype none

// Register slice (skid buffer) for a valid/ready stream: s_ready and every output are
// registers, so neither the ready path nor the data path crosses it combinationally.
// One item per clock at full rate; latency 1; holds up to two items.
module fs_skid #(
    // payload width
    parameter integer WIDTH = 32
) (
    input  wire             clk,
    input  wire             rst,

    input  wire             s_valid,
    output wire             s_ready,
    input  wire [WIDTH-1:0] s_data,

    output wire             m_valid,
    input  wire             m_ready,
    output wire [WIDTH-1:0] m_data
`ifdef FORMAL
    ,
    // formal: the items held (the output and the skid register), for its users' invariants
    output wire [1:0]       f_items
`endif
);

logic m_valid_reg = 1'b0;
logic skid_valid_reg = 1'b0;
logic [WIDTH-1:0] m_data_reg;
logic [WIDTH-1:0] skid_data_reg;

always_ff @(posedge clk) begin
    if (m_ready || !m_valid_reg) begin
        // the output register is free this clock: refill it, from the skid register first
        if (skid_valid_reg) begin
            m_data_reg <= skid_data_reg;
            m_valid_reg <= 1'b1;
            skid_valid_reg <= 1'b0;
        end else begin
            m_data_reg <= s_data;
            m_valid_reg <= s_valid;
        end
    end else if (s_valid && !skid_valid_reg) begin
        // output stalled: park the accepted item
        skid_data_reg <= s_data;
        skid_valid_reg <= 1'b1;
    end
    if (rst) begin
        m_valid_reg <= 1'b0;
        skid_valid_reg <= 1'b0;
    end
end

assign s_ready = !skid_valid_reg;
assign m_valid = m_valid_reg;
assign m_data = m_data_reg;

`ifdef FORMAL
assign f_items = 2'(m_valid_reg) + 2'(skid_valid_reg);
fs_axis_check #(.WIDTH(WIDTH), .INPUT(1)) f_s (.clk(clk), .rst(rst), .valid(s_valid), .ready(s_ready), .data(s_data));
fs_axis_check #(.WIDTH(WIDTH), .INPUT(0)) f_m (.clk(clk), .rst(rst), .valid(m_valid), .ready(m_ready), .data(m_data));
`endif

endmodule

`resetall
