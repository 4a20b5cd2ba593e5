/* cases_sort.c - gpuc_mpi_sort and gpuc_mpi_sort_pairs across ranks: float and int keys, both
 * directions, NaN / -0.0 / infinities, duplicates, uneven and empty parts, host and device parts
 * (each checked by sort_check.c against gpuc_sort on one device and a C oracle), and the failures
 * every rank must share. */
#include "sort_check.h"

#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static uint32_t bits_of(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

/* 24 pseudo-random bits of index i (stream s). */
static uint32_t hash24(uint64_t i, uint32_t s)
{
    return (uint32_t)(worker_value(i, s) * 16777216.0f);
}

static uint32_t key_unit(uint64_t i)
{
    return bits_of(worker_value(i, 11));
}
static uint32_t key_signed(uint64_t i)
{
    return bits_of(worker_value(i, 12) * 2000.0f - 1000.0f);
}
/* Few distinct floats (halves from -2 to 1.5): many ties. */
static uint32_t key_few_floats(uint64_t i)
{
    return bits_of((float)(int)(worker_value(i, 14) * 8.0f) / 2.0f - 2.0f);
}
/* Every float class gpuc_sort orders specially, among ordinary values. */
static uint32_t key_special(uint64_t i)
{
    static const uint32_t specials[] = {
        0x7fc00000u, /* the quiet NaN */
        0xffc00000u, /* a negative NaN */
        0x7f800001u, /* a signalling NaN */
        0x7fffffffu, /* NaN with every payload bit */
        0x80000000u, /* -0.0 */
        0x00000000u, /* +0.0 */
        0x7f800000u, /* +inf */
        0xff800000u, /* -inf */
        0x00000001u, /* the smallest denormal */
        0x80000001u, /* its negative */
        0x7f7fffffu, /* FLT_MAX */
        0xff7fffffu, /* -FLT_MAX */
        0x3f800000u, /* 1.0 */
        0xbf800000u, /* -1.0 */
    };
    uint32_t h = hash24(i, 15);
    if (h % 3 == 0)
        return specials[(h / 3) % (sizeof specials / sizeof specials[0])];
    return key_signed(i);
}
/* Ints from -5 to 4: many ties. */
static uint32_t key_few_ints(uint64_t i)
{
    return (uint32_t)((int32_t)(worker_value(i, 13) * 10.0f) - 5);
}
/* Ints over the whole range, INT_MIN, INT_MAX, 0 and -1 among them. */
static uint32_t key_wide_ints(uint64_t i)
{
    switch (hash24(i, 16) % 11) {
    case 0:
        return (uint32_t)INT32_MIN;
    case 1:
        return (uint32_t)INT32_MAX;
    case 2:
        return 0;
    case 3:
        return 0xffffffffu;
    default:
        return (hash24(i, 17) << 8) ^ hash24(i, 18);
    }
}
static uint32_t key_same_float(uint64_t i)
{
    (void)i;
    return bits_of(0.5f);
}
static uint32_t key_same_int(uint64_t i)
{
    (void)i;
    return 7;
}

