/* sort.c - gpuc_sort, gpuc_argsort and gpuc_sort_pairs: which method runs (radix, sort_radix.c, or the
 * bitonic network), and the bitonic network: a host driver over the kernels of glsl/sort.glsl. The
 * keys are mapped to order-preserving ints and padded to a power of two with the largest key; the
 * network runs as passes that ping-pong between two device arrays of vec4 cells (no allocation per
 * pass, nothing read back), each pass doing up to three strides of a stage (and the strides inside a
 * cell at the stage's end); the first n elements are then mapped back. The kernels are the context's
 * (algo_kernel_get), made on its first sort and resized for each length. */
#include "algo/sort_radix.h"
#include "algo/algo_twin.h"

gpuc_status sort_outputs_deliver(gpuc_status st, sort_outputs want, gpuc_array *keys, gpuc_array *indices,
                                 gpuc_array *values)
{
    if (st != GPUC_OK) {
        gpuc_array_free(keys);
        gpuc_array_free(indices);
        gpuc_array_free(values);
        return st;
    }
    gpuc_array **slots[] = {want.keys, want.indices, want.values}, *made[] = {keys, indices, values};
    for (int j = 0; j < 3; j++) {
        if (slots[j])
            *slots[j] = gpuc_array_handed_out(made[j]);
        else
            gpuc_array_free(made[j]);
    }
    return GPUC_OK;
}

/* One sort call: what is sorted and the state of its network. */
typedef struct sort_job {
    gpuc *gpu;
    const char *fn;     /* the public call, for messages */
    algo_input keys;
    bool pairs;         /* (key, index) pairs instead of bare keys */
    bool descending;
    gpuc_sort_method method;
    uint32_t cell;      /* elements per vec4 cell: 4 keys or 2 pairs */
    uint32_t padded;    /* the network's size: a power of two >= n and >= cell */
    gpuc_array *cells;  /* the sorted cells once the network has run */
} sort_job;

static uint32_t next_pow2(uint32_t n)
{
    uint32_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* The method a call runs: the one asked for, or the default for its size and backend. */
static gpuc_status choose_method(gpuc *gpu, const char *fn, const gpuc_sort_desc *desc, uint32_t n, bool pairs,
                                 gpuc_sort_method *method)
{
    gpuc_sort_method asked = desc ? desc->method : GPUC_SORT_AUTO;
    bool radix = radix_available(gpu, n, pairs);
    if (asked == GPUC_SORT_AUTO)
        asked = radix && n > (pairs ? GPUC_SORT_RADIX_ABOVE_PAIRS : GPUC_SORT_RADIX_ABOVE_KEYS) ? GPUC_SORT_RADIX
                                                                                                : GPUC_SORT_BITONIC;
    if (asked != GPUC_SORT_BITONIC && asked != GPUC_SORT_RADIX)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: method %d is not a gpuc_sort_method", fn, (int)asked);
    if (asked == GPUC_SORT_RADIX && gpu->info.backend != GPUC_BACKEND_COMPUTE)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "%s: the radix method is compute-only (its passes scatter; a fragment shader writes only "
                         "its own cell); this context uses the fragment backend: use GPUC_SORT_BITONIC", fn);
    if (asked == GPUC_SORT_RADIX && !radix)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s: the radix method scatters %u %s into one storage binding of %lld bytes at most "
                         "(gpuc_info.max_storage_block_size); use GPUC_SORT_BITONIC", fn, n, pairs ? "pairs" : "keys",
                         (long long)gpu->info.max_storage_block_size);
    *method = asked;
    return GPUC_OK;
}

static gpuc_status sort_begin(sort_job *job, gpuc *gpu, const char *fn, gpuc_arg keys, const gpuc_sort_desc *desc,
                              bool pairs)
{
    *job = (sort_job){.gpu = gpu, .fn = fn, .pairs = pairs, .descending = desc && desc->descending};
    gpuc_status st = algo_check_input(gpu, fn, "keys", keys, &job->keys);
    if (st == GPUC_OK)
        st = choose_method(gpu, fn, desc, job->keys.n, pairs, &job->method);
    if (st != GPUC_OK || job->method != GPUC_SORT_BITONIC)
        return st;
    job->cell = pairs ? 2 : 4;
    job->padded = next_pow2(job->keys.n);
    if (job->padded < job->cell)
        job->padded = job->cell;
    int64_t max = gpu->info.max_texture_buffer_size, cells = job->padded / job->cell;
    if (max > 0 && cells > max)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s: sorting %u %s needs %lld vec4 cells (padded to %u); the device reads at most %lld "
                         "(GL_MAX_TEXTURE_BUFFER_SIZE)", fn, job->keys.n, pairs ? "pairs" : "keys", (long long)cells,
                         job->padded, (long long)max);
    return GPUC_OK;
}

