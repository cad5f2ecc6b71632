#!/usr/bin/env node
// Test: external-data locations, judged by the real ONNX Runtime
// (onnxruntime-node 1.30, CPU). Each case is a folder with a small model
// whose initializer W (or a Constant, or a subgraph's initializer) keeps its
// data in a file named by external_data, plus whatever files, folders and
// symlinks the case needs. ORT creates a session on the model's path (in a
// child: a case may crash it); planviz-cli runs `info` and `plan` on the same
// path. They must agree: ORT refuses exactly the cases planviz refuses, and
// planviz's message names the tensor. TAP output; a TAP skip when
// onnxruntime-node is not installed.
//
// Usage: node compare-external-data.mjs PLANVIZ_CLI
//        node compare-external-data.mjs --ort MODEL.onnx   (the child: prints {"ok":..,"message":..})
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encVarint } from './onnx-wire.mjs';
import { ortOrSkip } from './ort-or-skip.mjs';

const ort = await ortOrSkip();

if (process.argv[2] === '--ort') {
  try {
    await ort.InferenceSession.create(process.argv[3], { graphOptimizationLevel: 'disabled', logSeverityLevel: 4 });
    console.log(JSON.stringify({ ok: true }));
  } catch (e) {
    console.log(JSON.stringify({ ok: false, message: String(e.message || e).split('\n')[0] }));
  }
  process.exit(0);
}

// ---- a protobuf writer, just what these models need ----
const varint = encVarint;
const tag = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => Buffer.concat([tag(field, 0), varint(n)]);
const bytes = (field, b) => {
  b = Buffer.isBuffer(b) ? b : Buffer.from(b, 'utf8');
  return Buffer.concat([tag(field, 2), varint(b.length), b]);
};
const msg = (field, ...parts) => bytes(field, Buffer.concat(parts.flat()));

const FLOAT = 1, STRING = 8;
// TensorProto: dims 1, data_type 2, name 8, external_data 13 (key 1, value 2), data_location 14.
function tensor(name, { dims = [4], type = FLOAT, entries = [], location = 1 } = {}) {
  return [
    ...dims.map((d) => int(1, d)), int(2, type), bytes(8, name),
    ...entries.map(([k, v]) => msg(13, k === null ? [] : bytes(1, k), v === null ? [] : bytes(2, v))),
    location === null ? Buffer.alloc(0) : int(14, location),
  ];
}
// ValueInfoProto T[4]: name 1, type 2 > tensor_type 1 > (elem_type 1, shape 2 > dim 1 > dim_value 1).
const valueInfo = (field, name, type = FLOAT) =>
  msg(field, bytes(1, name), msg(2, msg(1, int(1, type), msg(2, msg(1, int(1, 4))))));
// NodeProto: input 1, output 2, name 3, op_type 4, attribute 5 (name 1, t 5, g 6, type 20).
const node = (op, inputs, outputs, ...attrs) =>
  msg(1, ...inputs.map((i) => bytes(1, i)), ...outputs.map((o) => bytes(2, o)), bytes(3, `${op}_${outputs[0]}`),
      bytes(4, op), ...attrs);
// GraphProto: node 1, name 2, initializer 5, input 11, output 12.
function model({ entries, tensorOpts = {}, shape = 'add' }) {
  const w = tensor('W', { entries, ...tensorOpts });
  let graph;
  if (shape === 'identity') {
    const type = tensorOpts.type || FLOAT;
    graph = [node('Identity', ['W'], ['Y']), bytes(2, 'g'), msg(5, w), valueInfo(12, 'Y', type)];
  } else if (shape === 'input') {
    // W is also a graph input: its initializer is only a default.
    graph = [node('Add', ['X', 'W'], ['Y']), bytes(2, 'g'), msg(5, w), valueInfo(11, 'X'), valueInfo(11, 'W'),
             valueInfo(12, 'Y')];
  } else if (shape === 'add') {
    graph = [node('Add', ['X', 'W'], ['Y']), bytes(2, 'g'), msg(5, w), valueInfo(11, 'X'), valueInfo(12, 'Y')];
  } else if (shape === 'unused') {
    graph = [node('Relu', ['X'], ['Y']), bytes(2, 'g'), msg(5, w), valueInfo(11, 'X'), valueInfo(12, 'Y')];
  } else if (shape === 'constant') {
    const attr = msg(5, bytes(1, 'value'), msg(5, w), int(20, 4)); // AttributeProto.TENSOR
    graph = [node('Constant', [], ['W'], attr), node('Add', ['X', 'W'], ['Y']), bytes(2, 'g'),
             valueInfo(11, 'X'), valueInfo(12, 'Y')];
  } else if (shape === 'subgraph' || shape === 'subgraph-unused') {
    // If(C) with a then-branch holding W as its own initializer.
    const use = shape === 'subgraph';
    const branch = (init) => [node('Add', ['X', init && use ? 'W' : 'X'], [init ? 'T' : 'E']),
                              bytes(2, init ? 'then' : 'else'),
                              init ? msg(5, w) : [], valueInfo(12, init ? 'T' : 'E')];
    const thenAttr = msg(5, bytes(1, 'then_branch'), msg(6, ...branch(true)), int(20, 5)); // GRAPH
    const elseAttr = msg(5, bytes(1, 'else_branch'), msg(6, ...branch(false)), int(20, 5));
    const cond = msg(11, bytes(1, 'C'), msg(2, msg(1, int(1, 9), msg(2))));   // bool scalar
    graph = [node('If', ['C'], ['Y'], thenAttr, elseAttr), bytes(2, 'g'), cond, valueInfo(11, 'X'),
             valueInfo(12, 'Y')];
  }
  // ModelProto: ir_version 1, graph 7, opset_import 8 (version 2).
  return Buffer.concat([int(1, 8), msg(7, ...graph), msg(8, int(2, 17))]);
}

