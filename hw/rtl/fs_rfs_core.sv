`resetall
`timescale 1ns / 1ps
`default_nettype none

// RFS core: the per-packet kernel plane of the engine (DESIGN "The hardware engine and its
// contract", steps 4-5): get_rps_cpu (spec 2.2) with the sock-flow-table ident check,
// set_rps_cpu original (spec 3.1) or patched with the S5g gate (spec 3.2), the engine as the
// ndo_rx_flow_steer driver through the m_drv_req / s_drv_rsp port, and the enqueue
// (tail[cpu]++, slot.last_qtail = tail, spec 5). Golden model: flowsteer::kernel::Kernel as
// EngineModel drives it (every packet has a recorded RX queue, rmap present, never dropped).
//
// RPS maps (G6) as the register map has them: per queue LEN and BASE into a shared pool of
// CPU ids (RPS_MAP_CPUS); LEN 0 (the reset value) = no map. G6 checks cpu_online only (as
// the kernel and the model); pool entries must be < NUM_CPUS.
// A packet that is not `steerable` (not TCP/UDP, or an IPv4 fragment) gets rc =
// -EPROTONOSUPPORT from the engine's driver without a driver-port transaction (the engine
// model's ndo_rx_flow_steer rejects it before touching the filter table); the call is still
// reported (Steer-C counts it).
//
// Pipeline (one packet per clock without driver calls, commands or back-pressure):
//   A  input register; hash_32 product h*0x61C88647 and the G6 pool index registered.
//      Issue reads: sock entry (h & mask), receiving slot R = {queue, slot_rxq(h)}, pool.
//   B  sock entry, R and the map CPU arrive. Ident check (G5b), next_cpu (G5c), target
//      queue rmap[next_cpu] and its table size (speculative), registered.
//   B1 target slot P = {tq, slot_tq(h)} from those registers. Read P.
//   B2 P arrives; registered into C's view.
//   C  Everything a slot view implies is precomputed here from registered views and
//      registered: for R tcpu0 < nr && online, int32(head[tcpu0] - last_qtail) >= 0 (G5e),
//      tcpu0 != next_cpu; for P the S5g gate inputs (filter, activity window spec 4.1, hash,
//      cpu == next_cpu); and the per-packet terms (next_cpu valid/online, head[next_cpu],
//      S2-S4, G6).
//   D  the decision on registered bits: G5e, set_rps_cpu S1-S10, gate, driver call,
//      enqueue and record; all slot writes happen here, one per clock.
//   Latency: record valid 7 clocks after the input handshake (no driver call).
//   "A-C" below: every stage before D (A, B, B1, B2, C).
//   No logic follows a RAM output in the clock it arrives but a forwarding select, the sock
//   ident check and the register (B1 and B2 cut the deep slot and sock tables' output
//   multiplexers off the address and flag logic: docs/synth-report.md).
// Hazards: all slot state sits in two copies of the slot RAM (port 1 reads R, port 2 reads P;
// every write goes to both). Views are forwarded: the RAM output is patched with the write
// of the previous clock (read-during-write returns old data), a stage that holds re-reads its
// address every clock (B for R, B2 for P), the registered views (R in B1, B2 and C, P in C)
// snoop every write, and a packet entering
// D takes the view written by the packet leaving D in the same clock together with that
// writer's precomputed bits (cpu online, in-order and activity flags of the written
// last_qtail: the per-CPU difference head - (tail + 1) is kept in a register, so the flags
// of a last_qtail = tail + 1 write are a lookup). head only changes by commands, which run
// only with D empty, so every precomputed bit stays valid while a packet is in flight.
// One case is not forwarded: a P view written by the packet just ahead with last_qtail =
// tail + 1 while head - (tail + 1) > 0 (head moved past the tail by a command), where the
// activity flag needs the 32-bit compare against the target table's window: D then spends
// two clocks recomputing it (head[P.cpu] registered, then the compare; explicit stall,
// counted by stat_hzd_stall). No other hazard
// stalls (stat_fwd counts the forwarded views).
// Flush (FLUSH_ON_STEER = 1): A-C only read state, so when the packet that called the
// driver leaves D, the packets behind it are dropped and the source presents them again (m_flush): a steer may
// have changed their filter and so their arrival queue.
// Stalls: a driver call holds D until the response (+1 clock, +1 more when the old slot's
// filter must be cleared: the second slot write); stat_drv_stall counts those clocks.
// Commands: accepted once stages A-C are empty (packets are held off while cmd_valid is
// high, so the command wins a tie); its EXEC clock waits until the packet in D, ordered
// before it, has left D. A sock-table write (SOCK_RECORD/DELETE/WRITE) needs neither: it is
// taken with packets ahead of it in A-C and runs the next clock, its write held in a
// one-entry buffer until the last of them is in D (below). A HEAD_ADD (or BACKLOG_DRAIN,
// head = tail) is also taken with packets ahead of it in A-C (counted as for the buffer); it
// runs once the last of them has left D, and the packets after it enter meanwhile and wait in
// C, whose flags read head (two packet slots per HEAD_ADD on a full stream, was four). A
// sock-table write or head command
// lets a packet in during its EXEC clock (that packet reads the sock entry and head after
// the write). Table (re)size is a counted clear, one slot per clock (2^log clocks) with the
// core stalled; stat_cmd_stall counts the clocks a packet waited. Argument checks are registered at the command
// handshake (MAY_EXPIRE's flow_id bound at EXEC); MAY_EXPIRE reads the slot into a register
// (CS_MX: the RAM's output mux alone in that clock), checks it (CS_MX1) and compares against
// the window (CS_MX2).
// Command/packet total order = the order of the handshakes.
module fs_rfs_core #(
    // CPUs with backlog state (nr_cpu_ids is a runtime value <= NUM_CPUS)
    parameter integer NUM_CPUS = 16,
    // RX queues (real_num_rx_queues)
    parameter integer NUM_QUEUES = 16,
    // log2 of the largest per-queue rps_dev_flow table (1..26)
    parameter integer SLOT_LOG2_MAX = 10,
    // log2 of the largest sock flow table (1..29)
    parameter integer SOCK_LOG2_MAX = 12,
    // log2 of the rps_map CPU pool shared by the queues (1..16)
    parameter integer RPS_POOL_LOG2 = 12,
    // opaque per-packet tag width
    parameter integer TAG_WIDTH = 16,
    // 1: empty A-C when a driver caller leaves D (m_flush); the source must present the
    // dropped packets again (the engine top replays them from its tag store)
    parameter integer FLUSH_ON_STEER = 0
) (
    input  wire                      clk,
    input  wire                      rst,

    // packets
    input  wire                      s_axis_pkt_tvalid,
    output wire                      s_axis_pkt_tready,
    input  wire [31:0]               s_axis_pkt_hash,       // 0 = no hash (G4)
    input  wire [QW-1:0]             s_axis_pkt_queue,      // arrival RX queue
    input  wire                      s_axis_pkt_steerable,  // driver would accept (TCP/UDP, no frag)
    input  wire [TAG_WIDTH-1:0]      s_axis_pkt_tag,
    input  wire                      s_axis_pkt_zkey,       // its filter key has ports 0 (flush)

    // per-packet records
    output wire                      m_axis_rec_tvalid,
    input  wire                      m_axis_rec_tready,
    output wire                      m_axis_rec_cpu_valid,  // get_rps_cpu returned a CPU
    output wire [15:0]               m_axis_rec_cpu,
    output wire [2:0]                m_axis_rec_path,       // SetRpsCpuPath
    output wire [2:0]                m_axis_rec_gate,       // GateRow
    output wire                      m_axis_rec_steer,      // ndo_rx_flow_steer called (S6)
    output wire [QW-1:0]             m_axis_rec_steer_queue,   // } valid with
    output wire [SLOT_LOG2_MAX-1:0]  m_axis_rec_steer_flow_id, // } m_axis_rec_steer
    output wire [31:0]               m_axis_rec_steer_rc,      // } (signed)
    output wire                      m_axis_rec_rflow_valid,   // slot that got last_qtail
    output wire [QW-1:0]             m_axis_rec_rflow_queue,
    output wire [SLOT_LOG2_MAX-1:0]  m_axis_rec_rflow_slot,
    output wire [31:0]               m_axis_rec_tail,       // tail[cpu] after the enqueue, else 0
    output wire [TAG_WIDTH-1:0]      m_axis_rec_tag,

    // the engine's ndo_rx_flow_steer (spec 3 S6)
    output wire                      m_drv_req_valid,
    input  wire                      m_drv_req_ready,
    output wire [QW-1:0]             m_drv_req_queue,
    output wire [SLOT_LOG2_MAX-1:0]  m_drv_req_flow_id,
    output wire [31:0]               m_drv_req_hash,
    output wire [TAG_WIDTH-1:0]      m_drv_req_tag,
    // D takes a packet in this clock, the one with this tag: a caller that keeps words per
    // tag for the driver loads its caller's into a register here, ready when D asks
    output wire                      m_drv_pre_valid,
    output wire [TAG_WIDTH-1:0]      m_drv_pre_tag,
    output wire [QW-1:0]             m_drv_pre_queue,       // its target queue (its request's)
    // registered by the caller with that word: the packet's filter lookup hit on
    // m_drv_pre_queue (the one answer s_drv_rsp_refuse leaves non-negative)
    input  wire                      s_drv_pre_own,
    input  wire                      s_drv_rsp_valid,
    output wire                      s_drv_rsp_ready,
    input  wire [31:0]               s_drv_rsp_rc,          // signed: id >= 0 or -errno
    // the driver answers the request offered now in its take clock, with an answer that
    // changes no filter (no flush follows): D takes s_drv_rsp_now_rc with the request and
    // no s_drv_rsp_valid comes for it
    input  wire                      s_drv_rsp_now,
    input  wire [31:0]               s_drv_rsp_now_rc,
    // from the driver's registers: a request offered now is taken and answered now with
    // rc < 0 unless s_drv_pre_own (its event FIFO is full: -EBUSY). With !s_drv_pre_own, D
    // finishes its call in the request's clock, the ready chain reading registers only
    input  wire                      s_drv_rsp_refuse,
    // the packet that called the driver leaves D while one behind it in A-C may share its
    // filter key (same hash, or both keys with ports 0): A-C are emptied (they looked their
    // filter up before the steer; the source presents them again from the one after
    // m_drv_req_tag) and no packet is accepted in this clock
    output wire                      m_flush,
    // a packet leaves D (its record is made; a caller's call is answered): the top orders
    // the event FIFO's registers after the packets before them by it
    output wire                      m_fin,

    // host commands (one at a time; ops below)
    input  wire                      cmd_valid,
    output wire                      cmd_ready,
    input  wire [4:0]                cmd_op,
    input  wire [15:0]               cmd_addr,              // cpu or queue
    input  wire [31:0]               cmd_data0,
    input  wire [31:0]               cmd_data1,
    output wire                      rsp_valid,             // one-clock pulse per command
    output wire [31:0]               rsp_status,            // 0 or -errno
    output wire [31:0]               rsp_data0,
    output wire [31:0]               rsp_data1,

    // statistics
    output wire [31:0]               stat_drv_stall,        // clocks C waited on the driver
    output wire [31:0]               stat_cmd_stall,        // clocks a packet waited for commands
    output wire [31:0]               stat_fwd,              // views fixed by forwarding
    output wire [31:0]               stat_hzd_stall         // clocks D recomputed a forwarded flag
);

`include "flowsteer_regs.vh"

localparam integer QW = (NUM_QUEUES > 1) ? $clog2(NUM_QUEUES) : 1;
localparam integer CW = (NUM_CPUS > 1) ? $clog2(NUM_CPUS) : 1;
localparam integer SL = SLOT_LOG2_MAX;
localparam integer KL = SOCK_LOG2_MAX;
localparam integer PL = RPS_POOL_LOG2;
localparam integer AW = (QW > CW) ? QW : CW;      // command address bits kept
localparam integer RAW = QW + SL;                 // slot RAM address: {queue, slot}
localparam integer SW = 96;                       // slot word: cpu, filter, last_qtail, hash
localparam integer F_CPU = 80;                    // rps_dev_flow.cpu (u16)
localparam integer F_FILTER = 64;                 // rps_dev_flow.filter (u16)
localparam integer F_LQ = 32;                     // rps_dev_flow.last_qtail (u32)
localparam integer F_HASH = 0;                    // rps_dev_flow.hash (u32, PATCH1)

// command ops: one command at a time, each answered by one rsp_valid pulse with rsp_status
// 0 or -errno (-EINVAL bad queue/CPU/index, -ENOMEM log2 above the parameter maximum, where
// the kernel model would accept a larger table); rsp_data0/1 carry READ_HEAD_TAIL (also
// returned by the other per-CPU ops), MAY_EXPIRE and SOCK_READ results. rps_cpu_mask is
// recomputed from nr_cpu_ids by SOCK_SIZE (spec 1.1), as the kernel does at allocation;
// SET_CPU_MASK sets it to any value below 2^16 (the engine's RPS_CPU_MASK register; a wider
// one: -EINVAL).
// op codes and operands: enum rfs_op of hw/regs/flowsteer_regs.json (hw/regs/registers.md)
localparam [4:0] OP_SOCK_RECORD = 5'(FS_RFS_OP_SOCK_RECORD);
localparam [4:0] OP_SOCK_DELETE = 5'(FS_RFS_OP_SOCK_DELETE);
localparam [4:0] OP_SOCK_SIZE = 5'(FS_RFS_OP_SOCK_SIZE);
localparam [4:0] OP_QUEUE_TABLE = 5'(FS_RFS_OP_QUEUE_TABLE);
localparam [4:0] OP_HEAD_ADD = 5'(FS_RFS_OP_HEAD_ADD);
localparam [4:0] OP_SET_HEAD_TAIL = 5'(FS_RFS_OP_SET_HEAD_TAIL);
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
localparam [4:0] OP_BACKLOG_DRAIN = 5'(FS_RFS_OP_BACKLOG_DRAIN);

