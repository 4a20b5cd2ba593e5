/* compact.c - gpuc_mpi_compact: each rank compacts its part with gpuc_compact; the survivor counts place
 * each rank's survivors in the global order; they stay where they are (distributed) or travel to the
 * receiving rank(s), which upload them as one device array. */
#include "mpi_parts.h"

#include <stdlib.h>
#include <string.h>

/* The receiving modes, from desc->root. */
static bool valid_root(int root, int size)
{
    return root == GPUC_MPI_DISTRIBUTED || root == GPUC_MPI_ALL_RANKS || (root >= 0 && root < size);
}

static void check_args(mpi_call *c, const gpuc_mpi_compact_desc *desc, const mpi_local *part, gpuc_array **packed,
                       gpuc_mpi_part *where)
{
    if (!packed || !where)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "%s is NULL", !packed ? "packed" : "part");
    if (!desc) {
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT, "desc is NULL");
        return;
    }
    const gpuc_compact_desc *d = &desc->compact;
    if (d->full_length)
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      "compact.full_length is refused across ranks (the survivors of every rank would sit "
                      "behind another rank's zeros); use each part's count (gpuc_mpi_part) instead");
    if (!valid_root(desc->root, c->size))
        mpi_call_fail(c, GPUC_ERROR_INVALID_ARGUMENT,
                      "root %d is neither a rank of the communicator (0..%d), GPUC_MPI_ALL_RANKS nor "
                      "GPUC_MPI_DISTRIBUTED",
                      desc->root, c->size - 1);
    mpi_call_param(c, "root", desc->root);
    mpi_call_param(c, "element type", part->type);
    mpi_call_param(c, "compact.op", d->op);
    mpi_call_param(c, "compact.threshold", d->op != GPUC_COMPARE_NONE ? mpi_param_double(d->threshold) : 0);
    mpi_call_param(c, "compact.predicate", mpi_param_string(d->predicate));
    mpi_call_param(c, "compact.method", d->method);
    mpi_call_param(c, "compact.full_length", d->full_length);
}

/* This rank's compaction: *packed and *count. An empty part has nothing to compact, but its rank still
 * checks the descriptor by compacting one value (gpuc_compact refuses n = 0): a bad op, predicate or
 * method then fails on that rank as on the others, even when every rank is empty. */
static void compact_local(mpi_call *c, const mpi_local *part, const gpuc_compact_desc *desc, gpuc_array **packed,
                          size_t *count)
{
    *packed = NULL;
    *count = 0;
    if (!mpi_call_ok(c))
        return;
    gpuc_status st;
    if (part->n == 0) {
        static const float zero_f = 0.0f;
        static const int32_t zero_i = 0;
        gpuc_arg one = part->type == GPUC_INT ? gpuc_arg_host_i32(&zero_i, (gpuc_dims){1, 0, 0})
                                              : gpuc_arg_host_f32(&zero_f, (gpuc_dims){1, 0, 0});
        gpuc_array *discard = NULL;
        size_t kept = 0;
        DEVICE_TIMED(c, st = gpuc_compact(c->gpu, one, desc, &discard, &kept));
        gpuc_array_free(discard);
    } else {
        DEVICE_TIMED(c, st = gpuc_compact(c->gpu, part->arg, desc, packed, count));
    }
    if (st != GPUC_OK)
        mpi_call_fail_gpuc(c, st, "local compaction");
}

/* The survivors as host data (`count` values of the part's type), for the gather. */
static void *read_survivors(mpi_call *c, const gpuc_array *packed, size_t count, gpuc_type type)
{
    if (!mpi_call_ok(c) || count == 0)
        return NULL;
    void *host = malloc(count * 4);
    if (!host) {
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %zu survivors", count);
        return NULL;
    }
    gpuc_status st;
    if (type == GPUC_INT)
        DEVICE_TIMED(c, st = gpuc_array_read_i32(packed, host, count));
    else
        DEVICE_TIMED(c, st = gpuc_array_read_f32(packed, host, count));
    if (st != GPUC_OK) {
        mpi_call_fail_gpuc(c, st, "reading the survivors back");
        free(host);
        return NULL;
    }
    return host;
}

