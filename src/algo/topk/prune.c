/* prune.c - gpuc_topk's main path: tile maxima bound the k-th key from below, so that only the tiles
 * whose maximum reaches the bound are read again. One pass computes each tile's largest key (read
 * back); the k-th largest of those, T, is <= the k-th key (k tiles each hold a key >= T), and every key
 * >= T lies in a tile whose maximum is >= T. Counting the keys >= T per group of those tiles (read back)
 * usually finds a few more than k; while more than TOPK_PRUNE_CAP, the bound is raised by bisection
 * over the keys, each count reading only the tiles that reach it. The survivors are gathered with their
 * indices (read back) and ordered on the host. Ties at the exact k-th key (any number of them) are
 * gathered in index order, only as many as the k results need. Small inputs never reach the device:
 * their values are read (or taken as given) and selected on the host (order_every_value). */
#include "algo/topk/parts.h"

#include <stdlib.h>
#include <string.h>

/* Largest tile and group: one tile-maximum invocation reads two tiles (8 KB, a long contiguous run);
 * a gather cell walks at most one group. Smaller inputs use smaller tiles (choose_tile). */
#define TILE_MAX 1024
#define TILE_MIN 64
#define GROUP_MAX 256

typedef struct pruner {
    gpuc *gpu;
    const topk_input *in;
    int32_t flip;
    int tile, group, per; /* per: groups per tile */
    size_t tiles;
    uint32_t *max;   /* [tiles]: each tile's largest key */
    int32_t *list;   /* [tiles]: the tiles of the last count, ascending */
    int32_t *counts; /* [tiles * per]: the last count's keys per group of those tiles */
    size_t listed;
    bool counted; /* list and counts hold the count of keys in [counted_lo, counted_hi] */
    uint32_t counted_lo, counted_hi;
    int64_t counted_total;
    gpuc_kernel *tile_max, *group_count, *gather;
} pruner;

/* The largest tile (a power of two) that leaves at least 4k tiles, so that the k-th tile maximum
 * stays close to the k-th key: pruning then keeps about k tiles of the n / tile. */
static int choose_tile(size_t n, size_t k)
{
    int tile = TILE_MAX;
    while (tile > TILE_MIN && (n + (size_t)tile - 1) / (size_t)tile < 4 * k)
        tile /= 2;
    return tile;
}

static void pruner_free(pruner *p)
{
    free(p->max);
    free(p->list);
    free(p->counts);
}

static gpuc_status pruner_make(gpuc *gpu, const topk_input *in, size_t k, int32_t flip, pruner *p)
{
    memset(p, 0, sizeof *p);
    p->gpu = gpu;
    p->in = in;
    p->flip = flip;
    p->tile = choose_tile(in->n, k);
    p->group = p->tile < GROUP_MAX ? p->tile : GROUP_MAX;
    p->per = p->tile / p->group;
    p->tiles = (in->n + (size_t)p->tile - 1) / (size_t)p->tile;
    p->max = malloc(p->tiles * sizeof *p->max);
    p->list = malloc(p->tiles * sizeof *p->list);
    p->counts = malloc(p->tiles * (size_t)p->per * sizeof *p->counts);
    if (!p->max || !p->list || !p->counts)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for %zu tile maxima", p->tiles);
    /* The largest sizes only bound the kernels' loops: one program for every n and k. */
    const gpuc_constant shape[] = {{.name = "maxTile", .value = TILE_MAX, .type = GPUC_INT},
                                   {.name = "maxGroup", .value = GROUP_MAX, .type = GPUC_INT}};
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk_prune, "tile_max",
                                      (gpuc_dims){(uint32_t)((p->tiles + 1) / 2), 0, 0}, shape, 2, true, &p->tile_max);
    if (st == GPUC_OK)
        st = topk_make_sized_kernel(gpu, gpuc_glsl_topk_prune, "group_count", shape, 2, &p->group_count);
    if (st == GPUC_OK)
        st = topk_make_sized_kernel(gpu, gpuc_glsl_topk_prune, "gather", shape, 2, &p->gather);
    return st;
}

