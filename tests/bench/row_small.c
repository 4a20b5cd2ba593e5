/* row_small.c - row group `small-calls`: brain.js-style layer kernels on 1 to 16,384 cells (a sigmoid
 * layer's weighted sum, and its delta), host arrays in and the result back in host memory at every
 * call, in gpuc with llvmpipe's default threads and in a context working in the calling thread
 * (gpuc_options.threads), beside plain C and GPU.js 2.24.1 (webasm, cpu) in node; then the two
 * chained as brain.js chains them on a GPU (the layer `pipeline: true`, its result passed on to the
 * delta as a device array), beside the two GPU.js calls (its CPU modes have no pipeline). Per-call
 * medians; every result checked against the C loop. */
#include "zoo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SMALL_SCRIPT "scripts/bench-gpujs-small.js"
#define SMALL_INPUTS 16 /* inputs of each layer cell */
#define SMALL_SEED 0x3c6ef372u
#define SMALL_WARMUP 20
#define SMALL_MIN_CALLS 101
#define SMALL_MAX_CALLS 20001
#define SMALL_TARGET_MS 100.0 /* about 0.1 s of timed calls per cell */
/* With --n (a check, as make check runs the bench): the sizes up to n, 11 calls or 10 ms per cell. */
#define SMALL_CHECK_CALLS 11
#define SMALL_CHECK_MS 10.0

static const size_t small_cells[] = {1, 64, 1024, 16384};
#define SMALL_SIZES (sizeof small_cells / sizeof small_cells[0])

/* The kernels as scripts/bench-gpujs-small.js gives them to GPU.js. */
static const char *const small_js[2] = {
    "function (weights, inputs, biases) {\n"
    "  let sum = biases[this.thread.x];\n"
    "  for (let k = 0; k < this.constants.inputs; k++) {\n"
    "    sum += weights[this.thread.x][k] * inputs[k];\n"
    "  }\n"
    "  return 1 / (1 + Math.exp(-sum));\n"
    "}",
    "function (outputs, errors) {\n"
    "  const output = outputs[this.thread.x];\n"
    "  return errors[this.thread.x] * output * (1 - output);\n"
    "}",
};
/* The cases: each kernel alone, then the chain (the layer .pipeline, its result the delta's outputs). */
#define SMALL_CHAIN 2
static const char *const small_names[3] = {"layer", "delta", "layer>delta"};
/* Largest difference from C a value may show: the layer's exp and the delta's products may round
 * differently in GLSL (Mesa reassociates), by a few units in the last place of values under 1; the
 * chain's delta carries the layer's difference on. */
static const double small_tolerance[3] = {1e-5, 1e-6, 1e-5};

/* GPU.js's cells, from one run of the node script: [kernel][size][mode 0 webasm, 1 cpu]. */
typedef struct small_gpujs {
    double us[2][SMALL_SIZES][2];
    double checksum[2][SMALL_SIZES][2];
    int calls[2][SMALL_SIZES][2];
    char error[2][SMALL_SIZES][2][120];
    char note[200];
    char versions[96];
} small_gpujs;

typedef struct small_data {
    size_t cells;
    float *weights, *inputs, *biases, *outputs, *errors;
    float *layer_out; /* the C chain's layer result */
} small_data;

typedef struct small_call {
    int kernel; /* 0 layer, 1 delta, SMALL_CHAIN both */
    const small_data *d;
    gpuc_kernel *k;     /* NULL: the C loop; the chain's layer (.pipeline) */
    gpuc_kernel *delta; /* the chain's delta */
} small_call;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The bench's checksum (bench-gpujs-small.js computes the same): sum v[i] * (1 + i % 17) / count. */
static double small_checksum(const float *v, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)v[i] * (double)(1 + i % 17) / (double)n;
    return sum;
}

