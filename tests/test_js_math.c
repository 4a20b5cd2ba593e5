/* test_js_math.c - every Math function of the JavaScript front end at its edges (±0, ±Infinity, NaN,
 * denormals, huge and trigonometric arguments), one test per function, against node's double answer
 * rounded to float32 (tests/fixtures/math-edges.txt, recorded by scripts/record-math-edges.js, which
 * also records GPU.js 2.24.1 webasm's answers: they agree except where noted in expected_for). */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define MATH_FUNCTIONS 33 /* the functions in the fixture file */
#define MAX_VALUES 256
#define HALF_PI 1.5707963267948966

typedef struct math_edges {
    char name[16];
    int arity, n;
    float a[MAX_VALUES], b[MAX_VALUES], js[MAX_VALUES], gpujs[MAX_VALUES];
} math_edges;

static void read_row(FILE *f, const char *want, float *v, int n)
{
    char tok[64];
    ck_assert_msg(fscanf(f, "%63s", tok) == 1 && !strcmp(tok, want), "math-edges.txt: expected a '%s' row", want);
    for (int i = 0; i < n; i++) {
        ck_assert(fscanf(f, "%63s", tok) == 1);
        v[i] = strtof(tok, NULL); /* reads nan, inf, -inf and -0 */
    }
}

/* Reads the index-th function of the fixture into *m. */
static void load_function(int index, math_edges *m)
{
    FILE *f = fopen(GPUC_FIXTURES_DIR "/math-edges.txt", "r");
    ck_assert_msg(f != NULL, "cannot open %s/math-edges.txt (run the tests from the repository root)",
                  GPUC_FIXTURES_DIR);
    char line[8192];
    int seen = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "function %15s %d %d", m->name, &m->arity, &m->n) == 3 && seen++ == index)
            break;
    ck_assert_msg(seen == index + 1, "math-edges.txt has fewer than %d functions", index + 1);
    ck_assert_int_le(m->n, MAX_VALUES);
    read_row(f, "a", m->a, m->n);
    if (m->arity == 2)
        read_row(f, "b", m->b, m->n);
    read_row(f, "js", m->js, m->n);
    read_row(f, "gpujs", m->gpujs, m->n);
    fclose(f);
}

static bool is_denormal(float v)
{
    return v != 0 && fabsf(v) < 1.17549435e-38f;
}

/* The bound in float32 ulps for a finite, non-zero expected value. Functions JavaScript defines exactly
 * (and that gpuc computes exactly) have 0; the transcendental ones are llvmpipe's builtins, refined in
 * src/js/runtime/runtime_math.c where llvmpipe's own are worse: docs/porting.md lists the bounds measured. */
static double ulp_bound(const char *fn, float x, bool precise_math)
{
    static const char *const exact[] = {"abs", "ceil", "floor", "fround", "round", "sign", "trunc", "sqrt",
                                        "max", "min", "imul", "clz32", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(fn, exact[i]))
            return 0;
    bool trig = !strcmp(fn, "sin") || !strcmp(fn, "cos") || !strcmp(fn, "tan");
    if (trig && precise_math)
        return 1;
    if (trig && fabsf(x) > 1e5f)
        return INFINITY; /* llvmpipe's own: see math_accuracy_over_ranges */
    return 4;
}

static bool agrees(const char *fn, float x, float got, float want, bool fragment, bool precise_math)
{
    if (fragment && is_denormal(want) && got == 0 && signbit(got) == signbit(want))
        return true; /* the fragment backend flushes denormal results to zero */
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (want == 0 || isinf(want) || got == 0 || isinf(got))
        return got == want && signbit(got) == signbit(want);
    return fixture_ulps(got, want) <= ulp_bound(fn, x, precise_math);
}

