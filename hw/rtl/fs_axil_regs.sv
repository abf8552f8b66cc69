`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Lite register slave of the engine (hw/regs/flowsteer_regs.json): the join of its
// three parts, each with one job -
//   fs_axil_slave     AXI4-Lite handshakes, one held transaction at a time, B/R answers;
//   fs_reg_file       register storage and the map's decode (FS_DEC_*, the one
//                     EngineRegisterFile walks), ordering (ord_req/ord_grant/ord_done),
//                     filter commands, shadow RAMs;
//   fs_reg_sequencer  the fs_rfs_core command lists a register access turns into.
// Register semantics, ENGINE = 0/1 and the answer timing: fs_reg_file's header.
module fs_axil_regs #(
    // RSS LUT depth (log2)
    parameter integer LUT_LOG2 = 11,
    // RX queue number width
    parameter integer QUEUE_WIDTH = 11,
    // filter id width
    parameter integer ID_WIDTH = 16,
    // CPUs with state (log2), sizes CPU_ONLINE
    parameter integer CPU_LOG2 = 8,
    // filter table geometry, reported in CAPS1
    parameter integer FLT_BUCKET_BITS = 10,
    parameter integer FLT_WAYS = 4,
    // sizes of the RFS stage, reported in CAPS0/CAPS1
    parameter integer QUEUE_LOG2 = 6,
    parameter integer SLOT_LOG2 = 12,
    parameter integer SOCK_LOG2 = 16,
    parameter integer EVT_LOG2 = 9,
    // rps_map CPU pool (log2), sizes RPS_MAP_CPUS
    parameter integer RPS_POOL_LOG2 = 12,
    // 1: the whole map (engine top); 0: NIC plane blocks only
    parameter integer ENGINE = 0
) (
    input  wire                     clk,
    input  wire                     rst,

    // AXI4-Lite slave
    input  wire [15:0]              s_axil_awaddr,
    input  wire [2:0]               s_axil_awprot,
    input  wire                     s_axil_awvalid,
    output wire                     s_axil_awready,
    input  wire [31:0]              s_axil_wdata,
    input  wire [3:0]               s_axil_wstrb,
    input  wire                     s_axil_wvalid,
    output wire                     s_axil_wready,
    output wire [1:0]               s_axil_bresp,
    output wire                     s_axil_bvalid,
    input  wire                     s_axil_bready,
    input  wire [15:0]              s_axil_araddr,
    input  wire [2:0]               s_axil_arprot,
    input  wire                     s_axil_arvalid,
    output wire                     s_axil_arready,
    output wire [31:0]              s_axil_rdata,
    output wire [1:0]               s_axil_rresp,
    output wire                     s_axil_rvalid,
    input  wire                     s_axil_rready,

    // ordering handshake (docs/engine-top.md "Total order")
    output wire                     ord_req,            // a complete transaction is held
    input  wire                     ord_grant,          // execute it now
    input  wire                     ord_placed,         // a core, rec or drv transaction has its place
    output wire                     ord_done,           // one clock per executed transaction
    output wire                     ord_free,           // it touches nothing a packet reads or changes
    output wire                     ord_core,           // it only runs fs_rfs_core commands
    output wire                     ord_rec,            // it waits for the records before it
    output wire                     ord_drv,            // it waits for the driver calls before it

    // configuration
    output wire                     cfg_enable,
    output wire                     cfg_patched,
    output wire                     cfg_ntuple,
    output wire                     cfg_rmap,
    output wire                     cfg_slot_mask,
    output wire                     cfg_rps,
    output wire                     cfg_flt_lookup,
    output wire [15:0]              cfg_nr_cpu_ids,
    output wire [15:0]              cfg_num_rx_queues,
    output wire [31:0]              cfg_rps_cpu_mask,
    output wire [4:0]               cfg_sock_log2,
    output wire                     cfg_sock_present,
    output wire                     cfg_sock_wr,        // pulse: SOCK_CFG written
    output wire [4:0]               cfg_lut_log2,
    output wire [(1<<CPU_LOG2)-1:0] cfg_cpu_online,
    output wire [1:0]               cfg_hash_mode,
    output wire [31:0]              cfg_hash_seed,
    output wire [415:0]             cfg_rss_key,        // key byte 0 in [415:408]
    output wire                     cnt_clear,          // pulse: CNT_CLEAR.ALL written

    // status
    input  wire                     stat_init_busy,
    input  wire                     evt_overflow_set,   // a steer was refused (-EBUSY)

    // RSS LUT window
    output wire                     lut_wr_en,
    output wire [LUT_LOG2-1:0]      lut_wr_index,
    output wire [QUEUE_WIDTH-1:0]   lut_wr_queue,
    output wire                     lut_rd_en,
    output wire [LUT_LOG2-1:0]      lut_rd_index,
    input  wire [QUEUE_WIDTH-1:0]   lut_rd_queue,

    // filter table commands
    output wire                     flt_cmd_valid,
    input  wire                     flt_cmd_ready,
    output wire [3:0]               flt_cmd_op,
    output wire                     flt_cmd_ipv6,
    output wire [7:0]               flt_cmd_proto,
    output wire [127:0]             flt_cmd_src,
    output wire [127:0]             flt_cmd_dst,
    output wire [15:0]              flt_cmd_sport,
    output wire [15:0]              flt_cmd_dport,
    output wire [ID_WIDTH-1:0]      flt_cmd_id,
    output wire [QUEUE_WIDTH-1:0]   flt_cmd_queue,
    input  wire                     flt_rsp_valid,
    input  wire [3:0]               flt_rsp_err,
    input  wire [ID_WIDTH-1:0]      flt_rsp_id,
    input  wire [QUEUE_WIDTH-1:0]   flt_rsp_queue,
    input  wire                     flt_busy,
    input  wire [31:0]              flt_count,
    output wire                     flt_delete_done,    // pulse: a host DELETE removed a filter

    // fs_rfs_core command port (ops in its header)
    output wire                     rfs_cmd_valid,
    input  wire                     rfs_cmd_ready,
    output wire [4:0]               rfs_cmd_op,
    output wire [15:0]              rfs_cmd_addr,
    output wire [31:0]              rfs_cmd_data0,
    output wire [31:0]              rfs_cmd_data1,
    input  wire                     rfs_rsp_valid,
    input  wire [31:0]              rfs_rsp_status,
    input  wire [31:0]              rfs_rsp_data0,
    input  wire [31:0]              rfs_rsp_data1,

    // event FIFO head (fs_steer_driver m_evt_*) and pop
    input  wire                     evt_valid,
    output wire                     evt_pop,
    input  wire [3:0]               evt_type,
    input  wire [ID_WIDTH-1:0]      evt_id,
    input  wire [15:0]              evt_queue,
    input  wire [31:0]              evt_flow_id,
    input  wire [31:0]              evt_hash,
    input  wire                     evt_ipv6,
    input  wire [7:0]               evt_proto,
    input  wire [127:0]             evt_src,
    input  wire [127:0]             evt_dst,
    input  wire [15:0]              evt_sport,
    input  wire [15:0]              evt_dport,
    input  wire [15:0]              evt_count,

    // counters (enum counter): index out, value back one clock later
    output wire [4:0]               cnt_index,
    input  wire [63:0]              cnt_value
);


logic tx_valid, tx_take, tx_wr, rsp_valid, rsp_wr, rsp_err, rsp_idle;
logic [15:0] tx_addr;
logic [31:0] tx_data, rsp_rdata;
logic [3:0] tx_strb;
logic seq_start, seq_done, seq_fail, seq_res_valid, seq_busy;
logic [1:0] seq_kind;
logic [2:0] seq_list_n;
logic [19:0] seq_list_op;
logic [63:0] seq_list_addr;
logic [127:0] seq_list_d0, seq_list_d1;
logic [13:0] seq_online_word;
logic [31:0] seq_online_bits, seq_nr_cpu_ids, seq_res_data0, seq_res_data1;
logic [4:0] seq_res_op;
`ifdef FORMAL
logic [1:0] f_slave_tx;     // fs_axil_slave: {taken and unanswered, write}
logic [4:0] f_regs_tx;      // fs_reg_file: {list runs, taken and unanswered, answer waits,
                            // write, decoded}
