/* sort_radix.c - the radix method of gpuc_sort, gpuc_argsort and gpuc_sort_pairs: a host driver over
 * the kernels of glsl/sort_radix.glsl. The keys are mapped to order-preserving ints (glsl/sort.glsl's
 * key maps), then sorted by 8 stable passes of one 4-bit digit each, lowest first (LSD). A pass counts
 * each sub-block's digits, sums them per quad of sub-blocks and per chunk, scans the (digit, chunk)
 * totals into the start of each run, and scatters every element to its run's start plus its offset in
 * that run. Nothing is read back; the kernels are the context's (made on its first sort), the cells'
 * arrays and the scan's plan are made once per call, and the cells ping-pong between passes.
 * Stable, so equal keys keep their input order: argsort's and sort_pairs' ties come out in index order
 * with no tie-break. */
#include "algo/scan.h"
#include "algo/sort_radix.h"
#include "kernel/codegen/glsl_template.h"

#include <stdio.h>
#include <stdlib.h>

/* glsl/sort_radix.glsl's sizes (its RADIX_DIGITS, SUB and CHUNK), fixed by its packing: 16 digit
 * counts or ranks below 16 as nibbles, a chunk's counts before its last element as bytes. */
#define RADIX_BITS 4
#define RADIX_DIGITS (1 << RADIX_BITS)
#define RADIX_SUB 16
#define RADIX_CHUNK 256
/* Sub-blocks per quad (its QUAD). Also the quads per chunk, so that each prefix term adds one quad
 * and one sub-block (RADIX_QUAD - 1 of each at most). */
#define RADIX_QUAD 4

bool radix_available(const gpuc *gpu, uint32_t n, bool pairs)
{
    int64_t bytes = (int64_t)n * (pairs ? 8 : 4);
    int64_t max = gpu->info.max_storage_block_size;
    return gpu->info.backend == GPUC_BACKEND_COMPUTE && (max <= 0 || bytes <= max);
}

/* `count` copies of section `term` (its $K = 0, 1, ...) of glsl/sort_radix.glsl. */
static char *terms(const char *term, int count)
{
    strbuf sb = {0};
    for (int k = 0; k < count; k++) {
        char num[16];
        snprintf(num, sizeof num, "%d", k);
        if (!glsl_emit(&sb, gpuc_glsl_sort_radix, term, (const char *[]){"K", num, NULL})) {
            free(strbuf_take(&sb));
            return NULL;
        }
    }
    return strbuf_take(&sb);
}

/* One radix sort call's kernel sources: the key map of glsl/sort.glsl, then the radix kernel. */
typedef struct radix_source {
    const radix_request *req;
    char *count_terms, *quad_terms, *prefix_terms;
} radix_source;

/* What a kernel reads and writes: the cells between passes, or (the first pass) the keys themselves
 * and (the last pass of a sort of bare keys) the keys mapped back. */
typedef enum radix_io { CELLS_IN_OUT, KEYS_IN, KEYS_OUT } radix_io;

static gpuc_status radix_kernel(gpuc *gpu, const radix_source *src, const char *section, radix_io io,
                                gpuc_kernel_desc desc, gpuc_kernel **k)
{
    const radix_request *req = src->req;
    const char *key = algo_glsl_type(req->in.type), *cell = req->pairs ? "vec2" : "int";
    const char *fields[] = {"KEY_TYPE",     key,
                            "VALUE_TYPE",   algo_glsl_type(req->values ? req->value_type : GPUC_FLOAT),
                            "CELL",         cell,
                            "IN",           io == KEYS_IN ? key : cell,
                            "OUT",          io == KEYS_OUT ? key : cell,
                            "DESCENDING",   req->descending ? "1" : "0",
                            "COUNT_TERMS",  src->count_terms,
                            "QUAD_TERMS",   src->quad_terms,
                            "PREFIX_TERMS", src->prefix_terms,
                            NULL};
    const char *in = io != KEYS_IN ? "cells_in" : req->pairs ? "pairs_in" : "keys_in";
    strbuf sb = {0};
    bool ok = glsl_emit(&sb, gpuc_glsl_sort, req->in.type == GPUC_INT ? "int_keys" : "float_keys", fields) &&
              glsl_emit(&sb, gpuc_glsl_sort_radix, "common", fields) &&
              glsl_emit(&sb, gpuc_glsl_sort_radix, "sub_counts", fields) &&
              glsl_emit(&sb, gpuc_glsl_sort_radix, in, fields) &&
              glsl_emit(&sb, gpuc_glsl_sort_radix, io == KEYS_OUT ? "keys_out" : "cells_out", fields) &&
              glsl_emit(&sb, gpuc_glsl_sort_radix, section, fields);
    char *source = strbuf_take(&sb);
    if (!ok || !source) {
        free(source);
        return gpuc_fail(gpu, ok ? GPUC_ERROR_OUT_OF_MEMORY : GPUC_ERROR_INVALID_ARGUMENT,
                         "%s: cannot build the radix kernel %s%s", req->fn, section,
                         ok ? ": out of host memory" : " (a bug in gpuc)");
    }
    desc.pipeline = true;
    gpuc_status st = algo_kernel_get(gpu, source, &desc, k);
    free(source);
    return st;
}

