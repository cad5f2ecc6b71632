#!/usr/bin/env node
// Test (issue 14): random 2-4-stream partitions of each network, all on
// device "0" (seeded: random, contiguous chunks, round-robin, by op type),
// each run in ORT at least three times; per node, whether it allocated
// against planviz's multi-stream ORT plan (compare-allocations.mjs --runs 3).
// A node ORT decides both ways must be one planviz says ORT plans at random.
// Seed: PV_TEST_SEED (default 1), printed.
// Usage: node compare-multi-stream.mjs PLANVIZ_CLI MODEL.onnx…
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [cli, ...models] = process.argv.slice(2);
const seed = Number(process.env.PV_TEST_SEED ?? 1) >>> 0;
let state = seed || 1;
const rand = (n) => {
  // xorshift32: the same configs for the same seed on every machine
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planviz-ms-'));
const specs = [];
for (const model of models) {
  if (!fs.existsSync(model)) continue;
  const def = JSON.parse(spawnSync(cli, ['partition', model], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout);
  const plan = JSON.parse(spawnSync(cli, ['plan', model, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout);
  const op = new Map(plan.nodes.map((n) => [n.name, n.op]));
  const names = def.streams.flat();
  for (const kind of ['random', 'chunks', 'round-robin', 'by-op']) {
    const k = 2 + rand(3);
    let of;
    if (kind === 'random') of = names.map(() => rand(k));
    else if (kind === 'round-robin') of = names.map((_, i) => i % k);
    else if (kind === 'chunks') {
      const cuts = [...new Set(Array.from({ length: k - 1 }, () => 1 + rand(names.length - 1)))].sort((a, b) => a - b);
      of = names.map((_, i) => cuts.filter((c) => i >= c).length);
    } else {
      const types = [...new Set(names.map((n) => op.get(n)))].sort();
      const to = new Map(types.map((t) => [t, rand(k)]));
      of = names.map((n) => to.get(op.get(n)));
    }
    const streams = Array.from({ length: k }, (_, s) => names.filter((_, i) => of[i] === s)).filter((s) => s.length);
    const file = path.join(dir, `${path.basename(model, '.onnx')}.${kind}.json`);
    fs.writeFileSync(file, JSON.stringify({ type: 'DeviceBasedPartitioner', streams, devices: streams.map(() => '0') }));
    specs.push(`${model}:${file}`);
  }
}
console.log(`# random seed ${seed} (PV_TEST_SEED=N repeats or changes it); configs in ${dir}`);
const run = spawnSync(process.execPath, [path.join(here, 'compare-allocations.mjs'), cli, '--runs', '3', ...specs],
                      { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] });
fs.rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
