/* prune.c - gpuc_topk's main path: tile maxima bound the k-th key from below, so that only the tiles
 * whose maximum reaches the bound are read again. One pass computes each tile's largest key (read
 * back); the k-th largest of those, T, is <= the k-th key (k tiles each hold a key >= T), and every key
 * >= T lies in a tile whose maximum is >= T. Counting the keys >= T per group of those tiles (read back)
 * usually finds a few more than k; while more than TOPK_PRUNE_CAP, the bound is raised by bisection
 * over the keys, each count reading only the tiles that reach it. The survivors are gathered with their
 * indices (read back) and ordered on the host. Ties at the exact k-th key (any number of them) are
 * gathered in index order, only as many as the k results need. */
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

/* The k-th largest of m keys (k <= m): a histogram of the high halves finds the bucket that holds it,
 * a histogram of the low halves inside that bucket finds the key. */
static gpuc_status kth_largest(gpuc *gpu, const uint32_t *keys, size_t m, size_t k, uint32_t *kth)
{
    uint32_t *hist = malloc(65536 * sizeof *hist);
    if (!hist)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    uint32_t prefix = 0;
    for (int shift = 16; shift >= 0; shift -= 16) {
        memset(hist, 0, 65536 * sizeof *hist);
        for (size_t i = 0; i < m; i++)
            if (shift == 16 || keys[i] >> 16 == prefix >> 16)
                hist[keys[i] >> shift & 0xFFFF]++;
        uint32_t bucket = 65535;
        while (hist[bucket] < k) /* k stays >= 1 and the buckets hold at least k keys in all */
            k -= hist[bucket--];
        prefix |= bucket << shift;
    }
    free(hist);
    *kth = prefix;
    return GPUC_OK;
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

/* The survivors with their values and indices: (value, index >> 16, index & 0xFFFF, 1) per slot. */
static gpuc_status gather(pruner *p, const survivors *s, float **cells, size_t *count)
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

/* The host's order key: topk_key of glsl/topk.glsl. */
static uint32_t host_key(float value, int32_t flip)
{
    uint32_t b;
    memcpy(&b, &value, sizeof b);
    if ((b & 0x7FFFFFFFu) > 0x7F800000u)
        return 0xFFFFFFFFu ^ (uint32_t)flip;
    if (b == 0x80000000u)
        b = 0;
    return ((b & 0x80000000u) ? ~b : (b | 0x80000000u)) ^ (uint32_t)flip;
}

typedef struct candidate {
    uint32_t key;
    int32_t index;
    float value;
} candidate;

static int before(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Keeps in c[0..k) the k candidates that come first (key descending, ties by lower index), in order.
 * Sorting all `count` costs count log count on the host, and on small inputs (fewer tiles than k) the
 * pruner gathers every value: qsort of 16,384 candidates for k = 512 was most of the call. So where
 * many more than k were gathered, the k-th key is found first by kth_largest's histograms (linear),
 * the candidates above it and the first of its ties (by index) are kept, and only those k are sorted. */
static gpuc_status keep_first(gpuc *gpu, candidate *c, size_t count, size_t k)
{
    if (count > 2 * k) {
        uint32_t *keys = malloc(count * sizeof *keys);
        if (!keys)
            return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
        for (size_t j = 0; j < count; j++)
            keys[j] = c[j].key;
        uint32_t kth = 0;
        gpuc_status st = kth_largest(gpu, keys, count, k, &kth);
        free(keys);
        if (st != GPUC_OK)
            return st;
        size_t above = 0, ties = 0; /* the keys above kth move to the front; its ties follow them */
        for (size_t j = 0; j < count; j++)
            if (c[j].key > kth) {
                candidate t = c[above];
                c[above++] = c[j];
                c[j] = t;
            }
        for (size_t j = above; j < count; j++)
            if (c[j].key == kth) {
                candidate t = c[above + ties];
                c[above + ties++] = c[j];
                c[j] = t;
            }
        /* above < k <= above + ties (kth is the k-th key); the ties are kept in index order */
        qsort(c + above, ties, sizeof *c, before);
        count = k;
    }
    qsort(c, count, sizeof *c, before);
    return GPUC_OK;
}

/* The first k of the `count` candidates c (freed here) into the result arrays. */
static gpuc_status deliver(gpuc *gpu, candidate *c, size_t count, size_t k, float *values, int32_t *indices)
{
    gpuc_status st = keep_first(gpu, c, count, k);
    for (size_t j = 0; j < k && st == GPUC_OK; j++) {
        values[j] = c[j].value;
        indices[j] = c[j].index;
    }
    free(c);
    return st;
}

/* Fewer tiles than k, even of TILE_MIN values: the k-th tile maximum does not exist, so no tile can be
 * pruned, and the gather would fetch every value (16 bytes each, after a tile pass and a count pass,
 * each read back). So the values themselves are the candidates: the caller's host data as given, or
 * the device array read (its host copy when it has one), ordered on the host as gathered ones are. */
static gpuc_status order_every_value(gpuc *gpu, const topk_input *in, size_t k, int32_t flip, float *values,
                                     int32_t *indices)
{
    size_t n = in->n;
    float *read = in->host ? NULL : malloc(n * sizeof *read);
    candidate *c = malloc(n * sizeof *c);
    gpuc_status st = c && (in->host || read) ? GPUC_OK
                                             : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    if (st == GPUC_OK && read)
        st = gpuc_array_read_f32(in->array, read, n);
    const float *v = in->host ? in->host : read;
    for (size_t j = 0; j < n && st == GPUC_OK; j++)
        c[j] = (candidate){.key = host_key(v[j], flip), .index = (int32_t)j, .value = v[j]};
    free(read);
    if (st != GPUC_OK) {
        free(c);
        return st;
    }
    return deliver(gpu, c, n, k, values, indices);
}

/* Orders the gathered cells and keeps the first k. */
static gpuc_status order(gpuc *gpu, const float *cells, size_t count, size_t k, int32_t flip, float *values,
                         int32_t *indices)
{
    if (count < k)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_topk: the pruned gather found %zu values for k = %zu (a bug in gpuc)", count, k);
    candidate *c = malloc(count * sizeof *c);
    if (!c)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    for (size_t j = 0; j < count; j++) {
        const float *cell = cells + 4 * j;
        c[j] = (candidate){.key = host_key(cell[0], flip), .index = (int32_t)cell[1] * 65536 + (int32_t)cell[2],
                           .value = cell[0]};
        if (cell[3] != 1.0f) {
            free(c);
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "gpuc_topk: the pruned gather lost survivor %zu of %zu (a bug in gpuc)", j, count);
        }
    }
    return deliver(gpu, c, count, k, values, indices);
}

gpuc_status topk_prune(gpuc *gpu, topk_input *in, size_t k, int32_t flip, float *values, int32_t *indices)
{
    if ((in->n + TILE_MIN - 1) / TILE_MIN < k)
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
        st = kth_largest(gpu, p.max, p.tiles, k, &bound);
    int64_t at_bound = 0;
    if (st == GPUC_OK)
        st = group_counts(&p, bound, UINT32_MAX, &at_bound);
    survivors s = {0};
    if (st == GPUC_OK)
        st = choose_survivors(&p, k, bound, at_bound, top, &s);
    float *cells = NULL;
    size_t count = 0;
    if (st == GPUC_OK)
        st = gather(&p, &s, &cells, &count);
    if (st == GPUC_OK)
        st = order(gpu, cells, count, k, flip, values, indices);
    free(cells);
    pruner_free(&p);
    return st;
}
