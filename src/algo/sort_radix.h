/* sort_radix.h - what the sort entry points (sort.c) share with the radix method (sort_radix.c): the
 * outputs a call asks for, and the radix sort that fills them. */
#ifndef GPUC_ALGO_SORT_RADIX_H
#define GPUC_ALGO_SORT_RADIX_H

#include "algo/algo_common.h"

/* The embedded kernel source of glsl/sort_radix.glsl. */
extern const char gpuc_glsl_sort_radix[];

/* The outputs one call asks for; NULL ones are skipped. */
typedef struct sort_outputs {
    gpuc_array **keys, **indices, **values;
} sort_outputs;

/* Hands the arrays a sort made to the slots `want` names when st is GPUC_OK (an array whose slot is
 * NULL was not asked for, and is freed), else frees them all. Returns st. (sort.c) */
gpuc_status sort_outputs_deliver(gpuc_status st, sort_outputs want, gpuc_array *keys, gpuc_array *indices,
                                 gpuc_array *values);

/* What one radix sort sorts: n keys of keys.type (checked), their direction, whether (key, index)
 * pairs travel (argsort, sort_pairs), and the payload that follows the keys (NULL for none). */
typedef struct radix_request {
    const char *fn;          /* the public call, for messages */
    gpuc_arg keys;
    algo_input in;
    bool descending;
    bool pairs;
    const gpuc_arg *values;
    gpuc_type value_type;
} radix_request;

/* Whether the radix method can run here: compute backend, and one pass's output (n keys, or n pairs)
 * fits one storage binding (its scatter writes anywhere in it). */
bool radix_available(const gpuc *gpu, uint32_t n, bool pairs);

/* Sorts by the radix method into the wanted outputs (new arrays; on failure none is made). The caller
 * has checked that radix_available holds; the message of a failure names req->fn. */
gpuc_status radix_sort(gpuc *gpu, const radix_request *req, sort_outputs want);

#endif
