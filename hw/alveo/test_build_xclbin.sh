#!/usr/bin/env bash
# CTest driver for scripts/build-xclbin.sh without Vitis (hw/alveo/alveo.cmake):
#  1. PATH without Vitis, no XILINX_XRT, no platform: exit 2 and exactly one line per missing
#     piece (v++, vivado, XILINX_XRT, the platform), nothing else;
#  2. stand-in v++ / vivado scripts, XILINX_XRT and a platform directory: --check passes;
#  3. the same without the platform: exit 2 and the one platform line;
#  4. --dry-run with the stand-ins: the vivado, v++ -c (two movers) and v++ -l commands, and a
#     link configuration naming the .xpfm found (u250 and u280).
# usage: test_build_xclbin.sh [case]   (no case: all). Exit 0 pass, 1 fail, 77 skip.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPT="$ROOT/scripts/build-xclbin.sh"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
BASE_PATH="/usr/bin:/bin"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if PATH="$BASE_PATH" command -v v++ >/dev/null 2>&1 || PATH="$BASE_PATH" command -v vivado >/dev/null 2>&1; then
  echo "SKIP: Vitis is installed in $BASE_PATH, the no-Vitis case cannot be staged"
  exit 77
fi

# stand-ins for the Vitis tools and a platform
mkdir -p "$TMP/bin" "$TMP/xrt" "$TMP/pfm/xilinx_u250_gen3x16_xdma_4_1_202210_1" \
  "$TMP/pfm/xilinx_u280_gen3x16_xdma_1_202211_1"
for t in v++ vivado emconfigutil; do
  printf '#!/bin/sh\necho "stand-in %s $*"\n' "$t" > "$TMP/bin/$t"
  chmod +x "$TMP/bin/$t"
done
touch "$TMP/pfm/xilinx_u250_gen3x16_xdma_4_1_202210_1/xilinx_u250_gen3x16_xdma_4_1_202210_1.xpfm" \
  "$TMP/pfm/xilinx_u280_gen3x16_xdma_1_202211_1/xilinx_u280_gen3x16_xdma_1_202211_1.xpfm"

# run_clean ENV...: the script with only the given environment (HOME, PATH and ENV)
run_clean() { env -i HOME="$TMP" "$@" bash "$SCRIPT" --out "$TMP/out" ${ARGS:-}; }

case_no_vitis() {
  local out rc
  out="$(ARGS="--platform u250" run_clean PATH="$BASE_PATH" 2>&1)"; rc=$?
  [ "$rc" -eq 2 ] || fail "no Vitis: exit $rc, want 2"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 4 ] || fail "no Vitis: want 4 lines, got:"$'\n'"$out"
  for what in "missing v++ " "missing vivado " "missing XILINX_XRT " "missing platform xilinx_u250_gen3x16_xdma_4_1_202210_1.xpfm"; do
    [ "$(printf '%s\n' "$out" | grep -c -F "build-xclbin: $what")" -eq 1 ] ||
      fail "no Vitis: want one line with '$what', got:"$'\n'"$out"
  done
  [ ! -e "$TMP/out/gen" ] || fail "no Vitis: the script wrote outputs before its checks"
}

case_check_ok() {
  local out rc
  out="$(ARGS="--platform u250 --check" run_clean PATH="$TMP/bin:$BASE_PATH" XILINX_XRT="$TMP/xrt" \
    PLATFORM_REPO_PATHS="$TMP/nowhere:$TMP/pfm" 2>&1)"; rc=$?
  [ "$rc" -eq 0 ] || fail "--check with stand-ins: exit $rc: $out"
}

case_no_platform() {
  local out rc
  out="$(ARGS="--platform u280" run_clean PATH="$TMP/bin:$BASE_PATH" XILINX_XRT="$TMP/xrt" 2>&1)"; rc=$?
  [ "$rc" -eq 2 ] || fail "no platform: exit $rc, want 2"
  [ "$out" = "build-xclbin: missing platform xilinx_u280_gen3x16_xdma_1_202211_1.xpfm (looked in \$PLATFORM_REPO_PATHS and /opt/xilinx/platforms): install the U280 development platform or pass --platform PATH" ] ||
    fail "no platform: want the one platform line, got:"$'\n'"$out"
  out="$(ARGS="--platform $TMP/u250_none.xpfm" run_clean PATH="$TMP/bin:$BASE_PATH" XILINX_XRT="$TMP/xrt" 2>&1)"; rc=$?
  [ "$rc" -eq 2 ] && [ "$out" = "build-xclbin: missing platform file $TMP/u250_none.xpfm" ] ||
    fail "no platform file: exit $rc, got:"$'\n'"$out"
}

