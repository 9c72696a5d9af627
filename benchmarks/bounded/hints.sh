#!/usr/bin/env bash
# COARSEN's hints in the bounded encoding, on the SV-COMP development set: per task, the copy
# pairs, "in between" constraints and solve time of `check --bound K --stats`, with and without
# --no-coarsen-hints, then the totals.
#
#   benchmarks/bounded/hints.sh [SHARED_DIR] [K]     (defaults: ../shared next to the repo, 2)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${1:-${DUET_SHARED:-$repo/../shared}}"
k="${2:-2}"
tasks="$shared/benchmarks/tasks.tsv"
[ -f "$tasks" ] || { echo "no $tasks: pass the shared directory as the first argument" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
bin="$repo/target/release/duet-rs"
field() { grep -E "^$1 " <<<"$2" | awk '{print $NF}' | head -1; }
printf '%-44s %10s %10s %10s %10s %9s %9s\n' task pairs pairs-nh between between-nh solve-s solve-nh-s
tail -n +2 "$tasks" | while IFS=$'\t' read -r yml input _; do
    m32=()
    grep -q "data_model: ILP32" "$shared/benchmarks/$yml" && m32=(--m32)
    on=$("$bin" check "${m32[@]}" --bound "$k" --stats "$shared/benchmarks/$input" 2>/dev/null || true)
    off=$("$bin" check "${m32[@]}" --bound "$k" --stats --no-coarsen-hints "$shared/benchmarks/$input" 2>/dev/null || true)
    f() { local v; v=$(field "$1" "$2"); echo "${v:-0}"; }
    # Tasks COARSEN proves entirely never reach the bounded search: zeros.
    printf '%-44s %10s %10s %10s %10s %9s %9s\n' "$(basename "$input")" \
        "$(f 'copy pairs' "$on")" "$(f 'copy pairs' "$off")" \
        "$(f 'between constraints' "$on")" "$(f 'between constraints' "$off")" \
        "$(f 'solve s' "$on")" "$(f 'solve s' "$off")"
done | tee /tmp/duet-hints.txt
awk '{p+=$2; pn+=$3; b+=$4; bn+=$5; s+=$6; sn+=$7} END {printf "total: copy pairs %d vs %d without hints, between %d vs %d, solve %.2f s vs %.2f s\n", p, pn, b, bn, s, sn}' /tmp/duet-hints.txt
