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
//                                     MODEL.onnx[:PARTITION.json]…
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

try {
  await import('onnxruntime-node');
} catch (e) {
  console.log(`1..0 # SKIP onnxruntime-node is not installed (${e.code || e.message})`);
  process.exit(0);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const profiler = path.join(here, 'ort-profile.mjs');

const args = process.argv.slice(2);
const cli = args.shift();
const bounds = [];
let opt = 'disabled';
let jsonOut = null;
const cases = [];
while (args.length) {
  const a = args.shift();
  if (a === '--opt') opt = args.shift();
  else if (a === '--bound') bounds.push(args.shift());
  else if (a === '--json') jsonOut = args.shift();
  else cases.push(a);
}

// What ORT allocated per NodeIndex (first run), or {error}.
export function ortAllocations(model, partition) {
  const argv = [profiler, model, '--opt', opt];
  if (partition) argv.push('--partition', partition);
  for (const b of bounds) argv.push('--bound', b);
  const run = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.signal) return { error: `ONNX Runtime crashed (${run.signal})` };
  let out;
  try {
    out = JSON.parse(run.stdout);
  } catch (e) {
    return { error: `no profile: ${(run.stderr || '').split('\n')[0]}` };
  }
  if (out.error) return { error: out.error };
  const byNode = new Map();
  for (const r of out.runs[0]) byNode.set(r.node_index, r);
  return { byNode };
}

function planvizPlan(model, partition) {
  const argv = ['plan', model, '--format', 'json'];
  if (partition) argv.push('--partition', partition);
  for (const b of bounds) argv.push('--bound', b);
  const run = spawnSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  try {
    return JSON.parse(run.stdout);
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
  const [model, partition] = c.split(':');
  const label = path.relative(process.cwd(), model) + (partition ? ` with ${path.basename(partition)}` : '');
  const ort = ortAllocations(model, partition);
  if (ort.error) {
    console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime: ${ort.error.split('\n')[0]}`);
    continue;
  }
  const plan = planvizPlan(model, partition);
  if (!plan.nodes) {
    failed++;
    console.log(`not ok ${i + 1} - ${label}: planviz made no ORT plan (${plan.status}: ${plan.error ?? ''})`);
    continue;
  }
  const misses = [];
  let n = 0;
  for (const node of plan.nodes) {
    const rec = ort.byNode.get(node.index);
    if (!rec) continue; // ORT did not run it (a node ORT removed, or a subgraph's)
    n++;
    const kinds = node.outputs.map((o) => (o === null ? null : plan.values[o]));
    const ours = kinds.some((v) => v && NEW.has(v.kind) && v.bytes !== 0);
    const theirs = rec.mem_requested_in_use_delta > 0;
    if (ours !== theirs)
      misses.push({ node: node.name, index: node.index, op: node.op, planviz: ours, ort: theirs,
                    kinds: kinds.map((v) => (v ? `${v.kind}${v.kind === 'Reuse' ? ' ' + v.reused_buffer : ''}` : null)),
                    ort_delta: rec.mem_requested_in_use_delta, ort_shapes: rec.output_type_shape });
  }
  allNodes += n;
  allMatch += n - misses.length;
  report.push({ model, partition: partition ?? null, nodes: n, matching: n - misses.length, misses });
  if (misses.length === 0 && n > 0) {
    console.log(`ok ${i + 1} - ${label}: ${n}/${n} nodes allocate as in ONNX Runtime`);
  } else {
    failed++;
    console.log(`not ok ${i + 1} - ${label}: ${n - misses.length}/${n} nodes allocate as in ONNX Runtime`);
    for (const m of misses.slice(0, 20))
      console.log(`# ${m.node} (${m.op}, NodeIndex ${m.index}): planviz ${m.planviz ? 'allocates' : 'does not'} ` +
        `[${m.kinds.join(', ')}], ORT ${m.ort ? 'allocated' : 'did not'} (delta ${m.ort_delta}, ` +
        `${JSON.stringify(m.ort_shapes)})`);
    if (misses.length > 20) console.log(`# … and ${misses.length - 20} more`);
  }
}
console.log(`# ${allMatch}/${allNodes} nodes match over ${report.length} models`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 1));
process.exit(failed ? 1 : 0);
