#!/bin/sh
# Timeline redraw on the 100k-node synthetic graph (generated once into
# WORKDIR), at several zooms, in every memory view.
# Usage: bench-render.sh PV_GEN_MODELS BENCH_RENDER WORKDIR
set -eu
gen=$1; bench=$2; work=$3
mkdir -p "$work"
model="$work/synthetic-100k.onnx"
[ -s "$model" ] || "$gen" --synthetic --nodes 100000 "$model"
"$bench" --runs 15 "$model" batch=1 seq=128
