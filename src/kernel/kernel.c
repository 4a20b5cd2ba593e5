/* kernel.c - gpuc_create_kernel: validate the description, read the kernel's signature, check the
 * loops against the loop budget, generate and compile (or find cached) its program. */
#include "kernel/kernel.h"
#include "kernel/kernel_args.h"
#include "kernel/source/array_writes.h"
#include "kernel/constant_arrays.h"
#include "kernel/source/constant_reads.h"
#include "kernel/kernel_map.h"
#include "kernel/source/kernel_jam.h"
#include "kernel/source/kernel_rewrite.h"
#include "kernel/kernel_loops.h"
#include "kernel/codegen/kernel_specialise.h"
#include "kernel/loops/loop_budget.h"
#include "kernel/loops/loop_counter.h"
#include "kernel/loops/loop_guard.h"
#include "kernel/small_calls.h"
#include "kernel/program/program_cache.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names gpuc declares itself; a parameter or constant with one of them would not compile. */
static const char *const reserved_names[] = {"thread", "outputSize", "outputIndex", "constants", "main", "result",
                                             "index", NULL};

static bool is_reserved(const char *s)
{
    for (int i = 0; reserved_names[i]; i++)
        if (!strcmp(s, reserved_names[i]))
            return true;
    return false;
}

/* The smallest magnitude that rounds to infinity as a float: half an ulp above FLT_MAX. */
#define FLOAT_OVERFLOW 0x1.ffffffp127

static gpuc_status resolve_constants(gpuc *gpu, const char *kname, const gpuc_kernel_desc *desc,
                                     resolved_constant *out, int *count)
{
    int n = 0;
    int arrays = 0;
    for (; n < GPUC_MAX_CONSTANTS && desc->constants[n].name; n++) {
        const gpuc_constant *c = &desc->constants[n];
        if (!source_valid_identifier(c->name))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant %d name \"%s\" is not a GLSL identifier (letters, digits, _; "
                             "no __, gl_ or gpuc_ prefix; under %d characters)",
                             kname, n, c->name, KERNEL_NAME_MAX);
        for (int j = 0; j < n; j++)
            if (!strcmp(out[j].name, c->name))
                return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': constant \"%s\" is given twice",
                                 kname, c->name);
        if (constant_is_special(c)) { /* an array or a Boolean (kernel/constant_arrays.c) */
            gpuc_status st = constant_resolve_special(gpu, kname, n, c, out, &arrays);
            if (st != GPUC_OK)
                return st;
            continue;
        }
        if (!isfinite(c->value))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" is %g; constants must be finite", kname, c->name, c->value);
        bool whole = c->value == floor(c->value) && c->value >= INT32_MIN && c->value <= INT32_MAX;
        gpuc_type type = c->type;
        if (type == GPUC_TYPE_NONE)
            type = whole ? GPUC_INT : GPUC_FLOAT;
        if (type != GPUC_INT && type != GPUC_FLOAT)
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" has type %s; a number is int or float (GPUC_BOOL makes "
                             "a Boolean, .values and .dims an array)", kname, c->name, gpuc_type_name(type));
        if (type == GPUC_INT && !whole)
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" is declared int but its value %g is not a 32-bit integer",
                             kname, c->name, c->value);
        if (type == GPUC_FLOAT && fabs(c->value) >= FLOAT_OVERFLOW)
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" is %g, beyond the float range (+-%.9g): as a float it "
                             "would be infinite", kname, c->name, c->value, (double)FLT_MAX);
        out[n] = (resolved_constant){.type = type, .value = c->value};
        snprintf(out[n].name, sizeof out[n].name, "%s", c->name);
    }
    *count = n;
    return GPUC_OK;
}

/* gpuc's own default-block uniforms beside the arguments' (outputSize, the grid, the range of cells). */
#define OWN_UNIFORM_SLOTS 8

/* The device's bounds on a kernel's arguments: its arrays each take an image unit (the software
 * profile; storage buffers are checked with the bindings gpuc adds, check_storage_bindings), and its
 * scalars, vectors and arrays' sizes are uniforms. A uniform is counted as a whole vec4 slot, as
 * drivers that allocate by slots count it, so a kernel the check passes never fails to link there. */
