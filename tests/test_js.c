/* test_js.c - the JavaScript front end's API and rules: argument types, settings (loop cap, random
 * seed), added JS and native functions, and every construct GPU.js rejects, each with its line:column. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float *run_js(const char *js, gpuc_kernel_desc desc, const gpuc_arg *args, int nargs, size_t *n)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &desc, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, nargs, &r));
    *n = gpuc_array_values(r);
    float *v = malloc(*n * sizeof *v);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, v, *n));
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    return v;
}

START_TEST(inferred_argument_types)
{
    float a[6] = {1, 2, 3, 4, 5, 6};
    size_t n;
    float *r = run_js("function (m, s) { return m[this.thread.y][this.thread.x] * s; }",
                      (gpuc_kernel_desc){.output = {3, 2}},
                      (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){3, 2}), gpuc_arg_f32(0.5f)}, 2, &n);
    ck_assert_uint_eq(n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq(r[i], a[i] * 0.5f);
    free(r);
}
END_TEST

START_TEST(declared_argument_types)
{
    int32_t iv[4] = {7, -3, 10, 4};
    float v2[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    gpuc_array *vec;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC2, (gpuc_dims){4}, &vec));
    ck_assert_gpuc_ok(gpuc_array_write_f32(vec, v2, 8));
    size_t n;
    float *r = run_js("function (a, v, k) { return a[this.thread.x] * k + v[this.thread.x][1]; }",
                      (gpuc_kernel_desc){.output = {4}, .arg_types = "int[], vec2[], int"},
                      (gpuc_arg[]){gpuc_arg_host_i32(iv, (gpuc_dims){4}), gpuc_arg_array(vec), gpuc_arg_i32(3)}, 3,
                      &n);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(r[i], (float)(iv[i] * 3) + v2[2 * i + 1]);
    free(r);
    gpuc_array_free(vec);
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { return a[0]; }",
                                               &(gpuc_kernel_desc){.output = {1}, .arg_types = "float[], int"}, &k),
                         GPUC_ERROR_COMPILE, "2 type(s) but the kernel has 1");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { return a[0]; }",
                                               &(gpuc_kernel_desc){.output = {1}, .arg_types = "double[]"}, &k),
                         GPUC_ERROR_COMPILE, "`double[]` is not a type");
}
END_TEST

START_TEST(vector_returns)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function () { return [this.thread.x, 2, this.thread.x / 4]; }",
                                            &(gpuc_kernel_desc){.output = {4}}, &k));
    ck_assert_int_eq(gpuc_kernel_return_type(k), GPUC_VEC3);
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float v[12];
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, v, 12));
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(v[3 * i], (float)i);
        ck_assert_float_eq(v[3 * i + 1], 2.0f);
        ck_assert_float_eq(v[3 * i + 2], i / 4.0f);
    }
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(loop_cap)
{
    /* The bound is an argument: GPU.js stops such loops after loopMaxIterations. */
    const char *js = "function (n) { let c = 0; for (let i = 0; i < n; i++) { c++; } return c; }";
    size_t len;
    float *r = run_js(js, (gpuc_kernel_desc){.output = {1}}, (gpuc_arg[]){gpuc_arg_f32(5000)}, 1, &len);
    ck_assert_float_eq(r[0], 1000.0f);
    free(r);
    r = run_js(js, (gpuc_kernel_desc){.output = {1}, .loop_max_iterations = 50}, (gpuc_arg[]){gpuc_arg_f32(30)}, 1,
               &len);
    ck_assert_float_eq(r[0], 30.0f);
    free(r);
    r = run_js("function (n) { let c = 0; while (c < n) c += 2; return c; }",
               (gpuc_kernel_desc){.output = {1}, .loop_max_iterations = 10}, (gpuc_arg[]){gpuc_arg_f32(1e6f)}, 1, &len);
    ck_assert_float_eq(r[0], 20.0f);
    free(r);
    /* A bound made of constants is not an argument: not capped, as in GPU.js. */
    r = run_js("function () { const n = this.constants.n * 2; let c = 0; for (let i = 0; i < n; i++) c++; return c; }",
               (gpuc_kernel_desc){.output = {1}, .loop_max_iterations = 10, .constants = {{"n", 1500}}}, NULL, 0, &len);
    ck_assert_float_eq(r[0], 3000.0f);
    free(r);
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {1}, .loop_max_iterations = -1},
                                               &k), GPUC_ERROR_INVALID_ARGUMENT, "loop_max_iterations");
}
END_TEST

