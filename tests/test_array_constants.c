/* test_array_constants.c - array-valued constants (1D-3D, GPU.js's `constants: {weights: [...]}`) and
 * Boolean constants, in GLSL (constants.w[i]) and JavaScript (this.constants.w[i]) kernels: GPU.js
 * 2.24.1's own outputs, C oracles for flat reads past a row and outside the array, kernels of other
 * values sharing one program, and every bad constant refused by name. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float w3[] = {1.5f, 2.5f, 3.5f};
static const float m23[] = {1, 2, 3, 4, 5, 6}; /* [[1, 2, 3], [4, 5, 6]]: 3 wide, 2 rows */

static gpuc_kernel_desc desc_wfm(int n, bool flag)
{
    gpuc_kernel_desc d = {.output = {(uint32_t)n}};
    d.constants[0] = (gpuc_constant){.name = "w", .values = w3, .dims = {3}};
    d.constants[1] = (gpuc_constant){.name = "flag", .value = flag, .type = GPUC_BOOL};
    d.constants[2] = (gpuc_constant){.name = "m", .values = m23, .dims = {3, 2}};
    return d;
}

static void expect_floats(gpuc_kernel *k, int n, const float *expect)
{
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float *out = fixture_take_floats(r, (size_t)n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i] == expect[i], "cell %d: %g, expected %g", i, (double)out[i], (double)expect[i]);
    free(out);
}

/* GPU.js 2.24.1 (node, webasm) returns [105.5, 107.5, 109.5] for this kernel and these constants
 * (scripts/gpujs-args-oracle.js). */
START_TEST(js_and_glsl_match_gpujs)
{
    static const float gpujs[] = {105.5f, 107.5f, 109.5f};
    gpuc_kernel_desc d = desc_wfm(3, true);
    gpuc_kernel *js = NULL, *glsl = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function () { return this.constants.w[this.thread.x] + "
                                            "(this.constants.flag ? 100 : 0) + this.constants.m[1][this.thread.x]; }",
                                            &d, &js));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float f() { return constants.w[thread.x] + (constants.flag ? 100.0 : 0.0)"
                                         " + constants . m [1] [thread.x]; }", &d, &glsl));
    expect_floats(js, 3, gpujs);
    expect_floats(glsl, 3, gpujs);
    gpuc_kernel_free(js);
    gpuc_kernel_free(glsl);
}
END_TEST

/* A 3D constant read in a helper and in a loop; a flat read past a row runs into the next row, as
 * GPU.js reads it; a read outside the whole array gives 0. Against C. */
START_TEST(reads_3d_past_a_row_and_outside)
{
    enum { W = 4, H = 3, D = 2 };
    float c[W * H * D];
    for (int i = 0; i < W * H * D; i++)
        c[i] = (float)(i * i) * 0.25f - 3.0f;
    gpuc_kernel_desc d = {.output = {W, H, D}};
    d.constants[0] = (gpuc_constant){.name = "c", .values = c, .dims = {W, H, D}};
    d.constants[1] = (gpuc_constant){.name = "off", .value = 2};
    gpuc_kernel *g = NULL, *j = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float at(int z, int y, int x) { return constants.c[z][y][x]; }\n"
                                         "float f() {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < 2; i++) s += at(thread.z, thread.y, thread.x + i * constants.off);\n"
                                         "    return s + constants.c[thread.z - 2][0][0];\n"
                                         "}", &d, &g));
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function at(z, y, x) { return this.constants.c[z][y][x]; }\n"
                                            "function () { let s = 0;\n"
                                            "  for (let i = 0; i < 2; i++) s += at(this.thread.z, this.thread.y, "
                                            "this.thread.x + i * this.constants.off);\n"
                                            "  return s + this.constants.c[this.thread.z - 2][0][0]; }", &d, &j));
    float expect[W * H * D];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float s = 0.0f;
                for (int i = 0; i < 2; i++) {
                    int flat = (z * H + y) * W + x + i * 2; /* x + 2 past the row: the next row's cells */
                    s += flat < W * H * D ? c[flat] : 0.0f;
                }
                expect[(z * H + y) * W + x] = s; /* z - 2 is outside: + 0 */
            }
    expect_floats(g, W * H * D, expect);
    expect_floats(j, W * H * D, expect);
    gpuc_kernel_free(g);
    gpuc_kernel_free(j);
}
END_TEST

/* Values live in the kernel's own buffer: kernels of other values share the program, and each keeps
 * its own values while both live. A Boolean is compiled in: false is another program. */
START_TEST(other_values_share_the_program)
{
    float a[100], b[100];
    for (int i = 0; i < 100; i++) {
        a[i] = (float)i;
        b[i] = (float)(1000 - i);
    }
    gpuc_kernel_desc d = {.output = {100}};
    d.constants[0] = (gpuc_constant){.name = "t", .values = a, .dims = {100}};
    gpuc_kernel *ka = NULL, *kb = NULL;
    const char *src = "float f() { return constants.t[99 - thread.x]; }";
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &d, &ka));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    d.constants[0].values = b;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &d, &kb));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.programs_compiled, before.programs_compiled);
    float ea[100], eb[100];
    for (int i = 0; i < 100; i++) {
        ea[i] = a[99 - i];
        eb[i] = b[99 - i];
    }
    expect_floats(ka, 100, ea);
    expect_floats(kb, 100, eb);
    expect_floats(ka, 100, ea);

    gpuc_kernel *off = NULL;
    gpuc_kernel_desc f = desc_wfm(3, false);
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function () { if (this.constants.flag) return 1; return -1; }", &f,
                                            &off));
    expect_floats(off, 3, (const float[]){-1, -1, -1});
    gpuc_kernel_free(ka);
    gpuc_kernel_free(kb);
    gpuc_kernel_free(off);
}
END_TEST

