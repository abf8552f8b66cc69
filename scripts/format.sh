#!/usr/bin/env bash
# The C++ layout (.clang-format at the top): formats every C++ file of host/, sim/ and
# testbench/ in place, or with --check lists the files that differ and exits 1.
# Usage: scripts/format.sh [--check]
# Exit 2 with one line on any other argument (it would otherwise rewrite the tree).
set -euo pipefail
case "${1:-}" in
  ""|--check) ;;
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  *) echo "format: unknown argument '$1' (usage: scripts/format.sh [--check])" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "format: one argument at most (usage: scripts/format.sh [--check])" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
command -v clang-format >/dev/null || { echo "format: clang-format not found (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t FILES < <(find host sim testbench -name '*.cpp' -o -name '*.h' | sort)
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${FILES[@]}"; do
    if ! clang-format --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then echo "format: $f differs from .clang-format"; bad=1; fi
  done
  [ $bad -eq 0 ] && echo "format: ${#FILES[@]} files follow .clang-format"
  exit $bad
fi
clang-format --style=file -i "${FILES[@]}"
