/* example_util.h - what every tutorial example shares: its command line (--seed N, --n N), opening a
 * context, failing with gpuc's message, and printing arrays in the tutorials' formats. */
#ifndef EXAMPLE_UTIL_H
#define EXAMPLE_UTIL_H

#include <gpuc.h>

#include <stddef.h>
#include <stdint.h>

/* An option of one example's own, besides --seed and --n: "--width N" (a whole number in [lo, hi]
 * into *number) or, where number is NULL, "--out FILE" (any text into *text). */
typedef struct example_option {
    const char *name;
    long *number;
    long lo, hi;
    const char **text;
    const char *value_name; /* for the usage line: "N", "FILE" */
} example_option;

/* The options of one example. Fill in the defaults, then call example_parse_args. */
typedef struct example_args {
    const char *name; /* the program's name, for the usage line */
    uint32_t seed;    /* --seed N (0..4294967295) */
    int seed_given;   /* set when --seed was on the command line */
    long n;           /* --n N; only accepted when n_max > 0 */
    long n_min, n_max;
    const char *n_rule; /* extra condition on N for the usage line ("a power of two"), or NULL */
    int (*n_ok)(long n); /* that condition, or NULL */
    const example_option *options; /* the example's own, ended by a NULL name; or NULL */
    int no_seed;                   /* set where nothing is random: --seed is then an unknown option */
} example_args;

/* Parses --seed N, --n N and args->options into *args. On anything else (an unknown option, a bad or
 * out-of-range number, a missing value) prints what is wrong, naming the option and the argument, and
 * the usage line to stderr, and exits with status 2. */
void example_parse_args(example_args *args, int argc, char **argv);

/* 1 when n is a power of two (for example_args.n_ok). */
int example_is_pow2(long n);

/* Opens a context on the default device, or prints gpuc's message and exits with status 1. */
gpuc *example_open(void);

/* Prints "gpuc: <message>" for gpu's last failure, closes it and exits with status 1. */
_Noreturn void example_die(gpuc *gpu);

/* Runs a gpuc call; on failure prints its message and exits (keeps the examples readable). */
#define CHECK(gpu, call)                   \
    do {                                   \
        if ((call) != GPUC_OK)             \
            example_die(gpu);              \
    } while (0)

/* Prints `label` then n values joined by ", " as integers ("13, 42, 67"). */
void print_ints(const char *label, const float *v, size_t n);
/* Prints `label` then "[a, b, c]" with the values as integers. */
void print_int_list(const char *label, const float *v, size_t n);
/* Prints `label` then "[a, b, c]" with the values in %g ("[5.72, 42.57]"). */
void print_g_list(const char *label, const float *v, size_t n);

/* Milliseconds on CLOCK_MONOTONIC, for timings. */
double example_now_ms(void);

/* Rows, columns or elements one pass of a looping kernel may cover. llvmpipe silently stops all loops
 * of one invocation after 65,535 iterations in total, so any kernel whose loop would run longer is
 * split into passes of at most this many iterations, each adding to the previous pass's result. */
#define EXAMPLE_SLICE 32768

/* Runs an accumulating kernel in passes. The kernel's last two parameters must be `float acc[]`
 * (shaped like its output: `float acc[][]` for a 2D output) and `int offset`; it returns acc at its
 * cell plus what it finds in [offset, offset + slice). `args` holds the arguments before those two
 * (nargs of them). Runs passes for offset = 0, slice, 2*slice, ... below `total`, ping-ponging two
 * device arrays (the kernel must be created with .pipeline = true), and returns the last one. */
gpuc_status run_in_slices(gpuc *gpu, gpuc_kernel *k, const gpuc_arg *args, int nargs, gpuc_dims output,
                          long total, long slice, gpuc_array **result);

#endif
