/* test_jam.c - kernels whose neighbouring cells share one call of the body, their counted loops fused
 * (kernel/source/kernel_jam.h; the software profile's compute backend): each kernel below is checked
 * cell by cell against plain C, on its first program and on the one specialised to its sizes, and
 * gpuc_kernel_describe says whether it was jammed or why not. The forms cover what the rewrite must
 * get right: a fused loop whose reads the cells share, loops it must keep per cell (a bound from
 * thread.x, a counter passed whole to a helper), a loop bounded by a fused counter, reads of a row's
 * neighbours made a texel at a time, a vec3
 * and an int result, 1D and 2D grids, rows that do not split into groups, the loop budget choosing a
 * smaller group, a JavaScript kernel, and kernels refused with their reason (one whose cells share no
 * read among them). Values are small whole
 * numbers and halves, so that every sum is exact whatever order the compiler gives it. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* Whether this context jams at all: the software profile on the compute backend. */
static bool jams(void)
{
    const gpuc_info *info = gpuc_get_info(gpu);
    return info->backend == GPUC_BACKEND_COMPUTE && info->device_profile == GPUC_PROFILE_SOFTWARE;
}

/* Asserts what describe says of k's jam: `words` where the context jams, nothing of it otherwise. */
static void assert_described(gpuc_kernel *k, const char *words)
{
    const char *d = gpuc_kernel_describe(k);
    if (jams())
        ck_assert_msg(strstr(d, words), "describe: \"%s\", expected \"%s\"", d, words);
    else
        ck_assert_msg(!strstr(d, "loops fused") && !strstr(d, "loops not fused"), "describe: \"%s\"", d);
}

static float value(int i, int salt)
{
    return (float)((i * 7 + salt * 3) % 9) * 0.5f - 1.0f;
}

/* Runs k three times on args (the first program, then the specialised one) and compares every value
 * of the result with expect. */
static void run_and_compare(gpuc_kernel *k, const gpuc_arg *args, int nargs, const float *expect, size_t values)
{
    float *got = malloc(values * sizeof *got);
    ck_assert_ptr_nonnull(got);
    for (int run = 0; run < 3; run++) {
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, args, nargs, &r));
        ck_assert_uint_eq(gpuc_array_values(r), values);
        ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, values));
        gpuc_array_free(r);
        for (size_t i = 0; i < values; i++)
            ck_assert_msg(got[i] == expect[i], "run %d, value %zu: %g, expected %g (%s)", run, i, (double)got[i],
                          (double)expect[i], gpuc_kernel_describe(k));
    }
    free(got);
}

static const char *const matmul_source = "float matmul(float a[][], float b[][]) {\n"
                                         "    float sum = 0.0;\n"
                                         "    for (int i = 0; i < constants.n; i++)\n"
                                         "        sum += a[thread.y][i] * b[i][thread.x];\n"
                                         "    return sum;\n"
                                         "}\n";

/* matmul of an h x n and an n x w matrix, in C. */
static void matmul_c(const float *a, const float *b, int w, int h, int n, float *out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++)
                s += a[y * n + i] * b[i * w + x];
            out[y * w + x] = s;
        }
}

/* Runs k, a matmul of an h x n and an n x w matrix, on data of its own, and compares it with C. */
static void run_matmul(gpuc_kernel *k, int w, int h, int n, int salt)
{
    float *a = malloc((size_t)(h * n) * sizeof *a), *b = malloc((size_t)(n * w) * sizeof *b);
    float *expect = malloc((size_t)(h * w) * sizeof *expect);
    ck_assert(a && b && expect);
    for (int i = 0; i < h * n; i++)
        a[i] = value(i, salt);
    for (int i = 0; i < n * w; i++)
        b[i] = value(i, salt + 1);
    matmul_c(a, b, w, h, n, expect);
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){(uint32_t)n, (uint32_t)h}),
                       gpuc_arg_host_f32(b, (gpuc_dims){(uint32_t)w, (uint32_t)n})};
    run_and_compare(k, args, 2, expect, (size_t)w * (size_t)h);
    free(a);
    free(b);
    free(expect);
}

/* matmul at width w (the output's rows): 24 and 16 split into groups of 8, 20 into groups of 4, 10 not
 * at all (shorter than two groups of 8: not jammed). */
static void check_matmul(int w, const char *described)
{
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {(uint32_t)w, 5}, .constants = {{"n", 13}}};
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, matmul_source, &desc, &k));
    assert_described(k, described);
    run_matmul(k, w, 5, 13, 1);
    gpuc_kernel_free(k);
}

