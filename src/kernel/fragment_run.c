/* fragment_run.c - the fragment backend's half of a run: the output is drawn as rows of pixels into
 * float (or int, or RGBA8) renderbuffers, a tile of rows at a time, and each tile is copied into the
 * result array's buffer with glReadPixels into a pixel-pack buffer (device to device, no host copy).
 * This is GPU.js's model: one fragment per output cell, render targets as the output. */
#include "kernel/kernel.h"

#include <pthread.h>
#include <unistd.h>

/* Cells one tile holds at most: bounds the renderbuffers' memory (64 MiB for vec4 cells). */
#define FRAGMENT_TILE_CELLS (1u << 22)
/* The widest row of a flat layout (1D outputs, and outputs wider than the largest target). */
#define FRAGMENT_FLAT_WIDTH 2048

typedef struct pixel_format {
    GLenum internal, format, type;
    size_t bytes; /* per cell in the array */
} pixel_format;

static pixel_format format_of(gpuc_type t, bool graphical)
{
    if (graphical)
        return (pixel_format){GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4};
    switch (t) {
    case GPUC_INT: return (pixel_format){GL_R32I, GL_RED_INTEGER, GL_INT, 4};
    case GPUC_VEC2: return (pixel_format){GL_RG32F, GL_RG, GL_FLOAT, 8};
    case GPUC_VEC3: return (pixel_format){GL_RGBA32F, GL_RGB, GL_FLOAT, 12}; /* read back as packed RGB */
    case GPUC_VEC4: return (pixel_format){GL_RGBA32F, GL_RGBA, GL_FLOAT, 16};
    default: return (pixel_format){GL_R32F, GL_RED, GL_FLOAT, 4};
    }
}

/* Online cores, at most 16: llvmpipe's default thread count. Counted once per process (sysconf reads
 * /sys, 2.6 us a call, and the layout is chosen again at each gpuc_kernel_set_output). */
static size_t online_cores;

static void count_online_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    online_cores = cores < 1 ? 1 : cores > 16 ? 16 : (size_t)cores;
}

/* The threads llvmpipe draws with in the context: its option, else llvmpipe's default; 1 in the
 * calling thread. Only the flat layout's shape depends on it. */
static size_t draw_threads(const gpuc *gpu)
{
    static pthread_once_t counted = PTHREAD_ONCE_INIT;
    if (gpu->threads == GPUC_THREADS_CALLER)
        return 1;
    if (gpu->threads > 0)
        return (size_t)gpu->threads;
    pthread_once(&counted, count_online_cores);
    return online_cores;
}

/* A flat layout's row width. llvmpipe shades pixels in blocks of 4 x 4, and its threads take bins of
 * 64 x 64 pixels, each with a fixed cost. Rows of 2048 fill whole bins from 64 rows up (and are what
 * the large rows were measured in), so they stay there; a smaller output is drawn nearly square (a
 * power of two at or above the square root of its cells: few bins, full blocks), but on llvmpipe's
 * threads at least one bin wide per thread where rows of 4 allow it (else one bin drew it all on one
 * thread). The width had been the cells up to 2048: one row of 1,000 cells filled a quarter of each
 * block. Measured: docs/performance/small-calls.md, "Flat fragment layouts". */
static size_t flat_width(size_t cells, size_t threads)
{
    if (cells >= (size_t)FRAGMENT_FLAT_WIDTH * 64)
        return FRAGMENT_FLAT_WIDTH;
    size_t width = 1;
    while (width < FRAGMENT_FLAT_WIDTH && width * width < cells)
        width <<= 1;
    size_t per_thread = 64 * threads, rows_of_4 = (cells + 3) / 4;
    size_t wide = per_thread < rows_of_4 ? per_thread : rows_of_4;
    if (threads > 1 && wide > width)
        width = wide;
    return width < FRAGMENT_FLAT_WIDTH ? width : FRAGMENT_FLAT_WIDTH;
}

void fragment_layout(gpuc_kernel *k)
{
    int max = k->gpu->info.max_target_size > 0 ? k->gpu->info.max_target_size : 4096;
    size_t width;
    /* GPU.js's layout: a 2D output is a w x h texture, a 3D one w x (h * d). */
    if (gpuc_dims_rank(k->output) >= 2 && k->output.x <= (uint32_t)max)
        width = k->output.x;
    else
        width = flat_width(k->cells, draw_threads(k->gpu));
    if (width > (size_t)max)
        width = (size_t)max;
    size_t rows = (k->cells + width - 1) / width;
    size_t tile = FRAGMENT_TILE_CELLS / width;
    if (tile < 1)
        tile = 1;
    if (tile > (size_t)max)
        tile = (size_t)max;
    k->row_width = (int)width;
    k->tile_rows = (int)(rows < tile ? rows : tile);
}

/* The fragment backend's close hook: its vertex array and framebuffer (gpuc_on_close). */
static void fragment_state_release(gpuc *gpu, bool gl)
{
    if (gl && gpu->fragment_vao)
        glDeleteVertexArrays(1, &gpu->fragment_vao);
    if (gl && gpu->fragment_fbo)
        glDeleteFramebuffers(1, &gpu->fragment_fbo);
    gpu->fragment_vao = gpu->fragment_fbo = 0;
    gpu->fragment_attached = NULL;
}

