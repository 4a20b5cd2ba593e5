/* row_zoo_matmul.c - zoo row `matmul`: two n x n float matrices multiplied with GPU.js's README kernel,
 * in gpuc (GLSL and that JavaScript pasted) beside the naive C triple loop and GPU.js. */
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>

#define MATMUL_MAX_N 4096

/* GPU.js's README example, with the size in its loop bound (512 at the published size). */
#define MATMUL_JS \
    "function (a, b) {\n" \
    "  let sum = 0;\n" \
    "  for (let i = 0; i < %zu; i++) {\n" \
    "    sum += a[this.thread.y][i] * b[i][this.thread.x];\n" \
    "  }\n" \
    "  return sum;\n" \
    "}"

static const char *const matmul_glsl = "float matmul(float a[][], float b[][]) {\n"
                                       "    float sum = 0.0;\n"
                                       "    for (int i = 0; i < constants.n; i++)\n"
                                       "        sum += a[thread.y][i] * b[i][thread.x];\n"
                                       "    return sum;\n"
                                       "}\n";

/* The same kernel in OpenCL C, one work-item per cell, the size compiled in as the JavaScript has it;
 * FP_CONTRACT OFF: OpenCL may fuse a * b + c by default, C and GLSL do not. */
static const char *const matmul_cl = "#pragma OPENCL FP_CONTRACT OFF\n"
                                     "__kernel void matmul(__global const float *a, __global const float *b,\n"
                                     "                     __global float *out) {\n"
                                     "    const int x = get_global_id(0), y = get_global_id(1);\n"
                                     "    float sum = 0.0f;\n"
                                     "    for (int i = 0; i < N; i++)\n"
                                     "        sum += a[y * N + i] * b[i * N + x];\n"
                                     "    out[y * N + x] = sum;\n"
                                     "}\n";

typedef struct matmul_state {
    size_t n;
    const float *a, *b;
    gpuc_kernel *k;
    float *omp_out; /* the OpenMP column's result, for its row function */
    zoo_cl *cl;     /* the OpenCL column: kernel 0, buffers a, b, out */
} matmul_state;

/* The loop a C user writes first: row times column, summed from i = 0 up, as the kernel does. restrict
 * tells the compiler what it sees itself in a program that mallocs its matrices and loops in main. */
static inline void matmul_row(const float *restrict a, const float *restrict b, float *restrict out, size_t n,
                              size_t y)
{
    for (size_t x = 0; x < n; x++) {
        float sum = 0.0f;
        for (size_t i = 0; i < n; i++)
            sum += a[y * n + i] * b[i * n + x];
        out[y * n + x] = sum;
    }
}

static inline void matmul_naive(const float *restrict a, const float *restrict b, float *restrict out, size_t n)
{
    for (size_t y = 0; y < n; y++)
        matmul_row(a, b, out, n, y);
}

/* The kernel has its size in its text (512), and so does the C a user writes: at the published size
 * the loops run with n a constant (GCC then computes several cells at once, each still in its own
 * order: 4-5x faster than with n read at run time or without restrict), at other sizes with n from the
 * command line. */
static int c_run(void *vs, float *out)
{
    matmul_state *s = vs;
    if (s->n == 512)
        matmul_naive(s->a, s->b, out, 512);
    else
        matmul_naive(s->a, s->b, out, s->n);
    return 0;
}

/* The same sums with the loops in i-k-j order (b read along its rows, the stores vectorised): each cell
 * still adds its terms from i = 0 up, so its result is bit-equal to c_run's, in a fraction of the time. */
static int c_ikj_run(void *vs, float *out)
{
    matmul_state *s = vs;
    size_t n = s->n;
    for (size_t y = 0; y < n; y++) {
        float *row = out + y * n;
        for (size_t x = 0; x < n; x++)
            row[x] = 0.0f;
        for (size_t i = 0; i < n; i++) {
            float a = s->a[y * n + i];
            const float *b = s->b + i * n;
            for (size_t x = 0; x < n; x++)
                row[x] += a * b[x];
        }
    }
    return 0;
}

/* The naive loop under `#pragma omp parallel for` over the rows, n compiled in where c_run has it. */
static void omp_row(void *vs, size_t y)
{
    matmul_state *s = vs;
    if (s->n == 512)
        matmul_row(s->a, s->b, s->omp_out, 512, y);
    else
        matmul_row(s->a, s->b, s->omp_out, s->n, y);
}

static int omp_run(void *vs, float *out)
{
    matmul_state *s = vs;
    s->omp_out = out;
    return zoo_omp_rows(s->n, omp_row, s);
}

/* As a user's OpenCL call: host matrices written, the kernel over n x n cells, the product read back. */
static int cl_run(void *vs, float *out)
{
    matmul_state *s = vs;
    size_t bytes = s->n * s->n * sizeof(float);
    return zoo_cl_write(s->cl, 0, s->a, bytes) || zoo_cl_write(s->cl, 1, s->b, bytes) ||
                   zoo_cl_run(s->cl, 0, s->n, s->n) || zoo_cl_read(s->cl, 2, out, bytes)
               ? -1
               : 0;
}

