/* compact-5-count - Stream Compaction, task 5: the whole compaction on the device.
 *
 * Demonstrates a pipeline of kernels whose intermediate results never leave the device: flag (task
 * 1), scan (task 2), a one-cell kernel that computes the survivor count offsets[n-1] + flags[n-1]
 * (the only value read back before the end), and the binary-search gather (task 4), created once the
 * count is known so that its output is exactly the survivors (GPU.js's setOutput([count])).
 *
 * The scan loops over all n flags; llvmpipe stops an invocation's loops after 65,535 iterations, so
 * it covers one slice of at most EXAMPLE_SLICE flags per pass and run_in_slices adds up the passes. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

static const char *FLAG =
    "float flag(float samples[]) {\n"
    "    return samples[thread.x] >= float(constants.threshold) ? 1.0 : 0.0;\n"
    "}\n";

static const char *SCAN =
    "float offsets(float flags[], float before[], int offset) {\n"
    "    int sum = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        if (i < thread.x) sum += int(flags[i]);\n"
    "    }\n"
    "    return before[thread.x] + float(sum);\n"
    "}\n";

static const char *COUNT =
    "float survivors(float flags[], float offsets[]) {\n"
    "    return offsets[constants.n - 1] + flags[constants.n - 1];\n"
    "}\n";

static const char *GATHER =
    "float gather(float samples[], float flags[], float offsets[]) {\n"
    "    int lo = 0, hi = constants.n;\n"
    "    for (int s = 0; s < constants.steps; s++) {\n"
    "        if (lo < hi) {\n"
    "            int mid = (lo + hi) / 2;\n"
    "            if (offsets[mid] + flags[mid] > float(thread.x)) hi = mid;\n"
    "            else lo = mid + 1;\n"
    "        }\n"
    "    }\n"
    "    return samples[min(lo, constants.n - 1)];\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "compact-5-count", .seed = 1130, .n = 64, .n_min = 1, .n_max = 65536};
    example_parse_args(&args, argc, argv);
    const long n = args.n, slice = n < EXAMPLE_SLICE ? n : EXAMPLE_SLICE;
    int steps = 0;
    while ((1L << steps) < n + 1)
        steps++;
    float *samples = malloc((size_t)n * sizeof *samples), *kept = malloc((size_t)n * sizeof *kept), count;
    if (!samples || !kept)
        return 1;
    gen_samples(samples, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    const gpuc_dims dims = {(uint32_t)n};
    gpuc_kernel *flag, *scan, *counter, *gather;
    gpuc_array *samples_dev, *flags, *offsets, *total, *packed;
    CHECK(gpu, gpuc_create_kernel(gpu, FLAG, &(gpuc_kernel_desc){.output = dims,
                                  .constants = {{"threshold", 50}}, .pipeline = true}, &flag));
    CHECK(gpu, gpuc_create_kernel(gpu, SCAN, &(gpuc_kernel_desc){.output = dims,
                                  .constants = {{"slice", slice}}, .pipeline = true}, &scan));
    CHECK(gpu, gpuc_create_kernel(gpu, COUNT, &(gpuc_kernel_desc){.output = {1}, .constants = {{"n", n}}},
                                  &counter));
    CHECK(gpu, gpuc_array_from_f32(gpu, samples, dims, &samples_dev));
    CHECK(gpu, gpuc_run(flag, (gpuc_arg[]){gpuc_arg_array(samples_dev)}, 1, &flags));
    CHECK(gpu, run_in_slices(gpu, scan, (gpuc_arg[]){gpuc_arg_array(flags)}, 1, dims, n, slice, &offsets));
    CHECK(gpu, gpuc_run(counter, (gpuc_arg[]){gpuc_arg_array(flags), gpuc_arg_array(offsets)}, 2, &total));
    CHECK(gpu, gpuc_array_read_f32(total, &count, 1));
    printf("survivors: %.0f\n", count);
    if (count > 0) { /* an output needs at least one cell */
        CHECK(gpu, gpuc_create_kernel(gpu, GATHER, &(gpuc_kernel_desc){.output = {(uint32_t)count},
                                      .constants = {{"n", n}, {"steps", steps}}}, &gather));
        CHECK(gpu, gpuc_run(gather, (gpuc_arg[]){gpuc_arg_array(samples_dev), gpuc_arg_array(flags),
                                                 gpuc_arg_array(offsets)}, 3, &packed));
        CHECK(gpu, gpuc_array_read_f32(packed, kept, (size_t)count));
    }
    print_ints("kept: ", kept, (size_t)count);

    gpuc_close(gpu); /* releases the kernels and arrays too */
    free(samples);
    free(kept);
    return 0;
}
