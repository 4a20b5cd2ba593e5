/* topk_collect.c - gathers the k survivors of the cutoff in index order without scatter (the kernel
 * API is gather-only): per-chunk counts of keys above and equal to the cutoff, their exclusive prefix
 * sums over chunks (block totals, then each chunk adds the blocks and chunks before it), and a gather
 * in which output slot j binary-searches the chunk that holds survivor j and walks it. All on the
 * device; nothing is read back. */
#include "algo/topk_parts.h"

/* Chunks per block of the prefix sum: a prefix cell loops over (chunks / block) + block counts. */
#define PREFIX_BLOCK 128

typedef struct collect_parts {
    gpuc_kernel *count, *block_sum, *prefix, *gather;
    gpuc_array *counts[2], *totals[2], *before[2]; /* [0]: keys > cutoff, [1]: keys == cutoff */
} collect_parts;

static void parts_free(collect_parts *p)
{
    gpuc_kernel_free(p->count);
    gpuc_kernel_free(p->block_sum);
    gpuc_kernel_free(p->prefix);
    gpuc_kernel_free(p->gather);
    for (int i = 0; i < 2; i++) {
        gpuc_array_free(p->counts[i]);
        gpuc_array_free(p->totals[i]);
        gpuc_array_free(p->before[i]);
    }
}

static gpuc_status parts_make(gpuc *gpu, size_t m, size_t padded, collect_parts *p)
{
    size_t blocks = (m + PREFIX_BLOCK - 1) / PREFIX_BLOCK;
    const gpuc_dims chunks = {(uint32_t)m, 0, 0}, block_dims = {(uint32_t)blocks, 0, 0};
    const gpuc_constant chunk[] = {{"chunk", TOPK_CHUNK, GPUC_INT}};
    const gpuc_constant block_chunk[] = {{"chunk", PREFIX_BLOCK, GPUC_INT}};
    const gpuc_constant block[] = {{"block", PREFIX_BLOCK, GPUC_INT}};
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk, "count_vs_cutoff", chunks, chunk, 1, true, &p->count);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk, "sum_chunks", block_dims, block_chunk, 1, true, &p->block_sum);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk, "exclusive_prefix", chunks, block, 1, true, &p->prefix);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "collect", (gpuc_dims){(uint32_t)padded, 0, 0}, chunk, 1, true, &p->gather);
    for (int i = 0; i < 2 && st == GPUC_OK; i++) {
        st = gpuc_array_new(gpu, GPUC_INT, chunks, &p->counts[i]);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, GPUC_INT, block_dims, &p->totals[i]);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, GPUC_INT, chunks, &p->before[i]);
    }
    return st;
}

/* before[which][c] = how many keys of chunks 0..c-1 are above (which = 0) or equal to (1) the cutoff. */
static gpuc_status chunk_prefix(collect_parts *p, const topk_input *in, int32_t flip, uint32_t cutoff, int which)
{
    int32_t m = (int32_t)gpuc_array_cells(p->counts[which]);
    gpuc_arg count_args[] = {gpuc_arg_array(in->array), gpuc_arg_i32((int32_t)in->n), gpuc_arg_i32((int32_t)cutoff),
                             gpuc_arg_i32(flip), gpuc_arg_i32(which)};
    gpuc_status st = gpuc_run_to(p->count, count_args, 5, p->counts[which]);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->block_sum, (gpuc_arg[]){gpuc_arg_array(p->counts[which]), gpuc_arg_i32(m)}, 2,
                         p->totals[which]);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->prefix,
                         (gpuc_arg[]){gpuc_arg_array(p->counts[which]), gpuc_arg_array(p->totals[which])}, 2,
                         p->before[which]);
    return st;
}

gpuc_status topk_collect(gpuc *gpu, const topk_input *in, size_t k, size_t padded, int32_t flip, uint32_t cutoff,
                         int64_t greater, gpuc_array **indices)
{
    size_t m = (in->n + TOPK_CHUNK - 1) / TOPK_CHUNK;
    collect_parts p = {0};
    gpuc_array *out = NULL;
    gpuc_status st = parts_make(gpu, m, padded, &p);
    for (int which = 0; which < 2 && st == GPUC_OK; which++)
        st = chunk_prefix(&p, in, flip, cutoff, which);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){(uint32_t)padded, 0, 0}, &out);
    if (st == GPUC_OK) {
        gpuc_arg args[] = {gpuc_arg_array(in->array), gpuc_arg_array(p.before[0]), gpuc_arg_array(p.before[1]),
                           gpuc_arg_i32((int32_t)in->n),      gpuc_arg_i32((int32_t)m),
                           gpuc_arg_i32((int32_t)k),          gpuc_arg_i32((int32_t)cutoff),
                           gpuc_arg_i32(flip),                gpuc_arg_i32((int32_t)((int64_t)k - greater))};
        st = gpuc_run_to(p.gather, args, 9, out);
    }
    parts_free(&p);
    if (st == GPUC_OK)
        *indices = out;
    else
        gpuc_array_free(out);
    return st;
}
