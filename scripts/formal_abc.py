#!/usr/bin/env python3
"""ABC's engines on a job's AIGER model (scripts/formal.sh, solvers abc-bmc and abc-pdr).

formal.sh writes, per job, the model as Yosys left it after the job's flow (MODEL.il), its
AIGER form with the assertions as bad states and the assumptions as constraints (MODEL.aig,
latch and input names in MODEL.aim), and the covers, each made an assertion that it is never
hit, in MODEL_cover.aig with their names in write order in MODEL_cover.lst.

  formal_abc.py prove MODEL DEPTH [--pdr SECONDS] [--vcd FILE]
      with --pdr, property-directed reachability first: "proved" when it closes within the
      time; else (or on its counterexample) a bounded check of DEPTH steps (0 .. DEPTH-1, as
      yosys-smtbmc -t DEPTH): "bounded DEPTH", or "failed STEP NAME..." with the trace
      replayed by Yosys's simulator into a VCD, which names the assertions that fail; each
      step is printed as bmc3 finishes it ("bmc3: step N done").
  formal_abc.py cover MODEL DEPTH [--vcd DIR]
      every cover searched in steps 0 .. DEPTH (bmc3, one run per cover found), printed as
      formal-cover.py prints them: "reached NAME in step N" or "unreached NAME"; with --vcd,
      each cover's trace replayed into DIR/cover_NAME.vcd (from MODEL_cover.il and its maps).

Why: z3 bit-blasts each unrolled step of the engine top again and again (16 GB by step 49);
ABC's bmc3 keeps one incremental SAT instance on the AIG and its pdr needs no invariant
written by hand. The constraints are folded into the properties (fold), as SymbiYosys does.
Exit 0 when nothing failed and every cover was reached, 1 otherwise, 2 on bad usage.
"""
import functools
import json
import os
import re
import subprocess
import sys
import time

_ASSERTED = re.compile(r"Output (\d+) (?:of miter \"[^\"]*\" )?was asserted in frame +(\d+)")
_SIM_FAIL = re.compile(r"Assert (\S+) .*failed")
_FRAME = re.compile(r"^\s*(\d+) \+ :.*?([\d.]+) sec\s*$")
# bmc3 on Glucose 3.0 (-g), not its default MiniSat: on the deep rfs_core model MiniSat had not
# finished step 19 in 9 min, Glucose finished it in 212 s and all 25 steps in 27 min (hw/README.md)
BMC3 = "bmc3 -g"


