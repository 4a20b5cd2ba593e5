/* codegen.c - see codegen.h. */
#include "kernel/codegen/codegen.h"
#include "kernel/constant_arrays.h"
#include "kernel/codegen/glsl_template.h"

#include <stdio.h>
#include <string.h>

const char *codegen_texel_type(gpuc_type t)
{
    return t == GPUC_INT ? "ivec4" : "vec4";
}

const char *codegen_glsl_type(gpuc_type t)
{
    switch (t) {
    case GPUC_INT: return "int";
    case GPUC_VEC2: return "vec2";
    case GPUC_VEC3: return "vec3";
    case GPUC_VEC4: return "vec4";
    case GPUC_BOOL: return "bool";
    default: return "float";
    }
}

/* A GLSL literal that reads back as exactly the float32 nearest to v. */
static void float_literal(char *out, size_t len, double v)
{
    snprintf(out, len, "%.9g", (double)(float)v);
    if (!strpbrk(out, ".eEn"))
        strncat(out, ".0", len - strlen(out) - 1);
}

static bool emit_constants(strbuf *sb, const resolved_constant *c, int n)
{
    int scalars = 0; /* numbers and Booleans go in the struct; arrays apart (constant_arrays.c) */
    for (int i = 0; i < n; i++)
        scalars += c[i].count == 0;
    if (scalars == 0)
        return constant_arrays_emit(sb, c, n);
    bool ok = glsl_emit(sb, gpuc_glsl_kernel_prelude, "constants_begin", NULL);
    strbuf values = {0};
    for (int i = 0, field = 0; i < n; i++) {
        char lit[64];
        if (c[i].count)
            continue;
        if (c[i].type == GPUC_BOOL)
            snprintf(lit, sizeof lit, "%s", c[i].value != 0.0 ? "true" : "false");
        else if (c[i].type == GPUC_INT)
            snprintf(lit, sizeof lit, "%d", (int)c[i].value);
        else
            float_literal(lit, sizeof lit, c[i].value);
        strbuf_printf(&values, "%s%s", field++ ? ", " : "", lit);
        const char *fields[] = {"TYPE", codegen_glsl_type(c[i].type), "NAME", c[i].name, NULL};
        ok = ok && glsl_emit(sb, gpuc_glsl_kernel_prelude, "constant_field", fields);
    }
    const char *fields[] = {"VALUES", values.data ? values.data : "", NULL};
    ok = ok && !values.failed && glsl_emit(sb, gpuc_glsl_kernel_prelude, "constants_end", fields);
    strbuf_free(&values);
    return ok && constant_arrays_emit(sb, c, n);
}

/* An array read from a storage buffer (the hardware profile): its block, then the accessors as below
 * (a vec2 or vec4 element is one load, so their 1D accessor is read1 too). */
static bool emit_buffer_param(strbuf *sb, const kernel_param *p, const char *binding)
{
    const char *type = codegen_glsl_type(p->type);
    const char *element = p->type == GPUC_VEC3 ? "float" : type;
    const char *fields[] = {"BINDING", binding, "NAME", p->name, "TYPE", type, "ELEMENT", element, NULL};
    bool ok = glsl_emit(sb, gpuc_glsl_array_access, "buffer_block", fields) &&
              glsl_emit(sb, gpuc_glsl_array_access, p->type == GPUC_VEC3 ? "read_vec3" : "read1", fields);
    if (p->rank >= 2)
        ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "read2", fields);
    if (p->rank >= 3)
        ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "read3", fields);
    return ok;
}

