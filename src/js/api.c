/* api.c - the public functions of the JavaScript front end: translate, then hand the GLSL to
 * gpuc_create_kernel; and the per-context lists of added JS and native functions. */
#include "internal.h"
#include "kernel/kernel.h"
#include "js/glsl_names.h"
#include "js/map_text.h"
#include "js/native_errors.h"
#include "js/translate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define JS_MAX_ADDED 64

struct js_registry {
    char *functions[JS_MAX_ADDED];
    char *function_names[JS_MAX_ADDED];
    int nfunctions;
    char *natives[JS_MAX_ADDED];
    char *native_names[JS_MAX_ADDED];
    int nnatives;
    uint32_t seed_counter; /* varies Math.random's seed between kernels created with random_seed 0 */
};

/* The registry's close hook (gpuc_on_close); it holds no GL objects. */
static void js_registry_free(gpuc *gpu, bool gl)
{
    (void)gl;
    js_registry *r = gpu->js;
    if (!r)
        return;
    for (int i = 0; i < r->nfunctions; i++) {
        free(r->functions[i]);
        free(r->function_names[i]);
    }
    for (int i = 0; i < r->nnatives; i++) {
        free(r->natives[i]);
        free(r->native_names[i]);
    }
    free(r);
    gpu->js = NULL;
}

static gpuc_status registry(gpuc *gpu, js_registry **out)
{
    gpuc_status st = gpuc_on_close(gpu, js_registry_free);
    if (st != GPUC_OK)
        return st;
    if (!gpu->js)
        gpu->js = calloc(1, sizeof *gpu->js);
    if (!gpu->js)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory registering a function");
    *out = gpu->js;
    return GPUC_OK;
}

static bool name_taken(const js_registry *r, const char *name)
{
    for (int i = 0; i < r->nfunctions; i++)
        if (!strcmp(r->function_names[i], name))
            return true;
    for (int i = 0; i < r->nnatives; i++)
        if (!strcmp(r->native_names[i], name))
            return true;
    return false;
}

/* Stores a copy of source under name in list; fails on a repeated name or a full list. */
static gpuc_status add(gpuc *gpu, const char *what, const char *source, const char *name, char **list,
                       char **names, int *count)
{
    js_registry *r = NULL;
    gpuc_status st = registry(gpu, &r);
    if (st != GPUC_OK)
        return st;
    if (name_taken(r, name))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: a function named `%s` was already added", what,
                         name);
    if (*count == JS_MAX_ADDED)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "%s: at most %d functions can be added", what, JS_MAX_ADDED);
    char *s = strdup(source), *n = strdup(name);
    if (!s || !n) {
        free(s);
        free(n);
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    list[*count] = s;
    names[*count] = n;
    (*count)++;
    return GPUC_OK;
}

gpuc_status gpuc_add_function(gpuc *gpu, const char *js_source)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!js_source)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_add_function: js_source is NULL");
    char name[128], err[1024];
    if (!js_check_function(js_source, name, sizeof name, err, sizeof err))
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "gpuc_add_function: %s", err);
    js_registry *r = NULL;
    st = registry(gpu, &r);
    if (st != GPUC_OK)
        return st;
    return add(gpu, "gpuc_add_function", js_source, name, r->functions, r->function_names, &r->nfunctions);
}

gpuc_status gpuc_add_native_function(gpuc *gpu, const char *glsl_source)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!glsl_source)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_add_native_function: glsl_source is NULL");
    char name[128], err[1024];
    if (!js_check_native(glsl_source, name, sizeof name, err, sizeof err))
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "gpuc_add_native_function: %s", err);
    /* It joins GLSL whose nesting nothing checks again: check its own here. */
    char *mask = source_mask(glsl_source);
    if (!mask)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_add_native_function: out of host memory");
    bool shallow = source_check_nesting(mask, err, sizeof err);
    free(mask);
    if (!shallow)
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "gpuc_add_native_function: %s", err);
    js_registry *r = NULL;
    st = registry(gpu, &r);
    if (st != GPUC_OK)
        return st;
    return add(gpu, "gpuc_add_native_function", glsl_source, name, r->natives, r->native_names, &r->nnatives);
}

static uint32_t fresh_seed(gpuc *gpu)
{
    uint32_t counter = gpu->js ? ++gpu->js->seed_counter : 0;
    uint32_t s = (uint32_t)time(NULL) * 2654435761u ^ (uint32_t)clock() ^ counter * 40503u;
    return s ? s : 1;
}

/* Translates and compiles; map (nmap entries) are the kernel map's outputs, from desc.map or from
 * createKernelMap's text. An anonymous kernel function without desc.name is named unnamed (NULL:
 * "anonymous", GPU.js's name for it). */
