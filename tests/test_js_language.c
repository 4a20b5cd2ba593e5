/* test_js_language.c - the JavaScript language items GPU.js code from the wild uses: kernel maps
 * (desc.map naming JS helpers, gpuc_create_kernel_map_js with GPU.js's object and array forms,
 * sub-kernels as source), arrays passed to helpers, GPU.js's Matrix(2..4) built in a kernel, `var`
 * scoping, destructuring, functions bound to names, and names GLSL reserves. Cases GPU.js runs are
 * compared with what GPU.js 2.24 returned (tests/fixtures/gpujs-language.txt, recorded by
 * scripts/record-gpujs-language.js); what only gpuc accepts, with values worked out by hand. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANGUAGE_CASES 18 /* the cases in the fixture file */

/* Reads array a (n values) and checks it against want, value by value. */
static void expect_values(const gpujs_case *c, const char *output, gpuc_array *a, const float *want, size_t n)
{
    ck_assert_uint_eq(gpuc_array_values(a), n);
    float *got = malloc(n * sizeof *got);
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, n));
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "case %s (GPU.js %s mode), %s value %zu: gpuc %.9g, GPU.js %.9g", c->name,
                      c->mode, output, i, got[i], want[i]);
    free(got);
}

START_TEST(matches_gpujs)
{
    gpujs_cases set = gpujs_cases_load("gpujs-language.txt", LANGUAGE_CASES);
    const gpujs_case *c = &set.cases[_i];
    gpuc_kernel_desc desc = {.output = c->output};
    memcpy(desc.constants, c->constants, sizeof desc.constants);
    gpuc_kernel *k;
    gpuc_status st = c->sub_kernels ? gpuc_create_kernel_map_js(gpu, c->sub_kernels, c->source, &desc, &k)
                                    : gpuc_create_kernel_js(gpu, c->source, &desc, &k);
    ck_assert_msg(st == GPUC_OK, "case %s: %s", c->name, gpuc_errmsg(gpu));
    ck_assert_int_eq(gpuc_kernel_map_count(k), c->nexpect_maps);
    gpuc_arg args[GPUJS_MAX_ARGS];
    for (int i = 0; i < c->nargs; i++)
        args[i] = gpujs_arg_value(&c->args[i]);
    gpuc_array *r[1 + GPUC_MAX_MAP_OUTPUTS];
    ck_assert_gpuc_ok(gpuc_run_map(k, args, c->nargs, r));
    expect_values(c, "result", r[0], c->expect, c->nexpect);
    for (int m = 0; m < c->nexpect_maps; m++) {
        const gpujs_named *want = &c->expect_maps[m];
        ck_assert_str_eq(gpuc_kernel_map_name(k, m), want->name);
        expect_values(c, want->name, r[1 + m], want->values, want->nvalues);
    }
    for (int m = 0; m <= c->nexpect_maps; m++)
        gpuc_array_free(r[m]);
    gpuc_kernel_free(k);
    gpujs_cases_free(&set);
}
END_TEST

/* Runs a 1D kernel of n cells on a = 1..8 and reads its result (caller frees). */
static float *run_1d(const char *js, gpuc_kernel_desc desc, size_t n)
{
    desc.output = (gpuc_dims){(uint32_t)n};
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &desc, &k));
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){8});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, &arg, gpuc_kernel_arg_count(k), &r));
    gpuc_kernel_free(k);
    return fixture_take_floats(r, n);
}

/* desc.map names JavaScript helpers by their JavaScript names (the front end's GLSL names differ). */
START_TEST(desc_map_names_js_helpers)
{
    const char *js = "function add(a, b) { return a + b; }\n"
                     "function (a) { return add(a[this.thread.x], 10) * 2; }";
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {4}, .map = {{"sum", "add"}}}, &k));
    ck_assert_int_eq(gpuc_kernel_map_count(k), 1);
    ck_assert_str_eq(gpuc_kernel_map_name(k, 0), "sum");
    float a[4] = {1, 2, 3, 4};
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){4});
    gpuc_array *r[3];
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    float *result = fixture_take_floats(r[0], 4), *sum = fixture_take_floats(r[1], 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(sum[i], a[i] + 10);
        ck_assert_float_eq(result[i], (a[i] + 10) * 2);
    }
    free(result);
    free(sum);
    gpuc_kernel_free(k);
    /* An added function and a sub-kernel given as source in desc.map work alike. */
    ck_assert_gpuc_ok(gpuc_add_function(gpu, "function twice(v) { return v * 2; }"));
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a) { return twice(third(a[this.thread.x])); }",
                                            &(gpuc_kernel_desc){.output = {4}, .map = {{"t", "twice"},
                                                {"third", "function (v) { return v / 4; }"}}}, &k));
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    result = fixture_take_floats(r[0], 4);
    float *twice = fixture_take_floats(r[1], 4), *third = fixture_take_floats(r[2], 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(third[i], a[i] / 4);
        ck_assert_float_eq(twice[i], a[i] / 2);
        ck_assert_float_eq(result[i], a[i] / 2);
    }
    free(result);
    free(twice);
    free(third);
    gpuc_kernel_free(k);
}
END_TEST

