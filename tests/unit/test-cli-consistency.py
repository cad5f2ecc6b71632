#!/usr/bin/env python3
"""planviz-cli's commands agree with each other: render, plan and live
default to the same planner (ORT's plan, as the window does), every
command with --planner lists all planners in --help, and every planner's
text says "deferred" on a plan whose sizes wait for bounds. TAP output.

Usage: test-cli-consistency.py PLANVIZ_CLI DATA_DIR [SHARED_DIR]"""
import json, os, subprocess, sys, tempfile

from pv_tap import run_all, test

cli, data = sys.argv[1], sys.argv[2]
shared = sys.argv[3] if len(sys.argv) > 3 else None
configs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ort", "configs")
tmp = tempfile.mkdtemp(prefix="pv-consistency-")
PLANNERS = ("ort", "slots", "arena")


def run(*args):
    return subprocess.run([cli, *args], capture_output=True, text=True)


@test
def help_lists_every_planner():
    problems = []
    for command in ("plan", "render", "live"):
        out = run(command, "--help")
        line = next((l for l in out.stdout.splitlines() if "--planner" in l), "")
        missing = [p for p in PLANNERS if p not in line]
        if out.returncode != 0 or missing or "ort (default" not in line:
            problems.append(f"{command} --help: {line.strip()!r} (missing {missing})")
    top = run("--help").stdout
    plan_line = next((l for l in top.splitlines() if l.strip().startswith("plan ")), "")
    if not all(p in plan_line for p in ("ort", "slots", "arena")):
        problems.append(f"planviz-cli --help: {plan_line.strip()!r}")
    return problems


@test
def render_defaults_to_the_ort_plan():
    # The SVG names the memory view in its lane titles: the default must be
    # byte for byte the --planner ort picture, and not the slots one.
    model = os.path.join(data, "wide_branches.onnx")
    pictures = {}
    for planner in (None, "ort", "slots"):
        path = os.path.join(tmp, f"wide-{planner}.svg")
        out = run("render", model, "-o", path, *(["--planner", planner] if planner else []))
        if out.returncode != 0:
            return [f"render --planner {planner}: exit {out.returncode}: {out.stderr.strip()}"]
        pictures[planner] = open(path, "rb").read()
    problems = []
    if pictures[None] != pictures["ort"]:
        problems.append("render's default picture differs from --planner ort")
    if pictures[None] == pictures["slots"]:
        problems.append("render's default picture is the slots one")
    return problems


@test
def render_falls_back_when_ort_refuses():
    # A config ORT refuses: no ORT plan to draw, so the default draws the
    # slots and says so (an explicit --planner ort draws what there is).
    model = os.path.join(shared or "", "ort-testdata", "conv_add_relu.onnx")
    if not shared or not os.path.exists(model):
        return None
    out = os.path.join(tmp, "refused.png")
    r = run("render", model, "--partition", os.path.join(configs, "car-mismatch-device.json"), "-o", out)
    problems = []
    if r.returncode != 0 or "slot planner" not in r.stderr:
        problems.append(f"exit {r.returncode}: {r.stderr.strip()!r}")
    elif b"Planner\0slots" not in open(out, "rb").read():
        problems.append("the PNG does not say Planner slots")
    return problems


@test
def plan_and_live_default_to_the_ort_plan():
    model = os.path.join(data, "cnn.onnx")
    plan = json.loads(run("plan", model, "--format", "json").stdout)
    live = json.loads(run("live", model, "--json").stdout)
    problems = []
    if plan.get("planner") != "ort":
        problems.append(f"plan's default planner is {plan.get('planner')}")
    if live.get("planner") != "ort":
        problems.append(f"live's default planner is {live.get('planner')}")
    return problems


@test
def every_planner_says_deferred():
    model = os.path.join(data, "transformer.onnx")
    problems = []
    for planner in PLANNERS:
        out = run("plan", model, "--planner", planner)
        head = "\n".join(out.stdout.splitlines()[:8])
        if "deferred" not in head or "--bound" not in head:
            problems.append(f"--planner {planner}: no 'deferred' in {head!r}")
        bound = run("plan", model, "--planner", planner, "--bound", "batch=2", "--bound", "seq=8")
        if "deferred" in bound.stdout:
            problems.append(f"--planner {planner}: still deferred with every symbol bound")
    return problems


run_all("shared test data not found")
