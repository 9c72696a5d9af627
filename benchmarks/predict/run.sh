#!/bin/sh
# Predictive analysis benchmarks (seed 001, Wang et al. FM 2009).
#  1. The indexer at Table 1's thread counts, one observed run, context bounding on (bound 2,
#     as in the paper) and off: the paper reports indexer-25a at 9.8 s with and 26.1 s without.
#  2. The SV-COMP dev set: expected-false tasks `predict` finds, and the time to the first bug,
#     beside the default `check` (COARSEN, bound 1, finite engine, deepening).
# Usage: benchmarks/predict/run.sh [BINARY]   (default target/release/duet-rs)
set -u
BIN=${1:-target/release/duet-rs}
SHARED=${DUET_SHARED:-../shared}
echo "# indexer (benchmarks/bounded/indexer.c), 1 run, seed 0"
echo "threads  cb  verdict  seconds"
for n in 10 15 20 25; do
  for cb in "--context-bound 2" "--no-context-bound"; do
    start=$(date +%s.%N)
    out=$($BIN predict --no-progress --runs 1 --seed 0 $cb -DNTHREADS=$n benchmarks/bounded/indexer.c 2>/dev/null)
    end=$(date +%s.%N)
    v=$(echo "$out" | awk '/^  .*(violated|unknown) /{print $2; exit}')
    printf "%-8s %-4s %-8s %.2f\n" "$n" "$( [ "$cb" = "--no-context-bound" ] && echo off || echo 2)" "$v" "$(echo "$end - $start" | bc)"
  done
done
TASKS=$SHARED/benchmarks/tasks.tsv
[ -f "$TASKS" ] || { echo "SKIPPED dev set: $TASKS is absent"; exit 0; }
echo
echo "# dev set: expected-false tasks, predict (8 runs, seed 0) vs check (default strategy)"
echo "task  predict(s) found  check(s) found"
total_p=0; total_c=0
for f in $(awk -F'\t' 'NR>1 && $3=="false" {print $2}' "$TASKS"); do
  file=$SHARED/benchmarks/$f
  s=$(date +%s.%N); $BIN predict --no-progress --timeout 120 "$file" >/dev/null 2>&1; rp=$?; e=$(date +%s.%N)
  tp=$(echo "$e - $s" | bc)
  s=$(date +%s.%N); $BIN check --no-progress --timeout 120 "$file" >/dev/null 2>&1; rc=$?; e=$(date +%s.%N)
  tc=$(echo "$e - $s" | bc)
  [ $rp = 10 ] && total_p=$((total_p+1)); [ $rc = 10 ] && total_c=$((total_c+1))
  printf "%-40s %6.1f %-5s %6.1f %-5s\n" "$(basename $f)" "$tp" "$([ $rp = 10 ] && echo yes || echo no)" "$tc" "$([ $rc = 10 ] && echo yes || echo no)"
done
echo "found: predict $total_p, check $total_c (of $(awk -F'\t' 'NR>1 && $3=="false"' "$TASKS" | wc -l))"
