/* compact.c - stream compaction (gpuc_compact). The predicate is evaluated once per element into one
 * bit mask per block of 16 elements; the masks' bit counts are scanned (src/algo/scan.c) into running
 * counts, one number (the total) is read back, and the survivors are placed in input order: by a
 * gather (one cell per survivor: binary search over the blocks, then its rank in the block's mask) or
 * by a scatter (one invocation per element writes itself to its slot). The gather's search is
 * written out without a loop (a loop-free kernel computes several cells per invocation, far cheaper
 * on llvmpipe), as many halvings as the widest range any group of 16 cells must search, which one
 * more number read back gives. */
#include "algo/scan.h"
#include "kernel/glsl_template.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *op_glsl(gpuc_compare op)
{
    switch (op) {
    case GPUC_GREATER: return ">";
    case GPUC_GREATER_EQUAL: return ">=";
    case GPUC_LESS: return "<";
    case GPUC_LESS_EQUAL: return "<=";
    case GPUC_EQUAL: return "==";
    case GPUC_NOT_EQUAL: return "!=";
    default: return NULL;
    }
}

static gpuc_status check_desc(gpuc *gpu, const gpuc_compact_desc *desc, gpuc_type type)
{
    if (!desc)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: desc is NULL (set .op and .threshold, or "
                                                          ".predicate)");
    if (desc->method != GPUC_COMPACT_GATHER && desc->method != GPUC_COMPACT_SCATTER)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: method %d is not a gpuc_compact_method",
                         (int)desc->method);
    if (desc->method == GPUC_COMPACT_SCATTER && gpu->info.backend == GPUC_BACKEND_FRAGMENT)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: the scatter method is compute-only (a "
                                                          "fragment shader writes only its own cell); this context "
                                                          "uses the fragment backend: use GPUC_COMPACT_GATHER");
    if (desc->predicate && desc->op != GPUC_COMPARE_NONE)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: set either .op or .predicate, not both");
    if (desc->predicate)
        return GPUC_OK;
    if (!op_glsl(desc->op))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_compact: op %d is not a comparison (GPUC_GREATER ... GPUC_NOT_EQUAL); give .op and "
                         ".threshold, or a .predicate kernel", (int)desc->op);
    if (type == GPUC_FLOAT)
        return GPUC_OK;
    double t = desc->threshold;
    if (!(t == floor(t) && t >= -2147483648.0 && t <= 2147483647.0)) /* false for NaN too */
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_compact: threshold %g is not a 32-bit integer, as int values need", desc->threshold);
    return GPUC_OK;
}

/* Elements per block: survivors are counted, scanned and placed per block (glsl/compact.glsl). */
#define COMPACT_BLOCK 16
/* Output cells of the gather that share one full binary search (their group's starting block). */
#define GATHER_GROUP 16

/* Where the kernels get each element's flag from: a comparison of the values with a threshold, or a
 * user predicate's results. The block_masks kernel evaluates `flag` for each element i of a block. */
typedef struct flag_source {
    gpuc_type type;       /* of the values */
    uint32_t blocks;      /* of COMPACT_BLOCK elements */
    uint32_t span;        /* the gather's widest search range, in blocks */
    char params[96];      /* the kernel parameters `flag` needs */
    char flag[160];       /* GLSL: is element i kept? */
    gpuc_arg args[3];     /* the arguments for `params` */
    gpuc_array *keep;     /* a predicate's results (owned) */
} flag_source;

/* Cells of the first step of the span reduction: fixed, so its program is made once per context;
 * 2^26 groups at most (n <= 2^30) leaves each cell 2^15 of them, inside llvmpipe's loop budget. */
#define SPAN_PARTIALS 2048

/* The gather's binary search written out (no loop): enough halvings for a range of `span` blocks,
 * rounded up to a multiple of 4 so that data of similar density shares one program. */
