#!/usr/bin/env bash
# Inlining against one shared copy per thread (--inline-limit) for a non-recursive helper:
# k call sites of a 40-statement `clamp` spread over 4 threads, each result stored under a
# lock, `low >= 0` asserted. COARSEN alone, then the default strategy; prints per run: wall
# seconds, peak memory, IR locations, the verdict.
#
#   benchmarks/recursion/inline.sh [K...]     (default: 1 4 16 64)
#
# Environment: BIN (default: a release build), TIMEOUT (seconds per run, default 120).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
if [ -z "${BIN:-}" ]; then cargo build --release --quiet; BIN=target/release/duet-rs; fi
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
    echo 'int clamp(int x) {'
    echo '  int r = x;'
    for i in $(seq 1 20); do echo "  if (r > $((1000 - i))) r = r - $i; else if (r < $i) r = $i;"; done
    echo '  return r; }'
    for t in 0 1 2 3; do
        echo "void *t$t(void *a) {"
        for ((c = t; c < k; c += 4)); do
            echo '  { int r = clamp(__VERIFIER_nondet_int());'
            echo '    pthread_mutex_lock(&m); if (r < low) low = r; pthread_mutex_unlock(&m); }'
        done
        echo '  return 0; }'
    done
    echo 'int main(void) { pthread_t h[4];'
    for t in 0 1 2 3; do echo "  pthread_create(&h[$t], 0, t$t, 0);"; done
    echo '  for (int i = 0; i < 4; i++) pthread_join(h[i], 0);'
    echo '  assert(low >= 0); return 0; }'
}

printf '%-4s %-9s %-8s %8s %8s %6s  %s\n' k engines limit seconds max-kB locs verdict
for k in "${ks[@]}"; do
    gen "$k" > "$tmp/clamp_$k.c"
    for engines in coarsen default; do
        for limit in 2000 10; do
            flags=(--timeout "$timeout" --inline-limit "$limit")
            if [ "$engines" = coarsen ]; then flags+=(--engines coarsen); fi
            out=$( { /usr/bin/time -f 'TIME %e %M' "$BIN" check "${flags[@]}" "$tmp/clamp_$k.c" 2>&1; } 2>&1 || true)
            read -r t mem < <(sed -n 's/^TIME //p' <<<"$out")
            locs=$("$BIN" ir --inline-limit "$limit" "$tmp/clamp_$k.c" | grep -cE '^ +L[0-9]+ ' || true)
            verdict=$(grep -oE "(safe|bounded-safe|violated|unknown|timeout) +'low" <<<"$out" | head -1 | cut -d' ' -f1 || true)
            if [ -z "$verdict" ] && grep -q "timeout *1" <<<"$out"; then verdict=timeout; fi
            printf '%-4s %-9s %-8s %8s %8s %6s  %s\n' "$k" "$engines" "$limit" "$t" "$mem" "$locs" "${verdict:--}"
        done
    done
done
