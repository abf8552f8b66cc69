`default_nettype none
// Yosys techmap rule of scripts/formal.sh's ABC solvers: each cover becomes an assertion that
// it is never hit (same name), so a bounded check that "fails" it at step N reaches it there.
(* techmap_celltype = "$cover" *)
module fs_cover_as_assert (A, EN);
  input wire A, EN;
  \$assert _TECHMAP_REPLACE_ (.A(!A), .EN(EN));
endmodule