/* Gathers every rank's survivors (host data) to the receiving rank(s), which upload them as one array
 * into *result. Collective; ends with the agreement that makes the upload's outcome everyone's. */
static void gather_survivors(mpi_call *c, const mpi_parts *parts, const mpi_local *part, gpuc_array *packed,
                             size_t count, int root, gpuc_array **result)
{
    bool everyone = root == GPUC_MPI_ALL_RANKS, receives = everyone || root == c->rank;
    int *counts = malloc((size_t)c->size * sizeof *counts), *displs = malloc((size_t)c->size * sizeof *displs);
    void *mine = read_survivors(c, packed, count, part->type), *all = NULL;
    if (!counts || !displs)
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %d ranks' counts", c->size);
    else
        mpi_parts_gatherv_layout(c, parts, UINT64_MAX, counts, displs, "the survivors");
    if (mpi_call_ok(c) && receives && parts->total > 0 && !(all = malloc((size_t)parts->total * 4)))
        mpi_call_fail(c, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for %llu survivors",
                      (unsigned long long)parts->total);
    if (mpi_call_agree(c) != GPUC_OK)
        goto done;

    MPI_Datatype type = mpi_datatype_of(part->type);
    if (everyone)
        MPI_TIMED(c, MPI_Allgatherv(mine, (int)count, type, all, counts, displs, type, c->comm));
    else
        MPI_TIMED(c, MPI_Gatherv(mine, (int)count, type, all, counts, displs, type, root, c->comm));
    if (receives && parts->total > 0) {
        gpuc_dims dims = {(uint32_t)parts->total, 0, 0};
        gpuc_status st;
        if (parts->total > UINT32_MAX)
            mpi_call_fail(c, GPUC_ERROR_LIMIT, "%llu survivors do not fit one array (at most %u elements)",
                          (unsigned long long)parts->total, UINT32_MAX);
        else {
            if (part->type == GPUC_INT)
                DEVICE_TIMED(c, st = gpuc_array_from_i32(c->gpu, all, dims, result));
            else
                DEVICE_TIMED(c, st = gpuc_array_from_f32(c->gpu, all, dims, result));
            if (st != GPUC_OK)
                mpi_call_fail_gpuc(c, st, "uploading the gathered survivors");
        }
    }
    if (mpi_call_agree(c) != GPUC_OK) {
        gpuc_array_free(*result);
        *result = NULL;
    }
done:
    free(mine);
    free(all);
    free(counts);
    free(displs);
}

gpuc_status gpuc_mpi_compact(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_mpi_compact_desc *desc,
                             gpuc_array **packed, gpuc_mpi_part *where)
{
    mpi_call c;
    if (!mpi_call_begin(&c, "gpuc_mpi_compact", gpu, comm))
        return c.status;
    mpi_local part;
    mpi_local_read(&c, local, "the local part", &part);
    check_args(&c, desc, &part, packed, where);
    mpi_parts parts;
    mpi_parts_init(&c, &parts);
    gpuc_array *mine = NULL, *gathered = NULL;
    size_t count = 0;
    if (mpi_call_agree_params(&c) != GPUC_OK)
        goto end;

    compact_local(&c, &part, &desc->compact, &mine, &count);
    mpi_parts_share(&c, &parts, count); /* a rank that failed sends 0: the agreement below fails all */
    if (desc->root == GPUC_MPI_DISTRIBUTED) {
        if (mpi_call_agree(&c) != GPUC_OK)
            goto end;
        *packed = mine;
        *where = (gpuc_mpi_part){count, parts.offset, parts.total};
        mine = NULL;
        goto end;
    }
    gather_survivors(&c, &parts, &part, mine, count, desc->root, &gathered);
    if (!mpi_call_ok(&c))
        goto end;
    bool receives = desc->root == GPUC_MPI_ALL_RANKS || desc->root == c.rank;
    *packed = gathered;
    *where = receives ? (gpuc_mpi_part){(size_t)parts.total, 0, parts.total} : (gpuc_mpi_part){0, 0, parts.total};
end:
    gpuc_array_free(mine);
    mpi_parts_free(&parts);
    return mpi_call_end(&c);
}
