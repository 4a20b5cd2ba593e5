/* compact-4-binary-search - Stream Compaction, task 4 (a seed page): pack by binary search.
 *
 * Demonstrates replacing task 3's O(n) search with O(log n): the running count offsets[i] + flags[i]
 * never decreases, so output cell x finds the first element whose running count exceeds x (a lower
 * bound) in constants.steps halvings, each guarded by lo < hi, and returns that sample. steps is
 * ceil(log2(n + 1)) (7 for n = 64), a constant, so the loop is tiny whatever n is. The flags and
 * offsets (tasks 1 and 2) are the input, computed here on the host; the output has one cell per
 * survivor. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { SHOWN = 12, THRESHOLD = 50 };

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
    example_args args = {.name = "compact-4-binary-search", .seed = 1181, .n = 64, .n_min = 1, .n_max = 1 << 22};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    int steps = 0;
    while ((1L << steps) < n + 1)
        steps++;
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
        gpuc_array *out;
        const gpuc_dims dims = {(uint32_t)n};
        CHECK(gpu, gpuc_create_kernel(gpu, GATHER, &(gpuc_kernel_desc){.output = {(uint32_t)count},
                                      .constants = {{"n", n}, {"steps", steps}}}, &k));
        CHECK(gpu, gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(samples, dims), gpuc_arg_host_f32(flags, dims),
                                            gpuc_arg_host_f32(offsets, dims)}, 3, &out));
        CHECK(gpu, gpuc_array_read_f32(out, packed, (size_t)count));
    }
    print_ints("samples: ", samples, (size_t)(n < SHOWN ? n : SHOWN));
    print_ints("packed:  ", packed, (size_t)(count < SHOWN ? count : SHOWN));

    gpuc_close(gpu); /* releases the kernel and array too */
    free(samples);
    free(flags);
    free(offsets);
    free(packed);
    return 0;
}
