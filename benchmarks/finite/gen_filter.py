#!/usr/bin/env python3
"""Writes the filter lock (Peterson's algorithm generalised to N threads) as C: each thread
passes N-1 levels, at each announcing its level and making itself the victim, and waits while
it is the victim and some other thread is at its level or above; a ghost counter of the threads
inside must stay at most one. Thread i runs its own start routine (ids are constants, so the
projection tracks the arrays exactly).

usage: gen_filter.py N > filter_N.c
"""
import sys

n = int(sys.argv[1])
out = ["#include <pthread.h>", "#include <assert.h>", "",
       f"int level[{n}], victim[{n}], inside = 0;", ""]
for i in range(n):
    others = [k for k in range(n) if k != i]
    busy = " || ".join(f"level[{k}] >= l" for k in others)
    out += [f"void *t{i}(void *arg) {{",
            f"    for (int l = 1; l < {n}; l++) {{",
            f"        level[{i}] = l;",
            f"        victim[l] = {i};",
            f"        while (victim[l] == {i} && ({busy})) {{}}",
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
