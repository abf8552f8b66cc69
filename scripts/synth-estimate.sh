#!/usr/bin/env bash
# Resource and depth estimate of the engine RTL with Yosys synth_xilinx (UltraScale+),
# one out-of-context run per module at default parameters (or at a set of hw/params.json).
# Usage: scripts/synth-estimate.sh [-o REPORT.md] [-j N] [--set NAME] [--keep DIR] [module[@SET] ...]
#   (no module: all, and MODULE@in_top for each block whose hw/params.json set in_top gives
#   the parameters fs_engine_top builds it with; --keep leaves each netlist in
#   DIR/MODULE/net.json for `scripts/lut-levels.py DIR/MODULE/net.json --over 6`)
# Modules are the fs_*.sv of hw/rtl and the Vitis kernel `flowsteer` (hw/alveo); -uram lets
# large memories map to URAM288, -widemux 8 maps muxes of 8 or more inputs to MUXF7/MUXF8 as
# Vivado does (without it Yosys builds them of LUTs alone). Writes a Markdown table: LUT, FF,
# BRAM36 equivalents, URAM288, LUTRAM, DSP, MUXF, CARRY, the deepest path in LUT levels
# (scripts/lut-levels.py: every path from a register, RAM, SRL, DSP or input to one of those
# or an output, the LUTs and LUTRAM reads on it counted) and how many path ends are deeper
# than the target. The engine rows get their share of an XCU280. Target: <= 6.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RTL="$ROOT/hw/rtl"
OUT="synth-estimate.md"
JOBS=1
TARGET=6          # LUT levels per path
SET=default
KEEP=
MODS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) OUT="${2:?-o needs a file}"; shift 2 ;;
    -j) JOBS="${2:?-j needs a number}"; shift 2 ;;
    --set) SET="${2:?--set needs a name}"; shift 2 ;;
    --keep) KEEP="${2:?--keep needs a directory}"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "synth-estimate: unknown option $1" >&2; exit 2 ;;
    *) MODS+=("$1"); shift ;;
  esac
