/* scan.c - prefix sums on the device (gpuc_scan, the survivors before each block of compaction, the
 * run starts of the radix sort). Level 0 is the input; each level above holds the sums of blocks of
 * the level below, until a level is at most SCAN_TOP values, which one pass adds up from its start.
 * Going back down, each level's scan is its block's offset (the scan of the level above) plus a short
 * in-block sum, so every invocation below the top reads at most one block. */
#include "algo/scan.h"
#include "algo/algo_twin.h"

#include "kernel/codegen/glsl_template.h"

#include <stdio.h>
#include <stdlib.h>

/* Values per block: 4 (one texel) at level 0, so each of the n cells of the final pass reads at most
 * 4 values; 16 above, where levels are 4x smaller and fewer levels mean fewer passes. */
#define SCAN_BLOCK_0 4
#define SCAN_BLOCK 16
/* SCAN_TOP (scan.h), the longest level the top pass adds up (each of its cells loops over the values
 * before it): one pass instead of the two to four a tree of 16-value blocks takes there, and every
 * dispatch costs 0.03-0.05 ms on llvmpipe whatever its size, where 256 cells of at most 256
 * additions cost less. */

static uint32_t block_of(int level)
{
    return level == 0 ? SCAN_BLOCK_0 : SCAN_BLOCK;
}

/* The terms of one block's sum, written out (glsl/compact.glsl's sum_term, K = 0 .. block - 1). */
static char *sum_terms(gpuc_type type, uint32_t block, const char *load)
{
    strbuf sb = {0};
    for (uint32_t k = 0; k < block; k++) {
        char kk[16];
        snprintf(kk, sizeof kk, "%u", k);
        const char *fields[] = {"T", algo_glsl_type(type), "K", kk, "LOAD", load, NULL};
        glsl_emit(&sb, gpuc_glsl_compact, "sum_term", fields);
    }
    return strbuf_take(&sb);
}

/* The context's kernel of `section` for level `level` of the plan, with output {cells}. */
static gpuc_status scan_kernel(gpuc *gpu, const scan_plan *p, const char *section, int level, uint32_t cells,
                               gpuc_kernel **k)
{
    char block[16], top[16];
    snprintf(block, sizeof block, "%u", block_of(level));
    snprintf(top, sizeof top, "%d", SCAN_TOP);
    const char *load = level == 0 && (p->flags & SCAN_BIT_COUNTS) ? "bitCount" : "";
    char *terms = sum_terms(p->type, block_of(level), load);
    if (!terms)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_scan: out of host memory");
    const char *sections[] = {section, NULL};
    const char *fields[] = {"T",   algo_glsl_type(p->type), "BLOCK", block, "SUM_TERMS", terms, "LOAD", load,
                            "TOP", top,                     NULL};
    gpuc_status st = algo_kernel(gpu, gpuc_glsl_compact, sections, fields, cells, k);
    free(terms);
    return st;
}

gpuc_status scan_plan_make(gpuc *gpu, gpuc_type type, uint32_t n, unsigned flags, scan_plan *p)
{
    *p = (scan_plan){.type = type, .flags = flags, .len = {n}};
    /* The total is the exclusive scan's cell n, which sums the n values; an inclusive one's would
     * read one past them. */
    p->has_total = (flags & SCAN_TOTAL) && !(flags & SCAN_INCLUSIVE) && n <= SCAN_TOP;
    gpuc_status st = GPUC_OK;
    int k = 0;
    while (st == GPUC_OK && p->len[k] > SCAN_TOP) {
        p->len[k + 1] = (p->len[k] + block_of(k) - 1) / block_of(k);
        k++;
        st = gpuc_array_make(gpu, type, (gpuc_dims){.x = p->len[k]}, ARRAY_OVERWRITTEN, &p->sums[k]);
    }
    p->top = k;
    for (int j = 0; st == GPUC_OK && j <= p->top; j++)
        st = gpuc_array_make(gpu, type, (gpuc_dims){.x = p->len[j] + (j == 0 && p->has_total)}, ARRAY_OVERWRITTEN,
                             &p->prefix[j]);
    if (st != GPUC_OK)
        scan_plan_free(p);
    return st;
}

