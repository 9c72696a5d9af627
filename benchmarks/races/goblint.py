#!/usr/bin/env python3
"""Goblint's race-annotated regression tests against `duet-rs check --races-only`.

Goblint's tests (github:goblint/analyzer, tests/regression/) mark lines with `RACE` (an access
on the line races) and `NORACE` (none does), read by scripts/update_suite.rb: a line that is a
comment as a whole is no annotation, and `TODO`/`SKIP` on a line marks a check Goblint itself
does not pass yet. Nothing of Goblint is committed here: extract the tests first, e.g. with the
bare git directory of a clone or mirror,

    git --git-dir=GIT archive HEAD tests/regression | tar -x -C /tmp/goblint

then run `benchmarks/races/goblint.py --goblint /tmp/goblint/tests/regression`.

Per folder it counts:
- found: RACE lines on which duet-rs reports a replayed `race`;
- proved: NORACE lines none of whose accesses is in a `race` or `unknown` pair, in a file
  analysed to its end with no memory location left `unknown` as a whole;
- false alarms: NORACE lines in a `race` pair;
- UNSOUND: RACE lines reported race-free in the same sense as `proved` (must be 0);
- disputed: RACE lines reported race-free in a file of DISPUTED, whose annotation names no
  race of the C program (the reason is printed with --details).
Files whose `// PARAM:` asks for semantics duet-rs does not have (kernel mode, other entry
points, failing locks, Goblint's own race-counting options) are skipped and counted.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

FOLDERS = ["04-mutex", "05-lval_ls", "06-symbeq", "10-synch", "11-heap"]

# PARAM options that change what the program means or what counts as a race; the rest only
# switch Goblint's own analyses on or off (precision), which says nothing about the program.
UNSUPPORTED_PARAMS = [
    "kernel",
    "mainfun",
    "allfuns",
    "sem.lock.fail",
    "ana.race.direct-arithmetic",
    "ana.race.free",
    "sem.malloc.zero",
    "sem.unknown_function",
    "exp.earlyglobs",
    # Goblint's option not to count accesses to volatile objects as races; C counts them.
    "ana.race.volatile",
]

# Goblint's tests include its runtime header for its checks and assumptions. This stand-in
# (written here, not Goblint's) maps them to what duet-rs reads; a name it lacks stays an
# undefined function, which leaves the races around it `unknown`.
GOBLINT_H = """#include <assert.h>
extern void __VERIFIER_assume(int);
#define __goblint_check(e) assert(e)
#define __goblint_assert(e) assert(e)
#define __goblint_assume(e) __VERIFIER_assume(e)
"""


# Files whose RACE annotations, read against C and POSIX, name no race: each reported
# race-free there is counted `disputed`, not UNSOUND, and listed with this reason.
DISPUTED = {
    "05-lval_ls/20-race-null-void.c": "the thread's `free` of an uninitialised pointer and main's `pthread_join` stores happen after the join, "
    "or through invalid pointers (undefined behaviour): Goblint counts them since it does not order accesses by joins here",
    "05-lval_ls/22-race-null-void-deep.c": "`pthread_setspecific` stores the pointer in the calling thread's own slot and follows "
    "no pointer (POSIX); Goblint's library model reads through it",
}


def param_line(lines):
    for line in lines[:3]:
        if "PARAM" in line or "SKIP" in line:
            return line
    return ""


def skip_reason(lines):
    first = param_line(lines)
    if re.search(r"//\s*SKIP", first):
        return "marked SKIP"
    for p in UNSUPPORTED_PARAMS:
        if p in first:
            # Enabling direct-arithmetic is Goblint's default for the annotated races: only
            # its --disable changes what counts.
            if p == "ana.race.direct-arithmetic" and "--disable" not in first:
                continue
            return p
    return None


def annotations(lines):
    """Line number -> ('race' | 'norace', todo)."""
    out = {}
    for i, line in enumerate(lines, 1):
        if re.match(r"^\s*//", line) or re.match(r"^\s*/\*([^*]|\*+[^*/])*\*/$", line):
            continue
        if "RACE" in line:
            kind = "norace" if "NORACE" in line else "race"
            out[i] = (kind, bool(re.search(r"TODO|SKIP", line)))
    return out


def run_folder(duet, files, replay_time, timeout, jobs, include):
    cmd = [duet, "check", "--races-only", "--format", "json", "--race-replay-time", str(replay_time), "--timeout", str(timeout), "--workers", str(jobs), "-I", include] + files
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - start
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"duet-rs wrote no JSON report (exit {p.returncode})")
    return report, seconds


def lines_of(at, file):
    m = re.match(r"^(.*):(\d+):(\d+)$", at)
    if not m or os.path.basename(m.group(1)) != os.path.basename(file):
        return None
    return int(m.group(2))


def disputed(file):
    return next((why for name, why in DISPUTED.items() if file.endswith("/" + name)), None)


def judge(task):
    """(race lines, unknown lines, analysed as a whole) of one task of the report."""
    races, unknown = set(), set()
    whole = task["outcome"] == "checked" and task.get("races") is not None
    for v in task.get("races") or []:
        if v["status"] == "unknown" and not v.get("pairs"):
            whole = False
        for p in v.get("pairs", []):
            for a in p["accesses"]:
                line = lines_of(a["at"], task["file"])
                if line is None:
                    continue
                (races if p["status"] == "race" else unknown).add(line)
    return races, unknown, whole


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--goblint", default="/tmp/goblint/tests/regression", help="Goblint's tests/regression directory")
    ap.add_argument("--duet", default=None, help="the duet-rs binary (default: target/release, else target/debug)")
    ap.add_argument("--folders", nargs="*", default=FOLDERS)
    ap.add_argument("--replay-time", type=float, default=5.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--details", action="store_true", help="print every miss, false alarm and unsound line")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    duet = args.duet
    if duet is None:
        for kind in ["release", "debug"]:
            cand = os.path.join(root, "target", kind, "duet-rs")
            if os.path.exists(cand):
                duet = cand
                break
    if not duet or not os.path.isdir(args.goblint):
        raise SystemExit("need the duet-rs binary and Goblint's tests/regression (see the docstring)")
    include = tempfile.mkdtemp(prefix="duet-goblint-h-")
    with open(os.path.join(include, "goblint.h"), "w") as f:
        f.write(GOBLINT_H)
    header = f"{'folder':<11} {'files':>5} {'skip':>4} {'RACE':>4} {'found':>5} {'NORACE':>6} {'proved':>6} {'false':>5} {'UNSOUND':>7} {'disp':>4} {'time s':>7}"
    rows = []
    details = []
    for folder in args.folders:
        d = os.path.join(args.goblint, folder)
        files, skipped, ann = [], 0, {}
        for name in sorted(os.listdir(d)):
            if not name.endswith(".c"):
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            a = annotations(lines)
            if skip_reason(lines):
                skipped += 1
                continue
            files.append(path)
            ann[path] = a
        report, seconds = run_folder(duet, files, args.replay_time, args.timeout, args.jobs, include) if files else ({"tasks": []}, 0.0)
        c = dict(race=0, found=0, norace=0, proved=0, false=0, unsound=0, disputed=0)
        for task in report["tasks"]:
            races, unknown, whole = judge(task)
            for line, (kind, todo) in sorted(ann.get(task["file"], {}).items()):
                free = whole and line not in races and line not in unknown
                where = f"{task['file']}:{line}{' (TODO)' if todo else ''}"
                if kind == "race":
                    c["race"] += 1
                    if line in races:
                        c["found"] += 1
                    elif free and disputed(task["file"]):
                        c["disputed"] += 1
                        details.append(f"disputed {where}: {disputed(task['file'])}")
                    elif free:
                        c["unsound"] += 1
                        details.append(f"UNSOUND  {where}")
                    else:
                        details.append(f"missed   {where}")
                else:
                    c["norace"] += 1
                    if free:
                        c["proved"] += 1
                    elif line in races:
                        c["false"] += 1
                        details.append(f"false    {where}")
                    else:
                        details.append(f"unproved {where}")
        rows.append((folder, len(files) + skipped, skipped, c, seconds))
    print(header)
    tot = dict(race=0, found=0, norace=0, proved=0, false=0, unsound=0, disputed=0)
    tf = ts = 0
    tt = 0.0
    for folder, n, skipped, c, seconds in rows:
        print(f"{folder:<11} {n:>5} {skipped:>4} {c['race']:>4} {c['found']:>5} {c['norace']:>6} {c['proved']:>6} {c['false']:>5} {c['unsound']:>7} {c['disputed']:>4} {seconds:>7.1f}")
        for k in tot:
            tot[k] += c[k]
        tf += n
        ts += skipped
        tt += seconds
    print(f"{'total':<11} {tf:>5} {ts:>4} {tot['race']:>4} {tot['found']:>5} {tot['norace']:>6} {tot['proved']:>6} {tot['false']:>5} {tot['unsound']:>7} {tot['disputed']:>4} {tt:>7.1f}")
    if args.details:
        print("\n".join(details))
    return 1 if tot["unsound"] else 0


if __name__ == "__main__":
    sys.exit(main())