/* A cell that never calls its sub-kernel keeps 0 there; what the last call returned wins. */
START_TEST(map_keeps_last_return)
{
    const char *js = "function (a) {\n"
                     "  let v = a[this.thread.x];\n"
                     "  if (v > 2) { v = keep(v); v = keep(v * 10); }\n"
                     "  return v;\n"
                     "}";
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, "{ kept: function keep(x) { if (x > 35) { return -x; } return x + 1; } }",
                                                js, &(gpuc_kernel_desc){.output = {4}}, &k));
    float a[4] = {1, 2, 3, 4};
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){4});
    gpuc_array *r[2];
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    float *result = fixture_take_floats(r[0], 4), *kept = fixture_take_floats(r[1], 4);
    /* a = 3: keep(3) = 4, keep(40) = -40; a = 4: keep(4) = 5, keep(50) = -50 */
    const float want_kept[4] = {0, 0, -40, -50}, want_result[4] = {1, 2, -40, -50};
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(kept[i], want_kept[i]);
        ck_assert_float_eq(result[i], want_result[i]);
    }
    free(result);
    free(kept);
    gpuc_kernel_free(k);
    /* A sub-kernel returning an array of 2 keeps a vec2 output (GPU.js's CPU mode gives NaN unless the
     * kernel declares returnType). */
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, "{ pair: (v) => [v, v * 2] }",
                                                "function (a) { const p = pair(a[this.thread.x]); return p[0] + p[1]; }",
                                                &(gpuc_kernel_desc){.output = {4}}, &k));
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    ck_assert_int_eq(gpuc_array_type(r[1]), GPUC_VEC2);
    result = fixture_take_floats(r[0], 4);
    float pair[8];
    ck_assert_gpuc_ok(gpuc_array_read_f32(r[1], pair, 8));
    gpuc_array_free(r[1]);
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(result[i], 3 * a[i]);
        ck_assert_float_eq(pair[2 * i], a[i]);
        ck_assert_float_eq(pair[2 * i + 1], 2 * a[i]);
    }
    free(result);
    gpuc_kernel_free(k);
}
END_TEST

/* A sub-kernel's name may be as long as any JavaScript name (gpuc's GLSL map names stay short). */
START_TEST(map_long_names)
{
    char js[1024], sub_kernels[512], name[121];
    memset(name, 'q', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(sub_kernels, sizeof sub_kernels, "{ out: function %s(v) { return v + 1; } }", name);
    snprintf(js, sizeof js, "function (a) { return %s(a[this.thread.x]) * 2; }", name);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, sub_kernels, js, &(gpuc_kernel_desc){.output = {4}}, &k));
    float a[4] = {1, 2, 3, 4};
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){4});
    gpuc_array *r[2];
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    float *result = fixture_take_floats(r[0], 4), *out = fixture_take_floats(r[1], 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(out[i], a[i] + 1);
        ck_assert_float_eq(result[i], 2 * (a[i] + 1));
    }
    free(result);
    free(out);
    gpuc_kernel_free(k);
    /* A GLSL kernel's map naming a function too long to keep is refused, not left unkept. */
    char glsl[1024], fn[80];
    memset(fn, 'g', sizeof fn - 1);
    fn[sizeof fn - 1] = '\0';
    snprintf(glsl, sizeof glsl, "float %s(float v) { return v; }\nfloat k(float a[]) { return %s(a[thread.x]); }", fn,
             fn);
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, glsl, &(gpuc_kernel_desc){.output = {4}, .map = {{"o", fn}}}, &k),
                         GPUC_ERROR_LIMIT, "longer than 63 characters");
}
END_TEST