logic [31:0] f_slave_addr;  // fs_axil_slave: {held AW address, held AR address}
`endif

fs_axil_slave slave (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .tx_valid(tx_valid),
    .tx_take(tx_take),
    .tx_wr(tx_wr),
    .tx_addr(tx_addr),
    .tx_data(tx_data),
    .tx_strb(tx_strb),
    .rsp_valid(rsp_valid),
    .rsp_wr(rsp_wr),
    .rsp_err(rsp_err),
    .rsp_rdata(rsp_rdata),
    .rsp_idle(rsp_idle)
`ifdef FORMAL
    , .f_tx(f_slave_tx)
    , .f_addr(f_slave_addr)
`endif
);

fs_reg_file #(
    .LUT_LOG2(LUT_LOG2),
    .QUEUE_WIDTH(QUEUE_WIDTH),
    .ID_WIDTH(ID_WIDTH),
    .CPU_LOG2(CPU_LOG2),
    .FLT_BUCKET_BITS(FLT_BUCKET_BITS),
    .FLT_WAYS(FLT_WAYS),
    .QUEUE_LOG2(QUEUE_LOG2),
    .SLOT_LOG2(SLOT_LOG2),
    .SOCK_LOG2(SOCK_LOG2),
    .EVT_LOG2(EVT_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2),
    .ENGINE(ENGINE)
) regs (
    .clk(clk),
    .rst(rst),
    .tx_valid(tx_valid),
    .tx_take(tx_take),
    .tx_wr(tx_wr),
    .tx_addr(tx_addr),
    .tx_data(tx_data),
    .tx_strb(tx_strb),
    .rsp_valid(rsp_valid),
    .rsp_wr(rsp_wr),
    .rsp_err(rsp_err),
    .rsp_rdata(rsp_rdata),
    .rsp_idle(rsp_idle),
    .ord_req(ord_req),
    .ord_grant(ord_grant),
    .ord_placed(ord_placed),
    .ord_done(ord_done),
    .ord_free(ord_free),
    .ord_core(ord_core),
    .ord_rec(ord_rec),
    .ord_drv(ord_drv),
    .cfg_enable(cfg_enable),
    .cfg_patched(cfg_patched),
    .cfg_ntuple(cfg_ntuple),
    .cfg_rmap(cfg_rmap),
    .cfg_slot_mask(cfg_slot_mask),
    .cfg_rps(cfg_rps),
    .cfg_flt_lookup(cfg_flt_lookup),
    .cfg_nr_cpu_ids(cfg_nr_cpu_ids),
    .cfg_num_rx_queues(cfg_num_rx_queues),
    .cfg_rps_cpu_mask(cfg_rps_cpu_mask),
    .cfg_sock_log2(cfg_sock_log2),
    .cfg_sock_present(cfg_sock_present),
    .cfg_sock_wr(cfg_sock_wr),
    .cfg_lut_log2(cfg_lut_log2),
    .cfg_cpu_online(cfg_cpu_online),
    .cfg_hash_mode(cfg_hash_mode),
    .cfg_hash_seed(cfg_hash_seed),
    .cfg_rss_key(cfg_rss_key),
    .cnt_clear(cnt_clear),
    .stat_init_busy(stat_init_busy),
    .evt_overflow_set(evt_overflow_set),
    .lut_wr_en(lut_wr_en),
    .lut_wr_index(lut_wr_index),
    .lut_wr_queue(lut_wr_queue),
    .lut_rd_en(lut_rd_en),
    .lut_rd_index(lut_rd_index),
    .lut_rd_queue(lut_rd_queue),
    .flt_cmd_valid(flt_cmd_valid),
    .flt_cmd_ready(flt_cmd_ready),
    .flt_cmd_op(flt_cmd_op),
    .flt_cmd_ipv6(flt_cmd_ipv6),
    .flt_cmd_proto(flt_cmd_proto),
    .flt_cmd_src(flt_cmd_src),
    .flt_cmd_dst(flt_cmd_dst),
    .flt_cmd_sport(flt_cmd_sport),
    .flt_cmd_dport(flt_cmd_dport),
    .flt_cmd_id(flt_cmd_id),
    .flt_cmd_queue(flt_cmd_queue),
    .flt_rsp_valid(flt_rsp_valid),
    .flt_rsp_err(flt_rsp_err),
    .flt_rsp_id(flt_rsp_id),
    .flt_rsp_queue(flt_rsp_queue),
    .flt_busy(flt_busy),
    .flt_count(flt_count),
    .flt_delete_done(flt_delete_done),
    .seq_start(seq_start),
    .seq_kind(seq_kind),
    .seq_list_n(seq_list_n),
    .seq_list_op(seq_list_op),
    .seq_list_addr(seq_list_addr),
    .seq_list_d0(seq_list_d0),
    .seq_list_d1(seq_list_d1),
    .seq_online_word(seq_online_word),
    .seq_online_bits(seq_online_bits),
    .seq_nr_cpu_ids(seq_nr_cpu_ids),
    .seq_done(seq_done),
    .seq_fail(seq_fail),
    .seq_res_valid(seq_res_valid),
    .seq_res_op(seq_res_op),
    .seq_res_data0(seq_res_data0),
    .seq_res_data1(seq_res_data1),
    .evt_valid(evt_valid),
    .evt_pop(evt_pop),
    .evt_type(evt_type),
    .evt_id(evt_id),
    .evt_queue(evt_queue),
    .evt_flow_id(evt_flow_id),
    .evt_hash(evt_hash),
    .evt_ipv6(evt_ipv6),
    .evt_proto(evt_proto),
    .evt_src(evt_src),
    .evt_dst(evt_dst),
    .evt_sport(evt_sport),
    .evt_dport(evt_dport),
    .evt_count(evt_count),
    .cnt_index(cnt_index),
    .cnt_value(cnt_value)
`ifdef FORMAL
    , .f_tx(f_regs_tx)