/* p->max from one pass over the input: two tiles per cell, each key as two 16-bit halves. */
static gpuc_status tile_maxima(pruner *p)
{
    size_t cells = (p->tiles + 1) / 2;
    float *halves = malloc(cells * 4 * sizeof *halves);
    if (!halves)
        return gpuc_fail(p->gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for the tile maxima");
    gpuc_array *out = NULL;
    gpuc_arg args[] = {gpuc_arg_array(p->in->array), gpuc_arg_i32((int32_t)p->in->n), gpuc_arg_i32(p->flip),
                       gpuc_arg_i32(p->tile)};
    gpuc_status st = gpuc_run(p->tile_max, args, 4, &out);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(out, halves, cells * 4);
    for (size_t t = 0; t < p->tiles && st == GPUC_OK; t++)
        p->max[t] = (uint32_t)halves[2 * t] << 16 | (uint32_t)halves[2 * t + 1];
    gpuc_array_free(out);
    free(halves);
    return st;
}

/* Counts the keys in [lo, hi] per group of the tiles whose maximum is >= lo: into p->list / p->counts,
 * and their sum into *total. */
static gpuc_status group_counts(pruner *p, uint32_t lo, uint32_t hi, int64_t *total)
{
    if (p->counted && p->counted_lo == lo && p->counted_hi == hi) {
        *total = p->counted_total;
        return GPUC_OK;
    }
    p->counted = false;
    p->listed = 0;
    for (size_t t = 0; t < p->tiles; t++)
        if (p->max[t] >= lo)
            p->list[p->listed++] = (int32_t)t;
    *total = 0;
    if (p->listed == 0)
        return GPUC_OK; /* (not cached: cheap) */
    size_t cells = p->listed * (size_t)p->per;
    gpuc_status st = gpuc_kernel_set_output(p->group_count, (gpuc_dims){(uint32_t)cells, 0, 0});
    gpuc_array *out = NULL;
    gpuc_arg args[] = {gpuc_arg_array(p->in->array),
                       gpuc_arg_host_i32(p->list, (gpuc_dims){(uint32_t)p->listed, 0, 0}),
                       gpuc_arg_i32((int32_t)p->in->n), gpuc_arg_i32((int32_t)lo), gpuc_arg_i32((int32_t)hi),
                       gpuc_arg_i32(p->flip), gpuc_arg_i32(p->tile), gpuc_arg_i32(p->group)};
    if (st == GPUC_OK)
        st = gpuc_run(p->group_count, args, 8, &out);
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(out, p->counts, cells);
    gpuc_array_free(out);
    for (size_t c = 0; c < cells && st == GPUC_OK; c++)
        *total += p->counts[c];
    if (st == GPUC_OK) {
        p->counted = true;
        p->counted_lo = lo;
        p->counted_hi = hi;
        p->counted_total = *total;
    }
    return st;
}

/* Appends to slots[] (up to `limit` in all) the keys the last group_counts counted, in index order:
 * a group's first index plus the rank in it, complemented for ties. */
static size_t add_slots(const pruner *p, bool tie, int32_t *slots, size_t used, size_t limit)
{
    for (size_t c = 0; c < p->listed * (size_t)p->per && used < limit; c++) {
        int32_t start = p->list[c / (size_t)p->per] * p->tile + (int32_t)(c % (size_t)p->per) * p->group;
        for (int32_t r = 0; r < p->counts[c] && used < limit; r++)
            slots[used++] = tie ? ~(start + r) : start + r;
    }
    return used;
}

/* What to gather: every key in [from, UINT32_MAX] (when `all`), then the first `ties` keys == tie. */
typedef struct survivors {
    bool all;
    uint32_t from;
    uint32_t tie;
    int64_t ties;
} survivors;

/* Raises the bound T (at least k keys >= T, `at_t` of them) until at most TOPK_PRUNE_CAP keys lie above
 * it, or, when the k-th key has too many copies for that, finds the k-th key itself. */
static gpuc_status choose_survivors(pruner *p, size_t k, uint32_t bound, int64_t at_bound, uint32_t top,
                                    survivors *s)
{
    uint32_t lo = bound, hi = top;
    int64_t above_hi = 0; /* keys >= hi + 1: none above the largest key */
    gpuc_status st = GPUC_OK;
    while (at_bound > TOPK_PRUNE_CAP && lo < hi && st == GPUC_OK) {
        uint32_t mid = lo + (uint32_t)(((uint64_t)hi - lo + 1) / 2);
        int64_t count = 0;
        st = group_counts(p, mid, UINT32_MAX, &count);
        if (count >= (int64_t)k) {
            lo = mid;
            at_bound = count;
        } else {
            hi = mid - 1;
            above_hi = count;
        }
    }
    if (at_bound <= TOPK_PRUNE_CAP)
        *s = (survivors){.all = true, .from = lo};
    else /* lo is the k-th key: the keys above it, then the first ties */
        *s = (survivors){.all = lo != UINT32_MAX, .from = lo + 1, .tie = lo, .ties = (int64_t)k - above_hi};
    return st;
}

/* The survivors with their values and indices: (value, index >> 16, index & 0xFFFF, 1) per slot, in two
 * runs of ascending indices: the keys from s->from up, then the ties (*first_run the first's length). */
static gpuc_status gather(pruner *p, const survivors *s, float **cells, size_t *count, size_t *first_run)
{
    int32_t *slots = malloc(2 * TOPK_PRUNE_CAP * sizeof *slots);
    if (!slots)
        return gpuc_fail(p->gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    size_t used = 0;
    int64_t total = 0;
    gpuc_status st = GPUC_OK;
    if (s->all) {
        st = group_counts(p, s->from, UINT32_MAX, &total);
        used = add_slots(p, false, slots, used, TOPK_PRUNE_CAP);
    }
    *first_run = used;
    if (s->ties > 0 && st == GPUC_OK) {
        st = group_counts(p, s->tie, s->tie, &total);
        used = add_slots(p, true, slots, used, used + (size_t)s->ties);
    }
    gpuc_array *out = NULL;
    if (st == GPUC_OK)
        st = gpuc_kernel_set_output(p->gather, (gpuc_dims){(uint32_t)used, 0, 0});
    gpuc_arg args[] = {gpuc_arg_array(p->in->array), gpuc_arg_host_i32(slots, (gpuc_dims){(uint32_t)used, 0, 0}),
                       gpuc_arg_i32((int32_t)p->in->n),  gpuc_arg_i32((int32_t)s->from),
                       gpuc_arg_i32(-1),                 gpuc_arg_i32((int32_t)s->tie),
                       gpuc_arg_i32(p->flip),            gpuc_arg_i32(p->group)};
    *cells = st == GPUC_OK ? malloc(used * 4 * sizeof **cells) : NULL;
    if (st == GPUC_OK && !*cells)
        st = gpuc_fail(p->gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    if (st == GPUC_OK)
        st = gpuc_run(p->gather, args, 8, &out);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(out, *cells, used * 4);
    gpuc_array_free(out);
    free(slots);
    *count = used;
    return st;
}

/* Small inputs, and those with fewer tiles than k even of TILE_MIN values (where the k-th tile maximum
 * does not exist and no tile can be pruned): the values themselves are the candidates, selected on the
 * host (host_select.c), the caller's host data as given or the device array read (its host copy when
 * it has one). Up to HOST_SELECT_MOST values, reading 4 bytes of each back and selecting in about 2 ns
 * a value beat the tile pass, count and gather: 3 dispatches and 3 read backs, 0.4 ms at 2^16 on
 * llvmpipe's threads (docs/performance/topk.md, "The host's part"). */
#define HOST_SELECT_MOST 131072

static gpuc_status order_every_value(gpuc *gpu, const topk_input *in, size_t k, int32_t flip, float *values,
                                     int32_t *indices)
{
    size_t n = in->n;
    float *read = in->host ? NULL : algo_scratch_take(gpu, TOPK_SCRATCH_READ, n * sizeof *read);
    gpuc_status st = in->host || read ? GPUC_OK
                                      : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    if (st == GPUC_OK && read)
        st = gpuc_array_read_f32(in->array, read, n);
    if (st == GPUC_OK)
        st = topk_host_select(gpu, in->host ? in->host : read, n, k, flip, values, indices);
    algo_scratch_give(gpu, TOPK_SCRATCH_READ, read);
    return st;
}

/* Orders the gathered cells and keeps the first k: the two runs merged by index first, as
 * topk_host_first takes its candidates. */
static gpuc_status order(gpuc *gpu, const float *cells, size_t count, size_t first_run, size_t k, int32_t flip,
                         float *values, int32_t *indices)
{
    if (count < k)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_topk: the pruned gather found %zu values for k = %zu (a bug in gpuc)", count, k);
    uint32_t *keys = malloc(count * sizeof *keys);
    float *v = malloc(count * sizeof *v);
    int32_t *at = malloc(count * sizeof *at);
    gpuc_status st = keys && v && at ? GPUC_OK
                                     : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    for (size_t j = 0; j < count && st == GPUC_OK; j++)
        if (cells[4 * j + 3] != 1.0f)
            st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                           "gpuc_topk: the pruned gather lost survivor %zu of %zu (a bug in gpuc)", j, count);
    for (size_t j = 0, a = 0, b = first_run; j < count && st == GPUC_OK; j++) {
        const float *ca = cells + 4 * a, *cb = cells + 4 * b;
        int32_t ia = a < first_run ? (int32_t)ca[1] * 65536 + (int32_t)ca[2] : INT32_MAX;
        int32_t ib = b < count ? (int32_t)cb[1] * 65536 + (int32_t)cb[2] : INT32_MAX;
        const float *cell = ia < ib ? ca : cb;
        a += ia < ib;
        b += ia >= ib;
        keys[j] = topk_host_key(cell[0], flip);
        v[j] = cell[0];
        at[j] = ia < ib ? ia : ib;
    }
    if (st == GPUC_OK)
        st = topk_host_first(gpu, keys, v, at, count, k, values, indices);
    free(keys);
    free(v);
    free(at);
    return st;
}

gpuc_status topk_prune(gpuc *gpu, topk_input *in, size_t k, int32_t flip, float *values, int32_t *indices)
{
    if (in->n <= HOST_SELECT_MOST || (in->n + TILE_MIN - 1) / TILE_MIN < k)
        return order_every_value(gpu, in, k, flip, values, indices);
    gpuc_status st = topk_input_upload(gpu, in);
    if (st != GPUC_OK)
        return st;
    pruner p;
    st = pruner_make(gpu, in, k, flip, &p);
    if (st == GPUC_OK)
        st = tile_maxima(&p);
    uint32_t bound = 0, top = 0;
    for (size_t t = 0; t < p.tiles && st == GPUC_OK; t++)
        top = p.max[t] > top ? p.max[t] : top;
    if (st == GPUC_OK && p.tiles >= k)
        st = topk_kth_key(gpu, p.max, p.tiles, k, &bound);
    int64_t at_bound = 0;
    if (st == GPUC_OK)
        st = group_counts(&p, bound, UINT32_MAX, &at_bound);
    survivors s = {0};
    if (st == GPUC_OK)
        st = choose_survivors(&p, k, bound, at_bound, top, &s);
    float *cells = NULL;
    size_t count = 0, first_run = 0;
    if (st == GPUC_OK)
        st = gather(&p, &s, &cells, &count, &first_run);
    if (st == GPUC_OK)
        st = order(gpu, cells, count, first_run, k, flip, values, indices);
    free(cells);
    pruner_free(&p);
    return st;
}
