/* topk-5-which-wins - Top-K Selection, task 5: ranking against bisection, at 4,096 and 131,072 scores.
 *
 * Demonstrates why the algorithm matters more than the device: ranking costs n comparisons per
 * element (n^2 in all) while each bisection step costs one pass over the data. Both find the 10th
 * largest score; the timings (CLOCK_MONOTONIC, after one untimed warm-up call of each kernel, which
 * pays for compiling and JIT) show how the gap grows with n.
 *
 * rankBig has output [512, 256] (cell y*512 + x ranks element y*512 + x). Its loop over 131,072
 * elements would pass llvmpipe's budget of 65,535 loop iterations per invocation (the driver would
 * silently stop it), so it loops over one slice of EXAMPLE_SLICE elements per pass and
 * run_in_slices adds up the four passes. */
#include "example_util.h"
#include "tutorial_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { K = 10, SMALL = 4096, BIG = 131072, WIDTH = 512 };

/* Both rank kernels count the elements of one slice that beat element `me` and add the count to the
 * previous passes' total; rankSmall's one pass covers all 4,096. */
static const char *RANK_SMALL =
    "float rankSmall(float scores[], float ranked[], int offset) {\n"
    "    int me = thread.x;\n"
    "    float mine = scores[me];\n"
    "    int beaten = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        float other = scores[i];\n"
    "        if (i < constants.n && (other > mine || (other == mine && i < me))) beaten++;\n"
    "    }\n"
    "    return ranked[me] + float(beaten);\n"
    "}\n";

static const char *RANK_BIG =
    "float rankBig(float scores[], float ranked[][], int offset) {\n"
    "    int me = thread.y * constants.width + thread.x;\n"
    "    float mine = scores[me];\n"
    "    int beaten = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        float other = scores[i];\n"
    "        if (i < constants.n && (other > mine || (other == mine && i < me))) beaten++;\n"
    "    }\n"
    "    return ranked[thread.y][thread.x] + float(beaten);\n"
    "}\n";

static const char *COUNT_ABOVE =
    "float countAbove(float values[], float t) {\n"
    "    int hits = 0;\n"
    "    for (int i = 0; i < constants.chunk; i++)\n"
    "        if (values[i * constants.threads + thread.x] > t) hits++;\n"
    "    return float(hits);\n"
    "}\n";

/* One problem size: its data on the device and its two kernels. */
typedef struct contest {
    long n, threads;
    gpuc_dims rank_output;
    const float *scores;
    gpuc_array *scores_dev, *counts;
    gpuc_kernel *rank, *count;
} contest;

static void setup(gpuc *gpu, contest *c, const char *rank_src, gpuc_dims rank_output, long chunk)
{
    const long slice = c->n < EXAMPLE_SLICE ? c->n : EXAMPLE_SLICE;
    c->rank_output = rank_output;
    CHECK(gpu, gpuc_array_from_f32(gpu, c->scores, (gpuc_dims){(uint32_t)c->n}, &c->scores_dev));
    CHECK(gpu, gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)c->threads}, &c->counts));
    CHECK(gpu, gpuc_create_kernel(gpu, rank_src, &(gpuc_kernel_desc){.output = rank_output,
        .constants = {{"n", c->n}, {"slice", slice}, {"width", WIDTH} /* rankBig only */}, .pipeline = true},
        &c->rank));
    CHECK(gpu, gpuc_create_kernel(gpu, COUNT_ABOVE, &(gpuc_kernel_desc){.output = {(uint32_t)c->threads},
        .constants = {{"threads", c->threads}, {"chunk", chunk}}}, &c->count));
    /* The untimed warm-up: one call of each kernel compiles and JITs its program. */
    gpuc_array *zeros, *warm;
    CHECK(gpu, gpuc_array_new(gpu, GPUC_FLOAT, rank_output, &zeros));
    CHECK(gpu, gpuc_run(c->rank, (gpuc_arg[]){gpuc_arg_array(c->scores_dev), gpuc_arg_array(zeros),
                                              gpuc_arg_i32(0)}, 3, &warm));
    CHECK(gpu, gpuc_run_to(c->count, (gpuc_arg[]){gpuc_arg_array(c->scores_dev), gpuc_arg_f32(0)}, 2, c->counts));
    /* Reading the warm-up rank back waits for it, so none of its work runs into the timed calls. */
    float *sink = malloc((size_t)c->n * sizeof *sink);
    if (!sink)
        exit(1);
    CHECK(gpu, gpuc_array_read_f32(warm, sink, (size_t)c->n));
    free(sink);
    gpuc_array_free(zeros);
    gpuc_array_free(warm);
}

