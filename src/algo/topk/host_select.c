/* host_select.c - gpuc_topk's work on the host (k <= 32,768): the k first of some keyed values in topk
 * order (key descending, ties by the lower index), in time linear in their count: the values the
 * pruned path gathered, or every value of a small input. The k-th key is
 * found by three histograms of 11, 11 and 10 bits (2,048 buckets, 8 KB: in the L1 cache), the values
 * above it and the first of its ties are taken, and only those k are sorted (a radix sort). Where all
 * the values come to the host (small inputs), a bound from a sample of their keys first keeps about
 * 1.4k of them. Histograms of 65,536 buckets (256 KB to clear at each level), a candidate record per
 * value and a qsort had been 0.2 ms of a 16,384-value call, more than a C heap's whole pass; the loops
 * over every value are branch-free, as a branch taken for a few percent of random values mispredicts
 * often enough to cost 5x the loop (docs/performance/topk.md, "The host's part"), but for the sparse
 * filter's one branch per block of 16 values, which most blocks take the same way. */
#include "algo/topk/parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 2048

gpuc_status topk_kth_key(gpuc *gpu, const uint32_t *keys, size_t m, size_t k, uint32_t *kth)
{
    /* Levels: bits 31..21, 20..10, 9..0. After each level the keys that share the prefix found so far
     * are copied out (branch-free), and only they are counted at the next; k counts down the keys of
     * the buckets above the one that holds the k-th. */
    static const int shift[3] = {21, 10, 0}, width[3] = {11, 11, 10};
    uint32_t *kept_keys = malloc(m * sizeof *kept_keys);
    if (!kept_keys)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for %zu keys", m);
    uint32_t hist[BUCKETS];
    uint32_t prefix = 0;
    const uint32_t *at = keys;
    for (int level = 0; level < 3; level++) {
        memset(hist, 0, sizeof hist);
        uint32_t mask = (UINT32_C(1) << width[level]) - 1;
        for (size_t i = 0; i < m; i++)
            hist[at[i] >> shift[level] & mask]++;
        uint32_t bucket = mask;
        while (hist[bucket] < k) /* k stays >= 1, and the buckets hold at least k keys in all */
            k -= hist[bucket--];
        prefix |= bucket << shift[level];
        if (level < 2) { /* the keys of that bucket: slot c is free to write, c <= i */
            size_t c = 0;
            for (size_t i = 0; i < m; i++) {
                kept_keys[c] = at[i];
                c += (at[i] >> shift[level] & mask) == bucket;
            }
            at = kept_keys;
            m = c;
        }
    }
    free(kept_keys);
    *kth = prefix;
    return GPUC_OK;
}

/* A kept value's sort record. */
typedef struct kept {
    uint32_t key;
    int32_t index;
    float value;
} kept;

/* A stable LSD radix sort of n >= 1 records by key descending, 8 bits a pass; tmp holds n records. */
static void sort_by_key(kept *a, kept *tmp, size_t n)
{
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(~a[i].key >> shift & 0xFF) + 1]++;
        if (count[(~a[0].key >> shift & 0xFF) + 1] == n)
            continue; /* every record has this byte alike: the pass would not move one */
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[~a[i].key >> shift & 0xFF]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

gpuc_status topk_host_first(gpuc *gpu, const uint32_t *keys, const float *values, const int32_t *indices,
                            size_t count, size_t k, float *values_out, int32_t *indices_out)
{
    if (count < k || k == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk: %zu candidates for k = %zu (a bug in gpuc)",
                         count, k);
    uint32_t kth = 0;
    gpuc_status st = topk_kth_key(gpu, keys, count, k, &kth);
    kept *first = st == GPUC_OK ? malloc(2 * k * sizeof *first) : NULL;
    if (st == GPUC_OK && !first)
        st = gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for %zu results", k);
    if (st != GPUC_OK)
        return st;
    /* The keys above the k-th (fewer than k), stored branch-free: a slot is written for every candidate
     * and kept for those above. Then the first ties of the k-th key, as many as the k need. The
     * candidates come in index order, so both are too, and a stable sort by key alone leaves ties in
     * index order; the order is checked on the way, as the results depend on it. */
    size_t above = 0;
    bool ascending = true;
    int32_t last = -1;
    for (size_t j = 0; j < count; j++) {
        int32_t index = indices ? indices[j] : (int32_t)j;
        ascending &= index > last;
        last = index;
        first[above < k ? above : k - 1] = (kept){keys[j], index, values[j]};
        above += keys[j] > kth;
    }
    for (size_t j = 0, taken = above; j < count && taken < k; j++) /* kth is the k-th key: enough ties */
        if (keys[j] == kth)
            first[taken++] = (kept){kth, indices ? indices[j] : (int32_t)j, values[j]};
    if (!ascending)
        st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                       "gpuc_topk: the host's candidates are not in index order (a bug in gpuc)");
    if (st == GPUC_OK) {
        sort_by_key(first, first + k, k);
        for (size_t j = 0; j < k; j++) {
            values_out[j] = first[j].value;
            indices_out[j] = first[j].index;
        }
    }
    free(first);
    return st;
}

/* Sampled keys: one in every k / SAMPLED_ABOVE (8 for k < 128), so that about that many of them lie
 * above the k-th key; the bound is that many plus three standard deviations down the sample, so that it
 * rarely leaves fewer than k. */
#define SAMPLED_ABOVE 64

