#!/usr/bin/env node
// Runs a model in the real ONNX Runtime (onnxruntime-node 1.30, CPU EP) with
// its profiler on, and prints what ORT recorded per node as one JSON object:
// the judge that planviz's ORT plan, arena figures and shapes are held against.
//
// Usage: node ort-profile.mjs MODEL.onnx [options]
//   --opt LEVEL            graph optimisation level: disabled (default), basic, extended, all
//   --partition FILE       session.node_partition_config_file (ORT writes its default there
//                          when FILE does not exist)
//   --runs N               runs of the same inputs (default 1); each run's node records apart
//   --mem-pattern on|off   enableMemPattern (ORT's default: on)
//   --cpu-arena on|off     enableCpuMemArena (ORT's default: on)
//   --mode sequential|parallel   executionMode (default sequential)
//   --inter-op N, --intra-op N   thread pool sizes (default: ORT's)
//   --bound SYMBOL=N       the value of a symbolic input dim in the inputs fed (default 1);
//                          the model keeps its symbols: ORT plans before it sees inputs
//   --input-shape NAME=D,D,…   the shape fed for one input
//   --input-value NAME=V   fill one input with V (scalar inputs of If conditions, sample rates)
//   --inputs-from DIR      feed the TensorProtos DIR/input_<k>.pb (an ONNX backend test's data set)
//                          to the inputs they name (or to the k-th input)
//   --save-optimized FILE  optimizedModelFilePath: the graph ORT planned, as ONNX
//   --seed N               seed of the input data (default 1)
//
// Output: {"model", "options", "inputs": [{name, type, shape}],
//          "runs": [[{node_index, name, op, provider, input_type_shape, output_type_shape,
//                     output_size, mem_requested_in_use_delta, mem_bytes_requested_in_use,
//                     mem_bytes_in_use, mem_in_use_delta, mem_arena_held, mem_arena_held_delta,
//                     mem_in_use_peak, tid}, …in the order ORT ran them], …],
//          "outputs": [[{name, type, dims, sha256}], …per run]}
// Byte figures are numbers; node_index is ORT's NodeIndex (unnamed nodes are
// called <OpType>_<NodeIndex> in the profile, not as in a partition config).
// Exit 1 with {"error": message} when ORT refuses the model or the config.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { readGraph, readTensor } from './onnx-wire.mjs';

