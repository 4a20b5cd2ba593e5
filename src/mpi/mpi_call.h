/* mpi_call.h - what every collective gpuc_mpi call shares: its failure agreement, its parameter check
 * across ranks, its message and its timing. A call goes
 *
 *     mpi_call c;
 *     if (!mpi_call_begin(&c, "gpuc_mpi_topk", gpu, comm)) return c.status;   (no usable communicator)
 *     ... check local input, mpi_call_fail(&c, ...) on trouble (keep going: do not return) ...
 *     mpi_call_param(&c, "k", k); ...
 *     if (mpi_call_agree_params(&c) != GPUC_OK) return mpi_call_end(&c);      (collective)
 *     ... device work; MPI_TIMED / DEVICE_TIMED around each step; mpi_call_agree before each
 *         collective step that needs every rank healthy ...
 *     return mpi_call_end(&c);
 *
 * so every rank makes the same collective calls in the same order whatever failed where, and all
 * return the same status. */
#ifndef GPUC_MPI_CALL_H
#define GPUC_MPI_CALL_H

#include "gpuc_mpi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parameters compared across ranks per call (fixed, so that every call's check is one Allreduce of the
 * same shape, even when ranks disagree on which call they are in). */
#define MPI_CALL_MAX_PARAMS 12

typedef struct mpi_call {
    const char *name; /* the public function, for messages */
    MPI_Comm comm;
    int rank, size;
    gpuc *gpu;
    gpuc_status status; /* this rank's first failure (GPUC_OK while none) */
    char msg[768];      /* its message */
    int nparams;
    const char *param_names[MPI_CALL_MAX_PARAMS];
    int64_t params[MPI_CALL_MAX_PARAMS];
    double started, device_s, comm_s;
} mpi_call;

/* Starts a call. False when there is no communicator to agree over (MPI not initialised, finalized,
 * MPI_COMM_NULL): then c->status holds the error, gpuc_mpi_errmsg says why, and the caller returns it
 * at once (each rank finds that alone). */
bool mpi_call_begin(mpi_call *c, const char *name, gpuc *gpu, MPI_Comm comm);

/* Records a failure on this rank (the first one is kept; later ones are ignored). The call keeps
 * going to its next agreement point. */
void mpi_call_fail(mpi_call *c, gpuc_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Records a failed gpuc call: its status and gpuc_errmsg(c->gpu), after `what` ("local sort"). */
void mpi_call_fail_gpuc(mpi_call *c, gpuc_status status, const char *what);
static inline bool mpi_call_ok(const mpi_call *c)
{
    return c->status == GPUC_OK;
}

/* Adds a parameter that must be equal on every rank (at most MPI_CALL_MAX_PARAMS per call). */
void mpi_call_param(mpi_call *c, const char *name, int64_t value);

/* Collective: agrees on failure (as mpi_call_agree) and checks that every rank is in the same call
 * with the same parameters; a mismatch fails every rank with GPUC_ERROR_INVALID_ARGUMENT naming the
 * parameter and its smallest and largest values. */
gpuc_status mpi_call_agree_params(mpi_call *c);

/* Collective: GPUC_OK when every rank is healthy; otherwise every rank takes the status and message of
 * the lowest failing rank ("gpuc_mpi_topk: rank 2: ..."), and returns that status. */
gpuc_status mpi_call_agree(mpi_call *c);

/* Ends the call: records its timing for gpuc_mpi_last_timing and the message for gpuc_mpi_errmsg
 * (when it failed), and returns c->status. */
gpuc_status mpi_call_end(mpi_call *c);

/* Timing: wrap each MPI call (communication, waiting) and each gpuc call (device work). */
double mpi_call_now(void);
#define MPI_TIMED(c, expr)                               \
    do {                                                 \
        double t0_ = mpi_call_now();                     \
        expr;                                            \
        (c)->comm_s += mpi_call_now() - t0_;             \
    } while (0)
#define DEVICE_TIMED(c, expr)                            \
    do {                                                 \
        double t0_ = mpi_call_now();                     \
        expr;                                            \
        (c)->device_s += mpi_call_now() - t0_;           \
    } while (0)

/* A rank's local part, as the calls accept it: a 1D float or int device array of this rank's context,
 * or 1D host data (dims.x == 0 for an empty part, whose pointer may be NULL). */
typedef struct mpi_local {
    gpuc_type type; /* GPUC_FLOAT or GPUC_INT */
    size_t n;       /* elements (0: this rank holds none) */
    gpuc_arg arg;   /* as given */
} mpi_local;

/* Reads `arg` (`what` names it in messages: "keys"). On bad input records the failure (type mismatch,
 * invalid argument) and returns false; out then says float with n = 0 so the call can go on. */
bool mpi_local_read(mpi_call *c, gpuc_arg arg, const char *what, mpi_local *out);

/* MPI datatypes of a cell type (float or int32). */
MPI_Datatype mpi_datatype_of(gpuc_type type);

#endif