static gpuc_status create_js(gpuc *gpu, const char *js_source, const gpuc_kernel_desc *desc, js_map_entry *map,
                             int nmap, const char *unnamed, gpuc_kernel **out)
{
    gpuc_status st;
    if (desc->loop_max_iterations < 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_create_kernel_js: loop_max_iterations is %d; use a positive count (0 means 1000)",
                         desc->loop_max_iterations);
    /* The translation reads this.output: the kernel layer checks the sizes first (once: creation takes
     * them checked), so a size's error is not taken for the GLSL's. */
    kernel_sizes sizes;
    st = kernel_check_sizes(gpu, desc, &sizes);
    if (st != GPUC_OK)
        return st;
    js_registry *r = gpu->js;
    bool length_read[GPUC_MAX_ARGS] = {0};
    js_settings s = {
        .output = sizes.output,
        .constants = desc->constants,
        .nconstants = GPUC_MAX_CONSTANTS,
        .arg_types = desc->arg_types,
        .loop_max_iterations = desc->loop_max_iterations,
        .random_seed = desc->random_seed ? desc->random_seed : fresh_seed(gpu),
        .precise_math = desc->precise_math,
        .graphical = desc->graphical,
        .dynamic_output = desc->dynamic_output,
        .functions = r ? (const char *const *)r->functions : NULL,
        .nfunctions = r ? r->nfunctions : 0,
        .natives = r ? (const char *const *)r->natives : NULL,
        .nnatives = r ? r->nnatives : 0,
        .map = map,
        .nmap = nmap,
        .length_read = length_read,
    };
    char *glsl = NULL, name[64], err[GPUC_ERRMSG_MAX - 64];
    bool oom;
    js_loops loops = {0};
    if (!js_translate(js_source, &s, &glsl, name, sizeof name, err, sizeof err, &oom, &loops)) {
        free(loops.list);
        return gpuc_fail(gpu, oom ? GPUC_ERROR_OUT_OF_MEMORY : GPUC_ERROR_COMPILE, "JavaScript kernel%s%s: %s",
                         desc->name ? " " : "", desc->name ? desc->name : "", err);
    }
    gpuc_kernel_desc d = *desc;
    if (!d.name)
        d.name = name[0] ? name : unnamed ? unnamed : "anonymous";
    /* Constants named like GLSL's keywords (`float`, `output`...) take the name emit.c gave them. */
    char constant_names[GPUC_MAX_CONSTANTS][128];
    for (int i = 0; i < GPUC_MAX_CONSTANTS && d.constants[i].name; i++) {
        js_constant_glsl(d.constants[i].name, constant_names[i], sizeof constant_names[i]);
        d.constants[i].name = constant_names[i];
    }
    /* The map keeps the GLSL functions the sub-kernels return through (translate.c). */
    for (int i = 0; i < GPUC_MAX_MAP_OUTPUTS; i++)
        d.map[i] = i < nmap ? (gpuc_map_output){map[i].name, map[i].keeper} : (gpuc_map_output){NULL, NULL};
    /* Loop messages name the JavaScript's lines; a loop left unlisted is named in the GLSL. */
    kernel_loop_origin *origins = calloc((size_t)loops.n + 1, sizeof *origins);
    for (int i = 0; origins && !loops.failed && i < loops.n; i++)
        origins[i] = (kernel_loop_origin){loops.list[i].glsl_offset, loops.list[i].line, loops.list[i].column,
                                          loops.list[i].where[0] ? loops.list[i].where : NULL};
    /* GPU.js's arrays are flat with a size: any argument array is read by any number of indices. */
    char params[GPUC_MAX_ARGS][KERNEL_NAME_MAX];
    for (int i = 0; i < loops.nparams; i++)
        snprintf(params[i], sizeof params[i], "%s", loops.params[i]);
    kernel_origin origin = {.language = "JavaScript", .loops = origins, .nloops = origins && !loops.failed ? loops.n : 0,
                            .any_rank_arrays = true, .param_names = params, .nparam_names = loops.nparams,
                            .capped_loops = loops.capped, .precise_math = desc->precise_math,
                            .exact_rank = length_read};
    st = kernel_create(gpu, glsl, &d, &sizes, &origin, out);
    free(origins);
    free(loops.list);
    if (st == GPUC_ERROR_COMPILE) {
        /* The JS was accepted, so GLSL that does not compile is the front end's fault, unless it is in a
         * native function the user added: say which. */
        char glsl_err[GPUC_ERRMSG_MAX - 160];
        bool native = r && js_native_compile_error(glsl, (const char *const *)r->natives,
                                                   (const char *const *)r->native_names, r->nnatives,
                                                   gpuc_errmsg(gpu), glsl_err, sizeof glsl_err);
        if (!native)
            snprintf(glsl_err, sizeof glsl_err, "%s", gpuc_errmsg(gpu));
        free(glsl);
        if (native)
            return gpuc_fail(gpu, st, "JavaScript kernel '%s': %s", d.name, glsl_err);
        return gpuc_fail(gpu, st, "JavaScript kernel '%s': the GLSL written for it does not compile, a bug in gpuc's "
                         "JavaScript front end (please report it with the kernel): %s", d.name, glsl_err);
    }
    free(glsl);
    return st;
}

