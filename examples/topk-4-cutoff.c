/* topk-4-cutoff - Top-K Selection, task 4 (a seed page): find the top-10 cutoff by bisection.
 *
 * Demonstrates a reduction split between device and host: a count-above kernel with output [threads]
 * lets thread x count the values above a threshold t in its strided share values[i*threads + x]; the
 * host totals the partial counts and bisects on t until the interval is narrower than 0.5. The
 * threshold is a scalar argument (a uniform), so each bisection step reuses the compiled kernel, and
 * only the `threads` partial counts come back each step.
 *
 * With 256 threads each one loops over n / 256 values (256 by default). llvmpipe stops an
 * invocation's loops after 65,535 iterations, so for very large --n the thread count grows to keep
 * every chunk at most EXAMPLE_SLICE. */
#include "example_util.h"
#include "tutorial_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { K = 10, THREADS = 256 };

static const char *COUNT_ABOVE =
    "float countAbove(float values[], float t) {\n"
    "    int hits = 0;\n"
    "    for (int i = 0; i < constants.chunk; i++) {\n"
    "        int index = i * constants.threads + thread.x;\n"
    "        if (index < constants.n && values[index] > t) hits++;\n"
    "    }\n"
    "    return float(hits);\n"
    "}\n";

/* Runs the kernel at threshold t into `counts` and totals the per-thread counts on the host. */
static long count_above(gpuc *gpu, gpuc_kernel *k, const gpuc_array *values, gpuc_array *counts,
                        float *partial, long threads, double t)
{
    CHECK(gpu, gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_f32((float)t)}, 2, counts));
    CHECK(gpu, gpuc_array_read_f32(counts, partial, (size_t)threads));
    long total = 0;
    for (long x = 0; x < threads; x++)
        total += (long)partial[x];
    return total;
}

int main(int argc, char **argv)
{
    example_args args = {.name = "topk-4-cutoff", .seed = 4801, .n = 65536, .n_min = K, .n_max = 1L << 24};
    example_parse_args(&args, argc, argv);
    const long n = args.n;
    const long threads = n / EXAMPLE_SLICE + 1 > THREADS ? n / EXAMPLE_SLICE + 1 : THREADS;
    const long chunk = (n + threads - 1) / threads;
    float *values = malloc((size_t)n * sizeof *values), *partial = malloc((size_t)threads * sizeof *partial);
    if (!values || !partial)
        return 1;
    gen_fine_scores(values, (size_t)n, args.seed);
    double lo = values[0], hi = values[0];
    for (long i = 1; i < n; i++) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
    }
    lo -= 1; /* count(lo) = n >= K and count(hi) = 0 < K: the cutoff lies between */

    gpuc *gpu = example_open();
    gpuc_kernel *count;
    gpuc_array *values_dev, *counts;
    CHECK(gpu, gpuc_create_kernel(gpu, COUNT_ABOVE, &(gpuc_kernel_desc){
        .output = {(uint32_t)threads}, .constants = {{"n", n}, {"threads", threads}, {"chunk", chunk}}}, &count));
    CHECK(gpu, gpuc_array_from_f32(gpu, values, (gpuc_dims){(uint32_t)n}, &values_dev));
    CHECK(gpu, gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)threads}, &counts));
    while (hi - lo > 0.5) {
        double mid = (lo + hi) / 2;
        if (count_above(gpu, count, values_dev, counts, partial, threads, mid) >= K)
            lo = mid;
        else
            hi = mid;
    }
    double cutoff = floor(lo);
    printf("cutoff: %.0f\n", cutoff);
    printf("above it: %ld\n", count_above(gpu, count, values_dev, counts, partial, threads, cutoff));

    gpuc_close(gpu); /* releases the kernel and arrays too */
    free(values);
    free(partial);
    return 0;
}