/* The kernels (the context's) and arrays (this call's) of the passes. The first pass counts and scatters the
 * keys themselves (first_counts, first_scatter); the last pass of a sort of bare keys writes them
 * mapped back (last_scatter, NULL for pairs), so no pass of its own maps them in or out. */
typedef struct radix_passes {
    gpuc_kernel *first_counts, *counts, *quads, *prefix, *totals, *transpose, *first_scatter, *scatter, *last_scatter;
    gpuc_array *sub_counts, *quad_counts, *sub_prefix, *chunk_totals, *chunk_starts;
    scan_plan starts;   /* the scan of the run totals, made once for the 8 passes */
    uint32_t subs, chunks;
} radix_passes;

/* The kernels are the context's (algo_kernel_get): only the arrays are this call's. */
static void passes_free(radix_passes *p)
{
    gpuc_array_free(p->sub_counts);
    gpuc_array_free(p->quad_counts);
    gpuc_array_free(p->sub_prefix);
    gpuc_array_free(p->chunk_totals);
    gpuc_array_free(p->chunk_starts);
    scan_plan_free(&p->starts);
}

static gpuc_status passes_make(gpuc *gpu, const radix_source *src, radix_passes *p)
{
    uint32_t n = src->req->in.n;
    p->chunks = (n + RADIX_CHUNK - 1) / RADIX_CHUNK;
    p->subs = p->chunks * (RADIX_CHUNK / RADIX_SUB);
    uint32_t runs = p->chunks * RADIX_DIGITS;
    gpuc_kernel_desc subs = {.output = {.x = p->subs}}, quads = {.output = {.x = p->subs / RADIX_QUAD}};
    gpuc_kernel_desc per_run = {.output = {.x = runs}};
    gpuc_kernel_desc scatter = {.output = {.x = n}, .scatter = true, .threads = {.x = n}};
    gpuc_status st = radix_kernel(gpu, src, "counts", KEYS_IN, subs, &p->first_counts);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "counts", CELLS_IN_OUT, subs, &p->counts);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "quads", CELLS_IN_OUT, quads, &p->quads);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "prefix", CELLS_IN_OUT, subs, &p->prefix);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "totals", CELLS_IN_OUT, per_run, &p->totals);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "transpose", CELLS_IN_OUT, per_run, &p->transpose);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "scatter", KEYS_IN, scatter, &p->first_scatter);
    if (st == GPUC_OK)
        st = radix_kernel(gpu, src, "scatter", CELLS_IN_OUT, scatter, &p->scatter);
    if (st == GPUC_OK && !src->req->pairs)
        st = radix_kernel(gpu, src, "scatter", KEYS_OUT, scatter, &p->last_scatter);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){.x = p->subs}, &p->sub_counts);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){.x = p->subs / RADIX_QUAD}, &p->quad_counts);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){.x = p->subs}, &p->sub_prefix);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){.x = runs}, &p->chunk_totals);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){.x = runs}, &p->chunk_starts);
    if (st == GPUC_OK)
        st = scan_plan_make(gpu, GPUC_INT, runs, 0, &p->starts);
    return st;
}

/* One stable pass by the digit at `shift`: counts `in` with `counts`, then scatters it with `scatter`
 * into `out`. */
static gpuc_status pass(gpuc *gpu, radix_passes *p, uint32_t n, int shift, gpuc_kernel *counts_k,
                        gpuc_kernel *scatter_k, gpuc_arg in, gpuc_array *out)
{
    gpuc_arg chunks = gpuc_arg_i32((int32_t)p->chunks), count = gpuc_arg_i32((int32_t)n);
    gpuc_arg counts = gpuc_arg_array(p->sub_counts), prefix = gpuc_arg_array(p->sub_prefix);
    gpuc_status st = gpuc_run_to(counts_k, (gpuc_arg[]){in, count, gpuc_arg_i32(shift)}, 3, p->sub_counts);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->quads, (gpuc_arg[]){counts, count}, 2, p->quad_counts);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->prefix, (gpuc_arg[]){counts, gpuc_arg_array(p->quad_counts), count}, 3, p->sub_prefix);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->totals, (gpuc_arg[]){gpuc_arg_array(p->quad_counts), chunks}, 2, p->chunk_totals);
    if (st == GPUC_OK)
        st = scan_plan_run(gpu, &p->starts, p->chunk_totals);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->transpose, (gpuc_arg[]){gpuc_arg_array(p->starts.prefix[0]), chunks}, 2,
                         p->chunk_starts);
    if (st == GPUC_OK)
        st = gpuc_run_to(scatter_k, (gpuc_arg[]){in, counts, prefix, gpuc_arg_array(p->chunk_starts),
                                                 gpuc_arg_i32(shift)}, 5, out);
    return st;
}

