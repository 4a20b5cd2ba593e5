/* compact_count.c - which elements survive a compaction, and how many: the predicate evaluated once
 * per element into one 32-bit mask per block (four elements per texel read), the masks' bits counted
 * and scanned (src/algo/scan.c) into the survivors before each block, and the total read back. */
#include "algo/compact.h"
#include "algo/scan.h"
#include "kernel/codegen/glsl_template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The GLSL function comparing two ivec4s as `op` does two numbers. */
static const char *op_vector_glsl(gpuc_compare op)
{
    switch (op) {
    case GPUC_GREATER: return "greaterThan";
    case GPUC_GREATER_EQUAL: return "greaterThanEqual";
    case GPUC_LESS: return "lessThan";
    case GPUC_LESS_EQUAL: return "lessThanEqual";
    case GPUC_EQUAL: return "equal";
    default: return "notEqual";
    }
}

/* Where the mask kernel gets the flags of texel tx's four elements: a comparison of the values with
 * the threshold, or a user predicate's results being nonzero. */
typedef struct flag_source {
    const char *helpers;   /* section of glsl/compact.glsl the flags call, or NULL */
    const char *op;        /* the comparison's GLSL function (float_flags' $OPFN) */
    char params[64];       /* the mask kernel's parameters */
    char flags[192];       /* GLSL ivec4 expression of tx: 1 where the element survives */
    gpuc_arg args[3];      /* the arguments for `params` */
    int nargs;
    gpuc_array *keep;      /* a predicate's results (owned) */
} flag_source;

/* Four consecutive elements of an int array `a` (int arrays have no vec4 view to read a texel with). */
#define INT_TEXEL(a) "ivec4(" a "[4 * tx], " a "[4 * tx + 1], " a "[4 * tx + 2], " a "[4 * tx + 3])"

/* glsl/compact.glsl's order key of a float, computed here for the threshold (COMPACT_NAN_KEY for NaN). */
static int32_t float_order_key(float t)
{
    uint32_t b;
    memcpy(&b, &t, sizeof b);
    int32_t m = (int32_t)(b & 0x7fffffffu);
    if (m > 0x7f800000)
        return 0x7fffffff;
    return (b & 0x80000000u) ? -m : m;
}

/* Int values compare as ints. Float values compare by order keys (glsl/compact.glsl), so that both
 * backends keep what C's comparison keeps: denormals are not zero, -0.0 equals 0.0, and NaN on
 * either side passes only GPUC_NOT_EQUAL. Float values are read a texel (4 values) at a time. */
static void threshold_source(const gpuc_compact_desc *desc, const gpuc_array *values, gpuc_type type,
                             uint32_t n, flag_source *src)
{
    src->args[0] = gpuc_arg_array(values);
    src->args[2] = gpuc_arg_i32((int32_t)n);
    src->nargs = 3;
    if (type == GPUC_INT) {
        snprintf(src->params, sizeof src->params, "int v[], int threshold, int n");
        snprintf(src->flags, sizeof src->flags, "ivec4(%s(" INT_TEXEL("v") ", ivec4(threshold)))",
                 op_vector_glsl(desc->op));
        src->args[1] = gpuc_arg_i32((int32_t)desc->threshold);
        return;
    }
    src->helpers = desc->op == GPUC_NOT_EQUAL ? "float_flags_not_equal" : "float_flags";
    src->op = op_vector_glsl(desc->op);
    snprintf(src->params, sizeof src->params, "vec4 v[], int thresholdKey, int n");
    snprintf(src->flags, sizeof src->flags, "compactFloatFlags(v[tx], thresholdKey)");
    src->args[1] = gpuc_arg_i32(float_order_key((float)desc->threshold));
}

/* Runs the user's predicate kernel over the values; nonzero results keep. */
static gpuc_status predicate_source(gpuc *gpu, const char *source, const gpuc_array *values, uint32_t n,
                                    flag_source *src)
{
    gpuc_kernel *user = NULL;
    gpuc_status st =
        algo_kernel_get(gpu, source, &(gpuc_kernel_desc){.output = {.x = n}, .pipeline = true}, &user);
    if (st == GPUC_OK && gpuc_kernel_arg_count(user) != 1)
        st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                       "gpuc_compact: the predicate kernel takes %d arguments; it must take one, the values array",
                       gpuc_kernel_arg_count(user));
    gpuc_type rt = user ? gpuc_kernel_return_type(user) : GPUC_TYPE_NONE;
    if (st == GPUC_OK && rt != GPUC_INT && rt != GPUC_FLOAT)
        st = gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH,
                       "gpuc_compact: the predicate kernel returns %s; it must return int or float (nonzero keeps)",
                       rt == GPUC_VEC2 ? "vec2" : rt == GPUC_VEC3 ? "vec3" : "vec4");
    if (st == GPUC_OK)
        st = gpuc_run(user, (gpuc_arg[]){gpuc_arg_array(values)}, 1, &src->keep);
    if (st != GPUC_OK)
        return st;
    src->helpers = "nonzero_flags";
    if (rt == GPUC_FLOAT) {
        snprintf(src->params, sizeof src->params, "vec4 keep[], int n");
        snprintf(src->flags, sizeof src->flags, "compactNonzero(keep[tx])");
    } else {
        snprintf(src->params, sizeof src->params, "int keep[], int n");
        snprintf(src->flags, sizeof src->flags, "compactNonzero(" INT_TEXEL("keep") ")");
    }
    src->args[0] = gpuc_arg_array(src->keep);
    src->args[1] = gpuc_arg_i32((int32_t)n);
    src->nargs = 2;
    return GPUC_OK;
}

