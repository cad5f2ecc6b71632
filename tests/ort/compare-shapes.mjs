#!/usr/bin/env node
// Test: planviz's two views of shapes against the real ONNX Runtime
// (onnxruntime-node 1.30, CPU, optimizations off), per model:
//  - ORT's view: for every node output of the main graph, the shape ORT holds
//    after session initialisation (ort-shapes.mjs) equals the `ort_shape`
//    planviz's ORT plan gives the value (`plan --format json`), and so does
//    its element type;
//  - at run time: for every node ORT ran in the main graph, each output's
//    element type and dims (the profiler's output_type_shape) equal planviz's
//    best-knowledge shape (`shapes --json`) with every symbol bound to the
//    value the harness fed (1, or --bound).
// TAP output, one line per model and view; misses as TAP comments, then a
// summary of values matching / values. A TAP skip without onnxruntime-node.
//
// Usage: node compare-shapes.mjs PLANVIZ_CLI [--bound S=N]… [--json OUT] [--variants KINDS] MODEL.onnx…
// (--variants: as in compare-allocations.mjs)
import fs from 'node:fs';
import { lastJson } from './json-out.mjs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ortOrSkip } from './ort-or-skip.mjs';

const ort = await ortOrSkip();
const { ortShapes } = await import('./ort-shapes.mjs');
const { makeVariants } = await import('./variants.mjs');
const here = path.dirname(fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
const cli = args.shift();
const bounds = [];
let jsonOut = null, variants = null;
let models = [];
while (args.length) {
  const a = args.shift();
  if (a === '--bound') bounds.push(args.shift());
  else if (a === '--json') jsonOut = args.shift();
  else if (a === '--variants') variants = args.shift();
  else models.push({ model: a, bounds: [], values: [] });
}
let cleanup = () => {};
if (variants) {
  const made = makeVariants(variants, models.map((m) => m.model));
  if (made.error) {
    console.log(`1..0 # SKIP ${made.error}`);
    process.exit(0);
  }
  models = made.cases.map((c) => ({ model: c.spec, label: c.label, bounds: c.bounds, values: c.values }));
  cleanup = made.cleanup;
}

// planviz's element type names as ORT's profiler and metadata write them.
const PROFILE_TYPE = { float32: 'float', float64: 'double' };

function runJson(argv) {
  const run = spawnSync(cli, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  try {
    return lastJson(run.stdout);
  } catch (e) {
    return { error: (run.stderr || '').trim() };
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
let failed = 0, test = 0;
const totals = { ort: [0, 0], runtime: [0, 0] };
const report = [];
console.log(`1..${models.length * 2}`);
for (const c of models) {
  const model = c.model;
  const label = c.label ?? path.relative(process.cwd(), model);
  const caseBounds = [...bounds, ...c.bounds];
  const valueArgs = c.values.flatMap((v) => ['--input-value', v]);
  const plan = runJson(['plan', model, '--format', 'json', ...caseBounds.flatMap((b) => ['--bound', b]), ...valueArgs]);
  const theirs = await ortShapes(ort, cli, model);
  // ORT's view.
  test++;
  if (theirs.error || !plan.values) {
    const why = theirs.error ? `ONNX Runtime: ${theirs.error.split('\n')[0]}` : `planviz: ${plan.error}`;
    console.log(`ok ${test} - ${label}: ORT's view # SKIP ${why}`);
    test++;
    console.log(`ok ${test} - ${label}: run time # SKIP ${why}`);
    continue;
  }
  const producers = new Set(plan.nodes.flatMap((n) => n.outputs).filter((o) => o !== null));
  const misses = [];
  let n = 0;
  for (const v of plan.values) {
    const t = theirs.values[v.name];
    if (!producers.has(v.index) || !t) continue;
    n++;
    // ORT's metadata shows no shape as [] too: a scalar and no shape look alike.
    const match = same(t.shape, v.ort_shape) || (v.ort_shape === null && same(t.shape, []));
    if (!match) misses.push(`${v.name}: planviz ${JSON.stringify(v.ort_shape)}, ORT ${JSON.stringify(t.shape)}`);
  }
  totals.ort[0] += n - misses.length;
  totals.ort[1] += n;
  report.push({ model, view: 'ort', values: n, matching: n - misses.length, misses });
  if (misses.length) failed++;
  console.log(`${misses.length ? 'not ok' : 'ok'} ${test} - ${label}: ORT's view, ${n - misses.length}/${n} values`);
  for (const m of misses.slice(0, 15)) console.log(`# ${m}`);
  if (misses.length > 15) console.log(`# … and ${misses.length - 15} more`);

  // Run time: profile once, bind every symbol planviz uses to what was fed.
  test++;
  const probe = runJson(['shapes', model, '--json', ...valueArgs]);
  const given = new Map(caseBounds.map((b) => b.split('=')));
  const bind = (probe.symbols || []).flatMap((s) => ['--bound', `${s}=${given.get(s) ?? 1}`]);
  const ours = runJson(['shapes', model, '--json', ...bind, ...valueArgs]);
  const dataSet = path.join(path.dirname(model), 'test_data_set_0');
  const dataArgs = path.basename(model) === 'model.onnx' && fs.existsSync(dataSet) ? ['--inputs-from', dataSet] : [];
  const prof = spawnSync(process.execPath, [path.join(here, 'ort-profile.mjs'), model, ...dataArgs,
    ...caseBounds.flatMap((b) => ['--bound', b]), ...valueArgs], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60000 });
  let profile;
  try { profile = JSON.parse(prof.stdout); } catch (e) { profile = { error: (prof.stderr || '').split('\n')[0] }; }
  if (profile.error || !ours.values) {
    console.log(`ok ${test} - ${label}: run time # SKIP ${profile.error ?? ours.error}`);
    continue;
  }
  const byName = new Map(ours.values.filter((v) => !v.graph).map((v) => [v.name, v]));
  // planviz claims a dim only when its symbols are the graph inputs' (whose
  // values the harness fed); a symbol it made up (an If it cannot decide, a
  // data-dependent size) says "unknown", which no run can contradict.
  const claimed = new Set();
  for (const v of ours.values)
    if (!v.graph && v.producer === null && !v.initializer && v.shape)
      for (const d of v.shape) if (typeof d === 'string') claimed.add(d);
  const symbolsOf = (d) => (typeof d === 'string' ? d.replace(/\b(floor|ceil|min|max)\(/g, '(').match(/[A-Za-z_][\w:./]*/g) ?? [] : []);
  const known = (v) => v.shape && v.shape.every((d) => symbolsOf(d).every((x) => claimed.has(x)));
  let unknown = 0;
  const names = new Map(plan.values.map((v) => [v.index, v.name]));
  const records = new Map();
  for (const r of profile.runs[0]) {
    const key = `${r.node_index}\u0000${r.name}`;
    if (!records.has(key)) records.set(key, r);
  }
  const rmisses = [];
  let rn = 0;
  for (const node of plan.nodes) {
    const rec = records.get(`${node.index}\u0000${node.profile_name}`);
    if (!rec || !rec.output_type_shape) continue;
    const outs = node.outputs.filter((o) => o !== null);
    outs.forEach((o, k) => {
      const v = byName.get(names.get(o));
      const r = rec.output_type_shape[k];
      if (!v || !r) return;
      if (!known (v)) {
        unknown++;
        return;
      }
      rn++;
      const [type, dims] = Object.entries(r)[0];
      const ourType = PROFILE_TYPE[v.dtype] ?? v.dtype;
      if (type !== ourType || !same(dims, v.bound_shape ?? v.shape))
        rmisses.push(`${v.name} (${node.op}): planviz ${ourType}${JSON.stringify(v.bound_shape ?? v.shape)}, ` +
          `ORT ${type}${JSON.stringify(dims)}`);
    });
  }
  totals.runtime[0] += rn - rmisses.length;
  totals.runtime[1] += rn;
  report.push({ model, view: 'runtime', values: rn, matching: rn - rmisses.length, misses: rmisses });
  if (rmisses.length) failed++;
  console.log(`${rmisses.length ? 'not ok' : 'ok'} ${test} - ${label}: run time, ${rn - rmisses.length}/${rn} outputs` +
    (unknown ? ` (${unknown} left symbolic by planviz)` : ''));
  for (const m of rmisses.slice(0, 15)) console.log(`# ${m}`);
  if (rmisses.length > 15) console.log(`# … and ${rmisses.length - 15} more`);
}
console.log(`# ORT's view: ${totals.ort[0]}/${totals.ort[1]} values match; run time: ` +
  `${totals.runtime[0]}/${totals.runtime[1]} outputs match`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 1));
cleanup();
process.exit(failed ? 1 : 0);
