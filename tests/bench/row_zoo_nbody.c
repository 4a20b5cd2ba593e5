/* row_zoo_nbody.c - zoo row `nbody`: one step of accelerations of n bodies (x, y, z, mass) with
 * softening 0.01, a vec3 per body, in gpuc (GLSL and pasted JavaScript) beside naive C and GPU.js. */
#include "zoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NBODY_MAX_N 65536
#define SOFTENING2 0.0001f /* 0.01 squared */

/* The same text as scripts/bench-gpujs-zoo.js's (the bench checks its hash), with the body count in
 * the loop bound (4096 at the published size). bodies is n rows of [x, y, z, mass]. */
#define NBODY_JS \
    "function (bodies) {\n" \
    "  const xi = bodies[this.thread.x][0];\n" \
    "  const yi = bodies[this.thread.x][1];\n" \
    "  const zi = bodies[this.thread.x][2];\n" \
    "  let ax = 0;\n" \
    "  let ay = 0;\n" \
    "  let az = 0;\n" \
    "  for (let j = 0; j < %zu; j++) {\n" \
    "    const dx = bodies[j][0] - xi;\n" \
    "    const dy = bodies[j][1] - yi;\n" \
    "    const dz = bodies[j][2] - zi;\n" \
    "    const d2 = dx * dx + dy * dy + dz * dz + 0.0001;\n" \
    "    const f = bodies[j][3] / (d2 * Math.sqrt(d2));\n" \
    "    ax += f * dx;\n" \
    "    ay += f * dy;\n" \
    "    az += f * dz;\n" \
    "  }\n" \
    "  return [ax, ay, az];\n" \
    "}"

/* GLSL as its users write it: a vec4 per body, vector arithmetic. */
static const char *const nbody_glsl = "vec3 accel(vec4 bodies[]) {\n"
                                      "    vec3 p = bodies[thread.x].xyz;\n"
                                      "    vec3 a = vec3(0.0);\n"
                                      "    for (int j = 0; j < constants.n; j++) {\n"
                                      "        vec4 b = bodies[j];\n"
                                      "        vec3 d = b.xyz - p;\n"
                                      "        float d2 = dot(d, d) + 0.0001;\n"
                                      "        a += b.w / (d2 * sqrt(d2)) * d;\n"
                                      "    }\n"
                                      "    return a;\n"
                                      "}\n";

/* The JavaScript kernel in OpenCL C, one work-item per body, the body count compiled in; FP_CONTRACT
 * OFF as C (OpenCL may fuse by default). */
static const char *const nbody_cl = "#pragma OPENCL FP_CONTRACT OFF\n"
                                    "__kernel void accel(__global const float *b, __global float *out) {\n"
                                    "    const int i = get_global_id(0);\n"
                                    "    const float xi = b[4 * i], yi = b[4 * i + 1], zi = b[4 * i + 2];\n"
                                    "    float ax = 0.0f, ay = 0.0f, az = 0.0f;\n"
                                    "    for (int j = 0; j < N; j++) {\n"
                                    "        const float dx = b[4 * j] - xi, dy = b[4 * j + 1] - yi;\n"
                                    "        const float dz = b[4 * j + 2] - zi;\n"
                                    "        const float d2 = dx * dx + dy * dy + dz * dz + 0.0001f;\n"
                                    "        const float f = b[4 * j + 3] / (d2 * sqrt(d2));\n"
                                    "        ax += f * dx;\n"
                                    "        ay += f * dy;\n"
                                    "        az += f * dz;\n"
                                    "    }\n"
                                    "    out[3 * i] = ax;\n"
                                    "    out[3 * i + 1] = ay;\n"
                                    "    out[3 * i + 2] = az;\n"
                                    "}\n";

typedef struct nbody_state {
    size_t n;
    const float *bodies; /* 4 per body */
    gpuc_kernel *k;
    bool js;        /* the JavaScript kernel reads bodies as a 2D array (n rows of 4) */
    float *omp_out; /* the OpenMP column's result, for its row function */
    zoo_cl *cl;     /* the OpenCL column: kernel 0, buffers bodies and out */
} nbody_state;

