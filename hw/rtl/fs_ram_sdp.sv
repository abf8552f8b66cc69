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
end

assign rd_data = rd_data_reg;

endmodule

`resetall
