/* test_kernels.c - kernels against plain C oracles: every argument kind and return type, 1D/2D/3D
 * outputs and inputs, constants, helpers, pipelines, the program cache and large outputs. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Creates a kernel or fails the test with gpuc's message. */
static gpuc_kernel *make(const char *src, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &desc, &k));
    return k;
}

/* Runs k and reads the float result into a new buffer (caller frees). */
static float *run_f32(gpuc_kernel *k, const gpuc_arg *args, int nargs, size_t *count)
{
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, nargs, &r));
    *count = gpuc_array_values(r);
    float *out = malloc(*count * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, *count));
    gpuc_array_free(r);
    return out;
}

static const char *COUNT_ABOVE = "float countAbove(float values[], float t) {\n"
                                 "    int hits = 0;\n"
                                 "    for (int i = 0; i < constants.chunk; i++)\n"
                                 "        if (values[i * constants.threads + thread.x] > t) hits++;\n"
                                 "    return float(hits);\n"
                                 "}\n";

START_TEST(seed_count_above_matches_c)
{
    enum { N = 65536, T = 256, C = 256 };
    float *v = malloc(N * sizeof *v);
    uint32_t s = 4801;
    for (int i = 0; i < N; i++)
        v[i] = floorf(test_random(&s) * 100000.0f);
    gpuc_kernel *k = make(COUNT_ABOVE, (gpuc_kernel_desc){.output = {T}, .constants = {{"threads", T}, {"chunk", C}}});
    ck_assert_int_eq(gpuc_kernel_arg_count(k), 2);
    ck_assert_int_eq(gpuc_kernel_return_type(k), GPUC_FLOAT);
    const char *glsl = gpuc_kernel_glsl(k);
    ck_assert_ptr_nonnull(strstr(glsl, "#version 430"));
    ck_assert_ptr_nonnull(strstr(glsl, "values(i * constants.threads + thread.x)")); /* a[i] -> accessor */
    ck_assert_ptr_nonnull(strstr(glsl, "void main()"));
    ck_assert_str_eq(gpuc_kernel_glsl(NULL), "");
    const float thresholds[] = {-1.0f, 0.0f, 50000.0f, 99998.0f, 1e9f};
    for (int t = 0; t < 5; t++) {
        size_t n;
        float *counts = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){N}), gpuc_arg_f32(thresholds[t])}, 2, &n);
        ck_assert_uint_eq(n, T);
        for (int x = 0; x < T; x++) {
            int hits = 0;
            for (int i = 0; i < C; i++)
                hits += v[i * T + x] > thresholds[t];
            ck_assert_float_eq(counts[x], (float)hits);
        }
        free(counts);
    }
    gpuc_kernel_free(k);
    free(v);
}
END_TEST

START_TEST(return_types)
{
    gpuc_array *r;
    int32_t iv[10];
    gpuc_kernel *ki = make("int f() { return thread.x * 3 - 7; }", (gpuc_kernel_desc){.output = {10}});
    ck_assert_int_eq(gpuc_kernel_return_type(ki), GPUC_INT);
    ck_assert_gpuc_ok(gpuc_run(ki, NULL, 0, &r));
    ck_assert_int_eq(gpuc_array_type(r), GPUC_INT);
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, iv, 10));
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(iv[i], i * 3 - 7);
    gpuc_array_free(r);
    gpuc_kernel_free(ki);

    const char *src[] = {"vec2 f() { return vec2(thread.x, -thread.x); }",
                         "vec3 f() { return vec3(thread.x, 0.5, thread.x * 2); }",
                         "vec4 f() { return vec4(1, 2, 3, thread.x); }"};
    for (int c = 2; c <= 4; c++) {
        gpuc_kernel *k = make(src[c - 2], (gpuc_kernel_desc){.output = {7}});
        size_t n;
        float *out = run_f32(k, NULL, 0, &n);
        ck_assert_uint_eq(n, 7u * (unsigned)c);
        for (int i = 0; i < 7; i++) {
            const float *cell = out + i * c;
            if (c == 2) {
                ck_assert_float_eq(cell[0], (float)i);
                ck_assert_float_eq(cell[1], (float)-i);
            } else if (c == 3) {
                ck_assert_float_eq(cell[0], (float)i);
                ck_assert_float_eq(cell[1], 0.5f);
                ck_assert_float_eq(cell[2], (float)(2 * i));
            } else {
                ck_assert_float_eq(cell[0], 1.0f);
                ck_assert_float_eq(cell[3], (float)i);
            }
        }
        free(out);
        gpuc_kernel_free(k);
    }
}
END_TEST

