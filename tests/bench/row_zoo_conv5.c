/* row_zoo_conv5.c - zoo row `conv5`: an n x n float image convolved with a 5 x 5 kernel of weights
 * (zero outside the image), in gpuc (GLSL and pasted JavaScript) beside a naive C loop and GPU.js. */
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>

#define CONV5_MAX_N 8192

/* The same text as scripts/bench-gpujs-zoo.js's (the bench checks its hash). A GPU.js read past a row's
 * end runs into the next row, so "zero outside" takes the explicit test a user writes. */
static const char *const conv5_js = "function (img, w) {\n"
                                    "  const x = this.thread.x;\n"
                                    "  const y = this.thread.y;\n"
                                    "  let sum = 0;\n"
                                    "  for (let j = 0; j < 5; j++) {\n"
                                    "    for (let i = 0; i < 5; i++) {\n"
                                    "      const yy = y + j - 2;\n"
                                    "      const xx = x + i - 2;\n"
                                    "      if (yy >= 0 && yy < this.output.y && xx >= 0 && xx < this.output.x) {\n"
                                    "        sum += img[yy][xx] * w[j][i];\n"
                                    "      }\n"
                                    "    }\n"
                                    "  }\n"
                                    "  return sum;\n"
                                    "}";

static const char *const conv5_glsl =
    "float conv5(float img[][], float w[][]) {\n"
    "    float sum = 0.0;\n"
    "    for (int j = 0; j < 5; j++)\n"
    "        for (int i = 0; i < 5; i++) {\n"
    "            int yy = thread.y + j - 2, xx = thread.x + i - 2;\n"
    "            if (yy >= 0 && yy < outputSize.y && xx >= 0 && xx < outputSize.x)\n"
    "                sum += img[yy][xx] * w[j][i];\n"
    "        }\n"
    "    return sum;\n"
    "}\n";

/* The same kernel in OpenCL C, one work-item per cell, the side compiled in; FP_CONTRACT OFF as C. */
static const char *const conv5_cl = "#pragma OPENCL FP_CONTRACT OFF\n"
                                    "__kernel void conv5(__global const float *img, __global const float *w,\n"
                                    "                    __global float *out) {\n"
                                    "    const int x = get_global_id(0), y = get_global_id(1);\n"
                                    "    float sum = 0.0f;\n"
                                    "    for (int j = 0; j < 5; j++)\n"
                                    "        for (int i = 0; i < 5; i++) {\n"
                                    "            const int yy = y + j - 2, xx = x + i - 2;\n"
                                    "            if (yy >= 0 && yy < N && xx >= 0 && xx < N)\n"
                                    "                sum += img[yy * N + xx] * w[j * 5 + i];\n"
                                    "        }\n"
                                    "    out[y * N + x] = sum;\n"
                                    "}\n";

typedef struct conv5_state {
    size_t n;
    const float *img, *w; /* w: 5 rows of 5 */
    gpuc_kernel *k;
    float *omp_out; /* the OpenMP column's result, for its row function */
    zoo_cl *cl;     /* the OpenCL column: kernel 0, buffers img, w, out */
} conv5_state;

/* The loop a C user writes first: the window rows then columns, skipping what lies outside; row y. */
static inline void conv5_row(const float *restrict img, const float *restrict w, float *restrict out, long n, long y)
{
    for (long x = 0; x < n; x++) {
        float sum = 0.0f;
        for (long j = 0; j < 5; j++)
            for (long i = 0; i < 5; i++) {
                long yy = y + j - 2, xx = x + i - 2;
                if (yy >= 0 && yy < n && xx >= 0 && xx < n)
                    sum += img[yy * n + xx] * w[j * 5 + i];
            }
        out[y * n + x] = sum;
    }
}

static int c_run(void *vs, float *out)
{
    conv5_state *s = vs;
    for (long y = 0; y < (long)s->n; y++)
        conv5_row(s->img, s->w, out, (long)s->n, y);
    return 0;
}

/* The same loop under `#pragma omp parallel for` over the rows. */
static void omp_row(void *vs, size_t y)
{
    conv5_state *s = vs;
    conv5_row(s->img, s->w, s->omp_out, (long)s->n, (long)y);
}

static int omp_run(void *vs, float *out)
{
    conv5_state *s = vs;
    s->omp_out = out;
    return zoo_omp_rows(s->n, omp_row, s);
}

/* As a user's OpenCL call: image and weights written, one work-item per cell, the result read back. */
static int cl_run(void *vs, float *out)
{
    conv5_state *s = vs;
    size_t bytes = s->n * s->n * sizeof(float);
    return zoo_cl_write(s->cl, 0, s->img, bytes) || zoo_cl_write(s->cl, 1, s->w, 25 * sizeof(float)) ||
                   zoo_cl_run(s->cl, 0, s->n, s->n) || zoo_cl_read(s->cl, 2, out, bytes)
               ? -1
               : 0;
}

