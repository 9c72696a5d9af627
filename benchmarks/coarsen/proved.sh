#!/usr/bin/env bash
# How many dev-set tasks COARSEN alone proves (`--engines coarsen`), per domain, and in how
# much time (summed over the expected-true tasks); a task counts as proved when every assertion is `safe` (exit code 0). Any
# expected-false task with a `safe` verdict is printed as WRONG SAFE.
# Usage: benchmarks/coarsen/proved.sh [BINARY] [SHARED_DIR]
#   (defaults: target/release/duet-rs, and ../shared next to the repo)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$repo/target/release/duet-rs}"
shared="${2:-${DUET_SHARED:-$repo/../shared}}"
tasks="$shared/benchmarks/tasks.tsv"
[ -f "$tasks" ] || { echo "no $tasks: pass the shared directory as the second argument" >&2; exit 1; }
for domain in interval octagon; do
    proved=0 total=0 wrong=0 secs=0
    while IFS=$'\t' read -r _ input expected _; do
        start=$(date +%s.%N)
        out=$("$bin" check --engines coarsen --domain "$domain" "$shared/benchmarks/$input" 2>&1) && rc=0 || rc=$?
        end=$(date +%s.%N)
        if [ "$expected" = true ]; then
            secs=$(echo "$secs + $end - $start" | bc -l)
            total=$((total + 1))
            if [ "$rc" = 0 ]; then proved=$((proved + 1)); else echo "  $domain not proved: $(basename "$input")"; fi
        elif echo "$out" | grep -qE '^  [^ ]+:[0-9]+:[0-9]+ +safe '; then
            wrong=$((wrong + 1))
            echo "  $domain WRONG SAFE: $(basename "$input")"
        fi
    done < <(tail -n +2 "$tasks")
    printf '%s: proved %d of %d expected-true tasks, %d wrong safe, %.2f s in total\n' "$domain" "$proved" "$total" "$wrong" "$secs"
done
