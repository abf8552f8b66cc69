`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Lite slave front end: holds AW, W and AR until they are used, offers one complete
// transaction at a time (a write once AW and W are both held, else a read) on tx_*, and
// answers it on B or R when rsp_valid pulses. rsp_idle: no answer is waiting for the master
// (or it is being taken this clock), so the next transaction may start.
module fs_axil_slave (
    input  wire         clk,
    input  wire         rst,

    // AXI4-Lite slave
    input  wire [15:0]  s_axil_awaddr,
    input  wire [2:0]   s_axil_awprot,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [15:0]  s_axil_araddr,
    input  wire [2:0]   s_axil_arprot,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,

    // the held transaction; tx_take (one clock) consumes it
    output wire         tx_valid,
    input  wire         tx_take,
    output wire         tx_wr,
    output wire [15:0]  tx_addr,
    output wire [31:0]  tx_data,
    output wire [3:0]   tx_strb,

    // the answer of the transaction taken last
    input  wire         rsp_valid,
    input  wire         rsp_wr,
    input  wire         rsp_err,         // SLVERR (read data 0)
    input  wire [31:0]  rsp_rdata,
    output wire         rsp_idle
`ifdef FORMAL
    ,
    // formal: {f_busy_reg, f_wr_reg} below, for fs_axil_regs's induction invariants
    output wire [1:0]   f_tx
    ,
    // {aw_addr_reg, ar_addr_reg}: read with fs_axil_check's decode queues
    output wire [31:0]  f_addr
`endif
);

localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;

logic aw_held_reg = 1'b0, w_held_reg = 1'b0, ar_held_reg = 1'b0;
logic [15:0] aw_addr_reg, ar_addr_reg;
logic [31:0] w_data_reg;
logic [3:0] w_strb_reg;
logic bvalid_reg = 1'b0, rvalid_reg = 1'b0;
logic [1:0] bresp_reg = RESP_OKAY, rresp_reg = RESP_OKAY;
logic [31:0] rdata_reg = 32'd0;

wire wr_ready = aw_held_reg && w_held_reg;

always_ff @(posedge clk) begin
    if (s_axil_awvalid && !aw_held_reg) begin
        aw_held_reg <= 1'b1;
        aw_addr_reg <= s_axil_awaddr;
    end
    if (s_axil_wvalid && !w_held_reg) begin
        w_held_reg <= 1'b1;
        w_data_reg <= s_axil_wdata;
        w_strb_reg <= s_axil_wstrb;
    end
    if (s_axil_arvalid && !ar_held_reg) begin
        ar_held_reg <= 1'b1;
        ar_addr_reg <= s_axil_araddr;
    end
    if (tx_take) begin
        if (wr_ready) begin
            aw_held_reg <= 1'b0;
            w_held_reg <= 1'b0;
        end else begin
            ar_held_reg <= 1'b0;
        end
    end
    if (bvalid_reg && s_axil_bready) bvalid_reg <= 1'b0;
    if (rvalid_reg && s_axil_rready) rvalid_reg <= 1'b0;
    if (rsp_valid) begin
        if (rsp_wr) begin
            bvalid_reg <= 1'b1;
            bresp_reg <= rsp_err ? RESP_SLVERR : RESP_OKAY;
        end else begin
            rvalid_reg <= 1'b1;
            rresp_reg <= rsp_err ? RESP_SLVERR : RESP_OKAY;
            rdata_reg <= rsp_err ? 32'd0 : rsp_rdata;
        end
    end
    if (rst) begin
        aw_held_reg <= 1'b0;
        w_held_reg <= 1'b0;
        ar_held_reg <= 1'b0;
        bvalid_reg <= 1'b0;
        rvalid_reg <= 1'b0;
    end
end

assign tx_valid = wr_ready || ar_held_reg;
assign tx_wr = wr_ready;
assign tx_addr = wr_ready ? aw_addr_reg : ar_addr_reg;
assign tx_data = w_data_reg;
assign tx_strb = w_strb_reg;
// one answer at a time: B and R are never both pending
assign rsp_idle = !(bvalid_reg && !s_axil_bready) && !(rvalid_reg && !s_axil_rready);

assign s_axil_awready = !aw_held_reg;
assign s_axil_wready = !w_held_reg;
assign s_axil_bvalid = bvalid_reg;
assign s_axil_bresp = bresp_reg;
assign s_axil_arready = !ar_held_reg;
assign s_axil_rvalid = rvalid_reg;
assign s_axil_rdata = rdata_reg;
assign s_axil_rresp = rresp_reg;

// AXI protection bits carry no meaning
wire unused_axil = &{1'b0, s_axil_awprot, s_axil_arprot};

`ifdef FORMAL
// AXI4-Lite rules on the slave port, under the register file's side of the tx/rsp protocol:
// a transaction is taken only when held and no answer waits, and answered once, by its kind
// (assumed here; asserted on fs_reg_file in every simulation of fs_axil_regs)
wire [2:0] f_aw_n, f_w_n, f_ar_n;      // the checker's requests in flight, per channel
fs_axil_check #(.DECODE(0)) f_axil (.clk(clk), .rst(rst),
    .awaddr(s_axil_awaddr), .awvalid(s_axil_awvalid), .awready(s_axil_awready),
    .wdata(s_axil_wdata), .wstrb(s_axil_wstrb), .wvalid(s_axil_wvalid), .wready(s_axil_wready),
    .bresp(s_axil_bresp), .bvalid(s_axil_bvalid), .bready(s_axil_bready),
    .araddr(s_axil_araddr), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rvalid(s_axil_rvalid), .rready(s_axil_rready),
    .aw_inflight(f_aw_n), .w_inflight(f_w_n), .ar_inflight(f_ar_n),
    /* verilator lint_off PINCONNECTEMPTY */
    .aw_dec_q(), .ar_dec_q());          // no decode here (DECODE = 0)
    /* verilator lint_on PINCONNECTEMPTY */