START_TEST(matmul_in_groups_of_cells)
{
    check_matmul(24, "8 neighbouring cells stored as texels, computed by one call of the body with its loops fused");
    check_matmul(16, "8 neighbouring cells stored as texels, computed by one call");
    check_matmul(20, "4 neighbouring cells stored as texels, computed by one call");
    if (jams()) { /* rows of 10 do not split into groups of 4: one cell per call, as without the jam */
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, matmul_source,
                                             &(gpuc_kernel_desc){.output = {10, 5}, .constants = {{"n", 13}}}, &k));
        ck_assert_msg(!strstr(gpuc_kernel_describe(k), "loops fused"), "%s", gpuc_kernel_describe(k));
        gpuc_kernel_free(k);
    }
    check_matmul(10, "cell");
}
END_TEST

/* Rows of 4k + 1..3 cells do not split into groups: the jam still computes a group that lies in one
 * row in one call, and a group that crosses a row's end (or the grid's) cell by cell, with no texel
 * reads on a 2D grid (a group's first thread.x is not a multiple of 4 there). On a 1D grid only the
 * last group crosses, and the texel reads stay. Widths 17 and 30 (one crossing group per row, at
 * different places; 17 x 5 ends in a group past the grid), a vec3 result at width 19, and 1D
 * lengths 37 and 1001 (126 steps of 8 cells, the last crossing the end). */
static const char *const crossing_words = "loops fused (cell by cell where a step crosses the end of a row)";

static void check_crossing_vec3(int w, int h)
{
    enum { N = 6 };
    float *v = malloc((size_t)(4 * w * h) * sizeof *v), *expect = malloc((size_t)(3 * w * h) * sizeof *expect);
    ck_assert(v && expect);
    for (int i = 0; i < 4 * w * h; i++)
        v[i] = value(i, 12);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                float s = 0.0f;
                for (int i = 0; i < N; i++)
                    s += v[(y * w + i) * 4 + c] * v[(y * w + x) * 4 + 3];
                expect[(y * w + x) * 3 + c] = s;
            }
    gpuc_array *b;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){(uint32_t)w, (uint32_t)h}, &b));
    ck_assert_gpuc_ok(gpuc_array_write_f32(b, v, (size_t)(4 * w * h)));
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "vec3 scaled(vec4 v[][]) {\n"
                                         "    vec3 s = vec3(0.0);\n"
                                         "    for (int i = 0; i < constants.n; i++)\n"
                                         "        s += v[thread.y][i].xyz * v[thread.y][thread.x].w;\n"
                                         "    return s;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {(uint32_t)w, (uint32_t)h}, .constants = {{"n", N}}},
                                         &k));
    assert_described(k, crossing_words);
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_array(b)}, 1, expect, (size_t)(3 * w * h));
    gpuc_kernel_free(k);
    gpuc_array_free(b);
    free(v);
    free(expect);
}

/* An int array read a texel for 4 cells on a 1D grid of x_cells (its texels are ivec4), described
 * with `words`, against C. */
static void check_weighted_1d(int x_cells, const char *words)
{
    enum { ROWS = 5 };
    int32_t *m = malloc((size_t)(x_cells * ROWS) * sizeof *m), *expect = malloc((size_t)x_cells * sizeof *expect);
    int32_t *got = malloc((size_t)x_cells * sizeof *got);
    ck_assert(m && expect && got);
    for (int i = 0; i < x_cells * ROWS; i++)
        m[i] = (i * 13) % 23 - 11;
    for (int x = 0; x < x_cells; x++) {
        expect[x] = 0;
        for (int i = 0; i < ROWS; i++)
            expect[x] += m[i * x_cells + x] * (i + 1);
    }
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "int weighted(int m[][]) {\n"
                                         "    int s = 0;\n"
                                         "    for (int i = 0; i < constants.rows; i++)\n"
                                         "        s += m[i][thread.x] * (i + 1);\n"
                                         "    return s;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {(uint32_t)x_cells}, .constants = {{"rows", ROWS}}},
                                         &k));
    assert_described(k, words);
    assert_described(k, "(`m` read a texel for 4 neighbouring cells)");
    if (jams())
        ck_assert_msg(strstr(gpuc_kernel_glsl(k), "ivec4 gpuc_texels_0_0 = gpuc_texel_m(i, thread.x);"),
                      "no texel read in the program");
    for (int run = 0; run < 3; run++) {
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_i32(m, (gpuc_dims){(uint32_t)x_cells, ROWS})}, 1, &r));
        ck_assert_uint_eq(gpuc_array_values(r), (size_t)x_cells);
        ck_assert_gpuc_ok(gpuc_array_read_i32(r, got, (size_t)x_cells));
        gpuc_array_free(r);
        for (int i = 0; i < x_cells; i++)
            ck_assert_msg(got[i] == expect[i], "length %d, run %d, cell %d: %d, expected %d", x_cells, run, i, got[i],
                          expect[i]);
    }
    gpuc_kernel_free(k);
    free(m);
    free(expect);
    free(got);
}

