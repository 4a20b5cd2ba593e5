/* scan.c - gpuc_mpi_scan: each rank scans its part with gpuc_scan, reads back only its total (one cell of
 * a small kernel), an MPI_Exscan sums the totals of the lower ranks, and one kernel pass adds that sum to
 * the rank's prefix. */
#include "mpi_call.h"

#include <stdio.h>
#include <string.h>

/* The rank's total from its last prefix (and, for an exclusive scan, its last value): one cell, so that
 * one value comes back rather than the part. `last` and `exclusive` are uniforms: one program per
 * context and type serves every length. */
static const char *const total_source_f = "float rankTotal(float prefix[], float values[], int last, int exclusive) {\n"
                                          "    return exclusive != 0 ? prefix[last] + values[last] : prefix[last];\n"
                                          "}\n";
static const char *const total_source_i = "int rankTotal(int prefix[], int values[], int last, int exclusive) {\n"
                                          "    return exclusive != 0 ? prefix[last] + values[last] : prefix[last];\n"
                                          "}\n";
/* The add pass: the lower ranks' sum is a uniform, so the program compiles once per context and type. */
static const char *const add_source_f = "float addLowerRanks(float prefix[], float lower) {\n"
                                        "    return prefix[thread.x] + lower;\n"
                                        "}\n";
static const char *const add_source_i = "int addLowerRanks(int prefix[], int lower) {\n"
                                        "    return prefix[thread.x] + lower;\n"
                                        "}\n";

/* The sum carried across ranks: float, or int32 that wraps as gpuc_scan's sums do (summed as uint32,
 * where wrapping is defined). */
typedef union carry {
    float f;
    uint32_t u;
} carry;

/* Runs a one-kernel step (`source`, output n cells, pipeline or read back) into *out. */
static void run_step(mpi_call *c, const char *source, uint32_t n, bool pipeline, const gpuc_arg *args, int nargs,
                     gpuc_array **out, const char *what)
{
    if (!mpi_call_ok(c))
        return;
    gpuc_kernel *k = NULL;
    gpuc_status st;
    gpuc_kernel_desc desc = {.output = {n, 0, 0}, .pipeline = pipeline};
    DEVICE_TIMED(c, st = gpuc_create_kernel(c->gpu, source, &desc, &k));
    if (st == GPUC_OK)
        DEVICE_TIMED(c, st = gpuc_run(k, args, nargs, out));
    if (st != GPUC_OK)
        mpi_call_fail_gpuc(c, st, what);
    gpuc_kernel_free(k);
}

/* This rank's local prefix (*prefix) and total (*total). A host part is uploaded once, first, so that
 * the scan and the total's kernel both read the same device copy. */
static void scan_local(mpi_call *c, const mpi_local *part, bool inclusive, gpuc_array **prefix, carry *total)
{
    memset(total, 0, sizeof *total);
    if (!mpi_call_ok(c) || part->n == 0)
        return;
    gpuc_array *uploaded = NULL, *cell = NULL;
    gpuc_arg values = part->arg;
    gpuc_status st = GPUC_OK;
    bool is_int = part->type == GPUC_INT;
    if (values.kind != GPUC_ARG_ARRAY) {
        gpuc_dims dims = {(uint32_t)part->n, 0, 0};
        if (is_int)
            DEVICE_TIMED(c, st = gpuc_array_from_i32(c->gpu, values.host, dims, &uploaded));
        else
            DEVICE_TIMED(c, st = gpuc_array_from_f32(c->gpu, values.host, dims, &uploaded));
        if (st != GPUC_OK) {
            mpi_call_fail_gpuc(c, st, "uploading the local part");
            return;
        }
        values = gpuc_arg_array(uploaded);
    }
    DEVICE_TIMED(c, st = gpuc_scan(c->gpu, values, &(gpuc_scan_desc){.inclusive = inclusive}, prefix));
    if (st != GPUC_OK)
        mpi_call_fail_gpuc(c, st, "local scan");
    gpuc_arg args[] = {gpuc_arg_array(*prefix), values, gpuc_arg_i32((int32_t)(part->n - 1)), gpuc_arg_i32(!inclusive)};
    run_step(c, is_int ? total_source_i : total_source_f, 1, false, args, 4, &cell, "the rank's total");
    if (mpi_call_ok(c)) {
        if (is_int)
            DEVICE_TIMED(c, st = gpuc_array_read_i32(cell, (int32_t *)&total->u, 1));
        else
            DEVICE_TIMED(c, st = gpuc_array_read_f32(cell, &total->f, 1));
        if (st != GPUC_OK)
            mpi_call_fail_gpuc(c, st, "reading the rank's total");
    }
    gpuc_array_free(cell);
    gpuc_array_free(uploaded);
}

/* Adds the lower ranks' sum to the local prefix (replacing *prefix). Nothing to add on a rank whose lower
 * ranks sum to +0.0 or 0 (rank 0 among them): the pass is skipped. */
static void add_lower(mpi_call *c, const mpi_local *part, carry lower, gpuc_array **prefix)
{
    if (!mpi_call_ok(c) || part->n == 0 || lower.u == 0)
        return;
    bool is_int = part->type == GPUC_INT;
    int32_t as_int;
    memcpy(&as_int, &lower.u, sizeof as_int);
    gpuc_arg args[] = {gpuc_arg_array(*prefix), is_int ? gpuc_arg_i32(as_int) : gpuc_arg_f32(lower.f)};
    gpuc_array *added = NULL;
    run_step(c, is_int ? add_source_i : add_source_f, (uint32_t)part->n, true, args, 2, &added,
             "adding the lower ranks' sum");
    if (added) {
        gpuc_array_free(*prefix);
        *prefix = added;
    }
}

gpuc_status gpuc_mpi_scan(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_scan_desc *desc, gpuc_array **prefix)
{
    mpi_call c;
    if (!mpi_call_begin(&c, "gpuc_mpi_scan", gpu, comm))
        return c.status;
    mpi_local part;
    mpi_local_read(&c, local, "the local part", &part);
    if (!prefix)
        mpi_call_fail(&c, GPUC_ERROR_INVALID_ARGUMENT, "prefix is NULL");
    bool inclusive = desc && desc->inclusive;
    mpi_call_param(&c, "inclusive", inclusive);
    mpi_call_param(&c, "element type", part.type);
    gpuc_array *mine = NULL;
    if (mpi_call_agree_params(&c) != GPUC_OK)
        goto end;

    carry total, lower = {.u = 0};
    scan_local(&c, &part, inclusive, &mine, &total);
    /* A rank that failed adds 0 and goes on: the agreement at the end fails every rank. */
    bool is_int = part.type == GPUC_INT;
    MPI_TIMED(&c, MPI_Exscan(&total, &lower, 1, is_int ? MPI_UINT32_T : MPI_FLOAT, MPI_SUM, comm));
    if (c.rank == 0)
        lower.u = 0; /* MPI_Exscan leaves rank 0's result undefined */
    add_lower(&c, &part, lower, &mine);
    if (mpi_call_agree(&c) != GPUC_OK)
        goto end;
    *prefix = mine;
    mine = NULL;
end:
    gpuc_array_free(mine);
    return mpi_call_end(&c);
}
