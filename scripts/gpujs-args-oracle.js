#!/usr/bin/env node
// gpujs-args-oracle.js - prints what GPU.js 2.24.1 returns for the kernels whose outputs
// tests/test_vec_args.c, tests/test_array_constants.c and tests/test_dynamic_output.c assert (an
// Array(4) argument, Boolean and 1D/2D array constants, dynamicOutput with setOutput). Run by hand:
//   npm install --prefix /tmp/gpujs gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs/node_modules node scripts/gpujs-args-oracle.js
// GPU.js runs the Array(4) kernel on its CPU backend (its webasm backend does not take Array(4)).
'use strict';
const { GPU } = require('gpu.js');

const gpu = new GPU({ mode: 'webasm' });
const rows = (out) => JSON.stringify(Array.from(out, (r) => (r.length !== undefined ? Array.from(r) : r)));

// test_dynamic_output.c: row sums over this.output.x, before and after setOutput([5, 4]).
const rowSum = gpu.createKernel(function (a) {
  let s = 0;
  for (let i = 0; i < this.output.x; i++) s += a[this.thread.y][i];
  return s * 10 + this.output.y + this.thread.x;
}, { dynamicOutput: true, dynamicArguments: true, output: [3, 2] });
const ramp = (w, h) => Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => y * w + x + 1));
console.log('dynamic output 3x2:', rows(rowSum(ramp(3, 2))));
rowSum.setOutput([5, 4]);
console.log('dynamic output 5x4:', rows(rowSum(ramp(5, 4))));

// test_vec_args.c: an Array(4) argument.
const vec = gpu.createKernel(function (a, v) {
  return a[this.thread.x] * v[0] + v[1] * v[2] - v[3];
}, { output: [3], argumentTypes: { a: 'Array', v: 'Array(4)' } });
console.log('Array(4) argument:', rows(vec([1, 2, 3], [2, 3, 0.5, 1])));

// test_array_constants.c: a 1D and a 2D array constant and a Boolean.
const consts = gpu.createKernel(function () {
  return this.constants.w[this.thread.x] + (this.constants.flag ? 100 : 0) + this.constants.m[1][this.thread.x];
}, { output: [3], constants: { w: [1.5, 2.5, 3.5], flag: true, m: [[1, 2, 3], [4, 5, 6]] } });
console.log('array and Boolean constants:', rows(consts()));
