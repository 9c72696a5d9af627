#!/usr/bin/env python3
"""Writes the filter lock (Peterson's algorithm generalised to N threads) as C: each thread
passes N-1 levels, at each announcing its level and making itself the victim, and waits while
it is the victim and some other thread is at its level or above; a ghost counter of the threads
inside must stay at most one. Thread i runs its own start routine (ids are constants, so the
projection tracks the arrays exactly).

A broken twin (the assertion can fail) breaks thread 0 only:
  no-victim   thread 0 never makes itself the victim
  strict      thread 0 waits only for threads strictly above its level (> instead of >=)
  skip-level  thread 0 enters without passing the last level

usage: gen_filter.py N [no-victim|strict|skip-level] > filter_N.c
"""
import sys

n = int(sys.argv[1])
broken = sys.argv[2] if len(sys.argv) > 2 else None
if broken not in (None, "no-victim", "strict", "skip-level"):
    sys.exit(f"gen_filter.py: unknown twin {broken}")
out = ["#include <pthread.h>", "#include <assert.h>", "",
       f"int level[{n}], victim[{n}], inside = 0;", ""]
for i in range(n):
    others = [k for k in range(n) if k != i]
    cmp = ">" if (i == 0 and broken == "strict") else ">="
    busy = " || ".join(f"level[{k}] {cmp} l" for k in others)
    last = n - 1 if (i == 0 and broken == "skip-level") else n
    out += [f"void *t{i}(void *arg) {{",
            f"    for (int l = 1; l < {last}; l++) {{",
            f"        level[{i}] = l;"]
    if not (i == 0 and broken == "no-victim"):
        out.append(f"        victim[l] = {i};")
    out += [f"        while (victim[l] == {i} && ({busy})) {{}}",
            "    }",
            "    inside = inside + 1;",
            "    assert(inside == 1);",
            "    inside = inside - 1;",
            f"    level[{i}] = 0;",
            "    return 0;",
            "}", ""]
out += ["int main(void) {", f"    pthread_t t[{n}];"]
for i in range(n):
    out.append(f"    pthread_create(&t[{i}], 0, t{i}, 0);")
out += ["    return 0;", "}", ""]
sys.stdout.write("\n".join(out))