static gpuc_status check_param_limits(gpuc *gpu, const char *kname, const kernel_signature *sig, int arrays)
{
    bool fragment = gpu->info.backend == GPUC_BACKEND_FRAGMENT;
    if (gpu->device_profile.image_reads && arrays > gpu->info.max_image_units)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "kernel '%s' takes %d array arguments, each read through an image unit; the device binds "
                         "at most %d in one %s program (gpuc_info.max_image_units: GL_MAX_COMPUTE_IMAGE_UNIFORMS%s): "
                         "pass fewer arrays (several of one size fit one array of a rank more, or of vec4 cells)",
                         kname, arrays, gpu->info.max_image_units, fragment ? "fragment" : "compute",
                         fragment ? " and GL_MAX_FRAGMENT_IMAGE_UNIFORMS, the lower" : "");
    int most = gpu->device_profile.max_uniform_components;
    int components = 4 * (sig->nparams + OWN_UNIFORM_SLOTS);
    if (most > 0 && components > most)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "kernel '%s' takes %d arguments, each a uniform (a scalar, a vector or an array's size: 4 "
                         "components), %d components with gpuc's own; the device's %s shaders declare at most %d "
                         "(GL_MAX_%s_UNIFORM_COMPONENTS)", kname, sig->nparams, components,
                         fragment ? "fragment" : "compute", most, fragment ? "FRAGMENT" : "COMPUTE");
    return GPUC_OK;
}

static gpuc_status check_params(gpuc *gpu, const char *kname, const char *mask, const kernel_signature *sig,
                                const resolved_constant *constants, int nconstants)
{
    int arrays = 0;
    for (int i = 0; i < sig->nparams; i++) {
        const kernel_param *p = &sig->params[i];
        if (is_reserved(p->name) || !source_valid_identifier(p->name))
            return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                             "kernel '%s': parameter `%s` clashes with a name gpuc declares (thread, outputSize, "
                             "constants, result, gl_*, gpuc_*)", kname, p->name);
        for (int j = 0; j < nconstants; j++)
            if (!strcmp(constants[j].name, p->name))
                return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': parameter `%s` has a constant's name; "
                                 "constants are read as constants.%s", kname, p->name, p->name);
        arrays += p->rank > 0;
    }
    int written;
    size_t write_at = kernel_array_write(mask, sig, &written);
    if (write_at != (size_t)-1) {
        int line, col;
        source_position(mask, write_at, &line, &col);
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "kernel '%s': line %d, column %d: writes to array parameter `%s`, but kernel arguments are "
                         "read-only (a kernel returns its output cell; copy the value into a local variable to "
                         "change it)", kname, line, col, sig->params[written].name);
    }
    return check_param_limits(gpu, kname, sig, arrays);
}

/* With buffer reads, the arrays take storage bindings after the outputs: the device must have them. */
static gpuc_status check_storage_bindings(const gpuc_kernel *k)
{
    if (!k->buffer_reads)
        return GPUC_OK;
    int arrays = 0;
    for (int i = 0; i < k->sig.nparams; i++)
        arrays += k->sig.params[i].rank > 0;
    int first = codegen_first_input_binding(true, k->fragment, kernel_loop_status(k), k->nmaps);
    int most = k->gpu->device_profile.max_storage_blocks;
    if (first + arrays <= most)
        return GPUC_OK;
    return gpuc_fail(k->gpu, GPUC_ERROR_LIMIT,
                     "kernel '%s' reads %d array arguments from storage buffers after its %d output%s; the device "
                     "binds at most %d storage buffers in one %s program (GL_MAX_%s_SHADER_STORAGE_BLOCKS, "
                     "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS)", k->name, arrays, first, first == 1 ? "" : "s", most,
                     k->fragment ? "fragment" : "compute", k->fragment ? "FRAGMENT" : "COMPUTE");
}

/* What the kernel's kind allows: a void kernel only when graphical, a graphical kernel must paint,
 * scatter only on the compute backend. Sets k->result_type. */