START_TEST(every_argument_kind)
{
    enum { N = 100 };
    float f[N];
    int32_t iv[N];
    for (int i = 0; i < N; i++) {
        f[i] = (float)i * 0.25f;
        iv[i] = 1000 - i;
    }
    gpuc_array *fa, *ia;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){N}, &fa));
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, iv, (gpuc_dims){N}, &ia));
    gpuc_kernel *k = make("float f(float a[], int b[], float s, int n) {\n"
                          "    return a[thread.x] + float(b[thread.x]) * s + float(n);\n}\n",
                          (gpuc_kernel_desc){.output = {N}});
    gpuc_arg host_args[] = {gpuc_arg_host_f32(f, (gpuc_dims){N}), gpuc_arg_host_i32(iv, (gpuc_dims){N}),
                            gpuc_arg_f32(0.5f), gpuc_arg_i32(-3)};
    gpuc_arg device_args[] = {gpuc_arg_array(fa), gpuc_arg_array(ia), gpuc_arg_f32(0.5f), gpuc_arg_i32(-3)};
    for (int pass = 0; pass < 2; pass++) {
        size_t n;
        float *out = run_f32(k, pass ? device_args : host_args, 4, &n);
        for (int i = 0; i < N; i++)
            ck_assert_float_eq(out[i], f[i] + (float)iv[i] * 0.5f - 3.0f);
        free(out);
    }
    gpuc_kernel_free(k);
    gpuc_array_free(fa);
    gpuc_array_free(ia);
}
END_TEST

