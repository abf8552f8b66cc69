`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4-Lite register slave of the engine (hw/regs/flowsteer_regs.json).
// Implemented blocks: GLOB, HASH, FLT (filter commands) and the RSS LUT window. Every other
// address, including array elements past the implemented sizes and the blocks of the RFS
// stage that is not built yet, answers SLVERR on both reads and writes.
// Writes to RO registers are ignored (OKAY); WO registers read as 0; W1C bits clear on 1.
// Byte strobes apply to RW registers; a write to a command register acts on any strobe.
// Write response 1 clock after both AW and W are held; read data 2 clocks after AR.
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
    parameter integer QUEUE_LOG2 = 8,
    parameter integer SLOT_LOG2 = 15,
    parameter integer SOCK_LOG2 = 16,
    parameter integer EVT_LOG2 = 9
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
    input  wire                     evt_overflow_set,   // sets ERR_STATUS.EVT_OVERFLOW

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
    input  wire [31:0]              flt_count
);

`include "flowsteer_regs.vh"

localparam integer ONLINE_BITS = 1 << CPU_LOG2;
localparam integer ONLINE_WORDS = (ONLINE_BITS + 31) / 32;
localparam integer LUT_DEPTH = 1 << LUT_LOG2;
localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;

// ---------------------------------------------------------------- registers
logic [31:0] ctrl_reg = FS_CTRL_RESET;
logic [31:0] err_reg = FS_ERR_STATUS_RESET;
logic [31:0] scratch_reg = FS_SCRATCH_RESET;
logic [31:0] nr_cpu_ids_reg = FS_NR_CPU_IDS_RESET;
logic [31:0] num_rx_queues_reg = FS_NUM_RX_QUEUES_RESET;
logic [31:0] rps_cpu_mask_reg = FS_RPS_CPU_MASK_RESET;
logic [31:0] sock_cfg_reg = FS_SOCK_CFG_RESET;
logic [31:0] lut_cfg_reg = FS_LUT_CFG_RESET;
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
logic [3:0] flt_op_reg = '0;
logic flt_done_reg = 1'b0;
logic [3:0] flt_err_reg = '0;
logic [ID_WIDTH-1:0] flt_res_id_reg = '0;
logic [QUEUE_WIDTH-1:0] flt_res_queue_reg = '0;
logic cnt_clear_reg = 1'b0;
logic sock_wr_reg = 1'b0;
logic lut_wr_en_reg = 1'b0;
logic [LUT_LOG2-1:0] lut_wr_index_reg;
logic [QUEUE_WIDTH-1:0] lut_wr_queue_reg;

// ---------------------------------------------------------------- address decode
// Word-address compares only; array elements by range. Returns whether the address is
// implemented (ok) and, for reads, the value (everything except the LUT, read from RAM).
// a, base: word addresses (byte address bits 15:2)
function automatic in_array(input [13:0] a, input [13:0] base, input [15:0] count);
    in_array = ({2'b00, a} >= {2'b00, base}) && ({2'b00, a} < {2'b00, base} + count);
endfunction

function automatic [13:0] index_of(input [13:0] a, input [13:0] base);
    index_of = a - base;
endfunction

