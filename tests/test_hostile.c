/* test_hostile.c - inputs written to break gpuc: sizes whose products overflow, constants beyond float
 * range, sources nested far deeper than any kernel needs, writes to read-only arrays, preprocessor
 * tricks and JavaScript's legacy number forms. Each must give the right answer or a clear error, never
 * a crash or a silently wrong result. */
#include "fixture.h"
#include "suites.h"

#include <float.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gpuc_status create(const char *src, gpuc_kernel_desc desc, bool js)
{
    gpuc_kernel *k = NULL;
    gpuc_status st = js ? gpuc_create_kernel_js(gpu, src, &desc, &k) : gpuc_create_kernel(gpu, src, &desc, &k);
    if (st != GPUC_OK)
        ck_assert_ptr_null(k);
    gpuc_kernel_free(k);
    return st;
}

/* Creates and runs a kernel without arguments, returning its first output value. */
static float run_first(const char *src, gpuc_kernel_desc desc, bool js)
{
    gpuc_kernel *k;
    if (js)
        ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, src, &desc, &k));
    else
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &desc, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    size_t n = gpuc_array_values(r);
    float *v = fixture_take_floats(r, n);
    float first = v[0];
    free(v);
    gpuc_kernel_free(k);
    return first;
}

/* ---- sizes ---------------------------------------------------------------------------------- */

START_TEST(size_products_that_overflow_are_refused)
{
    /* 2^31 * 2^31 * 4 = 2^64 wrapped to 0 cells (and the fragment backend divided by it). */
    const gpuc_dims wraps[] = {
        {1u << 31, 1u << 31, 4}, {UINT32_MAX, UINT32_MAX, UINT32_MAX}, {1u << 16, 1u << 16, 1u << 16}};
    for (size_t i = 0; i < sizeof wraps / sizeof wraps[0]; i++) {
        gpuc_dims d = wraps[i];
        char sizes[64];
        snprintf(sizes, sizeof sizes, "{%u, %u, %u}", d.x, d.y, d.z);
        ck_assert_gpuc_fails(create("float k() { return 1.0; }", (gpuc_kernel_desc){.output = d}, false),
                             GPUC_ERROR_LIMIT, sizes);
        ck_assert_gpuc_fails(create("function () { return this.output.x * this.output.y; }",
                                    (gpuc_kernel_desc){.output = d}, true),
                             GPUC_ERROR_LIMIT, sizes);
        ck_assert_msg(!strstr(gpuc_errmsg(gpu), "GLSL"), "a size error blamed on GLSL: %s", gpuc_errmsg(gpu));
        gpuc_array *a = NULL;
        ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, d, &a), GPUC_ERROR_LIMIT, sizes);
        ck_assert_ptr_null(a);
        ck_assert_gpuc_fails(gpuc_array_from_f32(gpu, (float[1]){0}, d, &a), GPUC_ERROR_LIMIT, sizes);
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float k(float a[]) { return a[thread.x]; }",
                                             &(gpuc_kernel_desc){.output = {4}}, &k));
        gpuc_array *r = NULL;
        ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32((float[4]){0}, d)}, 1, &r), GPUC_ERROR_LIMIT,
                             sizes);
        ck_assert_ptr_null(r);
        gpuc_kernel_free(k);
    }
    if (!fixture_fragment_backend()) {
        gpuc_kernel_desc scatter = {.output = {16}, .threads = {1u << 31, 1u << 31, 4}, .scatter = true};
        ck_assert_gpuc_fails(create("float k() { return 1.0; }", scatter, false), GPUC_ERROR_LIMIT,
                             "{2147483648, 2147483648, 4}");
    }
    /* Strided indices i * threads + x are GLSL ints: a product past 2^31 - 1 would wrap and count zeros. */
    float v[4] = {-1, -2, -3, -4};
    double cutoff;
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(v, (gpuc_dims){4}),
                                          &(gpuc_topk_cutoff_desc){.k = 2, .threads = 40000, .chunk = 60000}, &cutoff,
                                          NULL),
                         GPUC_ERROR_LIMIT, "40000 * 60000");
    /* The context still works. */
    ck_assert_float_eq(run_first("float k() { return 2.0; }", (gpuc_kernel_desc){.output = {3}}, false), 2.0f);
}
END_TEST

/* ---- constants ------------------------------------------------------------------------------ */

