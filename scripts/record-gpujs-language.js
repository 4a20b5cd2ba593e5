#!/usr/bin/env node
// record-gpujs-language.js - runs the JavaScript language cases of tests/test_js_language.c (kernel
// maps, arrays passed to helpers, matrices built in a kernel, var scoping, destructuring, function
// declarations, names GLSL reserves) through GPU.js 2.24 and writes what it returns to
// tests/fixtures/gpujs-language.txt. Each case runs in GPU.js's true-float32 `webasm` mode where that
// backend supports it, else in its `cpu` mode (kernel maps and array arguments to helpers are not
// supported by webasm); the fixture says which. Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs/node_modules node scripts/record-gpujs-language.js
'use strict';
const { GPU } = require('gpu.js');
const { arr, arr2, jsArg, flatten, writeFixture } = require('./gpujs-cases');

const A5 = [1, 2, 3, 4, 5];

const ADD_DIVIDE = 'function add(a1, a2) {\n  return a1 + a2;\n}\nfunction divide(d1, d2) {\n  return d1 / d2;\n}';
const ADD_DIVIDE_KERNEL = 'function (k1, k2, k3) {\n  return divide(add(k1[this.thread.x], k2[this.thread.x]), k3[this.thread.x]);\n}';

// Each case: helpers (JavaScript placed before the kernel in gpuc; defined in scope for GPU.js),
// the kernel source, its output, constants, arguments and, for kernel maps, createKernelMap's first
// argument as text.
const cases = [
  // kernel maps (GPU.js test/features/create-kernel-map.js)
  { name: 'map_object', helpers: ADD_DIVIDE, map: '{ addResult: add, divideResult: divide }', src: ADD_DIVIDE_KERNEL, output: [5], args: [arr(A5), arr(A5), arr([0.5, 1, 2, 4, -8])] },
  { name: 'map_array', helpers: ADD_DIVIDE, map: '[add, divide]', src: ADD_DIVIDE_KERNEL, output: [5], args: [arr(A5), arr([5, 4, 3, 2, 1]), arr([2, 2, 2, 2, 2])] },
  { name: 'map_inline_functions', map: '{ sum: function (a, b) { return a + b; }, twice: function double(v) { return v * 2; } }', src: 'function (a) {\n  let s = sum(a[this.thread.x], 1);\n  s = sum(s, 10);\n  return double(s) + 0.5;\n}', output: [5], args: [arr(A5)] },
  { name: 'map_sub_kernel_reads_arrays', map: '{ addResult: function add(a, b) { return a[this.thread.x] + b[this.thread.x]; } }', src: 'function (a, b) {\n  return add(a, b) * 3;\n}', output: [5], args: [arr(A5), arr([10, 20, 30, 40, 50])] },
  { name: 'map_2d', map: '{ row: function rowOf(m) { return m[this.thread.y][0]; } }', src: 'function (m) {\n  return rowOf(m) + m[this.thread.y][this.thread.x] * 100;\n}', output: [3, 2], args: [arr2([[1, 2, 3], [4, 5, 6]])] },
  { name: 'map_vector_sub_kernel', map: '{ mapFunc: function mapFunc(mapFuncVal) { return mapFuncVal; } }', src: 'function main() {\n  const mapFuncVal = [1, 2, this.thread.x];\n  mapFunc(mapFuncVal);\n  const returnValue = [4, 5, 6];\n  return returnValue;\n}', output: [2], returnType: 'Array(3)' },
  { name: 'map_3d', helpers: 'function saveTarget(value) {\n  return value;\n}', map: '{ target: saveTarget }', src: 'function (value) {\n  return saveTarget(value[0] + this.thread.z * 100 + this.thread.y * 10 + this.thread.x);\n}', output: [3, 3, 3], args: [arr([0.5])] },
  // arrays passed to helpers
  { name: 'helper_array_arguments', helpers: 'function addArr(a, b, i) {\n  return a[i] + b[i];\n}', src: 'function (x, y) {\n  return addArr(x, y, this.thread.x) + addArr(y, y, 0) * 100;\n}', output: [5], args: [arr(A5), arr([0.5, 1.5, 2.5, 3.5, 4.5])] },
  { name: 'helper_array_2d', helpers: 'function at(m, y, x) {\n  return m[y][x];\n}', src: 'function (m) {\n  return at(m, this.thread.y, this.thread.x) * 2 + at(m, 1, 2);\n}', output: [3, 2], args: [arr2([[1, 2, 3], [4, 5, 6]])] },
  { name: 'helper_array_passed_on', helpers: 'function first(v) {\n  return v[0];\n}\nfunction sumFirst(a, b) {\n  return first(a) + first(b) + a[this.thread.x];\n}', src: 'function (p, q) {\n  return sumFirst(p, q) + sumFirst(q, q);\n}', output: [5], args: [arr(A5), arr([7, 8, 9, 10, 11])] },
  // arrays of arrays built in a kernel (GPU.js test/features/internally-defined-matrices.js)
  { name: 'matrix2_from_helper', helpers: 'function getMatrix() {\n  const matrix = [\n    [1, 2],\n    [3, 4]\n  ];\n  return matrix;\n}', src: 'function () {\n  return getMatrix()[this.thread.y][this.thread.x];\n}', output: [2, 2] },
  { name: 'matrix3_from_helper', helpers: 'function getMatrix() {\n  return [[1, 2, 3], [4, 5, 6], [7, 8, 9]];\n}', src: 'function () {\n  return getMatrix()[this.thread.y][this.thread.x];\n}', output: [3, 3] },
  { name: 'matrix4_local', src: 'function (a) {\n  const m = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, a[0]]];\n  const row = m[this.thread.y];\n  return row[this.thread.x] * 10 + m[3][3];\n}', output: [4, 4], args: [arr([0.5])] },
  // smaller language items
  { name: 'var_after_loop', src: 'function (a) {\n  for (var i = 0; i < this.thread.x; i++) {\n    var last = a[i];\n  }\n  return i * 100 + last;\n}', output: [5], args: [arr(A5)] },
  { name: 'var_redeclared', src: 'function () {\n  var s = 1;\n  for (var i = 0; i < 3; i++) {\n    var s = s + i;\n  }\n  for (var i = 0; i < 2; i++) {\n    s = s * 2;\n  }\n  return s + i;\n}', output: [1] },
  { name: 'destructure_vectors', src: 'function (a) {\n  const v = [a[this.thread.x], 2, 3];\n  const [x, y, z] = v;\n  const w = [x * 2, z + y];\n  let [p, q] = w;\n  return x + z * 10 + p * 100 + q * 1000;\n}', output: [5], args: [arr(A5)] },
  { name: 'destructure_this', src: 'function () {\n  const { thread: { x, y } } = this;\n  const { x: tx } = this.thread;\n  return x + y * 10 + tx * 100;\n}', output: [3, 2] },
  { name: 'names_glsl_reserves', constants: { float: [1.5, 'float'], int: [2, 'int'] }, src: 'function (a) {\n  let input = a[this.thread.x];\n  let fmod = input % 3;\n  let sample = this.constants.float * this.constants.int;\n  const texture = this.constants.int + 4;\n  let float = 0.25;\n  return fmod + sample * 10 + texture * 100 + input % 2 + float;\n}', output: [5], args: [arr(A5)] },
];

