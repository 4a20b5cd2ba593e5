/* zoo_openmp.c - the bench's one OpenMP loop: a row function called for every row under `#pragma omp
 * parallel for`, the naive loop a C programmer parallelises first; a note where OpenMP is absent. */
#include "zoo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

int zoo_omp_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 0;
#endif
}

const char *zoo_omp_note(void)
{
    return "built without OpenMP (the compiler does not take -fopenmp)";
}

/* The row function is called through a pointer: the rows pass a function that has their sizes
 * compiled in where the C reference has them, and that calls a restrict-qualified helper (GCC 12
 * drops restrict from pointers a parallel region captures, 5-6x slower). */
int zoo_omp_rows(size_t rows, void (*row)(void *state, size_t i), void *state)
{
#ifdef _OPENMP
    long n = (long)rows;
#pragma omp parallel for
    for (long i = 0; i < n; i++)
        row(state, (size_t)i);
    return 0;
#else
    (void)rows;
    (void)row;
    (void)state;
    return -1;
#endif
}

/* libgomp reads OMP_WAIT_POLICY once, when it is loaded: the bench sets the passive policy (threads
 * sleep between regions instead of spinning, which on a shared machine takes cores from everyone else,
 * llvmpipe's threads included) and runs itself again. A policy the user set is kept. */
void zoo_omp_passive(char **argv)
{
#ifdef _OPENMP
    if (getenv("OMP_WAIT_POLICY"))
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) == 0) {
        execv("/proc/self/exe", argv);
        unsetenv("OMP_WAIT_POLICY"); /* it failed: the run goes on with libgomp's default, and says so */
    }
#else
    (void)argv;
#endif
}

const char *zoo_omp_policy(void)
{
    const char *p = getenv("OMP_WAIT_POLICY");
    return p && *p ? p : "default";
}
