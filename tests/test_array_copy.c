/* test_array_copy.c - gpuc_array_clone and gpuc_array_clear (GPU.js's texture.clone() / .clear()) on
 * kernel results of whichever backend the run uses, against C oracles: contents, independence of the
 * copy, zero padding, host copies, and bad input. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

enum { W = 7, H = 3 };

/* cell (x, y) = (x + 10y, -x, 0.5y): a vec3 result, so the padding of its last texel matters. */
static const char *VEC3_CELLS = "vec3 f(float bias) { return vec3(float(thread.x + 10 * thread.y) + bias, "
                                "-float(thread.x), 0.5 * float(thread.y)); }";

static void vec3_oracle(float bias, float *out)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float *c = out + 3 * (y * W + x);
            c[0] = (float)(x + 10 * y) + bias;
            c[1] = -(float)x;
            c[2] = 0.5f * (float)y;
        }
}

static gpuc_kernel *vec3_kernel(bool pipeline)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, VEC3_CELLS, &(gpuc_kernel_desc){.output = {W, H}, .pipeline = pipeline},
                                         &k));
    return k;
}

START_TEST(clone_copies_on_the_device)
{
    gpuc_kernel *k = vec3_kernel(true);
    gpuc_array *a = NULL, *c = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(1.5f)}, 1, &a));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_array_clone(a, &c));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.readbacks, before.readbacks); /* no host round trip */
    ck_assert_uint_eq(after.uploads, before.uploads);
    ck_assert_ptr_ne(c, a);
    ck_assert_int_eq(gpuc_array_type(c), GPUC_VEC3);
    gpuc_dims d = gpuc_array_dims(c);
    ck_assert_uint_eq(d.x, W);
    ck_assert_uint_eq(d.y, H);
    ck_assert_uint_eq(d.z, 0);
    /* The copy is independent: running into the original afterwards leaves it as it was. */
    ck_assert_gpuc_ok(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_f32(-100.0f)}, 1, a));
    float want[W * H * 3], got[W * H * 3];
    vec3_oracle(1.5f, want);
    ck_assert_gpuc_ok(gpuc_array_read_f32(c, got, W * H * 3));
    ck_assert_mem_eq(got, want, sizeof want);
    vec3_oracle(-100.0f, want);
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, W * H * 3));
    ck_assert_mem_eq(got, want, sizeof want);
    gpuc_array_free(a);
    gpuc_array_free(c);
    gpuc_kernel_free(k);
}
END_TEST

/* A clone of an array already read back brings the host copy along (reading it reads nothing back),
 * and a kernel reading past the clone's last value sees the zero padding. */
START_TEST(clone_keeps_host_copy_and_padding)
{
    float v[5] = {1, -2, 3.5f, 4, 5};
    gpuc_array *a = NULL, *c = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){5}, &a));
    float got[5];
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, 5));
    ck_assert_gpuc_ok(gpuc_array_clone(a, &c));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_array_read_f32(c, got, 5));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.readbacks, before.readbacks);
    ck_assert_mem_eq(got, v, sizeof v);
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {8}}, &k));
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(c)}, 1, &r));
    float *out = fixture_take_floats(r, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_float_eq(out[i], i < 5 ? v[i] : 0.0f);
    free(out);
    gpuc_array_free(a);
    gpuc_array_free(c);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(clear_zeroes_on_the_device)
{
    gpuc_kernel *k = vec3_kernel(false);
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(2.0f)}, 1, &a)); /* read back: a host copy exists */
    ck_assert_gpuc_ok(gpuc_array_clear(a));
    float got[W * H * 3], zero[W * H * 3] = {0};
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, W * H * 3));
    ck_assert_mem_eq(got, zero, sizeof zero);
    /* A kernel reading the cleared array sees zeros on the device too. */
    gpuc_kernel *sum = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(vec3 v[][]) { vec3 c = v[thread.y][thread.x]; "
                                              "return c.x + c.y + c.z + 1.0; }",
                                         &(gpuc_kernel_desc){.output = {W, H}}, &sum));
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(sum, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &r));
    float *out = fixture_take_floats(r, W * H);
    for (int i = 0; i < W * H; i++)
        ck_assert_float_eq(out[i], 1.0f);
    free(out);
    /* An int array never read back is cleared too. */
    int32_t iv[6] = {1, 2, 3, -4, 5, 6}, ig[6], izero[6] = {0};
    gpuc_array *ia = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, iv, (gpuc_dims){3, 2}, &ia));
    ck_assert_gpuc_ok(gpuc_array_clear(ia));
    ck_assert_gpuc_ok(gpuc_array_read_i32(ia, ig, 6));
    ck_assert_mem_eq(ig, izero, sizeof izero);
    gpuc_array_free(ia);
    gpuc_array_free(a);
    gpuc_kernel_free(k);
    gpuc_kernel_free(sum);
}
END_TEST

START_TEST(copy_bad_input)
{
    gpuc_array *a = NULL, *c = NULL;
    ck_assert_int_eq(gpuc_array_clone(NULL, &c), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(gpuc_array_clear(NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){4}, &a));
    ck_assert_gpuc_fails(gpuc_array_clone(a, NULL), GPUC_ERROR_INVALID_ARGUMENT, "out is NULL");
    ck_assert_ptr_null(c);
    gpuc_array_free(a);
}
END_TEST

Suite *suite_array_copy(void)
{
    Suite *s = suite_create("array_copy");
    TCase *tc = fixture_tcase("array_copy");
    tcase_add_test(tc, clone_copies_on_the_device);
    tcase_add_test(tc, clone_keeps_host_copy_and_padding);
    tcase_add_test(tc, clear_zeroes_on_the_device);
    tcase_add_test(tc, copy_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
