#!/bin/sh
# A short, deterministic libFuzzer run: FUZZER RUNS SEED_DIR...
# New inputs go to a scratch folder, never into the seed corpus. The seed is
# fixed (1) and printed; PV_TEST_SEED changes it.
set -eu
fuzzer=$1; runs=$2; shift 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
seeds=""
for d in "$@"; do [ -d "$d" ] && seeds="$seeds $d"; done
seed=${PV_TEST_SEED:-1}
echo "random seed $seed (PV_TEST_SEED=N repeats or changes it)"
# shellcheck disable=SC2086
"$fuzzer" -runs="$runs" -seed="$seed" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 "$scratch" $seeds 2>&1 | tail -20
