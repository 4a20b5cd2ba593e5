/* compact-1-flags - Stream Compaction, task 1: flag the survivors.
 *
 * Demonstrates the simplest map kernel with a compile-time constant: cell i is 1 when sample i is at
 * least constants.threshold (50), else 0. Prints the first 12 samples and their flags. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { SHOWN = 12 };

static const char *FLAG =
    "float flag(float samples[]) {\n"
    "    return samples[thread.x] >= float(constants.threshold) ? 1.0 : 0.0;\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "compact-1-flags", .seed = 1130, .n = 64, .n_min = 1, .n_max = 65536};
    example_parse_args(&args, argc, argv);
    const long n = args.n, shown = n < SHOWN ? n : SHOWN;
    float *samples = malloc((size_t)n * sizeof *samples), *flags = malloc((size_t)n * sizeof *flags);
    if (!samples || !flags)
        return 1;
    gen_samples(samples, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *k;
    gpuc_array *out;
    CHECK(gpu, gpuc_create_kernel(gpu, FLAG, &(gpuc_kernel_desc){.output = {(uint32_t)n},
                                                                 .constants = {{"threshold", 50}}}, &k));
    CHECK(gpu, gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(samples, (gpuc_dims){(uint32_t)n})}, 1, &out));
    CHECK(gpu, gpuc_array_read_f32(out, flags, (size_t)n));
    print_ints("samples: ", samples, (size_t)shown);
    print_ints("flags:   ", flags, (size_t)shown);

    gpuc_close(gpu); /* releases the kernel and array too */
    free(samples);
    free(flags);
    return 0;
}