case_dry_run() {
  local board pfm out rc
  if [ ! -f "$ROOT/hw/rtl/fs_engine_top.sv" ]; then
    echo "note: hw/rtl/fs_engine_top.sv not there yet, dry run checks the missing-engine line"
    out="$(ARGS="--platform u250 --dry-run" run_clean PATH="$TMP/bin:$BASE_PATH" XILINX_XRT="$TMP/xrt" \
      PLATFORM_REPO_PATHS="$TMP/pfm" 2>&1)"; rc=$?
    [ "$rc" -eq 2 ] && [ "$out" = "build-xclbin: missing hw/rtl/fs_engine_top.sv (the engine the kernel wraps)" ] ||
      fail "dry run without the engine: exit $rc: $out"
    return
  fi
  for board in u250 u280; do
    case $board in
      u250) pfm=xilinx_u250_gen3x16_xdma_4_1_202210_1 ;;
      u280) pfm=xilinx_u280_gen3x16_xdma_1_202211_1 ;;
    esac
    rm -rf "$TMP/out"
    out="$(ARGS="--platform $board --dry-run --freq 250" run_clean PATH="$TMP/bin:$BASE_PATH" \
      XILINX_XRT="$TMP/xrt" PLATFORM_REPO_PATHS="$TMP/pfm" 2>/dev/null)"; rc=$?
    [ "$rc" -eq 0 ] || { fail "$board dry run: exit $rc"; continue; }
    local viv
    viv="$(printf '%s\n' "$out" | grep "^vivado -mode batch .*package_xo.tcl -tclargs $TMP/out/flowsteer.xo ")"
    for f in hw/alveo/kernel.xml hw/alveo/flowsteer_kernel.sv hw/rtl/fs_engine_top.sv out/gen/flowsteer_regs.vh out/gen/regs.tcl; do
      case "$viv" in *"/$f "*) ;; *) fail "$board dry run: the vivado packaging command lacks $f:"$'\n'"$out" ;; esac
    done
    for k in fs_mm2s fs_s2mm; do
      printf '%s\n' "$out" | grep -q "^v++ -c -t hw --platform $TMP/pfm/$pfm/$pfm.xpfm -k $k .*hw/alveo/$k.cpp" ||
        fail "$board dry run: no v++ -c for $k:"$'\n'"$out"
    done
    printf '%s\n' "$out" | grep -q "^v++ -l -t hw --config $TMP/out/link.cfg .*-o $TMP/out/flowsteer.hw.xclbin $TMP/out/flowsteer.xo $TMP/out/fs_mm2s.xo $TMP/out/fs_s2mm.xo" ||
      fail "$board dry run: no v++ -l:"$'\n'"$out"
    grep -qx "platform=$TMP/pfm/$pfm/$pfm.xpfm" "$TMP/out/link.cfg" || fail "$board link.cfg: platform line"
    grep -qx "kernel_frequency=0:250" "$TMP/out/link.cfg" || fail "$board link.cfg: no kernel_frequency"
    grep -qx "sc=fs_mm2s_1.out:flowsteer_1.s_axis_frames" "$TMP/out/link.cfg" || fail "$board link.cfg: stream"
    grep -qx "slr=flowsteer_1:SLR0" "$TMP/out/link.cfg" || fail "$board link.cfg: slr"
    [ -s "$TMP/out/gen/flowsteer_regs.vh" ] && [ -s "$TMP/out/gen/regs.tcl" ] ||
      fail "$board dry run: register include / list not generated"
  done
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(no_vitis check_ok no_platform dry_run)
for c in "${cases[@]}"; do
  "case_$c"
done
if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "build-xclbin.sh checks: all passed (${cases[*]})"
