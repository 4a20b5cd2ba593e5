/* sort_host.h - the host side of the distributed sample sort (src/mpi/sort.c drives it): gpuc_sort's
 * order as unsigned integers, the samples a rank offers, the splitters every rank picks from them,
 * where a sorted run is cut, and the merge of the runs a rank receives. No MPI and no device here.
 *
 * Ties without indices. Every element is placed by (order key, global index), a total order. A rank
 * never needs the true global index of its sorted elements: equal keys in a rank's run sit in their
 * global index order (gpuc_sort_pairs keeps ties in index order; gpuc_sort's equal keys are the same
 * bits, so any order of them is that order), and a lower rank's elements all have lower global
 * indices. So "rank offset + position in the sorted run" orders equal keys exactly as their global
 * indices do, and serves as the index: it is what the samples carry, and in the merge a tie goes to
 * the run from the lower rank. */
#ifndef GPUC_MPI_SORT_HOST_H
#define GPUC_MPI_SORT_HOST_H

#include <gpuc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which order the keys follow. */
typedef struct sort_order {
    gpuc_type type;  /* GPUC_FLOAT or GPUC_INT */
    bool descending;
} sort_order;

/* A key's place in gpuc_sort's order (glsl/sort.glsl's sortKey, made unsigned): a smaller result sorts
 * first. Floats: by value, -0.0 below +0.0, every NaN last in both directions. `word` is the key's
 * 32 bits. */
static inline uint32_t sort_order_key(sort_order o, uint32_t word)
{
    int32_t key;
    if (o.type == GPUC_FLOAT) {
        if ((word & 0x7fffffffu) > 0x7f800000u)
            return 0x7fc00000u ^ 0x80000000u; /* NaN: above every number's key either way */
        key = (int32_t)((word & 0x80000000u) ? word ^ 0x7fffffffu : word);
    } else {
        key = (int32_t)word;
    }
    if (o.descending)
        key = ~key;
    return (uint32_t)key ^ 0x80000000u;
}

/* A sample or a splitter: an element's order key and its index (see above); key SORT_NO_SAMPLE marks
 * the samples an empty rank does not have. Sent as two uint64 words. */
typedef struct sort_sample {
    uint64_t key;
    uint64_t index;
} sort_sample;
#define SORT_NO_SAMPLE UINT64_MAX

/* The p evenly spaced samples of a sorted run of n keys starting at global index `offset`: the
 * elements at positions floor(i * n / p), i < p (the run's first element among them, so that where
 * runs do not interleave, as for sorted input or equal keys, the runs' own boundaries are
 * candidates). An empty run gives p SORT_NO_SAMPLEs. */
void mpi_sort_pick_samples(sort_order o, const uint32_t *run, size_t n, uint64_t offset, int p, sort_sample *out);

/* Drops the missing samples among `count` and sorts the rest by (key, index); returns how many remain. */
size_t mpi_sort_order_samples(sort_sample *samples, size_t count);

/* How many elements of a sorted run (n keys from global index `offset`) come before `s`: those with a
 * smaller key, or its key at a lower index. Summed over the ranks: s's exact place in the global order. */
uint64_t mpi_sort_count_below(sort_order o, const uint32_t *run, size_t n, uint64_t offset, sort_sample s);

/* Picks p - 1 splitters among `count` ordered samples whose exact global places are `place` (sums of
 * mpi_sort_count_below): splitter j is the sample placed nearest to (j + 1) * total / p (the lower on a
 * tie). bounds (p + 1 entries) gets where each slice starts: bounds[0] = 0, bounds[j + 1] = splitter
 * j's place, bounds[p] = total. count must be > 0. The same inputs give the same splitters everywhere. */
void mpi_sort_choose_splitters(const sort_sample *samples, const uint64_t *place, size_t count, uint64_t total, int p,
                           sort_sample *splitters, uint64_t *bounds);

/* Cuts a sorted run (n keys from global index `offset`) at the p - 1 splitters: counts[j] gets the
 * number of its elements at or above splitter j - 1 and below splitter j (the first below splitter 0,
 * the last at or above splitter p - 2). */
void mpi_sort_cut(sort_order o, const uint32_t *run, size_t n, uint64_t offset, const sort_sample *splitters, int p,
              int *counts);

/* Merges p sorted runs held one after another in *keys (counts[r] keys from rank r, n in all), ties to
 * the lower rank's run, the values (may be NULL) following their keys. The result may come back in
 * new buffers (the old ones are freed then). False when memory runs out (the buffers stay as they
 * were). */
bool mpi_sort_merge_runs(sort_order o, uint32_t **keys, uint32_t **values, size_t n, const int *counts, int p);

#endif
