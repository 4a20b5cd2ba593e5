/* algo_twin.c - small algorithm calls of a default-threads context in the calling thread. Every pass
 * of a driver is a dispatch, and llvmpipe hands each one to its thread pool and sleeps until the
 * workers are done (30-50 us on 2 cores, whatever its size: docs/performance/small-calls.md), so a
 * bitonic sort of 4,096 keys (24 passes) spent most of its time waiting. The kernel layer already runs
 * a small kernel call on the context's calling-thread twin (gpuc_twin); a driver's passes read each
 * other's device arrays, which live in one context, so here the whole public call moves: it runs on
 * the twin, with the same (host) arguments, and its results are copied into new arrays of the
 * context. Nothing of the context is touched before the call is known to have succeeded there; a call
 * that fails on the twin runs again on the context, whose path then gives the error (every argument
 * check is the context's, as without the twin). */
#include "algo/algo_twin.h"

#include <stdlib.h>

/* The most elements a call may have to go to the twin. The sweep (`gpuc-bench --scaling`) with
 * llvmpipe's workers and without them: at 2^14 the calling thread was 2-3x faster for each algorithm.
 * At 2^16 the network sort was faster on the pool (its two cores pay there); since the sort takes radix
 * above 16,384 keys, the twin is ahead at 49,152-65,536 elements for the radix sort (8-11.7 against
 * 13.1-13.7 ms at 2^16), compaction (1.2-1.6 against 1.9) and the scan (1.2-1.4 against 1.6), about
 * even at 2^17 and 2^18 (docs/performance/small-inputs.md). */
#define ALGO_TWIN_MOST_ELEMENTS 65536
/* The same on the fragment backend, whose sort is the network and whose passes are draws, spread over
 * llvmpipe's rasteriser threads on the pool: the bound the network had on compute. Measured (the sweep
 * on fragment, two runs each): a sort of 2^16 keys 11.2-12.6 ms on the pool, 14.0-14.5 on the twin; of
 * 2^12 1.6-1.9 -> 1.1-1.3 ms, of 2^14 level (4.3-4.9 -> 4.0-4.1). */
#define ALGO_TWIN_MOST_ELEMENTS_FRAGMENT 32768
/* Calls of one shape (algo_twin_shape) made on the context before the twin takes them: the twin
 * compiles the kernels of the shape a second time (10-200 ms each with llvmpipe's JIT), which pays
 * only for calls of one shape made small again and again (the kernel layer's SMALL_CALL_WARMUP, for
 * the same reason); counting per algorithm instead made the sort and compaction suites, whose calls
 * are of many shapes, 4-7x slower. */
#define ALGO_TWIN_WARMUP 3

/* `arg` as the twin takes it, in *host (a device array's host copy added to *copies); false where it
 * cannot go. Host data goes as given. A device array stays where its data is (gpuc.h promises that
 * the algorithms never copy one, and a pipeline's arrays are kept on the device for that: reading a
 * 2^12-value array back to use the twin made compaction of it 3x faster in the sweep, but broke that
 * promise, as the MPI scan's test of its read backs found), unless the host holds its values too
 * (gpuc_array_host_view): then that copy goes, and nothing is read back. algo_check_input has checked
 * it: a live 1D float or int array of this context. */
static bool twin_arg(gpuc_arg arg, gpuc_arg *host, gpuc_twin_copies *copies)
{
    *host = arg;
    gpuc_array *a;
    return arg.kind != GPUC_ARG_ARRAY ||
           (gpuc_array_open(arg.array, "gpuc (calling-thread twin)", &a) == GPUC_OK &&
            gpuc_array_host_view(a, host, copies));
}

uint64_t algo_twin_shape(algo_twin_family family, size_t n, const uint64_t *parts, int nparts)
{
    size_t size_class = 1;
    while (size_class < n)
        size_class <<= 1;
    uint64_t h = 1469598103934665603u; /* FNV-1a over the numbers */
    uint64_t words[2] = {(uint64_t)family, (uint64_t)size_class};
    for (int i = 0; i < 2 + nparts; i++) {
        uint64_t w = i < 2 ? words[i] : parts[i - 2];
        for (int b = 0; b < 8; b++)
            h = (h ^ ((w >> (8 * b)) & 0xFF)) * 1099511628211u;
    }
    return h;
}

/* Counts a call of `shape` (the table keeps the latest shapes, the least recently seen replaced);
 * whether the shape is past its warm-up. */