START_TEST(vector_arrays_as_inputs)
{
    enum { N = 9 };
    gpuc_kernel *make2 = make("vec2 m2() { return vec2(thread.x, 10 + thread.x); }",
                              (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    gpuc_kernel *make3 = make("vec3 m3() { return vec3(thread.x, 10 + thread.x, 20 + thread.x); }",
                              (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    gpuc_kernel *make4 = make("vec4 m4() { return vec4(thread.x, 10 + thread.x, 20 + thread.x, 30 + thread.x); }",
                              (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    gpuc_kernel *sum = make("float s(vec2 a[], vec3 b[], vec4 c[]) {\n"
                            "    int i = outputSize.x - 1 - thread.x;\n"
                            "    return a[i].y + b[i].z + c[i].w + c[i].x;\n}\n",
                            (gpuc_kernel_desc){.output = {N}});
    gpuc_array *a, *b, *c;
    ck_assert_gpuc_ok(gpuc_run(make2, NULL, 0, &a));
    ck_assert_gpuc_ok(gpuc_run(make3, NULL, 0, &b));
    ck_assert_gpuc_ok(gpuc_run(make4, NULL, 0, &c));
    size_t n;
    float *out = run_f32(sum, (gpuc_arg[]){gpuc_arg_array(a), gpuc_arg_array(b), gpuc_arg_array(c)}, 3, &n);
    for (int x = 0; x < N; x++) {
        int i = N - 1 - x;
        ck_assert_float_eq(out[x], (float)(10 + i + 20 + i + 30 + i + i));
    }
    free(out);
    gpuc_array_free(a);
    gpuc_array_free(b);
    gpuc_array_free(c);
    gpuc_kernel_free(make2);
    gpuc_kernel_free(make3);
    gpuc_kernel_free(make4);
    gpuc_kernel_free(sum);
}
END_TEST

START_TEST(float_array_read_as_vec4_cells)
{
    enum { N = 10 }; /* not a multiple of 4: the last cell is zero-padded */
    float v[N];
    for (int i = 0; i < N; i++)
        v[i] = (float)(i + 1);
    gpuc_kernel *k = make("float sum4(vec4 a[]) { vec4 c = a[thread.x]; return c.x + c.y + c.z + c.w; }",
                          (gpuc_kernel_desc){.output = {4}});
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &a));
    size_t n;
    float *out = run_f32(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &n);
    ck_assert_float_eq(out[0], 1 + 2 + 3 + 4);
    ck_assert_float_eq(out[1], 5 + 6 + 7 + 8);
    ck_assert_float_eq(out[2], 9 + 10);
    ck_assert_float_eq(out[3], 0); /* past the end */
    free(out);
    /* Host float data reads the same way. */
    out = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){N})}, 1, &n);
    ck_assert_float_eq(out[1], 5 + 6 + 7 + 8);
    ck_assert_float_eq(out[2], 9 + 10);
    free(out);
    gpuc_array_free(a);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(outputs_in_two_and_three_dimensions)
{
    gpuc_kernel *k2 = make("float f() { return float(thread.y * 1000 + thread.x); }",
                           (gpuc_kernel_desc){.output = {13, 7}});
    size_t n;
    float *out = run_f32(k2, NULL, 0, &n);
    ck_assert_uint_eq(n, 13 * 7);
    for (int y = 0; y < 7; y++) /* h rows of w, as GPU.js returns them */
        for (int x = 0; x < 13; x++)
            ck_assert_float_eq(out[y * 13 + x], (float)(y * 1000 + x));
    free(out);
    gpuc_kernel_free(k2);

    gpuc_kernel *k3 = make("int f() { return thread.z * 10000 + thread.y * 100 + thread.x + outputSize.z * 1000000; }",
                           (gpuc_kernel_desc){.output = {5, 4, 3}});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k3, NULL, 0, &r));
    int32_t iv[60];
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, iv, 60));
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 5; x++)
                ck_assert_int_eq(iv[(z * 4 + y) * 5 + x], 3000000 + z * 10000 + y * 100 + x);
    gpuc_array_free(r);
    gpuc_kernel_free(k3);
}
END_TEST

START_TEST(inputs_in_two_and_three_dimensions)
{
    enum { W = 6, H = 5, D = 4 };
    float grid[D * H * W];
    for (int i = 0; i < D * H * W; i++)
        grid[i] = (float)i + 0.5f;
    /* Transpose a 2D input, and read a 3D one backwards. */
    gpuc_kernel *t = make("float t(float a[][]) { return a[thread.x][thread.y]; }",
                          (gpuc_kernel_desc){.output = {H, W}});
    size_t n;
    float *out = run_f32(t, (gpuc_arg[]){gpuc_arg_host_f32(grid, (gpuc_dims){W, H})}, 1, &n);
    for (int y = 0; y < W; y++)
        for (int x = 0; x < H; x++)
            ck_assert_float_eq(out[y * H + x], grid[x * W + y]);
    free(out);
    gpuc_kernel_free(t);

    gpuc_kernel *r = make("float r(float a[][][]) {\n"
                          "    return a[outputSize.z - 1 - thread.z] [thread.y][outputSize.x - 1 - thread.x];\n}\n",
                          (gpuc_kernel_desc){.output = {W, H, D}});
    out = run_f32(r, (gpuc_arg[]){gpuc_arg_host_f32(grid, (gpuc_dims){W, H, D})}, 1, &n);
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                ck_assert_float_eq(out[(z * H + y) * W + x], grid[((D - 1 - z) * H + y) * W + (W - 1 - x)]);
    free(out);
    gpuc_kernel_free(r);
}
END_TEST