/* Ranks every score and returns the one ranked K-1 (the K-th largest). */
static float kth_by_rank(gpuc *gpu, const contest *c)
{
    const long slice = c->n < EXAMPLE_SLICE ? c->n : EXAMPLE_SLICE;
    gpuc_array *ranks;
    float *rank = malloc((size_t)c->n * sizeof *rank), kth = NAN;
    if (!rank)
        exit(1);
    CHECK(gpu, run_in_slices(gpu, c->rank, (gpuc_arg[]){gpuc_arg_array(c->scores_dev)}, 1, c->rank_output,
                             c->n, slice, &ranks));
    CHECK(gpu, gpuc_array_read_f32(ranks, rank, (size_t)c->n));
    for (long i = 0; i < c->n; i++)
        if (rank[i] == K - 1)
            kth = c->scores[i];
    gpuc_array_free(ranks);
    free(rank);
    return kth;
}

static long count_above(gpuc *gpu, const contest *c, float *partial, double t)
{
    CHECK(gpu, gpuc_run_to(c->count, (gpuc_arg[]){gpuc_arg_array(c->scores_dev), gpuc_arg_f32((float)t)}, 2,
                           c->counts));
    CHECK(gpu, gpuc_array_read_f32(c->counts, partial, (size_t)c->threads));
    long total = 0;
    for (long x = 0; x < c->threads; x++)
        total += (long)partial[x];
    return total;
}

/* Bisects on the threshold as topk-4-cutoff does; returns floor of the last threshold with >= K above. */
static double cutoff_by_bisection(gpuc *gpu, const contest *c)
{
    float partial[WIDTH];
    double lo = c->scores[0], hi = c->scores[0];
    for (long i = 1; i < c->n; i++) {
        lo = c->scores[i] < lo ? c->scores[i] : lo;
        hi = c->scores[i] > hi ? c->scores[i] : hi;
    }
    lo -= 1;
    while (hi - lo > 0.5) {
        double mid = (lo + hi) / 2;
        if (count_above(gpu, c, partial, mid) >= K)
            lo = mid;
        else
            hi = mid;
    }
    return floor(lo);
}

static void race(gpuc *gpu, const contest *c)
{
    double t0 = example_now_ms();
    float kth = kth_by_rank(gpu, c);
    double t1 = example_now_ms();
    double cutoff = cutoff_by_bisection(gpu, c);
    double t2 = example_now_ms();
    printf("rank %ld: %.1f ms - 10th largest score is %.0f\n", c->n, t1 - t0, kth);
    printf("bisect %ld: %.1f ms - cutoff %.0f\n", c->n, t2 - t1, cutoff);
}

int main(int argc, char **argv)
{
    /* The two sizes have their own default seeds; --seed N seeds both. */
    example_args args = {.name = "topk-5-which-wins"};
    example_parse_args(&args, argc, argv);
    static float small[SMALL], big[BIG];
    gen_fine_scores(small, SMALL, args.seed_given ? args.seed : 606);
    gen_fine_scores(big, BIG, args.seed_given ? args.seed : 4801);

    gpuc *gpu = example_open();
    contest s = {.n = SMALL, .threads = 64, .scores = small}, b = {.n = BIG, .threads = 512, .scores = big};
    setup(gpu, &s, RANK_SMALL, (gpuc_dims){SMALL}, 64);
    setup(gpu, &b, RANK_BIG, (gpuc_dims){WIDTH, BIG / WIDTH}, 256);
    race(gpu, &s);
    race(gpu, &b);
    gpuc_close(gpu); /* releases the kernels and arrays too */
    return 0;
}
