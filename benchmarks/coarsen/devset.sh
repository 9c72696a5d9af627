#!/usr/bin/env bash
# Times COARSEN on every task of the SV-COMP development set, for both domains.
# Prints per task: seconds, rounds, Datalog milliseconds and share, verdict; then the median
# and maximum time, and the Datalog share overall, per domain.
# Usage: benchmarks/coarsen/devset.sh [SHARED_DIR]   (default: ../shared next to the repo)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${1:-${DUET_SHARED:-$repo/../shared}}"
tasks="$shared/benchmarks/tasks.tsv"
[ -f "$tasks" ] || { echo "no $tasks: pass the shared directory as the first argument" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
bin="$repo/target/release/duet-rs"
for domain in interval octagon; do
    echo "== domain $domain"
    printf '%-44s %8s %6s %10s %8s %s\n' task seconds rounds datalog_ms share verdict
    tail -n +2 "$tasks" | while IFS=$'\t' read -r _ input expected _; do
        start=$(date +%s.%N)
        out=$("$bin" check --stats --domain "$domain" "$shared/benchmarks/$input" 2>&1 || true)
        end=$(date +%s.%N)
        secs=$(echo "$end - $start" | bc -l)
        rounds=$(echo "$out" | sed -n 's/^total: \([0-9]*\) rounds.*/\1/p')
        dl=$(echo "$out" | sed -n 's/.*datalog \([0-9.]*\) ms.*/\1/p')
        share=$(echo "$out" | sed -n 's/.*(\([0-9]*\)% of the analysis).*/\1/p')
        safe=$(echo "$out" | grep -cE '^  [^ ]+:[0-9]+:[0-9]+ +safe ' || true)
        other=$(echo "$out" | grep -cE '^  [^ ]+:[0-9]+:[0-9]+ +(unknown|violated|bounded-safe) ' || true)
        printf '%-44s %8.3f %6s %10s %7s%% safe=%s other=%s expected=%s\n' "$(basename "$input")" "$secs" "${rounds:-?}" "${dl:-?}" "${share:-?}" "$safe" "$other" "$expected"
    done | tee /tmp/duet-devset-$domain.txt
    awk '{print $2}' /tmp/duet-devset-$domain.txt | sort -n | awk '{a[NR]=$1} END {printf "median %.3f s, max %.3f s over %d tasks\n", a[int((NR+1)/2)], a[NR], NR}'
    awk '{dl+=$4; t+=$2} END {printf "Datalog: %.1f ms of %.1f ms wall time in total\n", dl, t*1000}' /tmp/duet-devset-$domain.txt
done