static gpuc_status make_kernel(sort_job *job, const char *section, gpuc_type value_type, uint32_t cells,
                               gpuc_kernel **k)
{
    const char *sections[] = {job->pairs ? "pair_cells" : "key_cells",
                              job->keys.type == GPUC_INT ? "int_keys" : "float_keys", section, NULL};
    const char *fields[] = {"KEY_TYPE", algo_glsl_type(job->keys.type), "VALUE_TYPE", algo_glsl_type(value_type),
                            NULL};
    return algo_kernel(job->gpu, gpuc_glsl_sort, sections, fields, cells, k);
}

/* Most cross-cell strides one merge pass does (glsl/sort.glsl's sortMerge handles 1 to 3). */
#define MERGE_MAX_STEPS 3

/* The strides of stage `stage` that reach across cells, MERGE_MAX_STEPS at most per pass, the last
 * pass also finishing the strides inside a cell. */
static gpuc_status merge_stage(sort_job *job, gpuc_kernel *merge, uint32_t stage, gpuc_array **a, gpuc_array **b)
{
    for (uint32_t stride = stage / 2; stride >= job->cell;) {
        int steps = 1;
        while (steps < MERGE_MAX_STEPS && (stride >> steps) >= job->cell)
            steps++;
        int finish = (stride >> steps) < job->cell;
        gpuc_arg args[] = {gpuc_arg_array(*a), gpuc_arg_i32((int32_t)stage), gpuc_arg_i32((int32_t)stride),
                           gpuc_arg_i32(steps), gpuc_arg_i32(finish)};
        gpuc_status st = gpuc_run_to(merge, args, 5, *b);
        if (st != GPUC_OK)
            return st;
        gpuc_array *t = *a;
        *a = *b;
        *b = t;
        stride >>= steps;
    }
    return GPUC_OK;
}

static gpuc_status run_network(sort_job *job, gpuc_arg keys)
{
    uint32_t ncells = job->padded / job->cell;
    gpuc_kernel *load = NULL, *merge = NULL;
    gpuc_array *a = NULL, *b = NULL;
    gpuc_status st = make_kernel(job, job->pairs ? "load_pairs" : "load_keys", GPUC_FLOAT, ncells, &load);
    if (st == GPUC_OK && job->padded > job->cell)
        st = make_kernel(job, "merge", GPUC_FLOAT, ncells, &merge);
    if (st == GPUC_OK)
        st = gpuc_array_new(job->gpu, GPUC_VEC4, (gpuc_dims){.x = ncells}, &a);
    if (st == GPUC_OK && merge)
        st = gpuc_array_new(job->gpu, GPUC_VEC4, (gpuc_dims){.x = ncells}, &b);
    if (st == GPUC_OK) {
        gpuc_arg args[] = {keys, gpuc_arg_i32((int32_t)job->keys.n), gpuc_arg_i32(job->descending)};
        st = gpuc_run_to(load, args, 3, a);
    }
    for (uint32_t stage = job->cell * 2; st == GPUC_OK && stage <= job->padded; stage *= 2)
        st = merge_stage(job, merge, stage, &a, &b);
    gpuc_array_free(b);
    if (st != GPUC_OK) {
        gpuc_array_free(a);
        return st;
    }
    job->cells = a;
    return GPUC_OK;
}

/* Runs an unload kernel (output: n elements) over the sorted cells into a new array. */
static gpuc_status unload(sort_job *job, const char *section, gpuc_type value_type, const gpuc_arg *args, int nargs,
                          gpuc_array **out)
{
    if (!out)
        return GPUC_OK;
    gpuc_kernel *k = NULL;
    gpuc_status st = make_kernel(job, section, value_type, job->keys.n, &k);
    if (st == GPUC_OK)
        st = gpuc_run(k, args, nargs, out);
    return st;
}

static gpuc_status unload_all(sort_job *job, const gpuc_arg *values, gpuc_type value_type, sort_outputs want,
                              sort_outputs got)
{
    gpuc_arg cells = gpuc_arg_array(job->cells);
    gpuc_arg key_args[] = {cells, gpuc_arg_i32(job->descending)};
    gpuc_status st = unload(job, "unload_keys", job->keys.type, key_args, 2, want.keys ? got.keys : NULL);
    if (st == GPUC_OK)
        st = unload(job, "unload_index", GPUC_INT, &cells, 1, want.indices ? got.indices : NULL);
    if (st == GPUC_OK && values) {
        gpuc_arg payload_args[] = {cells, *values};
        st = unload(job, "unload_payload", value_type, payload_args, 2, got.values);
    }
    return st;
}

