/* cases_topk.c - gpuc_mpi_topk across ranks: every result equals a plain C oracle and gpuc_topk on the
 * gathered data (values bit for bit, global indices), for sizes that do not divide evenly, empty ranks,
 * host and device parts, largest and smallest, root 0, the last rank and every rank, NaN / -0.0 /
 * infinities / ties across ranks; and every failure reaches every rank. */
#include "local_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plain C oracle: a full sort of the global indices by C float comparisons ---- */

static const float *oracle_data;
static bool oracle_smallest;

/* Whether element i comes before element j (gpuc.h ORDER, written with C comparisons, not keys). */
static bool comes_before(size_t i, size_t j)
{
    float a = oracle_data[i], b = oracle_data[j];
    bool na = isnan(a), nb = isnan(b);
    if (na != nb) /* NaN is above everything: first among the largest, last among the smallest */
        return oracle_smallest ? nb : na;
    if (!na && a != b) /* -0.0 == +0.0 here, as C says */
        return oracle_smallest ? a < b : a > b;
    return i < j;
}

static int oracle_compare(const void *pa, const void *pb)
{
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    return i == j ? 0 : comes_before(i, j) ? -1 : 1;
}

static size_t *oracle_topk(const float *all, size_t n, bool smallest)
{
    size_t *order = malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    oracle_data = all;
    oracle_smallest = smallest;
    qsort(order, n, sizeof *order, oracle_compare);
    return order;
}

/* ---- one case ---- */

typedef struct topk_case {
    data_kind kind;
    size_t n, k;
    bool smallest;
    int root;
    bool device;
    uint32_t seed;
} topk_case;

static const char *root_name(int root)
{
    static char name[32];
    if (root == GPUC_MPI_ALL_RANKS)
        return "all ranks";
    snprintf(name, sizeof name, "root %d", root);
    return name;
}

/* The single-device call on the gathered data must give what the distributed one gave. */
static void compare_single_device(const topk_case *t, const float *all, const float *values, const int64_t *indices)
{
    gpuc_array *va = NULL, *ia = NULL;
    gpuc_status st = gpuc_topk(wgpu, gpuc_arg_host_f32(all, (gpuc_dims){(uint32_t)t->n, 0, 0}),
                               &(gpuc_topk_desc){.k = t->k, .smallest = t->smallest}, &va, &ia);
    float *sv = malloc(t->k * sizeof *sv);
    int32_t *si = malloc(t->k * sizeof *si);
    if (WCHECK(st == GPUC_OK, "gpuc_topk on the gathered data: %s", gpuc_errmsg(wgpu)) &&
        WCHECK(gpuc_array_read_f32(va, sv, t->k) == GPUC_OK && gpuc_array_read_i32(ia, si, t->k) == GPUC_OK,
               "reading gpuc_topk's results: %s", gpuc_errmsg(wgpu))) {
        for (size_t i = 0; i < t->k; i++) {
            if (!WCHECK(indices[i] == si[i] && float_bits(values[i]) == float_bits(sv[i]),
                        "place %zu: distributed %g (0x%08x) at %lld, gpuc_topk %g (0x%08x) at %d", i, values[i],
                        float_bits(values[i]), (long long)indices[i], sv[i], float_bits(sv[i]), si[i]))
                break;
        }
    }
    free(sv);
    free(si);
    gpuc_array_free(va);
    gpuc_array_free(ia);
}

static void run_case(const topk_case *t)
{
    char name[160];
    static const char *const kinds[] = {"plain", "special", "ties"};
    snprintf(name, sizeof name, "topk %s n=%zu k=%zu %s, %s, %s parts", kinds[t->kind], t->n, t->k,
             t->smallest ? "smallest" : "largest", root_name(t->root), t->device ? "device" : "host");
    worker_case(name);
    float *all = data_floats(t->kind, t->n, t->seed);
    gpuc_array *owned;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, false, t->n, t->device, &owned, &lo, &hi);
    bool receives = t->root == GPUC_MPI_ALL_RANKS || t->root == wrank;
    float *values = malloc(t->k * sizeof *values);
    int64_t *indices = malloc(t->k * sizeof *indices);
    for (size_t i = 0; i < t->k; i++) {
        values[i] = -12345.0f;
        indices[i] = -7;
    }
    /* Ranks that do not receive pass their buffers too on odd sizes: they must stay untouched. */
    bool pass_buffers = receives || t->n % 2;
    gpuc_status st =
        gpuc_mpi_topk(wgpu, wcomm, part, &(gpuc_mpi_topk_desc){.k = t->k, .smallest = t->smallest, .root = t->root},
                      pass_buffers ? values : NULL, pass_buffers ? indices : NULL);
    WCHECK(st == GPUC_OK, "gpuc_mpi_topk -> %s: %s", gpuc_status_name(st), gpuc_mpi_errmsg());
    if (st == GPUC_OK && receives) {
        size_t *order = oracle_topk(all, t->n, t->smallest);
        for (size_t i = 0; i < t->k; i++) {
            if (!WCHECK(indices[i] == (int64_t)order[i] && float_bits(values[i]) == float_bits(all[order[i]]),
                        "place %zu: got %g (0x%08x) at %lld, the oracle %g (0x%08x) at %zu", i, values[i],
                        float_bits(values[i]), (long long)indices[i], all[order[i]], float_bits(all[order[i]]),
                        order[i]))
                break;
        }
        free(order);
        compare_single_device(t, all, values, indices);
    } else if (st == GPUC_OK && pass_buffers) {
        WCHECK(values[0] == -12345.0f && indices[0] == -7, "a rank that does not receive had its buffers written");
    }
    gpuc_array_free(owned);
    free(values);
    free(indices);
    free(all);
}

