/* topk_bisect.c - the gauntlet's own top-k formulation (its GPU.js column), written with gpuc kernels as
 * a user would: per round, one pass computes the maximum of every tile of the biased values; halvings of
 * the value bracket count the values above the midpoint, each tile skipping its reads when its maximum is
 * not above it; the survivors of the last count are gathered by a kernel whose cells each walk one tile,
 * and the host sorts them (fewer than k) and fills up to k with the k-th value.
 *
 * The bracket starts narrow: at least k tiles have a value >= the k-th largest tile maximum, so just
 * below it at least k values lie above; nothing lies above the largest maximum. With tiles small enough
 * (1024 values: n / 1024 maxima, far more than k) that floor already leaves only a few more than k
 * values above it in a few more than k tiles, so the first count usually ends the search: it returns
 * each listed tile's first three values above the floor too (a gather kernel fetches them only when a
 * tile holds more), and the host keeps the k largest. Only when more than CAP_PER_K * k lie above the floor
 * (ties, sorted data) does the bisection run. Every value is a multiple of 2^-22 in [0, 2) (data on that
 * grid, bias r/16384 on it too), so the bisection runs on whole grid steps and ends when (lo, hi] is one
 * step wide: hi is then exactly the k-th largest value. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 1024       /* values per tile: the unit of pruning, counting and gathering */
#define TILES_PER_CELL 4 /* the maxima kernel's invocations each read 4 tiles: a 16 KB contiguous run */
#define CAP_PER_K 8      /* gather at once when at most 8k values lie above the bracket's floor */

/* Cell c: the maxima of tiles 4c .. 4c + 3 (llvmpipe reads a long contiguous run per invocation fastest;
 * past the end, reads give 0, below every value). */
static const char *TILE_MAX =
    "vec4 tileMax(vec4 v[], float bias) {\n"
    "    int base = thread.x * constants.tile;\n"
    "    vec4 r;\n"
    "    for (int t = 0; t < 4; t++) {\n"
    "        vec4 m = vec4(-1.0);\n"
    "        for (int i = 0; i < constants.tile / 4; i++)\n"
    "            m = max(m, v[base + t * (constants.tile / 4) + i]);\n"
    "        r[t] = max(max(m.x, m.y), max(m.z, m.w)) + bias;\n"
    "    }\n"
    "    return r;\n"
    "}\n";

/* Cell x: how many values of tile tiles[x] exceed each of four thresholds t0 <= t1 <= t2 <= t3 (one pass
 * narrows the bracket to a quarter). The host lists only the tiles whose maximum exceeds t0: the kernel
 * runs over those alone, so no SIMD lane waits on a neighbour's tile. Whole texels through the vec4
 * view, the last few values of the array through the float view of the same array. */
static const char *COUNT_ABOVE =
    "uint above(vec4 x, float t) { uvec4 h = uvec4(greaterThan(x, vec4(t))); return h.x + h.y + h.z + h.w; }\n"
    "vec4 countAbove(vec4 v[], float w[], int tiles[], float bias, float t0, float t1, float t2, float t3) {\n"
    "    int start = tiles[thread.x] * constants.tile;\n"
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

/* Cell x: how many values of tile tiles[x] exceed t, and the first three of them (-1 where fewer): on
 * the row's data a tile above the floor holds one or two, so this count usually brings the survivors
 * themselves and no gather is needed. */
