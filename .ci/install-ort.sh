#!/bin/sh
# Installs the reference ONNX Runtime (onnxruntime-node 1.30.0, CPU library
# inside the package) into tests/ort/node_modules. Tests that need it skip
# when this fails, so a failure here is reported but not fatal.
set -u
cd "$(dirname "$0")/../tests/ort" || exit 0
if [ -f node_modules/onnxruntime-node/package.json ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found: tests against the real ONNX Runtime will be skipped" >&2
  exit 0
fi
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null 2>&1 ||
  echo "npm install onnxruntime-node failed: tests against the real ONNX Runtime will be skipped" >&2
exit 0
