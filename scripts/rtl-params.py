#!/usr/bin/env python3
"""The build parameters of an RTL module, from hw/params.json (the one table of them).

usage: rtl-params.py MODULE SET           -GNAME=value ... (nothing for SET 'default')
       rtl-params.py MODULE SET --yosys   -set NAME value ... (one Yosys chparam for all:
                                          the module is elaborated once more, at all of them)
       rtl-params.py MODULE --sets        the module's sets, 'default' first
       rtl-params.py --modules            every module the table lists
Exit 2 with one line for a module or set the table does not have.
"""
import json
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hw", "params.json")


def load():
    with open(TABLE, encoding="utf-8") as fh:
        table = json.load(fh)
    return {k: v for k, v in table.items() if not k.startswith("_")}


def main(argv):
    table = load()
    if argv[1:] == ["--modules"]:
        print(" ".join(table))
        return 0
    yosys = len(argv) == 4 and argv[3] == "--yosys"
    if len(argv) != 3 and not yosys:
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    module, what = argv[1], argv[2]
    sets = table.get(module, {})
    if what == "--sets":
        print(" ".join(["default"] + list(sets)))
        return 0
    if what == "default":
        return 0
    if what not in sets:
        print(f"rtl-params: {module} has no parameter set '{what}' in hw/params.json "
              f"(it has: {' '.join(['default'] + list(sets))})", file=sys.stderr)
        return 2
    form = "-set {} {}" if yosys else "-G{}={}"
    print(" ".join(form.format(k, v) for k, v in sets[what].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
