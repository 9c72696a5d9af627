#!/usr/bin/env bash
# Per-round costs of the default strategy's deepening on the dev-set tasks it leaves open (and
# on indexer(32)): for each, the figures of every round of `check --stats` (events, term
# nodes, seconds summarising, encoding, loading Z3, solving, in all) and the verdict.
#
#   benchmarks/bounded/deepening.sh [SHARED_DIR] [SEARCH_TIME]   (defaults: ../shared, 60)
#
# DUET_Z3_PARAMS (e.g. "smt.arith.solver=2") is passed through to Z3, to compare
# configurations. Uses target/release/duet-rs as built (build it first).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${1:-${DUET_SHARED:-$repo/../shared}}"
st="${2:-60}"
bin="$repo/target/release/duet-rs"
open=(
    c/goblint-regression/28-race_reach_70-funloop_racefree.i
    c/pthread-ext/01_inc.i
    c/weaver/bench-exp1x3.wvr.c
    c/weaver/bench-exp2x3.wvr.c
    c/weaver/chl-array-int-subst.wvr.c
    c/weaver/chl-array-int-trans.wvr.c
    c/weaver/chl-node-subst.wvr.c
    c/weaver/popl20-counter-determinism.wvr.c
)
echo "# DUET_Z3_PARAMS='${DUET_Z3_PARAMS:-}' search time $st s"
one() {
    local name=$1
    shift
    local start end out
    start=$(date +%s.%N)
    out=$("$bin" check --stats --search-time "$st" "$@" 2>/dev/null || true)
    end=$(date +%s.%N)
    echo "## $name: $(awk '/ (safe|violated|unknown|bounded-safe) /{print $2; exit}' <<<"$out"), $(printf %.2f "$(echo "$end - $start" | bc)") s"
    grep -E '^round [0-9]' <<<"$out" || true
}
for t in "${open[@]}"; do
    one "$(basename "$t")" "$shared/benchmarks/$t"
done
one "indexer(32)" -D NTHREADS=32 "$repo/benchmarks/bounded/indexer.c"
