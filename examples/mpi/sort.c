/* mpi-sort - N keys spread over P ranks sorted by sample sort (gpuc_mpi_sort), checked, and five
 * order statistics printed from rank 0.
 *
 *     mpirun -np P build/examples/mpi-sort --n N --seed S
 *     sorted N keys on P ranks: min a, q1 b, median c, q3 d, max e, in order: yes
 *
 * The statistics are the sorted keys at global positions 0, N/4, N/2, 3N/4 and N-1 (integer division).
 * "in order" checks the result itself: every rank's slice is ascending, and each rank's first key is
 * not below the last key of the ranks before it. */
#include "mpi_example.h"

int main(int argc, char **argv)
{
    mpi_example ex;
    mpi_example_start(&argc, &argv, 0, &ex);
    gpuc_array *sorted = NULL;
    gpuc_mpi_part part;
    MPI_EXAMPLE_CHECK(&ex, gpuc_mpi_sort(ex.gpu, MPI_COMM_WORLD, mpi_example_part(&ex), NULL, &sorted, &part));

    float *slice = part.count ? malloc(part.count * sizeof *slice) : NULL;
    int ok = !part.count || (slice && gpuc_array_read_f32(sorted, slice, part.count) == GPUC_OK), all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        mpi_example_fail(&ex, "a rank could not read its sorted slice back");
    gpuc_array_free(sorted);

    /* In order: within the slice, and across ranks (each rank's first key against the largest key
     * held by the ranks before it: an exclusive max-scan of slice maxima; empty slices pass on). */
    int in_order = 1;
    for (size_t i = 1; i < part.count; i++)
        in_order &= slice[i - 1] <= slice[i];
    float last = part.count ? slice[part.count - 1] : -1.0f, before = -1.0f;
    MPI_Exscan(&last, &before, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
    if (ex.rank > 0 && part.count)
        in_order &= before <= slice[0];
    int all_in_order = 0;
    MPI_Reduce(&in_order, &all_in_order, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);

    uint64_t pos[5] = {0, ex.n / 4, ex.n / 2, 3 * ex.n / 4, ex.n - 1};
    double stat[5];
    mpi_example_pick(slice, part.offset, part.count, pos, 5, stat);
    if (ex.rank == 0)
        printf("sorted %" PRIu64 " keys on %d ranks: min %.9g, q1 %.9g, median %.9g, q3 %.9g, max %.9g, in order: %s\n",
               ex.n, ex.size, stat[0], stat[1], stat[2], stat[3], stat[4], all_in_order ? "yes" : "no");
    free(slice);
    mpi_example_finish(&ex);
    return 0;
}
