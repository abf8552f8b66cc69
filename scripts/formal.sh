#!/usr/bin/env bash
# Formal checks of the engine's stream and bus contracts (the `ifdef FORMAL properties of
# hw/rtl and the checkers in hw/formal): per job, Yosys builds SMT2 at the module's parameter
# set (hw/params.json through scripts/rtl-params.py), yosys-smtbmc with z3 runs a bounded model
# check and k-induction where the job asks for it, scripts/formal-cover.py (z3 too) the covers.
# Prints one row per property:
# proved / bounded to depth N / FAILED (with the counterexample VCD) / cover reached / UNREACHED.
# Usage: scripts/formal.sh [--out DIR] [--extra N] [--deep] [--cover-vcd] [--solver S]
#   [--pdr-seconds N] [--list] [job ...]   (no job: the CI set)
# --extra N: N more BMC steps than the job's depth; --deep: also the deep jobs (not in CI:
# they take longer than minutes); --cover-vcd: a VCD per cover reached (z3 solvers:
# cover_N.vcd, from yosys-smtbmc -c, slower; ABC: cover_NAME.vcd, each cover's trace replayed);
# --solver S: every job on solver S (below);
# --pdr-seconds N: abc-pdr's time for a proof (default 600); --list: the job names (with
# --deep first: all). --rtl DIR: one more directory of modules; --job 'LINE': one more job,
# a line as in the table below (the tests' known-answer job, testbench/formal).
# yosys-smtbmc runs with --unroll: it expands Yosys's per-cell define-funs itself; z3 4.8.12
# given them as define-funs spent minutes before step 0 of the parser and the filter table.
# It runs through scripts/smt_unroll.py, which with --declare declares what the unrolling
# defines: z3 expands each 0-ary definition at every use (10x slower per step on the engine top),
# but on other models the declared names slow its search (hash, steer_driver): per job, below.
# Solver per job: 'sat' maps the memories to registers and states the logic QF_BV, for which
# z3 answers with its incremental SAT solver (bit-blasting); 'smt' keeps memories as arrays
# and z3 uses its SMT core. sat is 3-6x faster on most jobs (the CI set: 1,384 s of CPU with
# smt everywhere), smt where a memory is large (axil_regs: 4,096 pool entries) or where the
# bit-blasted search is slower (hash: its step-15 covers 206 s against 48 s). 'sat-decl' is sat
# with the unrolled definitions declared (above): where reading the steps costs more than the
# search (axil_regs_engine, the engine top). 'abc-bmc' and 'abc-pdr' hand the model to ABC
# (yosys-abc) as AIGER through scripts/formal_abc.py: bmc3 for the bounded check and the
# covers, and with abc-pdr property-directed reachability first, a proof without invariants
# written by hand (where it closes within --pdr-seconds); bmc3 runs on Glucose (-g). On the
# engine top bmc3 checks all 57 steps in 12 min in about 0.5 GB, where z3 reached step 48 in
# 49 min at 16 GB; on the deep rfs_core all 25 steps in 27 min (MiniSat: not step 19); pdr proves
# nic_front_lat (27 clocks back: k-induction does not close) in 9 s; on blocks that k-induction
# proves in seconds, z3 is faster (counters: pdr still open when stopped at 550 s).
# Exit 0 when nothing failed, 1 on a failed assertion or an unreached cover, 2 on bad usage.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/build/formal"
EXTRA=0
DEEP=0
COVER_VCD=0
LIST=0
SOLVER=""
PDR_SECONDS=600
RTL_MORE=""
JOB_MORE=()
WANT=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="${2:?--out needs a directory}"; shift 2 ;;
    --extra) EXTRA="${2:?--extra needs a number}"; shift 2 ;;
    --deep) DEEP=1; shift ;;
    --cover-vcd) COVER_VCD=1; shift ;;
    --solver) SOLVER="${2:?--solver needs a solver}"; shift 2 ;;
    --pdr-seconds) PDR_SECONDS="${2:?--pdr-seconds needs a number}"; shift 2 ;;
    --list) LIST=1; shift ;;
    --rtl) RTL_MORE+=":${2:?--rtl needs a directory}"; shift 2 ;;
    --job) JOB_MORE+=("${2:?--job needs a job line}"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "formal: unknown option $1" >&2; exit 2 ;;
    *) WANT+=("$1"); shift ;;
  esac