START_TEST(random_is_seeded)
{
    const char *js = "function () { return Math.random(); }";
    size_t n;
    float *a = run_js(js, (gpuc_kernel_desc){.output = {256}, .random_seed = 42}, NULL, 0, &n);
    float *b = run_js(js, (gpuc_kernel_desc){.output = {256}, .random_seed = 42}, NULL, 0, &n);
    float *c = run_js(js, (gpuc_kernel_desc){.output = {256}, .random_seed = 43}, NULL, 0, &n);
    int same = 0, distinct = 0;
    double mean = 0;
    for (int i = 0; i < 256; i++) {
        ck_assert(a[i] >= 0.0f && a[i] < 1.0f);
        ck_assert_float_eq(a[i], b[i]);
        same += a[i] == c[i];
        distinct += i && a[i] != a[i - 1];
        mean += a[i] / 256.0;
    }
    ck_assert_int_lt(same, 4);
    ck_assert_int_gt(distinct, 250);
    ck_assert(mean > 0.4 && mean < 0.6);
    free(a);
    free(b);
    free(c);
}
END_TEST

START_TEST(added_functions)
{
    ck_assert_gpuc_ok(gpuc_add_function(gpu, "function addOne(v) { return v + 1; }"));
    ck_assert_gpuc_ok(gpuc_add_native_function(gpu, "float twice(float v) { return 2.0 * v; }"));
    size_t n;
    float *r = run_js("function square(v) { return v * v; }\n"
                      "function (a) { return twice(addOne(square(a[this.thread.x]))); }",
                      (gpuc_kernel_desc){.output = {4}}, (gpuc_arg[]){gpuc_arg_host_f32((float[]){1, 2, 3, 4}, (gpuc_dims){4})},
                      1, &n);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(r[i], 2.0f * ((i + 1) * (i + 1) + 1));
    free(r);
    ck_assert_gpuc_fails(gpuc_add_function(gpu, "function addOne(v) { return v; }"), GPUC_ERROR_INVALID_ARGUMENT,
                         "already added");
    ck_assert_gpuc_fails(gpuc_add_function(gpu, "function (v) { return v; }"), GPUC_ERROR_COMPILE, "named function");
    ck_assert_gpuc_fails(gpuc_add_function(gpu, "function f(v) { return 'x'; }"), GPUC_ERROR_COMPILE, "1:24");
    ck_assert_gpuc_fails(gpuc_add_native_function(gpu, "twice(v) { }"), GPUC_ERROR_COMPILE, "return type");
    ck_assert_gpuc_fails(gpuc_add_function(gpu, NULL), GPUC_ERROR_INVALID_ARGUMENT, "NULL");
    ck_assert_gpuc_fails(gpuc_add_native_function(gpu, NULL), GPUC_ERROR_INVALID_ARGUMENT, "NULL");
    ck_assert_int_eq(gpuc_add_function(NULL, "function f() { return 1; }"), GPUC_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(nested_functions_and_output_size)
{
    size_t n;
    float *r = run_js("function (a) {\n"
                      "  function scaled(v) { return v * 3; }\n"
                      "  return scaled(a[this.thread.x]) + this.output.x;\n"
                      "}",
                      (gpuc_kernel_desc){.output = {4}},
                      (gpuc_arg[]){gpuc_arg_host_f32((float[]){1, 2, 3, 4}, (gpuc_dims){4})}, 1, &n);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(r[i], 3.0f * (i + 1) + 4.0f);
    free(r);
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () {\n  const k = 2;\n  function f(v) { return v * k; }\n"
                                                    "  return f(1);\n}", &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "3:30: `k` is not defined");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) {\n  let a = 2;\n  return a;\n}",
                                               &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "2:7: `a` is already a parameter");
}
END_TEST

