/* compact_place.c - placing the survivors of a compaction in input order, from the block masks and the
 * survivors before each block (compact_count.c). The scatter: one invocation per element writes each
 * output cell exactly once (survivors to their slots, dropped elements zeros to the tail). The
 * gather: one cell per survivor finds its block by a search over the blocks, written out without a
 * loop (a loop-free kernel computes several cells per invocation, far cheaper on llvmpipe), as many
 * halvings as the widest range any group of cells must search, which one more number
 * read back gives; then its rank in the block's mask. */
#include "algo/compact.h"
#include "kernel/codegen/glsl_template.h"

#include <stdio.h>
#include <stdlib.h>

/* Output cells of the gather that share one full binary search (their group's starting block): a
 * power of two sized to the density, about GATHER_GROUP_BLOCKS blocks' worth of survivors, so that a
 * group's cells span few blocks (3 search steps reach 7) at any density, and there are about
 * n / (COMPACT_BLOCK * GATHER_GROUP_BLOCKS) groups. */
#define GATHER_GROUP_BLOCKS 4

static int gather_group_shift(const compact_survivors *s)
{
    uint64_t target = (uint64_t)COMPACT_BLOCK * GATHER_GROUP_BLOCKS * s->count / s->n;
    int shift = 0;
    while (shift < 30 && ((uint64_t)2 << shift) <= target)
        shift++;
    return shift;
}

/* Cells of the first step of the span reduction: fixed, so its program is made once per context;
 * fewer than n / 64 groups (n <= 2^30) leave each cell under 2^14 of them, inside llvmpipe's loop
 * budget. */
#define SPAN_PARTIALS 2048

/* Where an exact-length scatter is written at full length and its head copied (device_profile's
 * scatter_full_length): from 1/8 of the elements kept to under 3/4. Measured on llvmpipe (whole
 * programs of 1,000 compactions of 2^18 values, or 30 of 2^22, in pairs with the exact-length
 * scatter): 20-60% kept took 0.75-0.86x the wall time and 0.71-0.85x the CPU time, 75% 0.97-0.98x;
 * at 90% kept it lost (1.15-1.19x: few lanes skip, and the copy grows with the survivors), and at
 * 1% the scatter kernel alone lost (1.2-1.9x: nearly every lane skips, which is cheap when few
 * store at all). Above the sizes a default context computes on the host or in its twin. */
#define SCATTER_FULL_LENGTH_FROM_VALUES 131072

/* Whether an exact-length scatter of `cells` survivors is written at full length, then copied: never
 * where n cells would not fit one storage binding (a scatter kernel's output must: kernel.c), though
 * the survivors do. */
static bool scatter_full_length(const gpuc *gpu, const compact_survivors *s, uint32_t cells)
{
    return gpu->device_profile.scatter_full_length && s->n >= SCATTER_FULL_LENGTH_FROM_VALUES &&
           (uint64_t)cells * 8 >= s->n && (uint64_t)cells * 4 < (uint64_t)s->n * 3 &&
           (uint64_t)s->n * 4 <= (uint64_t)gpu->info.max_storage_block_size; /* float and int: 4 bytes */
}

/* Scatter: every output cell is written once, so the output needs no clearing. Each dropped element
 * writes a zero past the survivors: at full length to the tail, and past an exact output's end to
 * nowhere, a store its lane skips; where that costs more than the copy (scatter_full_length), an
 * exact result is written at full length into a scratch array and its head copied out. */
static gpuc_status scatter(gpuc *gpu, const gpuc_array *values, const compact_survivors *s, uint32_t cells,
                           gpuc_array **packed)
{
    bool copied = scatter_full_length(gpu, s, cells);
    uint32_t written = copied ? s->n : cells;
    gpuc_kernel *k;
    gpuc_kernel_desc kd = {.output = {.x = written}, .scatter = true, .threads = {.x = s->n}};
    gpuc_status st = compact_kernel(gpu, s->type, (const char *[]){"scatter", NULL}, NULL, kd, &k);
    if (st != GPUC_OK)
        return st;
    gpuc_array *out = NULL;
    st = gpuc_array_make(gpu, s->type, (gpuc_dims){.x = written}, ARRAY_OVERWRITTEN, &out);
    if (st == GPUC_OK)
        st = gpuc_run_to(k,
                         (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_array(s->masks), gpuc_arg_array(s->before),
                                      gpuc_arg_i32((int32_t)s->count)},
                         4, out);
    if (st == GPUC_OK && copied) {
        gpuc_array *full = out;
        out = NULL;
        st = gpuc_array_head_copy(full, cells, &out);
        gpuc_array_free(full); /* its buffer kept for the next call's scratch (the context's spares) */
    }
    if (st != GPUC_OK) {
        gpuc_array_free(out);
        return st;
    }
    *packed = out;
    return GPUC_OK;
}

/* Where each group of 2^shift gather cells starts its search (one more entry closes the last). */
static gpuc_status gather_starts(gpuc *gpu, const compact_survivors *s, int shift, uint32_t groups,
                                 gpuc_array **starts)
{
    gpuc_kernel *k;
    gpuc_status st = compact_kernel(gpu, s->type, (const char *[]){"gather_starts", NULL}, NULL,
                                    (gpuc_kernel_desc){.output = {.x = groups + 1}}, &k);
    if (st != GPUC_OK)
        return st;
    st = gpuc_run(k,
                  (gpuc_arg[]){gpuc_arg_array(s->before), gpuc_arg_i32((int32_t)s->blocks),
                               gpuc_arg_i32((int32_t)s->count), gpuc_arg_i32(1 << shift)},
                  4, starts);
    return st;
}

