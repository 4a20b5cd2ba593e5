/* test_vec_arrays.c - how kernels read array arguments, against C oracles: 2D and 3D arrays of vec2-vec4
 * cells (device and host data, GLSL and JavaScript kernels), GPU.js's flat rule (a[y][x] is cell
 * y * width + x: past the end of a row it runs on into the next, only outside the whole array it
 * reads 0), fewer indices than the rank (a flat cell), and JavaScript's rank-blind "Array" type. Each
 * runs on whichever backend the run uses (GPUC_BACKEND). */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 5, H = 3, D = 2 };

static gpuc_kernel *make(const char *src, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &desc, &k));
    return k;
}

static gpuc_kernel *make_js(const char *src, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, src, &desc, &k));
    return k;
}

/* Runs k and returns its float result (caller frees). */
static float *run(gpuc_kernel *k, const gpuc_arg *args, int nargs, size_t cells)
{
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, nargs, &r));
    return fixture_take_floats(r, cells);
}

/* Distinct, exactly representable values: value v of the array is v * 0.25 - 3. */
static float *ramp(size_t n)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)i * 0.25f - 3.0f;
    return v;
}

/* Cell `cell` of a vecN array seen as GPU.js's flat rule does: its components weighted 1, 2, ..., N,
 * plus 1000 x its last component; 0 outside the array. */
static float vec_oracle(const float *values, int n, long cell, long cells)
{
    if (cell < 0 || cell >= cells)
        return 0.0f;
    float s = 0.0f;
    for (int c = 0; c < n; c++)
        s += values[cell * n + c] * (float)(c + 1);
    return s + values[cell * n + n - 1] * 1000.0f;
}

/* GLSL kernels reading vec2/vec3/vec4 cells of 2D and 3D arrays, device arrays and host data, with
 * x shifted by 0 (in place), 3 (past the row's end: the next row) and W * H * D (outside: 0). The
 * cell is indexed a third (fourth) time for its last component: `v[y][x][N - 1]`. */
START_TEST(glsl_vec_arrays_2d_3d_match_c)
{
    static const char *types[] = {"vec2", "vec3", "vec4"};
    static const gpuc_type ctypes[] = {GPUC_VEC2, GPUC_VEC3, GPUC_VEC4};
    const int shifts[] = {0, 3, W * H * D};
    for (int t = 0; t < 3; t++)
        for (int rank = 2; rank <= 3; rank++) {
            int n = t + 2;
            gpuc_dims dims = rank == 2 ? (gpuc_dims){W, H, 0} : (gpuc_dims){W, H, D};
            long cells = W * H * (rank == 3 ? D : 1);
            char src[1024], index[64];
            snprintf(index, sizeof index, rank == 2 ? "[thread.y][thread.x + shift]"
                                                    : "[thread.z][thread.y][thread.x + shift]");
            snprintf(src, sizeof src,
                     "float f(%s v%s, int shift) {\n"
                     "    %s c = v%s;\n"
                     "    float s = 0.0;\n"
                     "    for (int k = 0; k < %d; k++) s += c[k] * float(k + 1);\n"
                     "    return s + v%s[%d] * 1000.0;\n"
                     "}\n",
                     types[t], rank == 2 ? "[][]" : "[][][]", types[t], index, n, index, n - 1);
            gpuc_kernel *k = make(src, (gpuc_kernel_desc){.output = dims});
            float *values = ramp((size_t)cells * n);
            gpuc_array *dev = NULL;
            ck_assert_gpuc_ok(gpuc_array_new(gpu, ctypes[t], dims, &dev));
            ck_assert_gpuc_ok(gpuc_array_write_f32(dev, values, (size_t)cells * n));
            for (int s = 0; s < 3; s++)
                for (int host = 0; host < 2; host++) {
                    gpuc_arg data = host ? gpuc_arg_host_f32(values, dims) : gpuc_arg_array(dev);
                    float *out = run(k, (gpuc_arg[]){data, gpuc_arg_i32(shifts[s])}, 2, (size_t)cells);
                    for (long i = 0; i < cells; i++) {
                        float want = vec_oracle(values, n, i + shifts[s], cells);
                        ck_assert_msg(out[i] == want, "%s rank %d shift %d %s: cell %ld is %g, expected %g",
                                      types[t], rank, shifts[s], host ? "host" : "device", i, (double)out[i],
                                      (double)want);
                    }
                    free(out);
                }
            gpuc_array_free(dev);
            free(values);
            gpuc_kernel_free(k);
        }
}
END_TEST