function usage(msg) {
  process.stderr.write(`ort-profile.mjs: ${msg}\nusage: node ort-profile.mjs MODEL.onnx [--opt L] [--partition F] ` +
    '[--runs N] [--mem-pattern on|off] [--cpu-arena on|off] [--mode sequential|parallel] [--inter-op N] ' +
    '[--intra-op N] [--bound S=N] [--input-shape NAME=D,…] [--input-value NAME=V] [--save-optimized F] [--seed N]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { ...defaultArgs('.'), model: null };
  const onOff = (v, k) => { if (v !== 'on' && v !== 'off') usage(`${k} takes on or off`); return v === 'on'; };
  const pair = (v, k) => { const i = v.indexOf('='); if (i <= 0) usage(`${k} takes NAME=VALUE`); return [v.slice(0, i), v.slice(i + 1)]; };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${k} needs a value`); return argv[++i]; };
    switch (k) {
      case '--opt': a.opt = v(); if (!['disabled', 'basic', 'extended', 'all'].includes(a.opt)) usage('bad --opt'); break;
      case '--partition': a.partition = path.resolve(v()); break;
      case '--runs': a.runs = parseInt(v(), 10); if (!(a.runs >= 1)) usage('bad --runs'); break;
      case '--mem-pattern': a.memPattern = onOff(v(), k); break;
      case '--cpu-arena': a.cpuArena = onOff(v(), k); break;
      case '--mode': a.mode = v(); if (!['sequential', 'parallel'].includes(a.mode)) usage('bad --mode'); break;
      case '--inter-op': a.interOp = parseInt(v(), 10); break;
      case '--intra-op': a.intraOp = parseInt(v(), 10); break;
      case '--bound': { const [s, n] = pair(v(), k); a.bounds[s] = parseInt(n, 10); break; }
      case '--input-shape': { const [s, d] = pair(v(), k); a.shapes[s] = d === '' ? [] : d.split(',').map(Number); break; }
      case '--input-value': { const [s, x] = pair(v(), k); a.values[s] = Number(x); break; }
      case '--save-optimized': a.saveOptimized = path.resolve(v()); break;
      case '--inputs-from': a.inputsFrom = path.resolve(v()); break;
      case '--seed': a.seed = parseInt(v(), 10); break;
      default:
        if (k.startsWith('--') || a.model) usage(`unexpected argument ${k}`);
        a.model = path.resolve(k);
    }
  }
  if (!a.model) usage('no model');
  return a;
}

const TYPED = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array, float16: Uint16Array,
};

// Deterministic inputs: floats in [-1, 1) from a xorshift stream, integers 0,
// booleans false, unless --input-value gives the value.
function makeInput(md, a, rng) {
  let shape = a.shapes[md.name];
  if (!shape) shape = md.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : (a.bounds[d] ?? 1)));
  const n = shape.reduce((x, y) => x * y, 1);
  const Ctor = TYPED[md.type];
  if (!Ctor) throw new Error(`input ${md.name}: type ${md.type} is not fed by this harness`);
  const data = new Ctor(n);
  const given = a.values[md.name];
  for (let i = 0; i < n; i++) {
    if (md.type === 'int64' || md.type === 'uint64') data[i] = BigInt(given ?? 0);
    else if (md.type === 'float16') data[i] = given !== undefined ? f16(given) : f16(rng() * 2 - 1);
    else if (md.type.startsWith('float')) data[i] = given ?? rng() * 2 - 1;
    else data[i] = given ?? 0;
  }
  return { tensor: new ort.Tensor(md.type, data, shape), shape };
}

const ELEM_NAMES = { 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 9: 'bool',
                     10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64' };

// The TensorProtos of a backend test data set, by input name.
function loadInputs(dir, names) {
  const out = new Map();
  if (!dir) return out;
  for (let k = 0; fs.existsSync(path.join(dir, `input_${k}.pb`)); k++) {
    const t = readTensor(fs.readFileSync(path.join(dir, `input_${k}.pb`)));
    const type = ELEM_NAMES[t.elem_type];
    const Ctor = TYPED[type];
    if (!Ctor) continue;
    const bytes = Buffer.from(t.data);
    const data = new Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    out.set(t.name || names[k], { tensor: new ort.Tensor(type, type === 'bool' ? new Uint8Array(data) : data, t.dims),
                                  shape: t.dims });
  }
  return out;
}

function f16(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = (u >>> 13) & 0x3ff;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | mant;
}

function xorshift(seed) {
  let s = (seed >>> 0) || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

const NUMERIC = ['output_size', 'mem_requested_in_use_delta', 'mem_bytes_requested_in_use', 'mem_bytes_in_use',
                 'mem_in_use_delta', 'mem_arena_held', 'mem_arena_held_delta', 'mem_in_use_peak',
                 'activation_size', 'parameter_size'];

function nodeRecord(e) {
  const r = { node_index: Number(e.args.node_index), name: e.name.replace(/_kernel_time$/, ''), op: e.args.op_name,
              provider: e.args.provider, input_type_shape: e.args.input_type_shape,
              output_type_shape: e.args.output_type_shape, tid: e.tid };
  for (const k of NUMERIC) if (e.args[k] !== undefined) r[k] = Number(e.args[k]);
  return r;
}

// Node events come in run order; a run ends with its "model_run" event.
function splitRuns(events) {
  const runs = [];
  let cur = [];
  for (const e of events) {
    if (e.cat === 'Node' && e.name.endsWith('_kernel_time')) cur.push(nodeRecord(e));
    else if (e.cat === 'Session' && e.name === 'model_run') { runs.push(cur); cur = []; }
  }
  if (cur.length) runs.push(cur);
  return runs;
}

// Profiles one model in this process. @a: parseArgs()'s fields (defaults
// from defaultArgs()). Returns the output object described above, or
// {error} when ORT refuses the model or the run fails.
export async function profile(a) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pv-ort-profile-'));
  try {
    return await profileIn(dir, a);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function defaultArgs(model) {
  return { model: path.resolve(model), opt: 'disabled', runs: 1, bounds: {}, shapes: {}, values: {}, seed: 1,
           memPattern: null, cpuArena: null, mode: 'sequential', interOp: null, intraOp: null, partition: null,
           saveOptimized: null, inputsFrom: null };
}

async function profileIn(dir, a) {
  const options = { graphOptimizationLevel: a.opt, executionProviders: ['cpu'], enableProfiling: true,
                    profileFilePrefix: path.join(dir, 'profile'), executionMode: a.mode, logSeverityLevel: 3 };
  if (a.memPattern !== null) options.enableMemPattern = a.memPattern;
  if (a.cpuArena !== null) options.enableCpuMemArena = a.cpuArena;
  if (a.interOp !== null) options.interOpNumThreads = a.interOp;
  if (a.intraOp !== null) options.intraOpNumThreads = a.intraOp;
  if (a.saveOptimized) options.optimizedModelFilePath = a.saveOptimized;
  if (a.partition) options.extra = { session: { node_partition_config_file: a.partition } };
  let session;
  try {
    session = await ort.InferenceSession.create(a.model, options);
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
  const rng = xorshift(a.seed);
  const feeds = {};
  const inputs = [];
  // An input with an initializer keeps it unless told otherwise: its value is
  // the model's default (a Loop's trip count), not the harness's.
  let defaults = new Set();
  try {
    defaults = new Set(readGraph(fs.readFileSync(a.model)).initializers);
  } catch (e) { /* feed everything */ }
  const given = loadInputs(a.inputsFrom, session.inputNames);
  for (const md of session.inputMetadata) {
    if (given.has(md.name)) {
      const g = given.get(md.name);
      feeds[md.name] = g.tensor;
      inputs.push({ name: md.name, type: md.type, shape: g.shape });
      continue;
    }
    if (defaults.has(md.name) && !(md.name in a.values) && !(md.name in a.shapes)) continue;
    const { tensor, shape } = makeInput(md, a, rng);
    feeds[md.name] = tensor;
    inputs.push({ name: md.name, type: md.type, shape });
  }
  const outputs = [];
  try {
    for (let r = 0; r < a.runs; r++) {
      const result = await session.run(feeds);
      outputs.push(session.outputNames.map((n) => {
        const t = result[n];
        const bytes = t && t.data && t.data.buffer ? Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)
          : Buffer.from(JSON.stringify(t ? t.data : null));
        return { name: n, type: t ? t.type : null, dims: t ? t.dims : null,
                 sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
      }));
    }
  } catch (e) {
    session.endProfiling();
    await session.release();
    return { error: `run failed: ${e && e.message ? e.message : e}` };
  }
  const file = session.endProfiling();
  await session.release();
  const profileFile = fs.readdirSync(dir).map((f) => path.join(dir, f)).find((f) => f.endsWith('.json')) ?? file;
  const events = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
  return { model: a.model, options: { opt: a.opt, partition: a.partition, runs: a.runs, memPattern: a.memPattern,
           cpuArena: a.cpuArena, mode: a.mode, bounds: a.bounds, intraOp: a.intraOp }, inputs,
           runs: splitRuns(events), outputs };
}

async function main() {
  const out = await profile(parseArgs(process.argv));
  process.stdout.write(JSON.stringify(out) + '\n');
  if (out.error) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((e) => { process.stderr.write(`ort-profile.mjs: ${e && e.stack ? e.stack : e}\n`); process.exit(1); });
