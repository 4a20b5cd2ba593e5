/* topk.c - gpuc_mpi_topk: each rank's gpuc_topk picks at most k candidates from its part, the candidates
 * travel to the root(s) in one gather, and the root merges them on the host in gpuc.h's top-k ORDER. */
#include "mpi_parts.h"

#include <stdlib.h>
#include <string.h>

/* One candidate as it travels: its value's bits and its global index (16 bytes, sent as MPI_BYTE). */
typedef struct candidate {
    uint32_t bits;
    uint32_t key; /* order_key(bits), filled in where the candidates are merged */
    int64_t index;
} candidate;

/* gpuc.h's ORDER as an unsigned key: -inf < negatives < -0.0 == +0.0 < positives < +inf < every NaN
 * (all NaNs one key, so they tie and fall to the index). */
static uint32_t order_key(uint32_t bits)
{
    uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u)
        return UINT32_MAX;
    if (magnitude == 0)
        return 0x80000000u;
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

/* Whether candidate a comes before b: ties go to the lower global index, for largest and smallest alike. */
static bool comes_first(const candidate *a, const candidate *b, bool smallest)
{
    if (a->key != b->key)
        return smallest ? a->key < b->key : a->key > b->key;
    return a->index < b->index;
}

/* The merge's state: one run per rank (run r is all[head[r] .. end[r]), already in ORDER, as gpuc_topk
 * returns it), and a binary heap of the runs that still hold candidates, by their head candidate. */
typedef struct merge {
    const candidate *all;
    int *head, *end, *heap;
    int size;
    bool smallest;
} merge;

static bool run_first(const merge *m, int a, int b)
{
    return comes_first(&m->all[m->head[a]], &m->all[m->head[b]], m->smallest);
}

static void sift_down(merge *m, int at)
{
    for (;;) {
        int first = at, l = 2 * at + 1, r = l + 1;
        if (l < m->size && run_first(m, m->heap[l], m->heap[first]))
            first = l;
        if (r < m->size && run_first(m, m->heap[r], m->heap[first]))
            first = r;
        if (first == at)
            return;
        int t = m->heap[at];
        m->heap[at] = m->heap[first];
        m->heap[first] = t;
        at = first;
    }
}

/* Takes the first k candidates of the P runs into values / indices (either may be NULL):
 * O(P + k log P) comparisons. The runs together hold at least k candidates (k <= global n). */
static void merge_runs(merge *m, int runs, size_t k, float *values, int64_t *indices)
{
    m->size = 0;
    for (int r = 0; r < runs; r++)
        if (m->head[r] < m->end[r])
            m->heap[m->size++] = r;
    for (int i = m->size / 2 - 1; i >= 0; i--)
        sift_down(m, i);
    for (size_t i = 0; i < k && m->size > 0; i++) {
        int r = m->heap[0];
        const candidate *c = &m->all[m->head[r]++];
        if (values)
            memcpy(&values[i], &c->bits, sizeof values[i]);
        if (indices)
            indices[i] = c->index;
        if (m->head[r] == m->end[r])
            m->heap[0] = m->heap[--m->size];
        sift_down(m, 0);
    }
}

/* This rank's candidates: gpuc_topk over its part for `want` values, read back and given global
 * indices. Records a failure on c and returns NULL on trouble (or when want is 0). */
static candidate *local_candidates(mpi_call *c, const mpi_local *part, size_t want, bool smallest, uint64_t offset)
{
    if (want == 0 || !mpi_call_ok(c))
        return NULL;
    candidate *out = malloc(want * sizeof *out);
    float *values = malloc(want * sizeof *values);
    int32_t *indices = malloc(want * sizeof *indices);
    gpuc_array *va = NULL, *ia = NULL;
    gpuc_status st = GPUC_OK;
    if (!out || !values || !indices) {
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %zu candidates", want);
        goto done;
    }
    DEVICE_TIMED(c, st = gpuc_topk(c->gpu, part->arg, &(gpuc_topk_desc){.k = want, .smallest = smallest}, &va, &ia));
    if (st == GPUC_OK)
        DEVICE_TIMED(c, st = gpuc_array_read_f32(va, values, want));
    if (st == GPUC_OK)
        DEVICE_TIMED(c, st = gpuc_array_read_i32(ia, indices, want));
    if (st != GPUC_OK) {
        mpi_call_fail_gpuc(c, st, "local top-k");
        goto done;
    }
    for (size_t i = 0; i < want; i++) {
        memcpy(&out[i].bits, &values[i], sizeof out[i].bits);
        out[i].key = 0;
        out[i].index = (int64_t)offset + indices[i];
    }
done:
    gpuc_array_free(va);
    gpuc_array_free(ia);
    free(values);
    free(indices);
    if (!mpi_call_ok(c)) {
        free(out);
        return NULL;
    }
    return out;
}