/* What selects a sort's kernels, for the calling-thread twin's warm-up (algo_twin.h). */
static uint64_t sort_shape(const sort_job *job, gpuc_type value_type, sort_outputs want)
{
    const uint64_t parts[] = {(uint64_t)job->keys.type, (uint64_t)value_type, (uint64_t)job->method, job->descending,
                              want.keys != NULL, want.indices != NULL, want.values != NULL};
    return algo_twin_shape(ALGO_TWIN_SORT, job->keys.n, parts, 7);
}

/* The public call again on the twin (algo_twin.h), with its arguments as the twin takes them. */
static gpuc_status sort_on_twin(algo_twin_call *call, const gpuc_sort_desc *desc, sort_outputs want)
{
    const gpuc_arg *host = call->args;
    gpuc_array *got[3] = {NULL, NULL, NULL};
    gpuc_array **slot[3] = {want.keys ? &got[0] : NULL, want.indices ? &got[1] : NULL, want.values ? &got[2] : NULL};
    gpuc_status st;
    if (want.values)
        st = gpuc_sort_pairs(call->twin, host[0], host[1], desc, slot[0], slot[2]);
    else if (want.indices)
        st = gpuc_argsort(call->twin, host[0], desc, slot[0], slot[1]);
    else
        st = gpuc_sort(call->twin, host[0], desc, slot[0]);
    gpuc_array **outs[3];
    gpuc_array *results[3];
    int n = 0;
    for (int j = 0; j < 3; j++)
        if (slot[j]) {
            results[n] = got[j];
            outs[n++] = j == 0 ? want.keys : j == 1 ? want.indices : want.values;
        }
    return algo_twin_end(call, st, results, outs, n);
}

/* Sorts and hands out the wanted results, all or none. */
static gpuc_status sort_run(gpuc *gpu, const char *fn, gpuc_arg keys, const gpuc_arg *values,
                            const gpuc_sort_desc *desc, sort_outputs want)
{
    sort_job job;
    gpuc_status st = sort_begin(&job, gpu, fn, keys, desc, want.indices || want.values);
    algo_input payload = {0};
    if (st == GPUC_OK && values)
        st = algo_check_input(gpu, fn, "values", *values, &payload);
    if (st == GPUC_OK && values && payload.n != job.keys.n)
        st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: keys has %u elements but values has %u", fn,
                       job.keys.n, payload.n);
    gpuc_arg args[2] = {keys, values ? *values : keys};
    algo_twin_call call;
    if (st == GPUC_OK &&
        algo_twin_begin(gpu, sort_shape(&job, payload.type, want), job.keys.n, args, values ? 2 : 1, &call)) {
        st = sort_on_twin(&call, desc, want);
        if (st == GPUC_OK || !call.retry)
            return st;
        st = GPUC_OK;
    }
    if (st == GPUC_OK && job.method == GPUC_SORT_RADIX) {
        radix_request req = {.fn = fn, .keys = keys, .in = job.keys, .descending = job.descending,
                             .pairs = job.pairs, .values = values, .value_type = payload.type};
        return radix_sort(gpu, &req, want);
    }
    if (st == GPUC_OK)
        st = run_network(&job, keys);
    if (st != GPUC_OK)
        return st;
    gpuc_array *k = NULL, *i = NULL, *v = NULL;
    st = unload_all(&job, values, payload.type, want, (sort_outputs){&k, &i, &v});
    gpuc_array_free(job.cells);
    return sort_outputs_deliver(st, want, k, i, v);
}

gpuc_status gpuc_sort(gpuc *gpu, gpuc_arg keys, const gpuc_sort_desc *desc, gpuc_array **sorted)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!sorted)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_sort: sorted is NULL");
    return sort_run(gpu, "gpuc_sort", keys, NULL, desc, (sort_outputs){sorted, NULL, NULL});
}

gpuc_status gpuc_argsort(gpuc *gpu, gpuc_arg keys, const gpuc_sort_desc *desc, gpuc_array **sorted_keys,
                         gpuc_array **indices)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!indices)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_argsort: indices is NULL");
    return sort_run(gpu, "gpuc_argsort", keys, NULL, desc, (sort_outputs){sorted_keys, indices, NULL});
}

gpuc_status gpuc_sort_pairs(gpuc *gpu, gpuc_arg keys, gpuc_arg values, const gpuc_sort_desc *desc,
                            gpuc_array **sorted_keys, gpuc_array **sorted_values)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!sorted_values)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_sort_pairs: sorted_values is NULL");
    return sort_run(gpu, "gpuc_sort_pairs", keys, &values, desc, (sort_outputs){sorted_keys, NULL, sorted_values});
}