/* The float whose key (topk_host_key) is `key`, which is not NaN's: the keys are order-preserving. */
static float value_of_key(uint32_t key, int32_t flip)
{
    key ^= (uint32_t)flip;
    uint32_t b = (key & 0x80000000u) ? key & 0x7FFFFFFFu : ~key;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Whether v's key reaches the key of t (largest first: v >= t, and every NaN, whose key is the
 * largest: !(v < t); smallest first: v <= t, a NaN's key being the smallest). -0 and +0 compare equal,
 * as their keys do. */
static inline int reaches(float v, float t, bool largest)
{
    return largest ? !(v < t) : v <= t;
}

/* Values tested together by filter_reaching, and how sparse the candidates must be expected for that
 * to pay (at most 1 in FILTER_SPARSE: then most blocks hold none; at 4,096 values and k = 512 about 1
 * in 6 reach the bound, every block holds one, and the blocks' test only costs). */
#define FILTER_BLOCK 16
#define FILTER_SPARSE 32

/* The positions j < n of the values that reach t, in index order, into at[] (n slots); how many.
 * Branch-free (c <= j: slot c is free to write). With `blocks`, a block's values are tested first,
 * their comparisons or-ed (no branch, which the compiler vectorises), and only a block holding one is
 * gone through: a slot written for every value costs more than the comparisons (65,536 values, k =
 * 512: docs/performance/topk.md, "The host's part"). */
static inline size_t filter_reaching(const float *values, size_t n, float t, bool largest, bool blocks, int32_t *at)
{
    size_t c = 0, j = 0;
    for (; blocks && j + FILTER_BLOCK <= n; j += FILTER_BLOCK) {
        int any = 0;
        for (int q = 0; q < FILTER_BLOCK; q++)
            any |= reaches(values[j + q], t, largest);
        if (!any)
            continue;
        for (int q = 0; q < FILTER_BLOCK; q++) {
            at[c] = (int32_t)(j + (size_t)q);
            c += (size_t)reaches(values[j + q], t, largest);
        }
    }
    for (; j < n; j++) {
        at[c] = (int32_t)j;
        c += (size_t)reaches(values[j], t, largest);
    }
    return c;
}

/* The positions of the values whose keys reach a bound from a sample, in index order, into at[] (n
 * slots); how many, or 0 where no sample is taken (k < 16, or the bound is NaN's key). */
static gpuc_status reaching_sampled_bound(gpuc *gpu, const float *values, size_t n, size_t k, int32_t flip,
                                          uint32_t *sample, int32_t *at, size_t *count)
{
    size_t stride = k / (k >= 2 * SAMPLED_ABOVE ? SAMPLED_ABOVE : 8), m = stride > 1 ? n / stride : 0;
    *count = 0;
    if (m == 0)
        return GPUC_OK;
    for (size_t i = 0; i < m; i++)
        sample[i] = topk_host_key(values[i * stride], flip);
    double expected = (double)k * (double)m / (double)n;
    size_t rank = (size_t)(expected + 3.0 * sqrt(expected)) + 1;
    uint32_t bound = 0;
    gpuc_status st = topk_kth_key(gpu, sample, m, rank < m ? rank : m, &bound);
    if (st != GPUC_OK || bound == (0xFFFFFFFFu ^ (uint32_t)flip))
        return st; /* NaN's key (the largest for flip 0, the smallest for -1): no float to compare with */
    /* key(v) >= bound as a float comparison (reaches). Whatever t is, the values kept are all those of
     * keys from some key up, which is all the caller relies on. */
    float t = value_of_key(bound, flip);
    bool blocks = (double)rank * (double)stride * FILTER_SPARSE <= (double)n; /* the candidates expected */
    *count = flip == 0 ? filter_reaching(values, n, t, true, blocks, at)
                       : filter_reaching(values, n, t, false, blocks, at);
    return st;
}

gpuc_status topk_host_select(gpuc *gpu, const float *values, size_t n, size_t k, int32_t flip, float *values_out,
                             int32_t *indices_out)
{
    /* the sample's keys, then the candidates' */
    uint32_t *keys = algo_scratch_take(gpu, TOPK_SCRATCH_KEYS, n * sizeof *keys);
    int32_t *at = algo_scratch_take(gpu, TOPK_SCRATCH_AT, n * sizeof *at);
    float *c_values = NULL;
    size_t c = 0;
    gpuc_status st = keys && at
                         ? reaching_sampled_bound(gpu, values, n, k, flip, keys, at, &c)
                         : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for %zu keys", n);
    /* Where at least k keys reach the bound, the k first are among them (the k-th key reaches it), and
     * so are all the k-th key's ties, in index order; else every value is a candidate. */
    if (st == GPUC_OK && c >= k) {
        c_values = malloc(c * sizeof *c_values);
        if (!c_values)
            st = gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory for %zu candidates", c);
        for (size_t i = 0; i < c && st == GPUC_OK; i++) {
            c_values[i] = values[at[i]];
            keys[i] = topk_host_key(c_values[i], flip);
        }
        if (st == GPUC_OK)
            st = topk_host_first(gpu, keys, c_values, at, c, k, values_out, indices_out);
    } else if (st == GPUC_OK) {
        for (size_t j = 0; j < n; j++)
            keys[j] = topk_host_key(values[j], flip);
        st = topk_host_first(gpu, keys, values, NULL, n, k, values_out, indices_out);
    }
    algo_scratch_give(gpu, TOPK_SCRATCH_KEYS, keys);
    free(c_values);
    algo_scratch_give(gpu, TOPK_SCRATCH_AT, at);
    return st;
}