static void c_layer(const small_data *d, float *out)
{
    for (size_t y = 0; y < d->cells; y++) {
        float sum = d->biases[y];
        for (size_t k = 0; k < SMALL_INPUTS; k++)
            sum += d->weights[y * SMALL_INPUTS + k] * d->inputs[k];
        out[y] = 1.0f / (1.0f + expf(-sum));
    }
}

static void c_delta_of(const small_data *d, const float *outputs, float *out)
{
    for (size_t y = 0; y < d->cells; y++) {
        float output = outputs[y];
        out[y] = d->errors[y] * output * (1.0f - output);
    }
}

static void c_delta(const small_data *d, float *out)
{
    c_delta_of(d, d->outputs, out);
}

static void c_chain(const small_data *d, float *out)
{
    c_layer(d, d->layer_out);
    c_delta_of(d, d->layer_out, out);
}

/* One call: C, or a gpuc run with the host arrays and the result read back, as GPU.js's call does. */
static int small_run(void *vs, float *out)
{
    small_call *c = vs;
    const small_data *d = c->d;
    if (!c->k) {
        (c->kernel == SMALL_CHAIN ? c_chain : c->kernel ? c_delta : c_layer)(d, out);
        return 0;
    }
    uint32_t n = (uint32_t)d->cells;
    gpuc_arg layer[3] = {gpuc_arg_host_f32(d->weights, (gpuc_dims){SMALL_INPUTS, n}),
                         gpuc_arg_host_f32(d->inputs, (gpuc_dims){SMALL_INPUTS}),
                         gpuc_arg_host_f32(d->biases, (gpuc_dims){n})};
    gpuc_arg delta[2] = {gpuc_arg_host_f32(d->outputs, (gpuc_dims){n}), gpuc_arg_host_f32(d->errors, (gpuc_dims){n})};
    gpuc_array *r = NULL, *layer_out = NULL;
    gpuc_status st;
    if (c->kernel == SMALL_CHAIN) { /* the layer's result stays a device array (.pipeline) */
        st = gpuc_run(c->k, layer, 3, &layer_out);
        delta[0] = gpuc_arg_array(layer_out);
        if (st == GPUC_OK)
            st = gpuc_run(c->delta, delta, 2, &r);
    } else {
        st = c->kernel ? gpuc_run(c->k, delta, 2, &r) : gpuc_run(c->k, layer, 3, &r);
    }
    gpuc_array_free(layer_out);
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(r, out, d->cells);
    gpuc_array_free(r);
    return st == GPUC_OK ? 0 : -1;
}

/* The median of single calls in microseconds (the protocol of bench-gpujs-small.js), or -1; `check`:
 * the short protocol of a check run. */
