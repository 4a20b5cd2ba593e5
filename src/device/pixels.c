/* pixels.c - a graphical kernel's result as pixels: gpuc_array_read_pixels (GPU.js's getPixels) and
 * gpuc_array_write_png (libpng). The result is an int array whose cells are RGBA8 pixels, r in the
 * lowest byte, so its bytes in memory already are r, g, b, a, pixel after pixel. */
#include "internal.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks that a is a picture (an int array, 1D or 2D) and makes its host mirror current. */
static gpuc_status picture_bytes(const gpuc_array *handle, const char *fn, const uint8_t **bytes, gpuc_array **body)
{
    gpuc_array *a; /* not const: the mirror is a cache, and filling it is not a visible change */
    gpuc_status st = gpuc_array_enter(handle, fn, &a);
    if (st != GPUC_OK)
        return st;
    *body = a;
    if (a->type != GPUC_INT || a->dims.z)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "%s: the array is a %uD %s array; pixels come from a graphical kernel's result, a 1D or 2D "
                         "int array", fn, (unsigned)gpuc_dims_rank(a->dims), gpuc_type_name(a->type));
    if (!a->mirror_valid) {
        st = gpuc_array_fetch_mirror(a);
        if (st != GPUC_OK)
            return st;
    }
    *bytes = a->mirror;
    return GPUC_OK;
}

gpuc_status gpuc_array_read_pixels(const gpuc_array *handle, uint8_t *rgba, size_t bytes, bool flip)
{
    const uint8_t *pixels;
    gpuc_array *a;
    gpuc_status st = picture_bytes(handle, "gpuc_array_read_pixels", &pixels, &a);
    if (st != GPUC_OK)
        return st;
    if (!rgba || bytes != a->cells * 4)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_array_read_pixels: %s; the picture has %zu pixels, so %zu bytes", rgba ? "wrong size"
                         : "rgba is NULL", a->cells, a->cells * 4);
    if (flip) { /* GL's order, thread.y = 0 first: the array's own */
        memcpy(rgba, pixels, bytes);
        return GPUC_OK;
    }
    size_t w = a->dims.x, h = a->dims.y ? a->dims.y : 1;
    for (size_t row = 0; row < h; row++) /* image order: the top row (last thread.y) first */
        memcpy(rgba + row * w * 4, pixels + (h - 1 - row) * w * 4, w * 4);
    return GPUC_OK;
}

/* libpng reports errors through longjmp; the message is kept for gpuc_errmsg. */
static void on_png_error(png_structp png, png_const_charp message)
{
    snprintf((char *)png_get_error_ptr(png), 256, "%s", message);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
    (void)png, (void)message;
}

/* Writes w x h pixels, the last row (highest thread.y) first: the picture as GPU.js's canvas shows it. */
static bool write_png(FILE *f, const uint8_t *pixels, uint32_t w, uint32_t h, char err[256])
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, err, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(err, 256, "out of memory in libpng");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t row = 0; row < h; row++)
        png_write_row(png, pixels + (size_t)(h - 1 - row) * w * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return true;
}

gpuc_status gpuc_array_write_png(const gpuc_array *handle, const char *path)
{
    const uint8_t *pixels;
    gpuc_array *a;
    gpuc_status st = picture_bytes(handle, "gpuc_array_write_png", &pixels, &a);
    if (st != GPUC_OK)
        return st;
    if (!path)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_write_png: path is NULL");
    FILE *f = fopen(path, "wb");
    if (!f)
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_write_png: cannot open \"%s\": %s", path,
                         strerror(errno));
    char err[256] = "";
    bool ok = write_png(f, pixels, a->dims.x, a->dims.y ? a->dims.y : 1, err);
    if (fclose(f) != 0 && ok) {
        ok = false;
        snprintf(err, sizeof err, "%s", strerror(errno));
    }
    if (!ok) {
        remove(path);
        return gpuc_fail(a->gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_array_write_png: writing \"%s\" failed: %s", path,
                         err);
    }
    return GPUC_OK;
}
