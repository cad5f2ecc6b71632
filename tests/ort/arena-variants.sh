#!/bin/sh
# The arena comparison (compare-arena.mjs) on variants of the models made
# here (make-variants.py): a symbolic batch dim, and float16 tensors. TAP;
# a TAP skip without a Python that has the onnx module.
# Usage: arena-variants.sh NODE PLANVIZ_CLI OUT MODEL.onnx…
set -u
node=$1 cli=$2 out=$3
shift 3
here=$(dirname "$0")
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import onnx' 2>/dev/null; then
    rm -rf "$out"
    "$py" "$here/make-variants.py" "$out" "$@" || exit 1
    exec "$node" "$here/compare-arena.mjs" "$cli" --known-gaps "$here/known-arena-gaps.txt" \
      --family symbolic "$out"/symbolic/*.onnx --family fp16 "$out"/fp16/*.onnx
  fi
done
echo "1..0 # SKIP no Python with the onnx module (python3-onnx)"
