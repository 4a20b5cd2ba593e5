/* sort.c - gpuc_mpi_sort and gpuc_mpi_sort_pairs: a sample sort across ranks. Each rank sorts its part
 * on its device and reads it back, the ranks share samples and agree on splitters, the cut runs travel
 * by MPI_Alltoallv, and each rank merges what it received and uploads it as its slice. */
#include "mpi_call.h"
#include "sort_host.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One call's state; everything it holds is freed by job_free, whatever happened. */
typedef struct sort_job {
    mpi_call c;
    sort_order order;
    gpuc_sort_method method;   /* passed on to each rank's local sort */
    mpi_local keys, values;
    bool pairs;
    uint64_t *sizes;           /* keys on each rank */
    uint64_t offset, total;    /* this rank's first global index; keys on all ranks */
    sort_sample *samples;      /* every rank's p samples, then the ordered ones */
    uint64_t *below, *place;   /* per sample: this run's keys before it; all runs' keys before it */
    sort_sample *splitters;    /* p - 1 */
    uint64_t *bounds;          /* p + 1: where each rank's slice starts in the global order */
    int *send_counts, *send_displs, *recv_counts, *recv_displs;
    uint32_t *run_keys, *run_values; /* this rank's part, sorted (the raw 32-bit words) */
    size_t received;
    uint32_t *slice_keys, *slice_values; /* what this rank received, then its merged slice */
    gpuc_array *out_keys, *out_values;
} sort_job;

static void job_free(sort_job *job)
{
    free(job->sizes);
    free(job->samples);
    free(job->below);
    free(job->place);
    free(job->splitters);
    free(job->bounds);
    free(job->send_counts);
    free(job->send_displs);
    free(job->recv_counts);
    free(job->recv_displs);
    free(job->run_keys);
    free(job->run_values);
    free(job->slice_keys);
    free(job->slice_values);
    gpuc_array_free(job->out_keys);
    gpuc_array_free(job->out_values);
}

/* Reads the local input and the parameters every rank must share; allocates the per-rank tables. */
static void job_check(sort_job *job, gpuc_arg keys, const gpuc_arg *values, const gpuc_sort_desc *desc,
                      bool have_outputs)
{
    mpi_call *c = &job->c;
    if (!have_outputs)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      job->pairs ? "sorted_values or part is NULL" : "sorted or part is NULL");
    mpi_local_read(c, keys, "keys", &job->keys);
    if (values && mpi_local_read(c, *values, "values", &job->values) && mpi_call_ok(c) &&
        job->values.n != job->keys.n)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "keys has %zu elements but values has %zu on this rank",
                      job->keys.n, job->values.n);
    if (job->keys.n > INT_MAX) /* MPI counts are ints */
        mpi_call_fail(c, GPUC_ERROR_LIMIT, "keys: %zu elements on this rank; MPI counts hold at most 2^31 - 1",
                      job->keys.n);
    job->order = (sort_order){job->keys.type, desc && desc->descending};
    job->method = desc ? desc->method : GPUC_SORT_AUTO;
    if (job->method != GPUC_SORT_AUTO && job->method != GPUC_SORT_BITONIC && job->method != GPUC_SORT_RADIX)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "method %d is not a gpuc_sort_method", (int)job->method);
    mpi_call_param(c, "descending", job->order.descending);
    mpi_call_param(c, "method", job->method);
    mpi_call_param(c, "key type (0 float, 1 int)", job->keys.type == GPUC_INT);
    if (values)
        mpi_call_param(c, "value type (0 float, 1 int)", job->values.type == GPUC_INT);

    size_t p = (size_t)c->size;
    if (p * p > INT_MAX / 2) { /* the samples' counts below are ints; every rank finds it alike */
        mpi_call_fail(c, GPUC_ERROR_LIMIT, "%zu ranks: the P^2 samples would overflow MPI's int counts (at most "
                      "32767 ranks)", p);
        return;
    }
    job->sizes = malloc(p * sizeof *job->sizes);
    job->samples = malloc(p * p * sizeof *job->samples);
    job->below = malloc(p * p * sizeof *job->below);
    job->place = malloc(p * p * sizeof *job->place);
    job->splitters = malloc(p * sizeof *job->splitters);
    job->bounds = malloc((p + 1) * sizeof *job->bounds);
    job->send_counts = malloc(p * sizeof(int));
    job->send_displs = malloc(p * sizeof(int));
    job->recv_counts = malloc(p * sizeof(int));
    job->recv_displs = malloc(p * sizeof(int));
    if (!job->sizes || !job->samples || !job->below || !job->place || !job->splitters || !job->bounds ||
        !job->send_counts || !job->send_displs || !job->recv_counts || !job->recv_displs)
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "no host memory for the tables of %d ranks", c->size);
}