/* The widest range of blocks a group's search covers (read back: it sizes the gather's search). */
static gpuc_status widest_span(gpuc *gpu, const compact_survivors *s, const gpuc_array *starts, uint32_t groups,
                               uint32_t *span)
{
    char partials_count[16];
    snprintf(partials_count, sizeof partials_count, "%d", SPAN_PARTIALS);
    const char *fields[] = {"SPAN_PARTIALS", partials_count, NULL};
    gpuc_kernel *partial = NULL, *top = NULL;
    gpuc_array *partials = NULL, *widest = NULL;
    gpuc_status st = compact_kernel(gpu, s->type, (const char *[]){"span_partial", NULL}, fields,
                                    (gpuc_kernel_desc){.output = {.x = SPAN_PARTIALS}}, &partial);
    if (st == GPUC_OK)
        st = compact_kernel(gpu, s->type, (const char *[]){"span_max", NULL}, fields,
                            (gpuc_kernel_desc){.output = {.x = 1}}, &top);
    if (st == GPUC_OK)
        st = gpuc_run(partial, (gpuc_arg[]){gpuc_arg_array(starts), gpuc_arg_i32((int32_t)groups)}, 2, &partials);
    if (st == GPUC_OK)
        st = gpuc_run(top, (gpuc_arg[]){gpuc_arg_array(partials), gpuc_arg_i32(SPAN_PARTIALS)}, 2, &widest);
    int32_t widest_span = 0;
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(widest, &widest_span, 1);
    *span = (uint32_t)widest_span;
    gpuc_array_free(partials);
    gpuc_array_free(widest);
    return st;
}

/* The gather's search written out (no loop): steps of 2^(steps-1), ..., 2, 1 blocks reach `span`
 * blocks past the group's start. At least 3 steps, and a multiple of 3, so that data of any density
 * (groups sized to it) shares one program unless its survivors come in uneven clumps. */
static char *search_steps(uint32_t span)
{
    int steps = 0;
    while (steps < 31 && ((uint32_t)1 << steps) - 1 < span)
        steps++;
    steps = steps < 3 ? 3 : (steps + 2) / 3 * 3;
    strbuf sb = {0};
    for (int i = steps - 1; i >= 0; i--) {
        char stride[16];
        snprintf(stride, sizeof stride, "%d", 1 << i);
        glsl_emit(&sb, gpuc_glsl_compact, "search_step", (const char *[]){"STRIDE", stride, NULL});
    }
    return strbuf_take(&sb);
}

/* Blocks up to which every gather cell searches all the blocks from the first (at most 9 halving
 * steps) rather than from its group's start: no pass finding the starts, none finding the widest
 * span and no read back, where each of those costs more than the longer search (a dispatch costs
 * 0.03-0.05 ms on llvmpipe whatever its size). */
#define GATHER_DIRECT_BLOCKS 512

/* Gather: one cell per output cell; cells past the count are 0 (and need no group). */
static gpuc_status gather(gpuc *gpu, const gpuc_array *values, const compact_survivors *s, uint32_t cells,
                          gpuc_array **packed)
{
    bool direct = s->blocks <= GATHER_DIRECT_BLOCKS;
    int shift = direct ? 30 : gather_group_shift(s); /* direct: one group, starting at block 0 */
    uint32_t groups = (s->count + ((uint32_t)1 << shift) - 1) >> shift, span = s->blocks - 1;
    gpuc_array *starts = NULL;
    gpuc_kernel *k = NULL;
    gpuc_status st = direct ? gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){.x = 1}, &starts)
                            : gather_starts(gpu, s, shift, groups, &starts);
    if (st == GPUC_OK && !direct)
        st = widest_span(gpu, s, starts, groups, &span);
    char *search = st == GPUC_OK ? search_steps(span) : NULL;
    if (st == GPUC_OK && !search)
        st = gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_compact: out of host memory");
    if (st == GPUC_OK)
        st = compact_kernel(gpu, s->type, (const char *[]){"select", "gather", NULL},
                            (const char *[]){"SEARCH", search, NULL},
                            (gpuc_kernel_desc){.output = {.x = cells}}, &k);
    free(search);
    if (st == GPUC_OK)
        st = gpuc_run(k,
                      (gpuc_arg[]){gpuc_arg_array(values), gpuc_arg_array(s->masks), gpuc_arg_array(s->before),
                                   gpuc_arg_array(starts), gpuc_arg_i32((int32_t)s->blocks),
                                   gpuc_arg_i32((int32_t)s->count), gpuc_arg_i32(shift)},
                      7, packed);
    gpuc_array_free(starts);
    return st;
}

gpuc_status compact_place(gpuc *gpu, const gpuc_array *values, gpuc_compact_method method,
                          const compact_survivors *s, uint32_t cells, gpuc_array **packed)
{
    return method == GPUC_COMPACT_SCATTER ? scatter(gpu, values, s, cells, packed)
                                          : gather(gpu, values, s, cells, packed);
}