logic [31:0] caps0, caps1, status;
always_comb begin
    caps0 = (32'(LUT_LOG2) << FS_CAPS0_LUT_LOG2_LSB) | (32'(CPU_LOG2) << FS_CAPS0_CPU_LOG2_LSB) |
            (32'(QUEUE_LOG2) << FS_CAPS0_QUEUE_LOG2_LSB) |
            (32'(SLOT_LOG2) << FS_CAPS0_SLOT_LOG2_LSB);
    caps1 = (32'(FLT_BUCKET_BITS) << FS_CAPS1_FLT_BUCKET_BITS_LSB) |
            (32'(FLT_WAYS) << FS_CAPS1_FLT_WAYS_LSB) |
            (32'(ID_WIDTH) << FS_CAPS1_FLT_ID_WIDTH_LSB) |
            (32'(SOCK_LOG2) << FS_CAPS1_SOCK_LOG2_LSB) | (32'(EVT_LOG2) << FS_CAPS1_EVT_LOG2_LSB);
    status = (32'(stat_init_busy) << FS_STATUS_INIT_BUSY_LSB) |
             (32'(flt_pending_reg || flt_busy) << FS_STATUS_FLT_BUSY_LSB);
end

// read decode
logic [15:0] rd_addr_reg;
logic rd_ok;
logic rd_lut;
logic [31:0] rd_value;
always_comb begin
    rd_ok = 1'b1;
    rd_lut = 1'b0;
    rd_value = 32'd0;
    case (rd_addr_reg[15:2])
        FS_ID_ADDR[15:2]: rd_value = FS_ID_RESET;
        FS_VERSION_ADDR[15:2]: rd_value = FS_VERSION_RESET;
        FS_CAPS0_ADDR[15:2]: rd_value = caps0;
        FS_CAPS1_ADDR[15:2]: rd_value = caps1;
        FS_CTRL_ADDR[15:2]: rd_value = ctrl_reg;
        FS_STATUS_ADDR[15:2]: rd_value = status;
        FS_ERR_STATUS_ADDR[15:2]: rd_value = err_reg;
        FS_SCRATCH_ADDR[15:2]: rd_value = scratch_reg;
        FS_NR_CPU_IDS_ADDR[15:2]: rd_value = nr_cpu_ids_reg;
        FS_NUM_RX_QUEUES_ADDR[15:2]: rd_value = num_rx_queues_reg;
        FS_RPS_CPU_MASK_ADDR[15:2]: rd_value = rps_cpu_mask_reg;
        FS_SOCK_CFG_ADDR[15:2]: rd_value = sock_cfg_reg;
        FS_LUT_CFG_ADDR[15:2]: rd_value = lut_cfg_reg;
        FS_CNT_CLEAR_ADDR[15:2]: rd_value = 32'd0;
        FS_HASH_CFG_ADDR[15:2]: rd_value = hash_cfg_reg;
        FS_HASH_SEED_ADDR[15:2]: rd_value = hash_seed_reg;
        FS_FLT_PORTS_ADDR[15:2]: rd_value = flt_ports_reg;
        FS_FLT_META_ADDR[15:2]: rd_value = flt_meta_reg;
        FS_FLT_ID_ADDR[15:2]: rd_value = flt_id_reg;
        FS_FLT_QUEUE_ADDR[15:2]: rd_value = flt_queue_reg;
        FS_FLT_CMD_ADDR[15:2]: rd_value = 32'd0;
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
                if (rd_addr_reg[15:2] == 14'(FS_CPU_ONLINE_ADDR[15:2] + 14'(i))) begin
                    rd_ok = 1'b1;
                    rd_value = online_reg[32*i +: 32];
                end
            end
            for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
                if (rd_addr_reg[15:2] == 14'(FS_RSS_KEY_ADDR[15:2] + 14'(i))) begin
                    rd_ok = 1'b1;
                    rd_value = rss_key_reg[415-32*i -: 32];
                end
            end
            for (int i = 0; i < 4; i++) begin
                if (rd_addr_reg[15:2] == 14'(FS_FLT_SRC_ADDR[15:2] + 14'(i))) begin
                    rd_ok = 1'b1;
                    rd_value = flt_src_reg[127-32*i -: 32];
                end
                if (rd_addr_reg[15:2] == 14'(FS_FLT_DST_ADDR[15:2] + 14'(i))) begin
                    rd_ok = 1'b1;
                    rd_value = flt_dst_reg[127-32*i -: 32];
                end
            end
            if (in_array(rd_addr_reg[15:2], FS_LUT_ADDR[15:2], 16'(LUT_DEPTH))) begin
                rd_ok = 1'b1;
                rd_lut = 1'b1;
            end
        end
    endcase
end

// write decode
logic [15:0] aw_addr_reg;
logic [31:0] w_data_reg;
logic [3:0] w_strb_reg;
logic wr_ok;
logic [31:0] wmask;   // byte-strobe mask
always_comb begin
    for (int b = 0; b < 4; b++) begin
        wmask[8*b +: 8] = {8{w_strb_reg[b]}};
    end
    wr_ok = 1'b1;
    case (aw_addr_reg[15:2])
        FS_ID_ADDR[15:2], FS_VERSION_ADDR[15:2], FS_CAPS0_ADDR[15:2], FS_CAPS1_ADDR[15:2],
        FS_CTRL_ADDR[15:2], FS_STATUS_ADDR[15:2], FS_ERR_STATUS_ADDR[15:2],
        FS_SCRATCH_ADDR[15:2], FS_NR_CPU_IDS_ADDR[15:2], FS_NUM_RX_QUEUES_ADDR[15:2],
        FS_RPS_CPU_MASK_ADDR[15:2], FS_SOCK_CFG_ADDR[15:2], FS_LUT_CFG_ADDR[15:2],
        FS_CNT_CLEAR_ADDR[15:2], FS_HASH_CFG_ADDR[15:2], FS_HASH_SEED_ADDR[15:2],
        FS_FLT_PORTS_ADDR[15:2], FS_FLT_META_ADDR[15:2], FS_FLT_ID_ADDR[15:2],
        FS_FLT_QUEUE_ADDR[15:2], FS_FLT_CMD_ADDR[15:2], FS_FLT_STATUS_ADDR[15:2],
        FS_FLT_RESULT_ADDR[15:2], FS_FLT_COUNT_ADDR[15:2]: wr_ok = 1'b1;
        default: wr_ok = in_array(aw_addr_reg[15:2], FS_CPU_ONLINE_ADDR[15:2], 16'(ONLINE_WORDS)) ||
                         in_array(aw_addr_reg[15:2], FS_RSS_KEY_ADDR[15:2], 16'(FS_RSS_KEY_COUNT)) ||
                         in_array(aw_addr_reg[15:2], FS_FLT_SRC_ADDR[15:2], 16'(4)) ||
                         in_array(aw_addr_reg[15:2], FS_FLT_DST_ADDR[15:2], 16'(4)) ||
                         in_array(aw_addr_reg[15:2], FS_LUT_ADDR[15:2], 16'(LUT_DEPTH));
    endcase
end

function automatic [31:0] merge(input [31:0] old, input [31:0] data, input [31:0] m,
                                input [31:0] field_mask);
    merge = ((old & ~m) | (data & m)) & field_mask;
endfunction

// ---------------------------------------------------------------- write channel
logic aw_held_reg = 1'b0, w_held_reg = 1'b0, bvalid_reg = 1'b0;
logic [1:0] bresp_reg = RESP_OKAY;
wire do_write = aw_held_reg && w_held_reg && !bvalid_reg;
wire wr_fire = do_write && wr_ok;
wire [13:0] wa = aw_addr_reg[15:2];   // word address

always_ff @(posedge clk) begin
    cnt_clear_reg <= 1'b0;
    sock_wr_reg <= 1'b0;
    lut_wr_en_reg <= 1'b0;

    if (s_axil_awvalid && !aw_held_reg) begin
        aw_held_reg <= 1'b1;
        aw_addr_reg <= s_axil_awaddr;
    end
    if (s_axil_wvalid && !w_held_reg) begin
        w_held_reg <= 1'b1;
        w_data_reg <= s_axil_wdata;
        w_strb_reg <= s_axil_wstrb;
    end
    if (bvalid_reg && s_axil_bready) begin
        bvalid_reg <= 1'b0;
    end
    if (do_write) begin
        aw_held_reg <= 1'b0;
        w_held_reg <= 1'b0;
        bvalid_reg <= 1'b1;
        bresp_reg <= wr_ok ? RESP_OKAY : RESP_SLVERR;
    end

    // filter command handshake and result
    if (flt_cmd_valid && flt_cmd_ready) begin
        flt_pending_reg <= 1'b0;
    end
    if (flt_rsp_valid) begin
        flt_done_reg <= 1'b1;
        flt_err_reg <= flt_rsp_err;
        flt_res_id_reg <= flt_rsp_id;
        flt_res_queue_reg <= flt_rsp_queue;
    end

    if (wr_fire) begin
        case (wa)
            FS_CTRL_ADDR[15:2]: ctrl_reg <= merge(ctrl_reg, w_data_reg, wmask, FS_CTRL_MASK);
            FS_ERR_STATUS_ADDR[15:2]: err_reg <= err_reg & ~(w_data_reg & wmask);
            FS_SCRATCH_ADDR[15:2]: scratch_reg <= merge(scratch_reg, w_data_reg, wmask, FS_SCRATCH_MASK);
            FS_NR_CPU_IDS_ADDR[15:2]:
                nr_cpu_ids_reg <= merge(nr_cpu_ids_reg, w_data_reg, wmask, FS_NR_CPU_IDS_MASK);
            FS_NUM_RX_QUEUES_ADDR[15:2]:
                num_rx_queues_reg <= merge(num_rx_queues_reg, w_data_reg, wmask, FS_NUM_RX_QUEUES_MASK);
            FS_RPS_CPU_MASK_ADDR[15:2]:
                rps_cpu_mask_reg <= merge(rps_cpu_mask_reg, w_data_reg, wmask, FS_RPS_CPU_MASK_MASK);
            FS_SOCK_CFG_ADDR[15:2]: begin
                sock_cfg_reg <= merge(sock_cfg_reg, w_data_reg, wmask, FS_SOCK_CFG_MASK);
                sock_wr_reg <= 1'b1;
            end
            FS_LUT_CFG_ADDR[15:2]: lut_cfg_reg <= merge(lut_cfg_reg, w_data_reg, wmask, FS_LUT_CFG_MASK);
            FS_CNT_CLEAR_ADDR[15:2]: cnt_clear_reg <= w_data_reg[FS_CNT_CLEAR_ALL_LSB] &&
                                                      w_strb_reg[0];
            FS_HASH_CFG_ADDR[15:2]: hash_cfg_reg <= merge(hash_cfg_reg, w_data_reg, wmask, FS_HASH_CFG_MASK);
            FS_HASH_SEED_ADDR[15:2]:
                hash_seed_reg <= merge(hash_seed_reg, w_data_reg, wmask, FS_HASH_SEED_MASK);
            FS_FLT_PORTS_ADDR[15:2]: flt_ports_reg <= merge(flt_ports_reg, w_data_reg, wmask, FS_FLT_PORTS_MASK);
            FS_FLT_META_ADDR[15:2]: flt_meta_reg <= merge(flt_meta_reg, w_data_reg, wmask, FS_FLT_META_MASK);
            FS_FLT_ID_ADDR[15:2]: flt_id_reg <= merge(flt_id_reg, w_data_reg, wmask, FS_FLT_ID_MASK);
            FS_FLT_QUEUE_ADDR[15:2]: flt_queue_reg <= merge(flt_queue_reg, w_data_reg, wmask, FS_FLT_QUEUE_MASK);
            FS_FLT_CMD_ADDR[15:2]: begin
                if (flt_pending_reg || flt_busy) begin
                    err_reg[FS_ERR_STATUS_CMD_BUSY_LSB] <= 1'b1;
                end else begin
                    flt_pending_reg <= 1'b1;
                    flt_op_reg <= w_data_reg[FS_FLT_CMD_OP_LSB +: FS_FLT_CMD_OP_WIDTH];
                    flt_done_reg <= 1'b0;
                end
            end
            default: begin
                for (int i = 0; i < ONLINE_WORDS; i++) begin
                    if (wa == 14'(FS_CPU_ONLINE_ADDR[15:2] + 14'(i))) begin
                        online_reg[32*i +: 32] <= merge(online_reg[32*i +: 32], w_data_reg, wmask,
                                                        FS_CPU_ONLINE_MASK);
                    end
                end
                for (int i = 0; i < FS_RSS_KEY_COUNT; i++) begin
                    if (wa == 14'(FS_RSS_KEY_ADDR[15:2] + 14'(i))) begin
                        rss_key_reg[415-32*i -: 32] <= merge(rss_key_reg[415-32*i -: 32], w_data_reg,
                                                             wmask, FS_RSS_KEY_MASK);
                    end
                end
                for (int i = 0; i < 4; i++) begin
                    if (wa == 14'(FS_FLT_SRC_ADDR[15:2] + 14'(i))) begin
                        flt_src_reg[127-32*i -: 32] <= merge(flt_src_reg[127-32*i -: 32], w_data_reg,
                                                             wmask, FS_FLT_SRC_MASK);
                    end
                    if (wa == 14'(FS_FLT_DST_ADDR[15:2] + 14'(i))) begin
                        flt_dst_reg[127-32*i -: 32] <= merge(flt_dst_reg[127-32*i -: 32], w_data_reg,
                                                             wmask, FS_FLT_DST_MASK);
                    end
                end
                if (in_array(wa, FS_LUT_ADDR[15:2], 16'(LUT_DEPTH))) begin
                    // a table entry is written whole (strobes ignored)
                    lut_wr_en_reg <= 1'b1;
                    lut_wr_index_reg <= LUT_LOG2'(index_of(wa, FS_LUT_ADDR[15:2]));
                    lut_wr_queue_reg <= w_data_reg[QUEUE_WIDTH-1:0];
                end
            end
        endcase
    end

    if (evt_overflow_set) begin
        err_reg[FS_ERR_STATUS_EVT_OVERFLOW_LSB] <= 1'b1;
    end

    if (rst) begin
        aw_held_reg <= 1'b0;
        w_held_reg <= 1'b0;
        bvalid_reg <= 1'b0;
        ctrl_reg <= FS_CTRL_RESET;
        err_reg <= FS_ERR_STATUS_RESET;
        scratch_reg <= FS_SCRATCH_RESET;
        nr_cpu_ids_reg <= FS_NR_CPU_IDS_RESET;
        num_rx_queues_reg <= FS_NUM_RX_QUEUES_RESET;
        rps_cpu_mask_reg <= FS_RPS_CPU_MASK_RESET;
        sock_cfg_reg <= FS_SOCK_CFG_RESET;
        lut_cfg_reg <= FS_LUT_CFG_RESET;
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
        flt_op_reg <= '0;
        flt_done_reg <= 1'b0;
        flt_err_reg <= '0;
        flt_res_id_reg <= '0;
        flt_res_queue_reg <= '0;
        cnt_clear_reg <= 1'b0;
        sock_wr_reg <= 1'b0;
        lut_wr_en_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- read channel
// AR -> (decode, LUT RAM read) -> R
logic [1:0] rd_state_reg = 2'd0;   // 0 idle, 1 decode, 2 data valid
logic [31:0] rdata_reg;
logic [1:0] rresp_reg;
logic rd_lut_reg;
logic rd_ok_reg;
logic [31:0] rd_value_reg;

always_ff @(posedge clk) begin
    case (rd_state_reg)
        2'd0: begin
            if (s_axil_arvalid) begin
                rd_addr_reg <= s_axil_araddr;
                rd_state_reg <= 2'd1;
            end
        end
        2'd1: begin
            rd_lut_reg <= rd_lut;
            rd_ok_reg <= rd_ok;
            rd_value_reg <= rd_value;
            rd_state_reg <= 2'd2;
        end
        2'd2: begin
            rdata_reg <= !rd_ok_reg ? 32'd0 :
                         rd_lut_reg ? 32'(lut_rd_queue) : rd_value_reg;
            rresp_reg <= rd_ok_reg ? RESP_OKAY : RESP_SLVERR;
            rd_state_reg <= 2'd3;
        end
        default: begin
            if (s_axil_rready) begin
                rd_state_reg <= 2'd0;
            end
        end
    endcase
    if (rst) begin
        rd_state_reg <= 2'd0;
    end
end

assign lut_rd_en = (rd_state_reg == 2'd1);
assign lut_rd_index = LUT_LOG2'(index_of(rd_addr_reg[15:2], FS_LUT_ADDR[15:2]));

assign s_axil_awready = !aw_held_reg;
assign s_axil_wready = !w_held_reg;
assign s_axil_bvalid = bvalid_reg;
assign s_axil_bresp = bresp_reg;
assign s_axil_arready = (rd_state_reg == 2'd0);
assign s_axil_rvalid = (rd_state_reg == 2'd3);
assign s_axil_rdata = rdata_reg;
assign s_axil_rresp = rresp_reg;

// ---------------------------------------------------------------- outputs
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

assign lut_wr_en = lut_wr_en_reg;
assign lut_wr_index = lut_wr_index_reg;
assign lut_wr_queue = lut_wr_queue_reg;

assign flt_cmd_valid = flt_pending_reg;
assign flt_cmd_op = flt_op_reg;
assign flt_cmd_ipv6 = flt_meta_reg[FS_FLT_META_IPV6_LSB];
assign flt_cmd_proto = flt_meta_reg[FS_FLT_META_PROTO_LSB +: 8];
assign flt_cmd_src = flt_src_reg;
assign flt_cmd_dst = flt_dst_reg;
assign flt_cmd_sport = flt_ports_reg[FS_FLT_PORTS_SPORT_LSB +: 16];
assign flt_cmd_dport = flt_ports_reg[FS_FLT_PORTS_DPORT_LSB +: 16];
assign flt_cmd_id = flt_id_reg[ID_WIDTH-1:0];
assign flt_cmd_queue = flt_queue_reg[QUEUE_WIDTH-1:0];

// AXI protection bits carry no meaning here; the unused register bits are outside fields
wire unused_axil = &{1'b0, s_axil_awprot, s_axil_arprot, aw_addr_reg[1:0], rd_addr_reg[1:0],
                     w_data_reg, nr_cpu_ids_reg[31:16], num_rx_queues_reg[31:16],
                     sock_cfg_reg, lut_cfg_reg, hash_cfg_reg, flt_meta_reg, flt_id_reg,
                     flt_queue_reg, flt_ports_reg};

endmodule

`resetall
