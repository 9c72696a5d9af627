#!/usr/bin/env bash
# Transaction summaries shared between call sites against summaries per inlined copy: one
# locked procedure called from k sites spread over 4 threads (every call inlined, so each site
# is a copy of its own). Two bodies: `flip` (flip `x` under the lock, assert it stays 0 or 1)
# and `loop` (the same flip four times in a counted loop with locals, a longer transaction).
# Per body and k it prints, for the transaction engine alone (`examples/tx_bench.rs`), with
# summaries shared (`tx`) and per copy (`tx-per-copy`): seconds, level-I states, summary
# edges, copy summaries computed and reused, peak memory; and `duet-rs check` on the file
# (the default strategy, and `--engines finite`): wall seconds, peak memory, verdict.
#
#   benchmarks/transactions/sharing.sh [K...]      (default: 1 4 16 64)
#
# Environment: SECS (budget of the transaction engine per run, default 120), BODIES (default
# "flip loop"), CHECK (0 skips `check`). Debug profile (opt-level 1), like the other scripts.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
cargo build --quiet --example tx_bench --bin duet-rs
bench=target/debug/examples/tx_bench
duet=target/debug/duet-rs
secs=${SECS:-120}
bodies=(${BODIES:-flip loop})
ks=("$@")
if [ ${#ks[@]} -eq 0 ]; then ks=(1 4 16 64); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # body k
    local body=$1 k=$2
    echo '#include <pthread.h>'
    echo '#include <assert.h>'
    echo 'pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;'
    echo 'int x = 0;'
    case $body in
    flip) echo 'void step(void) { pthread_mutex_lock(&m); assert(x == 0 || x == 1); if (x == 0) x = 1; else x = 0; pthread_mutex_unlock(&m); }' ;;
    loop) echo 'void step(void) { int i; pthread_mutex_lock(&m); for (i = 0; i < 4; i++) { if (x == 0) x = 1; else x = 0; } assert(x == 0 || x == 1); pthread_mutex_unlock(&m); }' ;;
    esac
    for t in 0 1 2 3; do
        echo "void *t$t(void *a) {"
        for ((c = t; c < k; c += 4)); do echo '  step();'; done
        echo '  return 0; }'
    done
    echo 'int main(void) { pthread_t h[4];'
    for t in 0 1 2 3; do echo "  pthread_create(&h[$t], 0, t$t, 0);"; done
    echo '  return 0; }'
}

# Peak resident kB and the command's stdout, `/usr/bin/time -v` on one run.
timed() { # out-file cmd...
    local out=$1
    shift
    /usr/bin/time -v "$@" >"$out" 2>"$out.time" || true
    sed -n 's/^\tMaximum resident set size (kbytes): //p' "$out.time"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for body in "${bodies[@]}"; do
    for k in "${ks[@]}"; do
        f="$tmp/${body}_$k.c"
        gen "$body" "$k" >"$f"
        for which in tx tx-per-copy; do
            kb=$(timed "$tmp/out" "$bench" "$f" "$secs" "$which")
            printf '%-4s k=%-3s %-11s %s | peak %s kB\n' "$body" "$k" "$which" "$(sed 's/exact: [^|]*| //' "$tmp/out")" "$kb"
        done
        if [ "${CHECK:-1}" != 0 ]; then
            for engines in default finite; do
                args=(check --format json "$f")
                [ "$engines" = default ] || args+=(--engines "$engines")
                start=$(date +%s.%N)
                kb=$(timed "$tmp/out" "$duet" "${args[@]}")
                end=$(date +%s.%N)
                verdict=$(grep -o '"status": *"[a-z-]*"' "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
                printf '%-4s k=%-3s check %-8s %.2f s | peak %s kB | %s\n' "$body" "$k" "$engines" "$(echo "$end - $start" | bc)" "$kb" "$verdict"
            done
        fi
    done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
