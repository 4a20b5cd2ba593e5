/* codegen_texels.c - the compute main() of a loop-free ordinary kernel that writes its outputs in whole
 * 16-byte texels: each step of an invocation computes a few neighbouring cells (glsl/compute_main.glsl,
 * main_texels, says why this is the fast way to write on llvmpipe). */
#include "kernel/codegen/codegen.h"
#include "kernel/codegen/glsl_template.h"
#include "kernel/source/kernel_jam.h"
#include "internal.h"

#include <stdio.h>

/* Cells whose values fill whole texels of an output of this type (3 texels for 4 vec3 cells). */
static int cells_per_texel(gpuc_type t)
{
    int c = gpuc_type_components(t);
    return c == 2 ? 2 : c == 4 ? 1 : 4;
}

int codegen_lane_cells(gpuc_type result, const codegen_map *maps, int nmaps)
{
    int cells = cells_per_texel(result);
    for (int i = 0; i < nmaps; i++)
        if (cells_per_texel(maps[i].type) > cells)
            cells = cells_per_texel(maps[i].type);
    return cells;
}

/* One output of the kernel: the result (index -1) or map output `index`. */
typedef struct texel_output {
    int index;
    gpuc_type type; /* the cell type stored (a graphical kernel's packed pixel is GPUC_INT) */
    char block[32]; /* the storage block's array */
} texel_output;

static int list_outputs(const kernel_signature *sig, codegen_shape shape, texel_output *out)
{
    out[0] = (texel_output){.index = -1, .type = shape.graphical ? GPUC_INT : sig->return_type};
    snprintf(out[0].block, sizeof out[0].block, "gpuc_output");
    for (int i = 0; i < shape.nmaps; i++) {
        out[1 + i] = (texel_output){.index = i, .type = shape.maps[i].type};
        snprintf(out[1 + i].block, sizeof out[1 + i].block, "gpuc_map_output_%d", i);
    }
    return 1 + shape.nmaps;
}

/* The local that keeps output o's value of the step's cell k. */
static void value_name(char *out, size_t len, const texel_output *o, int k)
{
    if (o->index < 0)
        snprintf(out, len, "gpuc_result_%d", k);
    else
        snprintf(out, len, "gpuc_kept_%d_%d", o->index, k);
}

/* The element type of an output's storage block. */
static const char *block_type(gpuc_type t, codegen_shape shape)
{
    return shape.store_pairs ? "u64vec2" : codegen_texel_type(t);
}

/* Cell k of a step: declares every output's value as 0, then (inside the range) computes the cell
 * and keeps its values. */
static bool emit_cell(strbuf *sb, const kernel_signature *sig, codegen_shape shape, const texel_output *outs,
                      int nouts, int k)
{
    bool ok = true;
    strbuf before = {0}, saves = {0}, call = {0}, thread = {0};
    for (int o = 0; ok && o < nouts; o++) {
        char var[48];
        value_name(var, sizeof var, &outs[o], k);
        const char *type = codegen_glsl_type(outs[o].type);
        const char *fields[] = {"TYPE", type, "VAR", var, NULL};
        ok = glsl_emit(sb, gpuc_glsl_compute_main, "lane_value", fields);
        if (o == 0) {
            strbuf_printf(&saves, "%s = result;", var);
            continue;
        }
        char index[16];
        snprintf(index, sizeof index, "%d", outs[o].index);
        const char *map_fields[] = {"INDEX", index, "TYPE", type, NULL};
        ok = ok && glsl_emit(&before, gpuc_glsl_compute_main, "map_reset", map_fields);
        strbuf_puts(&before, "\n            ");
        strbuf_printf(&saves, "\n            %s = gpuc_map_%d;", var, outs[o].index);
    }
    const char *call_fields[] = {"RETURN_TYPE", codegen_glsl_type(sig->return_type), "KERNEL", sig->name, NULL};
    ok = ok && glsl_emit(&call, gpuc_glsl_compute_main, shape.graphical ? "call_graphical" : "call", call_fields) &&
         glsl_emit(&thread, gpuc_glsl_compute_main, codegen_thread_section(shape.grid), NULL);
    ok = ok && !before.failed && !saves.failed && !call.failed && !thread.failed;
    char kt[16];
    snprintf(kt, sizeof kt, "%d", k);
    const char *fields[] = {"K", kt, "THREAD", thread.data ? thread.data : "",
                            "BEFORE_KERNEL", before.data ? before.data : "", "CALL", call.data ? call.data : "",
                            "SAVES", saves.data ? saves.data : "", NULL};
    ok = ok && glsl_emit(sb, gpuc_glsl_compute_main, k == 0 ? "lane_cell" : "lane_cell_guarded", fields);
    strbuf_free(&before);
    strbuf_free(&saves);
    strbuf_free(&call);
    strbuf_free(&thread);
    return ok;
}

/* The step's cells computed by one call of the jammed body (no maps: kernel.c's jam_cells): each
 * cell's value declared, `thread` the first cell's. Where the rows split into whole steps the step lies
 * in one row, whole (its cells are all inside the range); with shape.jam_tails a step that crosses a
 * row's end or the range's computes its cells one by one, in a loop rather than in copies: llvmpipe
 * runs both sides of an `if` under a mask in every step, and a loop whose lanes are all off ends at
 * once (eight copies cost life 509^2 1.3x the time of one cell per call; docs/performance/cpu-runtimes.md). */
