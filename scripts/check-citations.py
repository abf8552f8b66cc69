#!/usr/bin/env python3
"""Checks that every citation in the tree can be followed inside the clone.

* `spec N[.M...]` names a section heading of docs/kernel-rfs-arfs.md (`spec 8.21` is corner
  case 21 of section 8); `spec G4` / `spec 3.2 S5g` name a step label that the spec defines;
* relative Markdown links in *.md files point to files that exist;
* nothing points outside the repository (`../shared/`, the steering folder) or cites an issue
  number in code, docs or program output (`issue 3`).

Usage: check-citations.py [ROOT]    exit 1 listing each citation that does not resolve.
       check-citations.py --self-test
"""
import os
import re
import subprocess
import sys

SPEC = "docs/kernel-rfs-arfs.md"
TEXT = (".cpp", ".h", ".hpp", ".sv", ".vh", ".py", ".sh", ".cmake", ".txt", ".md", ".tcl", ".json", ".cfg", ".xml")
CITE_NUM = re.compile(r"\bspec\s*§?\s*(\d+(?:\.\d+)*)(?![\d.]*\d)")
CITE_STEP = re.compile(r"\bspec\s*§?\s*(?:\d+(?:\.\d+)*\s+)?([GS]\d+[a-z]?)\b")
OUTSIDE = re.compile(r"\.\./shared/|\bshared/(?:spec|DESIGN|TOOLCHAIN|reference)")
ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+\b")
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def spec_targets(text):
    sections = set(re.findall(r"^#+\s+(\d+(?:\.\d+)*)\.?\s", text, re.M))
    # corner cases of section 8: numbered list items "N." (or "N)") after its heading
    part8 = text.split("\n## 8.", 1)[1].split("\n## 9.", 1)[0] if "\n## 8." in text else ""
    for n in re.findall(r"^\s*(?:\*\*)?(\d+)[.)]", part8, re.M):
        sections.add("8." + n)
    steps = set(re.findall(r"\b([GS]\d+[a-z]?)\b", text))
    return sections, steps


def tracked_files(root):
    try:
        out = subprocess.check_output(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                                      stderr=subprocess.DEVNULL).decode()
        return [f for f in out.split("\n") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def check(root):
    spec_path = os.path.join(root, SPEC)
    if not os.path.exists(spec_path):
        print(f"{SPEC}: missing (the spec the code cites must be in the clone)")
        return 1
    with open(spec_path, encoding="utf-8") as fh:
        sections, steps = spec_targets(fh.read())
    bad = []
    for rel in tracked_files(root):
        if not rel.endswith(TEXT) or rel == SPEC:
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        if rel == "scripts/check-citations.py":
            continue  # this file spells the patterns it looks for
        for no, line in enumerate(text.split("\n"), 1):
            for m in CITE_NUM.finditer(line):
                if m.group(1) not in sections:
                    bad.append(f"{rel}:{no}: 'spec {m.group(1)}' is no section of {SPEC}")
            for m in CITE_STEP.finditer(line):
                if m.group(1) not in steps:
                    bad.append(f"{rel}:{no}: step '{m.group(1)}' is not defined in {SPEC}")
            if OUTSIDE.search(line):
                bad.append(f"{rel}:{no}: points outside the repository")
            if ISSUE.search(line):
                bad.append(f"{rel}:{no}: cites an issue number ('{ISSUE.search(line).group(0)}')")
            if rel.endswith(".md"):
                for m in MD_LINK.finditer(line):
                    target = m.group(1)
                    if re.match(r"[a-z]+:", target):
                        continue  # a URL
                    if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                        bad.append(f"{rel}:{no}: link '{target}' points to no file")
    for b in bad:
        print(b)
    if bad:
        print(f"check-citations: {len(bad)} citation(s) cannot be followed", file=sys.stderr)
        return 1
    print(f"check-citations: every citation resolves ({len(sections)} spec sections/cases, {len(steps)} step labels)")
    return 0


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "docs"))
        with open(os.path.join(t, SPEC), "w") as fh:
            fh.write("# spec\n## 2. get\n### 2.2 Steps\nG4 hash 0\n## 8. Corner\n1. a case\n## 9. Refs\n")
        with open(os.path.join(t, "a.cpp"), "w") as fh:
            fh.write("// spec 2.2 G4, spec 8.1\n")
        if check(t) != 0:
            print("self-test: resolvable citations were refused", file=sys.stderr)
            return 1
        for planted in ("// spec 2.3\n", "// spec 2.2 G9\n", "// see ../shared/spec/x.md\n", "// (issue 3)\n"):
            with open(os.path.join(t, "b.cpp"), "w") as fh:
                fh.write(planted)
            if check(t) != 1:
                print(f"self-test: '{planted.strip()}' was not caught", file=sys.stderr)
                return 1
    print("check-citations self-test: ok")
    return 0


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        sys.exit(self_test())
    sys.exit(check(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")))
