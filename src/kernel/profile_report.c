/* profile_report.c - what a kernel runs as (gpuc_kernel_describe) and the table of a context's kernels'
 * run times (gpuc_print_profile; GPUC_PROFILE prints it at gpuc_close). The counts are profile.c's. */
#include "kernel/kernel.h"
#include "kernel/loops/loop_budget.h"
#include "kernel/program/program_table.h"
#include "util/strbuf.h"

#include <stdio.h>

static const char *threads_text(int threads, char *buf, size_t len)
{
    if (threads == GPUC_THREADS_CALLER)
        return "the calling thread";
    if (threads == 0)
        return "llvmpipe's default workers";
    snprintf(buf, len, "%d workers", threads);
    return buf;
}

/* The phrases of gpuc_kernel_describe, each one of the choices that change a kernel's speed. */
static void describe(const gpuc_kernel *k, strbuf *sb)
{
    char threads[32];
    strbuf_printf(sb, "%s backend, %s", k->gpu->info.backend_name,
                  threads_text(k->gpu->threads, threads, sizeof threads));
    if (!k->nloops)
        strbuf_puts(sb, "; no loops");
    else {
        strbuf_printf(sb, "; %d loop%s", k->nloops, k->nloops == 1 ? "" : "s");
        if (k->loop_guard)
            strbuf_puts(sb, ", guarded (checked after each run for the loop budget)");
        else if (k->loop_most != LOOP_UNBOUNDED)
            strbuf_printf(sb, ", unguarded (proven under the loop budget: at most %lld iterations a cell, final "
                              "tests counted)", (long long)k->loop_most);
        else
            strbuf_puts(sb, k->gpu->info.loop_budget > 0 ? ", unguarded" : ", unguarded (the device has no loop budget)");
    }
    if (k->loop_caps)
        strbuf_printf(sb, "; %d loop%s capped at loop_max_iterations (cells counted)", k->loop_caps,
                      k->loop_caps == 1 ? "" : "s");
    if (k->special && k->program == k->special->program)
        strbuf_puts(sb, "; program specialised to the argument sizes");
    else if (k->specialisable)
        strbuf_puts(sb, "; generic program (specialised at a second run at the same sizes)");
    if (k->precise_math)
        strbuf_puts(sb, "; double-precision Math");
    if (!k->fragment && k->lane_cells > 0) /* a step of main_texels computes lane_cells cells */
        strbuf_printf(sb, "; %d step%s per invocation, each %d neighbouring cells stored as texels",
                      k->cells_per_invocation, k->cells_per_invocation == 1 ? "" : "s", k->lane_cells);
    else if (!k->fragment)
        strbuf_printf(sb, "; %d cell%s per invocation", k->cells_per_invocation,
                      k->cells_per_invocation == 1 ? "" : "s");
    if (k->jammed) /* source/kernel_jam.h */
        strbuf_printf(sb, ", computed by one call of the body with its loops fused%s",
                      kernel_jam_tails(k) ? " (cell by cell where a step crosses the end of a row)" : "");
    else if (k->jam_refused)
        strbuf_printf(sb, "; one cell per call of the body (loops not fused: %s)", k->jam_refused);
    strbuf_printf(sb, "; arrays read from %s", k->buffer_reads ? "storage buffers" : "image views");
    /* source/kernel_jam.h's texel reads: at thread.x, then windows at an offset */
    int listed = 0;
    for (int windows = 0; k->jammed && windows < 2; windows++) {
        int arrays = 0;
        for (int i = 0; i < k->sig.nparams; i++)
            if (k->texel_reads[i] && k->window_reads[i] == (windows == 1)) {
                const kernel_param *p = &k->sig.params[i];
                strbuf_printf(sb, "%s`%s`", arrays++ ? ", " : listed ? "; " : " (", p->shown[0] ? p->shown : p->name);
            }
        if (arrays)
            strbuf_puts(sb, windows ? " read a window of texels for each step's cells" : " read a texel for 4 neighbouring cells");
        listed += arrays;
    }
    if (listed)
        strbuf_puts(sb, ")");
    if (k->pipeline)
        strbuf_puts(sb, "; pipeline");
    if (k->twin) /* kernel/small_calls.c */
        strbuf_printf(sb, "; small calls in the calling thread (a twin program): %llu run%s",
                      (unsigned long long)k->twin_runs, k->twin_runs == 1 ? "" : "s");
}

/* Fills k->profile.describe and returns it. */
static const char *describe_kernel(gpuc_kernel *k)
{
    strbuf sb = {0};
    describe(k, &sb);
    snprintf(k->profile.describe, sizeof k->profile.describe, "%s", sb.failed || !sb.data ? "" : sb.data);
    strbuf_free(&sb);
    return k->profile.describe;
}

const char *gpuc_kernel_describe(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_describe", &k) == GPUC_OK ? describe_kernel(k) : "";
}

/* One kernel's row: its counts, then what it runs as. Internal calls only: a public one would enter
 * the context again, which may destroy children freed on other threads while the table walks them. */
static void print_row(gpuc_kernel *k, FILE *out)
{
    gpuc_kernel_stats s;
    profile_snapshot(k, &s);
    char device[32] = "-";
    const kernel_profile *p = &k->profile;
    if (s.timed_runs > p->first_timed) /* the steady runs' mean, as the host columns */
        snprintf(device, sizeof device, "%.3f",
                 (s.device_ms - p->first_device_ms) / (double)(s.timed_runs - p->first_timed));
    fprintf(out, "%-20.20s %7llu %6llu %9.3f %7llu %9.3f %9.3f %9.3f %9.3f %9s %8llu\n", k->name,
            (unsigned long long)s.runs, (unsigned long long)s.first_runs, s.first_run_ms,
            (unsigned long long)(s.runs - s.first_runs), s.min_ms, s.median_ms, s.mean_ms, s.max_ms, device,
            (unsigned long long)s.loop_capped_cells);
    fprintf(out, "    %s\n", describe_kernel(k));
}

gpuc_status gpuc_print_profile(gpuc *gpu, FILE *out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_print_profile: out is NULL");
    fprintf(out, "gpuc profile (host ms; first: runs of a program not run before, compiling it; min .. max: the "
                 "steady runs; device: their mean device ms)\n");
    fprintf(out, "%-20s %7s %6s %9s %7s %9s %9s %9s %9s %9s %8s\n", "kernel", "runs", "first", "first ms", "steady",
            "min", "median", "mean", "max", "device", "capped");
    /* Oldest first: the children are listed newest first. */
    gpuc_child *last = gpu->children;
    while (last && last->next)
        last = last->next;
    for (gpuc_child *c = last; c; c = c->prev) {
        gpuc_kernel *k = kernel_of_child(c);
        if (k && k->handle)
            print_row(k, out);
    }
    return gpuc_check_gl(gpu, "gpuc_print_profile");
}