START_TEST(rows_that_do_not_split_cross_cell_by_cell)
{
    check_matmul(17, crossing_words);
    check_matmul(30, crossing_words);
    if (jams()) { /* a crossing group's cells are computed one by one, and no texel is read on 2D grids */
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, matmul_source,
                                             &(gpuc_kernel_desc){.output = {17, 5}, .constants = {{"n", 13}}}, &k));
        const char *glsl = gpuc_kernel_glsl(k);
        ck_assert_msg(strstr(glsl, "if (thread.x + 8 <= gpuc_grid.x && local_cell + 8u <= gpuc_cell_count)"),
                      "no test for a crossing step in the program");
        ck_assert_msg(!strstr(glsl, "gpuc_texels_"), "the program reads texels");
        gpuc_kernel_free(k);
    }
    check_crossing_vec3(19, 4);
    check_weighted_1d(37, crossing_words);
    check_weighted_1d(1001, crossing_words);
}
END_TEST

/* A GLSL habit: the size a #defined number. */
START_TEST(a_defined_size_bounds_a_fused_loop)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "#define N 7\n"
                                         "float matmul(float a[][], float b[][]) {\n"
                                         "    float sum = 0.0;\n"
                                         "    for (int i = 0; i < N; i++)\n"
                                         "        sum += a[thread.y][i] * b[i][thread.x];\n"
                                         "    return sum;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {16, 3}}, &k));
    assert_described(k, "8 neighbouring cells stored as texels, computed by one call");
    run_matmul(k, 16, 3, 7, 10);
    gpuc_kernel_free(k);
}
END_TEST

/* Loops the jam must keep per cell beside ones it fuses, on a 1D grid (every loop counted, so that
 * none is guarded: a guarded kernel is never jammed). */
static const char *const mixed_source =
    "float halved(int k) { return float(k) * 0.5; }\n"
    "float mixed(float v[]) {\n"
    "    float s = 0.0;\n"
    "    for (int i = 0; i < 5 && i < thread.x % 5; i++)\n" /* its bound differs between cells */
    "        s += v[i];\n"
    "    for (int j = 0; j < 6; j += 1)\n"                  /* its counter passed whole to a helper */
    "        s += v[j] * halved(j);\n"
    "    for (int k = 0; k < 4; k++)\n"                     /* fused, with an inner loop bounded by k */
    "        for (int m = 0; m < 4 && m <= k; m++)\n"
    "            s += v[thread.x + m] - float(k);\n"
    "    return s;\n"
    "}\n";

static float mixed_c(const float *v, int cells, int x)
{
    float s = 0.0f;
    for (int i = 0; i < 5 && i < x % 5; i++)
        s += v[i];
    for (int j = 0; j < 6; j += 1)
        s += v[j] * ((float)j * 0.5f);
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 4 && m <= k; m++)
            s += (x + m < cells ? v[x + m] : 0.0f) - (float)k;
    return s;
}

START_TEST(loops_kept_per_cell_beside_fused_ones)
{
    enum { CELLS = 40 };
    float v[CELLS], expect[CELLS];
    for (int i = 0; i < CELLS; i++)
        v[i] = value(i, 3);
    for (int x = 0; x < CELLS; x++)
        expect[x] = mixed_c(v, CELLS, x);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, mixed_source, &(gpuc_kernel_desc){.output = {CELLS}}, &k));
    assert_described(k, "8 neighbouring cells stored as texels, computed by one call");
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){CELLS})}, 1, expect, CELLS);
    gpuc_kernel_free(k);
}
END_TEST

