/* scan.c - prefix sums on the device (gpuc_scan, and the running counts of compaction). Level 0 is
 * the input; each level above holds the sums of BLOCK-value blocks of the level below, until a level
 * fits in one block. Going back down, each level's scan is its block's offset (the exclusive scan of
 * the level above) plus a short in-block sum, so every invocation reads at most one block. */
#include "algo/scan.h"

#include "kernel/glsl_template.h"

#include <stdio.h>
#include <stdlib.h>

/* Values per block: 4 (one texel) at level 0, so each of the n cells of the final pass reads at most
 * 4 values; 16 above, where levels are 4x smaller and fewer levels mean fewer passes. */
#define SCAN_BLOCK_0 4
#define SCAN_BLOCK 16
#define SCAN_MAX_LEVELS 10 /* 4 * 16^8 = 2^34 > the largest n */

static uint32_t block_of(int level)
{
    return level == 0 ? SCAN_BLOCK_0 : SCAN_BLOCK;
}

typedef struct scan_levels {
    int top;                                  /* index of the level that fits in one block */
    uint32_t len[SCAN_MAX_LEVELS];            /* values per level */
    const gpuc_array *values[SCAN_MAX_LEVELS]; /* level 0: the input; above: block sums */
    gpuc_array *owned[SCAN_MAX_LEVELS];       /* the block-sum arrays this call made */
    gpuc_array *prefix[SCAN_MAX_LEVELS];      /* each level's scan */
} scan_levels;

/* The terms of one block's sum, written out (glsl/compact.glsl's sum_term, K = 0 .. block - 1). */
static char *sum_terms(gpuc_type type, uint32_t block)
{
    strbuf sb = {0};
    for (uint32_t k = 0; k < block; k++) {
        char kk[16];
        snprintf(kk, sizeof kk, "%u", k);
        const char *fields[] = {"T", algo_glsl_type(type), "K", kk, NULL};
        glsl_emit(&sb, gpuc_glsl_compact, "sum_term", fields);
    }
    return strbuf_take(&sb);
}

static gpuc_status scan_kernel(gpuc *gpu, const char *section, gpuc_type type, int level, uint32_t cells,
                               gpuc_kernel **k)
{
    char block[16];
    snprintf(block, sizeof block, "%u", block_of(level));
    char *terms = sum_terms(type, block_of(level));
    if (!terms)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_scan: out of host memory");
    const char *sections[] = {section, NULL};
    const char *fields[] = {"T", algo_glsl_type(type), "BLOCK", block, "SUM_TERMS", terms, NULL};
    gpuc_status st = algo_kernel(gpu, gpuc_glsl_compact, sections, fields, cells, k);
    free(terms);
    return st;
}

/* Up: block sums, level upon level, until a level fits in one block. */
static gpuc_status sum_levels(gpuc *gpu, gpuc_type type, scan_levels *lv)
{
    int k = 0;
    while (lv->len[k] > block_of(k)) {
        uint32_t up = (lv->len[k] + block_of(k) - 1) / block_of(k);
        gpuc_kernel *sums = NULL;
        gpuc_status st = scan_kernel(gpu, "scan_block_sums", type, k, up, &sums);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, type, (gpuc_dims){.x = up}, &lv->owned[k + 1]);
        if (st == GPUC_OK)
            st = gpuc_run_to(sums, (gpuc_arg[]){gpuc_arg_array(lv->values[k])}, 1, lv->owned[k + 1]);
        if (st != GPUC_OK)
            return st;
        k++;
        lv->values[k] = lv->owned[k];
        lv->len[k] = up;
    }
    lv->top = k;
    return GPUC_OK;
}

/* Down: each level's scan from the level above's (the top's offset is a single 0). */
static gpuc_status scan_levels_down(gpuc *gpu, gpuc_type type, bool inclusive, scan_levels *lv)
{
    gpuc_array *zero;
    gpuc_status st = gpuc_array_new(gpu, type, (gpuc_dims){.x = 1}, &zero);
    for (int k = lv->top; st == GPUC_OK && k >= 0; k--) {
        gpuc_kernel *scan = NULL;
        st = scan_kernel(gpu, "scan_block", type, k, lv->len[k], &scan);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, type, (gpuc_dims){.x = lv->len[k]}, &lv->prefix[k]);
        if (st == GPUC_OK) {
            gpuc_arg args[] = {gpuc_arg_array(lv->values[k]), gpuc_arg_array(k == lv->top ? zero : lv->prefix[k + 1]),
                               gpuc_arg_i32(k == 0 && inclusive)};
            st = gpuc_run_to(scan, args, 3, lv->prefix[k]);
        }
    }
    gpuc_array_free(zero);
    return st;
}

gpuc_status scan_device(gpuc *gpu, const gpuc_array *values, gpuc_type type, uint32_t n, bool inclusive,
                        gpuc_array **prefix)
{
    scan_levels lv = {.len = {n}, .values = {values}};
    gpuc_status st = sum_levels(gpu, type, &lv);
    if (st == GPUC_OK)
        st = scan_levels_down(gpu, type, inclusive, &lv);
    for (int k = 0; k < SCAN_MAX_LEVELS; k++) {
        gpuc_array_free(lv.owned[k]);
        if (k > 0 || st != GPUC_OK)
            gpuc_array_free(lv.prefix[k]);
    }
    if (st == GPUC_OK)
        *prefix = lv.prefix[0];
    return st;
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
    const gpuc_array *array = NULL;
    gpuc_array *upload = NULL;
    if (st == GPUC_OK)
        st = algo_device_input(gpu, values, &array, &upload);
    if (st == GPUC_OK)
        st = scan_device(gpu, array, in.type, in.n, desc && desc->inclusive, prefix);
    gpuc_array_free(upload);
    return st;
}
