`resetall
`timescale 1ns / 1ps
`default_nettype none

// Vitis RTL kernel "flowsteer": the engine (fs_engine_top, docs/engine-top.md) with Vitis port
// names, packaged by hw/alveo/package_xo.tcl with hw/alveo/kernel.xml.
//
// Control protocol: ap_ctrl_none (free-running; hw/alveo/README.md "Control protocol"). XRT
// never starts, stops or polls the kernel and reserves no register in s_axi_control, so the
// whole 64 KiB control space is the engine's register window:
//   s_axi_control offset = ENGINE_BASE (0x0000) + engine register address (hw/regs/registers.md)
// XRT reaches at most 64 KiB of a compute unit's control space through xrt::ip, which is why
// the window cannot sit at a non-zero offset. Frames flow as soon as the engine's CTRL.ENABLE is
// set; there is no ap_start, ap_done, interrupt or GIE/IER/ISR.
//
// Reset: ap_rst_n (active low, synchronous to ap_clk, from the platform) is pipelined through
// RST_STAGES registers into the engine's active-high rst. While that reset is high the kernel
// shows ready = 0 and valid = 0 on every interface and the engine sees no valid input.
// Records leave as one-beat packets (m_axis_records_tlast = 1).
// The module is named after the kernel (the name the host opens and kernel.xml declares); the
// file keeps the _kernel suffix so it is not mistaken for the engine.
/* verilator lint_off DECLFILENAME */
module flowsteer #(
    // AXI4-Stream frame data width (kernel.xml declares 512)
    parameter integer DATA_WIDTH = 512,
    // frame tuser width (kernel.xml, the data movers: 16)
    parameter integer USER_WIDTH = 16,
    // RSS LUT entries, log2
    parameter integer LUT_LOG2 = 11,
    // CPUs, log2
    parameter integer CPU_LOG2 = 6,
    // RX queues, log2
    parameter integer QUEUE_LOG2 = 6,
    // per-queue slot table entries (maximum), log2
    parameter integer SLOT_LOG2 = 12,
    // sock flow table entries (maximum), log2
    parameter integer SOCK_LOG2 = 16,
    // RPS map CPU pool entries, log2
    parameter integer RPS_POOL_LOG2 = 12,
    // event FIFO entries, log2
    parameter integer EVT_LOG2 = 9,
    // filter-table buckets, log2
    parameter integer FLT_BUCKET_BITS = 10,
    // filter-table ways per bucket
    parameter integer FLT_WAYS = 4,
    // filter id width
    parameter integer FLT_ID_WIDTH = 16,
    // packets in flight between the order gate and the record, log2
    parameter integer TAG_LOG2 = 6,
    // reset pipeline registers between ap_rst_n and the engine (UG1393: pipeline the reset)
    parameter integer RST_STAGES = 3
) (
    input  wire                    ap_clk,
    input  wire                    ap_rst_n,

    // AXI4-Lite control (kernel.xml port s_axi_control, 64 KiB)
    input  wire [15:0]             s_axi_control_awaddr,
    input  wire [2:0]              s_axi_control_awprot,
    input  wire                    s_axi_control_awvalid,
    output wire                    s_axi_control_awready,
    input  wire [31:0]             s_axi_control_wdata,
    input  wire [3:0]              s_axi_control_wstrb,
    input  wire                    s_axi_control_wvalid,
    output wire                    s_axi_control_wready,
    output wire [1:0]              s_axi_control_bresp,
    output wire                    s_axi_control_bvalid,
    input  wire                    s_axi_control_bready,
    input  wire [15:0]             s_axi_control_araddr,
    input  wire [2:0]              s_axi_control_arprot,
    input  wire                    s_axi_control_arvalid,
    output wire                    s_axi_control_arready,
    output wire [31:0]             s_axi_control_rdata,
    output wire [1:0]              s_axi_control_rresp,
    output wire                    s_axi_control_rvalid,
    input  wire                    s_axi_control_rready,

    // frames in (kernel.xml port s_axis_frames)
    input  wire [DATA_WIDTH-1:0]   s_axis_frames_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_frames_tkeep,
    input  wire                    s_axis_frames_tvalid,
    output wire                    s_axis_frames_tready,
    input  wire                    s_axis_frames_tlast,
    input  wire [USER_WIDTH-1:0]   s_axis_frames_tuser,

    // records out, one 256-bit beat per frame (kernel.xml port m_axis_records)
    output wire [255:0]            m_axis_records_tdata,
    output wire                    m_axis_records_tvalid,
    input  wire                    m_axis_records_tready,
    output wire                    m_axis_records_tlast
);
/* verilator lint_on DECLFILENAME */

// offset of the engine's register window inside s_axi_control (see the header)
localparam logic [15:0] ENGINE_BASE = 16'h0000;

`ifdef VERILATOR
if (RST_STAGES < 1) begin : g_bad_rst_stages
    $error("RST_STAGES must be at least 1");
