#!/usr/bin/env bash
# Fuzzes the C front-end (preprocessed text through lowering) and the Datalog reader (parsing
# and checking) for a given time each, on the stable toolchain (examples/fuzz.rs: a mutation
# fuzzer without coverage feedback). Crashes land in target/fuzz/{c,dl}/crash-N.*; turn each
# into a regression file under tests/fuzz_regressions/.
#
#   benchmarks/fuzz/run.sh [SECONDS_PER_TARGET] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
seed=${2:-1}
cargo build --release --example fuzz
status=0
./target/release/examples/fuzz c --seconds "$secs" --seed "$seed" --out target/fuzz/c \
    tests/programs benchmarks/examples tests/bad_input tests/fuzz_regressions || status=1
./target/release/examples/fuzz dl --seconds "$secs" --seed "$seed" --out target/fuzz/dl \
    rules datalog/tests tests/fuzz_regressions || status=1
exit $status