/* Checks what this rank passed (recording the first problem on c) and adds the shared parameters. */
static void check_args(mpi_call *c, const gpuc_mpi_topk_desc *desc, bool receives, const float *values,
                       const int64_t *indices, const mpi_local *part)
{
    if (!desc) {
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "desc is NULL");
        return;
    }
    if (part->type != GPUC_FLOAT)
        mpi_call_fail(c, GPUC_ERROR_TYPE_MISMATCH, "the local part holds ints; top-k takes float values");
    if (desc->k == 0)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "k is 0; ask for at least one value");
    if (desc->root != GPUC_MPI_ALL_RANKS && (desc->root < 0 || desc->root >= c->size))
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      "root %d is neither a rank of the communicator (0..%d) nor GPUC_MPI_ALL_RANKS", desc->root,
                      c->size - 1);
    else if (receives && !values && !indices)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      "values and indices are both NULL on rank %d, which receives the result", c->rank);
    mpi_call_param(c, "k", (int64_t)(desc->k > INT64_MAX ? INT64_MAX : desc->k));
    mpi_call_param(c, "smallest", desc->smallest);
    mpi_call_param(c, "root", desc->root);
}

gpuc_status gpuc_mpi_topk(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_mpi_topk_desc *desc, float *values,
                          int64_t *indices)
{
    mpi_call c;
    if (!mpi_call_begin(&c, "gpuc_mpi_topk", gpu, comm))
        return c.status;
    mpi_local part;
    mpi_local_read(&c, local, "the local part", &part);
    bool everyone = desc && desc->root == GPUC_MPI_ALL_RANKS;
    bool receives = desc && (everyone || desc->root == c.rank);
    check_args(&c, desc, receives, values, indices, &part);
    mpi_parts parts;
    mpi_parts_init(&c, &parts);
    int *counts = malloc((size_t)c.size * sizeof *counts), *displs = malloc((size_t)c.size * sizeof *displs);
    if (!counts || !displs)
        mpi_call_fail(&c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %d ranks' counts", c.size);
    candidate *mine = NULL, *all = NULL;
    int *heap = NULL;
    if (mpi_call_agree_params(&c) != GPUC_OK)
        goto end;

    /* Where each part sits, and how many candidates each rank sends: the same numbers on every rank,
     * so the checks below fail every rank alike without another agreement. */
    mpi_parts_share(&c, &parts, part.n);
    size_t k = desc->k;
    if (k > parts.total) {
        mpi_call_fail(&c, GPUC_ERROR_INVALID_ARGUMENT, "k = %zu is more than the %llu values of all ranks", k,
                      (unsigned long long)parts.total);
        goto end;
    }
    uint64_t gathered = mpi_parts_gatherv_layout(&c, &parts, k, counts, displs, "the candidates (k per rank at most)");
    if (!mpi_call_ok(&c))
        goto end;
    size_t want = part.n < k ? part.n : k;
    mine = local_candidates(&c, &part, want, desc->smallest, parts.offset);
    if (receives && (!(all = malloc((size_t)gathered * sizeof *all)) ||
                     !(heap = malloc((size_t)c.size * sizeof *heap))))
        mpi_call_fail(&c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %llu candidates",
                      (unsigned long long)gathered);
    if (mpi_call_agree(&c) != GPUC_OK)
        goto end;

    /* A candidate travels as 16 opaque bytes: one element of a contiguous type, so that the counts
     * stay in candidates (an int each). */
    MPI_Datatype record;
    MPI_Type_contiguous((int)sizeof(candidate), MPI_BYTE, &record);
    MPI_Type_commit(&record);
    if (everyone)
        MPI_TIMED(&c, MPI_Allgatherv(mine, (int)want, record, all, counts, displs, record, comm));
    else
        MPI_TIMED(&c, MPI_Gatherv(mine, (int)want, record, all, counts, displs, record, desc->root, comm));
    MPI_Type_free(&record);

    if (receives) { /* the merge cannot fail: nothing left to agree on */
        for (uint64_t i = 0; i < gathered; i++)
            all[i].key = order_key(all[i].bits);
        for (int r = 0; r < c.size; r++)
            counts[r] += displs[r]; /* each run's end */
        merge m = {.all = all, .head = displs, .end = counts, .heap = heap, .smallest = desc->smallest};
        merge_runs(&m, c.size, k, values, indices);
    }
end:
    free(mine);
    free(all);
    free(heap);
    free(counts);
    free(displs);
    mpi_parts_free(&parts);
    return mpi_call_end(&c);
}
