`resetall
`timescale 1ns / 1ps
`default_nettype none

// Turns one register access into its list of fs_rfs_core commands and plays it on the
// core's command port, one command at a time (op codes: enum rfs_op of the register map).
// Three kinds of list:
//   LIST   up to 4 commands given at start (fs_reg_file builds them from the access);
//   ONLINE a CPU_ONLINE word: SET_NR_CPU_IDS(CPUS), SET_ONLINE per implemented CPU of the
//          word, SET_NR_CPU_IDS(nr_cpu_ids) (the core checks cpu < nr_cpu_ids, the register
//          reaches every implemented CPU);
//   INIT   after reset: every CPU offline with rmap 0, nr_cpu_ids, every rps_map pool entry
//          0, the reset RPS_CPU_MASK and the CTRL reset mode (the map's reset state).
// A command answered with a nonzero status ends the list (done with fail). res_* pass each
// successful answer on (READ_HEAD_TAIL, SOCK_READ and MAY_EXPIRE results).
module fs_reg_sequencer #(
    // CPUs with state (log2)
    parameter integer CPU_LOG2 = 8,
    // rps_map CPU pool (log2)
    parameter integer RPS_POOL_LOG2 = 12
) (
    input  wire         clk,
    input  wire         rst,

    // start a list (one clock); kind: 0 LIST, 1 ONLINE, 2 INIT
    input  wire         start,
    input  wire [1:0]   start_kind,
    input  wire [2:0]   list_n,
    input  wire [19:0]  list_op,         // entry k in [5k +: 5]
    input  wire [63:0]  list_addr,       // [16k +: 16]
    input  wire [127:0] list_d0,         // [32k +: 32]
    input  wire [127:0] list_d1,
    input  wire [13:0]  online_word,     // CPU_ONLINE word index
    input  wire [31:0]  online_bits,
    input  wire [31:0]  nr_cpu_ids,      // NR_CPU_IDS register (ONLINE restores it)

    output wire         busy,
    output wire         done,            // one clock: the list ended (last answer or failure)
    output wire         fail,            // with done: a command answered nonzero
    output wire         res_valid,       // a command answered 0
    output wire [4:0]   res_op,
    output wire [31:0]  res_data0,
    output wire [31:0]  res_data1,

    // fs_rfs_core command port
    output wire         rfs_cmd_valid,
    input  wire         rfs_cmd_ready,
    output wire [4:0]   rfs_cmd_op,
    output wire [15:0]  rfs_cmd_addr,
    output wire [31:0]  rfs_cmd_data0,
    output wire [31:0]  rfs_cmd_data1,
    input  wire         rfs_rsp_valid,
    input  wire [31:0]  rfs_rsp_status,
    input  wire [31:0]  rfs_rsp_data0,
    input  wire [31:0]  rfs_rsp_data1
);

`include "flowsteer_regs.vh"

