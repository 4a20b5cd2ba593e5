/* loop_budget.c - see loop_budget.h. Trip counts come from loop_trips.c; the totals walk the loops the
 * scan found, multiplying nested loops and adding the helpers called. */
#include "kernel/loops/loop_budget.h"
#include "kernel/loops/loop_trips.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CAP ((int64_t)1 << 48) /* totals saturate here: only "over the budget" matters */

/* ---- totals ---- */

static int64_t add(int64_t a, int64_t b)
{
    return a >= CAP - b ? CAP : a + b;
}

static int64_t mul(int64_t a, int64_t b)
{
    return a != 0 && b > CAP / a ? CAP : a * b;
}

typedef struct walker {
    const char *mask;
    const loop_scan *scan;
    const loop_constant *constants;
    int nconstants;
    loop_trips *loop_trips; /* per loop */
    int64_t *fn_most;    /* per function, -1 unknown yet, -2 being computed */
    int *fn_nesting;
} walker;

static int64_t function_most(walker *w, int f);
static int64_t function_nesting(walker *w, int f);

/* A call of `name` reaches any of its overloads: the largest of `of` over the functions so named. */
static int64_t largest_over(walker *w, const char *name, int64_t (*of)(walker *, int))
{
    int64_t largest = 0;
    for (int f = 0; f < w->scan->nfunctions; f++)
        if (!strcmp(w->scan->functions[f].name, name)) {
            int64_t v = of(w, f);
            largest = v > largest ? v : largest;
        }
    return largest;
}

/* Iterations of the calls made directly in `loop` (-1: directly in function f, outside loops). */
static int64_t calls_most(walker *w, int f, int loop)
{
    int64_t total = 0;
    for (int c = 0; c < w->scan->ncalls; c++)
        if (w->scan->calls[c].function == f && w->scan->calls[c].loop == loop)
            total = add(total, largest_over(w, w->scan->calls[c].name, function_most));
    return total;
}

/* Most iterations loop l runs, its nested loops and calls included. */
static int64_t loop_most(walker *w, int l)
{
    const loop_site *site = &w->scan->loops[l];
    if (w->loop_trips[l].at_most < 0)
        return CAP;
    int64_t per_iteration = 1 + calls_most(w, site->function, l);
    for (int i = l + 1; i < w->scan->nloops; i++)
        if (w->scan->loops[i].parent == l)
            per_iteration = add(per_iteration, loop_most(w, i));
    /* The test that ends the loop is one more iteration for llvmpipe's counter (its body masked off):
     * one loop of n trips spends n + 1 of the budget, the header's calls run n + 1 times. */
    return add(mul(w->loop_trips[l].at_most, per_iteration), 1 + calls_most(w, site->function, l));
}

static int64_t function_most(walker *w, int f)
{
    if (w->fn_most[f] == -2)
        return CAP; /* recursion (GLSL forbids it; the compiler will say so) */
    if (w->fn_most[f] >= 0)
        return w->fn_most[f];
    w->fn_most[f] = -2;
    int64_t total = calls_most(w, f, -1);
    for (int l = 0; l < w->scan->nloops; l++)
        if (w->scan->loops[l].function == f && w->scan->loops[l].parent < 0)
            total = add(total, loop_most(w, l));
    return w->fn_most[f] = total;
}

/* Iterations loop l surely runs: nested loops count only when they are not in a branch. */
static int64_t loop_least(const walker *w, int l)
{
    int64_t per_iteration = 1;
    for (int i = l + 1; i < w->scan->nloops; i++)
        if (w->scan->loops[i].parent == l && !w->scan->loops[i].in_branch)
            per_iteration = add(per_iteration, loop_least(w, i));
    return mul(w->loop_trips[l].at_least, per_iteration);
}