START_TEST(float_constants_beyond_float_range_are_refused)
{
    const double too_big[] = {1e300, -1e39, 3.5e38};
    for (size_t i = 0; i < sizeof too_big / sizeof too_big[0]; i++) {
        gpuc_kernel_desc d = {.output = {1}, .constants = {{"big", too_big[i]}}};
        ck_assert_gpuc_fails(create("float k() { return constants.big; }", d, false), GPUC_ERROR_INVALID_ARGUMENT,
                             "constant \"big\"");
        ck_assert_msg(strstr(gpuc_errmsg(gpu), "float range"), "%s", gpuc_errmsg(gpu));
        ck_assert_gpuc_fails(create("function () { return this.constants.big; }", d, true),
                             GPUC_ERROR_INVALID_ARGUMENT, "constant \"big\"");
        d.constants[0].type = GPUC_FLOAT;
        ck_assert_gpuc_fails(create("float k() { return constants.big; }", d, false), GPUC_ERROR_INVALID_ARGUMENT,
                             "float range");
    }
    /* A whole number beyond int32 forced to int is refused too; the largest float still works. */
    ck_assert_gpuc_fails(create("float k() { return float(constants.n); }",
                                (gpuc_kernel_desc){.output = {1}, .constants = {{"n", 4294967296.0, GPUC_INT}}}, false),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a 32-bit integer");
    gpuc_kernel_desc max = {.output = {1}, .constants = {{"big", FLT_MAX}}};
    ck_assert_float_eq(run_first("float k() { return constants.big; }", max, false), FLT_MAX);
    ck_assert_float_eq(run_first("function () { return this.constants.big; }", max, true), FLT_MAX);
}
END_TEST

/* ---- JavaScript numbers --------------------------------------------------------------------- */

START_TEST(js_legacy_octal_literals_read_as_javascript_does)
{
    /* Non-strict JavaScript: 0 followed by octal digits is octal; with an 8 or 9 it is decimal. */
    static const struct { const char *literal; float value; } cases[] = {
        {"017", 15}, {"0777", 511}, {"00", 0}, {"019", 19}, {"08", 8}, {"08.5", 8.5f}, {"019e1", 190}, {"0.5", 0.5f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[96];
        snprintf(src, sizeof src, "function () { return %s; }", cases[i].literal);
        float got = run_first(src, (gpuc_kernel_desc){.output = {1}}, true);
        ck_assert_msg(got == cases[i].value, "%s read as %g, JavaScript reads %g", cases[i].literal, got,
                      cases[i].value);
    }
    /* An octal literal takes no fraction or exponent: JavaScript refuses these. */
    ck_assert_gpuc_fails(create("function () { return 017.5; }", (gpuc_kernel_desc){.output = {1}}, true),
                         GPUC_ERROR_COMPILE, "1:");
    ck_assert_gpuc_fails(create("function () { return 017e1; }", (gpuc_kernel_desc){.output = {1}}, true),
                         GPUC_ERROR_COMPILE, "017e1");
}
END_TEST

/* ---- writes to read-only arrays ------------------------------------------------------------- */

START_TEST(writes_to_array_parameters_are_refused)
{
    static const struct { const char *src, *where; } writes[] = {
        {"float k(float a[]) {\n    a[thread.x] = 5.0;\n    return a[thread.x];\n}", "line 2, column 5"},
        {"float k(float a[]) { a[thread.x] += 1.0; return 0.0; }", "column 22"},
        {"float k(float a[]) { a[thread.x]++; return 0.0; }", "column 22"},
        {"float k(float a[]) { ++a[thread.x]; return 0.0; }", "column 24"},
        {"float k(float a[]) { float x = 0.0; x = --a [ thread.x ]; return x; }", "column 43"},
        {"float k(float m[][]) { m[thread.y][thread.x] = 1.0; return 0.0; }", "column 24"},
        {"float k(float m[][]) { m[0]\n[1] *= 2.0; return 0.0; }", "line 1, column 24"},
        {"float k(vec4 v[]) { v[thread.x].xy = vec2(1.0); return 0.0; }", "column 21"},
        {"int k(int a[]) { a[0] <<= 1; return 0; }", "column 18"},
        /* an out or inout argument writes too */
        {"void f(inout float v) { v = 1.0; }\nfloat k(float a[]) { f(a[0]); return a[0]; }", "line 2, column 24"},
        {"void f(float x, out float v) { v = x; }\nfloat k(float a[]) { f(1.0, a[thread.x]); return 0.0; }",
         "line 2, column 29"},
        {"float k(float a[]) { float w; return modf(1.5, a[0]) + w; }", "column 48"},
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        ck_assert_gpuc_fails(create(writes[i].src, (gpuc_kernel_desc){.output = {4}}, false), GPUC_ERROR_COMPILE,
                             "array parameter `");
        ck_assert_msg(strstr(gpuc_errmsg(gpu), writes[i].where) && strstr(gpuc_errmsg(gpu), "read-only"),
                      "%s: message \"%s\" lacks \"%s\"", writes[i].src, gpuc_errmsg(gpu), writes[i].where);
    }
    /* Reads that look like writes are not. */
    float a[4] = {1, 2, 3, 4};
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float k(float a[]) {\n"
                                         "    float b[4]; int x = 0;\n"
                                         "    b[int(a[0])] = 1.0;                   // a local array is writable\n"
                                         "    bool same = a[0] == 1.0, le = a[1] <= 2.0, ge = a[2] >= a[1];\n"
                                         "    float s = x+++a[thread.x];            // x++ + a[...]\n"
                                         "    float w = modf(a[0], b[2]) + max(a[0], a[1]);\n"
                                         "    return same && le && ge && a[3] != 0.0 ? s + b[1] : -1.0;\n"
                                         "}",
                                         &(gpuc_kernel_desc){.output = {4}}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){4})}, 1, &r));
    float *v = fixture_take_floats(r, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(v[i], a[i] + 1.0f);
    free(v);
    gpuc_kernel_free(k);
}
END_TEST

