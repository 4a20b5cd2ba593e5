/* test_vec_args.c - one vector as a kernel argument (GPU.js's Array(2), Array(3), Array(4) argument
 * types; gpuc_arg_vec2..4): GLSL `vecN v` parameters and JavaScript parameters typed Array(N), checked
 * against C, a new value without a new program, and every wrong argument refused by name. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* out[i] = a[i] * v.x + v.y * v.z - v.w, computed by a GLSL and a JavaScript kernel. */
#define N 1000
static float oracle(float a, const float v[4])
{
    return a * v[0] + v[1] * v[2] - v[3];
}

static void check_run(gpuc_kernel *k, const float *a, const float v[4])
{
    gpuc_array *r = NULL;
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){N}), gpuc_arg_vec4(v[0], v[1], v[2], v[3])};
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *out = fixture_take_floats(r, N);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq_tol(out[i], oracle(a[i], v), 1e-4f);
    free(out);
}

static void check_both_values(gpuc_kernel *k)
{
    float a[N];
    uint32_t s = 11;
    for (int i = 0; i < N; i++)
        a[i] = test_random(&s) * 8.0f - 4.0f;
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    check_run(k, a, (const float[4]){2.0f, 3.0f, 0.5f, 1.0f});
    check_run(k, a, (const float[4]){-1.5f, 0.25f, 8.0f, -3.0f});
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.programs_compiled, before.programs_compiled); /* a uniform: nothing recompiles */
}

START_TEST(glsl_vec4_parameter)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[], vec4 v) { return a[thread.x] * v.x + v.y * v.z - v.w; }",
                                         &(gpuc_kernel_desc){.output = {N}}, &k));
    ck_assert_int_eq(gpuc_kernel_arg_count(k), 2);
    check_both_values(k);
    gpuc_kernel_free(k);
}
END_TEST

/* GPU.js 2.24.1 (node; it runs Array(4) arguments on its CPU backend) returns [2.5, 4.5, 6.5] for
 * a = [1, 2, 3], v = [2, 3, 0.5, 1] (scripts/gpujs-args-oracle.js). */
START_TEST(js_array4_matches_gpujs)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a, v) { return a[this.thread.x] * v[0] + v[1] * v[2] - v[3]; }",
                                            &(gpuc_kernel_desc){.output = {3}, .arg_types = "Array, Array(4)"}, &k));
    const float a[3] = {1, 2, 3};
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){3}), gpuc_arg_vec4(2, 3, 0.5f, 1)};
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *out = fixture_take_floats(r, 3);
    ck_assert_float_eq(out[0], 2.5f);
    ck_assert_float_eq(out[1], 4.5f);
    ck_assert_float_eq(out[2], 6.5f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(js_array4_parameter)
{
    static const char *const types[] = {"Array, Array(4)", "float[], vec4"};
    for (int t = 0; t < 2; t++) {
        gpuc_kernel *k = NULL;
        ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                                "function f(a, v) { return a[this.thread.x] * v[0] + v[1] * v[2] - v[3]; }",
                                                &(gpuc_kernel_desc){.output = {N}, .arg_types = types[t]}, &k));
        check_both_values(k);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* vec2 and vec3 in one kernel, returned whole and indexed with a variable, as GPU.js kernels do. */
START_TEST(vec2_vec3_whole_and_indexed)
{
    gpuc_kernel *g = NULL, *j = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "vec3 f(vec2 p, vec3 c) { return c * p[thread.x % 2] + vec3(p, 1.0); }",
                                         &(gpuc_kernel_desc){.output = {4}}, &g));
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function f(p, c) { const i = this.thread.x % 2;\n"
                                            "  return [c[0] * p[i] + p[0], c[1] * p[i] + p[1], c[2] * p[i] + 1]; }",
                                            &(gpuc_kernel_desc){.output = {4}, .arg_types = "Array(2), Array(3)"}, &j));
    gpuc_arg args[] = {gpuc_arg_vec2(3.0f, -2.0f), gpuc_arg_vec3(1.0f, 10.0f, 100.0f)};
    gpuc_kernel *ks[] = {g, j};
    for (int n = 0; n < 2; n++) {
        gpuc_array *r = NULL;
        ck_assert_gpuc_ok(gpuc_run(ks[n], args, 2, &r));
        float out[12];
        ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, 12));
        for (int i = 0; i < 4; i++) {
            float p = i % 2 ? -2.0f : 3.0f;
            ck_assert_float_eq(out[3 * i + 0], 1.0f * p + 3.0f);
            ck_assert_float_eq(out[3 * i + 1], 10.0f * p - 2.0f);
            ck_assert_float_eq(out[3 * i + 2], 100.0f * p + 1.0f);
        }
        gpuc_array_free(r);
    }
    gpuc_kernel_free(g);
    gpuc_kernel_free(j);
}
END_TEST

