#!/usr/bin/env python3
"""Lists Rust functions longer than a limit (default 150 lines, from the `fn` line to its
closing brace), longest first. Usage: long_fns.py [LIMIT] [DIR or FILE...] (default: src datalog domains)."""
import re
import sys
from pathlib import Path

FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"[^"]*"\s+)?fn\s+(\w+)')


def strip(line):
    # Braces inside strings, chars and comments must not count.
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "' '", line)
    return line.split('//')[0]


def functions(path):
    lines = path.read_text().splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            code = strip(lines[j])
            if not opened and ';' in code and '{' not in code:
                break  # a declaration without a body
            depth += code.count('{') - code.count('}')
            opened = opened or '{' in code
            if opened and depth <= 0:
                out.append((j - i + 1, m.group(7), i + 1))
                break
            j += 1
        i += 1
    return out


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    dirs = sys.argv[2:] or ['src', 'datalog', 'domains']
    found = []
    for d in dirs:
        paths = [Path(d)] if Path(d).is_file() else sorted(Path(d).rglob('*.rs'))
        for p in paths:
            found += [(n, f'{p}:{line}', name) for n, name, line in functions(p) if n > limit]
    for n, where, name in sorted(found, key=lambda f: (-f[0], f[1])):
        print(f'{n:5}  {where}  {name}')


main()
