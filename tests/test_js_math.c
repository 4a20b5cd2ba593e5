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

#define MATH_FUNCTIONS 32 /* the functions in the fixture file */
#define MAX_VALUES 256

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

/* Distance in float32 steps between two finite floats of any sign. */
static double ulps(float x, float y)
{
    int32_t ix, iy;
    memcpy(&ix, &x, 4);
    memcpy(&iy, &y, 4);
    int64_t ox = ix < 0 ? (int64_t)INT32_MIN - ix : ix, oy = iy < 0 ? (int64_t)INT32_MIN - iy : iy;
    return (double)llabs(ox - oy);
}

static bool is_denormal(float v)
{
    return v != 0 && fabsf(v) < 1.17549435e-38f;
}

/* The bound in float32 ulps for a finite, non-zero expected value. Functions JavaScript defines exactly
 * (and that gpuc computes exactly) have 0; the transcendental ones are llvmpipe's builtins, refined in
 * src/js/runtime.c where llvmpipe's own are worse: docs/porting.md lists the bounds measured. */
static double ulp_bound(const char *fn, float x)
{
    static const char *const exact[] = {"abs", "ceil", "floor", "fround", "round", "sign", "trunc", "sqrt",
                                        "max", "min", "imul", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(fn, exact[i]))
            return 0;
    if ((!strcmp(fn, "sin") || !strcmp(fn, "cos") || !strcmp(fn, "tan")) && fabsf(x) > 1e5f)
        return INFINITY; /* see below */
    return 4;
}

static bool agrees(const char *fn, float x, float got, float want, bool fragment)
{
    if (fragment && is_denormal(want) && got == 0 && signbit(got) == signbit(want))
        return true; /* the fragment backend flushes denormal results to zero */
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (want == 0 || isinf(want) || got == 0 || isinf(got))
        return got == want && signbit(got) == signbit(want);
    return ulps(got, want) <= ulp_bound(fn, x);
}

START_TEST(math_function_at_its_edges)
{
    math_edges *m = calloc(1, sizeof *m);
    load_function(_i, m);
    bool fragment = fixture_fragment_backend();
    char src[256];
    snprintf(src, sizeof src,
             m->arity == 2 ? "function (a, b) { return Math.%s(a[this.thread.x], b[this.thread.x]); }"
                           : "function (a) { return Math.%s(a[this.thread.x]); }",
             m->name);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(
        gpu, src, &(gpuc_kernel_desc){.output = {(uint32_t)m->n}, .arg_types = m->arity == 2 ? "float[], float[]" : "float[]"},
        &k));
    gpuc_arg args[2] = {gpuc_arg_host_f32(m->a, (gpuc_dims){(uint32_t)m->n}),
                        gpuc_arg_host_f32(m->b, (gpuc_dims){(uint32_t)m->n})};
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, m->arity, &r));
    float *got = fixture_take_floats(r, (size_t)m->n);
    int wrong = 0;
    for (int i = 0; i < m->n; i++) {
        /* Math.round is GPU.js's (floor(x + 0.5) in float32, as an integer: +0 for -0.5 <= x <= -0, 1 for
         * 0.49999997) in its GLSL and webasm alike; everything else is JavaScript's */
        float x = m->a[i], y = m->b[i], want = !strcmp(m->name, "round") ? m->gpujs[i] : m->js[i];
        if (fragment && (is_denormal(x) || is_denormal(y)))
            continue; /* the fragment backend reads denormal inputs as ±0: no JavaScript answer to compare */
        if (!agrees(m->name, x, got[i], want, fragment)) {
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
END_TEST

Suite *suite_js_math(void)
{
    Suite *s = suite_create("js_math");
    TCase *tc = fixture_tcase("Math at its edges");
    tcase_add_loop_test(tc, math_function_at_its_edges, 0, MATH_FUNCTIONS);
    suite_add_tcase(s, tc);
    return s;
}
