#!/usr/bin/env python3
"""Print the file of an RTL module and of every fs_* module it instantiates (recursively),
so a half-edited unrelated file never breaks that module's lint or synthesis run.

usage: rtl-deps.py RTL_DIR MODULE
"""
import os
import re
import sys


def deps(rtl, top):
    seen, todo = [], [top]
    while todo:
        m = todo.pop()
        f = os.path.join(rtl, m + ".sv")
        if m in seen or not os.path.exists(f):
            continue
        seen.append(m)
        with open(f, encoding="utf-8") as fh:
            text = re.sub(r"//[^\n]*", "", fh.read())
        for d in re.findall(r"^\s*(fs_\w+)\s*(?:#\s*\(|\w+\s*\()", text, re.M):
            if d != m:
                todo.append(d)
    return [os.path.join(rtl, m + ".sv") for m in seen]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(" ".join(deps(sys.argv[1], sys.argv[2])))