/* ---- the preprocessor ----------------------------------------------------------------------- */

START_TEST(preprocessor_conditionals_around_functions)
{
    gpuc_kernel_desc d = {.output = {2}};
    /* Dropped branches are dropped: the kernel is k, not the function after it in #if 0. */
    ck_assert_float_eq(run_first("float k() { return 1.0; }\n#if 0\nfloat other() { return 2.0; }\n#endif\n", d,
                                 false), 1.0f);
    ck_assert_float_eq(run_first("float k() { return 1.0; }\n#if 1\n#else\nfloat other() { return 2.0; }\n#endif\n",
                                 d, false), 1.0f);
    ck_assert_float_eq(run_first("#if 0\nfloat k() { return 1.0; }\n#elif 1\nfloat k() { return 3.0; }\n"
                                 "#else\nfloat k() { return 4.0; }\n#endif\n", d, false), 3.0f);
    /* Nested, with a directive inside a comment (which is no directive) and a dropped loop. */
    ck_assert_float_eq(run_first("#define N 4\n"
                                 "float k() {\n"
                                 "    float s = 0.0;\n"
                                 "    for (int i = 0; i < N; i++) s += 1.0;\n"
                                 "#if 0\n"
                                 "  #ifdef ANYTHING\n"
                                 "    /*\n#endif\n */ for (int i = 0; i < 100000000; i++) s += 1.0;\n"
                                 "  #endif\n"
                                 "#endif\n"
                                 "    return s;\n"
                                 "}\n", d, false), 4.0f);
    /* A conditional gpuc cannot evaluate may guard statements and #defines, not functions. */
    ck_assert_float_eq(run_first("#ifndef N\n#define N 5.0\n#endif\n"
                                 "float k() {\n#ifdef GL_ES\n    return 0.0;\n#else\n    return N;\n#endif\n}\n", d,
                                 false), 5.0f);
    const char *guarded[] = {
        "float k() { return 1.0; }\n#ifdef GL_ES\nfloat other() { return 2.0; }\n#endif\n",
        "#if __VERSION__ > 400\nfloat k() { return 1.0; }\n#else\nfloat k() { return 2.0; }\n#endif\n",
        "float h() { return 1.0; }\n#if 0\n#elif defined(X)\nfloat k() { return h(); }\n#endif\n",
    };
    for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++) {
        ck_assert_gpuc_fails(create(guarded[i], d, false), GPUC_ERROR_COMPILE, "preprocessor conditional");
        ck_assert_msg(strstr(gpuc_errmsg(gpu), "#if") != NULL, "%s", gpuc_errmsg(gpu));
    }
    ck_assert_gpuc_fails(create(guarded[0], d, false), GPUC_ERROR_COMPILE, "line 3: a function");
    ck_assert_gpuc_fails(create(guarded[0], d, false), GPUC_ERROR_COMPILE, "`#ifdef GL_ES` (line 2)");
}
END_TEST

