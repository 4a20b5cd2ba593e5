/* fuzz_png.c - libFuzzer target for gpuc_array_from_png's decoder (src/device/png_decode.c, GL-free):
 * any bytes as a PNG file. It must never crash, leak or hang; the sink checks that rows come in
 * order, each block within the picture, every value a channel / 255; a picture over a small pixel cap
 * is refused before any rows come. */
#include "device/png_decode.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_PIXELS = 1 << 18 };

typedef struct seen {
    uint32_t w, h, next; /* the next array row expected to end a block (rows come top block first) */
    int sized;
} seen;

static gpuc_status on_size(void *ctx, uint32_t w, uint32_t h, char *err)
{
    seen *s = ctx;
    (void)err;
    if (s->sized || w == 0 || h == 0 || (uint64_t)w * h > FUZZ_MAX_PIXELS)
        abort();
    s->sized = 1;
    s->w = w;
    s->h = h;
    s->next = h;
    return GPUC_OK;
}

static gpuc_status on_rows(void *ctx, uint32_t y0, uint32_t n, const float *values, char *err)
{
    seen *s = ctx;
    (void)err;
    if (!s->sized || n == 0 || y0 + n != s->next)
        abort();
    s->next = y0;
    for (size_t i = 0; i < (size_t)n * s->w * 4; i++) {
        float v = values[i] * 255.0f;
        if (!(v >= 0 && v <= 255.0f) || (float)(int)(v + 0.5f) - v > 1e-3f || v - (float)(int)(v + 0.5f) > 1e-3f)
            abort();
    }
    return GPUC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (!f)
        return 0;
    seen s = {0, 0, 0, 0};
    png_sink sink = {&s, on_size, on_rows};
    char err[256];
    gpuc_status st = png_decode(f, FUZZ_MAX_PIXELS, &sink, err);
    fclose(f);
    if (st == GPUC_OK && (!s.sized || s.next != 0)) /* a success delivered every row */
        abort();
    return 0;
}
