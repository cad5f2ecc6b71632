#!/usr/bin/env python3
"""planviz-cli on hostile arguments and files: each gets a clear error at
once (exit status and message), never a hang, a clamp or a wrong plan.
TAP output.

Usage: test-cli-hostile.py PLANVIZ_CLI DATA_DIR"""
import os, subprocess, sys, tempfile, time

cli, data = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="pv-hostile-")
fifo = os.path.join(tmp, "config.json")
os.mkfifo(fifo)
transformer = os.path.join(data, "transformer.onnx")
mlp = os.path.join(data, "mlp.onnx")

cases = [
    # 20 digits: strtoll clamped it to 2^63-1 without a word.
    ("bound past 2^63-1", ["plan", transformer, "--bound", "batch=99999999999999999999"], 2,
     "0 ≤ N ≤ 9223372036854775807"),
    # 2^62 x seq x 64 floats: the size overflowed and the plan said "deferred".
    ("size overflowing at the bounds", ["plan", transformer, "--bound", "batch=4611686018427387904",
                                        "--bound", "seq=4", "--format", "json"], 1, "overflows 64 bits"),
    ("/dev/zero as kernel-defs", ["plan", mlp, "--kernel-defs", "/dev/zero"], 1, "/dev/zero: a device"),
    ("a FIFO as partition config", ["plan", mlp, "--partition", fifo], 1, "a FIFO, not a file"),
    ("a FIFO to check", ["check", mlp, fifo], 1, "a FIFO, not a file"),
    ("a folder as partition config", ["plan", mlp, "--partition", tmp], 1, "a folder"),
]

print(f"1..{len(cases)}")
failed = 0
for i, (name, args, want_status, want_text) in enumerate(cases, 1):
    start = time.monotonic()
    try:
        run = subprocess.run([cli] + args, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        print(f"not ok {i} - {name}: still running after 5 s")
        failed += 1
        continue
    took = time.monotonic() - start
    if run.returncode != want_status or want_text not in run.stderr:
        print(f"not ok {i} - {name}: exit {run.returncode} (want {want_status}), stderr {run.stderr.strip()!r}")
        failed += 1
    else:
        print(f"ok {i} - {name} ({took:.2f} s): {run.stderr.strip()}")
os.unlink(fifo)
os.rmdir(tmp)
sys.exit(1 if failed else 0)
