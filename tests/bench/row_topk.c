/* row_topk.c - gauntlet row `topk`: the 512 largest of 2^23 values, 24 rounds, round r adding r/16384
 * to every element; the result is the last round's k largest in descending order. */
#include "bench.h"
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K 512
#define PUBLISHED 1.5010783093093778

static float topk_value(uint32_t s)
{
    return (float)((double)(s >> 10) / 4194304.0);
}

static float round_bias(int r)
{
    return (float)(r / 16384.0);
}

static double topk_checksum(const float *out, size_t k, const bench_params *p)
{
    (void)p;
    double acc = 0;
    int bad = 0;
    for (size_t j = 0; j < k; j++) {
        acc += out[j] * (1.0 + (double)j / (double)k);
        bad += j > 0 && out[j] > out[j - 1];
    }
    return acc / (double)k + bad;
}

typedef struct topk_state {
    const float *input;
    size_t n, k;
    int rounds;
    float *heap;
    gpuc *gpu;
    gpuc_kernel *bias;
    gpuc_array *work;
    topk_bisect *bisect;
} topk_state;

static void sift_down(float *h, size_t k, size_t j)
{
    for (;;) {
        size_t l = 2 * j + 1, r = l + 1, m = j;
        if (l < k && h[l] < h[m])
            m = l;
        if (r < k && h[r] < h[m])
            m = r;
        if (m == j)
            return;
        float t = h[j];
        h[j] = h[m];
        h[m] = t;
        j = m;
    }
}

static int descending(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

/* The oracle: per round, one pass with a k-slot min-heap, then sort the k survivors. */
static int oracle_run(void *vs, float *out)
{
    topk_state *s = vs;
    for (int r = 0; r < s->rounds; r++) {
        float bias = round_bias(r);
        size_t filled = 0;
        for (size_t i = 0; i < s->n; i++) {
            float v = s->input[i] + bias;
            if (filled < s->k) {
                s->heap[filled++] = v;
                if (filled == s->k)
                    for (size_t j = s->k / 2 + 1; j-- > 0;)
                        sift_down(s->heap, s->k, j);
            } else if (v > s->heap[0]) {
                s->heap[0] = v;
                sift_down(s->heap, s->k, 0);
            }
        }
        qsort(s->heap, s->k, sizeof *s->heap, descending);
        memcpy(out, s->heap, s->k * sizeof *out);
    }
    return 0;
}

/* gpuc: upload once, per round a bias kernel into a device array and gpuc_topk over it. */
static int gpuc_topk_run(void *vs, float *out)
{
    topk_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++) {
        gpuc_array *top = NULL;
        rc = gpuc_run_to(s->bias, (gpuc_arg[]){gpuc_arg_array(input), gpuc_arg_f32(round_bias(r))}, 2, s->work) ||
             gpuc_topk(s->gpu, gpuc_arg_array(s->work), &(gpuc_topk_desc){.k = s->k}, &top, NULL) ||
             (r == s->rounds - 1 && gpuc_array_read_f32(top, out, s->k));
        gpuc_array_free(top);
    }
    gpuc_array_free(input);
    return rc ? -1 : 0;
}

/* gpuc, the gauntlet's way: upload once, then per round the bisection over the value axis, reading the
 * input array with the round's bias added inside the kernels. */
static int gauntlet_bisect_run(void *vs, float *out)
{
    topk_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++)
        rc = topk_bisect_round(s->bisect, input, round_bias(r), out);
    gpuc_array_free(input);
    return rc;
}

/* ---- The count pass: how many of the row's values lie above a threshold, the pass every top-k
 * formulation makes over all n values. Its own table (zoo.h's driver): gpuc's kernels in the vec4
 * form and GPU.js's, beside C, OpenMP and OpenCL, on device-resident data (uploaded once), the
 * per-chunk counts read back and summed. */

#define COUNT_CHUNK 4096 /* values per invocation, work-item, OpenMP iteration (count_js says 4096) */
#define COUNT_THRESHOLD 0.75f /* the values are in [0, 1): about a quarter lie above it */

static const char *const count_vec4_glsl =
    "float count(vec4 a[], float t) {\n"
    "    vec4 c = vec4(0.0);\n"
    "    for (int i = 0; i < constants.chunk4; i++)\n"
    "        c += vec4(greaterThan(a[thread.x * constants.chunk4 + i], vec4(t)));\n"
    "    return c.x + c.y + c.z + c.w;\n"
    "}\n";

