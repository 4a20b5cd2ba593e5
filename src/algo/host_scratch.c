/* host_scratch.c - host memory the algorithm drivers' host work reuses from call to call (algo_common.h,
 * algo_scratch_take). gpuc_topk's host selection of 65,536 values reads them back and keys them in
 * three blocks of 256 KiB; freed at each call's end, they left more than glibc's trim threshold free
 * at the top of its heap, which glibc handed back to the kernel, and the next call (and the next
 * array made) faulted the pages in again: 110 page faults a call (docs/performance/topk.md, "Left
 * alone"). Kept per context, up to ALGO_SCRATCH_KEPT_BYTES a block, they are faulted in once.
 *
 * Thread safety: a context serves one thread at a time and the drivers work inside a call that holds
 * it (gpuc.h, THREADS), so the blocks need no lock. */
#include "algo/algo_common.h"

#include <stdlib.h>

struct algo_scratch {
    void *block[ALGO_SCRATCH_PARTS];
    size_t bytes[ALGO_SCRATCH_PARTS];
};

/* gpuc_close's hook: only host memory. */
static void scratch_close(gpuc *gpu, bool gl)
{
    (void)gl;
    algo_scratch *s = gpu->algo_scratch;
    if (!s)
        return;
    for (int i = 0; i < ALGO_SCRATCH_PARTS; i++)
        free(s->block[i]);
    free(s);
    gpu->algo_scratch = NULL;
}

/* The context's kept blocks, made on first use; NULL when they cannot be (the caller's block is then
 * a fresh one). */
static algo_scratch *scratch_of(gpuc *gpu)
{
    if (!gpu->algo_scratch && gpuc_on_close(gpu, scratch_close) == GPUC_OK)
        gpu->algo_scratch = calloc(1, sizeof *gpu->algo_scratch);
    return gpu->algo_scratch;
}

void *algo_scratch_take(gpuc *gpu, int part, size_t bytes)
{
    algo_scratch *s = bytes <= ALGO_SCRATCH_KEPT_BYTES && part >= 0 && part < ALGO_SCRATCH_PARTS
                          ? scratch_of(gpu)
                          : NULL;
    if (!s)
        return malloc(bytes ? bytes : 1);
    if (!s->block[part] || s->bytes[part] < bytes) { /* a first block of 0 bytes is one of 1 */
        free(s->block[part]);
        s->block[part] = malloc(bytes ? bytes : 1);
        s->bytes[part] = s->block[part] ? bytes : 0;
    }
    return s->block[part];
}

void algo_scratch_give(gpuc *gpu, int part, void *block)
{
    algo_scratch *s = gpu->algo_scratch;
    if (!s || part < 0 || part >= ALGO_SCRATCH_PARTS || block != s->block[part])
        free(block);
}
