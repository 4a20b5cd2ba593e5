/* test_arrays.c - device arrays: round trips, shapes, zero fill, and every bad input. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the device holds for a (not its host copy): a's values as a kernel that copies them reads them,
 * into out (gpuc_array_values(a) of them). Arrays made or written from host data keep that data on the
 * host too (small ones), so reading them back would not show what was uploaded. */
static void device_values(gpuc_array *a, void *out)
{
    static const char *const subscripts[] = {"", "[thread.x]", "[thread.y][thread.x]",
                                             "[thread.z][thread.y][thread.x]"};
    gpuc_dims d = gpuc_array_dims(a);
    int rank = d.z ? 3 : d.y ? 2 : 1;
    const char *type = gpuc_array_type(a) == GPUC_INT ? "int" : gpuc_array_type(a) == GPUC_FLOAT ? "float"
                     : gpuc_array_type(a) == GPUC_VEC2 ? "vec2" : gpuc_array_type(a) == GPUC_VEC3 ? "vec3" : "vec4";
    char src[200];
    snprintf(src, sizeof src, "%s copy(%s a%s) { return a%s; }", type, type,
             rank == 1 ? "[]" : rank == 2 ? "[][]" : "[][][]", subscripts[rank]);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = d}, &k));
    gpuc_array *copy;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &copy));
    size_t n = gpuc_array_values(a);
    ck_assert_gpuc_ok(gpuc_array_type(a) == GPUC_INT ? gpuc_array_read_i32(copy, out, n)
                                                     : gpuc_array_read_f32(copy, out, n));
    gpuc_array_free(copy);
    gpuc_kernel_free(k);
}

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
    memset(out, 0, sizeof out);
    device_values(a, out);
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
    memset(out, 0, sizeof out);
    device_values(a, out);
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
        memset(back, 0, n * sizeof *back);
        device_values(a, back);
        ck_assert_mem_eq(v, back, n * sizeof *v);
        free(v);
        free(back);
        gpuc_array_free(a);
    }
}
END_TEST

/* Small freed arrays fill every slot of the kept buffers; a large one freed after them takes the
 * place of the smallest (device/array.c: a large buffer costs llvmpipe fresh pages to make again).
 * Every array made after that, the large size's and the small ones' (one of them made anew), reads
 * from its buffer as new: zeros from gpuc_array_new, its own values from data (too large for a host
 * copy, so read back). */
START_TEST(large_freed_buffers_displace_small_kept_ones)
{
    enum { SMALL = 12, LARGE = 1 << 18 };
    float *values = malloc(LARGE * sizeof *values), *got = malloc(LARGE * sizeof *got);
    ck_assert(values && got);
    for (size_t i = 0; i < LARGE; i++)
        values[i] = (float)(i % 977) + 0.5f;
    for (int round = 0; round < 3; round++) {
        gpuc_array *small[SMALL], *large;
        for (int i = 0; i < SMALL; i++) /* sizes of 1 .. SMALL texels */
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, values, (gpuc_dims){(uint32_t)(4 * (i + 1))}, &small[i]));
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, values, (gpuc_dims){LARGE}, &large));
        for (int i = 0; i < SMALL; i++)
            gpuc_array_free(small[i]);
        gpuc_array_free(large);
        ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){LARGE}, &large));
        ck_assert_gpuc_ok(gpuc_array_read_f32(large, got, LARGE));
        for (size_t i = 0; i < LARGE; i++)
            ck_assert_msg(got[i] == 0.0f, "round %d: value %zu of a new large array is %g", round, i, (double)got[i]);
        gpuc_array_free(large);
        for (int i = 0; i < SMALL; i++) {
            uint32_t n = (uint32_t)(4 * (i + 1));
            gpuc_array *a;
            ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){n}, &a)); /* read from its buffer */
            ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, n));
            for (uint32_t j = 0; j < n; j++)
                ck_assert_float_eq(got[j], 0.0f);
            small[i] = a;
        }
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, values, (gpuc_dims){LARGE}, &large));
        ck_assert_gpuc_ok(gpuc_array_read_f32(large, got, LARGE));
        ck_assert_mem_eq(got, values, LARGE * sizeof *got);
        gpuc_array_free(large);
        for (int i = 0; i < SMALL; i++)
            gpuc_array_free(small[i]);
    }
    free(values);
    free(got);
}
END_TEST

/* A freed array's buffer is kept for the next array of its size (small ones, and large ones up to a
 * budget): that array must still read as a new one, zero-filled (gpuc_array_new) and with zeros past
 * its values (read as vec4 cells: the padding of its last texel), whatever the freed array held; a
 * kernel's result in a kept buffer holds only what the kernel wrote. Sizes: 2 texels, and 1 MiB. */