static gpuc_status check_kind(gpuc_kernel *k, const char *mask)
{
    gpuc *gpu = k->gpu;
    if (k->scatter && k->fragment)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "scatter kernel '%s': scatter kernels are compute-only, and this context uses the fragment "
                         "backend (a fragment shader writes only its own pixel); open the context with the compute "
                         "backend", k->name);
    if (k->dynamic_output && k->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "kernel '%s': .dynamic_output is for ordinary kernels; a scatter kernel's output size is "
                         "fixed at creation", k->name);
    if (k->graphical && k->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': a graphical kernel cannot scatter", k->name);
    if (k->sig.returns_void && !k->graphical)
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "kernel '%s': kernel `%s` returns `void`; a kernel returns float, int, vec2, vec3 or vec4 "
                         "(only a graphical kernel, .graphical = true, returns void and calls color())",
                         k->name, k->sig.name);
    if (k->graphical && !k->sig.returns_void)
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "graphical kernel '%s' returns %s; a graphical kernel returns void and paints its cell "
                         "with color(r, g, b[, a])", k->name, gpuc_type_name(k->sig.return_type));
    if (k->graphical && !source_calls(mask, "color"))
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "graphical kernel '%s' never calls color(r, g, b[, a]), so every pixel would be blank",
                         k->name);
    k->result_type = k->graphical ? GPUC_INT : k->sig.return_type;
    return GPUC_OK;
}

/* Largest whole number of 1024-cell blocks of the grid that one dispatch can compute. An ordinary
 * kernel's dispatch also binds only its own range of the output, so that must fit one binding too. */
static size_t cells_per_dispatch(const gpuc_kernel *k)
{
    const gpuc *gpu = k->gpu;
    uint64_t by_groups = (uint64_t)gpu->info.max_work_group_count[0] * (uint64_t)gpu->device_profile.local_size *
                         (uint64_t)k->cells_per_invocation * (uint64_t)kernel_step_cells(k);
    uint64_t cell_bytes = (uint64_t)gpuc_type_components(k->result_type) * 4;
    for (int i = 0; i < k->nmaps; i++) /* every map output's range must fit its binding too */
        if ((uint64_t)gpuc_type_components(k->maps[i].type) * 4 > cell_bytes)
            cell_bytes = (uint64_t)gpuc_type_components(k->maps[i].type) * 4;
    uint64_t by_storage = k->scatter ? by_groups : (uint64_t)gpu->info.max_storage_block_size / cell_bytes;
    uint64_t n = by_groups < by_storage ? by_groups : by_storage;
    n -= n % 1024;
    return n ? (size_t)n : 1024;
}

/* Whether the source has a loop anywhere (kernel or helpers). */
static bool has_loops(const char *mask)
{
    static const char *const keywords[] = {"for", "while", "do", NULL};
    for (const char *p = mask; *p; p++) {
        if (!is_ident_start(*p) || (p > mask && is_ident_char(p[-1])))
            continue;
        for (int i = 0; keywords[i]; i++) {
            size_t n = strlen(keywords[i]);
            if (!strncmp(p, keywords[i], n) && !is_ident_char(p[n]))
                return true;
        }
    }
    return false;
}

/* The loop iterations of one step of main() computing `cells` cells, at most, as llvmpipe's budget
 * counts them (per invocation, over the loops its lanes run together): the step's loops (a jammed
 * step's copies of loops it cannot fuse run once per cell) and one trip of main()'s. A step with
 * tails (jam_cells) runs the jammed body and its loop over the cells one by one on the same lanes,
 * both under masks where the lanes disagree, and so counts both. */
static int64_t step_trips(const gpuc_kernel *k, int cells, bool tails)
{
    int64_t body = (int64_t)cells * k->loop_most;
    return tails ? 2 * body + cells + 1 : body + 1;
}

/* Steps each invocation takes (each step computes lane_cells cells, or one), fewer for small grids so
 * that at least ~32 work groups keep every core busy; one on hardware (the device profile's most_steps).
 * Under the software profile a loop-free kernel takes up to 8: on llvmpipe an
 * invocation's fixed cost is comparable to a small kernel's work, and 8 steps of 4 cells measured
 * faster than 4 or 16 (docs/performance/launch.md). llvmpipe's loop budget is per invocation, so a kernel
 * with loops gets as many, up to 16, as its counted iterations per cell (loop_budget.c) allow, main()'s
 * loop over the cells included; a guarded kernel, or one without a counted bound or without a budget
 * to count against, gets one. A power of two: the count is compiled in, so kernels of nearby sizes
 * that share a program (kernel_sizes_uniform) need at most five variants of it. */
