/* sort_check.c - runs and checks one distributed sort case (sort_check.h). The oracle compares floats
 * as floats (isnan, signbit), not through gpuc's integer keys, so it is independent of the code under
 * test. */
#include "sort_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sort_layout_part(sort_layout layout, uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi)
{
    switch (layout) {
    case SORT_LAST:
        *lo = 0;
        *hi = rank == size - 1 ? n : 0;
        return;
    case SORT_SKEWED: {
        uint64_t weight = 0, below = 0;
        for (int r = 0; r < size; r++) {
            uint64_t w = (uint64_t)r * (uint64_t)r + 1;
            if (r < rank)
                below += w;
            weight += w;
        }
        uint64_t mine = (uint64_t)rank * (uint64_t)rank + 1;
        *lo = n * below / weight;
        *hi = n * (below + mine) / weight;
        return;
    }
    case SORT_EVEN:
    default:
        worker_slice(n, rank, size, lo, hi);
        return;
    }
}

uint32_t sort_value_word(gpuc_type type, uint64_t i)
{
    if (type == GPUC_INT)
        return (uint32_t)(i * 7u + 3u);
    float f = (float)i + 0.25f; /* exact and distinct below 2^22 */
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

gpuc_arg sort_host_arg(gpuc_type type, const uint32_t *words, size_t n)
{
    gpuc_dims dims = {.x = (uint32_t)n};
    const void *data = n ? words : NULL;
    return type == GPUC_INT ? gpuc_arg_host_i32(data, dims) : gpuc_arg_host_f32(data, dims);
}

/* ---- the oracle: gpuc_sort's documented order, in plain C ---------------------------------------- */

static int key_compare(gpuc_type type, bool descending, uint32_t a, uint32_t b)
{
    int c;
    if (type == GPUC_INT) {
        int32_t x = (int32_t)a, y = (int32_t)b;
        c = (x > y) - (x < y);
    } else {
        float x, y;
        memcpy(&x, &a, sizeof x);
        memcpy(&y, &b, sizeof y);
        if (isnan(x) || isnan(y)) /* every NaN after every number, in both directions */
            return (int)isnan(x) - (int)isnan(y);
        if (x == y) /* -0.0 before +0.0 */
            c = (signbit(y) != 0) - (signbit(x) != 0);
        else
            c = x < y ? -1 : 1;
    }
    return descending ? -c : c;
}

static struct {
    gpuc_type type;
    bool descending;
    const uint32_t *keys;
} oracle;

static int oracle_compare(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    int c = key_compare(oracle.type, oracle.descending, oracle.keys[a], oracle.keys[b]);
    return c ? c : (a > b) - (a < b); /* ties by global index */
}

static uint32_t canonical(gpuc_type type, uint32_t word)
{
    return type == GPUC_FLOAT && (word & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : word;
}

/* The sorted keys and values (values may be NULL) of the global array, by qsort. */
static void oracle_sort(const sort_case *sc, const uint32_t *keys, const uint32_t *values, uint32_t *out_keys,
                        uint32_t *out_values)
{
    uint64_t *order = malloc(sc->n * sizeof *order);
    for (uint64_t i = 0; i < sc->n; i++)
        order[i] = i;
    oracle.type = sc->key_type;
    oracle.descending = sc->descending;
    oracle.keys = keys;
    qsort(order, sc->n, sizeof *order, oracle_compare);
    for (uint64_t i = 0; i < sc->n; i++) {
        out_keys[i] = canonical(sc->key_type, keys[order[i]]);
        if (values)
            out_values[i] = values[order[i]];
    }
    free(order);
}

/* ---- one case ---------------------------------------------------------------------------------- */

static uint32_t *read_words(gpuc_array *a, size_t n)
{
    uint32_t *w = calloc(n ? n : 1, sizeof *w);
    if (!a)
        return w;
    gpuc_status st = gpuc_array_type(a) == GPUC_INT ? gpuc_array_read_i32(a, (int32_t *)w, n)
                                                   : gpuc_array_read_f32(a, (float *)w, n);
    WCHECK(st == GPUC_OK, "reading a slice back: %s", gpuc_errmsg(wgpu));
    return w;
}

static gpuc_array *upload(gpuc_type type, const uint32_t *w, size_t n)
{
    gpuc_array *a = NULL;
    gpuc_dims dims = {.x = (uint32_t)n};
    gpuc_status st = type == GPUC_INT ? gpuc_array_from_i32(wgpu, (const int32_t *)w, dims, &a)
                                      : gpuc_array_from_f32(wgpu, (const float *)w, dims, &a);
    WCHECK(st == GPUC_OK, "uploading a part: %s", gpuc_errmsg(wgpu));
    return a;
}

/* The single-device call on the whole array (rank 0's device). */
static void single_device_sort(const sort_case *sc, const uint32_t *keys, const uint32_t *values,
                               uint32_t *out_keys, uint32_t *out_values)
{
    gpuc_arg k = sort_host_arg(sc->key_type, keys, sc->n);
    gpuc_sort_desc desc = {sc->descending, sc->method};
    gpuc_array *sk = NULL, *sv = NULL;
    gpuc_status st = sc->pairs ? gpuc_sort_pairs(wgpu, k, sort_host_arg(sc->value_type, values, sc->n), &desc, &sk, &sv)
                               : gpuc_sort(wgpu, k, &desc, &sk);
    if (!WCHECK(st == GPUC_OK, "single-device sort: %s", gpuc_errmsg(wgpu)))
        return;
    uint32_t *w = read_words(sk, sc->n);
    memcpy(out_keys, w, sc->n * sizeof *w);
    free(w);
    if (sv) {
        w = read_words(sv, sc->n);
        memcpy(out_values, w, sc->n * sizeof *w);
        free(w);
    }
    gpuc_array_free(sk);
    gpuc_array_free(sv);
}

/* Rank 0: the gathered slices against both references, and the balance of the slices. */
static void compare_on_root(const sort_case *sc, const uint32_t *keys, const uint32_t *values,
                            const uint32_t *got_keys, const uint32_t *got_values, const int *counts)
{
    uint32_t *ok = malloc(sc->n * sizeof *ok), *ov = malloc(sc->n * sizeof *ov);
    uint32_t *dk = calloc(sc->n, sizeof *dk), *dv = calloc(sc->n, sizeof *dv);
    oracle_sort(sc, keys, values, ok, ov);
    single_device_sort(sc, keys, values, dk, dv);
    int bad_oracle = 0, bad_device = 0;
    for (uint64_t i = 0; i < sc->n; i++) {
        bool keys_checked = !(sc->pairs && sc->no_sorted_keys);
        bool o = (!keys_checked || got_keys[i] == ok[i]) && (!sc->pairs || got_values[i] == ov[i]);
        bool d = (!keys_checked || got_keys[i] == dk[i]) && (!sc->pairs || got_values[i] == dv[i]);
        if (!o && bad_oracle++ < 3)
            WCHECK(false, "element %llu: key 0x%08x value 0x%08x, the C oracle says 0x%08x / 0x%08x",
                   (unsigned long long)i, got_keys[i], sc->pairs ? got_values[i] : 0, ok[i], sc->pairs ? ov[i] : 0);
        if (!d && bad_device++ < 3)
            WCHECK(false, "element %llu: key 0x%08x value 0x%08x, gpuc_sort%s on one device says 0x%08x / 0x%08x",
                   (unsigned long long)i, got_keys[i], sc->pairs ? got_values[i] : 0, sc->pairs ? "_pairs" : "",
                   dk[i], sc->pairs ? dv[i] : 0);
    }
    WCHECK(bad_oracle == 0 && bad_device == 0, "%d elements differ from the oracle, %d from the single device",
           bad_oracle, bad_device);
    if (sc->balance > 0)
        for (int r = 0; r < wsize; r++)
            WCHECK(counts[r] <= sc->balance * (double)sc->n / wsize + wsize,
                   "rank %d's slice holds %d of %llu keys, more than %.1f * n / %d + %d", r, counts[r],
                   (unsigned long long)sc->n, sc->balance, wsize, wsize);
    free(ok);
    free(ov);
    free(dk);
    free(dv);
}

/* Checks this rank's slice where it landed, then gathers every slice to rank 0 and compares there. */
static void check_slices(const sort_case *sc, const uint32_t *keys, const uint32_t *values, gpuc_array *sk,
                         gpuc_array *sv, gpuc_mpi_part part)
{
    gpuc_array *counted = sc->pairs ? sv : sk;
    WCHECK(part.total == sc->n, "part.total %llu, expected %llu", (unsigned long long)part.total,
           (unsigned long long)sc->n);
    WCHECK(counted ? gpuc_array_cells(counted) == part.count : part.count == 0,
           "part.count %zu but the slice array holds %zu", part.count, counted ? gpuc_array_cells(counted) : 0);
    if (sk && sv)
        WCHECK(gpuc_array_cells(sk) == gpuc_array_cells(sv), "sorted keys and values differ in length");
    if (sc->pairs && sc->no_sorted_keys)
        WCHECK(sk == NULL, "sorted keys were made though not asked for");
    uint64_t count = part.count, below = 0, sum = 0;
    MPI_Exscan(&count, &below, 1, MPI_UINT64_T, MPI_SUM, wcomm);
    MPI_Allreduce(&count, &sum, 1, MPI_UINT64_T, MPI_SUM, wcomm);
    if (wrank == 0)
        below = 0;
    WCHECK(part.offset == below, "part.offset %llu, but the lower ranks hold %llu", (unsigned long long)part.offset,
           (unsigned long long)below);
    WCHECK(sum == sc->n, "the slices hold %llu keys in all, not %llu", (unsigned long long)sum,
           (unsigned long long)sc->n);

    size_t m = part.count;
    uint32_t *mk = read_words(sk, m), *mv = read_words(sv, m);
    if (!(sc->pairs && sc->no_sorted_keys))
        for (size_t i = 0; i + 1 < m; i++)
            if (!WCHECK(key_compare(sc->key_type, sc->descending, mk[i], mk[i + 1]) <= 0,
                        "slice element %zu (0x%08x) sorts after element %zu (0x%08x)", i, mk[i], i + 1, mk[i + 1]))
                break;

    int mine = (int)m, *counts = calloc((size_t)wsize, sizeof *counts), *displs = calloc((size_t)wsize, sizeof *displs);
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, wcomm);
    for (int r = 1; r < wsize; r++)
        displs[r] = displs[r - 1] + counts[r - 1];
    uint32_t *gk = NULL, *gv = NULL;
    if (wrank == 0) {
        gk = calloc(sc->n + 1, sizeof *gk);
        gv = calloc(sc->n + 1, sizeof *gv);
    }
    if (sum == sc->n) { /* the same on every rank; else the gather would overrun */
        MPI_Gatherv(mk, mine, MPI_UINT32_T, gk, counts, displs, MPI_UINT32_T, 0, wcomm);
        MPI_Gatherv(mv, mine, MPI_UINT32_T, gv, counts, displs, MPI_UINT32_T, 0, wcomm);
        if (wrank == 0)
            compare_on_root(sc, keys, values, gk, gv, counts);
    }
    free(gk);
    free(gv);
    free(counts);
    free(displs);
    free(mk);
    free(mv);
}

void sort_check_case(const sort_case *sc)
{
    worker_case(sc->name);
    uint32_t *keys = malloc((sc->n + 1) * sizeof *keys), *values = malloc((sc->n + 1) * sizeof *values);
    for (uint64_t i = 0; i < sc->n; i++) {
        keys[i] = sc->key(i);
        values[i] = sort_value_word(sc->value_type, i);
    }
    uint64_t lo, hi;
    sort_layout_part(sc->layout, sc->n, wrank, wsize, &lo, &hi);
    size_t mine = (size_t)(hi - lo);
    gpuc_array *dk = NULL, *dv = NULL;
    if (sc->on_device && mine > 0) {
        dk = upload(sc->key_type, keys + lo, mine);
        if (sc->pairs)
            dv = upload(sc->value_type, values + lo, mine);
    }
    gpuc_arg k = dk ? gpuc_arg_array(dk) : sort_host_arg(sc->key_type, keys + lo, mine);
    gpuc_arg v = dv ? gpuc_arg_array(dv) : sort_host_arg(sc->value_type, values + lo, mine);
    gpuc_sort_desc desc = {sc->descending, sc->method};
    gpuc_array *sk = NULL, *sv = NULL;
    gpuc_mpi_part part = {0};
    gpuc_status st = sc->pairs ? gpuc_mpi_sort_pairs(wgpu, wcomm, k, v, &desc, sc->no_sorted_keys ? NULL : &sk, &sv,
                                                     &part)
                               : gpuc_mpi_sort(wgpu, wcomm, k, sc->descending ? &desc : NULL, &sk, &part);
    WCHECK(st == GPUC_OK, "%s -> %s: %s", sc->pairs ? "gpuc_mpi_sort_pairs" : "gpuc_mpi_sort", gpuc_status_name(st),
           gpuc_mpi_errmsg());
    if (st == GPUC_OK) /* every rank agrees on it, so every rank takes part in the checks' collectives */
        check_slices(sc, keys, values, sk, sv, part);
    gpuc_array_free(sk);
    gpuc_array_free(sv);
    gpuc_array_free(dk);
    gpuc_array_free(dv);
    free(keys);
    free(values);
}
