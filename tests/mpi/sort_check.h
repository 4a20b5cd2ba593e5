/* sort_check.h - one distributed sort case, run and checked on every rank: the global keys (and
 * values) are made from their global index on every rank, each rank sorts its part with
 * gpuc_mpi_sort / gpuc_mpi_sort_pairs, and the slices are checked where they land (counts, offsets,
 * each slice in order) and, gathered on rank 0, bit for bit against gpuc_sort / gpuc_sort_pairs on the
 * whole array and against a plain C oracle (qsort by the documented order, ties by global index). */
#ifndef GPUC_MPI_SORT_CHECK_H
#define GPUC_MPI_SORT_CHECK_H

#include "worker.h"

/* How the global array is spread over the ranks. */
typedef enum sort_layout {
    SORT_EVEN,     /* worker_slice: sizes differ by at most one */
    SORT_LAST,     /* everything on the last rank, the others empty */
    SORT_SKEWED,   /* rank r holds a share proportional to r * r + 1 */
} sort_layout;

/* Global key i (its 32 bits) of a case. */
typedef uint32_t (*sort_key_fn)(uint64_t i);

typedef struct sort_case {
    const char *name;
    uint64_t n;              /* keys on all ranks */
    gpuc_type key_type;      /* GPUC_FLOAT or GPUC_INT */
    sort_key_fn key;
    bool descending;
    bool on_device;          /* non-empty parts as device arrays (else host data) */
    sort_layout layout;
    bool pairs;              /* gpuc_mpi_sort_pairs, values made from the global index */
    gpuc_type value_type;
    bool no_sorted_keys;     /* pairs: pass NULL for sorted_keys */
    double balance;          /* when > 0: every slice holds at most balance * n / P + P keys */
    gpuc_sort_method method; /* asked of gpuc_mpi_sort and of the single-device reference alike */
} sort_case;

/* Runs the case on every rank (collective) and records its checks. */
void sort_check_case(const sort_case *sc);

/* Rank r's part [lo, hi) of n keys under a layout. */
void sort_layout_part(sort_layout layout, uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);

/* Value i of a pairs case: distinct for every index (so ties are checked exactly). */
uint32_t sort_value_word(gpuc_type type, uint64_t i);

/* The host argument for a part of n words of a type (a NULL pointer when empty). */
gpuc_arg sort_host_arg(gpuc_type type, const uint32_t *words, size_t n);

#endif
