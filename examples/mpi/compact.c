/* mpi-compact - the values above 0.5 of N values spread over P ranks, kept in global order by stream
 * compaction (gpuc_mpi_compact, each rank keeping its own survivors), printed from rank 0.
 *
 *     mpirun -np P build/examples/mpi-compact --n N --seed S
 *     kept K of N on P ranks: first a b c, last z
 *
 * `first` lists the first three survivors in global order (fewer when fewer survive), `last` the last
 * one; with no survivor the line ends "kept 0 of N on P ranks: none". */
#include "mpi_example.h"

int main(int argc, char **argv)
{
    mpi_example ex;
    mpi_example_start(&argc, &argv, 0, &ex);
    gpuc_array *packed = NULL;
    gpuc_mpi_part part;
    gpuc_mpi_compact_desc desc = {.compact = {.op = GPUC_GREATER, .threshold = 0.5}, .root = GPUC_MPI_DISTRIBUTED};
    MPI_EXAMPLE_CHECK(&ex, gpuc_mpi_compact(ex.gpu, MPI_COMM_WORLD, mpi_example_part(&ex), &desc, &packed, &part));

    float *kept = part.count ? malloc(part.count * sizeof *kept) : NULL;
    int ok = !part.count || (kept && gpuc_array_read_f32(packed, kept, part.count) == GPUC_OK), all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        mpi_example_fail(&ex, "a rank could not read its survivors back");
    gpuc_array_free(packed);

    uint64_t total = part.total, shown = total < 3 ? total : 3;
    uint64_t pos[4] = {0, 1, 2, total ? total - 1 : 0};
    double first[4];
    mpi_example_pick(kept, part.offset, part.count, pos, 4, first);
    if (ex.rank == 0) {
        printf("kept %" PRIu64 " of %" PRIu64 " on %d ranks: ", total, ex.n, ex.size);
        if (!total) {
            printf("none\n");
        } else {
            printf("first");
            for (uint64_t i = 0; i < shown; i++)
                printf(" %.9g", first[i]);
            printf(", last %.9g\n", first[3]);
        }
    }
    free(kept);
    mpi_example_finish(&ex);
    return 0;
}
