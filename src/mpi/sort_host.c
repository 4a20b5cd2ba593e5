/* sort_host.c - samples, splitters, cuts and the merge of the distributed sample sort (sort_host.h). */
#include "sort_host.h"

#include <stdlib.h>
#include <string.h>

void mpi_sort_pick_samples(sort_order o, const uint32_t *run, size_t n, uint64_t offset, int p, sort_sample *out)
{
    for (int i = 0; i < p; i++) {
        if (n == 0) {
            out[i] = (sort_sample){SORT_NO_SAMPLE, SORT_NO_SAMPLE};
            continue;
        }
        size_t at = (size_t)((uint64_t)i * n / (uint64_t)p);
        out[i] = (sort_sample){sort_order_key(o, run[at]), offset + at};
    }
}

static int compare_samples(const void *pa, const void *pb)
{
    const sort_sample *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

size_t mpi_sort_order_samples(sort_sample *samples, size_t count)
{
    size_t valid = 0;
    for (size_t i = 0; i < count; i++)
        if (samples[i].key != SORT_NO_SAMPLE)
            samples[valid++] = samples[i];
    qsort(samples, valid, sizeof *samples, compare_samples);
    return valid;
}

/* The first position in run[lo, hi) whose order key is >= key (upper: > key). */
static size_t bound(sort_order o, const uint32_t *run, size_t lo, size_t hi, uint64_t key, bool upper)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k = sort_order_key(o, run[mid]);
        if (upper ? k <= key : k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* count_below over run[from, n): positions before `from` are known to come before s. */
static size_t below_from(sort_order o, const uint32_t *run, size_t from, size_t n, uint64_t offset, sort_sample s)
{
    /* Equal keys sit at [first, last) with indices offset + first, ...: those below s.index come
     * before s. */
    size_t first = bound(o, run, from, n, s.key, false);
    size_t last = bound(o, run, first, n, s.key, true);
    return s.index <= offset + first ? first : s.index >= offset + last ? last : (size_t)(s.index - offset);
}

uint64_t mpi_sort_count_below(sort_order o, const uint32_t *run, size_t n, uint64_t offset, sort_sample s)
{
    return below_from(o, run, 0, n, offset, s);
}

void mpi_sort_choose_splitters(const sort_sample *samples, const uint64_t *place, size_t count, uint64_t total, int p,
                           sort_sample *splitters, uint64_t *bounds)
{
    bounds[0] = 0;
    bounds[p] = total;
    size_t s = 0;
    for (int j = 0; j < p - 1; j++) {
        uint64_t target = (uint64_t)(j + 1) * total / (uint64_t)p; /* total <= p * 2^30: no overflow */
        /* places only grow along the samples, and so do the targets: move on while the next sample is
         * strictly nearer */
        while (s + 1 < count && place[s + 1] <= target)
            s++;
        if (s + 1 < count && place[s] < target && place[s + 1] - target < target - place[s])
            s++;
        splitters[j] = samples[s];
        bounds[j + 1] = place[s];
    }
}

void mpi_sort_cut(sort_order o, const uint32_t *run, size_t n, uint64_t offset, const sort_sample *splitters, int p,
              int *counts)
{
    size_t previous = 0;
    for (int j = 0; j < p; j++) {
        size_t cut = j < p - 1 ? below_from(o, run, previous, n, offset, splitters[j]) : n;
        counts[j] = (int)(cut - previous);
        previous = cut;
    }
}

/* Merges run a then run b (adjacent in the source) into out, ties to a. */
static void merge_two(sort_order o, const uint32_t *ka, const uint32_t *va, size_t na, size_t nb, uint32_t *kout,
                      uint32_t *vout)
{
    const uint32_t *kb = ka + na, *vb = va ? va + na : NULL;
    size_t i = 0, j = 0, t = 0;
    while (i < na && j < nb) {
        bool take_b = sort_order_key(o, kb[j]) < sort_order_key(o, ka[i]);
        if (take_b) {
            kout[t] = kb[j];
            if (vout)
                vout[t] = vb[j];
            j++;
        } else {
            kout[t] = ka[i];
            if (vout)
                vout[t] = va[i];
            i++;
        }
        t++;
    }
    memcpy(kout + t, ka + i, (na - i) * sizeof *kout);
    memcpy(kout + t + (na - i), kb + j, (nb - j) * sizeof *kout);
    if (vout) {
        memcpy(vout + t, va + i, (na - i) * sizeof *vout);
        memcpy(vout + t + (na - i), vb + j, (nb - j) * sizeof *vout);
    }
}

bool mpi_sort_merge_runs(sort_order o, uint32_t **keys, uint32_t **values, size_t n, const int *counts, int p)
{
    /* Runs merge pairwise, neighbour with neighbour, so a tie always meets the lower rank's run on its
     * left: O(n log p) moves, one scratch buffer each for keys and values. */
    int nonempty = 0;
    for (int r = 0; r < p; r++)
        nonempty += counts[r] > 0;
    if (nonempty < 2)
        return true;
    size_t *starts = malloc(sizeof *starts * ((size_t)p + 1));
    uint32_t *kt = malloc(n * sizeof *kt), *vt = values ? malloc(n * sizeof *vt) : NULL;
    if (!starts || !kt || (values && !vt)) {
        free(starts);
        free(kt);
        free(vt);
        return false;
    }
    int runs = 0;
    size_t at = 0;
    for (int r = 0; r < p; r++)
        if (counts[r] > 0) {
            starts[runs++] = at;
            at += (size_t)counts[r];
        }
    starts[runs] = n;
    uint32_t *ks = *keys, *vs = values ? *values : NULL;
    while (runs > 1) {
        int merged = 0;
        for (int r = 0; r < runs; r += 2) {
            size_t s = starts[r];
            if (r + 1 < runs) { /* r + 2 <= runs: starts[r + 2] is the next run's start, or n */
                size_t mid = starts[r + 1], e = starts[r + 2];
                merge_two(o, ks + s, vs ? vs + s : NULL, mid - s, e - mid, kt + s, vt ? vt + s : NULL);
            } else {
                size_t e = starts[r + 1];
                memcpy(kt + s, ks + s, (e - s) * sizeof *kt);
                if (vt)
                    memcpy(vt + s, vs + s, (e - s) * sizeof *vt);
            }
            starts[merged++] = s;
        }
        starts[merged] = n;
        runs = merged;
        uint32_t *swap = ks;
        ks = kt;
        kt = swap;
        swap = vs;
        vs = vt;
        vt = swap;
    }
    *keys = ks;
    if (values)
        *values = vs;
    free(kt);
    free(vt);
    free(starts);
    return true;
}