static double small_time(small_call *c, float *out, int *calls, bool check)
{
    static double times[SMALL_MAX_CALLS];
    for (int i = 0; i < SMALL_WARMUP; i++)
        if (small_run(c, out) != 0)
            return -1;
    int n = 0, least = check ? SMALL_CHECK_CALLS : SMALL_MIN_CALLS;
    double start = bench_now_ms(), target = check ? SMALL_CHECK_MS : SMALL_TARGET_MS;
    while (n < SMALL_MAX_CALLS && (n < least || bench_now_ms() - start < target)) {
        double t0 = bench_now_ms();
        if (small_run(c, out) != 0)
            return -1;
        times[n++] = (bench_now_ms() - t0) * 1e3;
    }
    qsort(times, (size_t)n, sizeof times[0], compare_double);
    *calls = n;
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

static void fill_data(small_data *d, size_t cells)
{
    uint32_t s = SMALL_SEED;
    float *all[] = {d->weights, d->inputs, d->biases, d->outputs, d->errors};
    size_t count[] = {cells * SMALL_INPUTS, SMALL_INPUTS, cells, cells, cells};
    for (int a = 0; a < 5; a++)
        for (size_t i = 0; i < count[a]; i++) {
            s = s * 1664525u + 1013904223u;
            all[a][i] = (float)(zoo_unit(s) - (a == 3 ? 0.0 : 0.5)); /* outputs in [0, 1), the rest centred */
        }
    d->cells = cells;
}

/* Runs the node script once (for both backends) into g, for the sizes up to `most` cells. */
static void run_gpujs(bench_env *env, small_gpujs *g, size_t most)
{
    for (int k = 0; k < 2; k++)
        for (size_t s = 0; s < SMALL_SIZES; s++)
            for (int m = 0; m < 2; m++) {
                g->us[k][s][m] = -1;
                snprintf(g->error[k][s][m], sizeof g->error[k][s][m], "no line from node");
            }
    const char *script = getenv("GPUC_SMALL_SCRIPT") && *getenv("GPUC_SMALL_SCRIPT") ? getenv("GPUC_SMALL_SCRIPT")
                                                                                    : SMALL_SCRIPT;
    if (env->no_gpujs) {
        snprintf(g->note, sizeof g->note, "--no-gpujs");
        return;
    }
    if (!zoo_have_node()) {
        snprintf(g->note, sizeof g->note, "node not found on PATH");
        return;
    }
    char cmd[512], line[1024], sizes[64] = "";
    for (size_t s = 0; s < SMALL_SIZES && small_cells[s] <= most; s++)
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%zu", s ? "," : "", small_cells[s]);
    snprintf(cmd, sizeof cmd, "node '%s' --cells %s --inputs %d --seed %u 2>/dev/null", script, sizes, SMALL_INPUTS,
             SMALL_SEED);
    printf("small-calls  (running GPU.js in node: %s)\n", cmd);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(g->note, sizeof g->note, "could not start node: %s", strerror(errno));
        return;
    }
    while (fgets(line, sizeof line, p)) {
        char value[160], kernel[16], mode[16];
        if (!strncmp(line, "gpujs-small version ", 20))
            snprintf(g->versions, sizeof g->versions, "%.*s", (int)strcspn(line + 20, "\n"), line + 20);
        if (!strncmp(line, "gpujs-small unavailable ", 24))
            zoo_line_value(line, "reason", g->note, sizeof g->note);
        if (strncmp(line, "gpujs-small kernel=", 19))
            continue;
        zoo_line_value(line, "kernel", kernel, sizeof kernel);
        zoo_line_value(line, "mode", mode, sizeof mode);
        zoo_line_value(line, "cells", value, sizeof value);
        size_t cells = strtoul(value, NULL, 10), s = 0;
        while (s < SMALL_SIZES && small_cells[s] != cells)
            s++;
        int k = !strcmp(kernel, "delta"), m = !strcmp(mode, "cpu");
        if (s == SMALL_SIZES || (!k && strcmp(kernel, "layer")) || (!m && strcmp(mode, "webasm")))
            continue;
        zoo_line_value(line, "error", g->error[k][s][m], sizeof g->error[k][s][m]);
        zoo_line_value(line, "source_fnv1a", value, sizeof value);
        if (!g->error[k][s][m][0] && (uint32_t)strtoul(value, NULL, 16) != zoo_fnv1a(small_js[k]))
            snprintf(g->error[k][s][m], sizeof g->error[k][s][m], "node ran another kernel text (FNV-1a %.12s)", value);
        if (g->error[k][s][m][0])
            continue;
        zoo_line_value(line, "median_us", value, sizeof value);
        g->us[k][s][m] = strtod(value, NULL);
        zoo_line_value(line, "checksum", value, sizeof value);
        g->checksum[k][s][m] = strtod(value, NULL);
        zoo_line_value(line, "calls", value, sizeof value);
        g->calls[k][s][m] = atoi(value);
    }
    int rc = pclose(p);
    if (!g->versions[0] && !g->note[0])
        snprintf(g->note, sizeof g->note, "node printed nothing (status %d): is %s there?", rc, script);
}