done
[[ "$EXTRA" =~ ^[0-9]+$ ]] || { echo "formal: --extra needs a number, got '$EXTRA'" >&2; exit 2; }
[[ "$PDR_SECONDS" =~ ^[0-9]+$ ]] || { echo "formal: --pdr-seconds needs a number, got '$PDR_SECONDS'" >&2; exit 2; }

# Jobs: name  top  parameter-set  BMC-depth[/cover-depth]  induction-depth(0: none)
#       deep(1: only --deep)  solver (sat|sat-decl|smt|abc-bmc|abc-pdr, above)
#       flow (Yosys scripts run after prep, comma-separated, or -: a name is hw/formal's,
#       a path, with a /, any file: the tests' known-answer flow, testbench/formal)
# A BMC depth is the block's latency (hw/README.md) + its longest command + 16 clocks
# (engine_top: the top's latency 41 + 16, the target); the covers are searched to the same
# depth unless a cover depth is given (engine_top: 90, as its first record needs about 80
# clocks from reset: the init list, the host's ENABLE write, then the 41-clock pipeline;
# engine_top_lat, the lone frame's latency without the data cut: 90, a frame taken at the
# earliest, step 34, checked to its last clock, 34 + 41 + 8 = 83, and a few more);
# the induction depth is tried first (with its base case) and the BMC runs only where it fails.
# The three longest jobs come first: CTest numbers and starts the jobs in this order, so none
# is left running alone at the end (axil_regs_engine last: 14.5 min for 1,392 s of CPU).
JOBS=(
  "axil_regs_engine  fs_axil_regs      formal        40  2  0  sat-decl  axil_regs.ys"
  "rfs_core_ctl      fs_rfs_core       formal        25  4  0  sat       rfs_core_ctl.ys"
  "axil_regs         fs_axil_regs      minimum       30  2  0  smt       axil_regs.ys,no_lists.ys"
  "skid              fs_skid           minimum       17  4  0  sat       -"
  "ram_sdp           fs_ram_sdp        formal        17  2  0  sat       -"
  "ram_sdp_ultra     fs_ram_sdp        formal_ultra  17  2  0  sat       -"
  "event_fifo        fs_event_fifo     minimum       18  4  0  sat       -"
  "rss_lut           fs_rss_lut        minimum       17  4  0  sat       -"
  "hash              fs_hash           minimum       28  4  0  smt       -"
  "axil_slave        fs_axil_slave     default       18  2  0  sat       axil_slave.ys"
  "order_gate        fs_order_gate     minimum       20  4  0  sat       -"
  "counters          fs_counters       default       17  2  0  sat       -"
  "reg_sequencer     fs_reg_sequencer  minimum       12  4  0  sat       -"
  "flt_forward       fs_flt_forward    minimum       24  6  0  sat       -"
  "bucket_watch      fs_bucket_watch   formal        20  4  0  sat       -"
  "steer_driver      fs_steer_driver   minimum       33  4  0  sat       no_evt_stall.ys"
  "rfs_core          fs_rfs_core       formal        25  0  1  abc-bmc   -"
  "parser            fs_parser         minimum       23  4  0  sat       -"
  "nic_front         fs_nic_front      minimum       46  2  0  sat       nic_front.ys,no_flow.ys"
  "nic_front_fifo    fs_nic_front      formal_fifo   47  2  0  sat       nic_front.ys,no_flow.ys"
  "nic_front_flow    fs_nic_front      minimum       40  8  0  sat       nic_front.ys,flow_only.ys,no_lat.ys"
  "nic_front_lat     fs_nic_front      minimum       49  0  0  abc-pdr   nic_front.ys,flow_only.ys,lat_only.ys"
  "filter_table      fs_filter_table   minimum       28  4  0  sat       -"
  "engine_top        fs_engine_top     minimum    57/90  0  1  abc-bmc   top_own.ys,engine_top.ys"
  "engine_top_lat    fs_engine_top     minimum    90/90  0  1  abc-bmc   top_own.ys,top_lat_only.ys"
)
JOBS+=("${JOB_MORE[@]}")