static bool warmed_up(gpuc *gpu, uint64_t shape)
{
    int slots = (int)(sizeof gpu->algo_small / sizeof gpu->algo_small[0]), at = -1, oldest = 0;
    for (int i = 0; i < slots && at < 0; i++) {
        if (gpu->algo_small[i].calls && gpu->algo_small[i].shape == shape)
            at = i;
        else if (gpu->algo_small[i].last < gpu->algo_small[oldest].last)
            oldest = i;
    }
    if (at < 0) { /* not seen lately: the least recently seen slot (an empty one first) counts it */
        at = oldest;
        gpu->algo_small[at].shape = shape;
        gpu->algo_small[at].calls = 0;
    }
    gpu->algo_small[at].last = ++gpu->algo_small_clock;
    if (gpu->algo_small[at].calls <= ALGO_TWIN_WARMUP)
        gpu->algo_small[at].calls++;
    return gpu->algo_small[at].calls > ALGO_TWIN_WARMUP;
}

bool algo_twin_begin(gpuc *gpu, uint64_t shape, size_t n, const gpuc_arg *args, int nargs, algo_twin_call *call)
{
    gpuc_arg host[ALGO_TWIN_MAX_ARGS];
    gpuc_twin_copies copies = {0, 0, 0, 0};
    size_t most =
        gpu->info.backend == GPUC_BACKEND_FRAGMENT ? ALGO_TWIN_MOST_ELEMENTS_FRAGMENT : ALGO_TWIN_MOST_ELEMENTS;
    if (!gpu->small_calls || gpu->profile || gpu->trace || n > most || nargs > ALGO_TWIN_MAX_ARGS)
        return false;
    for (int i = 0; i < nargs; i++)
        if (!twin_arg(args[i], &host[i], &copies))
            return false;
    if (!warmed_up(gpu, shape)) /* counted only for calls that could go */
        return false;
    gpuc *twin = gpuc_twin(gpu);
    if (!twin)
        return false;
    *call = (algo_twin_call){.gpu = gpu, .twin = twin, .copies = copies, .was = twin->stats};
    for (int i = 0; i < nargs; i++)
        call->args[i] = host[i];
    return true;
}

/* Takes the contents of the twin's result t (its host copy, read back here if it has none) and frees
 * t; the twin is current. */
static gpuc_status take(gpuc_array *t, void **data, gpuc_type *type, gpuc_dims *dims)
{
    gpuc_status st = GPUC_OK;
    gpuc_array *a = gpuc_handle_body(t, GPUC_TAG_ARRAY, "gpuc (calling-thread twin)", &st);
    if (a && !a->mirror_valid)
        st = gpuc_array_fetch_mirror(a);
    if (a && st == GPUC_OK) {
        *data = a->mirror;
        *type = a->type;
        *dims = a->dims;
        a->mirror = NULL;
        a->mirror_valid = false;
    }
    gpuc_array_free(t);
    return st;
}

gpuc_status algo_twin_end(algo_twin_call *call, gpuc_status st, gpuc_array *const *results, gpuc_array **const *outs,
                          int nresults)
{
    gpuc *gpu = call->gpu;
    const gpuc_stats did = call->twin->stats; /* before the copies below read anything back */
    void *data[ALGO_TWIN_MAX_RESULTS] = {0};
    gpuc_type types[ALGO_TWIN_MAX_RESULTS] = {0};
    gpuc_dims dims[ALGO_TWIN_MAX_RESULTS] = {{0, 0, 0}};
    for (int i = 0; i < nresults; i++) { /* the twin is current after a call made on it */
        gpuc_status taken = results[i] ? take(results[i], &data[i], &types[i], &dims[i]) : GPUC_OK;
        st = st == GPUC_OK ? taken : st;
    }
    gpuc_status back = gpuc_enter(gpu);
    call->retry = back == GPUC_OK;
    st = st == GPUC_OK ? back : st;
    gpuc_array *made[ALGO_TWIN_MAX_RESULTS] = {0};
    for (int i = 0; i < nresults; i++) {
        if (st == GPUC_OK && data[i])
            st = algo_host_result(gpu, data[i], types[i], dims[i], &made[i]);
        else
            free(data[i]);
        data[i] = NULL;
    }
    if (st != GPUC_OK) { /* nothing handed out: the context's path runs the call */
        for (int i = 0; i < nresults; i++)
            gpuc_array_free(made[i]);
        return back == GPUC_OK ? st : back;
    }
    for (int i = 0; i < nresults; i++)
        *outs[i] = made[i];
    /* The counts of the call as the context's own path would have them: the twin's uploads, dispatches
     * and read-backs, not the copies (as the kernel layer's twin counts a small kernel call). Each host
     * copy of a device array went up once, as every driver uploads host data (small_calls suite:
     * algorithm_calls_on_the_twin checks the counts against the pool's). */
    gpuc_stats_add_twin(gpu, &call->was, &did, &call->copies);
    return GPUC_OK;
}
