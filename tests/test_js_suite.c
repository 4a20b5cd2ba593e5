/* test_js_suite.c - GPU.js's own test suite replayed through gpuc: the cases of
 * tests/fixtures/gpujs-suite.txt (test/features and test/issues of gpujs/gpu.js, re-expressed and run
 * through GPU.js 2.24.1 by scripts/record-gpujs-suite.js), one test per case, on whichever backend
 * GPUC_BACKEND selects. Results must be GPU.js's exactly, or within the case's stated ulps (Math).
 * A case marked `pending <reason>` needs a feature gpuc does not have yet (none is marked today): it is
 * reported as pending while it fails, and fails the test once it passes, so that no mark hides a case that
 * works. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE_CASES 127 /* the cases in the fixture file */

/* The name of the function a `function name(...)` source declares. */
static void function_name(const char *src, char *name, size_t cap)
{
    const char *p = strstr(src, "function");
    ck_assert(p != NULL);
    p += 8;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (n + 1 < cap && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$'))
        n++;
    memcpy(name, p, n);
    name[n] = '\0';
}

static bool same(float got, float want, int bound)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (got == want)
        return true;
    return bound > 0 && !isinf(got) && !isinf(want) && fixture_ulps(got, want) <= bound;
}

/* Compares one output with GPU.js's; writes the first difference into why. */
static bool matches(gpuc_array *r, const float *want, size_t n, int bound, const char *what, char *why, size_t cap)
{
    if (gpuc_array_values(r) != n) {
        snprintf(why, cap, "%s has %zu values, GPU.js %zu", what, gpuc_array_values(r), n);
        return false;
    }
    float *got = malloc(n * sizeof *got);
    bool ok = gpuc_array_read_f32(r, got, n) == GPUC_OK;
    for (size_t i = 0; ok && i < n; i++)
        if (!same(got[i], want[i], bound)) {
            snprintf(why, cap, "%s value %zu: gpuc %.9g, GPU.js %.9g", what, i, got[i], want[i]);
            ok = false;
        }
    free(got);
    return ok;
}

/* The values GPU.js gave for map output `name`, or NULL. */
static const gpujs_named *expected_map(const gpujs_case *c, const char *name)
{
    for (int m = 0; m < c->nexpect_maps; m++)
        if (!strcmp(c->expect_maps[m].name, name))
            return &c->expect_maps[m];
    return NULL;
}

/* Runs the case; returns whether gpuc gave GPU.js's results, and why not in `why`. */
static bool replay(const gpujs_case *c, char *why, size_t cap)
{
    for (int h = 0; h < c->nhelpers; h++)
        if (gpuc_add_function(gpu, c->helpers[h]) != GPUC_OK) {
            snprintf(why, cap, "helper: %s", gpuc_errmsg(gpu));
            return false;
        }
    for (int m = 0; m < c->nmaps; m++)
        if (gpuc_add_function(gpu, c->maps[m].source) != GPUC_OK) {
            snprintf(why, cap, "map function: %s", gpuc_errmsg(gpu));
            return false;
        }
    char arg_types[256], map_functions[GPUJS_MAX_ITEMS][32];
    gpuc_kernel_desc desc = {.output = c->output, .loop_max_iterations = c->loop_max,
                             .dynamic_output = c->resized};
    memcpy(desc.constants, c->constants, sizeof desc.constants);
    desc.arg_types = c->nargs ? gpujs_case_arg_types(c, arg_types, sizeof arg_types) : NULL;
    for (int m = 0; m < c->nmaps; m++) {
        function_name(c->maps[m].source, map_functions[m], sizeof map_functions[m]);
        desc.map[m] = (gpuc_map_output){c->maps[m].name, map_functions[m]};
    }
    gpuc_kernel *k;
    if (c->resized) /* created at GPU.js's first size, then resized as GPU.js's test does */
        desc.output = c->resized_from;
    if (gpuc_create_kernel_js(gpu, c->source, &desc, &k) != GPUC_OK) {
        snprintf(why, cap, "create: %s", gpuc_errmsg(gpu));
        return false;
    }
    gpuc_arg args[GPUJS_MAX_ARGS];
    gpuc_array *vectors[GPUJS_MAX_ARGS] = {0};
    bool ok = true;
    for (int i = 0; ok && i < c->nargs; i++) {
        const gpujs_arg *a = &c->args[i];
        args[i] = gpujs_arg_value(a);
        if (a->kind == GPUJS_VECARRAY) { /* a vecN[] array on the device */
            ok = gpuc_array_new(gpu, (gpuc_type)(GPUC_VEC2 + a->width - 2), a->dims, &vectors[i]) == GPUC_OK &&
                 gpuc_array_write_f32(vectors[i], a->values, a->nvalues) == GPUC_OK;
            args[i] = gpuc_arg_array(vectors[i]);
        }
    }
    gpuc_array *results[1 + GPUC_MAX_MAP_OUTPUTS] = {0};
    if (ok && c->resized) { /* GPU.js's first run, at the first size, then setOutput */
        ok = gpuc_run(k, args, c->nargs, &results[0]) == GPUC_OK && gpuc_kernel_set_output(k, c->output) == GPUC_OK;
        gpuc_array_free(results[0]);
        results[0] = NULL;
    }
    if (ok)
        ok = (c->nmaps ? gpuc_run_map(k, args, c->nargs, results) : gpuc_run(k, args, c->nargs, &results[0])) ==
             GPUC_OK;
    if (!ok)
        snprintf(why, cap, "run: %s", gpuc_errmsg(gpu));
    if (ok)
        ok = matches(results[0], c->expect, c->nexpect, c->ulps, "result", why, cap);
    for (int m = 0; ok && m < c->nmaps; m++) {
        const gpujs_named *want = expected_map(c, c->maps[m].name);
        ok = want ? matches(results[1 + m], want->values, want->nvalues, c->ulps, c->maps[m].name, why, cap)
                  : (snprintf(why, cap, "map output %s has no expectmap", c->maps[m].name), false);
    }
    for (int i = 0; i <= c->nmaps; i++)
        gpuc_array_free(results[i]);
    for (int i = 0; i < c->nargs; i++)
        gpuc_array_free(vectors[i]);
    gpuc_kernel_free(k);
    return ok;
}

START_TEST(replays_gpujs_test_suite)
{
    gpujs_cases set = gpujs_cases_load("gpujs-suite.txt", SUITE_CASES);
    const gpujs_case *c = &set.cases[_i];
    char why[512] = "";
    bool ok = replay(c, why, sizeof why);
    if (c->pending[0]) {
        ck_assert_msg(!ok, "case %s (%s) is marked pending %s but gives GPU.js's results now: remove the mark",
                      c->name, c->origin, c->pending);
        printf("pending %s: case %s (%s): %s\n", c->pending, c->name, c->origin, why);
    } else {
        ck_assert_msg(ok, "case %s (%s): %s", c->name, c->origin, why);
    }
    gpujs_cases_free(&set);
}
END_TEST
Suite *suite_js_suite(void)
{
    Suite *s = suite_create("js_suite");
    TCase *tc = fixture_tcase("GPU.js's own tests");
    tcase_add_loop_test(tc, replays_gpujs_test_suite, 0, SUITE_CASES);
    suite_add_tcase(s, tc);
    return s;
}
