/* test_kernel_map.c - kernel maps (GPU.js's createKernelMap): each named sub-output equals the same
 * computation done by a separate kernel, and both equal a C oracle. */
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

static float *read_f32(gpuc_array *a)
{
    size_t n = gpuc_array_values(a);
    float *out = malloc(n * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, out, n));
    return out;
}

/* GPU.js's own example: multiply(add(a, b), c), keeping both helpers' results. */
#define HELPERS "float add(float x, float y) { return x + y; }\n" \
                "float multiply(float x, float y) { return x * y; }\n"

START_TEST(sub_outputs_equal_separate_kernels)
{
    enum { N = 5000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    uint32_t s = 7;
    for (int i = 0; i < N; i++) {
        a[i] = test_random(&s) * 10.0f - 5.0f;
        b[i] = test_random(&s);
        c[i] = test_random(&s) * 3.0f;
    }
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){N}), gpuc_arg_host_f32(b, (gpuc_dims){N}),
                       gpuc_arg_host_f32(c, (gpuc_dims){N})};
    gpuc_kernel *map = make(HELPERS "float k(float a[], float b[], float c[]) {\n"
                                    "    return multiply(add(a[thread.x], b[thread.x]), c[thread.x]) - 1.0;\n}\n",
                            (gpuc_kernel_desc){.output = {N},
                                               .map = {{"addResult", "add"}, {"multiplyResult", "multiply"}}});
    ck_assert_int_eq(gpuc_kernel_map_count(map), 2);
    ck_assert_str_eq(gpuc_kernel_map_name(map, 0), "addResult");
    ck_assert_str_eq(gpuc_kernel_map_name(map, 1), "multiplyResult");
    ck_assert_ptr_null(gpuc_kernel_map_name(map, 2));
    gpuc_array *out[3];
    ck_assert_gpuc_ok(gpuc_run_map(map, args, 3, out));

    gpuc_kernel *add = make(HELPERS "float k(float a[], float b[], float c[]) { return add(a[thread.x], b[thread.x]); }",
                            (gpuc_kernel_desc){.output = {N}});
    gpuc_kernel *mul = make(HELPERS "float k(float a[], float b[], float c[]) {\n"
                                    "    return multiply(add(a[thread.x], b[thread.x]), c[thread.x]);\n}\n",
                            (gpuc_kernel_desc){.output = {N}});
    gpuc_array *sep_add, *sep_mul;
    ck_assert_gpuc_ok(gpuc_run(add, args, 3, &sep_add));
    ck_assert_gpuc_ok(gpuc_run(mul, args, 3, &sep_mul));

    float *result = read_f32(out[0]), *m_add = read_f32(out[1]), *m_mul = read_f32(out[2]);
    float *s_add = read_f32(sep_add), *s_mul = read_f32(sep_mul);
    ck_assert_mem_eq(m_add, s_add, N * sizeof *m_add);
    ck_assert_mem_eq(m_mul, s_mul, N * sizeof *m_mul);
    for (int i = 0; i < N; i++) {
        float sum = a[i] + b[i];
        ck_assert_float_eq(m_add[i], sum);
        ck_assert_float_eq_tol(m_mul[i], sum * c[i], 1e-5f);
        ck_assert_float_eq_tol(result[i], sum * c[i] - 1.0f, 1e-5f);
    }
    for (int i = 0; i < 3; i++)
        gpuc_array_free(out[i]);
    free(result), free(m_add), free(m_mul), free(s_add), free(s_mul), free(a), free(b), free(c);
    gpuc_array_free(sep_add);
    gpuc_array_free(sep_mul);
    gpuc_kernel_free(map);
    gpuc_kernel_free(add);
    gpuc_kernel_free(mul);
}
END_TEST

/* Sub-outputs of other types on a 2D output; the last call in a cell wins; a cell that never calls the
 * helper gets 0. */
