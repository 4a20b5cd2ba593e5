/* soak.c - `make soak`: gpuc used for a long time through its public API, watching that resident memory
 * and open file descriptors stay flat. Three phases: 100,000 kernel runs (new result arrays, device
 * ping-pong, host arguments), 10,000 kernel creations with distinct constants (each freed at once, a
 * few run), and 1,000 contexts opened, used and closed with their kernel and arrays still alive.
 * Every phase samples /proc at intervals; after a warm-up, growth past a stated bound fails the run
 * (exit status 1), as does any wrong answer or failed call. `--scale F` multiplies the counts (CI runs
 * a short version). */
#include "probe.h"

#include <gpuc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 4096
#define SAMPLES 20 /* per phase */
/* Growth allowed after a phase's warm-up. The program cache holds at most 64 unused programs (filled
 * during the warm-up); what remains is the allocator settling (measured: +0.1 MiB over 80,000 runs or
 * 800 contexts, +1.6 to +3.5 MiB over 8,000 kernels, flattening), far below one leaked program per
 * kernel (about 170 KiB each: 8,000 kernels leaking would be 1.3 GiB). */
#define RSS_BOUND_MB 16.0
#define FD_BOUND 0 /* Mesa's shader-cache files, open for a moment while it writes, are not counted */

static void die(gpuc *gpu, const char *what, gpuc_status st)
{
    fprintf(stderr, "soak: FAILED: %s: %s: %s\n", what, gpuc_status_name(st), gpuc_errmsg(gpu));
    exit(EXIT_FAILURE);
}

#define MUST(gpu, expr)                       \
    do {                                      \
        gpuc_status st_ = (expr);             \
        if (st_ != GPUC_OK)                   \
            die((gpu), #expr, st_);           \
    } while (0)

static void wrong(const char *phase, long i, size_t cell, float got, float want)
{
    fprintf(stderr, "soak: FAILED: %s %ld: cell %zu is %g, expected %g\n", phase, i, cell, got, want);
    exit(EXIT_FAILURE);
}

static float input[CELLS];

/* ---- phase 1: runs ---- */

static const char *const step_source = "float step(float a[], float t) { return a[thread.x] * 0.5 + t; }";

/* Run i: alternately a new result array read back from host input, and a device ping-pong. */
static bool runs_phase(gpuc *gpu, long total)
{
    probe p = {.phase = "runs", .rss_bound_mb = RSS_BOUND_MB, .fd_bound = FD_BOUND};
    gpuc_kernel *fresh, *piped;
    gpuc_array *ping, *pong;
    MUST(gpu, gpuc_create_kernel(gpu, step_source, &(gpuc_kernel_desc){.output = {CELLS}}, &fresh));
    MUST(gpu, gpuc_create_kernel(gpu, step_source, &(gpuc_kernel_desc){.output = {CELLS}, .pipeline = true}, &piped));
    MUST(gpu, gpuc_array_from_f32(gpu, input, (gpuc_dims){CELLS}, &ping));
    MUST(gpu, gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){CELLS}, &pong));
    static float out[CELLS];
    long every = total / SAMPLES > 0 ? total / SAMPLES : 1;
    for (long i = 0; i < total; i++) {
        float t = (float)(i % 7);
        if (i % 2 == 0) {
            gpuc_array *r;
            MUST(gpu, gpuc_run(fresh, (gpuc_arg[]){gpuc_arg_host_f32(input, (gpuc_dims){CELLS}), gpuc_arg_f32(t)}, 2,
                               &r));
            if (i % 1000 == 0) {
                MUST(gpu, gpuc_array_read_f32(r, out, CELLS));
                for (size_t c = 0; c < CELLS; c++)
                    if (out[c] != input[c] * 0.5f + t)
                        wrong("run", i, c, out[c], input[c] * 0.5f + t);
            }
            gpuc_array_free(r);
        } else {
            MUST(gpu, gpuc_run_to(piped, (gpuc_arg[]){gpuc_arg_array(ping), gpuc_arg_f32(0.0f)}, 2, pong));
            gpuc_array *swap = ping;
            ping = pong;
            pong = swap;
        }
        if ((i + 1) % every == 0)
            probe_sample(&p, i + 1, total, i + 1 > total / 5);
    }
    gpuc_kernel_free(fresh);
    gpuc_kernel_free(piped);
    gpuc_array_free(ping);
    gpuc_array_free(pong);
    return probe_verdict(&p);
}

/* ---- phase 2: kernel creations ---- */

static const char *const scale_source = "float scale(float a[]) { return a[thread.x] * constants.c; }";