static zoo_cl *cl_setup(size_t n, char *why, size_t why_len)
{
    char source[2048];
    snprintf(source, sizeof source, "#define N %zu\n%s", n, conv5_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    size_t bytes = n * n * sizeof(float);
    if (cl && (zoo_cl_kernel(cl, "conv5") < 0 || zoo_cl_buffer(cl, bytes) < 0 ||
               zoo_cl_buffer(cl, 25 * sizeof(float)) < 0 || zoo_cl_buffer(cl, bytes) < 0 ||
               zoo_cl_arg_buffer(cl, 0, 0, 0) || zoo_cl_arg_buffer(cl, 0, 1, 1) || zoo_cl_arg_buffer(cl, 0, 2, 2))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

static int gpuc_conv5_run(void *vs, float *out)
{
    conv5_state *s = vs;
    gpuc_array *r = NULL;
    gpuc_status st = gpuc_run(s->k,
                              (gpuc_arg[]){gpuc_arg_host_f32(s->img, (gpuc_dims){(uint32_t)s->n, (uint32_t)s->n}),
                                           gpuc_arg_host_f32(s->w, (gpuc_dims){5, 5})},
                              2, &r);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, out, s->n * s->n);
    gpuc_array_free(r);
    return st == GPUC_OK ? 0 : -1;
}

int row_zoo_conv5(bench_env *env, const bench_params *p)
{
    if (p->n > CONV5_MAX_N) {
        printf("-- zoo conv5: --n %zu is over this row's %d\n", p->n, CONV5_MAX_N);
        env->failures++;
        return -1;
    }
    size_t n = p->n, cells = n * n;
    float *img = malloc((cells + 25) * sizeof *img), *scale = malloc(cells * sizeof *scale);
    conv5_state s = {.n = n, .img = img, .w = img ? img + cells : NULL};
    zoo_row row = {.name = "conv5", .kind = ZOO_FLOATS, .count = cells, .scale = scale, .tolerance = 1e-5,
                   .js_source = conv5_js};
    snprintf(row.heading, sizeof row.heading,
             "%zu x %zu float image, uniform [0, 1), 5 x 5 weights in [0, 0.08), seed %#x, zero outside", n, n, p->seed);
    zoo_table t;
    if (!img || !scale) {
        printf("-- zoo conv5: out of memory\n");
        env->failures++;
    } else {
        uint32_t seed = p->seed; /* the image, then the weights, from one stream */
        for (size_t i = 0; i < cells + 25; i++) {
            seed = seed * 1664525u + 1013904223u;
            img[i] = (float)(i < cells ? zoo_unit(seed) : zoo_unit(seed) / 12.5);
        }
        /* Every term is >= 0: the sum of their magnitudes is the value itself (in double). */
        for (long y = 0; y < (long)n; y++)
            for (long x = 0; x < (long)n; x++) {
                double sum = 0;
                for (long j = 0; j < 5; j++)
                    for (long i = 0; i < 5; i++) {
                        long yy = y + j - 2, xx = x + i - 2;
                        if (yy >= 0 && yy < (long)n && xx >= 0 && xx < (long)n)
                            sum += (double)img[yy * (long)n + xx] * s.w[j * 5 + i];
                    }
                scale[y * (long)n + x] = (float)sum;
            }
        if (zoo_begin(&t, env, &row, p, c_run, &s) == 0) {
            char why[200];
            zoo_openmp_column(&t, "naive loop", omp_run, &s, true);
            s.cl = cl_setup(n, why, sizeof why);
            zoo_opencl_column(&t, s.cl, why, "1 work-item per cell", cl_run, &s, true);
            gpuc_kernel_desc desc = {.output = {(uint32_t)n, (uint32_t)n}};
            if (gpuc_create_kernel(env->gpu, conv5_glsl, &desc, &s.k) == GPUC_OK)
                zoo_gpuc(&t, "gpuc GLSL", gpuc_conv5_run, &s, true);
            else
                zoo_error(&t, "gpuc GLSL", gpuc_errmsg(env->gpu));
            gpuc_kernel_free(s.k);
            s.k = NULL;
            if (gpuc_create_kernel_js(env->gpu, conv5_js, &desc, &s.k) == GPUC_OK)
                zoo_gpuc(&t, "gpuc JS (pasted)", gpuc_conv5_run, &s, true);
            else
                zoo_error(&t, "gpuc JS (pasted)", gpuc_errmsg(env->gpu));
            gpuc_kernel_free(s.k);
            zoo_end(&t);
            zoo_cl_free(s.cl);
        }
    }
    free(img);
    free(scale);
    return 0;
}
