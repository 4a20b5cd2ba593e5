/* bitonic-4-network - Bitonic Sort, task 4: the whole network, pass after pass on the device.
 *
 * Demonstrates a data-independent schedule and a pipeline: the (stage, stride) pairs are built before
 * any data is read (stages 2, 4, .., n; strides stage/2 down to 1), then each pass of the task-3
 * kernel feeds the next. The kernel keeps its result on the device (.pipeline) and gpuc_run_to
 * ping-pongs between two arrays, so nothing is allocated or read back until the end. */
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

typedef struct pass {
    int stage, stride;
} pass;

/* Fills `schedule` (room for log2(n) * (log2(n) + 1) / 2 passes) and returns the pass count. */
static int build_schedule(long n, pass *schedule)
{
    int count = 0;
    for (long stage = 2; stage <= n; stage *= 2)
        for (long stride = stage / 2; stride >= 1; stride /= 2)
            schedule[count++] = (pass){(int)stage, (int)stride};
    return count;
}

int main(int argc, char **argv)
{
    example_args args = {.name = "bitonic-4-network", .seed = 2560, .n = 256, .n_min = 2, .n_max = 1 << 22,
                         .n_rule = "a power of two", .n_ok = example_is_pow2};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    pass schedule[22 * 23 / 2];
    const int passes = build_schedule(n, schedule);
    printf("passes: %d\nschedule: [", passes);
    for (int p = 0; p < passes; p++)
        printf("%s[%d,%d]", p ? "," : "", schedule[p].stage, schedule[p].stride);
    printf("]\n");

    float *values = malloc((size_t)n * sizeof *values);
    if (!values)
        return 1;
    gen_values(values, (size_t)n, args.seed);
    gpuc *gpu = example_open();
    gpuc_kernel *k;
    gpuc_array *buf[2];
    CHECK(gpu, gpuc_create_kernel(gpu, BITONIC_PASS, &(gpuc_kernel_desc){.output = {(uint32_t)n}, .pipeline = true},
                                  &k));
    CHECK(gpu, gpuc_array_from_f32(gpu, values, (gpuc_dims){(uint32_t)n}, &buf[0]));
    CHECK(gpu, gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)n}, &buf[1]));
    for (int p = 0; p < passes; p++)
        CHECK(gpu, gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(buf[p % 2]), gpuc_arg_i32(schedule[p].stage),
                                               gpuc_arg_i32(schedule[p].stride)}, 3, buf[(p + 1) % 2]));
    CHECK(gpu, gpuc_array_read_f32(buf[passes % 2], values, (size_t)n));
    printf("smallest: %g\nlargest: %g\n", (double)values[0], (double)values[n - 1]);

    gpuc_close(gpu); /* releases the kernel and arrays too */
    free(values);
    return 0;
}
