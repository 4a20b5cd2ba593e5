/* test_loop_proofs.c - a loop runs without its run-time guard only where gpuc proves its trip count:
 * every way of writing the counter in the body (assignments of any form, parentheses, continued
 * lines, macros, out/inout arguments of built-ins and helpers, preprocessor branches) leaves the loop
 * guarded, so that a loop made to run past llvmpipe's budget fails with GPUC_ERROR_LIMIT instead of
 * returning a cut answer; reads of the counter keep the loop unguarded; guard_all_loops (and
 * GPUC_GUARD_ALL_LOOPS) guards every loop without changing an answer. GLSL and JavaScript kernels. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The loop's counter runs 0..99; in the iteration where it is 99, while c is under n, `write` runs:
 * after that iteration's step the counter is `reset`, and the loop goes on (NO_WRITE: the statement
 * leaves the counter as it is). */
#define NO_WRITE (-100)

typedef struct write_case {
    const char *what;
    const char *before; /* helpers and macros before the kernel */
    const char *write;  /* one or more statements */
    int reset;
    bool uint_counter;
    const char *source; /* instead of the template: a whole kernel of the same loop */
} write_case;

static const write_case writes[] = {
    /* The five of the report. */
    {"parenthesised", "", "(i) = 0", 1, false, NULL},
    {"a continued line", "", "i \\\n= 0", 1, false, NULL},
    {"a macro that assigns", "#define AGAIN i = 0\n", "AGAIN", 1, false, NULL},
    {"a built-in's out parameter", "", "frexp(0.5, i)", 1, false, NULL},
    {"a helper named through a macro", "void rewind(inout int j) { j = 0; }\n#define R rewind\n", "R(i)", 1, false,
     NULL},
    /* Siblings of each. */
    {"doubly parenthesised, incremented", "", "((i))++; i = i - 100", 1, false, NULL},
    {"compound, an expression", "", "i += 0 * n - 99", 1, false, NULL},
    {"compound, a shift", "", "i >>= 7", 1, false, NULL},
    {"--i in a nested block", "", "{ for (int k = 0; k < 99; k++) { --i; } }", 1, false, NULL},
    {"postfix -- in an expression", "", "c += 0.0 * float(i-- - 98); i -= 98", 1, false, NULL},
    {"an assignment inside a condition", "", "if ((i = 0) == 1) c += 100.0", 1, false, NULL},
    {"a chained assignment", "", "int m; m = i = 0", 1, false, NULL},
    {"a comma expression", "", "c += 0.0, i = 0", 1, false, NULL},
    {"a continued name", "", "fr\\\nexp(0.5, i)", 1, false, NULL},
    {"a continuation inside a compound operator", "", "i -\\\n= 99", 1, false, NULL},
    {"an inout helper through a second helper",
     "void zero(inout int j) { j = 0; }\nvoid again(inout int j) { zero(j); }\n", "again(i)", 1, false, NULL},
    {"an out helper, overloaded", "float rewind(float f) { return f; }\nvoid rewind(out int j) { j = 0; }\n",
     "rewind(i)", 1, false, NULL},
    {"a helper's second argument", "void put(float v, inout int j) { j = int(v); }\n", "put(0.0, i)", 1, false, NULL},
    {"a parenthesised argument", "void zero(inout int j) { j = 0; }\n", "zero((i))", 1, false, NULL},
    {"imulExtended", "", "int m; imulExtended(0, 0, i, m)", 1, false, NULL},
    {"uaddCarry", "", "uaddCarry(0u, 0u, i)", 1, true, NULL},
    {"umulExtended", "", "uint m; umulExtended(0u, 0u, m, i)", 1, true, NULL},
    {"usubBorrow", "", "usubBorrow(1u, 0u, i)", 1, true, NULL},
    {"a function-like macro", "#define ZERO(v) v = 0\n", "ZERO(i)", 1, false, NULL},
    {"a write in a macro's argument", "#define ID(x) x\n", "ID(i = 0)", 1, false, NULL},
    {"a macro around the counter", "#define ID(x) (x)\n", "ID(i) = 0", 1, false, NULL},
    {"a macro that is an operator", "#define SET = 0\n", "i SET", 1, false, NULL},
    {"a macro with a value and an assignment", "#define BACK i = 0 * 100\n", "BACK", 1, false, NULL},
    {"#if 0 / #else around a write", "", "\n#if 0\nc += 1.0;\n#else\ni = 0;\n#endif\n", 1, false, NULL},
    {"#if 1 / #else: the kept branch writes", "", "\n#if 1\ni = 0;\n#else\nc += 1.0;\n#endif\n", 1, false, NULL},
    {"#ifndef around a write", "", "\n#ifndef GPUC_NEVER_DEFINED\ni = 0;\n#endif\n", 1, false, NULL},
    {"#ifdef between the counter and its assignment", "", "i\n#ifdef GPUC_NEVER_DEFINED\n+\n#endif\n= 0", 1,
     false, NULL},
    {"a swizzle of the scalar counter", "", "i.x = 0", 1, false, NULL},
    {"a carriage return ending a comment", "", "// a note\ri = 0", 1, false, NULL},
    {"a carriage return ending a directive", "", "#define GPUC_ONE 1\ri = 0", 1, false, NULL},
    {"the header's step, from a macro",
     "", NULL, 0, false,
     "#define NEXT i = (c < float(n) && i == 99) ? 0 : i + 1\nfloat count(int n) {\n float c = 0.0;\n"
     " for (int i = 0; i < 100; NEXT) c += 1.0;\n return c;\n}\n"},
    {"a second step after a comma", "", NULL, 0, false,
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; i < 100; i++, i = (c < float(n) && i == 100) ? 0 : i)\n"
     "  c += 1.0;\n return c;\n}\n"},
    {"a write in the condition", "", NULL, 0, false,
     "float count(int n) {\n float c = 0.0;\n for (int i = 0; ((c < float(n) && i == 100) ? (i = 0) == 0 : true) && i < 100; i++)\n"
     "  c += 1.0;\n return c;\n}\n"},
    /* Not writes: the loop is proven and exact. */
    {"a continuation inside a comment", "", "// the line goes on \\\ni = 0", NO_WRITE, false, NULL},
    {"#if 0 around a write", "", "\n#if 0\ni = 0;\n#endif\n", NO_WRITE, false, NULL},
};