static void sorts_right(void)
{
    uint64_t few = wsize > 1 ? (uint64_t)wsize - 1 : 1; /* fewer keys than ranks: some ranks are empty */
    bool compute = gpuc_get_info(wgpu)->backend == GPUC_BACKEND_COMPUTE; /* the radix method's backend */
    const sort_case cases[] = {
        {"float keys, even parts", 1000, GPUC_FLOAT, key_unit, .balance = 2.0},
        {"float keys descending, device parts", 1003, GPUC_FLOAT, key_signed, .descending = true, .on_device = true,
         .balance = 2.0},
        {"int keys with many ties, skewed device parts", 777, GPUC_INT, key_few_ints, .on_device = true,
         .layout = SORT_SKEWED, .balance = 2.5},
        {"int keys descending, INT_MIN and INT_MAX", 500, GPUC_INT, key_wide_ints, .descending = true},
        {"NaN, -0.0, infinities, denormals ascending, skewed", 600, GPUC_FLOAT, key_special, .on_device = true,
         .layout = SORT_SKEWED},
        {"NaN, -0.0, infinities, denormals descending", 600, GPUC_FLOAT, key_special, .descending = true},
        {"every float key equal: still spread evenly", 1001, GPUC_FLOAT, key_same_float, .balance = 1.5},
        {"every int key equal, all on the last rank", 999, GPUC_INT, key_same_int, .layout = SORT_LAST,
         .balance = 1.5},
        {"all keys on the last rank", 500, GPUC_FLOAT, key_unit, .on_device = true, .layout = SORT_LAST,
         .balance = 1.5},
        {"many keys: 2^17 + 3 random floats, slices within 10% of n / P", 131075, GPUC_FLOAT, key_signed,
         .on_device = true, .balance = 1.1},
        {"fewer keys than ranks", few, GPUC_FLOAT, key_signed},
        {"one key", 1, GPUC_INT, key_wide_ints},
        {"one key, descending, on a device", 1, GPUC_FLOAT, key_special, .descending = true, .on_device = true},
        {"the bitonic method asked for", 1000, GPUC_FLOAT, key_special, .method = GPUC_SORT_BITONIC},
        {"the radix method asked for, below the size it is chosen at", 2000, GPUC_INT, key_wide_ints,
         .descending = true, .method = compute ? GPUC_SORT_RADIX : GPUC_SORT_BITONIC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        sort_check_case(&cases[i]);
}

static void pairs_sort_right(void)
{
    uint64_t few = wsize > 1 ? (uint64_t)wsize - 1 : 1;
    const sort_case cases[] = {
        {"pairs: float keys with ties, int values, device parts", 1000, GPUC_FLOAT, key_few_floats, .on_device = true,
         .pairs = true, .value_type = GPUC_INT, .balance = 2.0},
        {"pairs: int keys with ties, float values, descending, skewed", 801, GPUC_INT, key_few_ints,
         .descending = true, .layout = SORT_SKEWED, .pairs = true, .value_type = GPUC_FLOAT, .balance = 2.5},
        {"pairs: every key equal keeps the global index order", 501, GPUC_INT, key_same_int, .layout = SORT_LAST,
         .pairs = true, .value_type = GPUC_INT, .balance = 1.5},
        {"pairs: NaN and -0.0 descending, no sorted keys asked for", 640, GPUC_FLOAT, key_special,
         .descending = true, .on_device = true, .pairs = true, .value_type = GPUC_FLOAT, .no_sorted_keys = true},
        {"pairs: fewer keys than ranks", few, GPUC_FLOAT, key_special, .pairs = true, .value_type = GPUC_INT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        sort_check_case(&cases[i]);
}

/* ---- failures: every rank returns the same error, and no output is touched ----------------------- */

static char sentinel;
#define UNTOUCHED ((gpuc_array *)&sentinel)

/* One failing call: each rank passes its own keys / values / desc / outputs. */
typedef struct bad_call {
    gpuc *gpu;
    MPI_Comm comm;
    gpuc_arg keys, values;
    gpuc_sort_desc desc;
    bool pairs, no_part, no_sorted;
} bad_call;

static void fails_everywhere(const char *what, bad_call call, gpuc_status want, const char *fragment,
                             const char *fragment2)
{
    worker_case(what);
    gpuc_array *sk = UNTOUCHED, *sv = UNTOUCHED;
    gpuc_mpi_part part = {11, 22, 33};
    gpuc_status st;
    if (call.pairs)
        st = gpuc_mpi_sort_pairs(call.gpu, call.comm, call.keys, call.values, &call.desc, &sk,
                                 call.no_sorted ? NULL : &sv, call.no_part ? NULL : &part);
    else
        st = gpuc_mpi_sort(call.gpu, call.comm, call.keys, &call.desc, call.no_sorted ? NULL : &sk,
                           call.no_part ? NULL : &part);
    WCHECK_FAILS(st, want, fragment);
    if (fragment2)
        WCHECK(strstr(gpuc_mpi_errmsg(), fragment2) != NULL, "message \"%s\" lacks \"%s\"", gpuc_mpi_errmsg(),
               fragment2);
    const char *call_name = call.pairs ? "gpuc_mpi_sort_pairs: " : "gpuc_mpi_sort: ";
    WCHECK(strncmp(gpuc_mpi_errmsg(), call_name, strlen(call_name)) == 0, "message \"%s\" does not name the call",
           gpuc_mpi_errmsg());
    WCHECK(sk == UNTOUCHED && sv == UNTOUCHED && part.count == 11 && part.offset == 22 && part.total == 33,
           "an output was set by a failed call");
}

static void failures(void)
{
    int last = wsize - 1;
    bool is_last = wrank == last;
    float f[4] = {3.0f, 1.0f, 2.0f, 0.0f};
    int32_t i4[4] = {3, 1, 2, 0};
    gpuc_arg fkeys = gpuc_arg_host_f32(f, (gpuc_dims){4}), ikeys = gpuc_arg_host_i32(i4, (gpuc_dims){4});
    char last_says[32];
    snprintf(last_says, sizeof last_says, "rank %d: ", last);
    bad_call fine = {wgpu, wcomm, fkeys, ikeys, {false}, false, false, false};
    bad_call c;

    /* A freed device array (gpuc.h, HANDLES): refused on every rank, not read. */
    gpuc_array *freed = NULL;
    WCHECK(gpuc_array_from_f32(wgpu, f, (gpuc_dims){4}, &freed) == GPUC_OK, "%s", gpuc_errmsg(wgpu));
    gpuc_array_free(freed);
    c = fine;
    c.keys = gpuc_arg_array(freed);
    fails_everywhere("freed keys array", c, GPUC_ERROR_MISUSE, "was freed", NULL);

    if (wsize > 1) { /* parameters only differ with two ranks or more */
        c = fine;
        c.desc.descending = is_last;
        fails_everywhere("descending differs across ranks", c, GPUC_ERROR_INVALID_ARGUMENT, "descending differs",
                         NULL);
        c = fine;
        c.desc.method = is_last ? GPUC_SORT_BITONIC : GPUC_SORT_AUTO;
        fails_everywhere("method differs across ranks", c, GPUC_ERROR_INVALID_ARGUMENT, "method differs", NULL);
        c = fine;
        c.keys = is_last ? ikeys : fkeys;
        fails_everywhere("key type differs across ranks", c, GPUC_ERROR_INVALID_ARGUMENT, "key type", "differs");
        c = fine;
        c.pairs = true;
        c.values = is_last ? gpuc_arg_host_f32(f, (gpuc_dims){4}) : ikeys;
        fails_everywhere("value type differs across ranks", c, GPUC_ERROR_INVALID_ARGUMENT, "value type", "differs");
    }

    c = fine;
    c.desc.method = (gpuc_sort_method)99;
    fails_everywhere("method 99 on every rank", c, GPUC_ERROR_INVALID_ARGUMENT, "rank 0: ",
                     "method 99 is not a gpuc_sort_method");

    c = fine;
    if (is_last) { /* a rank without keys, which sorts nothing, checks the method too */
        c.keys = gpuc_arg_host_f32(NULL, (gpuc_dims){0});
        c.desc.method = (gpuc_sort_method)-1;
    }
    fails_everywhere("method -1 on a rank without keys", c, GPUC_ERROR_INVALID_ARGUMENT, last_says,
                     "method -1 is not a gpuc_sort_method");

    if (gpuc_get_info(wgpu)->backend != GPUC_BACKEND_COMPUTE) { /* the method is passed on to gpuc_sort */
        c = fine;
        c.desc.method = GPUC_SORT_RADIX;
        fails_everywhere("the radix method on the fragment backend", c, GPUC_ERROR_INVALID_ARGUMENT, "rank 0: ",
                         "compute-only");
    }

    c = fine;
    if (is_last)
        c.keys = gpuc_arg_host_f32(NULL, (gpuc_dims){5});
    fails_everywhere("one rank's keys are NULL", c, GPUC_ERROR_INVALID_ARGUMENT, last_says, "keys: host data is NULL");

    c = fine;
    gpuc_array *square = NULL;
    WCHECK_OK(gpuc_array_new(wgpu, GPUC_FLOAT, (gpuc_dims){2, 2}, &square));
    if (wrank == 0)
        c.keys = gpuc_arg_array(square);
    fails_everywhere("rank 0's keys are 2D", c, GPUC_ERROR_TYPE_MISMATCH, "rank 0: ", "1D");
    gpuc_array_free(square);

    c = fine;
    c.pairs = true;
    if (is_last)
        c.values = gpuc_arg_host_i32(i4, (gpuc_dims){3});
    fails_everywhere("values shorter than keys on one rank", c, GPUC_ERROR_INVALID_ARGUMENT, last_says,
                     "keys has 4 elements but values has 3");

    c = fine;
    c.keys = gpuc_arg_host_f32(NULL, (gpuc_dims){0});
    fails_everywhere("no keys on any rank", c, GPUC_ERROR_INVALID_ARGUMENT, "no rank holds any keys", NULL);

    c = fine;
    c.no_part = is_last;
    fails_everywhere("one rank passes no part", c, GPUC_ERROR_INVALID_ARGUMENT, last_says, "part is NULL");

    c = fine;
    c.pairs = true;
    c.no_sorted = wrank == 0;
    fails_everywhere("rank 0 passes no sorted_values", c, GPUC_ERROR_INVALID_ARGUMENT, "rank 0: ", "sorted_values");

    c = fine;
    if (is_last) /* never read: refused before any element is touched */
        c.keys = gpuc_arg_host_f32(f, (gpuc_dims){0x80000000u});
    fails_everywhere("more keys on a rank than MPI counts hold", c, GPUC_ERROR_LIMIT, last_says, "2^31 - 1");

    c = fine;
    if (is_last) /* passes the call's own checks; gpuc_sort refuses it on the device step, unread */
        c.keys = gpuc_arg_host_f32(f, (gpuc_dims){(1u << 30) + 1});
    fails_everywhere("one rank's local sort fails", c, GPUC_ERROR_LIMIT, last_says, "sorting this rank's part");

    c = fine;
    c.pairs = true;
    if (wrank == 0)
        c.values = gpuc_arg_host_i32(i4, (gpuc_dims){(1u << 30) + 1});
    c.keys = wrank == 0 ? gpuc_arg_host_f32(f, (gpuc_dims){(1u << 30) + 1}) : fkeys;
    fails_everywhere("rank 0's local pairs sort fails", c, GPUC_ERROR_LIMIT, "rank 0: ", "2^30");

    c = fine;
    if (is_last)
        c.gpu = NULL;
    fails_everywhere("one rank has no context", c, GPUC_ERROR_INVALID_ARGUMENT, last_says, "context is NULL");

    c = fine;
    c.comm = MPI_COMM_NULL;
    fails_everywhere("MPI_COMM_NULL", c, GPUC_ERROR_INVALID_ARGUMENT, "MPI_COMM_NULL", NULL);

    worker_case("a call after the failures");
    gpuc_array *sk = NULL;
    gpuc_mpi_part part;
    WCHECK_OK(gpuc_mpi_sort(wgpu, wcomm, fkeys, NULL, &sk, &part));
    WCHECK(part.total == 4 * (uint64_t)wsize, "part.total %llu after the failures", (unsigned long long)part.total);
    gpuc_array_free(sk);

    worker_case("the time is split into device work and communication");
    gpuc_mpi_timing t;
    gpuc_mpi_last_timing(&t);
    WCHECK(t.device_s > 0 && t.total_s >= t.device_s + t.comm_s - 1e-6, "device %g s, comm %g s, total %g s",
           t.device_s, t.comm_s, t.total_s);
    WCHECK(wsize == 1 ? t.comm_s >= 0 : t.comm_s > 0, "no communication time on %d ranks", wsize);
}

void cases_sort(void)
{
    sorts_right();
    pairs_sort_right();
    failures();
}
