/* cases_scan.c - gpuc_mpi_scan across ranks: exclusive and inclusive, int (wrapping) and float, host and
 * device parts, sizes that do not divide evenly and empty ranks, each rank's prefix checked against a
 * plain C running sum and gpuc_scan on the gathered data; what one call reads back and compiles; and
 * every failure reaching every rank. */
#include "local_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan_case {
    bool ints;
    bool exact; /* floats: multiples of 1/256 in [-1, 1), whose sums are exact in any order */
    size_t n;
    bool inclusive;
    bool device;
    uint32_t seed;
} scan_case;

/* The case's global data as 32-bit cells. Ints span about +-2^30, so that their sums wrap. */
static uint32_t *case_data(const scan_case *t)
{
    if (t->ints)
        return (uint32_t *)data_ints(t->n, t->seed, 1 << 30);
    float *all = data_floats(DATA_PLAIN, t->n, t->seed);
    for (size_t i = 0; t->exact && i < t->n; i++)
        all[i] = floorf(all[i] * 512.0f) / 256.0f - 1.0f;
    return (uint32_t *)all;
}

/* got[0 .. count) against want: bits for ints and exact floats, else within the rounding a blockwise
 * float32 sum may differ from a double one by (a few ulps of the running magnitude). */
static void compare(const scan_case *t, const char *what, const uint32_t *got, const double *want, const double *scale,
                    size_t count)
{
    for (size_t i = 0; i < count; i++) {
        bool ok;
        if (t->ints)
            ok = got[i] == (uint32_t)(int64_t)want[i];
        else if (t->exact)
            ok = float_of_bits(got[i]) == (float)want[i];
        else
            ok = fabs(float_of_bits(got[i]) - want[i]) <= 1e-5 * (scale[i] + 1.0);
        if (!WCHECK(ok, "%s: prefix %zu is %.9g (0x%08x), expected %.9g", what, i,
                    t->ints ? (double)(int32_t)got[i] : (double)float_of_bits(got[i]), got[i], want[i]))
            return;
    }
}

static uint32_t *read_cells(const scan_case *t, const gpuc_array *a, size_t count)
{
    uint32_t *cells = malloc((count ? count : 1) * sizeof *cells);
    gpuc_status st =
        t->ints ? gpuc_array_read_i32(a, (int32_t *)cells, count) : gpuc_array_read_f32(a, (float *)cells, count);
    WCHECK(st == GPUC_OK, "reading %zu prefix sums: %s", count, gpuc_errmsg(wgpu));
    return cells;
}

