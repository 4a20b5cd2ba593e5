/* test_loops.c - llvmpipe's loop budget: every loop form gives the right answer or fails with
 * GPUC_ERROR_LIMIT naming the kernel and the loop, never a truncated result with GPUC_OK; kernels whose
 * loops are bounded under the budget pay nothing; nesting and macros are refused clearly. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One kernel `count(int n)` over 8 cells; `expect` is every cell's value, or LIMIT for a run that
 * fails with GPUC_ERROR_LIMIT (REFUSED: its creation does) with `where` in the message. */
typedef struct loop_case {
    const char *what;
    const char *source;
    int n;
    float expect;
    const char *where;
} loop_case;

#define LIMIT (-1.0f)
#define REFUSED (-2.0f)

static const loop_case cases[] = {
    {"for, under the budget", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     1000, 1000, NULL},
    {"for, exactly the budget", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     65535, 65535, NULL},
    {"for, one past the budget", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     65536, LIMIT, "line 3, column 2"},
    {"for, far past", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     100000, LIMIT, "line 3, column 2"},
    {"while", "float count(int n) {\n float c = 0.0; int i = 0;\n while (i < n) { c += 1.0; i++; }\n return c;\n}\n",
     100000, LIMIT, "line 3, column 2 (`while (i < n)`)"},
    {"while, under", "float count(int n) {\n float c = 0.0; int i = 0;\n while (i < n) { c += 1.0; i++; }\n return c;\n}\n",
     5000, 5000, NULL},
    {"do-while", "float count(int n) {\n float c = 0.0; int i = 0;\n do { c += 1.0; i++; } while (i < n);\n return c;\n}\n",
     100000, LIMIT, "line 3, column 2 (`do`)"},
    {"do-while, under", "float count(int n) {\n float c = 0.0; int i = 0;\n do { c += 1.0; i++; } while (i < n);\n return c;\n}\n",
     777, 777, NULL},
    {"a loop in a helper, literal bound on the left",
     "float h() {\n float c = 0.0;\n for (int i = 0; 100000 > i; i++) c += 1.0;\n return c;\n}\nfloat count(int n) { return h(); }\n",
     0, LIMIT, "line 3, column 2"},
    {"uint counter", "float count(int n) {\n float c = 0.0;\n for (uint i = 0u; i < uint(n); i++) c += 1.0;\n return c;\n}\n",
     100000, LIMIT, "line 3"},
    {"float counter", "float count(int n) {\n float c = 0.0;\n for (float f = 0.0; f < float(n); f += 1.0) c += 1.0;\n return c;\n}\n",
     100000, LIMIT, "line 3"},
    {"#define bound", "#define N 100000\nfloat count(int n) {\n float c = 0.0;\n for (int i = 0; i < N; i++) c += 1.0;\n return c;\n}\n",
     0, REFUSED, "line 4"},
    {"#define bound, past the budget at run time",
     "#define N 50000\nfloat count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n"
     " for (int i = 0; i < N; i++) c += 1.0;\n return c;\n}\n",
     20000, LIMIT, "line 5"},
    {"const int bound", "const int N = 100000;\nfloat count(int n) {\n float c = 0.0;\n for (int i = 0; i < N; i++) c += 1.0;\n return c;\n}\n",
     0, REFUSED, "line 4"},
    {"a const shadowed by a local is not trusted",
     "const int N = 10;\nfloat count(int n) {\n float c = 0.0;\n int N = n;\n for (int i = 0; i < N; i++) c += 1.0;\n return c;\n}\n",
     100000, LIMIT, "line 5"},
    {"a counter written in the body is not counted",
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < 10; i++) { c += 1.0; if (c < float(n)) i = 0; }\n return c;\n}\n",
     100000, LIMIT, "line 3"},
    {"two loops of 40,000", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n"
                            " for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     40000, LIMIT, "line 4"},
    {"two loops of 30,000", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n"
                            " for (int i = 0; i < n; i++) c += 1.0;\n return c;\n}\n",
     30000, 60000, NULL},
    {"nested 300 x 300", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++)\n"
                         "  for (int j = 0; j < n; j++) c += 1.0;\n return c;\n}\n",
     300, LIMIT, "line 4"},
    {"nested 1,000 x 60, constant", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < 1000; i++)\n"
                                    "  for (int j = 0; j < 60; j++) c += 1.0;\n return c;\n}\n",
     0, 60000, NULL},
    {"break before the budget", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) {\n"
                                "  if (i == 50000) break;\n  c += 1.0;\n }\n return c;\n}\n",
     100000, 50000, NULL},
    {"break inside a switch does not leave the loop",
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) {\n  switch (i & 1) { case 0: c += 1.0; break; default: break; }\n }\n return c;\n}\n",
     1000, 500, NULL},
    {"continue runs the step", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) {\n"
                               "  if (i % 3 == 0) continue;\n  c += 1.0;\n }\n return c;\n}\n",
     3000, 2000, NULL},
    {"continue in a do-while runs the test", "float count(int n) {\n float c = 0.0; int i = 0;\n"
                                             " do { i++; if (i % 2 == 0) continue; c += 1.0; } while (i < n);\n return c;\n}\n",
     1000, 500, NULL},
    {"return inside the loop", "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) {\n"
                               "  if (c >= 4000.0) return c;\n  c += 1.0;\n }\n return -1.0;\n}\n",
     100000, 4000, NULL},
    /* Lanes of one SIMD vector each stay under the budget, but the vector runs both loops. */
    {"divergent branches", "float count(int n) {\n float c = 0.0;\n if (thread.x % 2 == 0) {\n"
                           "  for (int i = 0; i < n; i++) c += 1.0;\n } else {\n  for (int i = 0; i < n; i++) c += 2.0;\n }\n return c;\n}\n",
     40000, LIMIT, "line 6"},
    {"for (;;) with a break", "float count(int n) {\n float c = 0.0;\n for (;;) {\n  c += 1.0;\n  if (c >= float(n)) break;\n }\n return c;\n}\n",
     2000, 2000, NULL},
    {"for (;;) past the budget", "float count(int n) {\n float c = 0.0;\n for (;;) {\n  c += 1.0;\n  if (c >= float(n)) break;\n }\n return c;\n}\n",
     70000, LIMIT, "line 3"},
    {"a header over several lines, with comments",
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; // from zero\n      i < n; /* up to n */\n      i++)\n"
     "  c += 1.0;\n return c + 0.5;\n}\n",
     1000, 1000.5f, NULL},
    {"a header over several lines, past the budget",
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; // from zero\n      i < n;\n      i++)\n"
     "  c += 1.0;\n return c;\n}\n",
     70000, LIMIT, "line 3, column 2"},
    {"a condition with side effects", "float count(int n) {\n float c = 0.0; int i = 0;\n while (i++ < n) c += 1.0;\n return c + float(i);\n}\n",
     100, 201, NULL},
};

