/* row_zoo_mandelbrot.c - zoo row `mandelbrot`: escape times of an n x 3n/4 picture of x in [-2.5, 1],
 * y in [-1, 1], 256 iterations, painted by a graphical kernel (RGBA8 pixels), beside naive C and GPU.js. */
#include "zoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MANDELBROT_MAX_N 8192

/* The same text as scripts/bench-gpujs-zoo.js's (the bench checks its hash). */
static const char *const mandelbrot_js = "function () {\n"
                                         "  const x0 = -2.5 + 3.5 * this.thread.x / this.output.x;\n"
                                         "  const y0 = -1 + 2 * this.thread.y / this.output.y;\n"
                                         "  let zx = 0;\n"
                                         "  let zy = 0;\n"
                                         "  let n = 0;\n"
                                         "  for (let i = 0; i < 256; i++) {\n"
                                         "    if (zx * zx + zy * zy > 4) {\n"
                                         "      break;\n"
                                         "    }\n"
                                         "    const xt = zx * zx - zy * zy + x0;\n"
                                         "    zy = 2 * zx * zy + y0;\n"
                                         "    zx = xt;\n"
                                         "    n++;\n"
                                         "  }\n"
                                         "  const t = n / 256;\n"
                                         "  this.color(t, t * t, Math.sqrt(t));\n"
                                         "}";

static const char *const mandelbrot_glsl =
    "void mandelbrot() {\n"
    "    float x0 = -2.5 + 3.5 * float(thread.x) / float(outputSize.x);\n"
    "    float y0 = -1.0 + 2.0 * float(thread.y) / float(outputSize.y);\n"
    "    float zx = 0.0, zy = 0.0;\n"
    "    int n = 0;\n"
    "    for (int i = 0; i < 256; i++) {\n"
    "        if (zx * zx + zy * zy > 4.0)\n"
    "            break;\n"
    "        float xt = zx * zx - zy * zy + x0;\n"
    "        zy = 2.0 * zx * zy + y0;\n"
    "        zx = xt;\n"
    "        n++;\n"
    "    }\n"
    "    float t = float(n) / 256.0;\n"
    "    color(t, t * t, sqrt(t));\n"
    "}\n";

/* The same kernel in OpenCL C, one work-item per pixel, RGBA8 stored as an RGBA8 target does (clamp,
 * nearest); FP_CONTRACT OFF as C. Row thread.y = 0 first. */