START_TEST(bad_calls)
{
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc d = {.output = {1}};
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, NULL, &d, &k), GPUC_ERROR_INVALID_ARGUMENT, "js_source");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return 1; }", NULL, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "desc");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return 1; }", &d, NULL),
                         GPUC_ERROR_INVALID_ARGUMENT, "out");
    ck_assert_int_eq(gpuc_create_kernel_js(NULL, "function () { return 1; }", &d, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return 1; }", &(gpuc_kernel_desc){0}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "output");
    ck_assert_ptr_null(k);
}
END_TEST

/* Corner cases of the translation: each must compile (a GLSL compile error would be a front-end bug)
 * and give what JavaScript (with GPU.js's float32 numbers) gives in cell 0, where a[0] = 2. */
static const struct corner {
    const char *js;
    float want;
} corners[] = {
    {"function (a) { let v = [1, 2]; v[0] = 3; v[1] += a[0]; return v[0] * 10 + v[1]; }", 34},
    {"function () { let b = true; b = 0; return b ? 1 : 7; }", 7},
    {"function () { let x = 1; { let x = 2.5; x++; } return x; }", 1},
    {"function () { let n = 0; for (;;) { n++; if (n > 4) break; } return n; }", 5},
    {"function () { let s = 0; for (let i = 0, j = 10; i < j; i++, j--) { s += j - i; } return s; }", 30},
    {"function (a) { let s = 1; s = s + (a[0] > 1); return s; }", 2},
    {"function () { let x = 5; x = x / 2; return x; }", 2.5f},
    {"function () { let i = 0; i++; i = i / 4; return i; }", 0.25f},
    {"function () { switch (1.5) { case 1: return 1; case 1.5: return 2; } return 3; }", 2},
    {"function () { let x = 0; do x++; while (x < 3) return x; }", 3},
    {"function (a) { if (a[0]) return 1; else return 2; }", 1},
    {"function () { while (false) {} ;; let q = (1, 2); return q; }", 2},
    {"function () { const v = Math.random() < 2 ? [1, 2, 3, 4] : [0, 0, 0, 0]; return v[3]; }", 4},
    {"function () { let t = this.thread.x + 8; t >>>= 1; let u = 1; u <<= 2; return t + u; }", 8},
    /* an array's components written out (`[1, 2] * 2` is NaN in JavaScript, refused: js_messages) */
    {"function () { const w = [1, 2]; const v = [w[0] * 2 + 0.5, w[1] * 2 + 0.5]; return v[1]; }", 4.5f},
    {"function mk(x) { return [x, x + 1]; }\nfunction pick(b) { return b ? 10 : 20; }\n"
     "function (a) { return mk(a[0])[1] + pick(a[0] > 1); }", 13},
    {"function () { return -(2 ** 31) | 0; }", -2147483648.0f},
    {"function () { return -1 >>> 0; }", 4294967295.0f},
    {"function () { return 7 % -3 + -7 % 3 * 10; }", -9},
    {"function () { return 1 / 0 > 1e38 ? Infinity : -1; }", INFINITY},
    {"function () { return 0x1F + 0b101 + 0o17 + .5 + 1e1; }", 31 + 5 + 15 + 0.5f + 10},
    {"function () { let i = 0; let s = 0; while (i < 10) { i++; if (i % 2) continue; s += i; } return s; }", 30},
    {"function () { let s = 0; for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { if (j == 1) continue; "
     "if (i == 2) break; s += 1; } return s; }", 4},
};

START_TEST(corner_cases_compile_and_agree)
{
    const struct corner *c = &corners[_i];
    gpuc_kernel *k;
    gpuc_status st = gpuc_create_kernel_js(gpu, c->js, &(gpuc_kernel_desc){.output = {2}, .random_seed = 1}, &k);
    ck_assert_msg(st == GPUC_OK, "%s\n-> %s", c->js, gpuc_errmsg(gpu));
    float a[2] = {2, 3};
    gpuc_arg args[1] = {gpuc_arg_host_f32(a, (gpuc_dims){2})};
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, gpuc_kernel_arg_count(k), &r));
    float v[2];
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, v, 2));
    ck_assert_msg(v[0] == c->want, "%s\n-> %.9g, want %.9g", c->js, v[0], c->want);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