static int simulate(int n, int reset, int *iterations)
{
    int c = 0, i = 0;
    while (i < 100) {
        c++;
        i = c < n && i == 99 && reset != NO_WRITE ? reset : i + 1;
    }
    *iterations = c + 1; /* the test that ends the loop is one more for llvmpipe */
    return c;
}

static char *write_source(const write_case *t)
{
    if (t->source)
        return strdup(t->source);
    size_t len = strlen(t->before) + strlen(t->write) + 256;
    char *s = malloc(len);
    ck_assert_ptr_nonnull(s);
    snprintf(s, len,
             "%sfloat count(int n) {\n float c = 0.0;\n for (%s i = %s; i < %s; i++) {\n  c += 1.0;\n"
             "  if (c < float(n) && i == %s) {\n%s;\n  }\n }\n return c;\n}\n",
             t->before, t->uint_counter ? "uint" : "int", t->uint_counter ? "0u" : "0", t->uint_counter ? "100u" : "100",
             t->uint_counter ? "99u" : "99", t->write);
    return s;
}

/* The kernel's answer for n: exact, or GPUC_ERROR_LIMIT where its iterations exceed the budget. */
static void check_count(gpuc_kernel *k, const char *what, int n, int reset)
{
    int iterations, expect = simulate(n, reset, &iterations);
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    gpuc_array *out = NULL;
    gpuc_status st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(n)}, 1, &out);
    if (budget > 0 && iterations > budget) {
        ck_assert_msg(st == GPUC_ERROR_LIMIT, "%s, n = %d: %s (%s), expected GPUC_ERROR_LIMIT", what, n,
                      gpuc_status_name(st), st == GPUC_OK ? "a cut answer" : gpuc_errmsg(gpu));
        ck_assert_ptr_null(out);
        return;
    }
    ck_assert_msg(st == GPUC_OK, "%s, n = %d: %s", what, n, gpuc_errmsg(gpu));
    float *v = fixture_take_floats(out, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(v[i] == (float)expect, "%s, n = %d: cell %d is %g, expected %d", what, n, i, v[i], expect);
    free(v);
}

START_TEST(every_counter_write_keeps_the_guard)
{
    const write_case *t = &writes[_i];
    char *src = write_source(t);
    gpuc_kernel *k = NULL;
    gpuc_status st = gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}}, &k);
    ck_assert_msg(st == GPUC_OK, "%s: %s\n%s", t->what, gpuc_errmsg(gpu), src);
    check_count(k, t->what, 1000, t->reset);
    check_count(k, t->what, 100000, t->reset);
    bool guarded = strstr(gpuc_kernel_glsl(k), "gpuc_loop_cut") != NULL;
    if (gpuc_get_info(gpu)->loop_budget > 0)
        ck_assert_msg(guarded == (t->reset != NO_WRITE), "%s: the loop is %s", t->what,
                      guarded ? "guarded" : "unguarded");
    gpuc_kernel_free(k);
    free(src);
}
END_TEST

