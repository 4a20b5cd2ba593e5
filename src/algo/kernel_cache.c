/* kernel_cache.c - the algorithm drivers' kernels, made once per context and kept until it closes.
 * Making a kernel (parsing, GLSL generation, a program-cache lookup) costs about 0.1 ms on llvmpipe
 * even when its program is cached, and a driver call made 5-30 of them: much of the floor every small
 * call paid. A kernel is filed under its source and the parts of its description that shape what it
 * computes; a 1D ordinary kernel is made with .dynamic_output and given each use's size through
 * gpuc_kernel_set_output, so one kernel serves every length within a power of two (size_class).
 *
 * A driver holds the kernels it got until its call returns, so within one public call (between two
 * algo_enter) nothing is freed, and a kernel already handed out at another size is not resized under
 * its holder: a second one of the same key is made (topk's sum levels are one source at several
 * sizes). At its first use in a call a kept kernel forgets its last run's sizes, so that the kernel
 * layer compiles a program specialised to argument sizes only where one call runs the kernel twice
 * at them, as it did for kernels made per call (not at every size two calls in a row share). At each algo_enter, when no kernel is held, the least recently used ones past
 * ALGO_KERNELS_KEPT are freed, so a workload of many shapes stays bounded.
 *
 * Thread safety: a context serves one thread at a time (gpuc.h, THREADS), and every driver works
 * inside a call that made the context current on its thread, so the cache needs no lock. The kernels
 * are children of the context: gpuc_close destroys them with the rest, and the close hook then frees
 * only the cache's own host memory. */
#include "algo/algo_common.h"
#include "kernel/codegen/kernel_specialise.h" /* kernel_specialise_forget */
#include "kernel/small_calls.h"                /* small_call_never */
#include "kernel/program/program_table.h"      /* program_hash: the same string hash the program cache files by */
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Distinct kernels the drivers use in one workload: about 10 per algorithm and element type, more for
 * the radix sort's scatters (their size is compiled into the key) and compaction's gather searches. */
#define ALGO_KERNELS_KEPT 96

typedef struct cached_kernel {
    char *key;          /* the source, then a line describing the desc */
    uint64_t hash;
    uint64_t call;      /* the public call (algo_kernel_cache.call) that last got it */
    gpuc_kernel *kernel;
    bool resizable;     /* made with .dynamic_output by the cache: each get sets its output size */
} cached_kernel;

struct algo_kernel_cache {
    cached_kernel *entries; /* least recently got first */
    int count, capacity;
    uint64_t call;          /* public calls so far (algo_enter) */
};

/* gpuc_close's hook: the kernels were destroyed with the context's other children. */
static void cache_close(gpuc *gpu, bool gl)
{
    (void)gl;
    algo_kernel_cache *c = gpu->algo_kernels;
    if (!c)
        return;
    for (int i = 0; i < c->count; i++)
        free(c->entries[i].key);
    free(c->entries);
    free(c);
    gpu->algo_kernels = NULL;
}

static gpuc_status cache_of(gpuc *gpu, algo_kernel_cache **out)
{
    if (!gpu->algo_kernels) {
        gpuc_status st = gpuc_on_close(gpu, cache_close);
        if (st != GPUC_OK)
            return st;
        gpu->algo_kernels = calloc(1, sizeof *gpu->algo_kernels);
        if (!gpu->algo_kernels)
            return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc algorithm: out of host memory for its kernels");
    }
    *out = gpu->algo_kernels;
    return GPUC_OK;
}

/* Whether one kernel can serve every output size: a 1D ordinary kernel whose source leaves the size
 * to uniforms anyway (one naming outputSize keeps it compiled in, as its program has it today). */
static bool resizable(const char *source, const gpuc_kernel_desc *desc)
{
    return !desc->scatter && gpuc_dims_rank(desc->output) == 1 && !strstr(source, "outputSize");
}

/* A kernel fixes its cells per invocation when it is made, from its output's length: fewer for
 * small outputs, so that enough work groups keep every core busy (kernel.c's cells_per_invocation,
 * the largest power of two up to a bound that fits the length over a power of two). A resized
 * kernel keeps them, so one made for 2^10 cells would run 2^20 with a fraction of the cells per
 * invocation it would have been made with. Filing resizable kernels per power of two of their
 * length gives each size the count a kernel made for it would have (at most 31 kernels of a shape,
 * a handful in practice). */
static int size_class(uint32_t cells)
{
    int c = 0;
    while (c < 31 && (cells >> (c + 1)) != 0)
        c++;
    return c;
}

