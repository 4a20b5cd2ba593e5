#!/usr/bin/env node
// record-gpujs-suite.js - GPU.js's own test suite (test/features and test/issues of gpujs/gpu.js),
// re-expressed as cases: each compute-relevant test's kernel source, output, constants and arguments,
// run through GPU.js 2.24.1 in node (true-float32 `webasm` mode; `cpu` where webasm cannot) and
// written with what GPU.js returned to tests/fixtures/gpujs-suite.txt, which tests/test_js_suite.c
// replays through gpuc on both backends. A case GPU.js itself fails (throws, or returns other than
// its test asserts) is left out. A case needing a feature gpuc does not have yet is marked
// `pending <issue item>`: the replay reports it as pending, and fails when it starts to pass, so
// that the mark is removed. Run by hand, not in CI:
//   npm install --prefix /tmp/gpujs-exact gpu.js@2.24.1
//   NODE_PATH=/tmp/gpujs-exact/node_modules node scripts/record-gpujs-suite.js
'use strict';
const { GPU } = require('gpu.js');

const { arr, arr2, arr3, array, vec, vecs, vecs2, float, int, jsArg, flatten, writeFixture } = require('./gpujs-cases');
const flat = (data, dims) => array(dims, data, 'input'); // GPU.js input(flat, dims)

const F = (file) => 'test/features/' + file + '.js';
const I = (file) => 'test/issues/' + file + '.js';

