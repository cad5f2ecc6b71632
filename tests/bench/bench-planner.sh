#!/bin/sh
# Planner stages on the 95.7k-node synthetic graph (generated once into WORKDIR),
# beside Python's onnx.load + onnx.shape_inference.infer_shapes(data_prop=True)
# on the same file, measured in the same run: the ratio is issue 16's figure
# (target: planviz's pipeline ≤ 0.25 × Python's).
# Usage: bench-planner.sh PV_GEN_MODELS BENCH_PLANNER WORKDIR
set -eu
gen=$1; bench=$2; work=$3
mkdir -p "$work"
model="$work/synthetic-95k.onnx"
# --nodes counts Constant nodes too: 136,700 make 95,708 graph nodes.
[ -s "$model" ] || "$gen" --synthetic --nodes 136700 "$model"
"$bench" "$model" 5 | tee "$work/bench-planner.txt"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
  /usr/bin/python3 - "$model" "$work/bench-planner.txt" <<'PY'
import re, sys, time, onnx
def run():
    t0 = time.perf_counter()
    m = onnx.load(sys.argv[1])
    t1 = time.perf_counter()
    onnx.shape_inference.infer_shapes(m, data_prop=True)
    return t1 - t0, time.perf_counter() - t1
runs = [run() for _ in range(3)]
load, infer = min(r[0] for r in runs), min(r[1] for r in runs)
print(f"{'python onnx.load':<24} {load * 1000:10.1f} ms best (3 runs)")
print(f"{'python infer_shapes':<24} {infer * 1000:10.1f} ms best (3 runs, data_prop=True)")
pipeline = float(re.search(r'^pipeline\s+([\d.]+) ms', open(sys.argv[2]).read(), re.M).group(1))
print(f"{'pipeline / python':<24} {pipeline / ((load + infer) * 1000):10.3f} (target <= 0.25)")
PY
fi
