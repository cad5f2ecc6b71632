#!/bin/sh
# Frame times of the timeline view in the real window on the 70k-node
# synthetic graph (generated once into WORKDIR).
# Usage: bench-frames.sh PV_GEN_MODELS RUN_XVFB TEST_FRAMES WORKDIR
set -eu
gen=$1; xvfb=$2; test=$3; work=$4
mkdir -p "$work"
model="$work/synthetic-70k.onnx"
[ -s "$model" ] || "$gen" --synthetic --nodes 70000 "$model" >/dev/null
PV_FRAMES_MODEL=$model exec "$xvfb" "$test" --verbose
