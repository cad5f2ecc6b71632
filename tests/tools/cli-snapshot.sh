#!/bin/sh
# Writes what planviz-cli says about a fixed set of models and configs into
# OUT_DIR, one file per command: run it before and after a change that
# must not change behaviour, then `diff -r BEFORE AFTER`.
# Usage: tests/tools/cli-snapshot.sh PLANVIZ_CLI SHARED_DIR OUT_DIR
set -u
# Paths in the outputs are relative to the checkout (run from anywhere, with
# SHARED_DIR relative to it, e.g. ../shared), so that two checkouts compare.
cli=$(realpath "$1"); shared=$2; out=$(realpath -m "$3")
cd "$(dirname "$0")/../.."
here=.
mkdir -p "$out"
models="data/*.onnx $shared/onnx-tests/light/*.onnx $shared/ort-testdata/*.onnx"
for t in test_if test_loop11 test_scan_sum test_gru_defaults test_nonzero_example test_softmax_example_expanded \
         test_layer_normalization_2d_axis0_expanded test_affine_grid_2d_expanded test_resize_downsample_scales_linear; do
  models="$models $shared/onnx-tests/node/$t/model.onnx"
done
# Partitions: the model's own default, round-robin on two and three streams.
for m in $models; do
  [ -f "$m" ] || continue
  name=$(echo "$m" | sed "s|^$shared/||; s|/|_|g")
  run() { tag=$1; shift; "$cli" "$@" >"$out/$name.$tag" 2>&1; echo "exit $?" >>"$out/$name.$tag"; }
  run info info "$m" --order --json
  run shapes shapes "$m" --json
  for p in ort slots arena; do
    run "plan-$p" plan "$m" --planner "$p" --format json
    run "plan-$p.txt" plan "$m" --planner "$p"
  done
  run plan-ort-text plan "$m" --format ort
  run trace plan "$m" --format trace
  run check-default partition "$m"
  "$cli" partition "$m" >"$out/$name.default.json" 2>/dev/null
  for k in 2 3; do
    python3 - "$out/$name.default.json" "$k" >"$out/$name.rr$k.json" 2>/dev/null <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); k = int(sys.argv[2])
names = [n for s in c.get("streams", []) for n in s]
if len(names) >= k:
    c["streams"] = [names[i::k] for i in range(k)]; c["devices"] = ["0"] * k
print(json.dumps(c))
PY
    for p in ort slots arena; do
      run "rr$k-$p" plan "$m" --planner "$p" --format json --partition "$out/$name.rr$k.json"
    done
    run "rr$k-check" check "$m" "$out/$name.rr$k.json"
  done
done
for c in "$shared"/ort-testdata/*.json; do
  for m in "$shared"/ort-testdata/*.onnx; do
    name=$(basename "$m" .onnx).$(basename "$c" .json)
    "$cli" check "$m" "$c" >"$out/$name.check" 2>&1; echo "exit $?" >>"$out/$name.check"
  done
done
"$cli" render data/wide_branches.onnx --partition data/wide_branches.two-streams.json -o "$out/wide.svg" >/dev/null 2>&1
ls "$out" | wc -l
