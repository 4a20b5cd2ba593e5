#!/usr/bin/env node
// record-gpujs-data-fixtures.js - runs kernels about how GPU.js reads array arguments (rows running on
// into the next row, fewer indices than the rank, the rank-blind "Array" type, input(), Array2D(n) and
// Array3D(n) arguments, pixel channels) through GPU.js 2.24.1 (mode webasm; GPU.js itself falls back to
// its cpu mode for vector arrays) and writes what it returns to tests/fixtures/gpujs-data.txt, which
// tests/test_js_data_fixtures.c replays through gpuc. Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs-data gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs-data/node_modules node scripts/record-gpujs-data-fixtures.js
'use strict';
const { GPU } = require('gpu.js');
const { array, vecarray, float, int, jsArg, flatten, writeFixture } = require('./gpujs-cases');

const seq = (n, f) => Array.from({ length: n }, (_, i) => f(i));
// An argument: `components` numbers per cell (1: a number), dims [x, y, z] (x fastest), flat values;
// as: nested (GPU.js's arrays of rows, the default), 'input' (input(flat, dims)), or 'flat' (a Float32Array).
const arr = (dims, components, data, as) =>
  (components === 1 ? array(dims, data, as) : vecarray(components, dims, data, as));
const f = float;
const i = int;

// Reads outside the whole array are left out: GPU.js's webasm mode reads whatever memory lies there
// (gpuc reads 0), and its cpu mode does not run past a row of nested arrays (its GL modes and webasm do).
const cases = [
  { name: 'row_runs_on_2d', src: 'function (a, s) { return a[this.thread.y][this.thread.x + s]; }', output: [3, 2],
    args: [arr([3, 2], 1, [1, 2, 3, 4, 5, 6]), i(2)], argTypes: ['Array', 'Integer'] },
  { name: 'row_runs_on_3d', src: 'function (c) { return c[this.thread.z][this.thread.y][this.thread.x + 2]; }',
    output: [1, 2, 2], args: [arr([2, 2, 3], 1, seq(12, (k) => k * 1.5 + 1))] },
  { name: 'fewer_indices_input', src: 'function (a) { return a[this.thread.x]; }', output: [6],
    args: [arr([3, 2], 1, [1, 2, 3, 4, 5, 6], 'input')] },
  { name: 'fewer_indices_2d_array', src: 'function (a) { return a[this.thread.x] * 2; }', output: [6],
    args: [arr([3, 2], 1, [1, 2, 3, 4, 5, 6])] },
  { name: 'array_type_takes_2d', src: 'function (a, m) { return a[this.thread.y][this.thread.x] * m; }', output: [3, 2],
    args: [arr([3, 2], 1, [1, 2, 3, 4, 5, 6]), f(2.5)], argTypes: ['Array', 'Number'] },
  { name: 'array2d_2_components', src: 'function (v) {\n  const c = v[this.thread.y][this.thread.x];\n  return c[0] * 10 + c[1] + v[this.thread.y][this.thread.x][1] * 100;\n}',
    output: [3, 2], args: [arr([3, 2], 2, seq(12, (k) => k + 1))], argTypes: ['Array2D(2)'] },
  { name: 'array2d_3_component', src: 'function (v) { return v[this.thread.y][this.thread.x][2] - v[this.thread.y][this.thread.x][0]; }', output: [3, 2],
    args: [arr([3, 2], 3, seq(18, (k) => (k * k) % 11 - 3))], argTypes: ['Array2D(3)'] },
  { name: 'array3d_4_cells', src: 'function (v) {\n  const p = v[this.thread.z][this.thread.y][this.thread.x];\n  return p[0] + p[1] * 10 + p[2] * 100 + p[3] * 1000;\n}',
    output: [2, 1, 2], args: [arr([2, 1, 2], 4, seq(16, (k) => k % 7 - 2))], argTypes: ['Array3D(4)'] },
];

const recorded = [];
for (const c of cases) {
  const gpu = new GPU({ mode: 'webasm' });
  const settings = { output: c.output };
  if (c.argTypes) settings.argumentTypes = c.argTypes;
  const kernel = gpu.createKernel(c.src, settings);
  const result = flatten(kernel(...c.args.map((a) => jsArg(a, { typed: true }))));
  gpu.destroy();
  recorded.push({ name: c.name, output: c.output, types: c.argTypes && c.argTypes.join(', '), args: c.args, source: c.src,
    expect: result });
  console.log(`${c.name}: ${result.join(' ')}`);
}
writeFixture('gpujs-data.txt', ['GPU.js 2.24.1 (mode webasm, its cpu fallback for vector arrays) outputs for how kernels read arrays.',
  'Written by scripts/record-gpujs-data-fixtures.js; read by tests/test_js_data_fixtures.c. Do not edit by hand.',
  'Arrays of numbers are `array RANK X [Y [Z]] VALUES`, of vectors `vecarray COMPONENTS RANK X [Y [Z]] VALUES`',
  '(COMPONENTS numbers per cell), X fastest.'],
recorded);
