/* test_examples.c - the fifteen tutorial examples as programs: each is run from GPUC_EXAMPLES_DIR with
 * popen. For the default seeds their output must be the spec's lines exactly (spec/tutorial-tasks.md;
 * topk-5's timings matched by pattern); for other seeds and sizes it must equal what a plain C oracle
 * computes here from the same generators (examples/common/tutorial_data.c); bad options exit with 2
 * and GPU errors with 1 and gpuc's message.
 * The examples open their own contexts, so these tests need none. `make tutorials`'s script is run
 * here too, in a scratch tree, to show it reports each checked line and fails on a mismatch. */
#include "fixture.h"
#include "suites.h"
#include "tutorial_data.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running an example ---------------------------------------------------------------------- */

/* Runs `name options` from GPUC_EXAMPLES_DIR; returns its stdout (and its stderr too when
 * with_stderr) (caller frees) and its exit status. */
static char *run_example_output(const char *name, const char *options, int with_stderr, int *status)
{
    const char *dir = getenv("GPUC_EXAMPLES_DIR");
    ck_assert_msg(dir && *dir, "GPUC_EXAMPLES_DIR is not set: run the tests through `make check`");
    char command[1024];
    /* Under SANITIZE=1 the example is its own process, without the test fixture's pinned Mesa driver:
     * the allocations Mesa leaves when it unloads its driver (more of them on the fragment backend)
     * would fail it. Leak checking of gpuc itself stays on in every in-process suite. */
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 '%s/%s' %s %s", dir, name, options,
             with_stderr ? "2>&1" : "2>/dev/null");
    return fixture_run_command(command, status);
}

static char *run_example(const char *name, const char *options, int *status)
{
    return run_example_output(name, options, 0, status);
}

/* Runs an example that must succeed and print exactly `expected`. */
static void expect_output(const char *name, const char *options, const char *expected)
{
    int status;
    char *out = run_example(name, options, &status);
    ck_assert_msg(status == 0, "%s %s exited with %d", name, options, status);
    size_t at = 0; /* the first difference, shown with some context (outputs can be long) */
    while (out[at] && out[at] == expected[at])
        at++;
    size_t from = at > 40 ? at - 40 : 0;
    ck_assert_msg(!strcmp(out, expected), "%s %s differs at byte %zu: printed \"%.80s\", expected \"%.80s\"", name,
                  options, at, out + from, expected + from);
    free(out);
}

/* ---- default seeds: the spec's lines ------------------------------------------------------------ */

typedef struct spec_output {
    const char *name, *lines;
} spec_output;

