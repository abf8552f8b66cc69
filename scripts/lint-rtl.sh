#!/usr/bin/env bash
# Verilator -Wall lint of the engine RTL: the one lint path (the CTest lint tests call it).
# Each module is linted at its defaults and at every parameter set hw/params.json gives it.
# Usage: scripts/lint-rtl.sh [--inc DIR] [--set NAME] [module ...]   (no module: all)
# --inc DIR: directory holding the generated flowsteer_regs.vh (else generated to a temp dir).
# --set NAME: only that parameter set (default: every set of the module).
# Exit 0 when every run is clean, 1 on any warning or error, 2 on bad usage.
# Modules are looked up in hw/rtl, then hw/alveo (the Vitis kernel wrapper), by scripts/rtl-deps.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RTL="$ROOT/hw/rtl"
ALVEO="$ROOT/hw/alveo"
INC=""
ONLY_SET=""
MODS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --inc) INC="${2:?--inc needs a directory}"; shift 2 ;;
    --set) ONLY_SET="${2:?--set needs a name}"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
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
rtl_deps() { python3 "$ROOT/scripts/rtl-deps.py" "$RTL:$ALVEO:$ROOT/testbench/rtl" "$1"; }

rc=0
for m in "${MODS[@]}"; do
  if [ -z "$(rtl_deps "$m")" ]; then
    echo "lint-rtl: no such module $m (looked for $RTL/$m.sv, $ALVEO/*.sv)" >&2
    exit 2
  fi
  if [ -n "$ONLY_SET" ]; then sets="$ONLY_SET"; else sets="$(python3 "$ROOT/scripts/rtl-params.py" "$m" --sets)"; fi
  for set in $sets; do
    params="$(python3 "$ROOT/scripts/rtl-params.py" "$m" "$set")" || exit 2
    # shellcheck disable=SC2046,SC2086  # params and the file list are word lists
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