/* nbody's form: a vec3 result, each body's own position read before the loop over all bodies. */
START_TEST(vec3_and_int_results)
{
    enum { N = 32 };
    float bodies[4 * N], expect[3 * N];
    for (int i = 0; i < 4 * N; i++)
        bodies[i] = value(i, 4);
    for (int x = 0; x < N; x++) {
        float p[3] = {bodies[4 * x], bodies[4 * x + 1], bodies[4 * x + 2]}, a[3] = {0, 0, 0};
        for (int j = 0; j < N; j++)
            for (int c = 0; c < 3; c++)
                a[c] += (bodies[4 * j + c] - p[c]) * bodies[4 * j + 3];
        memcpy(expect + 3 * x, a, sizeof a);
    }
    gpuc_array *b;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){N}, &b));
    ck_assert_gpuc_ok(gpuc_array_write_f32(b, bodies, 4 * N));
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "vec3 pull(vec4 bodies[]) {\n"
                                         "    vec3 p = bodies[thread.x].xyz, a = vec3(0.0);\n"
                                         "    for (int j = 0; j < constants.n; j++) {\n"
                                         "        vec4 q = bodies[j];\n"
                                         "        a += (q.xyz - p) * q.w;\n"
                                         "    }\n"
                                         "    return a;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {N}, .constants = {{"n", N}}}, &k));
    assert_described(k, "computed by one call");
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_array(b)}, 1, expect, 3 * N);
    gpuc_kernel_free(k);
    gpuc_array_free(b);

    /* an int result: how many of a row's values lie below each cell's own */
    enum { W = 16, H = 3 };
    int32_t m[W * H], counts[W * H];
    for (int i = 0; i < W * H; i++)
        m[i] = (i * 11) % 17;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            counts[y * W + x] = 0;
            for (int i = 0; i < W; i++)
                counts[y * W + x] += m[y * W + i] < m[y * W + x];
        }
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "int below(int m[][]) {\n"
                                         "    int n = 0, own = m[thread.y][thread.x];\n"
                                         "    for (int i = 0; i < constants.w; i++)\n"
                                         "        n += m[thread.y][i] < own ? 1 : 0;\n"
                                         "    return n;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {W, H}, .constants = {{"w", W}}}, &k));
    assert_described(k, "computed by one call");
    int32_t got[W * H];
    for (int run = 0; run < 3; run++) {
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_i32(m, (gpuc_dims){W, H})}, 1, &r));
        ck_assert_gpuc_ok(gpuc_array_read_i32(r, got, W * H));
        gpuc_array_free(r);
        for (int i = 0; i < W * H; i++)
            ck_assert_msg(got[i] == counts[i], "run %d, cell %d: %d, expected %d", run, i, got[i], counts[i]);
    }
    gpuc_kernel_free(k);
}
END_TEST

/* GPU.js's read of a float array of `count` values at a flat index: 0 outside it. */
static float flat_read(const float *v, int count, int i)
{
    return i >= 0 && i < count ? v[i] : 0.0f;
}

/* Reads of a row's neighbours made a texel at a time (kernel_jam.h): 1D, 2D and 3D arrays read at
 * thread.x in fused loops, rows before the first (negative indices) and past the last (reads of 0),
 * a 1D array shorter than the row, a 2D array read at one flat index; each at widths whose rows are
 * whole texels (one texel load) and not (10: four element reads, x + c running on into the next row
 * as GPU.js reads it, through the one-component view once the program is specialised). */
static const char *const texel_source = "float rows(float a[][], float b[][], float c[], float v[][][]) {\n"
                                        "    float sum = 0.0;\n"
                                        "    for (int i = 0; i < constants.n; i++) {\n"
                                        "        sum += a[thread.y][i] * b[i - 2][thread.x];\n"
                                        "        sum += c[thread.x] * float(i) + b[thread.x] * 0.5;\n"
                                        "        for (int j = 0; j < 2; j++)\n"
                                        "            sum += v[j][i][thread.x];\n"
                                        "    }\n"
                                        "    return sum;\n"
                                        "}\n";

static void check_texel_rows(gpuc_kernel *k, int w, int h, int n, int bw, int bh, int cw, int vw, int vh)
{
    float *a = malloc((size_t)(n * h) * sizeof *a), *b = malloc((size_t)(bw * bh) * sizeof *b);
    float *c = malloc((size_t)cw * sizeof *c), *v = malloc((size_t)(2 * vw * vh) * sizeof *v);
    float *expect = malloc((size_t)(w * h) * sizeof *expect);
    ck_assert(a && b && c && v && expect);
    for (int i = 0; i < n * h; i++)
        a[i] = value(i, 5);
    for (int i = 0; i < bw * bh; i++)
        b[i] = value(i, 6);
    for (int i = 0; i < cw; i++)
        c[i] = value(i, 7);
    for (int i = 0; i < 2 * vw * vh; i++)
        v[i] = value(i, 8);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int i = 0; i < n; i++) {
                sum += a[y * n + i] * flat_read(b, bw * bh, (i - 2) * bw + x);
                sum += flat_read(c, cw, x) * (float)i + flat_read(b, bw * bh, x) * 0.5f;
                for (int j = 0; j < 2; j++)
                    sum += flat_read(v, 2 * vw * vh, (j * vh + i) * vw + x);
            }
            expect[y * w + x] = sum;
        }
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){(uint32_t)n, (uint32_t)h}),
                       gpuc_arg_host_f32(b, (gpuc_dims){(uint32_t)bw, (uint32_t)bh}),
                       gpuc_arg_host_f32(c, (gpuc_dims){(uint32_t)cw}),
                       gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)vw, (uint32_t)vh, 2})};
    run_and_compare(k, args, 4, expect, (size_t)w * (size_t)h);
    assert_described(k, "program specialised to the argument sizes"); /* gpuc's edits of it all held */
    free(a);
    free(b);
    free(c);
    free(v);
    free(expect);
}

