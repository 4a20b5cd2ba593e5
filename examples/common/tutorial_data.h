/* tutorial_data.h - the tutorials' data generators (spec/tutorial-tasks.md), bit for bit: mulberry32,
 * JavaScript's Math.round, and the five generators. Values are computed in double and stored as
 * float32, as a GPU.js kernel receives them. Shared by the examples and by their tests. */
#ifndef TUTORIAL_DATA_H
#define TUTORIAL_DATA_H

#include <stddef.h>
#include <stdint.h>

/* mulberry32: a 32-bit generator returning doubles in [0, 1). */
typedef struct mulberry32 {
    uint32_t state;
} mulberry32;

mulberry32 mulberry32_seed(uint32_t seed);
double mulberry32_next(mulberry32 *rand);

/* JavaScript's Math.round: floor(x + 0.5) (so -2.5 rounds to -2). */
double js_round(double x);

/* Top-K: round(rand()^3 * 1000), lumpy integers 0..1000 with many ties. */
void gen_scores(float *out, size_t n, uint32_t seed);
/* Top-K: round(-8000 * ln(1 - rand())), whole numbers with a long tail. */
void gen_fine_scores(float *out, size_t n, uint32_t seed);
/* Top-K: a size x size brightness grid (row-major, out[y * size + x]): three glows plus noise. */
void gen_brightness(float *out, size_t size, uint32_t seed);
/* Bitonic sort: round(rand() * 10000) / 100, values 0..100 with two decimals. */
void gen_values(float *out, size_t n, uint32_t seed);
/* Stream compaction: floor(rand() * 100), integers 0..99. */
void gen_samples(float *out, size_t n, uint32_t seed);

#endif
