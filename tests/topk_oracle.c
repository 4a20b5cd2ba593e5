/* topk_oracle.c - see topk_oracle.h. */
#include "fixture.h"
#include "topk_oracle.h"

#include <math.h>
#include <stdlib.h>

/* The documented order, written with float comparisons (not the library's integer keys): NaN above
 * everything (all NaNs equal), -0.0 == +0.0. Returns >0 when a ranks above b. */
static int value_cmp(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

static const float *oracle_values;
static int oracle_smallest;

static int oracle_cmp(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    int c = value_cmp(oracle_values[a], oracle_values[b]);
    if (oracle_smallest)
        c = -c;
    if (c != 0)
        return -c;
    return (a > b) - (a < b);
}

/* All n indices in the documented order (caller frees). */
int32_t *oracle_order(const float *v, size_t n, bool smallest)
{
    int32_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = (int32_t)i;
    oracle_values = v;
    oracle_smallest = smallest;
    qsort(idx, n, sizeof *idx, oracle_cmp);
    return idx;
}

/* mulberry32 as tutorial-tasks.md defines it. */
double mulberry32(uint32_t *state)
{
    *state += 0x6D2B79F5u;
    uint32_t t = *state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

float *fine_scores(size_t n, uint32_t seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)floor(-8000.0 * log(1.0 - mulberry32(&seed)) + 0.5);
    return v;
}

/* scores(n, seed) of the tutorial: round(rand()^3 * 1000). */
float *scores(size_t n, uint32_t seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        double r = mulberry32(&seed);
        v[i] = (float)floor(r * r * r * 1000.0 + 0.5);
    }
    return v;
}

float *random_floats(size_t n, uint32_t seed, float lo, float hi)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = lo + (hi - lo) * test_random(&seed);
    return v;
}