done
command -v yosys >/dev/null || { echo "synth-estimate: yosys not found" >&2; exit 2; }
if [ ${#MODS[@]} -eq 0 ]; then
  for f in "$RTL"/fs_*.sv; do MODS+=("$(basename "$f" .sv)"); done
  MODS+=(flowsteer)
  for f in "$RTL"/fs_*.sv; do
    m="$(basename "$f" .sv)"
    if python3 "$ROOT/scripts/rtl-params.py" "$m" --sets | tr ' ' '\n' | grep -qx in_top; then
      MODS+=("$m@in_top")
    fi
  done
fi
# set_of MODULE[@SET]: the parameter set of a module argument
set_of() { if [ "$1" != "${1%@*}" ]; then echo "${1#*@}"; else echo "$SET"; fi; }
for m in "${MODS[@]}"; do
  python3 "$ROOT/scripts/rtl-params.py" "${m%@*}" "$(set_of "$m")" >/dev/null || exit 2
done
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP" && WORK="$(cd "$KEEP" && pwd)"
else
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
fi
python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$WORK/flowsteer_regs.vh"

# rtl_deps MODULE: the file of MODULE and of every fs_* module it instantiates (recursively).
rtl_deps() { python3 "$ROOT/scripts/rtl-deps.py" "$RTL:$ROOT/hw/alveo" "$1"; }

# chparams MODULE SET: the Yosys chparam commands of a parameter set (scripts/rtl-params.py).
chparams() {
  local p
  for p in $(python3 "$ROOT/scripts/rtl-params.py" "$1" "$2"); do
    p="${p#-G}"; printf 'chparam -set %s %s %s; ' "${p%%=*}" "${p#*=}" "$1"
  done
}

# run_one MODULE[@SET]
run_one() {
  local m="${1%@*}" s d="$WORK/$1" t0 t1
  s="$(set_of "$1")"
  mkdir -p "$d"
  rm -f "$d/failed"          # a --keep directory may hold an earlier run's marker
  t0=$(date +%s)
  if ! yosys -q -l "$d/yosys.log" -p "read_verilog -sv -I$WORK $(rtl_deps "$m"); $(chparams "$m" "$s") \
      synth_xilinx -family xcup -top $m -flatten -noiopad -noclkbuf -uram -widemux 8; \
      tee -q -o $d/stat.txt stat; write_json $d/net.json" >/dev/null 2>&1 ||
     ! python3 "$ROOT/scripts/lut-levels.py" "$d/net.json" --over "$TARGET" > "$d/levels.json" 2> "$d/over.txt"; then
    echo "FAILED" > "$d/failed"
  fi
  t1=$(date +%s)
  echo $((t1 - t0)) > "$d/seconds"
}
export -f run_one rtl_deps chparams set_of
export WORK RTL ROOT SET TARGET
printf '%s\n' "${MODS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}'

python3 - "$WORK" "$OUT" "$SET" "$TARGET" "${MODS[@]}" <<'EOF'
import json, os, re, sys
work, out, pset, mods = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[5:]
TARGET = int(sys.argv[4])
# XCU280 (Alveo U280), AMD DS963 / DS890
U280 = {"LUT": 1303680, "FF": 2607360, "BRAM36": 2016, "URAM": 960, "DSP": 9024}
rows, paths, shares = [], [], []
worst = 0
for m in mods:
    d = os.path.join(work, m)
    secs = open(os.path.join(d, "seconds")).read().strip()
    if os.path.exists(os.path.join(d, "failed")):
        rows.append(f"| {m} | synthesis failed | | | | | | | | | | | {secs} |")
        worst = TARGET + 1
        continue
    cells = {}
    for line in open(os.path.join(d, "stat.txt")):
        mm = re.match(r"\s+(\w+)\s+(\d+)$", line)
        if mm and not mm.group(1).startswith("Number"):
            cells[mm.group(1)] = cells.get(mm.group(1), 0) + int(mm.group(2))
    def count(prefixes):
        return sum(v for k, v in cells.items() if any(k.startswith(p) for p in prefixes))
    r = {"LUT": count(["LUT"]), "FF": count(["FD"]),
         "BRAM36": cells.get("RAMB36E2", 0) + cells.get("RAMB18E2", 0) / 2,
         "URAM": cells.get("URAM288", 0), "DSP": count(["DSP"])}
    lutram = count(["RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "SRL"])
    muxf = count(["MUXF"])
    carry = count(["CARRY"])
    lv = json.load(open(os.path.join(d, "levels.json")))
    over = sum(1 for _ in open(os.path.join(d, "over.txt")))   # path ends deeper than TARGET
    other_s = ", ".join(f"{v} {k}" for k, v in sorted(lv["other"].items())) or "-"
    worst = max(worst, lv["levels"])
    rows.append(f"| {m} | {r['LUT']} | {r['FF']} | {r['BRAM36']:g} | {r['URAM']} | {lutram} | "
                f"{r['DSP']} | {muxf} | {carry} | {lv['levels']} | {over} | {lv['cells']} ({other_s}) | "
                f"{secs} |")
    paths.append(f"| {m} | {lv['levels']} | `{lv['from']}` | `{lv['to']}` |")
    if m in ("fs_engine_top", "flowsteer"):
        shares.append(f"| {m} | " + " | ".join(
            f"{r[k]:g} ({100.0 * r[k] / U280[k]:.1f} %)" for k in U280) + " |")
with open(out, "w") as f:
    f.write(f"# Yosys synth_xilinx -family xcup -uram -widemux 8 estimate (parameter set {pset})\n\n")
    f.write("Generated by `scripts/synth-estimate.sh`. LUT levels: the deepest path between "
            "registers, RAMs, DSPs and ports, counted in LUTs (scripts/lut-levels.py). A row "
            "MODULE@in_top is the block at the parameters fs_engine_top builds it with "
            "(hw/params.json set in_top); the others are at the parameter set named above.\n\n")
    f.write("| module | LUT | FF | BRAM36 | URAM288 | LUTRAM/SRL | DSP | MUXF | CARRY | "
            f"LUT levels | path ends over {TARGET} | cells on that path (other cells) | seconds |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    f.write("\n".join(rows) + "\n\n")
    f.write(f"Worst LUT levels: {worst} (target <= {TARGET}). Yosys 0.23 maps carry chains to "
            "CARRY4 (Vivado uses CARRY8), so read carry depth loosely.\n\n")
    if shares:
        f.write("## Share of an XCU280 (Alveo U280: " + ", ".join(
            f"{v:,} {k}" for k, v in U280.items()) + ")\n\n")
        f.write("| module | " + " | ".join(U280) + " |\n|---|" + "---|" * len(U280) + "\n")
        f.write("\n".join(shares) + "\n\n")
    f.write("## Deepest path per module\n\n| module | LUT levels | from | to |\n|---|---|---|---|\n")
    f.write("\n".join(paths) + "\n")
print(open(out).read())
sys.exit(1 if worst > TARGET else 0)
EOF
