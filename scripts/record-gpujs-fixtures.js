#!/usr/bin/env node
// record-gpujs-fixtures.js - runs the JavaScript front end's behaviour cases (modelled on GPU.js's
// test/features files) through GPU.js 2.24 in its true-float32 `webasm` mode and writes what it returns
// to tests/fixtures/gpujs-features.txt, which tests/test_js_features.c replays through gpuc.
// Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs/node_modules node scripts/record-gpujs-fixtures.js
'use strict';
const { GPU } = require('gpu.js');
const { arr, arr2, arr3, float, int, bool, jsArg: gpujsArg, flatten, writeFixture } = require('./gpujs-cases');

const A8 = [-3.5, -1, 0, 0.25, 1, 2.5, 7, 100];
const ROUNDING = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.49, 2.5, 3.7];
const f = float;
const i = int;
const b = bool; // GPU.js types a true/false argument "Boolean"

// Each case: a kernel as GPU.js source, its output, constants ({name: [value, 'int'|'float']}),
// arguments, optional helpers (addFunction) and loopMaxIterations. A case GPU.js refuses is run by
// node itself (oracle: 'node'): JavaScript is then the oracle.
const cases = [
  // arithmetic-operators
  { name: 'add', src: 'function (a, b) { return a[this.thread.x] + b; }', output: [8], args: [arr(A8), f(1.25)] },
  { name: 'sub_mul_div', src: 'function (a, b) { return (a[this.thread.x] - b) * 3 / 7; }', output: [8], args: [arr(A8), f(0.5)] },
  { name: 'integer_division', src: 'function () { return this.thread.x / 3 + (this.thread.x * 3) / 3 * 100; }', output: [8] },
  { name: 'modulo_float', src: 'function (a, b) { return a[this.thread.x] % b; }', output: [8], args: [arr([-7.5, -2.5, -1, 0, 1, 2.75, 7.5, 100]), f(-2.5)] },
  { name: 'modulo_int', src: 'function () { return (this.thread.x - 4) % 3 + (this.thread.x % 5) * 10; }', output: [8] },
  { name: 'exponent', src: 'function (a) { return a[this.thread.x] ** 2 + 2 ** this.thread.x + (-2) ** 3; }', output: [8], args: [arr(A8)] },
  { name: 'unary', src: 'function (a, b) { return -a[this.thread.x] + +b - (-this.thread.x); }', output: [8], args: [arr(A8), f(2)] },
  { name: 'numeric_promotion', src: 'function () { const i = this.thread.x; return i * 1.5 + i / 2 + 0.5; }', output: [8] },
  // assignment-operators
  { name: 'increments', src: 'function () {\n  let i = this.thread.x;\n  i++;\n  ++i;\n  i--;\n  let j = i * 2;\n  j += 3;\n  j -= 1;\n  j *= 2;\n  j /= 4;\n  j %= 5;\n  return j;\n}', output: [8] },
  { name: 'assignment_operators', src: 'function (a) {\n  let v = a[this.thread.x];\n  v += 1.5;\n  v -= 0.25;\n  v *= 2;\n  v /= 3;\n  v %= 2;\n  v **= 2;\n  return v;\n}', output: [8], args: [arr(A8)] },
  // bitwise-operators
  { name: 'bitwise_and_or_xor', src: 'function () { return (this.thread.x & 5) + (this.thread.x | 8) * 2 + (this.thread.x ^ 3) * 100; }', output: [8] },
  { name: 'bitwise_shifts', src: 'function () { return (this.thread.x << 3) + (-this.thread.x >> 1) * 100 + (~this.thread.x) * 1000; }', output: [8] },
  { name: 'bitwise_float_operands', src: 'function (a) { return (a[this.thread.x] | 0) + (a[this.thread.x] & 6) * 10; }', output: [8], args: [arr(A8)] },
  { name: 'bitwise_unsigned_shift', src: 'function () { return (this.thread.x - 4) >>> 28; }', output: [8] },
  // math-object
  { name: 'math_rounding', src: 'function (a) {\n  const v = a[this.thread.x];\n  switch (this.thread.y) {\n    case 0: return Math.floor(v);\n    case 1: return Math.ceil(v);\n    case 2: return Math.round(v);\n    case 3: return Math.trunc(v);\n  }\n  return 0;\n}', output: [8, 4], args: [arr(ROUNDING)] },
  { name: 'math_trig', src: 'function (a) {\n  const v = a[this.thread.x];\n  switch (this.thread.y) {\n    case 0: return Math.sin(v);\n    case 1: return Math.cos(v);\n    case 2: return Math.tan(v);\n    case 3: return Math.atan(v);\n    case 4: return Math.asin(v / 4);\n    case 5: return Math.acos(v / 4);\n  }\n  return 0;\n}', output: [8, 6], args: [arr([-3, -1.5, -0.5, 0, 0.25, 1, 2, 3.5])] },
  { name: 'math_exp_log', src: 'function (a) {\n  const v = a[this.thread.x];\n  switch (this.thread.y) {\n    case 0: return Math.exp(v);\n    case 1: return Math.log(Math.abs(v) + 1);\n    case 2: return Math.log2(Math.abs(v) + 1);\n    case 3: return Math.log10(Math.abs(v) + 1);\n    case 4: return Math.sqrt(Math.abs(v));\n    case 5: return Math.cbrt(v);\n    case 6: return Math.expm1(v);\n    case 7: return Math.log1p(Math.abs(v));\n  }\n  return 0;\n}', output: [8, 8], args: [arr([-3, -1.5, -0.5, 0, 0.25, 1, 2, 3.5])] },
  { name: 'math_hyperbolic', src: 'function (a) {\n  const v = a[this.thread.x];\n  switch (this.thread.y) {\n    case 0: return Math.sinh(v);\n    case 1: return Math.cosh(v);\n    case 2: return Math.tanh(v);\n    case 3: return Math.asinh(v);\n    case 4: return Math.acosh(Math.abs(v) + 1);\n    case 5: return Math.atanh(v / 4);\n  }\n  return 0;\n}', output: [8, 6], args: [arr([-3, -1.5, -0.5, 0, 0.25, 1, 2, 3.5])] },
  { name: 'math_misc', src: 'function (a) {\n  const v = a[this.thread.x];\n  switch (this.thread.y) {\n    case 0: return Math.abs(v);\n    case 1: return Math.sign(v);\n    case 2: return Math.max(v, 0.5, -1);\n    case 3: return Math.min(v, 2);\n    case 4: return Math.pow(v, 3);\n    case 5: return Math.atan2(v, 2);\n    case 6: return Math.fround(v);\n    case 7: return Math.imul(v, 3);\n  }\n  return 0;\n}', output: [8, 8], args: [arr([-3, -1.5, -0.5, 0, 0.25, 1, 2, 3.5])] },
  { name: 'math_constants', src: 'function () {\n  switch (this.thread.x) {\n    case 0: return Math.PI;\n    case 1: return Math.E;\n    case 2: return Math.LN2;\n    case 3: return Math.LN10;\n    case 4: return Math.LOG2E;\n    case 5: return Math.LOG10E;\n    case 6: return Math.SQRT2;\n    case 7: return Math.SQRT1_2;\n  }\n  return 0;\n}', output: [8] },
  // if-else, ternary, switches
  { name: 'if_else', src: 'function (a) {\n  const v = a[this.thread.x];\n  if (v > 1) {\n    return 1;\n  } else if (v < -1) {\n    return -1;\n  } else {\n    return v * 2;\n  }\n}', output: [8], args: [arr(A8)] },
  { name: 'ternary', src: 'function (a) {\n  const v = a[this.thread.x];\n  return v > 0 ? (v > 2 ? 2 : 1) : this.thread.x % 2 === 0 ? -1 : -2;\n}', output: [8], args: [arr(A8)] },
  { name: 'switch_fallthrough', src: 'function () {\n  let r = 0;\n  switch (this.thread.x) {\n    case 0:\n    case 1:\n      r = 10;\n      break;\n    case 2:\n      r = 20;\n    case 3:\n      r += 5;\n      break;\n    default:\n      r = -1;\n  }\n  return r;\n}', output: [8] },
  { name: 'switch_default_first', src: 'function (v) {\n  switch (v) {\n    default: return 7;\n    case 1: return 1;\n    case 2: return 2;\n  }\n}', output: [1], args: [i(2)], argTypes: ['Integer'] },
  { name: 'boolean_logic', src: 'function (a) {\n  const v = a[this.thread.x];\n  const big = v > 1;\n  if (big && this.thread.x > 5 || !big && v === 0) return 1;\n  return big ? 2 : 3;\n}', output: [8], args: [arr(A8)] },
  // loops
  { name: 'loop_for_constant', src: 'function (a) {\n  let s = 0;\n  for (let i = 0; i < this.constants.n; i++) {\n    s += a[i] * (this.thread.x + 1);\n  }\n  return s;\n}', output: [4], constants: { n: [8, 'int'] }, args: [arr(A8)] },
  { name: 'loop_nested', src: 'function () {\n  let s = 0;\n  for (let i = 0; i < 3; i++) {\n    for (let j = 0; j < 4; j++) {\n      s += i * j + this.thread.x;\n    }\n  }\n  return s;\n}', output: [8] },
  { name: 'loop_while', src: 'function () {\n  let i = 0;\n  let s = 0;\n  while (i < this.thread.x) {\n    s += i;\n    i++;\n  }\n  return s;\n}', output: [8] },
  { name: 'loop_do_while', src: 'function () {\n  let s = 0;\n  do {\n    s += 2;\n  } while (s < this.thread.x * 3);\n  return s;\n}', output: [8] },
  { name: 'loop_break_continue', src: 'function () {\n  let s = 0;\n  for (let i = 0; i < 10; i++) {\n    if (i % 2 === 0) continue;\n    if (i > this.thread.x) break;\n    s += i;\n  }\n  return s;\n}', output: [8] },
  { name: 'loop_cap_setting', src: 'function (n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) {\n    s++;\n  }\n  return s;\n}', output: [2], args: [f(5000)], loopMaxIterations: 100 },
  { name: 'loop_cap_default', src: 'function (n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) {\n    s += 2;\n  }\n  return s;\n}', output: [2], args: [f(2500)] },
  // nested functions / addFunction
  { name: 'added_functions', src: 'function (a) {\n  return mul(add(a[this.thread.x], 1), 2);\n}', output: [8], args: [arr(A8)], helpers: ['function add(x, y) {\n  return x + y;\n}', 'function mul(x, y) {\n  return x * y;\n}'] },
  { name: 'nested_helper_calls', src: 'function (a) {\n  return outer(a[this.thread.x]);\n}', output: [8], args: [arr(A8)], helpers: ['function inner(x) {\n  return x * x;\n}', 'function outer(x) {\n  return inner(x) + inner(x + 1);\n}'] },
  // return-arrays
  { name: 'return_array2', src: 'function (a) { return [a[this.thread.x], a[this.thread.x] * 2]; }', output: [8], args: [arr(A8)] },
  { name: 'return_array3', src: 'function (a) { return [a[this.thread.x], this.thread.x, 0.5]; }', output: [8], args: [arr(A8)] },
  { name: 'return_array4', src: 'function (a) {\n  const v = [1, 2, 3, a[this.thread.x]];\n  return [v[3], v[2] + v[0], this.thread.x, v[1] * v[3]];\n}', output: [8], args: [arr(A8)] },
  // constants
  { name: 'constants_int_float', src: 'function () { return this.constants.n * this.thread.x + this.constants.f; }', output: [8], constants: { n: [3, 'int'], f: [0.75, 'float'] } },
  // inputs and outputs 1D-3D
  { name: 'input_2d', src: 'function (m) { return m[this.thread.y][this.thread.x] * 2 + this.thread.y; }', output: [3, 2], args: [arr2([[1, 2, 3], [4, 5, 6]])] },
  { name: 'input_3d', src: 'function (c) { return c[this.thread.z][this.thread.y][this.thread.x] + this.thread.z * 100; }', output: [2, 2, 2], args: [arr3([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])] },
  { name: 'output_3d', src: 'function () { return this.thread.x + this.thread.y * 10 + this.thread.z * 100 + this.output.x * 1000; }', output: [3, 2, 2] },
  // limits real kernels hit: a camera passed as 18 numbers, Boolean toggles (GPU.js's "Boolean" argument type)
  { name: 'camera_18_numbers', src: 'function (ex, ey, ez, fx, fy, fz, rx, ry, rz, ux, uy, uz, cx, cy, cz, r, lx, ly) {\n  const u = (this.thread.x - 2.5) * 0.25;\n  const v = (this.thread.y - 1.5) * 0.25;\n  const dx = fx + u * rx + v * ux;\n  const dy = fy + u * ry + v * uy;\n  const dz = fz + u * rz + v * uz;\n  const ox = ex - cx;\n  const oy = ey - cy;\n  const oz = ez - cz;\n  const a = dx * dx + dy * dy + dz * dz;\n  const b = ox * dx + oy * dy + oz * dz;\n  const c = ox * ox + oy * oy + oz * oz - r * r;\n  const disc = b * b - a * c;\n  if (disc < 0) {\n    return -1;\n  }\n  return disc + lx * dx + ly * dy;\n}', output: [6, 4], args: [0, 0, -4, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0.5, 0.25, 2, 2.5, 0.5, -0.25].map(f) },
  { name: 'boolean_toggles_mandelbrot', src: 'function (julia, smooth, cx, cy) {\n  const px = (this.thread.x - 4) * 0.5;\n  const py = (this.thread.y - 2) * 0.5;\n  let zx = julia ? px : 0;\n  let zy = julia ? py : 0;\n  const kx = julia ? cx : px;\n  const ky = julia ? cy : py;\n  let n = 0;\n  for (let i = 0; i < 3; i++) {\n    const x2 = zx * zx;\n    const y2 = zy * zy;\n    if (x2 + y2 > 4) {\n      break;\n    }\n    zy = 2 * zx * zy + ky;\n    zx = x2 - y2 + kx;\n    n++;\n  }\n  if (!smooth) {\n    return n;\n  }\n  return smooth && n > 1 ? n + zx * 0.125 : -n;\n}', output: [8, 5], args: [b(false), b(true), f(-0.75), f(0.125)] },
  { name: 'boolean_toggles_julia', src: 'function (julia, smooth, cx, cy) {\n  const px = (this.thread.x - 4) * 0.5;\n  const py = (this.thread.y - 2) * 0.5;\n  let zx = julia ? px : 0;\n  let zy = julia ? py : 0;\n  const kx = julia ? cx : px;\n  const ky = julia ? cy : py;\n  let n = 0;\n  for (let i = 0; i < 3; i++) {\n    const x2 = zx * zx;\n    const y2 = zy * zy;\n    if (x2 + y2 > 4) {\n      break;\n    }\n    zy = 2 * zx * zy + ky;\n    zx = x2 - y2 + kx;\n    n++;\n  }\n  if (!smooth) {\n    return n;\n  }\n  return smooth && n > 1 ? n + zx * 0.125 : -n;\n}', output: [8, 5], args: [b(true), b(false), f(-0.75), f(0.125)] },
  { name: 'boolean_comparisons_on', src: 'function (a, on, off) {\n  const v = a[this.thread.x];\n  let r = 0;\n  if (on === true) r += 1;\n  if (off !== false) r += 2;\n  if (on == off) r += 4;\n  if (on != !off) r += 8;\n  if (!on || v > 1) r += 16;\n  if (on && v > 0) r += 32;\n  return r + (on ? v : -v);\n}', output: [8], args: [arr(A8), b(true), b(false)] },
  { name: 'boolean_comparisons_off', src: 'function (a, on, off) {\n  const v = a[this.thread.x];\n  let r = 0;\n  if (on === true) r += 1;\n  if (off !== false) r += 2;\n  if (on == off) r += 4;\n  if (on != !off) r += 8;\n  if (!on || v > 1) r += 16;\n  if (on && v > 0) r += 32;\n  return r + (on ? v : -v);\n}', output: [8], args: [arr(A8), b(false), b(true)] },
  { name: 'boolean_and_or_values_on', oracle: 'node', src: 'function (a, flag) {\n  const v = a[this.thread.x];\n  const scaled = (flag && v) * 2;\n  const lifted = flag || v;\n  return scaled + lifted * 10 + (flag && 3) + (!flag || v > 1 ? 100 : 0);\n}', output: [8], args: [arr(A8), b(true)] },
  { name: 'boolean_and_or_values_off', oracle: 'node', src: 'function (a, flag) {\n  const v = a[this.thread.x];\n  const scaled = (flag && v) * 2;\n  const lifted = flag || v;\n  return scaled + lifted * 10 + (flag && 3) + (!flag || v > 1 ? 100 : 0);\n}', output: [8], args: [arr(A8), b(false)] },
  { name: 'boolean_to_helper', src: 'function (a, flag) {\n  return pick(!flag, a[this.thread.x], 10) + pick(flag, 100, 200);\n}', output: [8], args: [arr(A8), b(false)], helpers: ['function pick(flag, x, y) {\n  return flag ? x : y;\n}'] },
];

