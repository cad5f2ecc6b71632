#!/usr/bin/env node
// Reference harness: ask the real ONNX Runtime (onnxruntime-node 1.30.0, CPU EP)
// for its default node partition config (DeviceBasedPartitioner), or check how
// ORT reacts to a given partition config.
//
// Usage:
//   node ort-default-config.mjs MODEL.onnx OUT.json
//       Creates a session (graph optimizations disabled, CPU EP) with
//       session.node_partition_config_file=OUT.json (OUT.json is deleted
//       first). ORT cannot open the file, so it partitions the main graph
//       itself and writes that default config to OUT.json.
//       Exit 0 on success (if ORT left the file empty, a note goes to stderr).
//       On failure prints ORT's error to stderr, exit 1.
//
//   node ort-default-config.mjs --check MODEL.onnx CONFIG.json
//       Creates a session using the existing CONFIG.json and prints one line:
//         {"ok":true}
//         {"ok":false,"message":"<ORT error text>"}
//       If ORT logged partitioner warnings (ORT treats JSON parse errors, a
//       wrong "type", or non-string entries as warnings, and falls back to
//       its default partition), they are added as "warnings":[...].
//       If the ORT process crashes (for example a stream listing no node of
//       the graph makes ORT 1.30 segfault), prints
//         {"ok":false,"message":"ORT process crashed (SIGSEGV)","signal":"SIGSEGV"}
//       Exit 0 whenever a result line was printed, 2 on usage errors.
//       The session is created in a child process so that crashes can be
//       reported; CONFIG.json is never modified by ORT when it exists.
//
// Session config entries are passed through SessionOptions.extra: the Node
// binding flattens nested keys with '.' and calls AddConfigEntry, so
//   extra: { session: { node_partition_config_file: P } }
// becomes the entry "session.node_partition_config_file" = P.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';

const SELF = fileURLToPath(import.meta.url);

function usage() {
  process.stderr.write(
    'usage: node ort-default-config.mjs MODEL.onnx OUT.json\n' +
      '       node ort-default-config.mjs --check MODEL.onnx CONFIG.json\n',
  );
  process.exit(2);
}

function sessionOptions(configPath, logSeverityLevel) {
  return {
    graphOptimizationLevel: 'disabled',
    executionProviders: ['cpu'],
    logSeverityLevel, // 2 = warning, 4 = fatal
    extra: {
      session: {
        node_partition_config_file: configPath,
      },
    },
  };
}

function errText(e) {
  if (e && typeof e.message === 'string') return e.message;
  return String(e);
}

async function createAndRelease(modelPath, configPath, logSeverityLevel) {
  const session = await ort.InferenceSession.create(modelPath, sessionOptions(configPath, logSeverityLevel));
  await session.release();
}

// Child side of --check: print the raw result as JSON; ORT logs go to stderr.
async function checkInner(model, config) {
  ort.env.logLevel = 'warning';
  let result;
  try {
    await createAndRelease(model, config, 2);
    result = { ok: true };
  } catch (e) {
    result = { ok: false, message: errText(e) };
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

function partitionerWarnings(stderrText) {
  const out = [];
  for (let line of stderrText.split('\n')) {
    line = line.replace(/\x1b\[[0-9;]*m/g, '').trim();
    // e.g. "2026-.. [W:onnxruntime:, allocation_planner.cc:2575 Initialize] Partitioner type is not ..."
    const m = /^\S+ \S+ \[W:onnxruntime:[^\]]*?allocation_planner\.cc:\d+ [^\]]*\] (.*)$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

function check(model, config) {
  const child = spawnSync(process.execPath, [SELF, '--check-inner', model, config], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  let result = null;
  const line = (child.stdout || '').trim().split('\n').pop();
  if (line) {
    try {
      result = JSON.parse(line);
    } catch {
      result = null;
    }
  }
  if (result === null) {
    const how = child.signal ? child.signal : `exit code ${child.status}`;
    result = { ok: false, message: `ORT process crashed (${how})` };
    if (child.signal) result.signal = child.signal;
  }
  const warnings = partitionerWarnings(child.stderr || '');
  if (warnings.length > 0) result.warnings = warnings;
  process.stdout.write(JSON.stringify(result) + '\n');
}

async function dumpDefault(model, out) {
  ort.env.logLevel = 'fatal';
  fs.rmSync(out, { force: true });
  try {
    await createAndRelease(model, out, 4);
  } catch (e) {
    process.stderr.write(errText(e) + '\n');
    process.exit(1);
  }
  if (!fs.existsSync(out)) {
    process.stderr.write(`ORT created the session but did not write ${out}\n`);
    process.exit(1);
  }
  if (fs.statSync(out).size === 0) {
    // ORT opens the file before serializing; if serializing throws (e.g. a node
    // name that is not valid UTF-8) it only logs a warning and leaves it empty.
    process.stderr.write(`note: ORT left ${out} empty (config serialization failed inside ORT)\n`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--check-inner') {
    if (args.length !== 3) usage();
    await checkInner(args[1], args[2]);
    return;
  }
  if (args[0] === '--check') {
    if (args.length !== 3) usage();
    const model = path.resolve(args[1]);
    const config = path.resolve(args[2]);
    if (!fs.existsSync(config)) {
      // ORT would treat a missing file as "write the default config here".
      process.stderr.write(`config file does not exist: ${config}\n`);
      process.exit(2);
    }
    check(model, config);
    return;
  }
  if (args.length !== 2 || args[0].startsWith('--')) usage();
  await dumpDefault(path.resolve(args[0]), path.resolve(args[1]));
}

main().catch((e) => {
  process.stderr.write(errText(e) + '\n');
  process.exit(1);
});
