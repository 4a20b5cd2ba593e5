/* topk_bisect.c - the gauntlet's own top-k formulation (its GPU.js column), written with gpuc kernels as
 * a user would: per round, one pass computes the maximum of every tile of the biased values; halvings of
 * the value bracket count the values above the midpoint, each tile skipping its reads when its maximum is
 * not above it; the survivors of the last count are gathered by a kernel whose cells each walk one tile,
 * and the host sorts them (fewer than k) and fills up to k with the k-th value.
 *
 * The bracket starts narrow: at least k tiles have a value >= the k-th largest tile maximum, so just
 * below it at least k values lie above; nothing lies above the largest maximum. Every value is a
 * multiple of 2^-22 in [0, 2) (data on that grid, bias r/16384 on it too), so the bisection runs on
 * whole grid steps and ends when (lo, hi] is one step wide: hi is then exactly the k-th largest value. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 4096 /* values per tile: one invocation's contiguous run (llvmpipe's fast path) */
#define HALVINGS 23

static const char *TILE_MAX =
    "float tileMax(vec4 v[], float bias) {\n"
    "    int base = thread.x * (constants.tile / 4);\n"
    "    vec4 m = vec4(-1.0);\n"
    "    for (int i = 0; i < constants.tile / 4; i++)\n"
    "        m = max(m, v[base + i]);\n"
    "    return max(max(m.x, m.y), max(m.z, m.w)) + bias;\n"
    "}\n";

/* Tile x: how many of its values exceed each of four thresholds t0 <= t1 <= t2 <= t3 (one pass narrows
 * the bracket to a quarter), unless its maximum says none exceed t0. Whole texels through the vec4
 * view, the last few values of the array through the float view of the same array. */
static const char *COUNT_ABOVE =
    "uint above(vec4 x, float t) { uvec4 h = uvec4(greaterThan(x, vec4(t))); return h.x + h.y + h.z + h.w; }\n"
    "vec4 countAbove(vec4 v[], float w[], float maxima[], float bias, float t0, float t1, float t2, float t3) {\n"
    "    if (maxima[thread.x] <= t0) return vec4(0.0);\n"
    "    int start = thread.x * constants.tile;\n"
    "    int len = min(constants.tile, constants.n - start);\n"
    "    uvec4 hits = uvec4(0);\n"
    "    for (int i = 0; i < constants.tile / 4 && i < len / 4; i++) {\n"
    "        vec4 x = v[start / 4 + i] + bias;\n"
    "        hits += uvec4(above(x, t0), above(x, t1), above(x, t2), above(x, t3));\n"
    "    }\n"
    "    for (int i = 0; i < 3 && len / 4 * 4 + i < len; i++) {\n"
    "        float x = w[start + len / 4 * 4 + i] + bias;\n"
    "        hits += uvec4(x > t0, x > t1, x > t2, x > t3);\n"
    "    }\n"
    "    return vec4(hits);\n"
    "}\n";

/* Cell j < count: the rank-th value above t in tile tileOf[j]. */
static const char *GATHER =
    "float gatherAbove(float v[], int tileOf[], int rankIn[], float bias, float t, int count) {\n"
    "    if (thread.x >= count) return -1.0;\n"
    "    int base = tileOf[thread.x] * constants.tile;\n"
    "    int seen = 0;\n"
    "    for (int i = 0; i < constants.tile; i++) {\n"
    "        float x = v[base + i] + bias;\n"
    "        if (base + i < constants.n && x > t) {\n"
    "            if (seen == rankIn[thread.x]) return x;\n"
    "            seen++;\n"
    "        }\n"
    "    }\n"
    "    return -1.0;\n"
    "}\n";

struct topk_bisect {
    gpuc *gpu;
    size_t n, k, tiles;
    gpuc_kernel *tile_max, *count, *gather;
    gpuc_array *maxima, *counts, *gathered;
    int32_t *tile_counts, *tile_of, *rank_in;
    float *found, *found_maxima, *tile_counts4;
};

static int descending_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

topk_bisect *topk_bisect_create(gpuc *gpu, size_t n, size_t k)
{
    topk_bisect *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    *b = (topk_bisect){.gpu = gpu, .n = n, .k = k, .tiles = (n + TILE - 1) / TILE};
    b->tile_counts = malloc(b->tiles * sizeof *b->tile_counts);
    b->tile_of = calloc(k, sizeof *b->tile_of);
    b->rank_in = calloc(k, sizeof *b->rank_in);
    b->found = malloc(k * sizeof *b->found);
    b->found_maxima = malloc(b->tiles * sizeof *b->found_maxima);
    b->tile_counts4 = malloc(4 * b->tiles * sizeof *b->tile_counts4);
    gpuc_kernel_desc per_tile = {.output = {(uint32_t)b->tiles}, .constants = {{"tile", TILE}, {"n", (double)n}}};
    gpuc_kernel_desc per_tile_kept = per_tile;
    per_tile_kept.pipeline = true; /* read back explicitly, once */
    gpuc_kernel_desc per_survivor = {.output = {(uint32_t)k}, .constants = {{"tile", TILE}, {"n", (double)n}}};
    if (!b->tile_counts || !b->tile_of || !b->rank_in || !b->found || !b->found_maxima || !b->tile_counts4 ||
        gpuc_create_kernel(gpu, TILE_MAX, &per_tile_kept, &b->tile_max) != GPUC_OK ||
        gpuc_create_kernel(gpu, COUNT_ABOVE, &per_tile, &b->count) != GPUC_OK ||
        gpuc_create_kernel(gpu, GATHER, &per_survivor, &b->gather) != GPUC_OK ||
        gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)k}, &b->gathered) != GPUC_OK ||
        gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)b->tiles}, &b->maxima) != GPUC_OK ||
        gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){(uint32_t)b->tiles}, &b->counts) != GPUC_OK) {
        topk_bisect_free(b);
        return NULL;
    }
    return b;
}