`endif
);

fs_reg_sequencer #(
    .CPU_LOG2(CPU_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2)
) seq (
    .clk(clk),
    .rst(rst),
    .start(seq_start),
    .start_kind(seq_kind),
    .list_n(seq_list_n),
    .list_op(seq_list_op),
    .list_addr(seq_list_addr),
    .list_d0(seq_list_d0),
    .list_d1(seq_list_d1),
    .online_word(seq_online_word),
    .online_bits(seq_online_bits),
    .nr_cpu_ids(seq_nr_cpu_ids),
    .busy(seq_busy),
    .done(seq_done),
    .fail(seq_fail),
    .res_valid(seq_res_valid),
    .res_op(seq_res_op),
    .res_data0(seq_res_data0),
    .res_data1(seq_res_data1),
    .rfs_cmd_valid(rfs_cmd_valid),
    .rfs_cmd_ready(rfs_cmd_ready),
    .rfs_cmd_op(rfs_cmd_op),
    .rfs_cmd_addr(rfs_cmd_addr),
    .rfs_cmd_data0(rfs_cmd_data0),
    .rfs_cmd_data1(rfs_cmd_data1),
    .rfs_rsp_valid(rfs_rsp_valid),
    .rfs_rsp_status(rfs_rsp_status),
    .rfs_rsp_data0(rfs_rsp_data0),
    .rfs_rsp_data1(rfs_rsp_data1)
);

`ifndef FORMAL
wire unused_seq_busy = seq_busy;    // read by the properties only
`else
// AXI4-Lite rules on the slave port (hw/formal); SLVERR exactly where the map decodes nothing
// (the engine build also refuses some writes to decoded addresses: values it cannot hold)
wire [2:0] f_aw_n, f_w_n, f_ar_n;      // the checker's requests in flight, per channel
wire [3:0] f_aw_dec, f_ar_dec;         // and their decode bits, oldest in bit 0
fs_axil_check #(.DECODE(1), .EXACT_WR(ENGINE == 0 ? 1 : 0), .ENGINE(ENGINE), .LUT_LOG2(LUT_LOG2),
    .CPU_LOG2(CPU_LOG2), .QUEUE_LOG2(QUEUE_LOG2), .RPS_POOL_LOG2(RPS_POOL_LOG2)) f_axil (.clk(clk),
    .rst(rst), .awaddr(s_axil_awaddr), .awvalid(s_axil_awvalid), .awready(s_axil_awready),
    .wdata(s_axil_wdata), .wstrb(s_axil_wstrb), .wvalid(s_axil_wvalid), .wready(s_axil_wready),
    .bresp(s_axil_bresp), .bvalid(s_axil_bvalid), .bready(s_axil_bready),
    .araddr(s_axil_araddr), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rvalid(s_axil_rvalid), .rready(s_axil_rready),
    .aw_inflight(f_aw_n), .w_inflight(f_w_n), .ar_inflight(f_ar_n),
    .aw_dec_q(f_aw_dec), .ar_dec_q(f_ar_dec));

// Induction invariants (the axil_regs job proves this module by k-induction with them), true
// from the first clock: the register file's transaction (taken, then its answer on B or R)
// is the slave's, and the checker's requests in flight are the held, the taken and the
// answered one; with fs_axil_slave's and fs_reg_file's own (p_inv_*)
wire f_rf_list = f_regs_tx[4];
wire f_rf_busy = f_regs_tx[3];
wire f_rf_resp = f_regs_tx[2];
wire f_rf_wr = f_regs_tx[1];
wire f_rf_wr_n = f_rf_busy && f_rf_wr;          // a write taken, unanswered
wire f_rf_rd_n = f_rf_busy && !f_rf_wr;
wire f_bw = f_rf_resp && f_rf_wr;               // its answer waits on B
wire f_br = f_rf_resp && !f_rf_wr;
always_ff @(posedge clk) begin
    p_inv_busy: assert (f_slave_tx[1] == f_rf_busy && (!f_rf_busy || f_slave_tx[0] == f_rf_wr));
    p_inv_b: assert (s_axil_bvalid == f_bw && s_axil_rvalid == f_br);
    p_inv_aw_n: assert (f_aw_n == 3'(!s_axil_awready) + 3'(f_rf_wr_n) + 3'(f_bw));
    p_inv_w_n: assert (f_w_n == 3'(!s_axil_wready) + 3'(f_rf_wr_n) + 3'(f_bw));
    p_inv_ar_n: assert (f_ar_n == 3'(!s_axil_arready) + 3'(f_rf_rd_n) + 3'(f_br));
    // the sequencer runs a list only while the register file waits for it in ST_SEQ
    if (seq_busy) p_inv_seq: assert (f_rf_list);
end
// The engine's read lists (READ_HEAD_TAIL of a CPU the map decodes) are never refused by
// fs_rfs_core: the one fact about the core the read answers rest on
always_comb begin
    if (!rst && rfs_rsp_valid && f_rf_rd_n) a_core_rd_ok: assume (rfs_rsp_status == 32'd0);
end
// a held request's decode bit is the map's decode of the address the slave holds, a taken
// one's the decode of the one the register file holds
wire f_aw_held_dec, f_ar_held_dec;
fs_axil_dec #(.ENGINE(ENGINE), .LUT_LOG2(LUT_LOG2), .CPU_LOG2(CPU_LOG2), .QUEUE_LOG2(QUEUE_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2)) f_dec_aw (.addr(f_slave_addr[31:16]), .dec(f_aw_held_dec));
fs_axil_dec #(.ENGINE(ENGINE), .LUT_LOG2(LUT_LOG2), .CPU_LOG2(CPU_LOG2), .QUEUE_LOG2(QUEUE_LOG2),
    .RPS_POOL_LOG2(RPS_POOL_LOG2)) f_dec_ar (.addr(f_slave_addr[15:0]), .dec(f_ar_held_dec));
always_ff @(posedge clk) begin
    if (!s_axil_awready) p_inv_aw_dec: assert (f_aw_dec[2'(f_aw_n - 3'd1)] == f_aw_held_dec);
    if (!s_axil_arready) p_inv_ar_dec: assert (f_ar_dec[2'(f_ar_n - 3'd1)] == f_ar_held_dec);
    if (f_rf_wr_n) p_inv_wr_dec: assert (f_aw_dec[0] == f_regs_tx[0]);
    if (f_rf_rd_n) p_inv_rd_dec: assert (f_ar_dec[0] == f_regs_tx[0]);
end
`endif

endmodule

`resetall