/* create_js with desc.map's outputs. */
static gpuc_status create_js_desc_map(gpuc *gpu, const char *js_source, const gpuc_kernel_desc *desc,
                                      const char *unnamed, gpuc_kernel **out)
{
    js_map_entry map[GPUC_MAX_MAP_OUTPUTS];
    int n = 0;
    for (; n < GPUC_MAX_MAP_OUTPUTS && desc->map[n].name; n++)
        map[n] = (js_map_entry){.name = desc->map[n].name, .function = desc->map[n].function};
    return create_js(gpu, js_source, desc, map, n, unnamed, out);
}

gpuc_status gpuc_create_kernel_js(gpuc *gpu, const char *js_source, const gpuc_kernel_desc *desc,
                                  gpuc_kernel **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!js_source || !desc || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel_js: %s is NULL",
                         !js_source ? "js_source" : !desc ? "desc" : "out");
    return create_js_desc_map(gpu, js_source, desc, NULL, out);
}

/* The most bytes gpuc_create_kernel_js_file reads: far past any kernel, short of a mistaken data file. */
#define JS_FILE_MAX (16u << 20)

/* Reads the file's text into *text, NUL-terminated (caller frees); fails with a message naming it. */
static gpuc_status read_js_file(gpuc *gpu, const char *path, char **text)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel_js_file: \"%s\": %s", path,
                         strerror(errno));
    size_t cap = 4096, len = 0, got;
    char *t = malloc(cap);
    while (t && len <= JS_FILE_MAX && (got = fread(t + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *bigger = realloc(t, cap *= 2);
            if (!bigger)
                free(t);
            t = bigger;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    gpuc_status st = !t ? GPUC_ERROR_OUT_OF_MEMORY : len > JS_FILE_MAX ? GPUC_ERROR_LIMIT
                     : failed ? GPUC_ERROR_INVALID_ARGUMENT : GPUC_OK;
    const char *why = !t ? "out of host memory reading it" : len > JS_FILE_MAX ? "longer than 16 MiB (not a kernel)"
                      : "cannot read it";
    if (st == GPUC_OK) {
        t[len] = '\0';
        *text = t;
        if (strlen(t) == len)
            return GPUC_OK;
        st = GPUC_ERROR_INVALID_ARGUMENT;
        why = "holds a NUL byte (not a text file)";
    }
    free(t);
    *text = NULL;
    return gpuc_fail(gpu, st, "gpuc_create_kernel_js_file: \"%s\": %s", path, why);
}

/* The file's base name without its extension ("kernels/scale.js" gives "scale"), into name. */
static void file_stem(const char *path, char *name, size_t size)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(name, size, "%.*s", (int)(len < size ? len : size - 1), base);
}

gpuc_status gpuc_create_kernel_js_file(gpuc *gpu, const char *path, const gpuc_kernel_desc *desc, gpuc_kernel **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!path || !desc || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel_js_file: %s is NULL",
                         !path ? "path" : !desc ? "desc" : "out");
    *out = NULL;
    char *source;
    st = read_js_file(gpu, path, &source);
    if (st != GPUC_OK)
        return st;
    char unnamed[64];
    file_stem(path, unnamed, sizeof unnamed);
    st = create_js_desc_map(gpu, source, desc, unnamed[0] ? unnamed : NULL, out);
    free(source);
    return st;
}

gpuc_status gpuc_create_kernel_map_js(gpuc *gpu, const char *sub_kernels, const char *js_source,
                                      const gpuc_kernel_desc *desc, gpuc_kernel **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!sub_kernels || !js_source || !desc || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel_map_js: %s is NULL",
                         !sub_kernels ? "sub_kernels" : !js_source ? "js_source" : !desc ? "desc" : "out");
    if (desc->map[0].name)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_create_kernel_map_js: desc.map is set too; give "
                         "the map outputs once, in sub_kernels");
    js_map_entry map[GPUC_MAX_MAP_OUTPUTS];
    int n = 0;
    char err[512];
    if (!js_read_map_text(sub_kernels, map, GPUC_MAX_MAP_OUTPUTS, &n, err, sizeof err))
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "gpuc_create_kernel_map_js: %s", err);
    st = create_js(gpu, js_source, desc, map, n, NULL, out);
    js_free_map_text(map, n);
    return st;
}