START_TEST(every_loop_is_right_or_refused)
{
    const loop_case *t = &cases[_i];
    gpuc_kernel *k = NULL;
    gpuc_status created = gpuc_create_kernel(gpu, t->source, &(gpuc_kernel_desc){.output = {8}}, &k);
    if (gpuc_get_info(gpu)->loop_budget == 0) { /* hardware: no budget, every case runs to the end */
        if (created == GPUC_OK)
            gpuc_kernel_free(k);
        return;
    }
    if (t->expect == REFUSED) {
        ck_assert_msg(created == GPUC_ERROR_LIMIT && k == NULL, "%s: %s", t->what, gpuc_status_name(created));
        ck_assert_msg(strstr(gpuc_errmsg(gpu), t->where), "%s: \"%s\" lacks \"%s\"", t->what, gpuc_errmsg(gpu),
                      t->where);
        return;
    }
    ck_assert_msg(created == GPUC_OK, "%s: %s", t->what, gpuc_errmsg(gpu));
    gpuc_array *out = NULL;
    gpuc_status st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(t->n)}, 1, &out);
    if (t->expect == LIMIT) {
        ck_assert_msg(st == GPUC_ERROR_LIMIT, "%s: %s, expected GPUC_ERROR_LIMIT", t->what, gpuc_status_name(st));
        ck_assert_ptr_null(out);
        ck_assert_msg(strstr(gpuc_errmsg(gpu), "kernel 'count'") && strstr(gpuc_errmsg(gpu), t->where),
                      "%s: message \"%s\" lacks \"%s\"", t->what, gpuc_errmsg(gpu), t->where);
    } else {
        ck_assert_msg(st == GPUC_OK, "%s: %s", t->what, gpuc_errmsg(gpu));
        float *v = fixture_take_floats(out, 8);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(v[i] == t->expect, "%s: cell %d is %g, expected %g", t->what, i, v[i], t->expect);
        free(v);
    }
    gpuc_kernel_free(k);
}
END_TEST

