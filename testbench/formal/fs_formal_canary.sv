`default_nettype none
// A known answer for scripts/formal.sh's solvers (CTest formal_canary_*): with the counter
// stepping on a free input, p_below_three first fails in step 3, c_five is first reached in
// step 5 and c_apart never; p_twin holds. Every solver must report exactly that. With
// twin_next cut (canary_cut.ys, as the project's flows cut the data), p_twin fails in step 1,
// and the counterexample's trace must hold the cut's values (CTest formal_canary_cut_*).
module fs_formal_canary (
    input wire clk,
    input wire step_en
);
  reg [3:0] cnt_reg = 4'd0;
  reg [3:0] twin_reg = 4'd0;
  wire [3:0] twin_next = twin_reg + 4'd1;
  always @(posedge clk) begin
    if (step_en) begin
      cnt_reg <= cnt_reg + 4'd1;
      twin_reg <= twin_next;
    end
  end
`ifdef FORMAL
  always @* begin
    p_below_three: assert (cnt_reg < 4'd3);
    p_twin: assert (twin_reg == cnt_reg);
    c_five: cover (cnt_reg == 4'd5);
    c_apart: cover (twin_reg != cnt_reg);
  end
`endif
endmodule
