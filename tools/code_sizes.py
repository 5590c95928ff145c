#!/usr/bin/env python3
"""Sizes of the hand-written C++ sources: the longest files and functions.

Usage: tools/code_sizes.py [--files N] [--functions N] [--max-file L] [--max-function L]

Lists the N longest files and the N longest function bodies under src/
(tools/gen_api.py's output in src/api/generated is left out). With
--max-file or --max-function it exits 1 when something is longer.

Functions are found by brace counting: a body is a '{' that ends a line
holding a ')' (after comments and strings are blanked), at namespace or
class level, up to its matching '}'. Lambdas and blocks inside a body
count toward that body. Good enough for a size report, not a parser.
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def sources():
    for base, dirs, files in os.walk(os.path.join(ROOT, "src")):
        dirs[:] = [d for d in dirs if d != "generated"]
        for f in files:
            if f.endswith((".cpp", ".hpp", ".h", ".c")):
                yield os.path.join(base, f)


def blank(text):
    """Comments and string/char literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    lines = text.split("\n")
    found = []
    depth = 0
    scopes = []  # per open brace: (is_function, start_line, name)
    for ln, line in enumerate(lines, 1):
        for k, ch in enumerate(line):
            if ch == "{":
                head = line[:k].rstrip()
                prev = head if head else (lines[ln - 2].rstrip() if ln > 1 else "")
                in_func = any(s[0] for s in scopes)
                is_func = (not in_func) and bool(re.search(r"\)\s*(const|override|noexcept|final|->[^{]*|:[^{]*)*\s*$", prev))
                name = ""
                if is_func:
                    back = " ".join(lines[max(0, ln - 6):ln - 1]) + " " + head
                    m = re.findall(r"([A-Za-z_][\w:~<>]*)\s*\(", back)
                    skip = {"if", "for", "while", "switch", "return", "sizeof", "static_cast"}
                    names = [x for x in m if x not in skip]
                    name = names[-1] if names else "?"
                scopes.append((is_func, ln, name))
                depth += 1
            elif ch == "}" and scopes:
                is_func, start, name = scopes.pop()
                depth -= 1
                if is_func:
                    found.append((ln - start + 1, name, start))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--functions", type=int, default=5)
    ap.add_argument("--max-file", type=int, default=0)
    ap.add_argument("--max-function", type=int, default=0)
    a = ap.parse_args()
    files, funcs = [], []
    for p in sources():
        rel = os.path.relpath(p, ROOT)
        with open(p, encoding="utf-8", errors="replace") as f:
            files.append((sum(1 for _ in f), rel))
        for n, name, start in functions(p):
            funcs.append((n, f"{rel}:{start} {name}"))
    files.sort(reverse=True)
    funcs.sort(reverse=True)
    print(f"{len(files)} files, {len(funcs)} function bodies")
    print("longest files (lines):")
    for n, rel in files[: a.files]:
        print(f"  {n:5d}  {rel}")
    print("longest functions (lines):")
    for n, what in funcs[: a.functions]:
        print(f"  {n:5d}  {what}")
    bad = (a.max_file and files and files[0][0] > a.max_file) or (
        a.max_function and funcs and funcs[0][0] > a.max_function)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