static void run_case(const scan_case *t)
{
    char name[160];
    snprintf(name, sizeof name, "scan %s n=%zu %s, %s parts",
             t->ints    ? "int"
             : t->exact ? "exact float"
                        : "float",
             t->n, t->inclusive ? "inclusive" : "exclusive", t->device ? "device" : "host");
    worker_case(name);
    uint32_t *all = case_data(t);
    gpuc_array *owned, *prefix = (gpuc_array *)&name;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, t->ints, t->n, t->device, &owned, &lo, &hi);
    gpuc_status st = gpuc_mpi_scan(wgpu, wcomm, part, &(gpuc_scan_desc){.inclusive = t->inclusive}, &prefix);
    gpuc_array_free(owned);
    if (!WCHECK(st == GPUC_OK, "gpuc_mpi_scan -> %s: %s", gpuc_status_name(st), gpuc_mpi_errmsg())) {
        free(all);
        return;
    }
    /* The oracle: a running sum, in uint32 (wrapping) for ints, in double for floats. */
    double *want = malloc((t->n ? t->n : 1) * sizeof *want), *scale = malloc((t->n ? t->n : 1) * sizeof *scale);
    uint32_t isum = 0;
    double fsum = 0.0, asum = 0.0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->ints) {
            uint32_t next = isum + all[i];
            want[i] = (double)(int32_t)(t->inclusive ? next : isum);
            isum = next;
        } else {
            double v = float_of_bits(all[i]);
            want[i] = t->inclusive ? fsum + v : fsum;
            fsum += v;
        }
        asum += t->ints ? 0.0 : fabs(float_of_bits(all[i]));
        scale[i] = asum;
    }
    size_t count = (size_t)(hi - lo);
    WCHECK((prefix == NULL) == (count == 0), "prefix is %s for a part of %zu", prefix ? "an array" : "NULL", count);
    if (prefix && count &&
        WCHECK(gpuc_array_cells(prefix) == count && gpuc_array_type(prefix) == (t->ints ? GPUC_INT : GPUC_FLOAT),
               "prefix holds %zu cells", gpuc_array_cells(prefix))) {
        uint32_t *got = read_cells(t, prefix, count);
        compare(t, "gpuc_mpi_scan against the running sum", got, want + lo, scale + lo, count);
        free(got);
    }
    /* gpuc_scan on the gathered data agrees too (the reference itself checked against the oracle). */
    if (t->n > 0) {
        gpuc_array *single = NULL;
        gpuc_dims dims = {(uint32_t)t->n, 0, 0};
        gpuc_arg whole =
            t->ints ? gpuc_arg_host_i32((const int32_t *)all, dims) : gpuc_arg_host_f32((const float *)all, dims);
        if (WCHECK(gpuc_scan(wgpu, whole, &(gpuc_scan_desc){.inclusive = t->inclusive}, &single) == GPUC_OK,
                   "gpuc_scan: %s", gpuc_errmsg(wgpu))) {
            uint32_t *ref = read_cells(t, single, t->n);
            compare(t, "gpuc_scan on the gathered data against the running sum", ref, want, scale, t->n);
            if (prefix && count && (t->ints || t->exact)) {
                uint32_t *got = read_cells(t, prefix, count);
                for (size_t i = 0; i < count; i++)
                    if (!WCHECK(got[i] == ref[lo + i], "prefix %zu: 0x%08x, gpuc_scan 0x%08x", i, got[i], ref[lo + i]))
                        break;
                free(got);
            }
            free(ref);
        }
        gpuc_array_free(single);
    }
    if (prefix != (gpuc_array *)&name)
        gpuc_array_free(prefix);
    free(want);
    free(scale);
    free(all);
}

static void success_cases(void)
{
    static const size_t sizes[] = {1, 2, 3, 5, 7, 1000, 4099};
    int turn = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int j = 0; j < 4; j++, turn++)
            run_case(&(scan_case){.ints = j % 2,
                                  .exact = true,
                                  .n = sizes[s],
                                  .inclusive = j / 2,
                                  .device = (turn / 3) % 2,
                                  .seed = 31u + (uint32_t)turn});
    run_case(&(scan_case){.n = 4099, .seed = 2});
    run_case(&(scan_case){.n = 4099, .inclusive = true, .device = true, .seed = 3});
    run_case(&(scan_case){.n = 0});
    run_case(&(scan_case){.ints = true, .n = 0, .inclusive = true});
}

/* One call reads back one value per rank (its total) and, once its kernels exist, compiles nothing. */
static void cost_case(void)
{
    worker_case("scan reads back only the rank's total and compiles once per context");
    size_t n = 4096 * (size_t)wsize;
    float *all = data_floats(DATA_PLAIN, n, 77);
    gpuc_array *owned, *prefix = NULL;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, false, n, true, &owned, &lo, &hi);
    WCHECK_OK(gpuc_mpi_scan(wgpu, wcomm, part, NULL, &prefix)); /* compiles what it needs */
    gpuc_array_free(prefix);
    prefix = NULL;
    gpuc_stats before, after;
    gpuc_get_stats(wgpu, &before);
    WCHECK_OK(gpuc_mpi_scan(wgpu, wcomm, part, NULL, &prefix));
    gpuc_get_stats(wgpu, &after);
    WCHECK(after.programs_compiled == before.programs_compiled, "the second call compiled %llu programs",
           (unsigned long long)(after.programs_compiled - before.programs_compiled));
    WCHECK(after.readbacks - before.readbacks == 1 && after.bytes_read_back - before.bytes_read_back <= 16,
           "%llu read backs, %llu bytes; one of at most 16 bytes expected",
           (unsigned long long)(after.readbacks - before.readbacks),
           (unsigned long long)(after.bytes_read_back - before.bytes_read_back));
    WCHECK(after.uploads == before.uploads, "a device part was uploaded");
    gpuc_mpi_timing timing;
    gpuc_mpi_last_timing(&timing);
    WCHECK(timing.device_s > 0 && timing.comm_s > 0 && timing.total_s >= timing.device_s + timing.comm_s,
           "timing device %g comm %g total %g", timing.device_s, timing.comm_s, timing.total_s);
    gpuc_array_free(prefix);
    gpuc_array_free(owned);
    free(all);
}

