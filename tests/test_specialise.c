/* test_specialise.c - programs specialised to argument sizes (kernel_specialise.c): a kernel with
 * loops run again at the same sizes gives the same values as its first program (GPU.js's flat 2D
 * reads and zeros outside the array included, float and int arrays, one-component views and rows of 4
 * read through the 4-component one), switches back for other sizes, and compiles once per size it is
 * repeated at. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_W = 4, OUT_H = 3, TAPS = 6 };

/* Reads past the end of a's rows (into the next row, then past the array: 0) and b's int cells. */
static const char *const window_source = "float window(float a[][], int b[][]) {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < constants.taps; i++)\n"
                                         "        s += a[thread.y][thread.x + i] * float(1 + i) + float(b[thread.y][i]);\n"
                                         "    return s;\n"
                                         "}\n";

/* The oracle: GPU.js's flat rule, a[y][x] is cell y * width + x, 0 outside the array. */
static void window_oracle(const float *a, int aw, const int32_t *b, int bw, float *out)
{
    for (int y = 0; y < OUT_H; y++)
        for (int x = 0; x < OUT_W; x++) {
            float s = 0.0f;
            for (int i = 0; i < TAPS; i++) {
                int ai = y * aw + x + i, bi = y * bw + i;
                float av = ai < aw * OUT_H ? a[ai] : 0.0f;
                float bv = bi < bw * OUT_H ? (float)b[bi] : 0.0f;
                s += av * (float)(1 + i) + bv;
            }
            out[y * OUT_W + x] = s;
        }
}

/* Runs k on an a of width aw and a b of width bw (3 rows each) and checks every cell. */
static void run_window(gpuc_kernel *k, int aw, int bw)
{
    float a[16 * OUT_H], expect[OUT_W * OUT_H], got[OUT_W * OUT_H];
    int32_t b[16 * OUT_H];
    for (int i = 0; i < aw * OUT_H; i++)
        a[i] = (float)(i % 11) * 0.5f + 0.25f;
    for (int i = 0; i < bw * OUT_H; i++)
        b[i] = (i * 7) % 13 - 6;
    window_oracle(a, aw, b, bw, expect);
    gpuc_array *r;
    gpuc_dims ad = {(uint32_t)aw, OUT_H}, bd = {(uint32_t)bw, OUT_H};
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, ad), gpuc_arg_host_i32(b, bd)}, 2, &r));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, OUT_W * OUT_H));
    gpuc_array_free(r);
    for (int i = 0; i < OUT_W * OUT_H; i++)
        ck_assert_msg(got[i] == expect[i], "a %d wide, b %d wide: cell %d is %g, expected %g", aw, bw, i,
                      (double)got[i], (double)expect[i]);
}

static uint64_t compiled(void)
{
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    return s.programs_compiled;
}

START_TEST(repeated_sizes_read_the_same_values)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, window_source,
                                         &(gpuc_kernel_desc){.output = {OUT_W, OUT_H}, .constants = {{"taps", TAPS}}},
                                         &k));
    uint64_t first = compiled();
    run_window(k, 5, 7); /* the first program */
    ck_assert_uint_eq(compiled(), first);
    run_window(k, 5, 7); /* the second run at these sizes compiles their program */
    run_window(k, 5, 7);
    ck_assert_uint_eq(compiled(), first + 1);
    run_window(k, 9, 6); /* other sizes: the first program again, then their own */
    run_window(k, 9, 6);
    run_window(k, 9, 6);
    ck_assert_uint_eq(compiled(), first + 2);
    run_window(k, 5, 7);
    run_window(k, 5, 7); /* back at the first sizes: found in the cache */
    ck_assert_uint_eq(compiled(), first + 2);
    run_window(k, 4, 4); /* rows of 4 keep the 4-component view, their width compiled in */
    run_window(k, 4, 4);
    run_window(k, 4, 4);
    ck_assert_uint_eq(compiled(), first + 3);
    gpuc_kernel_free(k);
}
END_TEST

/* The same through device arrays, with the JavaScript front end (arrays of any rank). */
START_TEST(javascript_kernels_and_device_arrays)
{
    const char *js = "function (a) {\n"
                     "  let s = 0;\n"
                     "  for (let i = 0; i < 6; i++) {\n"
                     "    s += a[this.thread.y][this.thread.x + i] * (1 + i);\n"
                     "  }\n"
                     "  return s;\n"
                     "}";
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {OUT_W, OUT_H}}, &k));
    for (int aw = 5; aw <= 6; aw++) {
        float a[6 * OUT_H], got[OUT_W * OUT_H];
        for (int i = 0; i < aw * OUT_H; i++)
            a[i] = (float)(i % 5) - 1.5f;
        gpuc_array *in;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, a, (gpuc_dims){(uint32_t)aw, OUT_H}, &in));
        for (int run = 0; run < 3; run++) {
            gpuc_array *r;
            ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(in)}, 1, &r));
            ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, OUT_W * OUT_H));
            gpuc_array_free(r);
            for (int y = 0; y < OUT_H; y++)
                for (int x = 0; x < OUT_W; x++) {
                    float s = 0.0f;
                    for (int i = 0; i < 6; i++) {
                        int at = y * aw + x + i;
                        s += (at < aw * OUT_H ? a[at] : 0.0f) * (float)(1 + i);
                    }
                    ck_assert_msg(got[y * OUT_W + x] == s, "width %d, run %d, cell (%d, %d): %g, expected %g", aw,
                                  run, x, y, (double)got[y * OUT_W + x], (double)s);
                }
        }
        gpuc_array_free(in);
    }
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_specialise(void)
{
    Suite *s = suite_create("specialise");
    TCase *tc = fixture_tcase("specialised programs");
    tcase_add_test(tc, repeated_sizes_read_the_same_values);
    tcase_add_test(tc, javascript_kernels_and_device_arrays);
    suite_add_tcase(s, tc);
    return s;
}
