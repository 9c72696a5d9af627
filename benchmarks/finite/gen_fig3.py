#!/usr/bin/env python3
"""Writes the SAS 2007 Figure 3 family as C: n threads, each taking a test-and-set spin lock
around m critical sections; a ghost counter of the threads inside must stay at most one.

usage: gen_fig3.py N M > fig3_N_M.c      (each thread has its own start routine and creation
site, so the program creates exactly N threads)
"""
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
out = ["#include <pthread.h>", "#include <assert.h>", "",
       "int lck = 0, inside = 0;", "",
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
for i in range(n):
    out.append(f"void *thr{i}(void *arg) {{ sections(); return 0; }}")
out += ["", "int main(void) {", f"    pthread_t t[{n}];"]
for i in range(n):
    out.append(f"    pthread_create(&t[{i}], 0, thr{i}, 0);")
out += ["    return 0;", "}", ""]
sys.stdout.write("\n".join(out))
