#!/usr/bin/env node
// Test: for each model, the default partition config `planviz-cli partition`
// writes is byte for byte the file the real ONNX Runtime (onnxruntime-node
// 1.30, CPU, optimizations off) writes to session.node_partition_config_file
// when that file does not exist. TAP output; a TAP skip when
// onnxruntime-node is not installed.
//
// Usage: node compare-partition.mjs PLANVIZ_CLI [--variants KINDS] MODEL.onnx...
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { modelsOrVariants } from './variants.mjs';
import { ortOrSkip } from './ort-or-skip.mjs';

await ortOrSkip();
// ORT runs in a child per model (through the harness): a crash costs one result.
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ort-default-config.mjs');

const [cli, ...rest] = process.argv.slice(2);
// --variants KINDS: the variants tests/tools/ort-variants.py makes of the models.
const { models, cleanup: cleanupVariants } = modelsOrVariants(rest);
if (!cli) {
  process.stderr.write('usage: node compare-partition.mjs PLANVIZ_CLI MODEL.onnx...\n');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'planviz-partition-'));
let failed = 0;
console.log(`1..${models.length}`);

// Where two byte strings first differ, with a little context.
function firstDifference(a, b) {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  const show = (buf) => JSON.stringify(buf.subarray(Math.max(0, k - 20), k + 20).toString('utf8'));
  return `first difference at byte ${k}: planviz ${show(a)}, ONNX Runtime ${show(b)}`;
}

for (const [i, model] of models.entries()) {
  const label = path.relative(process.cwd(), model);
  const ortOut = path.join(tmp, `ort-${i}.json`);
  const ours = path.join(tmp, `planviz-${i}.json`);
  const ort = spawnSync(process.execPath, [harness, model, ortOut], { encoding: 'utf8' });
  if (ort.status !== 0) {
    const why = ort.signal ? `crashes (${ort.signal})` : `refuses it: ${(ort.stderr || '').split('\n')[0]}`;
    console.log(`ok ${i + 1} - ${label} # SKIP ONNX Runtime ${why}`);
    continue;
  }
  const run = spawnSync(cli, ['partition', model, '-o', ours], { encoding: 'utf8' });
  const ortBytes = fs.readFileSync(ortOut);
  if (run.status !== 0) {
    // planviz refuses only when a node name is not UTF-8; ORT then leaves an empty file.
    if (ortBytes.length === 0 && /not valid UTF-8/.test(run.stderr)) {
      console.log(`ok ${i + 1} - ${label} (both leave no config: a node name is not UTF-8)`);
    } else {
      failed++;
      console.log(`not ok ${i + 1} - ${label}: planviz-cli partition failed: ${(run.stderr || '').trim()}`);
    }
    continue;
  }
  const ourBytes = fs.readFileSync(ours);
  if (Buffer.compare(ourBytes, ortBytes) === 0) {
    console.log(`ok ${i + 1} - ${label} (${ortBytes.length} bytes)`);
  } else {
    failed++;
    console.log(`not ok ${i + 1} - ${label}: ${firstDifference(ourBytes, ortBytes)}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
cleanupVariants();
process.exit(failed ? 1 : 0);