/* Runs the index-th function of the fixture over its edge values and compares with JavaScript. */
static void check_edges(int index, bool precise_math)
{
    math_edges *m = calloc(1, sizeof *m);
    load_function(index, m);
    bool fragment = fixture_fragment_backend();
    char src[256];
    snprintf(src, sizeof src,
             m->arity == 2 ? "function (a, b) { return Math.%s(a[this.thread.x], b[this.thread.x]); }"
                           : "function (a) { return Math.%s(a[this.thread.x]); }",
             m->name);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(
        gpu, src,
        &(gpuc_kernel_desc){.output = {(uint32_t)m->n},
                            .arg_types = m->arity == 2 ? "float[], float[]" : "float[]",
                            .precise_math = precise_math},
        &k));
    gpuc_arg args[2] = {gpuc_arg_host_f32(m->a, (gpuc_dims){(uint32_t)m->n}),
                        gpuc_arg_host_f32(m->b, (gpuc_dims){(uint32_t)m->n})};
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, m->arity, &r));
    float *got = fixture_take_floats(r, (size_t)m->n);
    int wrong = 0;
    for (int i = 0; i < m->n; i++) {
        /* Math.round is GPU.js's (floor(x + 0.5) in float32, as an integer: +0 for -0.5 <= x <= -0, 1 for
         * 0.49999997) in its GLSL and webasm alike; everything else is JavaScript's, also where GPU.js's
         * webasm differs by accident of its conversions (imul and clz32 of Infinity, huge or negative
         * operands: WebAssembly's saturating float-to-int) */
        float x = m->a[i], y = m->b[i], want = !strcmp(m->name, "round") ? m->gpujs[i] : m->js[i];
        if (fragment && (is_denormal(x) || is_denormal(y)))
            continue; /* the fragment backend reads denormal inputs as ±0: no JavaScript answer to compare */
        if (!agrees(m->name, x, got[i], want, fragment, precise_math)) {
            fprintf(stderr, "Math.%s(%.9g%s%.9g): gpuc %.9g, JavaScript %.9g (GPU.js %.9g)\n", m->name, x,
                    m->arity == 2 ? ", " : "", m->arity == 2 ? y : NAN, got[i], want, m->gpujs[i]);
            wrong++;
        }
    }
    ck_assert_msg(wrong == 0, "Math.%s: %d of %d edge values differ from JavaScript (listed above)", m->name, wrong,
                  m->n);
    free(got);
    free(m);
    gpuc_kernel_free(k);
}

START_TEST(math_function_at_its_edges)
{
    check_edges(_i, false);
}
END_TEST

/* sin, cos and tan as .precise_math computes them (runtime_trig.c), at the same edges */
START_TEST(precise_trig_at_its_edges)
{
    static const char *const trig[] = {"sin", "cos", "tan"};
    math_edges *m = calloc(1, sizeof *m);
    int index = 0;
    for (;; index++) { /* the function's place in math-edges.txt */
        load_function(index, m);
        if (!strcmp(m->name, trig[_i]))
            break;
    }
    free(m);
    check_edges(index, true);
}
END_TEST


/* ---- accuracy over whole ranges, against C's double-precision libm rounded to float32 ---- */

static double js_sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : x; }

/* Each function's bound in float32 ulps over its range, as measured on llvmpipe (docs/porting.md,
 * "Math accuracy"): sin/cos/tan are llvmpipe's own and lose accuracy as |x| grows. */
