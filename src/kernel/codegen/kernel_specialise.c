/* kernel_specialise.c - see kernel_specialise.h. The specialised text is the generic program's with
 * array_access.glsl's declarations of each array edited (matched exactly: any miss keeps the generic
 * program), so it needs nothing of the kernel's creation but the program it made. */
#include "kernel/codegen/kernel_specialise.h"
#include "kernel/codegen/codegen.h"
#include "kernel/kernel_args.h"
#include "kernel/program/program_cache.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kernel_array_size(const kernel_param *p, gpuc_type type, gpuc_dims dims, GLint size[3])
{
    size[0] = kernel_reads_floats_as_vec4(p, type, dims) ? (GLint)((dims.x + 3) / 4) : (GLint)dims.x;
    size[1] = dims.y ? (GLint)dims.y : 1;
    size[2] = dims.z ? (GLint)dims.z : 1;
}

/* Loops repeat their reads, so they are where a constant width and a cheaper load pay for a second
 * compile; a loop-free kernel reads each cell's values once. */
bool kernel_specialisable(const gpuc_kernel *k)
{
    if (k->nloops == 0)
        return false;
    for (int i = 0; i < k->sig.nparams; i++)
        if (k->sig.params[i].rank > 0)
            return true;
    return false;
}

/* The sizes the kernel sees for args, and whether each scalar array is read through a one-component
 * view: when it fits one (GL_MAX_TEXTURE_BUFFER_SIZE counts texels: four times as many floats fit the
 * rgba view), and unless its rows are 4 wide: then a row is one texel, and a[j][0..3] with constant
 * columns (GPU.js's way of passing vec4 records) fold into one texel load with its width compiled in
 * (nbody's JavaScript: 0.61x the time of four one-component loads). An array the jammed body reads a
 * texel at a time (k->texel_reads) keeps its rgba view where its rows are whole texels (a 1D array's
 * texel reads start at multiples of 4): a texel read is then one load. Where they are not, its
 * texel reads are four element reads (array_access.glsl's texel_read2), which the one-component view
 * makes cheaper, and specialised_text makes its 1D texel read four element reads too. */
static void arg_sizes(const gpuc_kernel *k, const gpuc_arg *args, GLint sizes[][3], bool *scalar)
{
    for (int i = 0; i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        memset(sizes[i], 0, sizeof sizes[i]);
        scalar[i] = false;
        if (p->rank == 0)
            continue;
        const gpuc_arg *a = &args[i];
        gpuc_dims dims = a->kind == GPUC_ARG_ARRAY ? a->array->dims : a->dims;
        kernel_array_size(p, kernel_arg_type(p, a), dims, sizes[i]);
        uint64_t cells = (uint64_t)sizes[i][0] * (uint64_t)sizes[i][1] * (uint64_t)sizes[i][2];
        bool rows_of_4 = sizes[i][0] == 4 && cells > 4;
        bool whole_texels = p->rank == 1 || sizes[i][0] % 4 == 0;
        scalar[i] = !k->buffer_reads && (p->type == GPUC_FLOAT || p->type == GPUC_INT) && !rows_of_4 &&
                    !(k->texel_reads[i] && whole_texels) &&
                    (cells + 3) / 4 * 4 <= (uint64_t)k->gpu->info.max_texture_buffer_size;
    }
}

/* Replaces the one occurrence of `from` in *text with `to`; false (text unchanged) unless there is
 * exactly one. */
static bool replace_once(char **text, const char *from, const char *to)
{
    char *at = strstr(*text, from);
    if (!at || strstr(at + 1, from))
        return false;
    strbuf sb = {0};
    strbuf_append(&sb, *text, (size_t)(at - *text));
    strbuf_puts(&sb, to);
    strbuf_puts(&sb, at + strlen(from));
    char *out = strbuf_take(&sb);
    if (!out)
        return false;
    free(*text);
    *text = out;
    return true;
}

/* The generic program's text with array i's size a constant and, where scalar[i], its view one
 * component wide (so a read is one 4-byte load, not a texel's 16 and a select of its component). */
