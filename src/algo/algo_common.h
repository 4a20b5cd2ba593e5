/* algo_common.h - what the algorithm drivers (sort, scan, compaction) share: checking a 1D input
 * argument, the context's kept kernels built from sections of an embedded GLSL file, and small
 * device-array helpers.
 * Drivers create and run kernels only through the public kernel API; this just saves repetition. */
#ifndef GPUC_ALGO_COMMON_H
#define GPUC_ALGO_COMMON_H

#include "internal.h"

/* The embedded kernel sources of glsl/sort.glsl and glsl/compact.glsl (scripts/embed-glsl.sh). */
extern const char gpuc_glsl_sort[];
extern const char gpuc_glsl_compact[];

/* Most elements an algorithm takes: element indices and padded sizes must stay GLSL ints. */
#define ALGO_MAX_ELEMENTS ((uint32_t)1 << 30)

/* A checked 1D input: float or int elements, n of them. */
typedef struct algo_input {
    gpuc_type type; /* GPUC_FLOAT or GPUC_INT */
    uint32_t n;
} algo_input;

/* Checks that `arg` is a usable 1D float or int array (device or host) of gpu: not NULL, not empty,
 * within ALGO_MAX_ELEMENTS and the device's array limit. `fn` and `what` name the call and the
 * argument in the message. */
gpuc_status algo_check_input(gpuc *gpu, const char *fn, const char *what, gpuc_arg arg, algo_input *in);

/* The kernel source made of `sections` (NULL-ended) of an embedded GLSL file, each filled with
 * `fields` (key, value, ..., NULL); the caller frees *source. */
gpuc_status algo_source(gpuc *gpu, const char *file, const char *const *sections, const char *const *fields,
                        char **source);

/* Host memory for a driver's work on the host within one public call (host_scratch.c): `bytes` in block
 * `part` (0 .. ALGO_SCRATCH_PARTS - 1; parts a call uses at once differ), the context's kept block where
 * bytes is at most ALGO_SCRATCH_KEPT_BYTES (grown to the largest asked, kept until gpuc_close), else a
 * block of its own. Its contents are undefined. NULL when out of host memory. Every block taken goes
 * back through algo_scratch_give, in any order, before the call returns. */
#define ALGO_SCRATCH_PARTS 3
#define ALGO_SCRATCH_KEPT_BYTES ((size_t)1 << 20)
void *algo_scratch_take(gpuc *gpu, int part, size_t bytes);
void algo_scratch_give(gpuc *gpu, int part, void *block);

/* gpuc_enter for a public algorithm call: every one enters through it first. It also marks a new call
 * for the kept kernels (kernel_cache.c): the previous call holds none of them any more, so the least
 * recently used ones past the cache's bound are freed here. */
gpuc_status algo_enter(gpuc *gpu);

/* The context's kernel of `source` made with `desc` (kernel_cache.c): created on first use, then the
 * same kernel, with desc's output size set (a 1D ordinary kernel serves every size). Borrowed: the
 * context owns it, the caller never frees it; valid until the next algo_kernel_get (which may evict
 * the least recently used kernel) or gpuc_close. Numeric constants only. */
gpuc_status algo_kernel_get(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, gpuc_kernel **out);

/* The context's kernel (algo_kernel_get) made of `sections` (NULL-ended) of an embedded GLSL file,
 * each filled with `fields` (key, value, ..., NULL), with output {cells}, pipelined (results stay on
 * the device). Borrowed, as algo_kernel_get's. */
gpuc_status algo_kernel(gpuc *gpu, const char *file, const char *const *sections, const char *const *fields,
                        uint32_t cells, gpuc_kernel **out);

/* A device array holding `arg`: the argument's own array, or (host data) a new upload of it that
 * *owned receives and the caller frees. Lets several kernels read host data with one upload. */
gpuc_status algo_device_input(gpuc *gpu, gpuc_arg arg, const gpuc_array **array, gpuc_array **owned);

/* A new array of gpu holding `data` (malloc'd, n = gpuc_dims_count(dims) values of `type`, taken:
 * freed on failure too) as its host copy, host-held: no buffer until its first use on the device
 * (gpuc_array_to_device). Most results are read and freed, and a buffer made and filled for each cost
 * a copy per call. Handed out (gpuc_array_handed_out) into *out. */
gpuc_status algo_host_result(gpuc *gpu, void *data, gpuc_type type, gpuc_dims dims, gpuc_array **out);

/* GLSL name of an element type ("float" or "int"). */
const char *algo_glsl_type(gpuc_type type);

#endif