static const spec_output SPEC[] = {
    {"topk-1-rank", "rank of element 0: 2220 (its score is 94)\n"},
    {"topk-2-gather", "top 10: [998, 997, 996, 995, 994, 994, 994, 994, 994, 993]\n"},
    {"topk-3-brightest", "brightest: 627 at row 44 col 15\n"
                         "all eight (flat indices): [2831, 2702, 2895, 2766, 2829, 2768, 2767, 2832]\n"},
    {"topk-4-cutoff", "cutoff: 68327\nabove it: 10\n"},
    {"bitonic-1-compare-exchange", "[5.72, 42.57, 47.94, 48.47, 16.51, 49.12, 45.6, 74.3, 19.66, 67.19, 22.84, "
                                   "45.93, 55.21, 62.81, 0.05, 91.6]\n"},
    {"bitonic-2-partner", "stride 1: [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]\n"
                          "stride 4: [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11]\n"},
    {"bitonic-3-direction", "[66.62, 67.76, 72.94, 33.76, 43.23, 43.51, 98.62, 1.59]\n"},
    {"bitonic-4-network",
     "passes: 36\nschedule: [[2,1],[4,2],[4,1],[8,4],[8,2],[8,1],[16,8],[16,4],[16,2],[16,1],[32,16],[32,8],"
     "[32,4],[32,2],[32,1],[64,32],[64,16],[64,8],[64,4],[64,2],[64,1],[128,64],[128,32],[128,16],[128,8],"
     "[128,4],[128,2],[128,1],[256,128],[256,64],[256,32],[256,16],[256,8],[256,4],[256,2],[256,1]]\n"
     "smallest: 0.37\nlargest: 99.96\n"},
    {"bitonic-5-sort", "smallest: 0.2\nlargest: 99.95\nmatches qsort: true\n"},
    {"compact-1-flags", "samples: 13, 42, 67, 21, 53, 94, 17, 14, 84, 80, 61, 23\n"
                        "flags:   0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0\n"},
    {"compact-2-offsets", "flags:    0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1, 1\n"
                          "offsets:  0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4, 5\n"},
    {"compact-3-gather", "samples: 29, 44, 54, 11, 88, 82, 82, 73, 94, 95, 70, 73\n"
                         "packed:  54, 88, 82, 82, 73, 94, 95, 70, 73, 67, 67, 66\n"},
    {"compact-4-binary-search", "samples: 19, 10, 1, 99, 83, 25, 99, 5, 87, 96, 88, 33\n"
                                "packed:  99, 83, 99, 87, 96, 88, 57, 86, 66, 58, 99, 62\n"},
    {"compact-5-count", "survivors: 32\nkept: 67, 53, 94, 84, 80, 61, 63, 79, 95, 76, 69, 93, 61, 66, 94, 87, "
                        "69, 83, 78, 94, 65, 83, 68, 85, 79, 50, 74, 58, 65, 68, 72, 98\n"},
};
enum { SPEC_COUNT = sizeof SPEC / sizeof SPEC[0] };

START_TEST(default_seed_prints_spec_lines)
{
    expect_output(SPEC[_i].name, "", SPEC[_i].lines);
}
END_TEST

/* Matches one line "<prefix><ms> ms - <suffix>" where <ms> is a plain decimal number; returns the
 * text after the line's newline. */
static const char *match_timed_line(const char *text, const char *prefix, const char *suffix)
{
    ck_assert_msg(!strncmp(text, prefix, strlen(prefix)), "expected \"%s...\" at \"%s\"", prefix, text);
    const char *p = text + strlen(prefix);
    const char *digits = p;
    while (isdigit((unsigned char)*p) || *p == '.')
        p++;
    ck_assert_msg(p > digits && isdigit((unsigned char)digits[0]) && isdigit((unsigned char)p[-1]),
                  "no time in ms at \"%s\"", text);
    ck_assert_msg(!strncmp(p, " ms - ", 6), "expected \" ms - \" at \"%s\"", p);
    p += 6;
    ck_assert_msg(!strncmp(p, suffix, strlen(suffix)) && p[strlen(suffix)] == '\n', "expected \"%s\" at \"%s\"",
                  suffix, p);
    return p + strlen(suffix) + 1;
}

START_TEST(topk5_default_seed_prints_spec_lines)
{
    int status;
    char *out = run_example("topk-5-which-wins", "", &status);
    ck_assert_int_eq(status, 0);
    const char *p = match_timed_line(out, "rank 4096: ", "10th largest score is 44230");
    p = match_timed_line(p, "bisect 4096: ", "cutoff 44229");
    p = match_timed_line(p, "rank 131072: ", "10th largest score is 72757");
    p = match_timed_line(p, "bisect 131072: ", "cutoff 72756");
    ck_assert_str_eq(p, "");
    free(out);
}
END_TEST

/* ---- other seeds and sizes against plain C oracles ---------------------------------------------- */

/* Appends printf-formatted text to a fixed buffer. */
static void append(char *buf, size_t cap, const char *format, double value)
{
    size_t len = strlen(buf);
    ck_assert_uint_lt(len, cap);
    snprintf(buf + len, cap - len, format, value);
}

/* Appends "v0, v1, ..." in `format` (ints as %.0f, floats as %g). */
static void append_list(char *buf, size_t cap, const float *v, long n, const char *format)
{
    for (long i = 0; i < n; i++) {
        append(buf, cap, i ? ", " : "", 0);
        append(buf, cap, format, v[i]);
    }
}