/* ---- errors in gpuc's own code -------------------------------------------------------------- */

/* Asserts the current message blames gpuc's generated code and quotes `quoted` from it. */
static void assert_generated_error(const char *part, const char *quoted)
{
    const char *msg = gpuc_errmsg(gpu);
    ck_assert_msg(strstr(msg, "in gpuc's generated code") && strstr(msg, part), "message: %s", msg);
    const char *quote = strstr(msg, "  gpuc | ");
    ck_assert_msg(quote && strstr(quote, quoted), "message \"%s\" does not quote \"%s\"", msg, quoted);
    ck_assert_msg(!strstr(msg, "GLSL error at line"), "reported as a line of the user's source: %s", msg);
}

START_TEST(errors_in_generated_code_are_reported_as_such)
{
    gpuc_kernel_desc d = {.output = {4}};
    /* A #define leaks into the main() gpuc writes after the kernel. */
    ck_assert_gpuc_fails(create("#define result 3\nfloat k() { return 1.0; }", d, false), GPUC_ERROR_COMPILE,
                         "kernel 'k'");
    assert_generated_error("main()", "result = k();");
    /* A constant named with a word GLSL reserves breaks gpuc's declarations. */
    d.constants[0] = (gpuc_constant){"input", 1};
    ck_assert_gpuc_fails(create("float k() { return 1.0; }", d, false), GPUC_ERROR_COMPILE, "kernel 'k'");
    assert_generated_error("declarations", "input");
    /* Mesa reports this one with the user's source-string number: the line alone tells them apart. */
    if (!fixture_fragment_backend()) {
        ck_assert_gpuc_fails(create("float cell() { return 1.0; }", (gpuc_kernel_desc){.output = {4}}, false),
                             GPUC_ERROR_COMPILE, "kernel 'cell'");
        assert_generated_error("main()", "cell()");
    }
    /* The user's own errors still quote the user's line. */
    ck_assert_gpuc_fails(create("float k() {\n    return 1.0 +;\n}", (gpuc_kernel_desc){.output = {4}}, false),
                         GPUC_ERROR_COMPILE, "GLSL error at line 2");
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "return 1.0 +;") && !strstr(gpuc_errmsg(gpu), "generated"), "%s",
                  gpuc_errmsg(gpu));
}
END_TEST

/* ---- nesting -------------------------------------------------------------------------------- */

/* pre + n copies of open + mid + n copies of close + post, in a new string (caller frees). */
static char *nest(const char *pre, const char *open, int n, const char *mid, const char *close, const char *post)
{
    size_t lo = strlen(open), lc = strlen(close);
    char *s = malloc(strlen(pre) + (size_t)n * (lo + lc) + strlen(mid) + strlen(post) + 1), *p = s;
    ck_assert_ptr_nonnull(s);
    p = stpcpy(p, pre);
    for (int i = 0; i < n; i++)
        p = stpcpy(p, open);
    p = stpcpy(p, mid);
    for (int i = 0; i < n; i++)
        p = stpcpy(p, close);
    strcpy(p, post);
    return s;
}

typedef struct nesting_case {
    char *src;
    bool js;
    float want;        /* the expected first output cell, when it must compile */
    gpuc_status st;    /* what creation returned, filled by the thread */
    float got;
    char msg[1024];
} nesting_case;

typedef struct nesting_job {
    nesting_case *cases;
    int n;
    char open_error[1024];
} nesting_job;

