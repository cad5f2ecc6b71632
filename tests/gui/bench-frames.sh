#!/bin/sh
# Frame times and re-plan latency of the real window on the synthetic graphs
# of 10,016 and 70,012 nodes as ONNX Runtime counts them (the generator's
# --nodes 14300 and 100000, before Constant folding; generated once into
# WORKDIR).
# Usage: bench-frames.sh PV_GEN_MODELS RUN_XVFB TEST_FRAMES WORKDIR
set -eu
gen=$1; xvfb=$2; test=$3; work=$4
mkdir -p "$work"
for n in 14300 100000; do
  model="$work/synthetic-$n.onnx"
  [ "$n" = 100000 ] && model="$work/synthetic-100k.onnx"
  [ -s "$model" ] || "$gen" --synthetic --nodes "$n" "$model" >/dev/null
  PV_FRAMES_MODEL=$model "$xvfb" "$test" --verbose
done
