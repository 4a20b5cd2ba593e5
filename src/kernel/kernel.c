/* kernel.c - gpuc_create_kernel: validate the description, read the kernel's signature, check the
 * loop budget, generate and compile (or find cached) its program. */
#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "kernel/kernel_rewrite.h"
#include "kernel/loop_budget.h"
#include "kernel/program_cache.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names gpuc declares itself; a parameter or constant with one of them would not compile. */
static const char *const reserved_names[] = {"thread", "outputSize", "outputIndex", "constants", "main", "result",
                                             "index", NULL};

bool kernel_valid_identifier(const char *s)
{
    if (!s || !is_ident_start(s[0]) || strlen(s) >= KERNEL_NAME_MAX)
        return false;
    for (const char *p = s; *p; p++)
        if (!is_ident_char(*p))
            return false;
    return !strstr(s, "__") && strncmp(s, "gl_", 3) != 0 && strncmp(s, "gpuc_", 5) != 0;
}

static bool is_reserved(const char *s)
{
    for (int i = 0; reserved_names[i]; i++)
        if (!strcmp(s, reserved_names[i]))
            return true;
    return false;
}

static gpuc_status resolve_constants(gpuc *gpu, const char *kname, const gpuc_kernel_desc *desc,
                                     resolved_constant *out, int *count)
{
    int n = 0;
    for (; n < GPUC_MAX_CONSTANTS && desc->constants[n].name; n++) {
        const gpuc_constant *c = &desc->constants[n];
        if (!kernel_valid_identifier(c->name))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant %d name \"%s\" is not a GLSL identifier (letters, digits, _; "
                             "no __, gl_ or gpuc_ prefix; under %d characters)",
                             kname, n, c->name, KERNEL_NAME_MAX);
        for (int j = 0; j < n; j++)
            if (!strcmp(out[j].name, c->name))
                return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': constant \"%s\" is given twice",
                                 kname, c->name);
        if (!isfinite(c->value))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" is %g; constants must be finite", kname, c->name, c->value);
        bool whole = c->value == floor(c->value) && c->value >= INT32_MIN && c->value <= INT32_MAX;
        gpuc_type type = c->type;
        if (type == GPUC_TYPE_NONE)
            type = whole ? GPUC_INT : GPUC_FLOAT;
        if (type != GPUC_INT && type != GPUC_FLOAT)
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" has type %s; constants are int or float", kname, c->name,
                             gpuc_type_name(type));
        if (type == GPUC_INT && !whole)
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': constant \"%s\" is declared int but its value %g is not a 32-bit integer",
                             kname, c->name, c->value);
        snprintf(out[n].name, sizeof out[n].name, "%s", c->name);
        out[n].type = type;
        out[n].value = c->value;
    }
    *count = n;
    return GPUC_OK;
}

static gpuc_status check_params(gpuc *gpu, const char *kname, const kernel_signature *sig,
                                const resolved_constant *constants, int nconstants)
{
    int arrays = 0;
    for (int i = 0; i < sig->nparams; i++) {
        const kernel_param *p = &sig->params[i];
        if (is_reserved(p->name) || !kernel_valid_identifier(p->name))
            return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                             "kernel '%s': parameter `%s` clashes with a name gpuc declares (thread, outputSize, "
                             "constants, result, gl_*, gpuc_*)", kname, p->name);
        for (int j = 0; j < nconstants; j++)
            if (!strcmp(constants[j].name, p->name))
                return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': parameter `%s` has a constant's name; "
                                 "constants are read as constants.%s", kname, p->name, p->name);
        arrays += p->rank > 0;
    }
    if (arrays > gpu->info.max_image_units)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "kernel '%s' takes %d array arguments; the device binds at most %d "
                         "(GL_MAX_COMPUTE_IMAGE_UNIFORMS)", kname, arrays, gpu->info.max_image_units);
    return GPUC_OK;
}

static gpuc_status check_loop_budget(gpuc *gpu, const char *kname, const char *mask, const kernel_signature *sig,
                                     const resolved_constant *constants, int nconstants)
{
    if (gpu->info.loop_budget <= 0)
        return GPUC_OK;
    loop_constant lc[GPUC_MAX_CONSTANTS];
    for (int i = 0; i < nconstants; i++)
        lc[i] = (loop_constant){constants[i].name, constants[i].value};
    loop_estimate e = loop_budget_estimate(mask, sig->body_begin, sig->body_end, lc, nconstants);
    if (e.iterations <= gpu->info.loop_budget)
        return GPUC_OK;
    int line, col;
    source_position(mask, e.largest_loop, &line, &col);
    return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                     "kernel '%s': its loops run at least %lld iterations per output cell (the loop at line %d), "
                     "but %s stops every invocation's loops after %lld iterations in total, silently. Give each "
                     "cell less work (more output cells, a smaller chunk)",
                     kname, (long long)e.iterations, line, gpu->info.renderer, (long long)gpu->info.loop_budget);
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
    uint64_t by_groups = (uint64_t)gpu->info.max_work_group_count[0] * CODEGEN_LOCAL_SIZE * (uint64_t)k->cells_per_invocation;
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

/* Cells each invocation computes: up to 16 for a loop-free kernel (llvmpipe's loop budget is per
 * invocation, so a kernel with loops gets one), fewer for small grids so that at least ~32 work groups
 * keep every core busy. */
static int cells_per_invocation(const char *mask, size_t grid_cells)
{
    if (has_loops(mask))
        return 1;
    size_t per = grid_cells / (32 * CODEGEN_LOCAL_SIZE);
    return per < 1 ? 1 : per > 16 ? 16 : (int)per;
}