/* Mistakes in kernel maps are gpuc's own messages about the user's code, never a GLSL error. */
static const struct map_error {
    const char *sub_kernels, *js, *fragment;
    gpuc_status status;
} map_errors[] = {
    {"{ s: add }", "function (a) { return a[this.thread.x]; }", "`add`, which is not a function", GPUC_ERROR_COMPILE},
    {"{ s: function add(x) { return x; } }", "function (a) { return a[this.thread.x]; }",
     "`add` of map output \"s\" is never called", GPUC_ERROR_COMPILE},
    {"{ s: function add(x) { return x; }, t: add }", "function (a) { return add(a[this.thread.x]); }",
     "keep the same function", GPUC_ERROR_COMPILE},
    {"{ m: function m() { return [[1, 2], [3, 4]]; } }", "function () { return m()[0][1]; }",
     "must return a number", GPUC_ERROR_COMPILE},
    {"{ s: function (x) { return x + ; } }", "function (a) { return s(a[this.thread.x]); }",
     "in the function of map output \"s\": 1:27", GPUC_ERROR_COMPILE},
    {"{ s: add ", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "sub-kernels 1:10: unexpected end", GPUC_ERROR_COMPILE},
    {"{ s add }", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "sub-kernels 1:5: expected `:`", GPUC_ERROR_COMPILE},
    {"add", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "expected an object", GPUC_ERROR_COMPILE},
    {"[]", "function (a) { return a[this.thread.x]; }", "no sub-kernel", GPUC_ERROR_COMPILE},
    {"{ \"s: add }", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "sub-kernels 1:3: a key's string is not closed", GPUC_ERROR_COMPILE},
    {"{ 's': add, \"t\": add }", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "keep the same function", GPUC_ERROR_COMPILE},
    {"{ result: add }", "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }",
     "\"result\"", GPUC_ERROR_INVALID_ARGUMENT},
    {"[function (x) { return x; }]", "function (a) { return a[this.thread.x]; }", "never called",
     GPUC_ERROR_COMPILE},
};

START_TEST(map_errors_are_gpucs_own)
{
    const struct map_error *e = &map_errors[_i];
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, e->sub_kernels, e->js, &(gpuc_kernel_desc){.output = {4}}, &k),
                         e->status, e->fragment);
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "does not compile"));
    ck_assert_ptr_null(k);
}
END_TEST

START_TEST(map_api_misuse)
{
    gpuc_kernel *k = NULL;
    const char *js = "function add(x) { return x; } function (a) { return add(a[this.thread.x]); }";
    gpuc_kernel_desc d = {.output = {4}};
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, NULL, js, &d, &k), GPUC_ERROR_INVALID_ARGUMENT, "sub_kernels");
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ s: add }", NULL, &d, &k), GPUC_ERROR_INVALID_ARGUMENT,
                         "js_source");
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ s: add }", js, NULL, &k), GPUC_ERROR_INVALID_ARGUMENT, "desc");
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ s: add }", js, &d, NULL), GPUC_ERROR_INVALID_ARGUMENT, "out");
    d.map[0] = (gpuc_map_output){"s", "add"};
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ s: add }", js, &d, &k), GPUC_ERROR_INVALID_ARGUMENT,
                         "desc.map is set too");
    ck_assert_ptr_null(k);
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(NULL, "{ s: add }", js, &d, &k), GPUC_ERROR_INVALID_ARGUMENT, "");
}
END_TEST

/* GPU.js's alias('name', fn) renames a sub-kernel: the kernel calls it by the new name. */
START_TEST(map_alias)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, "{ addResult: alias('adder', function add(a, b) { return a + b; }) }",
                                                "function (a) { return adder(a[this.thread.x], 1) * 3; }",
                                                &(gpuc_kernel_desc){.output = {4}}, &k));
    float a[4] = {1, 2, 3, 4};
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){4});
    gpuc_array *r[2];
    ck_assert_gpuc_ok(gpuc_run_map(k, &arg, 1, r));
    float *result = fixture_take_floats(r[0], 4), *sum = fixture_take_floats(r[1], 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(sum[i], a[i] + 1);
        ck_assert_float_eq(result[i], 3 * (a[i] + 1));
    }
    free(result);
    free(sum);
    gpuc_kernel_free(k);
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ s: alias(add) }", "function (a) { return a[0]; }",
                                                   &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE, "alias takes the new name as a string first");
}
END_TEST

/* One helper called with different arrays, and with none, is specialised once per combination. */
START_TEST(helper_specialised_per_array)
{
    const char *js = "function pick(v, i) { return v[i]; }\n"
                     "function (a, b) {\n"
                     "  const t = this.thread.x;\n"
                     "  return pick(a, t) + pick(b, t) * 10 + pick(a, 7 - t) * 100 + pick([5, 6], 1) * 1000;\n"
                     "}";
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {8}}, &k));
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    gpuc_arg args[2] = {gpuc_arg_host_f32(a, (gpuc_dims){8}), gpuc_arg_host_f32(b, (gpuc_dims){8})};
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *got = fixture_take_floats(r, 8);
    for (int t = 0; t < 8; t++)
        ck_assert_float_eq(got[t], a[t] + b[t] * 10 + a[7 - t] * 100 + 6000);
    free(got);
    gpuc_kernel_free(k);
    /* Arrays go to JavaScript helpers only. */
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { return Math.max(a, 1); }",
                                               &(gpuc_kernel_desc){.output = {4}, .arg_types = "float[]"}, &k),
                         GPUC_ERROR_COMPILE, "1:32: the array `a` can be passed to JavaScript helper functions only");
}
END_TEST

