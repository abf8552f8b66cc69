`resetall
`timescale 1ns / 1ps
`default_nettype none

// Conservation between a frame input and an output that gives one item per frame (formal and
// simulation check, only compiled under FORMAL): the output offers an item only while a frame
// whose tlast beat was taken has no item yet, and at most MAX frames are between the two.
// inflight is that count (for the caller's own properties). Checks start once a reset was seen.
module fs_frames_check #(
    // the most frames the block holds between their tlast and their output item
    parameter integer MAX = 1,
    // width of the count (holds MAX and one more)
    parameter integer COUNT_WIDTH = 32
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   in_last,     // a frame's tlast beat is taken
    input  wire                   out_valid,
    input  wire                   out_ready,
    output wire [COUNT_WIDTH-1:0] inflight
);

logic armed_reg = 1'b0;
logic [COUNT_WIDTH-1:0] inflight_reg = '0;

always_ff @(posedge clk) begin
    inflight_reg <= inflight_reg + COUNT_WIDTH'(in_last) - COUNT_WIDTH'(out_valid && out_ready);
    if (rst) begin
        armed_reg <= 1'b1;
        inflight_reg <= '0;
    end
end

always_ff @(posedge clk) begin
    if (armed_reg && !rst) begin
        if (out_valid) p_has_frame: assert (inflight_reg != '0);
        p_bound: assert (32'(inflight_reg) <= MAX);
    end
end

assign inflight = inflight_reg;

endmodule

`resetall
