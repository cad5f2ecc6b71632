#!/usr/bin/env node
// Test: for each model, the node names and order that planviz-cli prints
// (`info --order --json`) equal the default partition config the real ONNX
// Runtime (onnxruntime-node 1.30, CPU, optimizations off) writes. TAP output;
// a TAP skip when onnxruntime-node is not installed (.ci/install-ort.sh).
//
// Usage: node compare-order.mjs PLANVIZ_CLI [--variants KINDS] MODEL.onnx...
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { modelsOrVariants } from './variants.mjs';
import { ortOrSkip } from './ort-or-skip.mjs';

await ortOrSkip();
// ORT runs in a child per model: some models crash it (SIGSEGV), and a crash
// must cost one result, not the run.
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ort-default-config.mjs');

const [cli, ...rest] = process.argv.slice(2);
// --variants KINDS: the variants tests/tools/ort-variants.py makes of the models.
const { models, cleanup: cleanupVariants } = modelsOrVariants(rest);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'planviz-ort-'));
let failed = 0;
console.log(`1..${models.length}`);

for (const [i, model] of models.entries()) {
  const out = path.join(tmp, `config-${i}.json`);
  const label = path.relative(process.cwd(), model);
  let ortOrder;
  const run = spawnSync(process.execPath, [harness, model, out], { encoding: 'utf8' });
  if (run.status !== 0) {
    const why = run.signal ? `crashes (${run.signal})` : `refuses it: ${(run.stderr || '').split('\n')[0]}`;
    console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime ${why}`);
    continue;
  }
  try {
    ortOrder = (JSON.parse(fs.readFileSync(out, 'utf8')).streams || []).flat();
  } catch (e) {
    console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime wrote no readable config: ${e.message}`);
    continue;
  }
  const ours = JSON.parse(execFileSync(cli, ['info', '--order', '--json', model], { encoding: 'utf8' })).order;
  const same = ours.length === ortOrder.length && ours.every((n, k) => n === ortOrder[k]);
  if (same) {
    console.log(`ok ${i + 1} - ${label} (${ours.length} nodes)`);
  } else {
    failed++;
    const k = ours.findIndex((n, j) => n !== ortOrder[j]);
    console.log(`not ok ${i + 1} - ${label}: first difference at position ${k}: ` +
      `planviz ${JSON.stringify(ours[k])}, ONNX Runtime ${JSON.stringify(ortOrder[k])}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
cleanupVariants();
process.exit(failed ? 1 : 0);
