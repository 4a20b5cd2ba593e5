/* bitonic-3-direction - Bitonic Sort, task 3 (a seed page): one pass that knows its direction.
 *
 * Demonstrates the full bitonic pass kernel (data, stage, stride): a cell's partner is stride away
 * (ahead when bit `stride` of its index is 0, behind when it is 1), and the block of `stage` cells
 * it lies in sorts ascending or descending by bit `stage`. The cell keeps the minimum of the pair
 * when the two bits agree, else the maximum. Run once with stage 2, stride 1: pairs alternate
 * ascending/descending, which is what the next stage needs (not every pair ascending). */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

static const char *BITONIC_PASS =
    "float bitonicPass(float data[], int stage, int stride) {\n"
    "    int i = thread.x;\n"
    "    int strideBit = (i / stride) % 2;\n"
    "    int dirBit = (i / stage) % 2;\n"
    "    int partner = strideBit == 0 ? i + stride : i - stride;\n"
    "    float mine = data[i], theirs = data[partner];\n"
    "    return strideBit == dirBit ? min(mine, theirs) : max(mine, theirs);\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "bitonic-3-direction", .seed = 3103, .n = 8, .n_min = 2, .n_max = 1 << 20,
                         .n_rule = "a power of two", .n_ok = example_is_pow2};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    float *values = malloc((size_t)n * sizeof *values), *result = malloc((size_t)n * sizeof *result);
    if (!values || !result)
        return 1;
    gen_values(values, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *pass;
    gpuc_array *out;
    CHECK(gpu, gpuc_create_kernel(gpu, BITONIC_PASS, &(gpuc_kernel_desc){.output = {(uint32_t)n}}, &pass));
    CHECK(gpu, gpuc_run(pass, (gpuc_arg[]){gpuc_arg_host_f32(values, (gpuc_dims){(uint32_t)n}), gpuc_arg_i32(2),
                                          gpuc_arg_i32(1)}, 3, &out));
    CHECK(gpu, gpuc_array_read_f32(out, result, (size_t)n));
    print_g_list("", result, (size_t)n);

    gpuc_close(gpu); /* releases the kernel and array too */
    free(values);
    free(result);
    return 0;
}
