#!/usr/bin/env bash
# Build the flowsteer xclbin for an Alveo card: package the RTL kernel (hw/alveo/package_xo.tcl),
# compile the HLS data movers (hw/alveo/fs_mm2s.cpp, fs_s2mm.cpp), link (hw/alveo/u250.cfg or
# u280.cfg). Needs Vitis (v++, vivado), XRT (XILINX_XRT) and the card's development platform.
#
# usage: scripts/build-xclbin.sh [--platform u250|u280|PATH] [--target hw|hw_emu] [--out DIR]
#                                [--freq MHZ] [--part PART] [--jobs N] [--check] [--dry-run]
#   --platform  u250 (default): xilinx_u250_gen3x16_xdma_4_1_202210_1; u280:
#               xilinx_u280_gen3x16_xdma_1_202211_1; or a platform name or .xpfm path (its
#               name must contain u250 or u280, which picks the link configuration)
#   --target    hw (default) or hw_emu          --out DIR   output directory (build-xclbin)
#   --freq MHZ  kernel clock (default: the platform's clock 0)   --part PART  FPGA part override
#   --jobs N    parallel Vivado jobs (default 8) --check  only check the tools, exit 0 if present
#   --dry-run   check, then print the commands instead of running them
# Exit 0 on success, 1 when a step fails, 2 when something needed is missing (one line each)
# or on bad usage.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ALVEO="$ROOT/hw/alveo"
ME="build-xclbin"

usage() { sed -n '6,17p' "$0" | sed 's/^# \{0,1\}//'; }
die_usage() { echo "$ME: $1" >&2; echo "usage: scripts/build-xclbin.sh [--platform u250|u280|PATH] [--target hw|hw_emu] [--out DIR] (--help)" >&2; exit 2; }

PLATFORM="u250" TARGET="hw" OUT="build-xclbin" FREQ="" PART="" JOBS=8 CHECK=0 DRY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --platform) PLATFORM="${2:-}"; [ -n "$PLATFORM" ] || die_usage "--platform needs a value"; shift 2 ;;
    --target) TARGET="${2:-}"; shift 2 || die_usage "--target needs a value" ;;
    --out) OUT="${2:-}"; [ -n "$OUT" ] || die_usage "--out needs a directory"; shift 2 ;;
    --freq) FREQ="${2:-}"; shift 2 || die_usage "--freq needs a value" ;;
    --part) PART="${2:-}"; shift 2 || die_usage "--part needs a value" ;;
    --jobs) JOBS="${2:-}"; shift 2 || die_usage "--jobs needs a value" ;;
    --check) CHECK=1; shift ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
case "$TARGET" in hw|hw_emu) ;; *) die_usage "--target must be hw or hw_emu, not '$TARGET'" ;; esac
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die_usage "--jobs must be a positive number"
[ -z "$FREQ" ] || [[ "$FREQ" =~ ^[1-9][0-9]*$ ]] || die_usage "--freq must be a whole number of MHz"

# ---------------------------------------------------------------- platform -> board, xpfm, part
case "$PLATFORM" in
  u250) PFM_NAME="xilinx_u250_gen3x16_xdma_4_1_202210_1" ;;
  u280) PFM_NAME="xilinx_u280_gen3x16_xdma_1_202211_1" ;;
  *.xpfm) PFM_NAME="$(basename "$PLATFORM" .xpfm)" ;;
  *) PFM_NAME="$(basename "$PLATFORM")" ;;
esac
case "$PFM_NAME" in
  *u250*) BOARD=u250; DEFAULT_PART="xcu250-figd2104-2L-e" ;;
  *u280*) BOARD=u280; DEFAULT_PART="xcu280-fsvh2892-2L-e" ;;
  *) die_usage "cannot tell whether platform '$PLATFORM' is a U250 or a U280 (its name must contain u250 or u280)" ;;
esac
PART="${PART:-$DEFAULT_PART}"
CFG="$ALVEO/$BOARD.cfg"

# find_xpfm: the .xpfm of PLATFORM (a path, a directory, or a name under PLATFORM_REPO_PATHS
# and the default install location /opt/xilinx/platforms)
find_xpfm() {
  if [[ "$PLATFORM" == *.xpfm ]]; then
    [ -f "$PLATFORM" ] && { echo "$PLATFORM"; return 0; }
    return 1
  fi
  if [ -d "$PLATFORM" ] && [ -f "$PLATFORM/$PFM_NAME.xpfm" ]; then echo "$PLATFORM/$PFM_NAME.xpfm"; return 0; fi
  local dirs d
  IFS=: read -r -a dirs <<< "${PLATFORM_REPO_PATHS:-}"
  dirs+=("/opt/xilinx/platforms")
  for d in "${dirs[@]}"; do
    [ -n "$d" ] || continue
    for f in "$d/$PFM_NAME/$PFM_NAME.xpfm" "$d/$PFM_NAME.xpfm"; do
      [ -f "$f" ] && { echo "$f"; return 0; }
    done
  done
  return 1
}

