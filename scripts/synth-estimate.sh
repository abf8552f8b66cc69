#!/usr/bin/env bash
# Resource and depth estimate of the engine RTL with Yosys synth_xilinx (UltraScale+),
# one out-of-context run per module at default parameters (or at a set of hw/params.json).
# Usage: scripts/synth-estimate.sh [-o REPORT.md] [-j N] [--set NAME] [module ...]   (no module: all)
# Writes a Markdown table: LUT, FF, BRAM36 equivalents, LUTRAM, DSP, MUXF, CARRY, and the
# longest register-to-register path (cells, and LUT levels on it). FFs, block RAMs, SRLs and
# DSPs are cut out of the graph before `ltp` (TOOLCHAIN.md section 4), so a path runs from a
# register or input to a register or output. Target: <= 8 LUT levels.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RTL="$ROOT/hw/rtl"
OUT="synth-estimate.md"
JOBS=1
SET=default
MODS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) OUT="${2:?-o needs a file}"; shift 2 ;;
    -j) JOBS="${2:?-j needs a number}"; shift 2 ;;
    --set) SET="${2:?--set needs a name}"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    -*) echo "synth-estimate: unknown option $1" >&2; exit 2 ;;
    *) MODS+=("$1"); shift ;;
  esac
done
command -v yosys >/dev/null || { echo "synth-estimate: yosys not found" >&2; exit 2; }
if [ ${#MODS[@]} -eq 0 ]; then
  for f in "$RTL"/fs_*.sv; do MODS+=("$(basename "$f" .sv)"); done
fi
for m in "${MODS[@]}"; do python3 "$ROOT/scripts/rtl-params.py" "$m" "$SET" >/dev/null || exit 2; done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$WORK/flowsteer_regs.vh"

# rtl_deps MODULE: the file of MODULE and of every fs_* module it instantiates (recursively).
rtl_deps() { python3 "$ROOT/scripts/rtl-deps.py" "$RTL" "$1"; }

# chparams MODULE: the Yosys chparam commands of parameter set $SET (scripts/rtl-params.py).
chparams() {
  local p
  for p in $(python3 "$ROOT/scripts/rtl-params.py" "$1" "$SET"); do
    p="${p#-G}"; printf 'chparam -set %s %s %s; ' "${p%%=*}" "${p#*=}" "$1"
  done
}

run_one() {
  local m="$1" d="$WORK/$1" t0 t1
  mkdir -p "$d"
  t0=$(date +%s)
  if ! yosys -q -l "$d/yosys.log" -p "read_verilog -sv -I$WORK $(rtl_deps "$m"); $(chparams "$m") \
      synth_xilinx -family xcup -top $m -flatten -noiopad -noclkbuf; \
      tee -q -o $d/stat.txt stat; write_json $d/net.json; \
      tee -q -o $d/ltp.txt ltp -noff * t:FD* %d t:RAMB* %d t:URAM* %d t:SRL* %d t:DSP* %d" \
      >/dev/null 2>&1; then
    echo "FAILED" > "$d/failed"
  fi
  t1=$(date +%s)
  echo $((t1 - t0)) > "$d/seconds"
}
export -f run_one rtl_deps chparams
export WORK RTL ROOT SET
printf '%s\n' "${MODS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}'

python3 - "$WORK" "$OUT" "${MODS[@]}" <<'EOF'
import json, os, re, sys
work, out, mods = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
worst = 0
for m in mods:
    d = os.path.join(work, m)
    secs = open(os.path.join(d, "seconds")).read().strip()
    if os.path.exists(os.path.join(d, "failed")):
        rows.append(f"| {m} | synthesis failed | | | | | | | | | {secs} |")
        continue
    cells = {}
    for line in open(os.path.join(d, "stat.txt")):
        mm = re.match(r"\s+(\w+)\s+(\d+)$", line)
        if mm and not mm.group(1).startswith("Number"):
            cells[mm.group(1)] = cells.get(mm.group(1), 0) + int(mm.group(2))
    def count(prefixes):
        return sum(v for k, v in cells.items() if any(k.startswith(p) for p in prefixes))
    lut = count(["LUT"])
    ff = count(["FD"])
    bram = cells.get("RAMB36E2", 0) + cells.get("RAMB18E2", 0) / 2
    lutram = count(["RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "SRL"])
    dsp = count(["DSP"])
    muxf = count(["MUXF"])
    carry = count(["CARRY"])
    net = json.load(open(os.path.join(d, "net.json")))
    types = {}
    for mod in net["modules"].values():
        for name, c in mod.get("cells", {}).items():
            types[name] = c["type"]
    text = open(os.path.join(d, "ltp.txt")).read()
    length = re.search(r"\(length=(\d+)\)", text)
    length = int(length.group(1)) if length else 0
    via = re.findall(r"\(via (.+?)\)\s*$", text, re.M)
    path_types = [types.get(v, types.get(v.lstrip("\\"), "?")) for v in via]
    lut_levels = sum(1 for t in path_types if t.startswith("LUT"))
    other = {}
    for t in path_types:
        if not t.startswith("LUT"):
            other[t] = other.get(t, 0) + 1
    other_s = ", ".join(f"{v} {k}" for k, v in sorted(other.items())) or "-"
    worst = max(worst, lut_levels)
    rows.append(f"| {m} | {lut} | {ff} | {bram:g} | {lutram} | {dsp} | {muxf} | {carry} | "
                f"{length} | {lut_levels} ({other_s}) | {secs} |")
with open(out, "w") as f:
    f.write("# Yosys synth_xilinx -family xcup estimate (default parameters)\n\n")
    f.write("| module | LUT | FF | BRAM36 | LUTRAM/SRL | DSP | MUXF | CARRY | path cells | "
            "LUT levels on path (other cells) | seconds |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
    f.write("\n".join(rows) + "\n\n")
    f.write(f"Worst LUT levels: {worst} (target <= 8). Yosys 0.23 maps carry chains to CARRY4 "
            "(Vivado uses CARRY8), so read carry depth loosely.\n")
print(open(out).read())
EOF
