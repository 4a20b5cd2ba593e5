/* test_arrays.c - device arrays: round trips, shapes, zero fill, and every bad input. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

START_TEST(float_round_trip)
{
    enum { N = 1001 };
    float in[N], out[N];
    uint32_t s = 7;
    for (int i = 0; i < N; i++)
        in[i] = test_random(&s) * 200.0f - 100.0f;
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, in, (gpuc_dims){N}, &a));
    ck_assert_int_eq(gpuc_array_type(a), GPUC_FLOAT);
    ck_assert_uint_eq(gpuc_array_cells(a), N);
    ck_assert_uint_eq(gpuc_array_values(a), N);
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, out, N));
    ck_assert_mem_eq(in, out, sizeof in);
    gpuc_array_free(a);
}
END_TEST

START_TEST(int_round_trip_2d)
{
    int32_t in[6 * 5], out[6 * 5];
    for (int i = 0; i < 30; i++)
        in[i] = (i - 15) * 1000003;
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, in, (gpuc_dims){6, 5}, &a));
    gpuc_dims d = gpuc_array_dims(a);
    ck_assert_uint_eq(d.x, 6);
    ck_assert_uint_eq(d.y, 5);
    ck_assert_uint_eq(d.z, 0);
    ck_assert_gpuc_ok(gpuc_array_read_i32(a, out, 30));
    ck_assert_mem_eq(in, out, sizeof in);
    gpuc_array_free(a);
}
END_TEST

START_TEST(new_is_zero_filled_and_writable)
{
    const gpuc_type types[] = {GPUC_FLOAT, GPUC_VEC2, GPUC_VEC3, GPUC_VEC4};
    for (int t = 0; t < 4; t++) {
        gpuc_array *a;
        ck_assert_gpuc_ok(gpuc_array_new(gpu, types[t], (gpuc_dims){3, 3, 3}, &a));
        size_t n = gpuc_array_values(a);
        ck_assert_uint_eq(n, 27u * (unsigned)(t == 0 ? 1 : t + 1));
        float *v = malloc(n * sizeof *v);
        ck_assert_gpuc_ok(gpuc_array_read_f32(a, v, n));
        for (size_t i = 0; i < n; i++)
            ck_assert_float_eq(v[i], 0.0f);
        for (size_t i = 0; i < n; i++)
            v[i] = (float)i * 0.5f;
        ck_assert_gpuc_ok(gpuc_array_write_f32(a, v, n));
        float *back = calloc(n, sizeof *back);
        ck_assert_gpuc_ok(gpuc_array_read_f32(a, back, n));
        ck_assert_mem_eq(v, back, n * sizeof *v);
        free(v);
        free(back);
        gpuc_array_free(a);
    }
}
END_TEST

/* A freed small array's buffer is kept for the next array of its size: that array must still read as
 * a new one, zero-filled (gpuc_array_new) and with zeros past its values (read as vec4 cells: the
 * padding of its last texel), whatever the freed array held. */
START_TEST(recycled_buffers_read_as_new)
{
    float ones[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    for (int round = 0; round < 3; round++) {
        gpuc_array *full, *fresh;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ones, (gpuc_dims){8}, &full));
        gpuc_array_free(full);
        ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){7}, &fresh)); /* the same 2 texels */
        ck_assert_gpuc_ok(gpuc_array_read_f32(fresh, got, 7));
        for (int i = 0; i < 7; i++)
            ck_assert_float_eq(got[i], 0.0f);
        gpuc_array_free(fresh);
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ones, (gpuc_dims){8}, &full));
        gpuc_array_free(full);
        gpuc_array *five;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ones, (gpuc_dims){5}, &five));
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float pad(vec4 a[]) { return a[1].x + a[1].y + a[1].z + a[1].w; }",
                                             &(gpuc_kernel_desc){.output = {1}}, &k));
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(five)}, 1, &r));
        ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, 1));
        ck_assert_float_eq(got[0], 5.0f); /* value 5, then three zeros of padding */
        gpuc_array_free(r);
        gpuc_kernel_free(k);
        gpuc_array_free(five);
    }
}
END_TEST

