/*
 * gpuc_mpi.h - gpuc's algorithms across MPI ranks: top-k, sort, stream compaction and scan over data
 * spread across processes, each rank on its own device. An optional library, libgpuc_mpi (pkg-config
 * gpuc-mpi), built where Open MPI's mpicc is present; the core library (gpuc.h) never links MPI.
 *
 *     MPI_Init(&argc, &argv);
 *     gpuc *gpu;
 *     if (gpuc_mpi_open(MPI_COMM_WORLD, NULL, &gpu) != GPUC_OK) {     every rank fails alike
 *         fprintf(stderr, "%s\n", gpuc_mpi_errmsg()); MPI_Abort(MPI_COMM_WORLD, 1);
 *     }
 *     float top[8]; int64_t where[8];
 *     gpuc_mpi_topk(gpu, MPI_COMM_WORLD, gpuc_arg_host_f32(mine, (gpuc_dims){my_n}),
 *                   &(gpuc_mpi_topk_desc){.k = 8, .root = 0}, top, where);
 *     gpuc_close(gpu);
 *     MPI_Finalize();
 *
 * The data model. The global array is the concatenation of every rank's local part in rank order: rank
 * r's element j has global index (elements on ranks below r) + j. A local part is a gpuc_arg: a 1D device
 * array of the rank's context (gpuc_arg_array), or host data (gpuc_arg_host_f32 / gpuc_arg_host_i32).
 * A rank may hold nothing: host data with dims.x == 0 (the pointer may then be NULL; the kind still
 * says float or int). Element types must agree across ranks.
 *
 * Collective calls. Every function here that takes a communicator is collective over it: every rank of
 * the communicator must call it, in the same order, with the same parameters (desc fields, root, the
 * element type). gpuc checks that first (one small MPI_Allreduce) and refuses mismatched parameters on
 * every rank with GPUC_ERROR_INVALID_ARGUMENT, naming the field. Failure never hangs: a rank that gets
 * bad input, fails on its device or runs out of memory makes every rank return an error (the ranks
 * agree on the outcome before each communication step); every rank then returns the same status, and
 * gpuc_mpi_errmsg() names the lowest failing rank and its message. Outputs are set only on success.
 * What cannot be agreed on is not caught: a rank that never makes the call, or a communicator that is
 * not the same on every rank, hangs as any MPI program would.
 *
 * Order, ties and edge cases are the single-device calls' (gpuc.h: ORDER for top-k, Order for sort,
 * compaction's comparisons): NaN, -0.0 and infinities behave as they do there, and ties go to the
 * lower GLOBAL index. Results equal what the single-device call gives on the gathered data (for
 * float scans, up to the rounding of a blockwise sum).
 *
 * Running. Start the program with mpirun (Open MPI) or srun (Slurm):
 *     mpirun -np 4 ./app                         4 ranks on this machine
 *     mpirun -np 8 --host a:4,b:4 ./app          2 machines, 4 ranks each
 *     srun -N 2 --ntasks-per-node=4 ./app        under Slurm (Open MPI built with PMIx/Slurm support)
 * As root, Open MPI wants --allow-run-as-root; more ranks than cores need --oversubscribe. Each rank
 * opens its own context (gpuc_mpi_open): on a node with G GPUs, node-local rank r gets GPU r mod G, so
 * start as many ranks per node as the node has GPUs. On llvmpipe every rank runs on the CPU, and
 * gpuc_mpi_open gives each rank an equal share of the node's cores (LP_NUM_THREADS, unless set); start
 * such ranks with --bind-to none, since Open MPI binds up to two ranks to one core each by default and
 * a rank's llvmpipe threads then all share that core.
 */
#ifndef GPUC_MPI_H
#define GPUC_MPI_H

#include <gpuc.h>
#include <mpi.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The message of this thread's most recent failed gpuc_mpi call ("" while none has failed). It names
 * the call, the rank that failed first and that rank's own message (gpuc_errmsg of its context, or
 * gpuc_mpi's check), identical on every rank. Valid until the thread's next failing gpuc_mpi call. */
GPUC_API const char *gpuc_mpi_errmsg(void);

/* ---- A device per rank ------------------------------------------------------------------------ */