/* GPU.js's flat rule for float and int arrays: an x past the row's end reads the next row, a y past
 * the last row or a negative flat index reads 0; a[-1][W + 1] is flat cell 1. */
START_TEST(rows_run_on_into_the_next_row)
{
    float a[W * H];
    int32_t b[W * H * D];
    for (int i = 0; i < W * H; i++)
        a[i] = (float)(i + 1);
    for (int i = 0; i < W * H * D; i++)
        b[i] = 100 + i;
    gpuc_kernel *k = make("float f(float a[][], int b[][][], int shift) {\n"
                          "    if (thread.z == 1) return a[-1][constants.w + 1] + float(b[0][-1][constants.w + 2]);\n"
                          "    return a[thread.y][thread.x + shift] + float(b[1][thread.y][thread.x + shift]) * 1000.0;\n"
                          "}\n",
                          (gpuc_kernel_desc){.output = {W, H, 2}, .constants = {{"w", W}}});
    const int shifts[] = {0, 1, W + 2, -W, -2 * W * H};
    for (int s = 0; s < 5; s++) {
        float *out = run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){W, H}),
                                         gpuc_arg_host_i32(b, (gpuc_dims){W, H, D}), gpuc_arg_i32(shifts[s])},
                         3, W * H * 2);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int fa = y * W + x + shifts[s], fb = (H + y) * W + x + shifts[s];
                float want = (fa >= 0 && fa < W * H ? a[fa] : 0.0f) +
                             (fb >= 0 && fb < W * H * D ? (float)b[fb] : 0.0f) * 1000.0f;
                ck_assert_msg(out[y * W + x] == want, "shift %d, cell (%d, %d): %g, expected %g", shifts[s], x, y,
                              (double)out[y * W + x], (double)want);
            }
        /* a[-1][w + 1] is flat cell 1 (a[1] = 2); b[0][-1][w + 2] is flat cell 2 (102). */
        ck_assert_float_eq(out[W * H], 2.0f + 102.0f);
        free(out);
    }
    gpuc_kernel_free(k);
}
END_TEST

/* Fewer indices than the rank read the flat cell (GPU.js's get32 with the leading indices 0). */
START_TEST(fewer_indices_read_the_flat_cell)
{
    float a[W * H];
    for (int i = 0; i < W * H; i++)
        a[i] = (float)i * 1.5f;
    gpuc_kernel *k = make("float f(float a[][], vec2 v[][][]) { return a[thread.x] + v[thread.x].y * 100.0; }",
                          (gpuc_kernel_desc){.output = {W * H + 2}});
    float vd[2 * W * H];
    for (int i = 0; i < 2 * W * H; i++)
        vd[i] = (float)i;
    float *out = run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){W, H}), gpuc_arg_host_f32(vd, (gpuc_dims){W, 1, H})},
                     2, W * H + 2);
    for (int i = 0; i < W * H + 2; i++) {
        float want = i < W * H ? a[i] + vd[2 * i + 1] * 100.0f : 0.0f;
        ck_assert_msg(out[i] == want, "cell %d: %g, expected %g", i, (double)out[i], (double)want);
    }
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

/* JavaScript kernels with GPU.js's vector array types: Array2D(2) (components read as c[0] and as a
 * third index), Array2D(3) and Array3D(4) (channels read as .r .g .b .a), on host and device data. */
