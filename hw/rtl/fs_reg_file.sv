`resetall
`timescale 1ns / 1ps
`default_nettype none

// Register storage and decode of the engine (hw/regs/flowsteer_regs.json); golden model:
// flowsteer::engine::EngineRegisterFile (host/src/engine/engine_regs.cpp). It takes one
// transaction at a time from fs_axil_slave (tx_*), raises ord_req, waits for ord_grant, runs
// it to completion (filter commands and fs_reg_sequencer command lists included), pulses
// ord_done and only then answers (rsp_*), docs/engine-top.md.
// The address is decoded with the map's table (FS_DEC_*) one clock after it is taken, and
// the read value is registered one clock before it is used (ST_RD2), the write value one
// more (ST_WV) and, for a write to a register with range checks, the checks on it another
// (a second clock in ST_WV), so neither the decode, the read multiplexer nor the checks sit
// on the path of the write side effects.
// ENGINE = 1 (fs_engine_top): every block of the map, exactly as the model: SLVERR for
//   unmapped addresses, array elements past the implemented sizes and values the engine
//   cannot hold; the kernel plane is driven through fs_rfs_core commands (seq_* lists),
//   with RMAP / RPS_FLOW_CNT / RPS_MAP / RPS_MAP_CPUS mirrored in shadow RAMs for reads.
//   After reset an init sequence clears the shadows and brings fs_rfs_core to the map's
//   reset state (STATUS.INIT_BUSY until done; no transaction runs before).
// ENGINE = 0 (fs_nic_plane alone): GLOB, HASH, FLT and the LUT window; the blocks of the
//   kernel plane answer SLVERR, values are stored unchecked, FLT_CMD is answered at once
//   (a FLT_CMD while busy sets ERR_STATUS.CMD_BUSY).
// Writes to RO registers are ignored (OKAY); WO registers read as 0; W1C bits clear on 1.
// Byte strobes apply to RW registers (read-modify-write); WO/W1C registers use the data.
module fs_reg_file #(
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

    // the transaction held by fs_axil_slave, and its answer
    input  wire                     tx_valid,
    output wire                     tx_take,
    input  wire                     tx_wr,
    input  wire [15:0]              tx_addr,
    input  wire [31:0]              tx_data,
    input  wire [3:0]               tx_strb,
    output wire                     rsp_valid,
    output wire                     rsp_wr,
    output wire                     rsp_err,
    output wire [31:0]              rsp_rdata,
    input  wire                     rsp_idle,

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

    // fs_reg_sequencer: command lists for fs_rfs_core
    output wire                     seq_start,
    output wire [1:0]               seq_kind,           // 0 LIST, 1 ONLINE, 2 INIT
    output wire [2:0]               seq_list_n,
    output wire [19:0]              seq_list_op,
    output wire [63:0]              seq_list_addr,
    output wire [127:0]             seq_list_d0,
    output wire [127:0]             seq_list_d1,
    output wire [13:0]              seq_online_word,
    output wire [31:0]              seq_online_bits,
    output wire [31:0]              seq_nr_cpu_ids,
    input  wire                     seq_done,
    input  wire                     seq_fail,
    input  wire                     seq_res_valid,
    input  wire [4:0]               seq_res_op,
    input  wire [31:0]              seq_res_data0,
    input  wire [31:0]              seq_res_data1,

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
`ifdef FORMAL
    ,
    // formal: {a command list runs (ST_SEQ), host transaction taken and unanswered, its
    // answer waits, write, the map decodes tx_addr_reg} for fs_axil_regs's invariants
    output wire [4:0]               f_tx
`endif
);

`include "flowsteer_regs.vh"

localparam integer CPUS = 1 << CPU_LOG2;
localparam integer QUEUES = 1 << QUEUE_LOG2;
localparam integer POOL = 1 << RPS_POOL_LOG2;
localparam integer ONLINE_BITS = CPUS;
localparam integer ONLINE_WORDS = (ONLINE_BITS + 31) / 32;
localparam integer LUT_DEPTH = 1 << LUT_LOG2;
localparam integer CL = (CPU_LOG2 > 0) ? CPU_LOG2 : 1;       // shadow RAM address widths
localparam integer QL = (QUEUE_LOG2 > 0) ? QUEUE_LOG2 : 1;
localparam integer PL = (RPS_POOL_LOG2 > 0) ? RPS_POOL_LOG2 : 1;
localparam integer SWEEP_W = 18;                              // init sweep counter
// the sweep covers every shadow RAM and the LUT
localparam integer SWEEP_A = (CPUS > QUEUES) ? CPUS : QUEUES;
localparam integer SWEEP_B = (POOL > LUT_DEPTH) ? POOL : LUT_DEPTH;
localparam integer SWEEP_END = (SWEEP_A > SWEEP_B) ? SWEEP_A : SWEEP_B;
localparam [4:0] LUT_CFG_RESET = (LUT_LOG2 < 11) ? 5'(LUT_LOG2) : 5'd11;
localparam bit EN = (ENGINE != 0);