// The argument as GPU.js wants it: Float32Arrays, nested in rows for 2D/3D.
const jsArg = (a) => gpujsArg(a, { typed: true });

// What JavaScript itself returns: the kernel called once per cell (x fastest), `this` holding thread,
// output and constants as GPU.js's cpu mode gives them, each value stored as a float32.
function runInNode(c, args) {
  const kernel = new Function(`return (${c.src});`)();
  const [w, h = 1, d = 1] = c.output;
  const constants = {};
  for (const [k, [v]] of Object.entries(c.constants || {})) constants[k] = v;
  const out = [];
  for (let z = 0; z < d; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        out.push(Math.fround(+kernel.apply({ thread: { x, y, z }, output: { x: w, y: h, z: d }, constants }, args)));
  return out;
}

const recorded = [];
for (const c of cases) {
  const constants = {};
  for (const [k, [v]] of Object.entries(c.constants || {})) constants[k] = v;
  const args = (c.args || []).map(jsArg);
  let result;
  if (c.oracle === 'node') {
    result = runInNode(c, args);
    console.log(`${c.name} (node): ${result.length} values`);
  } else {
    const gpu = new GPU({ mode: 'webasm' });
    for (const h of c.helpers || []) gpu.addFunction(h);
    const settings = { output: c.output, constants };
    if (c.loopMaxIterations) settings.loopMaxIterations = c.loopMaxIterations;
    if (c.argTypes) settings.argumentTypes = c.argTypes;
    result = flatten(gpu.createKernel(c.src, settings)(...args));
    gpu.destroy();
    console.log(`${c.name}: ${result.length} values`);
  }
  recorded.push({
    name: c.name, oracle: c.oracle, output: c.output, loopMax: c.loopMaxIterations,
    constants: Object.entries(c.constants || {}).map(([k, [v, t]]) => [k, v, t]), args: c.args, helpers: c.helpers,
    source: c.src, expect: result,
  });
}
writeFixture('gpujs-features.txt', ['GPU.js 2.24.1 (mode webasm) outputs for the JavaScript front end\'s behaviour cases.',
  'Written by scripts/record-gpujs-fixtures.js; read by tests/test_js_features.c. Do not edit by hand.'], recorded);
