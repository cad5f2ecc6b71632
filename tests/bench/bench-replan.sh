#!/bin/sh
# Re-plan latency (what the window does after a partition edit) on the
# synthetic graphs of 10,016, 70,012 and 95,708 nodes as ONNX Runtime counts
# them (the generator's --nodes 14300, 100000 and 136700, before Constant
# folding; generated once into WORKDIR).
# Usage: bench-replan.sh PV_GEN_MODELS BENCH_REPLAN WORKDIR
set -eu
gen=$1; bench=$2; work=$3
mkdir -p "$work"
for n in 14300 100000 136700; do
  model="$work/synthetic-$n.onnx" runs=30
  [ "$n" = 100000 ] && model="$work/synthetic-100k.onnx"
  [ "$n" = 136700 ] && model="$work/synthetic-95k.onnx" runs=15
  [ -s "$model" ] || "$gen" --synthetic --nodes "$n" "$model"
  "$bench" "$model" "$runs"
done