/* Reads of the counter in every position the reader knows: the loop stays proven, unguarded. */
START_TEST(reads_of_the_counter_keep_the_proof)
{
    static const struct {
        const char *before, *body;
        float expect; /* c after the loop */
    } reads[] = {
        {"", "c += float(i)", 4950},
        {"", "c += float((i)) + float(-i) + float(i) * 2.0 - float(i)", 4950},
        {"", "c += i == 99 ? 1.0 : 0.0", 1},
        {"", "c += float(min(i, 3)) + float(abs(-i)) - float(i)", 3 * 97 + 3},
        {"", "c += vec2(i, 1).y + float(ivec2(i).x) - float(i)", 100},
        {"", "int m = i; m += 1; c += float(m)", 5050},
        {"", "int a[2] = int[2](i, 1); c += float(a[1] + (i & 1) + (i << 1) - 2 * i)", 150},
        {"float twice(in int j) { return 2.0 * float(j); }\nfloat same(const int j) { return float(j); }\n",
         "c += twice(i) - same(i)", 4950},
        {"struct S { int i; };\n", "S s = S(i); s.i = 0; c += float(s.i) + 1.0", 100},
        {"#define STEP 1\n#define HALF (50)\n", "c += i < HALF ? float(STEP) : 0.0", 50},
        {"", "c += float(i % 7) * 0.0 + float(bitCount(uint(i))) * 0.0 + (i != 3 ? 1.0 : 0.0)", 99},
    };
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    for (size_t r = 0; r < sizeof reads / sizeof reads[0]; r++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "%sfloat count(int n) {\n float c = 0.0;\n for (int i = 0; i < 100; i++) {\n  %s;\n }\n return c;\n}\n",
                 reads[r].before, reads[r].body);
        gpuc_kernel *k;
        gpuc_array *out;
        ck_assert_msg(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}}, &k) == GPUC_OK, "%s\n%s",
                      gpuc_errmsg(gpu), src);
        if (budget > 0)
            ck_assert_msg(!strstr(gpuc_kernel_glsl(k), "gpuc_loop_cut"), "guarded:\n%s", src);
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(1)}, 1, &out));
        float *v = fixture_take_floats(out, 4);
        ck_assert_msg(v[0] == reads[r].expect, "%g, expected %g:\n%s", v[0], reads[r].expect, src);
        free(v);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* A loop hidden in a macro, its header included, is refused (gpuc must see every loop to guard it). */
START_TEST(a_loop_header_from_a_macro_is_refused)
{
    gpuc_kernel *k;
    const char *header = "#define LOOP for (int i = 0; i < 100; i++)\n"
                         "float count(int n) {\n float c = 0.0;\n LOOP { c += 1.0; if (c < float(n) && i == 99) i = 0; }\n"
                         " return c;\n}\n";
    const char *parts = "#define HEAD int i = 0; i < 100; i++\n"
                        "float count(int n) {\n float c = 0.0;\n for (HEAD) { c += 1.0; if (c < float(n) && i == 99) i = 0; }\n"
                        " return c;\n}\n";
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return;
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, header, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_ERROR_COMPILE,
                         "macro");
    gpuc_status st = gpuc_create_kernel(gpu, parts, &(gpuc_kernel_desc){.output = {4}}, &k);
    ck_assert_msg(st == GPUC_ERROR_COMPILE || st == GPUC_OK, "%s", gpuc_errmsg(gpu));
    if (st == GPUC_OK) {
        check_count(k, "a header's parts from a macro", 100000, 1);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* JavaScript kernels: every write the front end accepts leaves the loop guarded, and the answer is
 * the one a context guarding every loop gives. */
START_TEST(javascript_counter_writes_keep_the_guard)
{
    static const char *const js_writes[] = {
        "i = 0;", "(i) = 0;", "i -= 99;", "i = i - 99;", "i--; i -= 98;", "--i; i = i - 98;", "i += -99;",
        "i *= 0;", "[i] = [0];", "i = 0, c += 0;",
        "// a carriage return ends the comment\ri = 0;", "// so does U+2028\xe2\x80\xa8i = 0;",
    };
    gpuc_options all = {.guard_all_loops = true};
    gpuc *guard_all;
    ck_assert_int_eq(gpuc_open(&guard_all, &all), GPUC_OK);
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    for (size_t w = 0; w < sizeof js_writes / sizeof js_writes[0]; w++) {
        char src[512];
        snprintf(src, sizeof src,
                 "function (n) {\n  let c = 0;\n  for (let i = 0; i < 100; i++) {\n    c += 1;\n"
                 "    if (c < n && i == 99) { %s\n    }\n  }\n  return c;\n}\n", js_writes[w]);
        gpuc_kernel_desc desc = {.output = {4}, .arg_types = "float", .loop_max_iterations = 200000};
        gpuc_kernel *k, *g;
        gpuc_status st = gpuc_create_kernel_js(gpu, src, &desc, &k);
        if (st == GPUC_ERROR_COMPILE && js_writes[w][0] == '[') /* destructuring, which the front end refuses */
            continue;
        ck_assert_msg(st == GPUC_OK, "%s: %s", js_writes[w], gpuc_errmsg(gpu));
        ck_assert_msg(gpuc_create_kernel_js(guard_all, src, &desc, &g) == GPUC_OK, "%s", gpuc_errmsg(guard_all));
        if (budget > 0)
            ck_assert_msg(strstr(gpuc_kernel_glsl(k), "gpuc_loop_cut"), "%s: unguarded\n%s", js_writes[w],
                          gpuc_kernel_glsl(k));
        for (int n = 1000; n <= 100000; n *= 100) {
            gpuc_array *out = NULL, *ref = NULL;
            gpuc_status a = gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32((float)n)}, 1, &out);
            gpuc_status b = gpuc_run(g, (gpuc_arg[]){gpuc_arg_f32((float)n)}, 1, &ref);
            ck_assert_msg(a == b, "%s, n = %d: %s here, %s guarding every loop", js_writes[w], n, gpuc_status_name(a),
                          gpuc_status_name(b));
            if (a == GPUC_OK) {
                float *x = fixture_take_floats(out, 4), *y = fixture_take_floats(ref, 4);
                int iterations, expect = simulate(n, 1, &iterations); /* every form sets i to 0 */
                ck_assert_msg(x[0] == y[0], "%s, n = %d: %g, %g guarding every loop", js_writes[w], n, x[0], y[0]);
                ck_assert_msg(x[0] == (float)expect, "%s, n = %d: %g, JavaScript gives %d", js_writes[w], n, x[0],
                              expect);
                free(x);
                free(y);
            } else {
                ck_assert_int_eq(a, GPUC_ERROR_LIMIT);
            }
        }
        gpuc_kernel_free(g);
        gpuc_kernel_free(k);
    }
    gpuc_close(guard_all);
}
END_TEST

