/* local_parts.c - global data sets generated on every rank, and this rank's slice as a gpuc_arg. */
#include "local_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t float_bits(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

float float_of_bits(uint32_t bits)
{
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static float special_value(uint64_t i, uint32_t seed)
{
    float v = worker_value(i, seed);
    switch ((int)(v * 16.0f)) {
    case 0: return float_of_bits(0x7fc00000u); /* the quiet NaN */
    case 1: return float_of_bits(0xffc00123u); /* a negative NaN with a payload */
    case 2: return float_of_bits(0x7f800001u); /* a signalling NaN's bits */
    case 3: return -0.0f;
    case 4: return 0.0f;
    case 5: return INFINITY;
    case 6: return -INFINITY;
    default: return floorf(v * 4.0f) / 4.0f - 0.5f; /* four values, each repeated across all ranks */
    }
}

float *data_floats(data_kind kind, size_t n, uint32_t seed)
{
    float *all = malloc((n ? n : 1) * sizeof *all);
    for (size_t i = 0; all && i < n; i++)
        all[i] = kind == DATA_PLAIN ? worker_value(i, seed) : kind == DATA_SPECIAL ? special_value(i, seed) : 1.0f;
    return all;
}

int32_t *data_ints(size_t n, uint32_t seed, int32_t bound)
{
    int32_t *all = malloc((n ? n : 1) * sizeof *all);
    for (size_t i = 0; all && i < n; i++)
        all[i] = (int32_t)(worker_value(i, seed) * 2.0f * (float)bound) - bound;
    return all;
}

gpuc_arg local_part(const void *all, bool is_int, size_t n, bool device, gpuc_array **owned, uint64_t *lo, uint64_t *hi)
{
    worker_slice(n, wrank, wsize, lo, hi);
    *owned = NULL;
    uint32_t count = (uint32_t)(*hi - *lo);
    const void *mine = count ? (const char *)all + *lo * 4 : NULL;
    gpuc_dims dims = {count, 0, 0};
    if (device && count) {
        gpuc_status st =
            is_int ? gpuc_array_from_i32(wgpu, mine, dims, owned) : gpuc_array_from_f32(wgpu, mine, dims, owned);
        WCHECK(st == GPUC_OK, "uploading the local part: %s", gpuc_errmsg(wgpu));
        if (st == GPUC_OK)
            return gpuc_arg_array(*owned);
    }
    return is_int ? gpuc_arg_host_i32(mine, dims) : gpuc_arg_host_f32(mine, dims);
}

gpuc_arg foreign_part(bool is_int, gpuc **other, gpuc_array **array)
{
    static const float f[3] = {1, 2, 3};
    static const int32_t i[3] = {1, 2, 3};
    *array = NULL;
    gpuc_status st = gpuc_open(other, &(gpuc_options){.device = "cpu"});
    if (st == GPUC_OK)
        st = is_int ? gpuc_array_from_i32(*other, i, (gpuc_dims){3, 0, 0}, array)
                    : gpuc_array_from_f32(*other, f, (gpuc_dims){3, 0, 0}, array);
    if (!WCHECK(st == GPUC_OK, "a second context and its array: %s", gpuc_errmsg(*other)))
        return is_int ? gpuc_arg_host_i32(i, (gpuc_dims){3, 0, 0}) : gpuc_arg_host_f32(f, (gpuc_dims){3, 0, 0});
    return gpuc_arg_array(*array);
}