static float *make_floats(long n)
{
    float *v = malloc((size_t)n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    return v;
}

/* Rank as the spec defines it: elements strictly larger, plus equal ones at a lower index. */
static long oracle_rank(const float *v, long n, long i)
{
    long r = 0;
    for (long j = 0; j < n; j++)
        r += v[j] > v[i] || (v[j] == v[i] && j < i);
    return r;
}

START_TEST(topk1_rank_other_seed_and_many_slices)
{
    enum { N = 40000 }; /* more than one slice of EXAMPLE_SLICE */
    float *v = make_floats(N);
    gen_scores(v, N, 7);
    char expected[128];
    snprintf(expected, sizeof expected, "rank of element 0: %ld (its score is %.0f)\n", oracle_rank(v, N, 0),
             (double)v[0]);
    expect_output("topk-1-rank", "--seed 7 --n 40000", expected);
    free(v);
}
END_TEST

static int descending(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

START_TEST(topk2_gather_other_seed)
{
    enum { N = 5000 };
    float *v = make_floats(N);
    gen_scores(v, N, 11);
    qsort(v, N, sizeof *v, descending);
    char expected[256] = "top 10: [";
    append_list(expected, sizeof expected, v, 10, "%.0f");
    append(expected, sizeof expected, "]\n", 0);
    expect_output("topk-2-gather", "--seed 11 --n 5000", expected);
    free(v);
}
END_TEST

START_TEST(topk3_brightest_other_seed_and_size)
{
    enum { SIZE = 40, CELLS = SIZE * SIZE };
    float *img = make_floats(CELLS), best[8];
    gen_brightness(img, SIZE, 5);
    for (long i = 0; i < CELLS; i++) {
        long r = oracle_rank(img, CELLS, i);
        if (r < 8)
            best[r] = (float)i;
    }
    char expected[256];
    snprintf(expected, sizeof expected, "brightest: %.0f at row %d col %d\nall eight (flat indices): [",
             (double)img[(long)best[0]], (int)best[0] / SIZE, (int)best[0] % SIZE);
    append_list(expected, sizeof expected, best, 8, "%.0f");
    append(expected, sizeof expected, "]\n", 0);
    expect_output("topk-3-brightest", "--seed 5 --n 40", expected);
    free(img);
}
END_TEST

/* Values above t, compared in float32 as the kernel compares them. */
static long oracle_count_above(const float *v, long n, double t)
{
    long c = 0;
    for (long i = 0; i < n; i++)
        c += v[i] > (float)t;
    return c;
}

START_TEST(topk4_cutoff_other_seed_and_size)
{
    enum { N = 100000, K = 10 };
    float *v = make_floats(N);
    gen_fine_scores(v, N, 9);
    double lo = v[0], hi = v[0];
    for (long i = 0; i < N; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    lo -= 1;
    while (hi - lo > 0.5) {
        double mid = (lo + hi) / 2;
        *(oracle_count_above(v, N, mid) >= K ? &lo : &hi) = mid;
    }
    char expected[128];
    snprintf(expected, sizeof expected, "cutoff: %.0f\nabove it: %ld\n", floor(lo),
             oracle_count_above(v, N, floor(lo)));
    expect_output("topk-4-cutoff", "--seed 9 --n 100000", expected);
    /* The 10th largest value is above the cutoff and the 11th is not. */
    qsort(v, N, sizeof *v, descending);
    ck_assert(v[K - 1] > floor(lo) && !(v[K] > floor(lo)));
    free(v);
}
END_TEST

START_TEST(bitonic1_compare_exchange_odd_size)
{
    enum { N = 11 };
    float v[N], r[N];
    gen_values(v, N, 42);
    for (int i = 0; i < N; i++) {
        int p = i ^ 1;
        r[i] = p >= N ? v[i] : i % 2 == 0 ? fminf(v[i], v[p]) : fmaxf(v[i], v[p]);
    }
    char expected[256] = "[";
    append_list(expected, sizeof expected, r, N, "%g");
    append(expected, sizeof expected, "]\n", 0);
    expect_output("bitonic-1-compare-exchange", "--seed 42 --n 11", expected);
}
END_TEST

START_TEST(bitonic2_partner_other_size)
{
    float s1[32], s4[32];
    for (int i = 0; i < 32; i++) {
        s1[i] = (float)(i ^ 1);
        s4[i] = (float)(i ^ 4);
    }
    char expected[512] = "stride 1: [";
    append_list(expected, sizeof expected, s1, 32, "%.0f");
    append(expected, sizeof expected, "]\nstride 4: [", 0);
    append_list(expected, sizeof expected, s4, 32, "%.0f");
    append(expected, sizeof expected, "]\n", 0);
    expect_output("bitonic-2-partner", "--n 32", expected);
}
END_TEST

START_TEST(bitonic3_direction_other_seed_and_size)
{
    enum { N = 16 };
    float v[N], r[N];
    gen_values(v, N, 8);
    for (int i = 0; i < N; i += 2) { /* stage 2, stride 1: pairs alternate ascending, descending */
        int ascending = (i / 2) % 2 == 0;
        r[i] = ascending ? fminf(v[i], v[i + 1]) : fmaxf(v[i], v[i + 1]);
        r[i + 1] = ascending ? fmaxf(v[i], v[i + 1]) : fminf(v[i], v[i + 1]);
    }
    char expected[256] = "[";
    append_list(expected, sizeof expected, r, N, "%g");
    append(expected, sizeof expected, "]\n", 0);
    expect_output("bitonic-3-direction", "--seed 8 --n 16", expected);
}
END_TEST

START_TEST(bitonic4_network_other_seed_and_size)
{
    enum { N = 1024 };
    float *v = make_floats(N);
    gen_values(v, N, 3);
    float lo = v[0], hi = v[0];
    for (int i = 0; i < N; i++) {
        lo = fminf(lo, v[i]);
        hi = fmaxf(hi, v[i]);
    }
    char expected[2048] = "passes: 55\nschedule: [";
    for (int stage = 2, first = 1; stage <= N; stage *= 2)
        for (int stride = stage / 2; stride >= 1; stride /= 2, first = 0) {
            size_t len = strlen(expected);
            snprintf(expected + len, sizeof expected - len, "%s[%d,%d]", first ? "" : ",", stage, stride);
        }
    append(expected, sizeof expected, "]\nsmallest: %g\n", lo);
    append(expected, sizeof expected, "largest: %g\n", hi);
    expect_output("bitonic-4-network", "--seed 3 --n 1024", expected);
    free(v);
}
END_TEST

START_TEST(bitonic5_sort_other_seed_and_size)
{
    enum { N = 1000 };
    float *v = make_floats(N);
    gen_values(v, N, 77);
    qsort(v, N, sizeof *v, descending);
    char expected[128];
    snprintf(expected, sizeof expected, "smallest: %g\nlargest: %g\nmatches qsort: true\n", (double)v[N - 1],
             (double)v[0]);
    expect_output("bitonic-5-sort", "--seed 77 --n 1000", expected);
    free(v);
}
END_TEST

/* The compaction oracle: flags, exclusive offsets and the packed survivors of samples(n, seed). */
typedef struct compaction {
    float *samples, *flags, *offsets, *kept;
    long kept_count;
} compaction;

static compaction oracle_compact(long n, uint32_t seed)
{
    compaction c = {make_floats(n), make_floats(n), make_floats(n), make_floats(n), 0};
    gen_samples(c.samples, (size_t)n, seed);
    for (long i = 0; i < n; i++) {
        c.flags[i] = c.samples[i] >= 50 ? 1.0f : 0.0f;
        c.offsets[i] = (float)c.kept_count;
        if (c.flags[i] == 1.0f)
            c.kept[c.kept_count++] = c.samples[i];
    }
    return c;
}

static void free_compaction(compaction *c)
{
    free(c->samples);
    free(c->flags);
    free(c->offsets);
    free(c->kept);
}

/* "<label>" followed by the first min(12, n) values and a newline. */
static void append_first12(char *buf, size_t cap, const char *label, const float *v, long n)
{
    append(buf, cap, label, 0);
    append_list(buf, cap, v, n < 12 ? n : 12, "%.0f");
    append(buf, cap, "\n", 0);
}

START_TEST(compact1_flags_other_seed)
{
    compaction c = oracle_compact(64, 2);
    char expected[256] = "";
    append_first12(expected, sizeof expected, "samples: ", c.samples, 64);
    append_first12(expected, sizeof expected, "flags:   ", c.flags, 64);
    expect_output("compact-1-flags", "--seed 2", expected);
    free_compaction(&c);
}
END_TEST

START_TEST(compact2_offsets_past_one_slice)
{
    compaction c = oracle_compact(40000, 3);
    char expected[256] = "";
    append_first12(expected, sizeof expected, "flags:    ", c.flags, 40000);
    append_first12(expected, sizeof expected, "offsets:  ", c.offsets, 40000);
    expect_output("compact-2-offsets", "--seed 3 --n 40000", expected);
    free_compaction(&c);
}
END_TEST

START_TEST(compact3_and_4_gathers_other_seed_and_size)
{
    const char *names[] = {"compact-3-gather", "compact-4-binary-search"};
    for (int e = 0; e < 2; e++) {
        compaction c = oracle_compact(300, 4);
        char expected[256] = "";
        append_first12(expected, sizeof expected, "samples: ", c.samples, 300);
        append_first12(expected, sizeof expected, "packed:  ", c.kept, c.kept_count);
        expect_output(names[e], "--seed 4 --n 300", expected);
        free_compaction(&c);
    }
}
END_TEST

START_TEST(compact5_count_past_one_slice)
{
    enum { N = 40000 };
    compaction c = oracle_compact(N, 6);
    size_t cap = (size_t)N * 4 + 64;
    char *expected = malloc(cap);
    ck_assert_ptr_nonnull(expected);
    snprintf(expected, cap, "survivors: %ld\nkept: ", c.kept_count);
    size_t len = strlen(expected);
    for (long i = 0; i < c.kept_count; i++)
        len += (size_t)snprintf(expected + len, cap - len, "%s%.0f", i ? ", " : "", (double)c.kept[i]);
    snprintf(expected + len, cap - len, "\n");
    expect_output("compact-5-count", "--seed 6 --n 40000", expected);
    free(expected);
    free_compaction(&c);
}
END_TEST

/* ---- bad command lines ------------------------------------------------------------------------- */

static const char *const ALL[] = {
    "topk-1-rank", "topk-2-gather", "topk-3-brightest", "topk-4-cutoff", "topk-5-which-wins",
    "bitonic-1-compare-exchange", "bitonic-2-partner", "bitonic-3-direction", "bitonic-4-network",
    "bitonic-5-sort", "compact-1-flags", "compact-2-offsets", "compact-3-gather", "compact-4-binary-search",
    "compact-5-count"};

START_TEST(bad_options_exit_2)
{
    const char *bad[] = {"--bogus", "--seed", "--seed x", "--seed -1", "--n 0", "--n 99999999999", "extra"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status;
        char *out = run_example(ALL[_i], bad[i], &status);
        ck_assert_msg(status == 2, "%s %s exited with %d", ALL[_i], bad[i], status);
        ck_assert_str_eq(out, ""); /* the usage goes to stderr; nothing ran */
        free(out);
    }
}
END_TEST

/* Each refusal names the option and the argument it refused (the tutorials', heatmap's and
 * mandelbrot's alike), then the usage line, exit 2. */
static void expect_refusal(const char *name, const char *options, const char *message)
{
    int status;
    char *out = run_example_output(name, options, 1, &status);
    ck_assert_msg(status == 2, "%s %s exited with %d", name, options, status);
    ck_assert_msg(strstr(out, message) && strstr(out, "\nusage: "), "%s %s printed \"%s\", which lacks \"%s\"",
                  name, options, out, message);
    free(out);
}

START_TEST(usage_names_the_bad_argument)
{
    expect_refusal(ALL[_i], "--seed x1", "bad argument 'x1' for --seed: not a whole number");
    if (strcmp(ALL[_i], "topk-5-which-wins")) /* the one without a size */
        expect_refusal(ALL[_i], "--n 99999999999", "bad argument '99999999999' for --n");
    else
        expect_refusal(ALL[_i], "--n 4", "unknown option '--n'");
    expect_refusal(ALL[_i], "--bogus", "unknown option '--bogus'");
    expect_refusal(ALL[_i], "--seed", "--seed needs a value");
    if (_i == 0) {
        expect_refusal("bitonic-2-partner", "--n 24", "bad argument '24' for --n: not a power of two");
        expect_refusal("heatmap", "--seed -1", "bad argument '-1' for --seed");
        expect_refusal("heatmap", "--out", "--out needs a value");
        expect_refusal("heatmap", "--width 5", "unknown option '--width'");
        expect_refusal("mandelbrot", "--width x", "bad argument 'x' for --width: not a whole number from 1 to 16384");
        expect_refusal("mandelbrot", "--height 0", "bad argument '0' for --height");
        expect_refusal("mandelbrot", "--seed 3", "unknown option '--seed'");
        expect_refusal("mandelbrot", "extra", "unknown option 'extra'");
    }
}
END_TEST

START_TEST(power_of_two_sizes_are_enforced)
{
    const char *names[] = {"bitonic-2-partner", "bitonic-3-direction", "bitonic-4-network"};
    for (int i = 0; i < 3; i++) {
        int status;
        free(run_example(names[i], "--n 24", &status));
        ck_assert_msg(status == 2, "%s --n 24 exited with %d", names[i], status);
    }
}
END_TEST

START_TEST(gpu_errors_exit_1_with_gpuc_message)
{
    setenv("GPUC_DEVICE", "no-such-device", 1); /* gpuc_open fails; this forked test's env only */
    int status;
    char *out = run_example_output(ALL[_i], "", 1, &status);
    ck_assert_msg(status == 1, "%s exited with %d", ALL[_i], status);
    ck_assert_msg(!strncmp(out, "gpuc: ", 6) && strstr(out, "no-such-device"), "%s printed \"%s\"", ALL[_i], out);
    free(out);
}
END_TEST

/* ---- make tutorials (scripts/run-tutorials.sh) ----------------------------------------------------- */

/* Runs the script in a scratch copy of the tree whose SPEC table has one line changed by `sed_edit`
 * ("" for none), a Makefile whose `examples` does nothing and the built examples linked in, installing
 * nothing (DEPS_CHECK=0: the scratch tree has no install-deps.sh); returns what it printed (caller
 * frees) and its exit status. */
static char *run_tutorials_script(const char *sed_edit, int *status)
{
    const char *dir = getenv("GPUC_EXAMPLES_DIR");
    ck_assert_msg(dir && *dir, "GPUC_EXAMPLES_DIR is not set: run the tests through `make check`");
    char examples[4096], cwd[2048] = "";
    if (dir[0] != '/') /* the scratch tree links to it from elsewhere */
        ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(examples, sizeof examples, "%s%s%s", cwd, *cwd ? "/" : "", dir);
    char tree[] = "/tmp/gpuc-tutorials-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tree));
    char command[8192];
    snprintf(command, sizeof command,
             "set -e; t='%s'; mkdir -p \"$t/scripts\" \"$t/tests\" \"$t/build\"; "
             "cp scripts/run-tutorials.sh \"$t/scripts/\"; sed '%s' tests/test_examples.c > \"$t/tests/test_examples.c\"; "
             "printf 'examples:\\n\\t@true\\n' > \"$t/Makefile\"; ln -s '%s' \"$t/build/examples\"; "
             "set +e; DEPS_CHECK=0 ASAN_OPTIONS=detect_leaks=0 sh \"$t/scripts/run-tutorials.sh\" 2>&1; s=$?; rm -rf \"$t\"; exit $s",
             tree, sed_edit, examples);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16;
    char *out = calloc(1, cap);
    ck_assert_ptr_nonnull(out);
    size_t len = fread(out, 1, cap - 1, p);
    out[len] = '\0';
    int raw = pclose(p);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return out;
}

START_TEST(run_tutorials_reports_each_checked_line)
{
    int status;
    char *out = run_tutorials_script("", &status);
    ck_assert_msg(status == 0, "run-tutorials.sh exited with %d:\n%s", status, out);
    const char *want[] = {"== topk-4-cutoff", "   check line 1: \"cutoff: 68327\": ok",
                          "   check line 2: \"above it: 10\": ok", "== bitonic-3-direction",
                          "== compact-4-binary-search",
                          "   check line 2: \"packed:  99, 83, 99, 87, 96, 88, 57, 86, 66, 58, 99, 62\": ok",
                          "run-tutorials: every checked line matched"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]) != NULL, "output lacks \"%s\":\n%s", want[i], out);
    ck_assert_ptr_null(strstr(out, "MISMATCH"));
    free(out);
}
END_TEST

START_TEST(run_tutorials_fails_on_a_mismatch)
{
    int status;
    char *out = run_tutorials_script("s/above it: 10/above it: 11/", &status);
    ck_assert_msg(status != 0, "run-tutorials.sh passed a changed expected line:\n%s", out);
    ck_assert_msg(strstr(out, "   check line 2: \"above it: 11\": MISMATCH: printed \"above it: 10\"") != NULL,
                  "the mismatch is not reported:\n%s", out);
    ck_assert_msg(strstr(out, "   check line 1: \"cutoff: 68327\": ok") != NULL, "%s", out);
    free(out);
}
END_TEST

Suite *suite_examples(void)
{
    Suite *s = suite_create("examples");
    TCase *spec = fixture_tcase_bare("spec");
    tcase_add_loop_test(spec, default_seed_prints_spec_lines, 0, SPEC_COUNT);
    tcase_add_test(spec, topk5_default_seed_prints_spec_lines);
    suite_add_tcase(s, spec);

    TCase *oracle = fixture_tcase_bare("oracle");
    tcase_add_test(oracle, topk1_rank_other_seed_and_many_slices);
    tcase_add_test(oracle, topk2_gather_other_seed);
    tcase_add_test(oracle, topk3_brightest_other_seed_and_size);
    tcase_add_test(oracle, topk4_cutoff_other_seed_and_size);
    tcase_add_test(oracle, bitonic1_compare_exchange_odd_size);
    tcase_add_test(oracle, bitonic2_partner_other_size);
    tcase_add_test(oracle, bitonic3_direction_other_seed_and_size);
    tcase_add_test(oracle, bitonic4_network_other_seed_and_size);
    tcase_add_test(oracle, bitonic5_sort_other_seed_and_size);
    tcase_add_test(oracle, compact1_flags_other_seed);
    tcase_add_test(oracle, compact2_offsets_past_one_slice);
    tcase_add_test(oracle, compact3_and_4_gathers_other_seed_and_size);
    tcase_add_test(oracle, compact5_count_past_one_slice);
    suite_add_tcase(s, oracle);

    TCase *usage = fixture_tcase_bare("usage");
    tcase_add_loop_test(usage, bad_options_exit_2, 0, sizeof ALL / sizeof ALL[0]);
    tcase_add_loop_test(usage, usage_names_the_bad_argument, 0, sizeof ALL / sizeof ALL[0]);
    tcase_add_test(usage, power_of_two_sizes_are_enforced);
    tcase_add_loop_test(usage, gpu_errors_exit_1_with_gpuc_message, 0, sizeof ALL / sizeof ALL[0]);
    suite_add_tcase(s, usage);
    TCase *tutorials = fixture_tcase_bare("make tutorials");
    tcase_add_test(tutorials, run_tutorials_reports_each_checked_line);
    tcase_add_test(tutorials, run_tutorials_fails_on_a_mismatch);
    suite_add_tcase(s, tutorials);
    return s;
}