/* Every construct GPU.js rejects, with the line:column it must name. */
static const struct rejection {
    const char *js, *where, *what;
} rejections[] = {
    {"function (a) {\n  return a.length;\n}", "2:10", ".length"},
    {"function (a) {\n  let s = 0;\n  for (const v of a) s += v;\n  return s;\n}", "3:3", "for...of"},
    {"function (a) {\n  for (let k in a) {}\n  return 1;\n}", "2:3", "for...in"},
    {"function () {\n  const o = {x: 1};\n  return 1;\n}", "2:13", "object literals"},
    {"function () {\n  const f = (v) => v * 2;\n  return f + 1;\n}", "3:10", "can only be called"},
    {"function () {\n  const s = \"text\";\n  return 1;\n}", "2:13", "strings"},
    {"function () {\n  return [1, 2, 3, 4, 5][0];\n}", "2:10", "arrays of 5"},
    {"function () {\n  return outer * 2;\n}", "2:10", "closures"},
    {"function (a) {\n  a = 3;\n  return a;\n}", "2:3", "arguments are read-only"},
    {"function (a) {\n  a[0] = 3;\n  return a[0];\n}", "2:3", "read-only"},
    /* a function expression used as a value (one called where it is defined is a helper: test_js_forms.c) */
    {"function () {\n  return (function (v) { return v; }) + 1;\n}", "2:11", "function expressions are not supported"},
    {"function () {\n  return this.constants.table[0];\n}", "2:10", "not among the kernel's constants"},
    /* a `var` where a let/const of its name is in scope: JavaScript's SyntaxError, not a second variable */
    {"function () {\n  let i = 0;\n  { var i = 2; }\n  return i;\n}", "3:9", "block-scoped `i`"},
    {"function (n) {\n  let c = 0;\n  for (let i = 0; i < 9; i++) {\n    if (c < n) { var i = -1; }\n  }\n  return c;\n}",
     "4:22", "(SyntaxError)"},
    /* a `var` over a destructured name: a clear refusal (it was GLSL that refused it, as a gpuc bug) */
    {"function () { var [a, b] = [1, 2]; { var a = 3; } return a + b; }", "1:42", "taken by a destructuring"}, /* array constants are supported (test_array_constants.c) */
    {"function () {\n  return new Array(3);\n}", "2:10", "`new`"},
    {"function () {\n  return `x`;\n}", "2:10", "strings"},
    {"function () {\n  return Math.hypot(1, 2);\n}", "2:10", "Math.hypot"},
    {"function () {\n  return nothing(1);\n}", "2:10", "unknown function"},
    {"function () {\n  let x = 1;\n}", "1:1", "never returns"},
    {"function f() { return f(); }\nfunction () { return f(); }", "1:23", "recursion"},
    {"function () {\n  return this.thread.w;\n}", "2:10", "only x, y and z"},
    {"function (a) {\n  return a[0] + a;\n}", "2:17", "read by index"},
    {"function () {\n  return 1 +;\n}", "2:13", "unexpected"},
    {"function () {\n  return this.constants.missing;\n}", "2:10", "not among the kernel's constants"},
    {"function (a) {\n  return helper(a) + a[0];\n}\n", "1:29", "read by index"},
    {"function () {\n  return [[1, 2], [3, 4]];\n}", "2:3", "a 2x2 matrix"},
    {"function () {\n  return [[1, 2], [3, 4], [5, 6]][0][0];\n}", "2:11", "must be square"},
    {"function () {\n  const c = 1;\n  c = 2;\n  return c;\n}", "3:3", "constant"},
    {"function () {\n  return null;\n}", "2:10", "`null`"},
    {"function () {\n  return typeof 1;\n}", "2:10", "`typeof`"},
};