static uint64_t loop_checks(void)
{
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    return s.loop_checks;
}

START_TEST(kernels_bounded_under_the_budget_pay_nothing)
{
    const char *bounded[] = {
        "float f(float v[]) { float s = 0.0; for (int i = 0; i < constants.chunk; i++) s += v[i]; return s; }",
        "float f(float v[]) { float s = 0.0; for (int i = 0; i < 200; i++) for (int j = 0; j < 200; j += 2) s += v[j]; return s; }",
        "float f(float v[]) { return v[thread.x] * 2.0; }",
    };
    float data[64] = {0};
    for (size_t i = 0; i < sizeof bounded / sizeof bounded[0]; i++) {
        gpuc_kernel *k;
        gpuc_array *out;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, bounded[i], &(gpuc_kernel_desc){.output = {4}, .constants = {{"chunk", 64}}}, &k));
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(data, (gpuc_dims){64})}, 1, &out));
        gpuc_array_free(out);
        gpuc_kernel_free(k);
    }
    ck_assert_int_eq(loop_checks(), 0);
    /* A bound only known at run time is guarded, and checked after each run, where there is a budget. */
    gpuc_kernel *k;
    gpuc_array *out;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(int n) { float s = 0.0; for (int i = 0; i < n; i++) s += 1.0; return s; }",
                                         &(gpuc_kernel_desc){.output = {4}}, &k));
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(10)}, 1, &out));
    gpuc_array_free(out);
    ck_assert_int_eq(loop_checks(), gpuc_get_info(gpu)->loop_budget > 0 ? 1 : 0);
    ck_assert_int_eq(strstr(gpuc_kernel_glsl(k), "gpuc_loop_cut") != NULL, gpuc_get_info(gpu)->loop_budget > 0);
    gpuc_kernel_free(k);
}
END_TEST

static const char *count_source = "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += 1.0;\n"
                                  " return c;\n}\n";

START_TEST(run_to_leaves_a_cut_result_unusable)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return; /* no budget, nothing is ever cut */
    gpuc_kernel *k, *copy;
    gpuc_array *dst, *other;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, count_source, &(gpuc_kernel_desc){.output = {8}}, &k));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float copy(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {8}}, &copy));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){8}, &dst));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){8}, &other));
    ck_assert_gpuc_fails(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_i32(100000)}, 1, dst), GPUC_ERROR_LIMIT, "line 3");
    float v[8];
    ck_assert_gpuc_fails(gpuc_array_read_f32(dst, v, 8), GPUC_ERROR_LIMIT, "kernel 'count'");
    ck_assert_gpuc_fails(gpuc_run_to(copy, (gpuc_arg[]){gpuc_arg_array(dst)}, 1, other), GPUC_ERROR_LIMIT,
                         "argument 0");
    /* Running into it again makes it whole. */
    ck_assert_gpuc_ok(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_i32(7)}, 1, dst));
    ck_assert_gpuc_ok(gpuc_array_read_f32(dst, v, 8));
    ck_assert_float_eq(v[5], 7.0f);
    /* So does writing it. */
    ck_assert_gpuc_fails(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_i32(100000)}, 1, dst), GPUC_ERROR_LIMIT, "line 3");
    const float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    ck_assert_gpuc_ok(gpuc_array_write_f32(dst, ones, 8));
    ck_assert_gpuc_ok(gpuc_array_read_f32(dst, v, 8));
    ck_assert_float_eq(v[0], 1.0f);
    gpuc_array_free(dst);
    gpuc_array_free(other);
    gpuc_kernel_free(k);
    gpuc_kernel_free(copy);
}
END_TEST

