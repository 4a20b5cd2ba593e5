#!/usr/bin/env node
// record-js-forms.js - the cases of tests/test_js_forms.c (JavaScript as minifiers and bundlers write it,
// functions called where they are defined, `.length` of arrays, `var` declared again holding another
// type) with their answers, written to tests/fixtures/js-forms.txt. Each case runs through GPU.js 2.24.1
// (webasm mode, else cpu); where GPU.js refuses it, plain JavaScript in node is the oracle (the kernel
// called once per cell with `this` holding thread, output and constants), and the fixture says which.
// Where both run, they must agree. Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs/node_modules node scripts/record-js-forms.js
'use strict';
const { GPU } = require('gpu.js');
const { arr, arr2, float, jsArg, flatten, writeFixture } = require('./gpujs-cases');

const cases = [
  // kernels of our own, then the same kernels as terser 5 minifies them (compress passes 2, mangle)
  { name: 'sum_above', src: 'function sumAbove(a, n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) {\n    if (a[i] > 2) { s += a[i]; } else { s -= 1; }\n  }\n  return s * this.thread.x;\n}', output: [4], args: [arr([1, 5, 3, 0, 2, 4]), float(6)] },
  { name: 'sum_above_minified', src: 'function sumAbove(t,e){let r=0;for(let n=0;n<e;n++)t[n]>2?r+=t[n]:r-=1;return r*this.thread.x}', output: [4], args: [arr([1, 5, 3, 0, 2, 4]), float(6)] },
  { name: 'find_index', src: 'function findIndex(a) {\n  let found = false;\n  let at = 0;\n  for (let i = 0; i < 4; i++) {\n    if (a[i] === this.thread.x) { found = true; at = i; }\n  }\n  if (found) { return at; }\n  return -1;\n}', output: [5], args: [arr([3, 1, 0, 2])] },
  { name: 'find_index_minified', src: 'function findIndex(t){let e=!1,n=0;for(let r=0;r<4;r++)t[r]===this.thread.x&&(e=!0,n=r);return e?n:-1}', output: [5], args: [arr([3, 1, 0, 2])] },
  { name: 'escape', src: 'function escape(n) {\n  var p = 0, u = 1, h = 0;\n  while (p * p + u < 50 + this.thread.x && h < n) { p = p + u; u = u * 2; h++; }\n  return h * 100 + p;\n}', output: [4], args: [float(6)] },
  { name: 'escape_minified', src: 'function escape(r){for(var e=0,t=1,a=0;e*e+t<50+this.thread.x&&a<r;)e+=t,t*=2,a++;return 100*a+e}', output: [4], args: [float(6)] },
  { name: 'clamp_step', src: 'function clampStep(a) {\n  let x = a[this.thread.x];\n  let y = 0;\n  if (x > 3) { y = 1; }\n  if (x < 1) { y = -1; }\n  let done = false;\n  for (let k = 0; k < 3; k++) {\n    if (!done) { y = y * 2 + k; }\n    if (y > 10) { done = true; }\n  }\n  return y;\n}', output: [4], args: [arr([0, 2, 4, 1])] },
  { name: 'clamp_step_minified', src: 'function clampStep(t){let e=t[this.thread.x],l=0;e>3&&(l=1),e<1&&(l=-1);let r=!1;for(let t=0;t<3;t++)r||(l=2*l+t),l>10&&(r=!0);return l}', output: [4], args: [arr([0, 2, 4, 1])] },
  // minified forms written by hand
  { name: 'comma_for_header', src: 'function(n){var s,i;for(s=0,i=0;i<n;s+=i,i++);return s+this.thread.x}', output: [3], args: [float(5)] },
  { name: 'not_zero_not_one', src: 'function(){var a=!0,b=!1;return(a?10:0)+(b?1:0)+(!1===b?100:0)+this.thread.x}', output: [2] },
  { name: 'or_statement', src: 'function(a){var s=0;a[this.thread.x]>1||(s=5),a[this.thread.x]>2&&(s+=7);return s}', output: [4], args: [arr([0, 2, 3, 1])] },
  // terser's output of GPU.js's own test kernels (its suite's issue 116, internally-defined-matrices, if-else):
  // a helper given kernel arrays whose parameters share the arrays' names, `void 0`, `?.5`
  { name: 'minified_helper_names_like_arrays', helpers: ['function add(n,d,r){return n[r]+d[r]}'], scope: { add: (n, d, r) => n[r] + d[r] }, src: 'function(r,t){return add(r,t,this.thread.x)}', output: [5], args: [arr([1, 2, 3, 4, 5]), arr([1, 2, 3, 4, 5])] },
  { name: 'minified_void_zero', src: 'function(t){const n=void 0;let a=void 0,b=2;return t[this.thread.x]+b}', output: [3], args: [arr([1, 2, 3])] },
  { name: 'minified_question_point_five', src: 'function(t){const n=t[this.thread.x];return n>0?0:n<1?.5:1}', output: [3], args: [arr([-1, 0, 2])] },
  // Babel's call of an imported function (GPU.js test/issues/212-funky-function-support.js)
  { name: 'issue_212_comma_callee', helpers: ['function add(value1, value2) {\n  return value1 + value2;\n}'], scope: { _add: { add: (a, b) => a + b } }, src: 'function(v1, v2) {\n  return (0, _add.add)(v1[this.thread.y][this.thread.x], v2[this.thread.y][this.thread.x]);\n}', output: [2, 2], args: [arr2([[0, 1], [1, 2]]), arr2([[0, 1], [1, 2]])] },
  // functions called where they are defined
  { name: 'iife', src: 'function(a){return(function(v){return v*v+1})(a[this.thread.x])+(x=>x*2)(this.thread.x)}', output: [3], args: [arr([2, 3, 4])] },
  { name: 'iife_no_arguments', src: 'function() {\n  const k = (function () { return 3; })();\n  return k * this.thread.x;\n}', output: [3] },
  // .length: of an array argument (JavaScript's: a 2D array's is its rows, a row's its width), of a local array
  { name: 'length_1d', src: 'function(a) {\n  let s = 0;\n  for (let i = 0; i < a.length; i++) { s += a[i]; }\n  return s + a.length * 100;\n}', output: [1], args: [arr([1, 2, 3, 4, 5])] },
  { name: 'length_matmul', src: 'function(a, b) {\n  let sum = 0;\n  for (let i = 0; i < b.length; i++) {\n    sum += a[this.thread.y][i] * b[i][this.thread.x];\n  }\n  return sum + a.length * 1000 + a[0].length * 100;\n}', output: [2, 3], args: [arr2([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]), arr2([[1, 0], [0, 1], [2, 1], [1, 2]])] },
  { name: 'length_in_helper', helpers: ['function rows(m) {\n  return m.length * 10 + m[0].length;\n}'], scope: { rows: (m) => m.length * 10 + m[0].length }, src: 'function(a) {\n  return rows(a) + a[this.thread.y][this.thread.x] * 100;\n}', output: [3, 2], args: [arr2([[1, 2, 3], [4, 5, 6]])] },
  { name: 'length_local', src: 'function() {\n  const v = [1, 2, 3];\n  const m = [[1, 2], [3, 4]];\n  return v.length * 10 + m.length + m[1].length * 100 + this.thread.x;\n}', output: [2] },
  // `var` declared again holding another type: a new variable from there on (gpu.js's fluid example)
  { name: 'var_retyped_in_loops', src: 'function(n) {\n  var s = 0;\n  for (var i = 0; i < n; i++) {\n    var dret = [i, i + 1];\n    s += dret[0] * dret[1];\n  }\n  for (var i = 0; i < n; i++) {\n    var dret = [i, 1, 2];\n    s += dret[0] + dret[2];\n  }\n  return s + this.thread.x;\n}', output: [2], args: [float(4)] },
  { name: 'var_retyped_straight', src: 'function(n) {\n  var x = n * 2;\n  var y = x + 1;\n  var x = [y, n];\n  var z = x[0] + x[1];\n  var x = z * 3;\n  return x + this.thread.x;\n}', output: [2], args: [float(3)] },
  { name: 'var_retyped_both_branches', src: 'function(n) {\n  var x = 1;\n  if (n > this.thread.x) { var x = [2, 3]; } else { var x = [4, 5]; }\n  return x[0] * 10 + x[1];\n}', output: [3], args: [float(1)] },
  { name: 'var_retyped_in_branch_then_again', src: 'function(n) {\n  var x = 1;\n  if (n > this.thread.x) { var x = [2, 3]; x = [x[1], x[0]]; }\n  var x = 7;\n  return x + this.thread.x;\n}', output: [3], args: [float(1)] },
  { name: 'var_retyped_in_block', src: 'function(n) {\n  var x = n;\n  {\n    var x = [n, 2];\n  }\n  return x[0] * 10 + x[1] + this.thread.x;\n}', output: [2], args: [float(3)] },
  { name: 'var_retyped_back_in_branch', src: 'function(n) {\n  var x = [1, 2];\n  if (n > this.thread.x) {\n    var x = n * 5;\n    var x = [x, 3];\n  }\n  return x[0] * 10 + x[1];\n}', output: [3], args: [float(1)] },
];

