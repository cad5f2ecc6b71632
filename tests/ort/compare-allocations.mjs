#!/usr/bin/env node
// Test: node by node, planviz's ORT plan allocates where the real ONNX Runtime
// allocated. For each model (and partition), ORT runs once with its profiler
// on (ort-profile.mjs, optimizations off unless --opt); a node "allocated"
// when ORT's arena statistic mem_requested_in_use_delta is > 0 after it ran.
// planviz says a node allocates when one of its outputs has kind Allocate or
// AllocateOutput (a new buffer from the arena) of a non-zero size in
// `planviz-cli plan --format json`. TAP output, one line per model; a TAP
// skip without onnxruntime-node. The per-node misses are printed as TAP
// comments, and a summary line gives nodes matching / nodes.
//
// Usage: node compare-allocations.mjs PLANVIZ_CLI [--opt L] [--bound S=N]… [--json OUT]
//                                     [--variants KINDS] MODEL.onnx[:PARTITION.json]…
// --variants sym,fp16,…: instead of the models themselves, the variants
// tests/tools/ort-variants.py makes of them (a TAP skip without python3-onnx),
// each run with the bounds and input values its manifest gives.
import fs from 'node:fs';
import { lastJson } from './json-out.mjs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeVariants } from './variants.mjs';
import { ortOrSkip } from './ort-or-skip.mjs';

await ortOrSkip();
const here = path.dirname(fileURLToPath(import.meta.url));
const profiler = path.join(here, 'ort-profile.mjs');

const args = process.argv.slice(2);
const cli = args.shift();
const bounds = [];
let opt = 'disabled';
let jsonOut = null, variants = null;
// --runs N: with a partition, ORT runs N times (each in a process of its
// own) and up to 8 when planviz's choice was not among them: its
// multi-stream reuse changes from one process to the next.
let runs = 1;
let cases = [];
while (args.length) {
  const a = args.shift();
  if (a === '--opt') opt = args.shift();
  else if (a === '--bound') bounds.push(args.shift());
  else if (a === '--json') jsonOut = args.shift();
  else if (a === '--variants') variants = args.shift();
  else if (a === '--runs') runs = Math.max(1, +args.shift());
  else cases.push({ spec: a, bounds: [], values: [] });
}
let cleanup = () => {};
if (variants) {
  const made = makeVariants(variants, cases.map((c) => c.spec));
  if (made.error) {
    console.log(`1..0 # SKIP ${made.error}`);
    process.exit(0);
  }
  cases = made.cases;
  cleanup = made.cleanup;
}

// What ORT allocated per NodeIndex (first run), or {error}.
export function ortAllocations(model, partition, extra = []) {
  const argv = [profiler, model, '--opt', opt, ...extra];
  // An ONNX backend test runs on its own data set (sizes may depend on it).
  const dataSet = path.join(path.dirname(model), 'test_data_set_0');
  if (path.basename(model) === 'model.onnx' && fs.existsSync(dataSet)) argv.push('--inputs-from', dataSet);
  if (partition) argv.push('--partition', partition);
  for (const b of bounds) argv.push('--bound', b);
  // Some models run for minutes in ORT (test_dft_irfft): a bounded wait.
  const run = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60000 });
  if (run.error && run.error.code === 'ETIMEDOUT') return { error: 'ONNX Runtime ran longer than 60 s' };
  if (run.signal) return { error: `ONNX Runtime crashed (${run.signal})` };
  let out;
  try {
    out = lastJson(run.stdout);
  } catch (e) {
    return { error: `no profile: ${(run.stderr || '').split('\n')[0]}` };
  }
  if (out.error) return { error: out.error };
  // Subgraph nodes have NodeIndex values of their own: key by name too, and
  // keep the first record (a node runs once per run outside loops).
  const byNode = new Map();
  for (const r of out.runs[0]) {
    const key = `${r.node_index}\u0000${r.name}`;
    if (!byNode.has(key)) byNode.set(key, r);
  }
  return { byNode, profile: out };
}

function planvizPlan(model, partition, extra = []) {
  const argv = ['plan', model, '--format', 'json', ...extra];
  if (partition) argv.push('--partition', partition);
  for (const b of bounds) argv.push('--bound', b);
  const run = spawnSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  try {
    return lastJson(run.stdout);
  } catch (e) {
    return { status: 'error', error: (run.stderr || '').trim() };
  }
}

