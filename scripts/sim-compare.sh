#!/usr/bin/env bash
# The same engine, the same bench and the same stimulus under Verilator and Icarus Verilog:
# prints records, clocks, wall time and simulated frames per second for each, the speed
# ratio, and checks that both produced the identical record checksum.
# Usage: scripts/sim-compare.sh [--frames N] [--flows N] [--seed S] [--workdir DIR] [--csv FILE]
# Exit 0 when both finish with equal checksums, 1 when they differ or time out, 2 on bad usage
# or a missing tool. Icarus is slow on this design (about 10 clocks/s here against Verilator's
# ~185,000 on the same bench): the reset sweep and setup alone are ~5,000 clocks, so expect
# tens of minutes even at the small default.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FRAMES=20 FLOWS=4 SEED=1 WORK="" CSV=""
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) FRAMES="${2:?}"; shift 2 ;;
    --flows) FLOWS="${2:?}"; shift 2 ;;
    --seed) SEED="${2:?}"; shift 2 ;;
    --workdir) WORK="${2:?}"; shift 2 ;;
    --csv) CSV="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "sim-compare: unknown argument $1" >&2; exit 2 ;;
  esac
done
for t in verilator iverilog vvp python3; do
  command -v "$t" >/dev/null || { echo "sim-compare: $t not found (run scripts/setup.sh)" >&2; exit 2; }
done
if [ -z "$WORK" ]; then WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT; fi
mkdir -p "$WORK/gen" "$WORK/vl"
python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$WORK/gen/flowsteer_regs.vh"
python3 "$ROOT/scripts/gen_stream_stimulus.py" "$WORK" --frames "$FRAMES" --flows "$FLOWS" --seed "$SEED" >&2
read -ra RTL <<<"$(python3 "$ROOT/scripts/rtl-deps.py" "$ROOT/hw/rtl" fs_engine_top)"
TB="$ROOT/testbench/rtl/tb_engine_stream.sv"

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }
echo "sim-compare: building the Verilator model" >&2
verilator --cc --exe --build -O3 --x-assign unique --x-initial unique -Wno-fatal -Wno-lint \
  -Wno-style --top-module tb_engine_stream -I"$WORK/gen" --Mdir "$WORK/vl" -o Vtb -j 2 \
  "${RTL[@]}" "$TB" "$ROOT/testbench/rtl/tb_engine_stream_main.cpp" >"$WORK/vl/build.log" 2>&1 ||
  { tail -20 "$WORK/vl/build.log" >&2; echo "sim-compare: Verilator build failed" >&2; exit 1; }
echo "sim-compare: building the Icarus model" >&2
iverilog -g2012 -I"$WORK/gen" -s tb_engine_stream -o "$WORK/tb.vvp" "${RTL[@]}" "$TB" 2>"$WORK/iverilog.log" ||
  { cat "$WORK/iverilog.log" >&2; echo "sim-compare: Icarus build failed" >&2; exit 1; }

run() {  # run NAME CMD...: prints "NAME wall line"
  local name="$1"; shift
  local t0 t1 out
  t0=$(now)
  out=$(cd "$WORK" || exit; "$@" | grep 'tb_engine_stream:') || out=""  # no summary line: empty
  t1=$(now)
  echo "$name $(calc "$t1 - $t0") $out"
}
echo "sim-compare: running Verilator" >&2
VL=$(run verilator "$WORK/vl/Vtb")
echo "sim-compare: running Icarus" >&2
IV=$(run icarus vvp -n "$WORK/tb.vvp")

field() { echo "$1" | sed -n "s/.* $2 \([0-9a-fx]*\).*/\1/p"; }
printf '%-10s %10s %10s %10s %14s %18s\n' simulator records clocks wall_s frames_per_s checksum
status=0
for line in "$VL" "$IV"; do
  name=${line%% *}; wall=$(echo "$line" | cut -d' ' -f2)
  if echo "$line" | grep -q TIMEOUT || [ -z "$(field "$line" records)" ]; then
    echo "sim-compare: $name did not finish: $line" >&2; status=1; continue
  fi
  rec=$(field "$line" records); clk=$(field "$line" clocks); sum=$(field "$line" checksum)
  fps=$(calc "$rec / $wall")
  printf '%-10s %10s %10s %10.2f %14.0f %18s\n' "$name" "$rec" "$clk" "$wall" "$fps" "$sum"
  [ "$(field "$line" slverr)" = "0" ] || { echo "sim-compare: $name: setup writes got SLVERR" >&2; status=1; }
done
[ $status -eq 0 ] || exit 1
vw=$(echo "$VL" | cut -d' ' -f2); iw=$(echo "$IV" | cut -d' ' -f2)
printf 'Verilator / Icarus speed ratio: %.1fx (packets per clock %.4f)\n' "$(calc "$iw / $vw")" \
  "$(calc "$(field "$VL" records) / $(field "$VL" clocks)")"
if [ -n "$CSV" ]; then
  { echo "simulator,records,clocks,wall_s,checksum"
    for line in "$VL" "$IV"; do
      echo "${line%% *},$(field "$line" records),$(field "$line" clocks),$(echo "$line" | cut -d' ' -f2),$(field "$line" checksum)"
    done; } >"$CSV"
fi
if [ "$(field "$VL" checksum)" != "$(field "$IV" checksum)" ]; then
  echo "sim-compare: record checksums differ between Verilator and Icarus" >&2
  exit 1
fi
