/* local_parts.h - what the top-k, compaction and scan cases share: global data sets that every rank
 * generates whole (so each can run the single-device call and a plain C oracle on all of it) and this
 * rank's slice of them as a gpuc_arg, host or device. */
#ifndef GPUC_MPI_LOCAL_PARTS_H
#define GPUC_MPI_LOCAL_PARTS_H

#include "worker.h"

/* Global float data sets of n values. */
typedef enum data_kind {
    DATA_PLAIN,   /* worker_value: distinct-ish floats in [0, 1) */
    DATA_SPECIAL, /* NaNs (both signs, several payloads), -0.0, +0.0, +-inf, and many ties */
    DATA_TIES     /* every value 1.0: the order is the global index alone */
} data_kind;

float *data_floats(data_kind kind, size_t n, uint32_t seed);
/* Ints in [-bound, bound) from worker_value. */
int32_t *data_ints(size_t n, uint32_t seed, int32_t bound);

/* This rank's slice [lo, hi) of n (worker_slice) of the global data `all` (floats or ints), as host data
 * or, when device is set and the slice is not empty, as a device array of wgpu left in *owned (free it
 * after the call; NULL otherwise). An empty slice is host data with dims.x == 0 and a NULL pointer. */
gpuc_arg local_part(const void *all, bool is_int, size_t n, bool device, gpuc_array **owned, uint64_t *lo,
                    uint64_t *hi);

/* A part that passes every check made before the device work and fails in it: a device array of 3
 * values made in a second context (*other, opened here; gpuc_close it after the call), which the
 * rank's own context refuses. On failure to open one, a check fails and an ordinary host part of the
 * same type comes back. */
gpuc_arg foreign_part(bool is_int, gpuc **other, gpuc_array **array);

/* Bits of a float, for exact comparisons (NaN payloads and -0.0 included). */
uint32_t float_bits(float v);
float float_of_bits(uint32_t bits);

#endif