/* Either output alone: values without indices, indices without values. */
static void one_output_cases(void)
{
    worker_case("topk values only, then indices only");
    const size_t n = 50, k = 5;
    float *all = data_floats(DATA_PLAIN, n, 13);
    gpuc_array *owned;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, false, n, true, &owned, &lo, &hi);
    size_t *order = oracle_topk(all, n, false);
    float values[5];
    int64_t indices[5];
    gpuc_mpi_topk_desc desc = {.k = k, .root = GPUC_MPI_ALL_RANKS};
    WCHECK_OK(gpuc_mpi_topk(wgpu, wcomm, part, &desc, values, NULL));
    WCHECK_OK(gpuc_mpi_topk(wgpu, wcomm, part, &desc, NULL, indices));
    for (size_t i = 0; i < k; i++)
        WCHECK(values[i] == all[order[i]] && indices[i] == (int64_t)order[i], "place %zu: %g at %lld, want %g at %zu",
               i, values[i], (long long)indices[i], all[order[i]], order[i]);
    free(order);
    gpuc_array_free(owned);
    free(all);
}

static void success_cases(void)
{
    static const size_t sizes[] = {1, 2, 3, 5, 7, 1000, 4099};
    const int roots[] = {0, wsize - 1, GPUC_MPI_ALL_RANKS};
    int turn = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        const size_t ks[] = {1, n < 5 ? n : 5, n <= 7 ? n : 64};
        for (int j = 0; j < 3; j++, turn++) {
            if (j > 0 && ks[j] == ks[j - 1])
                continue;
            run_case(&(topk_case){.kind = turn % 2 ? DATA_SPECIAL : DATA_PLAIN,
                                  .n = n,
                                  .k = ks[j],
                                  .smallest = (turn / 2) % 2,
                                  .root = roots[turn % 3],
                                  .device = (turn / 3) % 2,
                                  .seed = 11u + (uint32_t)turn});
        }
    }
    /* Ties everywhere: the order is the global index alone, across rank boundaries. */
    run_case(&(topk_case){.kind = DATA_TIES, .n = 10, .k = 4, .root = GPUC_MPI_ALL_RANKS});
    run_case(&(topk_case){.kind = DATA_TIES, .n = 10, .k = 7, .smallest = true, .root = wsize - 1, .device = true});
    /* Many NaNs, zeros of both signs, infinities and ties spread over every rank; k past them. */
    run_case(&(topk_case){.kind = DATA_SPECIAL, .n = 1000, .k = 300, .root = GPUC_MPI_ALL_RANKS, .seed = 5});
    run_case(&(topk_case){
        .kind = DATA_SPECIAL, .n = 1000, .k = 300, .smallest = true, .root = 0, .device = true, .seed = 5});
    run_case(
        &(topk_case){.kind = DATA_SPECIAL, .n = 37, .k = 37, .root = GPUC_MPI_ALL_RANKS, .device = true, .seed = 9});
}

/* ---- failures: every rank gets the same status, the message names the field or the rank ---- */

static void expect_failure(const char *name, gpuc *gpu, gpuc_arg part, const gpuc_mpi_topk_desc *desc, bool outputs,
                           gpuc_status want, const char *fragment, const char *fragment2)
{
    worker_case(name);
    float values[8] = {42.0f};
    int64_t indices[8] = {42};
    gpuc_status st = gpuc_mpi_topk(gpu, wcomm, part, desc, outputs ? values : NULL, outputs ? indices : NULL);
    WCHECK_FAILS(st, want, fragment);
    if (fragment2)
        WCHECK(strstr(gpuc_mpi_errmsg(), fragment2) != NULL, "message \"%s\" lacks \"%s\"", gpuc_mpi_errmsg(),
               fragment2);
    WCHECK(strstr(gpuc_mpi_errmsg(), "gpuc_mpi_topk: ") == gpuc_mpi_errmsg(), "message \"%s\" does not name the call",
           gpuc_mpi_errmsg());
    WCHECK(values[0] == 42.0f && indices[0] == 42, "outputs written by a failed call");
}