/* As a GPU.js user writes it: a chunk of the flat array per thread, a scalar loop. */
static const char *const count_js = "function (a, t) {\n"
                                    "  let c = 0;\n"
                                    "  for (let i = 0; i < 4096; i++) {\n"
                                    "    if (a[this.thread.x * 4096 + i] > t) {\n"
                                    "      c++;\n"
                                    "    }\n"
                                    "  }\n"
                                    "  return c;\n"
                                    "}";

/* The C loop in OpenCL C, one work-item per chunk; N (the values) and CHUNK compiled in. */
static const char *const count_cl =
    "__kernel void count(__global const float *a, float t, __global float *partial) {\n"
    "    const int c = get_global_id(0), end = min(N, (c + 1) * CHUNK);\n"
    "    int n = 0;\n"
    "    for (int i = c * CHUNK; i < end; i++)\n"
    "        n += a[i] > t;\n"
    "    partial[c] = (float)n;\n"
    "}\n";

typedef struct count_state {
    const float *input;
    size_t n, chunks;
    float *partial; /* chunks counts */
    gpuc_kernel *k;
    gpuc_array *values; /* the input on the device */
    zoo_cl *cl;         /* kernel 0; buffers input, partial */
} count_state;

static float partial_sum(const float *partial, size_t chunks)
{
    double sum = 0; /* whole numbers below 2^28: exact */
    for (size_t c = 0; c < chunks; c++)
        sum += partial[c];
    return (float)sum;
}

static inline float count_range(const float *restrict a, size_t from, size_t to)
{
    unsigned above = 0;
    for (size_t i = from; i < to; i++)
        above += a[i] > COUNT_THRESHOLD;
    return (float)above;
}

/* The loop a C user writes first. */
static int count_c_run(void *vs, float *out)
{
    count_state *s = vs;
    out[0] = count_range(s->input, 0, s->n);
    return 0;
}

static void count_omp_chunk(void *vs, size_t c)
{
    count_state *s = vs;
    size_t end = (c + 1) * COUNT_CHUNK < s->n ? (c + 1) * COUNT_CHUNK : s->n;
    s->partial[c] = count_range(s->input, c * COUNT_CHUNK, end);
}

/* The same loop under `#pragma omp parallel for`, a chunk per iteration (a reduction by hand). */
static int count_omp_run(void *vs, float *out)
{
    count_state *s = vs;
    if (zoo_omp_rows(s->chunks, count_omp_chunk, s))
        return -1;
    out[0] = partial_sum(s->partial, s->chunks);
    return 0;
}

static int count_cl_run(void *vs, float *out)
{
    count_state *s = vs;
    if (zoo_cl_run(s->cl, 0, s->chunks, 0) || zoo_cl_read(s->cl, 1, s->partial, s->chunks * sizeof(float)))
        return -1;
    out[0] = partial_sum(s->partial, s->chunks);
    return 0;
}

static int count_gpuc_run(void *vs, float *out)
{
    count_state *s = vs;
    gpuc_array *r = NULL;
    gpuc_status st = gpuc_run(s->k, (gpuc_arg[]){gpuc_arg_array(s->values), gpuc_arg_f32(COUNT_THRESHOLD)}, 2, &r);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, s->partial, s->chunks);
    gpuc_array_free(r);
    out[0] = partial_sum(s->partial, s->chunks);
    return st == GPUC_OK ? 0 : -1;
}