static char *search_steps(uint32_t span)
{
    int steps = 0;
    for (uint32_t range = span + 1; range > 0; range >>= 1)
        steps++;
    steps = (steps + 3) / 4 * 4;
    strbuf sb = {0};
    for (int i = 0; i < steps; i++)
        glsl_emit(&sb, gpuc_glsl_compact, "search_step", NULL);
    return strbuf_take(&sb);
}

static gpuc_status compact_source(gpuc *gpu, const char *const *sections, const flag_source *src, char **source)
{
    char block[16], group[16], partials[16];
    snprintf(block, sizeof block, "%d", COMPACT_BLOCK);
    snprintf(group, sizeof group, "%d", GATHER_GROUP);
    snprintf(partials, sizeof partials, "%d", SPAN_PARTIALS);
    char *search = search_steps(src->span);
    if (!search)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_compact: out of host memory");
    const char *fields[] = {"T",     algo_glsl_type(src->type), "BLOCK",  block,       "GROUP", group,
                            "PARAMS", src->params,             "FLAG",   src->flag,   "SEARCH", search,
                            "SPAN_PARTIALS", partials, NULL};
    gpuc_status st = algo_source(gpu, gpuc_glsl_compact, sections, fields, source);
    free(search);
    return st;
}

static gpuc_status compact_kernel(gpuc *gpu, const char *const *sections, const flag_source *src,
                                  gpuc_kernel_desc desc, gpuc_kernel **k)
{
    char *source;
    gpuc_status st = compact_source(gpu, sections, src, &source);
    if (st != GPUC_OK)
        return st;
    desc.pipeline = true;
    st = gpuc_create_kernel(gpu, source, &desc, k);
    free(source);
    return st;
}

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
 * either side passes only GPUC_NOT_EQUAL. */
static void threshold_source(const gpuc_compact_desc *desc, const gpuc_array *values, flag_source *src)
{
    const char *op = op_glsl(desc->op);
    src->args[0] = gpuc_arg_array(values);
    src->args[2] = gpuc_arg_i32((int32_t)values->cells);
    if (src->type == GPUC_INT) {
        snprintf(src->params, sizeof src->params, "int v[], int threshold, int n");
        snprintf(src->flag, sizeof src->flag, "i < n && v[i] %s threshold", op);
        src->args[1] = gpuc_arg_i32((int32_t)desc->threshold);
        return;
    }
    snprintf(src->params, sizeof src->params, "float v[], int thresholdKey, int n");
    if (desc->op == GPUC_NOT_EQUAL)
        snprintf(src->flag, sizeof src->flag,
                 "i < n && (!compactOrdered(v[i], thresholdKey) || compactKey(v[i]) != thresholdKey)");
    else
        snprintf(src->flag, sizeof src->flag,
                 "i < n && compactOrdered(v[i], thresholdKey) && compactKey(v[i]) %s thresholdKey", op);
    src->args[1] = gpuc_arg_i32(float_order_key((float)desc->threshold));
}

/* Runs the user's predicate kernel over the values; nonzero results keep. */
static gpuc_status predicate_source(gpuc *gpu, const char *source, const gpuc_array *values, flag_source *src)
{
    gpuc_kernel *user = NULL;
    gpuc_status st = gpuc_create_kernel(
        gpu, source, &(gpuc_kernel_desc){.output = {.x = (uint32_t)values->cells}, .pipeline = true}, &user);
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
    gpuc_kernel_free(user);
    if (st != GPUC_OK)
        return st;
    const char *kt = algo_glsl_type(rt);
    snprintf(src->params, sizeof src->params, "%s v[], %s keep[], int n", algo_glsl_type(src->type), kt);
    snprintf(src->flag, sizeof src->flag, "i < n && compactNonzero(keep[i])");
    src->args[0] = gpuc_arg_array(values);
    src->args[1] = gpuc_arg_array(src->keep);
    src->args[2] = gpuc_arg_i32((int32_t)values->cells);
    return GPUC_OK;
}

