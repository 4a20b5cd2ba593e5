/* mpi_call.c - failure agreement, parameter checks, messages and timing for the collective calls. */
#include "mpi_call.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_message[1024];
static _Thread_local gpuc_mpi_timing last_timing;

const char *gpuc_mpi_errmsg(void)
{
    return last_message;
}

void gpuc_mpi_last_timing(gpuc_mpi_timing *timing)
{
    if (timing)
        *timing = last_timing;
}

double mpi_call_now(void)
{
    return MPI_Wtime();
}

bool mpi_call_begin(mpi_call *c, const char *name, gpuc *gpu, MPI_Comm comm)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->comm = comm;
    c->gpu = gpu;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) {
        c->status = GPUC_ERROR_INVALID_ARGUMENT;
        snprintf(last_message, sizeof last_message, "%s: MPI is %s (call it between MPI_Init and MPI_Finalize)",
                 name, finalized ? "already finalized" : "not initialised");
        return false;
    }
    c->started = MPI_Wtime();
    if (comm == MPI_COMM_NULL) {
        c->status = GPUC_ERROR_INVALID_ARGUMENT;
        snprintf(last_message, sizeof last_message, "%s: the communicator is MPI_COMM_NULL", name);
        return false;
    }
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    if (!gpu)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "the context is NULL");
    else if (!gpuc_get_info(gpu))
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "the context failed to open (%s)", gpuc_errmsg(gpu));
    return true;
}

void mpi_call_fail(mpi_call *c, gpuc_status status, const char *fmt, ...)
{
    if (c->status != GPUC_OK)
        return;
    c->status = status == GPUC_OK ? GPUC_ERROR_INVALID_ARGUMENT : status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
}

void mpi_call_fail_gpuc(mpi_call *c, gpuc_status status, const char *what)
{
    mpi_call_fail(c, status, "%s: %s", what, c->gpu ? gpuc_errmsg(c->gpu) : "no context");
}

void mpi_call_param(mpi_call *c, const char *name, int64_t value)
{
    if (c->nparams >= MPI_CALL_MAX_PARAMS) { /* a gpuc bug, not the user's: say so rather than drop it */
        mpi_call_fail(c, GPUC_ERROR_LIMIT, "gpuc bug: more than %d parameters to check", MPI_CALL_MAX_PARAMS);
        return;
    }
    c->param_names[c->nparams] = name;
    c->params[c->nparams++] = value;
}

/* Every rank learns the lowest failing rank (or none) in `lowest`; that rank's status and message go
 * to all. Returns the agreed status. */
static gpuc_status share_failure(mpi_call *c, int lowest)
{
    if (lowest >= c->size)
        return GPUC_OK;
    struct {
        int status;
        char msg[768];
    } shared;
    memset(&shared, 0, sizeof shared);
    if (c->rank == lowest) {
        shared.status = (int)c->status;
        memcpy(shared.msg, c->msg, sizeof shared.msg);
    }
    MPI_TIMED(c, MPI_Bcast(&shared, (int)sizeof shared, MPI_BYTE, lowest, c->comm));
    shared.msg[sizeof shared.msg - 1] = '\0';
    c->status = (gpuc_status)shared.status;
    snprintf(c->msg, sizeof c->msg, "rank %d: %s", lowest, shared.msg);
    return c->status;
}

gpuc_status mpi_call_agree(mpi_call *c)
{
    int mine = c->status == GPUC_OK ? c->size : c->rank, lowest = c->size;
    MPI_TIMED(c, MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, c->comm));
    return share_failure(c, lowest);
}

/* A call's identity for the check: ranks in different calls must not agree by accident. */
static int64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (int64_t)(h >> 2);
}

