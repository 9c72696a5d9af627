#!/usr/bin/env python3
"""Writes the SAS 2007 Figure 3 family as C: n threads, each taking a test-and-set spin lock
around m critical sections; a ghost counter of the threads inside must stay at most one.

usage: gen_fig3.py N M [--distinct | --loop] > fig3_N_M.c

By default every thread runs the same start routine from its own creation site, so the
program creates exactly N identical threads. --distinct gives each thread its own start
routine (the engine then sees N different templates); --loop creates the threads in a loop
whose bound the verifier does not know, so a proof must hold for every number of threads.
"""
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else ""
out = ["#include <pthread.h>", "#include <assert.h>", "",
       "extern int __VERIFIER_nondet_int(void);", "int lck = 0, inside = 0;", "",
       "void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lck == 0); lck = 1; }",
       "void __VERIFIER_atomic_release(void) { lck = 0; }", "",
       "void sections(void) {"]
for _ in range(m):
    out += ["    __VERIFIER_atomic_acquire();",
            "    inside = inside + 1;",
            "    assert(inside == 1);",
            "    inside = inside - 1;",
            "    __VERIFIER_atomic_release();"]
out += ["}", ""]
if mode == "--distinct":
    for i in range(n):
        out.append(f"void *thr{i}(void *arg) {{ sections(); return 0; }}")
else:
    out.append("void *thr(void *arg) { sections(); return 0; }")
out += ["", "int main(void) {", f"    pthread_t t[{n}];"]
if mode == "--loop":
    out += ["    int k = __VERIFIER_nondet_int();",
            "    for (int i = 0; i < k; i++) pthread_create(&t[0], 0, thr, 0);"]
else:
    for i in range(n):
        name = f"thr{i}" if mode == "--distinct" else "thr"
        out.append(f"    pthread_create(&t[{i}], 0, {name}, 0);")
out += ["    return 0;", "}", ""]
sys.stdout.write("\n".join(out))