end
`endif

// ---------------------------------------------------------------- reset
// every stage starts in reset, so the engine is held until ap_rst_n has been seen high
logic [RST_STAGES-1:0] rst_pipe_reg = {RST_STAGES{1'b1}};
wire rst = rst_pipe_reg[RST_STAGES-1];

always_ff @(posedge ap_clk) begin
    for (int i = RST_STAGES - 1; i > 0; i = i - 1) begin
        rst_pipe_reg[i] <= rst_pipe_reg[i - 1];
    end
    rst_pipe_reg[0] <= !ap_rst_n;
end

// ---------------------------------------------------------------- engine
wire eng_awready, eng_wready, eng_bvalid, eng_arready, eng_rvalid;
wire eng_tready, eng_rec_valid;

fs_engine_top #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(USER_WIDTH),
    .LUT_LOG2(LUT_LOG2),
    .CPU_LOG2(CPU_LOG2),
    .QUEUE_LOG2(QUEUE_LOG2),
    .SLOT_LOG2(SLOT_LOG2),
    .SOCK_LOG2(SOCK_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2),
    .EVT_LOG2(EVT_LOG2),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS),
    .FLT_ID_WIDTH(FLT_ID_WIDTH),
    .TAG_LOG2(TAG_LOG2)
) engine (
    .clk(ap_clk),
    .rst(rst),
    .s_axil_awaddr(s_axi_control_awaddr - ENGINE_BASE),
    .s_axil_awprot(s_axi_control_awprot),
    .s_axil_awvalid(s_axi_control_awvalid && !rst),
    .s_axil_awready(eng_awready),
    .s_axil_wdata(s_axi_control_wdata),
    .s_axil_wstrb(s_axi_control_wstrb),
    .s_axil_wvalid(s_axi_control_wvalid && !rst),
    .s_axil_wready(eng_wready),
    .s_axil_bresp(s_axi_control_bresp),
    .s_axil_bvalid(eng_bvalid),
    .s_axil_bready(s_axi_control_bready && !rst),
    .s_axil_araddr(s_axi_control_araddr - ENGINE_BASE),
    .s_axil_arprot(s_axi_control_arprot),
    .s_axil_arvalid(s_axi_control_arvalid && !rst),
    .s_axil_arready(eng_arready),
    .s_axil_rdata(s_axi_control_rdata),
    .s_axil_rresp(s_axi_control_rresp),
    .s_axil_rvalid(eng_rvalid),
    .s_axil_rready(s_axi_control_rready && !rst),
    .s_axis_tdata(s_axis_frames_tdata),
    .s_axis_tkeep(s_axis_frames_tkeep),
    .s_axis_tvalid(s_axis_frames_tvalid && !rst),
    .s_axis_tready(eng_tready),
    .s_axis_tlast(s_axis_frames_tlast),
    .s_axis_tuser(s_axis_frames_tuser),
    .m_axis_rec_tdata(m_axis_records_tdata),
    .m_axis_rec_tvalid(eng_rec_valid),
    .m_axis_rec_tready(m_axis_records_tready && !rst)
);

assign s_axi_control_awready = eng_awready && !rst;
assign s_axi_control_wready = eng_wready && !rst;
assign s_axi_control_bvalid = eng_bvalid && !rst;
assign s_axi_control_arready = eng_arready && !rst;
assign s_axi_control_rvalid = eng_rvalid && !rst;
assign s_axis_frames_tready = eng_tready && !rst;
assign m_axis_records_tvalid = eng_rec_valid && !rst;
assign m_axis_records_tlast = 1'b1;

endmodule

`resetall
