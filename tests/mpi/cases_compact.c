/* cases_compact.c - gpuc_mpi_compact across ranks: distributed, to root 0, to the last rank and to every
 * rank; thresholds and predicates; gather and scatter methods; int and float; host and device parts;
 * empty ranks. Every result is checked against a plain C filter and gpuc_compact on the gathered data,
 * and every failure reaches every rank. */
#include "local_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Predicates with their C twins (the oracle). */
static const char *const keep_low_f = "int keepLow(float v[]) { return v[thread.x] < 0.25 ? 1 : 0; }";
static const char *const keep_odd_i = "int keepOdd(int v[]) { return (v[thread.x] & 1) != 0 ? 1 : 0; }";

typedef struct compact_case {
    bool ints;
    data_kind kind; /* floats only */
    size_t n;
    gpuc_compact_desc compact;
    int root;
    bool device;
    uint32_t seed;
} compact_case;

/* The plain C filter: does value `bits` pass? */
static bool passes(const compact_case *t, uint32_t bits)
{
    const gpuc_compact_desc *d = &t->compact;
    if (t->ints) {
        int32_t v = (int32_t)bits, th = (int32_t)d->threshold;
        switch (d->op) {
        case GPUC_GREATER: return v > th;
        case GPUC_GREATER_EQUAL: return v >= th;
        case GPUC_LESS: return v < th;
        case GPUC_LESS_EQUAL: return v <= th;
        case GPUC_EQUAL: return v == th;
        case GPUC_NOT_EQUAL: return v != th;
        default: return (v & 1) != 0; /* keep_odd_i */
        }
    }
    float v = float_of_bits(bits), th = (float)d->threshold;
    switch (d->op) {
    case GPUC_GREATER: return v > th;
    case GPUC_GREATER_EQUAL: return v >= th;
    case GPUC_LESS: return v < th;
    case GPUC_LESS_EQUAL: return v <= th;
    case GPUC_EQUAL: return v == th;
    case GPUC_NOT_EQUAL: return v != th;
    default: return v < 0.25f; /* keep_low_f */
    }
}

static const char *root_name(int root)
{
    static char name[32];
    if (root == GPUC_MPI_ALL_RANKS)
        return "all ranks";
    if (root == GPUC_MPI_DISTRIBUTED)
        return "distributed";
    snprintf(name, sizeof name, "root %d", root);
    return name;
}

/* Reads `a` (count values of the case's type) as bits; NULL a gives nothing. */
static uint32_t *read_bits(const compact_case *t, const gpuc_array *a, size_t count)
{
    uint32_t *bits = malloc((count ? count : 1) * sizeof *bits);
    gpuc_status st =
        t->ints ? gpuc_array_read_i32(a, (int32_t *)bits, count) : gpuc_array_read_f32(a, (float *)bits, count);
    WCHECK(st == GPUC_OK, "reading %zu survivors: %s", count, gpuc_errmsg(wgpu));
    return bits;
}

/* got[0 .. count) must equal want[0 .. count), bit for bit. */
static void compare_bits(const char *what, const uint32_t *got, const uint32_t *want, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!WCHECK(got[i] == want[i], "%s: survivor %zu is 0x%08x, expected 0x%08x", what, i, got[i], want[i]))
            return;
}