static int cells_per_invocation(const gpuc_kernel *k, const char *mask, size_t grid_cells)
{
    const device_profile *profile = &k->gpu->device_profile;
    int64_t budget = k->gpu->info.loop_budget, per_cell = 0;
    int most = profile->most_steps;
    if (has_loops(mask)) {
        if (k->loop_guard || budget <= 0 || k->loop_most == LOOP_UNBOUNDED)
            return 1;
        per_cell = step_trips(k, k->jammed ? k->lane_cells : 1, kernel_jam_tails(k));
        most = profile->most_steps_with_loops;
    }
    size_t room = grid_cells / (32 * (size_t)profile->local_size * kernel_step_cells(k));
    int per = 1;
    while (per < most && (size_t)per * 2 <= room && (per_cell == 0 || per * 2 * per_cell + 1 <= budget))
        per *= 2;
    return per;
}

/* Neighbouring cells per step of a kernel that stores whole texels (main_texels), or 0: only
 * loop-free ordinary compute kernels do, under the software profile (with loops, the cells of a step
 * would share one invocation's loop budget; a scatter kernel writes where it chooses; hardware stores
 * each cell as it is). */
static int lane_cells(const gpuc_kernel *k, const char *mask)
{
    if (!k->gpu->device_profile.texel_stores || k->fragment || k->scatter || k->loop_guard || has_loops(mask))
        return 0;
    return codegen_lane_cells(k->result_type, k->maps, k->nmaps);
}

/* Cells of a row one call of the jammed body computes (kernel/source/kernel_jam.h), or 0: under a
 * profile that jams, an ordinary compute kernel with loops the reader counted (not guarded, not capped:
 * their status words count per call of the body), without maps, whose group's loops, run once per
 * cell where they cannot be fused, stay within llvmpipe's loop budget (step_trips): the profile's
 * count, or the most, a power of two, that splits the grid's rows into whole groups (the cells of a
 * group then share thread.y and .z) and that the budget allows. Rows that do not split even into
 * groups of 4 (a width of 4k + 1..3) take the most the budget allows (kernel_jam_tails): a step that
 * crosses a row's end (or the range's) computes its cells one by one (codegen_texels.c). Such rows
 * shorter than two of the profile's groups are not jammed: most of their steps would cross. */
static int jam_cells(const gpuc_kernel *k, const char *mask)
{
    int most = k->gpu->device_profile.jam_cells;
    int64_t budget = k->gpu->info.loop_budget;
    if (k->fragment || k->scatter || k->graphical || k->nmaps || k->loop_guard || k->loop_caps || k->dynamic_output ||
        !has_loops(mask) || k->loop_most == LOOP_UNBOUNDED)
        return 0;
    /* the most, a power of two, that the rows and the budget allow; main_texels stores whole texels,
     * and 4 cells fill them for every type */
    for (int cells = most; cells >= 4; cells /= 2)
        if (k->grid.x % (uint32_t)cells == 0 && (budget <= 0 || step_trips(k, cells, false) <= budget))
            return cells;
    for (int cells = most; cells >= 4 && k->grid.x % 4 != 0 && k->grid.x >= 2u * (uint32_t)most; cells /= 2)
        if (budget <= 0 || step_trips(k, cells, true) <= budget)
            return cells;
    return 0;
}

/* Whether the loop reader proves every occurrence of `thread` in every function a read (its list of
 * reads, loops/loop_counter.h). The jam reads cell c's thread.x as (thread.x + c) and fuses loops whose
 * headers read thread.y and .z, which is right only while nothing writes thread; its own reader
 * (kernel_jam.c) refuses the writes it knows GLSL has, a list of what is forbidden. This is the list
 * of what is allowed, asked first: what neither reader understands keeps one cell per call. */
static bool thread_only_read(const char *mask, const loop_scan *scan, bool readable)
{
    if (!readable)
        return false;
    for (int f = 0; f < scan->nfunctions; f++) {
        const loop_function *fn = &scan->functions[f];
        if (!loop_counter_only_read(mask, fn->body_begin + 1, fn->body_end, "thread", scan, f))
            return false;
    }
    return true;
}

/* The kernel computes one cell per call after all: the jam was refused (why) or its program failed to
 * compile. */
static void unjam(gpuc_kernel *k, const char *mask, const char *why)
{
    k->jammed = false;
    k->jam_refused = why;
    k->lane_cells = lane_cells(k, mask);
    k->cells_per_invocation = cells_per_invocation(k, mask, k->grid_cells);
}