# ---------------------------------------------------------------- what is missing (one line each)
missing=0
miss() { echo "$ME: missing $1" >&2; missing=$((missing + 1)); }
command -v v++ >/dev/null 2>&1 ||
  miss "v++ (the Vitis compiler) on PATH: install Vitis and source <Vitis>/settings64.sh"
command -v vivado >/dev/null 2>&1 ||
  miss "vivado (packages the RTL kernel; ships with Vitis) on PATH: source <Vitis>/settings64.sh"
if [ -z "${XILINX_XRT:-}" ]; then
  miss "XILINX_XRT (the XRT install): source /opt/xilinx/xrt/setup.sh"
elif [ ! -d "$XILINX_XRT" ]; then
  miss "XILINX_XRT directory '$XILINX_XRT': install XRT and source /opt/xilinx/xrt/setup.sh"
fi
XPFM="$(find_xpfm || true)"
if [ -z "$XPFM" ]; then
  if [[ "$PLATFORM" == *.xpfm ]]; then
    miss "platform file $PLATFORM"
  else
    miss "platform $PFM_NAME.xpfm (looked in \$PLATFORM_REPO_PATHS and /opt/xilinx/platforms): install the ${BOARD^^} development platform or pass --platform PATH"
  fi
fi
command -v python3 >/dev/null 2>&1 || miss "python3 (generates the register include and list) on PATH"
[ "$missing" -eq 0 ] || exit 2
if [ "$CHECK" -eq 1 ]; then
  echo "$ME: v++, vivado, XILINX_XRT=$XILINX_XRT and $XPFM are present"
  exit 0
fi

# ---------------------------------------------------------------- sources
RTL_FILES="$(python3 "$ROOT/scripts/rtl-deps.py" "$ROOT/hw/rtl:$ALVEO" flowsteer)"
case " $RTL_FILES " in
  *"/fs_engine_top.sv "*) ;;
  *) echo "$ME: missing hw/rtl/fs_engine_top.sv (the engine the kernel wraps)" >&2; exit 2 ;;
esac

run() {
  if [ "$DRY" -eq 1 ]; then printf '%q ' "$@"; echo; else "$@"; fi
}
step() { echo "$ME: $*" >&2; }

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
GEN="$OUT/gen"
mkdir -p "$GEN"
XCLBIN="$OUT/flowsteer.$TARGET.xclbin"

step "register map -> $GEN/flowsteer_regs.vh, $GEN/regs.tcl, $GEN/fs_layouts.h"
python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$GEN/flowsteer_regs.vh" \
  --tcl "$GEN/regs.tcl" --layouts-h "$GEN/fs_layouts.h"

# link configuration: the board's cfg with the platform line naming the .xpfm found above
{
  echo "# generated by scripts/build-xclbin.sh from $CFG"
  sed "s|^platform=.*|platform=$XPFM|" "$CFG"
  if [ -n "$FREQ" ]; then echo; echo "kernel_frequency=0:$FREQ"; fi
} > "$OUT/link.cfg"

step "package the RTL kernel -> $OUT/flowsteer.xo (vivado, part $PART)"
# shellcheck disable=SC2086
run vivado -mode batch -nojournal -log "$OUT/package_xo.log" -source "$ALVEO/package_xo.tcl" \
  -tclargs "$OUT/flowsteer.xo" "$OUT/pkg" "$PART" "$ALVEO/kernel.xml" "$GEN/regs.tcl" \
  $RTL_FILES "$GEN/flowsteer_regs.vh"

for k in fs_mm2s fs_s2mm; do
  step "compile the data mover $k -> $OUT/$k.xo"
  run v++ -c -t "$TARGET" --platform "$XPFM" -k "$k" --temp_dir "$OUT/_x.$k" --log_dir "$OUT/logs" \
    -I "$GEN" -o "$OUT/$k.xo" "$ALVEO/$k.cpp"
done

step "link -> $XCLBIN ($TARGET, $(basename "$XPFM" .xpfm))"
run v++ -l -t "$TARGET" --config "$OUT/link.cfg" --temp_dir "$OUT/_x.link" --log_dir "$OUT/logs" \
  --report_dir "$OUT/reports" --vivado.synth.jobs "$JOBS" --vivado.impl.jobs "$JOBS" \
  -o "$XCLBIN" "$OUT/flowsteer.xo" "$OUT/fs_mm2s.xo" "$OUT/fs_s2mm.xo"

if [ "$TARGET" = hw_emu ]; then
  step "emulation configuration -> $OUT/emconfig.json"
  run emconfigutil --platform "$XPFM" --od "$OUT"
fi
if [ "$DRY" -eq 0 ]; then
  step "done: $XCLBIN"
  step "load and run: flowsteer device --backend xrt --xclbin $XCLBIN"
fi
