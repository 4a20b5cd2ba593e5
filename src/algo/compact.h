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

/* A kernel made of sections of glsl/compact.glsl filled with `fields` (key, value, ..., NULL; the
 * element type $T is added), pipelined, with the given output and options. */
gpuc_status compact_kernel(gpuc *gpu, gpuc_type type, const char *const *sections, const char *const *fields,
                           gpuc_kernel_desc desc, gpuc_kernel **k);

#endif