START_TEST(neighbours_read_a_texel_at_a_time)
{
    enum { W = 16, H = 3, N = 5 };
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, texel_source, &(gpuc_kernel_desc){.output = {W, H}, .constants = {{"n", N}}}, &k));
    assert_described(k, "8 neighbouring cells stored as texels, computed by one call");
    assert_described(k, "arrays read from image views (`b`, `c`, `v` read a texel for 4 neighbouring cells)");
    if (jams()) { /* b, c and v read a texel for four cells; a's read is one for all eight already */
        const char *glsl = gpuc_kernel_glsl(k);
        ck_assert_msg(strstr(glsl, "gpuc_texel_b(i - 2, thread.x + 4)") && strstr(glsl, "gpuc_texel_c(thread.x)") && strstr(glsl, "gpuc_texel_b(thread.x)") &&
                          strstr(glsl, "gpuc_texel_v(j, i, thread.x)") && !strstr(glsl, "gpuc_texel_a("),
                      "%s", glsl);
    }
    check_texel_rows(k, W, H, N, 16, 4, 12, 16, 4);  /* rows of whole texels (c shorter than the row) */
    check_texel_rows(k, W, H, N, 10, 6, 20, 10, 7);  /* rows of 10: element reads */
    check_texel_rows(k, W, H, N, 20, 2, 16, 12, 3);  /* b's last rows and v's past their ends */
    gpuc_kernel_free(k);
    /* a kernel's first calls run its generic program in the context (later small calls may run on
     * the calling-thread twin): rows of 10 there too, where the width is a uniform */
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, texel_source, &(gpuc_kernel_desc){.output = {W, H}, .constants = {{"n", N}}}, &k));
    check_texel_rows(k, W, H, N, 10, 6, 20, 10, 7);
    gpuc_kernel_free(k);

    /* an int array, on a 1D grid: its texels are ivec4 */
    check_weighted_1d(24, "8 neighbouring cells stored as texels, computed by one call");
}
END_TEST

/* Reads of a row's neighbours at thread.x plus an offset (kernel_jam.h's windows): a stencil whose
 * window loop the jam unrolls (offsets -2 .. 2 through a local; rows and columns outside read as
 * GPU.js reads them: a column past a row's end runs into the next row, an index outside the array
 * reads 0), a guarded read as the zoo's conv5 makes it, and offsets written in the call on 1D and 3D
 * arrays in a loop not unrolled; widths whose rows are whole texels and not. */
static const char *const window_source = "float stencil(float img[][], float w[][], float c[], float v[][][]) {\n"
                                         "    float sum = 0.0;\n"
                                         "    for (int j = 0; j < 3; j++)\n"
                                         "        for (int i = -2; i <= 2; i++) {\n"
                                         "            int yy = thread.y + j - 1, xx = thread.x + i;\n"
                                         "            sum += img[yy][xx] * w[j][i + 2];\n"
                                         "            if (xx >= 0 && xx < outputSize.x)\n"
                                         "                sum += img[yy][xx] * 0.5;\n"
                                         "        }\n"
                                         "    for (int i = 0; i < constants.n; i++)\n"
                                         "        sum += c[thread.x - 3] * float(i) + v[i][1][thread.x + 5] * w[0][i];\n"
                                         "    return sum;\n"
                                         "}\n";

