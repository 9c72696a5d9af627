#!/bin/sh
# Figure 3 family (SAS 2007): time to load and to prove, with Section 5's exceptions, and
# whether plain Cartesian abstraction (no exceptions) proves it (n <= 20 only).
# Sizes: FIG3_N=10,20,... FIG3_M=1,3,... (defaults: the paper's n = 10..100, m = 1,3,5,7,9).
# FIG3_MODE=--distinct gives every thread its own start routine (no symmetry to exploit);
# FIG3_MODE=--loop creates the threads in a loop (the proof is then for every n).
cd "$(dirname "$0")/../.." && exec cargo test --release --test finite bench_figure3 -- --ignored --nocapture
