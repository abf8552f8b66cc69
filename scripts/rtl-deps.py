#!/usr/bin/env python3
"""Print the file of an RTL module and of every fs_* module it instantiates (recursively),
so a half-edited unrelated file never breaks that module's lint or synthesis run.

A module is found in RTL_DIR/<module>.sv; failing that, in the .sv file of a search directory
that declares it (e.g. the Vitis kernel "flowsteer" in hw/alveo/flowsteer_kernel.sv).
RTL_DIR may be a ':'-separated list of directories, searched in order.
Prints nothing when the top module is not found.

usage: rtl-deps.py RTL_DIR[:DIR...] MODULE
"""
import os
import re
import sys


def find_module(dirs, m):
    for d in dirs:
        f = os.path.join(d, m + ".sv")
        if os.path.exists(f):
            return f
    decl = re.compile(r"^\s*module\s+" + re.escape(m) + r"\b", re.M)
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            f = os.path.join(d, name)
            if name.endswith(".sv") and os.path.isfile(f):
                with open(f, encoding="utf-8") as fh:
                    if decl.search(re.sub(r"//[^\n]*", "", fh.read())):
                        return f
    return None


def deps(dirs, top):
    seen, files, todo = [], [], [top]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        f = find_module(dirs, m)
        if f is None:
            continue
        seen.append(m)
        files.append(f)
        with open(f, encoding="utf-8") as fh:
            text = re.sub(r"//[^\n]*", "", fh.read())
        for d in re.findall(r"^\s*(fs_\w+)\s*(?:#\s*\(|\w+\s*\()", text, re.M):
            if d != m:
                todo.append(d)
    return files


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(" ".join(deps([d for d in sys.argv[1].split(":") if d], sys.argv[2])))