static void run_case(const compact_case *t)
{
    char name[200];
    const gpuc_compact_desc *d = &t->compact;
    snprintf(name, sizeof name, "compact %s n=%zu %s %s, %s, %s parts",
             t->ints                   ? "int"
             : t->kind == DATA_SPECIAL ? "special float"
                                       : "float",
             t->n, d->predicate ? "predicate" : "threshold", d->method == GPUC_COMPACT_SCATTER ? "scatter" : "gather",
             root_name(t->root), t->device ? "device" : "host");
    worker_case(name);
    uint32_t *all =
        t->ints ? (uint32_t *)data_ints(t->n, t->seed, 1000) : (uint32_t *)data_floats(t->kind, t->n, t->seed);
    gpuc_array *owned, *packed = (gpuc_array *)&name; /* must be replaced */
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, t->ints, t->n, t->device, &owned, &lo, &hi);
    gpuc_mpi_part where = {99, 99, 99};
    gpuc_status st =
        gpuc_mpi_compact(wgpu, wcomm, part, &(gpuc_mpi_compact_desc){.compact = *d, .root = t->root}, &packed, &where);
    gpuc_array_free(owned);
    if (!WCHECK(st == GPUC_OK, "gpuc_mpi_compact -> %s: %s", gpuc_status_name(st), gpuc_mpi_errmsg())) {
        free(all);
        return;
    }

    /* The oracle: survivors in global order, and how many lie below this rank's slice and in it. */
    uint32_t *want = malloc((t->n ? t->n : 1) * sizeof *want);
    size_t total = 0, below = 0, in_slice = 0;
    for (size_t i = 0; i < t->n; i++)
        if (passes(t, all[i])) {
            want[total++] = all[i];
            below += i < lo;
            in_slice += i >= lo && i < hi;
        }

    /* The single-device call on the gathered data gives the same survivors. */
    if (t->n > 0) {
        gpuc_array *single = NULL;
        size_t count = 0;
        gpuc_arg whole = t->ints ? gpuc_arg_host_i32((const int32_t *)all, (gpuc_dims){(uint32_t)t->n, 0, 0})
                                 : gpuc_arg_host_f32((const float *)all, (gpuc_dims){(uint32_t)t->n, 0, 0});
        if (WCHECK(gpuc_compact(wgpu, whole, d, &single, &count) == GPUC_OK, "gpuc_compact: %s", gpuc_errmsg(wgpu)) &&
            WCHECK(count == total, "gpuc_compact kept %zu, the oracle %zu", count, total) && count) {
            uint32_t *got = read_bits(t, single, count);
            compare_bits("gpuc_compact against the oracle", got, want, count);
            free(got);
        }
        gpuc_array_free(single);
    }

    bool receives = t->root == GPUC_MPI_ALL_RANKS || t->root == wrank;
    size_t expect_count = t->root == GPUC_MPI_DISTRIBUTED ? in_slice : receives ? total : 0;
    uint64_t expect_offset = t->root == GPUC_MPI_DISTRIBUTED ? below : 0;
    WCHECK(where.count == expect_count && where.offset == expect_offset && where.total == total,
           "part {%zu, %llu, %llu}, expected {%zu, %llu, %zu}", where.count, (unsigned long long)where.offset,
           (unsigned long long)where.total, expect_count, (unsigned long long)expect_offset, total);
    WCHECK((packed == NULL) == (expect_count == 0), "packed is %s with %zu survivors here",
           packed ? "an array" : "NULL", expect_count);
    if (packed && expect_count &&
        WCHECK(gpuc_array_cells(packed) == expect_count, "packed holds %zu cells", gpuc_array_cells(packed))) {
        uint32_t *got = read_bits(t, packed, expect_count);
        compare_bits("gpuc_mpi_compact against the oracle", got, want + expect_offset, expect_count);
        free(got);
    }
    if (packed != (gpuc_array *)&name)
        gpuc_array_free(packed);
    free(want);
    free(all);
}

static bool compute_backend(void)
{
    return gpuc_get_info(wgpu)->backend == GPUC_BACKEND_COMPUTE;
}

