#!/usr/bin/env bash
# Transaction-based summaries against the exact exploration of the inlined program, in the
# finite-state engine: one procedure `step` (a flip of `x` under a lock, asserted to stay 0 or
# 1) called from k sites spread over 4 threads. Both explore the same finite projection of the
# inlined program; prints per k the locations and, for each, seconds and states (and the
# transactions' summary edges), then each engine's peak memory in a process of its own.
#
#   benchmarks/recursion/transactions.sh [K...]     (default: 1 4 16 64)
#
# Environment: SECS (budget per engine and run, default 60). Builds the example in the
# default (debug, opt-level 1) profile.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
cargo build --quiet --example tx_bench
bin=target/debug/examples/tx_bench
secs=${SECS:-60}
ks=("$@")
if [ ${#ks[@]} -eq 0 ]; then ks=(1 4 16 64); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # k
    local k=$1
    echo '#include <pthread.h>'
    echo '#include <assert.h>'
    echo 'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;'
    echo 'int x = 0;'
    echo 'void step(void) { pthread_mutex_lock(&m); assert(x == 0 || x == 1); if (x == 0) x = 1; else x = 0; pthread_mutex_unlock(&m); }'
    for t in 0 1 2 3; do
        echo "void *t$t(void *a) {"
        for ((c = t; c < k; c += 4)); do echo '  step();'; done
        echo '  return 0; }'
    done
    echo 'int main(void) { pthread_t h[4];'
    for t in 0 1 2 3; do echo "  pthread_create(&h[$t], 0, t$t, 0);"; done
    echo '  return 0; }'
}

for k in "${ks[@]}"; do
    gen "$k" > "$tmp/step_$k.c"
    printf 'k=%-3s %s\n' "$k" "$("$bin" "$tmp/step_$k.c" "$secs")"
    # Each engine alone, for its peak memory.
    for which in exact tx; do
        kb=$( { /usr/bin/time -f 'MAXKB %M' "$bin" "$tmp/step_$k.c" "$secs" "$which" >/dev/null; } 2>&1 | sed -n 's/^MAXKB //p')
        printf 'k=%-3s %-5s peak %s kB\n' "$k" "$which" "$kb"
    done
done