START_TEST(out_of_range_reads_are_zero)
{
    float v[5] = {1, 2, 3, 4, 5};
    int32_t iv[6] = {1, 2, 3, 4, 5, 6};
    gpuc_kernel *k = make("float f(float a[], int b[], float g[][]) {\n"
                          "    int i = thread.x;\n"
                          "    if (i == 0) return a[-1];\n"
                          "    if (i == 1) return a[5];\n"
                          "    if (i == 2) return a[1 << 30];\n"
                          "    if (i == 3) return float(b[-7] + b[6] + b[100000]);\n"
                          "    if (i == 4) return g[0][3] + g[2][0] + g[-1][0] + g[0][-1];\n"
                          "    return a[4] + float(b[5]) + g[1][2];\n"
                          "}\n",
                          (gpuc_kernel_desc){.output = {6}});
    size_t n;
    float *out = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){5}), gpuc_arg_host_i32(iv, (gpuc_dims){6}),
                                         gpuc_arg_host_f32(v, (gpuc_dims){3, 1})}, 3, &n);
    for (int i = 0; i < 5; i++)
        ck_assert_msg(out[i] == 0.0f, "cell %d read %g, expected 0", i, (double)out[i]);
    ck_assert_float_eq(out[5], 5.0f + 6.0f + 0.0f); /* g[1][2]: flat cell 5 is past a 3x1 grid's 3 */
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(constants_and_helpers)
{
    gpuc_kernel *k = make("// a helper before the kernel, and braces { [ in comments ] }\n"
                          "float scale(float x) { return x * constants.factor; }\n"
                          "/* another { comment */\n"
                          "float f(float a[]) {\n"
                          "    return scale(a[thread.x]) + constants.offset + constants.halfOf / 2;\n"
                          "}\n",
                          (gpuc_kernel_desc){.output = {4},
                                             .constants = {{"factor", 2.5}, {"offset", -1}, {"halfOf", 3, GPUC_FLOAT}}});
    float v[4] = {0, 1, 2, 3};
    size_t n;
    float *out = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){4})}, 1, &n);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(out[i], v[i] * 2.5f - 1.0f + 1.5f); /* halfOf is a float: 3 / 2 = 1.5 */
    free(out);
    gpuc_kernel_free(k);

    /* Inferred int constants divide as ints, as GLSL does. */
    k = make("int f() { return constants.seven / 2; }", (gpuc_kernel_desc){.output = {1}, .constants = {{"seven", 7}}});
    gpuc_array *r;
    int32_t iv;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, &iv, 1));
    ck_assert_int_eq(iv, 3);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(pipeline_chains_without_reading_back)
{
    enum { N = 4096 };
    float *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++)
        v[i] = (float)(i % 97);
    gpuc_kernel *square = make("float sq(float a[]) { return a[thread.x] * a[thread.x]; }",
                               (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    gpuc_kernel *plus = make("float p(float a[], float b[]) { return a[thread.x] + b[thread.x]; }",
                             (gpuc_kernel_desc){.output = {N}});
    gpuc_array *input, *squared, *sum;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &input));
    gpuc_stats before, middle, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_run(square, (gpuc_arg[]){gpuc_arg_array(input)}, 1, &squared));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &middle));
    ck_assert_uint_eq(middle.readbacks, before.readbacks); /* the pipeline kept it on the device */
    ck_assert_gpuc_ok(gpuc_run(plus, (gpuc_arg[]){gpuc_arg_array(squared), gpuc_arg_array(input)}, 2, &sum));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.readbacks - before.readbacks, 1); /* only the last result came back */
    ck_assert_uint_eq(after.uploads, before.uploads);        /* and nothing was uploaded again */
    float *out = malloc(N * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_f32(sum, out, N));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.readbacks - before.readbacks, 1); /* read from the host copy */
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(out[i], v[i] * v[i] + v[i]);
    free(out);
    free(v);
    gpuc_array_free(input);
    gpuc_array_free(squared);
    gpuc_array_free(sum);
    gpuc_kernel_free(square);
    gpuc_kernel_free(plus);
}
END_TEST

