/* codegen.c - see codegen.h. */
#include "kernel/codegen.h"
#include "kernel/glsl_template.h"

#include <stdio.h>
#include <string.h>

static const char *glsl_type(gpuc_type t)
{
    switch (t) {
    case GPUC_INT: return "int";
    case GPUC_VEC2: return "vec2";
    case GPUC_VEC3: return "vec3";
    case GPUC_VEC4: return "vec4";
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
    if (n == 0)
        return true;
    bool ok = glsl_emit(sb, gpuc_glsl_kernel_prelude, "constants_begin", NULL);
    strbuf values = {0};
    for (int i = 0; i < n; i++) {
        char lit[64];
        if (c[i].type == GPUC_INT)
            snprintf(lit, sizeof lit, "%d", (int)c[i].value);
        else
            float_literal(lit, sizeof lit, c[i].value);
        strbuf_printf(&values, "%s%s", i ? ", " : "", lit);
        const char *fields[] = {"TYPE", glsl_type(c[i].type), "NAME", c[i].name, NULL};
        ok = ok && glsl_emit(sb, gpuc_glsl_kernel_prelude, "constant_field", fields);
    }
    const char *fields[] = {"VALUES", values.data ? values.data : "", NULL};
    ok = ok && !values.failed && glsl_emit(sb, gpuc_glsl_kernel_prelude, "constants_end", fields);
    strbuf_free(&values);
    return ok;
}

static bool emit_param(strbuf *sb, const kernel_param *p, int binding)
{
    const char *type = glsl_type(p->type);
    if (p->rank == 0) {
        const char *fields[] = {"TYPE", type, "NAME", p->name, NULL};
        return glsl_emit(sb, gpuc_glsl_kernel_prelude, "scalar", fields);
    }
    char b[16];
    snprintf(b, sizeof b, "%d", binding);
    const char *fields[] = {"BINDING", b, "NAME", p->name, "TYPE", type, NULL};
    bool ok = glsl_emit(sb, gpuc_glsl_array_access, p->type == GPUC_INT ? "image_int" : "image_float", fields);
    static const char *const read_section[] = {NULL, "read1", "read2", "read3"};
    const char *section = read_section[p->rank];
    if (p->type == GPUC_VEC2)
        section = "read_vec2";
    else if (p->type == GPUC_VEC3)
        section = "read_vec3";
    else if (p->type == GPUC_VEC4)
        section = "read_vec4";
    return ok && glsl_emit(sb, gpuc_glsl_array_access, section, fields);
}

/* Writes x, y, z of dims (absent ones as 1) as decimal strings. */
static void dims_text(gpuc_dims d, char x[16], char y[16], char z[16])
{
    snprintf(x, 16, "%u", d.x);
    snprintf(y, 16, "%u", d.y ? d.y : 1);
    snprintf(z, 16, "%u", d.z ? d.z : 1);
}

/* The code around the kernel call in main(): where the result goes. */
static bool emit_store(strbuf *before, strbuf *store, const kernel_signature *sig, bool scatter)
{
    bool ok = glsl_emit(before, gpuc_glsl_compute_main, scatter ? "scatter_index" : "gather_index", NULL);
    if (scatter) {
        ok = ok && glsl_emit(store, gpuc_glsl_compute_main, "scatter_guard", NULL);
        strbuf_puts(store, "    ");
    }
    return ok && glsl_emit(store, gpuc_glsl_compute_main, sig->return_type == GPUC_VEC3 ? "store_vec3" : "store_cell",
                           NULL);
}

char *codegen_compute(const kernel_signature *sig, const char *user_source, codegen_shape shape,
                      const resolved_constant *constants, int nconstants)
{
    strbuf sb = {0};
    char ox[16], oy[16], oz[16], gx[16], gy[16], gz[16], local[16], per[16];
    dims_text(shape.output, ox, oy, oz);
    dims_text(shape.grid, gx, gy, gz);
    snprintf(local, sizeof local, "%d", CODEGEN_LOCAL_SIZE);
    snprintf(per, sizeof per, "%d", shape.cells_per_invocation);

    strbuf_printf(&sb, "#version 430\n#line 1 %d\n", SOURCE_DECLARATIONS);
    const char *out_fields[] = {"OUT_X", ox, "OUT_Y", oy, "OUT_Z", oz, "GRID_X", gx, "GRID_Y", gy, "GRID_Z", gz, NULL};
    bool ok = glsl_emit(&sb, gpuc_glsl_kernel_prelude, "prelude", out_fields);
    if (shape.scatter)
        ok = ok && glsl_emit(&sb, gpuc_glsl_kernel_prelude, "scatter", NULL);
    ok = ok && emit_constants(&sb, constants, nconstants);
    for (int i = 0, binding = 0; ok && i < sig->nparams; i++)
        ok = emit_param(&sb, &sig->params[i], sig->params[i].rank ? binding++ : -1);

    strbuf_printf(&sb, "#line 1 %d\n", SOURCE_USER);
    strbuf_puts(&sb, user_source);
    strbuf_printf(&sb, "\n#line 1 %d\n", SOURCE_MAIN);

    strbuf before = {0}, store = {0};
    const char *ret = glsl_type(sig->return_type);
    ok = ok && emit_store(&before, &store, sig, shape.scatter) && !before.failed && !store.failed;
    const char *main_fields[] = {"LOCAL_SIZE", local, "CELLS_PER_INVOCATION", per, "OUT_ELEMENT", sig->return_type == GPUC_VEC3 ? "float" : ret,
                                 "RETURN_TYPE", ret, "KERNEL", sig->name,
                                 "BEFORE_KERNEL", before.data ? before.data : "", "STORE", store.data ? store.data : "",
                                 NULL};
    ok = ok && glsl_emit(&sb, gpuc_glsl_compute_main, "main", main_fields);
    strbuf_free(&before);
    strbuf_free(&store);
    if (!ok) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_take(&sb);
}