START_TEST(js_vector_array_types_match_c)
{
    float v2[W * H * 2], v3[W * H * 3], v4[W * H * D * 4];
    for (int i = 0; i < W * H * 2; i++)
        v2[i] = (float)(i + 1);
    for (int i = 0; i < W * H * 3; i++)
        v3[i] = (float)i * 0.5f;
    for (int i = 0; i < W * H * D * 4; i++)
        v4[i] = (float)(i % 17) - 4.0f;
    gpuc_kernel *k2 = make_js("function (v) {\n"
                              "  const c = v[this.thread.y][this.thread.x];\n"
                              "  return c[0] * 10 + c[1] + v[this.thread.y][this.thread.x][1] * 100;\n"
                              "}\n",
                              (gpuc_kernel_desc){.output = {W, H}, .arg_types = "Array2D(2)"});
    gpuc_kernel *k3 = make_js("function (v) { return v[this.thread.y][this.thread.x + 1][2]; }",
                              (gpuc_kernel_desc){.output = {W, H}, .arg_types = "Array2D(3)"});
    gpuc_kernel *k4 = make_js("function (v) {\n"
                              "  const p = v[this.thread.z][this.thread.y][this.thread.x];\n"
                              "  return p.r + p.g * 10 + p.b * 100 + p.a * 1000;\n"
                              "}\n",
                              (gpuc_kernel_desc){.output = {W, H, D}, .arg_types = "Array3D(4)"});
    gpuc_array *dev3 = NULL;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC3, (gpuc_dims){W, H}, &dev3));
    ck_assert_gpuc_ok(gpuc_array_write_f32(dev3, v3, W * H * 3));
    float *o2 = run(k2, (gpuc_arg[]){gpuc_arg_host_f32(v2, (gpuc_dims){W, H})}, 1, W * H);
    float *o3 = run(k3, (gpuc_arg[]){gpuc_arg_array(dev3)}, 1, W * H);
    float *o4 = run(k4, (gpuc_arg[]){gpuc_arg_host_f32(v4, (gpuc_dims){W, H, D})}, 1, W * H * D);
    for (int i = 0; i < W * H; i++) {
        ck_assert_float_eq(o2[i], v2[2 * i] * 10 + v2[2 * i + 1] + v2[2 * i + 1] * 100);
        ck_assert_float_eq(o3[i], i + 1 < W * H ? v3[3 * (i + 1) + 2] : 0.0f); /* runs on to the next row */
    }
    for (int i = 0; i < W * H * D; i++)
        ck_assert_float_eq(o4[i], v4[4 * i] + v4[4 * i + 1] * 10 + v4[4 * i + 2] * 100 + v4[4 * i + 3] * 1000);
    free(o2);
    free(o3);
    free(o4);
    gpuc_array_free(dev3);
    gpuc_kernel_free(k2);
    gpuc_kernel_free(k3);
    gpuc_kernel_free(k4);
}
END_TEST

/* GPU.js's "Array" is rank-blind: with .arg_types "Array, Number" the kernel's a[y][x] makes the
 * parameter 2D, and any argument array is read by the flat rule (a 2D one, a 1D one, input(flat,
 * [w, h]) read as a[i]). Without .arg_types too. */
START_TEST(js_array_type_is_rank_blind)
{
    float a[W * H];
    for (int i = 0; i < W * H; i++)
        a[i] = (float)(i * 3 - 7);
    gpuc_kernel *k2 = make_js("function (a, m) { return a[this.thread.y][this.thread.x] * m; }",
                              (gpuc_kernel_desc){.output = {W, H}, .arg_types = "Array, Number"});
    gpuc_kernel *k1 = make_js("function (a) { return a[this.thread.x]; }",
                              (gpuc_kernel_desc){.output = {W * H}, .arg_types = "Array"});
    gpuc_kernel *inferred = make_js("function (a) { return a[this.thread.x] + a[1][this.thread.x]; }",
                                    (gpuc_kernel_desc){.output = {W * H}});
    float *o2 = run(k2, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){W, H}), gpuc_arg_f32(2)}, 2, W * H);
    float *o2flat = run(k2, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){W * H}), gpuc_arg_f32(2)}, 2, W * H);
    float *o1 = run(k1, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){W, H})}, 1, W * H);
    gpuc_array *dev = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, a, (gpuc_dims){W, 1, H}, &dev));
    float *oi = run(inferred, (gpuc_arg[]){gpuc_arg_array(dev)}, 1, W * H);
    for (int i = 0; i < W * H; i++) {
        ck_assert_float_eq(o2[i], a[i] * 2);
        /* a 1D argument of W * H read as a[y][x]: flat y * (W * H) + x, so only row 0 is inside */
        ck_assert_float_eq(o2flat[i], i < W ? a[i] * 2 : 0.0f);
        ck_assert_float_eq(o1[i], a[i]);
        /* a[1][x] of a W x 1 x H array: flat W + x */
        ck_assert_float_eq(oi[i], a[i] + (W + i < W * H ? a[W + i] : 0.0f));
    }
    free(o2);
    free(o2flat);
    free(o1);
    free(oi);
    gpuc_array_free(dev);
    gpuc_kernel_free(k2);
    gpuc_kernel_free(k1);
    gpuc_kernel_free(inferred);
}
END_TEST