/* How deeply the loops of loop l nest, l included, calls inlined. */
static int loop_nesting(walker *w, int l, int *innermost)
{
    const loop_site *site = &w->scan->loops[l];
    int deepest = 1;
    *innermost = l;
    for (int c = 0; c < w->scan->ncalls; c++)
        if (w->scan->calls[c].function == site->function && w->scan->calls[c].loop == l) {
            int d = 1 + (int)largest_over(w, w->scan->calls[c].name, function_nesting);
            deepest = d > deepest ? d : deepest;
        }
    for (int i = l + 1; i < w->scan->nloops; i++)
        if (w->scan->loops[i].parent == l) {
            int inner_most, d = 1 + loop_nesting(w, i, &inner_most);
            if (d > deepest) {
                deepest = d;
                *innermost = inner_most;
            }
        }
    return deepest;
}

static int64_t function_nesting(walker *w, int f)
{
    if (w->fn_nesting[f] == -2)
        return 0;
    if (w->fn_nesting[f] >= 0)
        return w->fn_nesting[f];
    w->fn_nesting[f] = -2;
    int deepest = 0, innermost;
    for (int c = 0; c < w->scan->ncalls; c++)
        if (w->scan->calls[c].function == f && w->scan->calls[c].loop < 0) {
            int d = (int)largest_over(w, w->scan->calls[c].name, function_nesting);
            deepest = d > deepest ? d : deepest;
        }
    for (int l = 0; l < w->scan->nloops; l++)
        if (w->scan->loops[l].function == f && w->scan->loops[l].parent < 0) {
            int d = loop_nesting(w, l, &innermost);
            deepest = d > deepest ? d : deepest;
        }
    return w->fn_nesting[f] = deepest;
}

loop_bounds loop_budget_bounds(const char *src, const char *mask, const loop_scan *scan, int kernel,
                               const loop_constant *constants, int nconstants)
{
    loop_bounds b = {0, LOOP_UNBOUNDED, -1, 0, -1};
    named_values named;
    loop_names_read(&named, src, mask, scan, constants, nconstants);
    int nl = scan->nloops, nf = scan->nfunctions;
    walker w = {mask, scan, constants, nconstants, calloc((size_t)nl + 1, sizeof(loop_trips)),
                malloc(((size_t)nf + 1) * sizeof(int64_t)), malloc(((size_t)nf + 1) * sizeof(int))};
    if (!w.loop_trips || !w.fn_most || !w.fn_nesting || kernel < 0 || kernel >= nf)
        goto done; /* unbounded: guarded at run time, never wrongly refused */
    for (int f = 0; f < nf; f++) {
        w.fn_most[f] = -1;
        w.fn_nesting[f] = -1;
    }
    /* In a source the compiler may see otherwise than the reader does, no loop is counted. */
    bool followed = source_unfollowed(src, mask) == (size_t)-1;
    for (int l = 0; l < nl; l++)
        w.loop_trips[l] = followed && scan->loops[l].kind == LOOP_FOR
                              ? loop_trips_of(mask, scan, &scan->loops[l], constants, nconstants, &named)
                              : (loop_trips){0, -1};
    int64_t most = function_most(&w, kernel);
    b.at_most = most >= CAP ? LOOP_UNBOUNDED : most;
    int64_t largest = 0;
    for (int l = 0; l < nl; l++) {
        if (scan->loops[l].function != kernel || scan->loops[l].parent >= 0 || scan->loops[l].in_branch)
            continue;
        int64_t least = loop_least(&w, l);
        b.at_least = add(b.at_least, least);
        if (least > largest) {
            largest = least;
            b.largest_loop = l;
        }
    }
    b.nesting = (int)function_nesting(&w, kernel);
    for (int l = 0, innermost; l < nl; l++) /* name the innermost loop of the deepest nest in the kernel's own text */
        if (scan->loops[l].parent < 0 && scan->loops[l].function == kernel &&
            loop_nesting(&w, l, &innermost) == b.nesting) {
            b.deepest_loop = innermost;
            break;
        }
done:
    free(w.loop_trips);
    free(w.fn_most);
    free(w.fn_nesting);
    return b;
}
