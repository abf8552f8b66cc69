`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Stream handshake rules on one valid/ready port (formal and simulation check, only
// compiled under FORMAL): once valid is high it stays high with the same data until ready;
// an output's valid is low the clock after reset (an input may rise at the first clock after
// it). INPUT = 1: the port is an input of the block, the rules are assumptions (in simulation:
// assertions on the bench); INPUT = 0: an output, asserted.
// Checks start once a reset has been seen.
module fs_axis_check #(
    // payload width (every field that must hold still, concatenated)
    parameter integer WIDTH = 1,
    // 1: input of the block (assume), 0: output (assert)
    parameter integer INPUT = 0
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             valid,
    input  wire             ready,
    input  wire [WIDTH-1:0] data
);

logic armed_reg = 1'b0;          // a reset was seen (checks start)
logic held_reg = 1'b0;           // valid && !ready last clock
logic [WIDTH-1:0] data_d1_reg;

always_ff @(posedge clk) begin
    held_reg <= valid && !ready && !rst;
    data_d1_reg <= data;
    if (rst) armed_reg <= 1'b1;
end

logic hold_ok;
assign hold_ok = !held_reg || (valid && data == data_d1_reg);

if (INPUT != 0) begin : g_in
    always_ff @(posedge clk) begin
        if (armed_reg && !rst) begin
            p_hold: assume (hold_ok);
        end
    end
end else begin : g_out
    logic was_rst_reg = 1'b0;
    always_ff @(posedge clk) begin
        was_rst_reg <= rst;
    end
    always_ff @(posedge clk) begin
        if (armed_reg && !rst) begin
            p_hold: assert (hold_ok);
            if (was_rst_reg) p_idle: assert (!valid);
        end
    end
end

always_ff @(posedge clk) begin
    if (armed_reg && !rst) begin
        c_stall: cover (held_reg && valid && ready);     // a back-pressured item leaves
    end
end

endmodule

`resetall
