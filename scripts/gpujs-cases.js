// gpujs-cases.js - what the recorders of the GPU.js case fixtures share (record-gpujs-*.js,
// record-js-forms.js): the arguments a case declares, their values as GPU.js takes them, GPU.js's
// results flattened, and the fixture's header and case blocks in the one grammar tests/gpujs_cases.c
// reads (`format gpujs-cases 1`; the grammar is in tests/gpujs_cases.h).
'use strict';
const fs = require('fs');
const path = require('path');

const FORMAT = 'format gpujs-cases 1';

// Arguments. Arrays hold their numbers flat, X fastest; `as` says how GPU.js gets them: nested rows
// (the default), 'input' (input(flat, dims)) or 'flat' (one Float32Array).
const array = (dims, data, as) => ({ kind: 'array', width: 1, dims, data, as });
const arr = (data) => array([data.length], data);
const arr2 = (rows) => array([rows[0].length, rows.length], rows.flat());
const arr3 = (slices) => array([slices[0][0].length, slices[0].length, slices.length], slices.flat(2));
// An array of `width`-number cells (GPU.js's Array1D(n)..Array3D(n)), its data flat too.
const vecarray = (width, dims, data, as) => ({ kind: 'vecarray', width, dims, data, as });
const vecs = (items) => vecarray(items[0].length, [items.length], items.flat());
const vecs2 = (rows) => vecarray(rows[0][0].length, [rows[0].length, rows.length], rows.flat(2));
const vec = (data) => ({ kind: 'vec', data }); // one Array(2..4) argument
const float = (value) => ({ kind: 'float', value });
const int = (value) => ({ kind: 'int', value });
const bool = (value) => ({ kind: 'bool', value }); // GPU.js types a true/false argument "Boolean"

// The argument as GPU.js takes it. typed: numbers in Float32Arrays (rows, cells), as the features,
// language and data fixtures were recorded; else plain arrays, as the suite and forms fixtures were
// (GPU.js's cpu mode computes in doubles on plain arrays: the two are not interchangeable).
function jsArg(a, { typed = false } = {}) {
  if (a.kind === 'float' || a.kind === 'int' || a.kind === 'bool') return a.value;
  if (a.kind === 'vec') return typed ? new Float32Array(a.data) : a.data;
  if (a.as === 'input') return require('gpu.js').input(new Float32Array(a.data), a.dims);
  if (a.as === 'flat') return new Float32Array(a.data);
  const [x, y = 1] = a.dims, w = a.width;
  const seq = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  const numbers = (off, n) => (typed ? new Float32Array(a.data.slice(off, off + n)) : a.data.slice(off, off + n));
  const row = (cell) => (w === 1 ? numbers(cell, x) : seq(x, (k) => numbers((cell + k) * w, w)));
  if (a.dims.length === 1) return row(0);
  if (a.dims.length === 2) return seq(y, (r) => row(r * x));
  return seq(a.dims[2], (s) => seq(y, (r) => row((s * y + r) * x)));
}

// GPU.js's result (numbers, Booleans, nested arrays) as flat numbers.
function flatten(v, out = []) {
  if (typeof v === 'number') out.push(v);
  else if (typeof v === 'boolean') out.push(v ? 1 : 0);
  else for (const e of v) flatten(e, out);
  return out;
}

// A number as the fixture writes it: the float32 it rounds to, strtof's spelling of the specials.
function num(v) {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (Object.is(v, -0)) return '-0';
  return String(Math.fround(v));
}

const values = (list) => `${list.length} ${list.map(num).join(' ')}`;
const text = (key, src) => [`${key} ${src.split('\n').length}`, src];

function argLine(a) {
  const dims = () => `${a.dims.length} ${a.dims.join(' ')} ${a.data.map(num).join(' ')}`;
  if (a.kind === 'array') return `array ${dims()}`;
  if (a.kind === 'vecarray') return `vecarray ${a.width} ${dims()}`;
  if (a.kind === 'vec') return `vec ${values(a.data)}`;
  return `${a.kind} ${a.value}`;
}

// A constant: [name, value] or [name, value, 'int' | 'float']; without a type, a Boolean is bool,
// an array a constarray, a whole number int, else float.
function constantLine([name, v, type]) {
  if (typeof v === 'boolean') return `constant ${name} bool ${v ? 1 : 0}`;
  if (Array.isArray(v)) {
    const dims = Array.isArray(v[0]) ? [v[0].length, v.length] : [v.length];
    return `constarray ${name} ${dims.length} ${dims.join(' ')} ${flatten(v).map(num).join(' ')}`;
  }
  return `constant ${name} ${type || (Number.isInteger(v) ? 'int' : 'float')} ${v}`;
}

// The fixture's header: its comment lines, then the format line.
const header = (comments) => [...comments.map((c) => `# ${c}`), FORMAT];

// One case block, its keys in the grammar's order. c: name, output, source, expect; optional origin,
// mode, oracle, pending, ulps, resizedFrom, loopMax, settings ([[name, value]]), types (text),
// constants (see constantLine), args, helpers, subKernels (text), maps ([[name, source]]),
// expectMaps ([[name, values]]).
function caseLines(c) {
  const lines = [`case ${c.name}`];
  if (c.origin) lines.push(`origin ${c.origin}`);
  if (c.mode) lines.push(`mode ${c.mode}`);
  if (c.oracle) lines.push(`oracle ${c.oracle}`);
  if (c.pending) lines.push(`pending ${c.pending}`);
  if (c.ulps) lines.push(`ulps ${c.ulps}`);
  if (c.resizedFrom) lines.push(`resized_from ${c.resizedFrom.join(' ')}`);
  lines.push(`output ${c.output.join(' ')}`);
  if (c.loopMax) lines.push(`loopmax ${c.loopMax}`);
  for (const [k, v] of c.settings || []) lines.push(`setting ${k} ${v}`);
  if (c.types) lines.push(`types ${c.types}`);
  for (const k of c.constants || []) lines.push(constantLine(k));
  for (const a of c.args || []) lines.push(argLine(a));
  for (const h of c.helpers || []) lines.push(...text('helper', h));
  if (c.subKernels) lines.push(...text('subkernels', c.subKernels));
  for (const [k, src] of c.maps || []) lines.push(...text(`map ${k}`, src));
  lines.push(...text('source', c.source));
  lines.push(`expect ${values(c.expect)}`);
  for (const [k, v] of c.expectMaps || []) lines.push(`expectmap ${k} ${values(v)}`);
  lines.push('end');
  return lines;
}

// Writes tests/fixtures/NAME: the header, then the case blocks.
function writeFixture(name, comments, cases) {
  const file = path.join(__dirname, '..', 'tests', 'fixtures', name);
  fs.writeFileSync(file, [...header(comments), ...cases.flatMap(caseLines)].join('\n') + '\n');
  return file;
}

module.exports = { FORMAT, array, arr, arr2, arr3, vecarray, vecs, vecs2, vec, float, int, bool, jsArg, flatten, num,
  header, caseLines, writeFixture };