static const struct accuracy_case {
    const char *fn;
    double (*oracle)(double);
    double (*oracle2)(double, double);
    float lo, hi, lo2, hi2;
    double bound;
    bool precise_math; /* with gpuc_kernel_desc.precise_math */
    bool near_zeros;   /* the floats next to k pi / 2 in [lo, hi] instead of uniform ones */
    bool log_spread;   /* magnitudes spread evenly over the exponents of [lo, hi] (lo > 0), either sign */
} accuracy_cases[] = {
    {"sin", sin, NULL, -3.2f, 3.2f, 0, 0, 2},      {"sin", sin, NULL, -1e4f, 1e4f, 0, 0, 64},
    {"cos", cos, NULL, -3.2f, 3.2f, 0, 0, 2},      {"cos", cos, NULL, -1e4f, 1e4f, 0, 0, 64},
    {"tan", tan, NULL, -1.5f, 1.5f, 0, 0, 4},      {"tan", tan, NULL, -1e4f, 1e4f, 0, 0, 64},
    {"exp", exp, NULL, -87, 88, 0, 0, 2},          {"expm1", expm1, NULL, -2, 2, 0, 0, 2},
    {"log", log, NULL, 1e-30f, 1e30f, 0, 0, 2},    {"log2", log2, NULL, 1e-30f, 1e30f, 0, 0, 2},
    {"log10", log10, NULL, 1e-30f, 1e30f, 0, 0, 2}, {"log1p", log1p, NULL, -0.9f, 10, 0, 0, 2},
    {"sqrt", sqrt, NULL, 0, 1e6f, 0, 0, 0},        {"cbrt", cbrt, NULL, -1e6f, 1e6f, 0, 0, 2},
    {"sinh", sinh, NULL, -10, 10, 0, 0, 2},        {"cosh", cosh, NULL, -10, 10, 0, 0, 2},
    {"tanh", tanh, NULL, -5, 5, 0, 0, 2},          {"asinh", asinh, NULL, -100, 100, 0, 0, 2},
    {"acosh", acosh, NULL, 1, 100, 0, 0, 2},       {"atanh", atanh, NULL, -0.99f, 0.99f, 0, 0, 2},
    {"asin", asin, NULL, -1, 1, 0, 0, 2},          {"acos", acos, NULL, -1, 1, 0, 0, 2},
    {"atan", atan, NULL, -100, 100, 0, 0, 2},      {"atan2", NULL, atan2, -10, 10, -10, 10, 2},
    {"pow", NULL, pow, 0, 10, -10, 10, 4},         {"sign", js_sign, NULL, -10, 10, 0, 0, 0},
    /* next to the zeros (sin, cos) and poles (tan), llvmpipe's own are far off beyond |x| ~ 100 */
    {"sin", sin, NULL, -1e4f, 1e4f, 0, 0, 1024, false, true},
    {"cos", cos, NULL, -1e4f, 1e4f, 0, 0, 1024, false, true},
    {"tan", tan, NULL, -1e4f, 1e4f, 0, 0, 1024, false, true},
    /* .precise_math: 1 ulp everywhere below 1.3e7 */
    {"sin", sin, NULL, -1e4f, 1e4f, 0, 0, 1, true, true},  {"cos", cos, NULL, -1e4f, 1e4f, 0, 0, 1, true, true},
    {"tan", tan, NULL, -1e4f, 1e4f, 0, 0, 1, true, true},  {"sin", sin, NULL, -1.3e7f, 1.3e7f, 0, 0, 1, true, false},
    {"cos", cos, NULL, -1.3e7f, 1.3e7f, 0, 0, 1, true, false}, {"tan", tan, NULL, -1.3e7f, 1.3e7f, 0, 0, 1, true, false},
    /* beyond 1.3e7: Payne and Hanek's reduction */
    {"sin", sin, NULL, -1e10f, 1e10f, 0, 0, 1, true, false},  {"cos", cos, NULL, -1e10f, 1e10f, 0, 0, 1, true, false},
    {"tan", tan, NULL, -1e10f, 1e10f, 0, 0, 1, true, false},
    {"sin", sin, NULL, 1.3e7f, 3.4e38f, 0, 0, 1, true, false, true},
    {"cos", cos, NULL, 1.3e7f, 3.4e38f, 0, 0, 1, true, false, true},
    {"tan", tan, NULL, 1.3e7f, 3.4e38f, 0, 0, 1, true, false, true},
};
#define ACCURACY_CASES (int)(sizeof accuracy_cases / sizeof accuracy_cases[0])
#define ACCURACY_VALUES 65536