static const char *COUNT_PICK =
    "vec4 countPick(vec4 v[], float w[], int tiles[], float bias, float t) {\n"
    "    int start = tiles[thread.x] * constants.tile;\n"
    "    int len = min(constants.tile, constants.n - start);\n"
    "    int count = 0;\n"
    "    vec3 picked = vec3(-1.0);\n"
    "    for (int i = 0; i < constants.tile / 4 && i < len / 4; i++) {\n"
    "        vec4 x = v[start / 4 + i] + bias;\n"
    "        bvec4 hit = greaterThan(x, vec4(t));\n"
    "        if (any(hit)) {\n"
    "            for (int j = 0; j < 4; j++) {\n"
    "                if (hit[j]) {\n"
    "                    if (count < 3) picked[count] = x[j];\n"
    "                    count++;\n"
    "                }\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "    for (int i = 0; i < 3 && len / 4 * 4 + i < len; i++) {\n"
    "        float x = w[start + len / 4 * 4 + i] + bias;\n"
    "        if (x > t) {\n"
    "            if (count < 3) picked[count] = x;\n"
    "            count++;\n"
    "        }\n"
    "    }\n"
    "    return vec4(float(count), picked);\n"
    "}\n";

/* Cell j: the r-th value above t in tile x, where slots[j] = x * tile + r; whole texels are skipped by
 * their count. */
static const char *GATHER =
    "float gatherAbove(vec4 v[], int slots[], float bias, float t) {\n"
    "    int start = slots[thread.x] / constants.tile * constants.tile;\n"
    "    int rank = slots[thread.x] - start;\n"
    "    int len = min(constants.tile, constants.n - start);\n"
    "    int seen = 0;\n"
    "    for (int i = 0; i < constants.tile / 4 && i < (len + 3) / 4; i++) {\n"
    "        vec4 x = v[start / 4 + i] + bias;\n"
    "        bvec4 inside = lessThan(ivec4(4 * i) + ivec4(0, 1, 2, 3), ivec4(len));\n"
    "        uvec4 hit = uvec4(greaterThan(x, vec4(t))) * uvec4(inside);\n"
    "        int here = int(hit.x + hit.y + hit.z + hit.w);\n"
    "        if (seen + here > rank) {\n"
    "            for (int j = 0; j < 4; j++) {\n"
    "                if (hit[j] == 1u) {\n"
    "                    if (seen == rank) return x[j];\n"
    "                    seen++;\n"
    "                }\n"
    "            }\n"
    "        }\n"
    "        seen += here;\n"
    "    }\n"
    "    return -1.0;\n"
    "}\n";

struct topk_bisect {
    gpuc *gpu;
    size_t n, k, tiles, cap;
    size_t listed; /* tiles the last count ran over: list[0 .. listed - 1], ascending */
    gpuc_kernel *tile_max, *count, *count_pick, *gather;
    gpuc_array *maxima;
    int32_t *list, *tile_counts, *slots; /* tile_counts[i]: the last count above t0 in list[i] */
    float *found, *found_maxima, *scratch, *tile_counts4;
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
    size_t cells = (n + TILES_PER_CELL * TILE - 1) / (TILES_PER_CELL * TILE);
    *b = (topk_bisect){.gpu = gpu, .n = n, .k = k, .tiles = cells * TILES_PER_CELL, .cap = CAP_PER_K * k};
    b->list = malloc(b->tiles * sizeof *b->list);
    b->tile_counts = malloc(b->tiles * sizeof *b->tile_counts);
    b->scratch = malloc(b->tiles * sizeof *b->scratch);
    b->slots = malloc(b->cap * sizeof *b->slots);
    b->found = malloc(b->cap * sizeof *b->found);
    b->found_maxima = malloc(b->tiles * sizeof *b->found_maxima);
    b->tile_counts4 = malloc(4 * b->tiles * sizeof *b->tile_counts4);
    gpuc_kernel_desc per_cell = {.output = {(uint32_t)cells}, .constants = {{"tile", TILE}, {"n", (double)n}},
                                 .pipeline = true}; /* read back explicitly, once */
    gpuc_kernel_desc per_tile = {.output = {(uint32_t)b->tiles}, .constants = {{"tile", TILE}, {"n", (double)n}},
                                 .dynamic_output = true}; /* as many cells as listed tiles */
    gpuc_kernel_desc per_survivor = {.output = {(uint32_t)b->cap}, .constants = {{"tile", TILE}, {"n", (double)n}},
                                     .dynamic_output = true}; /* as many cells as survivors */
    if (!b->list || !b->scratch || !b->tile_counts || !b->slots || !b->found || !b->found_maxima || !b->tile_counts4 ||
        gpuc_create_kernel(gpu, TILE_MAX, &per_cell, &b->tile_max) != GPUC_OK ||
        gpuc_create_kernel(gpu, COUNT_ABOVE, &per_tile, &b->count) != GPUC_OK ||
        gpuc_create_kernel(gpu, COUNT_PICK, &per_tile, &b->count_pick) != GPUC_OK ||
        gpuc_create_kernel(gpu, GATHER, &per_survivor, &b->gather) != GPUC_OK ||
        gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){(uint32_t)cells}, &b->maxima) != GPUC_OK) {
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
    gpuc_kernel_free(b->count_pick);
    gpuc_kernel_free(b->gather);
    gpuc_array_free(b->maxima);
    free(b->list);
    free(b->tile_counts);
    free(b->scratch);
    free(b->slots);
    free(b->found);
    free(b->found_maxima);
    free(b->tile_counts4);
    free(b);
}

