#!/usr/bin/env node
// bench-gpujs-zoo.js - the kernel zoo rows (tests/bench/README.md) run by GPU.js 2.24.1 in node, for
// `make bench`'s zoo columns: the same data (the bench's LCG and seeds), the same kernel text that gpuc
// compiles (its FNV-1a hash is printed so the bench can check), timed with the bench's protocol.
//
//   npm install --prefix /tmp/gpujs-zoo gpu.js@2.24.1 --ignore-scripts
//   node scripts/bench-gpujs-zoo.js --row matmul --n 512 [--rounds 100] [--seed S]
//        [--modes webasm,webasm-threads,cpu] [--out DIR]
//
// gpu.js is looked up through node's usual paths (NODE_PATH) and then in /tmp/gpujs-zoo/node_modules.
// Prints one line per cell, key=value (a value with spaces in double quotes):
//   gpujs-zoo row=matmul mode=webasm n=512 rounds=1 seed=2654435769 median_ms=213.412 runs=5
//             checksum=64.06 kernel=WebAssemblyKernel source_fnv1a=0x1c2b... file=DIR/matmul-webasm.bin
//   gpujs-zoo row=matmul mode=cpu error="..."
// With --out, each cell's last result is written to DIR/ROW-MODE.bin: little-endian float32 values
// (matmul, life, conv5; nbody as x, y, z per body) or RGBA8 pixels with thread.y = 0 first (mandelbrot).
// When gpu.js cannot be loaded it prints `gpujs-zoo unavailable reason="..."` and exits with status 3.
'use strict';
const fs = require('fs');
const path = require('path');

// ---- the kernels, as a GPU.js user writes them (tests/bench/row_zoo_*.c pastes the same text) ----
const SOURCES = {
  matmul: (n) => `function (a, b) {
  let sum = 0;
  for (let i = 0; i < ${n}; i++) {
    sum += a[this.thread.y][i] * b[i][this.thread.x];
  }
  return sum;
}`,
  life: () => `function (board) {
  const w = this.output.x;
  const h = this.output.y;
  const x = this.thread.x;
  const y = this.thread.y;
  let n = 0;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx !== 0 || dy !== 0) {
        n += board[(y + dy + h) % h][(x + dx + w) % w];
      }
    }
  }
  if (n === 3 || (n === 2 && board[y][x] === 1)) {
    return 1;
  }
  return 0;
}`,
  conv5: () => `function (img, w) {
  const x = this.thread.x;
  const y = this.thread.y;
  let sum = 0;
  for (let j = 0; j < 5; j++) {
    for (let i = 0; i < 5; i++) {
      const yy = y + j - 2;
      const xx = x + i - 2;
      if (yy >= 0 && yy < this.output.y && xx >= 0 && xx < this.output.x) {
        sum += img[yy][xx] * w[j][i];
      }
    }
  }
  return sum;
}`,
  mandelbrot: () => `function () {
  const x0 = -2.5 + 3.5 * this.thread.x / this.output.x;
  const y0 = -1 + 2 * this.thread.y / this.output.y;
  let zx = 0;
  let zy = 0;
  let n = 0;
  for (let i = 0; i < 256; i++) {
    if (zx * zx + zy * zy > 4) {
      break;
    }
    const xt = zx * zx - zy * zy + x0;
    zy = 2 * zx * zy + y0;
    zx = xt;
    n++;
  }
  const t = n / 256;
  this.color(t, t * t, Math.sqrt(t));
}`,
  nbody: (n) => `function (bodies) {
  const xi = bodies[this.thread.x][0];
  const yi = bodies[this.thread.x][1];
  const zi = bodies[this.thread.x][2];
  let ax = 0;
  let ay = 0;
  let az = 0;
  for (let j = 0; j < ${n}; j++) {
    const dx = bodies[j][0] - xi;
    const dy = bodies[j][1] - yi;
    const dz = bodies[j][2] - zi;
    const d2 = dx * dx + dy * dy + dz * dz + 0.0001;
    const f = bodies[j][3] / (d2 * Math.sqrt(d2));
    ax += f * dx;
    ay += f * dy;
    az += f * dz;
  }
  return [ax, ay, az];
}`,
};

// Published sizes and seeds (tests/bench/bench_main.c's table holds the same).
const ROWS = {
  matmul: { n: 512, rounds: 1, seed: 0x9e3779b9 },
  life: { n: 512, rounds: 100, seed: 0x85ebca6b },
  conv5: { n: 1024, rounds: 1, seed: 0xc2b2ae3d },
  mandelbrot: { n: 800, rounds: 1, seed: 0 },
  nbody: { n: 4096, rounds: 1, seed: 0x165667b1 },
};

