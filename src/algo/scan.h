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
/* What a scan computes (flags of scan_plan_make and scan_device). */
enum {
    SCAN_INCLUSIVE = 1,  /* out[i] includes values[i] (default exclusive) */
    SCAN_BIT_COUNTS = 2, /* the values are int bit masks: sum their bit counts (compaction's blocks) */
    /* An exclusive scan of at most SCAN_TOP values (one pass) computes one more value, the sum of all,
     * at prefix[0][n]: compaction's count without a pass of its own. Ignored for more values. */
    SCAN_TOTAL = 4
};

#define SCAN_TOP 256 /* the longest level one pass adds up (scan.c) */

typedef struct scan_plan {
    gpuc_type type;     /* of the values and the sums */
    unsigned flags;     /* SCAN_* */
    bool has_total;     /* prefix[0] holds n + 1 values, the last the sum of all (SCAN_TOTAL, n <= SCAN_TOP) */
    int top;            /* the level summed in one pass */
    uint32_t len[SCAN_MAX_LEVELS];
    gpuc_array *sums[SCAN_MAX_LEVELS];   /* level k >= 1: block sums of level k - 1 */
    gpuc_array *prefix[SCAN_MAX_LEVELS]; /* each level's scan; prefix[0] is the result */
} scan_plan;

/* Makes the plan's arrays for n values of `type` (float or int). On failure nothing is left to free. */
gpuc_status scan_plan_make(gpuc *gpu, gpuc_type type, uint32_t n, unsigned flags, scan_plan *plan);

/* Scans `values` (n values of the plan's type) into plan->prefix[0], which the next run overwrites. */
gpuc_status scan_plan_run(gpuc *gpu, scan_plan *plan, const gpuc_array *values);

/* Frees the plan's arrays (prefix[0] too, unless the caller took it and set it NULL). */
void scan_plan_free(scan_plan *plan);

/* Prefix sum of the n values of device array `values` into a new array *prefix of the same type
 * (flags as scan_plan_make's; *has_total, which may be NULL, says whether it holds the sum of all
 * at [n]). */
gpuc_status scan_device(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n, unsigned flags,
                        gpuc_array **prefix, bool *has_total);

#endif
