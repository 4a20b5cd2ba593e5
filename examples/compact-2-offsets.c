/* compact-2-offsets - Stream Compaction, task 2: where does each survivor go?
 *
 * Demonstrates an exclusive prefix sum written as a gather: cell x counts the flags before it
 * (flags[i] for i < x), which is the slot survivor x takes in the packed output. Each cell does O(n)
 * work; simple, and fine for small n.
 *
 * llvmpipe stops an invocation's loops after 65,535 iterations, so the loop covers one slice of at
 * most EXAMPLE_SLICE flags (all 64 by default) and run_in_slices adds up the passes. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { SHOWN = 12, THRESHOLD = 50 };

static const char *OFFSETS =
    "float offsets(float flags[], float before[], int offset) {\n"
    "    int sum = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        if (i < thread.x) sum += int(flags[i]);\n"
    "    }\n"
    "    return before[thread.x] + float(sum);\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "compact-2-offsets", .seed = 1121, .n = 64, .n_min = 1, .n_max = 65536};
    example_parse_args(&args, argc, argv);
    const long n = args.n, shown = n < SHOWN ? n : SHOWN, slice = n < EXAMPLE_SLICE ? n : EXAMPLE_SLICE;
    float *flags = malloc((size_t)n * sizeof *flags), *offsets = malloc((size_t)n * sizeof *offsets);
    if (!flags || !offsets)
        return 1;
    gen_samples(flags, (size_t)n, args.seed);
    for (long i = 0; i < n; i++) /* the task's input: the flags of the samples (task 1) */
        flags[i] = flags[i] >= THRESHOLD ? 1.0f : 0.0f;

    gpuc *gpu = example_open();
    gpuc_kernel *k;
    gpuc_array *flags_dev, *out;
    CHECK(gpu, gpuc_create_kernel(gpu, OFFSETS, &(gpuc_kernel_desc){.output = {(uint32_t)n},
                                  .constants = {{"slice", slice}}, .pipeline = true}, &k));
    CHECK(gpu, gpuc_array_from_f32(gpu, flags, (gpuc_dims){(uint32_t)n}, &flags_dev));
    CHECK(gpu, run_in_slices(gpu, k, (gpuc_arg[]){gpuc_arg_array(flags_dev)}, 1, (gpuc_dims){(uint32_t)n}, n, slice,
                             &out));
    CHECK(gpu, gpuc_array_read_f32(out, offsets, (size_t)n));
    print_ints("flags:    ", flags, (size_t)shown);
    print_ints("offsets:  ", offsets, (size_t)shown);

    gpuc_close(gpu); /* releases the kernel and arrays too */
    free(flags);
    free(offsets);
    return 0;
}
