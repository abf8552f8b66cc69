#!/usr/bin/env python3
"""Checks that every #include in the C++ tree points down (or sideways within a folder).

The floors, bottom first (one static library per floor in CMake):
  lib     host/{bus,hash,nic,kernel,engine,driver,xrt,device}: the model, driver, backends
  system  host/src/system: the system simulator
  runs    host/src/runs: experiment, scenario, replay, device runs
  common  sim/common: code the simulation benches share
  benches sim/verilator, sim/systemc
  cli     host/src/cli
  tests   testbench/
Inside `lib` the plane folders are ordered too (a driver may use the engine, not the
reverse). A file may include files of its own folder and of lower floors; a folder of the
same floor (sim/verilator and sim/systemc) is not below it. Generated headers (the register
map, Verilated models) and system headers are not checked.

Usage: check-layers.py [ROOT] [--graph]   exit 1 on an upward include, listing each.
       check-layers.py --self-test          the check itself must catch a planted upward include
"""
import os
import re
import sys

# (path prefix, floor, folder label); the longest matching prefix wins
FLOORS = [
    ("host/include/flowsteer/tuple.h", 0, "tuple"),
    ("host/src/tuple.cpp", 0, "tuple"),
    ("host/include/flowsteer/quote.h", 0, "tuple"),
    ("host/src/quote.cpp", 0, "tuple"),
    ("host/include/flowsteer/bus/", 0, "bus"),
    ("host/src/bus/", 0, "bus"),
    ("host/include/flowsteer/hash/", 1, "hash"),
    ("host/src/hash/", 1, "hash"),
    ("host/include/flowsteer/nic/", 2, "nic"),
    ("host/src/nic/", 2, "nic"),
    ("host/include/flowsteer/kernel/", 3, "kernel"),
    ("host/src/kernel/", 3, "kernel"),
    ("host/include/flowsteer/engine/", 4, "engine"),
    ("host/src/engine/", 4, "engine"),
    ("host/include/flowsteer/driver/", 5, "driver"),
    ("host/src/driver/", 5, "driver"),
    ("host/include/flowsteer/xrt/", 6, "xrt"),
    ("host/src/xrt/", 6, "xrt"),
    ("host/include/flowsteer/device/", 7, "device"),
    ("host/src/device/", 7, "device"),
    ("host/include/flowsteer/system/", 8, "system"),
    ("host/src/system/", 8, "system"),
    ("host/include/flowsteer/runs/", 9, "runs"),
    ("host/src/runs/", 9, "runs"),
    ("sim/common/", 10, "sim/common"),
    ("sim/verilator/", 11, "sim/verilator"),
    ("sim/systemc/", 11, "sim/systemc"),
    ("host/src/cli/", 12, "cli"),
    ("testbench/", 13, "testbench"),
]
SOURCES = (".h", ".hpp", ".cpp", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# include roots a quoted name may be relative to, besides the including file's folder
ROOTS = ["host/include"]


def floor_of(rel):
    best = None
    for prefix, floor, label in FLOORS:
        if rel.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, floor, label)
    return best


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 and not argv[1].startswith("-") else ".")
    graph = "--graph" in argv
    files = []
    for top in ("host", "sim", "testbench"):
        for d, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(SOURCES)]
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)

    def resolve(src, name):
        local = os.path.normpath(os.path.join(os.path.dirname(src), name))
        if local in by_name.get(os.path.basename(name), []):
            return local
        for r in ROOTS:
            cand = os.path.normpath(os.path.join(r, name))
            if cand in by_name.get(os.path.basename(name), []):
                return cand
        hits = [f for f in by_name.get(os.path.basename(name), []) if f.endswith("/" + name) or f == name]
        return hits[0] if len(hits) == 1 else None

    bad, edges, unplaced = [], set(), []
    for src in sorted(files):
        s_floor = floor_of(src)
        if s_floor is None:
            unplaced.append(src)
            continue
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            dst = resolve(src, m.group(1))
            if dst is None:  # generated (register map, Verilated model) or a system header
                continue
            d_floor = floor_of(dst)
            if d_floor is None:
                unplaced.append(dst)
                continue
            edges.add((s_floor[2], d_floor[2]))
            same_folder = s_floor[2] == d_floor[2]
            if not same_folder and d_floor[1] >= s_floor[1]:
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{src}:{line}: {s_floor[2]} (floor {s_floor[1]}) includes {dst} "
                           f"({d_floor[2]}, floor {d_floor[1]})")
    if graph:
        for a, b in sorted(edges):
            if a != b:
                print(f"{a} -> {b}")
    for u in sorted(set(unplaced)):
        bad.append(f"{u}: not in any floor (add it to FLOORS in scripts/check-layers.py)")
    for b in bad:
        print(b)
    if bad:
        print(f"check-layers: {len(bad)} include(s) point up or sideways", file=sys.stderr)
        return 1
    print(f"check-layers: {len(files)} files, {len([e for e in edges if e[0] != e[1]])} folder arrows, all pointing down")
    return 0


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        def put(rel, text):
            os.makedirs(os.path.join(t, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(t, rel), "w") as fh:
                fh.write(text)
        put("host/include/flowsteer/kernel/kernel.h", '#include "flowsteer/hash/hash.h"\n')
        put("host/include/flowsteer/hash/hash.h", "\n")
        put("host/include/flowsteer/runs/replay.h", '#include "flowsteer/kernel/kernel.h"\n')
        put("sim/verilator/engine_sim.h", '#include "flowsteer/runs/replay.h"\n')
        if main(["", t]) != 0:
            print("self-test: a tree whose arrows all point down was refused", file=sys.stderr)
            return 1
        put("host/src/kernel/kernel.cpp", '#include "flowsteer/runs/replay.h"\n')   # up
        put("sim/systemc/sc.cpp", '#include "engine_sim.h"\n')                      # sideways
        if main(["", t]) != 1:
            print("self-test: an upward include was not caught", file=sys.stderr)
            return 1
    print("check-layers self-test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if "--self-test" in sys.argv else main(sys.argv))
