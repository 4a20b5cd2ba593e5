/* test_dynamic_output.c - GPU.js's dynamicOutput (.dynamic_output, gpuc_kernel_set_output,
 * gpuc_kernel_output): later runs use the new size, outputSize / this.output read it, nothing is
 * compiled again; kernel maps, graphical kernels, gpuc_run_to and loops bounded by the size follow it;
 * bad sizes change nothing. Checked against C and against GPU.js 2.24.1's own outputs. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* GPU.js's a[y][x] input of w x h: y * w + x + 1. */
static float *ramp(int w, int h)
{
    float *a = malloc((size_t)(w * h) * sizeof *a);
    for (int i = 0; i < w * h; i++)
        a[i] = (float)(i + 1);
    return a;
}

static uint64_t compiled(void)
{
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    return s.programs_compiled;
}

/* Row sums over this.output.x, plus this.output.y and thread.x: GPU.js 2.24.1 (webasm, dynamicOutput,
 * setOutput([5, 4])) returns the rows below (scripts/gpujs-args-oracle.js prints them). */
static const char *const row_sum_js =
    "function (a) {\n"
    "  let s = 0;\n"
    "  for (let i = 0; i < this.output.x; i++) s += a[this.thread.y][i];\n"
    "  return s * 10 + this.output.y + this.thread.x;\n"
    "}";
static const char *const row_sum_glsl =
    "float f(float a[][]) {\n"
    "    float s = 0.0;\n"
    "    for (int i = 0; i < outputSize.x; i++) s += a[thread.y][i];\n"
    "    return s * 10.0 + float(outputSize.y + thread.x);\n"
    "}";
static const float gpujs_3x2[] = {62, 63, 64, 152, 153, 154};
static const float gpujs_5x4[] = {154, 155, 156, 157, 158, 404, 405, 406, 407, 408,
                                  654, 655, 656, 657, 658, 904, 905, 906, 907, 908};

static void run_and_compare(gpuc_kernel *k, int w, int h, const float *expect)
{
    float *a = ramp(w, h);
    gpuc_array *r = NULL;
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){(uint32_t)w, (uint32_t)h});
    ck_assert_gpuc_ok(gpuc_run(k, &arg, 1, &r));
    gpuc_dims d = gpuc_array_dims(r);
    ck_assert_uint_eq(d.x, (uint32_t)w);
    ck_assert_uint_eq(d.y, (uint32_t)h);
    float *out = fixture_take_floats(r, (size_t)(w * h));
    for (int i = 0; i < w * h; i++)
        ck_assert_float_eq(out[i], expect[i]);
    free(out);
    free(a);
}

static void check_row_sums(gpuc_kernel *k)
{
    run_and_compare(k, 3, 2, gpujs_3x2);
    uint64_t before = compiled();
    ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){5, 4}));
    gpuc_dims d = gpuc_kernel_output(k);
    ck_assert_uint_eq(d.x, 5);
    ck_assert_uint_eq(d.y, 4);
    ck_assert_uint_eq(d.z, 0);
    run_and_compare(k, 5, 4, gpujs_5x4);
    ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){3, 2}));
    run_and_compare(k, 3, 2, gpujs_3x2); /* back again: render targets and all */
    ck_assert_uint_eq(compiled(), before);
}

START_TEST(js_set_output_matches_gpujs)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, row_sum_js,
                                            &(gpuc_kernel_desc){.output = {3, 2}, .dynamic_output = true,
                                                                .arg_types = "Array2D"}, &k));
    check_row_sums(k);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(glsl_set_output_matches_gpujs)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, row_sum_glsl, &(gpuc_kernel_desc){.output = {3, 2}, .dynamic_output = true},
                                         &k));
    check_row_sums(k);
    gpuc_kernel_free(k);
}
END_TEST