gpuc_status mpi_call_agree_params(mpi_call *c)
{
    /* One MAX reduction over [failing rank negated, call, params..., then the same negated]: yields
     * the lowest failing rank, and each parameter's largest and smallest value. */
    enum { SLOTS = 2 + MPI_CALL_MAX_PARAMS };
    int64_t mine[2 * SLOTS], all[2 * SLOTS];
    memset(mine, 0, sizeof mine);
    mine[0] = -(int64_t)(c->status == GPUC_OK ? c->size : c->rank);
    mine[1] = name_hash(c->name);
    for (int i = 0; i < c->nparams; i++)
        mine[2 + i] = c->params[i];
    for (int i = 1; i < SLOTS; i++)
        mine[SLOTS + i] = -mine[i];
    MPI_TIMED(c, MPI_Allreduce(mine, all, 2 * SLOTS, MPI_INT64_T, MPI_MAX, c->comm));
    int lowest = (int)-all[0];
    if (lowest < c->size)
        return share_failure(c, lowest);
    if (all[1] != -all[SLOTS + 1]) {
        c->status = GPUC_ERROR_INVALID_ARGUMENT;
        snprintf(c->msg, sizeof c->msg, "the ranks of the communicator are not all in this call (a rank called "
                                        "another gpuc_mpi function at this point)");
        return c->status;
    }
    for (int i = 0; i < c->nparams; i++) {
        int64_t hi = all[2 + i], lo = -all[SLOTS + 2 + i];
        if (hi != lo) {
            c->status = GPUC_ERROR_INVALID_ARGUMENT;
            snprintf(c->msg, sizeof c->msg, "%s differs across ranks (from %lld to %lld); every rank must pass the same",
                     c->param_names[i], (long long)lo, (long long)hi);
            return c->status;
        }
    }
    return GPUC_OK;
}

gpuc_status mpi_call_end(mpi_call *c)
{
    last_timing.device_s = c->device_s;
    last_timing.comm_s = c->comm_s;
    last_timing.total_s = MPI_Wtime() - c->started;
    if (c->status != GPUC_OK)
        snprintf(last_message, sizeof last_message, "%s: %s", c->name, c->msg);
    return c->status;
}

bool mpi_local_read(mpi_call *c, gpuc_arg arg, const char *what, mpi_local *out)
{
    memset(out, 0, sizeof *out);
    out->type = GPUC_FLOAT;
    out->arg = arg;
    switch (arg.kind) {
    case GPUC_ARG_ARRAY: {
        if (!arg.array) {
            mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "%s: the array is NULL", what);
            return false;
        }
        gpuc_dims d = gpuc_array_dims(arg.array);
        gpuc_type t = gpuc_array_type(arg.array);
        if (t == GPUC_TYPE_NONE) { /* only a handle gpuc cannot use has no type: freed (gpuc.h, HANDLES) */
            mpi_call_fail(c, GPUC_ERROR_MISUSE, "%s: %s", what, gpuc_errmsg(c->gpu));
            return false;
        }
        if (d.y > 1 || d.z > 1 || (t != GPUC_FLOAT && t != GPUC_INT)) {
            mpi_call_fail(c, GPUC_ERROR_TYPE_MISMATCH, "%s: a 1D float or int array is needed", what);
            return false;
        }
        out->type = t;
        out->n = gpuc_array_cells(arg.array);
        return true;
    }
    case GPUC_ARG_HOST_F32:
    case GPUC_ARG_HOST_I32:
        if (arg.dims.y > 1 || arg.dims.z > 1) {
            mpi_call_fail(c, GPUC_ERROR_TYPE_MISMATCH, "%s: host data must be 1D (dims {n}), got {%u, %u, %u}", what,
                          arg.dims.x, arg.dims.y, arg.dims.z);
            return false;
        }
        if (arg.dims.x > 0 && !arg.host) {
            mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "%s: host data is NULL for %u elements", what, arg.dims.x);
            return false;
        }
        out->type = arg.kind == GPUC_ARG_HOST_F32 ? GPUC_FLOAT : GPUC_INT;
        out->n = arg.dims.x;
        return true;
    default:
        mpi_call_fail(c, GPUC_ERROR_TYPE_MISMATCH, "%s: an array is needed (gpuc_arg_array, gpuc_arg_host_f32 or "
                                                   "gpuc_arg_host_i32), not a scalar or a vector",
                      what);
        return false;
    }
}

MPI_Datatype mpi_datatype_of(gpuc_type type)
{
    return type == GPUC_INT ? MPI_INT32_T : MPI_FLOAT;
}