static void check_windows(gpuc_kernel *k, int w, int h, int n, int iw, int ih, int cw, int vw, int vh, int vd)
{
    float *img = malloc((size_t)(iw * ih) * sizeof *img), *c = malloc((size_t)cw * sizeof *c);
    float *v = malloc((size_t)(vw * vh * vd) * sizeof *v), weights[15];
    float *expect = malloc((size_t)(w * h) * sizeof *expect);
    ck_assert(img && c && v && expect);
    for (int i = 0; i < iw * ih; i++)
        img[i] = value(i, 1);
    for (int i = 0; i < cw; i++)
        c[i] = value(i, 2);
    for (int i = 0; i < vw * vh * vd; i++)
        v[i] = value(i, 3);
    for (int i = 0; i < 15; i++)
        weights[i] = value(i, 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = 0; j < 3; j++)
                for (int i = -2; i <= 2; i++) {
                    int yy = y + j - 1, xx = x + i;
                    float e = flat_read(img, iw * ih, yy * iw + xx);
                    sum += e * weights[j * 5 + i + 2];
                    if (xx >= 0 && xx < w)
                        sum += e * 0.5f;
                }
            for (int i = 0; i < n; i++)
                sum += flat_read(c, cw, x - 3) * (float)i + flat_read(v, vw * vh * vd, (i * vh + 1) * vw + x + 5) * weights[i];
            expect[y * w + x] = sum;
        }
    gpuc_arg args[] = {gpuc_arg_host_f32(img, (gpuc_dims){(uint32_t)iw, (uint32_t)ih}),
                       gpuc_arg_host_f32(weights, (gpuc_dims){5, 3}), gpuc_arg_host_f32(c, (gpuc_dims){(uint32_t)cw}),
                       gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)vw, (uint32_t)vh, (uint32_t)vd})};
    run_and_compare(k, args, 4, expect, (size_t)w * (size_t)h);
    assert_described(k, "program specialised to the argument sizes");
    free(img);
    free(c);
    free(v);
    free(expect);
}

START_TEST(neighbours_read_a_window_of_texels)
{
    enum { W = 16, H = 3, N = 4 };
    const gpuc_kernel_desc desc = {.output = {W, H}, .constants = {{"n", N}}};
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, window_source, &desc, &k));
    assert_described(k, "8 neighbouring cells stored as texels, computed by one call");
    assert_described(k, "(`img`, `c`, `v` read a window of texels for each step's cells)");
    if (jams()) { /* the window loop unrolled, each trip's img window read once; c's and v's in the loop */
        const char *glsl = gpuc_kernel_glsl(k);
        ck_assert_msg(strstr(glsl, "const int i = -2;") && strstr(glsl, "const int i = 2;") &&
                          strstr(glsl, "gpuc_texel_img(gpuc_j0_yy, thread.x + (int(0 + i) & ~3) + 8)") &&
                          strstr(glsl, "gpuc_texel_c(thread.x + (int(0 - 3) & ~3)") &&
                          strstr(glsl, "gpuc_texel_v(i, 1, thread.x + (int(0 + 5) & ~3) + 4)"),
                      "%s", glsl);
    }
    check_windows(k, W, H, N, 16, 4, 24, 16, 4, 5); /* rows of whole texels */
    check_windows(k, W, H, N, 10, 5, 12, 10, 3, 3); /* rows of 10: element reads; c and v short */
    check_windows(k, W, H, N, 20, 2, 16, 12, 2, 4); /* img's rows past its end */
    gpuc_kernel_free(k);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, window_source, &desc, &k)); /* rows of 10 on the first program */
    check_windows(k, W, H, N, 10, 5, 12, 10, 3, 3);
    gpuc_kernel_free(k);

    /* describe tells the two kinds apart: b read at thread.x, c at thread.x + 1 */
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float both(float a[][], float b[][], float c[][]) {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < constants.n; i++)\n"
                                         "        s += a[thread.y][i] * b[i][thread.x] + c[i][thread.x + 1];\n"
                                         "    return s;\n"
                                         "}\n",
                                         &desc, &k));
    assert_described(k, "(`b` read a texel for 4 neighbouring cells; `c` read a window of texels for each step's "
                        "cells)");
    gpuc_kernel_free(k);
}
END_TEST