// ---- the cases ----
// Each: name, external_data entries, files to make, and what ORT 1.30 does
// (checked by running it; the test fails if ORT changes its mind).
const data16 = Buffer.alloc(16, 1), data32 = Buffer.alloc(32, 1);
const here = (f) => [['location', f]];
const cases = [
  { name: 'a file beside the model', entries: here('w.bin'), files: { 'w.bin': data16 }, ort: true },
  { name: 'a file in a subfolder', entries: here('sub/w.bin'), files: { 'sub/w.bin': data16 }, ort: true },
  { name: './ prefix', entries: here('./w.bin'), files: { 'w.bin': data16 }, ort: true },
  { name: '.. that stays inside', entries: here('sub/../w.bin'), files: { 'w.bin': data16, 'sub/x': data16 }, ort: true },
  { name: 'offset and length inside the file', entries: [['location', 'w.bin'], ['offset', '16'], ['length', '16']],
    files: { 'w.bin': data32 }, ort: true },
  { name: 'a symlink to a file inside', entries: here('link.bin'), files: { 'w.bin': data16 },
    links: { 'link.bin': 'w.bin' }, ort: true },
  { name: 'an unused initializer with a missing file', entries: here('nope.bin'), shape: 'unused', ort: true },
  { name: 'a subgraph initializer beside the model', entries: here('w.bin'), files: { 'w.bin': data16 },
    shape: 'subgraph', ort: true },
  { name: 'an absolute path', entries: here('@ABS@/w.bin'), files: { 'w.bin': data16 }, ort: false },
  { name: '../ out of the folder', entries: here('../outside.bin'), outside: { 'outside.bin': data16 }, ort: false },
  { name: 'sub/../../ out of the folder', entries: here('sub/../../outside.bin'), files: { 'sub/x': data16 },
    outside: { 'outside.bin': data16 }, ort: false },
  { name: 'a symlink leading out', entries: here('link.bin'), outside: { 'outside.bin': data16 },
    links: { 'link.bin': '../outside.bin' }, ort: false },
  { name: 'a symlinked folder leading out', entries: here('dir/outside.bin'), outside: { 'outside.bin': data16 },
    links: { dir: '..' }, ort: false },
  { name: 'a missing file', entries: here('nope.bin'), ort: false },
  { name: 'a dangling symlink', entries: here('link.bin'), links: { 'link.bin': 'nope.bin' }, ort: false },
  { name: 'a folder as the file', entries: here('sub'), files: { 'sub/x': data16 }, ort: false },
  { name: 'a file too short', entries: here('w.bin'), files: { 'w.bin': Buffer.alloc(8) }, ort: false },
  { name: 'offset past the end', entries: [['location', 'w.bin'], ['offset', '32']], files: { 'w.bin': data32 },
    ort: false },
  { name: 'offset + size past the end', entries: [['location', 'w.bin'], ['offset', '24']],
    files: { 'w.bin': data32 }, ort: false },
  { name: 'an offset past 2^63', entries: [['location', 'w.bin'], ['offset', '99999999999999999999']],
    files: { 'w.bin': data16 }, ort: false },
  { name: 'a negative offset', entries: [['location', 'w.bin'], ['offset', '-4']], files: { 'w.bin': data16 },
    ort: false },
  { name: 'a non-numeric offset', entries: [['location', 'w.bin'], ['offset', 'abc']], files: { 'w.bin': data16 },
    ort: false },
  { name: 'an offset with trailing text', entries: [['location', 'w.bin'], ['offset', '0x']],
    files: { 'w.bin': data16 }, ort: false },
  { name: 'a non-numeric length', entries: [['location', 'w.bin'], ['length', '16 bytes']],
    files: { 'w.bin': data16 }, ort: false },
  { name: 'a length other than the tensor size', entries: [['location', 'w.bin'], ['length', '8']],
    files: { 'w.bin': data16 }, ort: false },
  { name: 'an empty location', entries: here(''), files: { 'w.bin': data16 }, ort: false },
  { name: 'no location', entries: [['offset', '0']], files: { 'w.bin': data16 }, ort: false },
  { name: 'two locations', entries: [['location', 'w.bin'], ['location', 'w.bin']], files: { 'w.bin': data16 },
    ort: false },
  { name: "ORT's in-memory address tag", entries: [['location', '*/_ORT_MEM_ADDR_/*'], ['offset', '4096'],
    ['length', '16']], ort: false },
  { name: 'a string tensor', entries: here('w.bin'), files: { 'w.bin': data16 }, tensorOpts: { type: STRING },
    shape: 'identity', ort: false },
  { name: 'a Constant holding external data', entries: here('w.bin'), files: { 'w.bin': data16 },
    shape: 'constant', ort: true },
  { name: 'a Constant with a missing file', entries: here('nope.bin'), shape: 'constant', ort: false },
  { name: 'a Constant out of the folder', entries: here('../outside.bin'), outside: { 'outside.bin': data16 },
    shape: 'constant', ort: false },
  { name: 'an initializer that is also an input, missing file', entries: here('nope.bin'), shape: 'input',
    ort: false },
  { name: 'the model file itself', entries: here('model.onnx'), ort: true },
  { name: 'a FIFO as the file', entries: here('fifo'), fifos: ['fifo'], ort: false },
  { name: 'offset with leading zeros', entries: [['location', 'w.bin'], ['offset', '0016']],
    files: { 'w.bin': data32 }, ort: true },
  { name: 'offset with a leading +', entries: [['location', 'w.bin'], ['offset', '+16']], files: { 'w.bin': data32 },
    ort: false },
  { name: 'offset with a leading space', entries: [['location', 'w.bin'], ['offset', ' 16']],
    files: { 'w.bin': data32 }, ort: false },
  { name: 'offset with a trailing space', entries: [['location', 'w.bin'], ['offset', '16 ']],
    files: { 'w.bin': data32 }, ort: false },
  { name: 'an empty offset', entries: [['location', 'w.bin'], ['offset', '']], files: { 'w.bin': data16 },
    ort: false },
  { name: 'a length of 0', entries: [['location', 'w.bin'], ['length', '0']], files: { 'w.bin': data16 },
    ort: true },
  { name: 'a negative length', entries: [['location', 'w.bin'], ['length', '-16']], files: { 'w.bin': data16 },
    ort: false },
  { name: 'a checksum entry', entries: [['location', 'w.bin'], ['checksum', 'abc']], files: { 'w.bin': data16 },
    ort: true },
  { name: 'an unknown key', entries: [['location', 'w.bin'], ['colour', 'red']], files: { 'w.bin': data16 },
    ort: false },
  { name: 'an entry without a value', entries: [['location', 'w.bin'], ['offset', null]],
    files: { 'w.bin': data16 }, ort: false },
  { name: 'an entry without a key', entries: [['location', 'w.bin'], [null, 'x']], files: { 'w.bin': data16 },
    ort: false },
  // Not a location: ORT 1.30 checks that embedded data matches the shape
  // (ValidateEmbeddedTensorProtoDataSizeAndShape); planviz does not read
  // weights and accepts such a tensor.
  { name: 'external_data without data_location EXTERNAL', entries: here('w.bin'), files: { 'w.bin': data16 },
    tensorOpts: { location: null }, ort: false,
    todo: 'planviz does not check that embedded data matches the shape, ORT 1.30 does' },
  { name: 'model opened by a bare name, file beside', entries: here('w.bin'), files: { 'w.bin': data16 }, cwd: true,
    ort: true },
  { name: 'model opened by a bare name, ../ out', entries: here('../outside.bin'), outside: { 'outside.bin': data16 },
    cwd: true, ort: false },
  { name: 'model opened by a bare name, symlink out', entries: here('link.bin'), outside: { 'outside.bin': data16 },
    links: { 'link.bin': '../outside.bin' }, cwd: true, ort: false },
  { name: 'an unused subgraph initializer with a missing file', entries: here('nope.bin'), shape: 'subgraph-unused',
    ort: false },
  { name: 'an unused subgraph initializer, symlink inside', entries: here('link.bin'), files: { 'w.bin': data16 },
    links: { 'link.bin': 'w.bin' }, shape: 'subgraph-unused', ort: false },
  { name: 'a subgraph initializer, symlink inside', entries: here('link.bin'), files: { 'w.bin': data16 },
    links: { 'link.bin': 'w.bin' }, shape: 'subgraph', ort: false },
  { name: 'a subgraph initializer, symlink leading out', entries: here('link.bin'), outside: { 'outside.bin': data16 },
    links: { 'link.bin': '../outside.bin' }, shape: 'subgraph', ort: false },
  { name: 'an unused subgraph initializer, symlink leading out', entries: here('link.bin'),
    outside: { 'outside.bin': data16 }, links: { 'link.bin': '../outside.bin' }, shape: 'subgraph-unused', ort: false },
  { name: 'an unused subgraph initializer, offset past the end', entries: [['location', 'w.bin'], ['offset', '64']],
    files: { 'w.bin': data16 }, shape: 'subgraph-unused', ort: true },
  { name: 'an unused subgraph initializer, a folder as the file', entries: here('sub'), files: { 'sub/x': data16 },
    shape: 'subgraph-unused', ort: false },
  { name: 'a subgraph initializer, absolute path', entries: here('@ABS@/w.bin'), files: { 'w.bin': data16 },
    shape: 'subgraph', ort: false },
  { name: 'a subgraph initializer out of the folder', entries: here('../outside.bin'),
    outside: { 'outside.bin': data16 }, shape: 'subgraph', ort: false },
];

