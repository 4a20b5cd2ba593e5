/* test_js_data_fixtures.c - how JavaScript kernels read their array arguments, against GPU.js itself:
 * rows running on into the next row, fewer indices than the rank, the rank-blind "Array" type,
 * input(flat, [w, h]), Array2D(n) / Array3D(n) arguments, replayed from what GPU.js 2.24.1 returned
 * (tests/fixtures/gpujs-data.txt, recorded by scripts/record-gpujs-data-fixtures.js). All exact. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <stdlib.h>

#define DATA_CASES 8 /* the cases in the fixture file */

START_TEST(reads_arrays_as_gpujs_does)
{
    gpujs_cases set = gpujs_cases_load("gpujs-data.txt", DATA_CASES);
    const gpujs_case *c = &set.cases[_i];
    gpuc_kernel *k = NULL;
    /* vector arrays go as host floats, `types` naming their width (Array2D(2)) */
    gpuc_kernel_desc desc = {.output = c->output, .arg_types = c->types[0] ? c->types : NULL, .name = c->name};
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, c->source, &desc, &k));
    gpuc_arg args[GPUJS_MAX_ARGS];
    for (int i = 0; i < c->nargs; i++)
        args[i] = gpujs_arg_value(&c->args[i]);
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, c->nargs, &r));
    ck_assert_uint_eq(gpuc_array_values(r), c->nexpect);
    float *got = fixture_take_floats(r, c->nexpect);
    for (size_t i = 0; i < c->nexpect; i++)
        ck_assert_msg(got[i] == c->expect[i], "case %s: value %zu is %.9g, GPU.js gave %.9g", c->name, i,
                      (double)got[i], (double)c->expect[i]);
    free(got);
    gpuc_kernel_free(k);
    gpujs_cases_free(&set);
}
END_TEST

Suite *suite_js_data(void)
{
    Suite *s = suite_create("js_data");
    TCase *tc = fixture_tcase("js_data");
    tcase_add_loop_test(tc, reads_arrays_as_gpujs_does, 0, DATA_CASES);
    suite_add_tcase(s, tc);
    return s;
}
