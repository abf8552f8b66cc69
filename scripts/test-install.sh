#!/usr/bin/env bash
# The installed package as a user sees it: installs BUILD (default build/) into a temporary
# prefix, configures examples/ on its own against it, builds and runs the example and checks
# what it prints (a model run with filters, each one the engine's table also holds).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
cmake -S examples -B "$tmp/ex" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
"$tmp/ex/arfs_filters" >"$tmp/out.txt"
cat "$tmp/out.txt"
fail() { echo "test-install: $*" >&2; exit 1; }
head -1 "$tmp/out.txt" | grep -Eq '^model backend: [1-9][0-9]* frames, [1-9][0-9]* filters added' ||
  fail "the first line is not a model run that added filters"
held="$(head -1 "$tmp/out.txt" | sed -E 's/.* ([0-9]+) held$/\1/')"
[ "$held" -gt 0 ] || fail "no filter held"
[ "$(grep -c '^filter [0-9]*: .* -> queue [0-9]* (engine: same)$' "$tmp/out.txt")" -eq "$held" ] ||
  fail "not one 'engine: same' line per held filter"
! grep -q DIFFERENT "$tmp/out.txt" || fail "a filter differs from the engine's table"
"$tmp/ex/arfs_filters" /nonexistent.xclbin 2>"$tmp/err.txt" && fail "a missing xclbin did not fail"
[ "$(wc -l <"$tmp/err.txt")" -eq 1 ] || fail "a missing xclbin is not one line"
echo "test-install: the installed package builds and runs examples/arfs_filters"