/* Functions bound to names (GPU.js 2.24 itself refuses these) and destructuring with holes. */
START_TEST(function_values_and_destructuring)
{
    float *got = run_1d("function (a) {\n"
                        "  const sq = function (t) { return t * t; };\n"
                        "  const add3 = (t) => t + 3;\n"
                        "  const neg = t => { return -t; };\n"
                        "  const [x, , z] = [a[this.thread.x], 0, 100];\n"
                        "  const [r0, r1] = [[1, 2], [3, 4]];\n"
                        "  return sq(x) + add3(1) + neg(0.5) + z + r1[0] * 1000 + r0[1] * 10000;\n"
                        "}", (gpuc_kernel_desc){0}, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(got[i], (float)((i + 1) * (i + 1)) + 4 - 0.5f + 100 + 3000 + 20000);
    free(got);
    /* An arrow function as the kernel itself. */
    got = run_1d("(a) => a[this.thread.x] * 2", (gpuc_kernel_desc){0}, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(got[i], 2.0f * (float)(i + 1));
    free(got);
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { const [x, y, z] = [1, 2]; return x; }",
                                               &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "1:22: 3 names are taken from an array of 2");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { const [x, y] = 3; return x; }",
                                               &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "1:22: only arrays of 2-4 numbers");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { const {x} = 3; return x; }",
                                               &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "1:23: the property `.x` is not supported");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { const { x = 1 } = this.thread; return x; }",
                                               &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_COMPILE, "1:26: default values in destructuring");
}
END_TEST

/* Names GLSL reserves or gpuc's generated code uses keep working as JavaScript names. */
START_TEST(names_glsl_reserves)
{
    gpuc_kernel_desc d = {.constants = {{"output", 3}, {"texture", 4}, {"thread", 5}, {"$x", 6}, {"float", 0.5}}};
    float *got = run_1d("function (a) {\n"
                        "  let random = Math.random() * 0;\n"
                        "  let pow = 2 ** 3;\n"
                        "  let toint32 = a[this.thread.x] | 0;\n"
                        "  let main = 1; let gl_Position = 2; let thread = 3; let gpuc_x = 4; let __y = 5;\n"
                        "  return this.constants.output + this.constants.texture * 10 + this.constants.thread * 100 +\n"
                        "    this.constants.$x * 1000 + this.constants.float + random + pow * 10000 + toint32 * 100000 +\n"
                        "    main + gl_Position + thread + gpuc_x + __y;\n"
                        "}", d, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(got[i], 3 + 40 + 500 + 6000 + 0.5f + 80000 + 100000.0f * (float)(i + 1) + 15);
    free(got);
}
END_TEST

/* Booleans ordered with < > <= >= compare as 1 and 0, as in JavaScript (GLSL orders numbers only). */
START_TEST(booleans_ordered)
{
    float *got = run_1d("function (a) {\n"
                        "  const big = a[this.thread.x] > 2;\n"
                        "  return ((big >= !false) ? 1 : 0) + ((big > false) ? 10 : 0) + ((big < true) ? 100 : 0);\n"
                        "}", (gpuc_kernel_desc){0}, 4);
    const float want[4] = {100, 100, 11, 11};
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(got[i], want[i]);
    free(got);
}
END_TEST

/* GPU.js has no arrays of more than 3 dimensions: reading one is refused, naming the argument. */
START_TEST(four_d_refused)
{
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { return a[0][0][0][this.thread.x]; }",
                                               &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE, "1:23: `a` is indexed 4 times but has 3 dimension(s)");
}
END_TEST

Suite *suite_js_language(void)
{
    Suite *s = suite_create("js_language");
    TCase *tc = fixture_tcase("JavaScript language");
    tcase_add_loop_test(tc, matches_gpujs, 0, LANGUAGE_CASES);
    tcase_add_test(tc, desc_map_names_js_helpers);
    tcase_add_test(tc, map_keeps_last_return);
    tcase_add_test(tc, map_long_names);
    tcase_add_loop_test(tc, map_errors_are_gpucs_own, 0, (int)(sizeof map_errors / sizeof map_errors[0]));
    tcase_add_test(tc, map_api_misuse);
    tcase_add_test(tc, map_alias);
    tcase_add_test(tc, helper_specialised_per_array);
    tcase_add_test(tc, function_values_and_destructuring);
    tcase_add_test(tc, names_glsl_reserves);
    tcase_add_test(tc, booleans_ordered);
    tcase_add_test(tc, four_d_refused);
    suite_add_tcase(s, tc);
    return s;
}