# every solver call: z3, per-cell definitions expanded by smtbmc, through smt_unroll.py (above)
SMTBMC=(python3 "$ROOT/scripts/smt_unroll.py" -s z3 --unroll)
# and per solver (the job table's column): the logic, the memories, formal-cover.py's option
declare -A LOGIC=([sat]="--logic QF_BV" [sat-decl]="--logic QF_BV --declare" [smt]=""
                  [abc-bmc]="" [abc-pdr]="")
declare -A MEMMAP=([sat]="memory_map; opt_clean;" [sat-decl]="memory_map; opt_clean;" [smt]=""
                   [abc-bmc]="memory_map; opt_clean;" [abc-pdr]="memory_map; opt_clean;")
[ -z "$SOLVER" ] || [ -n "${LOGIC[$SOLVER]+set}" ] || { echo "formal: --solver: no solver '$SOLVER'" >&2; exit 2; }

for t in yosys yosys-smtbmc yosys-abc z3; do
  command -v "$t" >/dev/null || { echo "formal: $t not found (scripts/setup.sh installs it)" >&2; exit 2; }
done
if [ "$LIST" -eq 1 ]; then
  printf '%s\n' "${JOBS[@]}" | awk '$6 == 0 || deep {print $1}' deep="$DEEP"
  exit 0
fi
known=" $(printf '%s\n' "${JOBS[@]}" | awk '{printf "%s ", $1}')"
for w in "${WANT[@]}"; do
  [[ "$known" == *" $w "* ]] || { echo "formal: no job '$w' (jobs:$known)" >&2; exit 2; }
done

mkdir -p "$OUT"
# jobs may run in parallel into one --out: each writes the header whole, then renames it
python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$OUT/flowsteer_regs.vh.$$"
mv -f "$OUT/flowsteer_regs.vh.$$" "$OUT/flowsteer_regs.vh"
SEARCH="$ROOT/hw/rtl:$ROOT/hw/formal$RTL_MORE"

rc=0
rows=()
# row JOB PROPERTY STATUS
# one format for the header and every row (a variable, hence the SC2059 waivers)
ROW_FMT='%-17s %-34s %s'
# shellcheck disable=SC2059
row() { rows+=("$(printf "$ROW_FMT" "$1" "$2" "$3")"); }