static void print_cell(bench_env *env, const char *label, const char *column, double us, int calls, bool ok,
                       double webasm_us)
{
    char ratio[48] = "";
    if (webasm_us > 0 && us >= 0)
        snprintf(ratio, sizeof ratio, "%.2fx GPU.js webasm", us / webasm_us);
    printf("small-calls %-18s %-32s %9.2f %6d  %-5s %s\n", label, column, us, calls, ok ? "OK" : "WRONG", ratio);
    if (!ok)
        env->failures++;
    if (env->json) {
        fprintf(env->json, "%s\n    {\"row\": \"small-calls\", \"case\": ", env->json_rows++ ? "," : "");
        bench_json_string(env->json, label);
        fprintf(env->json, ", \"column\": ");
        bench_json_string(env->json, column);
        fprintf(env->json, ", \"backend\": ");
        bench_json_string(env->json, env->backend);
        fprintf(env->json, ", \"median_us\": %.3f, \"calls\": %d, \"ok\": %s, \"ratio_to_gpujs_webasm\": %.4f}", us,
                calls, ok ? "true" : "false", webasm_us > 0 ? us / webasm_us : -1.0);
    }
}

/* Times and checks one gpuc column of one case against the C result `want`. */
static void gpuc_column(bench_env *env, gpuc *gpu, const char *label, const char *column, int kernel,
                        const small_data *d, const float *want, float *out, double webasm_us, bool check)
{
    gpuc_kernel_desc desc = {.output = {(uint32_t)d->cells}, .constants = {{"inputs", SMALL_INPUTS, GPUC_INT}}};
    small_call c = {kernel, d, NULL, NULL};
    int calls = 0;
    double us = -1;
    gpuc_kernel_desc first = desc;
    first.pipeline = kernel == SMALL_CHAIN;
    if (gpuc_create_kernel_js(gpu, small_js[kernel == SMALL_CHAIN ? 0 : kernel], &first, &c.k) == GPUC_OK &&
        (kernel != SMALL_CHAIN || gpuc_create_kernel_js(gpu, small_js[1], &desc, &c.delta) == GPUC_OK))
        us = small_time(&c, out, &calls, check);
    if (us < 0) {
        printf("small-calls %-18s %-32s ERROR %s\n", label, column, gpuc_errmsg(gpu));
        env->failures++;
        gpuc_kernel_free(c.k);
        gpuc_kernel_free(c.delta);
        return;
    }
    bool ok = true;
    for (size_t i = 0; i < d->cells && ok; i++)
        ok = fabs((double)out[i] - (double)want[i]) <= small_tolerance[kernel];
    print_cell(env, label, column, us, calls, ok, webasm_us);
    gpuc_kernel_free(c.k);
    gpuc_kernel_free(c.delta);
}