function runGpujs(c) {
  for (const mode of ['webasm', 'cpu']) {
    const gpu = new GPU({ mode });
    try {
      for (const h of c.helpers || []) gpu.addFunction(h);
      const k = gpu.createKernel(c.src, { output: c.output });
      return { mode, result: flatten(k(...(c.args || []).map((a) => jsArg(a)))) };
    } catch (e) {
      if (mode === 'cpu') return { error: e.message.split('\n')[0] };
    } finally {
      gpu.destroy();
    }
  }
}

function runNode(c) {
  const names = Object.keys(c.scope || {});
  const fn = new Function(...names, 'return (' + c.src + ');')(...names.map((n) => c.scope[n]));
  const [w, h] = [c.output[0], c.output[1] || 1];
  const out = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const self = { thread: { x, y, z: 0 }, output: { x: w, y: h, z: 1 }, constants: {} };
      out.push(Number(fn.apply(self, (c.args || []).map((a) => jsArg(a)))));
    }
  return out;
}

const recorded = [];
for (const c of cases) {
  const js = runNode(c);
  const g = runGpujs(c);
  let oracle = 'node', result = js;
  if (!g.error) {
    oracle = 'gpujs-' + g.mode;
    result = g.result;
    if (result.length !== js.length || result.some((v, i) => Math.fround(v) !== Math.fround(js[i])))
      throw new Error(`${c.name}: GPU.js gives ${result}, JavaScript ${js}`);
  } else {
    console.log(`${c.name}: GPU.js refuses it (${g.error}); node is the oracle`);
  }
  recorded.push({ name: c.name, oracle, output: c.output, args: c.args, helpers: c.helpers, source: c.src, expect: result });
}
writeFixture('js-forms.txt', ['JavaScript forms from the wild (minified code, functions called where they are defined, .length,',
  '`var` declared again with another type), with GPU.js 2.24.1\'s answer where it runs them, else node\'s.',
  'Written by scripts/record-js-forms.js; read by tests/test_js_forms.c. Do not edit by hand.'], recorded);
console.log(`${cases.length} cases written`);