START_TEST(recycled_buffers_read_as_new)
{
    static const size_t sizes[] = {8, (size_t)1 << 18};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *full_values = malloc(n * sizeof *full_values), *got = malloc(n * sizeof *got);
        ck_assert(full_values && got);
        for (size_t i = 0; i < n; i++)
            full_values[i] = (float)(i % 1000) + 1.0f;
        gpuc_kernel *pad, *copy;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                             "float pad(vec4 a[]) { int t = constants.t;"
                                             " return a[t].x + a[t].y + a[t].z + a[t].w; }",
                                             &(gpuc_kernel_desc){.output = {1}, .constants = {{"t", (double)(n / 4 - 1)}}},
                                             &pad));
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float copy(float a[]) { return a[thread.x] * 2.0; }",
                                             &(gpuc_kernel_desc){.output = {(uint32_t)n - 3}}, &copy));
        for (int round = 0; round < 3; round++) {
            gpuc_array *full, *fresh;
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, full_values, (gpuc_dims){(uint32_t)n}, &full));
            gpuc_array_free(full);
            ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)n - 1}, &fresh)); /* same texels */
            ck_assert_gpuc_ok(gpuc_array_read_f32(fresh, got, n - 1));
            for (size_t i = 0; i < n - 1; i++)
                ck_assert_msg(got[i] == 0.0f, "size %zu, value %zu: %g", n, i, (double)got[i]);
            gpuc_array_free(fresh);
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, full_values, (gpuc_dims){(uint32_t)n}, &full));
            gpuc_array_free(full);
            gpuc_array *short_one;
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, full_values, (gpuc_dims){(uint32_t)n - 3}, &short_one));
            gpuc_array *r;
            ck_assert_gpuc_ok(gpuc_run(pad, (gpuc_arg[]){gpuc_arg_array(short_one)}, 1, &r));
            ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, 1));
            ck_assert_float_eq(got[0], full_values[n - 4]); /* its last value, then three zeros of padding */
            gpuc_array_free(r);
            /* a result (its values written by the kernel, its padding cleared) in the buffer of a freed
             * array of its size, read through the pad kernel too */
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, full_values, (gpuc_dims){(uint32_t)n}, &full));
            gpuc_array_free(full);
            gpuc_array *doubled;
            ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_array(short_one)}, 1, &doubled));
            ck_assert_gpuc_ok(gpuc_run(pad, (gpuc_arg[]){gpuc_arg_array(doubled)}, 1, &r));
            ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, 1));
            ck_assert_float_eq(got[0], 2.0f * full_values[n - 4]);
            gpuc_array_free(r);
            gpuc_array_free(doubled);
            gpuc_array_free(short_one);
        }
        gpuc_kernel_free(pad);
        gpuc_kernel_free(copy);
        free(full_values);
        free(got);
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

/* Read-backs that reading a's n floats into out costs. */
static uint64_t read_cost(gpuc_array *a, float *out, size_t n)
{
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, out, n));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    return after.readbacks - before.readbacks;
}

START_TEST(stats_count_transfers)
{
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    float f[8] = {0}, g[8];
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){8}, &a));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.uploads - before.uploads, 1);
    ck_assert_uint_eq(after.bytes_uploaded - before.bytes_uploaded, 32);
    ck_assert_uint_eq(read_cost(a, g, 8), 0); /* its host copy */
    ck_assert_int_eq(gpuc_get_stats(gpu, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_array_free(a);
}
END_TEST

START_TEST(host_copies_of_small_arrays)
{
    /* An array made or written from at most 65,536 host values keeps them as its host copy: reading it
     * reads nothing back until the device writes it (then the kernel's values, read back); a larger one
     * reads back. */
    enum { MOST = 65536 };
    float *v = malloc((MOST + 1) * sizeof *v), *got = malloc((MOST + 1) * sizeof *got);
    for (int i = 0; i <= MOST; i++)
        v[i] = (float)i * 0.25f;
    gpuc_kernel *twice;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float twice(float a[]) { return 2.0 * a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {MOST}}, &twice));
    for (int larger = 0; larger < 2; larger++) {
        size_t n = MOST + (size_t)larger;
        gpuc_array *a;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){(uint32_t)n}, &a));
        ck_assert_uint_eq(read_cost(a, got, n), (uint64_t)larger);
        ck_assert_mem_eq(got, v, n * sizeof *v);
        if (!larger) {
            v[7] = -1.0f; /* written: the new values are the host copy */
            ck_assert_gpuc_ok(gpuc_array_write_f32(a, v, n));
            ck_assert_uint_eq(read_cost(a, got, n), 0);
            ck_assert_float_eq(got[7], -1.0f);
            /* written by the device: read back, the kernel's values */
            ck_assert_gpuc_ok(gpuc_run_to(twice, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){MOST})}, 1, a));
            ck_assert_uint_le(read_cost(a, got, n), 1);
            for (size_t i = 0; i < n; i++)
                ck_assert_float_eq(got[i], 2.0f * v[i]);
        }
        gpuc_array_free(a);
    }
    gpuc_kernel_free(twice);
    free(v);
    free(got);
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
    tcase_add_test(tc, large_freed_buffers_displace_small_kept_ones);
    tcase_add_test(tc, bad_shapes_are_refused);
    tcase_add_test(tc, array_over_the_texture_buffer_limit);
    tcase_add_test(tc, copies_check_count_and_type);
    tcase_add_test(tc, stats_count_transfers);
    tcase_add_test(tc, host_copies_of_small_arrays);
    suite_add_tcase(s, tc);
    return s;
}
