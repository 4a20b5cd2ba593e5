/* cases_compact.c - gpuc_mpi_compact across ranks (cases not written yet: this group fails until they are). */
#include "worker.h"

void cases_compact(void)
{
    worker_case("compact");
    WCHECK(false, "the compact cases are not written yet");
}