static void success_cases(void)
{
    static const size_t sizes[] = {1, 2, 3, 7, 1001, 4099};
    const int roots[] = {GPUC_MPI_DISTRIBUTED, 0, wsize - 1, GPUC_MPI_ALL_RANKS};
    int turn = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int r = 0; r < 4; r++, turn++) {
            compact_case t = {.ints = turn % 3 == 1,
                              .kind = turn % 3 == 2 ? DATA_SPECIAL : DATA_PLAIN,
                              .n = sizes[s],
                              .root = roots[r],
                              .device = (turn / 2) % 2,
                              .seed = 21u + (uint32_t)turn};
            if (turn % 4 == 3)
                t.compact.predicate = t.ints ? keep_odd_i : keep_low_f;
            else if (t.ints)
                t.compact = (gpuc_compact_desc){.op = GPUC_GREATER_EQUAL, .threshold = 100};
            else
                t.compact = (gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 0.5};
            if (turn % 5 == 4 && compute_backend())
                t.compact.method = GPUC_COMPACT_SCATTER;
            run_case(&t);
        }
    /* NaNs pass only !=; -0.0 == +0.0; infinities compare. */
    for (int r = 0; r < 4; r++) {
        run_case(&(compact_case){.kind = DATA_SPECIAL,
                                 .n = 500,
                                 .compact = {.op = GPUC_NOT_EQUAL, .threshold = 0.25},
                                 .root = roots[r],
                                 .seed = 4});
        run_case(&(compact_case){.kind = DATA_SPECIAL,
                                 .n = 500,
                                 .compact = {.op = GPUC_EQUAL, .threshold = -0.0},
                                 .root = roots[r],
                                 .device = true,
                                 .seed = 4});
        run_case(&(compact_case){.kind = DATA_SPECIAL,
                                 .n = 500,
                                 .compact = {.op = GPUC_LESS_EQUAL, .threshold = -INFINITY},
                                 .root = roots[r],
                                 .seed = 4});
    }
    /* Nothing passes, everything passes. */
    run_case(
        &(compact_case){.n = 333, .compact = {.op = GPUC_GREATER, .threshold = 2.0}, .root = GPUC_MPI_DISTRIBUTED});
    run_case(&(compact_case){.n = 333, .compact = {.op = GPUC_GREATER, .threshold = 2.0}, .root = GPUC_MPI_ALL_RANKS});
    run_case(&(compact_case){
        .ints = true, .n = 333, .compact = {.op = GPUC_LESS, .threshold = 5000}, .root = 0, .device = true});
    run_case(&(compact_case){.ints = true,
                             .n = 333,
                             .compact = {.op = GPUC_LESS, .threshold = 5000},
                             .root = GPUC_MPI_DISTRIBUTED,
                             .device = true});
    if (compute_backend())
        for (int r = 0; r < 4; r++)
            run_case(&(compact_case){
                .ints = r % 2,
                .n = 2049,
                .compact = {.predicate = r % 2 ? keep_odd_i : keep_low_f, .method = GPUC_COMPACT_SCATTER},
                .root = roots[r],
                .device = r < 2,
                .seed = 8});
    /* No element anywhere: nothing to compact, every rank agrees. */
    run_case(&(compact_case){.n = 0, .compact = {.op = GPUC_GREATER, .threshold = 0.5}, .root = GPUC_MPI_DISTRIBUTED});
    run_case(&(compact_case){.ints = true, .n = 0, .compact = {.op = GPUC_GREATER, .threshold = 1}, .root = 0});
}

/* ---- failures ---- */

static void expect_failure(const char *name, gpuc_arg part, const gpuc_mpi_compact_desc *desc, bool outputs,
                           gpuc_status want, const char *fragment, const char *fragment2)
{
    worker_case(name);
    gpuc_array *packed = (gpuc_array *)&want;
    gpuc_mpi_part where = {7, 7, 7};
    gpuc_status st = gpuc_mpi_compact(wgpu, wcomm, part, desc, outputs ? &packed : NULL, &where);
    WCHECK_FAILS(st, want, fragment);
    if (fragment2)
        WCHECK(strstr(gpuc_mpi_errmsg(), fragment2) != NULL, "message \"%s\" lacks \"%s\"", gpuc_mpi_errmsg(),
               fragment2);
    WCHECK(strstr(gpuc_mpi_errmsg(), "gpuc_mpi_compact: ") == gpuc_mpi_errmsg(),
           "message \"%s\" does not name the call", gpuc_mpi_errmsg());
    WCHECK(packed == (gpuc_array *)&want && where.count == 7 && where.total == 7, "outputs written by a failed call");
}