static void locate_uniforms(gpuc_kernel *k)
{
    k->first_cell_location = glGetUniformLocation(k->program, "gpuc_first_cell");
    k->cell_count_location = glGetUniformLocation(k->program, "gpuc_cell_count");
    k->row_width_location = glGetUniformLocation(k->program, "gpuc_row_width");
    k->cell_end_location = glGetUniformLocation(k->program, "gpuc_cell_end");
    for (int i = 0, unit = 0; i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        char name[KERNEL_NAME_MAX + 16];
        snprintf(name, sizeof name, p->rank ? "gpuc_size_%s" : "%s", p->name);
        /* -1 when the compiler dropped an unused uniform; glUniform* ignores location -1. */
        k->param_location[i] = glGetUniformLocation(k->program, name);
        k->image_unit[i] = p->rank ? unit++ : -1;
    }
}

static gpuc_status build_program(gpuc_kernel *k, const char *source, const gpuc_kernel_desc *desc)
{
    gpuc *gpu = k->gpu;
    char err[GPUC_ERRMSG_MAX];
    char *mask = source_mask(source);
    if (!mask)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory reading a kernel");
    gpuc_status st = GPUC_OK;
    char *rewritten = NULL, *glsl = NULL;
    resolved_constant constants[GPUC_MAX_CONSTANTS];
    int nconstants = 0;
    if (!source_parse_kernel(mask, &k->sig, err, sizeof err)) {
        st = gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': %s", desc->name ? desc->name : "(unnamed)", err);
        goto done;
    }
    snprintf(k->name, sizeof k->name, "%s", desc->name ? desc->name : k->sig.name);
    st = resolve_constants(gpu, k->name, desc, constants, &nconstants);
    if (st == GPUC_OK)
        st = check_params(gpu, k->name, &k->sig, constants, nconstants);
    if (st == GPUC_OK)
        st = check_loop_budget(gpu, k->name, mask, &k->sig, constants, nconstants);
    if (st == GPUC_OK)
        st = check_kind(k, mask);
    if (st == GPUC_OK)
        st = kernel_map_resolve(k, mask, desc);
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
    rewritten = kernel_rewrite(source, mask, &k->sig);
    if (rewritten && k->nmaps) {
        char *wrapped = kernel_map_wrap(rewritten, k->maps, k->nmaps);
        free(rewritten);
        rewritten = wrapped;
    }
    k->cells_per_invocation = k->fragment ? 1 : cells_per_invocation(mask, k->grid_cells);
    codegen_shape shape = {k->output, k->grid, k->scatter, k->cells_per_invocation, k->fragment, k->graphical,
                           k->nmaps, k->maps};
    glsl = rewritten ? codegen_program(&k->sig, rewritten, shape, constants, nconstants) : NULL;
    if (!glsl) {
        st = gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory generating GLSL", k->name);
        goto done;
    }
    st = program_get(gpu, glsl, k->fragment, k->name, source, &k->program, &k->glsl);
    if (st == GPUC_OK)
        locate_uniforms(k);
done:
    free(mask);
    free(rewritten);
    free(glsl);
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
    free(k);
}

gpuc_status gpuc_create_kernel(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, gpuc_kernel **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!source || !desc || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel: %s is NULL",
                         !source ? "source" : !desc ? "desc" : "out");
    size_t cells, grid_cells;
    int rank;
    bool has_threads = desc->threads.x || desc->threads.y || desc->threads.z;
    if (has_threads && !desc->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_create_kernel: .threads is for scatter kernels (.scatter = true); an ordinary kernel "
                         "runs once per output cell");
    st = gpuc_dims_check(gpu, desc->output, "kernel output", &cells, &rank);
    if (st != GPUC_OK)
        return st;
    gpuc_dims grid = has_threads ? desc->threads : desc->output;
    st = gpuc_dims_check(gpu, grid, "kernel threads", &grid_cells, &rank);
    if (st != GPUC_OK)
        return st;
    gpuc_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory for a kernel");
    k->gpu = gpu;
    k->output = desc->output;
    k->cells = cells;
    k->grid = grid;
    k->grid_cells = grid_cells;
    k->scatter = desc->scatter;
    k->pipeline = desc->pipeline;
    k->graphical = desc->graphical;
    k->fragment = gpu->info.backend == GPUC_BACKEND_FRAGMENT;
    st = build_program(k, source, desc);
    if (st != GPUC_OK) {
        free(k);
        return st;
    }
    k->cells_per_dispatch = cells_per_dispatch(k);
    if (k->fragment)
        fragment_layout(k);
    gpuc_child_add(gpu, &k->child, kernel_destroy);
    *out = k;
    return GPUC_OK;
}

void gpuc_kernel_free(gpuc_kernel *k)
{
    if (k)
        gpuc_child_free(k->gpu, &k->child);
}

int gpuc_kernel_arg_count(const gpuc_kernel *k)
{
    return k ? k->sig.nparams : 0;
}

gpuc_type gpuc_kernel_return_type(const gpuc_kernel *k)
{
    return k ? k->result_type : GPUC_TYPE_NONE;
}

int gpuc_kernel_map_count(const gpuc_kernel *k)
{
    return k ? k->nmaps : 0;
}

const char *gpuc_kernel_map_name(const gpuc_kernel *k, int i)
{
    return k && i >= 0 && i < k->nmaps ? k->map_names[i] : NULL;
}

const char *gpuc_kernel_glsl(const gpuc_kernel *k)
{
    return k ? k->glsl : "";
}
