#!/usr/bin/env node
// minify-fixtures.js - the GPU.js fixture files with every kernel and helper source minified by terser
// (compress passes 2, mangle), for replaying them as a bundler would hand them to GPU.js: the recorded
// answers must not change. Run by hand, not in CI:
//   npm install --prefix /tmp/terser terser
//   mkdir -p /tmp/minified && cp -r tests/fixtures/* /tmp/minified/
//   for f in gpujs-suite gpujs-features gpujs-language; do
//     NODE_PATH=/tmp/terser/node_modules node scripts/minify-fixtures.js tests/fixtures/$f.txt /tmp/minified/$f.txt; done
//   cc -Iinclude -Itests -Iexamples/common -D_POSIX_C_SOURCE=200809L -pthread -std=c11 -O2 \
//     '-DGPUC_FIXTURES_DIR="/tmp/minified"' -o /tmp/minified/tests tests/*.c examples/common/tutorial_data.c \
//     build/libgpuc.a -lcheck_pic -lrt -lm -lsubunit -lEGL -lpng -lpthread -ldl
//   /tmp/minified/tests js_suite js_features js_language
const fs = require('fs');
const { minify_sync } = require('terser');
const [inp, out] = process.argv.slice(2);
const lines = fs.readFileSync(inp, 'utf8').split('\n');
const res = [];
let n = 0, failed = 0;
function mini(src) {
  try {
    const isAnon = /^\s*function\s*\(/.test(src) || /^\s*\(/.test(src) || /=>/.test(src.split('{')[0]);
    const code = isAnon ? 'var K=' + src + ';' : src;
    let r = minify_sync(code, { compress: { passes: 2, unused: false }, mangle: true }).code;
    if (isAnon) r = r.replace(/^var K=/, '').replace(/;$/, '');
    return r;
  } catch (e) { failed++; return src; }
}
for (let i = 0; i < lines.length; i++) {
  const m = /^(source|helper|map (\S+)) (\d+)$/.exec(lines[i]);
  if (m) {
    const count = Number(m[3]);
    const src = lines.slice(i + 1, i + 1 + count).join('\n');
    const r = mini(src);
    n++;
    res.push(`${m[1]} ${r.split('\n').length}`, r);
    i += count;
  } else res.push(lines[i]);
}
fs.writeFileSync(out, res.join('\n'));
console.log(`${n} sources minified, ${failed} left as written (terser failed)`);
