/* mpi_example.h - what the three MPI examples share: their options (--n N --seed S [--k K]), the data
 * of every rank's slice, generated where it lives (nothing is scattered from rank 0), and failing
 * alike on every rank. Header-only: each example is one .c file built with mpicc.
 *
 * The data: global element i (0 <= i < N) is value(i) below, a float32 in [0, 1) from MurmurHash3's
 * 32-bit finaliser of i * 2654435761 + seed (uint32 arithmetic, wrapping), exact in float32. Rank r of
 * P holds elements [r * N / P, (r + 1) * N / P), so with N < P some ranks hold none. */
#ifndef GPUC_MPI_EXAMPLE_H
#define GPUC_MPI_EXAMPLE_H

#include <gpuc_mpi.h>

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mpi_example {
    int rank, size;   /* this rank and the rank count */
    uint64_t n;       /* --n: global elements (>= 1) */
    uint32_t seed;    /* --seed */
    uint64_t k;       /* --k (top-k only; 8 by default) */
    uint64_t lo, hi;  /* this rank's slice [lo, hi) */
    float *values;    /* its values (hi - lo of them; NULL when empty) */
    gpuc *gpu;        /* this rank's context */
} mpi_example;

static inline float mpi_example_value(uint64_t i, uint32_t seed)
{
    uint32_t h = (uint32_t)i * 2654435761u + seed;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* Ends the program on every rank: rank 0 prints the message. Every rank reaches this together (the
 * gpuc_mpi calls fail on every rank alike), so nothing is left waiting. */
static inline void mpi_example_fail(const mpi_example *ex, const char *what)
{
    if (ex->rank == 0)
        fprintf(stderr, "%s\n", what);
    if (ex->gpu)
        gpuc_close(ex->gpu);
    MPI_Finalize();
    exit(1);
}

/* Checks a gpuc_mpi call's status (the same on every rank). */
#define MPI_EXAMPLE_CHECK(ex, expr)                    \
    do {                                               \
        if ((expr) != GPUC_OK)                         \
            mpi_example_fail((ex), gpuc_mpi_errmsg()); \
    } while (0)

static inline int mpi_example_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!text || *text == '-' || *text == '\0')
        return 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > max)
        return 0;
    *out = v;
    return 1;
}

/* MPI_Init, the options, this rank's slice and its context. Bad options: usage on rank 0, exit 2 on
 * every rank (each rank parses the same command line). */
static inline void mpi_example_start(int *argc, char ***argv, int with_k, mpi_example *ex)
{
    MPI_Init(argc, argv);
    memset(ex, 0, sizeof *ex);
    MPI_Comm_rank(MPI_COMM_WORLD, &ex->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ex->size);
    ex->k = 8;
    int have_n = 0, have_seed = 0, ok = 1;
    uint64_t seed = 0;
    for (int i = 1; ok && i < *argc; i++) {
        const char *opt = (*argv)[i], *val = i + 1 < *argc ? (*argv)[i + 1] : NULL;
        if (!strcmp(opt, "--n"))
            ok = have_n = mpi_example_parse_u64(val, UINT64_MAX / 2, &ex->n) && ex->n >= 1;
        else if (!strcmp(opt, "--seed"))
            ok = have_seed = mpi_example_parse_u64(val, UINT32_MAX, &seed);
        else if (with_k && !strcmp(opt, "--k"))
            ok = mpi_example_parse_u64(val, UINT64_MAX / 2, &ex->k) && ex->k >= 1;
        else
            ok = 0;
        i++;
    }
    if (!ok || !have_n || !have_seed) {
        if (ex->rank == 0)
            fprintf(stderr, "usage: mpirun -np P %s --n N --seed S%s   (N >= 1%s)\n", (*argv)[0],
                    with_k ? " [--k K]" : "", with_k ? ", K >= 1, 8 by default" : "");
        MPI_Finalize();
        exit(2);
    }
    ex->seed = (uint32_t)seed;
    ex->lo = ex->n * (uint64_t)ex->rank / (uint64_t)ex->size;
    ex->hi = ex->n * (uint64_t)(ex->rank + 1) / (uint64_t)ex->size;
    if (ex->hi - ex->lo > UINT32_MAX - 1) { /* one rank's part must be one gpuc array */
        if (ex->rank == 0)
            fprintf(stderr, "--n %" PRIu64 " on %d ranks: a rank's slice must stay below 2^32 elements\n", ex->n,
                    ex->size);
        MPI_Finalize();
        exit(2);
    }
    if (ex->hi > ex->lo) {
        ex->values = malloc((size_t)(ex->hi - ex->lo) * sizeof *ex->values);
        if (!ex->values) {
            fprintf(stderr, "rank %d: out of memory for %" PRIu64 " values\n", ex->rank, ex->hi - ex->lo);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (uint64_t i = ex->lo; i < ex->hi; i++)
            ex->values[i - ex->lo] = mpi_example_value(i, ex->seed);
    }
    MPI_EXAMPLE_CHECK(ex, gpuc_mpi_open(MPI_COMM_WORLD, NULL, &ex->gpu));
}

/* This rank's values as a gpuc argument (an empty part when it holds none). */
static inline gpuc_arg mpi_example_part(const mpi_example *ex)
{
    return gpuc_arg_host_f32(ex->values, (gpuc_dims){(uint32_t)(ex->hi - ex->lo)});
}

static inline void mpi_example_finish(mpi_example *ex)
{
    free(ex->values);
    gpuc_close(ex->gpu);
    MPI_Finalize();
}

/* Rank 0 learns the values at global positions pos[0..count) of a distributed result, where this rank
 * holds `held` values starting at global position `offset` (a value held by no rank comes back NaN).
 * Collective. */
static inline void mpi_example_pick(const float *held, uint64_t offset, uint64_t held_count, const uint64_t *pos,
                                    int count, double *out)
{
    double mine[8], all[8];
    for (int i = 0; i < count && i < 8; i++)
        mine[i] = pos[i] >= offset && pos[i] < offset + held_count ? (double)held[pos[i] - offset] : -1.0;
    MPI_Reduce(mine, all, count, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (int i = 0; i < count && i < 8; i++)
        out[i] = all[i] < 0 ? (double)NAN : all[i]; /* values are >= 0: -1 means nobody held it */
}

#endif