const MIN_TIMED_RUNS = 3;
const MAX_TIMED_RUNS = 50;
const TARGET_MS = 1000;

// ---- data: the bench's generator, s = s * 1664525 + 1013904223 (mod 2^32), value (s >> 8) / 2^24 ----
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) / 16777216;
  };
}

// A 2D array as GPU.js users pass one: an array of Float32Array rows.
function rows(h, w, next) {
  const out = new Array(h);
  for (let y = 0; y < h; y++) {
    const r = new Float32Array(w);
    for (let x = 0; x < w; x++) r[x] = next();
    out[y] = r;
  }
  return out;
}

// What each row runs: its kernel settings, its arguments and how one run is made (a run ends when the
// result is in host memory, as in the C bench).
function makeRow(name, p) {
  const src = SOURCES[name](p.n);
  const next = lcg(p.seed);
  switch (name) {
    case 'matmul': {
      const a = rows(p.n, p.n, next), b = rows(p.n, p.n, next);
      return { src, settings: { output: [p.n, p.n] }, run: (k) => k(a, b) };
    }
    case 'life': {
      const board = rows(p.n, p.n, () => (next() < 0.3 ? 1 : 0));
      return {
        src,
        settings: { output: [p.n, p.n], pipeline: true, immutable: true },
        run: async (k) => {
          let b = await k(board);
          for (let g = 1; g < p.rounds; g++) {
            const nb = await k(b);
            if (b && typeof b.delete === 'function') b.delete();
            b = nb;
          }
          return b && typeof b.toArray === 'function' ? b.toArray() : b;
        },
      };
    }
    case 'conv5': {
      const img = rows(p.n, p.n, next);
      const w = rows(5, 5, () => next() / 12.5);
      return { src, settings: { output: [p.n, p.n] }, run: (k) => k(img, w) };
    }
    case 'mandelbrot': {
      const h = Math.max(1, Math.floor((p.n * 3) / 4));
      return {
        src,
        settings: { output: [p.n, h], graphical: true },
        run: async (k) => {
          await k();
          return k.getPixels(true); // thread.y = 0 first
        },
      };
    }
    case 'nbody': {
      const bodies = rows(p.n, 4, next);
      return { src, settings: { output: [p.n] }, run: (k) => k(bodies) };
    }
  }
  throw new Error(`no row ${name}`);
}

