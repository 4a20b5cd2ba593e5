#!/usr/bin/env node
// record-math-edges.js - every Math function the JavaScript front end supports, at its edges (±0,
// ±Infinity, NaN, float32 denormals, huge and trigonometric arguments), as node computes it in double
// precision (then rounded to float32 with Math.fround) and as GPU.js 2.24.1 returns it in its
// true-float32 `webasm` mode. Writes tests/fixtures/math-edges.txt, replayed by tests/test_js_math.c.
// Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs-exact gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs-exact/node_modules node scripts/record-math-edges.js
'use strict';
const fs = require('fs');
const path = require('path');
const { GPU } = require('gpu.js');
const { num } = require('./gpujs-cases'); // the fixtures' one number format

const f32 = Math.fround;
const DENORM = f32(1e-40);
const MAXF = f32(3.4028234663852886e38);
// Unary inputs: specials, denormals, the smallest normal, halves (rounding), values where functions
// overflow or underflow (exp, cosh), trigonometric arguments up to the float32 maximum.
const X = [0, -0, Infinity, -Infinity, NaN, DENORM, -DENORM, f32(1.1754943508222875e-38), f32(1e-30), f32(1e-7),
  0.5, -0.5, 0.75, -0.75, 1, -1, 1.5, 2.5, -2.5, f32(0.49999997), f32(Math.PI), f32(-Math.PI / 2), 10, 100, -100,
  1e4, -1e4, 1e6, 88.5, 89, -87, -104, f32(1e30), f32(-1e30), MAXF, -MAXF].map(f32);
// Binary inputs: every pair of these.
const Y = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, -2, 0.5, 2.5, -2.5, DENORM, f32(1e30), f32(-1e30)].map(f32);

const UNARY = ['abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'cbrt', 'ceil', 'clz32', 'cos', 'cosh', 'exp',
  'expm1', 'floor', 'fround', 'log', 'log10', 'log1p', 'log2', 'round', 'sign', 'sin', 'sinh', 'sqrt', 'tan',
  'tanh', 'trunc'];
const BINARY = ['atan2', 'imul', 'max', 'min', 'pow'];

const gpu = new GPU({ mode: 'webasm' });
const lines = ['# Math functions at their edges: inputs, node\'s double answer rounded to float32 (js), and GPU.js',
  '# 2.24.1 webasm (gpujs). Written by scripts/record-math-edges.js; read by tests/test_js_math.c.'];
function record(name, a, b) {
  const src = b ? `function (a, b) { return Math.${name}(a[this.thread.x], b[this.thread.x]); }`
    : `function (a) { return Math.${name}(a[this.thread.x]); }`;
  const kernel = gpu.createKernel(src, { output: [a.length] });
  const got = b ? kernel(new Float32Array(a), new Float32Array(b)) : kernel(new Float32Array(a));
  const js = a.map((x, i) => f32(b ? Math[name](x, b[i]) : Math[name](x)));
  lines.push(`function ${name} ${b ? 2 : 1} ${a.length}`);
  lines.push('a ' + a.map(num).join(' '));
  if (b) lines.push('b ' + b.map(num).join(' '));
  lines.push('js ' + js.map(num).join(' '));
  lines.push('gpujs ' + Array.from(got).map(num).join(' '));
  const differ = js.filter((v, i) => num(v) !== num(got[i])).length;
  if (differ) console.log(`${name}: GPU.js differs from JavaScript in ${differ} of ${a.length}`);
}
for (const name of UNARY) record(name, X);
for (const name of BINARY) {
  const a = [], b = [];
  for (const x of Y) for (const y of Y) { a.push(x); b.push(y); }
  record(name, a, b);
}
gpu.destroy();
const out = path.join(__dirname, '..', 'tests', 'fixtures', 'math-edges.txt');
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${UNARY.length + BINARY.length} functions to ${out}`);