const cli = process.argv[2] && path.resolve(process.argv[2]);
if (!cli) {
  process.stderr.write('usage: node compare-external-data.mjs PLANVIZ_CLI\n');
  process.exit(2);
}
const SELF = fileURLToPath(import.meta.url);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planviz-external-'));
let failed = 0;
console.log(`1..${cases.length}`);
for (const [i, c] of cases.entries()) {
  const top = path.join(root, `case${i}`), dir = path.join(top, 'model');
  fs.mkdirSync(dir, { recursive: true });
  const put = (base, files) => {
    for (const [f, b] of Object.entries(files || {})) {
      fs.mkdirSync(path.dirname(path.join(base, f)), { recursive: true });
      fs.writeFileSync(path.join(base, f), b);
    }
  };
  put(dir, c.files);
  put(top, c.outside);
  for (const [f, target] of Object.entries(c.links || {})) fs.symlinkSync(target, path.join(dir, f));
  for (const f of c.fifos || []) spawnSync('mkfifo', [path.join(dir, f)]);
  const entries = c.entries.map(([k, v]) => [k, v && v.replace('@ABS@', dir)]);
  fs.writeFileSync(path.join(dir, 'model.onnx'), model({ entries, tensorOpts: c.tensorOpts, shape: c.shape || 'add' }));
  // cwd: opened as plain "model.onnx" from its folder (ORT then has no model folder).
  const modelPath = c.cwd ? 'model.onnx' : path.join(dir, 'model.onnx');
  const opts = { encoding: 'utf8', cwd: dir };
  const child = spawnSync(process.execPath, [SELF, '--ort', modelPath], { ...opts, timeout: 60000 });
  let ortSays;
  if (child.signal) ortSays = { ok: false, message: `ORT crashed (${child.signal})` };
  else {
    try { ortSays = JSON.parse(child.stdout.trim().split('\n').pop()); }
    catch { ortSays = { ok: false, message: `no answer: ${child.stderr.split('\n')[0]}` }; }
  }
  const runs = ['info', 'plan'].map((cmd) => spawnSync(cli, [cmd, modelPath], { ...opts, timeout: 20000 }));
  const problems = [];
  if (ortSays.ok !== c.ort)
    problems.push(`ORT 1.30 ${ortSays.ok ? 'accepts' : `refuses (${ortSays.message})`}, expected otherwise`);
  for (const [k, run] of runs.entries()) {
    const cmd = k ? 'plan' : 'info';
    const accepted = run.status === 0;
    if (run.signal || run.status > 1) problems.push(`planviz-cli ${cmd}: exit ${run.status} ${run.signal || ''}`);
    else if (accepted !== ortSays.ok)
      problems.push(`planviz-cli ${cmd} ${accepted ? 'accepts' : `refuses: ${run.stderr.trim()}`}, ORT ${ortSays.ok ? 'accepts' : `refuses: ${ortSays.message}`}`);
    else if (!accepted && !/“W”/.test(run.stderr))
      problems.push(`planviz-cli ${cmd}'s message does not name the tensor: ${run.stderr.trim()}`);
  }
  const why = ortSays.ok ? 'both accept' : `both refuse; planviz: ${runs[0].stderr.trim().split('\n')[0]} | ORT: ${ortSays.message}`;
  if (problems.length) {
    if (!c.todo) failed++;
    console.log(`not ok ${i + 1} - ${c.name}: ${problems.join('; ')}${c.todo ? ` # TODO ${c.todo}` : ''}`);
  } else console.log(`ok ${i + 1} - ${c.name} (${why})${c.todo ? ` # TODO ${c.todo}` : ''}`);
}
fs.rmSync(root, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
