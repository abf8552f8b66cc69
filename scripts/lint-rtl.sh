#!/usr/bin/env bash
# Verilator -Wall lint of the engine RTL, each module at its default and at its minimum
# parameters. Usage: scripts/lint-rtl.sh [--inc DIR] [module ...]   (no module: all)
# --inc DIR: directory holding the generated flowsteer_regs.vh (else generated to a temp dir).
# Exit 0 when every run is clean, 1 on any warning or error, 2 on bad usage.
# Modules are looked up in hw/rtl, then hw/alveo (the Vitis kernel wrapper), by scripts/rtl-deps.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RTL="$ROOT/hw/rtl"
ALVEO="$ROOT/hw/alveo"
INC=""
MODS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --inc) INC="${2:?--inc needs a directory}"; shift 2 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    -*) echo "lint-rtl: unknown option $1" >&2; exit 2 ;;
    *) MODS+=("$1"); shift ;;
  esac
done
command -v verilator >/dev/null || { echo "lint-rtl: verilator not found" >&2; exit 2; }
if [ -z "$INC" ]; then
  INC="$(mktemp -d)"
  trap 'rm -rf "$INC"' EXIT
  python3 "$ROOT/scripts/gen_regs.py" "$ROOT/hw/regs/flowsteer_regs.json" --vh "$INC/flowsteer_regs.vh"
fi
if [ ${#MODS[@]} -eq 0 ]; then
  for f in "$RTL"/fs_*.sv; do MODS+=("$(basename "$f" .sv)"); done
  # the Vitis kernel wrapper(s): module names need not match their file names
  for f in "$ALVEO"/*.sv; do
    [ -f "$f" ] || continue
    while read -r m; do MODS+=("$m"); done < <(sed -n 's/^module \([A-Za-z_][A-Za-z_0-9]*\).*/\1/p' "$f")
  done
fi

# rtl_deps MODULE: the file of MODULE and of every fs_* module it instantiates (recursively).
rtl_deps() { python3 "$ROOT/scripts/rtl-deps.py" "$RTL:$ALVEO" "$1"; }

# minimum parameter set of each module (the defaults are the other run)
min_params() {
  case "$1" in
    fs_hash) echo "-GUSER_WIDTH=1" ;;
    fs_parser) echo "-GDATA_WIDTH=64 -GUSER_WIDTH=1" ;;
    fs_skid) echo "-GWIDTH=1" ;;
    fs_ram_sdp) echo "-GDATA_WIDTH=1 -GADDR_WIDTH=1" ;;
    fs_filter_table) echo "-GBUCKET_BITS=1 -GWAYS=1 -GID_WIDTH=1 -GQUEUE_WIDTH=1 -GUSER_WIDTH=1" ;;
    fs_rss_lut) echo "-GLUT_LOG2=1 -GQUEUE_WIDTH=1 -GUSER_WIDTH=1" ;;
    fs_axil_regs) echo "-GLUT_LOG2=1 -GQUEUE_WIDTH=1 -GID_WIDTH=1 -GCPU_LOG2=1" ;;
    fs_nic_plane) echo "-GDATA_WIDTH=64 -GUSER_WIDTH=1 -GLUT_LOG2=1 -GQUEUE_WIDTH=1 -GFLT_BUCKET_BITS=1 -GFLT_WAYS=1 -GFLT_ID_WIDTH=1 -GCPU_LOG2=1" ;;
    fs_rfs_core) echo "-GNUM_CPUS=1 -GNUM_QUEUES=1 -GSLOT_LOG2_MAX=1 -GSOCK_LOG2_MAX=1 -GRPS_POOL_LOG2=1 -GTAG_WIDTH=1" ;;
    fs_steer_driver) echo "-GID_WIDTH=1 -GQUEUE_WIDTH=1 -GEVT_DEPTH_LOG2=1 -GTAG_WIDTH=1" ;;
    fs_event_fifo) echo "-GDATA_WIDTH=1 -GDEPTH_LOG2=1" ;;
    fs_flt_forward) echo "-GKEY_W=1 -GID_WIDTH=1 -GQUEUE_WIDTH=1 -GLOG_LOG2=2 -GCORE_DEPTH=1" ;;
    # the Vitis kernel: one reset stage, the engine at the small test set (test_flowsteer_kernel)
    flowsteer) echo "-GRST_STAGES=1 -GDATA_WIDTH=64 -GCPU_LOG2=3 -GQUEUE_LOG2=3 -GSLOT_LOG2=6 -GSOCK_LOG2=8 -GLUT_LOG2=5 -GRPS_POOL_LOG2=6 -GFLT_BUCKET_BITS=3 -GFLT_WAYS=2 -GEVT_LOG2=2 -GTAG_LOG2=5" ;;
    *) echo "" ;;
  esac
}

rc=0
for m in "${MODS[@]}"; do
  if [ -z "$(rtl_deps "$m")" ]; then
    echo "lint-rtl: no such module $m (looked for $RTL/$m.sv, $ALVEO/*.sv)" >&2
    exit 2
  fi
  for set in default minimum; do
    params=""
    [ "$set" = minimum ] && params="$(min_params "$m")"
    # shellcheck disable=SC2086
    if out=$(verilator --lint-only -Wall -I"$INC" --top-module "$m" $params $(rtl_deps "$m") 2>&1); then
      echo "lint $m ($set${params:+: $params}): clean"
    else
      echo "lint $m ($set${params:+: $params}): FAILED"
      echo "$out"
      rc=1
    fi
  done
done
exit $rc