/* Lists the tiles whose maximum exceeds t (b->list, b->listed); returns how many. */
static size_t list_tiles(topk_bisect *b, float t)
{
    b->listed = 0;
    for (size_t x = 0; x < b->tiles; x++)
        if (b->found_maxima[x] > t)
            b->list[b->listed++] = (int32_t)x;
    return b->listed;
}

/* Counts the values above each threshold t[0..3] (ascending) in the tiles whose maximum exceeds t[0]:
 * totals into above[], the count above t[0] of tile list[i] into tile_counts[i]. Returns 0, or -1 on
 * error. */
static int count_above(topk_bisect *b, const gpuc_array *values, float bias, const float t[4], long above[4])
{
    for (int j = 0; j < 4; j++)
        above[j] = 0;
    if (list_tiles(b, t[0]) == 0)
        return 0;
    gpuc_array *counts = NULL;
    gpuc_arg args[] = {gpuc_arg_array(values),
                       gpuc_arg_array(values),
                       gpuc_arg_host_i32(b->list, (gpuc_dims){(uint32_t)b->listed}),
                       gpuc_arg_f32(bias),
                       gpuc_arg_f32(t[0]),
                       gpuc_arg_f32(t[1]),
                       gpuc_arg_f32(t[2]),
                       gpuc_arg_f32(t[3])};
    int rc = gpuc_kernel_set_output(b->count, (gpuc_dims){(uint32_t)b->listed}) != GPUC_OK ||
                     gpuc_run(b->count, args, 8, &counts) != GPUC_OK ||
                     gpuc_array_read_f32(counts, b->tile_counts4, 4 * b->listed) != GPUC_OK
                 ? -1
                 : 0;
    gpuc_array_free(counts);
    for (size_t i = 0; i < b->listed && rc == 0; i++) {
        b->tile_counts[i] = (int32_t)b->tile_counts4[4 * i];
        for (int j = 0; j < 4; j++)
            above[j] += (long)b->tile_counts4[4 * i + j];
    }
    return rc;
}

/* Counts the values above t in the tiles whose maximum exceeds it: the total into *above, tile list[i]'s
 * count into tile_counts[i]; when no tile holds more than three, the values themselves into b->found
 * (*picked set, b->found sorted when they are at most b->cap). Returns 0, or -1 on error. */
static int count_and_pick(topk_bisect *b, const gpuc_array *values, float bias, float t, long *above, bool *picked)
{
    *above = 0;
    *picked = true;
    if (list_tiles(b, t) == 0)
        return 0;
    gpuc_array *counts = NULL;
    gpuc_arg args[] = {gpuc_arg_array(values), gpuc_arg_array(values),
                       gpuc_arg_host_i32(b->list, (gpuc_dims){(uint32_t)b->listed}), gpuc_arg_f32(bias),
                       gpuc_arg_f32(t)};
    int rc = gpuc_kernel_set_output(b->count_pick, (gpuc_dims){(uint32_t)b->listed}) != GPUC_OK ||
                     gpuc_run(b->count_pick, args, 5, &counts) != GPUC_OK ||
                     gpuc_array_read_f32(counts, b->tile_counts4, 4 * b->listed) != GPUC_OK
                 ? -1
                 : 0;
    gpuc_array_free(counts);
    for (size_t i = 0; i < b->listed && rc == 0; i++) {
        const float *cell = b->tile_counts4 + 4 * i;
        b->tile_counts[i] = (int32_t)cell[0];
        *picked = *picked && cell[0] <= 3;
        for (int j = 0; j < (int)cell[0] && j < 3 && *above + j < (long)b->cap; j++)
            b->found[*above + j] = cell[1 + j];
        *above += (long)cell[0];
    }
    if (rc == 0 && *picked && *above <= (long)b->cap)
        qsort(b->found, (size_t)*above, sizeof *b->found, descending_float);
    return rc;
}