/* Where this rank's part starts and how many keys all ranks hold (collective). */
static void job_place(sort_job *job)
{
    mpi_call *c = &job->c;
    uint64_t n = job->keys.n;
    MPI_TIMED(c, MPI_Allgather(&n, 1, MPI_UINT64_T, job->sizes, 1, MPI_UINT64_T, c->comm));
    for (int r = 0; r < c->size; r++) {
        if (r < c->rank)
            job->offset += job->sizes[r];
        job->total += job->sizes[r];
    }
    if (job->total == 0) /* every rank sees it: all fail alike, no agreement needed */
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      "no rank holds any keys (the global array is empty, and gpuc_sort refuses n = 0 too)");
}

/* Reads a sorted device array back into a new host buffer of raw words. */
static uint32_t *read_back(sort_job *job, gpuc_array *a, const char *what)
{
    size_t n = gpuc_array_cells(a);
    uint32_t *host = malloc(n * sizeof *host);
    if (!host) {
        mpi_call_fail(&job->c, GPUC_ERROR_OUT_OF_MEMORY, "no host memory to read back %zu sorted %s", n, what);
        return NULL;
    }
    gpuc_status st;
    if (gpuc_array_type(a) == GPUC_INT)
        DEVICE_TIMED(&job->c, st = gpuc_array_read_i32(a, (int32_t *)host, n));
    else
        DEVICE_TIMED(&job->c, st = gpuc_array_read_f32(a, (float *)host, n));
    if (st != GPUC_OK) {
        mpi_call_fail_gpuc(&job->c, st, "reading back the locally sorted part");
        free(host);
        return NULL;
    }
    return host;
}

/* Sorts this rank's part on its device. With one rank that is the whole answer: the sorted arrays
 * become the outputs as they are. Otherwise they are read back as the run to cut. */
static void job_sort_locally(sort_job *job, bool want_keys)
{
    mpi_call *c = &job->c;
    if (!mpi_call_ok(c) || job->keys.n == 0)
        return;
    bool alone = c->size == 1;
    gpuc_array *k = NULL, *v = NULL;
    gpuc_status st;
    gpuc_sort_desc d = {.descending = job->order.descending, .method = job->method};
    if (job->pairs)
        DEVICE_TIMED(c, st = gpuc_sort_pairs(c->gpu, job->keys.arg, job->values.arg, &d,
                                             alone && !want_keys ? NULL : &k, &v));
    else
        DEVICE_TIMED(c, st = gpuc_sort(c->gpu, job->keys.arg, &d, &k));
    if (st != GPUC_OK) {
        mpi_call_fail_gpuc(c, st, "sorting this rank's part");
        return;
    }
    if (alone) {
        job->out_keys = k;
        job->out_values = v;
        job->received = job->keys.n;
        return;
    }
    job->run_keys = read_back(job, k, "keys");
    if (v && job->run_keys)
        job->run_values = read_back(job, v, "values");
    gpuc_array_free(k);
    gpuc_array_free(v);
}

/* Samples, splitters, and how many keys go from every rank to every rank (collective). The samples'
 * exact places in the global order are counted (one MPI_Allreduce), so the splitters are the samples
 * nearest to the ideal cuts and every rank knows every slice's size before anything moves. */
static void job_split(sort_job *job)
{
    mpi_call *c = &job->c;
    int p = c->size;
    mpi_sort_pick_samples(job->order, job->run_keys, job->keys.n, job->offset, p, job->samples + (size_t)c->rank * p);
    int words = 2 * p; /* sort_sample is two uint64 words */
    MPI_TIMED(c, MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, job->samples, words, MPI_UINT64_T, c->comm));
    size_t count = mpi_sort_order_samples(job->samples, (size_t)p * (size_t)p);
    for (size_t s = 0; s < count; s++)
        job->below[s] = mpi_sort_count_below(job->order, job->run_keys, job->keys.n, job->offset, job->samples[s]);
    MPI_TIMED(c, MPI_Allreduce(job->below, job->place, (int)count, MPI_UINT64_T, MPI_SUM, c->comm));
    mpi_sort_choose_splitters(job->samples, job->place, count, job->total, p, job->splitters, job->bounds);
    mpi_sort_cut(job->order, job->run_keys, job->keys.n, job->offset, job->splitters, p, job->send_counts);
    MPI_TIMED(c, MPI_Alltoall(job->send_counts, 1, MPI_INT, job->recv_counts, 1, MPI_INT, c->comm));

    uint64_t slice = job->bounds[c->rank + 1] - job->bounds[c->rank], sent = 0, received = 0;
    if (slice > INT_MAX) { /* checked before the displacements below could overflow */
        mpi_call_fail(c, GPUC_ERROR_LIMIT,
                      "this rank's slice would hold %llu keys; MPI counts (and gpuc arrays) hold at most 2^31 - 1",
                      (unsigned long long)slice);
        return;
    }
    for (int r = 0; r < p; r++) {
        job->send_displs[r] = (int)sent;
        job->recv_displs[r] = (int)received;
        sent += (uint64_t)job->send_counts[r];
        received += (uint64_t)job->recv_counts[r];
    }
    if (received != slice) {
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "gpuc bug: %llu keys arrive for a slice of %llu",
                      (unsigned long long)received, (unsigned long long)slice);
        return;
    }
    job->received = (size_t)received;
    size_t room = job->received ? job->received : 1;
    job->slice_keys = malloc(room * sizeof *job->slice_keys);
    if (job->pairs)
        job->slice_values = malloc(room * sizeof *job->slice_values);
    if (!job->slice_keys || (job->pairs && !job->slice_values))
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "no host memory to receive a slice of %zu keys", job->received);
}

