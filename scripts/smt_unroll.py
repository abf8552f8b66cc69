#!/usr/bin/env python3
"""Yosys's smtio with its unrolled definitions declared (scripts/formal.sh, formal-cover.py).

With --unroll, smtio writes every expanded cell as a 0-ary definition,
`(define-fun |UNROLL#n| () SORT BODY)`, each naming the ones before it. z3 4.8.12 expands such
a definition at every use without sharing the work: on the engine top it spent 13 of a step's
14 s reading one step's transition relation. Declared and asserted equal to its body instead,
`(declare-fun |UNROLL#n| () SORT) (assert (= |UNROLL#n| BODY))`, the same step takes 1 s. The
two are equisatisfiable with the same values (z3's preprocessing eliminates the equalities),
and a push/pop scope drops the assertion with the declaration, as smtio's cache drops the name.
A name first unrolled for a (get-value ...) asserts after the check-sat, so smtio checks again
first (its recheck, as for cvc4/cvc5).

Which is faster depends on the model: the engine top 10x per step, axil_regs_engine's covers
2x; steer_driver's induction 26 -> 45 s and hash's step-15 covers 48 -> 190 s (z3's incremental
preprocessing keeps the declared names, and the search differs). scripts/formal.sh chooses per
job (its solver column, sat-decl).

As a program: yosys-smtbmc, with this change where --declare is given (the other arguments
passed through).
"""
import os
import runpy
import shutil
import sys

_PREFIX = "(define-fun |UNROLL#"


def smtio_dir():
    """Yosys's python library sits in its share directory, beside yosys-smtbmc's prefix."""
    smtbmc = shutil.which("yosys-smtbmc")
    dirs = [os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(smtbmc))),
                         "share", "yosys")] if smtbmc else []
    return next((d for d in dirs + ["/usr/share/yosys"]
                 if os.path.isfile(os.path.join(d, "smtio.py"))), None)


def _sexp_end(text, start):
    """Index just past the S-expression (an atom or a parenthesized list) at text[start]."""
    if text[start] != "(":
        end = text.find(" ", start)
        return len(text) if end < 0 else end
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "|":                       # a quoted symbol: parentheses inside do not count
            i = text.index("|", i + 1)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced S-expression")


def split_definition(stmt):
    """(name, sort, body) of `(define-fun |UNROLL#n| () SORT BODY)`, else None."""
    if not stmt.startswith(_PREFIX):
        return None
    name_end = stmt.index("|", len(_PREFIX)) + 1
    name = stmt[len("(define-fun "):name_end]
    rest = name_end
    if not stmt.startswith(" () ", rest):
        return None                        # a definition with arguments: left as it is
    sort_start = rest + 4
    sort_end = _sexp_end(stmt, sort_start)
    body = stmt[sort_end + 1:-1]
    return name, stmt[sort_start:sort_end], body


def patch(smtio_class):
    """Make smtio_class.write declare what the unrolling defines (module docstring)."""
    write = smtio_class.write
    if getattr(write, "declares_unrolled", False):
        return

    def declaring_write(self, stmt, unroll=True):
        parts = None if unroll else split_definition(stmt)
        if parts is None:
            write(self, stmt, unroll)
            return
        name, sort, body = parts
        write(self, f"(declare-fun {name} () {sort})", unroll=False)
        write(self, f"(assert (= {name} {body}))", unroll=False)

    # a definition unrolled for a (get-value ...) is now an assertion, and z3 drops its model
    # on a new assertion: smtio then checks again before the get (as it does for cvc4/cvc5)
    init = smtio_class.__init__

    def rechecking_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.recheck = True

    declaring_write.declares_unrolled = True
    smtio_class.write = declaring_write
    smtio_class.__init__ = rechecking_init


def main():
    lib = smtio_dir()
    smtbmc = shutil.which("yosys-smtbmc")
    if not lib or not smtbmc:
        print("smt_unroll: yosys-smtbmc and its smtio.py not found (scripts/setup.sh installs "
              "yosys)", file=sys.stderr)
        return 2
    sys.path.insert(0, lib)
    import smtio  # pylint: disable=import-outside-toplevel
    args = sys.argv[1:]
    if "--declare" in args:
        args.remove("--declare")
        patch(smtio.SmtIo)
    sys.argv = [smtbmc] + args
    runpy.run_path(smtbmc, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
