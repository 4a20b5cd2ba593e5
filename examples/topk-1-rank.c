/* topk-1-rank - Top-K Selection, task 1: rank every score in one kernel.
 *
 * Demonstrates a gather kernel: each output cell computes the rank of ONE element (how many elements
 * beat it, ties going to the lower index) by looping over all the others, with the loop bound from a
 * constant. Prints the rank of element 0.
 *
 * llvmpipe stops an invocation's loops after 65,535 iterations, so the loop covers one slice of at
 * most EXAMPLE_SLICE elements (all 4,096 by default) and run_in_slices adds up the passes. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

static const char *RANK =
    "float rank(float scores[], float ranked[], int offset) {\n"
    "    float mine = scores[thread.x];\n"
    "    int beaten = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        float other = scores[i];\n"
    "        if (i < constants.n && (other > mine || (other == mine && i < thread.x))) beaten++;\n"
    "    }\n"
    "    return ranked[thread.x] + float(beaten);\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "topk-1-rank", .seed = 2026, .n = 4096, .n_min = 1, .n_max = 131072};
    example_parse_args(&args, argc, argv);
    const long n = args.n, slice = n < EXAMPLE_SLICE ? n : EXAMPLE_SLICE;
    float *scores = malloc((size_t)n * sizeof *scores), *ranks = malloc((size_t)n * sizeof *ranks);
    if (!scores || !ranks)
        return 1;
    gen_scores(scores, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *rank;
    gpuc_array *scores_dev, *ranked;
    CHECK(gpu, gpuc_create_kernel(gpu, RANK, &(gpuc_kernel_desc){
        .output = {(uint32_t)n}, .constants = {{"n", n}, {"slice", slice}}, .pipeline = true}, &rank));
    CHECK(gpu, gpuc_array_from_f32(gpu, scores, (gpuc_dims){(uint32_t)n}, &scores_dev));
    CHECK(gpu, run_in_slices(gpu, rank, (gpuc_arg[]){gpuc_arg_array(scores_dev)}, 1, (gpuc_dims){(uint32_t)n},
                             n, slice, &ranked));
    CHECK(gpu, gpuc_array_read_f32(ranked, ranks, (size_t)n));
    printf("rank of element 0: %.0f (its score is %.0f)\n", ranks[0], scores[0]);

    gpuc_close(gpu); /* releases the kernel and arrays too */
    free(scores);
    free(ranks);
    return 0;
}
