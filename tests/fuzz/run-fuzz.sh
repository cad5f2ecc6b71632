#!/bin/bash
# Runs one libFuzzer target over its corpus: FUZZER NAME RUNS MAX_LEN CORPUS [SEED_DIR...]
#
# Smoke run (the test suite): RUNS executions after the corpus, new inputs in
# a temporary folder. Long run (`make fuzz`): PV_FUZZ_SECONDS seconds, new
# inputs kept in PV_FUZZ_SCRATCH/NAME (default ./fuzz-scratch) for the next
# run; PV_FUZZ_WORKERS=N runs N processes (-fork=N); PV_FUZZ_KEEP=1 then
# merges what adds coverage into CORPUS (-merge=1). Never writes to CORPUS
# otherwise. The seed is fixed (1) and printed; PV_TEST_SEED changes it.
# Crash inputs go to PV_FUZZ_ARTIFACTS (default ./fuzz-artifacts/). Ends with
# one line: NAME: N executions in T s, X exec/s, and the fuzzer's status;
# exits 1 when the fuzzer found something (or failed), 0 otherwise.
# PV_FUZZ_FLAGS: the target's own libFuzzer flags (meson.build), space-separated.
set -eu -o pipefail
fuzzer=$1; name=$2; runs=$3; max_len=$4; corpus=$5; shift 5
seeds=()
for d in "$corpus" "$@"; do [ -d "$d" ] && seeds+=("$d"); done
# ASan keeps 256 MB of freed blocks by default, so nearly every allocation
# is fresh memory to fault in and fill: 16 MB still holds a freed block for
# hundreds of inputs, and runs the targets 1.3-2x faster (CPU time, 20,000-
# 30,000 runs: partition-config 3,257 -> 4,545/s, kernel-defs 4,172 ->
# 8,356/s, model-loader 9,966 -> 13,392/s). An ASAN_OPTIONS setting wins.
export ASAN_OPTIONS="quarantine_size_mb=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Undefined behaviour stops the run (UBSan only prints by default).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Fontconfig's and GLib's lifetime caches (the pipeline target draws text)
# are not leaks, with or without the Makefile's settings.
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/.." && pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
seed=${PV_TEST_SEED:-1}
artifacts=${PV_FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
mkdir -p "$artifacts"
echo "random seed $seed (PV_TEST_SEED=N repeats or changes it)"

args=(-seed="$seed" -max_len="$max_len" -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$artifacts/$name-")
# shellcheck disable=SC2206 # flags are words
[ -n "${PV_FUZZ_FLAGS:-}" ] && args+=(${PV_FUZZ_FLAGS})
if [ -n "${PV_FUZZ_SECONDS:-}" ]; then
  scratch=${PV_FUZZ_SCRATCH:-$PWD/fuzz-scratch}/$name
  mkdir -p "$scratch"
  args+=(-max_total_time="$PV_FUZZ_SECONDS")
  workers=${PV_FUZZ_WORKERS:-1}
  [ "$workers" -gt 1 ] && args+=(-fork="$workers" -ignore_crashes=0)
  log=$scratch.log
  keep_scratch=1
else
  scratch=$(mktemp -d)
  log=$scratch.log
  keep_scratch=0
  args+=(-runs="$runs")
fi
cleanup () { [ "$keep_scratch" = 1 ] || rm -rf "$scratch" "$log"; }
trap cleanup EXIT

start=$(date +%s.%N)
status=0
"$fuzzer" "${args[@]}" "$scratch" "${seeds[@]}" > "$log" 2>&1 || status=$?
end=$(date +%s.%N)
tail -n 20 "$log"

# Executions: the final stats, or (fork mode) the last status line.
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$execs" ] || execs=$( (grep -o '^#[0-9]*' "$log" || true) | tail -n 1 | tr -d '#')
execs=${execs:-0}
awk -v n="$name" -v e="$execs" -v s="$start" -v t="$end" -v st="$status" \
  'BEGIN { d = t - s; printf "%s: %d executions in %.1f s, %.0f exec/s, status %d\n", n, e, d, (d > 0 ? e / d : 0), st }'

if [ "$status" = 0 ] && [ "${PV_FUZZ_KEEP:-0}" = 1 ] && [ -n "${PV_FUZZ_SECONDS:-}" ]; then
  # A target may have no committed inputs of its own yet (partition-config
  # seeds from tests/ort/configs): the merge starts its folder.
  mkdir -p "$corpus"
  before=$(ls "$corpus" | wc -l)
  "$fuzzer" -merge=1 -max_len="$max_len" -rss_limit_mb=2048 "$corpus" "$scratch" > "$scratch.merge.log" 2>&1
  echo "$name: merged into $corpus: $before -> $(ls "$corpus" | wc -l) inputs"
fi
# libFuzzer exits 77 on a crash (-error_exitcode), which meson reads as
# "skipped": any failure is 1.
[ "$status" = 0 ] || exit 1