/* Each block's flags as a bit mask (the one evaluation of the predicate), and the running count at
 * the end of each block: an inclusive scan of the masks' bit counts. */
static gpuc_status block_masks_and_counts(gpuc *gpu, const flag_source *src, uint32_t blocks, gpuc_array **masks,
                                          gpuc_array **running)
{
    gpuc_kernel *mk = NULL, *ck = NULL;
    gpuc_array *counts = NULL;
    gpuc_kernel_desc kd = {.output = {.x = blocks}};
    gpuc_status st = compact_kernel(gpu, (const char *[]){"order_key", "block_masks", NULL}, src, kd, &mk);
    if (st == GPUC_OK)
        st = compact_kernel(gpu, (const char *[]){"block_counts", NULL}, src, kd, &ck);
    if (st == GPUC_OK)
        st = gpuc_run(mk, src->args, 3, masks);
    if (st == GPUC_OK)
        st = gpuc_run(ck, (gpuc_arg[]){gpuc_arg_array(*masks)}, 1, &counts);
    if (st == GPUC_OK)
        st = scan_device(gpu, counts, GPUC_INT, blocks, true, running);
    gpuc_kernel_free(mk);
    gpuc_kernel_free(ck);
    gpuc_array_free(counts);
    return st;
}

/* The number of survivors: the last running count, read back as one value. */
static gpuc_status read_count(gpuc *gpu, const gpuc_array *running, uint32_t blocks, uint32_t *count)
{
    gpuc_kernel *k;
    gpuc_array *total = NULL;
    gpuc_status st = algo_kernel(gpu, gpuc_glsl_compact, (const char *[]){"count", NULL}, NULL, 1, &k);
    if (st == GPUC_OK)
        st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(running), gpuc_arg_i32((int32_t)blocks)}, 2, &total);
    int32_t c = 0;
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(total, &c, 1);
    gpuc_kernel_free(k);
    gpuc_array_free(total);
    *count = (uint32_t)c;
    return st;
}

/* Where each group of GATHER_GROUP gather cells starts its search (one more entry closes the last). */
static gpuc_status gather_starts(gpuc *gpu, const flag_source *src, const gpuc_array *running, uint32_t groups,
                                 gpuc_array **starts)
{
    gpuc_kernel *k;
    gpuc_status st = compact_kernel(gpu, (const char *[]){"gather_starts", NULL}, src,
                                    (gpuc_kernel_desc){.output = {.x = groups + 1}}, &k);
    if (st != GPUC_OK)
        return st;
    st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(running), gpuc_arg_i32((int32_t)src->blocks)}, 2, starts);
    gpuc_kernel_free(k);
    return st;
}

/* The widest range of blocks a group's search covers (read back: it sizes the gather's search). */
static gpuc_status widest_span(gpuc *gpu, flag_source *src, const gpuc_array *starts, uint32_t groups)
{
    gpuc_kernel *partial = NULL, *top = NULL;
    gpuc_array *partials = NULL, *widest = NULL;
    gpuc_status st = compact_kernel(gpu, (const char *[]){"span_partial", NULL}, src,
                                    (gpuc_kernel_desc){.output = {.x = SPAN_PARTIALS}}, &partial);
    if (st == GPUC_OK)
        st = compact_kernel(gpu, (const char *[]){"span_max", NULL}, src, (gpuc_kernel_desc){.output = {.x = 1}}, &top);
    if (st == GPUC_OK)
        st = gpuc_run(partial, (gpuc_arg[]){gpuc_arg_array(starts), gpuc_arg_i32((int32_t)groups)}, 2, &partials);
    if (st == GPUC_OK)
        st = gpuc_run(top, (gpuc_arg[]){gpuc_arg_array(partials), gpuc_arg_i32(SPAN_PARTIALS)}, 2, &widest);
    int32_t span = 0;
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(widest, &span, 1);
    src->span = (uint32_t)span + 1;
    gpuc_kernel_free(partial);
    gpuc_kernel_free(top);
    gpuc_array_free(partials);
    gpuc_array_free(widest);
    return st;
}

