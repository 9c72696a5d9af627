#!/usr/bin/env bash
# Generates the exception-set paper's Figure 3 family (Malkis, Podelski, Rybalchenko, SAS'07):
# n threads, each running m critical sections guarded by one test-and-set spin lock (an
# `__VERIFIER_atomic` function), with a ghost counter of the threads inside that each critical
# section asserts to be 1. Prints the C program on standard output.
#
#   benchmarks/coarsen/figure3.sh N M [shared|distinct] [buggy]
#
# shared:   one start routine created at N sites (each site its own template, same code);
# distinct: N start routines with identical bodies (thr_0 ... thr_{N-1}).
# buggy:    the last thread enters its first critical section without the lock, so the
#           assertion can fail (the failing twin: it must never be reported safe).
set -euo pipefail
n=${1:?N threads}; m=${2:?M critical sections}; form=${3:-shared}; bug=${4:-}
case "$form" in shared|distinct) ;; *) echo "form must be shared or distinct" >&2; exit 2 ;; esac

cat <<C
/* Figure 3 of the exception-set paper: $n threads x $m critical sections ($form${bug:+, buggy}). */
#include <pthread.h>
extern void __VERIFIER_assert(int cond);

int lck = 0;
int inside = 0;

/* Test-and-set: returns the old value of the lock and sets it. */
int __VERIFIER_atomic_tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

C

body() { # $1: 1 if the first critical section skips the lock
    for k in $(seq 1 "$m"); do
        if [ "$k" = 1 ] && [ "$1" = 1 ]; then
            echo "    inside = inside + 1; __VERIFIER_assert(inside == 1); inside = inside - 1;"
        else
            echo "    while (__VERIFIER_atomic_tas()) {}"
            echo "    inside = inside + 1; __VERIFIER_assert(inside == 1); inside = inside - 1;"
            echo "    lck = 0;"
        fi
    done
}

if [ "$form" = shared ]; then
    echo "void *thr(void *arg) {"
    body 0
    echo "    return 0;"
    echo "}"
    if [ -n "$bug" ]; then
        echo "void *thr_bug(void *arg) {"
        body 1
        echo "    return 0;"
        echo "}"
    fi
else
    for i in $(seq 0 $((n - 1))); do
        echo "void *thr_$i(void *arg) {"
        if [ -n "$bug" ] && [ "$i" = $((n - 1)) ]; then body 1; else body 0; fi
        echo "    return 0;"
        echo "}"
    done
fi

echo
echo "int main(void) {"
echo "    pthread_t t[$n];"
for i in $(seq 0 $((n - 1))); do
    if [ "$form" = shared ]; then
        f=thr
        if [ -n "$bug" ] && [ "$i" = $((n - 1)) ]; then f=thr_bug; fi
    else
        f=thr_$i
    fi
    echo "    pthread_create(&t[$i], 0, $f, 0);"
done
echo "    return 0;"
echo "}"
