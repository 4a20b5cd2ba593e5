/* small_calls.c - see small_calls.h. The twin context is the device layer's (gpuc_twin); a twin
 * kernel is a copy of the kernel's description with its GL objects made anew in the twin (the generic
 * program from the same GLSL text), owned by the kernel, never by the twin context's list of children. */
#include "kernel/small_calls.h"
#include "kernel/kernel_args.h"
#include "kernel/codegen/kernel_specialise.h"
#include "kernel/program/program_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL_UNDECIDED, SMALL_NEVER, SMALL_WARMING, SMALL_TWIN };

/* Output cells times the most iterations of one cell's loops (a loop-free kernel's: its cells). */
static uint64_t call_work(const gpuc_kernel *k)
{
    int64_t per_cell = k->nloops == 0 || k->loop_most < 1 ? 1 : k->loop_most;
    if (per_cell > SMALL_CALL_MOST_WORK)
        return UINT64_MAX;
    return (uint64_t)k->cells * (uint64_t)per_cell;
}

/* What the twin path handles: an ordinary kernel (a dispatch or a draw: the twin has the context's
 * backend) whose program writes nothing but its result,
 * with or without .pipeline (the twin reads the result back either way: a .pipeline result then stays
 * in host memory until its first use on the device, as every small call's result does). Anything else
 * keeps the context's own path: kernel maps, scatter, graphical, dynamic output (its size may change),
 * array constants (their buffers), guarded or capped loops (the context's loop-status word),
 * profiling (the context's timer queries), the algorithm drivers' kernels (small_call_never). */
static bool twin_handles(const gpuc_kernel *k)
{
    const gpuc *gpu = k->gpu;
    return gpu->small_calls && !gpu->profile && k->nmaps == 0 && !k->scatter && !k->graphical &&
           !k->dynamic_output && k->nconstant_buffers == 0 && !kernel_loop_status(k) &&
           call_work(k) <= SMALL_CALL_MOST_WORK && (!k->pipeline || k->cells <= SMALL_CALL_MOST_PIPELINE_CELLS);
}

/* k's twin: a copy of k on the twin context with its programs compiled there (the generic one, and the
 * one specialised to the sizes of k's last runs, with k's memory of those sizes, so that the twin
 * specialises when k would); NULL when the twin cannot compile them. Its loop names stay k's (guarded
 * kernels never get a twin: never read). */
static gpuc_kernel *twin_kernel(gpuc_kernel *k, gpuc *twin)
{
    gpuc_kernel *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    *t = *k; /* a shallow copy: every GL object and owned pointer is reset below (a new field of
              * gpuc_kernel that owns memory or a GL name must be reset here too) */
    t->gpu = twin;
    t->handle = NULL;
    t->special = NULL;
    memset(t->scalar_view, 0, sizeof t->scalar_view);
    memset(t->upload, 0, sizeof t->upload);
    memset(t->targets, 0, sizeof t->targets); /* a fragment kernel's render targets: made on the twin's first draw */
    if (t->fragment)
        fragment_layout(t); /* its rows as the twin draws best, in the calling thread */
    memset(&t->profile, 0, sizeof t->profile);
    t->profile.stats.last_device_ms = -1;
    memset(&t->child, 0, sizeof t->child);
    t->loop_names = NULL;
    t->small_state = SMALL_NEVER; /* the twin runs its calls itself */
    t->pipeline = false;          /* and reads each result back: its values are what the context's array gets */
    t->twin = NULL;
    t->twin_result = NULL;
    if (program_get(twin, k->cached->glsl, k->fragment, k->name, k->cached->glsl, &t->cached) != GPUC_OK) {
        free(t);
        return NULL;
    }
    if (k->special &&
        program_get(twin, k->special->glsl, k->fragment, k->name, k->special->glsl, &t->special) != GPUC_OK) {
        program_put(twin, t->cached, true);
        free(t);
        return NULL;
    }
    t->program = t->cached->program;
    t->glsl = t->cached->glsl;
    kernel_locate_uniforms(t);
    return t;
}

