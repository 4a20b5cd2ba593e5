/* bitonic-2-partner - Bitonic Sort, task 2: who is my partner at this stride?
 *
 * Demonstrates an int kernel with a scalar argument: cell i returns i xor stride, the index it is
 * compared with in a bitonic pass of that stride (a power of two). `stride` is a uniform, so running
 * the kernel with stride 1 and then 4 reuses one compiled program. No data: --seed is accepted and
 * has no effect; --n sets the output size. */
#include "example_util.h"

#include <stdio.h>
#include <stdlib.h>

static const char *PARTNER =
    "int partner(int stride) {\n"
    "    return thread.x ^ stride;\n"
    "}\n";

static void show(gpuc *gpu, gpuc_kernel *k, gpuc_array *out, long n, int stride)
{
    int32_t *idx = malloc((size_t)n * sizeof *idx);
    float *as_float = malloc((size_t)n * sizeof *as_float);
    if (!idx || !as_float)
        exit(1);
    CHECK(gpu, gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_i32(stride)}, 1, out));
    CHECK(gpu, gpuc_array_read_i32(out, idx, (size_t)n));
    for (long i = 0; i < n; i++)
        as_float[i] = (float)idx[i];
    char label[32];
    snprintf(label, sizeof label, "stride %d: ", stride);
    print_int_list(label, as_float, (size_t)n);
    free(idx);
    free(as_float);
}

int main(int argc, char **argv)
{
    example_args args = {.name = "bitonic-2-partner", .n = 16, .n_min = 8, .n_max = 1 << 16,
                         .n_rule = "a power of two", .n_ok = example_is_pow2};
    example_parse_args(&args, argc, argv);
    gpuc *gpu = example_open();
    gpuc_kernel *k;
    gpuc_array *out;
    CHECK(gpu, gpuc_create_kernel(gpu, PARTNER, &(gpuc_kernel_desc){.output = {(uint32_t)args.n}}, &k));
    CHECK(gpu, gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){(uint32_t)args.n}, &out));
    show(gpu, k, out, args.n, 1);
    show(gpu, k, out, args.n, 4);
    gpuc_close(gpu); /* releases the kernel and array too */
    return 0;
}
