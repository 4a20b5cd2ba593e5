/* sort_host.c - samples, splitters, cuts and the merge of the distributed sample sort (sort_host.h). */
#include "sort_host.h"

#include <stdlib.h>
#include <string.h>

void sort_pick_samples(sort_order o, const uint32_t *run, size_t n, uint64_t offset, int p, sort_sample *out)
{
    for (int i = 0; i < p - 1; i++) {
        if (n == 0) {
            out[i] = (sort_sample){SORT_NO_SAMPLE, SORT_NO_SAMPLE, 0};
            continue;
        }
        size_t at = (size_t)((uint64_t)(i + 1) * n / (uint64_t)p);
        out[i] = (sort_sample){sort_order_key(o, run[at]), offset + at, n};
    }
}

static int compare_samples(const void *pa, const void *pb)
{
    const sort_sample *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

void sort_choose_splitters(sort_sample *all, uint64_t total, int p, sort_sample *splitters)
{
    /* The weights are kept whole: a sample weighs its run's size (p times the elements it stands for),
     * the samples weigh (p - 1) * total in all, and splitter j is due at (j + 1) * total, so the last
     * one is reached at the last sample. (p - 1) * total stays far below 2^64: total <= p * 2^30 keys
     * (gpuc_sort sorts at most 2^30 per rank). */
    size_t count = 0;
    for (size_t i = 0; i < (size_t)(p - 1) * (size_t)p; i++)
        if (all[i].key != SORT_NO_SAMPLE)
            all[count++] = all[i];
    qsort(all, count, sizeof *all, compare_samples);
    uint64_t sum = 0;
    int j = 0;
    for (size_t i = 0; i < count && j < p - 1; i++) {
        sum += all[i].weight;
        while (j < p - 1 && sum >= (uint64_t)(j + 1) * total)
            splitters[j++] = all[i];
    }
    while (j < p - 1 && count > 0) /* unreachable while the weights add up; keeps every splitter defined */
        splitters[j++] = all[count - 1];
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

void sort_cut(sort_order o, const uint32_t *run, size_t n, uint64_t offset, const sort_sample *splitters, int p,
              int *counts)
{
    size_t previous = 0;
    for (int j = 0; j < p; j++) {
        size_t cut = n;
        if (j < p - 1) {
            /* Below splitter j: a smaller key, or its key at a lower index. Equal keys sit at
             * [first, last) with indices offset + first ...; those below splitters[j].index go. */
            size_t first = bound(o, run, previous, n, splitters[j].key, false);
            size_t last = bound(o, run, first, n, splitters[j].key, true);
            uint64_t index = splitters[j].index;
            cut = index <= offset + first ? first : index >= offset + last ? last : (size_t)(index - offset);
        }
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

bool sort_merge_runs(sort_order o, uint32_t **keys, uint32_t **values, size_t n, const int *counts, int p)
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
