#!/bin/sh
# Planner stages on the 100k-node synthetic graph (generated once into WORKDIR),
# with Python's onnx.shape_inference on the same file for comparison.
# Usage: bench-planner.sh PV_GEN_MODELS BENCH_PLANNER WORKDIR
set -eu
gen=$1; bench=$2; work=$3
mkdir -p "$work"
model="$work/synthetic-100k.onnx"
[ -s "$model" ] || "$gen" --synthetic --nodes 100000 "$model"
"$bench" "$model" 5
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
  /usr/bin/python3 - "$model" <<'PY'
import sys, time, onnx
m = onnx.load(sys.argv[1])
best = min((lambda t: (onnx.shape_inference.infer_shapes(m), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(3))
print(f"{'python onnx infer_shapes':<24} {best * 1000:10.1f} ms best (3 runs)")
PY
fi
