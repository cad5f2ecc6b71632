// variants.mjs: the model variants of tests/tools/ort-variants.py (symbolic
// dims, float16, dynamic quantization, an If at the top) as test cases, made
// into a temporary folder. Needs a python3 with the onnx package.
import fs from 'node:fs';
import { lastJson } from './json-out.mjs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tool = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'ort-variants.py');

// {cases: [{spec, label, family, bounds: ['S=N'], values: ['NAME=V']}], cleanup} or {error}.
export function makeVariants(kinds, models) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pv-variants-'));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  let run = null;
  for (const python of ['/usr/bin/python3', 'python3']) {
    run = spawnSync(python, [tool, dir, ...models, '--only', kinds], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (run.status === 0) break;
  }
  if (!run || run.status !== 0) {
    cleanup();
    return { error: `cannot make variants (python3 with onnx): ${(run?.stderr || run?.error || '').toString().trim().split('\n').pop()}` };
  }
  const manifest = lastJson(run.stdout);
  const cases = manifest.map((v) => ({
    spec: v.model,
    label: `${path.basename(v.source, '.onnx')} ${v.family}`,
    family: v.family,
    bounds: Object.entries(v.bounds).map(([k, n]) => `${k}=${n}`),
    values: Object.entries(v.input_values).map(([k, n]) => `${k}=${n}`),
  }));
  return { cases, cleanup };
}

// The models a harness runs: @args as given, or after "--variants KINDS"
// the variants of the models that follow (a TAP skip, and exit, without
// python3-onnx). Returns {models, cleanup}.
export function modelsOrVariants(args) {
  if (args[0] !== '--variants') return { models: args, cleanup: () => {} };
  const made = makeVariants(args[1], args.slice(2));
  if (made.error) {
    console.log(`1..0 # SKIP ${made.error}`);
    process.exit(0);
  }
  return { models: made.cases.map((c) => c.spec), cleanup: made.cleanup };
}