/* Runs every case on its own thread's context: assertions stay on the test's thread. */
static void *run_nesting_cases(void *arg)
{
    nesting_job *job = arg;
    gpuc *ctx;
    if (gpuc_open(&ctx, NULL) != GPUC_OK) {
        snprintf(job->open_error, sizeof job->open_error, "%s", gpuc_errmsg(ctx));
        gpuc_close(ctx);
        return NULL;
    }
    float zeros[4] = {0};
    for (int i = 0; i < job->n; i++) {
        nesting_case *c = &job->cases[i];
        gpuc_kernel_desc d = {.output = {1}};
        gpuc_kernel *k = NULL;
        c->st = c->js ? gpuc_create_kernel_js(ctx, c->src, &d, &k) : gpuc_create_kernel(ctx, c->src, &d, &k);
        snprintf(c->msg, sizeof c->msg, "%s", c->st == GPUC_OK ? "" : gpuc_errmsg(ctx));
        gpuc_array *r = NULL;
        if (c->st == GPUC_OK)
            c->st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(zeros, (gpuc_dims){4})}, gpuc_kernel_arg_count(k), &r);
        if (c->st == GPUC_OK)
            c->st = gpuc_array_read_f32(r, &c->got, 1);
        if (c->st != GPUC_OK && !c->msg[0])
            snprintf(c->msg, sizeof c->msg, "%s", gpuc_errmsg(ctx));
        gpuc_array_free(r);
        gpuc_kernel_free(k);
    }
    gpuc_close(ctx);
    return NULL;
}

/* A thread's stack of 2 MiB, a quarter of the usual default, so nothing here leans on a big stack (the
 * parser needs under 1 MiB at the limit even under AddressSanitizer, whose frames are larger). */
#define NESTING_STACK (2u << 20)

static void run_on_small_stack(nesting_case *cases, int n)
{
    nesting_job job = {cases, n, ""};
    pthread_attr_t attr;
    pthread_t thread;
    ck_assert_int_eq(pthread_attr_init(&attr), 0);
    ck_assert_int_eq(pthread_attr_setstacksize(&attr, NESTING_STACK), 0);
    ck_assert_int_eq(pthread_create(&thread, &attr, run_nesting_cases, &job), 0);
    ck_assert_int_eq(pthread_join(thread, NULL), 0);
    pthread_attr_destroy(&attr);
    ck_assert_msg(!job.open_error[0], "gpuc_open on the thread: %s", job.open_error);
}

#define DEEP 100000

START_TEST(sources_nested_100000_deep_are_refused)
{
    nesting_case cases[] = {
        /* GLSL */
        {nest("float k() { float x = 0.0; for (int i = 0; i < ", "(", DEEP, "4", ")",
              "; i++) x += 1.0; return x; }"), false},
        {nest("float k() { float x = 0.0; for (int i = 0; i < 4; i++) { ", "if (x >= 0.0) { ", DEEP, "x += 1.0;", "}",
              " } return x; }"), false},
        {nest("float k() { float x = 0.0; ", "for (int i = 0; i < 2; i++) ", DEEP, "x += 1.0;", "", " return x; }"),
         false},
        {nest("float k() { float x = 0.0; for (int i = 0; i < 4; i++) x += ", "- ", DEEP, "1.0", "", "; return x; }"),
         false},
        {nest("float k(float a[]) { return ", "a[int(", DEEP, "0", ")]", "; }"), false},
        {nest("float k() { float x = 0.0; ", "x = ", DEEP, "1.0", "", "; return x; }"), false},
        {nest("float k() { return ", "true ? ", DEEP, "1.0", " : 0.0", "; }"), false},
        {nest("float k() { float x = 0.0; ", "if (x < 0.0) x = 1.0; else ", DEEP, "x = 2.0;", "", " return x; }"),
         false},
        {nest("float k() { float x = 0.0; ", "{ ", DEEP, "x = 1.0;", " }", " return x; }"), false},
        /* JavaScript */
        {nest("function k() { let x = 0; for (let i = 0; i < ", "(", DEEP, "4", ")", "; i++) x += 1; return x; }"),
         true},
        {nest("function k() { let x = 0; ", "if (x >= 0) { ", DEEP, "x += 1;", "}", " return x; }"), true},
        {nest("function k() { let x = 0; ", "for (let i = 0; i < 2; i++) ", DEEP, "x += 1;", "", " return x; }"), true},
        {nest("function k() { return ", "- ", DEEP, "1", "", "; }"), true},
        {nest("function k(a) { return ", "a[", DEEP, "0", "]", "; }"), true},
        {nest("function k() { let x = 0; ", "x = ", DEEP, "1", "", "; return x; }"), true},
        {nest("function k() { return ", "true ? ", DEEP, "1", " : 0", "; }"), true},
        {nest("function k() { let x = 0; ", "if (x < 0) x = 1; else ", DEEP, "x = 2;", "", " return x; }"), true},
        {nest("function k() { let x = 0; ", "{ ", DEEP, "x = 1;", " }", " return x; }"), true},
        {nest("function k() { return 2", " ** 1", DEEP, "", "", "; }"), true},
        {nest("function k() { return ", "(function () { return ", DEEP, "1", "; })()", "; }"), true},
    };
    int n = (int)(sizeof cases / sizeof cases[0]);
    run_on_small_stack(cases, n);
    /* A native function joins the GLSL of JavaScript kernels: it is checked when added. */
    char *native = nest("float deep(float x) { return ", "(", DEEP, "x", ")", "; }");
    ck_assert_gpuc_fails(gpuc_add_native_function(gpu, native), GPUC_ERROR_COMPILE, "nested more than 256");
    free(native);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(cases[i].st == GPUC_ERROR_COMPILE && strstr(cases[i].msg, "nested more than 256 levels deep"),
                      "case %d (%.60s...): %s: %s", i, cases[i].src, gpuc_status_name(cases[i].st), cases[i].msg);
        ck_assert_msg(strstr(cases[i].msg, cases[i].js ? "1:" : "line 1, column "), "case %d: %s", i, cases[i].msg);
        free(cases[i].src);
    }
}
END_TEST