static bool emit_jammed_cells(strbuf *sb, const kernel_signature *sig, codegen_shape shape)
{
    texel_output result = {.index = -1};
    strbuf values = {0}, thread = {0}, picks = {0};
    bool ok = glsl_emit(&thread, gpuc_glsl_compute_main, codegen_thread_section(shape.grid), NULL);
    for (int k = 0; ok && k < shape.lane_cells; k++) {
        char var[48], kt[16];
        value_name(var, sizeof var, &result, k);
        snprintf(kt, sizeof kt, "%d", k);
        const char *fields[] = {"TYPE", codegen_glsl_type(sig->return_type), "VAR", var, "K", kt, NULL};
        ok = glsl_emit(sb, gpuc_glsl_compute_main, "lane_value", fields) &&
             (!shape.jam_tails || glsl_emit(&picks, gpuc_glsl_compute_main, "tail_pick", fields));
        strbuf_printf(&values, "%s%s", k ? ", " : "", var);
    }
    ok = ok && !values.failed && !thread.failed && !picks.failed;
    char lane[16];
    snprintf(lane, sizeof lane, "%d", shape.lane_cells);
    const char *fields[] = {"THREAD", thread.data ? thread.data : "", "FUNCTION", KERNEL_JAM_FUNCTION,
                            "VALUES", values.data ? values.data : "", "LANE_CELLS", lane,
                            "RETURN_TYPE", codegen_glsl_type(sig->return_type), "KERNEL", sig->name,
                            "PICKS", picks.data ? picks.data : "", NULL};
    ok = ok && glsl_emit(sb, gpuc_glsl_compute_main, shape.jam_tails ? "jam_cells_tails" : "jam_cells", fields);
    strbuf_free(&values);
    strbuf_free(&thread);
    strbuf_free(&picks);
    return ok;
}

/* Stores output o's `cells` values of the step as texels; texel j holds the values' floats 4j..4j+3. */
static bool emit_stores(strbuf *sb, const texel_output *o, int cells, bool pairs)
{
    int components = gpuc_type_components(o->type), texels = cells * components / 4;
    bool ok = true;
    for (int j = 0; ok && j < texels; j++) {
        strbuf parts = {0};
        for (int f = 4 * j; f < 4 * j + 4; f++) {
            char var[48];
            value_name(var, sizeof var, o, f / components);
            static const char *const swizzle[] = {".x", ".y", ".z", ".w"};
            strbuf_printf(&parts, "%s%s%s", f > 4 * j ? ", " : "", var, components > 1 ? swizzle[f % components] : "");
        }
        /* The cell holding the texel's first float: a texel past the range's end is not stored. */
        int cell = 4 * j / components;
        char js[16], ts[16], cs[16];
        snprintf(js, sizeof js, "%d", j);
        snprintf(ts, sizeof ts, "%d", texels);
        snprintf(cs, sizeof cs, "%d", cell);
        strbuf value = {0};
        strbuf_printf(&value, "%s%s(%s)%s", pairs ? "gpuc_pairs(" : "", codegen_texel_type(o->type),
                      parts.data ? parts.data : "", pairs ? ")" : "");
        const char *fields[] = {"BLOCK", o->block, "TEXELS", ts, "J", js, "CELL", cs,
                                "VALUE", value.data ? value.data : "", NULL};
        ok = !parts.failed && !value.failed &&
             glsl_emit(sb, gpuc_glsl_compute_main, cell ? "texel_store_guarded" : "texel_store", fields);
        strbuf_free(&parts);
        strbuf_free(&value);
    }
    return ok;
}

bool codegen_texel_main(strbuf *sb, const kernel_signature *sig, codegen_shape shape)
{
    texel_output outs[1 + CODEGEN_MAX_MAPS];
    int nouts = list_outputs(sig, shape, outs);
    strbuf cells = {0}, stores = {0}, blocks = {0};
    bool ok = true;
    if (shape.jam_function)
        ok = emit_jammed_cells(&cells, sig, shape);
    for (int k = 0; ok && !shape.jam_function && k < shape.lane_cells; k++)
        ok = emit_cell(&cells, sig, shape, outs, nouts, k);
    for (int o = 0; ok && o < nouts; o++)
        ok = emit_stores(&stores, &outs[o], shape.lane_cells, shape.store_pairs);
    for (int o = 1; ok && o < nouts; o++) {
        char index[16], binding[16];
        snprintf(index, sizeof index, "%d", outs[o].index);
        snprintf(binding, sizeof binding, "%d", o);
        const char *fields[] = {"BINDING", binding, "INDEX", index, "OUT_ELEMENT", block_type(outs[o].type, shape),
                                NULL};
        ok = glsl_emit(&blocks, gpuc_glsl_compute_main, "map_block", fields);
    }
    strbuf helpers = {0};
    if (shape.store_pairs)
        ok = ok && glsl_emit(&helpers, gpuc_glsl_compute_main, "texel_pairs", NULL);
    ok = ok && !cells.failed && !stores.failed && !blocks.failed && !helpers.failed;
    char local[16], per[16], lane[16];
    snprintf(local, sizeof local, "%d", shape.local_size);
    snprintf(per, sizeof per, "%d", shape.cells_per_invocation);
    snprintf(lane, sizeof lane, "%d", shape.lane_cells);
    const char *fields[] = {"LOCAL_SIZE", local, "CELLS_PER_INVOCATION", per, "LANE_CELLS", lane,
                            "OUT_TEXEL", block_type(outs[0].type, shape), "MAP_BLOCKS", blocks.data ? blocks.data : "",
                            "HELPERS", helpers.data ? helpers.data : "",
                            "CELLS", cells.data ? cells.data : "", "STORES", stores.data ? stores.data : "", NULL};
    ok = ok && glsl_emit(sb, gpuc_glsl_compute_main, "main_texels", fields);
    strbuf_free(&cells);
    strbuf_free(&stores);
    strbuf_free(&blocks);
    strbuf_free(&helpers);
    return ok;
}
