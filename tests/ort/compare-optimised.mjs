#!/usr/bin/env node
// Test: plans of the graphs ONNX Runtime optimised. For each graph
// optimisation level (basic, extended, all), the real ONNX Runtime
// (onnxruntime-node 1.30, CPU) saves each model as it optimised it
// (session option optimizedModelFilePath) into a temporary folder; then the
// four comparisons of that folder's files run as they run on any model:
// compare-order.mjs (node order), compare-partition.mjs (default config),
// compare-shapes.mjs (ORT's view and run-time shapes) and
// compare-allocations.mjs (node by node allocations of a profiled run). A
// saved "all" model holds ORT's NCHWc layout ops, blocked for this machine's
// CPU, so it is made and judged on the same machine. TAP output, one line
// per level and comparison, with its figures; a TAP skip without
// onnxruntime-node. The comparisons' own misses are passed on as comments.
//
// Usage: node compare-optimised.mjs PLANVIZ_CLI [--levels basic,extended,all] [--keep DIR] MODEL.onnx…
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ortOrSkip } from './ort-or-skip.mjs';

const ort = await ortOrSkip();
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const cli = path.resolve(args.shift());
let levels = ['basic', 'extended', 'all'];
let keep = null;
const models = [];
while (args.length) {
  const a = args.shift();
  if (a === '--levels') levels = args.shift().split(',');
  else if (a === '--keep') keep = path.resolve(args.shift());
  else models.push(path.resolve(a));
}
const scripts = ['compare-order', 'compare-partition', 'compare-shapes', 'compare-allocations'];
const tmp = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'planviz-optimised-'));
fs.mkdirSync(tmp, { recursive: true });

// Saves @model optimised at @level as @out; an error message, or null.
async function saveOptimised(model, level, out) {
  try {
    const s = await ort.InferenceSession.create(model, {
      graphOptimizationLevel: level, executionProviders: ['cpu'], optimizedModelFilePath: out, logSeverityLevel: 3,
    });
    await s.release?.();
    return fs.existsSync(out) ? null : 'no file written';
  } catch (e) {
    return String(e.message || e).split('\n')[0];
  }
}

// The figures a comparison's TAP output gives, summed over its models.
function figures(script, stdout) {
  const lines = stdout.split('\n');
  const sum = (re) => lines.reduce((acc, l) => {
    const m = l.match(re);
    return m ? [acc[0] + Number(m[1]), acc[1] + Number(m[2])] : acc;
  }, [0, 0]);
  if (script === 'compare-allocations') {
    const [a, b] = sum(/^(?:not )?ok \d+ - .*?: (\d+)\/(\d+) nodes/);
    return `${a}/${b} nodes allocate as in ORT`;
  }
  if (script === 'compare-shapes') {
    const [a, b] = sum(/^(?:not )?ok \d+ - .*ORT's view, (\d+)\/(\d+) values/);
    const [c, d] = sum(/^(?:not )?ok \d+ - .*run time, (\d+)\/(\d+) outputs/);
    return `ORT's view ${a}/${b} values, run time ${c}/${d} outputs`;
  }
  if (script === 'compare-order') {
    const n = lines.filter((l) => /^ok \d+ - /.test(l) && !/# SKIP/.test(l))
      .reduce((acc, l) => acc + Number((l.match(/\((\d+) nodes\)/) || [0, 0])[1]), 0);
    return `${n} nodes in ORT's order`;
  }
  return 'configs equal';
}

let n = 0, failed = 0;
console.log(`1..${levels.length * scripts.length}`);
for (const level of levels) {
  const dir = path.join(tmp, level);
  fs.mkdirSync(dir, { recursive: true });
  const saved = [];
  for (const model of models) {
    const out = path.join(dir, path.basename(model));
    const why = await saveOptimised(model, level, out);
    if (why) console.log(`# ${level}: ${path.basename(model)} not saved: ${why}`);
    else saved.push(out);
  }
  for (const script of scripts) {
    n++;
    const run = spawnSync(process.execPath, [path.join(here, `${script}.mjs`), cli, ...saved],
                          { encoding: 'utf8', cwd: here, maxBuffer: 1 << 28 });
    const out = run.stdout || '';
    const notOk = out.split('\n').filter((l) => /^not ok/.test(l)).length;
    const okCount = out.split('\n').filter((l) => /^ok \d+/.test(l) && !/# SKIP/.test(l)).length;
    const skipped = out.split('\n').filter((l) => /^ok \d+.*# SKIP/.test(l)).length;
    const pass = run.status === 0 && notOk === 0;
    if (!pass)
      failed++;
    console.log(`${pass ? 'ok' : 'not ok'} ${n} - level ${level}, ${script}: ${okCount}/${okCount + notOk} checks, ` +
                `${figures(script, out)}${skipped ? `, ${skipped} skipped` : ''}`);
    for (const l of out.split('\n'))
      if (/^not ok|^#|# SKIP/.test(l) && l.trim() !== '')
        console.log(`#   ${l.replace(/^#\s*/, '')}`);
    if (run.status !== 0 && notOk === 0)
      console.log(`#   ${script} exited ${run.status ?? run.signal}: ${(run.stderr || '').split('\n')[0]}`);
  }
}
if (!keep)
  fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
