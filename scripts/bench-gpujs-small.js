#!/usr/bin/env node
// bench-gpujs-small.js - the small-calls rows of `make bench` (tests/bench/row_small.c) run by GPU.js
// 2.24.1 in node: brain.js-style layer kernels on 1 to 16,384 cells, host arrays in, the result back in
// host memory, with the bench's data (its LCG and seed) and the same kernel text gpuc compiles.
//
//   node scripts/bench-gpujs-small.js [--cells 1,64,1024,16384] [--inputs 16] [--seed S] [--modes webasm,cpu]
//
// gpu.js is looked up through node's paths (NODE_PATH), then in /tmp/gpujs-zoo/node_modules (the zoo's
// install: npm install --prefix /tmp/gpujs-zoo gpu.js@2.24.1 --ignore-scripts). One line per cell:
//   gpujs-small kernel=layer cells=64 mode=webasm median_us=28.1 calls=3561 checksum=0.51 class=WebAssemblyKernel
//               source_fnv1a=0x...
// Per-call time: the median of single calls, timed one by one after 20 untimed ones, for about 0.1 s
// (at least 101 calls, at most 20,001), as the C side times gpuc's calls.
'use strict';
const path = require('path');

// The kernels, as tests/bench/row_small.c pastes them: a weighted sum of the inputs with a bias and a
// sigmoid (brain.js's feed-forward layer), and the sigmoid layer's delta (error * output * (1 - output)).
const SOURCES = {
  layer: `function (weights, inputs, biases) {
  let sum = biases[this.thread.x];
  for (let k = 0; k < this.constants.inputs; k++) {
    sum += weights[this.thread.x][k] * inputs[k];
  }
  return 1 / (1 + Math.exp(-sum));
}`,
  delta: `function (outputs, errors) {
  const output = outputs[this.thread.x];
  return errors[this.thread.x] * output * (1 - output);
}`,
};

const WARMUP = 20, MIN_CALLS = 101, MAX_CALLS = 20001, TARGET_MS = 100;

// The bench's generator, checksum (sum v[i] * (1 + i % 17) / count), FNV-1a and gpu.js loader.
const { lcg, checksum, fnv1a, loadGPU } = require(path.join(__dirname, 'bench-gpujs-zoo.js'));

// The data, in the order row_small.c draws it from one stream: weights (cells rows of `inputs`, in
// [-0.5, 0.5)), inputs, biases (both [-0.5, 0.5)), then outputs in [0, 1) and errors in [-0.5, 0.5).
function makeData(cells, inputs, seed) {
  const next = lcg(seed);
  const weights = [];
  for (let y = 0; y < cells; y++) {
    const r = new Float32Array(inputs);
    for (let k = 0; k < inputs; k++) r[k] = next() - 0.5;
    weights.push(r);
  }
  const fill = (n, off) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = next() - off;
    return a;
  };
  const x = fill(inputs, 0.5), b = fill(cells, 0.5), o = fill(cells, 0), e = fill(cells, 0.5);
  return { weights, x, b, o, e };
}

function nowUs() {
  return Number(process.hrtime.bigint()) / 1e3;
}

function measure(run) {
  let last;
  for (let i = 0; i < WARMUP; i++) last = run();
  const times = [];
  const start = nowUs();
  while (times.length < MAX_CALLS && (times.length < MIN_CALLS || nowUs() - start < TARGET_MS * 1e3)) {
    const t0 = nowUs();
    last = run();
    times.push(nowUs() - t0);
  }
  times.sort((a, b) => a - b);
  const m = times.length;
  const median = m % 2 ? times[(m - 1) / 2] : (times[m / 2 - 1] + times[m / 2]) / 2;
  return { median, calls: m, last };
}

function parseArgs(argv) {
  const o = { cells: [1, 64, 1024, 16384], inputs: 16, seed: 0x3c6ef372, modes: ['webasm', 'cpu'] };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (v === undefined) throw new Error(`${k} needs a value`);
    if (k === '--cells') o.cells = v.split(',').map(Number);
    else if (k === '--inputs') o.inputs = Number(v);
    else if (k === '--seed') o.seed = Number(v);
    else if (k === '--modes') o.modes = v.split(',');
    else throw new Error(`unknown option ${k}`);
  }
  for (const n of [...o.cells, o.inputs])
    if (!(Number.isInteger(n) && n >= 1 && n <= 1 << 20)) throw new Error('--cells and --inputs take whole numbers 1 .. 2^20');
  if (!(Number.isInteger(o.seed) && o.seed >= 0 && o.seed <= 0xffffffff)) throw new Error('--seed must be a 32-bit whole number');
  for (const m of o.modes) if (!['webasm', 'cpu'].includes(m)) throw new Error(`unknown mode ${m} (webasm, cpu)`);
  return o;
}

function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`bench-gpujs-small: ${e.message}`);
    process.exit(2);
  }
  const found = loadGPU();
  if (!found) {
    console.log('gpujs-small unavailable reason="gpu.js not found: npm install --prefix /tmp/gpujs-zoo gpu.js@2.24.1 --ignore-scripts, or set NODE_PATH"');
    process.exit(3);
  }
  console.log(`gpujs-small version node=${process.version} gpu.js=${found.version}`);
  for (const mode of o.modes) {
    const gpu = new found.lib.GPU({ mode });
    for (const cells of o.cells) {
      const d = makeData(cells, o.inputs, o.seed);
      for (const name of ['layer', 'delta']) {
        const head = `gpujs-small kernel=${name} cells=${cells} mode=${mode}`;
        try {
          const settings = { output: [cells] };
          if (name === 'layer') settings.constants = { inputs: o.inputs };
          const k = gpu.createKernel(SOURCES[name], settings);
          const run = name === 'layer' ? () => k(d.weights, d.x, d.b) : () => k(d.o, d.e);
          const { median, calls, last } = measure(run);
          const inner = k.kernel || k;
          console.log(`${head} median_us=${median.toFixed(2)} calls=${calls} checksum=${checksum(last)}` +
            ` class=${inner.constructor ? inner.constructor.name : 'unknown'} source_fnv1a=${fnv1a(SOURCES[name])}`);
        } catch (e) {
          console.log(`${head} error="${String(e && e.message ? e.message : e).replace(/["\\\n]/g, ' ')}"`);
        }
      }
    }
  }
  process.exit(0);
}

main();
