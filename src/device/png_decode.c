/* png_decode.c - libpng reading a PNG as 8-bit RGBA, strictly (any corrupt chunk fails) and within a
 * pixel limit, converted block by block into the float rows of a GPU.js picture (bottom row first). */
#include "png_decode.h"

#include <png.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Rows are converted and handed over in blocks of about this many bytes of floats. */
enum { BLOCK_BYTES = 1 << 20 };

/* libpng reports errors through longjmp; the message is kept for the caller. Its warnings are errors
 * too: on reading they mean a chunk it drops (a malformed sPLT, an ancillary chunk over the memory
 * limit) or colour chunks that contradict each other. */
typedef struct decode_state {
    char *err;
    volatile gpuc_status st; /* for an error raised on the sink's behalf (volatile: read after longjmp) */
} decode_state;

static void on_error(png_structp png, png_const_charp message)
{
    decode_state *s = png_get_error_ptr(png);
    if (message != s->err)
        snprintf(s->err, 256, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    on_error(png, message);
}

/* A palette file's colours as RGBA8 for each index (tRNS giving alpha, opaque past it); entries past
 * the palette are marked by count. */
typedef struct palette_map {
    int count;
    png_byte rgba[256][4];
} palette_map;

/* Asks libpng for 8-bit RGBA whatever the file holds: gray expanded, 16-bit channels cut to their high
 * byte, transparency chunks turned into alpha, opaque alpha added where none is. A palette file is
 * read as one index byte per pixel and expanded here (into map): libpng's own expansion would give an
 * index past the palette as opaque black without a word, where the PNG specification calls it an
 * error. */
static void want_rgba8(png_structp png, png_infop info, palette_map *map)
{
    png_byte color = png_get_color_type(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) {
        png_colorp colors = NULL;
        png_bytep alpha = NULL;
        int ncolors = 0, nalpha = 0;
        png_get_PLTE(png, info, &colors, &ncolors);
        if (png_get_valid(png, info, PNG_INFO_tRNS))
            png_get_tRNS(png, info, &alpha, &nalpha, NULL);
        map->count = ncolors;
        for (int i = 0; i < ncolors; i++) {
            map->rgba[i][0] = colors[i].red;
            map->rgba[i][1] = colors[i].green;
            map->rgba[i][2] = colors[i].blue;
            map->rgba[i][3] = i < nalpha ? alpha[i] : 0xff;
        }
        png_set_packing(png); /* 1, 2 and 4-bit indices one to a byte */
        png_set_interlace_handling(png);
        png_read_update_info(png, info);
        return;
    }
    png_set_expand(png);
    png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

/* Scanlines [s0, s0 + n) of 8-bit RGBA, or of palette indices where map (scanlines[k] is scanline
 * s0 + k), as floats into block, bottom row first, then to the sink: they are array rows
 * [h - s0 - n, h - s0). */
static gpuc_status deliver(const png_sink *sink, uint32_t w, uint32_t h, uint32_t s0, uint32_t n,
                           const png_byte *const *scanlines, const palette_map *map, float *block, char *err)
{
    size_t row_values = (size_t)w * 4;
    float value[256]; /* the float32 nearest v / 255, as GPU.js's Float32Array has it */
    for (int v = 0; v < 256; v++)
        value[v] = (float)(v / 255.0);
    for (uint32_t k = 0; k < n; k++) {
        const png_byte *src = scanlines[k];
        float *dst = block + (size_t)(n - 1 - k) * row_values;
        for (size_t x = 0; x < w; x++) {
            const png_byte *px = src + 4 * x;
            if (map) {
                if (src[x] >= map->count) {
                    snprintf(err, 256, "pixel (%zu, %u) has palette index %d; the palette has %d entries", x, s0 + k,
                             src[x], map->count);
                    return GPUC_ERROR_INVALID_ARGUMENT;
                }
                px = map->rgba[src[x]];
            }
            for (int c = 0; c < 4; c++)
                dst[4 * x + (size_t)c] = value[px[c]];
        }
    }
    return sink->rows(sink->ctx, h - s0 - n, n, block, err);
}

gpuc_status png_decode(FILE *f, uint64_t max_pixels, const png_sink *sink, char *err)
{
    decode_state state = {err, GPUC_ERROR_INVALID_ARGUMENT};
    float *volatile block = NULL;
    png_bytep volatile image = NULL;   /* an interlaced file's 8-bit pixels, or one scanline */
    png_bytepp volatile rows = NULL;   /* pointers into image */
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(err, 256, "out of memory in libpng");
        return GPUC_ERROR_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(image);
        free(block);
        png_destroy_read_struct(&png, &info, NULL);
        return state.st;
    }
    png_init_io(png, f);
    /* Strict: a bad CRC fails the read for every chunk (libpng drops a bad ancillary one with a
     * warning by default), and so do its "benign" errors (a bad tRNS length, extra image data). */
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(png, 0);
    /* gpuc applies no colour profile: an embedded sRGB profile libpng knows to be outdated does not
     * matter here (every other check of an iCCP chunk stays). */
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    /* An ancillary chunk (decompressed text or profile) may take at most 8 MB. */
    png_set_chunk_malloc_max(png, 8000000);
    /* The size limit is gpuc's (below, on width x height); libpng's own default would refuse a
     * picture more than 1,000,000 pixels wide. */
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_read_info(png, info);
    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (max_pixels && (uint64_t)w * h > max_pixels) {
        snprintf(err, 256, "the picture is %ux%u = %llu pixels, more than the limit of %llu "
                 "(gpuc_options.max_image_pixels)", w, h, (unsigned long long)w * h, (unsigned long long)max_pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return GPUC_ERROR_LIMIT;
    }
    palette_map map;
    bool palette = png_get_color_type(png, info) == PNG_COLOR_TYPE_PALETTE;
    want_rgba8(png, info, &map);
    if (png_get_rowbytes(png, info) != (size_t)w * (palette ? 1 : 4)) {
        char why[96];
        snprintf(why, sizeof why, "libpng gives %zu bytes per row, not %d per pixel",
                 (size_t)png_get_rowbytes(png, info), palette ? 1 : 4);
        png_error(png, why);
    }
    gpuc_status st = sink->size(sink->ctx, w, h, err);
    if (st != GPUC_OK) {
        state.st = st;
        png_error(png, err);
    }
    size_t row_bytes = (size_t)w * 4, row_floats_bytes = row_bytes * sizeof(float);
    uint32_t per_block = row_floats_bytes >= BLOCK_BYTES ? 1 : (uint32_t)(BLOCK_BYTES / row_floats_bytes);
    if (per_block > h)
        per_block = h;
    bool interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    /* An interlaced file fills every row in each of its passes: all its 8-bit pixels are kept. */
    size_t image_rows = interlaced ? h : per_block;
    block = malloc((size_t)per_block * row_floats_bytes);
    image = malloc(image_rows * row_bytes);
    rows = malloc(sizeof(png_bytep) * image_rows);
    if (!block || !image || !rows) {
        state.st = GPUC_ERROR_OUT_OF_MEMORY;
        snprintf(err, 256, "out of host memory for %ux%u pixels", w, h);
        png_error(png, err);
    }
    for (size_t y = 0; y < image_rows; y++)
        rows[y] = image + y * row_bytes;
    if (interlaced)
        png_read_image(png, rows);
    for (uint32_t s0 = 0; s0 < h; s0 += per_block) {
        uint32_t n = h - s0 < per_block ? h - s0 : per_block;
        if (!interlaced)
            png_read_rows(png, rows, NULL, n);
        st = deliver(sink, w, h, s0, n, interlaced ? (const png_byte *const *)rows + s0 : (const png_byte *const *)rows,
                     palette ? &map : NULL, block, err);
        if (st != GPUC_OK) {
            state.st = st;
            png_error(png, err);
        }
    }
    png_read_end(png, info); /* the chunks after the image, and IEND: CRCs checked */
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(image);
    free(block);
    return GPUC_OK;
}
