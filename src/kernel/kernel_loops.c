/* kernel_loops.c - see kernel_loops.h. The static part reads bounds (loop_budget.c); the run-time part
 * is a few words of device memory per context that guarded kernels raise and capped JavaScript loops
 * count in (codegen's loop_status block). */
#include "kernel/kernel_loops.h"
#include "kernel/loops/loop_budget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How messages name loop l: its place in the user's source, and its header where that is the user's. */
static void describe(char *out, size_t len, const char *mask, const char *source, const loop_site *l,
                     const kernel_origin *origin)
{
    for (int i = 0; origin && i < origin->nloops; i++) {
        const kernel_loop_origin *o = &origin->loops[i];
        if (o->glsl_offset != l->keyword)
            continue;
        snprintf(out, len, "the loop at %s line %d, column %d%s%s", origin->language, o->line, o->column,
                 o->function ? " in " : "", o->function ? o->function : "");
        return;
    }
    int line, col;
    source_position(mask, l->keyword, &line, &col);
    size_t header_end = l->kind == LOOP_DO ? l->keyword + 2 : l->header_close + 1;
    size_t shown = header_end - l->keyword < 60 ? header_end - l->keyword : 60;
    char header[64];
    memcpy(header, source + l->keyword, shown);
    header[shown] = '\0';
    for (char *p = header; *p; p++)
        if (*p == '\n' || *p == '\t' || *p == '\r')
            *p = ' ';
    snprintf(out, len, "the loop at line %d, column %d (`%s%s`)%s", line, col, header,
             shown < header_end - l->keyword ? "..." : "",
             origin ? " of the GLSL gpuc wrote for it" : "");
}

static gpuc_status describe_all(gpuc_kernel *k, const char *mask, const char *source, const loop_scan *scan,
                                const kernel_origin *origin)
{
    k->loop_names = calloc((size_t)scan->nloops + 1, sizeof *k->loop_names);
    if (!k->loop_names)
        return gpuc_fail(k->gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory", k->name);
    k->nloops = scan->nloops;
    for (int i = 0; i < scan->nloops; i++)
        describe(k->loop_names[i], sizeof k->loop_names[i], mask, source, &scan->loops[i], origin);
    return GPUC_OK;
}

gpuc_status kernel_loops_check(gpuc_kernel *k, const char *source, const char *mask,
                               const resolved_constant *constants, int nconstants, const kernel_origin *origin,
                               loop_scan *scan, bool *readable)
{
    gpuc *gpu = k->gpu;
    int64_t budget = gpu->info.loop_budget;
    k->loop_guard = false;
    k->loop_most = LOOP_UNBOUNDED;
    *readable = loop_scan_read(source, mask, scan);
    if (!*readable) {
        if (scan->out_of_memory)
            return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory reading its loops",
                             k->name);
        if (scan->refused && budget > 0) /* a loop in a macro: known before any compiling */
            return kernel_loops_unreadable(k, mask, scan);
        if (strstr(scan->error, "nested more than")) { /* too deep to hand to the compiler either */
            int line, col;
            source_position(mask, scan->error_at, &line, &col);
            return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "kernel '%s': line %d, column %d: %s", k->name, line, col,
                             scan->error);
        }
        return GPUC_OK;
    }
    gpuc_status st = describe_all(k, mask, source, scan, origin);
    if (st != GPUC_OK)
        return st;
    int kernel = -1;
    for (int f = 0; f < scan->nfunctions; f++)
        if (scan->functions[f].body_begin == k->sig.body_begin)
            kernel = f;
    /* Numbers only: an array or Boolean constant bounds nothing gpuc can count (such a loop is guarded). */
    loop_constant lc[GPUC_MAX_CONSTANTS];
    int nlc = 0;
    for (int i = 0; i < nconstants; i++)
        if (!constants[i].count && constants[i].type != GPUC_BOOL)
            lc[nlc++] = (loop_constant){constants[i].name, constants[i].value};
    loop_bounds b = loop_budget_bounds(source, mask, scan, kernel, lc, nlc);
    if (b.nesting > LOOP_NESTING_MAX)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "kernel '%s': its loops nest %d deep (%s is the innermost, helpers' loops counted where "
                         "they are called); gpuc allows %d, because the GLSL compiler's time and memory grow "
                         "exponentially with loop nesting", k->name, b.nesting,
                         b.deepest_loop >= 0 ? k->loop_names[b.deepest_loop] : "a helper's loop", LOOP_NESTING_MAX);
    if (gpu->guard_all_loops) { /* the differential mode: no count is trusted, every loop guarded */
        b.at_least = 0;
        b.at_most = LOOP_UNBOUNDED;
    }
    if (budget > 0 && b.at_least > budget)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "kernel '%s': its loops run at least %lld iterations per output cell (most in %s), but %s "
                         "stops every invocation's loops after %lld iterations in total, silently. Give each "
                         "cell less work (more output cells, a smaller chunk)",
                         k->name, (long long)b.at_least, k->loop_names[b.largest_loop], gpu->info.renderer,
                         (long long)budget);
    k->loop_guard = budget > 0 && b.at_most > budget;
    k->loop_most = b.at_most;
    return GPUC_OK;
}