const NEW = new Set(['Allocate', 'AllocateOutput']);
let failed = 0;
const report = [];
let allNodes = 0, allMatch = 0;
console.log(`1..${cases.length}`);
for (const [i, c] of cases.entries()) {
  const [model, partition] = c.spec.split(':');
  const extra = [...c.bounds.flatMap((b) => ['--bound', b]), ...c.values.flatMap((v) => ['--input-value', v])];
  const label = (c.label ?? path.relative(process.cwd(), model)) + (partition ? ` with ${path.basename(partition)}` : '');
  const ort = ortAllocations(model, partition, extra);
  if (ort.error) {
    console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime: ${ort.error.split('\n')[0]}`);
    continue;
  }
  const plan = planvizPlan(model, partition, extra);
  if (!plan.nodes) {
    failed++;
    console.log(`not ok ${i + 1} - ${label}: planviz made no ORT plan (${plan.status}: ${plan.error ?? ''})`);
    continue;
  }
  const misses = [];
  const allRuns = [ort];
  const key = (node) => `${node.index}\u0000${node.profile_name}`;
  const oursOf = (node) => node.outputs.some((o) => o !== null && NEW.has(plan.values[o].kind) && plan.values[o].bytes !== 0);
  const randomOf = (node) => node.outputs.some((o) => o !== null && plan.values[o].order_dependent === true);
  const seen = (node) => allRuns.map((r) => r.byNode.get(key(node))).filter(Boolean)
    .map((rec) => rec.mem_requested_in_use_delta > 0);
  if (partition && runs > 1) {
    while (allRuns.length < runs) allRuns.push(ortAllocations(model, partition, extra));
    // A choice planviz calls random that ORT has not made yet: more runs.
    while (allRuns.length < 8 && plan.nodes.some((node) => randomOf(node) && ort.byNode.has(key(node)) &&
                                                 !seen(node).includes(oursOf(node))))
      allRuns.push(ortAllocations(model, partition, extra));
    if (allRuns.some((r) => r.error)) {
      console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime: ${allRuns.find((r) => r.error).error.split('\n')[0]}`);
      continue;
    }
  }
  let n = 0, nRandom = 0, nVaried = 0, nNeverOurs = 0, nMissed = 0;
  for (const node of plan.nodes) {
    const rec = ort.byNode.get(key(node));
    if (!rec) continue; // ORT did not run it (a node ORT removed, or a subgraph's)
    n++;
    const kinds = node.outputs.map((o) => (o === null ? null : plan.values[o]));
    const ours = oursOf(node);
    const theirs = rec.mem_requested_in_use_delta > 0;
    const outcomes = seen(node);
    const varied = outcomes.includes(true) && outcomes.includes(false);
    const random = randomOf(node);
    nRandom += random;
    nVaried += varied;
    // A node planviz calls ORT's random choice is not held to one run's
    // choice (counted: those ORT never decided planviz's way). Any other
    // must be decided planviz's way in some run; one ORT decided both ways
    // is counted as a random choice planviz missed (its walk orders are a
    // sample), not failed: which orders ORT draws is up to each process.
    const ok = random || outcomes.includes(ours);
    if (random && !outcomes.includes(ours)) nNeverOurs++;
    if (!random && varied) nMissed++;
    if (!ok)
      misses.push({ node: node.name, index: node.index, op: node.op, planviz: ours, ort: theirs, random, varied,
                    kinds: kinds.map((v) => (v ? `${v.kind}${v.kind === 'Reuse' ? ' ' + v.reused_buffer : ''}` : null)),
                    ort_delta: rec.mem_requested_in_use_delta, ort_shapes: rec.output_type_shape });
  }
  allNodes += n;
  allMatch += n - misses.length;
  report.push({ model: c.label ?? model, family: c.family ?? null, partition: partition ?? null, nodes: n,
                matching: n - misses.length, ort_runs: allRuns.length, random: nRandom, varied: nVaried,
                random_never_ours: nNeverOurs, random_missed: nMissed, misses });
  const randomNote = allRuns.length > 1
    ? ` (${allRuns.length} ORT runs: ${nVaried} nodes decided both ways, ${nRandom} planviz calls ORT's random ` +
      `choice, ${nNeverOurs} of them always decided the other way, ${nMissed} decided both ways unmarked)`
    : '';
  if (misses.length === 0 && n > 0) {
    console.log(`ok ${i + 1} - ${label}: ${n}/${n} nodes allocate as in ONNX Runtime${randomNote}`);
  } else {
    failed++;
    console.log(`not ok ${i + 1} - ${label}: ${n - misses.length}/${n} nodes allocate as in ONNX Runtime${randomNote}`);
    for (const m of misses.slice(0, 20))
      console.log(`# ${m.node} (${m.op}, NodeIndex ${m.index}): planviz ${m.planviz ? 'allocates' : 'does not'}` +
        `${m.random ? ' (says ORT chooses at random)' : ''}${m.varied ? ', ORT decided both ways' : ''} ` +
        `[${m.kinds.join(', ')}], ORT ${m.ort ? 'allocated' : 'did not'} (delta ${m.ort_delta}, ` +
        `${JSON.stringify(m.ort_shapes)})`);
    if (misses.length > 20) console.log(`# … and ${misses.length - 20} more`);
  }
}
const families = new Map();
for (const r of report) {
  const f = families.get(r.family) ?? [0, 0];
  families.set(r.family, [f[0] + r.matching, f[1] + r.nodes]);
}
if (variants)
  for (const [f, [m, n]] of families) console.log(`# ${f}: ${m}/${n} nodes match`);
console.log(`# ${allMatch}/${allNodes} nodes match over ${report.length} models`);
const missed = report.reduce((a, r) => a + (r.random_missed ?? 0), 0);
if (runs > 1)
  console.log(`# random choices: ${report.reduce((a, r) => a + (r.varied ?? 0), 0)} nodes ORT decided both ways, ` +
              `${missed} of them not marked by planviz`);
cleanup();
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 1));
process.exit(failed ? 1 : 0);