START_TEST(pipeline_runs_fail_at_once)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return;
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, count_source, &(gpuc_kernel_desc){.output = {8}, .pipeline = true}, &k));
    gpuc_array *out = NULL;
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(70000)}, 1, &out), GPUC_ERROR_LIMIT, "kernel 'count'");
    ck_assert_ptr_null(out);
    /* The next run starts clean. */
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(3)}, 1, &out));
    float *v = fixture_take_floats(out, 8);
    ck_assert_float_eq(v[7], 3.0f);
    free(v);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(javascript_kernels_name_their_own_lines)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return;
    const char *js = "function (n) {\n"
                     "  let c = 0;\n"
                     "  for (let i = 0; i < n; i++) {\n"
                     "    for (let j = 0; j < n; j++) { c += 1; }\n"
                     "  }\n"
                     "  return c;\n"
                     "}\n";
    gpuc_kernel *k;
    gpuc_array *out = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {4}, .arg_types = "float"}, &k));
    /* Within GPU.js's loopMaxIterations (1000), but 1,000,000 iterations in all. */
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(1000)}, 1, &out), GPUC_ERROR_LIMIT,
                         "JavaScript line 4, column 5");
    ck_assert_ptr_null(out);
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(200)}, 1, &out));
    float *v = fixture_take_floats(out, 4);
    ck_assert_float_eq(v[2], 40000.0f);
    free(v);
    gpuc_kernel_free(k);
    /* A loopMaxIterations above the budget is accepted; run-time detection applies. */
    const char *single = "function (n) {\n  let c = 0;\n  for (let i = 0; i < n; i++) { c += 1; }\n  return c;\n}\n";
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, single, &(gpuc_kernel_desc){.output = {4}, .arg_types = "float",
                                                                             .loop_max_iterations = 200000}, &k));
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(100000)}, 1, &out), GPUC_ERROR_LIMIT,
                         "JavaScript line 3, column 3");
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(60000)}, 1, &out));
    v = fixture_take_floats(out, 4);
    ck_assert_float_eq(v[0], 60000.0f);
    free(v);
    gpuc_kernel_free(k);
    /* A loop that must exceed it is refused at creation, at its JavaScript line. */
    const char *fixed = "function () {\n  let c = 0;\n  for (let i = 0; i < 70000; i++) { c += 1; }\n  return c;\n}\n";
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, fixed, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_LIMIT,
                         "JavaScript line 3, column 3");
}
END_TEST

START_TEST(kernel_kinds_with_guarded_loops)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return;
    /* A kernel map: the status word comes after every map output's binding. */
    const char *map = "float add(float a, float b) { return a + b; }\n"
                      "float f(int n) { float c = 0.0; for (int i = 0; i < n; i++) c = add(c, 1.0); return c; }\n";
    gpuc_kernel *k;
    gpuc_array *outs[2] = {NULL, NULL};
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, map, &(gpuc_kernel_desc){.output = {4}, .map = {{"sum", "add"}}}, &k));
    ck_assert_gpuc_ok(gpuc_run_map(k, (gpuc_arg[]){gpuc_arg_i32(50)}, 1, outs));
    float *v = fixture_take_floats(outs[0], 4), *m = fixture_take_floats(outs[1], 4);
    ck_assert_float_eq(v[3], 50.0f);
    ck_assert_float_eq(m[3], 50.0f);
    free(v);
    free(m);
    outs[0] = outs[1] = NULL;
    ck_assert_gpuc_fails(gpuc_run_map(k, (gpuc_arg[]){gpuc_arg_i32(90000)}, 1, outs), GPUC_ERROR_LIMIT, "line 2");
    ck_assert_ptr_null(outs[0]);
    gpuc_kernel_free(k);
    /* A graphical kernel. */
    const char *paint = "void p(int n) { float c = 0.0; for (int i = 0; i < n; i++) c += 0.001; color(c, 0.0, 0.0); }";
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, paint, &(gpuc_kernel_desc){.output = {4, 4}, .graphical = true}, &k));
    gpuc_array *picture = NULL;
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(80000)}, 1, &picture), GPUC_ERROR_LIMIT, "line 1");
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(500)}, 1, &picture));
    gpuc_array_free(picture);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(compile_errors_in_guarded_kernels_keep_the_users_column)
{
    /* The guard inserts text on loop lines; errors are still reported where the user wrote them. */
    const char *bad = "float f(int n) {\n float c = 0.0;\n for (int i = 0; i < n; i++) c += missing;\n return c;\n}\n";
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, bad, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_COMPILE,
                         "line 3, column 36");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "c += missing;"));
}
END_TEST