START_TEST(math_accuracy_over_ranges)
{
    const struct accuracy_case *t = &accuracy_cases[_i];
    float *a = malloc(ACCURACY_VALUES * sizeof *a), *b = malloc(ACCURACY_VALUES * sizeof *b);
    uint32_t state = 12345u + (uint32_t)_i;
    for (int i = 0; i < ACCURACY_VALUES; i++) {
        a[i] = t->lo + (t->hi - t->lo) * test_random(&state);
        b[i] = t->lo2 + (t->hi2 - t->lo2) * test_random(&state);
        if (t->log_spread) {
            float e = log2f(t->lo) + (log2f(t->hi) - log2f(t->lo)) * test_random(&state);
            a[i] = (i % 2 ? -1 : 1) * fminf(exp2f(e), t->hi);
        }
        if (t->near_zeros) { /* the float nearest k pi / 2 and its neighbours, k spread over the range */
            double k = floor(a[i] / HALF_PI);
            k = k == 0 ? 1 : k; /* not 0: its neighbours are denormals, flushed on the fragment backend */
            float z = (float)(k * HALF_PI);
            a[i] = i % 3 == 0 ? z : i % 3 == 1 ? nextafterf(z, INFINITY) : nextafterf(z, -INFINITY);
        }
    }
    char src[256];
    snprintf(src, sizeof src,
             t->oracle2 ? "function (a, b) { return Math.%s(a[this.thread.x], b[this.thread.x]); }"
                        : "function (a, b) { return Math.%s(a[this.thread.x]); }",
             t->fn);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(
        gpu, src,
        &(gpuc_kernel_desc){
            .output = {ACCURACY_VALUES}, .arg_types = "float[], float[]", .precise_math = t->precise_math},
        &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k,
                               (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){ACCURACY_VALUES}),
                                            gpuc_arg_host_f32(b, (gpuc_dims){ACCURACY_VALUES})},
                               2, &r));
    float *got = fixture_take_floats(r, ACCURACY_VALUES);
    double worst = 0;
    int at = 0;
    for (int i = 0; i < ACCURACY_VALUES; i++) {
        float want = (float)(t->oracle2 ? t->oracle2(a[i], b[i]) : t->oracle(a[i]));
        if (isnan(want) || isinf(want) || want == 0) {
            ck_assert_msg(isnan(want) ? isnan(got[i]) != 0 : got[i] == want, "Math.%s(%.9g): gpuc %.9g, libm %.9g",
                          t->fn, a[i], got[i], want);
            continue;
        }
        double d = got[i] == 0 ? INFINITY : fixture_ulps(got[i], want);
        if (d > worst) {
            worst = d;
            at = i;
        }
    }
    if (getenv("GPUC_MATH_REPORT"))
        fprintf(stderr, "Math.%s on [%g, %g]%s%s: worst %.0f ulps at %.9g\n", t->fn, t->lo, t->hi,
                t->near_zeros ? " near k pi/2" : "", t->precise_math ? " (precise_math)" : "", worst, a[at]);
    ck_assert_msg(worst <= t->bound, "Math.%s on [%g, %g]: %.0f ulps at %.9g (%.9g), over the bound of %.0f", t->fn,
                  t->lo, t->hi, worst, a[at], b[at], t->bound);
    free(got);
    free(a);
    free(b);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_math(void)
{
    Suite *s = suite_create("js_math");
    TCase *tc = fixture_tcase("Math at its edges");
    tcase_add_loop_test(tc, math_function_at_its_edges, 0, MATH_FUNCTIONS);
    tcase_add_loop_test(tc, precise_trig_at_its_edges, 0, 3);
    tcase_add_loop_test(tc, math_accuracy_over_ranges, 0, ACCURACY_CASES);
    suite_add_tcase(s, tc);
    return s;
}
