`default_nettype none
// A known answer for scripts/formal.sh's solvers (CTest formal_canary_*): with the counter
// stepping on a free input, p_below_three first fails in step 3, c_five is first reached in
// step 5 and c_apart never; p_twin holds. Every solver must report exactly that.
module fs_formal_canary (
    input wire clk,
    input wire step_en
);
  reg [3:0] cnt_reg = 4'd0;
  reg [3:0] twin_reg = 4'd0;
  always @(posedge clk) begin
    if (step_en) begin
      cnt_reg <= cnt_reg + 4'd1;
      twin_reg <= twin_reg + 4'd1;
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
