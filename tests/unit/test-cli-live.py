#!/usr/bin/env python3
"""planviz-cli live against an independent sum: on one stream, the bytes
live at a step are the slot planner's owners whose program-order lifetime
(plan --planner slots --format json: first_step..last_step) holds the
step. For each model: the peak and a few other steps, total and names,
for every planner. TAP output.

Usage: test-cli-live.py PLANVIZ_CLI MODEL.onnx..."""
import json, os, subprocess, sys

cli, models = sys.argv[1], [m for m in sys.argv[2:]]
print(f"1..{len(models)}")
failed = 0
for i, model in enumerate(models, 1):
    name = os.path.basename(model)
    if not os.path.exists(model):
        print(f"ok {i} - {name} # SKIP not found")
        continue
    def plan(bounds):
        return json.loads(subprocess.run([cli, "plan", model, "--planner", "slots", "--format", "json"] + bounds,
                                         capture_output=True, text=True).stdout)
    bounds = []
    slots = plan(bounds)
    if slots.get("status") == "deferred":
        # The live list of a deferred plan is refused, with a reason.
        out = subprocess.run([cli, "live", model], capture_output=True, text=True)
        if out.returncode != 1 or "--bound" not in out.stderr:
            print(f"not ok {i} - {name}: live on unbound sizes: exit {out.returncode}, {out.stderr.strip()}")
            failed += 1
            continue
        for symbol in slots["unbound_symbols"]:
            bounds += ["--bound", f"{symbol}=3"]
        slots = plan(bounds)
    if slots.get("status") != "complete":
        print(f"ok {i} - {name} # SKIP plan is {slots.get('status')}")
        continue
    owners = slots["values"]
    last = max(v["last_step"] for v in owners)
    def expected(step):
        live = {v["name"]: v["bytes"] for v in owners if v["first_step"] <= step <= v["last_step"]}
        return sum(live.values()), set(live)
    problems = []
    steps = ["peak"] + sorted({0, last // 3, last // 2, last})
    for at in steps:
        for planner in ("ort", "slots", "arena"):
            out = subprocess.run([cli, "live", model, "--at", str(at), "--planner", planner, "--json"] + bounds,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                problems.append(f"--at {at} --planner {planner}: exit {out.returncode}: {out.stderr.strip()}")
                continue
            live = json.loads(out.stdout)
            total, names = expected(live["step"])
            got = {v["name"] for v in live["values"]}
            if live["bytes"] != total or sum(v["bytes"] for v in live["values"]) != total or got != names:
                problems.append(f"--at {at} --planner {planner}: {live['bytes']} bytes in {len(got)} values, "
                                f"lifetimes say {total} in {len(names)} (missing {sorted(names - got)[:3]}, "
                                f"extra {sorted(got - names)[:3]})")
            sizes = [v["bytes"] for v in live["values"]]
            if sizes != sorted(sizes, reverse=True):
                problems.append(f"--at {at} --planner {planner}: not sorted by bytes")
            if at == "peak" and live["bytes"] != live["peak_live_bytes"]:
                problems.append(f"--at peak: {live['bytes']} bytes, the curve's peak is {live['peak_live_bytes']}")
    if problems:
        failed += 1
        print(f"not ok {i} - {name}")
        for p in problems[:10]:
            print(f"# {p}")
    else:
        print(f"ok {i} - {name}: {len(steps)} instants x 3 planners agree with the lifetimes")
sys.exit(1 if failed else 0)