localparam [31:0] EINVAL_N = -32'sd22;
localparam [31:0] ENOMEM_N = -32'sd12;
localparam [31:0] EPROTONOSUPPORT_N = -32'sd93;

// SetRpsCpuPath / GateRow: enums set_rps_cpu_path and gate_row of the register map
localparam [2:0] P_NOT_CALLED = 3'(FS_SET_RPS_CPU_PATH_NOT_CALLED);
localparam [2:0] P_INVALID_CPU = 3'(FS_SET_RPS_CPU_PATH_INVALID_CPU);
localparam [2:0] P_NO_ACCEL = 3'(FS_SET_RPS_CPU_PATH_NO_ACCEL);
localparam [2:0] P_SAME_QUEUE = 3'(FS_SET_RPS_CPU_PATH_SAME_QUEUE);
localparam [2:0] P_NO_TARGET = 3'(FS_SET_RPS_CPU_PATH_NO_TARGET_TABLE);
localparam [2:0] P_GATE_SKIP = 3'(FS_SET_RPS_CPU_PATH_GATE_SKIP);
localparam [2:0] P_DRV_ERROR = 3'(FS_SET_RPS_CPU_PATH_DRIVER_ERROR);
localparam [2:0] P_STEERED = 3'(FS_SET_RPS_CPU_PATH_STEERED);
localparam [2:0] G_NOT_EVAL = 3'(FS_GATE_ROW_NOT_EVALUATED);
localparam [2:0] G_NO_FILTER = 3'(FS_GATE_ROW_NO_FILTER);
localparam [2:0] G_INACTIVE = 3'(FS_GATE_ROW_INACTIVE);
localparam [2:0] G_SKIP_OTHER = 3'(FS_GATE_ROW_SKIP_OTHER_FLOW);
localparam [2:0] G_SKIP_SAME = 3'(FS_GATE_ROW_SKIP_SAME_FLOW);
localparam [2:0] G_SAME_NEW_CPU = 3'(FS_GATE_ROW_SAME_FLOW_NEW_CPU);

`ifdef VERILATOR
if (NUM_CPUS < 1 || NUM_CPUS > 65535 || NUM_QUEUES < 1 || NUM_QUEUES > 65536 ||
    SLOT_LOG2_MAX < 1 || SLOT_LOG2_MAX > 26 || SOCK_LOG2_MAX < 1 || SOCK_LOG2_MAX > 29 ||
    RPS_POOL_LOG2 < 1 || RPS_POOL_LOG2 > 16 || TAG_WIDTH < 1) begin : g_bad_param
    $error("fs_rfs_core: need 1<=NUM_CPUS<65536, 1<=NUM_QUEUES, 1<=SLOT_LOG2_MAX<=26, 1<=SOCK_LOG2_MAX<=29, 1<=RPS_POOL_LOG2<=16");
end
`endif


// ---------------------------------------------------------------- helpers
// slot_T(h) (spec 6.4): V-log hash_32(h, log) = top `log` bits of h*GOLDEN (log 0 -> 0),
// V-mask h & (size-1).
// prod31 = (h*GOLDEN) >> 1: prod >> (32 - lg) == prod31 >> (31 - lg), and 31 - lg is ~lg
// (no subtractor; lg 0 shifts everything out)
function automatic [SL-1:0] slot_of(input [31:0] h, input [30:0] prod31, input [4:0] lg,
                                    input mask_mode);
    if (mask_mode) begin
        slot_of = SL'(h & ~(32'hFFFFFFFF << lg));
    end else begin
        slot_of = SL'(prod31 >> ~lg);
    end
endfunction

// bits 0 .. lg-1 set (no shifter: one compare per bit)
function automatic [31:0] below_mask(input [4:0] lg);
    for (int k = 0; k < 32; k++) begin
        below_mask[k] = 5'(k) < lg;
    end
endfunction

// a + b == 0 (mod 2^32) without the carry chain: every sum bit is 0 exactly when the carry
// into bit i is a[i] ^ b[i], and then the carry out of it is a[i] | b[i]
function automatic sum_is_zero(input [31:0] a, input [31:0] b);
    sum_is_zero = (a ^ b) == ((a | b) << 1);
endfunction

// activity window (spec 4.1/4.2): 10 << log (V-log), 10 * (size-1) (V-mask)
// (a table of constants: one LUT per bit, no multiplier)
function automatic [31:0] window_of(input [4:0] lg, input mask_mode);
    window_of = 32'd0;
    for (int k = 0; k < 32; k++) begin
        if (lg == 5'(k)) begin
            window_of = mask_mode ? 32'(((64'd1 << k) - 64'd1) * 64'd10)
                                  : 32'((64'd1 << k) * 64'd10);
        end
    end
endfunction

// window_of(lg, mask_mode) > 0 as int32, bit lg: constant tables (the window's multiplexer
// and its compare were five LUT levels behind the table size)
logic [31:0] wpos_mask, wpos_log;
for (genvar k = 0; k < 32; k++) begin : g_wpos
    assign wpos_mask[k] = $signed(window_of(5'(k), 1'b1)) > 0;
    assign wpos_log[k] = $signed(window_of(5'(k), 1'b0)) > 0;
end

// ---------------------------------------------------------------- configuration state
logic [NUM_QUEUES-1:0] tbl_present_reg = '0;
logic [4:0] tbl_log_reg [NUM_QUEUES];
logic sock_present_reg = 1'b0;
logic [KL-1:0] sock_mask_reg = '0;
logic [15:0] cpu_mask_reg = 16'd0;                 // rps_cpu_mask (below 2^16: CPU ids are u16)
logic [15:0] nr_cpu_ids_reg = 16'(NUM_CPUS);
logic patched_reg = 1'b1;
logic mask_mode_reg = 1'b0;
logic ntuple_reg = 1'b1;
logic rmap_on_reg = 1'b1;                          // dev->rx_cpu_rmap present
logic [NUM_CPUS-1:0] online_reg = '1;
logic [QW-1:0] rmap_reg [NUM_CPUS];
logic [31:0] head_reg [NUM_CPUS];
logic [31:0] tail_p1_reg [NUM_CPUS];               // input_queue_tail + 1 (the next tail)
logic [31:0] hdiff_reg [NUM_CPUS];                 // head - (tail + 1)
logic [NUM_CPUS-1:0] hd_zero_reg;                  // hdiff_reg == 0 (registered: its zero test
                                                   // is off the forwarding path)
logic [15:0] map_len_reg [NUM_QUEUES];            // rps_map LEN (0: no map)
logic [PL-1:0] map_base_reg [NUM_QUEUES];         // rps_map BASE in the pool
// tbl_log[rmap[cpu]], registered (configuration changes only by commands, which keep
// stages A and B empty for longer than this one clock of lag)
logic [4:0] cpu_tlog_reg [NUM_CPUS];

// per CPU: head - (tail + 1) < 0 and (hd_zero_reg) == 0: the flags of a last_qtail = tail + 1
// written now
logic [NUM_CPUS-1:0] hd_neg;
always_comb begin
    for (int i = 0; i < NUM_CPUS; i++) begin
        hd_neg[i] = hdiff_reg[i][31];
    end
end

// ---------------------------------------------------------------- RAMs
logic ram_wr_en;
logic [RAW-1:0] ram_wr_addr;
logic [SW-1:0] ram_wr_data;
logic [RAW-1:0] ram1_rd_addr, ram2_rd_addr;
logic [SW-1:0] ram1_rd_data, ram2_rd_data;
logic sock_wr_en;
logic [KL-1:0] sock_wr_addr;
logic [31:0] sock_wr_data;
logic [KL-1:0] sock_rd_addr;
logic [31:0] sock_rd_data;
logic pool_wr_en;
logic [PL-1:0] pool_rd_addr;
logic [15:0] pool_rd_data;

// last clock's slot write (read-during-write returns old data)
logic wr_d1_en_reg = 1'b0;
logic [RAW-1:0] wr_d1_addr_reg;
logic [SW-1:0] wr_d1_data_reg;

// the slot and sock tables go to UltraRAM from one URAM288's depth (4K words) up
localparam integer SLOT_ULTRA = (RAW >= 12) ? 1 : 0;
localparam integer SOCK_ULTRA = (KL >= 12) ? 1 : 0;