/* A 1D and a 3D output across sizes that need several fragment tiles / several dispatches' worth. */
START_TEST(sizes_1d_and_3d)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f() { return float(thread.x) + float(outputSize.x) * 0.5; }",
                                         &(gpuc_kernel_desc){.output = {10}, .dynamic_output = true}, &k));
    static const uint32_t sizes[] = {10, 5000, 1, 70000};
    for (int s = 0; s < 4; s++) {
        ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){sizes[s]}));
        gpuc_array *r = NULL;
        ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
        float *out = fixture_take_floats(r, sizes[s]);
        for (uint32_t i = 0; i < sizes[s]; i++)
            ck_assert_float_eq(out[i], (float)i + (float)sizes[s] * 0.5f);
        free(out);
    }
    gpuc_kernel_free(k);
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function () { return this.thread.z * 10000 + this.thread.y * 100 + "
                                            "this.thread.x + this.output.z * 0.25; }",
                                            &(gpuc_kernel_desc){.output = {2, 2, 2}, .dynamic_output = true}, &k));
    ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){7, 3, 5}));
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float *out = fixture_take_floats(r, 7 * 3 * 5);
    for (int z = 0; z < 5; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 7; x++)
                ck_assert_float_eq(out[(z * 3 + y) * 7 + x], (float)(z * 10000 + y * 100 + x) + 1.25f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

/* Kernel maps, gpuc_run_to (pipeline) and graphical kernels follow the new size. */
START_TEST(maps_run_to_and_pictures)
{
    gpuc_kernel *m = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float twice(float v) { return 2.0 * v; }\n"
                                         "float f() { return twice(float(thread.y * outputSize.x + thread.x)) + 1.0; }",
                                         &(gpuc_kernel_desc){.output = {2, 2}, .dynamic_output = true,
                                                             .pipeline = true, .map = {{"doubled", "twice"}}},
                                         &m));
    ck_assert_gpuc_ok(gpuc_kernel_set_output(m, (gpuc_dims){9, 6}));
    gpuc_array *outs[2] = {NULL, NULL};
    ck_assert_gpuc_ok(gpuc_run_map(m, NULL, 0, outs));
    float *res = fixture_take_floats(outs[0], 54), *dbl = fixture_take_floats(outs[1], 54);
    for (int i = 0; i < 54; i++) {
        ck_assert_float_eq(dbl[i], 2.0f * (float)i);
        ck_assert_float_eq(res[i], 2.0f * (float)i + 1.0f);
    }
    free(res);
    free(dbl);
    gpuc_kernel_free(m);

    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f() { return float(outputSize.x * 1000 + thread.x); }",
                                         &(gpuc_kernel_desc){.output = {8}, .dynamic_output = true, .pipeline = true},
                                         &k));
    gpuc_array *old_size = NULL, *new_size = NULL;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){8}, &old_size));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){3}, &new_size));
    ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){3}));
    ck_assert_gpuc_fails(gpuc_run_to(k, NULL, 0, old_size), GPUC_ERROR_TYPE_MISMATCH, "returns 3 float cells");
    ck_assert_gpuc_ok(gpuc_run_to(k, NULL, 0, new_size));
    float got[3];
    ck_assert_gpuc_ok(gpuc_array_read_f32(new_size, got, 3));
    for (int i = 0; i < 3; i++)
        ck_assert_float_eq(got[i], 3000.0f + (float)i);
    gpuc_array_free(old_size);
    gpuc_array_free(new_size);
    gpuc_kernel_free(k);

    gpuc_kernel *g = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function () { this.color(this.thread.x / (this.output.x - 1), "
                                            "this.thread.y / (this.output.y - 1), 0, 1); }",
                                            &(gpuc_kernel_desc){.output = {2, 2}, .dynamic_output = true,
                                                                .graphical = true}, &g));
    ck_assert_gpuc_ok(gpuc_kernel_set_output(g, (gpuc_dims){5, 3}));
    gpuc_array *pic = NULL;
    ck_assert_gpuc_ok(gpuc_run(g, NULL, 0, &pic));
    uint8_t rgba[5 * 3 * 4];
    ck_assert_gpuc_ok(gpuc_array_read_pixels(pic, rgba, sizeof rgba, true)); /* thread.y = 0 first */
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            const uint8_t *p = rgba + (y * 5 + x) * 4;
            ck_assert_uint_eq(p[0], (unsigned)(x * 255.0 / 4.0 + 0.5));
            ck_assert_uint_eq(p[1], (unsigned)(y * 255.0 / 2.0 + 0.5));
            ck_assert_uint_eq(p[3], 255);
        }
    gpuc_array_free(pic);
    gpuc_kernel_free(g);
}
END_TEST

/* A loop bounded by the output size is a run-time bound: it is guarded, so a size whose loops pass
 * llvmpipe's budget fails that run (never a cut result) and a smaller size runs again. */