/* guard_all_loops guards a proven loop and runs, rather than refuses, one that must exceed the budget;
 * GPUC_GUARD_ALL_LOOPS=1 does the same. */
START_TEST(guard_all_loops_guards_proven_loops)
{
    const char *proven = "float f(int n) { float c = 0.0; for (int i = 0; i < 100; i++) c += 1.0; return c; }";
    const char *too_long = "float f(int n) { float c = 0.0; for (int i = 0; i < 100000; i++) c += 1.0; return c; }";
    for (int mode = 0; mode < 3; mode++) {
        gpuc_options opts = {.guard_all_loops = mode == 1};
        if (mode == 2)
            setenv("GPUC_GUARD_ALL_LOOPS", "1", 1);
        gpuc *g;
        ck_assert_int_eq(gpuc_open(&g, &opts), GPUC_OK);
        unsetenv("GPUC_GUARD_ALL_LOOPS");
        bool all = mode > 0, budget = gpuc_get_info(g)->loop_budget > 0;
        gpuc_kernel *k;
        gpuc_array *out;
        ck_assert_int_eq(gpuc_create_kernel(g, proven, &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_OK);
        ck_assert_int_eq(strstr(gpuc_kernel_glsl(k), "gpuc_loop_cut") != NULL, all && budget);
        ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(0)}, 1, &out), GPUC_OK);
        float *v = fixture_take_floats(out, 4);
        ck_assert_float_eq(v[3], 100.0f);
        free(v);
        gpuc_kernel_free(k);
        gpuc_status st = gpuc_create_kernel(g, too_long, &(gpuc_kernel_desc){.output = {4}}, &k);
        if (budget && !all) {
            ck_assert_int_eq(st, GPUC_ERROR_LIMIT);
        } else {
            ck_assert_int_eq(st, GPUC_OK);
            st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(0)}, 1, &out);
            ck_assert_int_eq(st, budget ? GPUC_ERROR_LIMIT : GPUC_OK);
            if (st == GPUC_OK)
                gpuc_array_free(out);
            gpuc_kernel_free(k);
        }
        gpuc_close(g);
    }
}
END_TEST

Suite *suite_loop_proofs(void)
{
    Suite *s = suite_create("loop_proofs");
    TCase *tc = fixture_tcase("loop_proofs");
    tcase_add_loop_test(tc, every_counter_write_keeps_the_guard, 0, (int)(sizeof writes / sizeof writes[0]));
    tcase_add_test(tc, reads_of_the_counter_keep_the_proof);
    tcase_add_test(tc, a_loop_header_from_a_macro_is_refused);
    tcase_add_test(tc, javascript_counter_writes_keep_the_guard);
    tcase_add_test(tc, guard_all_loops_guards_proven_loops);
    suite_add_tcase(s, tc);
    return s;
}
