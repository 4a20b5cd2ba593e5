/* mpi_parts.c - every rank's count, offset and total from one MPI_Allgather; Gatherv layouts; descriptor
 * values packed as parameters for the cross-rank check. */
#include "mpi_parts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool mpi_parts_init(mpi_call *c, mpi_parts *p)
{
    memset(p, 0, sizeof *p);
    p->counts = calloc((size_t)c->size, sizeof *p->counts);
    if (!p->counts)
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %d ranks' counts", c->size);
    return p->counts != NULL;
}

void mpi_parts_share(mpi_call *c, mpi_parts *p, uint64_t mine)
{
    MPI_TIMED(c, MPI_Allgather(&mine, 1, MPI_UINT64_T, p->counts, 1, MPI_UINT64_T, c->comm));
    p->offset = p->total = 0;
    for (int r = 0; r < c->size; r++) {
        if (r < c->rank)
            p->offset += p->counts[r];
        p->total += p->counts[r];
    }
}

void mpi_parts_free(mpi_parts *p)
{
    free(p->counts);
    p->counts = NULL;
}

uint64_t mpi_parts_gatherv_layout(mpi_call *c, const mpi_parts *p, uint64_t cap, int *counts, int *displs,
                                  const char *what)
{
    uint64_t sum = 0;
    for (int r = 0; r < c->size; r++) {
        uint64_t n = p->counts[r] < cap ? p->counts[r] : cap;
        if (sum + n > (uint64_t)INT_MAX) {
            mpi_call_fail(c, GPUC_ERROR_LIMIT,
                          "%s: %llu or more elements to gather on one rank; MPI counts stop at "
                          "%d",
                          what, (unsigned long long)(sum + n), INT_MAX);
            return sum + n;
        }
        if (counts) {
            counts[r] = (int)n;
            displs[r] = (int)sum;
        }
        sum += n;
    }
    return sum;
}

int64_t mpi_param_string(const char *s)
{
    if (!s)
        return 0;
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (int64_t)(h >> 2) | 1; /* nonzero, and its negation fits (the check negates parameters) */
}

int64_t mpi_param_double(double v)
{
    if (v == 0.0)
        v = 0.0;
    if (isnan(v))
        v = NAN;
    int64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits == INT64_MIN ? 0 : bits;
}
