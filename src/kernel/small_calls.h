/* small_calls.h - small calls of a default-threads context in the calling thread: such a context's
 * kernel, called small with host arrays, runs on a twin of itself in a calling-thread context (a second
 * llvmpipe screen without workers), and its result is copied into the main context's array. */
#ifndef GPUC_SMALL_CALLS_H
#define GPUC_SMALL_CALLS_H

#include "kernel/kernel.h"

/* Runs of a kernel that could go to the twin made in the context itself before the twin is made: a
 * twin compiles the kernel's program a second time (10-200 ms with llvmpipe's JIT), which pays only
 * for a kernel called small again and again. */
#define SMALL_CALL_WARMUP 3
/* The most work a call may have to go to the twin: output cells times the most iterations one cell's
 * loops run (measured: docs/performance/small-calls.md, "The twin"). */
#define SMALL_CALL_MOST_WORK 131072
/* The most output cells of a .pipeline kernel's call that goes to the twin: the context's path leaves
 * its result on the device, where the twin reads every cell back, so past this the pool's threads win
 * (docs/performance/small-calls.md, ".pipeline calls"). */
#define SMALL_CALL_MOST_PIPELINE_CELLS 16384

/* A small call's arguments as the twin takes them: host data and numbers as given, a device array as
 * its host copy (gpuc_array_host_view), whose uploads are in `copies`. */
typedef struct small_call_host {
    gpuc_arg args[GPUC_MAX_ARGS];
    gpuc_twin_copies copies;
} small_call_host;

/* Whether this run of k (its arguments checked, array handles opened: bodies) goes to k's twin; the run
 * that ends the warm-up makes the twin (context and kernel) first. Its array arguments must be host
 * data or device arrays whose values the host holds too, read as the array's own type; when it goes,
 * *host holds them as the twin takes them. k's context is current, and is again after. */
bool small_call_wanted(gpuc_kernel *k, const gpuc_arg *args, small_call_host *host);

/* Keeps every call of the kernel (a handle or the kernel itself) on its context's path: the
 * algorithm drivers choose the path of a whole call (algo/algo_twin.c), so their kernels never go to
 * the twin one by one. */
void small_call_never(gpuc_kernel *handle);

/* Frees k's twin kernel and its result array (k's destruction; gl as gpuc_child_destroy_fn's); a live
 * kernel's calls then stay on the context's path. */
void small_call_forget(gpuc_kernel *k, bool gl);

#endif