static bool kernels_phase(gpuc *gpu, long total)
{
    probe p = {.phase = "kernels", .rss_bound_mb = RSS_BOUND_MB, .fd_bound = FD_BOUND};
    /* The warm-up fills the program cache's unused programs (64) several times over. */
    long warm = total / 5 > 200 ? total / 5 : 200;
    long every = total / SAMPLES > 0 ? total / SAMPLES : 1;
    static float out[CELLS];
    for (long i = 0; i < total; i++) {
        float c = (float)i + 0.5f;
        gpuc_kernel *k;
        MUST(gpu, gpuc_create_kernel(gpu, scale_source,
                                     &(gpuc_kernel_desc){.output = {CELLS}, .constants = {{"c", (double)c}}}, &k));
        if (i % 100 == 0) {
            gpuc_array *r;
            MUST(gpu, gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(input, (gpuc_dims){CELLS})}, 1, &r));
            MUST(gpu, gpuc_array_read_f32(r, out, CELLS));
            for (size_t j = 0; j < CELLS; j++)
                if (out[j] != input[j] * c)
                    wrong("kernel", i, j, out[j], input[j] * c);
            gpuc_array_free(r);
        }
        gpuc_kernel_free(k);
        if ((i + 1) % every == 0)
            probe_sample(&p, i + 1, total, i + 1 > warm);
    }
    gpuc_stats s;
    MUST(gpu, gpuc_get_stats(gpu, &s));
    printf("soak: kernels: %llu programs compiled, %llu evicted, %llu held at the end\n",
           (unsigned long long)s.programs_compiled, (unsigned long long)s.programs_evicted,
           (unsigned long long)s.programs_held);
    return probe_verdict(&p);
}

/* ---- phase 3: contexts ---- */

/* Opens a context, runs a kernel in it and closes it with the kernel and the result still alive:
 * gpuc_close must release them. */
static void one_context(long i)
{
    gpuc *gpu;
    MUST(gpu, gpuc_open(&gpu, NULL));
    gpuc_kernel *k;
    gpuc_array *r;
    static float out[CELLS];
    MUST(gpu, gpuc_create_kernel(gpu, step_source, &(gpuc_kernel_desc){.output = {CELLS}}, &k));
    MUST(gpu, gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(input, (gpuc_dims){CELLS}), gpuc_arg_f32(1.0f)}, 2, &r));
    MUST(gpu, gpuc_array_read_f32(r, out, CELLS));
    for (size_t c = 0; c < CELLS; c++)
        if (out[c] != input[c] * 0.5f + 1.0f)
            wrong("context", i, c, out[c], input[c] * 0.5f + 1.0f);
    gpuc_close(gpu);
}

static bool contexts_phase(long total)
{
    probe p = {.phase = "contexts", .rss_bound_mb = RSS_BOUND_MB, .fd_bound = FD_BOUND};
    long every = total / SAMPLES > 0 ? total / SAMPLES : 1;
    for (long i = 0; i < total; i++) {
        one_context(i);
        if ((i + 1) % every == 0)
            probe_sample(&p, i + 1, total, i + 1 > total / 5);
    }
    return probe_verdict(&p);
}

static long scaled(long base, double scale, long least)
{
    long n = (long)((double)base * scale + 0.5);
    return n < least ? least : n;
}

int main(int argc, char **argv)
{
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            scale = atof(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s [--scale F]   (F > 0 multiplies 100,000 runs, 10,000 kernels, 1,000 "
                            "contexts)\n", argv[0]);
            return 2;
        }
    }
    if (!(scale > 0)) {
        fprintf(stderr, "soak: --scale must be a positive number\n");
        return 2;
    }
    long runs = scaled(100000, scale, 100), kernels = scaled(10000, scale, 300), contexts = scaled(1000, scale, 20);
    for (int i = 0; i < CELLS; i++)
        input[i] = (float)(i % 1000) * 0.25f;
    printf("soak: %ld runs, %ld kernel creations, %ld contexts; growth after each phase's warm-up (its first "
           "fifth) must stay within +%.0f MiB resident and +%d descriptors\n",
           runs, kernels, contexts, RSS_BOUND_MB, FD_BOUND);
    printf("soak: start: rss %.1f MiB, fds %d\n", probe_rss_mb(), probe_fds());

    gpuc *gpu;
    MUST(gpu, gpuc_open(&gpu, NULL));
    printf("soak: %s, %s backend\n", gpuc_get_info(gpu)->renderer, gpuc_get_info(gpu)->backend_name);
    bool ok = runs_phase(gpu, runs);
    ok = kernels_phase(gpu, kernels) && ok;
    gpuc_close(gpu);
    ok = contexts_phase(contexts) && ok;
    printf("soak: end: rss %.1f MiB, fds %d: %s\n", probe_rss_mb(), probe_fds(), ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