/* The arrays the jam may read a texel at a time (kernel_jam.h): those of one float or int per element,
 * read through their rgba views; of[i] is texels[i]'s parameter. None where a jammed step's first
 * thread.x may be other than a multiple of 4, as the texel reads ask: rows of 4k + 1..3 cells (from the
 * second row on). A 1D grid's step starts at a multiple of lane_cells, tails or not. */
static int jam_texel_arrays(const gpuc_kernel *k, kernel_jam_texels *texels, int *of)
{
    int n = 0;
    if (kernel_jam_tails(k) && gpuc_dims_rank(k->grid) > 1)
        return 0;
    for (int i = 0; !k->buffer_reads && i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        if (p->rank > 0 && (p->type == GPUC_FLOAT || p->type == GPUC_INT)) {
            texels[n] = (kernel_jam_texels){.name = p->name, .type = codegen_texel_type(p->type)};
            of[n++] = i;
        }
    }
    return n;
}

/* Whether the output size and grid can be uniforms set at each run rather than constants compiled in,
 * so that one program serves every size (the algorithm drivers make kernels for each length they are
 * given): when the grid is 1D, and the kernel's source never names outputSize (a constant there may
 * size an array or unroll a loop). A 2D or 3D grid keeps its sizes compiled in: turning the flat
 * cell into thread.x/y/z then divides by the grid's width, which costs 2-3.5x on a cheap kernel when
 * the width is a uniform (measured on llvmpipe) and nothing when it is a constant. A .dynamic_output
 * kernel always has them as uniforms: gpuc_kernel_set_output changes them between runs. */
static bool kernel_sizes_uniform(const gpuc_kernel *k, const char *source)
{
    return k->dynamic_output || (gpuc_dims_rank(k->grid) == 1 && !source_mentions(source, "outputSize"));
}

/* The GLSL program text of the kernel: the source with its array reads rewritten, its loops guarded
 * when scan is given, its map helpers wrapped, inside gpuc's declarations and main(). */
static char *program_text(gpuc_kernel *k, const char *source, const char *mask, const loop_scan *scan,
                          const resolved_constant *constants, int nconstants)
{
    char *text = kernel_rewrite(source, mask, &k->sig);
    int bad;
    if (text) /* checked by check_constant_reads: every read rewrites */
        constant_reads_rewrite(text, mask, constants, nconstants, &bad);
    if (text && scan) { /* the rewrite keeps offsets, so the scan of the source fits it */
        char *guarded = loop_guard_source(text, mask, scan);
        free(text);
        text = guarded;
    }
    if (text && k->nmaps) {
        char *wrapped = kernel_map_wrap(text, k->maps, k->nmaps);
        free(text);
        text = wrapped;
    }
    char *jammed = NULL;
    memset(k->texel_reads, 0, sizeof k->texel_reads);
    memset(k->window_reads, 0, sizeof k->window_reads);
    if (text && k->jammed) {
        const char *why = NULL;
        kernel_jam_texels texels[GPUC_MAX_ARGS];
        bool used[GPUC_MAX_ARGS], windows[GPUC_MAX_ARGS];
        int of[GPUC_MAX_ARGS], ntexels = jam_texel_arrays(k, texels, of);
        jammed = kernel_jam(text, k->sig.name, k->lane_cells, texels, ntexels, used, windows, &why);
        if (!jammed)
            unjam(k, mask, why);
        for (int i = 0; jammed && i < ntexels; i++) {
            k->texel_reads[of[i]] = used[i];
            k->window_reads[of[i]] = windows[i];
        }
    }
    codegen_shape shape = {.output = k->output,
                           .grid = k->grid,
                           .scatter = k->scatter,
                           .cells_per_invocation = k->cells_per_invocation,
                           .lane_cells = k->lane_cells,
                           .store_pairs = k->gpu->device_profile.store_pairs,
                           .sizes_uniform = kernel_sizes_uniform(k, source),
                           .fragment = k->fragment,
                           .graphical = k->graphical,
                           .nmaps = k->nmaps,
                           .maps = k->maps,
                           .loop_guard = scan != NULL,
                           .loop_caps = k->loop_caps > 0,
                           .local_size = k->gpu->device_profile.local_size,
                           .buffer_reads = k->buffer_reads,
                           .jam_function = jammed,
                           .jam_tails = jammed && kernel_jam_tails(k),
                           .texel_reads = k->texel_reads};
    char *glsl = text ? codegen_program(&k->sig, text, shape, constants, nconstants) : NULL;
    free(text);
    free(jammed);
    return glsl;
}

