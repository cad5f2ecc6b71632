#!/usr/bin/env python3
"""planviz-cli --config-devices: each node on its config stream's "devices"
entry, as the window has it with the CUDA registry. The plan equals the one
--device gives for the same nodes, `check` then has no device finding, and
the option refuses --device, --gpu-ops and a missing config. TAP output.

Usage: test-cli-config-devices.py PLANVIZ_CLI DATA_DIR"""
import json, os, subprocess, sys, tempfile

cli, data = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="pv-config-devices-")
results = []


def run(*args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True, timeout=60)


def case(name, ok, detail=""):
    results.append((name, ok, detail))


for model, gpu in (("wide_branches.onnx", ["/branch2/conv1/Conv", "/branch0/relu/Relu"]),
                   ("mlp.onnx", ["/fc2/Gemm"])):
    path = os.path.join(data, model)
    device_args = [a for n in gpu for a in ("--device", n + "=1")]
    # The CLI's own partition of those devices: a stream per device, "1" for the GPU one.
    part = run("partition", *device_args, path)
    config = os.path.join(tmp, model + ".json")
    with open(config, "w") as f:
        f.write(part.stdout)
    streams = json.loads(part.stdout)
    case(f"{model}: the config has a GPU stream", part.returncode == 0 and "1" in streams["devices"], part.stderr)
    for fmt in ("json", "ort"):
        a = run("plan", "--planner", "ort", "--format", fmt, "--registry", "cuda", "--partition", config,
                "--config-devices", path)
        b = run("plan", "--planner", "ort", "--format", fmt, "--registry", "cuda", "--partition", config,
                *device_args, path)
        case(f"{model}: plan --format {fmt} --config-devices equals --device",
             a.returncode == 0 and a.stdout == b.stdout and a.stdout != "", a.stderr + b.stderr)
    plain = run("plan", "--planner", "ort", "--format", "ort", "--registry", "cuda", "--partition", config, path)
    case(f"{model}: without it every stream runs on the CPU",
         plain.returncode == 0 and "on device: 1" not in plain.stdout and "on device: 1" in
         run("plan", "--planner", "ort", "--format", "ort", "--registry", "cuda", "--partition", config,
             "--config-devices", path).stdout)
    with_devices = run("check", "--config-devices", path, config)
    without = run("check", path, config)
    case(f"{model}: check --config-devices has no device finding",
         with_devices.returncode == 0 and "warning" not in with_devices.stdout
         and "but streams[" in without.stdout and "runs on CPU (0)" in without.stdout,
         with_devices.stdout + without.stdout)

mlp = os.path.join(data, "mlp.onnx")
for name, args, text in (
        ("with --device", ["plan", "--config-devices", "--device", "/fc2/Gemm=1", "--partition",
                           os.path.join(tmp, "mlp.onnx.json"), mlp], "leave out --device"),
        ("with --gpu-ops", ["check", "--config-devices", "--gpu-ops", "Gemm", mlp,
                            os.path.join(tmp, "mlp.onnx.json")], "leave out --device"),
        ("without a config", ["live", "--config-devices", mlp], "needs a config")):
    r = run(*args)
    case(f"--config-devices {name}: usage error", r.returncode == 2 and text in r.stderr, r.stderr)

print(f"1..{len(results)}")
for i, (name, ok, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok:
        for line in detail.splitlines()[:20]:
            print(f"# {line}")
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
