/* cases_sort.c - gpuc_mpi_sort across ranks (cases not written yet: this group fails until they are). */
#include "worker.h"

void cases_sort(void)
{
    worker_case("sort");
    WCHECK(false, "the sort cases are not written yet");
}