// Each case: origin (file and the test's name), src (the kernel as GPU.js source), output, args,
// constants ({name: value}; arrays and booleans too), helpers (addFunction sources), settings
// (more GPU.js settings), map (createKernelMap's subkernels: {name: source}), ulps (the bound for
// Math, 0 when GPU.js is exact), pending (the issue 13 item gpuc needs first).
const cases = [
  // arithmetic-operators.js
  { name: 'addition', origin: [F('arithmetic-operators'), 'addition'], src: 'function() { return 3 + 2; }', output: [1] },
  { name: 'subtraction', origin: [F('arithmetic-operators'), 'subtraction'], src: 'function() { return 3 - 2; }', output: [1] },
  { name: 'multiplication', origin: [F('arithmetic-operators'), 'multiplication'], src: 'function() { return 3 * 2; }', output: [1] },
  { name: 'exponential', origin: [F('arithmetic-operators'), 'exponential'], src: 'function() { return 3 ** 2; }', output: [1] },
  { name: 'division', origin: [F('arithmetic-operators'), 'division'], src: 'function() { return 3 / 2; }', output: [1] },
  { name: 'modulus', origin: [F('arithmetic-operators'), 'modulus'], src: 'function() { return 3 % 2; }', output: [1] },
  { name: 'modulus_variable', origin: [F('arithmetic-operators'), 'modulus variable'], src: 'function(v) { return 91 % v; }', output: [1], args: [float(7)] },
  { name: 'increment', origin: [F('arithmetic-operators'), 'increment'], src: 'function() { let i = 3; i++; return i; }', output: [1] },
  { name: 'decrement', origin: [F('arithmetic-operators'), 'decrement'], src: 'function() { let i = 3; i--; return i; }', output: [1] },
  { name: 'increment_early', origin: [F('arithmetic-operators'), 'increment early'], src: 'function() { let i = 3; return ++i; }', output: [1] },
  { name: 'decrement_early', origin: [F('arithmetic-operators'), 'decrement early'], src: 'function() { let i = 3; return --i; }', output: [1] },
  // assignment-operators.js
  { name: 'assignment_equal', origin: [F('assignment-operators'), 'equal'], src: 'function() { let i = 3; i = 5; return i; }', output: [1] },
  { name: 'assignment_plus_equal', origin: [F('assignment-operators'), 'plus equal'], src: 'function() { let i = 3; i += 2; return i; }', output: [1] },
  { name: 'assignment_minus_equal', origin: [F('assignment-operators'), 'minus equal'], src: 'function() { let i = 3; i -= 2; return i; }', output: [1] },
  { name: 'assignment_multiply_equal', origin: [F('assignment-operators'), 'multiply equal'], src: 'function() { let i = 3; i *= 2; return i; }', output: [1] },
  { name: 'assignment_divide_equal', origin: [F('assignment-operators'), 'divide equal'], src: 'function() { let i = 3; i /= 2; return i; }', output: [1] },
  { name: 'assignment_modulus_equal', origin: [F('assignment-operators'), 'modulus equal'], src: 'function() { let i = 3; i %= 2; return i; }', output: [1] },
  { name: 'assignment_exponential_equal', origin: [F('assignment-operators'), 'exponential equal'], src: 'function() { let i = 3; i **= 2; return i; }', output: [1] },
  // bitwise-operators.js
  { name: 'bitwise_and', origin: [F('bitwise-operators'), 'bitwise AND'], src: 'function(v1, v2) { return v1 & v2; }', output: [1], args: [float(5), float(3)] },
  { name: 'bitwise_or', origin: [F('bitwise-operators'), 'bitwise OR'], src: 'function(v1, v2) { return v1 | v2; }', output: [1], args: [float(5), float(3)] },
  { name: 'bitwise_xor', origin: [F('bitwise-operators'), 'bitwise XOR'], src: 'function(v1, v2) { return v1 ^ v2; }', output: [1], args: [float(5), float(3)] },
  { name: 'bitwise_not', origin: [F('bitwise-operators'), 'bitwise NOT'], src: 'function(v1) { return ~v1; }', output: [1], args: [float(5)] },
  { name: 'bitwise_zero_fill_left_shift', origin: [F('bitwise-operators'), 'bitwise zero fill left shift'], src: 'function(v1, v2) { return v1 << v2; }', output: [1], args: [float(5), float(2)] },
  { name: 'bitwise_signed_right_shift', origin: [F('bitwise-operators'), 'bitwise signed right shift'], src: 'function(v1, v2) { return v1 >> v2; }', output: [1], args: [float(-5), float(2)] },
  { name: 'bitwise_zero_fill_right_shift', origin: [F('bitwise-operators'), 'bitwise zero fill right shift'], src: 'function(v1, v2) { return v1 >>> v2; }', output: [1], args: [float(-5), float(2)] },
  // basic-math.js, math-object.js
  { name: 'basic_math', origin: [F('basic-math'), 'basic math'], src: 'function(a, b) { return a[this.thread.x] * b[this.thread.x] + a[this.thread.x] / b[this.thread.x] - a[this.thread.x]; }', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  { name: 'math_object_all', origin: [F('math-object'), 'Math object functions'], src: 'function(v) {\n  const x = v[this.thread.x];\n  return Math.abs(x) + Math.acos(x / 10) + Math.asin(x / 10) + Math.atan(x) + Math.atan2(x, 2) + Math.ceil(x) + Math.cos(x) + Math.exp(x / 4) + Math.floor(x) + Math.log(Math.abs(x) + 1) + Math.max(x, 2) + Math.min(x, 2) + Math.pow(Math.abs(x), 1.5) + Math.round(x) + Math.sin(x) + Math.sqrt(Math.abs(x)) + Math.tan(x / 4);\n}', output: [6], args: [arr([-7.5, -1, 0, 0.5, 3.25, 9])], ulps: 8 },
  { name: 'math_object_constants', origin: [F('math-object'), 'Math object constants'], src: 'function() { return Math.E + Math.PI * 2 + Math.SQRT2 * 3 + Math.SQRT1_2 * 4 + Math.LN2 * 5 + Math.LN10 * 6 + Math.LOG2E * 7 + Math.LOG10E * 8; }', output: [1] },
  { name: 'infinity', origin: [F('infinity'), 'Infinity'], src: 'function() { return Infinity; }', output: [1] },
  { name: 'issue_259_atan2', origin: [I('259-atan2'), 'Issue #259 atan2'], src: 'function() { return Math.atan2(1, 2); }', output: [1] },
  { name: 'issue_349_divide_by_three', origin: [I('349-division-by-factors-of-3'), 'Issue #349 divide by three'], src: 'function (v1, v2) { return v1 / v2; }', output: [1], args: [float(6), float(3)] },
  { name: 'issue_357_modulus', origin: [I('357-modulus-issue'), 'Issue #357 modulus'], src: 'function(x) { return x[this.thread.x % 3]; }', output: [100], args: [arr([1, 2, 3])] },
  { name: 'issue_470_integer_modulus', origin: [I('470-modulus-wrong'), 'Issue #470 modulus wrong'], src: 'function(mod) { return this.thread.x % mod; }', output: [10], args: [int(6)], settings: { argumentTypes: { mod: 'Integer' } } },
  { name: 'issue_567_modulus_constants', origin: [I('567-wrong-modulus'), 'Issue #567 wrong modulus'], src: 'function() { return this.constants.value1 % this.constants.value2; }', output: [1], constants: { value1: 91, value2: 7 } },
  // if-else.js, ternary.js, switches.js, boolean-from-expression.js
  { name: 'if_else_boolean', origin: [F('if-else'), 'if else boolean'], src: 'function() { const result = true; if (result) { return 1; } else { return 0; } }', output: [1] },
  { name: 'if_else_lookup', origin: [F('if-else'), 'if else lookup'], src: 'function(a) { if (a[this.thread.x] > 0) { return 0; } else { return 1; } }', output: [4], args: [arr([1, 1, 0, 0])] },
  { name: 'ternary', origin: [F('ternary'), 'ternary'], src: 'function(a) { return a[this.thread.x] > 0 ? 1 : 0; }', output: [4], args: [arr([1, 1, 0, 0])] },
  { name: 'switch_basic', origin: [F('switches'), 'switch basic'], src: 'function(value) {\n  switch (value) {\n    case 1: return 1;\n    case 2: return 2;\n    case 3: return 3;\n  }\n  return 0;\n}', output: [1], args: [float(2)] },
  { name: 'switch_default', origin: [F('switches'), 'switch default'], src: 'function(value) {\n  switch (value) {\n    case 1: return 1;\n    default: return 3;\n  }\n}', output: [1], args: [float(2)] },
  { name: 'boolean_from_expression', origin: [F('boolean-from-expression'), 'boolean from expression'], src: 'function(a) { const result = a[this.thread.x] === 1; return result ? 1 : 0; }', output: [3], args: [arr([1, 0, 1])] },
  { name: 'issue_410_if_statement', origin: [I('410-if-statement'), 'Issue #410 if statement'], src: 'function(a) {\n  const paramDenom = a[this.thread.x][1] - a[this.thread.x][0];\n  if (paramDenom === 0) {\n    return 100;\n  }\n  return 200;\n}', output: [2], args: [arr2([[0, 0], [0, 2]])] },
  { name: 'switch_integer_no_match', origin: [F('switches'), 'basic'], src: 'function(value) {\n  switch (value) {\n    case 1: return 1;\n    case 2: return 2;\n    case 3: return 3;\n  }\n  return 0;\n}', output: [1], args: [int(4)], settings: { argumentTypes: ['Integer'] } },
  { name: 'switch_only_default', origin: [F('switches'), 'only default'], src: 'function(value) {\n  switch (value) {\n    default: return 3;\n  }\n}', output: [1], args: [int(2)], settings: { argumentTypes: ['Integer'] } },
  { name: 'switch_early_default', origin: [F('switches'), 'early default'], src: 'function(value) {\n  switch (value) {\n    default: return 3;\n    case 1: return 1;\n    case 2: return 2;\n  }\n}', output: [1], args: [int(2)], settings: { argumentTypes: ['Integer'] } },
  { name: 'switch_early_default_taken', origin: [F('switches'), 'early default'], src: 'function(value) {\n  switch (value) {\n    default: return 3;\n    case 1: return 1;\n    case 2: return 2;\n  }\n}', output: [1], args: [int(4)], settings: { argumentTypes: ['Integer'] } },
  { name: 'switch_fall_through', origin: [F('switches'), 'fall through'], src: 'function(value) {\n  switch (value) {\n    case 1:\n    case 2:\n      return 1;\n    default: return 3;\n  }\n}', output: [1], args: [int(2)], settings: { argumentTypes: ['Integer'] } },
  { name: 'if_else_true_literal', origin: [F('if-else'), 'if else boolean literal'], src: 'function() {\n  let result = 0;\n  if (true) {\n    result = 4;\n  } else {\n    result = 2;\n  }\n  return result;\n}', output: [1] },
  { name: 'if_else_if', origin: [F('if-else'), 'if else if'], src: 'function(x) {\n  const v = x[this.thread.x];\n  if (v > 0) {\n    return 0;\n  } else if (v < 1) {\n    return .5;\n  }\n  return 1;\n}', output: [2], args: [arr([-1, 1])] },
  { name: 'nested_sum_ab', origin: [F('nested-function'), 'nested sum a b'], src: 'function(a, b) {\n  function custom_adder(a,b) {\n    return a+b;\n  }\n  return custom_adder(a[this.thread.x], b[this.thread.x]);\n}', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  { name: 'nested_in_custom_function', origin: [F('nested-function'), 'nested in custom function'], src: 'function() {\n  return custom1();\n}', output: [1], helpers: ['function custom1() {\n  function nested1() {\n    return 1;\n  }\n  return nested1();\n}'] },
  // loops.js
  { name: 'loop_for_constant', origin: [F('loops'), 'for loop with constant'], src: 'function(a) {\n  let sum = 0;\n  for (let i = 0; i < 10; i++) {\n    sum += a[i];\n  }\n  return sum;\n}', output: [1], args: [arr([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])] },
  { name: 'loop_while', origin: [F('loops'), 'while loop'], src: 'function(a, b) {\n  let x = 0;\n  let i = 0;\n  while (i++ < 5) {\n    x += a[i] + b[i];\n  }\n  return x;\n}', output: [1], args: [arr([0, 1, 2, 3, 4, 5]), arr([5, 4, 3, 2, 1, 0])] },
  { name: 'loop_do_while', origin: [F('loops'), 'do while loop'], src: 'function(a) {\n  let x = 0;\n  let i = 0;\n  do {\n    x += a[i];\n    i++;\n  } while (i < 5);\n  return x;\n}', output: [1], args: [arr([1, 2, 3, 4, 5])] },
  { name: 'loop_max_iterations', origin: [F('loops'), 'loopMaxIterations'], src: 'function(a) {\n  let x = 0;\n  for (let i = 0; i < a; i++) {\n    x++;\n  }\n  return x;\n}', output: [1], args: [float(100)], settings: { loopMaxIterations: 50 } },
  { name: 'issue_152_for_vars', origin: [I('152-for-vars'), 'Issue #152 for vars'], src: 'function() {\n  let sum = 0;\n  for (let i = 0; i < 2; i++) {\n    sum += i;\n  }\n  return sum;\n}', output: [1, 1] },
  { name: 'issue_378_only_first_iteration', origin: [I('378-only-first-iteration'), 'Issue #378 only first iteration'], src: 'function(iter) {\n  let sum = 0;\n  for (let i = 2; i < iter; i++) {\n    sum = sum + i;\n  }\n  return 2 * sum;\n}', output: [10], args: [float(5)], constants: { conflictingName: 0.4 } },
  { name: 'issue_556_minified_for_var', origin: [I('556-minify-for-loop'), 'Issue #556 minified for loop'], src: 'function w(t,e){for(var r=0,i=0;i<this.constants.size;i++)r+=t[this.thread.y][i]*e[i][this.thread.x];return r}', output: [1, 1], constants: { size: 1 }, args: [arr2([[2]]), arr2([[3]])] },
  // nested-function.js, add-custom-function.js, issues on functions
  { name: 'nested_function', origin: [F('nested-function'), 'nested function'], src: 'function(a) {\n  function add(x, y) { return x + y; }\n  return add(a[this.thread.x], 1);\n}', output: [3], args: [arr([1, 2, 3])] },
  { name: 'add_custom_function', origin: [F('add-custom-function'), 'add custom function'], src: 'function(a, b) { return customAdder(a[this.thread.x], b[this.thread.x]); }', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])], helpers: ['function customAdder(a, b) {\n  return a + b;\n}'] },
  { name: 'issue_147_constant_in_helper', origin: [I('147-missing-constant'), 'Issue #147 missing constant'], src: 'function() { return getPi(); }', output: [1], constants: { pi: Math.PI }, helpers: ['function getPi() {\n  return this.constants.pi;\n}'] },
  { name: 'issue_207_same_function_reuse', origin: [I('207-same-function-reuse'), 'Issue #207 same function reuse'], src: 'function(kernelArg1, kernelArg2) {\n  function someFun1(someFun1Arg1, someFun1Arg2) {\n    return customAdder(someFun1Arg1, someFun1Arg2);\n  }\n  function someFun2(someFun2Arg1, someFun2Arg2) {\n    return customAdder(someFun2Arg1, someFun2Arg2);\n  }\n  function customAdder(customAdderArg1, customAdderArg2) {\n    return customAdderArg1 + customAdderArg2;\n  }\n  return someFun1(1, 2) + someFun2(kernelArg1[this.thread.x], kernelArg2[this.thread.x]);\n}', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  { name: 'issue_313_variable_lookup', origin: [I('313-variable-lookup'), 'Issue #313 variable lookup'], src: 'function(input) {\n  return (mult2(input) + mult2(input*2) + mult2(input));\n}', output: [1], args: [float(1)], helpers: ['function mult2(scale) {\n  return 2*scale;\n}'] },
  { name: 'issue_359_nested_add_function', origin: [I('359-addfunction-params-wrong'), 'Issue #359 addFunction params'], src: 'function() { return intermediate(-1); }', output: [1], helpers: ['function clcC(xx) {\n  return Math.abs(xx);\n}', 'function intermediate(c1) {\n  return clcC(c1);\n}'] },
  { name: 'issue_382_constant_and_argument', origin: [I('382-bad-constant'), 'Issue #382 bad constant'], src: 'function(a, conflictingName) {\n  return a[this.thread.x] + this.constants.conflictingName + conflictingName;\n}', output: [1], constants: { conflictingName: 0.4 }, args: [arr([1]), float(0.6)] },
  { name: 'issue_519_sanitize_names', origin: [I('519-sanitize-names'), 'Issue #519 sanitize names'], src: 'function (value__$, value__, value$, _) {\n  return value__$ + value__ + value$ + _ + 1;\n}', output: [1], args: [float(1), float(2), float(3), float(4)] },
  { name: 'issue_500_helper_with_array', origin: [I('500-sticky-arrays'), 'Issue #500 sticky arrays'], src: 'function(image1, image2, image3) {\n  return [processImage(image1), processImage(image2), processImage(image3)];\n}', output: [1], args: [arr([1]), arr([2]), arr([3])], helpers: ['function processImage(image) {\n  return image[0];\n}'] },
  { name: 'issue_116_helper_with_arrays', origin: [I('116-multiple-kernels-run-again'), 'Issue #116 multiple kernels run again'], src: 'function(a, b) { return add(a, b, this.thread.x); }', output: [5], args: [arr([1, 2, 3, 4, 5]), arr([1, 2, 3, 4, 5])], helpers: ['function add(a, b, x) {\n  return a[x] + b[x];\n}'] },
  { name: 'issue_212_funky_function', origin: [I('212-funky-function-support'), 'Issue #212 funky function support'], src: 'function(v1, v2) {\n  return (0, _add.add)(v1[this.thread.y][this.thread.x], v2[this.thread.y][this.thread.x]);\n}', output: [2, 2], args: [arr2([[0, 1], [1, 2]]), arr2([[0, 1], [1, 2]])], helpers: ['function add(value1, value2) {\n  return value1 + value2;\n}'] },
  // inputs and outputs: input.js, output.js, argument types, issues on lookups
  { name: 'input_1d', origin: [F('input'), 'input 1D'], src: 'function(a) { return a[this.thread.x]; }', output: [9], args: [flat([1, 2, 3, 4, 5, 6, 7, 8, 9], [9])] },
  { name: 'input_2d', origin: [F('input'), 'input 2D'], src: 'function(a) { return a[this.thread.y][this.thread.x]; }', output: [3, 3], args: [flat([1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 3])] },
  { name: 'input_3d', origin: [F('input'), 'input 3D'], src: 'function(a) { return a[this.thread.z][this.thread.y][this.thread.x]; }', output: [2, 2, 2], args: [flat([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2])] },
  { name: 'input_2d_read_as_1d', origin: [F('input'), 'input used in other input'], src: 'function(a) { return a[this.thread.x]; }', output: [4], args: [flat([1, 2, 3, 4], [2, 2])] },
  { name: 'output_1d', origin: [F('output'), 'output 1D'], src: 'function() { return this.thread.x; }', output: [5] },
  { name: 'output_2d', origin: [F('output'), 'output 2D'], src: 'function() { return this.thread.x + this.thread.y * 10; }', output: [3, 2] },
  { name: 'output_3d', origin: [F('output'), 'output 3D'], src: 'function() { return this.thread.x + this.thread.y * 10 + this.thread.z * 100; }', output: [2, 3, 2] },
  { name: 'output_sizes', origin: [F('output'), 'this.output'], src: 'function() { return this.output.x * 100 + this.output.y * 10 + this.output.z; }', output: [4, 3, 2] },
  { name: 'array_2d_argument', origin: [F('argument-array2d-types'), 'Array2D'], src: 'function(a) { return a[this.thread.y][this.thread.x] * 2; }', output: [3, 2], args: [arr2([[1, 2, 3], [4, 5, 6]])] },
  { name: 'array_3d_argument', origin: [F('argument-array3d-types'), 'Array3D'], src: 'function(a) { return a[this.thread.z][this.thread.y][this.thread.x] + 1; }', output: [2, 2, 2], args: [arr3([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])] },
  { name: 'array1d2_argument', origin: [F('argument-array1d-types'), 'Array1D(2)'], src: 'function(a) { const v = a[this.thread.x]; return v[0] + v[1] * 10; }', output: [3], args: [vecs([[1, 2], [3, 4], [5, 6]])], settings: { argumentTypes: { a: 'Array1D(2)' } } },
  { name: 'array1d4_argument', origin: [F('argument-array1d-types'), 'Array1D(4)'], src: 'function(a) { const v = a[this.thread.x]; return v[0] + v[1] * 10 + v[2] * 100 + v[3] * 1000; }', output: [2], args: [vecs([[1, 2, 3, 4], [5, 6, 7, 8]])], settings: { argumentTypes: { a: 'Array1D(4)' } } },
  { name: 'array2d2_argument', origin: [F('argument-array2d-types'), 'Array2D(2)'], src: 'function(a) { const v = a[this.thread.y][this.thread.x]; return v[0] + v[1] * 10; }', output: [2, 2], args: [vecs2([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])], settings: { argumentTypes: { a: 'Array2D(2)' } } },
  { name: 'array2_single_vector', origin: [F('argument-array-types'), 'Array(2)'], src: 'function(a) { return a[0] + a[1] * 10 + this.thread.x; }', output: [2], args: [vec([1, 2])], settings: { argumentTypes: { a: 'Array(2)' } } },
  { name: 'array4_single_vector', origin: [F('argument-array-types'), 'Array(4)'], src: 'function(a) { return a[0] + a[1] * 10 + a[2] * 100 + a[3] * 1000; }', output: [1], args: [vec([1, 2, 3, 4])], settings: { argumentTypes: { a: 'Array(4)' } } },
  { name: 'issue_130_typed_array_rows', origin: [I('130-typed-array'), 'Issue #130 typed array'], src: 'function(changes) { return changes[this.thread.y][this.thread.x]; }', output: [2, 1], args: [arr2([[0, 0]])] },
  { name: 'issue_159_3d', origin: [I('159-3d'), 'Issue #159 3d'], src: 'function(grid) { return grid[this.thread.y][this.thread.x]; }', output: [5, 5], args: [arr2([[0, 1, 2, 3, 4], [1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [3, 4, 5, 6, 7], [4, 5, 6, 7, 8]])] },
  { name: 'issue_241_index_mapping', origin: [I('241-CPU-vs-GPU-maps-output-differently'), 'Issue #241'], src: 'function(inp) { return inp[this.thread.y][this.thread.x]; }', output: [3, 3], args: [arr2([[0, 1, 2], [3, 4, 5], [6, 7, 8]])] },
  { name: 'issue_300_nested_array_index', origin: [I('300-nested-array-index'), 'Issue #300 nested array index'], src: 'function(input, lookup) { return lookup[input[this.thread.x]]; }', output: [1], args: [arr([2]), arr([7, 13, 19, 23])] },
  { name: 'issue_422_add_arrays', origin: [I('422-warnings'), 'Issue #422 warnings'], src: 'function(a, b) { return a[this.thread.x] + b[this.thread.x]; }', output: [10], args: [arr([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), arr([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])] },
  { name: 'issue_493_strange_literal', origin: [I('493-strange-literal'), 'Issue #493 strange literal'], src: 'function(array) {\n  const xFactor = (1 - 0) * this.constants.x + this.thread.x * this.constants.y;\n  const yFactor = (1 - .5) * this.constants.x + this.thread.x * this.constants.y;\n  const value = array[this.thread.x];\n  return [\n    value[0] / xFactor,\n    value[1] / yFactor,\n  ];\n}', output: [1], constants: { x: 1, y: 1 }, args: [vecs([[1, 2]])], settings: { argumentTypes: { array: 'Array1D(2)' } } },
  { name: 'issue_585_lookups', origin: [I('585-inaccurate-lookups'), 'Issue #585 inaccurate lookups'], src: 'function(value) { return value[this.thread.x]; }', output: [4], args: [arr([0, 1, 2, 3])] },
  // return-arrays.js
  { name: 'return_array2', origin: [F('return-arrays'), 'return Array(2)'], src: 'function() { return [1, 2]; }', output: [3] },
  { name: 'return_array3', origin: [F('return-arrays'), 'return Array(3)'], src: 'function() { return [1, 2, 3]; }', output: [3] },
  { name: 'return_array4', origin: [F('return-arrays'), 'return Array(4)'], src: 'function() { return [1, 2, 3, 4]; }', output: [3] },
  { name: 'return_array2_from_argument', origin: [F('return-arrays'), 'return Array(2) from argument'], src: 'function(a) { return [a[this.thread.x], a[this.thread.x] * 2]; }', output: [3], args: [arr([1, 2, 3])] },
  // constants-*.js
  { name: 'constants_float', origin: [F('constants-float'), 'float constant'], src: 'function() { return this.constants.two; }', output: [2], constants: { two: 2.5 } },
  { name: 'constants_integer', origin: [F('constants-integer'), 'integer constant'], src: 'function() { return this.constants.two + this.thread.x; }', output: [2], constants: { two: 2 } },
  { name: 'constants_array', origin: [F('constants-array'), 'array constant'], src: 'function() { return this.constants.array[this.thread.x]; }', output: [2], constants: { array: [200, 200] } },
  { name: 'constants_bool', origin: [F('constants-bool'), 'bool constant'], src: 'function() { return this.constants.bool ? 1 : 0; }', output: [1], constants: { bool: true } },
  { name: 'constants_array_2d', origin: [F('constants-array'), 'array2d constant'], src: 'function() { return this.constants.array[this.thread.y][this.thread.x]; }', output: [2, 2], constants: { array: [[1, 2], [3, 4]] } },
  // internally-defined-matrices.js, destructured-assignment.js
  { name: 'internal_matrix_2x2', origin: [F('internally-defined-matrices'), 'matrix2'], src: 'function() {\n  const m = [[1, 2], [3, 4]];\n  return m[this.thread.y][this.thread.x];\n}', output: [2, 2] },
  { name: 'destructured_vector', origin: [F('destructured-assignment'), 'array destructuring'], src: 'function() {\n  const [a, b] = [this.thread.x, 2];\n  return a + b;\n}', output: [2] },
  // create-kernel-map.js
  { name: 'kernel_map_object', origin: [F('create-kernel-map'), 'createKernelMap object'], src: 'function(a, b, c) {\n  return divide(add(a[this.thread.x], b[this.thread.x]), c[this.thread.x]);\n}', output: [5], args: [arr([1, 2, 3, 4, 5]), arr([1, 2, 3, 4, 5]), arr([1, 2, 3, 4, 5])], map: { addResult: 'function add(a, b) {\n  return a + b;\n}', divideResult: 'function divide(a, b) {\n  return a / b;\n}' } },
  // settings that choose how WebGL stores or computes, which gpuc has no use for: the same kernel
  // recorded with the setting, replayed without it (the replay ignores `setting` lines)
  { name: 'setting_precision_single', origin: [I('349-division-by-factors-of-3'), "precision: 'single'"], src: 'function(a) { return a[this.thread.x] / 3 + 0.1; }', output: [4], args: [arr([1, 2, 6, 10])], settings: { precision: 'single' } },
  { name: 'setting_tactic_speed', origin: [F('tactic'), "tactic: 'speed'"], src: 'function(a) { return a[this.thread.x] * 0.3 + 1 / 7; }', output: [4], args: [arr([1, 2, 6, 10])], settings: { tactic: 'speed' } },
  { name: 'setting_tactic_precision', origin: [F('tactic'), "tactic: 'precision'"], src: 'function(a) { return a[this.thread.x] * 0.3 + 1 / 7; }', output: [4], args: [arr([1, 2, 6, 10])], settings: { tactic: 'precision' } },
  { name: 'setting_optimize_float_memory', origin: [F('optimize-float-memory'), 'optimizeFloatMemory'], src: 'function(a) { return a[this.thread.x] + 0.25; }', output: [5], args: [arr([1, 2, 3, 4, 5])], settings: { optimizeFloatMemory: true } },
  { name: 'setting_fix_integer_division_off', origin: [I('349-division-by-factors-of-3'), 'fixIntegerDivisionAccuracy: false'], src: 'function(v1, v2) { return v1 / v2; }', output: [1], args: [float(6), float(3)], settings: { fixIntegerDivisionAccuracy: false } },
  { name: 'setting_strict_integers', origin: [I('493-strange-literal'), 'strictIntegers'], src: 'function() { return this.thread.x / 2 + 1; }', output: [4], settings: { strictIntegers: true } },
  { name: 'setting_immutable', origin: [I('267-immutable-sub-kernels'), 'immutable'], src: 'function(v) { return v[this.thread.x] + 1; }', output: [1], args: [arr([1])], settings: { immutable: true } },
  { name: 'setting_dynamic_arguments', origin: [F('dynamic-arguments'), 'dynamicArguments'], src: 'function(a) { return a[this.thread.x] * 2; }', output: [3], args: [arr([1, 2, 3])], settings: { dynamicArguments: true } },
  { name: 'setting_return_type', origin: [F('type-management'), "returnType: 'Number'"], src: 'function() { return this.thread.x * 1.5; }', output: [3], settings: { returnType: 'Number' } },
  { name: 'setting_argument_types_array', origin: [F('argument-array-types'), "argumentTypes: ['Array', 'Number']"], src: 'function(a, b) { return a[this.thread.x] + b; }', output: [3], args: [arr([1, 2, 3]), float(0.5)], settings: { argumentTypes: ['Array', 'Number'] } },
  // add-typed-functions.js, function-return.js
  { name: 'typed_function_vec2', origin: [F('add-typed-functions'), 'Array(2)'], src: 'function() {\n  const result = typedFunction();\n  return result[0] + result[1];\n}', output: [1], helpers: ['function typedFunction() {\n  return [1, 2];\n}'] },
  { name: 'typed_function_vec3', origin: [F('add-typed-functions'), 'Array(3)'], src: 'function() {\n  const result = typedFunction();\n  return result[0] + result[1] + result[2];\n}', output: [1], helpers: ['function typedFunction() {\n  return [1, 2, 3];\n}'] },
  { name: 'typed_function_vec4', origin: [F('add-typed-functions'), 'Array(4)'], src: 'function() {\n  const result = typedFunction();\n  return result[0] + result[1] + result[2] + result[3];\n}', output: [1], helpers: ['function typedFunction() {\n  return [1, 2, 3, 4];\n}'] },
  { name: 'function_return_float', origin: [F('function-return'), 'function return float'], src: 'function() { return 42; }', output: [1] },
  { name: 'function_return_array4', origin: [F('function-return'), 'function return Array(4)'], src: 'function() { return [42, 43, 44, 45]; }', output: [1] },
  { name: 'function_return_array4_member', origin: [F('function-return'), 'function return Array(4) member expression'], src: 'function(value) {\n  let pixel = toIntArray4(value[this.thread.y][this.thread.x]);\n  return pixel;\n  function toIntArray4(pixel) {\n    return [pixel[0] * 255, pixel[1] * 255, pixel[2] * 255, pixel[3] * 255];\n  }\n}', output: [1, 1], args: [vecs2([[[1, 1, 1, 1]]])], settings: { argumentTypes: { value: 'Array2D(4)' } } },
  // loops.js
  { name: 'loop_for_counter', origin: [F('loops'), 'for loop'], src: 'function(a, b) {\n  let x = 0;\n  for (let i = 0; i < 10; i++) {\n    x = x + 1;\n  }\n  return (a[this.thread.x] + b[this.thread.x] + x);\n}', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  { name: 'loop_for_with_constant', origin: [F('loops'), 'for loop with constant'], src: 'function(a, b) {\n  let x = 0;\n  for (let i = 0; i < this.constants.max; i++) {\n    x = x + 1;\n  }\n  return (a[this.thread.x] + b[this.thread.x] + x);\n}', output: [6], constants: { max: 10 }, args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  { name: 'loop_while_increment_in_condition', origin: [F('loops'), 'while loop'], src: 'function(a, b) {\n  let x = 0;\n  let i = 0;\n  while (i++ < 10) {\n    x = x + 1;\n  }\n  return (a[this.thread.x] + b[this.thread.x] + x);\n}', output: [6], args: [arr([1, 2, 3, 5, 6, 7]), arr([4, 5, 6, 1, 2, 3])] },
  // destructured-assignment.js
  { name: 'destructured_thread_object', origin: [F('destructured-assignment'), 'object'], src: 'function() {\n  const { x, y } = this.thread;\n  return x + y;\n}', output: [2, 2] },
  { name: 'destructured_array_argument', origin: [F('destructured-assignment'), 'array'], src: 'function(array) {\n  const [first, second] = array;\n  return first + second;\n}', output: [1], args: [vec([1, 2])], settings: { argumentTypes: { array: 'Array(2)' } } },
  // internally-defined-matrices.js
  { name: 'internal_matrix_from_helper', origin: [F('internally-defined-matrices'), 'matrix2 from a helper'], src: 'function(y, x) { return getMatrix()[y][x]; }', output: [1], args: [float(1), float(0)], helpers: ['function getMatrix() {\n  const matrix = [\n    [1,2],\n    [3,4]\n  ];\n  return matrix;\n}'] },
  // dynamic-output.js: the kernel run at a first size, then resized with setOutput and run again
  { name: 'dynamic_output_1d_grows', origin: [F('dynamic-output'), 'dynamic output 1d grows'], src: 'function() { return this.output.x + this.thread.x; }', output: [10], resizeFrom: [5], settings: { dynamicOutput: true } },
  { name: 'dynamic_output_2d_shrinks', origin: [F('dynamic-output'), 'dynamic output 2d shrinks'], src: 'function() { return this.output.x + this.output.y + this.thread.x + this.thread.y; }', output: [2, 3], resizeFrom: [4, 5], settings: { dynamicOutput: true } },
  // issue 390 thread assignment
  { name: 'issue_390_thread_assignment', origin: [I('390-thread-assignment'), 'Issue #390 thread assignment'], src: 'function assignThreadToVar() {\n  const x = this.thread.x;\n  const y = this.thread.y;\n  const sum = x + y;\n  return sum;\n}', output: [3, 2] },
  // issue 31: var declared in a for loop, read after it (GPU.js's var is function-scoped)
  { name: 'var_after_loop', origin: [I('556-minify-for-loop'), 'var after loop'], src: 'function() {\n  for (var i = 0; i < 3; i++) {}\n  return i;\n}', output: [1] },
];

// GPU.js's webasm mode falls back to its cpu backend by itself for what it cannot do (it says so on
// the console): such cases are recorded as mode cpu.
let fellBack = false;
for (const method of ['log', 'warn']) {
  const original = console[method];
  console[method] = (...words) => {
    if (String(words[0]).startsWith('Falling back to CPU')) fellBack = true;
    else original(...words);
  };
}

function run(c, mode) {
  const gpu = new GPU({ mode });
  fellBack = false;
  try {
    for (const h of c.helpers || []) gpu.addFunction(h);
    const settings = Object.assign({ output: c.output, constants: c.constants || {} }, c.settings || {});
    const args = (c.args || []).map(jsArg);
    let result, maps = {};
    if (c.map) {
      const sub = {};
      for (const [k, s] of Object.entries(c.map)) sub[k] = s;
      const kernel = gpu.createKernelMap(sub, c.src, settings);
      const r = kernel(...args);
      result = flatten(r.result);
      for (const k of Object.keys(c.map)) maps[k] = flatten(r[k]);
    } else if (c.resizeFrom) {
      settings.output = c.resizeFrom;
      const kernel = gpu.createKernel(c.src, settings);
      kernel(...args);
      kernel.setOutput(c.output);
      result = flatten(kernel(...args));
    } else {
      result = flatten(gpu.createKernel(c.src, settings)(...args));
    }
    return { result, maps };
  } finally {
    gpu.destroy();
  }
}

const recorded = [];
for (const c of cases) {
  let out, mode = 'webasm';
  try {
    out = run(c, mode);
  } catch (e) {
    mode = 'cpu';
    try {
      out = run(c, mode);
    } catch (e2) {
      console.log(`${c.name}: GPU.js fails it (${e2.message.split('\n')[0]}): left out`);
      continue;
    }
  }
  const s = c.settings || {};
  const types = s.argumentTypes ? Object.values(s.argumentTypes) : [];
  recorded.push({
    name: c.name, origin: `${c.origin[0]} ${c.origin[1]}`, mode: fellBack ? 'cpu' : mode, pending: c.pending, ulps: c.ulps,
    resizedFrom: c.resizeFrom, output: c.output, loopMax: s.loopMaxIterations,
    settings: Object.entries(s).filter(([k]) => k !== 'loopMaxIterations' && k !== 'argumentTypes'),
    constants: Object.entries(c.constants || {}),
    // a number GPU.js was told is an Integer is written as an int
    args: (c.args || []).map((a, i) => (a.kind === 'float' && types[i] === 'Integer' ? int(a.value) : a)),
    helpers: c.helpers, maps: Object.entries(c.map || {}), source: c.src, expect: out.result,
    expectMaps: Object.entries(out.maps),
  });
}
const file = writeFixture('gpujs-suite.txt', [
  'GPU.js 2.24.1\'s own tests (test/features, test/issues) as cases, with what GPU.js returned for them.',
  'Written by scripts/record-gpujs-suite.js; read by tests/test_js_suite.c. Do not edit by hand.'], recorded);
console.log(`wrote ${recorded.length} of ${cases.length} cases to ${file}`);