/* 8 cells of 9,000 iterations would pass llvmpipe's budget of 65,535 in one invocation: groups of 4. */
START_TEST(loop_budget_chooses_smaller_groups)
{
    enum { W = 16, STEPS = 9000 };
    const float w[4] = {0.5f, -1.0f, 2.0f, 0.25f};
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float steps(float w[]) {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < constants.steps; i++)\n"
                                         "        s += (i % 3 == 0) ? w[i % 4] : float(thread.x);\n"
                                         "    return s;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {W}, .constants = {{"steps", STEPS}}}, &k));
    if (gpuc_get_info(gpu)->loop_budget > 0)
        assert_described(k, "4 neighbouring cells stored as texels, computed by one call");
    float expect[W];
    for (int x = 0; x < W; x++) {
        float s = 0.0f;
        for (int i = 0; i < STEPS; i++)
            s += (i % 3 == 0) ? w[i % 4] : (float)x;
        expect[x] = s;
    }
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(w, (gpuc_dims){4})}, 1, expect, W);
    gpuc_kernel_free(k);

    /* With tails (21 cells: the third group of 8 crosses the end), a step's lanes may run the jammed
     * body and the loop over its cells one by one together, under masks: the budget counts both. A
     * loop whose bound differs between cells is not fused (one copy per cell): 8 cells would run
     * 8 x 6000 iterations in the jammed body and 5 x 6000 in the crossing step's loop, past the
     * budget, where llvmpipe would cut them short; 4 cells stay within it. */
    enum { TAIL_W = 21, TAIL_STEPS = 6000 };
    float tail_expect[TAIL_W];
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float steps(float w[]) {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < constants.steps && i < thread.x + constants.steps; i++)\n"
                                         "        s += (i % 3 == 0) ? w[i % 4] : 1.0;\n"
                                         "    for (int j = 0; j < 4; j++)\n"
                                         "        s += w[j] * float(thread.x);\n"
                                         "    return s;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {TAIL_W}, .constants = {{"steps", TAIL_STEPS}}},
                                         &k));
    if (gpuc_get_info(gpu)->loop_budget > 0)
        assert_described(k, "4 neighbouring cells stored as texels, computed by one call of the body with its loops "
                            "fused (cell by cell");
    for (int x = 0; x < TAIL_W; x++) {
        float s = 0.0f;
        for (int i = 0; i < TAIL_STEPS; i++)
            s += (i % 3 == 0) ? w[i % 4] : 1.0f;
        for (int j = 0; j < 4; j++)
            s += w[j] * (float)x;
        tail_expect[x] = s;
    }
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(w, (gpuc_dims){4})}, 1, tail_expect, TAIL_W);
    gpuc_kernel_free(k);
}
END_TEST

/* A kernel whose cells each read a chunk of their own shares nothing: it keeps one cell per call. */
START_TEST(chunks_of_their_own_are_not_jammed)
{
    enum { CELLS = 32, CHUNK = 8 };
    float v[CELLS * CHUNK], expect[CELLS];
    for (int i = 0; i < CELLS * CHUNK; i++)
        v[i] = value(i, 8);
    for (int x = 0; x < CELLS; x++) {
        expect[x] = 0.0f;
        for (int i = 0; i < CHUNK; i++)
            expect[x] += v[x * CHUNK + i];
    }
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float chunk(float v[]) {\n"
                                         "    float s = 0.0;\n"
                                         "    for (int i = 0; i < constants.chunk; i++)\n"
                                         "        s += v[thread.x * constants.chunk + i];\n"
                                         "    return s;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {CELLS}, .constants = {{"chunk", CHUNK}}}, &k));
    assert_described(k, "loops not fused: no read in a fused loop that its cells share");
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){CELLS * CHUNK})}, 1, expect, CELLS);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(javascript_kernel)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function (a, b) {\n"
                                            "  let sum = 0;\n"
                                            "  for (let i = 0; i < 9; i++) {\n"
                                            "    sum += a[this.thread.y][i] * b[i][this.thread.x];\n"
                                            "  }\n"
                                            "  return sum;\n"
                                            "}\n",
                                            &(gpuc_kernel_desc){.output = {16, 4}, .arg_types = "float[][],float[][]"},
                                            &k));
    assert_described(k, "computed by one call of the body with its loops fused");
    assert_described(k, "(`b` read a texel for 4 neighbouring cells)"); /* its name as the user wrote it */
    run_matmul(k, 16, 4, 9, 5);
    gpuc_kernel_free(k);
}
END_TEST