static void failure_cases(void)
{
    const size_t n = 13;
    float *all = data_floats(DATA_PLAIN, n, 3);
    gpuc_array *owned;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, false, n, false, &owned, &lo, &hi);
    int last = wsize - 1;
    char last_rank[32];
    snprintf(last_rank, sizeof last_rank, "rank %d: ", last);
    gpuc_mpi_compact_desc good = {.compact = {.op = GPUC_GREATER, .threshold = 0.5}, .root = 0}, d;

    if (wsize > 1) {
        d = good;
        d.compact.op = wrank == last ? GPUC_LESS : GPUC_GREATER;
        expect_failure("op differs across ranks", part, &d, true, GPUC_ERROR_INVALID_ARGUMENT, "compact.op differs",
                       NULL);
        d = good;
        d.compact.threshold = wrank == 0 ? 0.25 : 0.5;
        expect_failure("threshold differs across ranks", part, &d, true, GPUC_ERROR_INVALID_ARGUMENT,
                       "compact.threshold differs", NULL);
        d = good;
        d.root = wrank == last ? GPUC_MPI_DISTRIBUTED : 0;
        expect_failure("root differs across ranks", part, &d, true, GPUC_ERROR_INVALID_ARGUMENT, "root differs", NULL);
        d = (gpuc_mpi_compact_desc){.compact = {.predicate = wrank == last ? keep_low_f
                                                                           : "int keepAll(float v[]) "
                                                                             "{ return 1; }"}};
        expect_failure("predicate differs across ranks", part, &d, true, GPUC_ERROR_INVALID_ARGUMENT,
                       "compact.predicate differs", NULL);
        d = good;
        d.compact.method = wrank == 0 ? GPUC_COMPACT_SCATTER : GPUC_COMPACT_GATHER;
        expect_failure("method differs across ranks", part, &d, true, GPUC_ERROR_INVALID_ARGUMENT,
                       "compact.method differs", NULL);
        int32_t ints[2] = {1, 2};
        expect_failure("element type differs across ranks",
                       wrank == last ? gpuc_arg_host_i32(ints, (gpuc_dims){2, 0, 0}) : part, &good, true,
                       GPUC_ERROR_INVALID_ARGUMENT, "element type differs", NULL);
    }
    /* -0.0 and +0.0 compare alike, so they are one threshold: no mismatch. */
    worker_case("threshold -0.0 on one rank, +0.0 on the others");
    d = (gpuc_mpi_compact_desc){.compact = {.op = GPUC_GREATER, .threshold = wrank == last ? -0.0 : 0.0},
                                .root = GPUC_MPI_DISTRIBUTED};
    gpuc_array *packed = NULL;
    gpuc_mpi_part where;
    WCHECK_OK(gpuc_mpi_compact(wgpu, wcomm, part, &d, &packed, &where));
    gpuc_array_free(packed);

    expect_failure("full_length is refused", part,
                   &(gpuc_mpi_compact_desc){.compact = {.op = GPUC_GREATER, .full_length = true}}, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "full_length", NULL);
    expect_failure("root out of range", part, &(gpuc_mpi_compact_desc){.compact = good.compact, .root = wsize}, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "root", "neither a rank");
    expect_failure("NULL host data for 3 values on the last rank",
                   wrank == last ? gpuc_arg_host_f32(NULL, (gpuc_dims){3, 0, 0}) : part, &good, true,
                   GPUC_ERROR_INVALID_ARGUMENT, last_rank, "NULL");
    expect_failure("no output pointer on the last rank", part, &good, wrank != last, GPUC_ERROR_INVALID_ARGUMENT,
                   last_rank, "packed is NULL");
    expect_failure("a predicate that does not compile", part,
                   &(gpuc_mpi_compact_desc){.compact = {.predicate = "int broken(float v[]) { return v[thread.x] +; }"},
                                            .root = GPUC_MPI_ALL_RANKS},
                   true, GPUC_ERROR_COMPILE, "rank 0: local compaction", NULL);
    expect_failure("an unknown op", part, &(gpuc_mpi_compact_desc){.compact = {.op = 99}}, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "rank 0: local compaction", NULL);
    /* One value on the last rank, the others empty: an empty rank checks the descriptor too. */
    float one = 1.0f;
    gpuc_arg single =
        wrank == last ? gpuc_arg_host_f32(&one, (gpuc_dims){1, 0, 0}) : gpuc_arg_host_f32(NULL, (gpuc_dims){0, 0, 0});
    expect_failure("a fractional int threshold, checked on empty ranks too",
                   wrank == last ? gpuc_arg_host_i32((const int32_t *)&one, (gpuc_dims){1, 0, 0})
                                 : gpuc_arg_host_i32(NULL, (gpuc_dims){0, 0, 0}),
                   &(gpuc_mpi_compact_desc){.compact = {.op = GPUC_GREATER, .threshold = 0.5}}, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "rank 0: local compaction", "threshold");
    if (!compute_backend())
        expect_failure("scatter on the fragment backend", single,
                       &(gpuc_mpi_compact_desc){.compact = {.op = GPUC_GREATER, .method = GPUC_COMPACT_SCATTER}}, true,
                       GPUC_ERROR_INVALID_ARGUMENT, "rank 0: local compaction", "compute-only");
    const int modes[] = {GPUC_MPI_DISTRIBUTED, 0};
    for (int m = 0; m < 2; m++) {
        gpuc *other = NULL;
        gpuc_array *foreign = NULL;
        gpuc_arg theirs = wrank == last ? foreign_part(false, &other, &foreign) : part;
        expect_failure(m ? "a device array of another context on the last rank, gathered"
                         : "a device array of another context on the last rank, distributed",
                       theirs, &(gpuc_mpi_compact_desc){.compact = good.compact, .root = modes[m]}, true,
                       GPUC_ERROR_INVALID_ARGUMENT, last_rank, "another gpuc context");
        gpuc_close(other);
    }
    free(all);
    run_case(&(compact_case){.n = 17, .compact = {.op = GPUC_LESS, .threshold = 0.5}, .root = GPUC_MPI_ALL_RANKS});
}

void cases_compact(void)
{
    success_cases();
    failure_cases();
}