/* A vector argument passed whole to a JavaScript helper (its parameter takes the vector's type). */
START_TEST(vector_passed_to_a_js_helper)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function dot2(p, q) { return p[0] * q[0] + p[1] * q[1]; }\n"
                                            "function (v, w) { return dot2(v, w) + this.thread.x; }",
                                            &(gpuc_kernel_desc){.output = {2}, .arg_types = "Array(2), Array(2)"}, &k));
    gpuc_arg args[] = {gpuc_arg_vec2(1, 2), gpuc_arg_vec2(3, 4)};
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *out = fixture_take_floats(r, 2);
    ck_assert_float_eq(out[0], 11.0f);
    ck_assert_float_eq(out[1], 12.0f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

/* Initialisers written for gpuc_arg before it had vector fields still mean the same. */
START_TEST(old_positional_initialisers_still_work)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float t, int n) { return t * float(n); }",
                                         &(gpuc_kernel_desc){.output = {3}}, &k));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
    gpuc_arg args[] = {{GPUC_ARG_F32, NULL, NULL, {0, 0, 0}, 2.5f, 0}, {GPUC_ARG_I32, NULL, NULL, {0, 0, 0}, 0.0f, 4}};
#pragma GCC diagnostic pop
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *out = fixture_take_floats(r, 3);
    ck_assert_float_eq(out[2], 10.0f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(wrong_vector_arguments_are_refused)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(vec3 v, float a[], float t) { return v.z + a[0] + t; }",
                                         &(gpuc_kernel_desc){.output = {2}}, &k));
    float a[2] = {1, 2};
    gpuc_array *r = NULL;
    gpuc_arg args[] = {gpuc_arg_vec4(1, 2, 3, 4), gpuc_arg_host_f32(a, (gpuc_dims){2}), gpuc_arg_f32(1)};
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "argument 0 (`vec3 v`): expected a "
                                                                             "vector of 3 (gpuc_arg_vec3), got one of 4");
    args[0] = gpuc_arg_f32(1);
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "got a float scalar");
    args[0] = gpuc_arg_host_f32(a, (gpuc_dims){2});
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "got host float32 data");
    args[0] = gpuc_arg_vec3(1, 2, 3);
    args[0].components = 9; /* hand-made and wrong */
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "one of 9 components");
    args[0] = gpuc_arg_vec3(1, 2, 3);
    args[1] = gpuc_arg_vec2(1, 2);
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "expected an array, got a vector");
    args[1] = gpuc_arg_host_f32(a, (gpuc_dims){2});
    args[2] = gpuc_arg_vec2(1, 2);
    ck_assert_gpuc_fails(gpuc_run(k, args, 3, &r), GPUC_ERROR_TYPE_MISMATCH, "expected a float scalar");
    ck_assert_ptr_null(r);
    args[2] = gpuc_arg_f32(0.5f);
    ck_assert_gpuc_ok(gpuc_run(k, args, 3, &r));
    float *out = fixture_take_floats(r, 2);
    ck_assert_float_eq(out[1], 4.5f);
    free(out);
    /* The algorithms take arrays only. */
    gpuc_array *sorted = NULL;
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_vec4(4, 3, 2, 1), NULL, &sorted), GPUC_ERROR_TYPE_MISMATCH,
                         "must be an array");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_vec2(1, 2), &(gpuc_topk_desc){.k = 1}, &sorted, NULL),
                         GPUC_ERROR_TYPE_MISMATCH, "float data");
    ck_assert_ptr_null(sorted);
    gpuc_kernel_free(k);
    /* A JavaScript vector is read by index, never more than 4 deep. */
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function f(v) { return v[4]; }",
                                               &(gpuc_kernel_desc){.output = {2}, .arg_types = "Array(4)"}, &k),
                         GPUC_ERROR_COMPILE, "index 4 is outside an array of 4");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function f(v) { return v[0]; }",
                                               &(gpuc_kernel_desc){.output = {2}, .arg_types = "Array(5)"}, &k),
                         GPUC_ERROR_COMPILE, "`Array(5)` is not a type");
}
END_TEST

Suite *suite_vec_args(void)
{
    Suite *s = suite_create("vec_args");
    TCase *tc = fixture_tcase("vec_args");
    tcase_add_test(tc, glsl_vec4_parameter);
    tcase_add_test(tc, js_array4_matches_gpujs);
    tcase_add_test(tc, js_array4_parameter);
    tcase_add_test(tc, vec2_vec3_whole_and_indexed);
    tcase_add_test(tc, vector_passed_to_a_js_helper);
    tcase_add_test(tc, old_positional_initialisers_still_work);
    tcase_add_test(tc, wrong_vector_arguments_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