void topk_bisect_free(topk_bisect *b)
{
    if (!b)
        return;
    gpuc_kernel_free(b->tile_max);
    gpuc_kernel_free(b->count);
    gpuc_kernel_free(b->gather);
    gpuc_array_free(b->maxima);
    gpuc_array_free(b->counts);
    gpuc_array_free(b->gathered);
    free(b->tile_counts);
    free(b->tile_of);
    free(b->rank_in);
    free(b->found);
    free(b->found_maxima);
    free(b->tile_counts4);
    free(b);
}

/* Counts the values above each threshold t[0..3] (ascending): totals into above[], tile x's count above
 * t[0] into b->tile_counts[x]. Returns 0, or -1 on error. */
static int count_above(topk_bisect *b, const gpuc_array *values, float bias, const float t[4], long above[4])
{
    gpuc_arg args[] = {gpuc_arg_array(values), gpuc_arg_array(values), gpuc_arg_array(b->maxima), gpuc_arg_f32(bias),
                       gpuc_arg_f32(t[0]), gpuc_arg_f32(t[1]), gpuc_arg_f32(t[2]), gpuc_arg_f32(t[3])};
    if (gpuc_run_to(b->count, args, 8, b->counts) != GPUC_OK ||
        gpuc_array_read_f32(b->counts, b->tile_counts4, 4 * b->tiles) != GPUC_OK)
        return -1;
    for (int j = 0; j < 4; j++)
        above[j] = 0;
    for (size_t x = 0; x < b->tiles; x++) {
        b->tile_counts[x] = (int32_t)b->tile_counts4[4 * x];
        for (int j = 0; j < 4; j++)
            above[j] += (long)b->tile_counts4[4 * x + j];
    }
    return 0;
}

#define GRID 4194304.0 /* 2^22 steps per unit */

static int descending_float(const void *a, const void *b);

int topk_bisect_round(topk_bisect *b, const gpuc_array *values, float bias, float *out)
{
    if (gpuc_run_to(b->tile_max, (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_f32(bias)}, 2, b->maxima) != GPUC_OK ||
        gpuc_array_read_f32(b->maxima, b->found_maxima, b->tiles) != GPUC_OK)
        return -1;
    qsort(b->found_maxima, b->tiles, sizeof *b->found_maxima, descending_float);
    /* In grid steps: count(> lo) >= k > count(> hi). */
    long hi = (long)(b->found_maxima[0] * GRID);
    long lo = b->tiles >= b->k ? (long)(b->found_maxima[b->k - 1] * GRID) - 1 : -1;
    while (hi - lo > 1) { /* three cuts per pass: the bracket shrinks to a quarter */
        long cut[4];
        float t[4];
        long above[4];
        for (int j = 0; j < 4; j++) {
            cut[j] = lo + (hi - lo) * (j + 1) / 4;
            t[j] = (float)(cut[j] / GRID);
        }
        if (count_above(b, values, bias, t, above) < 0)
            return -1;
        for (int j = 0; j < 3; j++) { /* the highest cut with at least k above it raises lo */
            if ((size_t)above[j] >= b->k)
                lo = cut[j];
            else {
                hi = cut[j];
                break;
            }
        }
    }
    float kth = (float)(hi / GRID);
    const float at_kth[4] = {kth, kth, kth, kth};
    long above[4];
    if (count_above(b, values, bias, at_kth, above) < 0 || (size_t)above[0] >= b->k)
        return -1;
    long survivors = above[0]; /* strictly above the k-th value */
    size_t slot = 0;
    for (size_t tile = 0; tile < b->tiles; tile++)
        for (int r = 0; r < b->tile_counts[tile]; r++, slot++) {
            b->tile_of[slot] = (int32_t)tile;
            b->rank_in[slot] = r;
        }
    if (survivors > 0) {
        gpuc_arg args[] = {gpuc_arg_array(values), gpuc_arg_host_i32(b->tile_of, (gpuc_dims){(uint32_t)b->k}),
                           gpuc_arg_host_i32(b->rank_in, (gpuc_dims){(uint32_t)b->k}), gpuc_arg_f32(bias),
                           gpuc_arg_f32(kth), gpuc_arg_i32((int32_t)survivors)};
        if (gpuc_run_to(b->gather, args, 6, b->gathered) != GPUC_OK ||
            gpuc_array_read_f32(b->gathered, b->found, b->k) != GPUC_OK)
            return -1;
    }
    qsort(b->found, (size_t)survivors, sizeof *b->found, descending_float);
    memcpy(out, b->found, (size_t)survivors * sizeof *out);
    for (size_t j = (size_t)survivors; j < b->k; j++)
        out[j] = kth;
    return 0;
}