START_TEST(loop_bounded_by_output_is_guarded)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function () { let s = 0;\n"
                                            "  for (let i = 0; i < this.output.x * 1000; i++) s += 1;\n"
                                            "  return s; }",
                                            &(gpuc_kernel_desc){.output = {10}, .dynamic_output = true}, &k));
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float *out = fixture_take_floats(r, 10);
    ck_assert_float_eq(out[9], 10000.0f);
    free(out);
    if (gpuc_get_info(gpu)->loop_budget > 0) { /* llvmpipe: 100 * 1000 iterations pass 65,535 */
        ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){100}));
        r = NULL;
        ck_assert_gpuc_fails(gpuc_run(k, NULL, 0, &r), GPUC_ERROR_LIMIT, "loop");
        ck_assert_ptr_null(r);
        ck_assert_gpuc_ok(gpuc_kernel_set_output(k, (gpuc_dims){20}));
        ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
        out = fixture_take_floats(r, 20);
        ck_assert_float_eq(out[19], 20000.0f);
        free(out);
    }
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(bad_sizes_change_nothing)
{
    gpuc_kernel *fixed = NULL, *k = NULL;
    ck_assert_gpuc_fails(gpuc_kernel_set_output(NULL, (gpuc_dims){4}), GPUC_ERROR_INVALID_ARGUMENT, "");
    gpuc_dims none = gpuc_kernel_output(NULL);
    ck_assert_uint_eq(none.x, 0);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f() { return 1.0; }", &(gpuc_kernel_desc){.output = {4}}, &fixed));
    ck_assert_gpuc_fails(gpuc_kernel_set_output(fixed, (gpuc_dims){8}), GPUC_ERROR_INVALID_ARGUMENT,
                         "created without .dynamic_output");
    ck_assert_uint_eq(gpuc_kernel_output(fixed).x, 4);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f() { return float(outputSize.x + outputSize.y); }",
                                         &(gpuc_kernel_desc){.output = {4, 3}, .dynamic_output = true}, &k));
    ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){0, 3}), GPUC_ERROR_INVALID_ARGUMENT, "x = 0");
    ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){8}), GPUC_ERROR_INVALID_ARGUMENT,
                         "is 1D, but the kernel was created 2D");
    ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){2, 2, 2}), GPUC_ERROR_INVALID_ARGUMENT, "3D");
    ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){65536, 65536}), GPUC_ERROR_LIMIT, "2^31 - 1");
    int64_t texels = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (texels > 0 && texels < 65536LL * 32767 / 4) /* a size whose result no array could hold */
        ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){65536, 32767}), GPUC_ERROR_LIMIT,
                             "GL_MAX_TEXTURE_BUFFER_SIZE");
    ck_assert_gpuc_fails(gpuc_kernel_set_output(k, (gpuc_dims){1, 0, 5}), GPUC_ERROR_INVALID_ARGUMENT, "z without y");
    gpuc_dims d = gpuc_kernel_output(k);
    ck_assert_uint_eq(d.x, 4);
    ck_assert_uint_eq(d.y, 3);
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    float *out = fixture_take_floats(r, 12);
    ck_assert_float_eq(out[11], 7.0f);
    free(out);
    gpuc_kernel *s = NULL;
    if (!fixture_fragment_backend())
        ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { outputIndex = 0; return 1.0; }",
                                                &(gpuc_kernel_desc){.output = {4}, .scatter = true,
                                                                    .dynamic_output = true}, &s),
                             GPUC_ERROR_INVALID_ARGUMENT, ".dynamic_output is for ordinary kernels");
    ck_assert_ptr_null(s);
    gpuc_kernel_free(fixed);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_dynamic_output(void)
{
    Suite *s = suite_create("dynamic_output");
    TCase *tc = fixture_tcase("dynamic_output");
    tcase_add_test(tc, js_set_output_matches_gpujs);
    tcase_add_test(tc, glsl_set_output_matches_gpujs);
    tcase_add_test(tc, sizes_1d_and_3d);
    tcase_add_test(tc, maps_run_to_and_pictures);
    tcase_add_test(tc, loop_bounded_by_output_is_guarded);
    tcase_add_test(tc, bad_sizes_change_nothing);
    suite_add_tcase(s, tc);
    return s;
}
