`resetall
`timescale 1ns / 1ps
`default_nettype none

// Simple dual-port RAM: one write port, one synchronous read port (read data one clock after
// an enabled read; held while rd_en is low). A read of the address being written returns
// the old contents. Contents are not reset. Infers block RAM (or LUTRAM when small).
module fs_ram_sdp #(
    // word width in bits
    parameter integer DATA_WIDTH = 32,
    // address width in bits (depth = 2^ADDR_WIDTH)
    parameter integer ADDR_WIDTH = 10
) (
    input  wire                  clk,

    input  wire                  wr_en,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [DATA_WIDTH-1:0] wr_data,

    input  wire                  rd_en,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    output wire [DATA_WIDTH-1:0] rd_data
);

logic [DATA_WIDTH-1:0] mem [0:(1<<ADDR_WIDTH)-1];
logic [DATA_WIDTH-1:0] rd_data_reg;

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

assign rd_data = rd_data_reg;

endmodule

`resetall