int row_small(bench_env *env, const bench_params *p)
{
    bool check = !p->published; /* --n: the sizes up to n, timed briefly */
    static small_gpujs gpujs;
    static bool gpujs_ran;
    if (!gpujs_ran) {
        run_gpujs(env, &gpujs, check ? p->n : small_cells[SMALL_SIZES - 1]);
        gpujs_ran = true;
        if (gpujs.versions[0])
            printf("small-calls  (GPU.js: %s)\n", gpujs.versions);
    }
    /* A second context of the same backend, llvmpipe working in the calling thread. */
    gpuc *caller = NULL;
    gpuc_backend backend = strcmp(env->backend, "fragment") ? GPUC_BACKEND_COMPUTE : GPUC_BACKEND_FRAGMENT;
    gpuc_status st = gpuc_open(&caller, &(gpuc_options){.backend = backend, .threads = GPUC_THREADS_CALLER});
    if (st != GPUC_OK) {
        printf("small-calls  calling-thread context: %s\n", gpuc_errmsg(caller));
        gpuc_close(caller);
        caller = NULL;
    }
    printf("small-calls: per-call median us (host arrays in, result read back), %d inputs per layer cell\n",
           SMALL_INPUTS);
    size_t most = small_cells[SMALL_SIZES - 1];
    small_data d = {0};
    float *want = malloc(most * sizeof *want), *out = malloc(most * sizeof *out);
    d.weights = malloc(most * SMALL_INPUTS * sizeof *d.weights);
    d.inputs = malloc(SMALL_INPUTS * sizeof *d.inputs);
    d.biases = malloc(most * sizeof *d.biases);
    d.outputs = malloc(most * sizeof *d.outputs);
    d.errors = malloc(most * sizeof *d.errors);
    d.layer_out = malloc(most * sizeof *d.layer_out);
    bool have = want && out && d.weights && d.inputs && d.biases && d.outputs && d.errors && d.layer_out;
    if (!have) {
        printf("small-calls: out of memory\n");
        env->failures++;
    }
    for (size_t s = 0; s < SMALL_SIZES && have && (!check || small_cells[s] <= p->n); s++) {
        fill_data(&d, small_cells[s]);
        for (int k = 0; k <= SMALL_CHAIN; k++) {
            char label[48];
            snprintf(label, sizeof label, "%s %zu cell%s", small_names[k], d.cells, d.cells == 1 ? "" : "s");
            small_call c = {k, &d, NULL, NULL};
            int calls = 0;
            double c_us = small_time(&c, want, &calls, check);
            double want_sum = small_checksum(want, d.cells);
            /* the chain against GPU.js's two calls (the delta's inputs are other values there: the same work) */
            double webasm = k < SMALL_CHAIN ? gpujs.us[k][s][0]
                            : gpujs.us[0][s][0] >= 0 && gpujs.us[1][s][0] >= 0 ? gpujs.us[0][s][0] + gpujs.us[1][s][0]
                                                                                : -1;
            print_cell(env, label, "C -O3", c_us, calls, true, webasm);
            for (int m = 0; m < 2 && k == SMALL_CHAIN; m++) {
                const char *column = m ? "GPU.js cpu, the two calls" : "GPU.js webasm, the two calls";
                if (gpujs.us[0][s][m] < 0 || gpujs.us[1][s][m] < 0) {
                    printf("small-calls %-18s %-32s -      (%s)\n", label, column,
                           gpujs.note[0] ? gpujs.note : gpujs.error[gpujs.us[0][s][m] < 0 ? 0 : 1][s][m]);
                    continue;
                }
                /* checked in their own cases */
                print_cell(env, label, column, gpujs.us[0][s][m] + gpujs.us[1][s][m],
                           gpujs.calls[0][s][m] < gpujs.calls[1][s][m] ? gpujs.calls[0][s][m] : gpujs.calls[1][s][m],
                           true, webasm);
            }
            for (int m = 0; m < 2 && k < SMALL_CHAIN; m++) {
                const char *column = m ? "GPU.js cpu" : "GPU.js webasm";
                if (gpujs.us[k][s][m] < 0) {
                    printf("small-calls %-18s %-32s -      (%s)\n", label, column,
                           gpujs.note[0] ? gpujs.note : gpujs.error[k][s][m]);
                    continue;
                }
                /* node gives a checksum: within 1e-5 of C's, relative to the values' size */
                bool ok = fabs(gpujs.checksum[k][s][m] - want_sum) <= 1e-5 * (fabs(want_sum) + 0.01);
                print_cell(env, label, column, gpujs.us[k][s][m], gpujs.calls[k][s][m], ok, gpujs.us[k][s][0]);
            }
            gpuc_column(env, env->gpu, label, "gpuc JS, llvmpipe's threads", k, &d, want, out, webasm, check);
            if (caller)
                gpuc_column(env, caller, label, "gpuc JS, in the calling thread", k, &d, want, out, webasm, check);
        }
    }
    free(want);
    free(out);
    free(d.weights);
    free(d.inputs);
    free(d.biases);
    free(d.outputs);
    free(d.errors);
    free(d.layer_out);
    gpuc_close(caller);
    return 0;
}