START_TEST(sources_nested_within_the_limit_work)
{
    const int deep = 200;
    nesting_case cases[] = {
        {nest("float k() { return ", "(", deep, "1.0", ")", "; }"), false, 1},
        {nest("float k() { float x = 0.0; ", "if (x >= 0.0) { ", deep, "x += 1.0;", "}", " return x; }"), false, 1},
        {nest("float k() { return ", "- ", deep, "3.0", "", "; }"), false, 3},
        {nest("float k() { float x = 5.0; ", "if (x < 0.0) x = 1.0; else ", deep, "x = 2.0;", "", " return x; }"),
         false, 2},
        {nest("float k(float a[]) { return 1.0 + ", "a[int(", deep / 2, "0", ")]", "; }"), false, 1},
        {nest("function k() { return ", "(", deep, "1", ")", "; }"), true, 1},
        {nest("function k() { let x = 0; ", "if (x >= 0) { ", deep, "x += 1;", "}", " return x; }"), true, 1},
        {nest("function k() { return ", "- ", deep, "3", "", "; }"), true, 3},
        {nest("function k() { let x = 5; ", "if (x < 0) x = 1; else ", deep, "x = 2;", "", " return x; }"), true, 2},
        {nest("function k(a) { return 1 + ", "a[", deep / 2, "0", "]", "; }"), true, 1},
        {NULL, true, 1}, /* filled in below */
    };
    const int n_cases = (int)(sizeof cases / sizeof cases[0]);
    /* The deepest statements around the longest expression chain the JavaScript front end takes. */
    char *chain = nest("", "1 + ", 299, "1", "", " - 299");
    char *mid = malloc(strlen(chain) + 16);
    ck_assert_ptr_nonnull(mid);
    sprintf(mid, "x = %s;", chain);
    cases[n_cases - 1].src = nest("function k() { let x = 0; ", "if (x >= 0) { ", deep, mid, "}", " return x; }");
    free(mid);
    free(chain);
    int n = n_cases;
    run_on_small_stack(cases, n);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(cases[i].st == GPUC_OK, "case %d (%.60s...): %s: %s", i, cases[i].src,
                      gpuc_status_name(cases[i].st), cases[i].msg);
        ck_assert_msg(cases[i].got == cases[i].want, "case %d: %g, expected %g", i, cases[i].got, cases[i].want);
        free(cases[i].src);
    }
}
END_TEST

/* count helpers, each nested `depth` ifs deep around a call of the next; the kernel calls the first. */
static char *helper_chain(int count, int depth)
{
    size_t cap = (size_t)count * ((size_t)depth * 32 + 128) + 64, used = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < count; i++) {
        char call[64];
        if (i + 1 < count)
            snprintf(call, sizeof call, "x += f%d(x);", i + 1);
        else
            snprintf(call, sizeof call, "x += 1;");
        char head[64];
        snprintf(head, sizeof head, "function f%d(y) { let x = y; ", i);
        char *body = nest(head, "if (x >= 0) { ", depth, call, "}", " return x; }\n");
        used += (size_t)sprintf(s + used, "%s", body);
        free(body);
    }
    sprintf(s + used, "function k() { return f0(1); }");
    return s;
}