START_TEST(rejections_name_line_and_column)
{
    const struct rejection *r = &rejections[_i];
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_add_function(gpu, "function helper(v) { return v; }"));
    gpuc_status st = gpuc_create_kernel_js(gpu, r->js, &(gpuc_kernel_desc){.output = {4}}, &k);
    ck_assert_msg(st == GPUC_ERROR_COMPILE, "%s -> %s (%s)", r->js, gpuc_status_name(st), gpuc_errmsg(gpu));
    ck_assert_msg(strstr(gpuc_errmsg(gpu), r->where) && strstr(gpuc_errmsg(gpu), r->what),
                  "source:\n%s\nmessage \"%s\" should name \"%s\" at %s", r->js, gpuc_errmsg(gpu), r->what, r->where);
    ck_assert_ptr_null(k);
}
END_TEST

/* `var` is function-scoped, as in JavaScript: declaring it again is the same variable, and it lives on
 * after its block (a cell that never gave it a value reads 0, where JavaScript has undefined). */
START_TEST(var_is_function_scoped)
{
    size_t n;
    float *r = run_js("function () { var x = 1; { var x = 2; } return x; }", (gpuc_kernel_desc){.output = {1}}, NULL,
                      0, &n);
    ck_assert_float_eq(r[0], 2.0f);
    free(r);
    r = run_js("function () { if (this.thread.x == 0) { var x = 2; } return x; }", (gpuc_kernel_desc){.output = {2}},
               NULL, 0, &n);
    ck_assert_float_eq(r[0], 2.0f);
    ck_assert_float_eq(r[1], 0.0f);
    free(r);
    /* `var t;` again in a loop does not reset t: it sums 0 + 1 + 2 + 3. */
    r = run_js("function () { let s = 0; for (let i = 0; i < 4; i++) { var t; if (i == 0) { t = 0; } t = t + i; s = t; } "
               "return s; }",
               (gpuc_kernel_desc){.output = {1}}, NULL, 0, &n);
    ck_assert_float_eq(r[0], 6.0f);
    free(r);
}
END_TEST

/* A `var` declared again anywhere in its function (any block depth, a loop's header or body, if/else,
 * after the loop) is the one function-scoped variable: a loop whose counter is declared again in its body
 * runs on with the new value. Each kernel returns f(n) for n = 5 and n = 300, where f is the same
 * function run by node (v20): the expected values are node's answers, as float32. */
static const struct var_again {
    const char *js;
    float expect[2]; /* n = 5, n = 300 */
} var_again[] = {
    /* `var i;` again keeps i's value (and i stays an int counter) */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { var i; c += i; } return c; }",
     {45, 45}},
    /* the kernel: the counter declared again in an if inside its loop */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; if (c < n && i == 9) { var i = -1; "
     "} } return c; }",
     {10, 300}},
    /* declared again in a nested loop's header */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; if (c < n && i == 9) { for (var i "
     "= 0; i > -1; i--) {} } } return c; }",
     {10, 300}},
    /* declared again after its loop */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; } var i = i * 2; return c + i; }",
     {30, 30}},
    /* in both branches of an if/else */
    {"function (n) { var x = 1; if (n > 5) { var x = 2; } else { var x = 3; } return x; }",
     {3, 2}},
    {"function (n) { var x = 1; if (n < 5) { var x = 2; } else { var x = 3; } return x; }",
     {3, 3}},
    /* a helper's own `var i` is another variable */
    {"function (n) { function h(a) { var i = a * 2; return i; } var i = 1; for (var k = 0; k < 3; k++) { "
     "var i = i + h(k); } return i; }",
     {7, 7}},
    /* declared again in a while loop's body */
    {"function (n) { let c = 0; var i = 0; while (i < 10) { c += 1; var i = i + 1; if (c < n && i == 10) "
     "{ var i = 0; } } return c; }",
     {10, 300}},
    /* declared again in the same block */
    {"function (n) { var x = 1; var x = x + 1; return x; }",
     {2, 2}},
    /* two counters, each declared again two loops deep */
    {"function (n) { let c = 0; for (var i = 0; i < 4; i++) { for (var j = 0; j < 3; j++) { c += 1; if (c "
     "< n && j == 2 && i == 3) { var i = 0; var j = -1; } } } return c; }",
     {12, 300}},
    /* declared again three blocks deep */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; { { if (c < n && i == 9) { var i = "
     "-1; } } } } return c; }",
     {10, 300}},
    /* declared again in an else-if */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; if (c >= n) { } else if (i == 9) { "
     "var i = -1; } } return c; }",
     {10, 300}},
    /* declared again holding a float: the counter becomes a float */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; if (c < n && i == 9) { var i = "
     "-0.5; } } return c + i; }",
     {20, 30.5}},
    /* stepped by += 1 */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i += 1) { c += 1; if (c < n && i == 9) { var i = "
     "-1; } } return c; }",
     {10, 300}},
    /* counting down */
    {"function (n) { let c = 0; for (var i = 10; i > 0; i--) { c += 1; if (c < n && i == 1) { var i = 11; "
     "} } return c; }",
     {10, 300}},
    /* a do-while's test reads the body's `var` */
    {"function (n) { let c = 0; do { c += 1; var i = c; } while (i < n); return c + i; }",
     {10, 600}},
    /* declared again in the next loop's header: the first loop's i is not read, the second's starts anew */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += i; } for (var i = 0; i < 5; i++) { c += i; } "
     "return c; }",
     {55, 55}},
    /* ...and here the second loop starts from the first one's last value */
    {"function (n) { let c = 0; for (var i = 0; i < 10; i++) { c += 1; } for (var i = i; i < 15; i++) { c += 10; } "
     "return c + i; }",
     {75, 75}},
    /* a counter declared again in its body, inside an outer let loop */
    {"function (n) { let c = 0; for (let k = 0; k < 3; k++) { for (var i = 0; i < 4; i++) { c += 1; "
     "if (c < n && k == 2 && i == 3) { var i = -1; } } } return c; }",
     {12, 300}},
};

