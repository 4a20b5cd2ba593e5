/* scan.h - the prefix sum that compaction shares with gpuc_scan. */
#ifndef GPUC_ALGO_SCAN_H
#define GPUC_ALGO_SCAN_H

#include "algo/algo_common.h"

/* Prefix sum of the n float or int values of device array `values` into a new array *prefix of
 * the same type (exclusive, or inclusive when `inclusive`). Multi-level: block sums (of 4 values at
 * the bottom, 16 above), level upon level until one block remains, then each level's blocks are
 * offset by the scan of the level above. O(n) work, about 2 log16(n) + 2 passes. */
gpuc_status scan_device(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n, bool inclusive,
                        gpuc_array **prefix);

#endif
