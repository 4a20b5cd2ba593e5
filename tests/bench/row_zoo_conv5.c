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

typedef struct conv5_state {
    size_t n;
    const float *img, *w; /* w: 5 rows of 5 */
    gpuc_kernel *k;
} conv5_state;

/* The loop a C user writes first: the window rows then columns, skipping what lies outside. */
static int c_run(void *vs, float *out)
{
    conv5_state *s = vs;
    long n = (long)s->n;
    for (long y = 0; y < n; y++)
        for (long x = 0; x < n; x++) {
            float sum = 0.0f;
            for (long j = 0; j < 5; j++)
                for (long i = 0; i < 5; i++) {
                    long yy = y + j - 2, xx = x + i - 2;
                    if (yy >= 0 && yy < n && xx >= 0 && xx < n)
                        sum += s->img[yy * n + xx] * s->w[j * 5 + i];
                }
            out[y * n + x] = sum;
        }
    return 0;
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
        }
    }
    free(img);
    free(scale);
    return 0;
}