/* The 8 passes: *sorted receives the keys sorted (bare keys), or the sorted (key, index) cells. */
static gpuc_status sort_cells(gpuc *gpu, const radix_source *src, gpuc_array **sorted)
{
    const radix_request *req = src->req;
    uint32_t n = req->in.n;
    radix_passes p = {0};
    const gpuc_array *keys = NULL;
    gpuc_array *upload = NULL, *cells[2] = {NULL, NULL}, *result = NULL;
    gpuc_type cell = req->pairs ? GPUC_VEC2 : GPUC_INT;
    gpuc_status st = algo_device_input(gpu, req->keys, &keys, &upload); /* two kernels read it: upload once */
    if (st == GPUC_OK)
        st = passes_make(gpu, src, &p);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, cell, (gpuc_dims){.x = n}, &cells[0]);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, cell, (gpuc_dims){.x = n}, &cells[1]);
    for (int shift = 0, i = 0; st == GPUC_OK && shift < 32; shift += RADIX_BITS, i ^= 1) {
        bool first = shift == 0, last = shift + RADIX_BITS == 32;
        gpuc_kernel *scatter = first ? p.first_scatter : last && p.last_scatter ? p.last_scatter : p.scatter;
        gpuc_arg in = first ? gpuc_arg_array(keys) : gpuc_arg_array(cells[i ^ 1]);
        if (last && p.last_scatter) { /* bare keys: the result takes the place of the cells it replaces */
            gpuc_array_free(cells[i]);
            cells[i] = NULL;
            st = gpuc_array_new(gpu, req->in.type, (gpuc_dims){.x = n}, &result);
        }
        if (st == GPUC_OK)
            st = pass(gpu, &p, n, shift, first ? p.first_counts : p.counts, scatter, in, result ? result : cells[i]);
        if (first) { /* only the first pass reads the keys: a copy of host keys can go */
            gpuc_array_free(upload);
            upload = NULL;
        }
    }
    passes_free(&p);
    gpuc_array_free(upload);
    int out = (32 / RADIX_BITS - 1) % 2; /* the cells the last pass wrote */
    if (st == GPUC_OK && !result) {
        result = cells[out];
        cells[out] = NULL;
    }
    gpuc_array_free(cells[0]);
    gpuc_array_free(cells[1]);
    if (st != GPUC_OK) {
        gpuc_array_free(result);
        return st;
    }
    *sorted = result;
    return GPUC_OK;
}

/* Runs an unload kernel (n cells) over the sorted cells into a new array, when that output is wanted. */
static gpuc_status unload(gpuc *gpu, const radix_source *src, const char *section, const gpuc_arg *args, int nargs,
                          gpuc_array **out)
{
    if (!out)
        return GPUC_OK;
    gpuc_kernel *k = NULL;
    gpuc_status st = radix_kernel(gpu, src, section, CELLS_IN_OUT, (gpuc_kernel_desc){.output = {.x = src->req->in.n}},
                                  &k);
    if (st == GPUC_OK)
        st = gpuc_run(k, args, nargs, out);
    return st;
}

static gpuc_status unload_all(gpuc *gpu, const radix_source *src, const gpuc_array *sorted, sort_outputs got)
{
    gpuc_arg cells = gpuc_arg_array(sorted);
    gpuc_status st = unload(gpu, src, "unload_keys", (gpuc_arg[]){cells, gpuc_arg_i32(src->req->descending)}, 2,
                            got.keys);
    if (st == GPUC_OK)
        st = unload(gpu, src, "unload_index", &cells, 1, got.indices);
    if (st == GPUC_OK && src->req->values)
        st = unload(gpu, src, "unload_payload", (gpuc_arg[]){cells, *src->req->values}, 2, got.values);
    return st;
}

gpuc_status radix_sort(gpuc *gpu, const radix_request *req, sort_outputs want)
{
    radix_source src = {.req = req,
                        .count_terms = terms("count_term", RADIX_SUB),
                        .quad_terms = terms("quad_term", RADIX_QUAD),
                        .prefix_terms = terms("prefix_term", RADIX_QUAD - 1)};
    gpuc_status st = GPUC_OK;
    if (!src.count_terms || !src.quad_terms || !src.prefix_terms)
        st = gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", req->fn);
    gpuc_array *sorted = NULL, *k = NULL, *i = NULL, *v = NULL;
    if (st == GPUC_OK)
        st = sort_cells(gpu, &src, &sorted);
    if (st == GPUC_OK && !req->pairs) { /* the sorted keys themselves */
        k = sorted;
        sorted = NULL;
    } else if (st == GPUC_OK) {
        st = unload_all(gpu, &src, sorted, (sort_outputs){want.keys ? &k : NULL, want.indices ? &i : NULL,
                                                          want.values ? &v : NULL});
    }
    free(src.count_terms);
    free(src.quad_terms);
    free(src.prefix_terms);
    gpuc_array_free(sorted);
    return sort_outputs_deliver(st, want, k, i, v);
}
