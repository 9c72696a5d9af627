#!/usr/bin/env python3
"""Verdicts of a duet-rs build over the corpora, as a sorted TSV, and the diff of two such TSVs.

  verdicts.py run BINARY OUT.tsv [--search-time S] [--jobs N] [--corpus NAME ...]
  verdicts.py diff [--all] OLD.tsv NEW.tsv

`run` checks every program of the chosen corpora (default: all) with `--format json`, `--jobs`
programs at a time (default 2), and writes one row per assertion: corpus, file, assertion id,
status (and, for a file that got no verdicts, its outcome), then the deciding engine, the bound,
the reason and a hash of the detail (the witness trace or invariant). `diff` prints the rows
whose status differs and exits 1 if any does; `diff --all` compares every column. Refactors
that must not change a verdict are checked with it, not by eye; a budget-limited verdict
(`unknown`/`bounded-safe` after a spent budget) can move with the machine's load, so a diff on
those is run again before it is believed.
"""
import concurrent.futures, hashlib, json, os, subprocess, sys, glob

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("DUET_SHARED", os.path.join(ROOT, "..", "shared"))


def corpora():
    """(name, list of (file, extra flags)) for every corpus present here."""
    out = []
    own = sorted(glob.glob(os.path.join(ROOT, "tests/programs/**/*.c"), recursive=True))
    out.append(("tests", [(f, []) for f in own]))
    out.append(("examples", [(f, []) for f in sorted(glob.glob(os.path.join(ROOT, "benchmarks/examples/*.c")))]))
    for sub in ("", "drivers"):
        tsv = os.path.join(SHARED, "benchmarks", sub, "tasks.tsv")
        if not os.path.exists(tsv):
            print(f"skipped shared/{sub or 'c'}: {tsv} is absent", file=sys.stderr)
            continue
        rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
        tasks = []
        for r in rows:
            yml = os.path.join(SHARED, "benchmarks", sub, r[0])
            inp = os.path.join(os.path.dirname(yml), os.path.basename(r[1]))
            text = open(yml).read() if os.path.exists(yml) else ""
            tasks.append((inp, ["--m32"] if "ILP32" in text else []))
        out.append(("shared-" + (sub or "c"), tasks))
    return out


def run(binary, out_path, search_time, only, jobs):
    work = []
    for name, tasks in corpora():
        if only and name not in only:
            continue
        for f, flags in tasks:
            first = open(f, errors="replace").readline() if os.path.exists(f) else ""
            if "--no-whole-program" in first or "no-whole-program" in f:
                flags = flags + ["--no-whole-program"]
            work.append((name, f, flags))

    def one(item):
        name, f, flags = item
        cmd = [binary, "check", "--format", "json", "--no-progress", "--workers", "1", "--search-time", str(search_time), *flags, f]
        p = subprocess.run(cmd, capture_output=True, text=True)
        rel = os.path.relpath(f, ROOT)
        print(f"{name} {rel}: {p.returncode}", file=sys.stderr)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            return [(name, rel, "-", f"no-json(exit {p.returncode})", "", "", "", "")]
        rows = []
        for t in doc["tasks"]:
            if not t.get("assertions"):
                rows.append((name, rel, "-", t["outcome"], "", "", t.get("reason") or "", ""))
            for a in t.get("assertions") or []:
                detail = hashlib.sha1((a.get("detail") or "").encode()).hexdigest()[:12]
                rows.append((name, rel, a["id"].split(":", 1)[-1], a["status"], a.get("engine") or "", str(a.get("bound", "")), a["reason"].replace("\t", " ").replace("\n", " "), detail))
        return rows

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        rows = [r for rs in ex.map(one, work) for r in rs]
    rows.sort()
    with open(out_path, "w") as o:
        for r in rows:
            o.write("\t".join(r) + "\n")


def diff(old, new, every_column):
    def load(p):
        out = {}
        for l in open(p):
            cols = l.rstrip("\n").split("\t")
            out[tuple(cols[:3])] = tuple(cols[3:]) if every_column else cols[3]
        return out
    a, b = load(old), load(new)
    changed = 0
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            changed += 1
            print(f"{k[0]}\t{k[1]}\t{k[2]}\t{a.get(k, 'absent')} -> {b.get(k, 'absent')}")
    print(f"{changed} of {len(set(a) | set(b))} rows differ", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["diff"] and len(args) in (3, 4):
        every = "--all" in args
        paths = [a for a in args[1:] if a != "--all"]
        if len(paths) == 2:
            sys.exit(diff(paths[0], paths[1], every))
    if args[:1] == ["run"] and len(args) >= 3:
        st, only, jobs, rest = 10, [], 2, args[3:]
        while rest:
            if rest[0] == "--search-time":
                st, rest = rest[1], rest[2:]
            elif rest[0] == "--jobs":
                jobs, rest = int(rest[1]), rest[2:]
            elif rest[0] == "--corpus":
                only.append(rest[1]); rest = rest[2:]
            else:
                sys.exit(f"unknown argument {rest[0]}")
        run(os.path.abspath(args[1]), args[2], st, only, jobs)
        sys.exit(0)
    sys.exit(__doc__)