static bool emit_param(strbuf *sb, const kernel_param *p, int binding, bool buffer_reads, bool texel_reads)
{
    const char *type = codegen_glsl_type(p->type);
    if (p->rank == 0) {
        const char *fields[] = {"TYPE", type, "NAME", p->name, NULL};
        return glsl_emit(sb, gpuc_glsl_kernel_prelude, "scalar", fields);
    }
    char b[16];
    snprintf(b, sizeof b, "%d", binding);
    if (buffer_reads)
        return emit_buffer_param(sb, p, b);
    const char *fields[] = {"BINDING", b, "NAME", p->name, "TYPE", type, NULL};
    bool ok = glsl_emit(sb, gpuc_glsl_array_access, p->type == GPUC_INT ? "image_int" : "image_float", fields);
    /* The 1D accessor of the element type, then the 2D and 3D ones over it (array_access.glsl). */
    const char *section = "read1";
    if (p->type == GPUC_VEC2)
        section = "read_vec2";
    else if (p->type == GPUC_VEC3)
        section = "read_vec3";
    else if (p->type == GPUC_VEC4)
        section = "read_vec4";
    ok = ok && glsl_emit(sb, gpuc_glsl_array_access, section, fields);
    if (p->rank >= 2)
        ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "read2", fields);
    if (p->rank >= 3)
        ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "read3", fields);
    if (texel_reads) { /* one float or int per element (kernel.c's jam_texel_arrays) */
        const char *texel_fields[] = {"NAME", p->name, "TEXEL", codegen_texel_type(p->type), NULL};
        ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "texel_read1", texel_fields);
        if (p->rank >= 2)
            ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "texel_read2", texel_fields);
        if (p->rank >= 3)
            ok = ok && glsl_emit(sb, gpuc_glsl_array_access, "texel_read3", texel_fields);
    }
    return ok;
}

/* Writes x, y, z of dims (absent ones as 1) as decimal strings. */
static void dims_text(gpuc_dims d, char x[16], char y[16], char z[16])
{
    snprintf(x, 16, "%u", d.x);
    snprintf(y, 16, "%u", d.y ? d.y : 1);
    snprintf(z, 16, "%u", d.z ? d.z : 1);
}

/* The main() template of the program's kind. */
static const char *main_file(codegen_shape shape)
{
    return shape.fragment ? gpuc_glsl_fragment_main : gpuc_glsl_compute_main;
}

/* The code around the kernel call in main(): where the result goes. */
static bool emit_store(strbuf *before, strbuf *store, const kernel_signature *sig, codegen_shape shape)
{
    const char *file = main_file(shape);
    bool ok = true;
    if (!shape.fragment)
        ok = glsl_emit(before, file, shape.scatter ? "scatter_index" : "gather_index", NULL);
    if (shape.scatter) {
        ok = ok && glsl_emit(store, file, "scatter_guard", NULL);
        strbuf_puts(store, "    ");
    }
    const char *section = sig->return_type == GPUC_VEC3 ? "store_vec3" : "store_cell";
    if (shape.fragment && shape.graphical)
        section = "store_graphical";
    return ok && glsl_emit(store, file, section, NULL);
}

/* The declarations, resets and stores of a kernel map's extra outputs. */
static bool emit_maps(strbuf *decl, strbuf *outs, strbuf *before, strbuf *store, codegen_shape shape)
{
    bool ok = true;
    const char *file = main_file(shape);
    for (int i = 0; ok && i < shape.nmaps; i++) {
        char index[16], location[16];
        snprintf(index, sizeof index, "%d", i);
        snprintf(location, sizeof location, "%d", i + 1);
        gpuc_type t = shape.maps[i].type;
        const char *type = codegen_glsl_type(t);
        const char *element = t == GPUC_VEC3 ? "float" : type;
        const char *out_type = t == GPUC_VEC3 ? "vec4" : type;
        const char *fields[] = {"INDEX", index, "TYPE", type, "FUNCTION", shape.maps[i].function, "BINDING", location,
                                "LOCATION", location, "OUT_ELEMENT", element, "OUT_TYPE", out_type, NULL};
        ok = glsl_emit(decl, gpuc_glsl_kernel_prelude, "map_output", fields);
        if (!outs) /* main_texels declares and stores its outputs itself */
            continue;
        ok = ok && glsl_emit(outs, file, shape.fragment ? "map_out" : "map_block", fields) &&
             glsl_emit(before, file, "map_reset", fields) &&
             glsl_emit(store, file, t == GPUC_VEC3 ? "map_store_vec3" : "map_store_cell", fields);
    }
    return ok;
}

