/* tutorial_data.c - see tutorial_data.h. */
#include "tutorial_data.h"

#include <math.h>

mulberry32 mulberry32_seed(uint32_t seed)
{
    mulberry32 r = {seed};
    return r;
}

/* Math.imul: the low 32 bits of the product; unsigned arithmetic wraps exactly like it. */
double mulberry32_next(mulberry32 *rand)
{
    rand->state += 0x6D2B79F5u;
    uint32_t t = rand->state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

double js_round(double x)
{
    return floor(x + 0.5);
}

void gen_scores(float *out, size_t n, uint32_t seed)
{
    mulberry32 rand = mulberry32_seed(seed);
    for (size_t i = 0; i < n; i++) {
        double r = mulberry32_next(&rand);
        out[i] = (float)js_round(r * r * r * 1000.0);
    }
}

void gen_fine_scores(float *out, size_t n, uint32_t seed)
{
    mulberry32 rand = mulberry32_seed(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = (float)js_round(-8000.0 * log(1.0 - mulberry32_next(&rand)));
}

/* A Gaussian bump centred at (cx, cy) with falloff `sharpness`. */
static double glow_at(double nx, double ny, double cx, double cy, double sharpness)
{
    return exp(-((nx - cx) * (nx - cx) + (ny - cy) * (ny - cy)) * sharpness);
}

void gen_brightness(float *out, size_t size, uint32_t seed)
{
    mulberry32 rand = mulberry32_seed(seed);
    for (size_t y = 0; y < size; y++)
        for (size_t x = 0; x < size; x++) {
            double nx = (double)x / (double)size, ny = (double)y / (double)size;
            double glow = glow_at(nx, ny, 0.22, 0.68, 30) + 0.82 * glow_at(nx, ny, 0.74, 0.31, 55) +
                          0.55 * glow_at(nx, ny, 0.55, 0.86, 90);
            out[y * size + x] = (float)js_round(600.0 * glow + 40.0 * mulberry32_next(&rand));
        }
}

void gen_values(float *out, size_t n, uint32_t seed)
{
    mulberry32 rand = mulberry32_seed(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = (float)(js_round(mulberry32_next(&rand) * 10000.0) / 100.0);
}

void gen_samples(float *out, size_t n, uint32_t seed)
{
    mulberry32 rand = mulberry32_seed(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = (float)floor(mulberry32_next(&rand) * 100.0);
}
