/* tutorial_data.c - see tutorial_data.h. */
#include "tutorial_data.h"

#include <math.h>

double mulberry32_next(mulberry32 *m)
{
    m->state += 0x6D2B79F5u;
    uint32_t t = m->state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

double js_round(double x)
{
    return floor(x + 0.5);
}

void data_scores(float *out, size_t n, uint32_t seed)
{
    mulberry32 m = {seed};
    for (size_t i = 0; i < n; i++) {
        double r = mulberry32_next(&m);
        out[i] = (float)js_round(r * r * r * 1000.0);
    }
}

void data_fine_scores(float *out, size_t n, uint32_t seed)
{
    mulberry32 m = {seed};
    for (size_t i = 0; i < n; i++)
        out[i] = (float)js_round(-8000.0 * log(1.0 - mulberry32_next(&m)));
}

void data_brightness(float *out, int size, uint32_t seed)
{
    mulberry32 m = {seed};
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double nx = (double)x / size, ny = (double)y / size;
            double glow = exp(-((nx - 0.22) * (nx - 0.22) + (ny - 0.68) * (ny - 0.68)) * 30) +
                          0.82 * exp(-((nx - 0.74) * (nx - 0.74) + (ny - 0.31) * (ny - 0.31)) * 55) +
                          0.55 * exp(-((nx - 0.55) * (nx - 0.55) + (ny - 0.86) * (ny - 0.86)) * 90);
            out[y * size + x] = (float)js_round(600 * glow + 40 * mulberry32_next(&m));
        }
}

void data_values(float *out, size_t n, uint32_t seed)
{
    mulberry32 m = {seed};
    for (size_t i = 0; i < n; i++)
        out[i] = (float)(js_round(mulberry32_next(&m) * 10000.0) / 100.0);
}

void data_samples(float *out, size_t n, uint32_t seed)
{
    mulberry32 m = {seed};
    for (size_t i = 0; i < n; i++)
        out[i] = (float)floor(mulberry32_next(&m) * 100.0);
}
