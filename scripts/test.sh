#!/usr/bin/env bash
# Sets up, builds and runs every test: the full suite (unit, scenario, system, RTL, lint),
# then the model's unit, scenario, system and badinput tests again under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build -j"$(nproc)" --output-on-failure
echo "== the installed package: examples/ built against it =="
bash scripts/test-install.sh build
echo "== ASan + UBSan: model unit, scenario, system and badinput tests =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOWSTEER_SANITIZE=ON \
  -DFLOWSTEER_WITH_RTL=OFF -DFLOWSTEER_WITH_BENCH=OFF >/dev/null
cmake --build build-asan -j"$(nproc)" --target flowsteer_unit_tests flowsteer_system_tests flowsteer \
  badinput_gen badinput_run
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j"$(nproc)" -L 'unit|scenario|system|badinput' --output-on-failure \
  -E 'ShapeChecksHoldAtReducedScale|PatchedAddsAboutOnePerFlow|OriginalThrashFallsAsTableGrows'
