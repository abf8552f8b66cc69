`resetall
`timescale 1ns / 1ps
`default_nettype none

// Cross-simulator stream bench of fs_engine_top: the same file runs under Verilator (clock
// from tb_engine_stream_main.cpp) and Icarus (clock generated here). It applies the AXI4-Lite
// writes of setup.hex, streams the beats of beats.hex back to back (no gaps, records always
// accepted) and prints the record count, clocks, and a checksum of every record, so the two
// simulators can be compared for speed and for identical behaviour
// (scripts/sim-compare.sh; stimulus from scripts/gen_stream_stimulus.py).
module tb_engine_stream
`ifdef VERILATOR
(
    input wire clk
)
`endif
;

parameter integer DATA_WIDTH = 512;
parameter integer MAX_SETUP = 8192;
parameter integer MAX_BEATS = 1 << 18;
parameter integer TIMEOUT_CLOCKS = 50000000;
// small tables keep the setup (every table write clears it, one entry per clock) short
parameter integer SLOT_LOG2 = 6;
parameter integer SOCK_LOG2 = 8;
// the filter table's reset sweep takes 2^max(FLT_BUCKET_BITS, FLT_ID_WIDTH) clocks
parameter integer FLT_BUCKET_BITS = 6;
parameter integer FLT_ID_WIDTH = 10;

localparam integer KEEP_W = DATA_WIDTH / 8;
localparam integer BEAT_W = ((DATA_WIDTH + KEEP_W + 1 + 3) / 4) * 4;

`ifndef VERILATOR
reg clk = 1'b0;
always #5 clk = ~clk;
`endif

reg [47:0] setup_mem [0:MAX_SETUP-1];
reg [BEAT_W-1:0] beat_mem [0:MAX_BEATS-1];
reg [31:0] meta_mem [0:2];
reg [31:0] n_setup = 0, n_beats = 0, n_frames = 0;

initial begin
    $readmemh("meta.hex", meta_mem);
    $readmemh("setup.hex", setup_mem);
    $readmemh("beats.hex", beat_mem);
end

// ---------------------------------------------------------------- DUT
reg rst = 1'b1;
reg [15:0] awaddr = 16'd0;
reg awvalid = 1'b0, wvalid = 1'b0;
reg [31:0] wdata = 32'd0;
wire awready, wready, bvalid, arready, rvalid;
wire [1:0] bresp, rresp;
wire [31:0] rdata;
reg [DATA_WIDTH-1:0] tdata = '0;
reg [KEEP_W-1:0] tkeep = '0;
reg tvalid = 1'b0, tlast = 1'b0;
wire tready;
wire [255:0] rec_tdata;
wire rec_tvalid;

fs_engine_top #(
    .DATA_WIDTH(DATA_WIDTH),
    .USER_WIDTH(16),
    .LUT_LOG2(7),
    .CPU_LOG2(4),
    .QUEUE_LOG2(4),
    .SLOT_LOG2(SLOT_LOG2),
    .SOCK_LOG2(SOCK_LOG2),
    .RPS_POOL_LOG2(8),
    .EVT_LOG2(5),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(4),
    .FLT_ID_WIDTH(FLT_ID_WIDTH),
    .TAG_LOG2(6)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(awaddr),
    .s_axil_awprot(3'd0),
    .s_axil_awvalid(awvalid),
    .s_axil_awready(awready),
    .s_axil_wdata(wdata),
    .s_axil_wstrb(4'hf),
    .s_axil_wvalid(wvalid),
    .s_axil_wready(wready),
    .s_axil_bresp(bresp),
    .s_axil_bvalid(bvalid),
    .s_axil_bready(1'b1),
    .s_axil_araddr(16'd0),
    .s_axil_arprot(3'd0),
    .s_axil_arvalid(1'b0),
    .s_axil_arready(arready),
    .s_axil_rdata(rdata),
    .s_axil_rresp(rresp),
    .s_axil_rvalid(rvalid),
    .s_axil_rready(1'b1),
    .s_axis_tdata(tdata),
    .s_axis_tkeep(tkeep),
    .s_axis_tvalid(tvalid),
    .s_axis_tready(tready),
    .s_axis_tlast(tlast),
    .s_axis_tuser(16'd0),
    .m_axis_rec_tdata(rec_tdata),
    .m_axis_rec_tvalid(rec_tvalid),
    .m_axis_rec_tready(1'b1)
);

// ---------------------------------------------------------------- sequencer
reg [31:0] clocks = 0;
reg progress = 1'b0;
initial progress = $test$plusargs("progress");
reg [31:0] setup_idx = 0, beat_idx = 0, records = 0, slverr = 0;
reg [31:0] first_beat_clock = 0;
reg streaming = 1'b0;
reg aw_done = 1'b0, w_done = 1'b0, wait_b = 1'b0;
reg [63:0] checksum = 64'd0;
wire [63:0] rec_fold = rec_tdata[63:0] ^ rec_tdata[127:64] ^ rec_tdata[191:128] ^ rec_tdata[255:192];

always @(posedge clk) begin
    clocks <= clocks + 1;
    if (progress && clocks % 32'd10000 == 0) begin
        $display("tb_engine_stream: progress clock %0d setup %0d beats %0d records %0d", clocks,
                 setup_idx, beat_idx, records);
    end
    if (clocks == 32'd3) begin
        n_setup <= meta_mem[0];
        n_beats <= meta_mem[1];
        n_frames <= meta_mem[2];
    end
    if (clocks == 32'd16) begin
        rst <= 1'b0;
    end
    if (clocks > 32'd16 && !streaming) begin
        // one write at a time: address and data together, then wait for B
        if (!wait_b && !awvalid && !wvalid) begin
            if (setup_idx < n_setup) begin
                awaddr <= setup_mem[setup_idx][47:32];
                wdata <= setup_mem[setup_idx][31:0];
                awvalid <= 1'b1;
                wvalid <= 1'b1;
                aw_done <= 1'b0;
                w_done <= 1'b0;
            end else begin
                streaming <= 1'b1;
                first_beat_clock <= clocks + 1;
            end
        end else begin
            if (awvalid && awready) begin
                awvalid <= 1'b0;
                aw_done <= 1'b1;
            end
            if (wvalid && wready) begin
                wvalid <= 1'b0;
                w_done <= 1'b1;
            end
            if ((aw_done || (awvalid && awready)) && (w_done || (wvalid && wready))) begin
                wait_b <= 1'b1;
            end
            if (wait_b && bvalid) begin
                wait_b <= 1'b0;
                aw_done <= 1'b0;
                w_done <= 1'b0;
                if (bresp != 2'b00) begin
                    slverr <= slverr + 1;
                end
                setup_idx <= setup_idx + 1;
            end
        end
    end
    if (streaming) begin
        if (!tvalid || tready) begin
            if (beat_idx < n_beats) begin
                tdata <= beat_mem[beat_idx][DATA_WIDTH-1:0];
                tkeep <= beat_mem[beat_idx][DATA_WIDTH +: KEEP_W];
                tlast <= beat_mem[beat_idx][DATA_WIDTH + KEEP_W];
                tvalid <= 1'b1;
                beat_idx <= beat_idx + 1;
            end else begin
                tvalid <= 1'b0;
            end
        end
    end
    if (rec_tvalid) begin
        records <= records + 1;
        checksum <= {checksum[62:0], checksum[63]} ^ rec_fold;
        if (records + 1 == n_frames) begin
            $display("tb_engine_stream: records %0d clocks %0d setup_writes %0d slverr %0d checksum %016x",
                     records + 1, clocks + 1 - first_beat_clock, n_setup, slverr,
                     {checksum[62:0], checksum[63]} ^ rec_fold);
            $finish;
        end
    end
    if (clocks == TIMEOUT_CLOCKS) begin
        $display("tb_engine_stream: TIMEOUT records %0d of %0d after %0d clocks", records, n_frames, clocks);
        $finish;
    end
end

endmodule

`resetall