START_TEST(deep_loop_nests_are_refused)
{
    /* Mesa's compiler doubles its time with each level; past 12, gpuc refuses before compiling. */
    char src[4096] = "float f(int n) {\n float c = 0.0;\n";
    for (int d = 0; d < 13; d++)
        snprintf(src + strlen(src), sizeof src - strlen(src), " for (int i%d = 0; i%d < n; i%d++)\n", d, d, d);
    strcat(src, "  c += 1.0;\n return c;\n}\n");
    gpuc_kernel *k;
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_LIMIT,
                         "nest 13 deep");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "line 15"));
    /* Loops in helpers count where they are called. */
    const char *helpers = "float h1(int n) { float c = 0.0; for (int a = 0; a < n; a++) for (int b = 0; b < n; b++)"
                          " for (int d = 0; d < n; d++) for (int e = 0; e < n; e++) for (int g = 0; g < n; g++)"
                          " c += 1.0; return c; }\n"
                          "float h2(int n) { float c = 0.0; for (int a = 0; a < n; a++) for (int b = 0; b < n; b++)"
                          " for (int d = 0; d < n; d++) for (int e = 0; e < n; e++) c += h1(n); return c; }\n"
                          "float f(int n) { float c = 0.0; for (int a = 0; a < n; a++) for (int b = 0; b < n; b++)"
                          " for (int d = 0; d < n; d++) for (int e = 0; e < n; e++) c += h2(n); return c; }\n";
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, helpers, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_LIMIT,
                         "nest 13 deep");
}
END_TEST

START_TEST(loops_hidden_in_macros_are_refused)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return;
    const char *src = "#define REPEAT(n) for (int i = 0; i < n; i++)\n"
                      "float f(int n) { float c = 0.0; REPEAT(n) c += 1.0; return c; }\n";
    gpuc_kernel *k;
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_COMPILE,
                         "macro holds `for`");
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_int_eq(after.programs_compiled, before.programs_compiled); /* refused before compiling */
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "line 1"));
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "please report")); /* the user's construct, not gpuc's fault */
}
END_TEST

/* Bounded loops let one invocation compute several cells, as many as fit the budget together: at 6,000
 * iterations a cell, 8 (16 would be cut short, silently, as there is no guard to see it). */
START_TEST(several_cells_per_invocation_stay_under_the_budget)
{
    enum { N = 1 << 16, TRIPS = 6000 };
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float f() { float c = 0.0; for (int i = 0; i < 6000; i++) c += 1.0; "
                                         "return c + float(thread.x); }",
                                         &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float *out = malloc(N * sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, N));
    for (int i = 0; i < N; i++)
        if (out[i] != (float)(TRIPS + i))
            ck_abort_msg("cell %d: %g, expected %d", i, (double)out[i], TRIPS + i);
    free(out);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_loops(void)
{
    Suite *s = suite_create("loops");
    TCase *tc = fixture_tcase("loop budget");
    tcase_add_loop_test(tc, every_loop_is_right_or_refused, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, kernels_bounded_under_the_budget_pay_nothing);
    tcase_add_test(tc, run_to_leaves_a_cut_result_unusable);
    tcase_add_test(tc, pipeline_runs_fail_at_once);
    tcase_add_test(tc, javascript_kernels_name_their_own_lines);
    tcase_add_test(tc, kernel_kinds_with_guarded_loops);
    tcase_add_test(tc, compile_errors_in_guarded_kernels_keep_the_users_column);
    tcase_add_test(tc, deep_loop_nests_are_refused);
    tcase_add_test(tc, loops_hidden_in_macros_are_refused);
    tcase_add_test(tc, several_cells_per_invocation_stay_under_the_budget);
    suite_add_tcase(s, tc);
    return s;
}