/* The loop a C user writes first, in the kernel's order of operations: body i's acceleration. */
static inline void nbody_body(const float *restrict b, float *restrict out, size_t n, size_t i)
{
    float xi = b[4 * i], yi = b[4 * i + 1], zi = b[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (size_t j = 0; j < n; j++) {
        float dx = b[4 * j] - xi, dy = b[4 * j + 1] - yi, dz = b[4 * j + 2] - zi;
        float d2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
        float f = b[4 * j + 3] / (d2 * sqrtf(d2));
        ax += f * dx;
        ay += f * dy;
        az += f * dz;
    }
    out[3 * i] = ax;
    out[3 * i + 1] = ay;
    out[3 * i + 2] = az;
}

static int c_run(void *vs, float *out)
{
    nbody_state *s = vs;
    for (size_t i = 0; i < s->n; i++)
        nbody_body(s->bodies, out, s->n, i);
    return 0;
}

/* The same loop under `#pragma omp parallel for` over the bodies. */
static void omp_body(void *vs, size_t i)
{
    nbody_state *s = vs;
    nbody_body(s->bodies, s->omp_out, s->n, i);
}

static int omp_run(void *vs, float *out)
{
    nbody_state *s = vs;
    s->omp_out = out;
    return zoo_omp_rows(s->n, omp_body, s);
}

/* As a user's OpenCL call: the bodies written, one work-item per body, the accelerations read back. */
static int cl_run(void *vs, float *out)
{
    nbody_state *s = vs;
    return zoo_cl_write(s->cl, 0, s->bodies, 4 * s->n * sizeof(float)) || zoo_cl_run(s->cl, 0, s->n, 0) ||
                   zoo_cl_read(s->cl, 1, out, 3 * s->n * sizeof(float))
               ? -1
               : 0;
}

static zoo_cl *cl_setup(size_t n, char *why, size_t why_len)
{
    char source[2048];
    snprintf(source, sizeof source, "#define N %zu\n%s", n, nbody_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    if (cl && (zoo_cl_kernel(cl, "accel") < 0 || zoo_cl_buffer(cl, 4 * n * sizeof(float)) < 0 ||
               zoo_cl_buffer(cl, 3 * n * sizeof(float)) < 0 || zoo_cl_arg_buffer(cl, 0, 0, 0) ||
               zoo_cl_arg_buffer(cl, 0, 1, 1))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

static int gpuc_nbody_run(void *vs, float *out)
{
    nbody_state *s = vs;
    gpuc_dims d = s->js ? (gpuc_dims){4, (uint32_t)s->n} : (gpuc_dims){(uint32_t)(4 * s->n)};
    gpuc_array *r = NULL;
    gpuc_status st = gpuc_run(s->k, (gpuc_arg[]){gpuc_arg_host_f32(s->bodies, d)}, 1, &r);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, out, 3 * s->n);
    gpuc_array_free(r);
    return st == GPUC_OK ? 0 : -1;
}

/* Per component, the sum of the magnitudes of the terms it adds (in double): what rounding in another
 * order is measured against. */
static void nbody_scale(const float *b, size_t n, float *scale)
{
    for (size_t i = 0; i < n; i++) {
        double sx = 0, sy = 0, sz = 0;
        for (size_t j = 0; j < n; j++) {
            double dx = (double)b[4 * j] - b[4 * i], dy = (double)b[4 * j + 1] - b[4 * i + 1];
            double dz = (double)b[4 * j + 2] - b[4 * i + 2], d2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
            double f = b[4 * j + 3] / (d2 * sqrt(d2));
            sx += fabs(f * dx);
            sy += fabs(f * dy);
            sz += fabs(f * dz);
        }
        scale[3 * i] = (float)sx;
        scale[3 * i + 1] = (float)sy;
        scale[3 * i + 2] = (float)sz;
    }
}

int row_zoo_nbody(bench_env *env, const bench_params *p)
{
    if (p->n > NBODY_MAX_N) {
        printf("-- zoo nbody: --n %zu is over this row's %d\n", p->n, NBODY_MAX_N);
        env->failures++;
        return -1;
    }
    size_t n = p->n;
    char js[1024];
    snprintf(js, sizeof js, NBODY_JS, n);
    float *bodies = malloc(4 * n * sizeof *bodies), *scale = malloc(3 * n * sizeof *scale);
    nbody_state s = {.n = n, .bodies = bodies};
    zoo_row row = {.name = "nbody", .kind = ZOO_FLOATS, .count = 3 * n, .scale = scale, .tolerance = 1e-5,
                   .js_source = js};
    snprintf(row.heading, sizeof row.heading,
             "%zu bodies, x, y, z and mass uniform [0, 1), seed %#x, softening 0.01: one vec3 acceleration each", n,
             p->seed);
    zoo_table t;
    if (!bodies || !scale) {
        printf("-- zoo nbody: out of memory\n");
        env->failures++;
    } else {
        uint32_t seed = p->seed;
        for (size_t i = 0; i < 4 * n; i++) {
            seed = seed * 1664525u + 1013904223u;
            bodies[i] = (float)zoo_unit(seed);
        }
        nbody_scale(bodies, n, scale);
        if (zoo_begin(&t, env, &row, p, c_run, &s) == 0) {
            char why[200];
            zoo_openmp_column(&t, "naive loop", omp_run, &s, true);
            s.cl = cl_setup(n, why, sizeof why);
            /* Not required bit-equal: OpenCL allows sqrt and / a few ulp from C's. */
            zoo_opencl_column(&t, s.cl, why, "1 work-item per cell", cl_run, &s, false);
            gpuc_kernel_desc desc = {.output = {(uint32_t)n}, .constants = {{"n", (double)n, GPUC_INT}}};
            /* vec3 arithmetic: dot() may add in another order than C, so within the tolerance. */
            if (gpuc_create_kernel(env->gpu, nbody_glsl, &desc, &s.k) == GPUC_OK)
                zoo_gpuc(&t, "gpuc GLSL", gpuc_nbody_run, &s, false);
            else
                zoo_error(&t, "gpuc GLSL", gpuc_errmsg(env->gpu));
            gpuc_kernel_free(s.k);
            s.k = NULL;
            s.js = true;
            desc.arg_types = "float[][]";
            if (gpuc_create_kernel_js(env->gpu, js, &desc, &s.k) == GPUC_OK)
                zoo_gpuc(&t, "gpuc JS (pasted)", gpuc_nbody_run, &s, true);
            else
                zoo_error(&t, "gpuc JS (pasted)", gpuc_errmsg(env->gpu));
            gpuc_kernel_free(s.k);
            zoo_end(&t);
            zoo_cl_free(s.cl);
        }
    }
    free(bodies);
    free(scale);
    return 0;
}
