#!/usr/bin/env python3
"""Cover search for scripts/formal.sh: which cover statements of a Yosys SMT2 model a trace
from reset reaches within DEPTH steps, each at the first step one can (as yosys-smtbmc -c).

Why not yosys-smtbmc -c: it asks each question inside (push)/(pop), and z3 drops what it
learned at every (pop), so each step and each cover found starts the search again. Here every
question is guarded by a fresh literal (check-sat-assuming) and retired by asserting its
negation, so z3 keeps its lemmas across steps (the axil_regs_engine covers: 395 s against
636 s). The model is unrolled as yosys-smtbmc unrolls it (smtio, Yosys's own library, with
per-cell definitions expanded; with --declare they are declared, as scripts/smt_unroll.py
explains) and the solver is z3.

Which z3 solver: with --logic QF_BV (a model without memories: Yosys memory_map) z3 answers
with its incremental SAT solver, which bit-blasts the whole model (for QF_BV z3 picks
mk_inc_sat_solver; for any logic with arrays its SMT core); without it, the logic is smtio's
(QF_AUFBV) and z3 uses its SMT core. Which is faster depends on the model (formal.sh's job table).

Usage: formal-cover.py [--logic QF_BV] [--declare] MODEL.smt2 DEPTH
Prints one line per step searched and per cover reached ("reached NAME in step N"), then one
"unreached NAME" per cover left. Exit 0 when every cover is reached, 1 when one is not,
2 on bad usage or a model it cannot read. No traces: formal.sh --cover-vcd writes them with
yosys-smtbmc -c.
"""
import sys
import time

from smt_unroll import patch, smtio_dir


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    logic = None
    declare = False
    while len(argv) > 1 and argv[1].startswith("--"):
        if argv[1] == "--logic" and len(argv) > 2 and argv[2] == "QF_BV":
            logic, argv = argv[2], argv[:1] + argv[3:]
        elif argv[1] == "--declare":
            declare, argv = True, argv[:1] + argv[2:]
        else:
            break
    if len(argv) != 3 or not argv[2].isdigit():
        print("formal-cover: usage: formal-cover.py [--logic QF_BV] [--declare] MODEL.smt2 "
              "DEPTH", file=sys.stderr)
        return 2
    path, depth = argv[1], int(argv[2])
    lib = smtio_dir()
    if not lib:
        print("formal-cover: Yosys's smtio.py not found (scripts/setup.sh installs yosys)",
              file=sys.stderr)
        return 2
    sys.path.insert(0, lib)
    from smtio import SmtIo, SmtOpts  # pylint: disable=import-outside-toplevel
    if declare:
        patch(SmtIo)

    opts = SmtOpts()
    opts.solver = "z3"
    opts.unroll = True
    if logic:
        opts.logic = logic
    opts.timeinfo = False
    smt = SmtIo(opts=opts)
    t0 = time.time()
    try:
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    smt.write(line)
        except OSError as e:
            print(f"formal-cover: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 2
        top = smt.topmod
        if top is None or smt.modinfo[top].cells:
            print(f"formal-cover: {path}: expected one flattened module (prep -flatten)",
                  file=sys.stderr)
            return 2
        if logic and smt.modinfo[top].memories:
            print(f"formal-cover: {path}: memories are arrays, not QF_BV (map them: memory_map)",
                  file=sys.stderr)
            return 2
        # (SMT2 function, cover name); smtio names a cover "SRC (NAME)" when Yosys gave its source
        covers = [(fn, desc[desc.rindex(" (") + 2:-1]
                   if desc.endswith(")") and " (" in desc else desc)
                  for fn, desc in smt.modinfo[top].covers.items()]
        left = list(range(len(covers)))

        def say(msg):
            print(f"{time.time() - t0:7.1f} s  {msg}", flush=True)

        guard = 0
        for step in range(depth + 1):
            if not left:
                break
            # the model's state at this step, as yosys-smtbmc -c builds it: assumptions,
            # hierarchy, the initial state at step 0, else the transition from the step before
            smt.write(f"(declare-fun s{step} () |{top}_s|)")
            smt.write(f"(assert (|{top}_u| s{step}))")
            smt.write(f"(assert (|{top}_h| s{step}))")
            if step == 0:
                smt.write(f"(assert (|{top}_i| s0))")
                smt.write(f"(assert (|{top}_is| s0))")
            else:
                smt.write(f"(assert (|{top}_t| s{step - 1} s{step}))")
                smt.write(f"(assert (not (|{top}_is| s{step})))")
            while left:
                # is one of the covers still left reachable in this step? (guarded, then retired)
                guard += 1
                hits = " ".join(f"(|{covers[i][0]}| s{step})" for i in left)
                smt.write(f"(declare-fun g{guard} () Bool)")
                smt.write(f"(assert (=> g{guard} (or {hits})))")
                smt.p_write(f"(check-sat-assuming (g{guard}))\n", True)
                result = smt.read()
                if result not in ("sat", "unsat"):
                    print(f"formal-cover: z3 answered '{result}' in step {step}", file=sys.stderr)
                    return 2
                if result == "sat":
                    values = smt.get_list([f"(|{covers[i][0]}| s{step})" for i in left])
                    reached = [i for i, v in zip(left, values) if v == "true"]
                    for i in reached:
                        say(f"reached {covers[i][1]} in step {step}")
                    left = [i for i in left if i not in reached]
                smt.write(f"(assert (not g{guard}))")
                if result == "unsat":
                    say(f"step {step} searched")
                    break
        for i in left:
            say(f"unreached {covers[i][1]}")
        return 1 if left else 0
    finally:
        smt.write("(exit)")  # else smtio's reader keeps the process alive
        smt.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
