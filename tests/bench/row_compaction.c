/* row_compaction.c - gauntlet row `compaction`: 2^22 floats, 24 rounds; round r keeps the elements
 * >= (4095 + 2r) / 8192 in input order, packed at the front of an n-long output whose tail is zero. */
#include "bench.h"
#include "zoo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PUBLISHED 3.351105827256106

static float compaction_value(uint32_t s)
{
    return (float)((double)(s >> 20) / 4096.0);
}

static float round_threshold(int r)
{
    return (float)((4095.0 + 2.0 * r) / 8192.0);
}

static double compaction_checksum(const float *out, size_t n, const bench_params *p)
{
    (void)p;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += out[i] * (1.0 + (double)(i % 17)) / (double)n;
    return sum;
}

#define PACK_CHUNK 4096 /* values per OpenMP iteration / OpenCL work-item */

/* The naive two-pass compaction in OpenCL C, one work-item per chunk: count the survivors, then (after
 * the host's scan of the counts) write them from the chunk's offset; N and CHUNK compiled in. */
static const char *const compaction_cl =
    "__kernel void count(__global const float *a, float t, __global int *counts) {\n"
    "    const int c = get_global_id(0), end = min(N, (c + 1) * CHUNK);\n"
    "    int n = 0;\n"
    "    for (int i = c * CHUNK; i < end; i++)\n"
    "        n += a[i] >= t;\n"
    "    counts[c] = n;\n"
    "}\n"
    "__kernel void place(__global const float *a, float t, __global const int *offsets, __global float *out) {\n"
    "    const int c = get_global_id(0), end = min(N, (c + 1) * CHUNK);\n"
    "    int at = offsets[c];\n"
    "    for (int i = c * CHUNK; i < end; i++)\n"
    "        if (a[i] >= t)\n"
    "            out[at++] = a[i];\n"
    "}\n";

typedef struct compaction_state {
    const float *input;
    size_t n;
    int rounds;
    gpuc *gpu;
    gpuc_compact_method method;
    size_t chunks;
    int *counts;  /* per chunk: survivors, then (scanned) the chunk's first output index */
    float *out;   /* the OpenMP column's output, for its chunk functions */
    float threshold;
    zoo_cl *cl;   /* kernels count, place; buffers input, counts, out */
} compaction_state;

static int oracle_run(void *vs, float *out)
{
    compaction_state *s = vs;
    for (int r = 0; r < s->rounds; r++) {
        float t = round_threshold(r);
        size_t cursor = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->input[i] >= t)
                out[cursor++] = s->input[i];
        memset(out + cursor, 0, (s->n - cursor) * sizeof *out);
    }
    return 0;
}

static void chunk_range(const compaction_state *s, size_t c, size_t *from, size_t *to)
{
    *from = c * PACK_CHUNK;
    *to = *from + PACK_CHUNK < s->n ? *from + PACK_CHUNK : s->n;
}

static inline int chunk_count(const float *restrict a, size_t from, size_t to, float t)
{
    int n = 0;
    for (size_t i = from; i < to; i++)
        n += a[i] >= t;
    return n;
}

static inline void chunk_place(const float *restrict a, size_t from, size_t to, float t, float *restrict out)
{
    for (size_t i = from; i < to; i++)
        if (a[i] >= t)
            *out++ = a[i];
}

static void omp_count(void *vs, size_t c)
{
    compaction_state *s = vs;
    size_t from, to;
    chunk_range(s, c, &from, &to);
    s->counts[c] = chunk_count(s->input, from, to, s->threshold);
}

static void omp_place(void *vs, size_t c)
{
    compaction_state *s = vs;
    size_t from, to;
    chunk_range(s, c, &from, &to);
    chunk_place(s->input, from, to, s->threshold, s->out + s->counts[c]);
}