static void expect_failure(const char *name, gpuc *gpu, gpuc_arg part, const gpuc_scan_desc *desc, bool output,
                           gpuc_status want, const char *fragment, const char *fragment2)
{
    worker_case(name);
    gpuc_array *prefix = (gpuc_array *)&want;
    gpuc_status st = gpuc_mpi_scan(gpu, wcomm, part, desc, output ? &prefix : NULL);
    WCHECK_FAILS(st, want, fragment);
    if (fragment2)
        WCHECK(strstr(gpuc_mpi_errmsg(), fragment2) != NULL, "message \"%s\" lacks \"%s\"", gpuc_mpi_errmsg(),
               fragment2);
    WCHECK(strstr(gpuc_mpi_errmsg(), "gpuc_mpi_scan: ") == gpuc_mpi_errmsg(), "message \"%s\" does not name the call",
           gpuc_mpi_errmsg());
    WCHECK(prefix == (gpuc_array *)&want, "the output was written by a failed call");
}

static void failure_cases(void)
{
    const size_t n = 10;
    int32_t *all = data_ints(n, 5, 100);
    gpuc_array *owned;
    uint64_t lo, hi;
    gpuc_arg part = local_part(all, true, n, false, &owned, &lo, &hi);
    int last = wsize - 1;
    char last_rank[32];
    snprintf(last_rank, sizeof last_rank, "rank %d: ", last);
    if (wsize > 1) {
        expect_failure("inclusive differs across ranks", wgpu, part, &(gpuc_scan_desc){.inclusive = wrank == 0}, true,
                       GPUC_ERROR_INVALID_ARGUMENT, "inclusive differs", NULL);
        float f[2] = {1, 2};
        expect_failure("element type differs across ranks", wgpu,
                       wrank == last ? gpuc_arg_host_f32(f, (gpuc_dims){2, 0, 0}) : part, NULL, true,
                       GPUC_ERROR_INVALID_ARGUMENT, "element type differs", NULL);
    }
    int32_t square[4] = {1, 2, 3, 4};
    expect_failure("2D host data on the last rank", wgpu,
                   wrank == last ? gpuc_arg_host_i32(square, (gpuc_dims){2, 2, 0}) : part, NULL, true,
                   GPUC_ERROR_TYPE_MISMATCH, last_rank, "1D");
    expect_failure("no output pointer on rank 0", wgpu, part, NULL, wrank != 0, GPUC_ERROR_INVALID_ARGUMENT,
                   "rank 0: prefix is NULL", NULL);
    expect_failure("no context on the last rank", wrank == last ? NULL : wgpu, part, NULL, true,
                   GPUC_ERROR_INVALID_ARGUMENT, last_rank, "context is NULL");
    gpuc *other = NULL;
    gpuc_array *foreign = NULL;
    gpuc_arg theirs = wrank == last ? foreign_part(true, &other, &foreign) : part;
    expect_failure("a device array of another context on the last rank (fails on its device)", wgpu, theirs, NULL,
                   true, GPUC_ERROR_INVALID_ARGUMENT, last_rank, "another gpuc context");
    gpuc_close(other);
    free(all);
    run_case(&(scan_case){.ints = true, .n = 9, .inclusive = true});
}

void cases_scan(void)
{
    success_cases();
    cost_case();
    failure_cases();
}