START_TEST(bad_shapes_are_refused)
{
    gpuc_array *a = NULL;
    float f = 0;
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){0}, &a), GPUC_ERROR_INVALID_ARGUMENT, "x = 0");
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){4, 0, 2}, &a), GPUC_ERROR_INVALID_ARGUMENT,
                         "z without y");
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){65536, 65536, 2}, &a), GPUC_ERROR_LIMIT,
                         "2^31 - 1");
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_TYPE_NONE, (gpuc_dims){4}, &a), GPUC_ERROR_INVALID_ARGUMENT,
                         "not float");
    ck_assert_gpuc_fails(gpuc_array_new(gpu, (gpuc_type)42, (gpuc_dims){4}, &a), GPUC_ERROR_INVALID_ARGUMENT,
                         "not float");
    ck_assert_gpuc_fails(gpuc_array_from_f32(gpu, NULL, (gpuc_dims){4}, &a), GPUC_ERROR_INVALID_ARGUMENT,
                         "data is NULL");
    ck_assert_gpuc_fails(gpuc_array_from_f32(gpu, &f, (gpuc_dims){1}, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "out is NULL");
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){4}, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "out is NULL");
    ck_assert_ptr_null(a);
}
END_TEST

START_TEST(array_over_the_texture_buffer_limit)
{
    const gpuc_info *info = gpuc_get_info(gpu);
    int64_t texels = info->max_texture_buffer_size;
    if (texels * 4 + 4 >= INT32_MAX)
        return; /* the device's limit is above gpuc's own cell limit, tested above */
    gpuc_array *a = NULL;
    ck_assert_gpuc_fails(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)(texels * 4 + 4)}, &a),
                         GPUC_ERROR_LIMIT, "GL_MAX_TEXTURE_BUFFER_SIZE");
    ck_assert_ptr_null(a);
}
END_TEST

START_TEST(copies_check_count_and_type)
{
    float f[4] = {1, 2, 3, 4};
    int32_t i[4] = {0};
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){4}, &a));
    ck_assert_gpuc_fails(gpuc_array_read_f32(a, f, 3), GPUC_ERROR_INVALID_ARGUMENT, "holds 4 values");
    ck_assert_gpuc_fails(gpuc_array_write_f32(a, f, 5), GPUC_ERROR_INVALID_ARGUMENT, "holds 4 values");
    ck_assert_gpuc_fails(gpuc_array_read_i32(a, i, 4), GPUC_ERROR_TYPE_MISMATCH, "gpuc_array_read_f32");
    ck_assert_gpuc_fails(gpuc_array_write_i32(a, i, 4), GPUC_ERROR_TYPE_MISMATCH, "gpuc_array_write_f32");
    ck_assert_gpuc_fails(gpuc_array_read_f32(a, NULL, 4), GPUC_ERROR_INVALID_ARGUMENT, "data is NULL");
    ck_assert_int_eq(gpuc_array_read_f32(NULL, f, 4), GPUC_ERROR_INVALID_ARGUMENT);
    /* Nothing was corrupted by the failures. */
    float back[4];
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, back, 4));
    ck_assert_mem_eq(back, f, sizeof f);
    gpuc_array_free(a);
    gpuc_array_free(NULL);
    ck_assert_int_eq(gpuc_array_type(NULL), GPUC_TYPE_NONE);
    ck_assert_uint_eq(gpuc_array_cells(NULL), 0);
}
END_TEST

START_TEST(stats_count_transfers)
{
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    float f[8] = {0}, g[8];
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){8}, &a));
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, g, 8));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.uploads - before.uploads, 1);
    ck_assert_uint_eq(after.readbacks - before.readbacks, 1);
    ck_assert_uint_eq(after.bytes_uploaded - before.bytes_uploaded, 32);
    ck_assert_int_eq(gpuc_get_stats(gpu, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_array_free(a);
}
END_TEST

Suite *suite_arrays(void)
{
    Suite *s = suite_create("arrays");
    TCase *tc = fixture_tcase("arrays");
    tcase_add_test(tc, float_round_trip);
    tcase_add_test(tc, int_round_trip_2d);
    tcase_add_test(tc, new_is_zero_filled_and_writable);
    tcase_add_test(tc, recycled_buffers_read_as_new);
    tcase_add_test(tc, bad_shapes_are_refused);
    tcase_add_test(tc, array_over_the_texture_buffer_limit);
    tcase_add_test(tc, copies_check_count_and_type);
    tcase_add_test(tc, stats_count_transfers);
    suite_add_tcase(s, tc);
    return s;
}