/* The mask kernel's 8 texels, written out (glsl/compact.glsl's mask_term, K = 0 .. 7). */
static char *mask_terms(const char *flags)
{
    strbuf sb = {0};
    for (int k = 0; k < COMPACT_BLOCK / 4; k++) {
        char kk[8];
        snprintf(kk, sizeof kk, "%d", k);
        const char *fields[] = {"K", kk, "FLAGS", flags, NULL};
        glsl_emit(&sb, gpuc_glsl_compact, "mask_term", fields);
    }
    return strbuf_take(&sb);
}

/* Each block's flags as a bit mask: the one evaluation of the predicate. */
static gpuc_status block_masks(gpuc *gpu, const flag_source *src, gpuc_type type, compact_survivors *s)
{
    char *terms = mask_terms(src->flags);
    if (!terms)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_compact: out of host memory");
    const char *with_helpers[] = {"order_key", src->helpers, "block_masks", NULL};
    const char *without[] = {"order_key", "block_masks", NULL};
    const char *fields[] = {"PARAMS", src->params, "MASK_TERMS", terms, "OPFN", src->op ? src->op : "", NULL};
    gpuc_kernel *k;
    gpuc_status st = compact_kernel(gpu, type, src->helpers ? with_helpers : without, fields,
                                    (gpuc_kernel_desc){.output = {.x = s->blocks}}, &k);
    free(terms);
    if (st != GPUC_OK)
        return st;
    st = gpuc_run(k, src->args, src->nargs, &s->masks);
    return st;
}

/* The survivors before each block: the exclusive scan of the masks' bit counts (counted by the
 * scan's bottom level itself, so the counts need no pass and no array of their own). Up to
 * SCAN_TOP blocks the scan's one pass also sums them all (*total_at_end: before[blocks] is the
 * count). */
static gpuc_status survivors_before_blocks(gpuc *gpu, compact_survivors *s, bool *total_at_end)
{
    return scan_device(gpu, s->masks, GPUC_INT, s->blocks, SCAN_BIT_COUNTS | SCAN_TOTAL, &s->before,
                       total_at_end);
}

/* The number of survivors, read back: the scan's own total where it has one (all of its at most
 * SCAN_TOP + 1 values: a read back costs its wait, not its few bytes), else one value a kernel sums. */
static gpuc_status read_count(gpuc *gpu, compact_survivors *s, bool total_at_end)
{
    if (total_at_end) {
        int32_t before[SCAN_TOP + 1];
        gpuc_status st = gpuc_array_read_i32(s->before, before, s->blocks + 1);
        if (st == GPUC_OK)
            s->count = (uint32_t)before[s->blocks];
        return st;
    }
    gpuc_kernel *k;
    gpuc_array *total = NULL;
    gpuc_status st = compact_kernel(gpu, s->type, (const char *[]){"count", NULL}, NULL,
                                    (gpuc_kernel_desc){.output = {.x = 1}}, &k);
    if (st == GPUC_OK)
        st = gpuc_run(k,
                      (gpuc_arg[]){gpuc_arg_array(s->before), gpuc_arg_array(s->masks),
                                   gpuc_arg_i32((int32_t)s->blocks)},
                      3, &total);
    int32_t c = 0;
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(total, &c, 1);
    gpuc_array_free(total);
    s->count = (uint32_t)c;
    return st;
}

gpuc_status compact_count(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n,
                          const gpuc_compact_desc *desc, compact_survivors *s)
{
    *s = (compact_survivors){.type = type,
                             .n = n,
                             .blocks = (n + COMPACT_BLOCK - 1) / COMPACT_BLOCK};
    flag_source src = {0};
    gpuc_status st = GPUC_OK;
    if (desc->predicate)
        st = predicate_source(gpu, desc->predicate, values, n, &src);
    else
        threshold_source(desc, values, type, n, &src);
    if (st == GPUC_OK)
        st = block_masks(gpu, &src, type, s);
    gpuc_array_free(src.keep);
    bool total_at_end = false;
    if (st == GPUC_OK)
        st = survivors_before_blocks(gpu, s, &total_at_end);
    if (st == GPUC_OK)
        st = read_count(gpu, s, total_at_end);
    if (st != GPUC_OK)
        compact_survivors_free(s);
    return st;
}

void compact_survivors_free(compact_survivors *s)
{
    gpuc_array_free(s->masks);
    gpuc_array_free(s->before);
    s->masks = s->before = NULL;
}
