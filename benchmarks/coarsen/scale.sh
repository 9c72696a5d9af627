#!/usr/bin/env bash
# COARSEN alone at scale (issue 18): indexer(32) and the Figure 3 family at N x 9 in the four
# forms the repository generates: benchmarks/finite/gen_fig3.py (a blocking atomic acquire;
# one routine created at N sites, or N routines) and benchmarks/coarsen/figure3.sh (a
# test-and-set spin lock; the same two forms). Prints per run: wall seconds, peak resident
# memory of the whole process tree, data-flow edges, abstract-interpreter and Datalog
# milliseconds, verdict counts.
#
#   benchmarks/coarsen/scale.sh [BINARY] [N...]     (default: target/release/duet-rs, N = 20 50 100)
#
# Environment: TIMEOUT (seconds per run, default 300), MEMORY (MB per task, default 8000).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
bin=${1:-$repo/target/release/duet-rs}
shift || true
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(20 50 100); fi
timeout=${TIMEOUT:-300}
memory=${MEMORY:-8000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # name args...
    local name=$1
    shift
    local out
    out=$( { /usr/bin/time -f 'TIME %e %M' timeout "$timeout" "$bin" check --engines coarsen --stats --memory "$memory" "$@" 2>&1; } 2>&1 || true)
    local t edges ai dl verdicts wall rss
    t=$(sed -n 's/^TIME //p' <<<"$out")
    edges=$(sed -n 's/^total: [0-9]* rounds, \([0-9]*\) edges.*/\1/p' <<<"$out")
    ai=$(sed -n 's/.*absint \([0-9.]*\) ms.*/\1/p' <<<"$out")
    dl=$(sed -n 's/.*datalog \([0-9.]*\) ms.*/\1/p' <<<"$out")
    verdicts=$(grep -E '^  (safe|violated|unknown|timeout|error|out-of-memory) ' <<<"$out" | awk '$2 > 0 {printf "%s=%s ", $1, $2}' || true)
    read -r wall rss <<<"$t"
    printf "%-32s %8s %8s %10s %10s %11s  %s\n" "$name" "$wall" "$((rss / 1024))" "${edges:-?}" "${ai:-?}" "${dl:-?}" "$verdicts"
}

printf "%-32s %8s %8s %10s %10s %11s  %s\n" program wall-s rss-MB edges absint-ms datalog-ms verdicts
run "indexer(32)" -D NTHREADS=32 "$repo/benchmarks/bounded/indexer.c"
for n in "${sizes[@]}"; do
    python3 "$repo/benchmarks/finite/gen_fig3.py" "$n" 9 >"$tmp/acq_shared.c"
    python3 "$repo/benchmarks/finite/gen_fig3.py" "$n" 9 --distinct >"$tmp/acq_distinct.c"
    "$repo/benchmarks/coarsen/figure3.sh" "$n" 9 shared >"$tmp/tas_shared.c"
    "$repo/benchmarks/coarsen/figure3.sh" "$n" 9 distinct >"$tmp/tas_distinct.c"
    for f in acq_shared acq_distinct tas_shared tas_distinct; do
        run "figure3($n x 9, $f)" "$tmp/$f.c"
    done
done
