/* topk-2-gather - Top-K Selection, task 2: rank, then gather the top 10 by rank.
 *
 * Demonstrates chaining two kernels on the device: the rank kernel's result stays there (.pipeline)
 * and feeds a gather kernel with output [10], where thread j scans the ranks for the one equal to j
 * and returns that element's score. Only the 10 scores are read back.
 *
 * Both kernels loop over all n elements; llvmpipe stops an invocation's loops after 65,535
 * iterations, so each loop covers one slice of at most EXAMPLE_SLICE elements and run_in_slices adds
 * up the passes (for the default n = 4096, one pass). Exactly one element has rank j, so adding the
 * gather's passes is exact too. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { K = 10 };

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

static const char *GATHER =
    "float gatherTop(float scores[], float ranks[], float found[], int offset) {\n"
    "    float score = 0.0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        if (i < constants.n && ranks[i] == float(thread.x)) score = scores[i];\n"
    "    }\n"
    "    return found[thread.x] + score;\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "topk-2-gather", .seed = 2026, .n = 4096, .n_min = K, .n_max = 131072};
    example_parse_args(&args, argc, argv);
    const long n = args.n, slice = n < EXAMPLE_SLICE ? n : EXAMPLE_SLICE;
    float *scores = malloc((size_t)n * sizeof *scores), top[K];
    if (!scores)
        return 1;
    gen_scores(scores, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *rank, *gather;
    gpuc_array *scores_dev, *ranks, *found;
    const gpuc_constant sizes[] = {{"n", n}, {"slice", slice}};
    CHECK(gpu, gpuc_create_kernel(gpu, RANK, &(gpuc_kernel_desc){
        .output = {(uint32_t)n}, .constants = {sizes[0], sizes[1]}, .pipeline = true}, &rank));
    CHECK(gpu, gpuc_create_kernel(gpu, GATHER, &(gpuc_kernel_desc){
        .output = {K}, .constants = {sizes[0], sizes[1]}, .pipeline = true}, &gather));
    CHECK(gpu, gpuc_array_from_f32(gpu, scores, (gpuc_dims){(uint32_t)n}, &scores_dev));
    CHECK(gpu, run_in_slices(gpu, rank, (gpuc_arg[]){gpuc_arg_array(scores_dev)}, 1, (gpuc_dims){(uint32_t)n},
                             n, slice, &ranks));
    CHECK(gpu, run_in_slices(gpu, gather, (gpuc_arg[]){gpuc_arg_array(scores_dev), gpuc_arg_array(ranks)}, 2,
                             (gpuc_dims){K}, n, slice, &found));
    CHECK(gpu, gpuc_array_read_f32(found, top, K));
    print_int_list("top 10: ", top, K);

    gpuc_close(gpu); /* releases the kernels and arrays too */
    free(scores);
    return 0;
}
