#!/usr/bin/env node
// Asks ONNX Runtime 1.30 (CPU, optimizations off) which ONNX ops its CPU
// provider runs in float16: each one-node model of tests/tools/ort-fp16-probe.py
// is loaded, and ORT's saved graph tells whether InsertCastTransformer had to
// put InsertedPrecisionFreeCast_ nodes around it (no float16 kernel) or not.
// Prints the tables of data/ort-cpu-fp16.json: opset ranges (inclusive) per
// op where the CPU kernel takes float16 (fp16_kernels), and where ORT inlines
// the op's ONNX function body instead, having no kernel (fp16_inlined), and
// where it does so for float32 inputs too (float32_inlined).
//
// Usage: node ort-fp16-kernels.mjs [--raw] > data/ort-cpu-fp16.json
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { readGraph } from './onnx-wire.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pv-fp16-'));
const made = spawnSync('/usr/bin/python3', [path.join(here, '..', 'tools', 'ort-fp16-probe.py'), dir],
  { encoding: 'utf8', maxBuffer: 1 << 26 });
if (made.status !== 0) {
  process.stderr.write(made.stderr);
  process.exit(1);
}
const results = [];
for (const m of JSON.parse(made.stdout)) {
  const saved = m.model + '.saved.onnx';
  let verdict;
  try {
    const s = await ort.InferenceSession.create(m.model, { graphOptimizationLevel: 'disabled', logSeverityLevel: 4,
                                                           optimizedModelFilePath: saved });
    await s.release();
    const g = readGraph(fs.readFileSync(saved));
    // No kernel at all for float16 either inlines the op's function body
    // (the node is gone) or casts around it.
    verdict = !m.typed ? 'untyped'
      : !g.nodes.some((n) => n.name === 'probe') ? 'inlined'
      : g.nodes.some((n) => n.name.startsWith('InsertedPrecisionFreeCast_')) ? 'cast' : 'kernel';
  } catch (e) {
    verdict = 'error';
  }
  results.push({ ...m, verdict });
}
fs.rmSync(dir, { recursive: true, force: true });
if (process.argv.includes('--raw')) {
  process.stdout.write(JSON.stringify(results, null, 1) + '\n');
  process.exit(0);
}
// Ranges of consecutive probed opsets with a verdict, per op.
function byOpOf(elem) {
  const byOp = new Map();
  for (const r of results.filter((x) => x.elem === elem)) {
    if (!byOp.has(r.op_type)) byOp.set(r.op_type, []);
    byOp.get(r.op_type).push(r);
  }
  return byOp;
}
function ranges(elem, verdict) {
  const byOp = byOpOf(elem);
  const table = [];
  for (const [op, rs] of [...byOp].sort()) {
    rs.sort((a, b) => a.opset - b.opset);
    for (let i = 0; i < rs.length; i++) {
      if (rs[i].verdict !== verdict) continue;
      let j = i;
      while (j + 1 < rs.length && rs[j + 1].verdict === verdict) j++;
      const end = j + 1 < rs.length ? rs[j + 1].opset - 1 : 2147483647;
      table.push({ domain: '', op_type: op, since: [rs[i].opset, end] });
      i = j;
    }
  }
  return table;
}
const COMMENT = "ONNX Runtime 1.30's CPU kernels (x86-64 build, as onnxruntime-node ships it), per op and inclusive " +
  'opset range, measured by tests/ort/ort-fp16-kernels.mjs on one-node models: fp16_kernels take float16 inputs; for ' +
  "fp16_inlined ORT has no kernel for float16 and inlines the op's ONNX function body; any other op with a float16 " +
  'input has no float16 kernel and InsertCastTransformer runs it in float32 between Casts; float32_inlined are ' +
  'inlined for float32 inputs too. 2147483647 = and later.';
const tables = { fp16_kernels: ranges('float16', 'kernel'), fp16_inlined: ranges('float16', 'inlined'),
                 float32_inlined: ranges('float32', 'inlined') };
let text = `{\n  "comment": ${JSON.stringify(COMMENT)}`;
for (const [k, list] of Object.entries(tables))
  text += `,\n  "${k}": [\n${list.map((e) => '    ' + JSON.stringify(e)).join(',\n')}\n  ]`;
process.stdout.write(text + '\n}\n');
