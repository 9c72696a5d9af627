#!/bin/sh
# Runs the Datalog engine benchmark (datalog/benches/engine.rs) and saves its tables.
#
#   benchmarks/datalog/run.sh            # all workloads: tc, interference, incremental
#   benchmarks/datalog/run.sh --quick    # smaller sizes
#   benchmarks/datalog/run.sh profile    # where the time (and memory: rows held) goes on the interference rules
#
# Ratios in a table are measured in one run of the binary. The machine may be shared: each cell
# shows wall time and CPU time; compare CPU times when other processes are busy.
set -eu
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target-datalog}"
out="benchmarks/datalog/results-$(date +%Y%m%d-%H%M%S).md"
{
    echo "# duet-datalog benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "machine: $(nproc) cores, load before start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    cargo bench -q -p duet-datalog --bench engine -- "$@"
} | tee "$out"
echo "saved $out" >&2