static char *specialised_text(const gpuc_kernel *k, GLint sizes[][3], const bool *scalar)
{
    char *text = malloc(strlen(k->cached->glsl) + 1);
    if (!text)
        return NULL;
    strcpy(text, k->cached->glsl);
    bool ok = true;
    for (int i = 0; ok && i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        if (p->rank == 0)
            continue;
        char from[6 * KERNEL_NAME_MAX + 96], to[6 * KERNEL_NAME_MAX + 96]; /* room for texel_read1 naming it 5 times */
        snprintf(from, sizeof from, "uniform ivec3 gpuc_size_%s;", p->name);
        snprintf(to, sizeof to, "const ivec3 gpuc_size_%s = ivec3(%d, %d, %d);", p->name, sizes[i][0], sizes[i][1],
                 sizes[i][2]);
        ok = replace_once(&text, from, to);
        if (!ok || !scalar[i])
            continue;
        bool is_int = p->type == GPUC_INT;
        snprintf(from, sizeof from, "%s) readonly uniform %s gpuc_array_%s;", is_int ? "rgba32i" : "rgba32f",
                 is_int ? "iimageBuffer" : "imageBuffer", p->name);
        snprintf(to, sizeof to, "%s) readonly uniform %s gpuc_array_%s;", is_int ? "r32i" : "r32f",
                 is_int ? "iimageBuffer" : "imageBuffer", p->name);
        ok = replace_once(&text, from, to);
        snprintf(from, sizeof from, "imageLoad(gpuc_array_%s, i >> 2)[i & 3]", p->name);
        snprintf(to, sizeof to, "imageLoad(gpuc_array_%s, i).x", p->name);
        ok = ok && replace_once(&text, from, to);
        if (ok && k->texel_reads[i]) { /* rows not whole texels (arg_sizes): a texel's elements one by one */
            snprintf(from, sizeof from, "gpuc_texel_%s(int i) { return imageLoad(gpuc_array_%s, i >> 2); }", p->name,
                     p->name);
            snprintf(to, sizeof to, "gpuc_texel_%s(int i) { return %s(%s(i), %s(i + 1), %s(i + 2), %s(i + 3)); }",
                     p->name, codegen_texel_type(p->type), p->name, p->name, p->name, p->name);
            ok = replace_once(&text, from, to);
        }
    }
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

static void use_program(gpuc_kernel *k, program_entry *e, const bool *scalar)
{
    k->program = e->program;
    for (int i = 0; i < k->sig.nparams; i++)
        k->scalar_view[i] = scalar && scalar[i];
    kernel_locate_uniforms(k);
}

void kernel_specialise(gpuc_kernel *k, const gpuc_arg *args)
{
    if (!k->specialisable)
        return;
    GLint sizes[GPUC_MAX_ARGS][3];
    bool scalar[GPUC_MAX_ARGS];
    arg_sizes(k, args, sizes, scalar);
    size_t bytes = (size_t)k->sig.nparams * sizeof sizes[0];
    bool repeated = k->last_sizes_valid && !memcmp(sizes, k->last_sizes, bytes);
    memcpy(k->last_sizes, sizes, bytes);
    k->last_sizes_valid = true;
    bool fits = k->special && !memcmp(sizes, k->special_sizes, bytes);
    if (!fits && repeated) { /* a second run at these sizes: worth a program of its own */
        char *text = specialised_text(k, sizes, scalar);
        program_entry *e = NULL;
        if (!text || program_get(k->gpu, text, k->fragment, k->name, text, &e) != GPUC_OK) {
            k->specialisable = false; /* gpuc's edit failed: the generic program stays, correct */
            free(text);
            if (k->program != k->cached->program)
                use_program(k, k->cached, NULL);
            return;
        }
        free(text);
        program_put(k->gpu, k->special, true);
        k->special = e;
        memcpy(k->special_sizes, sizes, bytes);
        memcpy(k->special_scalar, scalar, sizeof scalar);
        fits = true;
    }
    program_entry *want = fits ? k->special : k->cached;
    if (k->program != want->program)
        use_program(k, want, fits ? k->special_scalar : NULL);
}

void kernel_specialise_forget(gpuc_kernel *handle)
{
    gpuc_kernel *k; /* the algorithms keep the handles gpuc_create_kernel handed out */
    if (kernel_open(handle, "kernel_specialise_forget", &k) == GPUC_OK)
        k->last_sizes_valid = false;
}

void kernel_specialise_free(gpuc_kernel *k, bool gl)
{
    program_put(k->gpu, k->special, gl);
    k->special = NULL;
}
