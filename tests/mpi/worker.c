/* worker.c - main of the MPI test worker (see worker.h). */
#include "worker.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MPI_Comm wcomm;
int wrank, wsize;
gpuc *wgpu;

static const char *current_case = "(setup)";
static long failures;

void worker_case(const char *name)
{
    current_case = name;
}

bool worker_check(bool ok, const char *file, int line, const char *fmt, ...)
{
    if (ok)
        return true;
    failures++;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("rank %d: FAIL %s (%s:%d): %s\n", wrank, current_case, file, line, msg);
    fflush(stdout);
    return false;
}

bool worker_check_fails(gpuc_status got, gpuc_status want, const char *fragment, const char *expr, const char *file,
                        int line)
{
    if (!worker_check(got == want, file, line, "%s -> %s, expected %s (message: %s)", expr, gpuc_status_name(got),
                      gpuc_status_name(want), gpuc_mpi_errmsg()))
        return false;
    return worker_check(strstr(gpuc_mpi_errmsg(), fragment) != NULL, file, line, "%s: message \"%s\" lacks \"%s\"",
                        expr, gpuc_mpi_errmsg(), fragment);
}

float worker_value(uint64_t i, uint32_t seed)
{
    uint32_t h = (uint32_t)i * 2654435761u + seed;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

void worker_slice(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)rank / (uint64_t)size;
    *hi = n * (uint64_t)(rank + 1) / (uint64_t)size;
}

typedef struct group {
    const char *name;
    void (*run)(void);
} group;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    wcomm = MPI_COMM_WORLD;
    MPI_Comm_rank(wcomm, &wrank);
    MPI_Comm_size(wcomm, &wsize);
#define WORKER_GROUP(g) {#g, cases_##g},
    static const group groups[] = {WORKER_GROUPS};
#undef WORKER_GROUP
    const group *chosen = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof groups / sizeof groups[0]; i++)
        if (!strcmp(argv[1], groups[i].name))
            chosen = &groups[i];
    if (!chosen) {
        if (wrank == 0) {
            fprintf(stderr, "usage: mpirun -np P %s GROUP; groups:", argv[0]);
            for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
                fprintf(stderr, " %s", groups[i].name);
            fprintf(stderr, "\n");
        }
        MPI_Finalize();
        return 2;
    }
    gpuc_status st = gpuc_mpi_open(wcomm, NULL, &wgpu);
    if (st != GPUC_OK) {
        if (wrank == 0)
            printf("FAIL %s: gpuc_mpi_open -> %s: %s\n", chosen->name, gpuc_status_name(st), gpuc_mpi_errmsg());
        MPI_Finalize();
        return 1;
    }
    chosen->run();
    gpuc_close(wgpu);
    long total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, wcomm);
    if (wrank == 0) {
        if (total)
            printf("FAIL %s on %d ranks: %ld failed check%s\n", chosen->name, wsize, total, total == 1 ? "" : "s");
        else
            printf("ok %s on %d ranks\n", chosen->name, wsize);
    }
    fflush(stdout);
    MPI_Finalize();
    return total ? 1 : 0;
}
