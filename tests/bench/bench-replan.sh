#!/bin/sh
# Re-plan latency (what the window does after a partition edit) on the 10k-
# and 70k-node synthetic graphs (generated once into WORKDIR).
# Usage: bench-replan.sh PV_GEN_MODELS BENCH_REPLAN WORKDIR
set -eu
gen=$1; bench=$2; work=$3
mkdir -p "$work"
for n in 10000 70000; do
  model="$work/synthetic-$((n / 1000))k.onnx"
  [ -s "$model" ] || "$gen" --synthetic --nodes "$n" "$model"
  "$bench" "$model" 30
done
