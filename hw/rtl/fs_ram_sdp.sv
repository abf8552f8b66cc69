`resetall
`timescale 1ns / 1ps
`default_nettype none

// Simple dual-port RAM: one write port, one synchronous read port (read data one clock after
// an enabled read; held while rd_en is low). A read of the address being written returns
// the old contents. Contents are not reset and have no initial value, so the memory maps to
// block RAM, LUTRAM or UltraRAM (URAM288: one clock, synchronous read with enable, no init).
// ULTRA = 1 asks for UltraRAM (ram_style "ultra": Vivado infers URAM only when asked; Yosys
// synth_xilinx -uram maps it to URAM288); 0 leaves the choice to the tool.
module fs_ram_sdp #(
    // word width in bits
    parameter integer DATA_WIDTH = 32,
    // address width in bits (depth = 2^ADDR_WIDTH)
    parameter integer ADDR_WIDTH = 10,
    // 1: UltraRAM (the large tables)
    parameter integer ULTRA = 0
) (
    input  wire                  clk,

    input  wire                  wr_en,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [DATA_WIDTH-1:0] wr_data,

    input  wire                  rd_en,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    output wire [DATA_WIDTH-1:0] rd_data
);

logic [DATA_WIDTH-1:0] rd_data_reg;

`ifdef FORMAL
// Against one address (f_addr), the contract above: once it was written, a read of it gives
// the last value written before the read's clock, and the output holds while rd_en is low.
// (No reset: the reference starts empty, as the memory starts unknown.)
logic [ADDR_WIDTH-1:0] f_addr;
fs_anyconst #(.WIDTH(ADDR_WIDTH)) f_addr_const (.value(f_addr));   // (simulation: 0)
logic f_past_reg = 1'b0;
logic f_known_reg = 1'b0;             // f_addr was written
logic [DATA_WIDTH-1:0] f_val_reg;     // ... last with this value
logic f_rd_reg = 1'b0;                // rd_data is a read of f_addr made with f_known_reg
logic [DATA_WIDTH-1:0] f_rd_val_reg;  // ... so it must be this
logic f_en_reg = 1'b0;                // rd_en last clock
logic [DATA_WIDTH-1:0] f_data_reg;    // rd_data last clock
always_ff @(posedge clk) begin
    f_past_reg <= 1'b1;
    f_en_reg <= rd_en;
    f_data_reg <= rd_data;
    if (wr_en && wr_addr == f_addr) begin
        f_known_reg <= 1'b1;
        f_val_reg <= wr_data;
    end
    if (rd_en) begin
        f_rd_reg <= rd_addr == f_addr && f_known_reg;
        f_rd_val_reg <= f_val_reg;
    end
end
always_ff @(posedge clk) begin
    if (f_rd_reg) p_read: assert (rd_data == f_rd_val_reg);
    if (f_past_reg && !f_en_reg) p_hold: assert (rd_data == f_data_reg);
end
`ifdef FORMAL_TOP_fs_ram_sdp
// (its own job only: the blocks around a RAM need not read a word as it is written)
logic f_rdwr_reg = 1'b0;              // f_addr was read and written in the same clock
always_ff @(posedge clk) begin
    f_rdwr_reg <= rd_en && rd_addr == f_addr && f_known_reg && wr_en && wr_addr == f_addr;
    // a read in the clock its address is written returns the old value
    c_read_old: cover (f_rdwr_reg && rd_data != f_val_reg);
end
`endif
`endif

if (ULTRA != 0) begin : g_ultra
    (* ram_style = "ultra" *) logic [DATA_WIDTH-1:0] mem [0:(1<<ADDR_WIDTH)-1];

    always_ff @(posedge clk) begin
        if (wr_en) begin
            mem[wr_addr] <= wr_data;
        end
    end

    always_ff @(posedge clk) begin
        if (rd_en) begin
            rd_data_reg <= mem[rd_addr];
        end
    end
`ifdef FORMAL
    always_ff @(posedge clk) begin
        if (f_known_reg) p_inv_mem: assert (mem[f_addr] == f_val_reg);
    end
`endif
end else begin : g_auto
    logic [DATA_WIDTH-1:0] mem [0:(1<<ADDR_WIDTH)-1];

    always_ff @(posedge clk) begin
        if (wr_en) begin
            mem[wr_addr] <= wr_data;
        end
    end

    always_ff @(posedge clk) begin
        if (rd_en) begin
            rd_data_reg <= mem[rd_addr];
        end
    end
`ifdef FORMAL
    always_ff @(posedge clk) begin
        if (f_known_reg) p_inv_mem: assert (mem[f_addr] == f_val_reg);
    end
`endif
end

assign rd_data = rd_data_reg;

endmodule

`resetall