/* GLSL kernels keep their declared ranks: a 1D array for `float a[][]` is the caller's mistake. */
START_TEST(glsl_ranks_are_checked)
{
    gpuc_kernel *k = make("float f(float a[][]) { return a[thread.y][thread.x]; }",
                          (gpuc_kernel_desc){.output = {2, 2}});
    float a[4] = {1, 2, 3, 4};
    gpuc_array *r = NULL;
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){4})}, 1, &r),
                         GPUC_ERROR_TYPE_MISMATCH, "got 1D host data");
    ck_assert_ptr_null(r);
    gpuc_kernel_free(k);
    gpuc_kernel *kv = make("float f(vec2 v[][]) { return v[thread.y][thread.x].x; }",
                           (gpuc_kernel_desc){.output = {2, 2}});
    int32_t iv[8] = {0};
    ck_assert_gpuc_fails(gpuc_run(kv, (gpuc_arg[]){gpuc_arg_host_i32(iv, (gpuc_dims){2, 2})}, 1, &r),
                         GPUC_ERROR_TYPE_MISMATCH, "int32 for int ones");
    gpuc_array *f = NULL;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){2, 2}, &f));
    ck_assert_gpuc_fails(gpuc_run(kv, (gpuc_arg[]){gpuc_arg_array(f)}, 1, &r), GPUC_ERROR_TYPE_MISMATCH,
                         "got a float array");
    gpuc_array_free(f);
    gpuc_kernel_free(kv);
}
END_TEST

/* Everything GPU.js accepts compiles or is refused in gpuc's own words, never inside the GLSL: a
 * vector array indexed once too often, a channel a vec3 does not have, `.r` of a number. */
START_TEST(js_vector_misuse_is_refused_in_gpucs_words)
{
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc d = {.output = {2, 2}, .arg_types = "Array2D(3)"};
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (v) { return v[0][0][0][0]; }", &d, &k),
                         GPUC_ERROR_COMPILE, "indexed 4 times");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (v) { return v[0][0].a; }", &d, &k),
                         GPUC_ERROR_COMPILE, "has only 3");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (v) { const x = 1; return x.r; }", &d, &k),
                         GPUC_ERROR_COMPILE, "reads a channel");
    ck_assert_ptr_null(k);
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "GLSL"));
}
END_TEST

Suite *suite_vec_arrays(void)
{
    Suite *s = suite_create("vec_arrays");
    TCase *tc = fixture_tcase("vec_arrays");
    tcase_add_test(tc, glsl_vec_arrays_2d_3d_match_c);
    tcase_add_test(tc, rows_run_on_into_the_next_row);
    tcase_add_test(tc, fewer_indices_read_the_flat_cell);
    tcase_add_test(tc, js_vector_array_types_match_c);
    tcase_add_test(tc, js_array_type_is_rank_blind);
    tcase_add_test(tc, glsl_ranks_are_checked);
    tcase_add_test(tc, js_vector_misuse_is_refused_in_gpucs_words);
    suite_add_tcase(s, tc);
    return s;
}
