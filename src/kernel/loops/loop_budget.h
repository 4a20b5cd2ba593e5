/* loop_budget.h - how many loop iterations one invocation of a kernel runs, as far as its source
 * tells: a lower bound (to refuse a kernel that must exceed llvmpipe's budget at creation) and an
 * upper bound (a kernel that cannot exceed it needs no run-time guard), and how deeply its loops
 * nest once helper calls are inlined (Mesa's compiler slows exponentially with nesting). Loops whose
 * trips loop_trips.h cannot count (while and do-while loops among them, and every loop of a source
 * whose preprocessing the reader does not follow: source_unfollowed) have no upper bound and count
 * zero towards the lower one. */
#ifndef GPUC_LOOP_BUDGET_H
#define GPUC_LOOP_BUDGET_H

#include "kernel/loops/loop_trips.h"

#include <stddef.h>
#include <stdint.h>

/* Loops nested deeper than this (helpers' loops counted at their call sites) are refused: Mesa's
 * compiler takes seconds and gigabytes from about 16 levels on. */
#define LOOP_NESTING_MAX 12

/* The upper bound of a kernel whose loops are not all counted. */
#define LOOP_UNBOUNDED INT64_MAX

typedef struct loop_bounds {
    int64_t at_least;     /* iterations every invocation runs, at least */
    int64_t at_most;      /* iterations any invocation may run, or LOOP_UNBOUNDED */
    int largest_loop;     /* the loop behind most of at_least (-1 when at_least is 0) */
    int nesting;          /* the deepest nest of loops, calls inlined */
    int deepest_loop;     /* the innermost loop of that nest (in the function that holds it), or -1 */
} loop_bounds;

/* The bounds of function `kernel` of the scan (calls into the other functions included). */
loop_bounds loop_budget_bounds(const char *src, const char *mask, const loop_scan *scan, int kernel,
                               const loop_constant *constants, int nconstants);

#endif
