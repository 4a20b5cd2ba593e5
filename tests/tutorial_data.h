/* tutorial_data.h - the tutorial tasks' data generators (spec/tutorial-tasks.md), written from their
 * description: mulberry32 and the five data sets built on it. Values are float32 as the kernels see them. */
#ifndef GPUC_TEST_TUTORIAL_DATA_H
#define GPUC_TEST_TUTORIAL_DATA_H

#include <stddef.h>
#include <stdint.h>

typedef struct mulberry32 {
    uint32_t state;
} mulberry32;

double mulberry32_next(mulberry32 *m);

void data_scores(float *out, size_t n, uint32_t seed);      /* round(rand()^3 * 1000) */
void data_fine_scores(float *out, size_t n, uint32_t seed); /* round(-8000 * ln(1 - rand())) */
void data_brightness(float *out, int size, uint32_t seed);  /* size x size, row-major */
void data_values(float *out, size_t n, uint32_t seed);      /* round(rand() * 10000) / 100 */
void data_samples(float *out, size_t n, uint32_t seed);     /* floor(rand() * 100) */

/* JavaScript's Math.round. */
double js_round(double x);

#endif
