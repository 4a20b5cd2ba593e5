/* bench_mpi.c - make bench-mpi: strong and weak scaling of the distributed calls (gpuc_mpi.h) over 1, 2
 * and 4 ranks, each beside the single-device call on the same data, and where the time goes (device
 * work, communication, the rest: host merges, copies).
 *
 * Run plainly (make bench-mpi) it is the driver: it starts itself under $MPIRUN once per (call, ranks,
 * size), reads one result line from rank 0 of each, and prints the table. Under mpirun, with --run, it
 * is one measurement: every rank generates its slice of the examples' data (examples/mpi/mpi_example.h:
 * a hash of the global index, floats in [0, 1)), runs the call once to warm up (programs compile), then
 * REPS times between barriers, each time reading its part of the result back (which waits for the
 * device); a run's time is the slowest rank's, and the best of the REPS runs counts.
 * The same process (rank 0, when on one rank) times the single-device call on the whole array.
 * LP_NUM_THREADS is left to gpuc_mpi_open, which gives each rank its share of the node's cores. */
#include <gpuc_mpi.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 5 };

static const char *const OPS[] = {"topk", "sort", "compact", "scan"};

static float value_at(uint64_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u + 1u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* ---- one measurement, under mpirun ------------------------------------------------------------ */

/* Reads a result array back (a read back waits for the work that made it, so it ends the timing). */
static gpuc_status finish(gpuc_array *a)
{
    if (!a)
        return GPUC_OK;
    size_t n = gpuc_array_values(a);
    float *host = malloc(n * sizeof *host);
    gpuc_status st = host ? gpuc_array_read_f32(a, host, n) : GPUC_ERROR_OUT_OF_MEMORY;
    free(host);
    return st;
}

/* One distributed call, its result read back on this rank; *seconds gets the wall time of both. */
static gpuc_status run_mpi(gpuc *gpu, const char *op, gpuc_arg part, double *seconds)
{
    gpuc_status st;
    gpuc_array *result = NULL;
    double t0 = MPI_Wtime();
    if (!strcmp(op, "topk")) {
        float top[8];
        int64_t where[8];
        st = gpuc_mpi_topk(gpu, MPI_COMM_WORLD, part, &(gpuc_mpi_topk_desc){.k = 8, .root = 0}, top, where);
    } else if (!strcmp(op, "sort")) {
        gpuc_mpi_part where;
        st = gpuc_mpi_sort(gpu, MPI_COMM_WORLD, part, NULL, &result, &where);
    } else if (!strcmp(op, "compact")) {
        gpuc_mpi_part where;
        gpuc_mpi_compact_desc desc = {.compact = {.op = GPUC_GREATER, .threshold = 0.5}, .root = GPUC_MPI_DISTRIBUTED};
        st = gpuc_mpi_compact(gpu, MPI_COMM_WORLD, part, &desc, &result, &where);
    } else {
        st = gpuc_mpi_scan(gpu, MPI_COMM_WORLD, part, NULL, &result);
    }
    if (st == GPUC_OK)
        st = finish(result);
    *seconds = MPI_Wtime() - t0;
    gpuc_array_free(result);
    return st;
}

/* The single-device call on the whole array, as a program without MPI would make it, its result read
 * back as the distributed call's is; seconds. */
static double run_single(gpuc *gpu, const char *op, gpuc_arg all)
{
    gpuc_array *a = NULL, *b = NULL;
    double t0 = MPI_Wtime();
    gpuc_status st;
    if (!strcmp(op, "topk")) {
        st = gpuc_topk(gpu, all, &(gpuc_topk_desc){.k = 8}, &a, &b); /* read back before it returns */
    } else if (!strcmp(op, "sort")) {
        st = gpuc_sort(gpu, all, NULL, &a);
        if (st == GPUC_OK)
            st = finish(a);
    } else if (!strcmp(op, "compact")) {
        size_t count;
        st = gpuc_compact(gpu, all, &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 0.5}, &a, &count);
        if (st == GPUC_OK)
            st = finish(a);
    } else {
        st = gpuc_scan(gpu, all, NULL, &a);
        if (st == GPUC_OK)
            st = finish(a);
    }
    double t = MPI_Wtime() - t0;
    gpuc_array_free(a);
    gpuc_array_free(b);
    if (st != GPUC_OK) {
        fprintf(stderr, "bench-mpi: single-device %s: %s\n", op, gpuc_errmsg(gpu));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return t;
}

static int measure(const char *op, uint64_t n)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t lo = n * (uint64_t)rank / (uint64_t)size, hi = n * (uint64_t)(rank + 1) / (uint64_t)size;
    float *mine = malloc((size_t)(hi - lo + 1) * sizeof *mine);
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (uint64_t i = lo; i < hi; i++)
        mine[i - lo] = value_at(i);
    gpuc *gpu;
    if (gpuc_mpi_open(MPI_COMM_WORLD, NULL, &gpu) != GPUC_OK) {
        if (rank == 0)
            fprintf(stderr, "bench-mpi: %s\n", gpuc_mpi_errmsg());
        MPI_Finalize();
        return 1;
    }
    gpuc_arg part = gpuc_arg_host_f32(mine, (gpuc_dims){(uint32_t)(hi - lo)});
    double best = 1e30, best_device = 0, best_comm = 0;
    for (int rep = 0; rep <= REPS; rep++) { /* rep 0 warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double seconds;
        if (run_mpi(gpu, op, part, &seconds) != GPUC_OK) {
            if (rank == 0)
                fprintf(stderr, "bench-mpi: %s\n", gpuc_mpi_errmsg());
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        gpuc_mpi_timing t;
        gpuc_mpi_last_timing(&t);
        /* The run's time is its slowest rank's; that rank's split explains it. */
        struct {
            double total;
            int rank;
        } mine_t = {seconds, rank}, slowest;
        MPI_Allreduce(&mine_t, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
        double split[2] = {t.device_s, t.comm_s};
        MPI_Bcast(split, 2, MPI_DOUBLE, slowest.rank, MPI_COMM_WORLD);
        if (rep > 0 && slowest.total < best) {
            best = slowest.total;
            best_device = split[0];
            best_comm = split[1];
        }
    }
    double single = 0;
    if (size == 1) { /* beside it: the single-device call on the same array, best of REPS after a warm-up */
        single = 1e30;
        for (int rep = 0; rep <= REPS; rep++) {
            double t = run_single(gpu, op, part);
            if (rep > 0 && t < single)
                single = t;
        }
    }
    if (rank == 0)
        printf("result %s %d %" PRIu64 " %.6f %.6f %.6f %.6f\n", op, size, n, best, best_device, best_comm, single);
    gpuc_close(gpu);
    free(mine);
    MPI_Finalize();
    return 0;
}

/* ---- the driver --------------------------------------------------------------------------------- */

typedef struct result {
    double total, device, comm, single;
    int ok;
} result;

static result launch(const char *self, const char *op, int ranks, uint64_t n)
{
    const char *mpirun = getenv("MPIRUN");
    char command[1024];
    snprintf(command, sizeof command, "%s -np %d '%s' --run %s %" PRIu64 " 2>&1", mpirun && *mpirun ? mpirun : "mpirun",
             ranks, self, op, n);
    result r = {0};
    FILE *p = popen(command, "r");
    if (!p)
        return r;
    char line[1024];
    while (fgets(line, sizeof line, p)) {
        char name[32];
        int size;
        uint64_t count;
        if (sscanf(line, "result %31s %d %" SCNu64 " %lf %lf %lf %lf", name, &size, &count, &r.total, &r.device, &r.comm,
                   &r.single) == 7)
            r.ok = 1;
        else
            fprintf(stderr, "  [%s on %d ranks] %s", op, ranks, line);
    }
    if (pclose(p) != 0)
        r.ok = 0;
    return r;
}

static int drive(const char *self, uint64_t strong_n, uint64_t weak_n)
{
    static const int RANKS[] = {1, 2, 4};
    printf("make bench-mpi: the gpuc_mpi calls on 1, 2 and 4 ranks (this machine: llvmpipe on the CPU; 4 ranks\n"
           "oversubscribe its cores when it has fewer than 4). Times are ratios: the distributed call's best of %d\n"
           "(slowest rank) over the single-device call on the same N in one process; device / comm / other are\n"
           "shares of the slowest rank's time (gpuc work on its device, MPI calls, the rest: host merges, copies).\n\n",
           REPS);
    printf("%-8s %-7s %5s %10s %12s %8s %8s %8s\n", "call", "scaling", "ranks", "N", "mpi/single", "device", "comm",
           "other");
    int failed = 0;
    for (size_t o = 0; o < sizeof OPS / sizeof OPS[0]; o++) {
        /* Single-device baselines for every N the table uses: one-rank runs. */
        uint64_t sizes[4] = {strong_n, weak_n, weak_n * 2, weak_n * 4};
        double single[4];
        for (int s = 0; s < 4; s++) {
            result r = launch(self, OPS[o], 1, sizes[s]);
            single[s] = r.ok ? r.single : 0;
            failed |= !r.ok;
        }
        for (int scaling = 0; scaling < 2; scaling++) {
            for (size_t k = 0; k < 3; k++) {
                int ranks = RANKS[k];
                uint64_t n = scaling == 0 ? strong_n : weak_n * (uint64_t)ranks;
                int s = scaling == 0 ? 0 : (ranks == 1 ? 1 : ranks == 2 ? 2 : 3);
                result r = launch(self, OPS[o], ranks, n);
                if (!r.ok || single[s] <= 0) {
                    printf("%-8s %-7s %5d %10" PRIu64 "   failed (see the lines above)\n", OPS[o],
                           scaling ? "weak" : "strong", ranks, n);
                    failed = 1;
                    continue;
                }
                double other = r.total - r.device - r.comm;
                printf("%-8s %-7s %4d%s %10" PRIu64 " %11.2fx %7.0f%% %7.0f%% %7.0f%%\n", OPS[o],
                       scaling ? "weak" : "strong", ranks, ranks > 2 ? "*" : " ", n, r.total / single[s],
                       100 * r.device / r.total, 100 * r.comm / r.total, 100 * (other > 0 ? other : 0) / r.total);
                fflush(stdout);
            }
        }
    }
    printf("\n* more ranks than this machine's cores (oversubscribed): a scheduling test, not a speed-up.\n");
    return failed;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--run")) {
        MPI_Init(&argc, &argv);
        return measure(argv[2], strtoull(argv[3], NULL, 10));
    }
    uint64_t strong_n = 1u << 21, weak_n = 1u << 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--strong") && i + 1 < argc)
            strong_n = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--weak") && i + 1 < argc)
            weak_n = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--strong N] [--weak N_PER_RANK]   (2^21 and 2^20 by default)\n", argv[0]);
            return 2;
        }
    }
    if (strong_n < 1 || weak_n < 1) {
        fprintf(stderr, "sizes must be at least 1\n");
        return 2;
    }
    return drive(argv[0], strong_n, weak_n) ? 1 : 0;
}
