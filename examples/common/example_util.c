/* example_util.c - see example_util.h. */
#include "example_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Noreturn void usage(const example_args *args)
{
    fprintf(stderr, "usage: %s%s", args->name, args->no_seed ? "" : " [--seed N]");
    for (const example_option *o = args->options; o && o->name; o++)
        fprintf(stderr, " [%s %s]", o->name, o->value_name);
    if (args->n_max > 0)
        fprintf(stderr, " [--n N]  (N from %ld to %ld%s%s)", args->n_min, args->n_max,
                args->n_rule ? ", " : "", args->n_rule ? args->n_rule : "");
    fprintf(stderr, "\n");
    exit(2);
}

/* Parses the whole decimal number after `option`, in [lo, hi], or shows the usage. */
static long long parse_number(const example_args *args, const char *option, const char *text, long long lo,
                              long long hi)
{
    if (!text) {
        fprintf(stderr, "%s: %s needs a value\n", args->name, option);
        usage(args);
    }
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "%s: bad argument '%s' for %s: not a whole number from %lld to %lld\n", args->name, text,
                option, lo, hi);
        usage(args);
    }
    return v;
}

void example_parse_args(example_args *args, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--seed") && !args->no_seed) {
            args->seed = (uint32_t)parse_number(args, "--seed", value, 0, 4294967295LL);
            args->seed_given = 1;
        } else if (!strcmp(argv[i], "--n") && args->n_max > 0) {
            args->n = (long)parse_number(args, "--n", value, args->n_min, args->n_max);
            if (args->n_ok && !args->n_ok(args->n)) {
                fprintf(stderr, "%s: bad argument '%ld' for --n: not %s\n", args->name, args->n, args->n_rule);
                usage(args);
            }
        } else {
            const example_option *o = args->options;
            while (o && o->name && strcmp(argv[i], o->name))
                o++;
            if (!o || !o->name) {
                fprintf(stderr, "%s: unknown option '%s'\n", args->name, argv[i]);
                usage(args);
            }
            if (o->number) {
                *o->number = (long)parse_number(args, o->name, value, o->lo, o->hi);
            } else if (value) {
                *o->text = value;
            } else {
                fprintf(stderr, "%s: %s needs a value\n", args->name, o->name);
                usage(args);
            }
        }
        i++;
    }
}

int example_is_pow2(long n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

gpuc *example_open(void)
{
    gpuc *gpu;
    if (gpuc_open(&gpu, NULL) != GPUC_OK)
        example_die(gpu);
    return gpu;
}

_Noreturn void example_die(gpuc *gpu)
{
    fprintf(stderr, "gpuc: %s\n", gpuc_errmsg(gpu));
    gpuc_close(gpu);
    exit(1);
}

static void print_list(const char *label, const float *v, size_t n, const char *format, int brackets)
{
    printf("%s%s", label, brackets ? "[" : "");
    for (size_t i = 0; i < n; i++) {
        printf("%s", i ? ", " : "");
        printf(format, (double)v[i]);
    }
    printf("%s\n", brackets ? "]" : "");
}

void print_ints(const char *label, const float *v, size_t n)
{
    print_list(label, v, n, "%.0f", 0);
}

void print_int_list(const char *label, const float *v, size_t n)
{
    print_list(label, v, n, "%.0f", 1);
}

void print_g_list(const char *label, const float *v, size_t n)
{
    print_list(label, v, n, "%g", 1);
}

double example_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

gpuc_status run_in_slices(gpuc *gpu, gpuc_kernel *k, const gpuc_arg *args, int nargs, gpuc_dims output,
                          long total, long slice, gpuc_array **result)
{
    gpuc_arg all[GPUC_MAX_ARGS];
    if (nargs < 0 || nargs + 2 > GPUC_MAX_ARGS || slice < 1)
        return GPUC_ERROR_INVALID_ARGUMENT;
    memcpy(all, args, (size_t)nargs * sizeof *all);
    gpuc_array *acc[2] = {NULL, NULL}; /* acc[0] starts as zeros: nothing counted yet */
    gpuc_status st = gpuc_array_new(gpu, GPUC_FLOAT, output, &acc[0]);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_FLOAT, output, &acc[1]);
    int cur = 0;
    for (long offset = 0; st == GPUC_OK && offset < total; offset += slice) {
        all[nargs] = gpuc_arg_array(acc[cur]);
        all[nargs + 1] = gpuc_arg_i32((int32_t)offset);
        st = gpuc_run_to(k, all, nargs + 2, acc[1 - cur]);
        cur = 1 - cur;
    }
    if (st != GPUC_OK) {
        gpuc_array_free(acc[0]);
        gpuc_array_free(acc[1]);
        return st;
    }
    gpuc_array_free(acc[1 - cur]);
    *result = acc[cur];
    return GPUC_OK;
}