// A canvas for graphical kernels in node, where GPU.js finds none: the cpu backend paints into its own
// pixel array and copies it to the canvas with putImageData, which costs nothing here (a browser's
// canvas would cost more, so this favours GPU.js).
function nodeCanvas() {
  const ctx = {
    createImageData: (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
    putImageData() {},
  };
  return { width: 1, height: 1, getContext: () => ctx };
}

// The result as one flat typed array: float32 values, or RGBA8 bytes for pixels.
function flatten(r) {
  if (r instanceof Uint8ClampedArray || r instanceof Uint8Array) return new Uint8Array(r.buffer, r.byteOffset, r.byteLength);
  if (r instanceof Float32Array) return r;
  const parts = [];
  let count = 0;
  const walk = (v) => {
    if (v instanceof Float32Array || Array.isArray(v) && typeof v[0] === 'number') {
      parts.push(v);
      count += v.length;
    } else {
      for (const e of v) walk(e);
    }
  };
  walk(r);
  const out = new Float32Array(count);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// The bench's checksum: sum v[i] * (1 + i % 17) / count, in double.
function checksum(v) {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * (1 + (i % 17)) / v.length;
  return sum;
}

// 32-bit FNV-1a of the kernel text's UTF-8 bytes (all ASCII here).
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return '0x' + h.toString(16).padStart(8, '0');
}

function nowMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

// Two untimed warm-ups, then at least 3 timed runs, more while runs are short (about a second in all).
async function measure(run) {
  let last = await run();
  last = await run();
  const times = [];
  let wanted = MIN_TIMED_RUNS;
  while (times.length < wanted) {
    const t0 = nowMs();
    last = await run();
    times.push(nowMs() - t0);
    if (times.length === 1 && times[0] > 0)
      wanted = Math.min(MAX_TIMED_RUNS, Math.max(MIN_TIMED_RUNS, Math.ceil(TARGET_MS / times[0])));
  }
  times.sort((x, y) => x - y);
  const m = times.length;
  const median = m % 2 ? times[(m - 1) / 2] : (times[m / 2 - 1] + times[m / 2]) / 2;
  return { median, runs: m, last };
}

function quote(s) {
  return '"' + String(s).replace(/["\\\n]/g, ' ') + '"';
}

// The GPU settings of one mode: webasm (synchronous: one thread, SIMD), webasm-threads (the async
// contract: a worker pool over both cores), cpu (GPU.js's JavaScript backend).
function gpuFor(GPU, mode) {
  const base = mode === 'webasm-threads' ? 'webasm' : mode;
  return { gpu: new GPU({ mode: base, canvas: nodeCanvas() }), async: mode === 'webasm-threads' };
}

async function runCell(GPU, name, mode, p, outDir) {
  const row = makeRow(name, p);
  const head = `gpujs-zoo row=${name} mode=${mode} n=${p.n} rounds=${p.rounds} seed=${p.seed}`;
  let gpu = null;
  try {
    const g = gpuFor(GPU, mode);
    gpu = g.gpu;
    const k = gpu.createKernel(row.src, Object.assign({ asyncMode: g.async }, row.settings));
    const { median, runs, last } = await measure(() => row.run(k));
    const flat = flatten(await last);
    const inner = k.kernel || k;
    const kind = inner.constructor ? inner.constructor.name : 'unknown';
    let line = `${head} median_ms=${median.toFixed(3)} runs=${runs} checksum=${checksum(flat)} kernel=${kind}` +
      ` source_fnv1a=${fnv1a(row.src)}`;
    if (inner.fallbackReason) line += ` fallback=${quote(inner.fallbackReason)}`;
    if (outDir) {
      const file = path.join(outDir, `${name}-${mode}.bin`);
      fs.writeFileSync(file, Buffer.from(flat.buffer, flat.byteOffset, flat.byteLength));
      line += ` file=${file}`;
    }
    console.log(line);
  } catch (e) {
    console.log(`${head} error=${quote(e && e.message ? e.message : e)}`);
  } finally {
    if (gpu && typeof gpu.destroy === 'function') {
      try {
        await gpu.destroy();
      } catch (e) {
        // the cell already reported
      }
    }
  }
}

function parseArgs(argv) {
  const o = { row: 'all', modes: ['webasm', 'webasm-threads', 'cpu'], out: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (v === undefined) throw new Error(`${k} needs a value`);
    if (k === '--row') o.row = v;
    else if (k === '--n') o.n = Number(v);
    else if (k === '--rounds') o.rounds = Number(v);
    else if (k === '--seed') o.seed = Number(v);
    else if (k === '--modes') o.modes = v.split(',');
    else if (k === '--out') o.out = v;
    else throw new Error(`unknown option ${k}`);
  }
  for (const key of ['n', 'rounds', 'seed'])
    if (key in o && !(Number.isInteger(o[key]) && o[key] >= (key === 'seed' ? 0 : 1) && o[key] <= 0xffffffff))
      throw new Error(`--${key} must be a whole number${key === 'seed' ? '' : ' >= 1'}`);
  for (const m of o.modes)
    if (!['webasm', 'webasm-threads', 'cpu'].includes(m)) throw new Error(`unknown mode ${m} (webasm, webasm-threads, cpu)`);
  if (o.row !== 'all' && !(o.row in ROWS)) throw new Error(`unknown row ${o.row} (${Object.keys(ROWS).join(', ')}, all)`);
  return o;
}

// gpu.js and its package.json, through node's paths first, then the documented install.
function loadGPU() {
  for (const where of ['gpu.js', '/tmp/gpujs-zoo/node_modules/gpu.js']) {
    try {
      const lib = require(where);
      let version = 'unknown';
      try {
        version = require(where + '/package.json').version;
      } catch (e) {
        // the version line says unknown
      }
      return { lib, version };
    } catch (e) {
      // try the next place
    }
  }
  return null;
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`bench-gpujs-zoo: ${e.message}`);
    process.exit(2);
  }
  const found = loadGPU();
  if (!found) {
    console.log('gpujs-zoo unavailable reason="gpu.js not found: npm install --prefix /tmp/gpujs-zoo gpu.js@2.24.1 --ignore-scripts, or set NODE_PATH"');
    process.exit(3);
  }
  const { lib, version } = found;
  console.log(`gpujs-zoo version node=${process.version} gpu.js=${version}`);
  const names = o.row === 'all' ? Object.keys(ROWS) : [o.row];
  for (const name of names) {
    const p = {
      n: o.n !== undefined ? o.n : ROWS[name].n,
      rounds: o.rounds !== undefined ? o.rounds : ROWS[name].rounds,
      seed: o.seed !== undefined ? o.seed : ROWS[name].seed,
    };
    for (const mode of o.modes) await runCell(lib.GPU, name, mode, p, o.out);
  }
  process.exit(0); // worker pools would keep node alive
}

// bench-gpujs-small.js shares the data, the checksum, the hash and the loader.
module.exports = { lcg, checksum, fnv1a, loadGPU };
if (require.main === module) main();