/* Compiles the program (guarded when k->loop_guard). The guard moves columns, so a guarded program
 * that fails to compile is compiled again unguarded for the user's own line and column; should that
 * one compile, the guard itself is at fault, and the message says so. */
static gpuc_status compile_program(gpuc_kernel *k, const char *source, const char *mask, const loop_scan *scan,
                                   const resolved_constant *constants, int nconstants)
{
    gpuc *gpu = k->gpu;
    char *glsl = program_text(k, source, mask, k->loop_guard ? scan : NULL, constants, nconstants);
    if (!glsl)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory generating GLSL", k->name);
    gpuc_status st = program_get(gpu, glsl, k->fragment, k->name, source, &k->cached);
    free(glsl);
    if (st == GPUC_ERROR_COMPILE && k->jammed) { /* a copy the jam misjudged: one cell per call */
        unjam(k, mask, "its program did not compile");
        return compile_program(k, source, mask, scan, constants, nconstants);
    }
    if (st == GPUC_OK) {
        k->program = k->cached->program;
        k->glsl = k->cached->glsl;
    }
    if (st != GPUC_ERROR_COMPILE || !k->loop_guard)
        return st;
    char guarded_error[GPUC_ERRMSG_MAX / 2];
    snprintf(guarded_error, sizeof guarded_error, "%s", gpuc_errmsg(gpu));
    char *plain = program_text(k, source, mask, NULL, constants, nconstants);
    if (!plain)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory generating GLSL", k->name);
    program_entry *unguarded;
    st = program_get(gpu, plain, k->fragment, k->name, source, &unguarded);
    free(plain);
    if (st != GPUC_OK)
        return st; /* the user's own error, at the user's own line and column */
    program_put(gpu, unguarded, true);
    return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                     "kernel '%s': the loop guard gpuc adds on %s made the kernel fail to compile, a bug in gpuc "
                     "(please report it with the kernel): %s", k->name, gpu->info.renderer, guarded_error);
}

/* Array constants are read by index only, with as many indices as they have dimensions. */
static gpuc_status check_constant_reads(const gpuc_kernel *k, const char *mask, const resolved_constant *constants,
                                        int nconstants)
{
    int bad = 0;
    size_t at = constant_reads_rewrite(NULL, mask, constants, nconstants, &bad);
    if (at == (size_t)-1)
        return GPUC_OK;
    int line, col, rank = gpuc_dims_rank(constants[bad].dims);
    source_position(mask, at, &line, &col);
    static const char *const forms[] = {"", "[i]", "[y][x]", "[z][y][x]"};
    return gpuc_fail(k->gpu, GPUC_ERROR_COMPILE,
                     "kernel '%s': line %d, column %d: array constant `%s` is %dD: read it by index, as "
                     "constants.%s%s (an array constant cannot be used whole or with another number of indices)",
                     k->name, line, col, constants[bad].name, rank, constants[bad].name, forms[rank]);
}

/* origin: where GLSL the JavaScript front end wrote comes from (NULL for the user's own GLSL). Such
 * GLSL had its nesting bounded in the JavaScript (fully parenthesised, it nests deeper than that). */