/* Places the survivors into a new array of `cells` cells (gpuc_run's new array is zero where a
 * scatter writes nothing; the gather returns 0 past the count). */
static gpuc_status place(gpuc *gpu, const gpuc_compact_desc *desc, flag_source *src, const gpuc_array *masks,
                         const gpuc_array *running, uint32_t n, uint32_t blocks, uint32_t cells, gpuc_array **packed)
{
    bool scatter = desc->method == GPUC_COMPACT_SCATTER;
    gpuc_kernel_desc kd = {.output = {.x = cells}};
    if (scatter) {
        kd.scatter = true;
        kd.threads = (gpuc_dims){.x = n};
    }
    gpuc_kernel *k = NULL;
    gpuc_array *starts = NULL;
    const char *sections[] = {scatter ? "scatter" : "gather", NULL};
    uint32_t groups = (cells + GATHER_GROUP - 1) / GATHER_GROUP;
    gpuc_status st = scatter ? GPUC_OK : gather_starts(gpu, src, running, groups, &starts);
    if (st == GPUC_OK && !scatter)
        st = widest_span(gpu, src, starts, groups);
    if (st == GPUC_OK)
        st = compact_kernel(gpu, sections, src, kd, &k);
    if (st == GPUC_OK && scatter)
        st = gpuc_run(k, (gpuc_arg[]){src->args[0], gpuc_arg_array(masks), gpuc_arg_array(running)}, 3, packed);
    else if (st == GPUC_OK)
        st = gpuc_run(k, (gpuc_arg[]){src->args[0], gpuc_arg_array(masks), gpuc_arg_array(running),
                                      gpuc_arg_array(starts), gpuc_arg_i32((int32_t)blocks)}, 5, packed);
    gpuc_kernel_free(k);
    gpuc_array_free(starts);
    return st;
}

static gpuc_status compact_device(gpuc *gpu, const gpuc_array *values, algo_input in, const gpuc_compact_desc *desc,
                                  gpuc_array **packed, size_t *count)
{
    uint32_t blocks = (in.n + COMPACT_BLOCK - 1) / COMPACT_BLOCK, survivors = 0;
    flag_source src = {.type = in.type, .blocks = blocks};
    gpuc_array *masks = NULL, *running = NULL, *out = NULL;
    gpuc_status st = GPUC_OK;
    if (desc->predicate)
        st = predicate_source(gpu, desc->predicate, values, &src);
    else
        threshold_source(desc, values, &src);
    if (st == GPUC_OK)
        st = block_masks_and_counts(gpu, &src, blocks, &masks, &running);
    if (st == GPUC_OK)
        st = read_count(gpu, running, blocks, &survivors);
    uint32_t cells = desc->full_length ? in.n : survivors;
    if (st == GPUC_OK && cells > 0)
        st = place(gpu, desc, &src, masks, running, in.n, blocks, cells, &out);
    gpuc_array_free(src.keep);
    gpuc_array_free(masks);
    gpuc_array_free(running);
    if (st != GPUC_OK)
        return st;
    *packed = out;
    *count = survivors;
    return GPUC_OK;
}

gpuc_status gpuc_compact(gpuc *gpu, gpuc_arg values, const gpuc_compact_desc *desc, gpuc_array **packed,
                         size_t *count)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!packed || !count)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: %s is NULL", !packed ? "packed" : "count");
    algo_input in;
    st = algo_check_input(gpu, "gpuc_compact", "values", values, &in);
    if (st == GPUC_OK)
        st = check_desc(gpu, desc, in.type);
    const gpuc_array *array = NULL;
    gpuc_array *upload = NULL;
    if (st == GPUC_OK)
        st = algo_device_input(gpu, values, &array, &upload);
    if (st == GPUC_OK)
        st = compact_device(gpu, array, in, desc, packed, count);
    gpuc_array_free(upload);
    return st;
}