START_TEST(typed_sub_outputs_last_call_and_uncalled)
{
    enum { X = 37, Y = 29 };
    gpuc_kernel *k = make("vec3 spread(float v) { return vec3(v, 2.0 * v, -v); }\n"
                          "int bucket(int v) { return v * 3; }\n"
                          "vec4 k() {\n"
                          "    int b = bucket(thread.x);\n"
                          "    if (thread.y % 2 == 0) b += bucket(thread.y);\n"
                          "    vec3 s = thread.x > 10 ? spread(float(thread.y)) : vec3(0.5);\n"
                          "    return vec4(s, float(b));\n"
                          "}\n",
                          (gpuc_kernel_desc){.output = {X, Y}, .map = {{"spread", "spread"}, {"bucket", "bucket"}}});
    gpuc_array *out[3];
    ck_assert_gpuc_ok(gpuc_run_map(k, NULL, 0, out));
    ck_assert_int_eq(gpuc_array_type(out[1]), GPUC_VEC3);
    ck_assert_int_eq(gpuc_array_type(out[2]), GPUC_INT);
    ck_assert_uint_eq(gpuc_array_dims(out[1]).y, Y);
    float *result = read_f32(out[0]), *spread = read_f32(out[1]);
    int32_t *bucket = malloc(X * Y * sizeof *bucket);
    ck_assert_gpuc_ok(gpuc_array_read_i32(out[2], bucket, X * Y));
    for (int y = 0; y < Y; y++)
        for (int x = 0; x < X; x++) {
            int i = y * X + x;
            int b = 3 * x + (y % 2 == 0 ? 3 * y : 0);
            ck_assert_float_eq(result[4 * i + 3], (float)b);
            ck_assert_int_eq(bucket[i], y % 2 == 0 ? 3 * y : 3 * x); /* the last call */
            float want[3] = {x > 10 ? (float)y : 0.0f, x > 10 ? 2.0f * y : 0.0f, x > 10 ? -(float)y : 0.0f};
            ck_assert_mem_eq(&spread[3 * i], want, sizeof want);
        }
    for (int i = 0; i < 3; i++)
        gpuc_array_free(out[i]);
    free(result), free(spread), free(bucket);
    gpuc_kernel_free(k);
}
END_TEST

/* An output long enough to take several tiles (fragment) and ranges (compute) keeps every map aligned. */
START_TEST(large_map_output)
{
    enum { N = (1 << 22) + 2049 + 5 };
    gpuc_kernel *k = make("int twice(int v) { return 2 * v; }\nint k() { return twice(thread.x) + 1; }",
                          (gpuc_kernel_desc){.output = {N}, .map = {{"twice", "twice"}}});
    gpuc_array *out[2];
    ck_assert_gpuc_ok(gpuc_run_map(k, NULL, 0, out));
    int32_t *r = malloc(N * sizeof *r), *t = malloc(N * sizeof *t);
    ck_assert_gpuc_ok(gpuc_array_read_i32(out[0], r, N));
    ck_assert_gpuc_ok(gpuc_array_read_i32(out[1], t, N));
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(t[i], 2 * i);
        ck_assert_int_eq(r[i], 2 * i + 1);
    }
    free(r), free(t);
    gpuc_array_free(out[0]);
    gpuc_array_free(out[1]);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(kernel_map_errors)
{
    gpuc_kernel *k = NULL;
    const char *src = HELPERS "float k(float a[]) { return add(a[thread.x], 1.0); }";
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src,
                                            &(gpuc_kernel_desc){.output = {4}, .map = {{"r", "add"}, {"r", "multiply"}}},
                                            &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "\"r\" is given twice");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}, .map = {{"result", "add"}}},
                                            &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "\"result\"");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}, .map = {{"s", "subtract"}}},
                                            &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "`subtract`");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}, .map = {{"s", NULL}}}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "(NULL)");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}, .map = {{"k", "k"}}}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "`k`");
    ck_assert_ptr_null(k);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}, .map = {{"sum", "add"}}}, &k));
    float a[4] = {1, 2, 3, 4};
    gpuc_array *r = NULL;
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){4});
    ck_assert_gpuc_fails(gpuc_run(k, &arg, 1, &r), GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run_map");
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){4}, &r));
    ck_assert_gpuc_fails(gpuc_run_to(k, &arg, 1, r), GPUC_ERROR_INVALID_ARGUMENT, "gpuc_run_map");
    ck_assert_gpuc_fails(gpuc_run_map(k, &arg, 1, NULL), GPUC_ERROR_INVALID_ARGUMENT, "NULL");
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    ck_assert_int_eq(gpuc_kernel_map_count(NULL), 0);
    ck_assert_ptr_null(gpuc_kernel_map_name(NULL, 0));
}
END_TEST

Suite *suite_kernel_map(void)
{
    Suite *s = suite_create("kernel_map");
    TCase *tc = fixture_tcase("kernel_map");
    tcase_add_test(tc, sub_outputs_equal_separate_kernels);
    tcase_add_test(tc, typed_sub_outputs_last_call_and_uncalled);
    tcase_add_test(tc, large_map_output);
    tcase_add_test(tc, kernel_map_errors);
    suite_add_tcase(s, tc);
    return s;
}