/* `for (var i ...)` loops in a row, i read only inside each: each keeps its own counter, compiled as
 * before (no loop guard), since nothing reads one loop's i in the other. */
START_TEST(var_loops_in_a_row_keep_their_own_counters)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function () { let c = 0; for (var i = 0; i < 10; i++) { c += i; } "
                                                 "for (var i = 0; i < 5; i++) { c += i; } return c; }",
                                            &(gpuc_kernel_desc){.output = {1}}, &k));
    const char *glsl = gpuc_kernel_glsl(k);
    const char *first = strstr(glsl, "for (int js_i = 0; js_i < 10; js_i++)");
    ck_assert_msg(first && strstr(first, "for (int js_i = 0; js_i < 5; js_i++)") && !strstr(glsl, "gpuc_continues("),
                  "%s", glsl);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(var_declared_again_is_one_variable)
{
    const struct var_again *v = &var_again[_i];
    const float n[2] = {5, 300};
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, v->js, &(gpuc_kernel_desc){.output = {1}}, &k));
    for (int i = 0; i < 2; i++) {
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(n[i])}, 1, &r));
        float got;
        ck_assert_gpuc_ok(gpuc_array_read_f32(r, &got, 1));
        ck_assert_msg(got == v->expect[i], "%s\nwith n = %g gives %g; JavaScript gives %g", v->js, n[i], got,
                      v->expect[i]);
        gpuc_array_free(r);
    }
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js(void)
{
    Suite *s = suite_create("js");
    TCase *tc = fixture_tcase("JavaScript kernels");
    tcase_add_test(tc, inferred_argument_types);
    tcase_add_test(tc, declared_argument_types);
    tcase_add_test(tc, vector_returns);
    tcase_add_test(tc, loop_cap);
    tcase_add_test(tc, random_is_seeded);
    tcase_add_test(tc, added_functions);
    tcase_add_test(tc, nested_functions_and_output_size);
    tcase_add_test(tc, bad_calls);
    tcase_add_test(tc, var_is_function_scoped);
    tcase_add_test(tc, var_loops_in_a_row_keep_their_own_counters);
    tcase_add_loop_test(tc, var_declared_again_is_one_variable, 0, (int)(sizeof var_again / sizeof var_again[0]));
    tcase_add_loop_test(tc, corner_cases_compile_and_agree, 0, (int)(sizeof corners / sizeof corners[0]));
    tcase_add_loop_test(tc, rejections_name_line_and_column, 0, (int)(sizeof rejections / sizeof rejections[0]));
    suite_add_tcase(s, tc);
    return s;
}
