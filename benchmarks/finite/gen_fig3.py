#!/usr/bin/env python3
"""Writes the SAS 2007 Figure 3 family as C: n threads, each taking a test-and-set spin lock
around m critical sections; a ghost counter of the threads inside must stay at most one.

usage: gen_fig3.py N M [--distinct | --loop] [--tas] > fig3_N_M.c

By default every thread runs the same start routine from its own creation site, so the
program creates exactly N identical threads. --distinct gives each thread its own start
routine (the engine then sees N different templates); --loop creates the threads in a loop
whose bound the verifier does not know, so a proof must hold for every number of threads.
--tas takes the lock with a test-and-set loop instead of a blocking atomic acquire (the form
benchmarks/coarsen/figure3.sh writes): the atomic read-and-set writes lck = 1 whether or not
the lock was free, and a thread enters when the value it read was 0.
"""
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
flags = sys.argv[3:]
tas = "--tas" in flags
modes = [f for f in flags if f != "--tas"]
mode = modes[0] if modes else ""
out = ["#include <pthread.h>", "#include <assert.h>", "",
       "extern int __VERIFIER_nondet_int(void);", "int lck = 0, inside = 0;", ""]
if tas:
    out += ["int __VERIFIER_atomic_tas(void) { int old = lck; lck = 1; return old; }", ""]
    acquire, release = "    while (__VERIFIER_atomic_tas()) {}", "    lck = 0;"
else:
    out += ["void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lck == 0); lck = 1; }",
            "void __VERIFIER_atomic_release(void) { lck = 0; }", ""]
    acquire, release = "    __VERIFIER_atomic_acquire();", "    __VERIFIER_atomic_release();"
out += ["void sections(void) {"]
for _ in range(m):
    out += [acquire,
            "    inside = inside + 1;",
            "    assert(inside == 1);",
            "    inside = inside - 1;",
            release]
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
