/* bitonic-5-sort - Bitonic Sort, task 5: sort any number of values.
 *
 * Demonstrates padding a problem to the shape an algorithm needs: the network sorts a power of two
 * of values, so n values are padded with 1e6 (finite and larger than any value, so the pads sort to
 * the end) up to the next power of two, sorted by the full network, and the first n kept. The result
 * is compared with the C library's qsort of the same values. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *BITONIC_PASS =
    "float bitonicPass(float data[], int stage, int stride) {\n"
    "    int i = thread.x;\n"
    "    int strideBit = (i / stride) % 2;\n"
    "    int dirBit = (i / stage) % 2;\n"
    "    int partner = strideBit == 0 ? i + stride : i - stride;\n"
    "    float mine = data[i], theirs = data[partner];\n"
    "    return strideBit == dirBit ? min(mine, theirs) : max(mine, theirs);\n"
    "}\n";

static const float PAD = 1e6f;

/* Sorts size (a power of two) floats in place on the device. */
static void bitonic_sort(gpuc *gpu, float *data, long size)
{
    gpuc_kernel *k;
    gpuc_array *buf[2];
    CHECK(gpu, gpuc_create_kernel(gpu, BITONIC_PASS, &(gpuc_kernel_desc){.output = {(uint32_t)size},
                                                                          .pipeline = true}, &k));
    CHECK(gpu, gpuc_array_from_f32(gpu, data, (gpuc_dims){(uint32_t)size}, &buf[0]));
    CHECK(gpu, gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)size}, &buf[1]));
    int cur = 0;
    for (long stage = 2; stage <= size; stage *= 2)
        for (long stride = stage / 2; stride >= 1; stride /= 2, cur = 1 - cur)
            CHECK(gpu, gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(buf[cur]), gpuc_arg_i32((int32_t)stage),
                                                   gpuc_arg_i32((int32_t)stride)}, 3, buf[1 - cur]));
    CHECK(gpu, gpuc_array_read_f32(buf[cur], data, (size_t)size));
    gpuc_array_free(buf[0]);
    gpuc_array_free(buf[1]);
    gpuc_kernel_free(k);
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    example_args args = {.name = "bitonic-5-sort", .seed = 10007, .n = 100, .n_min = 1, .n_max = 1 << 22};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    long size = 1;
    while (size < n)
        size *= 2;
    float *padded = malloc((size_t)size * sizeof *padded), *expected = malloc((size_t)n * sizeof *expected);
    if (!padded || !expected)
        return 1;
    gen_values(padded, (size_t)n, args.seed);
    for (long i = n; i < size; i++)
        padded[i] = PAD;
    memcpy(expected, padded, (size_t)n * sizeof *expected);
    qsort(expected, (size_t)n, sizeof *expected, compare_floats);

    gpuc *gpu = example_open();
    bitonic_sort(gpu, padded, size);
    printf("smallest: %g\nlargest: %g\n", (double)padded[0], (double)padded[n - 1]);
    printf("matches qsort: %s\n", memcmp(padded, expected, (size_t)n * sizeof *expected) ? "false" : "true");

    gpuc_close(gpu);
    free(padded);
    free(expected);
    return 0;
}