START_TEST(run_to_ping_pongs)
{
    enum { N = 1000, PASSES = 50 };
    float v[N];
    for (int i = 0; i < N; i++)
        v[i] = (float)i;
    gpuc_kernel *k = make("float step(float a[], float d) { return a[thread.x] + d; }",
                          (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    gpuc_array *ping, *pong;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &ping));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &pong));
    for (int p = 0; p < PASSES; p++) {
        ck_assert_gpuc_ok(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(ping), gpuc_arg_f32(0.5f)}, 2, pong));
        gpuc_array *t = ping;
        ping = pong;
        pong = t;
    }
    float out[N];
    ck_assert_gpuc_ok(gpuc_array_read_f32(ping, out, N));
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(out[i], (float)i + 0.5f * PASSES);
    gpuc_array_free(ping);
    gpuc_array_free(pong);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(program_cache_compiles_once)
{
    float v[256];
    for (int i = 0; i < 256; i++)
        v[i] = (float)i;
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    gpuc_kernel *k = make(COUNT_ABOVE, (gpuc_kernel_desc){.output = {16}, .constants = {{"threads", 16}, {"chunk", 16}}});
    float counts[16];
    for (int call = 0; call < 1000; call++) {
        gpuc_array *r;
        float t = (float)(call % 256);
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){256}), gpuc_arg_f32(t)}, 2, &r));
        ck_assert_gpuc_ok(gpuc_array_read_f32(r, counts, 16));
        gpuc_array_free(r);
        int expect0 = 0;
        for (int i = 0; i < 16; i++)
            expect0 += v[i * 16] > t;
        ck_assert_float_eq(counts[0], (float)expect0);
    }
    /* A kernel with loops compiles once more, for its argument's size, on its second run, and never
     * again; the same kernel made again is found in the cache; other constants compile anew. */
    gpuc_kernel *again = make(COUNT_ABOVE, (gpuc_kernel_desc){.output = {16}, .constants = {{"threads", 16}, {"chunk", 16}}});
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.programs_compiled - before.programs_compiled, 2);
    ck_assert_uint_ge(after.program_cache_hits - before.program_cache_hits, 1);
    gpuc_kernel *other = make(COUNT_ABOVE, (gpuc_kernel_desc){.output = {16}, .constants = {{"threads", 16}, {"chunk", 8}}});
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.programs_compiled - before.programs_compiled, 3);
    gpuc_kernel_free(k);
    gpuc_kernel_free(again);
    gpuc_kernel_free(other);
}
END_TEST

START_TEST(host_arguments_of_changing_size)
{
    gpuc_kernel *k = make("float f(float a[]) { return a[thread.x] + a[thread.x + 4]; }",
                          (gpuc_kernel_desc){.output = {4}});
    float small[4] = {1, 2, 3, 4}, big[8] = {1, 2, 3, 4, 10, 20, 30, 40};
    size_t n;
    float *out = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(big, (gpuc_dims){8})}, 1, &n);
    ck_assert_float_eq(out[3], 44.0f);
    free(out);
    out = run_f32(k, (gpuc_arg[]){gpuc_arg_host_f32(small, (gpuc_dims){4})}, 1, &n);
    ck_assert_float_eq(out[3], 4.0f); /* a[7] is past the smaller array: 0 */
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(large_output_2_24)
{
    enum { N = 1 << 24 };
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    /* A loop bounded only at run time keeps one cell per invocation, so 2^24 cells need several
     * dispatches of 65,535 groups. */
    gpuc_kernel *k = make("int f(int n) { int r = thread.x; for (int i = 0; i < n; i++) r ^= 0x5a5a5; return r; }",
                          (gpuc_kernel_desc){.output = {N}});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(1)}, 1, &r));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_ge(after.dispatches - before.dispatches, 2); /* more cells than one dispatch covers */
    int32_t *out = malloc((size_t)N * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, out, N));
    for (int i = 0; i < N; i++)
        if (out[i] != (i ^ 0x5a5a5))
            ck_abort_msg("cell %d: %d, expected %d", i, out[i], i ^ 0x5a5a5);
    free(out);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(loop_free_kernel_over_an_odd_size)
{
    /* Loop-free kernels compute several cells per invocation: every cell, and no cell twice or past the end. */
    enum { N = 1000003 };
    gpuc_kernel *k = make("int f(int base) { return base + thread.x * 3; }", (gpuc_kernel_desc){.output = {N}});
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(-5)}, 1, &r));
    int32_t *out = malloc((size_t)N * sizeof *out);
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, out, N));
    for (int i = 0; i < N; i++)
        if (out[i] != -5 + i * 3)
            ck_abort_msg("cell %d: %d, expected %d", i, out[i], -5 + i * 3);
    free(out);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