// Runs a case in one mode: { result, maps: [[name, values]...] }, or throws.
function run(c, mode) {
  const gpu = new GPU({ mode });
  const constants = {};
  for (const [k, [v]] of Object.entries(c.constants || {})) constants[k] = v;
  const settings = { output: c.output, constants };
  if (c.returnType) settings.returnType = c.returnType;
  const scope = new Function(`${c.helpers || ''}\nreturn { map: (${c.map || 'null'}), helpers: [${(c.helpers || '').match(/function (\w+)/g)?.map((m) => m.slice(9)).join(', ') || ''}] };`)();
  try {
    for (const h of scope.helpers) if (!c.map || !c.map.includes(h.name)) gpu.addFunction(h);
    const kernel = c.map ? gpu.createKernelMap(scope.map, c.src, settings) : gpu.createKernel(c.src, settings);
    const out = kernel(...(c.args || []).map((a) => jsArg(a, { typed: true })));
    const result = flatten(c.map ? out.result : out);
    const maps = c.map ? Object.keys(out).filter((k) => k !== 'result').map((k) => [k, flatten(out[k])]) : [];
    return { result, maps };
  } finally {
    gpu.destroy();
  }
}

const recorded = [];
for (const c of cases) {
  let mode = 'webasm';
  let got;
  try {
    if (c.map) throw new Error('kernel maps fall back to cpu in webasm');
    got = run(c, mode);
  } catch (e) {
    mode = 'cpu';
    got = run(c, mode);
  }
  recorded.push({
    name: c.name, mode, output: c.output, constants: Object.entries(c.constants || {}).map(([k, [v, t]]) => [k, v, t]),
    args: c.args, subKernels: c.map, source: (c.helpers ? c.helpers + '\n' : '') + c.src, expect: got.result,
    expectMaps: got.maps,
  });
  console.log(`${c.name} (${mode}): ${got.result.length} values${got.maps.length ? `, ${got.maps.length} map outputs` : ''}`);
}
writeFixture('gpujs-language.txt', ['GPU.js 2.24.1 outputs for the JavaScript language cases (webasm mode, cpu where webasm cannot).',
  'Written by scripts/record-gpujs-language.js; read by tests/test_js_language.c. Do not edit by hand.'], recorded);
