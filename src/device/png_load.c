/* png_load.c - gpuc_array_from_png: a PNG file as the vec4 2D array a GPU.js image argument is
 * (HTMLImage, ImageData...): image[y][x] is the pixel of scanline height - 1 - y (GPU.js flips images
 * so that y = 0 is the bottom row, as its outputs and gpuc_array_write_png have it), channels r, g, b, a
 * divided by 255. Every PNG kind is read as 8-bit RGBA through libpng's transformations. */
#include "internal.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports errors through longjmp; the message is kept for gpuc_errmsg. */
static void on_error(png_structp png, png_const_charp message)
{
    snprintf((char *)png_get_error_ptr(png), 256, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png, (void)message;
}

/* What reading a file gives: its size and 8-bit RGBA rows, the file's first scanline first. */
typedef struct png_pixels {
    uint32_t w, h;
    uint8_t *rgba;
} png_pixels;

/* Asks libpng for 8-bit RGBA whatever the file holds: palettes and gray expanded, 16-bit channels
 * cut to their high byte, transparency chunks turned into alpha, opaque alpha added where none is. */
static void want_rgba8(png_structp png, png_infop info)
{
    png_byte color = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

/* Reads the whole file into px (px->rgba malloc'd). On failure err says why; false. `gpu` checks the
 * size against gpuc's array limits before any pixel memory is taken. */
static bool read_png(gpuc *gpu, FILE *f, png_pixels *px, char err[256], gpuc_status *st)
{
    volatile png_bytep pixels = NULL;
    png_bytepp volatile rows = NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, err, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(err, 256, "out of memory in libpng");
        *st = GPUC_ERROR_OUT_OF_MEMORY;
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        *st = GPUC_ERROR_INVALID_ARGUMENT;
        return false;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    want_rgba8(png, info);
    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    size_t cells;
    int rank;
    char why[160]; /* png_error copies it into err */
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        snprintf(why, sizeof why, "libpng gives %zu bytes per row, not 4 per pixel", (size_t)png_get_rowbytes(png, info));
        png_error(png, why);
    }
    /* Before any pixel memory is taken: the size must make a gpuc array (one vec4 texel per pixel). */
    gpuc_status size_st = gpuc_dims_check(gpu, (gpuc_dims){w, h, 0}, "the picture", &cells, &rank);
    if (size_st == GPUC_OK && gpu->info.max_texture_buffer_size > 0 &&
        cells > (uint64_t)gpu->info.max_texture_buffer_size)
        size_st = gpuc_fail(gpu, GPUC_ERROR_LIMIT, "the picture is %ux%u pixels; the device's arrays hold at most "
                            "%lld (GL_MAX_TEXTURE_BUFFER_SIZE)", w, h, (long long)gpu->info.max_texture_buffer_size);
    if (size_st != GPUC_OK) {
        snprintf(err, 256, "%s", gpuc_errmsg(gpu));
        *st = size_st;
        png_destroy_read_struct(&png, &info, NULL);
        return false;
    }
    pixels = malloc(cells * 4);
    rows = malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) {
        snprintf(why, sizeof why, "out of host memory for %ux%u pixels", w, h);
        png_error(png, why);
    }
    for (uint32_t y = 0; y < h; y++)
        rows[y] = pixels + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    px->w = w;
    px->h = h;
    px->rgba = pixels;
    return true;
}

/* The array's values: row y is the file's scanline h - 1 - y, each channel / 255 as float32. */
static float *to_cells(const png_pixels *px)
{
    float *v = malloc((size_t)px->w * px->h * 4 * sizeof *v);
    if (!v)
        return NULL;
    size_t row_values = (size_t)px->w * 4;
    for (uint32_t y = 0; y < px->h; y++) {
        const uint8_t *src = px->rgba + (size_t)(px->h - 1 - y) * row_values;
        float *dst = v + (size_t)y * row_values;
        for (size_t i = 0; i < row_values; i++)
            dst[i] = (float)(src[i] / 255.0); /* the float32 nearest v / 255, as GPU.js's Float32Array */
    }
    return v;
}

gpuc_status gpuc_array_from_png(gpuc *gpu, const char *path, gpuc_array **out)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!path || !out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_from_png: %s is NULL", path ? "out" : "path");
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
    png_pixels px = {0};
    bool ok = read_png(gpu, f, &px, err, &st);
    fclose(f);
    if (!ok)
        return gpuc_fail(gpu, st, "gpuc_array_from_png: reading \"%s\" failed: %s", path, err);
    float *values = to_cells(&px);
    free(px.rgba);
    if (!values)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_array_from_png: out of host memory for \"%s\" (%ux%u)",
                         path, px.w, px.h);
    gpuc_array *a;
    st = gpuc_array_make(gpu, GPUC_VEC4, (gpuc_dims){px.w, px.h, 0}, ARRAY_OVERWRITTEN, &a);
    if (st == GPUC_OK && (st = gpuc_array_upload(a, values)) != GPUC_OK)
        gpuc_array_destroy(a);
    free(values);
    if (st != GPUC_OK)
        return st;
    *out = gpuc_array_handed_out(a);
    return GPUC_OK;
}