/* Kernels the jam refuses compute each cell alone, correctly, and describe says why. */
START_TEST(refused_kernels_say_why)
{
    static const struct {
        const char *source, *why;
    } cases[] = {
        {"float first(float v[]) {\n"
         "    float s = 0.0;\n"
         "    for (int i = 0; i < 8; i++) { if (v[i] > float(thread.x % 3)) break; s += v[i]; }\n"
         "    return s;\n"
         "}\n",
         "loops not fused: break, continue or discard"},
        {"float shift(int d) { return float(thread.x + d); }\n"
         "float first(float v[]) {\n"
         "    float s = 0.0;\n"
         "    for (int i = 0; i < 8; i++) { if (v[i] > float(thread.x % 3)) s += shift(i); }\n"
         "    return s;\n"
         "}\n",
         "loops not fused: a helper function reads `thread`"},
    };
    enum { CELLS = 16 };
    float v[CELLS];
    for (int i = 0; i < CELLS; i++)
        v[i] = value(i, 7);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        float expect[CELLS];
        for (int x = 0; x < CELLS; x++) {
            float s = 0.0f;
            for (int i = 0; i < 8; i++) {
                if (v[i] > (float)(x % 3)) {
                    if (c == 0)
                        break;
                    s += (float)(x + i);
                } else if (c == 0) {
                    s += v[i];
                }
            }
            expect[x] = s;
        }
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, cases[c].source, &(gpuc_kernel_desc){.output = {CELLS}}, &k));
        if (c == 0 && gpuc_get_info(gpu)->loop_budget > 0) /* a loop with a break is guarded: no jam tried */
            ck_assert_msg(!strstr(gpuc_kernel_describe(k), "loops fused"), "%s", gpuc_kernel_describe(k));
        else
            assert_described(k, cases[c].why);
        run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){CELLS})}, 1, expect, CELLS);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* Before the jam's own reader is trusted, the loop reader must prove every use of thread a read from
 * its list of reads; a comma expression in parentheses is not on it (it takes any such operand for a
 * possible write), so this kernel, which the jam alone would fuse, keeps one cell per call, right. */
START_TEST(thread_proved_only_read_first)
{
    enum { W = 16, H = 4 };
    const char *src = "float rows(float a[][]) {\n"
                      "    float s = 0.0;\n"
                      "    for (int i = 0; i < 8; i++) s += a[thread.y][i];\n"
                      "    int x = (1, thread.x);\n"
                      "    return s + float(x);\n"
                      "}\n";
    float a[H * 8], expect[W * H];
    for (int i = 0; i < H * 8; i++)
        a[i] = value(i, 3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int i = 0; i < 8; i++)
                s += a[y * 8 + i];
            expect[y * W + x] = s + (float)x;
        }
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {W, H}}, &k));
    assert_described(k, "loops not fused: the loop reader could not prove every use of thread a read");
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){8, H})}, 1, expect, W * H);
    gpuc_kernel_free(k);
}
END_TEST

/* A struct the body defines for itself is a type the reader does not know, so it misses the
 * declaration `P p` and each cell's copy declares the same name: the jammed program does not compile,
 * and the kernel is compiled again one cell per call, with the right answers. */
START_TEST(a_jam_that_does_not_compile_falls_back)
{
    enum { CELLS = 16 };
    float v[8], expect[CELLS];
    for (int i = 0; i < 8; i++)
        v[i] = value(i, 9);
    for (int x = 0; x < CELLS; x++) {
        expect[x] = 0.0f;
        for (int i = 0; i < 8; i++)
            expect[x] += v[i] * (float)x;
    }
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float local(float v[]) {\n"
                                         "    struct P { float a; };\n"
                                         "    P p = P(0.0);\n"
                                         "    for (int i = 0; i < 8; i++)\n"
                                         "        p.a += v[i] * float(thread.x);\n"
                                         "    return p.a;\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {CELLS}}, &k));
    assert_described(k, "loops not fused: its program did not compile");
    run_and_compare(k, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){8})}, 1, expect, CELLS);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_jam(void)
{
    Suite *s = suite_create("jam");
    TCase *tc = fixture_tcase("jam");
    tcase_add_test(tc, matmul_in_groups_of_cells);
    tcase_add_test(tc, rows_that_do_not_split_cross_cell_by_cell);
    tcase_add_test(tc, a_defined_size_bounds_a_fused_loop);
    tcase_add_test(tc, loops_kept_per_cell_beside_fused_ones);
    tcase_add_test(tc, vec3_and_int_results);
    tcase_add_test(tc, neighbours_read_a_texel_at_a_time);
    tcase_add_test(tc, neighbours_read_a_window_of_texels);
    tcase_add_test(tc, loop_budget_chooses_smaller_groups);
    tcase_add_test(tc, chunks_of_their_own_are_not_jammed);
    tcase_add_test(tc, javascript_kernel);
    tcase_add_test(tc, refused_kernels_say_why);
    tcase_add_test(tc, thread_proved_only_read_first);
    tcase_add_test(tc, a_jam_that_does_not_compile_falls_back);
    suite_add_tcase(s, tc);
    return s;
}
