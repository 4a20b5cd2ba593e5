/* png_decode.h - a PNG file decoded into a GPU.js picture's float rows, without GL (gpuc_array_from_png
 * uploads them; the fuzz target checks them). */
#ifndef GPUC_PNG_DECODE_H
#define GPUC_PNG_DECODE_H

#include <gpuc.h>

#include <stdint.h>
#include <stdio.h>

/* Where the decoded picture goes. Both calls return GPUC_OK to go on; anything else stops the read
 * with that status, err (256 bytes) saying why. */
typedef struct png_sink {
    void *ctx;
    /* The picture's size, once the header is read and within max_pixels, before any pixel memory. */
    gpuc_status (*size)(void *ctx, uint32_t w, uint32_t h, char *err);
    /* Array rows [y0, y0 + n) (y = 0 is the file's last scanline, as GPU.js has pictures), in order
     * of decreasing y0: n * w * 4 floats, each channel / 255 as float32. */
    gpuc_status (*rows)(void *ctx, uint32_t y0, uint32_t n, const float *values, char *err);
} png_sink;

/* Reads the PNG file f (from its start) as 8-bit RGBA and hands it to sink in blocks of rows. Any
 * corrupt chunk is an error (a bad CRC of any chunk, libpng's benign errors and warnings, a palette
 * index past the palette; an ancillary chunk over 8 MB is refused too). A picture
 * of more than max_pixels pixels (0: no limit) is refused with GPUC_ERROR_LIMIT before any pixel
 * memory is taken. Memory: one block of rows (about 1 MiB) beside the sink's, and for an interlaced
 * file its 8-bit pixels (4 bytes a pixel). On failure err says why (libpng's words for a corrupt file:
 * GPUC_ERROR_INVALID_ARGUMENT). */
gpuc_status png_decode(FILE *f, uint64_t max_pixels, const png_sink *sink, char *err);

#endif