/* Opens a context for this rank (collective over comm). Which device, first match wins:
 *   1. opts->device, when opts and opts->device are not NULL (the rank's own choice);
 *   2. GPUC_MPI_DEVICES, a comma-separated list of device choices indexed by node-local rank
 *      ("0,1,2,3", "gpu,cpu"; shorter lists wrap around), for schedulers and mixed nodes;
 *   3. GPUC_DEVICE, when set (every rank alike, e.g. "cpu");
 *   4. the node's hardware GPUs (gpuc_list_devices): node-local rank r (from
 *      MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED)) takes GPU r mod G;
 *   5. llvmpipe, where the node has no GPU.
 * Other options (backend, debug, ...) are opts', as for gpuc_open. On llvmpipe, with LP_NUM_THREADS
 * unset, it is set first to max(1, min(cores / ranks on the node, cores this rank may run on)) where
 * that is less than the machine's cores, so that the ranks do not fight over cores (nor one bound rank
 * over its one core). If any rank fails to open its device, every rank closes its
 * context and returns that failure (*gpu = NULL); gpuc_mpi_errmsg() says which rank and why.
 * Close the context with gpuc_close, as any other. */
GPUC_API gpuc_status gpuc_mpi_open(MPI_Comm comm, const gpuc_options *opts, gpuc **gpu);

/* Where this rank's part of a distributed result sits in the global result. */
typedef struct gpuc_mpi_part {
    size_t count;    /* elements this rank holds */
    uint64_t offset; /* global index of its first element: the elements held by lower ranks */
    uint64_t total;  /* elements held by all ranks */
} gpuc_mpi_part;

/* The rank value that means "every rank" where a call takes a root. */
#define GPUC_MPI_ALL_RANKS (-1)
/* gpuc_mpi_compact_desc.root: leave each rank's survivors where they are. */
#define GPUC_MPI_DISTRIBUTED (-2)

/* ---- Top-k ------------------------------------------------------------------------------------ */

typedef struct gpuc_mpi_topk_desc {
    size_t k;      /* required: 1 <= k <= the global element count */
    bool smallest; /* the k smallest (ascending) instead of the k largest (descending) */
    int root;      /* the rank that receives the result, or GPUC_MPI_ALL_RANKS */
} gpuc_mpi_topk_desc;

/* The k largest (or smallest) float32 values of the global array and their global indices, in order
 * (gpuc.h ORDER; ties by the lower global index). Local parts are float (host or device). On the
 * receiving rank(s) `values` gets k floats and `indices` k global indices (either may be NULL, not
 * both); other ranks may pass NULL for both, and their buffers are never written. How: every rank's
 * element count is shared (one MPI_Allgather of 8 bytes per rank: global indices, the k check, the
 * gather's layout); each rank runs gpuc_topk over its part for min(k, local n) candidates (an empty
 * rank runs nothing and sends nothing) and reads them back; the candidates (at most k per rank, 16
 * bytes each: value bits and global index) are gathered to the root (MPI_Gatherv) or to every rank
 * (MPI_Allgatherv), where the P runs (each already in ORDER) are merged on the host by ORDER keys
 * (a heap over the ranks: O(P + k log P) comparisons).
 * Messages: the parameter check (one MPI_Allreduce), the counts, one agreement (MPI_Allreduce), the
 * gather. k larger than the global element count (k = 0 too) fails on every rank with
 * GPUC_ERROR_INVALID_ARGUMENT; more than INT_MAX candidates in all (the sum over the ranks of
 * min(k, local n): MPI counts are ints) with GPUC_ERROR_LIMIT. */
GPUC_API gpuc_status gpuc_mpi_topk(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_mpi_topk_desc *desc,
                                   float *values, int64_t *indices);

/* ---- Sort --------------------------------------------------------------------------------------- */

