/* png_load.c - gpuc_array_from_png: a PNG file as the vec4 2D array a GPU.js image argument is
 * (HTMLImage, ImageData...): image[y][x] is the pixel of scanline height - 1 - y (GPU.js flips images
 * so that y = 0 is the bottom row, as its outputs and gpuc_array_write_png have it), channels r, g, b, a
 * divided by 255. png_decode.c reads the file; this file checks its size against the device and
 * uploads its rows block by block into the array, so a load takes little more than the array. */
#include "internal.h"
#include "png_decode.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_upload {
    gpuc *gpu;
    gpuc_array *array; /* made once the size is known */
} png_upload;

/* The size must make a gpuc array (one vec4 texel per pixel) before the array is made. */
static gpuc_status upload_size(void *ctx, uint32_t w, uint32_t h, char *err)
{
    png_upload *u = ctx;
    size_t cells;
    int rank;
    gpuc_status st = gpuc_dims_check(u->gpu, (gpuc_dims){w, h, 0}, "the picture", &cells, &rank);
    if (st == GPUC_OK && u->gpu->info.max_texture_buffer_size > 0 &&
        cells > (uint64_t)u->gpu->info.max_texture_buffer_size)
        st = gpuc_fail(u->gpu, GPUC_ERROR_LIMIT, "the picture is %ux%u pixels; the device's arrays hold at most "
                       "%lld (GL_MAX_TEXTURE_BUFFER_SIZE)", w, h, (long long)u->gpu->info.max_texture_buffer_size);
    if (st == GPUC_OK)
        st = gpuc_array_make(u->gpu, GPUC_VEC4, (gpuc_dims){w, h, 0}, ARRAY_OVERWRITTEN, &u->array);
    if (st != GPUC_OK)
        snprintf(err, 256, "%s", gpuc_errmsg(u->gpu));
    return st;
}

static gpuc_status upload_rows(void *ctx, uint32_t y0, uint32_t n, const float *values, char *err)
{
    png_upload *u = ctx;
    size_t row_values = (size_t)u->array->dims.x * 4;
    gpuc_status st = gpuc_array_upload_part(u->array, (size_t)y0 * row_values, (size_t)n * row_values, values);
    if (st != GPUC_OK)
        snprintf(err, 256, "%s", gpuc_errmsg(u->gpu));
    return st;
}

gpuc_status gpuc_array_from_png(gpuc *gpu, const char *path, gpuc_array **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!path || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_from_png: %s is NULL", path ? "out" : "path");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_from_png: cannot open \"%s\": %s", path,
                         strerror(errno));
    png_byte signature[8];
    size_t got = fread(signature, 1, sizeof signature, f);
    if (got != sizeof signature || png_sig_cmp(signature, 0, sizeof signature)) {
        fclose(f);
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_from_png: \"%s\" is not a PNG file (%s)", path,
                         got < sizeof signature ? "shorter than a PNG signature" : "no PNG signature");
    }
    rewind(f);
    char err[256] = "";
    png_upload u = {gpu, NULL};
    png_sink sink = {&u, upload_size, upload_rows};
    st = png_decode(f, gpu->max_image_pixels, &sink, err);
    fclose(f);
    if (st != GPUC_OK) {
        if (u.array)
            gpuc_array_destroy(u.array);
        return gpuc_fail(gpu, st, "gpuc_array_from_png: reading \"%s\" failed: %s", path, err);
    }
    gpu->stats.uploads++; /* one upload, made in blocks */
    *out = gpuc_array_handed_out(u.array);
    return GPUC_OK;
}
