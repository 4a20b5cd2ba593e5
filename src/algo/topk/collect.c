/* collect.c - gathers the k survivors of the cutoff in index order without scatter (the kernel
 * API is gather-only). Per group of GROUP elements, count the keys above and equal to the cutoff; sum
 * those counts GROUP at a time up a small tree until one level fits in a group; then walk back down,
 * each cell's exclusive prefix being its parent's plus the counts before it in its group. Every loop is
 * at most GROUP long, whatever n. Last, output slot j binary-searches the group holding survivor j and
 * walks its GROUP elements. All on the device; nothing is read back. */
#include "algo/topk/parts.h"

#include <string.h>

/* Elements per leaf group, and groups per group one level up. Small, so that the final walk of each
 * output slot is short; 64^6 > 2^31 bounds the levels. */
#define GROUP 64
#define MAX_LEVELS 6

typedef struct prefix_tree {
    int levels; /* level 0: groups of GROUP elements; the top level has at most GROUP cells */
    size_t size[MAX_LEVELS];
    gpuc_kernel *count;              /* leaf counts, [size[0]] */
    gpuc_kernel *sum[MAX_LEVELS];    /* level l > 0 from level l - 1 */
    gpuc_kernel *prefix[MAX_LEVELS]; /* exclusive prefix of level l */
    gpuc_array *zero;                /* the top level's parent: one 0 */
    gpuc_array *counts[2][MAX_LEVELS], *before[2][MAX_LEVELS]; /* [0]: keys > cutoff, [1]: keys == cutoff */
} prefix_tree;

static void tree_free(prefix_tree *t)
{
    gpuc_array_free(t->zero);
    for (int l = 0; l < MAX_LEVELS; l++) {
        for (int w = 0; w < 2; w++) {
            gpuc_array_free(t->counts[w][l]);
            gpuc_array_free(t->before[w][l]);
        }
    }
}

static gpuc_status level_make(gpuc *gpu, prefix_tree *t, int l)
{
    const gpuc_dims dims = {(uint32_t)t->size[l], 0, 0};
    const gpuc_constant chunk[] = {{.name = "chunk", .value = GROUP, .type = GPUC_INT}};
    const gpuc_constant group[] = {{.name = "group", .value = GROUP, .type = GPUC_INT}};
    gpuc_status st = l == 0 ? topk_make_kernel(gpu, gpuc_glsl_topk, "count_vs_cutoff", dims, chunk, 1, true, &t->count)
                            : topk_make_kernel(gpu, gpuc_glsl_topk, "sum_chunks", dims, chunk, 1, true, &t->sum[l]);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk, "exclusive_prefix", dims, group, 1, true, &t->prefix[l]);
    for (int w = 0; w < 2 && st == GPUC_OK; w++) {
        st = gpuc_array_new(gpu, GPUC_INT, dims, &t->counts[w][l]);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, GPUC_INT, dims, &t->before[w][l]);
    }
    return st;
}

static gpuc_status tree_make(gpuc *gpu, size_t n, prefix_tree *t)
{
    memset(t, 0, sizeof *t);
    size_t size = (n + GROUP - 1) / GROUP;
    gpuc_status st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){1, 0, 0}, &t->zero);
    while (st == GPUC_OK && t->levels < MAX_LEVELS) {
        t->size[t->levels] = size;
        st = level_make(gpu, t, t->levels++);
        if (size <= GROUP)
            break;
        size = (size + GROUP - 1) / GROUP;
    }
    return st;
}

/* before[which][0][g] = how many keys of groups 0..g-1 are above (which = 0) or equal to (1) the cutoff. */
static gpuc_status tree_run(prefix_tree *t, const topk_input *in, int32_t flip, uint32_t cutoff, int which)
{
    gpuc_arg count_args[] = {gpuc_arg_array(in->array), gpuc_arg_i32((int32_t)in->n), gpuc_arg_i32((int32_t)cutoff),
                             gpuc_arg_i32(flip), gpuc_arg_i32(which)};
    gpuc_status st = gpuc_run_to(t->count, count_args, 5, t->counts[which][0]);
    for (int l = 1; l < t->levels && st == GPUC_OK; l++) {
        gpuc_arg args[] = {gpuc_arg_array(t->counts[which][l - 1]), gpuc_arg_i32((int32_t)t->size[l - 1])};
        st = gpuc_run_to(t->sum[l], args, 2, t->counts[which][l]);
    }
    for (int l = t->levels - 1; l >= 0 && st == GPUC_OK; l--) {
        const gpuc_array *parent = l == t->levels - 1 ? t->zero : t->before[which][l + 1];
        gpuc_arg args[] = {gpuc_arg_array(t->counts[which][l]), gpuc_arg_array(parent)};
        st = gpuc_run_to(t->prefix[l], args, 2, t->before[which][l]);
    }
    return st;
}

static gpuc_status gather(gpuc *gpu, const topk_input *in, const prefix_tree *t, size_t k, int32_t flip,
                          uint32_t cutoff, int64_t greater, gpuc_array *out)
{
    const gpuc_constant chunk[] = {{.name = "chunk", .value = GROUP, .type = GPUC_INT}};
    gpuc_kernel *collect = NULL;
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "collect", gpuc_array_dims(out), chunk, 1, true,
                                      &collect);
    if (st == GPUC_OK) {
        gpuc_arg args[] = {gpuc_arg_array(in->array),      gpuc_arg_array(t->before[0][0]),
                           gpuc_arg_array(t->before[1][0]), gpuc_arg_i32((int32_t)in->n),
                           gpuc_arg_i32((int32_t)t->size[0]), gpuc_arg_i32((int32_t)k),
                           gpuc_arg_i32((int32_t)cutoff),    gpuc_arg_i32(flip),
                           gpuc_arg_i32((int32_t)((int64_t)k - greater))};
        st = gpuc_run_to(collect, args, 9, out);
    }
    return st;
}

gpuc_status topk_collect(gpuc *gpu, const topk_input *in, size_t k, size_t padded, int32_t flip, uint32_t cutoff,
                         int64_t greater, gpuc_array **indices)
{
    prefix_tree t;
    gpuc_array *out = NULL;
    gpuc_status st = tree_make(gpu, in->n, &t);
    for (int which = 0; which < 2 && st == GPUC_OK; which++)
        st = tree_run(&t, in, flip, cutoff, which);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){(uint32_t)padded, 0, 0}, &out);
    if (st == GPUC_OK)
        st = gather(gpu, in, &t, k, flip, cutoff, greater, out);
    tree_free(&t);
    if (st == GPUC_OK)
        *indices = out;
    else
        gpuc_array_free(out);
    return st;
}
