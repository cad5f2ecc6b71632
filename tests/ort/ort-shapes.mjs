#!/usr/bin/env node
// What ONNX Runtime 1.30 holds as each value's TensorShapeProto once a session
// is initialised (Graph::Resolve's inference merged with the model's declared
// types): the shape view ORT's planner compares. ORT shows the types of graph
// inputs and outputs only, so every node output of the main graph is made a
// graph output too: with the ValueInfoProto the model states for it, or with
// a tensor type without a shape (element type from planviz-cli shapes), into
// which Resolve merges what it infers, as it does for value_info. Outputs do
// not take part in inference, so the shapes are those of the model as it is.
//
// Usage: node ort-shapes.mjs PLANVIZ_CLI MODEL.onnx
// Output: {"values": {name: {"type", "shape": [dim]}}} with a dim a number
// (dim_value), a string (dim_param) or null (neither); exit 1 with {"error"}.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readGraph, addGraphOutputs, ELEM_TYPES } from './onnx-wire.mjs';

// ORT's view of @model's main-graph values, or {error}.
export async function ortShapes(ort, cli, model) {
  const shapes = spawnSync(cli, ['shapes', model, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  let ours;
  try {
    ours = JSON.parse(shapes.stdout).values;
  } catch (e) {
    return { error: `planviz-cli shapes: ${(shapes.stderr || '').split('\n')[0]}` };
  }
  const bytes = fs.readFileSync(model);
  const g = readGraph(bytes);
  const outputs = new Set(g.outputs.map((v) => v.name));
  const stated = new Map(g.value_info.map((v) => [v.name, v]));
  const entries = [];
  for (const v of ours) {
    if (v.producer === null || v.graph || outputs.has(v.name)) continue;
    if (stated.has(v.name)) entries.push({ bytes: stated.get(v.name).bytes });
    else if (v.dtype in ELEM_TYPES) entries.push({ name: v.name, elem_type: ELEM_TYPES[v.dtype] });
  }
  let session;
  try {
    session = await ort.InferenceSession.create(addGraphOutputs(bytes, entries),
      { graphOptimizationLevel: 'disabled', executionProviders: ['cpu'], logSeverityLevel: 3 });
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
  const values = {};
  for (const m of [...session.inputMetadata, ...session.outputMetadata]) {
    if (!m.isTensor) continue;
    values[m.name] = { type: m.type, shape: m.shape.map((d) => (d === '' || d === -1 ? null : d)) };
  }
  await session.release();
  return { values };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cli, model] = process.argv.slice(2);
  if (!cli || !model) {
    process.stderr.write('usage: node ort-shapes.mjs PLANVIZ_CLI MODEL.onnx\n');
    process.exit(2);
  }
  const ort = (await import('onnxruntime-node')).default;
  const r = await ortShapes(ort, cli, path.resolve(model));
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(r.error ? 1 : 0);
}
