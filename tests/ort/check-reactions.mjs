#!/usr/bin/env node
// Test: how ONNX Runtime 1.30 reacts to partition configs, and whether
// planviz predicts it.
//
// configs/expected.json records, for every configs/*.json, the model it was
// tried on and what the real ONNX Runtime (onnxruntime-node 1.30, CPU) did:
//   accepts  - the session is created (with the config's streams or ORT's default)
//   rejects  - session creation fails; message_contains is part of ORT's error
//   discards - ORT logs a warning and uses its default partition;
//              message_contains is part of the last warning it logs
//   crashes  - the ORT process dies (SIGSEGV)
// For each config this script (1) runs ORT again through the harness (in a
// child process, so crashes are reported) and checks it still reacts as
// recorded, and (2) runs `planviz-cli check --json MODEL CONFIG` and checks
// that planviz predicts the same verdict and message. TAP output; a TAP skip
// (skip) when onnxruntime-node is not installed.
//
// Usage: node check-reactions.mjs PLANVIZ_CLI [--shared DIR] [CONFIG.json...]
//   Model paths in expected.json are relative to the source tree, except
//   "shared/..." ones, which are relative to DIR (default: ../shared beside
//   the source tree). Without CONFIG arguments every recorded config runs.
import fs from 'node:fs';
import { lastJson } from './json-out.mjs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ortOrSkip } from './ort-or-skip.mjs';

await ortOrSkip();

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.resolve(here, '..', '..');
const harness = path.join(here, 'ort-default-config.mjs');
const configDir = path.join(here, 'configs');

const args = process.argv.slice(2);
const cli = args.shift();
let shared = path.resolve(sourceRoot, '..', 'shared');
const only = [];
while (args.length) {
  const a = args.shift();
  if (a === '--shared') shared = path.resolve(args.shift());
  else only.push(path.basename(a));
}
if (!cli) {
  process.stderr.write('usage: node check-reactions.mjs PLANVIZ_CLI [--shared DIR] [CONFIG.json...]\n');
  process.exit(2);
}

const expected = JSON.parse(fs.readFileSync(path.join(configDir, 'expected.json'), 'utf8'));
const names = only.length ? only : Object.keys(expected).filter((k) => !k.startsWith('_'));
const modelPath = (m) => (m.startsWith('shared/') ? path.join(shared, m.slice(7)) : path.join(sourceRoot, m));

// What ORT did, as {ort, message}.
function ortReaction(model, config) {
  const run = spawnSync(process.execPath, [harness, '--check', model, config], { encoding: 'utf8' });
  const line = (run.stdout || '').trim().split('\n').pop();
  let r;
  try {
    r = JSON.parse(line);
  } catch {
    return { ort: 'error', message: `harness failed: ${(run.stderr || '').trim()}` };
  }
  if (r.signal) return { ort: 'crashes', message: r.message };
  if (!r.ok) return { ort: 'rejects', message: r.message };
  if (r.warnings && r.warnings.length) return { ort: 'discards', message: r.warnings[r.warnings.length - 1] };
  return { ort: 'accepts', message: '' };
}

function planvizReaction(model, config) {
  const run = spawnSync(cli, ['check', '--json', model, config], { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) {
    return { ort: 'error', message: `planviz-cli exit ${run.status ?? run.signal}: ${(run.stderr || '').trim()}` };
  }
  try {
    const r = lastJson(run.stdout);
    const ok = r.ort === 'accepts' && !r.findings.some((f) => f.severity === 'error');
    if ((run.status === 0) !== ok) return { ort: 'error', message: `exit status ${run.status} does not fit the verdict` };
    return { ort: r.ort, message: r.ort_message || '' };
  } catch (e) {
    return { ort: 'error', message: `unreadable output: ${e.message}` };
  }
}

let n = 0;
let failed = 0;
console.log(`1..${names.length * 2}`);
for (const name of names) {
  const e = expected[name];
  if (!e) {
    console.log(`not ok ${++n} - ${name}: not in expected.json`);
    console.log(`not ok ${++n} - ${name}: not in expected.json`);
    failed += 2;
    continue;
  }
  const model = modelPath(e.model);
  const config = path.join(configDir, name);
  const want = e.message_contains || '';
  if (!fs.existsSync(model)) {
    console.log(`ok ${++n} - ${name} (ONNX Runtime) # SKIP no model ${model}`);
    console.log(`ok ${++n} - ${name} (planviz) # SKIP no model ${model}`);
    continue;
  }
  for (const [who, reaction] of [
    ['ONNX Runtime', ortReaction(model, config)],
    ['planviz', planvizReaction(model, config)],
  ]) {
    // planviz gives no message for a crash; ORT's is the harness's "crashed (SIGSEGV)".
    const wantMessage = who === 'planviz' && e.ort === 'crashes' ? '' : want;
    if (reaction.ort === e.ort && reaction.message.includes(wantMessage)) {
      console.log(`ok ${++n} - ${name} (${who}): ${e.ort}`);
    } else {
      failed++;
      console.log(`not ok ${++n} - ${name} (${who}): expected ${e.ort}${want ? ` with ${JSON.stringify(want)}` : ''}, ` +
        `got ${reaction.ort}${reaction.message ? ` with ${JSON.stringify(reaction.message)}` : ''}`);
    }
  }
}
process.exit(failed ? 1 : 0);