/* A loop bounded by an array constant's value is not counted at creation (gpuc counts numbers only):
 * it is guarded, so a value past llvmpipe's loop budget fails the run, naming the user's own line. */
START_TEST(loop_bounded_by_an_array_constant_is_guarded)
{
    float w[3] = {5, 70000, 2};
    gpuc_kernel_desc d = {.output = {3}};
    d.constants[0] = (gpuc_constant){.name = "w", .values = w, .dims = {3}};
    const char *src = "float f() { float s = 0.0;\n"
                      "    for (int i = 0; i < int(constants.w[thread.x]); i++) s += constants.w[2];\n"
                      "    return s; }";
    gpuc_kernel *k = NULL;
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &d, &k));
    if (gpuc_get_info(gpu)->loop_budget > 0)
        ck_assert_gpuc_fails(gpuc_run(k, NULL, 0, &r), GPUC_ERROR_LIMIT, "for (int i = 0; i < int(constants.w[thread.x])");
    gpuc_kernel_free(k);
    w[1] = 7;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &d, &k));
    expect_floats(k, 3, (const float[]){10, 14, 4});
    gpuc_kernel_free(k);
}
END_TEST

static gpuc_status make_with(gpuc_constant c, const char *src, gpuc_kernel **k)
{
    gpuc_kernel_desc d = {.output = {4}};
    d.constants[0] = c;
    return gpuc_create_kernel(gpu, src, &d, k);
}

START_TEST(bad_constants_are_refused)
{
    gpuc_kernel *k = NULL;
    const char *read_w = "float f() { return constants.w[thread.x]; }";
    float nan_values[2] = {1.0f, NAN};
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .dims = {3}}, read_w, &k), GPUC_ERROR_INVALID_ARGUMENT,
                         "its values are NULL");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = w3, .dims = {0}, .type = GPUC_FLOAT},
                                   "float f() { return constants.w; }", &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "x = 0");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = w3, .dims = {3, 0, 1}}, read_w, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "z without y");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = nan_values, .dims = {2}}, read_w, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "value 1 is nan");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = w3, .dims = {3}, .type = GPUC_INT}, read_w,
                                   &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "array constants are float");
    float *big = calloc(GPUC_MAX_CONSTANT_VALUES + 1, sizeof *big);
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = big, .dims = {GPUC_MAX_CONSTANT_VALUES + 1}},
                                   read_w, &k),
                         GPUC_ERROR_LIMIT, "holds 16385 values");
    free(big);
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "b", .value = 2, .type = GPUC_BOOL},
                                   "float f() { return constants.b ? 1.0 : 0.0; }", &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "use 0 (false) or 1 (true)");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "b", .value = 1, .type = GPUC_BOOL, .values = w3,
                                                   .dims = {3}},
                                   "float f() { return 1.0; }", &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "Boolean arrays are not supported");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "v", .value = 1, .type = GPUC_VEC2},
                                   "float f() { return 1.0; }", &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "has type vec2; a number is int or float");
    /* Read by index only, with as many indices as dimensions. */
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "w", .values = w3, .dims = {3}},
                                   "float f() {\n    return constants.w.length();\n}", &k),
                         GPUC_ERROR_COMPILE, "line 2, column 12: array constant `w` is 1D");
    ck_assert_gpuc_fails(make_with((gpuc_constant){.name = "m", .values = m23, .dims = {3, 2}},
                                   "float f() { return constants.m[thread.x]; }", &k),
                         GPUC_ERROR_COMPILE, "constants.m[y][x]");
    gpuc_kernel_desc many = {.output = {4}};
    for (int i = 0; i <= GPUC_MAX_ARRAY_CONSTANTS; i++) {
        static char names[GPUC_MAX_ARRAY_CONSTANTS + 1][8];
        snprintf(names[i], sizeof names[i], "a%d", i);
        many.constants[i] = (gpuc_constant){.name = names[i], .values = w3, .dims = {3}};
    }
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { return 1.0; }", &many, &k), GPUC_ERROR_LIMIT,
                         "at most 8 array constants");
    /* JavaScript: the same rules, in JavaScript's words. */
    gpuc_kernel_desc d = desc_wfm(3, true);
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { const a = this.constants.w; return a[0]; }", &d, &k),
                         GPUC_ERROR_COMPILE, "is an array constant: read it by index");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return this.constants.m[0]; }", &d, &k),
                         GPUC_ERROR_COMPILE, "is a 2D array constant: index it 2 times, not 1");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return this.constants.flag[0]; }", &d, &k),
                         GPUC_ERROR_COMPILE, "is a Boolean, not an array");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return this.constants.nope[0]; }", &d, &k),
                         GPUC_ERROR_COMPILE, "not among the kernel's constants");
    ck_assert_ptr_null(k);
}
END_TEST

Suite *suite_array_constants(void)
{
    Suite *s = suite_create("array_constants");
    TCase *tc = fixture_tcase("array_constants");
    tcase_add_test(tc, js_and_glsl_match_gpujs);
    tcase_add_test(tc, reads_3d_past_a_row_and_outside);
    tcase_add_test(tc, other_values_share_the_program);
    tcase_add_test(tc, loop_bounded_by_an_array_constant_is_guarded);
    tcase_add_test(tc, bad_constants_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