// fs_rfs_core ops (enum rfs_op) and the SET_MODE word (layout rfs_mode) of the register map
localparam [4:0] OP_SOCK_SIZE = 5'(FS_RFS_OP_SOCK_SIZE);
localparam [4:0] OP_QUEUE_TABLE = 5'(FS_RFS_OP_QUEUE_TABLE);
localparam [4:0] OP_HEAD_ADD = 5'(FS_RFS_OP_HEAD_ADD);
localparam [4:0] OP_BACKLOG_DRAIN = 5'(FS_RFS_OP_BACKLOG_DRAIN);
localparam [4:0] OP_READ_HEAD_TAIL = 5'(FS_RFS_OP_READ_HEAD_TAIL);
localparam [4:0] OP_MAY_EXPIRE = 5'(FS_RFS_OP_MAY_EXPIRE);
localparam [4:0] OP_SET_RMAP = 5'(FS_RFS_OP_SET_RMAP);
localparam [4:0] OP_SET_NR_CPU_IDS = 5'(FS_RFS_OP_SET_NR_CPU_IDS);
localparam [4:0] OP_SET_MODE = 5'(FS_RFS_OP_SET_MODE);
localparam [4:0] OP_SOCK_WRITE = 5'(FS_RFS_OP_SOCK_WRITE);
localparam [4:0] OP_SOCK_READ = 5'(FS_RFS_OP_SOCK_READ);
localparam [4:0] OP_RPS_MAP = 5'(FS_RFS_OP_RPS_MAP);
localparam [4:0] OP_RPS_POOL = 5'(FS_RFS_OP_RPS_POOL);
localparam [4:0] OP_SET_CPU_MASK = 5'(FS_RFS_OP_SET_CPU_MASK);
// SET_MODE data0 from a CTRL value
function automatic [31:0] mode_word(input [31:0] ctrl);
    mode_word = (32'(ctrl[FS_CTRL_PATCHED_LSB]) << FS_RFS_MODE_PATCHED_LSB) |
                (32'(ctrl[FS_CTRL_SLOT_MASK_LSB]) << FS_RFS_MODE_SLOT_MASK_LSB) |
                (32'(ctrl[FS_CTRL_NTUPLE_LSB]) << FS_RFS_MODE_NTUPLE_LSB) |
                (32'(ctrl[FS_CTRL_RMAP_LSB]) << FS_RFS_MODE_RMAP_LSB);
endfunction

// ---------------------------------------------------------------- registers
logic [31:0] ctrl_reg = FS_CTRL_RESET;
logic [31:0] err_reg = FS_ERR_STATUS_RESET;
logic evt_ovf_pend_reg = 1'b0;            // refusals not yet seen by an ERR_STATUS read
logic [31:0] scratch_reg = FS_SCRATCH_RESET;
logic [31:0] owner_reg = FS_OWNER_RESET;        // 0 after reset: the driver sees it
logic [31:0] nr_cpu_ids_reg = FS_NR_CPU_IDS_RESET;
logic [31:0] num_rx_queues_reg = FS_NUM_RX_QUEUES_RESET;
logic [31:0] rps_cpu_mask_reg = FS_RPS_CPU_MASK_RESET;
logic [31:0] sock_cfg_reg = FS_SOCK_CFG_RESET;
logic [31:0] lut_cfg_reg = 32'(LUT_CFG_RESET);
logic [32*ONLINE_WORDS-1:0] online_reg = '0;
logic [31:0] hash_cfg_reg = FS_HASH_CFG_RESET;
logic [31:0] hash_seed_reg = FS_HASH_SEED_RESET;
logic [415:0] rss_key_reg = '0;
logic [127:0] flt_src_reg = '0;
logic [127:0] flt_dst_reg = '0;
logic [31:0] flt_ports_reg = FS_FLT_PORTS_RESET;
logic [31:0] flt_meta_reg = FS_FLT_META_RESET;
logic [31:0] flt_id_reg = FS_FLT_ID_RESET;
logic [31:0] flt_queue_reg = FS_FLT_QUEUE_RESET;
logic flt_pending_reg = 1'b0;
logic flt_wait_reg = 1'b0;                // a command was accepted, its response is due
logic [3:0] flt_op_reg = '0;
logic flt_done_reg = 1'b0;
logic [3:0] flt_err_reg = '0;
logic [ID_WIDTH-1:0] flt_res_id_reg = '0;
logic [QUEUE_WIDTH-1:0] flt_res_queue_reg = '0;
logic [31:0] sock_index_reg = FS_SOCK_INDEX_RESET;
logic [31:0] sock_value_reg = FS_SOCK_VALUE_RESET;
logic [31:0] exp_queue_reg = FS_EXP_QUEUE_RESET;
logic [31:0] exp_flow_id_reg = FS_EXP_FLOW_ID_RESET;
logic [31:0] exp_filter_id_reg = FS_EXP_FILTER_ID_RESET;
logic [31:0] exp_status_reg = 32'd0;
logic [31:0] cnt_hi_reg = 32'd0;
logic cnt_clear_reg = 1'b0;
logic sock_wr_reg = 1'b0;
logic lut_wr_en_reg = 1'b0;
logic [LUT_LOG2-1:0] lut_wr_index_reg;
logic [QUEUE_WIDTH-1:0] lut_wr_queue_reg;
logic evt_pop_reg = 1'b0;
logic flt_del_reg = 1'b0;
logic ord_done_reg = 1'b0;

// ---------------------------------------------------------------- transaction
logic [31:0] rdata_reg = 32'd0;
logic init_seq_reg = 1'b0;                // the running list is the init sequence

localparam [3:0] ST_INIT = 4'd0, ST_IDLE = 4'd1, ST_REQ = 4'd2, ST_RD1 = 4'd3, ST_RD2 = 4'd4,
                 ST_EXEC = 4'd5, ST_SEQ = 4'd6, ST_WV = 4'd7, ST_FLT = 4'd8, ST_RESP = 4'd9,
                 ST_DONE = 4'd10, ST_DEC = 4'd11;
logic [3:0] st_reg = ST_INIT;
logic tx_wr_reg;
logic [15:0] tx_addr_reg;
logic [31:0] tx_data_reg;
logic [3:0] tx_strb_reg;
logic tx_err_reg;                         // answer SLVERR
logic [SWEEP_W-1:0] sweep_reg = '0;
logic sweep_end_reg = 1'b0;               // sweep_reg >= SWEEP_END (a flag: LUT depth)

wire [13:0] wa = tx_addr_reg[15:2];       // word address of the transaction

// ---------------------------------------------------------------- shadow RAMs (ENGINE)
// RMAP, RPS_FLOW_CNT, RPS_MAP, RPS_MAP_CPUS: the values written (the RFS core has them
// only in its own form); read by address in ST_RD1, written in ST_EXEC or by the init sweep
logic sh_wr_rmap, sh_wr_fcnt, sh_wr_map, sh_wr_pool;
logic [31:0] sh_wr_data;
logic [CL-1:0] sh_rmap_wa;
logic [QL-1:0] sh_q_wa;
logic [PL-1:0] sh_pool_wa;
logic [15:0] sh_rmap_rd, sh_pool_rd;
logic [8:0] sh_fcnt_rd;
logic [31:0] sh_map_rd;
logic [13:0] ix_rmap, ix_fcnt, ix_map, ix_pool, ix_cpu3;   // array indices of wa

fs_ram_sdp #(.DATA_WIDTH(16), .ADDR_WIDTH(CL)) sh_rmap (
    .clk(clk), .wr_en(sh_wr_rmap), .wr_addr(sh_rmap_wa), .wr_data(sh_wr_data[15:0]),
    .rd_en(st_reg == ST_RD1), .rd_addr(CL'(ix_rmap)), .rd_data(sh_rmap_rd));
fs_ram_sdp #(.DATA_WIDTH(9), .ADDR_WIDTH(QL)) sh_fcnt (
    .clk(clk), .wr_en(sh_wr_fcnt), .wr_addr(sh_q_wa), .wr_data(sh_wr_data[8:0]),
    .rd_en(st_reg == ST_RD1), .rd_addr(QL'(ix_fcnt)), .rd_data(sh_fcnt_rd));
fs_ram_sdp #(.DATA_WIDTH(32), .ADDR_WIDTH(QL)) sh_map (
    .clk(clk), .wr_en(sh_wr_map), .wr_addr(sh_q_wa), .wr_data(sh_wr_data),
    .rd_en(st_reg == ST_RD1), .rd_addr(QL'(ix_map)), .rd_data(sh_map_rd));
fs_ram_sdp #(.DATA_WIDTH(16), .ADDR_WIDTH(PL)) sh_pool (
    .clk(clk), .wr_en(sh_wr_pool), .wr_addr(sh_pool_wa), .wr_data(sh_wr_data[15:0]),
    .rd_en(st_reg == ST_RD1), .rd_addr(PL'(ix_pool)), .rd_data(sh_pool_rd));

// ---------------------------------------------------------------- address decode

logic [31:0] caps0, caps1, status;
always_comb begin
    caps0 = (32'(LUT_LOG2) << FS_CAPS0_LUT_LOG2_LSB) | (32'(CPU_LOG2) << FS_CAPS0_CPU_LOG2_LSB) |
            (32'(QUEUE_LOG2) << FS_CAPS0_QUEUE_LOG2_LSB) |
            (32'(SLOT_LOG2) << FS_CAPS0_SLOT_LOG2_LSB);
    caps1 = (32'(FLT_BUCKET_BITS) << FS_CAPS1_FLT_BUCKET_BITS_LSB) |
            (32'(FLT_WAYS) << FS_CAPS1_FLT_WAYS_LSB) |
            (32'(ID_WIDTH) << FS_CAPS1_FLT_ID_WIDTH_LSB) |
            (32'(SOCK_LOG2) << FS_CAPS1_SOCK_LOG2_LSB) | (32'(EVT_LOG2) << FS_CAPS1_EVT_LOG2_LSB);
    status = (32'(stat_init_busy || st_reg == ST_INIT) << FS_STATUS_INIT_BUSY_LSB) |
             (32'(flt_pending_reg || flt_busy) << FS_STATUS_FLT_BUSY_LSB);
end

// ---------------------------------------------------------------- decode
// the map's decode table (FS_DEC_*, the one EngineRegisterFile walks as regs::decode): each
// array implemented up to the size that bounds it, the blocks the NIC plane lacks SLVERR.
// Registered: sel_reg is valid from ST_REQ (tx_addr is taken in ST_IDLE, ST_DEC waits one
// clock), so ord_free, ord_core and ord_rec come from a register, not through the decode's
// compares.
logic [FS_DEC_N-1:0] dec_hit;
for (genvar i = 0; i < FS_DEC_N; i++) begin : g_dec
    localparam integer BASE = 32'(FS_DEC_WADDR[FS_DEC_WADDR_W*i +: FS_DEC_WADDR_W]);
    localparam integer WS = 32'(FS_DEC_WSTRIDE_LOG2[FS_DEC_WSTRIDE_LOG2_W*i +: FS_DEC_WSTRIDE_LOG2_W]);
    localparam integer IMPL = fs_dec_impl(i, LUT_LOG2, CPU_LOG2, QUEUE_LOG2, RPS_POOL_LOG2);
    localparam bit BUILT = EN || FS_DEC_NIC[i];
    if (IMPL == 1) begin : g_one
        assign dec_hit[i] = BUILT && wa == 14'(BASE);
    end else begin : g_arr
        assign dec_hit[i] = BUILT && {1'b0, wa} + 15'd1 > 15'(BASE) &&
                            {1'b0, wa} < 15'(BASE + (IMPL << WS)) && (WS == 0 || wa[0] == BASE[0]);
    end
end

// Transactions on these registers (constants and the staging registers of the FLT, SOCK
// and EXP commands) neither read nor change state a packet reads or changes: they need no
// place among the packets (ord_free), only among the transactions.
localparam logic [FS_DEC_N-1:0] FREE_SEL =
    (FS_DEC_N'(1) << FS_REG_ID) | (FS_DEC_N'(1) << FS_REG_VERSION) |
    (FS_DEC_N'(1) << FS_REG_CAPS0) | (FS_DEC_N'(1) << FS_REG_CAPS1) |
    (FS_DEC_N'(1) << FS_REG_SCRATCH) | (FS_DEC_N'(1) << FS_REG_FLT_SRC) |
    (FS_DEC_N'(1) << FS_REG_FLT_DST) | (FS_DEC_N'(1) << FS_REG_FLT_PORTS) |
    (FS_DEC_N'(1) << FS_REG_FLT_META) | (FS_DEC_N'(1) << FS_REG_FLT_ID) |
    (FS_DEC_N'(1) << FS_REG_FLT_QUEUE) | (FS_DEC_N'(1) << FS_REG_SOCK_INDEX) |
    (FS_DEC_N'(1) << FS_REG_SOCK_VALUE) | (FS_DEC_N'(1) << FS_REG_EXP_QUEUE) |
    (FS_DEC_N'(1) << FS_REG_EXP_FLOW_ID) | (FS_DEC_N'(1) << FS_REG_EXP_FILTER_ID);

// These only run fs_rfs_core commands (the runtime's SOCK_CMD, HEAD_ADD, BACKLOG_DRAIN,
// HEAD/TAIL reads and EXP_CMD): the top orders them at the RFS core input (ord_core).
localparam logic [FS_DEC_N-1:0] CORE_SEL =
    (FS_DEC_N'(1) << FS_REG_SOCK_CMD) | (FS_DEC_N'(1) << FS_REG_HEAD_ADD) |
    (FS_DEC_N'(1) << FS_REG_BACKLOG_DRAIN) | (FS_DEC_N'(1) << FS_REG_HEAD) |
    (FS_DEC_N'(1) << FS_REG_TAIL) | (FS_DEC_N'(1) << FS_REG_EXP_CMD);

// These change or read what the front end uses between the order gate and the issue stage M
// (enable and mode, the hash, the RSS LUT, the filter table): the top drains the pipeline
// for them. Every other decoded register is ordered at the record (ord_rec): the RFS core,
// the steer driver and the counters are all the packets before it touch.
// The event FIFO's registers: only the steer driver's calls push to it, so these wait for the
// packets before them to leave stage D (their calls done), and the packets after them go on
// to D, where the top holds a driver call until the transaction has run (ord_drv).
localparam logic [FS_DEC_N-1:0] DRV_SEL =
    (FS_DEC_N'(1) << FS_REG_EVT_STATUS) | (FS_DEC_N'(1) << FS_REG_EVT_POP) |
    (FS_DEC_N'(1) << FS_REG_EVT_INFO) | (FS_DEC_N'(1) << FS_REG_EVT_FILTER) |
    (FS_DEC_N'(1) << FS_REG_EVT_FLOW_ID) | (FS_DEC_N'(1) << FS_REG_EVT_HASH) |
    (FS_DEC_N'(1) << FS_REG_EVT_PORTS) | (FS_DEC_N'(1) << FS_REG_EVT_SRC) |
    (FS_DEC_N'(1) << FS_REG_EVT_DST);

localparam logic [FS_DEC_N-1:0] DRAIN_SEL =
    (FS_DEC_N'(1) << FS_REG_CTRL) | (FS_DEC_N'(1) << FS_REG_LUT_CFG) |
    (FS_DEC_N'(1) << FS_REG_HASH_CFG) | (FS_DEC_N'(1) << FS_REG_HASH_SEED) |
    (FS_DEC_N'(1) << FS_REG_RSS_KEY) | (FS_DEC_N'(1) << FS_REG_LUT) |
    (FS_DEC_N'(1) << FS_REG_FLT_CMD);

logic [FS_DEC_N-1:0] sel_reg = '0;
always_ff @(posedge clk) begin
    sel_reg <= dec_hit;
end

logic a_online, a_key, a_fsrc, a_fdst, a_lut, a_cnt, a_esrc, a_edst, a_rmap, a_fcnt, a_map;
logic a_hadd, a_head, a_tail, a_pool;
logic [13:0] ix_cnt;
assign a_online = sel_reg[FS_REG_CPU_ONLINE];
assign a_key = sel_reg[FS_REG_RSS_KEY];
assign a_fsrc = sel_reg[FS_REG_FLT_SRC];
assign a_fdst = sel_reg[FS_REG_FLT_DST];
assign a_lut = sel_reg[FS_REG_LUT];
assign a_cnt = sel_reg[FS_REG_CNT_LO] || sel_reg[FS_REG_CNT_HI];
assign a_esrc = sel_reg[FS_REG_EVT_SRC];
assign a_edst = sel_reg[FS_REG_EVT_DST];
assign a_rmap = sel_reg[FS_REG_RMAP];
assign a_fcnt = sel_reg[FS_REG_RPS_FLOW_CNT];
assign a_map = sel_reg[FS_REG_RPS_MAP];
assign a_hadd = sel_reg[FS_REG_HEAD_ADD];
assign a_head = sel_reg[FS_REG_HEAD];
assign a_tail = sel_reg[FS_REG_TAIL];
assign a_pool = sel_reg[FS_REG_RPS_MAP_CPUS];
// element indices inside the small arrays held in flip-flops
logic [4:0] ix_on;
logic [3:0] ix_key;
logic [1:0] ix_fsrc, ix_fdst, ix_esrc, ix_edst;
always_comb begin
    ix_cnt = wa - FS_CNT_LO_ADDR[15:2];
    ix_rmap = wa - FS_RMAP_ADDR[15:2];
    ix_fcnt = wa - FS_RPS_FLOW_CNT_ADDR[15:2];
    ix_map = wa - FS_RPS_MAP_ADDR[15:2];
    ix_pool = wa - FS_RPS_MAP_CPUS_ADDR[15:2];
    ix_cpu3 = a_hadd ? wa - FS_HEAD_ADD_ADDR[15:2] :
              a_head ? wa - FS_HEAD_ADDR[15:2] : wa - FS_TAIL_ADDR[15:2];
    ix_on = 5'(wa - FS_CPU_ONLINE_ADDR[15:2]);
    ix_key = 4'(wa - FS_RSS_KEY_ADDR[15:2]);
    ix_fsrc = 2'(wa - FS_FLT_SRC_ADDR[15:2]);
    ix_fdst = 2'(wa - FS_FLT_DST_ADDR[15:2]);
    ix_esrc = 2'(wa - FS_EVT_SRC_ADDR[15:2]);
    ix_edst = 2'(wa - FS_EVT_DST_ADDR[15:2]);
end

// ---------------------------------------------------------------- read value
// Register value (read data and the old value of a read-modify-write), whether the address
// is implemented (ok), its field mask and access class: one AND-OR over the selected
// register, computed in ST_RD2 (RAMs read in ST_RD1) and registered for ST_EXEC. Nothing it
// reads changes in between: the transaction holds ord_grant.
logic [31:0] flt_status, flt_result, evt_status, evt_info, evt_filter, evt_flow_word;
logic [31:0] evt_hash_word, evt_ports;
always_comb begin
    flt_status = (32'(flt_pending_reg || flt_busy) << FS_FLT_STATUS_BUSY_LSB) |
                 (32'(flt_done_reg) << FS_FLT_STATUS_DONE_LSB) |
                 (32'(flt_err_reg) << FS_FLT_STATUS_ERR_LSB);
    flt_result = (32'(flt_res_queue_reg) << FS_FLT_RESULT_QUEUE_LSB) |
                 (32'(flt_res_id_reg) << FS_FLT_RESULT_ID_LSB);
    evt_status = (32'(evt_count) << FS_EVT_STATUS_COUNT_LSB) |
                 (32'(evt_count != 16'd0) << FS_EVT_STATUS_VALID_LSB);
    evt_info = evt_valid ? (32'(evt_type) << FS_EVT_INFO_TYPE_LSB) |
                           (32'(evt_ipv6) << FS_EVT_INFO_IPV6_LSB) |
                           (32'(evt_proto) << FS_EVT_INFO_PROTO_LSB) : 32'd0;
    evt_filter = evt_valid ? (32'(evt_id) << FS_EVT_FILTER_ID_LSB) |
                             (32'(evt_queue) << FS_EVT_FILTER_QUEUE_LSB) : 32'd0;
    evt_flow_word = evt_valid ? evt_flow_id : 32'd0;
    evt_hash_word = evt_valid ? evt_hash : 32'd0;
    evt_ports = evt_valid ? (32'(evt_sport) << FS_EVT_PORTS_SPORT_LSB) |
                            (32'(evt_dport) << FS_EVT_PORTS_DPORT_LSB) : 32'd0;
end

logic rd_ok, is_rw, is_wo;
logic [31:0] rd_value, rd_mask;
always_comb begin
    rd_ok = |sel_reg;
    if (EN && tx_addr_reg[1:0] != 2'b00) rd_ok = 1'b0;   // the model: unaligned is unmapped
    is_rw = 1'b0;
    is_wo = 1'b0;
    rd_mask = 32'd0;
    for (int i = 0; i < FS_DEC_N; i++) begin
        if (sel_reg[i] && FS_DEC_ACCESS[FS_DEC_ACCESS_W*i +: FS_DEC_ACCESS_W] == 2'd0) is_rw = 1'b1;
        if (sel_reg[i] && FS_DEC_ACCESS[FS_DEC_ACCESS_W*i +: FS_DEC_ACCESS_W] == 2'd3) is_wo = 1'b1;
        rd_mask = rd_mask | ({32{sel_reg[i]}} & FS_DEC_MASK[FS_DEC_MASK_W*i +: FS_DEC_MASK_W]);
    end
    rd_value = 32'd0;
    rd_value = rd_value | ({32{sel_reg[FS_REG_ID]}} & FS_ID_RESET);
    rd_value = rd_value | ({32{sel_reg[FS_REG_VERSION]}} & FS_VERSION_RESET);
    rd_value = rd_value | ({32{sel_reg[FS_REG_CAPS0]}} & caps0);
    rd_value = rd_value | ({32{sel_reg[FS_REG_CAPS1]}} & caps1);
    rd_value = rd_value | ({32{sel_reg[FS_REG_CTRL]}} & ctrl_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_STATUS]}} & status);
    rd_value = rd_value | ({32{sel_reg[FS_REG_ERR_STATUS]}} & err_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_SCRATCH]}} & scratch_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_OWNER]}} & owner_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_NR_CPU_IDS]}} & nr_cpu_ids_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_NUM_RX_QUEUES]}} & num_rx_queues_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_RPS_CPU_MASK]}} & rps_cpu_mask_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_SOCK_CFG]}} & sock_cfg_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_LUT_CFG]}} & lut_cfg_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_HASH_CFG]}} & hash_cfg_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_HASH_SEED]}} & hash_seed_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_PORTS]}} & flt_ports_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_META]}} & flt_meta_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_ID]}} & flt_id_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_QUEUE]}} & flt_queue_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_STATUS]}} & flt_status);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_RESULT]}} & flt_result);
    rd_value = rd_value | ({32{sel_reg[FS_REG_FLT_COUNT]}} & flt_count);
    rd_value = rd_value | ({32{sel_reg[FS_REG_SOCK_INDEX]}} & sock_index_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_SOCK_VALUE]}} & sock_value_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EXP_QUEUE]}} & exp_queue_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EXP_FLOW_ID]}} & exp_flow_id_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EXP_FILTER_ID]}} & exp_filter_id_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EXP_STATUS]}} & exp_status_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_STATUS]}} & evt_status);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_INFO]}} & evt_info);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_FILTER]}} & evt_filter);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_FLOW_ID]}} & evt_flow_word);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_HASH]}} & evt_hash_word);
    rd_value = rd_value | ({32{sel_reg[FS_REG_EVT_PORTS]}} & evt_ports);
    rd_value = rd_value | ({32{sel_reg[FS_REG_LUT]}} & 32'(lut_rd_queue));
    rd_value = rd_value | ({32{sel_reg[FS_REG_CNT_LO]}} & cnt_value[31:0]);
    rd_value = rd_value | ({32{sel_reg[FS_REG_CNT_HI]}} & cnt_hi_reg);
    rd_value = rd_value | ({32{sel_reg[FS_REG_RMAP]}} & 32'(sh_rmap_rd));
    rd_value = rd_value | ({32{sel_reg[FS_REG_RPS_FLOW_CNT]}} & 32'(sh_fcnt_rd));
    rd_value = rd_value | ({32{sel_reg[FS_REG_RPS_MAP]}} & sh_map_rd);
    rd_value = rd_value | ({32{sel_reg[FS_REG_RPS_MAP_CPUS]}} & 32'(sh_pool_rd));
    for (int i = 0; i < ONLINE_WORDS; i++) begin
        if (a_online && ix_on == 5'(i)) rd_value = rd_value | online_reg[32*i +: 32];
    end
    for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
        if (a_key && ix_key == 4'(i)) rd_value = rd_value | rss_key_reg[415-32*i -: 32];
    end
    for (int i = 0; i < 4; i++) begin
        if (a_fsrc && ix_fsrc == 2'(i)) rd_value = rd_value | flt_src_reg[127-32*i -: 32];
        if (a_fdst && ix_fdst == 2'(i)) rd_value = rd_value | flt_dst_reg[127-32*i -: 32];
        if (a_esrc && ix_esrc == 2'(i) && evt_valid) rd_value = rd_value | evt_src[127-32*i -: 32];
        if (a_edst && ix_edst == 2'(i) && evt_valid) rd_value = rd_value | evt_dst[127-32*i -: 32];
    end
end

logic rd_ok_reg, is_rw_reg, is_wo_reg;
logic [31:0] rd_value_reg, rd_mask_reg;
always_ff @(posedge clk) begin
    if (st_reg == ST_RD2) begin
        rd_ok_reg <= rd_ok;
        is_rw_reg <= is_rw;
        is_wo_reg <= is_wo;
        rd_value_reg <= rd_value;
        rd_mask_reg <= rd_mask;
    end
end

// write value: RW merges the byte strobes into the old value and keeps the fields.
// wv and wr_bad are registered in ST_WV (the merge, the range checks and the command list
// after them do not fit one clock's LUT depth); ST_EXEC uses the registers.
logic [31:0] wmask, wv_c;
always_comb begin
    for (int b = 0; b < 4; b++) begin
        wmask[8*b +: 8] = {8{tx_strb_reg[b]}};
    end
    wv_c = is_rw_reg ? (((rd_value_reg & ~wmask) | (tx_data_reg & wmask)) & rd_mask_reg) : tx_data_reg;
end

// values the engine cannot hold (the model's SLVERR cases; ENGINE only), checked on wv
// registered: a write to a checked register stays in ST_WV a second clock, in which wr_bad
// takes the checks of the right wv (the merge, the compares and their OR were 7 LUT levels)
logic wr_bad_c, wv_chk;
logic [31:0] wv;
logic wr_bad;
always_ff @(posedge clk) begin
    if (st_reg == ST_WV) begin
        wv <= wv_c;
        wr_bad <= wr_bad_c;
    end
end
// each checked register names its check once: chk (the register has one) and its result
logic chk;
always_comb begin
    chk = 1'b0;
    wr_bad_c = 1'b0;
    case (1'b1)
        sel_reg[FS_REG_NR_CPU_IDS]: {chk, wr_bad_c} = {1'b1, wv == 32'd0 || wv > 32'(CPUS)};
        sel_reg[FS_REG_NUM_RX_QUEUES]: {chk, wr_bad_c} = {1'b1, wv == 32'd0 || wv > 32'(QUEUES)};
        sel_reg[FS_REG_SOCK_CFG]: {chk, wr_bad_c} = {1'b1, wv[4:0] > 5'(SOCK_LOG2)};
        sel_reg[FS_REG_LUT_CFG]: {chk, wr_bad_c} = {1'b1, wv[4:0] > 5'(LUT_LOG2)};
        sel_reg[FS_REG_HASH_CFG]: {chk, wr_bad_c} = {1'b1, wv[1:0] == 2'd3};
        sel_reg[FS_REG_BACKLOG_DRAIN]: {chk, wr_bad_c} = {1'b1, wv >= 32'(CPUS)};
        default: begin
        end
    endcase
    if (a_rmap || a_lut) {chk, wr_bad_c} = {1'b1, wr_bad_c || wv >= 32'(QUEUES)};
    if (a_fcnt) {chk, wr_bad_c} = {1'b1, wr_bad_c || wv[4:0] > 5'(SLOT_LOG2)};
    if (a_map) {chk, wr_bad_c} = {1'b1, wr_bad_c || 33'(wv[31:16]) + 33'(wv[15:0]) > 33'(POOL)};
    if (a_pool) {chk, wr_bad_c} = {1'b1, wr_bad_c || wv >= 32'(CPUS)};
    wv_chk = EN && tx_wr_reg && chk;
    wr_bad_c = EN && wr_bad_c;
end

// ---------------------------------------------------------------- RFS-core sequences
// A register write or read becomes a short list of fs_rfs_core commands. Per-CPU commands
// check cpu < nr_cpu_ids in the core, while the model's registers reach every implemented
// CPU: they run between SET_NR_CPU_IDS(CPUS) and SET_NR_CPU_IDS(nr_cpu_ids).
// The core derives rps_cpu_mask from nr_cpu_ids when a sock table is sized; the engine's
// mask is always the RPS_CPU_MASK register (as the model's): a RPS_CPU_MASK write sets it
// with SET_CPU_MASK, a SOCK_CFG write ends with SET_CPU_MASK(RPS_CPU_MASK).
// fs_reg_sequencer plays the list; CPU_ONLINE words and the init sequence are its own lists.

// The command list of the transaction in ST_EXEC (fs_reg_sequencer takes it there).
logic [2:0] l_n;
logic [4:0] l_op [4];
logic [15:0] l_addr [4];
logic [31:0] l_d0 [4], l_d1 [4];
always_comb begin
    l_n = 3'd0;
    for (int k = 0; k < 4; k++) begin
        l_op[k] = OP_SET_NR_CPU_IDS;
        l_addr[k] = 16'd0;
        l_d0[k] = nr_cpu_ids_reg;
        l_d1[k] = 32'd0;
    end
    if (!tx_wr_reg) begin
        if (a_head || a_tail) begin
            // READ_HEAD_TAIL reaches any implemented CPU
            l_n = 3'd1;
            l_op[0] = OP_READ_HEAD_TAIL;
            l_addr[0] = 16'(ix_cpu3);
        end
    end else if (sel_reg[FS_REG_CTRL]) begin
        l_n = 3'd1;
        l_op[0] = OP_SET_MODE;
        l_d0[0] = mode_word(wv);
    end else if (sel_reg[FS_REG_NR_CPU_IDS]) begin
        l_n = 3'd1;
        l_d0[0] = wv;
    end else if (sel_reg[FS_REG_RPS_CPU_MASK]) begin
        l_n = 3'd1;
        l_op[0] = OP_SET_CPU_MASK;
        l_d0[0] = wv;
    end else if (sel_reg[FS_REG_SOCK_CFG]) begin
        // a write clears the table: remove it, size it anew, then the mask is RPS_CPU_MASK
        // again (SOCK_SIZE recomputes it from nr_cpu_ids)
        l_n = wv[FS_SOCK_CFG_PRESENT_LSB] ? 3'd3 : 3'd2;
        l_op[0] = OP_SOCK_SIZE;
        l_d0[0] = 32'd0;
        l_op[1] = wv[FS_SOCK_CFG_PRESENT_LSB] ? OP_SOCK_SIZE : OP_SET_CPU_MASK;
        l_d0[1] = wv[FS_SOCK_CFG_PRESENT_LSB] ? 32'(wv[4:0]) : rps_cpu_mask_reg;
        l_d1[1] = 32'd1;
        l_op[2] = OP_SET_CPU_MASK;
        l_d0[2] = rps_cpu_mask_reg;
    end else if (sel_reg[FS_REG_SOCK_CMD]) begin
        // WRITE, then READ (a failed WRITE answers SLVERR and skips the READ)
        l_n = 3'(tx_data_reg[FS_SOCK_CMD_WRITE_LSB]) + 3'(tx_data_reg[FS_SOCK_CMD_READ_LSB]);
        l_op[0] = tx_data_reg[FS_SOCK_CMD_WRITE_LSB] ? OP_SOCK_WRITE : OP_SOCK_READ;
        l_d0[0] = sock_index_reg;
        l_d1[0] = sock_value_reg;
        l_op[1] = OP_SOCK_READ;
        l_d0[1] = sock_index_reg;
    end else if (sel_reg[FS_REG_EXP_CMD]) begin
        // rxq_index >= real_num_rx_queues: "may expire" without asking the core
        l_n = (tx_data_reg[FS_EXP_CMD_GO_LSB] && exp_queue_reg < num_rx_queues_reg) ? 3'd1 : 3'd0;
        l_op[0] = OP_MAY_EXPIRE;
        l_addr[0] = exp_queue_reg[15:0];
        l_d0[0] = exp_flow_id_reg;
        l_d1[0] = {16'd0, exp_filter_id_reg[15:0]};
    end else if (a_hadd) begin
        // HEAD_ADD reaches any implemented CPU
        l_n = 3'd1;
        l_op[0] = OP_HEAD_ADD;
        l_addr[0] = 16'(ix_cpu3);
        l_d0[0] = wv;
    end else if (sel_reg[FS_REG_BACKLOG_DRAIN]) begin
        // the CPU is the written value (any implemented CPU, checked above)
        l_n = 3'd1;
        l_op[0] = OP_BACKLOG_DRAIN;
        l_addr[0] = wv[15:0];
    end else if (a_rmap) begin
        // SET_RMAP checks cpu < nr_cpu_ids: raise it to every implemented CPU around it
        l_n = 3'd3;
        l_d0[0] = 32'(CPUS);
        l_op[1] = OP_SET_RMAP;
        l_addr[1] = 16'(ix_rmap);
        l_d0[1] = wv;
    end else if (a_fcnt) begin
        // a write resets every slot of the queue (a new table)
        l_n = 3'd1;
        l_op[0] = OP_QUEUE_TABLE;
        l_addr[0] = 16'(ix_fcnt);
        l_d0[0] = 32'(wv[4:0]);
        l_d1[0] = 32'(wv[FS_RPS_FLOW_CNT_PRESENT_LSB]);
    end else if (a_map) begin
        l_n = 3'd1;
        l_op[0] = OP_RPS_MAP;
        l_addr[0] = 16'(ix_map);
        l_d0[0] = 32'(wv[15:0]);
        l_d1[0] = 32'(wv[31:16]);
    end else if (a_pool) begin
        l_n = 3'd1;
        l_op[0] = OP_RPS_POOL;
        l_d0[0] = 32'(ix_pool);
        l_d1[0] = wv;
    end
end

// ---------------------------------------------------------------- main FSM
logic [3:0] flt_op_w;
logic init_done, exec_list, exec_online, list_go;
logic wv_held_reg = 1'b0;                // ST_WV for a clock already: wv and wr_bad are registered
always_comb begin
    flt_op_w = tx_data_reg[FS_FLT_CMD_OP_LSB +: FS_FLT_CMD_OP_WIDTH];
    // the shadows are clear: the init list brings fs_rfs_core to the reset state
    init_done = st_reg == ST_INIT && EN && sweep_end_reg;
    // the access's command list, or a CPU_ONLINE word (a write that stores)
    list_go = EN && rd_ok_reg && !(tx_wr_reg && wr_bad) && l_n != 3'd0;
    exec_list = st_reg == ST_EXEC && list_go;
    exec_online = st_reg == ST_EXEC && EN && tx_wr_reg && rd_ok_reg && !wr_bad && is_rw_reg &&
                  a_online;
end

always_ff @(posedge clk) begin
    cnt_clear_reg <= 1'b0;
    wv_held_reg <= st_reg == ST_WV && !rst;
    sock_wr_reg <= 1'b0;
    lut_wr_en_reg <= 1'b0;
    evt_pop_reg <= 1'b0;
    flt_del_reg <= 1'b0;
    ord_done_reg <= 1'b0;

    // filter command handshake and result (both modes)
    if (flt_cmd_valid && flt_cmd_ready) begin
        flt_pending_reg <= 1'b0;
        flt_wait_reg <= 1'b1;
    end
    if (flt_rsp_valid && flt_wait_reg) begin
        flt_wait_reg <= 1'b0;
        flt_done_reg <= 1'b1;
        flt_err_reg <= flt_rsp_err;
        // FLT_RESULT: the filter found by a LOOKUP hit or an INSERT that met EXISTS
        if ((flt_op_reg == 4'(FS_FILTER_OP_LOOKUP) && flt_rsp_err == 4'(FS_FILTER_ERR_OK)) ||
            (flt_op_reg == 4'(FS_FILTER_OP_INSERT) && flt_rsp_err == 4'(FS_FILTER_ERR_EXISTS))) begin
            flt_res_id_reg <= flt_rsp_id;
            flt_res_queue_reg <= flt_rsp_queue;
        end else begin
            flt_res_id_reg <= '0;
            flt_res_queue_reg <= '0;
        end
        flt_del_reg <= flt_op_reg == 4'(FS_FILTER_OP_DELETE) && flt_rsp_err == 4'(FS_FILTER_ERR_OK);
    end

    if (evt_overflow_set) evt_ovf_pend_reg <= 1'b1;
    if (!EN && evt_overflow_set) err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] <= 1'b1;

    // shadow RAM writes are single-clock pulses
    sh_wr_rmap <= 1'b0;
    sh_wr_fcnt <= 1'b0;
    sh_wr_map <= 1'b0;
    sh_wr_pool <= 1'b0;

    case (st_reg)
        ST_INIT: begin
            // ENGINE: zero the shadow RAMs, then bring the RFS core to the reset state
            sweep_reg <= sweep_reg + SWEEP_W'(1);
            if (32'(sweep_reg) == 32'(SWEEP_END - 1)) sweep_end_reg <= 1'b1;
            sh_wr_data <= 32'd0;
            sh_wr_rmap <= EN;
            sh_wr_fcnt <= EN;
            sh_wr_map <= EN;
            sh_wr_pool <= EN;
            sh_rmap_wa <= CL'(sweep_reg);
            sh_q_wa <= QL'(sweep_reg);
            sh_pool_wa <= PL'(sweep_reg);
            // the model's LUT starts at 0 (ENGINE); the NIC plane leaves it undefined
            lut_wr_en_reg <= EN && 32'(sweep_reg) < 32'(LUT_DEPTH);
            lut_wr_index_reg <= LUT_LOG2'(sweep_reg);
            lut_wr_queue_reg <= '0;
            if (!EN) begin
                st_reg <= ST_IDLE;
            end else if (init_done) begin
                // fs_reg_sequencer plays the init list (seq_start)
                sh_wr_rmap <= 1'b0;
                sh_wr_fcnt <= 1'b0;
                sh_wr_map <= 1'b0;
                sh_wr_pool <= 1'b0;
                init_seq_reg <= 1'b1;
                tx_err_reg <= 1'b0;
                tx_wr_reg <= 1'b0;
                st_reg <= ST_SEQ;
            end
        end
        ST_IDLE: begin
            if (tx_valid) begin
                tx_wr_reg <= tx_wr;
                tx_addr_reg <= tx_addr;
                if (tx_wr) begin
                    tx_data_reg <= tx_data;
                    tx_strb_reg <= tx_strb;
                end
                st_reg <= ST_DEC;
            end
        end
        ST_DEC: begin
            st_reg <= ST_REQ;
        end
        // A core transaction decodes (RD1, RD2, WV) while the packets ahead of it enter the
        // RFS core: it reads only staging registers and shadow RAMs, which no packet changes;
        // WV re-samples the same values until the grant. So does a write to the event FIFO
        // (EVT_POP: write-only, its value is the written data; EXEC reads the FIFO). The
        // others decode after the grant.
        ST_REQ: begin
            if (ord_grant || ord_core || (ord_drv && tx_wr_reg)) st_reg <= ST_RD1;
        end
        ST_RD1: begin
            st_reg <= ST_RD2;
        end
        ST_RD2: begin
            st_reg <= ST_WV;
        end
        // A placed core transaction that plays a command list starts it before its grant: the
        // order gate hides the commands from the core until the packets ahead are in it
        // (core_cmd_ok), and nothing else its EXEC does is read by a packet.
        ST_WV: begin
            if ((ord_grant && (wv_held_reg || !wv_chk)) ||
                (ord_core && ord_placed && wv_held_reg && list_go)) st_reg <= ST_EXEC;
        end
        ST_EXEC: begin
            tx_err_reg <= !rd_ok_reg;
            st_reg <= ST_DONE;
            sh_wr_data <= wv;
            sh_rmap_wa <= CL'(ix_rmap);
            sh_q_wa <= QL'(a_fcnt ? ix_fcnt : ix_map);
            sh_pool_wa <= PL'(ix_pool);
            if (exec_list) st_reg <= ST_SEQ;
            if (!tx_wr_reg) begin
                // ---------------- read
                rdata_reg <= rd_ok_reg ? rd_value_reg : 32'd0;
                if (rd_ok_reg && sel_reg[FS_REG_ERR_STATUS] && EN) begin
                    rdata_reg <= rd_value_reg | (32'(evt_ovf_pend_reg) << FS_ERR_STATUS_EVT_OVERFLOW_LSB);
                    err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] <= err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] ||
                                                              evt_ovf_pend_reg;
                    evt_ovf_pend_reg <= evt_overflow_set;
                end
                if (a_cnt && !ix_cnt[0]) cnt_hi_reg <= cnt_value[63:32];
            end else if (!rd_ok_reg || wr_bad) begin
                // ---------------- write: SLVERR, nothing changes
                tx_err_reg <= 1'b1;
            end else if (is_rw_reg) begin
                // ---------------- RW registers: store, then side effects
                case (1'b1)
                    sel_reg[FS_REG_CTRL]: begin
                        ctrl_reg <= wv;
                    end
                    sel_reg[FS_REG_SCRATCH]: scratch_reg <= wv;
                    sel_reg[FS_REG_OWNER]: owner_reg <= wv;
                    sel_reg[FS_REG_NR_CPU_IDS]: begin
                        nr_cpu_ids_reg <= wv;
                    end
                    sel_reg[FS_REG_NUM_RX_QUEUES]: num_rx_queues_reg <= wv;
                    sel_reg[FS_REG_RPS_CPU_MASK]: begin
                        rps_cpu_mask_reg <= wv;
                    end
                    sel_reg[FS_REG_SOCK_CFG]: begin
                        sock_cfg_reg <= wv;
                        sock_wr_reg <= 1'b1;
                    end
                    sel_reg[FS_REG_LUT_CFG]: lut_cfg_reg <= wv;
                    sel_reg[FS_REG_HASH_CFG]: hash_cfg_reg <= wv;
                    sel_reg[FS_REG_HASH_SEED]: hash_seed_reg <= wv;
                    sel_reg[FS_REG_FLT_PORTS]: flt_ports_reg <= wv;
                    sel_reg[FS_REG_FLT_META]: flt_meta_reg <= wv;
                    sel_reg[FS_REG_FLT_ID]: flt_id_reg <= wv;
                    sel_reg[FS_REG_FLT_QUEUE]: flt_queue_reg <= wv;
                    sel_reg[FS_REG_SOCK_INDEX]: sock_index_reg <= wv;
                    sel_reg[FS_REG_SOCK_VALUE]: sock_value_reg <= wv;
                    sel_reg[FS_REG_EXP_QUEUE]: exp_queue_reg <= wv;
                    sel_reg[FS_REG_EXP_FLOW_ID]: exp_flow_id_reg <= wv;
                    sel_reg[FS_REG_EXP_FILTER_ID]: exp_filter_id_reg <= wv;
                    default: begin
                        for (int i = 0; i < ONLINE_WORDS; i++) begin
                            if (a_online && ix_on == 5'(i)) online_reg[32*i +: 32] <= wv;
                        end
                        for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
                            if (a_key && ix_key == 4'(i)) rss_key_reg[415-32*i -: 32] <= wv;
                        end
                        for (int i = 0; i < 4; i++) begin
                            if (a_fsrc && ix_fsrc == 2'(i)) flt_src_reg[127-32*i -: 32] <= wv;
                            if (a_fdst && ix_fdst == 2'(i)) flt_dst_reg[127-32*i -: 32] <= wv;
                        end
                        if (exec_online) st_reg <= ST_SEQ;   // fs_reg_sequencer: ONLINE list
                        if (a_lut) begin
                            // ENGINE: strobes merged (wv); NIC plane: the entry is written whole
                            lut_wr_en_reg <= 1'b1;
                            lut_wr_index_reg <= LUT_LOG2'(wa - FS_LUT_ADDR[15:2]);
                            lut_wr_queue_reg <= EN ? QUEUE_WIDTH'(wv) : tx_data_reg[QUEUE_WIDTH-1:0];
                        end
                        if (a_rmap) begin
                            sh_wr_rmap <= 1'b1;
                        end
                        if (a_fcnt) begin
                            // a write resets every slot of the queue (a new table)
                            sh_wr_fcnt <= 1'b1;
                        end
                        if (a_map) begin
                            sh_wr_map <= 1'b1;
                        end
                        if (a_pool) begin
                            sh_wr_pool <= 1'b1;
                        end
                    end
                endcase
            end else if (sel_reg[FS_REG_ERR_STATUS]) begin
                err_reg <= err_reg & ~tx_data_reg;
            end else if (is_wo_reg) begin
                // ---------------- commands (any strobe)
                case (1'b1)
                    sel_reg[FS_REG_CNT_CLEAR]: begin
                        if (tx_data_reg[FS_CNT_CLEAR_ALL_LSB]) begin
                            cnt_clear_reg <= 1'b1;
                            evt_ovf_pend_reg <= 1'b0;
                        end
                    end
                    sel_reg[FS_REG_FLT_CMD]: begin
                        if (flt_pending_reg || flt_busy || flt_wait_reg) begin
                            err_reg[FS_ERR_STATUS_CMD_BUSY_LSB] <= 1'b1;
                        end else if (EN && flt_op_w == 4'(FS_FILTER_OP_NOP)) begin
                            // the model: NOP is done and OK (the table answers BAD_OP)
                            flt_done_reg <= 1'b1;
                            flt_err_reg <= 4'(FS_FILTER_ERR_OK);
                            flt_res_id_reg <= '0;
                            flt_res_queue_reg <= '0;
                        end else begin
                            flt_pending_reg <= 1'b1;
                            flt_op_reg <= flt_op_w;
                            flt_done_reg <= 1'b0;
                            if (EN) st_reg <= ST_FLT;
                        end
                    end
                    sel_reg[FS_REG_EXP_CMD]: begin
                        if (tx_data_reg[FS_EXP_CMD_GO_LSB]) begin
                            // rxq_index >= real_num_rx_queues: "may expire" (model-notes)
                            exp_status_reg <= (32'd1 << FS_EXP_STATUS_DONE_LSB) |
                                              (32'd1 << FS_EXP_STATUS_MAY_EXPIRE_LSB);
                        end
                    end
                    sel_reg[FS_REG_EVT_POP]: begin
                        evt_pop_reg <= tx_data_reg[FS_EVT_POP_POP_LSB] && evt_valid;
                    end
                    default: begin
                        // SOCK_CMD and HEAD_ADD: their command lists (exec_list, ST_SEQ)
                    end
                endcase
            end
            // RO registers: ignored, OKAY
        end
        ST_SEQ: begin
            // fs_reg_sequencer plays the list; its answers fill the read data and results
            if (seq_res_valid) begin
                if (seq_res_op == OP_READ_HEAD_TAIL) rdata_reg <= a_head ? seq_res_data0 : seq_res_data1;
                if (seq_res_op == OP_SOCK_READ) sock_value_reg <= seq_res_data0;
                if (seq_res_op == OP_MAY_EXPIRE) begin
                    exp_status_reg <= (32'd1 << FS_EXP_STATUS_DONE_LSB) |
                                      (32'(seq_res_data0[0]) << FS_EXP_STATUS_MAY_EXPIRE_LSB);
                end
            end
            if (seq_done) begin
                st_reg <= ST_DONE;
                // only SOCK_WRITE / SOCK_READ can fail after the checks above
                if (seq_fail) tx_err_reg <= 1'b1;
                // the RFS core has executed the list: the packets after it may go one clock
                // earlier (ord_done with ST_DONE, not after it)
                ord_done_reg <= !init_seq_reg;
            end
        end
        ST_FLT: begin
            if (!flt_pending_reg && !flt_wait_reg) st_reg <= ST_DONE;
        end
        ST_DONE: begin
            // init sequence done, or a transaction executed: answer it
            // (rsp_valid answers on B or R, fs_axil_slave)
            st_reg <= ST_RESP;
            if (init_seq_reg) begin
                st_reg <= ST_IDLE;
                init_seq_reg <= 1'b0;
            end else begin
                ord_done_reg <= !ord_done_reg;   // once: a list pulsed it entering ST_DONE
            end
        end
        default: begin
            // ST_RESP: wait for the master to take B or R
            if (rsp_idle) st_reg <= ST_IDLE;
        end
    endcase

    if (rst) begin
        st_reg <= ST_INIT;
        init_seq_reg <= 1'b0;
        sweep_reg <= '0;
        sweep_end_reg <= 1'b0;
        ctrl_reg <= FS_CTRL_RESET;
        err_reg <= FS_ERR_STATUS_RESET;
        evt_ovf_pend_reg <= 1'b0;
        scratch_reg <= FS_SCRATCH_RESET;
        owner_reg <= FS_OWNER_RESET;
        nr_cpu_ids_reg <= FS_NR_CPU_IDS_RESET;
        num_rx_queues_reg <= FS_NUM_RX_QUEUES_RESET;
        rps_cpu_mask_reg <= FS_RPS_CPU_MASK_RESET;
        sock_cfg_reg <= FS_SOCK_CFG_RESET;
        lut_cfg_reg <= 32'(LUT_CFG_RESET);
        online_reg <= '0;
        hash_cfg_reg <= FS_HASH_CFG_RESET;
        hash_seed_reg <= FS_HASH_SEED_RESET;
        rss_key_reg <= '0;
        flt_src_reg <= '0;
        flt_dst_reg <= '0;
        flt_ports_reg <= FS_FLT_PORTS_RESET;
        flt_meta_reg <= FS_FLT_META_RESET;
        flt_id_reg <= FS_FLT_ID_RESET;
        flt_queue_reg <= FS_FLT_QUEUE_RESET;
        flt_pending_reg <= 1'b0;
        flt_wait_reg <= 1'b0;
        flt_op_reg <= '0;
        flt_done_reg <= 1'b0;
        flt_err_reg <= '0;
        flt_res_id_reg <= '0;
        flt_res_queue_reg <= '0;
        sock_index_reg <= FS_SOCK_INDEX_RESET;
        sock_value_reg <= FS_SOCK_VALUE_RESET;
        exp_queue_reg <= FS_EXP_QUEUE_RESET;
        exp_flow_id_reg <= FS_EXP_FLOW_ID_RESET;
        exp_filter_id_reg <= FS_EXP_FILTER_ID_RESET;
        exp_status_reg <= 32'd0;
        cnt_hi_reg <= 32'd0;
        cnt_clear_reg <= 1'b0;
        sock_wr_reg <= 1'b0;
        lut_wr_en_reg <= 1'b0;
        evt_pop_reg <= 1'b0;
        flt_del_reg <= 1'b0;
        ord_done_reg <= 1'b0;
        sh_wr_rmap <= 1'b0;
        sh_wr_fcnt <= 1'b0;
        sh_wr_map <= 1'b0;
        sh_wr_pool <= 1'b0;
    end
end

// ---------------------------------------------------------------- outputs
assign ord_req = (st_reg == ST_REQ) || (st_reg == ST_RD1) || (st_reg == ST_RD2) ||
                 (st_reg == ST_WV) || (st_reg == ST_EXEC) || (st_reg == ST_SEQ) || (st_reg == ST_FLT) ||
                 (st_reg == ST_DONE && !init_seq_reg);
assign ord_done = ord_done_reg;
// valid with ord_req and ord_done (tx_addr_reg holds from ST_REQ to ST_RESP)
// an address the map does not decode only answers SLVERR: free
assign ord_free = EN && ((sel_reg & FREE_SEL) != '0 || sel_reg == '0);
assign ord_core = EN && (sel_reg & CORE_SEL) != '0;
assign ord_rec = EN && (sel_reg & ~(FREE_SEL | CORE_SEL | DRV_SEL | DRAIN_SEL)) != '0;
assign ord_drv = EN && (sel_reg & DRV_SEL) != '0;

assign tx_take = (st_reg == ST_IDLE) && tx_valid;
assign rsp_valid = (st_reg == ST_DONE) && !init_seq_reg;
assign rsp_wr = tx_wr_reg;
assign rsp_err = tx_err_reg;
assign rsp_rdata = rdata_reg;

assign seq_start = init_done || exec_list || exec_online;
assign seq_kind = init_done ? 2'd2 : exec_online ? 2'd1 : 2'd0;
assign seq_list_n = l_n;
for (genvar k = 0; k < 4; k++) begin : g_list
    assign seq_list_op[5*k +: 5] = l_op[k];
    assign seq_list_addr[16*k +: 16] = l_addr[k];
    assign seq_list_d0[32*k +: 32] = l_d0[k];
    assign seq_list_d1[32*k +: 32] = l_d1[k];
end
assign seq_online_word = wa - FS_CPU_ONLINE_ADDR[15:2];
assign seq_online_bits = wv;
assign seq_nr_cpu_ids = nr_cpu_ids_reg;

assign lut_rd_en = (st_reg == ST_RD1);
assign lut_rd_index = LUT_LOG2'(wa - FS_LUT_ADDR[15:2]);
assign cnt_index = 5'(ix_cnt >> 1);

assign cfg_enable = ctrl_reg[FS_CTRL_ENABLE_LSB];
assign cfg_patched = ctrl_reg[FS_CTRL_PATCHED_LSB];
assign cfg_ntuple = ctrl_reg[FS_CTRL_NTUPLE_LSB];
assign cfg_rmap = ctrl_reg[FS_CTRL_RMAP_LSB];
assign cfg_slot_mask = ctrl_reg[FS_CTRL_SLOT_MASK_LSB];
assign cfg_rps = ctrl_reg[FS_CTRL_RPS_LSB];
assign cfg_flt_lookup = ctrl_reg[FS_CTRL_FLT_LOOKUP_LSB];
assign cfg_nr_cpu_ids = nr_cpu_ids_reg[15:0];
assign cfg_num_rx_queues = num_rx_queues_reg[15:0];
assign cfg_rps_cpu_mask = rps_cpu_mask_reg;
assign cfg_sock_log2 = sock_cfg_reg[FS_SOCK_CFG_LOG2_LSB +: 5];
assign cfg_sock_present = sock_cfg_reg[FS_SOCK_CFG_PRESENT_LSB];
assign cfg_sock_wr = sock_wr_reg;
assign cfg_lut_log2 = lut_cfg_reg[FS_LUT_CFG_LOG2_LSB +: 5];
assign cfg_cpu_online = online_reg[ONLINE_BITS-1:0];
assign cfg_hash_mode = hash_cfg_reg[FS_HASH_CFG_MODE_LSB +: 2];
assign cfg_hash_seed = hash_seed_reg;
assign cfg_rss_key = rss_key_reg;
assign cnt_clear = cnt_clear_reg;
assign evt_pop = evt_pop_reg;
assign flt_delete_done = flt_del_reg;

assign lut_wr_en = lut_wr_en_reg;
assign lut_wr_index = lut_wr_index_reg;
assign lut_wr_queue = lut_wr_queue_reg;

assign flt_cmd_valid = flt_pending_reg;
assign flt_cmd_op = flt_op_reg;
assign flt_cmd_ipv6 = flt_meta_reg[FS_FLT_META_IPV6_LSB];
assign flt_cmd_proto = flt_meta_reg[FS_FLT_META_PROTO_LSB +: 8];
// an IPv4 key lives in word 0 only (the model's flt_key() zeroes bytes 4..15): words 1..3
// may still hold an earlier IPv6 key
assign flt_cmd_src = flt_cmd_ipv6 ? flt_src_reg : {flt_src_reg[127:96], 96'd0};
assign flt_cmd_dst = flt_cmd_ipv6 ? flt_dst_reg : {flt_dst_reg[127:96], 96'd0};
assign flt_cmd_sport = flt_ports_reg[FS_FLT_PORTS_SPORT_LSB +: 16];
assign flt_cmd_dport = flt_ports_reg[FS_FLT_PORTS_DPORT_LSB +: 16];
assign flt_cmd_id = flt_id_reg[ID_WIDTH-1:0];
assign flt_cmd_queue = flt_queue_reg[QUEUE_WIDTH-1:0];

// register bits outside fields and the unused halves of the answers are not needed
wire unused_regs = &{1'b0, tx_addr_reg[1:0],
                     nr_cpu_ids_reg[31:16], num_rx_queues_reg[31:16],
                     sock_cfg_reg, lut_cfg_reg, hash_cfg_reg, flt_meta_reg, flt_id_reg,
                     flt_queue_reg, flt_ports_reg, exp_queue_reg[31:16], exp_filter_id_reg[31:16],
                     ix_cnt[13:6]};

`ifdef FORMAL
// Induction invariants (the axil_regs job proves fs_axil_regs by k-induction with them): the
// FSM uses its state codes only; once a host transaction's address is held, sel_reg follows
// it from ST_REQ and rd_ok_reg from ST_WV (tx_addr_reg changes only in ST_IDLE); the NIC
// plane runs no lists and refuses no decoded write, so it answers SLVERR exactly where
// rd_ok_reg is clear; the engine answers a read SLVERR exactly there too (its lists read
// heads the core does not refuse) and a write at least there
wire f_host = st_reg != ST_INIT && st_reg != ST_IDLE && !init_seq_reg;
wire f_sel_ok = f_host && st_reg != ST_DEC;
wire f_rd_ok = f_sel_ok && st_reg != ST_REQ && st_reg != ST_RD1 && st_reg != ST_RD2;
always_ff @(posedge clk) begin
    p_inv_st: assert (st_reg <= ST_DEC);
    // the init list runs from ST_SEQ and is answered to nobody (ST_DONE -> ST_IDLE)
    if (init_seq_reg) p_inv_init: assert (st_reg == ST_SEQ || st_reg == ST_DONE);
    if (f_sel_ok) p_inv_sel: assert (sel_reg == dec_hit);
    if (f_rd_ok) p_inv_rd_ok: assert (rd_ok_reg == rd_ok);
    if (!EN) begin
        p_inv_nic: assert (!init_seq_reg && st_reg != ST_SEQ && st_reg != ST_FLT);
        if (st_reg == ST_EXEC || st_reg == ST_DONE || st_reg == ST_RESP) p_inv_nic_wr: assert (!wr_bad);
        if (st_reg == ST_DONE || st_reg == ST_RESP) p_inv_err: assert (tx_err_reg == !rd_ok_reg);
    end else if (f_rd_ok && st_reg != ST_WV && st_reg != ST_EXEC) begin
        if (!tx_wr_reg) p_inv_eng_rd_err: assert (tx_err_reg == !rd_ok_reg);
        if (tx_wr_reg && !rd_ok_reg) p_inv_eng_wr_err: assert (tx_err_reg);
    end
end
assign f_tx = {st_reg == ST_SEQ, f_host && st_reg != ST_RESP, f_host && st_reg == ST_RESP,
               tx_wr_reg, dec_hit != '0 && !(EN && tx_addr_reg[1:0] != 2'b00)};
`endif

endmodule

`resetall