/* The chunks' counts into their first output indices; returns the survivors. */
static size_t scan_counts(int *counts, size_t chunks)
{
    size_t total = 0;
    for (size_t c = 0; c < chunks; c++) {
        int n = counts[c];
        counts[c] = (int)total;
        total += (size_t)n;
    }
    return total;
}

/* The cursor loop has no parallel form, so a C programmer with OpenMP writes two passes over chunks
 * (count, then place from each chunk's offset), the scan of the counts between them on one thread. */
static int omp_run(void *vs, float *out)
{
    compaction_state *s = vs;
    s->out = out;
    for (int r = 0; r < s->rounds; r++) {
        s->threshold = round_threshold(r);
        if (zoo_omp_rows(s->chunks, omp_count, s))
            return -1;
        size_t kept = scan_counts(s->counts, s->chunks);
        if (zoo_omp_rows(s->chunks, omp_place, s))
            return -1;
        memset(out + kept, 0, (s->n - kept) * sizeof *out);
    }
    return 0;
}

/* The same two passes in OpenCL on data uploaded once; the last round's survivors read back. */
static int cl_run(void *vs, float *out)
{
    compaction_state *s = vs;
    size_t kept = 0;
    for (int r = 0; r < s->rounds; r++) {
        float t = round_threshold(r);
        if (zoo_cl_arg(s->cl, 0, 1, &t, sizeof t) || zoo_cl_arg(s->cl, 1, 1, &t, sizeof t) ||
            zoo_cl_run(s->cl, 0, s->chunks, 0) || zoo_cl_read(s->cl, 1, s->counts, s->chunks * sizeof(int)))
            return -1;
        kept = scan_counts(s->counts, s->chunks);
        if (zoo_cl_write(s->cl, 1, s->counts, s->chunks * sizeof(int)) || zoo_cl_run(s->cl, 1, s->chunks, 0))
            return -1;
    }
    if (kept && zoo_cl_read(s->cl, 2, out, kept * sizeof *out))
        return -1;
    memset(out + kept, 0, (s->n - kept) * sizeof *out);
    return 0;
}

static zoo_cl *cl_setup(const compaction_state *s, char *why, size_t why_len)
{
    char source[2048];
    snprintf(source, sizeof source, "#define N %zu\n#define CHUNK %d\n%s", s->n, PACK_CHUNK, compaction_cl);
    zoo_cl *cl = zoo_cl_create(source, why, why_len);
    if (cl && (zoo_cl_kernel(cl, "count") < 0 || zoo_cl_kernel(cl, "place") < 0 ||
               zoo_cl_buffer(cl, s->n * sizeof(float)) < 0 || zoo_cl_buffer(cl, s->chunks * sizeof(int)) < 0 ||
               zoo_cl_buffer(cl, s->n * sizeof(float)) < 0 || zoo_cl_arg_buffer(cl, 0, 0, 0) ||
               zoo_cl_arg_buffer(cl, 0, 2, 1) || zoo_cl_arg_buffer(cl, 1, 0, 0) || zoo_cl_arg_buffer(cl, 1, 2, 1) ||
               zoo_cl_arg_buffer(cl, 1, 3, 2) || zoo_cl_write(cl, 0, s->input, s->n * sizeof(float)))) {
        snprintf(why, why_len, "OpenCL setup failed (above)");
        zoo_cl_free(cl);
        return NULL;
    }
    return cl;
}

/* gpuc: upload once, then gpuc_compact per round on the device array; the last round is read back. */
static int gpuc_compact_run(void *vs, float *out)
{
    compaction_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++) {
        gpuc_array *packed = NULL;
        size_t count = 0;
        /* The gauntlet's output: survivors first, then zeros, n long (.full_length). */
        gpuc_compact_desc desc = {.op = GPUC_GREATER_EQUAL, .threshold = round_threshold(r), .method = s->method,
                                  .full_length = true};
        rc = gpuc_compact(s->gpu, gpuc_arg_array(input), &desc, &packed, &count) != GPUC_OK;
        if (rc == 0 && r == s->rounds - 1)
            rc = gpuc_array_read_f32(packed, out, s->n) != GPUC_OK;
        gpuc_array_free(packed);
    }
    gpuc_array_free(input);
    return rc ? -1 : 0;
}

