#!/usr/bin/python3
"""Check ONNX models with onnx.checker, full check included.

Usage: check_models.py MODEL.onnx...
Exits 77 (meson's "skipped") when the onnx package is not installed.
"""

import sys

try:
    import onnx
except ImportError as e:
    print(f"skipping: cannot import onnx ({e})")
    sys.exit(77)


def check(path):
    # The path form checks external data references against the model's
    # directory. Its full_check is not used: onnx 1.12 then writes the
    # shape-inferred model back over the file.
    onnx.checker.check_model(path)
    model = onnx.load(path, load_external_data=False)
    # Full check on the loaded model: strict shape inference, type checks.
    onnx.checker.check_model(model, full_check=True)
    onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for path in paths:
        try:
            check(path)
        except Exception as e:  # checker and inference raise several types
            print(f"{path}: FAILED: {type(e).__name__}: {e}")
            failed += 1
        else:
            print(f"{path}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
