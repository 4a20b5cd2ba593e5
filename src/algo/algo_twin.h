/* algo_twin.h - a small algorithm call of a default-threads context runs whole on the context's
 * calling-thread twin (algo_twin.c says why and when). A driver's public function, its arguments
 * checked on the context:
 *
 *     algo_twin_call call;
 *     if (algo_twin_begin(gpu, algo_twin_shape(ALGO_TWIN_SCAN, n, parts, 2), n, &values, 1, &call)) {
 *         gpuc_array *t = NULL;
 *         gpuc_status st = gpuc_scan(call.twin, call.args[0], desc, &t);
 *         st = algo_twin_end(&call, st, &t, (gpuc_array **const[]){prefix}, 1);
 *         if (st == GPUC_OK || !call.retry)
 *             return st;
 *     }
 *     ... the context's own path ...
 */
#ifndef GPUC_ALGO_TWIN_H
#define GPUC_ALGO_TWIN_H

#include "algo/algo_common.h"

/* The algorithms, told apart in a call's shape. */
typedef enum algo_twin_family { ALGO_TWIN_SORT = 1, ALGO_TWIN_SCAN, ALGO_TWIN_COMPACT } algo_twin_family;

/* A call's shape for the warm-up: the family, the power of two at or above n, and `nparts` numbers
 * the driver gives for what else selects its kernels (types, methods, flags, a predicate's hash). Calls
 * of one shape use the same kernels; a shape goes to the twin from its ALGO_TWIN_WARMUP + 1st call. */
uint64_t algo_twin_shape(algo_twin_family family, size_t n, const uint64_t *parts, int nparts);

/* Most result arrays one call hands out (gpuc_sort_pairs: keys and values; gpuc_argsort: 2). */
#define ALGO_TWIN_MAX_RESULTS 3
/* Most array arguments of one call (gpuc_sort_pairs: keys and values). */
#define ALGO_TWIN_MAX_ARGS 2

typedef struct algo_twin_call {
    gpuc *gpu, *twin;
    /* The call's array arguments as the twin takes them: host data as given, a device array as its
     * host copy (the context's arguments are left as they are, for a retry there). */
    gpuc_arg args[ALGO_TWIN_MAX_ARGS];
    gpuc_twin_copies copies; /* those host copies' uploads, left out of the context's counts */
    gpuc_stats was; /* the twin's counts before the call */
    bool retry;     /* set by algo_twin_end: the call may run again on the context (which is current) */
} algo_twin_call;

/* Whether this call of `shape` over n elements goes to the twin: every array argument args[0..nargs)
 * (at most ALGO_TWIN_MAX_ARGS) host data or a device array whose values the host holds too (its host
 * copy valid; other device arrays keep the context's path), a context of llvmpipe's default threads
 * (gpuc.small_calls), not profiling or tracing, n within the bound, past the shape's warm-up (counted
 * only for calls that could go), and the twin open. Then call->args are the arguments to give the
 * twin. The context stays current. */
bool algo_twin_begin(gpuc *gpu, uint64_t shape, size_t n, const gpuc_arg *args, int nargs, algo_twin_call *call);

/* Ends a call made on call->twin that returned st with results[0..n) (its arrays; NULL where none):
 * on success each becomes a new array of the context in *outs[i] (keeping its values as its host copy),
 * the twin's counts of the call are added to the context's, and GPUC_OK is returned. Otherwise
 * nothing is handed out and a failure is returned; with call->retry the context is current and the
 * caller runs the call there (whose path then gives any error); without it (EGL would not make the
 * context current again) the caller returns the failure. The twin's arrays are freed either way. */
gpuc_status algo_twin_end(algo_twin_call *call, gpuc_status st, gpuc_array *const *results, gpuc_array **const *outs,
                          int nresults);

#endif
