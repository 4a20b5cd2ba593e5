/* worker.h - the MPI test worker: `mpirun -np P gpuc-mpi-worker GROUP` runs one group of cases on P
 * ranks (each rank opening its device with gpuc_mpi_open) and prints "ok GROUP on P ranks" from rank 0
 * when every check on every rank passed. Checks never abort a rank (a rank that stopped early would
 * leave the others waiting in a collective): a failed check prints where and why, the case goes on, and
 * the failures are summed over the ranks at the end. The Check suite `mpi` (tests/test_mpi.c) starts the
 * worker for each group on 1 to 4 ranks and asserts that line. */
#ifndef GPUC_MPI_WORKER_H
#define GPUC_MPI_WORKER_H

#include <gpuc.h>
#include <gpuc_mpi.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The worker's communicator (MPI_COMM_WORLD), this rank, the rank count and this rank's context. */
extern MPI_Comm wcomm;
extern int wrank, wsize;
extern gpuc *wgpu;

/* Names the case that later failures belong to (printed with them). */
void worker_case(const char *name);

/* Records a check; on failure prints "rank R: FAIL case (file:line): message". Returns ok. */
bool worker_check(bool ok, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define WCHECK(cond, ...) worker_check((cond), __FILE__, __LINE__, __VA_ARGS__)
/* A gpuc_mpi call that must succeed (the message is gpuc_mpi_errmsg()). */
#define WCHECK_OK(expr)                                                                              \
    do {                                                                                             \
        gpuc_status st_ = (expr);                                                                    \
        WCHECK(st_ == GPUC_OK, "%s -> %s: %s", #expr, gpuc_status_name(st_), gpuc_mpi_errmsg());     \
    } while (0)
/* A call that must fail with `status` and a message containing `fragment`, on every rank. */
#define WCHECK_FAILS(expr, status, fragment) worker_check_fails((expr), (status), (fragment), #expr, __FILE__, __LINE__)
bool worker_check_fails(gpuc_status got, gpuc_status want, const char *fragment, const char *expr, const char *file,
                        int line);

/* The global data of spec "MPI examples": value(i) from MurmurHash3's fmix32 of i * 2654435761 + seed,
 * (h >> 8) * 2^-24, a float in [0, 1) exact in float32. */
float worker_value(uint64_t i, uint32_t seed);
/* Rank r's part of n elements on p ranks: [r * n / p, (r + 1) * n / p). */
void worker_slice(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);

/* The groups; each is a function in tests/mpi/cases_<group>.c that runs its cases in order (every
 * rank runs the same cases with the same collective calls). */
#define WORKER_GROUPS \
    WORKER_GROUP(open)    \
    WORKER_GROUP(topk)    \
    WORKER_GROUP(sort)    \
    WORKER_GROUP(compact) \
    WORKER_GROUP(scan)

#define WORKER_GROUP(g) void cases_##g(void);
WORKER_GROUPS
#undef WORKER_GROUP

#endif