/* The value component c of cell i of small_outputs' kernel of type t (float, int, vec2, vec3, vec4). */
static float small_value(int t, int i, int c)
{
    switch (t) {
    case 0: return (float)i * 1.5f + 1.0f;
    case 1: return (float)(i * 3 - 7);
    case 2: return c == 0 ? (float)i : (float)(-i - 1);
    case 3: return c == 0 ? (float)i : c == 1 ? 0.5f : (float)(i * 2 + 1);
    default: return c == 0 ? (float)i : c == 1 ? 1.0f : c == 2 ? -2.0f : (float)(i + 3);
    }
}

/* Loop-free kernels compute a few neighbouring cells per step and store whole 16-byte texels
 * (compute_main.glsl's main_texels): every cell type at every size up to two texels of floats is
 * right, and the cells past the end that share the last texel read 0, not what the buffer held. */
START_TEST(small_outputs_of_every_cell_type)
{
    static const char *const src[] = {
        "float f() { return float(thread.x) * 1.5 + 1.0; }",
        "int f() { return thread.x * 3 - 7; }",
        "vec2 f() { return vec2(thread.x, -thread.x - 1); }",
        "vec3 f() { return vec3(thread.x, 0.5, thread.x * 2 + 1); }",
        "vec4 f() { return vec4(thread.x, 1.0, -2.0, thread.x + 3); }",
    };
    static const int components[] = {1, 1, 2, 3, 4};
    gpuc_kernel *past[2] = {make("float p(float a[], int n) { return a[n + thread.x]; }",
                                 (gpuc_kernel_desc){.output = {3}}),
                            make("float p(int a[], int n) { return float(a[n + thread.x]); }",
                                 (gpuc_kernel_desc){.output = {3}})};
    for (int t = 0; t < 5; t++)
        for (int n = 1; n <= 9; n++) {
            gpuc_kernel *k = make(src[t], (gpuc_kernel_desc){.output = {(uint32_t)n}});
            gpuc_array *r;
            ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
            float got[36];
            int32_t goti[9];
            size_t values = gpuc_array_values(r);
            if (t == 1)
                ck_assert_gpuc_ok(gpuc_array_read_i32(r, goti, values));
            else
                ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, values));
            for (int i = 0; i < n; i++)
                for (int c = 0; c < components[t]; c++) {
                    float v = t == 1 ? (float)goti[i] : got[i * components[t] + c];
                    if (v != small_value(t, i, c))
                        ck_abort_msg("%s at size %d: cell %d component %d is %g, expected %g", src[t], n, i, c, v,
                                     small_value(t, i, c));
                }
            if (t <= 1) {
                size_t count;
                float *after = run_f32(past[t], (gpuc_arg[]){gpuc_arg_array(r), gpuc_arg_i32(n)}, 2, &count);
                for (size_t i = 0; i < count; i++)
                    ck_assert_msg(after[i] == 0.0f, "%s at size %d: cell %zu past the end reads %g", src[t], n,
                                  n + i, after[i]);
                free(after);
            }
            gpuc_array_free(r);
            gpuc_kernel_free(k);
        }
    gpuc_kernel_free(past[0]);
    gpuc_kernel_free(past[1]);
}
END_TEST