/* The source and what else of desc shapes the kernel, as one string. */
static char *make_key(const char *source, const gpuc_kernel_desc *desc, bool sized)
{
    strbuf sb = {0};
    strbuf_puts(&sb, source);
    strbuf_printf(&sb, "\n// pipeline %d scatter %d threads %u %u %u", desc->pipeline, desc->scatter, desc->threads.x,
                  desc->threads.y, desc->threads.z);
    if (!sized)
        strbuf_printf(&sb, " output %u %u %u", desc->output.x, desc->output.y, desc->output.z);
    else /* the power of two of the length: see size_class */
        strbuf_printf(&sb, " class %d", size_class(desc->output.x));
    if (desc->name)
        strbuf_printf(&sb, " name %s", desc->name);
    for (int i = 0; i < GPUC_MAX_CONSTANTS && desc->constants[i].name; i++)
        strbuf_printf(&sb, " %s:%d=%.17g", desc->constants[i].name, (int)desc->constants[i].type,
                      desc->constants[i].value);
    return strbuf_take(&sb);
}

gpuc_status algo_enter(gpuc *gpu)
{
    gpuc_status st = gpuc_enter(gpu);
    algo_kernel_cache *c = st == GPUC_OK ? gpu->algo_kernels : NULL;
    if (!c)
        return st;
    c->call++;
    int extra = c->count - ALGO_KERNELS_KEPT;
    if (extra <= 0)
        return GPUC_OK;
    for (int i = 0; i < extra; i++) {
        gpuc_kernel_free(c->entries[i].kernel);
        free(c->entries[i].key);
    }
    memmove(c->entries, c->entries + extra, (size_t)(c->count - extra) * sizeof *c->entries);
    c->count -= extra;
    return GPUC_OK;
}

/* Moves entry i to the end (most recently got) and marks it got in this call. */
static cached_kernel *touch(algo_kernel_cache *c, int i)
{
    cached_kernel e = c->entries[i];
    memmove(c->entries + i, c->entries + i + 1, (size_t)(c->count - i - 1) * sizeof e);
    e.call = c->call;
    c->entries[c->count - 1] = e;
    return &c->entries[c->count - 1];
}

/* Whether entry e can be handed out at `output`: a fixed kernel always (its size is in its key); a
 * resizable one unless this call already holds it at another size. */
static bool fits(const algo_kernel_cache *c, const cached_kernel *e, gpuc_dims output)
{
    return !e->resizable || e->call != c->call || gpuc_kernel_output(e->kernel).x == output.x;
}

gpuc_status algo_kernel_get(gpuc *gpu, const char *source, const gpuc_kernel_desc *desc, gpuc_kernel **out)
{
    *out = NULL;
    /* The key describes GLSL kernels of numeric constants; anything else would be a driver's bug. */
    bool plain = !desc->graphical && !desc->map[0].name && !desc->arg_types && !desc->random_seed &&
                 !desc->loop_max_iterations && !desc->precise_math;
    for (int i = 0; plain && i < GPUC_MAX_CONSTANTS && desc->constants[i].name; i++)
        plain = !desc->constants[i].values;
    if (!plain)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc algorithm: a kept kernel has array constants or JavaScript, graphical or map options "
                         "(a bug in gpuc)");
    algo_kernel_cache *c = NULL;
    gpuc_status st = cache_of(gpu, &c);
    if (st != GPUC_OK)
        return st;
    bool sized = resizable(source, desc);
    char *key = make_key(source, desc, sized || desc->dynamic_output);
    if (!key)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc algorithm: out of host memory for a kernel's key");
    uint64_t hash = program_hash(key);
    for (int i = c->count - 1; i >= 0; i--) {
        cached_kernel *e = &c->entries[i];
        if (e->hash == hash && !strcmp(e->key, key) && fits(c, e, desc->output)) {
            free(key);
            if (e->call != c->call) /* its first use in this call: as a kernel made for the call */
                kernel_specialise_forget(e->kernel);
            e = touch(c, i);
            if (e->resizable && gpuc_kernel_output(e->kernel).x != desc->output.x)
                st = gpuc_kernel_set_output(e->kernel, desc->output);
            if (st == GPUC_OK)
                *out = e->kernel;
            return st;
        }
    }
    if (c->count == c->capacity) {
        int grown = c->capacity ? 2 * c->capacity : 32;
        cached_kernel *entries = realloc(c->entries, (size_t)grown * sizeof *entries);
        if (!entries) {
            free(key);
            return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc algorithm: out of host memory for its kernels");
        }
        c->entries = entries;
        c->capacity = grown;
    }
    gpuc_kernel_desc made = *desc;
    made.dynamic_output = made.dynamic_output || sized;
    gpuc_kernel *k = NULL;
    st = gpuc_create_kernel(gpu, source, &made, &k);
    if (st != GPUC_OK) {
        free(key);
        return st;
    }
    small_call_never(k); /* a small call of a driver goes to the twin whole, or not at all */
    c->entries[c->count++] =
        (cached_kernel){.key = key, .hash = hash, .call = c->call, .kernel = k, .resizable = sized};
    *out = k;
    return GPUC_OK;
}