/* Sample sort of the global array (float or int keys, gpuc_sort's order; desc may be NULL for
 * ascending). Every rank ends with a contiguous slice of the sorted array, slices ordered by rank:
 * *sorted (a new device array of part->count elements, NULL when this rank's slice is empty) and
 * *part (where the slice sits). The concatenated slices equal gpuc_sort on the gathered array, bit
 * for bit (NaN comes back as 0x7fc00000, as there).
 *
 * How. Each rank sorts its part on its device (gpuc_sort) and reads it back, then takes P evenly
 * spaced samples of it (its first key among them). The samples, (key, global index) pairs, are
 * gathered on every rank (MPI_Allgather); each rank counts its keys below each sample and one
 * MPI_Allreduce sums the counts, so every sample's exact place in the global order is known.
 * Splitter j is the sample placed nearest to (j + 1) * N / P. Each rank cuts its sorted part at the
 * splitters (keys equal to a splitter are cut by their global index, so a key repeated everywhere
 * still spreads over the ranks), the piece counts go round (MPI_Alltoall) and the pieces follow
 * (MPI_Alltoallv); each rank merges the P sorted pieces it received on the host (pairwise, ties to
 * the lower rank's piece, O(m log P) for a slice of m) and uploads the slice. With one rank the
 * device sort's array is the result: nothing is read back.
 *
 * Balance. Slice sizes are known before any key moves, and are N / P give or take half the widest
 * gap between neighbouring samples in the global order. A gap holds at most a P-th of each rank's
 * part, so no slice exceeds 2N / P + P, whatever the data; in practice they come much closer: where
 * the parts' keys interleave (random data) slices measured within 1.00-1.15 of N / P (N about 1000,
 * P = 2 to 4), and where they do not (sorted input, every key equal) the parts' own boundaries are
 * samples, so a layout with equal parts splits exactly, and one rank holding everything splits into
 * N / P each.
 *
 * Cost per rank, with n keys in its part and m in its slice: one device sort of n, one read back of
 * n keys, one upload of m; sent and received: each key once (4 bytes, 8 with a value), P^2 samples
 * (16 bytes each, gathered) and P^2 counts (8 bytes each, reduced), plus the small agreements (five
 * collectives of a few bytes). Host memory: the sorted part (4n bytes), the slice and a merge buffer
 * (8m), and O(P^2) for the samples, all doubled for pairs; device memory: gpuc_sort's working arrays
 * for the part, then the slice. gpuc_mpi_last_timing counts the sort, read back and upload as device
 * time and the MPI calls as communication; cutting and merging on the host are in the total only.
 *
 * Errors, on every rank alike: descending, the method or the key type differing across ranks
 * (GPUC_ERROR_INVALID_ARGUMENT naming the field); a method that is not a gpuc_sort_method (each rank
 * checks it, parts empty or not; the method is passed on to each rank's gpuc_sort, whose own refusals
 * then fail every rank); a rank's bad input or NULL sorted / part (the
 * message names the rank); no keys on any rank (GPUC_ERROR_INVALID_ARGUMENT: gpuc_sort refuses
 * n = 0 too; a rank on its own may hold none); a part or slice of more than 2^31 - 1 keys, more
 * than MPI's int counts hold (GPUC_ERROR_LIMIT), more than 32767 ranks (the P^2 samples' counts are
 * MPI ints too: GPUC_ERROR_LIMIT), and gpuc_sort's own limits on each part (2^30). */
GPUC_API gpuc_status gpuc_mpi_sort(gpuc *gpu, MPI_Comm comm, gpuc_arg keys, const gpuc_sort_desc *desc,
                                   gpuc_array **sorted, gpuc_mpi_part *part);

/* Key-value sample sort: `values` (float or int, as long as `keys` on each rank) follow their keys;
 * ties between equal keys keep the global index order, as gpuc_sort_pairs does, and the slices
 * equal gpuc_sort_pairs on the gathered arrays. *sorted_keys may be NULL (sorted_values may not).
 * Slices, balance and cost as gpuc_mpi_sort (each rank sorts with gpuc_sort_pairs; the values travel
 * beside the keys). No global index is ever sent: equal keys within a rank's sorted part are in
 * index order already, and a lower rank's keys all have lower indices, so ties go to the lower rank's
 * piece in the merge. Errors as gpuc_mpi_sort, and: the value type differing across ranks; values
 * not as long as keys on a rank (GPUC_ERROR_INVALID_ARGUMENT, naming the rank). */
