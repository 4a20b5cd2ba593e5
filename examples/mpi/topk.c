/* mpi-topk - the K largest of N values spread over P ranks (gpuc_mpi_topk), printed from rank 0.
 *
 *     mpirun -np P build/examples/mpi-topk --n N --seed S [--k K]
 *     top K of N on P ranks: i:v i:v ...       (descending, ties by the lower global index)
 *
 * Each rank generates its own slice (mpi_example.h), runs top-k on its device, and rank 0 merges the
 * at most K candidates of each rank. With N < K the line lists all N (K becomes N). */
#include "mpi_example.h"

int main(int argc, char **argv)
{
    mpi_example ex;
    mpi_example_start(&argc, &argv, 1, &ex);
    uint64_t k = ex.k < ex.n ? ex.k : ex.n;
    float *top = malloc((size_t)k * sizeof *top);
    int64_t *where = malloc((size_t)k * sizeof *where);
    int ok = top && where, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        mpi_example_fail(&ex, "out of memory for the top-k results");
    MPI_EXAMPLE_CHECK(&ex, gpuc_mpi_topk(ex.gpu, MPI_COMM_WORLD, mpi_example_part(&ex),
                                         &(gpuc_mpi_topk_desc){.k = (size_t)k, .root = 0}, top, where));
    if (ex.rank == 0) {
        printf("top %" PRIu64 " of %" PRIu64 " on %d ranks:", k, ex.n, ex.size);
        for (uint64_t i = 0; i < k; i++)
            printf(" %" PRId64 ":%.9g", where[i], top[i]);
        printf("\n");
    }
    free(top);
    free(where);
    mpi_example_finish(&ex);
    return 0;
}