START_TEST(helpers_nested_inside_one_another_are_bounded_in_all)
{
    /* The checker follows calls: each helper's nesting adds to its caller's. */
    nesting_case cases[] = {
        {helper_chain(60, 240), true},
        {helper_chain(8, 40), true, 9}, /* what real kernels do works: f0(1) = 1 + 1 + ... + f7(1) = 9 */
    };
    run_on_small_stack(cases, 2);
    ck_assert_msg(cases[0].st == GPUC_ERROR_COMPILE && strstr(cases[0].msg, "helpers it calls inside one another"),
                  "%s: %s", gpuc_status_name(cases[0].st), cases[0].msg);
    ck_assert_msg(cases[1].st == GPUC_OK && cases[1].got == cases[1].want, "%s: %s (%g)",
                  gpuc_status_name(cases[1].st), cases[1].msg, cases[1].got);
    free(cases[0].src);
    free(cases[1].src);
}
END_TEST

/* The documented count, exactly, and the same in both front ends: at GPUC_MAX_NESTING a kernel is
 * accepted, one level more is refused. */
START_TEST(the_nesting_limit_is_exact_and_shared)
{
    /* pre, open (repeated), mid, close (repeated), post; and how many opens reach the limit */
    static const struct { const char *glsl[5], *js[5]; int at_limit; } shapes[] = {
        /* the kernel's body is level 1, each `(` one more */
        {{"float k() { return ", "(", "1.0", ")", "; }"}, {"function k() { return ", "(", "1", ")", "; }"},
         GPUC_MAX_NESTING - 1},
        /* each braced if one level; the assignment's right operand one more */
        {{"float k() { float x = 0.0; ", "if (x >= 0.0) { ", "x += 1.0;", "}", " return x; }"},
         {"function k() { let x = 0; ", "if (x >= 0) { ", "x += 1;", "}", " return x; }"}, GPUC_MAX_NESTING - 2},
        /* each else-if one level */
        {{"float k() { float x = 0.0; ", "if (x < 0.0) x = 1.0; else ", "x = 2.0;", "", " return x; }"},
         {"function k() { let x = 0; ", "if (x < 0) x = 1; else ", "x = 2;", "", " return x; }"},
         GPUC_MAX_NESTING - 2},
        /* each prefix operator one level */
        {{"float k() { return ", "- ", "1.0", "", "; }"}, {"function k() { return ", "- ", "1", "", "; }"},
         GPUC_MAX_NESTING - 1},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (int js = 0; js < 2; js++) {
            const char *const *t = js ? shapes[i].js : shapes[i].glsl;
            for (int extra = 0; extra < 2; extra++) {
                int n = shapes[i].at_limit + extra;
                char *src = nest(t[0], t[1], n, t[2], t[3], t[4]);
                gpuc_status st = create(src, (gpuc_kernel_desc){.output = {1}}, js);
                free(src);
                if (extra == 0)
                    ck_assert_msg(st == GPUC_OK, "%s shape %zu with %d: %s", js ? "JS" : "GLSL", i, n,
                                  gpuc_errmsg(gpu));
                else
                    ck_assert_msg(st == GPUC_ERROR_COMPILE && strstr(gpuc_errmsg(gpu), "nested more than 256"),
                                  "%s shape %zu with %d: %s", js ? "JS" : "GLSL", i, n, gpuc_errmsg(gpu));
            }
        }
    }
}
END_TEST

Suite *suite_hostile(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = fixture_tcase("hostile");
    tcase_add_test(tc, size_products_that_overflow_are_refused);
    tcase_add_test(tc, float_constants_beyond_float_range_are_refused);
    tcase_add_test(tc, js_legacy_octal_literals_read_as_javascript_does);
    tcase_add_test(tc, writes_to_array_parameters_are_refused);
    tcase_add_test(tc, preprocessor_conditionals_around_functions);
    tcase_add_test(tc, errors_in_generated_code_are_reported_as_such);
    tcase_add_test(tc, sources_nested_100000_deep_are_refused);
    tcase_add_test(tc, sources_nested_within_the_limit_work);
    tcase_add_test(tc, the_nesting_limit_is_exact_and_shared);
    tcase_add_test(tc, helpers_nested_inside_one_another_are_bounded_in_all);
    suite_add_tcase(s, tc);
    return s;
}
