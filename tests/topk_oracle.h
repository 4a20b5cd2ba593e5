/* topk_oracle.h - plain C oracles and data generators shared by the top-k test files. */
#ifndef GPUC_TEST_TOPK_ORACLE_H
#define GPUC_TEST_TOPK_ORACLE_H

#include <check.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* All n indices in the order gpuc.h documents for top-k (largest first, or smallest first), written
 * with float comparisons, not the library's integer keys: NaN above everything (NaNs equal), -0.0 ==
 * +0.0, ties by lower index. Caller frees. */
int32_t *oracle_order(const float *v, size_t n, bool smallest);

/* mulberry32, the tutorials' generator: a double in [0, 1). */
double mulberry32(uint32_t *state);

/* The tutorial's generators: fine_scores = round(-8000 ln(1 - rand())), scores = round(rand()^3 * 1000).
 * Caller frees. */
float *fine_scores(size_t n, uint32_t seed);
float *scores(size_t n, uint32_t seed);

/* n floats uniform in [lo, hi) from test_random. Caller frees. */
float *random_floats(size_t n, uint32_t seed, float lo, float hi);

/* Adds the gpuc_topk_cutoff and gpuc_rank tests (test_topk_seed.c) to the top-k suite's case. */
void topk_add_seed_tests(TCase *tc);

#endif
