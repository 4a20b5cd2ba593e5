/* mpi_parts.h - where each rank's part sits in the global array (every rank's count, its offset, the
 * total), shared by the calls that place results by global index (top-k, compaction), and the packing
 * of descriptor values into parameters that every rank must agree on. */
#ifndef GPUC_MPI_PARTS_H
#define GPUC_MPI_PARTS_H

#include "mpi_call.h"

/* Every rank's element count, gathered on every rank by one MPI_Allgather (one collective, where an
 * MPI_Exscan for the offset plus an MPI_Allreduce for the total would be two; the per-rank counts are
 * also what MPI_Gatherv needs on the receiving rank). */
typedef struct mpi_parts {
    uint64_t *counts; /* counts[r]: the elements rank r contributes (c->size entries) */
    uint64_t offset;  /* elements on ranks below this one */
    uint64_t total;   /* elements on all ranks */
} mpi_parts;

/* Allocates the counts; on failure records it on c. Call it before mpi_call_agree_params, so that a
 * failure here is agreed like any other, and mpi_parts_share only once that agreement succeeded. */
bool mpi_parts_init(mpi_call *c, mpi_parts *p);
/* Collective: shares `mine` (this rank's count; 0 on a rank that failed since the last agreement)
 * and fills p. */
void mpi_parts_share(mpi_call *c, mpi_parts *p, uint64_t mine);
void mpi_parts_free(mpi_parts *p);

/* MPI_Gatherv's receive counts and displacements (in elements) from p->counts, each count first cut
 * to at most `cap` (UINT64_MAX: no cap). Fails the call on every rank alike (GPUC_ERROR_LIMIT, the
 * same counts give the same verdict everywhere) when the sum passes INT_MAX elements: MPI counts are
 * ints. counts and displs have c->size entries. Returns the sum. */
uint64_t mpi_parts_gatherv_layout(mpi_call *c, const mpi_parts *p, uint64_t cap, int *counts, int *displs,
                                  const char *what);

/* A string as a parameter every rank must pass alike (0 for NULL; otherwise a 62-bit FNV-1a hash). */
int64_t mpi_param_string(const char *s);
/* A float64 threshold as such a parameter: its bits, with -0.0 as +0.0 and every NaN as one NaN
 * (values that compare alike are one parameter). */
int64_t mpi_param_double(double v);

#endif