static const char *const mandelbrot_cl =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void mandelbrot(__global uchar4 *px, int w, int h) {\n"
    "    const int x = get_global_id(0), y = get_global_id(1);\n"
    "    const float x0 = -2.5f + 3.5f * (float)x / (float)w, y0 = -1.0f + 2.0f * (float)y / (float)h;\n"
    "    float zx = 0.0f, zy = 0.0f;\n"
    "    int n = 0;\n"
    "    for (int i = 0; i < 256; i++) {\n"
    "        if (zx * zx + zy * zy > 4.0f)\n"
    "            break;\n"
    "        const float xt = zx * zx - zy * zy + x0;\n"
    "        zy = 2.0f * zx * zy + y0;\n"
    "        zx = xt;\n"
    "        n++;\n"
    "    }\n"
    "    const float t = (float)n / 256.0f;\n"
    "    const float4 c = clamp((float4)(t, t * t, sqrt(t), 1.0f), 0.0f, 1.0f) * 255.0f;\n"
    "    px[y * w + x] = convert_uchar4_sat_rte(c);\n"
    "}\n";

typedef struct mandelbrot_state {
    uint32_t w, h;
    gpuc_kernel *k;
    uint8_t *omp_out; /* the OpenMP column's picture, for its row function */
    zoo_cl *cl;       /* the OpenCL column: kernel 0, buffer 0 the picture */
} mandelbrot_state;

/* A colour channel as an RGBA8 target stores it: clamped to [0, 1], to the nearest of 0..255. */
static uint8_t unorm8(float c)
{
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    return (uint8_t)lrintf(c * 255.0f);
}

/* The loop a C user writes first, pixel by pixel in the kernel's order of operations; the picture as
 * the kernel's: row thread.y = 0 first. */
static void mandelbrot_row(uint8_t *restrict px, uint32_t w, uint32_t h, uint32_t y)
{
    for (uint32_t x = 0; x < w; x++) {
        float x0 = -2.5f + 3.5f * (float)x / (float)w, y0 = -1.0f + 2.0f * (float)y / (float)h;
        float zx = 0.0f, zy = 0.0f;
        int n = 0;
        for (int i = 0; i < 256; i++) {
            if (zx * zx + zy * zy > 4.0f)
                break;
            float xt = zx * zx - zy * zy + x0;
            zy = 2.0f * zx * zy + y0;
            zx = xt;
            n++;
        }
        float t = (float)n / 256.0f;
        uint8_t *p = px + 4 * ((size_t)y * w + x);
        p[0] = unorm8(t);
        p[1] = unorm8(t * t);
        p[2] = unorm8(sqrtf(t));
        p[3] = 255;
    }
}

static int c_run(void *vs, float *out)
{
    mandelbrot_state *s = vs;
    for (uint32_t y = 0; y < s->h; y++)
        mandelbrot_row((uint8_t *)out, s->w, s->h, y);
    return 0;
}

/* The same loop under `#pragma omp parallel for` over the rows. */
static void omp_row(void *vs, size_t y)
{
    mandelbrot_state *s = vs;
    mandelbrot_row(s->omp_out, s->w, s->h, (uint32_t)y);
}

static int omp_run(void *vs, float *out)
{
    mandelbrot_state *s = vs;
    s->omp_out = (uint8_t *)out;
    return zoo_omp_rows(s->h, omp_row, s);
}

static int cl_run(void *vs, float *out)
{
    mandelbrot_state *s = vs;
    return zoo_cl_run(s->cl, 0, s->w, s->h) || zoo_cl_read(s->cl, 0, out, (size_t)4 * s->w * s->h) ? -1 : 0;
}

static zoo_cl *cl_setup(const mandelbrot_state *s, char *why, size_t why_len)
{
    zoo_cl *cl = zoo_cl_create(mandelbrot_cl, why, why_len);
    int w = (int)s->w, h = (int)s->h;
    if (cl && (zoo_cl_kernel(cl, "mandelbrot") < 0 || zoo_cl_buffer(cl, (size_t)4 * s->w * s->h) < 0 ||
               zoo_cl_arg_buffer(cl, 0, 0, 0) || zoo_cl_arg(cl, 0, 1, &w, sizeof w) ||
               zoo_cl_arg(cl, 0, 2, &h, sizeof h))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

static int gpuc_mandelbrot_run(void *vs, float *out)
{
    mandelbrot_state *s = vs;
    gpuc_array *r = NULL;
    gpuc_status st = gpuc_run(s->k, NULL, 0, &r);
    if (st == GPUC_OK) /* flip: thread.y = 0 first, as C and the node script store it */
        st = gpuc_array_read_pixels(r, (uint8_t *)out, (size_t)4 * s->w * s->h, true);
    gpuc_array_free(r);
    return st == GPUC_OK ? 0 : -1;
}

int row_zoo_mandelbrot(bench_env *env, const bench_params *p)
{
    if (p->n < 2 || p->n > MANDELBROT_MAX_N) {
        printf("-- zoo mandelbrot: --n %zu (the width) must be 2 to %d\n", p->n, MANDELBROT_MAX_N);
        env->failures++;
        return -1;
    }
    mandelbrot_state s = {.w = (uint32_t)p->n, .h = (uint32_t)(p->n * 3 / 4)};
    zoo_row row = {.name = "mandelbrot", .kind = ZOO_PIXELS, .count = (size_t)4 * s.w * s.h, .tolerance = 0.005,
                   .js_source = mandelbrot_js};
    snprintf(row.heading, sizeof row.heading,
             "%u x %u pixels of x in [-2.5, 1], y in [-1, 1], 256 iterations, color(t, t^2, sqrt t) (graphical)", s.w,
             s.h);
    zoo_table t;
    if (zoo_begin(&t, env, &row, p, c_run, &s) != 0)
        return 0;
    char why[200];
    zoo_openmp_column(&t, "naive loop", omp_run, &s, true);
    s.cl = cl_setup(&s, why, sizeof why);
    zoo_opencl_column(&t, s.cl, why, "1 work-item per cell", cl_run, &s, false); /* OpenCL's sqrt may differ from C's */
    /* Not required bit-equal: Mesa's compiler may reassociate float sums it is not told are precise
     * (it evaluates zx * zx - zy * zy + x0 as (zx * zx + x0) - zy * zy on llvmpipe), and an escape
     * count near the set's edge follows the last bit. */
    gpuc_kernel_desc desc = {.output = {s.w, s.h}, .graphical = true};
    if (gpuc_create_kernel(env->gpu, mandelbrot_glsl, &desc, &s.k) == GPUC_OK)
        zoo_gpuc(&t, "gpuc GLSL", gpuc_mandelbrot_run, &s, false);
    else
        zoo_error(&t, "gpuc GLSL", gpuc_errmsg(env->gpu));
    gpuc_kernel_free(s.k);
    s.k = NULL;
    if (gpuc_create_kernel_js(env->gpu, mandelbrot_js, &desc, &s.k) == GPUC_OK)
        zoo_gpuc(&t, "gpuc JS (pasted)", gpuc_mandelbrot_run, &s, false);
    else
        zoo_error(&t, "gpuc JS (pasted)", gpuc_errmsg(env->gpu));
    gpuc_kernel_free(s.k);
    zoo_end(&t);
    zoo_cl_free(s.cl);
    return 0;
}