def abc(script, progress=False):
    """Runs yosys-abc; its standard output (it reports everything there). With progress, each
    step bmc3 -v finishes is printed as it comes (a deep check runs for many minutes)."""
    # one pipe for both streams: a second, unread one could fill and stall ABC
    p = subprocess.Popen(["yosys-abc", "-c", script], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out = []
    for line in p.stdout:
        out.append(line)
        m = _FRAME.match(line) if progress else None
        if m:
            print(f"bmc3: step {m.group(1)} done ({float(m.group(2)):.0f} s)", flush=True)
    out = "".join(out)
    if p.wait() != 0:
        raise RuntimeError(f"yosys-abc failed ({p.returncode}): {out.strip()[-400:]}")
    return out


def x_bits(vcd, aim):
    """The model's state and input bits (the map's latch, input and init lines) that the
    replay's VCD ever gives an X or Z. Other wires may be X: logic the properties do not
    read, which the AIG left out."""
    ident, width, values = {}, {}, {}
    with open(vcd) as f:
        for line in f:
            if line.startswith("$var"):
                p = line.split()
                ident.setdefault(p[4], p[3])
                width[p[3]] = int(p[2])
            elif line[:1] in "bB" and " " in line:
                bits, i = line[1:].split()
                values.setdefault(i, []).append(bits.rjust(width[i], bits[0] if bits[0] in "xXzZ" else "0"))
            elif line[:1] in "01xXzZ" and len(line.strip()) > 1:
                values.setdefault(line[1:].strip(), []).append(line[0])
    bad = []
    with open(aim) as f:
        for line in f:
            p = line.split()
            if len(p) < 4 or p[0] not in ("latch", "invlatch", "input", "init") or p[3] not in ident:
                continue
            i, bit = ident[p[3]], int(p[2])
            if any(v[width[i] - 1 - bit] in "xXzZ" for v in values.get(i, [])):
                bad.append(f"{p[3]}[{bit}]")
    return sorted(set(bad))


@functools.lru_cache(maxsize=None)
def replay_map(model):
    """The port map (MODEL.aim) plus the inputs write_aiger made of the cut points' $anyseq
    cells, which it names only in the witness map (MODEL.ywm, "seqs"): as "input" lines, so
    the simulator gives each cut net the solver's value. Returns the map's file name; written
    once per model (cover replays each trace on the same model)."""
    aim = f"{model}.aim"
    if not os.path.exists(f"{model}.ywm"):
        return aim
    with open(f"{model}.ywm") as f:
        seqs = json.load(f).get("seqs", [])
    lines = []
    for q in seqs:
        # the flattened net's name, split at its hierarchy (hdlname); a private $-name cannot
        # be named in the map
        path = q.get("path", [])
        if path and all(p.startswith("\\") for p in path):
            lines.append(f"input {q['input']} {q['offset']} {'.'.join(p[1:] for p in path)}\n")
    if not lines:
        return aim
    out = f"{model}_replay.aim"
    with open(aim) as f, open(out, "w") as g:
        g.write(f.read())
        g.writelines(lines)
    return out


def replay(model, cex, vcd):
    """The assertions a counterexample violates, by Yosys's simulator on the model (a VCD).
    Every input must be named in the map (replay_map): an unnamed one replays as X, and an
    assertion read through an X is not the solver's counterexample, so that is said."""
    aim = replay_map(model)
    r = subprocess.run(["yosys", "-q", "-p", f"read_rtlil {model}.il; sim -clock clk -r {cex} "
                        f"-map {aim} -vcd {vcd}"], capture_output=True, text=True)
    names = []
    for line in (r.stdout + r.stderr).splitlines():
        m = _SIM_FAIL.search(line)
        if m and m.group(1) not in names:
            names.append(m.group(1))
    xs = x_bits(vcd, aim) if os.path.exists(vcd) else []
    if xs:
        print(f"formal_abc: the replay is not the counterexample: {len(xs)} state or input "
              f"bits X (first {', '.join(xs[:4])}): an input neither map names", flush=True)
    return names


def prove(model, depth, pdr_seconds, vcd):
    t0 = time.time()
    aig = f"{model}.aig"
    cex = f"{model}.aiw"
    if pdr_seconds > 0:
        out = abc(f"read_aiger {aig}; fold; pdr -T {pdr_seconds}")
        if "Property proved" in out:
            print(f"proved ({time.time() - t0:.0f} s)")
            return 0
        if _ASSERTED.search(out):
            print("pdr: counterexample; the bounded check names it", flush=True)
        else:
            print(f"pdr: open after {pdr_seconds} s", flush=True)
    if os.path.exists(cex):
        os.remove(cex)
    out = abc(f"read_aiger {aig}; fold; {BMC3} -F {depth} -v; write_cex -a {cex}", progress=True)
    m = _ASSERTED.search(out)
    if m:
        step = int(m.group(2))
        names = replay(model, cex, vcd) if os.path.exists(cex) else []
        print(f"failed {step} {' '.join(names) or '?'}")
        return 1
    if f"No output asserted in {depth} frames" not in out:
        print(f"formal_abc: bmc3 said neither pass nor fail:\n{out[-600:]}", file=sys.stderr)
        return 2
    print(f"bounded {depth} ({time.time() - t0:.0f} s)")
    return 0


def cover(model, depth, vcd_dir=None):
    t0 = time.time()
    with open(f"{model}_cover.lst") as f:
        # select -list prints module/cell in the order write_aiger writes the cells
        names = [line.strip().split("/", 1)[-1] for line in f if line.strip()]
    # One search per cover found, each from the step of the one before (bmc3 -S), the covers
    # found made constant (zeropo): bmc3 -a, which would search them all at once, crashes in
    # this ABC (Debian's yosys-abc 0.23) once a model has constraints (flt_forward: SIGSEGV).
    found = {}
    start = 0
    while len(found) < len(names):
        done = "".join(f"zeropo -N {i}; " for i in sorted(found))
        cex = f"{model}_cover.aiw"
        if vcd_dir and os.path.exists(cex):
            os.remove(cex)
        out = abc(f"read_aiger {model}_cover.aig; fold; {done}{BMC3} -S {start} -F {depth + 1}"
                  + (f"; write_cex -a {cex}" if vcd_dir else ""))
        m = _ASSERTED.search(out)
        if not m:
            break
        i, start = int(m.group(1)), int(m.group(2))
        if i in found or i >= len(names):
            raise RuntimeError(f"bmc3 reported output {i} again or out of range:\n{out[-400:]}")
        found[i] = start
        if vcd_dir and os.path.exists(cex):
            # the cover model's assertions are "never hit": the replay names the covers hit
            hit = replay(f"{model}_cover", cex, os.path.join(vcd_dir, f"cover_{names[i]}.vcd"))
            if not any(h.endswith(names[i]) for h in hit):
                print(f"formal_abc: the replay of {names[i]}'s trace does not hit it", flush=True)
    for i, name in enumerate(names):
        if i in found:
            print(f"{time.time() - t0:7.1f} s  reached {name} in step {found[i]}")
    for i, name in enumerate(names):
        if i not in found:
            print(f"{time.time() - t0:7.1f} s  unreached {name}")
    return 0 if len(found) == len(names) else 1


def main(argv):
    args = argv[1:]
    pdr, vcd = 0, None
    for opt in ("--pdr", "--vcd"):
        if opt in args:
            i = args.index(opt)
            if i + 1 >= len(args):
                print(f"formal_abc: {opt} needs a value", file=sys.stderr)
                return 2
            val = args[i + 1]
            del args[i:i + 2]
            if opt == "--pdr":
                if not val.isdigit():
                    print(f"formal_abc: --pdr needs seconds, got '{val}'", file=sys.stderr)
                    return 2
                pdr = int(val)
            else:
                vcd = val
    if len(args) != 3 or args[0] not in ("prove", "cover") or not args[2].isdigit():
        print("formal_abc: usage: formal_abc.py prove MODEL DEPTH [--pdr SECONDS] [--vcd FILE] "
              "| cover MODEL DEPTH [--vcd DIR]", file=sys.stderr)
        return 2
    mode, model, depth = args[0], args[1], int(args[2])
    if mode == "cover" and vcd and not os.path.isdir(vcd):
        print(f"formal_abc: cover --vcd needs a directory, got '{vcd}'", file=sys.stderr)
        return 2
    if mode == "cover" and pdr:
        print("formal_abc: cover takes no --pdr", file=sys.stderr)
        return 2
    try:
        if mode == "prove":
            return prove(model, depth, pdr, vcd or f"{model}_cex.vcd")
        return cover(model, depth, vcd)
    except (OSError, RuntimeError) as e:
        print(f"formal_abc: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