static const char *output_type(gpuc_type t, codegen_shape shape)
{
    if (shape.graphical)
        return shape.fragment ? "vec4" : "int";
    if (t == GPUC_VEC3)
        return shape.fragment ? "vec4" : "float";
    return codegen_glsl_type(t);
}

const char *codegen_thread_section(gpuc_dims grid)
{
    return grid.z ? "thread_3d" : grid.y ? "thread_2d" : "thread_1d";
}

const char *codegen_vertex_shader(void)
{
    static char text[1024];
    if (!text[0]) {
        strbuf sb = {0};
        if (glsl_emit(&sb, gpuc_glsl_fragment_main, "vertex", NULL) && sb.data)
            snprintf(text, sizeof text, "%s", sb.data);
        strbuf_free(&sb);
    }
    return text;
}

static bool emit_main(strbuf *sb, const kernel_signature *sig, codegen_shape shape, strbuf *before, strbuf *store,
                      strbuf *outs)
{
    char local[16], per[16];
    snprintf(local, sizeof local, "%d", shape.local_size);
    snprintf(per, sizeof per, "%d", shape.cells_per_invocation);
    const char *ret = codegen_glsl_type(sig->return_type);
    const char *call_fields[] = {"RETURN_TYPE", ret, "KERNEL", sig->name, NULL};
    strbuf call = {0}, thread = {0};
    bool ok = glsl_emit(&call, main_file(shape), shape.graphical ? "call_graphical" : "call", call_fields) &&
              glsl_emit(&thread, main_file(shape), codegen_thread_section(shape.grid), NULL);
    if (shape.loop_guard) {
        strbuf_puts(&call, "\n        ");
        ok = ok && glsl_emit(&call, gpuc_glsl_kernel_prelude, "loop_report", NULL);
    }
    if (shape.loop_caps) {
        strbuf_puts(&call, "\n        ");
        ok = ok && glsl_emit(&call, gpuc_glsl_kernel_prelude, "loop_cap_report", NULL);
    }
    ok = ok && !call.failed && !thread.failed && !before->failed && !store->failed && !outs->failed;
    const char *out = output_type(sig->return_type, shape);
    const char *main_fields[] = {"LOCAL_SIZE", local, "CELLS_PER_INVOCATION", per, "OUT_ELEMENT", out, "OUT_TYPE", out,
                                 "THREAD", thread.data ? thread.data : "",
                                 "CALL", call.data ? call.data : "", "MAP_BLOCKS", outs->data ? outs->data : "",
                                 "MAP_OUTS", outs->data ? outs->data : "",
                                 "BEFORE_KERNEL", before->data ? before->data : "",
                                 "STORE", store->data ? store->data : "", NULL};
    ok = ok && glsl_emit(sb, main_file(shape), "main", main_fields);
    strbuf_free(&call);
    strbuf_free(&thread);
    return ok;
}