fs_ram_sdp #(.DATA_WIDTH(SW), .ADDR_WIDTH(RAW), .ULTRA(SLOT_ULTRA)) slot_ram1 (
    .clk(clk), .wr_en(ram_wr_en), .wr_addr(ram_wr_addr), .wr_data(ram_wr_data),
    .rd_en(1'b1), .rd_addr(ram1_rd_addr), .rd_data(ram1_rd_data));

fs_ram_sdp #(.DATA_WIDTH(SW), .ADDR_WIDTH(RAW), .ULTRA(SLOT_ULTRA)) slot_ram2 (
    .clk(clk), .wr_en(ram_wr_en), .wr_addr(ram_wr_addr), .wr_data(ram_wr_data),
    .rd_en(1'b1), .rd_addr(ram2_rd_addr), .rd_data(ram2_rd_data));

fs_ram_sdp #(.DATA_WIDTH(32), .ADDR_WIDTH(KL), .ULTRA(SOCK_ULTRA)) sock_ram (
    .clk(clk), .wr_en(sock_wr_en), .wr_addr(sock_wr_addr), .wr_data(sock_wr_data),
    .rd_en(1'b1), .rd_addr(sock_rd_addr), .rd_data(sock_rd_data));

// rps_map CPU pool (written by commands only)
fs_ram_sdp #(.DATA_WIDTH(16), .ADDR_WIDTH(PL)) pool_ram (
    .clk(clk), .wr_en(pool_wr_en), .wr_addr(cmd_data0_reg[PL-1:0]), .wr_data(cmd_data1_reg[15:0]),
    .rd_en(1'b1), .rd_addr(pool_rd_addr), .rd_data(pool_rd_data));

// ---------------------------------------------------------------- command state
localparam [2:0] CS_IDLE = 3'd0, CS_EXEC = 3'd1, CS_CLEAR_Q = 3'd2, CS_CLEAR_S = 3'd3,
                 CS_MX = 3'd4, CS_SR = 3'd5, CS_MX2 = 3'd6, CS_MX1 = 3'd7;
logic [2:0] cs_reg = CS_IDLE;
logic [4:0] cmd_op_reg;
logic [AW-1:0] cmd_addr_reg;                      // cpu or queue (range checked at the handshake)
logic [31:0] cmd_data0_reg, cmd_data1_reg;
logic [29:0] clr_cnt_reg;
logic [29:0] clr_last_reg;                         // clear sweep length - 1
logic [15:0] cpu_mask_pre_reg = 16'd0;             // roundup_pow_of_two(nr_cpu_ids) - 1
logic [63:0] mx_view_reg;                          // MAY_EXPIRE: the slot's cpu, filter, last_qtail
logic mx_pre_reg;                                  // MAY_EXPIRE: all but the window compare
logic [31:0] mx_diff_reg, mx_win_reg;              // MAY_EXPIRE: head - last_qtail, window
logic rsp_valid_reg = 1'b0;
logic [31:0] rsp_status_reg, rsp_data0_reg, rsp_data1_reg;

// ---------------------------------------------------------------- pipeline registers
// stage A
logic a_valid_reg = 1'b0;
logic [31:0] a_hash_reg;
logic [30:0] a_prod_reg;          // (h * 0x61C88647) >> 1 (hash_32, spec 6.4)
logic [QW-1:0] a_queue_reg;
logic a_steer_reg;
logic [TAG_WIDTH-1:0] a_tag_reg;
logic a_zkey_reg;
logic [PL-1:0] a_pidx_reg;        // G6 pool index: BASE + reciprocal_scale(h, LEN)
logic [4:0] a_log_reg;            // tbl_log[queue]
// stage B
logic b_valid_reg /* verilator public_flat_rd */ = 1'b0;
logic [31:0] b_hash_reg;
logic [30:0] b_prod_reg;
logic [QW-1:0] b_queue_reg;
logic b_steer_reg;
logic [TAG_WIDTH-1:0] b_tag_reg;
logic b_zkey_reg;
logic [SL-1:0] b_rslot_reg;
logic [KL-1:0] b_sidx_reg;
logic [PL-1:0] b_pidx_reg;
logic [4:0] b_log_reg;            // tbl_log[queue]
// stage B1: the P address (from B's registered next_cpu, target queue and its table size)
logic b1_valid_reg = 1'b0;
logic [31:0] b1_hash_reg;
logic [30:0] b1_prod_reg;
logic [QW-1:0] b1_queue_reg;
logic b1_steer_reg;
logic [TAG_WIDTH-1:0] b1_tag_reg;
logic b1_zkey_reg;
logic [SL-1:0] b1_rslot_reg;
logic [4:0] b1_log_reg;
logic [SW-1:0] b1_r_reg;          // R view (snoops every slot write)
logic b1_ident_reg;
logic [15:0] b1_next_reg;
logic [QW-1:0] b1_tq_reg;
logic [4:0] b1_tlog_reg;          // tbl_log[tq]
logic [15:0] b1_mcpu_reg;
// stage B2: the P word arrives (registered into C's view, which snoops)
logic b2_valid_reg = 1'b0;
logic [31:0] b2_hash_reg;
logic [QW-1:0] b2_queue_reg;
logic b2_steer_reg;
logic [TAG_WIDTH-1:0] b2_tag_reg;
logic b2_zkey_reg;
logic [SL-1:0] b2_rslot_reg;
logic [4:0] b2_log_reg;
logic [SW-1:0] b2_r_reg;
logic b2_ident_reg;
logic [15:0] b2_next_reg;
logic [QW-1:0] b2_tq_reg;
logic [SL-1:0] b2_pslot_reg;
logic [4:0] b2_tlog_reg;
logic [15:0] b2_mcpu_reg;
// stage C
logic c_valid_reg = 1'b0;
logic [31:0] c_hash_reg;
logic [QW-1:0] c_queue_reg;
logic c_steer_reg;
logic [TAG_WIDTH-1:0] c_tag_reg;
logic c_zkey_reg;
logic [SL-1:0] c_rslot_reg;
logic [SW-1:0] c_r_reg;           // R view (snoops every slot write)
logic [SW-1:0] c_p_reg;           // P view (snoops every slot write)
logic c_ident_reg;                // G5b hit
logic [15:0] c_next_reg;          // next_cpu[15:0]
logic [QW-1:0] c_tq_reg;          // rmap[next_cpu]
logic [SL-1:0] c_pslot_reg;       // slot_tq(h)
logic [15:0] c_mcpu_reg;          // G6 map CPU
logic [4:0] c_log_reg;            // tbl_log[queue]
// stage D: the packet, its views and the bits precomputed in C
logic d_valid_reg = 1'b0;
logic [31:0] d_hash_reg;
logic [QW-1:0] d_queue_reg;
logic d_steer_reg;
logic [TAG_WIDTH-1:0] d_tag_reg;
logic d_zkey_reg;
logic [SL-1:0] d_rslot_reg;
logic [15:0] d_next_reg;
logic [QW-1:0] d_tq_reg;
logic [SL-1:0] d_pslot_reg;
logic [15:0] d_mcpu_reg;
logic [31:0] d_win_reg;           // activity window of tbl_log[tq] (for the recompute)
logic [SW-1:0] d_r_reg;           // R view
logic [SW-1:0] d_p_reg;           // P view
logic d_rfs_reg;                  // G3 table, G4, G5 sock table, G5b
logic d_r_ok_reg;                 // R.cpu < nr_cpu_ids && online
logic d_r_inorder_reg;            // int32(head[R.cpu] - R.last_qtail) >= 0
logic d_r_ne_reg;                 // R.cpu != next_cpu
logic d_nc_ok_reg;                // next_cpu < nr_cpu_ids (S1)
logic d_next_ok_reg;              // ... and online
logic [31:0] d_head_next_reg;     // head[next_cpu] (S8)
logic d_tq_eq_reg;                // S3 rmap[next_cpu] == queue
logic d_tq_tbl_reg;               // S4 target table present
logic d_wpos_q_reg, d_wpos_tq_reg;   // activity window > 0 in the R / P table
logic d_map_pre_reg;              // G6 map CPU usable (when G5f fails)
logic d_p_nofilt_reg;             // P.filter == NO_FILTER
logic d_p_active_reg;             // P active (spec 4.1) in the target table
logic d_p_unk_reg;                // d_p_active_reg not known yet (forwarded, recompute)
logic d_fix1_reg = 1'b0;          // the recompute's first clock is done:
logic [31:0] d_fix_head_reg;      //   head[P.cpu]
logic d_fix_ok_reg;               //   P.cpu < nr_cpu_ids
logic d_p_hasheq_reg;             // P.hash == hash
logic d_p_same_reg;               // P.cpu == next_cpu
localparam [1:0] XS_EVAL = 2'd0, XS_WAIT = 2'd1, XS_RC = 2'd2;
logic [1:0] xs_reg = XS_EVAL;     // driver-call state of D
logic [31:0] d_rc_reg;
logic d_rc_old_reg;               // rc == R.filter (u16 against int): S7's second write
logic d_now_reg = 1'b0;           // answered in the request's clock: no filter changed
logic d_w2_done_reg = 1'b0;
// record
logic rec_valid_reg = 1'b0;
logic rec_cpu_valid_reg;
logic [15:0] rec_cpu_reg;
logic [2:0] rec_path_reg, rec_gate_reg;
logic rec_steer_reg;
logic [QW-1:0] rec_steer_queue_reg;
logic [SL-1:0] rec_steer_flow_id_reg;
logic [31:0] rec_steer_rc_reg;
logic rec_rflow_valid_reg;
logic [QW-1:0] rec_rflow_queue_reg;
logic [SL-1:0] rec_rflow_slot_reg;
logic [31:0] rec_tail_reg;
logic [TAG_WIDTH-1:0] rec_tag_reg;
// statistics
logic [31:0] stat_drv_stall_reg = 32'd0, stat_cmd_stall_reg = 32'd0, stat_fwd_reg = 32'd0;
logic [31:0] stat_hzd_stall_reg = 32'd0;

// ---------------------------------------------------------------- flow control
logic abc_empty, out_free, d_fin, d_free, c_adv, c_free, b2_adv, b2_free, b1_adv, b1_free;
logic b_adv, b_free, a_adv, a_free;
logic pkt_accept, cmd_accept;
logic d_done;                     // D's work is complete this clock (needs out_free too)
logic flush;
logic x_go;                       // the command in CS_EXEC runs this clock (D is empty, or
                                  // it writes only the sock table, which D never reads)
logic x_calm_reg = 1'b0;          // last clock: in CS_EXEC (the command's CPU was looked up)
logic cmd_drain_reg = 1'b0;       // the command is a BACKLOG_DRAIN
logic cmd_fast_reg;               // it is a sock-table write or a head command: packets may enter
logic cmd_sock_reg /* verilator public_flat_rd */;   // it is a sock-table write (SOCK_RECORD/DELETE/WRITE)
logic cmd_is_sock;                // the offered command is one
logic cmd_is_head;                // the offered command moves a head (HEAD_ADD, BACKLOG_DRAIN)
logic cmd_is_early;               // ... or a sock-table write: taken with packets ahead in A-C
logic hadd_pend_reg = 1'b0;       // a head command is taken and waits for the packets before it
                                  // (registered: it holds C, on the pipeline's ready chain)
logic pre_zero_reg = 1'b1;        // pre_left_reg == 0 (registered: it gates EXEC)
// Sock-table write buffer: a sock-table write is taken with packets ordered before it still
// in A-C (they may hold in B, or be flushed and read the table again). Its write waits in
// the buffer until none of them is before D (pre_left_reg); until then the packets after it
// take the buffer's value at B instead of the RAM's, and one clock more after the write (the
// RAM answers a read in the write's clock with old data). A flush drops those in A-C; the
// source presents them again first (in order), so the next pre_acc_reg packets taken are
// ordered before the write too. Each packet in A-C carries that bit (*_pre_reg). A HEAD_ADD
// taken early uses the same count (its packets after it wait in C while it is pending).
logic [2:0] pre_left_reg /* verilator public_flat_rd */ = '0;   // before the command, not yet in D
logic [2:0] pre_acc_reg = '0;         // ... of them, to be taken again after a flush
logic [2:0] pre_left_n;
logic pre_zero_n;                     // pre_left_n == 0, without its adder
logic a_pre_reg = 1'b0, b_pre_reg = 1'b0, b1_pre_reg = 1'b0, b2_pre_reg = 1'b0, c_pre_reg = 1'b0;
logic early_take;                     // a sock-table write or HEAD_ADD is taken this clock
logic wb_valid_reg /* verilator public_flat_rd */ = 1'b0; // a write is buffered (or written one clock ago)
logic wb_done_reg = 1'b0;             // ... written into the RAM last clock
logic [KL-1:0] wb_addr_reg;
logic [31:0] wb_data_reg;
logic wb_drain;                       // the buffered write goes into the RAM this clock
logic k_sock_wr_en;                   // the sock-table command's write (into the buffer)
logic [KL-1:0] k_sock_wr_addr;
logic [31:0] k_sock_wr_data;
logic a_wbhit;                        // the packet in A takes the buffer's value at B
logic b_wbhit_reg /* verilator public_flat_rd */ = 1'b0;

assign abc_empty = !a_valid_reg && !b_valid_reg && !b1_valid_reg && !b2_valid_reg && !c_valid_reg;
assign out_free = !rec_valid_reg || m_axis_rec_tready;
assign d_fin = d_valid_reg && d_done && out_free;
assign d_free = !d_valid_reg || d_fin;
// a packet after a pending HEAD_ADD waits in C: its flags read head
assign c_adv = c_valid_reg && d_free && !(hadd_pend_reg && !c_pre_reg);
assign c_free = !c_valid_reg || c_adv;
assign b2_adv = b2_valid_reg && c_free;
assign b2_free = !b2_valid_reg || b2_adv;
assign b1_adv = b1_valid_reg && b2_free;
assign b1_free = !b1_valid_reg || b1_adv;
assign b_adv = b_valid_reg && b1_free;
assign b_free = !b_valid_reg || b_adv;
assign a_adv = a_valid_reg && b_free;
assign a_free = !a_valid_reg || a_adv;
// (pre_left_reg is 0 except while a sock-table write or HEAD_ADD waits for packets ahead)
assign x_go = cs_reg == CS_EXEC &&
              (cmd_sock_reg || (!d_valid_reg && pre_zero_reg && (!cmd_drain_reg || x_calm_reg)));
// a packet accepted in a fast command's EXEC clock reads the sock table and head after it;
// the packets after a HEAD_ADD enter while it waits and hold in C until it has run
// no packet enters A in the clock the driver answers D nor while D holds its answer: a flush
// (only then) reads whether a packet in A-C shares D's key from a register (kin_any_reg).
// Rarely a loss: D waited for the driver, so A-C are full or the packets behind it are its
// own flow's, flushed anyway. An answer given with the request changed no filter: no flush,
// so packets keep entering.
logic d_rc_near;
assign d_rc_near = (FLUSH_ON_STEER != 0) && d_valid_reg &&
                   ((xs_reg == XS_RC && !d_now_reg) || (xs_reg == XS_WAIT && s_drv_rsp_valid));
assign s_axis_pkt_tready = a_free && (cs_reg == CS_IDLE || (x_go && cmd_fast_reg) || hadd_pend_reg) &&
                           !cmd_valid && !rst && !flush && !d_rc_near;
assign pkt_accept = s_axis_pkt_tvalid && s_axis_pkt_tready;
// A-C empty: the packet in D (ordered before) never reads the sock table or head again (no
// flush without a packet behind it); EXEC waits until it has left D. A sock-table write
// needs neither (the buffer above); a HEAD_ADD is taken with packets ahead in A-C and runs
// once the last of them has left D (pre_left_reg, as the buffer counts them), while the
// packets after it wait in C; every command waits for a buffered write to be in the RAM.
assign cmd_is_sock = cmd_op == OP_SOCK_RECORD || cmd_op == OP_SOCK_DELETE || cmd_op == OP_SOCK_WRITE;
// BACKLOG_DRAIN runs as HEAD_ADD does: head = tail once the packets before it are enqueued
assign cmd_is_head = cmd_op == OP_HEAD_ADD || cmd_op == OP_BACKLOG_DRAIN;
assign cmd_is_early = cmd_is_sock || cmd_is_head;
assign cmd_ready = (cs_reg == CS_IDLE) && (abc_empty || cmd_is_early) && !wb_valid_reg && !rst;
assign cmd_accept = cmd_valid && cmd_ready;

// ---------------------------------------------------------------- input: G6 pool index
// reciprocal_scale(h, LEN) = (u64(h) * LEN) >> 32 (spec 2.2 G6)
logic [PL-1:0] in_map_off;         // < LEN <= 2^PL
logic [PL-1:0] in_pidx;
always_comb begin
    in_map_off = PL'(({16'd0, s_axis_pkt_hash} * {32'd0, map_len_reg[s_axis_pkt_queue]}) >> 32);
    in_pidx = map_base_reg[s_axis_pkt_queue] + in_map_off;
end

// ---------------------------------------------------------------- stage A: issue R / sock reads
logic [SL-1:0] a_rslot;
logic [KL-1:0] a_sidx;

always_comb begin
    a_rslot = slot_of(a_hash_reg, a_prod_reg, a_log_reg, mask_mode_reg);
    a_sidx = a_hash_reg[KL-1:0] & sock_mask_reg;
end
assign a_wbhit = wb_valid_reg && !a_pre_reg && a_sidx == wb_addr_reg;
assign wb_drain = wb_valid_reg && pre_zero_reg && !wb_done_reg;
assign early_take = cmd_accept && cmd_is_early;
logic [2:0] pre_take_sum;              // taken now: every packet in A-C is before it
always_comb begin
    // (no packet is taken in this clock); the take and C's advance arrive late (the order
    // gate, the ready chain), so they only select among sums of registers
    pre_take_sum = 3'(a_valid_reg) + 3'(b_valid_reg) + 3'(b1_valid_reg) + 3'(b2_valid_reg) +
                   3'(c_valid_reg) + pre_acc_reg;
    if (early_take) begin
        pre_left_n = (c_adv && !flush) ? pre_take_sum - 3'd1 : pre_take_sum;
    end else begin
        pre_left_n = (c_adv && !flush && c_pre_reg) ? pre_left_reg - 3'd1 : pre_left_reg;
    end
    // (the take arrives late, through the order gate: the zero test does not wait for the sum)
    pre_zero_n = early_take ? !a_valid_reg && !b_valid_reg && !b1_valid_reg && !b2_valid_reg &&
                              (!c_valid_reg || (c_adv && !flush)) && pre_acc_reg == '0
                            : pre_left_reg == ((c_adv && !flush && c_pre_reg) ? 3'd1 : 3'd0);
end

// ---------------------------------------------------------------- stage B: ident, target slot
logic [SW-1:0] b_r_view;
logic b_r_fwd;
logic [31:0] b_ident;
logic b_ident_hit;
logic [15:0] b_next;
logic [QW-1:0] b_tq;

always_comb begin
    b_r_fwd = wr_d1_en_reg && wr_d1_addr_reg == {b_queue_reg, b_rslot_reg};
    b_r_view = b_r_fwd ? wr_d1_data_reg : ram1_rd_data;
    b_ident = (b_wbhit_reg && wb_valid_reg) ? wb_data_reg : sock_rd_data;
    b_ident_hit = ((b_ident ^ b_hash_reg) & ~{16'd0, cpu_mask_reg}) == 32'd0; // G5b
    b_next = b_ident[15:0] & cpu_mask_reg;                                   // G5c
    b_tq = rmap_reg[CW'(b_next)];
end

// ---------------------------------------------------------------- stage B1: P address
logic [SL-1:0] b1_pslot;
always_comb begin
    b1_pslot = slot_of(b1_hash_reg, b1_prod_reg, b1_tlog_reg, mask_mode_reg);
end

// ---------------------------------------------------------------- stage B2: P word
// (the RAM output patched with last clock's write, as B's R view; registered into C)
logic [SW-1:0] b2_p_view;
logic b2_p_fwd;
always_comb begin
    b2_p_fwd = wr_d1_en_reg && wr_d1_addr_reg == {b2_tq_reg, b2_pslot_reg};
    b2_p_view = b2_p_fwd ? wr_d1_data_reg : ram2_rd_data;
end

// ---------------------------------------------------------------- read address muxes
always_comb begin
    // port 1: commands (A and B empty; a sock-table write or HEAD_ADD reads nothing), else B
    // re-reads while it holds, else A's R
    if (cs_reg != CS_IDLE && !cmd_fast_reg) begin
        ram1_rd_addr = {cmd_addr_reg[QW-1:0], cmd_data0_reg[SL-1:0]};
    end else if (b_valid_reg && !b_adv) begin
        ram1_rd_addr = {b_queue_reg, b_rslot_reg};
    end else begin
        ram1_rd_addr = {a_queue_reg, a_rslot};
    end
    if (cs_reg != CS_IDLE && !cmd_fast_reg) begin
        sock_rd_addr = cmd_data0_reg[KL-1:0];
    end else if (b_valid_reg && !b_adv) begin
        sock_rd_addr = b_sidx_reg;
    end else begin
        sock_rd_addr = a_sidx;
    end
    pool_rd_addr = (b_valid_reg && !b_adv) ? b_pidx_reg : a_pidx_reg;
    // port 2: B2 re-reads P while it holds, else B1's P
    if (b2_valid_reg && !b2_adv) begin
        ram2_rd_addr = {b2_tq_reg, b2_pslot_reg};
    end else begin
        ram2_rd_addr = {b1_tq_reg, b1_pslot};
    end
end

// ---------------------------------------------------------------- stage C: precompute
logic c_qok, c_ft, c_rfs;
logic [15:0] c_rcpu, c_pcpu;
logic c_r_ok, c_r_inorder, c_r_ne;
logic [31:0] c_win_reg;          // activity window of the target table (registered at B2)
logic c_p_active;
// the activity compare, a net of its own (keep): ABC maps the logic after it apart, so the
// 64-way head select, the subtraction and the compare are not mapped together with the AND
// and D's multiplexers behind them (7 LUT levels in one synthesis of the top)
(* keep *) logic c_p_lt;
logic c_nc_ok, c_next_ok, c_map_pre, c_wpos_q, c_wpos_tq;
logic [31:0] c_head_next;

always_comb begin

    c_qok = 32'(c_queue_reg) < NUM_QUEUES;                             // G2
    c_ft = c_qok && tbl_present_reg[c_queue_reg];                      // G3 (no MAP)
    c_rfs = c_ft && c_hash_reg != 32'd0 && sock_present_reg && c_ident_reg;   // G4, G5, G5b

    // R: G5d/G5e inputs
    c_rcpu = c_r_reg[F_CPU +: 16];
    c_r_ok = c_rcpu < nr_cpu_ids_reg && online_reg[CW'(c_rcpu)];
    c_r_inorder = $signed(head_reg[CW'(c_rcpu)] - c_r_reg[F_LQ +: 32]) >= 0;   // int32 >= 0
    c_r_ne = c_rcpu != c_next_reg;

    // P: activity (spec 4.1) in the target table, from the registered view (the slot RAM's
    // output mux ends at B2's register, not here)
    c_pcpu = c_p_reg[F_CPU +: 16];
    c_p_lt = $signed(head_reg[CW'(c_pcpu)] - c_p_reg[F_LQ +: 32]) < $signed(c_win_reg);
    c_p_active = c_pcpu < nr_cpu_ids_reg && c_p_lt;
    // window > 0 of the R and P tables (activity of a last_qtail = head write)
    c_wpos_q = mask_mode_reg ? wpos_mask[c_log_reg] : wpos_log[c_log_reg];
    c_wpos_tq = $signed(c_win_reg) > 0;

    c_nc_ok = c_next_reg < nr_cpu_ids_reg;                             // S1
    c_next_ok = c_nc_ok && online_reg[CW'(c_next_reg)];
    c_head_next = head_reg[CW'(c_next_reg)];
    // G6: the queue's rps_map
    // (cpu_online(tcpu) only, as the kernel and the model: a pool CPU >= nr_cpu_ids that is
    // online is returned; pool entries are < NUM_CPUS)
    c_map_pre = c_qok && map_len_reg[c_queue_reg] != 16'd0 && c_hash_reg != 32'd0 &&
                online_reg[CW'(c_mcpu_reg)];
end

// ---------------------------------------------------------------- stage D: the kernel
logic [15:0] d_rcpu;
logic d_call, d_cpu_ok, d_map_ok, d_cpu_any;
logic [15:0] d_cpu_sel;
logic [31:0] tn_next, tn_t0, tn_m, tn_ok, d_tail_new;
logic [2:0] d_path, d_gate;
logic d_need_drv, d_drv_ext, d_steered, d_w2_need, d_go;
logic d_refuse;                   // the call D offers now is refused in its clock
logic [31:0] d_rc_eff;
logic d_wr1, d_wr2;
logic [RAW-1:0] d_wr1_addr;
logic [SW-1:0] d_wr1_data, d_wr_data;
logic d_p_fix;

always_comb begin
    d_rcpu = d_r_reg[F_CPU +: 16];                                     // tcpu0 (G5d)
    d_call = d_rfs_reg && d_r_ne_reg && (!d_r_ok_reg || d_r_inorder_reg);   // G5e

    d_gate = G_NOT_EVAL;
    d_need_drv = 1'b0;
    if (!d_call) begin
        d_path = P_NOT_CALLED;
    end else if (!d_nc_ok_reg) begin
        d_path = P_INVALID_CPU;
    end else if (!ntuple_reg || !rmap_on_reg) begin                    // S2
        d_path = P_NO_ACCEL;
    end else if (d_tq_eq_reg) begin                                    // S3
        d_path = P_SAME_QUEUE;
    end else if (!d_tq_tbl_reg) begin                                  // S4
        d_path = P_NO_TARGET;
    end else begin
        d_path = P_DRV_ERROR;                                          // refined below
        d_need_drv = 1'b1;
        if (patched_reg) begin                                         // S5g
            if (d_p_nofilt_reg) begin
                d_gate = G_NO_FILTER;
            end else if (!d_p_active_reg) begin
                d_gate = G_INACTIVE;
            end else if (!d_p_hasheq_reg) begin
                d_gate = G_SKIP_OTHER;
            end else if (d_p_same_reg) begin
                d_gate = G_SKIP_SAME;
            end else begin
                d_gate = G_SAME_NEW_CPU;
            end
            if (d_gate == G_SKIP_OTHER || d_gate == G_SKIP_SAME) begin
                d_path = P_GATE_SKIP;
                d_need_drv = 1'b0;
            end
        end
    end
    d_drv_ext = d_need_drv && d_steer_reg;
    d_rc_eff = (d_drv_ext) ? d_rc_reg : EPROTONOSUPPORT_N;
    d_steered = d_need_drv && !d_rc_eff[31];
    if (d_need_drv) begin
        d_path = d_steered ? P_STEERED : P_DRV_ERROR;
    end

    // G5f, then G6 (*rflowp stays the dummy: no slot gets the tail)
    d_cpu_ok = d_rfs_reg && (d_call ? d_next_ok_reg : d_r_ok_reg);
    d_map_ok = !d_cpu_ok && d_map_pre_reg;
    d_cpu_any = d_cpu_ok || d_map_ok;
    d_cpu_sel = d_cpu_ok ? (d_call ? d_next_reg : d_rcpu) : d_mcpu_reg;
    // tail + 1 of the three candidate CPUs, looked up in parallel with the decision
    tn_next = tail_p1_reg[CW'(d_next_reg)];
    tn_t0 = tail_p1_reg[CW'(d_rcpu)];
    tn_m = tail_p1_reg[CW'(d_mcpu_reg)];
    tn_ok = d_call ? tn_next : tn_t0;    // the slot's last_qtail when d_cpu_ok (no d_cpu_ok in front)
    d_tail_new = d_cpu_ok ? tn_ok : tn_m;

    // the slot write: S7-S9 and the enqueue's last_qtail
    d_wr1_addr = d_steered ? {d_tq_reg, d_pslot_reg} : {d_queue_reg, d_rslot_reg};
    d_wr1_data = d_steered ? d_p_reg : d_r_reg;
    if (d_call) begin
        d_wr1_data[F_CPU +: 16] = d_next_reg;                              // S9
        if (d_nc_ok_reg) begin
            d_wr1_data[F_LQ +: 32] = d_head_next_reg;                      // S8
        end
        if (d_steered) begin                                           // S7
            d_wr1_data[F_FILTER +: 16] = d_rc_eff[15:0];
            if (patched_reg) begin
                d_wr1_data[F_HASH +: 32] = d_hash_reg;
            end
        end
    end
    if (d_cpu_ok) begin
        d_wr1_data[F_LQ +: 32] = tn_ok;                                    // spec 5
    end
    d_wr1 = d_call || d_cpu_ok;
    // S7: old.filter == rc (u16 against int) -> NO_FILTER, a second write to R
    // (d_rc_eff is the driver's rc whenever d_steered)
    d_w2_need = d_steered && d_rc_old_reg && !d_w2_done_reg;

    // D completes when its flags are known, the driver answered (or was not needed) and no
    // second write is due
    // (d_rc_reg holds a negative rc from D's load until an answer: not steered in XS_EVAL)
    d_refuse = xs_reg == XS_EVAL && s_drv_rsp_refuse && !s_drv_pre_own;
    d_go = !d_p_unk_reg && (!d_drv_ext || xs_reg == XS_RC || d_refuse);
    d_done = d_go && !d_w2_need;
    d_wr2 = d_valid_reg && d_go && d_w2_need;
    // the word D writes (wr2: filter to NO_FILTER; else wr1), also what the views snoop
    d_wr_data = d_wr2 ? {d_r_reg[95:80], 16'hFFFF, d_r_reg[63:0]} : d_wr1_data;

    // the hazard stall: P's activity recomputed from the registered view
    // (two clocks: head[P.cpu] is registered first)
    d_p_fix = d_fix_ok_reg &&
              $signed(d_fix_head_reg - d_p_reg[F_LQ +: 32]) <
              $signed(d_win_reg);
end

assign m_drv_req_valid = d_valid_reg && !d_p_unk_reg && d_drv_ext && xs_reg == XS_EVAL;
assign m_drv_req_queue = d_tq_reg;
assign m_drv_req_flow_id = d_pslot_reg;
assign m_drv_req_hash = d_hash_reg;
assign m_drv_req_tag = d_tag_reg;
assign m_drv_pre_valid = d_free && c_adv;   // d_tag_reg's load
assign m_drv_pre_tag = c_tag_reg;
assign m_drv_pre_queue = c_tq_reg;
assign s_drv_rsp_ready = d_valid_reg && xs_reg == XS_WAIT;
// a packet behind D that may share D's filter key (same key: same hash, unless ports 0).
// A flush needs the driver's answer, at least two clocks after D took its packet, and no
// packet enters A from the answer on (d_rc_near) nor leaves C while D holds its caller: the
// packets in A-C in XS_RC are those of the clock before, so the flush reads whether one of
// them shares D's key from a register (kin_any_reg, p_kin) and starts at registers. In XS_RC,
// D called the driver (d_drv_ext) and its flags are known, so D finishes there exactly when
// no second write is due and the record slot is free (p_rc_ext, p_flush).
function automatic logic same_key(input logic [31:0] h1, input logic z1,
                                  input logic [31:0] h2, input logic z2);
    same_key = h1 == h2 || (z1 && z2);
endfunction
logic kin_any;                          // a packet in A-C shares D's key
logic kin_any_reg = 1'b0;               // ... last clock
always_comb begin
    kin_any = (a_valid_reg && same_key(a_hash_reg, a_zkey_reg, d_hash_reg, d_zkey_reg)) ||
              (b_valid_reg && same_key(b_hash_reg, b_zkey_reg, d_hash_reg, d_zkey_reg)) ||
              (b1_valid_reg && same_key(b1_hash_reg, b1_zkey_reg, d_hash_reg, d_zkey_reg)) ||
              (b2_valid_reg && same_key(b2_hash_reg, b2_zkey_reg, d_hash_reg, d_zkey_reg)) ||
              (c_valid_reg && same_key(c_hash_reg, c_zkey_reg, d_hash_reg, d_zkey_reg));
end
always_ff @(posedge clk) begin
    kin_any_reg <= kin_any;
end
assign flush = (FLUSH_ON_STEER != 0) && d_valid_reg && xs_reg == XS_RC && !d_now_reg && out_free &&
               !(!d_rc_reg[31] && d_rc_old_reg && !d_w2_done_reg) && kin_any_reg;
assign m_flush = flush;
assign m_fin = d_fin;

// ---------------------------------------------------------------- forwarding into D
// A packet enters D only in a clock where D is empty or finishes; the write D makes in that
// clock (wr1) is handed over with its precomputed bits. The address compares run in parallel
// for both write targets (R, or P when steered).
logic [RAW-1:0] x_r_addr, x_p_addr, w_r_addr, w_p_addr;
logic w_hit_r, w_hit_p;
logic w_d1, w_d2, w_d3, w_unk, w_ne, w_neg, w_zero, w_wpos, w_nofilt, w_hasheq;
// both CPUs' bits looked up from registers, d_call selecting last as AND-OR: a multiplexer
// would let Yosys's share pass merge the two lookups behind an index picked by d_call. Each
// lookup is an AND-OR over the decoded index, not an index: Yosys maps an index into
// MUXF7/MUXF8 cells before ABC, which then maps the rest of the cone as if the lookup's
// result came from a register (7 LUT levels into d_p_active_reg)
logic [NUM_CPUS-1:0] w_next_oh, w_t0_oh;
logic w_neg_next, w_neg_t0, w_zero_next, w_zero_t0;
always_comb begin
    for (int i = 0; i < NUM_CPUS; i++) begin
        w_next_oh[i] = CW'(d_next_reg) == CW'(i);
        w_t0_oh[i] = CW'(d_rcpu) == CW'(i);
    end
end
assign w_neg_next = |(hd_neg & w_next_oh);
assign w_neg_t0 = |(hd_neg & w_t0_oh);
assign w_zero_next = |(hd_zero_reg & w_next_oh);
assign w_zero_t0 = |(hd_zero_reg & w_t0_oh);

always_comb begin
    x_r_addr = {c_queue_reg, c_rslot_reg};
    x_p_addr = {c_tq_reg, c_pslot_reg};
    w_r_addr = {d_queue_reg, d_rslot_reg};
    w_p_addr = {d_tq_reg, d_pslot_reg};
    w_hit_r = d_valid_reg && d_wr1 && (d_steered ? w_p_addr == x_r_addr : w_r_addr == x_r_addr);
    w_hit_p = d_valid_reg && d_wr1 && (d_steered ? w_p_addr == x_p_addr : w_r_addr == x_p_addr);
    // the written slot: cpu = next_cpu (called) or tcpu0; last_qtail = tail + 1 (enqueued),
    // head[next_cpu] (difference 0) or unchanged with cpu = next_cpu >= nr_cpu_ids
    w_d1 = d_call ? d_next_ok_reg : d_r_ok_reg;
    w_ne = d_call ? d_next_reg != c_next_reg : d_rcpu != c_next_reg;
    w_neg = (d_call && w_neg_next) || (!d_call && w_neg_t0);
    w_zero = (d_call && w_zero_next) || (!d_call && w_zero_t0);
    w_wpos = d_steered ? d_wpos_tq_reg : d_wpos_q_reg;
    if (d_cpu_ok) begin
        w_d2 = !w_neg;
        w_d3 = w_neg || (w_zero && w_wpos);
        w_unk = !w_neg && !w_zero;
    end else begin
        w_d2 = 1'b1;
        w_d3 = d_nc_ok_reg && w_wpos;
        w_unk = 1'b0;
    end
    w_nofilt = d_steered ? d_rc_eff[15:0] == 16'hFFFF : d_r_reg[F_FILTER +: 16] == 16'hFFFF;
    if (d_steered && patched_reg) begin
        w_hasheq = d_hash_reg == c_hash_reg;
    end else if (d_steered) begin
        w_hasheq = d_p_reg[F_HASH +: 32] == c_hash_reg;
    end else begin
        w_hasheq = d_r_reg[F_HASH +: 32] == c_hash_reg;
    end
end
// ---------------------------------------------------------------- command decode
logic [CW-1:0] k_cpu;
// the head commands' addend: HEAD_ADD's n, or BACKLOG_DRAIN's tail - head of its CPU (~hdiff),
// looked up as an AND-OR over the decoded CPU (see w_next_oh: not an index) and registered
// (into the 32 adders per CPU, the lookup was 7 LUT levels), plus the enqueue on that CPU in
// the clock it was looked up (the only change to its hdiff while the drain waits in EXEC); so a
// drain may run in any EXEC clock but its first (x_calm_reg), when the lookup read its CPU
logic [NUM_CPUS-1:0] k_cpu_oh;
logic [31:0] k_qlen, k_head_add;
logic [31:0] k_qlen_reg = 32'd0;
logic enq_hit_reg = 1'b0;         // last clock a packet was enqueued on the command's CPU
logic k_cpu_ok, k_q_ok, k_log_ok_q, k_log_ok_s;
logic [QW-1:0] k_q;
logic [31:0] k_sock_val;
logic [15:0] k_cpu_mask_new;
logic [15:0] k_nr_m1;
logic k_mx_pre;
logic k_sock_idx_ok, k_pool_idx_ok, k_map_ok, k_nr_ok, k_rmap_q_ok, k_mx_idx_ok;

// Argument checks, computed from the command ports at the handshake and registered (the
// configuration they read changes only in a command's EXEC, before the next handshake).
logic n_cpu_ok, n_q_ok, n_log_ok_q, n_log_ok_s, n_sock_idx_ok, n_pool_idx_ok, n_map_ok;
logic n_nr_ok, n_rmap_q_ok, n_mx_tbl;
logic [QW-1:0] n_q;
logic k_cpu_ok_reg, k_q_ok_reg, k_log_ok_q_reg, k_log_ok_s_reg, k_sock_idx_ok_reg;
logic k_pool_idx_ok_reg, k_map_ok_reg, k_nr_ok_reg, k_rmap_q_ok_reg, k_mx_idx_ok_reg;
logic k_mx_tbl_reg;                                // MAY_EXPIRE: the queue has a table
logic [4:0] k_mx_log_reg;                          // ... of this size (log2)
logic [15:0] nr_m1_reg = 16'(NUM_CPUS - 1);        // nr_cpu_ids - 1
logic k_d0_nz_reg;                                 // cmd_data0 != 0 (a sock hash)

always_comb begin
    n_q = cmd_addr[QW-1:0];
    // HEAD_ADD, BACKLOG_DRAIN and READ_HEAD_TAIL reach every implemented CPU (each has a
    // backlog whatever nr_cpu_ids is: the register map's HEAD_ADD / BACKLOG_DRAIN / HEAD /
    // TAIL), the others the CPUs below it
    n_cpu_ok = (cmd_is_head || cmd_op == OP_READ_HEAD_TAIL) ? 32'(cmd_addr) < NUM_CPUS
                                                                      : cmd_addr < nr_cpu_ids_reg;
    n_q_ok = 32'(cmd_addr) < NUM_QUEUES;
    n_log_ok_q = cmd_data0 <= 32'(SL);
    n_log_ok_s = cmd_data0 <= 32'(KL);
    // raw sock access: a table and index <= mask
    n_sock_idx_ok = sock_present_reg &&
                    (cmd_data0 & ~{{(32-KL){1'b0}}, sock_mask_reg}) == 32'd0;
    n_pool_idx_ok = cmd_data0 < (32'd1 << PL);
    // rps_map: LEN entries from BASE must fit the pool
    n_map_ok = n_q_ok && cmd_data0[31:16] == 16'd0 && cmd_data1 <= (32'd1 << PL) &&
               {16'd0, cmd_data0[15:0]} + cmd_data1 <= (32'd1 << PL);
    n_nr_ok = cmd_data0 != 32'd0 && cmd_data0 <= 32'(NUM_CPUS);
    n_rmap_q_ok = 32'(cmd_data0) < NUM_QUEUES;
    // MAY_EXPIRE: the queue has a table (flow_id < its size: at EXEC, from k_mx_log_reg)
    n_mx_tbl = n_q_ok && tbl_present_reg[n_q];
end

always_comb begin
    k_qlen = 32'd0;
    for (int i = 0; i < NUM_CPUS; i++) begin
        k_cpu_oh[i] = cmd_addr_reg[CW-1:0] == CW'(i);
        k_qlen = k_qlen | ({32{k_cpu_oh[i]}} & ~hdiff_reg[i]);
    end
    k_head_add = cmd_drain_reg ? k_qlen_reg + 32'(enq_hit_reg) : cmd_data0_reg;
end
always_ff @(posedge clk) begin
    k_qlen_reg <= k_qlen;
    x_calm_reg <= cs_reg == CS_EXEC && !rst;
    enq_hit_reg <= d_fin && d_cpu_any && d_cpu_sel[CW-1:0] == cmd_addr_reg[CW-1:0];
end

always_comb begin
    k_cpu = cmd_addr_reg[CW-1:0];
    k_cpu_ok = k_cpu_ok_reg;
    k_q = cmd_addr_reg[QW-1:0];
    k_q_ok = k_q_ok_reg;
    k_log_ok_q = k_log_ok_q_reg;
    k_log_ok_s = k_log_ok_s_reg;
    k_sock_idx_ok = k_sock_idx_ok_reg;
    k_pool_idx_ok = k_pool_idx_ok_reg;
    k_map_ok = k_map_ok_reg;
    k_nr_ok = k_nr_ok_reg;
    k_rmap_q_ok = k_rmap_q_ok_reg;
    k_mx_idx_ok = k_mx_idx_ok_reg;
    // rps_record_sock_flow value (spec 1.1)
    k_sock_val = (cmd_data0_reg & ~{16'd0, cpu_mask_reg}) | cmd_data1_reg;
    // rps_cpu_mask = roundup_pow_of_two(nr_cpu_ids) - 1
    // (bit i: any bit of nr_cpu_ids - 1 at or above i; one OR per bit, no chain)
    for (int i = 0; i < 16; i++) begin
        k_nr_m1[i] = |(nr_m1_reg >> i);
    end
    k_cpu_mask_new = k_nr_m1;
    // rps_may_expire_flow (spec 4.2): keep = table, flow_id < size, filter matches, active
    // (the window compare runs in the next clock, CS_MX2)
    k_mx_pre = k_mx_idx_ok &&
               mx_view_reg[47:32] == cmd_data1_reg[15:0] &&
               mx_view_reg[63:48] < nr_cpu_ids_reg;
end

// ---------------------------------------------------------------- slot/sock RAM writes
always_comb begin
    ram_wr_en = 1'b0;
    ram_wr_addr = w_r_addr;
    ram_wr_data = d_wr_data;
    if (cs_reg == CS_CLEAR_Q) begin
        ram_wr_en = 1'b1;
        ram_wr_addr = {k_q, clr_cnt_reg[SL-1:0]};
        ram_wr_data = {16'hFFFF, 16'hFFFF, 32'd0, 32'd0};
    end else if (d_wr2) begin
        ram_wr_en = 1'b1;
        ram_wr_addr = w_r_addr;
    end else if (d_fin && d_wr1) begin
        ram_wr_en = 1'b1;
        ram_wr_addr = d_wr1_addr;
    end
    k_sock_wr_en = 1'b0;
    k_sock_wr_addr = cmd_data0_reg[KL-1:0] & sock_mask_reg;
    k_sock_wr_data = k_sock_val;
    if (x_go && sock_present_reg && k_d0_nz_reg) begin
        if (cmd_op_reg == OP_SOCK_RECORD) begin
            k_sock_wr_en = 1'b1;
        end else if (cmd_op_reg == OP_SOCK_DELETE) begin
            k_sock_wr_en = 1'b1;
            k_sock_wr_data = 32'h0000FFFF;
        end
    end
    if (x_go && cmd_op_reg == OP_SOCK_WRITE && k_sock_idx_ok) begin
        k_sock_wr_en = 1'b1;
        k_sock_wr_addr = cmd_data0_reg[KL-1:0];
        k_sock_wr_data = cmd_data1_reg;
    end
    // the RAM port: a table clear (no write buffered then), else the buffered write
    sock_wr_en = wb_drain;
    sock_wr_addr = wb_addr_reg;
    sock_wr_data = wb_data_reg;
    if (cs_reg == CS_CLEAR_S) begin
        sock_wr_en = 1'b1;
        sock_wr_addr = clr_cnt_reg[KL-1:0];
        sock_wr_data = 32'h0000FFFF;
    end
    pool_wr_en = x_go && cmd_op_reg == OP_RPS_POOL && k_pool_idx_ok;
end

// ---------------------------------------------------------------- clocked state
// The registered views (R in B1, B2 and C, P in C) snoop every packet write (clears run with
// the pipeline empty): a view loaded or held this clock takes the word written now at its
// address. Each address is compared with both write addresses whatever the stages do, and
// the advance only selects among the results (it comes late: the pipeline's ready chain).
logic wr_r_now, wr_p_now;          // D writes its R slot / its P slot this clock
logic b_r_hit, b1_r_hit, b2_r_hit, b2_p_hit, c_r_hit, c_p_hit;
logic [SW-1:0] b1_r_next, b2_r_next, c_r_next, c_p_next;
logic b1_r_snoop, b2_r_snoop, c_r_snoop, c_p_snoop;
// the word written now lands on a view at address t
function automatic snoop_hit(input [RAW-1:0] t, input wr_r, input wr_p,
                             input [RAW-1:0] r_addr, input [RAW-1:0] p_addr);
    snoop_hit = (wr_r && r_addr == t) || (wr_p && p_addr == t);
endfunction
always_comb begin
    wr_r_now = d_wr2 || (d_fin && d_wr1 && !d_steered);
    wr_p_now = d_fin && d_wr1 && d_steered;
    b_r_hit = snoop_hit({b_queue_reg, b_rslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    b1_r_hit = snoop_hit({b1_queue_reg, b1_rslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    b2_r_hit = snoop_hit({b2_queue_reg, b2_rslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    b2_p_hit = snoop_hit({b2_tq_reg, b2_pslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    c_r_hit = snoop_hit({c_queue_reg, c_rslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    c_p_hit = snoop_hit({c_tq_reg, c_pslot_reg}, wr_r_now, wr_p_now, w_r_addr, w_p_addr);
    // a view loaded or held this clock took the write
    b1_r_snoop = b_adv ? b_r_hit : b1_r_hit;
    b2_r_snoop = b1_adv ? b1_r_hit : b2_r_hit;
    c_r_snoop = b2_adv ? b2_r_hit : c_r_hit;
    c_p_snoop = b2_adv ? b2_p_hit : c_p_hit;
    // each view next clock: D's written word when the view loaded or held took it, else the
    // view loaded or held (the advance selects the hit, so D's word, late behind the tail
    // lookup, passes one multiplexer; no clear runs while a view is read)
    b1_r_next = b1_r_snoop ? d_wr_data : (b_adv ? b_r_view : b1_r_reg);
    b2_r_next = b2_r_snoop ? d_wr_data : (b1_adv ? b1_r_reg : b2_r_reg);
    c_r_next = c_r_snoop ? d_wr_data : (b2_adv ? b2_r_reg : c_r_reg);
    c_p_next = c_p_snoop ? d_wr_data : (b2_adv ? b2_p_view : c_p_reg);
end

always_ff @(posedge clk) begin
    for (int i = 0; i < NUM_CPUS; i++) begin
        cpu_tlog_reg[i] <= tbl_log_reg[rmap_reg[i]];
    end
    cpu_mask_pre_reg <= k_cpu_mask_new;
    // write history for the RAM-output patch
    wr_d1_en_reg <= ram_wr_en;
    wr_d1_addr_reg <= ram_wr_addr;
    wr_d1_data_reg <= ram_wr_data;

    // stage A
    if (a_free) begin
        a_valid_reg <= pkt_accept;
        if (pkt_accept) begin
            a_hash_reg <= s_axis_pkt_hash;
            a_prod_reg <= 31'((s_axis_pkt_hash * 32'h61C88647) >> 1);  // hash_32 (spec 6.4)
            a_queue_reg <= s_axis_pkt_queue;
            a_steer_reg <= s_axis_pkt_steerable;
            a_tag_reg <= s_axis_pkt_tag;
            a_pre_reg <= pre_acc_reg != '0;
            a_zkey_reg <= s_axis_pkt_zkey;
            a_pidx_reg <= in_pidx;
            a_log_reg <= tbl_log_reg[s_axis_pkt_queue];
        end
    end
    // stage B
    if (b_free) begin
        b_valid_reg <= a_valid_reg;
        b_wbhit_reg <= a_valid_reg && a_wbhit;
        if (a_valid_reg) begin
            b_hash_reg <= a_hash_reg;
            b_prod_reg <= a_prod_reg;
            b_queue_reg <= a_queue_reg;
            b_steer_reg <= a_steer_reg;
            b_tag_reg <= a_tag_reg;
            b_pre_reg <= a_pre_reg;
            b_zkey_reg <= a_zkey_reg;
            b_rslot_reg <= a_rslot;
            b_sidx_reg <= a_sidx;
            b_pidx_reg <= a_pidx_reg;
            b_log_reg <= a_log_reg;
        end
    end else begin
        // B re-reads while it holds: the hit lasts while the buffer does
        b_wbhit_reg <= b_wbhit_reg && wb_valid_reg;
    end
    // stage B1 (its R view snoops every slot write)
    b1_r_reg <= b1_r_next;   // (held or snooping when empty: unread)
    if (b1_free) begin
        b1_valid_reg <= b_valid_reg;
        if (b_valid_reg) begin
            b1_hash_reg <= b_hash_reg;
            b1_prod_reg <= b_prod_reg;
            b1_queue_reg <= b_queue_reg;
            b1_steer_reg <= b_steer_reg;
            b1_tag_reg <= b_tag_reg;
            b1_pre_reg <= b_pre_reg;
            b1_zkey_reg <= b_zkey_reg;
            b1_rslot_reg <= b_rslot_reg;
            b1_log_reg <= b_log_reg;
            b1_ident_reg <= b_ident_hit;
            b1_next_reg <= b_next;
            b1_tq_reg <= b_tq;
            b1_tlog_reg <= cpu_tlog_reg[CW'(b_next)];
            b1_mcpu_reg <= pool_rd_data;
        end
    end
    // stage B2
    b2_r_reg <= b2_r_next;
    if (b2_free) begin
        b2_valid_reg <= b1_valid_reg;
        if (b1_valid_reg) begin
            b2_hash_reg <= b1_hash_reg;
            b2_queue_reg <= b1_queue_reg;
            b2_steer_reg <= b1_steer_reg;
            b2_tag_reg <= b1_tag_reg;
            b2_pre_reg <= b1_pre_reg;
            b2_zkey_reg <= b1_zkey_reg;
            b2_rslot_reg <= b1_rslot_reg;
            b2_log_reg <= b1_log_reg;
            b2_ident_reg <= b1_ident_reg;
            b2_next_reg <= b1_next_reg;
            b2_tq_reg <= b1_tq_reg;
            b2_pslot_reg <= b1_pslot;
            b2_tlog_reg <= b1_tlog_reg;
            b2_mcpu_reg <= b1_mcpu_reg;
        end
    end
    // stage C (the R and P views snoop every slot write)
    c_r_reg <= c_r_next;
    c_p_reg <= c_p_next;
    if (c_free) begin
        c_valid_reg <= b2_valid_reg;
        if (b2_valid_reg) begin
            c_hash_reg <= b2_hash_reg;
            c_queue_reg <= b2_queue_reg;
            c_steer_reg <= b2_steer_reg;
            c_tag_reg <= b2_tag_reg;
            c_pre_reg <= b2_pre_reg;
            c_zkey_reg <= b2_zkey_reg;
            c_rslot_reg <= b2_rslot_reg;
            c_ident_reg <= b2_ident_reg;
            c_next_reg <= b2_next_reg;
            c_tq_reg <= b2_tq_reg;
            c_pslot_reg <= b2_pslot_reg;
            c_mcpu_reg <= b2_mcpu_reg;
            c_log_reg <= b2_log_reg;
            c_win_reg <= window_of(b2_tlog_reg, mask_mode_reg);
        end
    end
    // stage D
    if (d_free) begin
        d_valid_reg <= c_adv;
        xs_reg <= XS_EVAL;
        d_now_reg <= 1'b0;
        d_rc_reg <= 32'hFFFF_FFFF;    // until an answer: a refusal finishes D in XS_EVAL
        d_w2_done_reg <= 1'b0;
        d_p_unk_reg <= c_adv && w_hit_p && w_unk;
        d_fix1_reg <= 1'b0;
        if (c_adv) begin
            d_hash_reg <= c_hash_reg;
            d_queue_reg <= c_queue_reg;
            d_steer_reg <= c_steer_reg;
            d_tag_reg <= c_tag_reg;
            d_zkey_reg <= c_zkey_reg;
            d_rslot_reg <= c_rslot_reg;
            d_next_reg <= c_next_reg;
            d_tq_reg <= c_tq_reg;
            d_pslot_reg <= c_pslot_reg;
            d_mcpu_reg <= c_mcpu_reg;
            d_win_reg <= c_win_reg;
            d_rfs_reg <= c_rfs;
            d_nc_ok_reg <= c_nc_ok;
            d_next_ok_reg <= c_next_ok;
            d_head_next_reg <= c_head_next;
            d_tq_eq_reg <= c_tq_reg == c_queue_reg;
            d_tq_tbl_reg <= tbl_present_reg[c_tq_reg];
            d_wpos_q_reg <= c_wpos_q;
            d_wpos_tq_reg <= c_wpos_tq;
            d_map_pre_reg <= c_map_pre;
            // R and P views, from C or from the write D makes now
            d_r_reg <= w_hit_r ? d_wr1_data : c_r_reg;
            d_r_ok_reg <= w_hit_r ? w_d1 : c_r_ok;
            d_r_inorder_reg <= w_hit_r ? w_d2 : c_r_inorder;
            d_r_ne_reg <= w_hit_r ? w_ne : c_r_ne;
            d_p_reg <= w_hit_p ? d_wr1_data : c_p_reg;
            d_p_nofilt_reg <= w_hit_p ? w_nofilt : c_p_reg[F_FILTER +: 16] == 16'hFFFF;
            d_p_active_reg <= w_hit_p ? w_d3 : c_p_active;
            d_p_hasheq_reg <= w_hit_p ? w_hasheq : c_p_reg[F_HASH +: 32] == c_hash_reg;
            d_p_same_reg <= w_hit_p ? !w_ne : c_p_reg[F_CPU +: 16] == c_next_reg;
        end
    end else begin
        if (d_p_unk_reg && !d_fix1_reg) begin
            d_fix_head_reg <= head_reg[CW'(d_p_reg[F_CPU +: 16])];
            d_fix_ok_reg <= d_p_reg[F_CPU +: 16] < nr_cpu_ids_reg;
            d_fix1_reg <= 1'b1;
        end else if (d_p_unk_reg) begin
            d_p_active_reg <= d_p_fix;
            d_p_unk_reg <= 1'b0;
            d_fix1_reg <= 1'b0;
        end
        if (xs_reg == XS_EVAL && m_drv_req_valid && m_drv_req_ready) begin
            if (s_drv_rsp_now) begin
                xs_reg <= XS_RC;
                d_rc_reg <= s_drv_rsp_now_rc;
                d_rc_old_reg <= s_drv_rsp_now_rc == {16'd0, d_r_reg[F_FILTER +: 16]};
                d_now_reg <= 1'b1;
            end else begin
                xs_reg <= XS_WAIT;
            end
        end
        if (xs_reg == XS_WAIT && s_drv_rsp_valid) begin
            xs_reg <= XS_RC;
            d_rc_reg <= s_drv_rsp_rc;
            d_rc_old_reg <= s_drv_rsp_rc == {16'd0, d_r_reg[F_FILTER +: 16]};
        end
        if (d_wr2) begin
            d_w2_done_reg <= 1'b1;
        end
    end
    if (flush) begin
        a_valid_reg <= 1'b0;
        b_valid_reg <= 1'b0;
        b1_valid_reg <= 1'b0;
        b2_valid_reg <= 1'b0;
        c_valid_reg <= 1'b0;
        d_valid_reg <= 1'b0;
        d_p_unk_reg <= 1'b0;
        d_fix1_reg <= 1'b0;
    end

    // enqueue (spec 5): tail + 1 becomes the tail; head - (tail + 1) drops by one
    if (d_fin && d_cpu_any) begin
        for (int i = 0; i < NUM_CPUS; i++) begin
            if (d_cpu_sel[CW-1:0] == CW'(i)) begin
                tail_p1_reg[i] <= tail_p1_reg[i] + 32'd1;
                hdiff_reg[i] <= hdiff_reg[i] - 32'd1;
                hd_zero_reg[i] <= hdiff_reg[i] == 32'd1;
            end
        end
    end

    // record
    if (out_free) begin
        rec_valid_reg <= d_fin;
        if (d_fin) begin
            rec_cpu_valid_reg <= d_cpu_any;
            rec_cpu_reg <= d_cpu_any ? d_cpu_sel : 16'hFFFF;
            rec_path_reg <= d_path;
            rec_gate_reg <= d_gate;
            rec_steer_reg <= d_need_drv;
            rec_steer_queue_reg <= d_tq_reg;
            rec_steer_flow_id_reg <= d_pslot_reg;
            // (a call finished in XS_EVAL was refused with the request: d_refuse)
            rec_steer_rc_reg <= (d_drv_ext && xs_reg == XS_EVAL) ? s_drv_rsp_now_rc : d_rc_eff;
            rec_rflow_valid_reg <= d_cpu_ok;
            rec_rflow_queue_reg <= d_wr1_addr[RAW-1:SL];
            rec_rflow_slot_reg <= d_wr1_addr[SL-1:0];
            rec_tail_reg <= d_cpu_any ? d_tail_new : 32'd0;
            rec_tag_reg <= d_tag_reg;
        end
    end

    // statistics
    if (d_valid_reg && !d_p_unk_reg && !d_done) begin
        stat_drv_stall_reg <= stat_drv_stall_reg + 32'd1;
    end
    if (d_valid_reg && d_p_unk_reg) begin
        stat_hzd_stall_reg <= stat_hzd_stall_reg + 32'd1;
    end
    if (s_axis_pkt_tvalid && !s_axis_pkt_tready && a_free && !flush) begin
        stat_cmd_stall_reg <= stat_cmd_stall_reg + 32'd1;
    end
    if ((b_adv && b_r_fwd) || (b2_adv && b2_p_fwd) || (c_adv && (w_hit_r || w_hit_p)) ||
        ((b1_valid_reg || b_adv) && b1_r_snoop) || ((b2_valid_reg || b1_adv) && b2_r_snoop) ||
        ((c_valid_reg || b2_adv) && (c_r_snoop || c_p_snoop))) begin
        stat_fwd_reg <= stat_fwd_reg + 32'd1;
    end

    // sock-table write buffer
    pre_left_reg <= pre_left_n;
    pre_zero_reg <= pre_zero_n;
    if (flush) begin
        pre_acc_reg <= pre_left_n;           // those in A-C are dropped: all to be taken again
    end else if (pkt_accept && pre_acc_reg != '0) begin
        pre_acc_reg <= pre_acc_reg - 3'd1;
    end
    if (early_take) begin
        a_pre_reg <= 1'b1;
        b_pre_reg <= 1'b1;
        b1_pre_reg <= 1'b1;
        b2_pre_reg <= 1'b1;
        c_pre_reg <= 1'b1;
    end
    if (wb_drain) wb_done_reg <= 1'b1;
    if (wb_done_reg) begin
        wb_valid_reg <= 1'b0;
        wb_done_reg <= 1'b0;
    end
    if (k_sock_wr_en) begin
        wb_valid_reg <= 1'b1;
        wb_addr_reg <= k_sock_wr_addr;
        wb_data_reg <= k_sock_wr_data;
    end
    // commands
    rsp_valid_reg <= 1'b0;
    case (cs_reg)
        CS_IDLE: begin
            if (cmd_accept) begin
                cs_reg <= CS_EXEC;
                cmd_op_reg <= cmd_op;
                cmd_addr_reg <= cmd_addr[AW-1:0];
                cmd_data0_reg <= cmd_data0;
                cmd_data1_reg <= cmd_data1;
                k_cpu_ok_reg <= n_cpu_ok;
                k_q_ok_reg <= n_q_ok;
                k_log_ok_q_reg <= n_log_ok_q;
                k_log_ok_s_reg <= n_log_ok_s;
                k_sock_idx_ok_reg <= n_sock_idx_ok;
                k_pool_idx_ok_reg <= n_pool_idx_ok;
                k_map_ok_reg <= n_map_ok;
                k_nr_ok_reg <= n_nr_ok;
                k_rmap_q_ok_reg <= n_rmap_q_ok;
                k_mx_tbl_reg <= n_mx_tbl;
                k_mx_log_reg <= tbl_log_reg[n_q];
                cmd_fast_reg <= cmd_is_early;
                hadd_pend_reg <= cmd_is_head;
                cmd_drain_reg <= cmd_op == OP_BACKLOG_DRAIN;
                k_d0_nz_reg <= cmd_data0 != 32'd0;
                cmd_sock_reg <= cmd_is_sock;
            end
        end
        CS_EXEC: if (x_go) begin
            cs_reg <= CS_IDLE;
            hadd_pend_reg <= 1'b0;
            // MAY_EXPIRE's flow_id < 2^log: no bit at or above log (used in CS_MX)
            k_mx_idx_ok_reg <= k_mx_tbl_reg &&
                               (cmd_data0_reg & ~below_mask(k_mx_log_reg)) == 32'd0;
            rsp_valid_reg <= 1'b1;
            rsp_status_reg <= 32'd0;
            rsp_data0_reg <= 32'd0;
            rsp_data1_reg <= 32'd0;
            clr_cnt_reg <= 30'd0;
            clr_last_reg <= 30'((32'd1 << cmd_data0_reg[4:0]) - 32'd1);   // log checked below
            case (cmd_op_reg)
                OP_SOCK_RECORD, OP_SOCK_DELETE: begin
                    // written by the RAM write mux this clock
                end
                OP_SOCK_SIZE: begin
                    if (!cmd_data1_reg[0]) begin
                        sock_present_reg <= 1'b0;
                    end else if (!k_log_ok_s) begin
                        rsp_status_reg <= ENOMEM_N;
                    end else begin
                        cpu_mask_reg <= cpu_mask_pre_reg;
                        // every sizing clears the entries, the same size included
                        sock_present_reg <= 1'b1;
                        sock_mask_reg <= KL'((32'd1 << cmd_data0_reg[4:0]) - 32'd1);
                        cs_reg <= CS_CLEAR_S;
                        rsp_valid_reg <= 1'b0;
                    end
                end
                OP_QUEUE_TABLE: begin
                    if (!k_q_ok) begin
                        rsp_status_reg <= EINVAL_N;
                    end else if (!cmd_data1_reg[0]) begin
                        for (int i = 0; i < NUM_QUEUES; i++) begin
                            if (k_q == QW'(i)) tbl_present_reg[i] <= 1'b0;
                        end
                    end else if (!k_log_ok_q) begin
                        rsp_status_reg <= ENOMEM_N;
                    end else begin
                        // a new table is a full reset of the queue's slots (spec 1.1)
                        for (int i = 0; i < NUM_QUEUES; i++) begin
                            if (k_q == QW'(i)) begin
                                tbl_present_reg[i] <= 1'b1;
                                tbl_log_reg[i] <= cmd_data0_reg[4:0];
                            end
                        end
                        cs_reg <= CS_CLEAR_Q;
                        rsp_valid_reg <= 1'b0;
                    end
                end
                OP_HEAD_ADD, OP_BACKLOG_DRAIN, OP_SET_HEAD_TAIL, OP_READ_HEAD_TAIL, OP_SET_ONLINE,
                OP_SET_RMAP: begin
                    if (!k_cpu_ok || (cmd_op_reg == OP_SET_RMAP && !k_rmap_q_ok)) begin
                        rsp_status_reg <= EINVAL_N;
                    end else begin
                        rsp_data0_reg <= head_reg[k_cpu];
                        rsp_data1_reg <= tail_p1_reg[k_cpu] - 32'd1;
                        for (int i = 0; i < NUM_CPUS; i++) begin
                            if (k_cpu == CW'(i)) begin
                                // BACKLOG_DRAIN: HEAD_ADD of tail - head (hdiff becomes -1)
                                if (cmd_op_reg == OP_HEAD_ADD || cmd_op_reg == OP_BACKLOG_DRAIN) begin
                                    head_reg[i] <= head_reg[i] + k_head_add;
                                    hdiff_reg[i] <= hdiff_reg[i] + k_head_add;
                                    hd_zero_reg[i] <= !cmd_drain_reg &&
                                                      sum_is_zero(hdiff_reg[i], cmd_data0_reg);
                                end
                                if (cmd_op_reg == OP_SET_HEAD_TAIL) begin
                                    head_reg[i] <= cmd_data0_reg;
                                    tail_p1_reg[i] <= cmd_data1_reg + 32'd1;
                                    hdiff_reg[i] <= cmd_data0_reg + ~cmd_data1_reg;
                                    hd_zero_reg[i] <= sum_is_zero(cmd_data0_reg, ~cmd_data1_reg);
                                end
                                if (cmd_op_reg == OP_SET_ONLINE) online_reg[i] <= cmd_data0_reg[0];
                                if (cmd_op_reg == OP_SET_RMAP) rmap_reg[i] <= cmd_data0_reg[QW-1:0];
                            end
                        end
                    end
                end
                OP_MAY_EXPIRE: begin
                    // slot read issued this clock (port 1), answered three clocks later
                    cs_reg <= CS_MX;
                    rsp_valid_reg <= 1'b0;
                end
                OP_SOCK_WRITE: begin
                    if (!k_sock_idx_ok) rsp_status_reg <= EINVAL_N;
                end
                OP_SOCK_READ: begin
                    if (!k_sock_idx_ok) begin
                        rsp_status_reg <= EINVAL_N;
                    end else begin
                        // sock read issued this clock, answered next clock
                        cs_reg <= CS_SR;
                        rsp_valid_reg <= 1'b0;
                    end
                end
                OP_RPS_POOL: begin
                    if (!k_pool_idx_ok) rsp_status_reg <= EINVAL_N;
                end
                OP_RPS_MAP: begin
                    if (!k_map_ok) begin
                        rsp_status_reg <= EINVAL_N;
                    end else begin
                        for (int i = 0; i < NUM_QUEUES; i++) begin
                            if (k_q == QW'(i)) begin
                                map_len_reg[i] <= cmd_data0_reg[15:0];
                                map_base_reg[i] <= cmd_data1_reg[PL-1:0];
                            end
                        end
                    end
                end
                OP_SET_NR_CPU_IDS: begin
                    if (!k_nr_ok) begin
                        rsp_status_reg <= EINVAL_N;
                    end else begin
                        nr_cpu_ids_reg <= cmd_data0_reg[15:0];
                        nr_m1_reg <= cmd_data0_reg[15:0] - 16'd1;
                    end
                end
                OP_SET_CPU_MASK: begin
                    // rps_dev_flow.cpu is a u16: a wider mask gives next_cpu values no slot holds
                    if (cmd_data0_reg[31:16] != 16'd0) begin
                        rsp_status_reg <= EINVAL_N;
                    end else begin
                        cpu_mask_reg <= cmd_data0_reg[15:0];
                    end
                end
                OP_SET_MODE: begin
                    patched_reg <= cmd_data0_reg[FS_RFS_MODE_PATCHED_LSB];
                    mask_mode_reg <= cmd_data0_reg[FS_RFS_MODE_SLOT_MASK_LSB];
                    ntuple_reg <= cmd_data0_reg[FS_RFS_MODE_NTUPLE_LSB];
                    rmap_on_reg <= cmd_data0_reg[FS_RFS_MODE_RMAP_LSB];
                end
                default: begin
                    rsp_status_reg <= EINVAL_N;
                end
            endcase
        end
        CS_CLEAR_Q, CS_CLEAR_S: begin
            clr_cnt_reg <= clr_cnt_reg + 30'd1;
            if (clr_cnt_reg == clr_last_reg) begin
                cs_reg <= CS_IDLE;
                rsp_valid_reg <= 1'b1;
            end
        end
        CS_MX: begin
            cs_reg <= CS_MX1;
            mx_view_reg <= ram1_rd_data[95:32];
        end
        CS_MX1: begin
            cs_reg <= CS_MX2;
            mx_pre_reg <= k_mx_pre;
            mx_diff_reg <= head_reg[CW'(mx_view_reg[63:48])] - mx_view_reg[31:0];
            // the table size registered at the handshake (no queue-indexed read here)
            mx_win_reg <= window_of(k_mx_log_reg, mask_mode_reg);
        end
        CS_MX2: begin
            cs_reg <= CS_IDLE;
            rsp_valid_reg <= 1'b1;
            rsp_data0_reg <= {31'd0, !(mx_pre_reg && $signed(mx_diff_reg) < $signed(mx_win_reg))};
        end
        CS_SR: begin
            cs_reg <= CS_IDLE;
            rsp_valid_reg <= 1'b1;
            rsp_data0_reg <= sock_rd_data;
        end
        default: begin
            cs_reg <= CS_IDLE;
        end
    endcase

    if (rst) begin
        pre_left_reg <= '0;
        pre_zero_reg <= 1'b1;
        hadd_pend_reg <= 1'b0;
        pre_acc_reg <= '0;
        wb_valid_reg <= 1'b0;
        wb_done_reg <= 1'b0;
        b_wbhit_reg <= 1'b0;
        a_valid_reg <= 1'b0;
        b_valid_reg <= 1'b0;
        b1_valid_reg <= 1'b0;
        b2_valid_reg <= 1'b0;
        c_valid_reg <= 1'b0;
        d_valid_reg <= 1'b0;
        xs_reg <= XS_EVAL;
        d_now_reg <= 1'b0;
        d_w2_done_reg <= 1'b0;
        d_p_unk_reg <= 1'b0;
        d_fix1_reg <= 1'b0;
        rec_valid_reg <= 1'b0;
        wr_d1_en_reg <= 1'b0;
        cs_reg <= CS_IDLE;
        rsp_valid_reg <= 1'b0;
        tbl_present_reg <= '0;
        sock_present_reg <= 1'b0;
        sock_mask_reg <= '0;
        cpu_mask_reg <= 16'd0;
        nr_cpu_ids_reg <= 16'(NUM_CPUS);
        nr_m1_reg <= 16'(NUM_CPUS - 1);
        patched_reg <= 1'b1;
        mask_mode_reg <= 1'b0;
        ntuple_reg <= 1'b1;
        rmap_on_reg <= 1'b1;
        online_reg <= '1;
        for (int i = 0; i < NUM_CPUS; i++) begin
            rmap_reg[i] <= QW'(i % NUM_QUEUES);
            head_reg[i] <= 32'd0;
            tail_p1_reg[i] <= 32'd1;
            hdiff_reg[i] <= 32'hFFFFFFFF;
            hd_zero_reg[i] <= 1'b0;
        end
        for (int i = 0; i < NUM_QUEUES; i++) begin
            tbl_log_reg[i] <= 5'd0;
            map_len_reg[i] <= 16'd0;
            map_base_reg[i] <= '0;
        end
        stat_drv_stall_reg <= 32'd0;
        stat_cmd_stall_reg <= 32'd0;
        stat_fwd_reg <= 32'd0;
        stat_hzd_stall_reg <= 32'd0;
    end
end

assign m_axis_rec_tvalid = rec_valid_reg;
assign m_axis_rec_cpu_valid = rec_cpu_valid_reg;
assign m_axis_rec_cpu = rec_cpu_reg;
assign m_axis_rec_path = rec_path_reg;
assign m_axis_rec_gate = rec_gate_reg;
assign m_axis_rec_steer = rec_steer_reg;
assign m_axis_rec_steer_queue = rec_steer_queue_reg;
assign m_axis_rec_steer_flow_id = rec_steer_flow_id_reg;
assign m_axis_rec_steer_rc = rec_steer_rc_reg;
assign m_axis_rec_rflow_valid = rec_rflow_valid_reg;
assign m_axis_rec_rflow_queue = rec_rflow_queue_reg;
assign m_axis_rec_rflow_slot = rec_rflow_slot_reg;
assign m_axis_rec_tail = rec_tail_reg;
assign m_axis_rec_tag = rec_tag_reg;
assign rsp_valid = rsp_valid_reg;
assign rsp_status = rsp_status_reg;
assign rsp_data0 = rsp_data0_reg;
assign rsp_data1 = rsp_data1_reg;
assign stat_drv_stall = stat_drv_stall_reg;
assign stat_cmd_stall = stat_cmd_stall_reg;
assign stat_fwd = stat_fwd_reg;
assign stat_hzd_stall = stat_hzd_stall_reg;

`ifdef FORMAL
// Forwarding contract: a packet entering D holds the R and P words the slot table has after
// every earlier write (a shadow copy, written with the RAMs), and while it is in D each flag
// precomputed for it equals its definition on those words and the current head, nr_cpu_ids,
// online state and window; head - (tail + 1) kept per CPU equals its definition. Only slots
// written at least once are compared (the RAMs start undefined; sizing a table clears it).
// Streams: records and driver requests (outputs) hold until taken; the driver's response is
// assumed to. The packet input is not an AXI4-Stream: its source withdraws a packet the core
// flushed or one whose filter changed (fs_engine_top, issue stage M).
localparam integer F_SLOTS = 1 << RAW;
logic f_armed_reg = 1'b0;                // a reset was seen (checks start)
logic [SW-1:0] f_slot [F_SLOTS];
logic f_known_reg [F_SLOTS];             // written at least once (the shadow equals the RAMs)
initial begin
    for (int i = 0; i < F_SLOTS; i++) f_known_reg[i] = 1'b0;
end
logic f_dnew_reg = 1'b0;                 // the packet in D entered last clock
logic f_hitr_reg, f_hitp_reg;            // ... its R / P view came from the write of D
logic [SW-1:0] f_r, f_p;
logic f_r_known, f_p_known;
logic [15:0] f_rcpu, f_pcpu;
logic f_hd_ok;

always_ff @(posedge clk) begin
    if (rst) f_armed_reg <= 1'b1;
    f_dnew_reg <= c_adv && !flush;
    if (c_adv) begin
        f_hitr_reg <= w_hit_r;
        f_hitp_reg <= w_hit_p;
    end
    if (ram_wr_en) begin
        f_slot[ram_wr_addr] <= ram_wr_data;
        f_known_reg[ram_wr_addr] <= 1'b1;
    end
    if (rst) f_dnew_reg <= 1'b0;
end

always_comb begin
    f_r = f_slot[{d_queue_reg, d_rslot_reg}];
    f_p = f_slot[{d_tq_reg, d_pslot_reg}];
    f_r_known = f_known_reg[{d_queue_reg, d_rslot_reg}];
    f_p_known = f_known_reg[{d_tq_reg, d_pslot_reg}];
    f_rcpu = d_r_reg[F_CPU +: 16];
    f_pcpu = d_p_reg[F_CPU +: 16];
    f_hd_ok = 1'b1;
    for (int i = 0; i < NUM_CPUS; i++) begin
        if (hdiff_reg[i] != head_reg[i] - tail_p1_reg[i]) f_hd_ok = 1'b0;
        if (hd_zero_reg[i] != (hdiff_reg[i] == 32'd0)) f_hd_ok = 1'b0;
    end
end

always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) begin
        p_hdiff: assert (f_hd_ok);
        if (d_valid_reg && f_dnew_reg) begin
            if (f_r_known) p_view_r: assert (d_r_reg == f_r);
            if (f_p_known) p_view_p: assert (d_p_reg == f_p);
        end
        if (d_valid_reg) begin
            p_r_ok: assert (d_r_ok_reg == (f_rcpu < nr_cpu_ids_reg && online_reg[CW'(f_rcpu)]));
            // (the flags below are read only where these hold: R.cpu usable for G5e, a valid
            // next_cpu for S8 and G5f)
            if (d_r_ok_reg) p_r_inorder: assert (d_r_inorder_reg ==
                                 ($signed(head_reg[CW'(f_rcpu)] - d_r_reg[F_LQ +: 32]) >= 0));
            p_r_ne: assert (d_r_ne_reg == (f_rcpu != d_next_reg));
            p_p_nofilt: assert (d_p_nofilt_reg == (d_p_reg[F_FILTER +: 16] == 16'hFFFF));
            p_p_hasheq: assert (d_p_hasheq_reg == (d_p_reg[F_HASH +: 32] == d_hash_reg));
            p_p_same: assert (d_p_same_reg == (f_pcpu == d_next_reg));
            // (read only for a valid next_cpu, S1: tbl_log[rmap[next_cpu]] of an invalid one
            // is a don't-care, out of range when NUM_CPUS is not a power of two)
            if (!d_p_unk_reg && d_nc_ok_reg) p_p_active: assert (d_p_active_reg ==
                (f_pcpu < nr_cpu_ids_reg && $signed(head_reg[CW'(f_pcpu)] - d_p_reg[F_LQ +: 32]) <
                                            $signed(d_win_reg)));
            // the window registered at B2 is the target table's (configuration changes only
            // with the pipeline empty)
            if (d_nc_ok_reg && 32'(d_tq_reg) < NUM_QUEUES)
                p_win: assert (d_win_reg == window_of(tbl_log_reg[d_tq_reg], mask_mode_reg));
            if (d_nc_ok_reg) p_head_next: assert (d_head_next_reg == head_reg[CW'(d_next_reg)]);
            p_next_ok: assert (d_next_ok_reg == (d_nc_ok_reg && online_reg[CW'(d_next_reg)]));
            if (32'(d_tq_reg) < NUM_QUEUES)
                p_tq_tbl: assert (d_tq_tbl_reg == tbl_present_reg[d_tq_reg]);
        end
        p_pre_zero: assert (pre_zero_reg == (pre_left_reg == '0));
        // a drain's registered tail - head is the current one in any clock it may run
        if (x_calm_reg && cs_reg == CS_EXEC) p_qlen: assert (k_qlen_reg + 32'(enq_hit_reg) == k_qlen);
        c_drain: cover (x_go && cmd_drain_reg);
        // the refusal's contract (the driver proves it: fs_steer_driver p_refuse)
        if (m_drv_req_valid && d_refuse) a_refuse: assume (m_drv_req_ready && s_drv_rsp_now &&
                                                            s_drv_rsp_now_rc[31]);
        if (d_valid_reg && xs_reg == XS_EVAL) p_rc_neg: assert (d_rc_reg[31]);
        // the registered key compares are current wherever a flush can read them, and the
        // flush is the driver caller's finish
        if (d_valid_reg && xs_reg == XS_RC) p_rc_ext: assert (d_drv_ext && !d_p_unk_reg);
        if (FLUSH_ON_STEER != 0 && d_valid_reg && xs_reg == XS_RC && !d_now_reg) p_kin: assert (kin_any_reg == kin_any);
        p_flush: assert (flush == ((FLUSH_ON_STEER != 0) && d_fin && d_drv_ext && xs_reg == XS_RC &&
                               !d_now_reg && kin_any));
        c_fwd_r: cover (d_valid_reg && f_dnew_reg && f_hitr_reg && f_r_known);
        c_fwd_p: cover (d_valid_reg && f_dnew_reg && f_hitp_reg && f_p_known && d_steer_reg);
        c_fix: cover (d_valid_reg && d_p_unk_reg && d_fix1_reg);
        c_now: cover (d_valid_reg && xs_reg == XS_RC && d_now_reg);
        c_refuse: cover (d_fin && d_drv_ext && d_refuse);
        c_flush: cover (flush);
    end
end

// Conservation: a packet taken leaves as one record, or is dropped by a flush with the
// other packets behind the caller in A-C (its source presents them again); none is lost or
// doubled on the way (each stage holds one packet, the record register one record).
logic [3:0] f_pkts_reg = '0;             // taken, neither recorded nor dropped
logic [4:0] f_v, f_pre;                  // A-C's valid and early-command bits (A first)
logic [3:0] f_abc, f_held;
assign f_v = {a_valid_reg, b_valid_reg, b1_valid_reg, b2_valid_reg, c_valid_reg};
assign f_pre = {a_pre_reg, b_pre_reg, b1_pre_reg, b2_pre_reg, c_pre_reg};
assign f_abc = 4'($countones(f_v));
assign f_held = f_abc + 4'(d_valid_reg) + 4'(rec_valid_reg);
always_ff @(posedge clk) begin
    f_pkts_reg <= f_pkts_reg + 4'(pkt_accept) - 4'(m_axis_rec_tvalid && m_axis_rec_tready) -
                  (flush ? f_abc : 4'd0);
    if (rst) f_pkts_reg <= '0;
end
// the count of packets ordered before an early command: those in A-C carry their bit, the
// others were flushed and are taken again first; a packet after the command never overtakes
// one before it (the bits form a prefix of the pipeline, from D up)
logic [3:0] f_pre_in;
logic f_pre_ord, f_pre_seen;
assign f_pre_in = 4'($countones(f_v & f_pre));
always_comb begin
    // from A down: no packet without the bit below one with it
    f_pre_ord = 1'b1;
    f_pre_seen = 1'b0;
    for (int i = 4; i >= 0; i--) begin
        if (f_v[i] && f_pre[i]) f_pre_seen = 1'b1;
        else if (f_v[i] && f_pre_seen) f_pre_ord = 1'b0;
    end
end
always_ff @(posedge clk) begin
    if (f_armed_reg && !rst) begin
        p_inv_pkts: assert (f_pkts_reg == f_held);
        p_inv_pre: assert (4'(pre_left_reg) == 4'(pre_acc_reg) + f_pre_in);
        p_inv_pre_ord: assert (f_pre_ord);
        // D's driver-call state: past XS_EVAL only for the call it issued, XS_EVAL when empty;
        // an early head command pends only in its EXEC state
        if (!d_valid_reg) p_inv_xs_idle: assert (xs_reg == XS_EVAL);
        if (d_valid_reg && xs_reg != XS_EVAL) p_inv_xs: assert (d_drv_ext && !d_p_unk_reg);
        if (hadd_pend_reg) p_inv_hadd: assert (cs_reg == CS_EXEC && (cmd_op_reg == OP_HEAD_ADD ||
                                                                     cmd_op_reg == OP_BACKLOG_DRAIN));
        if (pre_acc_reg != '0) p_inv_pre_acc: assert (f_pre_in == f_abc);
    end
end

fs_axis_check #(.WIDTH(1 + 16 + 3 + 3 + 1 + QW + SL + 32 + 1 + QW + SL + 32 + TAG_WIDTH), .INPUT(0)) f_rec (
    .clk(clk), .rst(rst), .valid(m_axis_rec_tvalid), .ready(m_axis_rec_tready),
    .data({m_axis_rec_cpu_valid, m_axis_rec_cpu, m_axis_rec_path, m_axis_rec_gate,
           m_axis_rec_steer, m_axis_rec_steer_queue, m_axis_rec_steer_flow_id,
           m_axis_rec_steer_rc, m_axis_rec_rflow_valid, m_axis_rec_rflow_queue,
           m_axis_rec_rflow_slot, m_axis_rec_tail, m_axis_rec_tag}));
fs_axis_check #(.WIDTH(QW + SL + 32 + TAG_WIDTH), .INPUT(0)) f_drv_req (
    .clk(clk), .rst(rst), .valid(m_drv_req_valid), .ready(m_drv_req_ready),
    .data({m_drv_req_queue, m_drv_req_flow_id, m_drv_req_hash, m_drv_req_tag}));
fs_axis_check #(.WIDTH(32), .INPUT(1)) f_drv_rsp (
    .clk(clk), .rst(rst), .valid(s_drv_rsp_valid), .ready(s_drv_rsp_ready),
    .data(s_drv_rsp_rc));
`endif

endmodule

`resetall