GPUC_API gpuc_status gpuc_mpi_sort_pairs(gpuc *gpu, MPI_Comm comm, gpuc_arg keys, gpuc_arg values,
                                         const gpuc_sort_desc *desc, gpuc_array **sorted_keys,
                                         gpuc_array **sorted_values, gpuc_mpi_part *part);

/* ---- Compaction and scan ---------------------------------------------------------------------- */

typedef struct gpuc_mpi_compact_desc {
    gpuc_compact_desc compact; /* as for gpuc_compact: op + threshold or a predicate, and the method;
                                * .full_length is refused across ranks (GPUC_ERROR_INVALID_ARGUMENT) */
    int root;                  /* the rank that receives every survivor, GPUC_MPI_ALL_RANKS, or
                                * GPUC_MPI_DISTRIBUTED (each rank keeps its own) */
} gpuc_mpi_compact_desc;

/* Stream compaction across ranks, keeping the global input order. Each rank compacts its part
 * (gpuc_compact; the descriptor's parameters, the predicate's text included, must agree across ranks);
 * the survivor counts, shared by one MPI_Allgather (8 bytes per rank: what an MPI_Exscan would give
 * for the offset, plus the total and the gather's layout, in one collective), place each rank's
 * survivors. Distributed: *packed holds this rank's survivors (NULL when none) and *part says where
 * they sit among all survivors; nothing but the counts travels (messages: the parameter check, the
 * counts, one agreement). Gathered (root, or GPUC_MPI_ALL_RANKS): each rank reads its survivors back,
 * they travel as host data (MPI_Gatherv / MPI_Allgatherv) and each receiving rank uploads them as one
 * device array: the receiving rank(s) get every survivor in global order (*part = {total, 0, total}),
 * the others NULL and {0, 0, total} (two more agreements: before the gather, after the upload). An
 * empty rank still checks the descriptor (it compacts one value and drops the result), so a bad op or
 * predicate fails every rank even where every part is empty; all parts empty is no error (no
 * survivors). Gathered survivors past INT_MAX (MPI counts) fail with GPUC_ERROR_LIMIT. Both pointers
 * are required on every rank. */
GPUC_API gpuc_status gpuc_mpi_compact(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_mpi_compact_desc *desc,
                                      gpuc_array **packed, gpuc_mpi_part *part);

/* Prefix sum across ranks (exclusive, or inclusive with desc->inclusive; desc may be NULL): *prefix (a
 * new device array as long as this rank's part, NULL when the part is empty) holds the global prefix
 * sums of this rank's elements. How: each rank scans its part (gpuc_scan; host data is uploaded once,
 * first); a one-cell kernel gives the rank's total (its last prefix, plus its last value when
 * exclusive), the only value read back (4 bytes); an MPI_Exscan sums the totals of the lower ranks;
 * and one kernel pass over the part adds that sum (skipped where that sum is 0 or +0.0: rank 0 always).
 * Both kernels take their numbers as uniforms: they compile once per context and element type.
 * Messages: the parameter check (MPI_Allreduce), the MPI_Exscan of one value, one agreement
 * (MPI_Allreduce). Int sums wrap modulo 2^32 (the totals are summed as uint32); float sums are
 * blockwise within a rank and across ranks in MPI_Exscan's order, so they may differ from the
 * single-device gpuc_scan's by rounding (exactly equal where every partial sum is exact). */
GPUC_API gpuc_status gpuc_mpi_scan(gpuc *gpu, MPI_Comm comm, gpuc_arg local, const gpuc_scan_desc *desc,
                                   gpuc_array **prefix);

/* ---- Where the time went ---------------------------------------------------------------------- */

/* This rank's split of its most recent gpuc_mpi call (this thread): seconds spent in gpuc calls on the
 * device (kernels, uploads, read backs) and in MPI calls (communication and waiting for other ranks),
 * and the call's whole time. For make bench-mpi. */
typedef struct gpuc_mpi_timing {
    double device_s;
    double comm_s;
    double total_s;
} gpuc_mpi_timing;

GPUC_API void gpuc_mpi_last_timing(gpuc_mpi_timing *timing);

#ifdef __cplusplus
}
#endif

#endif /* GPUC_MPI_H */
