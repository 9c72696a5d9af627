#!/usr/bin/env bash
# The shared copy of a recursive function (a context-insensitive summary: --recursion-depth 1)
# against exact inlining 8 deep (the default) before it: k call sites of a recursive `sum`
# spread over 4 threads, each result stored under a lock, `low >= 0` asserted. COARSEN alone;
# prints per run: wall seconds, DFG cells, sequential edges, the verdict.
#
#   benchmarks/recursion/summaries.sh [K...]     (default: 1 4 16 64)
#
# Environment: BIN (default: a debug build), TIMEOUT (seconds per run, default 120).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
if [ -z "${BIN:-}" ]; then cargo build --quiet; BIN=target/debug/duet-rs; fi
timeout=${TIMEOUT:-120}
ks=("$@")
if [ ${#ks[@]} -eq 0 ]; then ks=(1 4 16 64); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # k
    local k=$1
    echo '#include <pthread.h>'
    echo '#include <assert.h>'
    echo 'extern int __VERIFIER_nondet_int(void);'
    echo 'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;'
    echo 'int low = 0;'
    echo 'int sum(int n) { if (n <= 0) return 0; int r = sum(n - 1); return r < 0 ? 0 : r + 1; }'
    for t in 0 1 2 3; do
        echo "void *t$t(void *a) {"
        for ((c = t; c < k; c += 4)); do
            echo '  { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 1000) return 0; int r = sum(n);'
            echo '    pthread_mutex_lock(&m); if (r < low) low = r; pthread_mutex_unlock(&m); }'
        done
        echo '  return 0; }'
    done
    echo 'int main(void) { pthread_t h[4];'
    for t in 0 1 2 3; do echo "  pthread_create(&h[$t], 0, t$t, 0);"; done
    echo '  for (int i = 0; i < 4; i++) pthread_join(h[i], 0);'
    echo '  assert(low >= 0); return 0; }'
}

printf '%-4s %-6s %8s %6s %8s  %s\n' k depth seconds cells seq-edges verdict
for k in "${ks[@]}"; do
    gen "$k" > "$tmp/sum_$k.c"
    for depth in 1 8; do
        out=$( { /usr/bin/time -f 'TIME %e' "$BIN" check --engines coarsen --stats --timeout "$timeout" --recursion-depth "$depth" "$tmp/sum_$k.c" 2>&1; } 2>&1 || true)
        t=$(sed -n 's/^TIME //p' <<<"$out")
        cells=$(sed -n 's/^cells: \([0-9]*\),.*/\1/p' <<<"$out")
        seq=$(sed -n 's/.*sequential edges: \([0-9]*\).*/\1/p' <<<"$out")
        verdict=$(grep -oE "(safe|unknown|timeout|out-of-memory) +'low" <<<"$out" | head -1 | cut -d' ' -f1)
        if [ -z "$verdict" ] && grep -q "timeout *1" <<<"$out"; then verdict=timeout; fi
        printf '%-4s %-6s %8s %6s %8s  %s\n' "$k" "$depth" "$t" "${cells:--}" "${seq:--}" "${verdict:--}"
    done
done
