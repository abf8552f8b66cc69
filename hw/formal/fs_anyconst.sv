`resetall
`timescale 1ns / 1ps
`default_nettype none
// A free constant for a property: the solver picks any value and holds it for the whole
// trace. Verilator has no such value, so a simulation checks the property for value 0.
module fs_anyconst #(
    parameter integer WIDTH = 1
) (
    output wire [WIDTH-1:0] value
);
`ifdef VERILATOR
assign value = '0;
`else
(* anyconst *) logic [WIDTH-1:0] value_any;
assign value = value_any;
`endif
endmodule

`resetall
