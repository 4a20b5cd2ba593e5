/* cases_topk.c - gpuc_mpi_topk across ranks (cases not written yet: this group fails until they are). */
#include "worker.h"

void cases_topk(void)
{
    worker_case("topk");
    WCHECK(false, "the topk cases are not written yet");
}