/* The row as a zoo table (zoo.h's driver): C's cursor, OpenMP, OpenCL and gpuc's methods, the last
 * round's output checked value for value, gpuc timed in pairs against the two CPU runtimes. */
static void cpu_table(bench_env *env, const bench_params *p, compaction_state *s)
{
    s->chunks = (s->n + PACK_CHUNK - 1) / PACK_CHUNK;
    s->counts = calloc(s->chunks, sizeof *s->counts);
    zoo_row row = {.name = "compaction", .kind = ZOO_FLOATS, .count = s->n, .no_gpujs = true, .js_source = ""};
    snprintf(row.heading, sizeof row.heading, "%zu values, %d rounds, against OpenMP and OpenCL, %d values per chunk",
             p->n, p->rounds, PACK_CHUNK);
    zoo_table t;
    if (!s->counts) {
        printf("-- compaction: out of memory\n");
        env->failures++;
    } else if (zoo_begin(&t, env, &row, p, oracle_run, s) == 0) {
        char why[200];
        zoo_openmp_column(&t, "count+place", omp_run, s, true);
        s->cl = cl_setup(s, why, sizeof why);
        zoo_opencl_column(&t, s->cl, why, "count+place per chunk", cl_run, s, true);
        bool fragment = gpuc_get_info(env->gpu)->backend == GPUC_BACKEND_FRAGMENT;
        for (int m = fragment ? 1 : 0; m < 2; m++) { /* the scatter is compute-only */
            s->method = m ? GPUC_COMPACT_GATHER : GPUC_COMPACT_SCATTER;
            zoo_gpuc(&t, m ? "gpuc_compact gather" : "gpuc_compact scatter", gpuc_compact_run, s, true);
        }
        zoo_end(&t);
        zoo_cl_free(s->cl);
    }
    free(s->counts);
}

int row_compaction(bench_env *env, const bench_params *p)
{
    compaction_state s = {.n = p->n, .rounds = p->rounds, .gpu = env->gpu};
    float *input = malloc(p->n * sizeof *input), *out = malloc(p->n * sizeof *out);
    if (!input || !out) {
        fprintf(stderr, "compaction: out of memory\n");
        free(input);
        free(out);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, compaction_value);
    s.input = input;
    double oracle_ms = bench_measure(env, "compaction", "C oracle (cursor)", oracle_run, &s, out, p->n,
                                     compaction_checksum, p, 0, 0, PUBLISHED);
    double oracle_sum = compaction_checksum(out, p->n, p);
    static const struct {
        gpuc_compact_method method;
        const char *label;
    } methods[] = {{GPUC_COMPACT_GATHER, "gpuc_compact gather"}, {GPUC_COMPACT_SCATTER, "gpuc_compact scatter"}};
    for (int m = 0; m < 2; m++) {
        s.method = methods[m].method;
        if (s.method == GPUC_COMPACT_SCATTER && gpuc_get_info(env->gpu)->backend == GPUC_BACKEND_FRAGMENT) {
            printf("%-16s %-28s (compute-only: a fragment shader writes only its own cell)\n", "compaction",
                   methods[m].label);
            continue;
        }
        if (bench_measure(env, "compaction", methods[m].label, gpuc_compact_run, &s, out, p->n, compaction_checksum,
                          p, oracle_sum, oracle_ms, PUBLISHED) < 0)
            fprintf(stderr, "compaction: %s\n", gpuc_errmsg(env->gpu));
    }
    if (!p->sweep)
        cpu_table(env, p, &s);
    free(input);
    free(out);
    return 0;
}
