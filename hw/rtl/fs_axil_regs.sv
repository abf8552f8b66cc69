`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Lite register slave of the engine (hw/regs/flowsteer_regs.json); golden model:
// flowsteer::engine::EngineRegisterFile (host/src/engine/engine_regs.cpp).
// One transaction at a time (a write once AW and W are both held, else a read): it raises
// ord_req, waits for ord_grant, runs to completion (filter commands and RFS-core command
// sequences included), pulses ord_done and only then answers on B or R (docs/engine-top.md).
// ENGINE = 1 (fs_engine_top): every block of the map, exactly as the model: SLVERR for
//   unmapped addresses, array elements past the implemented sizes and values the engine
//   cannot hold; the kernel plane is driven through fs_rfs_core's command port (rfs_cmd_*),
//   with RMAP / RPS_FLOW_CNT / RPS_MAP / RPS_MAP_CPUS mirrored in shadow RAMs for reads.
//   After reset an init sequence clears the shadows and brings fs_rfs_core to the map's
//   reset state (STATUS.INIT_BUSY until done; no transaction runs before).
// ENGINE = 0 (fs_nic_plane alone): GLOB, HASH, FLT and the LUT window; the blocks of the
//   kernel plane answer SLVERR, values are stored unchecked, FLT_CMD is answered at once
//   (a FLT_CMD while busy sets ERR_STATUS.CMD_BUSY).
// Writes to RO registers are ignored (OKAY); WO registers read as 0; W1C bits clear on 1.
// Byte strobes apply to RW registers (read-modify-write); WO/W1C registers use the data.
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
    output wire                     ord_done,           // one clock per executed transaction

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
localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;
localparam [4:0] LUT_CFG_RESET = (LUT_LOG2 < 11) ? 5'(LUT_LOG2) : 5'd11;
localparam bit EN = (ENGINE != 0);

// fs_rfs_core ops (enum rfs_op) and the SET_MODE word (layout rfs_mode) of the register map
localparam [4:0] OP_SOCK_SIZE = 5'(FS_RFS_OP_SOCK_SIZE);
localparam [4:0] OP_QUEUE_TABLE = 5'(FS_RFS_OP_QUEUE_TABLE);
localparam [4:0] OP_HEAD_ADD = 5'(FS_RFS_OP_HEAD_ADD);
localparam [4:0] OP_READ_HEAD_TAIL = 5'(FS_RFS_OP_READ_HEAD_TAIL);
localparam [4:0] OP_MAY_EXPIRE = 5'(FS_RFS_OP_MAY_EXPIRE);
localparam [4:0] OP_SET_ONLINE = 5'(FS_RFS_OP_SET_ONLINE);
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

// ---------------------------------------------------------------- transaction capture
logic aw_held_reg = 1'b0, w_held_reg = 1'b0, ar_held_reg = 1'b0;
logic [15:0] aw_addr_reg, ar_addr_reg;
logic [31:0] w_data_reg;
logic [3:0] w_strb_reg;
logic bvalid_reg = 1'b0, rvalid_reg = 1'b0;
logic [1:0] bresp_reg = RESP_OKAY, rresp_reg = RESP_OKAY;
logic [31:0] rdata_reg = 32'd0;

localparam [3:0] ST_INIT = 4'd0, ST_IDLE = 4'd1, ST_REQ = 4'd2, ST_RD1 = 4'd3, ST_RD2 = 4'd4,
                 ST_EXEC = 4'd5, ST_SEQ = 4'd6, ST_SEQW = 4'd7, ST_FLT = 4'd8, ST_RESP = 4'd9,
                 ST_DONE = 4'd10;
logic [3:0] st_reg = ST_INIT;
logic tx_wr_reg;
logic [15:0] tx_addr_reg;
logic [31:0] tx_data_reg;
logic [3:0] tx_strb_reg;
logic tx_err_reg;                         // answer SLVERR
logic [SWEEP_W-1:0] sweep_reg = '0;

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

// array membership of the transaction's address: the map's decode table (FS_DEC_*), each
// array implemented up to the size that bounds it; the blocks the NIC plane lacks answer
// SLVERR there (EngineRegisterFile walks the same table: regs::decode)
logic [FS_DEC_N-1:0] dec_hit;
for (genvar i = 0; i < FS_DEC_N; i++) begin : g_dec
    localparam integer BASE = 32'(FS_DEC_WADDR[FS_DEC_WADDR_W*i +: FS_DEC_WADDR_W]);
    localparam integer CNT = 32'(FS_DEC_COUNT[FS_DEC_COUNT_W*i +: FS_DEC_COUNT_W]);
    localparam integer WS = 32'(FS_DEC_WSTRIDE_LOG2[FS_DEC_WSTRIDE_LOG2_W*i +: FS_DEC_WSTRIDE_LOG2_W]);
    localparam integer BD = 32'(FS_DEC_BOUND[FS_DEC_BOUND_W*i +: FS_DEC_BOUND_W]);
    localparam integer PER = 32'(FS_DEC_BOUND_PER_LOG2[FS_DEC_BOUND_PER_LOG2_W*i +: FS_DEC_BOUND_PER_LOG2_W]);
    localparam integer LG = (BD == FS_SIZE_LUT_LOG2) ? LUT_LOG2 : (BD == FS_SIZE_CPU_LOG2) ? CPU_LOG2 :
                            (BD == FS_SIZE_QUEUE_LOG2) ? QUEUE_LOG2 : RPS_POOL_LOG2;
    localparam integer NB = ((1 << LG) + (1 << PER) - 1) >> PER;
    localparam integer IMPL = (BD == 0 || NB > CNT) ? CNT : NB;
    localparam bit BUILT = EN || FS_DEC_NIC[i];
    assign dec_hit[i] = BUILT && 32'(wa) + 32'd1 > 32'(BASE) && 32'(wa) < 32'(BASE) + 32'(IMPL << WS) &&
                        (WS == 0 || wa[0] == BASE[0]);
end

logic a_online, a_key, a_fsrc, a_fdst, a_lut, a_cnt, a_esrc, a_edst, a_rmap, a_fcnt, a_map;
logic a_hadd, a_head, a_tail, a_pool;
logic [13:0] ix_cnt;
assign a_online = dec_hit[FS_REG_CPU_ONLINE];
assign a_key = dec_hit[FS_REG_RSS_KEY];
assign a_fsrc = dec_hit[FS_REG_FLT_SRC];
assign a_fdst = dec_hit[FS_REG_FLT_DST];
assign a_lut = dec_hit[FS_REG_LUT];
assign a_cnt = dec_hit[FS_REG_CNT_LO] || dec_hit[FS_REG_CNT_HI];
assign a_esrc = dec_hit[FS_REG_EVT_SRC];
assign a_edst = dec_hit[FS_REG_EVT_DST];
assign a_rmap = dec_hit[FS_REG_RMAP];
assign a_fcnt = dec_hit[FS_REG_RPS_FLOW_CNT];
assign a_map = dec_hit[FS_REG_RPS_MAP];
assign a_hadd = dec_hit[FS_REG_HEAD_ADD];
assign a_head = dec_hit[FS_REG_HEAD];
assign a_tail = dec_hit[FS_REG_TAIL];
assign a_pool = dec_hit[FS_REG_RPS_MAP_CPUS];
always_comb begin
    ix_cnt = wa - FS_CNT_LO_ADDR[15:2];
    ix_rmap = wa - FS_RMAP_ADDR[15:2];
    ix_fcnt = wa - FS_RPS_FLOW_CNT_ADDR[15:2];
    ix_map = wa - FS_RPS_MAP_ADDR[15:2];
    ix_pool = wa - FS_RPS_MAP_CPUS_ADDR[15:2];
    ix_cpu3 = a_hadd ? wa - FS_HEAD_ADD_ADDR[15:2] :
              a_head ? wa - FS_HEAD_ADDR[15:2] : wa - FS_TAIL_ADDR[15:2];
end

// Register value (read data and the old value of a read-modify-write), whether the address
// is implemented (ok), its field mask and access class. Valid in ST_EXEC (RAMs read in RD1).
logic rd_ok, is_rw, is_wo, is_ro;
logic [31:0] rd_value, rd_mask;
always_comb begin
    rd_ok = 1'b1;
    is_rw = 1'b0;
    is_wo = 1'b0;
    rd_value = 32'd0;
    rd_mask = 32'hFFFFFFFF;
    case (wa)
        FS_ID_ADDR[15:2]: rd_value = FS_ID_RESET;
        FS_VERSION_ADDR[15:2]: rd_value = FS_VERSION_RESET;
        FS_CAPS0_ADDR[15:2]: rd_value = caps0;
        FS_CAPS1_ADDR[15:2]: rd_value = caps1;
        FS_CTRL_ADDR[15:2]: begin rd_value = ctrl_reg; is_rw = 1'b1; rd_mask = FS_CTRL_MASK; end
        FS_STATUS_ADDR[15:2]: rd_value = status;
        FS_ERR_STATUS_ADDR[15:2]: rd_value = err_reg;
        FS_SCRATCH_ADDR[15:2]: begin rd_value = scratch_reg; is_rw = 1'b1; rd_mask = FS_SCRATCH_MASK; end
        FS_NR_CPU_IDS_ADDR[15:2]: begin
            rd_value = nr_cpu_ids_reg; is_rw = 1'b1; rd_mask = FS_NR_CPU_IDS_MASK;
        end
        FS_NUM_RX_QUEUES_ADDR[15:2]: begin
            rd_value = num_rx_queues_reg; is_rw = 1'b1; rd_mask = FS_NUM_RX_QUEUES_MASK;
        end
        FS_RPS_CPU_MASK_ADDR[15:2]: begin
            rd_value = rps_cpu_mask_reg; is_rw = 1'b1; rd_mask = FS_RPS_CPU_MASK_MASK;
        end
        FS_SOCK_CFG_ADDR[15:2]: begin rd_value = sock_cfg_reg; is_rw = 1'b1; rd_mask = FS_SOCK_CFG_MASK; end
        FS_LUT_CFG_ADDR[15:2]: begin rd_value = lut_cfg_reg; is_rw = 1'b1; rd_mask = FS_LUT_CFG_MASK; end
        FS_CNT_CLEAR_ADDR[15:2]: is_wo = 1'b1;
        FS_HASH_CFG_ADDR[15:2]: begin rd_value = hash_cfg_reg; is_rw = 1'b1; rd_mask = FS_HASH_CFG_MASK; end
        FS_HASH_SEED_ADDR[15:2]: begin
            rd_value = hash_seed_reg; is_rw = 1'b1; rd_mask = FS_HASH_SEED_MASK;
        end
        FS_FLT_PORTS_ADDR[15:2]: begin
            rd_value = flt_ports_reg; is_rw = 1'b1; rd_mask = FS_FLT_PORTS_MASK;
        end
        FS_FLT_META_ADDR[15:2]: begin rd_value = flt_meta_reg; is_rw = 1'b1; rd_mask = FS_FLT_META_MASK; end
        FS_FLT_ID_ADDR[15:2]: begin rd_value = flt_id_reg; is_rw = 1'b1; rd_mask = FS_FLT_ID_MASK; end
        FS_FLT_QUEUE_ADDR[15:2]: begin
            rd_value = flt_queue_reg; is_rw = 1'b1; rd_mask = FS_FLT_QUEUE_MASK;
        end
        FS_FLT_CMD_ADDR[15:2]: is_wo = 1'b1;
        FS_FLT_STATUS_ADDR[15:2]:
            rd_value = (32'(flt_pending_reg || flt_busy) << FS_FLT_STATUS_BUSY_LSB) |
                       (32'(flt_done_reg) << FS_FLT_STATUS_DONE_LSB) |
                       (32'(flt_err_reg) << FS_FLT_STATUS_ERR_LSB);
        FS_FLT_RESULT_ADDR[15:2]:
            rd_value = (32'(flt_res_queue_reg) << FS_FLT_RESULT_QUEUE_LSB) |
                       (32'(flt_res_id_reg) << FS_FLT_RESULT_ID_LSB);
        FS_FLT_COUNT_ADDR[15:2]: rd_value = flt_count;
        default: begin
            rd_ok = 1'b0;
            for (int i = 0; i < ONLINE_WORDS; i++) begin
                if (wa == 14'(FS_CPU_ONLINE_ADDR[15:2] + 14'(i))) begin
                    rd_value = online_reg[32*i +: 32];
                end
            end
            for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
                if (wa == 14'(FS_RSS_KEY_ADDR[15:2] + 14'(i))) begin
                    rd_value = rss_key_reg[415-32*i -: 32];
                end
            end
            for (int i = 0; i < 4; i++) begin
                if (wa == 14'(FS_FLT_SRC_ADDR[15:2] + 14'(i))) rd_value = flt_src_reg[127-32*i -: 32];
                if (wa == 14'(FS_FLT_DST_ADDR[15:2] + 14'(i))) rd_value = flt_dst_reg[127-32*i -: 32];
                if (wa == 14'(FS_EVT_SRC_ADDR[15:2] + 14'(i)) && evt_valid) rd_value = evt_src[127-32*i -: 32];
                if (wa == 14'(FS_EVT_DST_ADDR[15:2] + 14'(i)) && evt_valid) rd_value = evt_dst[127-32*i -: 32];
            end
            if (a_online) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_CPU_ONLINE_MASK; end
            if (a_key) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_RSS_KEY_MASK; end
            if (a_fsrc) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_FLT_SRC_MASK; end
            if (a_fdst) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_FLT_DST_MASK; end
            if (a_esrc || a_edst) rd_ok = 1'b1;
            if (a_lut) begin
                rd_ok = 1'b1;
                is_rw = 1'b1;
                rd_mask = FS_LUT_MASK;
                rd_value = 32'(lut_rd_queue);
            end
            if (a_cnt) begin
                rd_ok = 1'b1;
                rd_value = ix_cnt[0] ? cnt_hi_reg : cnt_value[31:0];
            end
            if (a_rmap) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_RMAP_MASK; rd_value = 32'(sh_rmap_rd); end
            if (a_fcnt) begin
                rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_RPS_FLOW_CNT_MASK; rd_value = 32'(sh_fcnt_rd);
            end
            if (a_map) begin rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_RPS_MAP_MASK; rd_value = sh_map_rd; end
            if (a_pool) begin
                rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_RPS_MAP_CPUS_MASK; rd_value = 32'(sh_pool_rd);
            end
            if (a_hadd) begin rd_ok = 1'b1; is_wo = 1'b1; end
            if (a_head || a_tail) rd_ok = 1'b1;
            if (EN) begin
                case (wa)
                    FS_SOCK_INDEX_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_SOCK_INDEX_MASK; rd_value = sock_index_reg;
                    end
                    FS_SOCK_VALUE_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_SOCK_VALUE_MASK; rd_value = sock_value_reg;
                    end
                    FS_SOCK_CMD_ADDR[15:2], FS_EXP_CMD_ADDR[15:2], FS_EVT_POP_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_wo = 1'b1;
                    end
                    FS_EXP_QUEUE_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_EXP_QUEUE_MASK; rd_value = exp_queue_reg;
                    end
                    FS_EXP_FLOW_ID_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_EXP_FLOW_ID_MASK; rd_value = exp_flow_id_reg;
                    end
                    FS_EXP_FILTER_ID_ADDR[15:2]: begin
                        rd_ok = 1'b1; is_rw = 1'b1; rd_mask = FS_EXP_FILTER_ID_MASK;
                        rd_value = exp_filter_id_reg;
                    end
                    FS_EXP_STATUS_ADDR[15:2]: begin rd_ok = 1'b1; rd_value = exp_status_reg; end
                    FS_EVT_STATUS_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        rd_value = (32'(evt_count) << FS_EVT_STATUS_COUNT_LSB) |
                                   (32'(evt_count != 16'd0) << FS_EVT_STATUS_VALID_LSB);
                    end
                    FS_EVT_INFO_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        if (evt_valid) begin
                            rd_value = (32'(evt_type) << FS_EVT_INFO_TYPE_LSB) |
                                       (32'(evt_ipv6) << FS_EVT_INFO_IPV6_LSB) |
                                       (32'(evt_proto) << FS_EVT_INFO_PROTO_LSB);
                        end
                    end
                    FS_EVT_FILTER_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        if (evt_valid) begin
                            rd_value = (32'(evt_id) << FS_EVT_FILTER_ID_LSB) |
                                       (32'(evt_queue) << FS_EVT_FILTER_QUEUE_LSB);
                        end
                    end
                    FS_EVT_FLOW_ID_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        if (evt_valid) rd_value = evt_flow_id;
                    end
                    FS_EVT_HASH_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        if (evt_valid) rd_value = evt_hash;
                    end
                    FS_EVT_PORTS_ADDR[15:2]: begin
                        rd_ok = 1'b1;
                        if (evt_valid) begin
                            rd_value = (32'(evt_sport) << FS_EVT_PORTS_SPORT_LSB) |
                                       (32'(evt_dport) << FS_EVT_PORTS_DPORT_LSB);
                        end
                    end
                    default: begin
                    end
                endcase
            end
        end
    endcase
    if (EN && tx_addr_reg[1:0] != 2'b00) rd_ok = 1'b0;   // the model: unaligned is unmapped
    is_ro = !is_rw && !is_wo && wa != FS_ERR_STATUS_ADDR[15:2];
end

// write value: RW merges the byte strobes into the old value and keeps the fields
logic [31:0] wmask, wv;
always_comb begin
    for (int b = 0; b < 4; b++) begin
        wmask[8*b +: 8] = {8{tx_strb_reg[b]}};
    end
    wv = is_rw ? (((rd_value & ~wmask) | (tx_data_reg & wmask)) & rd_mask) : tx_data_reg;
end

// values the engine cannot hold (the model's SLVERR cases; ENGINE only)
logic wr_bad;
always_comb begin
    wr_bad = 1'b0;
    if (EN) begin
        case (wa)
            FS_NR_CPU_IDS_ADDR[15:2]: wr_bad = wv == 32'd0 || wv > 32'(CPUS);
            FS_NUM_RX_QUEUES_ADDR[15:2]: wr_bad = wv == 32'd0 || wv > 32'(QUEUES);
            FS_SOCK_CFG_ADDR[15:2]: wr_bad = wv[4:0] > 5'(SOCK_LOG2);
            FS_LUT_CFG_ADDR[15:2]: wr_bad = wv[4:0] > 5'(LUT_LOG2);
            FS_HASH_CFG_ADDR[15:2]: wr_bad = wv[1:0] == 2'd3;
            default: begin
            end
        endcase
        if ((a_rmap || a_lut) && wv >= 32'(QUEUES)) wr_bad = 1'b1;
        if (a_fcnt && wv[4:0] > 5'(SLOT_LOG2)) wr_bad = 1'b1;
        if (a_map && 33'(wv[31:16]) + 33'(wv[15:0]) > 33'(POOL)) wr_bad = 1'b1;
        if (a_pool && wv >= 32'(CPUS)) wr_bad = 1'b1;
    end
end

// ---------------------------------------------------------------- RFS-core sequences
// A register write or read becomes a short list of fs_rfs_core commands. Per-CPU commands
// check cpu < nr_cpu_ids in the core, while the model's registers reach every implemented
// CPU: they run between SET_NR_CPU_IDS(CPUS) and SET_NR_CPU_IDS(nr_cpu_ids).
// The core derives rps_cpu_mask from nr_cpu_ids when a sock table is sized; the engine's
// mask is always the RPS_CPU_MASK register (as the model's): a RPS_CPU_MASK write sets it
// with SET_CPU_MASK, a SOCK_CFG write ends with SET_CPU_MASK(RPS_CPU_MASK).
// The init sequence also zeroes the core's rps_map CPU pool (the model's pool starts at 0)
// and sets the reset mask.
localparam [2:0] SK_LIST = 3'd0, SK_ONLINE = 3'd1, SK_INIT = 3'd2;
logic [2:0] sk_reg = SK_LIST;
logic [SWEEP_W-1:0] sstep_reg = '0;
logic [2:0] sn_reg = 3'd0;                         // list length (SK_LIST)
logic [4:0] so_reg [4];
logic [15:0] sa_reg [4];
logic [31:0] sd0_reg [4], sd1_reg [4];
logic [13:0] son_word_reg;                         // SK_ONLINE: word index
logic [31:0] son_bits_reg;

logic [4:0] q_op;
logic [15:0] q_addr;
logic [31:0] q_d0, q_d1;
logic q_last;
logic [31:0] on_cnt;                               // CPUs in the online word
always_comb begin
    on_cnt = (32'(CPUS) - 32'({son_word_reg, 5'd0}) > 32'd32) ? 32'd32 : 32'(CPUS) - 32'({son_word_reg, 5'd0});
    q_op = so_reg[sstep_reg[1:0]];
    q_addr = sa_reg[sstep_reg[1:0]];
    q_d0 = sd0_reg[sstep_reg[1:0]];
    q_d1 = sd1_reg[sstep_reg[1:0]];
    q_last = 32'(sstep_reg) + 32'd1 >= 32'(sn_reg);
    if (sk_reg == SK_ONLINE) begin
        q_last = 32'(sstep_reg) == on_cnt + 32'd1;
        q_addr = 16'(32'({son_word_reg, 5'd0}) + 32'(sstep_reg) - 32'd1);
        q_d1 = 32'd0;
        if (sstep_reg == '0) begin
            q_op = OP_SET_NR_CPU_IDS;
            q_d0 = 32'(CPUS);
        end else if (q_last) begin
            q_op = OP_SET_NR_CPU_IDS;
            q_d0 = nr_cpu_ids_reg;
        end else begin
            q_op = OP_SET_ONLINE;
            q_d0 = 32'(son_bits_reg[5'(sstep_reg - SWEEP_W'(1))]);
        end
    end else if (sk_reg == SK_INIT) begin
        // every CPU offline with rmap 0, then nr_cpu_ids, every pool entry 0, the reset
        // mask and the CTRL reset mode
        q_addr = 16'(sstep_reg >> 1);
        q_d0 = 32'd0;
        q_d1 = 32'd0;
        q_op = sstep_reg[0] ? OP_SET_RMAP : OP_SET_ONLINE;
        q_last = 1'b0;
        if (32'(sstep_reg) == 32'(2 * CPUS)) begin
            q_op = OP_SET_NR_CPU_IDS;
            q_d0 = FS_NR_CPU_IDS_RESET;
        end else if (32'(sstep_reg) <= 32'(2 * CPUS + POOL)) begin
            if (32'(sstep_reg) > 32'(2 * CPUS)) begin
                q_op = OP_RPS_POOL;
                q_d0 = 32'(sstep_reg) - 32'(2 * CPUS + 1);
            end
        end else if (32'(sstep_reg) == 32'(2 * CPUS + POOL + 1)) begin
            q_op = OP_SET_CPU_MASK;
            q_d0 = FS_RPS_CPU_MASK_RESET;
        end else begin
            q_op = OP_SET_MODE;
            q_d0 = mode_word(FS_CTRL_RESET);
            q_last = 1'b1;
        end
    end
end

// The command list of the transaction in ST_EXEC (latched there; SK_LIST).
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
            // READ_HEAD_TAIL for any implemented CPU
            l_n = 3'd3;
            l_d0[0] = 32'(CPUS);
            l_op[1] = OP_READ_HEAD_TAIL;
            l_addr[1] = 16'(ix_cpu3);
        end
    end else if (wa == FS_CTRL_ADDR[15:2]) begin
        l_n = 3'd1;
        l_op[0] = OP_SET_MODE;
        l_d0[0] = mode_word(wv);
    end else if (wa == FS_NR_CPU_IDS_ADDR[15:2]) begin
        l_n = 3'd1;
        l_d0[0] = wv;
    end else if (wa == FS_RPS_CPU_MASK_ADDR[15:2]) begin
        l_n = 3'd1;
        l_op[0] = OP_SET_CPU_MASK;
        l_d0[0] = wv;
    end else if (wa == FS_SOCK_CFG_ADDR[15:2]) begin
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
    end else if (wa == FS_SOCK_CMD_ADDR[15:2]) begin
        // WRITE, then READ (a failed WRITE answers SLVERR and skips the READ)
        l_n = 3'(tx_data_reg[FS_SOCK_CMD_WRITE_LSB]) + 3'(tx_data_reg[FS_SOCK_CMD_READ_LSB]);
        l_op[0] = tx_data_reg[FS_SOCK_CMD_WRITE_LSB] ? OP_SOCK_WRITE : OP_SOCK_READ;
        l_d0[0] = sock_index_reg;
        l_d1[0] = sock_value_reg;
        l_op[1] = OP_SOCK_READ;
        l_d0[1] = sock_index_reg;
    end else if (wa == FS_EXP_CMD_ADDR[15:2]) begin
        // rxq_index >= real_num_rx_queues: "may expire" without asking the core
        l_n = (tx_data_reg[FS_EXP_CMD_GO_LSB] && exp_queue_reg < num_rx_queues_reg) ? 3'd1 : 3'd0;
        l_op[0] = OP_MAY_EXPIRE;
        l_addr[0] = exp_queue_reg[15:0];
        l_d0[0] = exp_flow_id_reg;
        l_d1[0] = {16'd0, exp_filter_id_reg[15:0]};
    end else if (a_rmap || a_hadd) begin
        l_n = 3'd3;
        l_d0[0] = 32'(CPUS);
        l_op[1] = a_rmap ? OP_SET_RMAP : OP_HEAD_ADD;
        l_addr[1] = a_rmap ? 16'(ix_rmap) : 16'(ix_cpu3);
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
always_comb begin
    flt_op_w = tx_data_reg[FS_FLT_CMD_OP_LSB +: FS_FLT_CMD_OP_WIDTH];
end

always_ff @(posedge clk) begin
    cnt_clear_reg <= 1'b0;
    sock_wr_reg <= 1'b0;
    lut_wr_en_reg <= 1'b0;
    evt_pop_reg <= 1'b0;
    flt_del_reg <= 1'b0;
    ord_done_reg <= 1'b0;

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
    if (bvalid_reg && s_axil_bready) bvalid_reg <= 1'b0;
    if (rvalid_reg && s_axil_rready) rvalid_reg <= 1'b0;

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
            end else if (32'(sweep_reg) >= 32'(CPUS) && 32'(sweep_reg) >= 32'(QUEUES) &&
                         32'(sweep_reg) >= 32'(POOL) && 32'(sweep_reg) >= 32'(LUT_DEPTH)) begin
                sh_wr_rmap <= 1'b0;
                sh_wr_fcnt <= 1'b0;
                sh_wr_map <= 1'b0;
                sh_wr_pool <= 1'b0;
                sk_reg <= SK_INIT;
                sstep_reg <= '0;
                tx_err_reg <= 1'b0;
                tx_wr_reg <= 1'b0;
                st_reg <= ST_SEQ;
            end
        end
        ST_IDLE: begin
            if (aw_held_reg && w_held_reg) begin
                aw_held_reg <= 1'b0;
                w_held_reg <= 1'b0;
                tx_wr_reg <= 1'b1;
                tx_addr_reg <= aw_addr_reg;
                tx_data_reg <= w_data_reg;
                tx_strb_reg <= w_strb_reg;
                st_reg <= ST_REQ;
            end else if (ar_held_reg) begin
                ar_held_reg <= 1'b0;
                tx_wr_reg <= 1'b0;
                tx_addr_reg <= ar_addr_reg;
                st_reg <= ST_REQ;
            end
        end
        ST_REQ: begin
            if (ord_grant) st_reg <= ST_RD1;
        end
        ST_RD1: begin
            st_reg <= ST_RD2;
        end
        ST_RD2: begin
            st_reg <= ST_EXEC;
        end
        ST_EXEC: begin
            tx_err_reg <= !rd_ok;
            st_reg <= ST_DONE;
            sk_reg <= SK_LIST;
            sstep_reg <= '0;
            sh_wr_data <= wv;
            sh_rmap_wa <= CL'(ix_rmap);
            sh_q_wa <= QL'(a_fcnt ? ix_fcnt : ix_map);
            sh_pool_wa <= PL'(ix_pool);
            for (int k = 0; k < 4; k++) begin
                so_reg[k] <= l_op[k];
                sa_reg[k] <= l_addr[k];
                sd0_reg[k] <= l_d0[k];
                sd1_reg[k] <= l_d1[k];
            end
            sn_reg <= l_n;
            if (EN && rd_ok && !(tx_wr_reg && wr_bad) && l_n != 3'd0) st_reg <= ST_SEQ;
            if (!tx_wr_reg) begin
                // ---------------- read
                rdata_reg <= rd_ok ? rd_value : 32'd0;
                if (rd_ok && wa == FS_ERR_STATUS_ADDR[15:2] && EN) begin
                    rdata_reg <= rd_value | (32'(evt_ovf_pend_reg) << FS_ERR_STATUS_EVT_OVERFLOW_LSB);
                    err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] <= err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] ||
                                                              evt_ovf_pend_reg;
                    evt_ovf_pend_reg <= evt_overflow_set;
                end
                if (a_cnt && !ix_cnt[0]) cnt_hi_reg <= cnt_value[63:32];
            end else if (!rd_ok || wr_bad) begin
                // ---------------- write: SLVERR, nothing changes
                tx_err_reg <= 1'b1;
            end else if (is_rw) begin
                // ---------------- RW registers: store, then side effects
                case (wa)
                    FS_CTRL_ADDR[15:2]: begin
                        ctrl_reg <= wv;
                    end
                    FS_SCRATCH_ADDR[15:2]: scratch_reg <= wv;
                    FS_NR_CPU_IDS_ADDR[15:2]: begin
                        nr_cpu_ids_reg <= wv;
                    end
                    FS_NUM_RX_QUEUES_ADDR[15:2]: num_rx_queues_reg <= wv;
                    FS_RPS_CPU_MASK_ADDR[15:2]: begin
                        rps_cpu_mask_reg <= wv;
                    end
                    FS_SOCK_CFG_ADDR[15:2]: begin
                        sock_cfg_reg <= wv;
                        sock_wr_reg <= 1'b1;
                    end
                    FS_LUT_CFG_ADDR[15:2]: lut_cfg_reg <= wv;
                    FS_HASH_CFG_ADDR[15:2]: hash_cfg_reg <= wv;
                    FS_HASH_SEED_ADDR[15:2]: hash_seed_reg <= wv;
                    FS_FLT_PORTS_ADDR[15:2]: flt_ports_reg <= wv;
                    FS_FLT_META_ADDR[15:2]: flt_meta_reg <= wv;
                    FS_FLT_ID_ADDR[15:2]: flt_id_reg <= wv;
                    FS_FLT_QUEUE_ADDR[15:2]: flt_queue_reg <= wv;
                    FS_SOCK_INDEX_ADDR[15:2]: sock_index_reg <= wv;
                    FS_SOCK_VALUE_ADDR[15:2]: sock_value_reg <= wv;
                    FS_EXP_QUEUE_ADDR[15:2]: exp_queue_reg <= wv;
                    FS_EXP_FLOW_ID_ADDR[15:2]: exp_flow_id_reg <= wv;
                    FS_EXP_FILTER_ID_ADDR[15:2]: exp_filter_id_reg <= wv;
                    default: begin
                        for (int i = 0; i < ONLINE_WORDS; i++) begin
                            if (wa == 14'(FS_CPU_ONLINE_ADDR[15:2] + 14'(i))) online_reg[32*i +: 32] <= wv;
                        end
                        for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
                            if (wa == 14'(FS_RSS_KEY_ADDR[15:2] + 14'(i))) rss_key_reg[415-32*i -: 32] <= wv;
                        end
                        for (int i = 0; i < 4; i++) begin
                            if (wa == 14'(FS_FLT_SRC_ADDR[15:2] + 14'(i))) flt_src_reg[127-32*i -: 32] <= wv;
                            if (wa == 14'(FS_FLT_DST_ADDR[15:2] + 14'(i))) flt_dst_reg[127-32*i -: 32] <= wv;
                        end
                        if (a_online && EN) begin
                            sk_reg <= SK_ONLINE;
                            son_word_reg <= wa - FS_CPU_ONLINE_ADDR[15:2];
                            son_bits_reg <= wv;
                            st_reg <= ST_SEQ;
                        end
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
            end else if (wa == FS_ERR_STATUS_ADDR[15:2]) begin
                err_reg <= err_reg & ~tx_data_reg;
            end else if (is_wo) begin
                // ---------------- commands (any strobe)
                case (wa)
                    FS_CNT_CLEAR_ADDR[15:2]: begin
                        if (tx_data_reg[FS_CNT_CLEAR_ALL_LSB]) begin
                            cnt_clear_reg <= 1'b1;
                            evt_ovf_pend_reg <= 1'b0;
                        end
                    end
                    FS_FLT_CMD_ADDR[15:2]: begin
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
                    FS_SOCK_CMD_ADDR[15:2]: begin
                        // WRITE, then READ (a failed WRITE answers SLVERR, no READ)
                        if (tx_data_reg[FS_SOCK_CMD_WRITE_LSB]) begin
                        end else begin
                        end
                        if (tx_data_reg[FS_SOCK_CMD_WRITE_LSB] || tx_data_reg[FS_SOCK_CMD_READ_LSB]) begin
                        end
                    end
                    FS_EXP_CMD_ADDR[15:2]: begin
                        if (tx_data_reg[FS_EXP_CMD_GO_LSB]) begin
                            // rxq_index >= real_num_rx_queues: "may expire" (model-notes)
                            exp_status_reg <= (32'd1 << FS_EXP_STATUS_DONE_LSB) |
                                              (32'd1 << FS_EXP_STATUS_MAY_EXPIRE_LSB);
                        end
                    end
                    FS_EVT_POP_ADDR[15:2]: begin
                        evt_pop_reg <= tx_data_reg[FS_EVT_POP_POP_LSB] && evt_valid;
                    end
                    default: begin
                        if (a_hadd) begin
                        end
                    end
                endcase
            end
            // RO registers: ignored, OKAY
        end
        ST_SEQ: begin
            // issue the current list entry
            if (rfs_cmd_ready) st_reg <= ST_SEQW;
        end
        ST_SEQW: begin
            if (rfs_rsp_valid) begin
                sstep_reg <= sstep_reg + SWEEP_W'(1);
                st_reg <= q_last ? ST_DONE : ST_SEQ;
                if (rfs_rsp_status != 32'd0) begin
                    // only SOCK_WRITE / SOCK_READ can fail after the checks above
                    tx_err_reg <= 1'b1;
                    st_reg <= ST_DONE;
                end else begin
                    if (q_op == OP_READ_HEAD_TAIL) begin
                        rdata_reg <= a_head ? rfs_rsp_data0 : rfs_rsp_data1;
                    end
                    if (q_op == OP_SOCK_READ) sock_value_reg <= rfs_rsp_data0;
                    if (q_op == OP_MAY_EXPIRE) begin
                        exp_status_reg <= (32'd1 << FS_EXP_STATUS_DONE_LSB) |
                                          (32'(rfs_rsp_data0[0]) << FS_EXP_STATUS_MAY_EXPIRE_LSB);
                    end
                end
            end
        end
        ST_FLT: begin
            if (!flt_pending_reg && !flt_wait_reg) st_reg <= ST_DONE;
        end
        ST_DONE: begin
            // init sequence done, or a transaction executed: answer it
            st_reg <= ST_RESP;
            if (sk_reg == SK_INIT) begin
                st_reg <= ST_IDLE;
                sk_reg <= SK_LIST;
            end else begin
                ord_done_reg <= 1'b1;
                if (tx_wr_reg) begin
                    bvalid_reg <= 1'b1;
                    bresp_reg <= tx_err_reg ? RESP_SLVERR : RESP_OKAY;
                end else begin
                    rvalid_reg <= 1'b1;
                    rresp_reg <= tx_err_reg ? RESP_SLVERR : RESP_OKAY;
                    if (tx_err_reg) rdata_reg <= 32'd0;
                end
            end
        end
        default: begin
            // ST_RESP: wait for the master to take B or R
            if (!bvalid_reg && !rvalid_reg) st_reg <= ST_IDLE;
            if ((bvalid_reg && s_axil_bready) || (rvalid_reg && s_axil_rready)) st_reg <= ST_IDLE;
        end
    endcase

    if (rst) begin
        aw_held_reg <= 1'b0;
        w_held_reg <= 1'b0;
        ar_held_reg <= 1'b0;
        bvalid_reg <= 1'b0;
        rvalid_reg <= 1'b0;
        st_reg <= ST_INIT;
        sk_reg <= SK_LIST;
        sweep_reg <= '0;
        sstep_reg <= '0;
        ctrl_reg <= FS_CTRL_RESET;
        err_reg <= FS_ERR_STATUS_RESET;
        evt_ovf_pend_reg <= 1'b0;
        scratch_reg <= FS_SCRATCH_RESET;
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
                 (st_reg == ST_EXEC) || (st_reg == ST_SEQ) || (st_reg == ST_SEQW) ||
                 (st_reg == ST_FLT) || (st_reg == ST_DONE && sk_reg != SK_INIT);
assign ord_done = ord_done_reg;

assign rfs_cmd_valid = (st_reg == ST_SEQ);
assign rfs_cmd_op = q_op;
assign rfs_cmd_addr = q_addr;
assign rfs_cmd_data0 = q_d0;
assign rfs_cmd_data1 = q_d1;

assign lut_rd_en = (st_reg == ST_RD1);
assign lut_rd_index = LUT_LOG2'(wa - FS_LUT_ADDR[15:2]);
assign cnt_index = 5'(ix_cnt >> 1);

assign s_axil_awready = !aw_held_reg;
assign s_axil_wready = !w_held_reg;
assign s_axil_bvalid = bvalid_reg;
assign s_axil_bresp = bresp_reg;
assign s_axil_arready = !ar_held_reg;
assign s_axil_rvalid = rvalid_reg;
assign s_axil_rdata = rdata_reg;
assign s_axil_rresp = rresp_reg;

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

// AXI protection bits carry no meaning; register bits outside fields, the unused halves of
// the answers are not needed
wire unused_axil = &{1'b0, s_axil_awprot, s_axil_arprot, tx_addr_reg[1:0], aw_addr_reg[1:0],
                     ar_addr_reg[1:0], 
                     nr_cpu_ids_reg[31:16], num_rx_queues_reg[31:16], is_ro,
                     sock_cfg_reg, lut_cfg_reg, hash_cfg_reg, flt_meta_reg, flt_id_reg,
                     flt_queue_reg, flt_ports_reg, exp_queue_reg[31:16], exp_filter_id_reg[31:16],
                     ix_cnt[13:6]};

endmodule

`resetall