static zoo_cl *count_cl_setup(const count_state *s, char *why, size_t why_len)
{
    char source[1024];
    snprintf(source, sizeof source, "#define N %zu\n#define CHUNK %d\n%s", s->n, COUNT_CHUNK, count_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    float t = COUNT_THRESHOLD;
    if (cl && (zoo_cl_kernel(cl, "count") < 0 || zoo_cl_buffer(cl, s->n * sizeof(float)) < 0 ||
               zoo_cl_buffer(cl, s->chunks * sizeof(float)) < 0 || zoo_cl_arg_buffer(cl, 0, 0, 0) ||
               zoo_cl_arg(cl, 0, 1, &t, sizeof t) || zoo_cl_arg_buffer(cl, 0, 2, 1) ||
               zoo_cl_write(cl, 0, s->input, s->n * sizeof(float)) || zoo_cl_read(cl, 1, s->partial, sizeof(float)))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

static void count_gpuc_column(zoo_table *t, count_state *s, const char *column, bool js)
{
    gpuc_kernel_desc desc = {.output = {(uint32_t)s->chunks}, .constants = {{"chunk4", COUNT_CHUNK / 4, GPUC_INT}}};
    gpuc_status st = js ? gpuc_create_kernel_js(t->env->gpu, count_js, &desc, &s->k)
                        : gpuc_create_kernel(t->env->gpu, count_vec4_glsl, &desc, &s->k);
    if (st == GPUC_OK)
        zoo_gpuc(t, column, count_gpuc_run, s, true);
    else
        zoo_error(t, column, gpuc_errmsg(t->env->gpu));
    gpuc_kernel_free(s->k);
    s->k = NULL;
}

static void count_table(bench_env *env, const bench_params *p, const float *input)
{
    count_state s = {.input = input, .n = p->n, .chunks = (p->n + COUNT_CHUNK - 1) / COUNT_CHUNK};
    zoo_row row = {.name = "topk-count", .kind = ZOO_FLOATS, .count = 1, .no_gpujs = true, .js_source = count_js};
    snprintf(row.heading, sizeof row.heading,
             "the count pass: values of the topk row above %g, over %zu values on the device, %d per invocation",
             (double)COUNT_THRESHOLD, p->n, COUNT_CHUNK);
    zoo_table t;
    s.partial = calloc(s.chunks, sizeof *s.partial);
    if (!s.partial || gpuc_array_from_f32(env->gpu, input, (gpuc_dims){(uint32_t)p->n}, &s.values) != GPUC_OK) {
        printf("-- topk-count: %s\n", s.partial ? gpuc_errmsg(env->gpu) : "out of memory");
        env->failures++;
    } else if (zoo_begin(&t, env, &row, p, count_c_run, &s) == 0) {
        char why[200];
        zoo_openmp_column(&t, "chunk per iteration", count_omp_run, &s, true);
        s.cl = count_cl_setup(&s, why, sizeof why);
        zoo_opencl_column(&t, s.cl, why, "1 work-item per chunk", count_cl_run, &s, true);
        count_gpuc_column(&t, &s, "gpuc GLSL, vec4 reads", false);
        count_gpuc_column(&t, &s, "gpuc JS (GPU.js form)", true);
        zoo_end(&t);
        zoo_cl_free(s.cl);
    }
    gpuc_array_free(s.values);
    free(s.partial);
}

int row_topk(bench_env *env, const bench_params *p)
{
    topk_state s = {.n = p->n, .k = p->n < K ? p->n : K, .rounds = p->rounds, .gpu = env->gpu};
    float *input = malloc(p->n * sizeof *input), *out = malloc(s.k * sizeof *out);
    s.heap = malloc(s.k * sizeof *s.heap);
    if (!input || !out || !s.heap) {
        fprintf(stderr, "topk: out of memory\n");
        free(input);
        free(out);
        free(s.heap);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, topk_value);
    s.input = input;
    double oracle_ms = bench_measure(env, "topk", "C oracle (k-slot heap)", oracle_run, &s, out, s.k, topk_checksum, p,
                                     0, 0, PUBLISHED);
    double oracle_sum = topk_checksum(out, s.k, p);
    gpuc_status st = gpuc_create_kernel(env->gpu, "float biased(float a[], float bias) { return a[thread.x] + bias; }",
                                        &(gpuc_kernel_desc){.output = {(uint32_t)p->n}, .pipeline = true}, &s.bias);
    if (st == GPUC_OK)
        st = gpuc_array_new(env->gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)p->n}, &s.work);
    if (st == GPUC_OK && (s.bisect = topk_bisect_create(env->gpu, s.n, s.k)) != NULL)
        bench_measure(env, "topk", "gpuc kernels, gauntlet bisect", gauntlet_bisect_run, &s, out, s.k, topk_checksum,
                      p, oracle_sum, oracle_ms, PUBLISHED);
    if (st == GPUC_OK)
        bench_measure(env, "topk", "gpuc_topk (tile pruning)", gpuc_topk_run, &s, out, s.k, topk_checksum, p,
                      oracle_sum, oracle_ms, PUBLISHED);
    else {
        fprintf(stderr, "topk: %s\n", gpuc_errmsg(env->gpu));
        env->failures++;
    }
    topk_bisect_free(s.bisect);
    gpuc_array_free(s.work);
    gpuc_kernel_free(s.bias);
    if (!p->sweep)
        count_table(env, p, input);
    free(input);
    free(out);
    free(s.heap);
    return 0;
}