static void failure_cases(void)
{
    const size_t n = 9;
    float *all = data_floats(DATA_PLAIN, n, 3);
    gpuc_array *owned;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, false, n, false, &owned, &lo, &hi);
    int last = wsize - 1;
    char last_rank[32];
    snprintf(last_rank, sizeof last_rank, "rank %d: ", last);
    gpuc_mpi_topk_desc good = {.k = 3, .root = GPUC_MPI_ALL_RANKS};

    if (wsize > 1) {
        gpuc_mpi_topk_desc d = good;
        d.k = wrank == last ? 4 : 3;
        expect_failure("k differs across ranks", wgpu, part, &d, true, GPUC_ERROR_INVALID_ARGUMENT, "k differs",
                       "from 3 to 4");
        d = good;
        d.root = wrank == last ? 0 : GPUC_MPI_ALL_RANKS;
        expect_failure("root differs across ranks", wgpu, part, &d, true, GPUC_ERROR_INVALID_ARGUMENT, "root differs",
                       NULL);
        d = good;
        d.smallest = wrank == 0;
        expect_failure("smallest differs across ranks", wgpu, part, &d, true, GPUC_ERROR_INVALID_ARGUMENT,
                       "smallest differs", NULL);
    }
    int32_t ints[3] = {1, 2, 3};
    expect_failure("an int part on the last rank", wgpu,
                   wrank == last ? gpuc_arg_host_i32(ints, (gpuc_dims){3, 0, 0}) : part, &good, true,
                   GPUC_ERROR_TYPE_MISMATCH, last_rank, "float");
    expect_failure("NULL host data for 5 values on rank 0", wgpu,
                   wrank == 0 ? gpuc_arg_host_f32(NULL, (gpuc_dims){5, 0, 0}) : part, &good, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "rank 0: ", "NULL");
    expect_failure("a scalar as the last rank's part", wgpu, wrank == last ? gpuc_arg_f32(1.0f) : part, &good, true,
                   GPUC_ERROR_TYPE_MISMATCH, last_rank, "scalar");
    expect_failure("no context on the last rank", wrank == last ? NULL : wgpu, part, &good, true,
                   GPUC_ERROR_INVALID_ARGUMENT, last_rank, "context is NULL");
    expect_failure("k > N", wgpu, part, &(gpuc_mpi_topk_desc){.k = n + 1, .root = 0}, true, GPUC_ERROR_INVALID_ARGUMENT,
                   "k = 10 is more than the 9 values", NULL);
    expect_failure("k == 0", wgpu, part, &(gpuc_mpi_topk_desc){.k = 0, .root = 0}, true, GPUC_ERROR_INVALID_ARGUMENT,
                   "k is 0", NULL);
    expect_failure("root out of range", wgpu, part, &(gpuc_mpi_topk_desc){.k = 2, .root = wsize}, true,
                   GPUC_ERROR_INVALID_ARGUMENT, "root", "neither a rank");
    expect_failure("GPUC_MPI_DISTRIBUTED is no top-k root", wgpu, part,
                   &(gpuc_mpi_topk_desc){.k = 2, .root = GPUC_MPI_DISTRIBUTED}, true, GPUC_ERROR_INVALID_ARGUMENT,
                   "root -2", NULL);
    expect_failure("NULL outputs on the receiving rank", wgpu, part, &(gpuc_mpi_topk_desc){.k = 2, .root = last},
                   wrank != last, GPUC_ERROR_INVALID_ARGUMENT, last_rank, "both NULL");
    expect_failure("NULL desc on rank 0", wgpu, part, wrank == 0 ? NULL : &good, true, GPUC_ERROR_INVALID_ARGUMENT,
                   "rank 0: desc is NULL", NULL);
    gpuc *other = NULL;
    gpuc_array *foreign = NULL;
    gpuc_arg theirs = wrank == last ? foreign_part(false, &other, &foreign) : part;
    expect_failure("a device array of another context on the last rank (fails on its device)", wgpu, theirs, &good,
                   true, GPUC_ERROR_INVALID_ARGUMENT, last_rank, "local top-k");
    WCHECK(strstr(gpuc_mpi_errmsg(), "another gpuc context") != NULL, "message \"%s\" lacks the reason",
           gpuc_mpi_errmsg());
    gpuc_close(other);
    free(all);

    /* After all those failures the ranks are still in step: a good call works. */
    run_case(&(topk_case){.kind = DATA_PLAIN, .n = 11, .k = 3, .root = GPUC_MPI_ALL_RANKS, .seed = 2});
}

void cases_topk(void)
{
    success_cases();
    one_output_cases();
    failure_cases();
}