#define GRID 4194304.0 /* 2^22 steps per unit */

/* The k-th largest of m floats (1 <= k <= m), reordering xs (quickselect). */
static float kth_largest(float *xs, size_t m, size_t k)
{
    long lo = 0, hi = (long)m - 1, want = (long)k - 1;
    while (lo < hi) {
        float pivot = xs[lo + (hi - lo) / 2];
        long i = lo, j = hi;
        while (i <= j) { /* larger values to the left */
            while (xs[i] > pivot)
                i++;
            while (xs[j] < pivot)
                j--;
            if (i <= j) {
                float t = xs[i];
                xs[i++] = xs[j];
                xs[j--] = t;
            }
        }
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            break; /* between j and i: equal to the pivot */
    }
    return xs[want];
}

/* Gathers the `survivors` values above t (tile x holding b->tile_counts[x] of them, as the last count
 * found) into b->found. Returns 0, or -1 on error. */
static int gather_above(topk_bisect *b, const gpuc_array *values, float bias, float t, long survivors)
{
    size_t slot = 0;
    for (size_t i = 0; i < b->listed; i++)
        for (int r = 0; r < b->tile_counts[i]; r++)
            b->slots[slot++] = b->list[i] * TILE + r;
    gpuc_array *found = NULL;
    gpuc_arg args[] = {gpuc_arg_array(values), gpuc_arg_host_i32(b->slots, (gpuc_dims){(uint32_t)survivors}),
                       gpuc_arg_f32(bias), gpuc_arg_f32(t)};
    int rc = gpuc_kernel_set_output(b->gather, (gpuc_dims){(uint32_t)survivors}) != GPUC_OK ||
                     gpuc_run(b->gather, args, 4, &found) != GPUC_OK ||
                     gpuc_array_read_f32(found, b->found, (size_t)survivors) != GPUC_OK
                 ? -1
                 : 0;
    gpuc_array_free(found);
    if (rc == 0)
        qsort(b->found, (size_t)survivors, sizeof *b->found, descending_float);
    return rc;
}

int topk_bisect_round(topk_bisect *b, const gpuc_array *values, float bias, float *out)
{
    if (gpuc_run_to(b->tile_max, (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_f32(bias)}, 2, b->maxima) != GPUC_OK ||
        gpuc_array_read_f32(b->maxima, b->found_maxima, b->tiles) != GPUC_OK)
        return -1;
    float top = b->found_maxima[0];
    for (size_t t = 1; t < b->tiles; t++)
        top = b->found_maxima[t] > top ? b->found_maxima[t] : top;
    /* In grid steps: count(> lo) >= k > count(> hi). */
    long hi = (long)(top * GRID);
    memcpy(b->scratch, b->found_maxima, b->tiles * sizeof *b->scratch);
    long lo = b->tiles >= b->k ? (long)(kth_largest(b->scratch, b->tiles, b->k) * GRID) - 1 : -1;
    float floor_t = (float)(lo / GRID);
    long at_floor = 0;
    bool picked = false;
    if (count_and_pick(b, values, bias, floor_t, &at_floor, &picked) < 0)
        return -1;
    if ((size_t)at_floor <= b->cap) { /* few enough: keep the k largest (gathered unless picked) */
        if (!picked && gather_above(b, values, bias, floor_t, at_floor) < 0)
            return -1;
        memcpy(out, b->found, b->k * sizeof *out);
        return 0;
    }
    long above[4];
    while (hi - lo > 1) { /* three cuts per pass: the bracket shrinks to a quarter */
        long cut[4];
        float t[4];
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
    if (count_above(b, values, bias, at_kth, above) < 0 || (size_t)above[0] >= b->k)
        return -1;
    long survivors = above[0]; /* strictly above the k-th value */
    if (survivors > 0 && gather_above(b, values, bias, kth, survivors) < 0)
        return -1;
    memcpy(out, b->found, (size_t)survivors * sizeof *out);
    for (size_t j = (size_t)survivors; j < b->k; j++)
        out[j] = kth;
    return 0;
}