static gpuc_status build_program(gpuc_kernel *k, const char *source, const gpuc_kernel_desc *desc,
                                 const kernel_origin *origin)
{
    gpuc *gpu = k->gpu;
    char err[GPUC_ERRMSG_MAX];
    char *mask = source_mask(source);
    if (!mask)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory reading a kernel");
    gpuc_status st = GPUC_OK;
    resolved_constant constants[GPUC_MAX_CONSTANTS];
    int nconstants = 0;
    loop_scan scan = {0};
    bool readable = true;
    k->loop_caps = origin ? origin->capped_loops : 0;
    k->precise_math = origin && origin->precise_math;
    if (!source_check_preprocessor(source, err, sizeof err) || !source_parse_kernel(mask, &k->sig, err, sizeof err) ||
        (!origin && !source_check_nesting(mask, err, sizeof err))) {
        st = gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': %s",
                       desc->name ? desc->name : k->sig.name[0] ? k->sig.name : "(unnamed)", err);
        goto done;
    }
    snprintf(k->name, sizeof k->name, "%s", desc->name ? desc->name : k->sig.name);
    for (int i = 0; origin && i < k->sig.nparams; i++) {
        k->sig.params[i].any_rank = origin->any_rank_arrays && k->sig.params[i].rank > 0 &&
                                    !(origin->exact_rank && origin->exact_rank[i]);
        if (origin->param_names && i < origin->nparam_names)
            snprintf(k->sig.params[i].shown, sizeof k->sig.params[i].shown, "%s", origin->param_names[i]);
    }
    st = resolve_constants(gpu, k->name, desc, constants, &nconstants);
    if (st == GPUC_OK)
        st = check_constant_reads(k, mask, constants, nconstants);
    if (st == GPUC_OK)
        st = check_params(gpu, k->name, mask, &k->sig, constants, nconstants);
    if (st == GPUC_OK)
        st = kernel_loops_check(k, source, mask, constants, nconstants, origin, &scan, &readable);
    if (st == GPUC_OK)
        st = check_kind(k, mask);
    if (st == GPUC_OK)
        st = kernel_map_resolve(k, mask, desc);
    if (st == GPUC_OK) { /* before compiling: a run could make no array of this size */
        char what[KERNEL_NAME_MAX + 16];
        snprintf(what, sizeof what, "kernel '%s'", k->name);
        st = kernel_output_fits(k, k->output, k->cells, what);
    }
    if (st == GPUC_OK)
        st = check_storage_bindings(k);
    if (st != GPUC_OK)
        goto done;
    if (k->scatter) {
        uint64_t bytes = (uint64_t)k->cells * (uint64_t)gpuc_type_components(k->result_type) * 4;
        if (bytes > (uint64_t)gpu->info.max_storage_block_size) {
            st = gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                           "scatter kernel '%s': its output is %llu bytes; a scatter kernel's output must fit one "
                           "storage binding (GL_MAX_SHADER_STORAGE_BLOCK_SIZE = %lld)",
                           k->name, (unsigned long long)bytes, (long long)gpu->info.max_storage_block_size);
            goto done;
        }
    }
    int jam = jam_cells(k, mask);
    if (jam > 0 && !thread_only_read(mask, &scan, readable)) {
        jam = 0;
        k->jam_refused = "the loop reader could not prove every use of thread a read";
    }
    k->jammed = jam > 0;
    k->lane_cells = k->jammed ? jam : lane_cells(k, mask);
    k->cells_per_invocation = k->fragment ? 1 : cells_per_invocation(k, mask, k->grid_cells);
    st = compile_program(k, source, mask, &scan, constants, nconstants);
    if (st == GPUC_OK && !readable) /* the compiler took it, but its loops could not be read */
        st = kernel_loops_unreadable(k, mask, &scan);
    if (st == GPUC_OK)
        kernel_locate_uniforms(k);
    k->specialisable = st == GPUC_OK && kernel_specialisable(k);
    if (st == GPUC_OK)
        st = constant_arrays_upload(k, constants, nconstants);
done:
    loop_scan_free(&scan);
    free(mask);
    if (st != GPUC_OK) {
        constant_arrays_free(k, true);
        kernel_loops_free(k);
        program_put(gpu, k->cached, true); /* a program compiled for a kernel refused after all */
        k->cached = NULL;
    }
    return st;
}

/* The kernel's own objects: its upload scratch arrays and render targets (programs belong to the cache). */
static void kernel_destroy(gpuc_child *child, bool gl)
{
    gpuc_kernel *k = (gpuc_kernel *)((char *)child - offsetof(gpuc_kernel, child));
    for (int i = 0; i < GPUC_MAX_ARGS; i++)
        if (k->upload[i])
            gpuc_array_destroy_gl(k->upload[i], gl);
    if (k->targets[0] && gl)
        fragment_targets_free(k);
    profile_release(k, gl);
    constant_arrays_free(k, gl);
    kernel_loops_free(k);
    kernel_specialise_free(k, gl);
    small_call_forget(k, gl);
    program_put(k->gpu, k->cached, gl);
    free(k->handle); /* its context is closing; a freed kernel's handle was retired first */
    k->tag = 0;
    free(k);
}

