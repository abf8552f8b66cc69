#!/usr/bin/env python3
"""The deepest path of a flattened Yosys synth_xilinx netlist, in LUT levels.

usage: lut-levels.py NET.json [--over N [--trace]]     prints one JSON object:
  {"levels": N, "cells": cells on the path, "other": {type: count of non-LUT cells on it},
   "from": start net, "to": end net, "nets": [the path's nets, start first]}
--over N also lists, one line each on stderr, every path end deeper than N LUT levels with
its start (the paths to cut); --over N --trace adds, under each line, the net out of each
cell on that path (where a public name exists), to see which logic the path crosses.

Every path is counted (Yosys `ltp` gives only the path with the most cells, which need not
be the one with the most LUTs). A path starts at an input port or the output of a register,
block RAM, URAM, SRL or DSP and ends at an output port or an input of one of those. A LUT
adds one level, so does a LUTRAM read (address to data); carry, wide-mux and inverter cells
add none (they sit in the slice beside the LUT).
"""
import json
import re
import sys

CUT = ("FD", "RAMB", "URAM", "SRL", "DSP")
LUTRAM = re.compile(r"RAM(16|32|64|128|256)")
LUTRAM_READ = re.compile(r"(A\d*|DPRA\d*|ADDR[A-H])$")


def bit_names(mod):
    """bit -> a readable net name (public names first, then the shortest)."""
    names = {}
    for name, net in mod.get("netnames", {}).items():
        rank = (net.get("hide_name", 0), len(name))
        bits = net["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, str):
                continue
            label = name if len(bits) == 1 else f"{name}[{i}]"
            if b not in names or rank < names[b][0]:
                names[b] = (rank, label)
    return {b: v[1] for b, v in names.items()}


def sink_name(sink, names):
    """An output port, or a register/RAM named by its output net."""
    t, cname, conn, dirs = sink
    if t == "port":
        return f"output {cname}"
    q = [x for p, bits in conn.items() if dirs.get(p) == "output" for x in bits
         if not isinstance(x, str)]
    return f"{t} {names.get(q[0], cname) if q else cname}"


def trace(end, comb, driver, best_in):
    chain, c = [], end
    while c is not None:
        chain.append(c)
        b = best_in[c]
        c = driver.get(b) if b is not None else None
    chain.reverse()
    return chain


def main(path, over=None, show=False):
    try:
        net = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"lut-levels: cannot read netlist {path}: {e}", file=sys.stderr)
        return 2
    mods = net["modules"]
    top = next((n for n, m in mods.items() if m.get("attributes", {}).get("top")), None)
    if top is None:
        top = max(mods, key=lambda n: len(mods[n].get("cells", {})))
    mod = mods[top]
    names = bit_names(mod)

    comb = {}       # cell -> (type, weight, comb input bits, output bits)
    driver = {}     # bit -> comb cell driving it
    sinks = {}      # bit -> a cut cell or output port it reaches
    for cname, c in mod.get("cells", {}).items():
        t = c["type"]
        dirs = c.get("port_directions", {})
        conn = c["connections"]
        cut = t.startswith(CUT) or not dirs
        if cut:
            for p, bits in conn.items():
                if dirs.get(p, "input") == "input":
                    for b in bits:
                        if not isinstance(b, str):
                            sinks.setdefault(b, (t, cname, conn, dirs))
            continue
        lutram = bool(LUTRAM.match(t))
        ins, outs = [], []
        for p, bits in conn.items():
            bits = [b for b in bits if not isinstance(b, str)]
            if dirs.get(p) == "output":
                outs += bits
            elif not lutram or LUTRAM_READ.match(p):
                ins += bits
            else:  # LUTRAM write side: a register input
                for b in bits:
                    sinks.setdefault(b, (t, cname, conn, dirs))
        weight = 1 if (t.startswith("LUT") or lutram) else 0
        comb[cname] = (t, weight, ins, outs)
        for b in outs:
            driver[b] = cname
    for pname, port in mod.get("ports", {}).items():
        if port["direction"] == "output":
            for b in port["bits"]:
                if not isinstance(b, str):
                    sinks.setdefault(b, ("port", pname, None, None))

    # longest path by memoised depth-first search (iterative: deep netlists)
    depth, best_in = {}, {}
    for start in comb:
        if start in depth:
            continue
        stack = [(start, False)]
        while stack:
            c, done = stack.pop()
            if c in depth:
                continue
            _, w, ins, _ = comb[c]
            preds = [driver[b] for b in ins if b in driver]
            if not done:
                stack.append((c, True))
                stack += [(p, False) for p in preds if p not in depth]
                continue
            d, arg = 0, (ins[0] if ins else None)
            for b in ins:
                db = depth.get(driver[b], 0) if b in driver else 0
                if db > d:
                    d, arg = db, b
            depth[c] = d + w
            best_in[c] = arg

    if not depth:
        print(json.dumps({"levels": 0, "cells": 0, "other": {}, "from": "-", "to": "-",
                          "nets": []}))
        return 0
    if over is not None:
        for c in sorted(depth, key=lambda c: -depth[c]):
            if depth[c] <= over or not any(b in sinks for b in comb[c][3]):
                continue
            chain = trace(c, comb, driver, best_in)
            start = names.get(best_in[chain[0]], "?")
            ends = [sink_name(sinks[b], names) for b in comb[c][3] if b in sinks]
            print(f"{depth[c]} {start} -> {' '.join(ends)}", file=sys.stderr)
            if show:
                for x in chain:
                    t = comb[x][0]
                    print(f"    {t:8} {names.get(comb[x][3][0], '?') if comb[x][3] else '-'}",
                          file=sys.stderr)
    end = max(depth, key=lambda c: (depth[c], c))
    chain = trace(end, comb, driver, best_in)
    other = {}
    for c in chain:
        t = comb[c][0]
        if not (t.startswith("LUT") or LUTRAM.match(t)):
            other[t] = other.get(t, 0) + 1
    start_bit = best_in[chain[0]]
    nets = [names.get(start_bit, "?")] + [names.get(comb[c][3][0], "?") for c in chain]
    # the end: a register (named by its output net) or port the last cell feeds
    to = nets[-1]
    for b in comb[end][3]:
        if b in sinks:
            to = sink_name(sinks[b], names)
            break
    print(json.dumps({"levels": depth[end], "cells": len(chain), "other": other,
                      "from": nets[0], "to": to, "nets": nets}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) in (4, 5) and sys.argv[2] == "--over" and sys.argv[4:] in ([], ["--trace"]):
        try:
            over = int(sys.argv[3])
        except ValueError:
            print(f"lut-levels: --over needs a number, not '{sys.argv[3]}'", file=sys.stderr)
            sys.exit(2)
        sys.exit(main(sys.argv[1], over, len(sys.argv) == 5))
    if len(sys.argv) != 2:
        print("lut-levels: " + __doc__.strip().splitlines()[2].split("  ")[0], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