gpuc_status scan_plan_run(gpuc *gpu, scan_plan *p, const gpuc_array *values)
{
    gpuc_kernel *k = NULL;
    gpuc_status st = GPUC_OK;
    /* Up: block sums, level upon level, to the top. */
    for (int j = 0; st == GPUC_OK && j < p->top; j++) {
        st = scan_kernel(gpu, p, "scan_block_sums", j, p->len[j + 1], &k);
        if (st == GPUC_OK)
            st = gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(j == 0 ? values : p->sums[j])}, 1, p->sums[j + 1]);
    }
    /* The top in one pass, then down: each level's scan from the level above's. */
    bool inclusive = (p->flags & SCAN_INCLUSIVE) != 0;
    if (st == GPUC_OK)
        st = scan_kernel(gpu, p, "scan_top", p->top, p->len[p->top] + p->has_total, &k);
    if (st == GPUC_OK) {
        gpuc_arg args[] = {gpuc_arg_array(p->top == 0 ? values : p->sums[p->top]),
                           gpuc_arg_i32(p->top == 0 && inclusive)};
        st = gpuc_run_to(k, args, 2, p->prefix[p->top]);
    }
    for (int j = p->top - 1; st == GPUC_OK && j >= 0; j--) {
        st = scan_kernel(gpu, p, "scan_block", j, p->len[j], &k);
        if (st == GPUC_OK) {
            gpuc_arg args[] = {gpuc_arg_array(j == 0 ? values : p->sums[j]), gpuc_arg_array(p->prefix[j + 1]),
                               gpuc_arg_i32(j == 0 && inclusive)};
            st = gpuc_run_to(k, args, 3, p->prefix[j]);
        }
    }
    return st;
}

void scan_plan_free(scan_plan *p)
{
    for (int k = 0; k < SCAN_MAX_LEVELS; k++) {
        gpuc_array_free(p->sums[k]);
        gpuc_array_free(p->prefix[k]);
        p->sums[k] = p->prefix[k] = NULL;
    }
}

gpuc_status scan_device(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n, unsigned flags,
                        gpuc_array **prefix, bool *has_total)
{
    scan_plan p;
    gpuc_status st = scan_plan_make(gpu, type, n, flags, &p);
    if (st != GPUC_OK)
        return st;
    st = scan_plan_run(gpu, &p, values);
    if (st == GPUC_OK) {
        *prefix = gpuc_array_handed_out(p.prefix[0]);
        p.prefix[0] = NULL;
        if (has_total)
            *has_total = p.has_total;
    }
    scan_plan_free(&p);
    return st;
}

/* What selects a scan's kernels, for the calling-thread twin's warm-up (algo_twin.h). */
static uint64_t scan_shape(const algo_input *in, const gpuc_scan_desc *desc)
{
    const uint64_t parts[] = {(uint64_t)in->type, desc && desc->inclusive};
    return algo_twin_shape(ALGO_TWIN_SCAN, in->n, parts, 2);
}

gpuc_status gpuc_scan(gpuc *gpu, gpuc_arg values, const gpuc_scan_desc *desc, gpuc_array **prefix)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!prefix)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_scan: prefix is NULL");
    algo_input in;
    st = algo_check_input(gpu, "gpuc_scan", "values", values, &in);
    algo_twin_call call;
    if (st == GPUC_OK && algo_twin_begin(gpu, scan_shape(&in, desc), in.n, &values, 1, &call)) {
        gpuc_array *t = NULL;
        st = gpuc_scan(call.twin, call.args[0], desc, &t);
        st = algo_twin_end(&call, st, &t, (gpuc_array **const[]){prefix}, 1);
        if (st == GPUC_OK || !call.retry)
            return st;
        st = GPUC_OK;
    }
    const gpuc_array *array = NULL;
    gpuc_array *upload = NULL;
    if (st == GPUC_OK)
        st = algo_device_input(gpu, values, &array, &upload);
    if (st == GPUC_OK)
        st = scan_device(gpu, array, in.type, in.n, desc && desc->inclusive ? SCAN_INCLUSIVE : 0, prefix, NULL);
    gpuc_array_free(upload);
    return st;
}
