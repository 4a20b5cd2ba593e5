/* cases_scan.c - gpuc_mpi_scan across ranks (cases not written yet: this group fails until they are). */
#include "worker.h"

void cases_scan(void)
{
    worker_case("scan");
    WCHECK(false, "the scan cases are not written yet");
}
