/* test_js_features.c - the behaviour suite: cases modelled on GPU.js's test/features files (operators,
 * Math, control flow, loops and loop caps, helpers, vector returns, constants, 1D-3D inputs; kernels
 * of the shapes public code has: 18 numbers for a camera, Boolean toggles), run
 * through gpuc and compared with what GPU.js 2.24 returned for them in its true-float32 webasm mode
 * (tests/fixtures/gpujs-features.txt, recorded by scripts/record-gpujs-fixtures.js; node's own answer
 * where GPU.js refuses a case, `oracle node`). Exact operations
 * must match exactly; transcendental Math functions within 4e-6 relative. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FEATURE_CASES 49 /* the cases in the fixture file */

/* Math functions other than the exact ones differ between libm and GLSL in the last bits, more for
 * (asin/acos/atan are refined in runtime_math.c): 4e-6 relative. */
static bool close_enough(const char *name, float got, float want)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (got == want)
        return true;
    bool approximate = !strncmp(name, "math_", 5) && strcmp(name, "math_rounding") != 0;
    if (!approximate)
        return false;
    float tolerance = fmaxf(fabsf(want) * 4e-6f, 1e-6f);
    return fabsf(got - want) <= tolerance;
}

START_TEST(matches_gpujs)
{
    gpujs_cases set = gpujs_cases_load("gpujs-features.txt", FEATURE_CASES);
    const gpujs_case *c = &set.cases[_i];
    for (int h = 0; h < c->nhelpers; h++)
        ck_assert_gpuc_ok(gpuc_add_function(gpu, c->helpers[h]));
    char arg_types[256];
    gpuc_kernel_desc desc = {.output = c->output, .loop_max_iterations = c->loop_max,
                             .arg_types = gpujs_case_arg_types(c, arg_types, sizeof arg_types)};
    memcpy(desc.constants, c->constants, sizeof desc.constants);
    gpuc_kernel *k;
    gpuc_status st = gpuc_create_kernel_js(gpu, c->source, &desc, &k);
    ck_assert_msg(st == GPUC_OK, "case %s: %s", c->name, gpuc_errmsg(gpu));
    gpuc_arg args[GPUJS_MAX_ARGS];
    for (int i = 0; i < c->nargs; i++)
        args[i] = gpujs_arg_value(&c->args[i]);
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, c->nargs, &r));
    ck_assert_uint_eq(gpuc_array_values(r), c->nexpect); /* vector results hold several values a cell */
    float *got = malloc(c->nexpect * sizeof *got);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, c->nexpect));
    for (size_t i = 0; i < c->nexpect; i++)
        ck_assert_msg(close_enough(c->name, got[i], c->expect[i]), "case %s, value %zu: gpuc %.9g, GPU.js %.9g",
                      c->name, i, got[i], c->expect[i]);
    free(got);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    gpujs_cases_free(&set);
}
END_TEST

Suite *suite_js_features(void)
{
    Suite *s = suite_create("js_features");
    TCase *tc = fixture_tcase("GPU.js feature cases");
    /* One forked test per fixture case; the count is checked against the file inside the test. */
    tcase_add_loop_test(tc, matches_gpujs, 0, FEATURE_CASES);
    suite_add_tcase(s, tc);
    return s;
}
