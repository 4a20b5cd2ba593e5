/* compact-3-gather - Stream Compaction, task 3: pack the survivors by linear search.
 *
 * Demonstrates turning a scatter into a gather: the survivor with offset x belongs in slot x, so
 * output cell x searches all elements for the one with flags[i] == 1 and offsets[i] == x. The flags
 * and offsets (tasks 1 and 2) are this task's input, computed here on the host; the output has one
 * cell per survivor.
 *
 * llvmpipe stops an invocation's loops after 65,535 iterations, so the search covers one slice of
 * at most EXAMPLE_SLICE elements (all 64 by default) and run_in_slices adds up the passes: only one
 * element matches a cell, so the sum is that element. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { SHOWN = 12, THRESHOLD = 50 };

static const char *GATHER =
    "float gather(float samples[], float flags[], float offsets[], float found[], int offset) {\n"
    "    float value = 0.0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        if (i < constants.n && flags[i] == 1.0 && offsets[i] == float(thread.x)) value = samples[i];\n"
    "    }\n"
    "    return found[thread.x] + value;\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "compact-3-gather", .seed = 1042, .n = 64, .n_min = 1, .n_max = 65536};
    example_parse_args(&args, argc, argv);
    const long n = args.n, slice = n < EXAMPLE_SLICE ? n : EXAMPLE_SLICE;
    float *samples = malloc((size_t)n * sizeof *samples), *flags = malloc((size_t)n * sizeof *flags);
    float *offsets = malloc((size_t)n * sizeof *offsets), *packed = malloc((size_t)n * sizeof *packed);
    if (!samples || !flags || !offsets || !packed)
        return 1;
    gen_samples(samples, (size_t)n, args.seed);
    long count = 0;
    for (long i = 0; i < n; i++) {
        flags[i] = samples[i] >= THRESHOLD ? 1.0f : 0.0f;
        offsets[i] = (float)count;
        count += (long)flags[i];
    }

    gpuc *gpu = example_open();
    if (count > 0) { /* an output needs at least one cell */
        gpuc_kernel *k;
        gpuc_array *samples_dev, *flags_dev, *offsets_dev, *out;
        const gpuc_dims dims = {(uint32_t)n};
        CHECK(gpu, gpuc_create_kernel(gpu, GATHER, &(gpuc_kernel_desc){.output = {(uint32_t)count},
                                      .constants = {{"n", n}, {"slice", slice}}, .pipeline = true}, &k));
        CHECK(gpu, gpuc_array_from_f32(gpu, samples, dims, &samples_dev));
        CHECK(gpu, gpuc_array_from_f32(gpu, flags, dims, &flags_dev));
        CHECK(gpu, gpuc_array_from_f32(gpu, offsets, dims, &offsets_dev));
        CHECK(gpu, run_in_slices(gpu, k, (gpuc_arg[]){gpuc_arg_array(samples_dev), gpuc_arg_array(flags_dev),
                                                      gpuc_arg_array(offsets_dev)}, 3,
                                 (gpuc_dims){(uint32_t)count}, n, slice, &out));
        CHECK(gpu, gpuc_array_read_f32(out, packed, (size_t)count));
    }
    print_ints("samples: ", samples, (size_t)(n < SHOWN ? n : SHOWN));
    print_ints("packed:  ", packed, (size_t)(count < SHOWN ? count : SHOWN));

    gpuc_close(gpu); /* releases the kernel and arrays too */
    free(samples);
    free(flags);
    free(offsets);
    free(packed);
    return 0;
}