/* Makes k's twin (the context's twin first) at the end of the warm-up; false keeps the context's path. */
static bool make_twin(gpuc_kernel *k)
{
    gpuc *gpu = k->gpu, *twin = gpuc_twin(gpu);
    if (!twin)
        return false;
    if (gpuc_enter(twin) != GPUC_OK) {
        egl_device_make_current(&gpu->device);
        return false;
    }
    k->twin = twin_kernel(k, twin);
    return egl_device_make_current(&gpu->device) && k->twin;
}

/* Array argument `arg` of parameter p as the twin takes it, in *host (a device array's host copy added
 * to *copies); false where it cannot go. Host data goes as given; a device array only where the host
 * holds its values too (gpuc_array_host_view) and the kernel would read that host data as the array's
 * own type (kernel_arg_type: a vec2 parameter given a float array keeps the context's path). */
static bool twin_arg(const kernel_param *p, const gpuc_arg *arg, gpuc_arg *host, gpuc_twin_copies *copies)
{
    *host = *arg;
    return arg->kind != GPUC_ARG_ARRAY || (gpuc_array_host_view(arg->array, host, copies) && /* a body: open_args */
                                           kernel_arg_type(p, host) == arg->array->type);
}

/* k's arguments as the twin takes them, into *host; false where an array cannot go. */
static bool small_call_args(const gpuc_kernel *k, const gpuc_arg *args, small_call_host *host)
{
    host->copies = (gpuc_twin_copies){0, 0, 0, 0};
    for (int i = 0; i < k->sig.nparams; i++) {
        if (k->sig.params[i].rank == 0)
            host->args[i] = args[i];
        else if (!twin_arg(&k->sig.params[i], &args[i], &host->args[i], &host->copies))
            return false;
    }
    return true;
}

void small_call_never(gpuc_kernel *handle)
{
    gpuc_kernel *k;
    if (kernel_open(handle, "small_call_never", &k) == GPUC_OK)
        k->small_state = SMALL_NEVER;
}

bool small_call_wanted(gpuc_kernel *k, const gpuc_arg *args, small_call_host *host)
{
    if (k->small_state == SMALL_NEVER)
        return false;
    if (k->small_state == SMALL_UNDECIDED)
        k->small_state = twin_handles(k) ? SMALL_WARMING : SMALL_NEVER;
    if (k->small_state == SMALL_NEVER)
        return false;
    if (!small_call_args(k, args, host)) /* device arrays without host copies stay where they are */
        return false;
    if (k->small_state == SMALL_WARMING && ++k->small_runs > SMALL_CALL_WARMUP)
        k->small_state = make_twin(k) ? SMALL_TWIN : SMALL_NEVER;
    return k->small_state == SMALL_TWIN;
}

/* The twin kernel's own objects: its uploads, result and programs (its loop names are k's). */
static void twin_destroy(gpuc_kernel *t, gpuc_array *result, bool gl)
{
    for (int i = 0; i < GPUC_MAX_ARGS; i++)
        if (t->upload[i])
            gpuc_array_destroy_gl(t->upload[i], gl);
    if (t->targets[0] && gl)
        fragment_targets_free(t);
    if (result)
        gpuc_array_destroy_gl(result, gl);
    profile_release(t, gl);
    kernel_specialise_free(t, gl);
    program_put(t->gpu, t->cached, gl);
    free(t);
}

void small_call_forget(gpuc_kernel *k, bool gl)
{
    if (k->small_state == SMALL_TWIN)
        k->small_state = SMALL_NEVER;
    gpuc_kernel *t = k->twin;
    if (!t)
        return;
    k->twin = NULL;
    /* The twin is current nowhere between calls: with k's context usable here, so is the twin. */
    egl_binding saved;
    bool twin_gl = gl && !egl_device_inherited(&t->gpu->device) && egl_device_borrow(&t->gpu->device, &saved);
    twin_destroy(t, k->twin_result, twin_gl);
    k->twin_result = NULL;
    if (twin_gl)
        egl_device_give_back(&saved);
}