for j in "${JOBS[@]}"; do
  read -r name top set depth ind deep solver flow <<<"$j"
  [ -n "${LOGIC[$solver]+set}" ] || { echo "formal: job $name: no solver '$solver'" >&2; exit 2; }
  [ -z "$SOLVER" ] || solver="$SOLVER"
  if [ ${#WANT[@]} -gt 0 ]; then
    [[ " ${WANT[*]} " == *" $name "* ]] || continue
  elif [ "$deep" -eq 1 ] && [ "$DEEP" -eq 0 ]; then
    continue
  fi
  cdepth="${depth#*/}"
  depth="${depth%/*}"
  depth=$((depth + EXTRA))
  cdepth=$((cdepth + EXTRA))
  d="$OUT/$name"
  mkdir -p "$d"
  # one chparam for the whole set: Yosys elaborates the top at its defaults on reading, then
  # once more (one chparam per parameter re-elaborated fs_rfs_core each time, 22 s apiece).
  # Not read_verilog -defer: Yosys 0.23 then fails an internal assert on fs_engine_top.
  params="$(python3 "$ROOT/scripts/rtl-params.py" "$top" "$set" --yosys)" || exit 2
  chp=""
  [ -z "$params" ] || chp="chparam $params $top;"
  # shellcheck disable=SC2206
  logic=(${LOGIC[$solver]})
  # shellcheck disable=SC2046
  files="$(python3 "$ROOT/scripts/rtl-deps.py" "$SEARCH" "$top")"
  extra=""
  if [ "$flow" != "-" ]; then
    IFS=, read -r -a fl <<<"$flow"
    for f in "${fl[@]}"; do
      [[ "$f" == */* ]] || f="$ROOT/hw/formal/$f"
      [ -f "$f" ] || { echo "formal: job $name: no flow $f" >&2; exit 2; }
      extra+="script $f; "
    done
  fi
  t0=$(date +%s)
  if [[ "$solver" == abc-* ]]; then
    # AIGER for ABC: undefined constants 0 (as write_smt2 reads them), no output ports (only
    # the properties are checked), bit-level cells; once with the assertions (and the model
    # as RTLIL, for replaying a counterexample; the witness map names the cut points' inputs,
    # which the port map does not), once with the covers made assertions. Each
    # list is in the order write_aiger writes the cells (select -list walks them alike).
    aig="techmap; opt -fast; dffunmap; abc -g AND -fast; opt_clean;"
    # the cover model as RTLIL and its maps only for --cover-vcd (the top's is about 40 MB)
    cil=""
    cmaps=""
    if [ "$COVER_VCD" -eq 1 ]; then
      cil="write_rtlil $d/${top}_cover.il;"
      cmaps="-map $d/${top}_cover.aim -ywmap $d/${top}_cover.ywm"
    fi
    out="setundef -zero; delete -output; design -save fs_job;
         chformal -remove -cover; $aig tee -q -o $d/$top.lst select -list t:\$assert;
         write_rtlil $d/$top.il; write_aiger -I -B -zinit -map $d/$top.aim -ywmap $d/$top.ywm $d/$top.aig;
         design -load fs_job; chformal -remove -assert; techmap -map $ROOT/hw/formal/cover_as_assert.v;
         $aig tee -q -o $d/${top}_cover.lst select -list t:\$assert;
         $cil write_aiger -I -B -zinit $cmaps $d/${top}_cover.aig"
  else
    out="dffunmap; write_smt2 -wires $d/$top.smt2"
  fi
  # shellcheck disable=SC2086
  if ! yosys -q -l "$d/yosys.log" -p "read_verilog -sv -formal -DFORMAL -DFORMAL_TOP_$top -I$OUT $files;
        $chp prep -flatten -top $top; $extra ${MEMMAP[$solver]} async2sync; $out" >/dev/null 2>&1; then
    echo "formal: $name: yosys failed (see $d/yosys.log)" >&2
    row "$name" "(build)" "FAILED: yosys, $d/yosys.log"
    rc=1
    continue
  fi
  if [[ "$solver" == abc-* ]]; then
    mapfile -t asserts < <(sed 's,^[^/]*/,,' "$d/$top.lst")
    mapfile -t covers < <(sed 's,^[^/]*/,,' "$d/${top}_cover.lst")
  else
    mapfile -t asserts < <(sed -n 's/^; yosys-smt2-assert [0-9]* \([^ ]*\).*/\1/p' "$d/$top.smt2")
    mapfile -t covers < <(sed -n 's/^; yosys-smt2-cover [0-9]* \([^ ]*\).*/\1/p' "$d/$top.smt2")
  fi

  # k-induction first (its base case is a BMC to k); where it does not close, BMC to the depth
  status=""
  failed=""
  step=0
  bmc() {  # bmc DEPTH: 0 when every assertion holds for DEPTH steps; sets failed/step
    if "${SMTBMC[@]}" "${logic[@]}" --presat -t "$1" --dump-vcd "$d/bmc.vcd" "$d/$top.smt2" >"$d/bmc.log" 2>&1; then
      return 0
    fi
    failed="$(sed -n 's/.*Assert failed in [^:]*: [^ ]* (\([^)]*\)).*/\1/p; s/.*Assert failed in [^:]*: \([^ ]*\)$/\1/p' "$d/bmc.log" | head -1)"
    step="$(sed -n 's/.*Checking assertions in step \([0-9]*\).*/\1/p' "$d/bmc.log" | tail -1)"
    [ -n "$failed" ] || failed="?"
    return 1
  }
  if [[ "$solver" == abc-* ]]; then
    # formal_abc.py's last line: proved (...) | bounded N (...) | failed STEP NAME...
    pdr=0
    [ "$solver" = abc-bmc ] || pdr="$PDR_SECONDS"
    python3 "$ROOT/scripts/formal_abc.py" prove "$d/$top" "$depth" --pdr "$pdr" --vcd "$d/bmc.vcd" \
      >"$d/bmc.log" 2>&1 || true
    read -r verdict a1 rest < <(tail -1 "$d/bmc.log")
    case "$verdict" in
      proved) status="proved (pdr)" ;;
      bounded) status="bounded to depth $a1" ;;
      failed) step="$a1"; failed="$rest" ;;
      *) failed="?" ;;
    esac
  elif [ "$ind" -gt 0 ]; then
    if bmc "$ind"; then
      if "${SMTBMC[@]}" "${logic[@]}" -i -t "$ind" "$d/$top.smt2" >"$d/ind.log" 2>&1; then
        status="proved (k-induction, k=$ind)"
      fi
    fi
  fi
  if [ -z "$status" ] && [ -z "$failed" ]; then
    if bmc "$depth"; then
      status="bounded to depth $depth"
    fi
  fi
  if [ -n "$failed" ]; then
    status="bounded to depth $((step > 0 ? step - 1 : 0))"
    rc=1
  fi
  read -r -a fails <<<"$failed"
  # formal_abc.py says when its replay holds X (an input it could not name): not the trace
  xnote=""
  if [ -n "$failed" ] && grep -q "replay is not the counterexample" "$d/bmc.log" 2>/dev/null; then
    xnote=" (its replay holds X: $d/bmc.log)"
  fi
  for a in "${asserts[@]}"; do
    # a failed name as printed, or with its instance path on either side (p_id is not p_idle)
    hit=0
    for f in "${fails[@]}"; do
      [[ "$a" == "$f" || "$a" == *".$f" || "$f" == *".$a" ]] && hit=1
    done
    if [ "$hit" -eq 1 ]; then
      row "$name" "$a" "FAILED at step $step: $d/bmc.vcd$xnote"
    else
      row "$name" "$a" "$status"
    fi
  done
  if [ -n "$failed" ] && [ "$failed" = "?" ]; then
    # no assertion named: the solver itself stopped (killed for memory, for one)
    if grep -q "Unexpected EOF response from solver" "$d/bmc.log"; then
      row "$name" "(bmc)" "FAILED: z3 stopped in step $step, $d/bmc.log"
    else
      row "$name" "(bmc)" "FAILED: $d/bmc.log"
    fi
  fi

  # covers: each must be reached within the depth (scripts/formal-cover.py: z3 keeps its
  # lemmas from step to step); --cover-vcd: also yosys-smtbmc -c, one trace per cover found
  # (ABC: formal_abc.py replays each cover's trace)
  if [ ${#covers[@]} -gt 0 ]; then
    if [[ "$solver" == abc-* ]]; then
      cvcd=()
      [ "$COVER_VCD" -eq 0 ] || cvcd=(--vcd "$d")
      python3 "$ROOT/scripts/formal_abc.py" cover "$d/$top" "$cdepth" "${cvcd[@]}" >"$d/cover.log" 2>&1 || true
    else
      python3 "$ROOT/scripts/formal-cover.py" "${logic[@]}" "$d/$top.smt2" "$cdepth" >"$d/cover.log" 2>&1 || true
    fi
    if [ "$COVER_VCD" -eq 1 ] && [[ "$solver" != abc-* ]]; then
      "${SMTBMC[@]}" "${logic[@]}" -c -t "$cdepth" --dump-vcd "$d/cover_%.vcd" "$d/$top.smt2" \
        >"$d/cover_vcd.log" 2>&1 || true
    fi
    for c in "${covers[@]}"; do
      s="$(awk -v c="$c" '$3 == "reached" && $4 == c { print $7; exit }' "$d/cover.log")"
      if [ -n "$s" ]; then
        row "$name" "$c" "cover reached in step $s"
      else
        row "$name" "$c" "UNREACHED within depth $cdepth: $d/cover.log"
        rc=1
      fi
    done
  fi
  echo "formal: $name ($top, $set) done in $(( $(date +%s) - t0 )) s" >&2
done

# shellcheck disable=SC2059
printf "$ROW_FMT\n" "job" "property" "status"
printf '%s\n' "${rows[@]}"
exit $rc