char *codegen_program(const kernel_signature *sig, const char *user_source, codegen_shape shape,
                      const resolved_constant *constants, int nconstants)
{
    strbuf sb = {0};
    char ox[16], oy[16], oz[16], gx[16], gy[16], gz[16];
    dims_text(shape.output, ox, oy, oz);
    dims_text(shape.grid, gx, gy, gz);

    strbuf_printf(&sb, "#version 430\n%s#line %d %d\n",
                  shape.lane_cells && shape.store_pairs ? "#extension GL_ARB_gpu_shader_int64 : require\n" : "",
                  CODEGEN_DECLARATIONS_LINE + 1, SOURCE_DECLARATIONS);
    const char *out_fields[] = {"OUT_X", ox, "OUT_Y", oy, "OUT_Z", oz, "GRID_X", gx, "GRID_Y", gy, "GRID_Z", gz, NULL};
    bool ok = glsl_emit(&sb, gpuc_glsl_kernel_prelude, "prelude", NULL) &&
              glsl_emit(&sb, gpuc_glsl_kernel_prelude, shape.sizes_uniform ? "sizes_uniform" : "sizes_const",
                        out_fields);
    if (shape.scatter)
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "scatter", NULL);
    if (shape.graphical)
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "graphical", NULL);
    if (shape.loop_guard || shape.loop_caps) {
        char binding[16];
        snprintf(binding, sizeof binding, "%d", CODEGEN_LOOP_STATUS_BINDING);
        const char *fields[] = {"BINDING", binding, NULL};
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "loop_status", fields);
    }
    if (shape.loop_guard)
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "loop_guard", NULL);
    if (shape.loop_caps)
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "loop_cap", NULL);
    ok = ok && emit_constants(&sb, constants, nconstants);
    int first = codegen_first_input_binding(shape.buffer_reads, shape.fragment, shape.loop_guard || shape.loop_caps,
                                            shape.nmaps);
    for (int i = 0, binding = first; ok && i < sig->nparams; i++)
        ok = emit_param(&sb, &sig->params[i], sig->params[i].rank ? binding++ : -1, shape.buffer_reads,
                        shape.texel_reads && shape.texel_reads[i]);

    strbuf before = {0}, store = {0}, outs = {0};
    bool texels = shape.lane_cells > 0;
    ok = ok && emit_maps(&sb, texels ? NULL : &outs, &before, &store, shape);
    ok = ok && (texels || emit_store(&before, &store, sig, shape));
    if (shape.loop_guard) {
        strbuf_puts(&before, "\n        ");
        ok = ok && glsl_emit(&before, gpuc_glsl_kernel_prelude, "loop_opaque", NULL);
    }

    strbuf_printf(&sb, "#line 1 %d\n", SOURCE_USER);
    strbuf_puts(&sb, user_source);
    strbuf_printf(&sb, "\n#line %d %d\n", CODEGEN_MAIN_LINE + 1, SOURCE_MAIN);
    if (shape.jam_function)
        strbuf_puts(&sb, shape.jam_function);
    ok = ok && (texels ? codegen_texel_main(&sb, sig, shape) : emit_main(&sb, sig, shape, &before, &store, &outs));
    strbuf_free(&before);
    strbuf_free(&store);
    strbuf_free(&outs);
    if (!ok || sb.failed) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_take(&sb);
}

int codegen_first_input_binding(bool buffer_reads, bool fragment, bool loop_status, int nmaps)
{
    if (!buffer_reads || fragment) /* image units, or a fragment shader's only storage buffers */
        return 0;
    return loop_status ? CODEGEN_LOOP_STATUS_BINDING + 1 : 1 + nmaps;
}

int codegen_part_of(int source, int line, int *part_line)
{
    if (line > CODEGEN_MAIN_LINE || (source == SOURCE_MAIN && line <= CODEGEN_DECLARATIONS_LINE)) {
        *part_line = line > CODEGEN_MAIN_LINE ? line - CODEGEN_MAIN_LINE : line;
        return SOURCE_MAIN;
    }
    if (line > CODEGEN_DECLARATIONS_LINE || source == SOURCE_DECLARATIONS) {
        *part_line = line > CODEGEN_DECLARATIONS_LINE ? line - CODEGEN_DECLARATIONS_LINE : line;
        return SOURCE_DECLARATIONS;
    }
    *part_line = line;
    return SOURCE_USER;
}

void codegen_generated_line(const char *glsl, int line, char *out, size_t outlen)
{
    int current = 1; /* the number the compiler gives the line starting at p */
    out[0] = '\0';
    for (const char *p = glsl; p && *p;) {
        size_t len = strcspn(p, "\n");
        int set;
        if (!strncmp(p, "#line ", 6) && sscanf(p + 6, "%d", &set) == 1) {
            current = set;
        } else {
            if (current == line) {
                size_t lead = strspn(p, " \t");
                snprintf(out, outlen, "%.*s", (int)(len - lead), p + lead);
                return;
            }
            current++;
        }
        p = p[len] ? p + len + 1 : NULL;
    }
}