logic f_armed_reg = 1'b0, f_busy_reg = 1'b0, f_wr_reg = 1'b0;
always_ff @(posedge clk) begin
    if (tx_take) begin
        f_busy_reg <= 1'b1;
        f_wr_reg <= tx_wr;
    end
    if (rsp_valid) f_busy_reg <= 1'b0;
    if (rst) begin
        f_armed_reg <= 1'b1;
        f_busy_reg <= 1'b0;
    end
end
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) begin
        if (tx_take) p_take: assume (tx_valid && rsp_idle && !f_busy_reg);
        if (rsp_valid) p_rsp: assume (f_busy_reg && rsp_wr == f_wr_reg);
    end
end
// Induction invariants (scripts/formal.sh proves the job by k-induction with them): a request
// in flight is held, taken and unanswered (f_busy_reg, kind f_wr_reg) or waiting on B/R, so
// the checker's counts follow the slave's state; at most one of taken / B / R at a time
wire f_busy_wr = f_busy_reg && f_wr_reg;
wire f_busy_rd = f_busy_reg && !f_wr_reg;
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) begin
        p_inv_one: assert ($onehot0({f_busy_reg, bvalid_reg, rvalid_reg}));
        p_inv_aw: assert (f_aw_n == 3'(aw_held_reg) + 3'(f_busy_wr) + 3'(bvalid_reg));
        p_inv_w: assert (f_w_n == 3'(w_held_reg) + 3'(f_busy_wr) + 3'(bvalid_reg));
        p_inv_ar: assert (f_ar_n == 3'(ar_held_reg) + 3'(f_busy_rd) + 3'(rvalid_reg));
    end
end
assign f_tx = {f_busy_reg, f_wr_reg};
assign f_addr = {aw_addr_reg, ar_addr_reg};
`endif

endmodule

`resetall
