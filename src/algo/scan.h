/* scan.h - the prefix sum that compaction and the radix sort share with gpuc_scan. */
#ifndef GPUC_ALGO_SCAN_H
#define GPUC_ALGO_SCAN_H

#include "algo/algo_common.h"

#define SCAN_MAX_LEVELS 10 /* 4 * 16^8 = 2^34 > the largest n */

/* A prefix sum of n values made ready to run (its arrays made once), for a caller that scans
 * several arrays of one length (the radix sort scans its run totals in each of its 8 passes). Level 0
 * is the input; each level above holds the sums of blocks of the level below (4 values at the
 * bottom, 16 above), until a level is short enough to add up in one pass (SCAN_TOP values); then
 * each level's scan is its block's offset (the scan of the level above) plus a short in-block sum.
 * O(n) work, about 2 log16(n / SCAN_TOP) + 1 passes. */
typedef struct scan_plan {
    gpuc_type type;     /* of the values and the sums */
    bool inclusive;     /* out[i] includes values[i] */
    bool bit_counts;    /* the values are int bit masks: sum their bit counts (compaction's blocks) */
    int top;            /* the level summed in one pass */
    uint32_t len[SCAN_MAX_LEVELS];
    gpuc_array *sums[SCAN_MAX_LEVELS];   /* level k >= 1: block sums of level k - 1 */
    gpuc_array *prefix[SCAN_MAX_LEVELS]; /* each level's scan; prefix[0] is the result */
} scan_plan;

/* Makes the plan's arrays for n values of `type` (float or int). On failure nothing is left to free. */
gpuc_status scan_plan_make(gpuc *gpu, gpuc_type type, uint32_t n, bool inclusive, bool bit_counts, scan_plan *plan);

/* Scans `values` (n values of the plan's type) into plan->prefix[0], which the next run overwrites. */
gpuc_status scan_plan_run(gpuc *gpu, scan_plan *plan, const gpuc_array *values);

/* Frees the plan's arrays (prefix[0] too, unless the caller took it and set it NULL). */
void scan_plan_free(scan_plan *plan);

/* Prefix sum of the n values of device array `values` into a new array *prefix of the same type
 * (exclusive, or inclusive when `inclusive`; with bit_counts, of the values' bit counts, int). */
gpuc_status scan_device(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n, bool inclusive,
                        bool bit_counts, gpuc_array **prefix);

#endif