static gpuc_status make_targets(gpuc_kernel *k)
{
    gpuc *gpu = k->gpu;
    if (!gpu->fragment_vao) {
        gpuc_status st = gpuc_on_close(gpu, fragment_state_release);
        if (st != GPUC_OK)
            return st;
        glGenVertexArrays(1, &gpu->fragment_vao);
        glGenFramebuffers(1, &gpu->fragment_fbo);
    }
    if (k->targets[0])
        return GPUC_OK;
    glGenRenderbuffers(1 + k->nmaps, k->targets);
    for (int i = 0; i <= k->nmaps; i++) {
        gpuc_type t = i == 0 ? k->result_type : k->maps[i - 1].type;
        glBindRenderbuffer(GL_RENDERBUFFER, k->targets[i]);
        glRenderbufferStorage(GL_RENDERBUFFER, format_of(t, i == 0 && k->graphical).internal, k->row_width,
                              k->tile_rows);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    gpuc_status st = gpuc_check_gl(gpu, "making a fragment kernel's render targets");
    if (st != GPUC_OK)
        fragment_targets_free(k);
    return st;
}

static gpuc_status bind_framebuffer(gpuc_kernel *k)
{
    static const GLenum buffers[] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2,
                                     GL_COLOR_ATTACHMENT3, GL_COLOR_ATTACHMENT4, GL_COLOR_ATTACHMENT5,
                                     GL_COLOR_ATTACHMENT6, GL_COLOR_ATTACHMENT7};
    glBindFramebuffer(GL_FRAMEBUFFER, k->gpu->fragment_fbo);
    /* The framebuffer still holds this kernel's targets from its last run when no other kernel drew
     * since (fragment_targets_free forgets a kernel whose targets go): attaching them again would make
     * Mesa validate the framebuffer anew, a large part of a small call's time. */
    if (k->gpu->fragment_attached != k) {
        for (int i = 0; i < 8; i++)
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, buffers[i], GL_RENDERBUFFER, i <= k->nmaps ? k->targets[i] : 0);
        glDrawBuffers(1 + k->nmaps, buffers);
        GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        if (status != GL_FRAMEBUFFER_COMPLETE) {
            k->gpu->fragment_attached = NULL;
            return gpuc_fail(k->gpu, GPUC_ERROR_GL, "kernel '%s': the driver cannot render into its targets (0x%x)",
                             k->name, (unsigned)status);
        }
        k->gpu->fragment_attached = k;
    }
    glBindVertexArray(k->gpu->fragment_vao);
    glDisable(GL_DITHER); /* RGBA8 targets: exact rounding, as the compute backend's packUnorm4x8 */
    return GPUC_OK;
}

/* Copies rows [0, rows) of the tile starting at output row first_row into every output array. */
static void copy_tile(gpuc_kernel *k, gpuc_array *const *dsts, size_t first_row, size_t rows)
{
    size_t width = (size_t)k->row_width;
    size_t first_cell = first_row * width;
    size_t cells = k->cells - first_cell < rows * width ? k->cells - first_cell : rows * width;
    size_t full_rows = cells / width, rest = cells % width;
    for (int i = 0; i <= k->nmaps; i++) {
        gpuc_type t = i == 0 ? k->result_type : k->maps[i - 1].type;
        pixel_format f = format_of(t, i == 0 && k->graphical);
        glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)i);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, dsts[i]->buffer);
        size_t offset = first_cell * f.bytes;
        if (full_rows)
            glReadPixels(0, 0, (GLsizei)width, (GLsizei)full_rows, f.format, f.type, (void *)(uintptr_t)offset);
        if (rest)
            glReadPixels(0, (GLint)full_rows, (GLsizei)rest, 1, f.format, f.type,
                         (void *)(uintptr_t)(offset + full_rows * width * f.bytes));
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

gpuc_status fragment_draw(gpuc_kernel *k, gpuc_array *const *dsts)
{
    gpuc_status st = make_targets(k);
    if (st == GPUC_OK)
        st = bind_framebuffer(k);
    if (st != GPUC_OK)
        return st;
    size_t width = (size_t)k->row_width;
    size_t rows = (k->cells + width - 1) / width;
    glUniform1i(k->row_width_location, k->row_width);
    glUniform1i(k->cell_end_location, (GLint)k->cells);
    for (size_t first_row = 0; first_row < rows; first_row += (size_t)k->tile_rows) {
        size_t tile = rows - first_row < (size_t)k->tile_rows ? rows - first_row : (size_t)k->tile_rows;
        glViewport(0, 0, k->row_width, (GLsizei)tile);
        glUniform1i(k->first_cell_location, (GLint)(first_row * width));
        glDrawArrays(GL_TRIANGLES, 0, 3);
        k->gpu->stats.dispatches++;
        copy_tile(k, dsts, first_row, tile);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* Zink (Mesa 22.3, over lavapipe) does not order glReadPixels' writes into a pixel-pack buffer
     * before a later draw reads that buffer through a texture view, as GL requires: chained kernels
     * (sort, scan, compaction, topk) read stale cells there. A finish after the copies orders them
     * (measured: a memory barrier does not, a flush makes it worse). Only on zink: elsewhere it would
     * stall every run. */
    if (gpuc_driver_is_zink(k->gpu))
        glFinish();
    return GPUC_OK;
}

void fragment_targets_free(gpuc_kernel *k)
{
    if (k->gpu->fragment_attached == k)
        k->gpu->fragment_attached = NULL;
    glDeleteRenderbuffers(1 + k->nmaps, k->targets);
    for (int i = 0; i <= k->nmaps; i++)
        k->targets[i] = 0;
}