static zoo_cl *cl_setup(size_t n, char *why, size_t why_len)
{
    char source[1024];
    snprintf(source, sizeof source, "#define N %zu\n%s", n, matmul_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    size_t bytes = n * n * sizeof(float);
    if (cl && (zoo_cl_kernel(cl, "matmul") < 0 || zoo_cl_buffer(cl, bytes) < 0 || zoo_cl_buffer(cl, bytes) < 0 ||
               zoo_cl_buffer(cl, bytes) < 0 || zoo_cl_arg_buffer(cl, 0, 0, 0) || zoo_cl_arg_buffer(cl, 0, 1, 1) ||
               zoo_cl_arg_buffer(cl, 0, 2, 2))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

/* What a GPU.js user's call does: host matrices in, the product in host memory. */
static int gpuc_matmul_run(void *vs, float *out)
{
    matmul_state *s = vs;
    gpuc_dims d = {(uint32_t)s->n, (uint32_t)s->n};
    gpuc_array *r = NULL;
    gpuc_status st = gpuc_run(s->k, (gpuc_arg[]){gpuc_arg_host_f32(s->a, d), gpuc_arg_host_f32(s->b, d)}, 2, &r);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, out, s->n * s->n);
    gpuc_array_free(r);
    return st == GPUC_OK ? 0 : -1;
}

int row_zoo_matmul(bench_env *env, const bench_params *p)
{
    if (p->n > MATMUL_MAX_N) {
        printf("-- zoo matmul: --n %zu is over this row's %d (n^2 floats per matrix)\n", p->n, MATMUL_MAX_N);
        env->failures++;
        return -1;
    }
    size_t n = p->n, nn = n * n;
    char js[512];
    snprintf(js, sizeof js, MATMUL_JS, n);
    float *ab = malloc(2 * nn * sizeof *ab), *scale = malloc(nn * sizeof *scale);
    zoo_row row = {.name = "matmul", .kind = ZOO_FLOATS, .count = nn, .scale = scale, .tolerance = 1e-5, .js_source = js};
    zoo_table t;
    matmul_state s = {.n = n, .a = ab, .b = ab ? ab + nn : NULL};
    snprintf(row.heading, sizeof row.heading, "%zu x %zu float matrices, uniform [0, 1), seed %#x (GPU.js README kernel)",
             n, n, p->seed);
    if (!ab || !scale) {
        printf("-- zoo matmul: out of memory\n");
        env->failures++;
    } else {
        uint32_t seed = p->seed; /* a then b from one stream */
        for (size_t i = 0; i < 2 * nn; i++) {
            seed = seed * 1664525u + 1013904223u;
            ab[i] = (float)zoo_unit(seed);
        }
        /* Every term is >= 0, so the sum of their magnitudes is the product itself (in double). */
        for (size_t y = 0; y < n; y++)
            for (size_t x = 0; x < n; x++) {
                double sum = 0;
                for (size_t i = 0; i < n; i++)
                    sum += (double)s.a[y * n + i] * s.b[i * n + x];
                scale[y * n + x] = (float)sum;
            }
    }
    if (ab && scale && zoo_begin(&t, env, &row, p, c_run, &s) == 0) {
        zoo_c_column(&t, "C -O3, loops in i-k-j order", "C ikj", c_ikj_run, &s, true);
        char why[200];
        zoo_openmp_column(&t, "naive loop", omp_run, &s, true);
        s.cl = cl_setup(n, why, sizeof why);
        zoo_opencl_column(&t, s.cl, why, "1 work-item per cell", cl_run, &s, true);
        gpuc_kernel_desc desc = {.output = {(uint32_t)n, (uint32_t)n}, .constants = {{"n", (double)n, GPUC_INT}}};
        if (gpuc_create_kernel(env->gpu, matmul_glsl, &desc, &s.k) == GPUC_OK)
            zoo_gpuc(&t, "gpuc GLSL", gpuc_matmul_run, &s, true);
        else
            zoo_error(&t, "gpuc GLSL", gpuc_errmsg(env->gpu));
        gpuc_kernel_free(s.k);
        s.k = NULL;
        if (gpuc_create_kernel_js(env->gpu, js, &desc, &s.k) == GPUC_OK)
            zoo_gpuc(&t, "gpuc JS (pasted)", gpuc_matmul_run, &s, true);
        else
            zoo_error(&t, "gpuc JS (pasted)", gpuc_errmsg(env->gpu));
        gpuc_kernel_free(s.k);
        zoo_end(&t);
        zoo_cl_free(s.cl);
    }
    free(ab);
    free(scale);
    return 0;
}
