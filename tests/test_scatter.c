/* test_scatter.c - scatter kernels (.scatter, .threads, outputIndex) against C oracles. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

static gpuc_kernel *make(const char *src, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &desc, &k));
    return k;
}

START_TEST(compaction_by_scatter_matches_c)
{
    enum { N = 10000 };
    float *v = malloc(N * sizeof *v), *out = malloc(N * sizeof *out), *expect = calloc(N, sizeof *expect);
    int32_t *flags = malloc(N * sizeof *flags), *offsets = malloc(N * sizeof *offsets);
    uint32_t s = 99;
    int count = 0;
    for (int i = 0; i < N; i++) {
        v[i] = test_random(&s);
        flags[i] = v[i] >= 0.5f;
        offsets[i] = count;
        if (flags[i])
            expect[count++] = v[i];
    }
    gpuc_kernel *k = make("float pack(float v[], int flags[], int offsets[]) {\n"
                          "    if (flags[thread.x] != 0) outputIndex = offsets[thread.x];\n"
                          "    return v[thread.x];\n}\n",
                          (gpuc_kernel_desc){.output = {N}, .scatter = true});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){N}), gpuc_arg_host_i32(flags, (gpuc_dims){N}),
                                               gpuc_arg_host_i32(offsets, (gpuc_dims){N})}, 3, &r));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, N));
    ck_assert_int_gt(count, N / 3);
    ck_assert_mem_eq(out, expect, N * sizeof *out); /* packed in input order, tail still zero */
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    free(v);
    free(out);
    free(expect);
    free(flags);
    free(offsets);
}
END_TEST

START_TEST(threads_grid_differs_from_output)
{
    /* 2D grid of 8x4 invocations writes a 1D output of 32 cells, transposed order. */
    gpuc_kernel *k = make("int t() { outputIndex = thread.x * 4 + thread.y; return thread.y * 100 + thread.x; }",
                          (gpuc_kernel_desc){.output = {32}, .scatter = true, .threads = {8, 4}});
    gpuc_array *r;
    int32_t out[32];
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, out, 32));
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 4; y++)
            ck_assert_int_eq(out[x * 4 + y], y * 100 + x);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(unwritten_and_out_of_range_cells_keep_their_values)
{
    gpuc_kernel *k = make("vec3 f() {\n"
                          "    if (thread.x % 3 == 0) outputIndex = thread.x;\n"
                          "    else if (thread.x % 3 == 1) outputIndex = thread.x + 1000;\n"
                          "    return vec3(thread.x, 1, 2);\n}\n",
                          (gpuc_kernel_desc){.output = {9}, .scatter = true});
    float before[27], out[27];
    for (int i = 0; i < 27; i++)
        before[i] = -1.0f;
    gpuc_array *dst;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC3, (gpuc_dims){9}, &dst));
    ck_assert_gpuc_ok(gpuc_array_write_f32(dst, before, 27));
    ck_assert_gpuc_ok(gpuc_run_to(k, NULL, 0, dst));
    ck_assert_gpuc_ok(gpuc_array_read_f32(dst, out, 27));
    for (int i = 0; i < 9; i++) {
        if (i % 3 == 0) {
            ck_assert_float_eq(out[3 * i], (float)i);
            ck_assert_float_eq(out[3 * i + 2], 2.0f);
        } else {
            ck_assert_float_eq(out[3 * i], -1.0f);
            ck_assert_float_eq(out[3 * i + 1], -1.0f);
        }
    }
    gpuc_array_free(dst);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(large_reverse_permutation)
{
    enum { N = (1 << 24) + 3 };
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    /* A loop bounded only at run time keeps one cell per invocation: several dispatches. */
    gpuc_kernel *k = make("int rev(int n) {\n"
                          "    for (int i = 0; i < n; i++) outputIndex = outputSize.x - 1 - thread.x;\n"
                          "    return thread.x;\n}\n",
                          (gpuc_kernel_desc){.output = {N}, .scatter = true});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(1)}, 1, &r));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_ge(after.dispatches - before.dispatches, 2);
    int32_t *out = malloc((size_t)N * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, out, N));
    for (int i = 0; i < N; i++)
        if (out[i] != N - 1 - i)
            ck_abort_msg("cell %d: %d, expected %d", i, out[i], N - 1 - i);
    free(out);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(scatter_errors)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { return 1.0; }",
                                            &(gpuc_kernel_desc){.output = {4}, .threads = {4}}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, ".threads is for scatter kernels");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { return 1.0; }",
                                            &(gpuc_kernel_desc){.output = {4}, .scatter = true, .threads = {0, 2}}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "kernel threads");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f(int outputIndex) { return 1.0; }",
                                            &(gpuc_kernel_desc){.output = {4}, .scatter = true}, &k),
                         GPUC_ERROR_COMPILE, "clashes");
    /* Only a scatter kernel sees outputIndex. */
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { outputIndex = 0; return 1.0; }",
                                            &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE, "outputIndex");
    int64_t max_bytes = gpuc_get_info(gpu)->max_storage_block_size;
    if (max_bytes / 16 < INT32_MAX - 16) {
        ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "vec4 f() { return vec4(1); }",
                                                &(gpuc_kernel_desc){.output = {(uint32_t)(max_bytes / 16 + 1)},
                                                                    .scatter = true}, &k),
                             GPUC_ERROR_LIMIT, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE");
    }
    ck_assert_ptr_null(k);
}
END_TEST

/* The fragment backend draws one pixel per cell and cannot scatter: it says so. */
START_TEST(scatter_is_refused_on_fragment)
{
    ck_assert_int_eq(gpuc_get_info(gpu)->backend, GPUC_BACKEND_FRAGMENT);
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { outputIndex = 0; return 1.0; }",
                                            &(gpuc_kernel_desc){.output = {4}, .scatter = true}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "compute-only");
    ck_assert_ptr_null(k);
}
END_TEST

Suite *suite_scatter(void)
{
    Suite *s = suite_create("scatter");
    TCase *tc = fixture_tcase("scatter");
    if (fixture_fragment_backend()) {
        tcase_add_test(tc, scatter_is_refused_on_fragment);
        suite_add_tcase(s, tc);
        return s;
    }
    tcase_add_test(tc, compaction_by_scatter_matches_c);
    tcase_add_test(tc, threads_grid_differs_from_output);
    tcase_add_test(tc, unwritten_and_out_of_range_cells_keep_their_values);
    tcase_add_test(tc, large_reverse_permutation);
    tcase_add_test(tc, scatter_errors);
    suite_add_tcase(s, tc);
    return s;
}
