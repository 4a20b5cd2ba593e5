/* bitonic-1-compare-exchange - Bitonic Sort, task 1: one compare-exchange step.
 *
 * Demonstrates the gather form of a compare-exchange: instead of one thread swapping a pair, BOTH
 * cells of a pair compute their own result. Cell i's partner is i+1 for even i and i-1 for odd i
 * (i xor 1); the even cell keeps the smaller value, the odd cell the larger. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

static const char *COMPARE_EXCHANGE =
    "float compareExchange(float data[]) {\n"
    "    int partner = thread.x ^ 1;\n"
    "    float mine = data[thread.x];\n"
    "    if (partner >= outputSize.x) return mine; /* an odd count leaves the last one alone */\n"
    "    float theirs = data[partner];\n"
    "    return thread.x % 2 == 0 ? min(mine, theirs) : max(mine, theirs);\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "bitonic-1-compare-exchange", .seed = 1601, .n = 16, .n_min = 1,
                         .n_max = 1 << 20};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    float *values = malloc((size_t)n * sizeof *values), *result = malloc((size_t)n * sizeof *result);
    if (!values || !result)
        return 1;
    gen_values(values, (size_t)n, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *step;
    gpuc_array *out;
    CHECK(gpu, gpuc_create_kernel(gpu, COMPARE_EXCHANGE, &(gpuc_kernel_desc){.output = {(uint32_t)n}}, &step));
    CHECK(gpu, gpuc_run(step, (gpuc_arg[]){gpuc_arg_host_f32(values, (gpuc_dims){(uint32_t)n})}, 1, &out));
    CHECK(gpu, gpuc_array_read_f32(out, result, (size_t)n));
    print_g_list("", result, (size_t)n);

    gpuc_close(gpu); /* releases the kernel and array too */
    free(values);
    free(result);
    return 0;
}
