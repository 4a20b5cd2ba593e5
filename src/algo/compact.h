/* compact.h - what the files of stream compaction share: counting the survivors (compact_count.c: the
 * predicate evaluated once into block masks, their bits counted and scanned) and placing them
 * (compact_place.c: the gather and the scatter). gpuc_compact and compact_kernel are in compact.c. */
#ifndef GPUC_ALGO_COMPACT_H
#define GPUC_ALGO_COMPACT_H

#include "algo/algo_common.h"

/* Elements per block: one int's bits in the masks (glsl/compact.glsl). */
#define COMPACT_BLOCK 32

/* Which elements survive, on the device. */
typedef struct compact_survivors {
    gpuc_type type;       /* of the values */
    uint32_t n;           /* values */
    uint32_t blocks;      /* of COMPACT_BLOCK elements */
    uint32_t count;       /* survivors (read back) */
    gpuc_array *masks;    /* int per block: bit j set when element COMPACT_BLOCK * block + j survives */
    gpuc_array *before;   /* int per block: the survivors in the blocks before it */
} compact_survivors;

/* Evaluates the predicate of desc (a comparison with a threshold, or a user predicate kernel) once per
 * element of `values` (n of type `type`), and fills *s; reads back one number, the count. On failure
 * *s holds nothing to free. */
gpuc_status compact_count(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n,
                          const gpuc_compact_desc *desc, compact_survivors *s);

/* Frees what compact_count made. */
void compact_survivors_free(compact_survivors *s);

/* Places the survivors of `values` in order into a new array *packed of `cells` cells (the count, or
 * n for a full-length output, zeros after the survivors), by desc->method. cells > 0. */
gpuc_status compact_place(gpuc *gpu, const gpuc_array *values, gpuc_compact_method method,
                          const compact_survivors *s, uint32_t cells, gpuc_array **packed);

/* Whether this compaction runs on the host (compact_host.c): a threshold comparison (no predicate) of
 * at most 65,536 values (n) that the host holds (host data, or a device array's host copy:
 * gpuc_array_host_view), in a context on the software device profile (gpu->host_small_calls: the
 * measured case; on a GPU the device's path stays), not profiling or tracing (whose reports are of the
 * device's work). Then *data is those values. `values` has passed algo_check_input. */
bool compact_host_takes(const gpuc *gpu, gpuc_arg values, uint32_t n, const gpuc_compact_desc *desc,
                        const void **data);

/* The compaction of `data` (in.n values of in.type) by desc's comparison, with the device path's
 * results: *packed a new array of the context holding them in host memory until its first use on the
 * device (algo_host_result), NULL when nothing is kept and not .full_length; *count the survivors. */
gpuc_status compact_on_host(gpuc *gpu, const void *data, algo_input in, const gpuc_compact_desc *desc,
                            gpuc_array **packed, size_t *count);

/* A kernel made of sections of glsl/compact.glsl filled with `fields` (key, value, ..., NULL; the
 * element type $T is added), pipelined, with the given output and options. */
gpuc_status compact_kernel(gpuc *gpu, gpuc_type type, const char *const *sections, const char *const *fields,
                           gpuc_kernel_desc desc, gpuc_kernel **k);

#endif