START_TEST(output_larger_than_one_storage_binding)
{
    const gpuc_info *info = gpuc_get_info(gpu);
    int64_t cells = info->max_storage_block_size / 16 + 4096; /* vec4 cells: just over one binding */
    if (cells * 4 > (int64_t)1 << 28)
        return; /* a device with a very large binding: the split is covered by large_output_2_24 */
    gpuc_kernel *k = make("vec4 f() { return vec4(thread.x, thread.x % 7, -thread.x, 1.0); }",
                          (gpuc_kernel_desc){.output = {(uint32_t)cells}, .pipeline = true});
    gpuc_kernel *check = make("int c(vec4 v[]) {\n"
                              "    vec4 e = vec4(thread.x, thread.x % 7, -thread.x, 1.0);\n"
                              "    return v[thread.x] == e ? 0 : 1;\n}\n",
                              (gpuc_kernel_desc){.output = {(uint32_t)cells}});
    gpuc_array *r, *bad;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    if (info->device_profile == GPUC_PROFILE_HARDWARE) { /* it reads storage buffers: one binding at most */
        ck_assert_gpuc_fails(gpuc_run(check, (gpuc_arg[]){gpuc_arg_array(r)}, 1, &bad), GPUC_ERROR_LIMIT,
                             "GL_MAX_SHADER_STORAGE_BLOCK_SIZE");
        gpuc_array_free(r);
        gpuc_kernel_free(k);
        gpuc_kernel_free(check);
        return;
    }
    ck_assert_gpuc_ok(gpuc_run(check, (gpuc_arg[]){gpuc_arg_array(r)}, 1, &bad));
    size_t n = gpuc_array_values(bad);
    int32_t *flags = malloc(n * sizeof *flags);
    ck_assert_gpuc_ok(gpuc_array_read_i32(bad, flags, n));
    for (size_t i = 0; i < n; i++)
        if (flags[i])
            ck_abort_msg("cell %zu wrong", i);
    free(flags);
    gpuc_array_free(r);
    gpuc_array_free(bad);
    gpuc_kernel_free(k);
    gpuc_kernel_free(check);
}
END_TEST

START_TEST(loops_with_runtime_bounds_are_allowed)
{
    /* The loop budget check only refuses what it can prove: a uniform bound is not counted. */
    gpuc_kernel *k = make("float f(int n) { float s = 0.0; for (int i = 0; i < n; i++) s += 1.0; return s; }",
                          (gpuc_kernel_desc){.output = {2}});
    size_t cnt;
    float *out = run_f32(k, (gpuc_arg[]){gpuc_arg_i32(1000)}, 1, &cnt);
    ck_assert_float_eq(out[1], 1000.0f);
    free(out);
    /* All of llvmpipe's budget is the kernel's: gpuc's own main() spends none of it. */
    out = run_f32(k, (gpuc_arg[]){gpuc_arg_i32(65535)}, 1, &cnt);
    ck_assert_float_eq(out[0], 65535.0f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_kernels(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = fixture_tcase("kernels");
    tcase_add_test(tc, seed_count_above_matches_c);
    tcase_add_test(tc, return_types);
    tcase_add_test(tc, every_argument_kind);
    tcase_add_test(tc, vector_arrays_as_inputs);
    tcase_add_test(tc, float_array_read_as_vec4_cells);
    tcase_add_test(tc, outputs_in_two_and_three_dimensions);
    tcase_add_test(tc, inputs_in_two_and_three_dimensions);
    tcase_add_test(tc, out_of_range_reads_are_zero);
    tcase_add_test(tc, constants_and_helpers);
    tcase_add_test(tc, pipeline_chains_without_reading_back);
    tcase_add_test(tc, run_to_ping_pongs);
    tcase_add_test(tc, program_cache_compiles_once);
    tcase_add_test(tc, host_arguments_of_changing_size);
    tcase_add_test(tc, loops_with_runtime_bounds_are_allowed);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("large");
    tcase_add_test(tc, large_output_2_24);
    tcase_add_test(tc, loop_free_kernel_over_an_odd_size);
    tcase_add_test(tc, small_outputs_of_every_cell_type);
    tcase_add_test(tc, output_larger_than_one_storage_binding);
    suite_add_tcase(s, tc);
    return s;
}