gpuc_status kernel_loops_unreadable(gpuc_kernel *k, const char *mask, const loop_scan *scan)
{
    if (k->gpu->info.loop_budget <= 0)
        return GPUC_OK;
    int line, col;
    source_position(mask, scan->error_at, &line, &col);
    if (scan->refused)
        return gpuc_fail(k->gpu, GPUC_ERROR_COMPILE, "kernel '%s': line %d, column %d: %s", k->name, line, col,
                         scan->error);
    return gpuc_fail(k->gpu, GPUC_ERROR_COMPILE,
                     "kernel '%s': line %d, column %d: %s. gpuc reads every loop of a kernel to guard %s's loop "
                     "budget and cannot run this one unguarded; please report the kernel", k->name, line, col,
                     scan->error, k->gpu->info.renderer);
}

/* The loop-status buffer's close hook (gpuc_on_close). */
static void loop_status_release(gpuc *gpu, bool gl)
{
    if (gpu->loop_status && gl)
        glDeleteBuffers(1, &gpu->loop_status);
    gpu->loop_status = 0;
}

gpuc_status kernel_loops_bind(gpuc_kernel *k)
{
    gpuc *gpu = k->gpu;
    if (!gpu->loop_status) {
        gpuc_status hooked = gpuc_on_close(gpu, loop_status_release);
        if (hooked != GPUC_OK)
            return hooked;
        /* The cut loop's id (0: none), the tick guarded loops never reach (see loop_guard), and the
         * count of cells that reached a JavaScript loop's cap (loop_status in kernel_prelude.glsl). */
        const GLuint initial[4] = {0, 0xffffffffu, 0, 0};
        glGenBuffers(1, &gpu->loop_status);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, gpu->loop_status);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof initial, initial, GL_DYNAMIC_READ);
        gpuc_status st = gpuc_check_gl(gpu, "making the loop-status buffer");
        if (st != GPUC_OK)
            return st;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, CODEGEN_LOOP_STATUS_BINDING, gpu->loop_status);
    return GPUC_OK;
}

gpuc_status kernel_loops_after_run(gpuc_kernel *k, bool verify, uint64_t *capped)
{
    gpuc *gpu = k->gpu;
    *capped = 0;
    if (!verify && !k->loop_caps)
        return GPUC_OK;
    GLuint words[3] = {0, 0, 0}; /* 0: the loop that was cut short (1-based), 2: cells a cap stopped */
    const GLuint zero = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gpu->loop_status);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof words, words);
    if (k->loop_caps && words[2]) {
        *capped = words[2];
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 2 * sizeof zero, sizeof zero, &zero);
    }
    if (!verify)
        return GPUC_OK;
    GLuint cut = words[0];
    gpu->stats.loop_checks++;
    if (cut == 0)
        return gpuc_check_gl(gpu, k->name);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof zero, &zero);
    const char *loop = cut <= (GLuint)k->nloops ? k->loop_names[cut - 1] : "one of its loops";
    return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                     "kernel '%s': %s stopped %s short: an invocation's loops may run %lld iterations in all, "
                     "and this run needed more. The run's result is discarded rather than returned wrong; give "
                     "each cell less work (more output cells, or several passes)",
                     k->name, gpu->info.renderer, loop, (long long)gpu->info.loop_budget);
}

void kernel_loops_free(gpuc_kernel *k)
{
    free(k->loop_names);
    k->loop_names = NULL;
    k->nloops = 0;
}