localparam integer CPUS = 1 << CPU_LOG2;
localparam integer POOL = 1 << RPS_POOL_LOG2;
localparam integer SWEEP_W = 18;                   // step counter
localparam [4:0] OP_SET_ONLINE = 5'(FS_RFS_OP_SET_ONLINE);
localparam [4:0] OP_SET_RMAP = 5'(FS_RFS_OP_SET_RMAP);
localparam [4:0] OP_SET_NR_CPU_IDS = 5'(FS_RFS_OP_SET_NR_CPU_IDS);
localparam [4:0] OP_SET_MODE = 5'(FS_RFS_OP_SET_MODE);
localparam [4:0] OP_RPS_POOL = 5'(FS_RFS_OP_RPS_POOL);
localparam [4:0] OP_SET_CPU_MASK = 5'(FS_RFS_OP_SET_CPU_MASK);
localparam [1:0] SK_LIST = 2'd0, SK_ONLINE = 2'd1, SK_INIT = 2'd2;
localparam [1:0] SS_IDLE = 2'd0, SS_CMD = 2'd1, SS_WAIT = 2'd2;
// SET_MODE data0 of the CTRL reset value (layout rfs_mode)
localparam [31:0] MODE_RESET =
    (32'(FS_CTRL_RESET[FS_CTRL_PATCHED_LSB]) << FS_RFS_MODE_PATCHED_LSB) |
    (32'(FS_CTRL_RESET[FS_CTRL_SLOT_MASK_LSB]) << FS_RFS_MODE_SLOT_MASK_LSB) |
    (32'(FS_CTRL_RESET[FS_CTRL_NTUPLE_LSB]) << FS_RFS_MODE_NTUPLE_LSB) |
    (32'(FS_CTRL_RESET[FS_CTRL_RMAP_LSB]) << FS_RFS_MODE_RMAP_LSB);

logic [1:0] ss_reg = SS_IDLE;
logic [1:0] sk_reg = SK_LIST;
logic [SWEEP_W-1:0] next_step_reg = SWEEP_W'(1);   // the step after the one in flight (a
                                                   // register: INIT's compares start at a flop)
logic [2:0] sn_reg = 3'd0;
logic [19:0] so_reg;
logic [63:0] sa_reg;
logic [127:0] sd0_reg, sd1_reg;
logic [13:0] son_word_reg;
logic [31:0] son_rot_reg;               // the online word rotated by one: step s sets CPU s - 1
// INIT's phase of next_step_reg, registered with it (its compares and the pool index were a
// carry chain each in front of qn_d0_reg): SET_NR_CPU_IDS, RPS_POOL, SET_CPU_MASK, SET_MODE
localparam integer INI_NR = 2 * CPUS, INI_MASK = 2 * CPUS + POOL + 1;
localparam [31:0] INI_PIDX_1 = 32'd0 - 32'(2 * CPUS);   // the pool index at step 1
logic ini_nr_reg = 1'b0, ini_pool_reg = 1'b0, ini_mask_reg = 1'b0, ini_mode_reg = 1'b0;
logic [31:0] ini_pidx_reg = INI_PIDX_1;             // next_step_reg - (2 * CPUS + 1)

// The command of a step is computed one clock before it is offered and held in q_*_reg, so
// the core's argument checks start at a register (LUT depth): step 0 from the start inputs
// (q_first_*), each later step (>= 1) from the registers (q_*), which are themselves registered
// every clock (qn_*_reg: INIT's step compares and pool index are 6 LUT levels alone) and
// latched at the answer before the step. The registers they read change only at a start or an
// answer, and an answer comes at least two clocks after either (offer, then the core's answer
// a clock later at the earliest), so qn_*_reg are current then (p_qn_ok). nr_cpu_ids
// is sampled then too: ONLINE's last step is latched at an answer, after the register's write.
logic [4:0] q_first_op;
logic [15:0] q_first_addr;
logic [31:0] q_first_d0, q_first_d1;
logic q_first_last;
always_comb begin
    q_first_op = list_op[4:0];
    q_first_addr = list_addr[15:0];
    q_first_d0 = list_d0[31:0];
    q_first_d1 = list_d1[31:0];
    q_first_last = list_n <= 3'd1;
    if (start_kind == SK_ONLINE) begin                  // SET_NR_CPU_IDS(CPUS)
        q_first_op = OP_SET_NR_CPU_IDS;
        q_first_addr = 16'({online_word, 5'd0}) - 16'd1;
        q_first_d0 = 32'(CPUS);
        q_first_d1 = 32'd0;
        q_first_last = 1'b0;
    end else if (start_kind == SK_INIT) begin           // SET_ONLINE(cpu 0, offline)
        q_first_op = OP_SET_ONLINE;
        q_first_addr = 16'd0;
        q_first_d0 = 32'd0;
        q_first_d1 = 32'd0;
        q_first_last = 1'b0;
    end
end

logic [4:0] q_op, q_op_reg = 5'd0;
logic [15:0] q_addr, q_addr_reg = 16'd0;
logic [31:0] q_d0, q_d1, q_d0_reg = 32'd0, q_d1_reg = 32'd0;
logic q_last, q_last_reg = 1'b0;
// CPUs in the start's online word (step 0 of ONLINE does not need it: it is registered then)
logic [31:0] on_left;  // implemented CPUs from the word's first
logic [5:0] on_cnt, on_cnt_reg = 6'd0;
always_comb begin
    on_left = 32'(CPUS) - 32'({online_word, 5'd0});
    on_cnt = (on_left > 32'd32) ? 6'd32 : 6'(on_left);
end

always_comb begin
    q_op = so_reg[5*next_step_reg[1:0] +: 5];
    q_addr = sa_reg[16*next_step_reg[1:0] +: 16];
    q_d0 = sd0_reg[32*next_step_reg[1:0] +: 32];
    q_d1 = sd1_reg[32*next_step_reg[1:0] +: 32];
    q_last = 32'(next_step_reg) + 32'd1 >= 32'(sn_reg);
    if (sk_reg == SK_ONLINE) begin
        q_last = 32'(next_step_reg) == 32'(on_cnt_reg) + 32'd1;
        q_addr = 16'(32'({son_word_reg, 5'd0}) + 32'(next_step_reg) - 32'd1);
        q_d1 = 32'd0;
        if (q_last) begin
            q_op = OP_SET_NR_CPU_IDS;
            q_d0 = nr_cpu_ids;
        end else begin
            q_op = OP_SET_ONLINE;
            q_d0 = 32'(son_rot_reg[next_step_reg[4:0]]);
        end
    end else if (sk_reg == SK_INIT) begin
        q_addr = 16'(next_step_reg >> 1);
        q_d0 = 32'd0;
        q_d1 = 32'd0;
        q_op = next_step_reg[0] ? OP_SET_RMAP : OP_SET_ONLINE;
        q_last = 1'b0;
        if (ini_nr_reg) begin
            q_op = OP_SET_NR_CPU_IDS;
            q_d0 = FS_NR_CPU_IDS_RESET;
        end else if (ini_pool_reg) begin
            q_op = OP_RPS_POOL;
            q_d0 = ini_pidx_reg;
        end else if (ini_mask_reg) begin
            q_op = OP_SET_CPU_MASK;
            q_d0 = FS_RPS_CPU_MASK_RESET;
        end else if (ini_mode_reg) begin
            q_op = OP_SET_MODE;
            q_d0 = MODE_RESET;
            q_last = 1'b1;
        end
    end
end

logic [4:0] qn_op_reg = 5'd0;
logic [15:0] qn_addr_reg = 16'd0;
logic [31:0] qn_d0_reg = 32'd0, qn_d1_reg = 32'd0;
logic qn_last_reg = 1'b0;

wire answered = (ss_reg == SS_WAIT) && rfs_rsp_valid;
wire failed = rfs_rsp_status != 32'd0;

always_ff @(posedge clk) begin
    if (start) begin
        q_op_reg <= q_first_op;
        q_addr_reg <= q_first_addr;
        q_d0_reg <= q_first_d0;
        q_d1_reg <= q_first_d1;
        q_last_reg <= q_first_last;
    end else if (answered) begin
        q_op_reg <= qn_op_reg;
        q_addr_reg <= qn_addr_reg;
        q_d0_reg <= qn_d0_reg;
        q_d1_reg <= qn_d1_reg;
        q_last_reg <= qn_last_reg;
    end
    qn_op_reg <= q_op;
    qn_addr_reg <= q_addr;
    qn_d0_reg <= q_d0;
    qn_d1_reg <= q_d1;
    qn_last_reg <= q_last;
    case (ss_reg)
        SS_CMD: begin
            if (rfs_cmd_ready) ss_reg <= SS_WAIT;
        end
        SS_WAIT: begin
            if (rfs_rsp_valid) begin
                next_step_reg <= next_step_reg + SWEEP_W'(1);
                // the phase of next_step_reg + 1
                ini_nr_reg <= 32'(next_step_reg) == 32'(INI_NR - 1);
                ini_pool_reg <= 32'(next_step_reg) >= 32'(INI_NR) && 32'(next_step_reg) < 32'(INI_MASK - 1);
                ini_mask_reg <= 32'(next_step_reg) == 32'(INI_MASK - 1);
                ini_mode_reg <= 32'(next_step_reg) >= 32'(INI_MASK);
                ini_pidx_reg <= ini_pidx_reg + 32'd1;
                ss_reg <= (q_last_reg || failed) ? SS_IDLE : SS_CMD;
            end
        end
        default: begin
        end
    endcase
    if (start) begin
        ss_reg <= SS_CMD;
        sk_reg <= start_kind;
        next_step_reg <= SWEEP_W'(1);
        {ini_nr_reg, ini_pool_reg, ini_mask_reg, ini_mode_reg} <= 4'b0000;   // step 1
        ini_pidx_reg <= INI_PIDX_1;
        sn_reg <= list_n;
        so_reg <= list_op;
        sa_reg <= list_addr;
        sd0_reg <= list_d0;
        sd1_reg <= list_d1;
        son_word_reg <= online_word;
        son_rot_reg <= {online_bits[30:0], online_bits[31]};
        on_cnt_reg <= on_cnt;
    end
    if (rst) begin
        ss_reg <= SS_IDLE;
        sk_reg <= SK_LIST;
        next_step_reg <= SWEEP_W'(1);
        {ini_nr_reg, ini_pool_reg, ini_mask_reg, ini_mode_reg} <= 4'b0000;
        ini_pidx_reg <= INI_PIDX_1;
    end
end

assign busy = ss_reg != SS_IDLE;
assign done = answered && (q_last_reg || failed);
assign fail = failed;
assign res_valid = answered && !failed;
assign res_op = q_op_reg;
assign res_data0 = rfs_rsp_data0;
assign res_data1 = rfs_rsp_data1;

assign rfs_cmd_valid = (ss_reg == SS_CMD);
assign rfs_cmd_op = q_op_reg;
assign rfs_cmd_addr = q_addr_reg;
assign rfs_cmd_data0 = q_d0_reg;
assign rfs_cmd_data1 = q_d1_reg;

`ifdef FORMAL
// the next step's command was computed from the registers as they are
logic qn_ok_reg = 1'b0;             // no start or answer last clock
always_ff @(posedge clk) begin
    qn_ok_reg <= !(start || answered);
end
always_comb begin
    if (!rst) begin
        // fs_reg_file starts a list only when the one before has ended
        if (start) a_start_idle: assume (!busy);
        if (answered) p_qn_ok: assert (qn_ok_reg);
        c_next_step: cover (answered && !failed && !q_last_reg);
    end
end
`endif

endmodule

`resetall