/* Sends the runs' pieces to their ranks (collective), merges them and uploads the slice. */
static void job_exchange(sort_job *job, bool want_keys)
{
    mpi_call *c = &job->c;
    MPI_TIMED(c, MPI_Alltoallv(job->run_keys, job->send_counts, job->send_displs, MPI_UINT32_T, job->slice_keys,
                               job->recv_counts, job->recv_displs, MPI_UINT32_T, c->comm));
    if (job->pairs)
        MPI_TIMED(c, MPI_Alltoallv(job->run_values, job->send_counts, job->send_displs, MPI_UINT32_T,
                                   job->slice_values, job->recv_counts, job->recv_displs, MPI_UINT32_T, c->comm));
    if (!mpi_sort_merge_runs(job->order, &job->slice_keys, job->pairs ? &job->slice_values : NULL, job->received,
                         job->recv_counts, c->size)) {
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "no host memory to merge a slice of %zu keys", job->received);
        return;
    }
    if (job->received == 0)
        return;
    gpuc_dims dims = {.x = (uint32_t)job->received};
    gpuc_status st = GPUC_OK;
    if (want_keys) {
        if (job->keys.type == GPUC_INT)
            DEVICE_TIMED(c, st = gpuc_array_from_i32(c->gpu, (const int32_t *)job->slice_keys, dims, &job->out_keys));
        else
            DEVICE_TIMED(c, st = gpuc_array_from_f32(c->gpu, (const float *)job->slice_keys, dims, &job->out_keys));
    }
    if (st == GPUC_OK && job->pairs) {
        if (job->values.type == GPUC_INT)
            DEVICE_TIMED(c, st = gpuc_array_from_i32(c->gpu, (const int32_t *)job->slice_values, dims,
                                                     &job->out_values));
        else
            DEVICE_TIMED(c, st = gpuc_array_from_f32(c->gpu, (const float *)job->slice_values, dims,
                                                     &job->out_values));
    }
    if (st != GPUC_OK)
        mpi_call_fail_gpuc(c, st, "uploading this rank's slice");
}

/* The whole call; `values` NULL for gpuc_mpi_sort. */
static gpuc_status sample_sort(const char *name, gpuc *gpu, MPI_Comm comm, gpuc_arg keys, const gpuc_arg *values,
                               const gpuc_sort_desc *desc, gpuc_array **sorted_keys, gpuc_array **sorted_values,
                               gpuc_mpi_part *part)
{
    sort_job job;
    memset(&job, 0, sizeof job);
    if (!mpi_call_begin(&job.c, name, gpu, comm))
        return job.c.status;
    job.pairs = values != NULL;
    bool want_keys = sorted_keys != NULL;
    job_check(&job, keys, values, desc, part && (job.pairs ? sorted_values != NULL : want_keys));
    /* Each step below either runs on every rank or, after a failed agreement, on none. */
    if (mpi_call_agree_params(&job.c) != GPUC_OK)
        goto done;
    job_place(&job);
    if (!mpi_call_ok(&job.c)) /* failed alike on every rank */
        goto done;
    job_sort_locally(&job, want_keys);
    if (mpi_call_agree(&job.c) != GPUC_OK)
        goto done;
    uint64_t offset = 0;
    if (job.c.size > 1) {
        job_split(&job);
        if (mpi_call_agree(&job.c) != GPUC_OK)
            goto done;
        job_exchange(&job, want_keys);
        if (mpi_call_agree(&job.c) != GPUC_OK)
            goto done;
        offset = job.bounds[job.c.rank];
    }
    if (sorted_keys)
        *sorted_keys = job.out_keys;
    if (sorted_values)
        *sorted_values = job.out_values;
    *part = (gpuc_mpi_part){.count = job.received, .offset = offset, .total = job.total};
    job.out_keys = job.out_values = NULL;
done:
    job_free(&job);
    return mpi_call_end(&job.c);
}

gpuc_status gpuc_mpi_sort(gpuc *gpu, MPI_Comm comm, gpuc_arg keys, const gpuc_sort_desc *desc, gpuc_array **sorted,
                          gpuc_mpi_part *part)
{
    return sample_sort("gpuc_mpi_sort", gpu, comm, keys, NULL, desc, sorted, NULL, part);
}

gpuc_status gpuc_mpi_sort_pairs(gpuc *gpu, MPI_Comm comm, gpuc_arg keys, gpuc_arg values, const gpuc_sort_desc *desc,
                                gpuc_array **sorted_keys, gpuc_array **sorted_values, gpuc_mpi_part *part)
{
    return sample_sort("gpuc_mpi_sort_pairs", gpu, comm, keys, &values, desc, sorted_keys, sorted_values, part);
}