gpuc_kernel *kernel_of_child(gpuc_child *child)
{
    return child->destroy == kernel_destroy ? (gpuc_kernel *)((char *)child - offsetof(gpuc_kernel, child)) : NULL;
}

gpuc_status kernel_check_sizes(gpuc *gpu, const gpuc_kernel_desc *desc, kernel_sizes *sizes)
{
    int rank;
    bool has_threads = desc->threads.x || desc->threads.y || desc->threads.z;
    if (has_threads && !desc->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_create_kernel: .threads is for scatter kernels (.scatter = true); an ordinary kernel "
                         "runs once per output cell");
    gpuc_status st = gpuc_dims_check(gpu, desc->output, "kernel output", &sizes->cells, &rank);
    if (st != GPUC_OK)
        return st;
    sizes->output = desc->output;
    sizes->grid = has_threads ? desc->threads : desc->output;
    return gpuc_dims_check(gpu, sizes->grid, "kernel threads", &sizes->grid_cells, &rank);
}

gpuc_status kernel_create(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, const kernel_sizes *sizes,
                          const kernel_origin *origin, gpuc_kernel **out)
{
    *out = NULL; /* a failed creation leaves nothing a caller's cleanup could mistake for a kernel */
    gpuc_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for a kernel");
    k->tag = GPUC_TAG_KERNEL;
    k->gpu = gpu;
    k->output = sizes->output;
    k->cells = sizes->cells;
    k->grid = sizes->grid;
    k->grid_cells = sizes->grid_cells;
    k->scatter = desc->scatter;
    k->pipeline = desc->pipeline;
    k->graphical = desc->graphical;
    k->dynamic_output = desc->dynamic_output;
    k->fragment = gpu->info.backend == GPUC_BACKEND_FRAGMENT;
    k->buffer_reads = !gpu->device_profile.image_reads;
    k->profile.stats.last_device_ms = -1; /* none timed yet */
    k->handle = gpuc_handle_new(gpu, k, true);
    /* The compiler joins continued lines (and ends lines at a lone \r) before anything else: so do gpuc's readers. */
    char *joined = k->handle ? source_join_lines(source) : NULL;
    gpuc_status st = joined ? build_program(k, joined, desc, origin)
                            : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for a kernel");
    free(joined);
    if (st != GPUC_OK) {
        free(k->handle);
        free(k);
        return st;
    }
    k->cells_per_dispatch = cells_per_dispatch(k);
    if (k->fragment)
        fragment_layout(k);
    gpuc_child_add(gpu, &k->child, kernel_destroy);
    *out = (gpuc_kernel *)(void *)k->handle;
    return GPUC_OK;
}

gpuc_status gpuc_create_kernel(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, gpuc_kernel **out)
{
    if (out) /* a failed creation leaves nothing a caller's cleanup could mistake for a kernel */
        *out = NULL;
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!source || !desc || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel: %s is NULL",
                         !source ? "source" : !desc ? "desc" : "out");
    kernel_sizes sizes;
    st = kernel_check_sizes(gpu, desc, &sizes);
    return st != GPUC_OK ? st : kernel_create(gpu, source, desc, &sizes, NULL, out);
}

void gpuc_kernel_free(gpuc_kernel *handle)
{
    gpuc_kernel *k;
    if (!handle || kernel_open(handle, "gpuc_kernel_free", &k) != GPUC_OK)
        return; /* NULL is ignored; a second free leaves its message on the context */
    gpuc_child_free_handle(k->gpu, &k->child, &k->handle);
}

/* The accessors answer "none" for a handle they cannot use (the message is on its context). */
int gpuc_kernel_arg_count(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_arg_count", &k) == GPUC_OK ? k->sig.nparams : 0;
}

gpuc_type gpuc_kernel_return_type(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_return_type", &k) == GPUC_OK ? k->result_type : GPUC_TYPE_NONE;
}

int gpuc_kernel_map_count(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_map_count", &k) == GPUC_OK ? k->nmaps : 0;
}

const char *gpuc_kernel_map_name(const gpuc_kernel *handle, int i)
{
    gpuc_kernel *k;
    if (kernel_open(handle, "gpuc_kernel_map_name", &k) != GPUC_OK)
        return NULL;
    return i >= 0 && i < k->nmaps ? k->map_names[i] : NULL;
}

const char *gpuc_kernel_glsl(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_glsl", &k) == GPUC_OK ? k->glsl : "";
}
