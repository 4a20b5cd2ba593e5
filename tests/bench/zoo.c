/* zoo.c - the kernel zoo's driver: times the C reference, checks every other column against it
 * (bit-equal, or within the row's stated tolerance) and prints the ratios to C and to GPU.js. */
#include "zoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double zoo_unit(uint32_t s)
{
    return (double)(s >> 8) / 16777216.0;
}

/* The gauntlet's checksum form over the result: sum v[i] (1 + i % 17) / count (bytes for pixels). */
static double zoo_checksum(const zoo_row *row, const void *v)
{
    double sum = 0;
    for (size_t i = 0; i < row->count; i++) {
        double x = row->kind == ZOO_PIXELS ? ((const uint8_t *)v)[i] : ((const float *)v)[i];
        sum += x * (1.0 + (double)(i % 17)) / (double)row->count;
    }
    return sum;
}

/* How one result agrees with the C reference. */
typedef struct zoo_check {
    bool ok, bit_equal;
    double error; /* floats: the largest |got - C| / scale; pixels: the fraction of pixels off by > 1 */
    char text[64];
} zoo_check;

static zoo_check compare_floats(const zoo_row *row, const float *ref, const float *got)
{
    zoo_check c = {.bit_equal = true};
    size_t differ = 0;
    for (size_t i = 0; i < row->count; i++) {
        if (!memcmp(&ref[i], &got[i], sizeof ref[i]))
            continue;
        c.bit_equal = false;
        differ++;
        double d = fabs((double)got[i] - (double)ref[i]), scale = row->scale ? row->scale[i] : 0;
        double e = isnan(d) ? INFINITY : d == 0 ? 0 : scale > 0 ? d / scale : INFINITY; /* NaN or no room: out */
        if (e > c.error)
            c.error = e;
    }
    if (c.bit_equal)
        snprintf(c.text, sizeof c.text, "bit-equal");
    else if (!row->scale)
        snprintf(c.text, sizeof c.text, "%zu of %zu values differ", differ, row->count);
    else
        snprintf(c.text, sizeof c.text, "err %.2g (tol %.0e)", c.error, row->tolerance);
    c.ok = c.bit_equal || (row->scale && c.error <= row->tolerance);
    return c;
}

static zoo_check compare_pixels(const zoo_row *row, const uint8_t *ref, const uint8_t *got)
{
    zoo_check c = {.bit_equal = !memcmp(ref, got, row->count)};
    size_t off = 0, pixels = row->count / 4;
    int most = 0;
    for (size_t p = 0; p < pixels; p++) {
        int worst = 0;
        for (int ch = 0; ch < 4; ch++) {
            int d = abs((int)ref[4 * p + ch] - (int)got[4 * p + ch]);
            worst = d > worst ? d : worst;
        }
        off += worst > 1;
        most = worst > most ? worst : most;
    }
    c.error = pixels ? (double)off / (double)pixels : 0;
    if (c.bit_equal)
        snprintf(c.text, sizeof c.text, "bit-equal");
    else
        snprintf(c.text, sizeof c.text, "%zu px >1 off (%.3f%%), max %d", off, 100 * c.error, most);
    c.ok = c.bit_equal || c.error <= row->tolerance;
    return c;
}

static zoo_check compare(const zoo_row *row, const void *ref, const void *got, bool bit_equal)
{
    zoo_check c = row->kind == ZOO_PIXELS ? compare_pixels(row, ref, got) : compare_floats(row, ref, got);
    if (bit_equal && !c.bit_equal) { /* this column adds in C's order: only bit-equal will do */
        c.ok = false;
        char why[sizeof c.text];
        snprintf(why, sizeof why, "not bit-equal: %.48s", c.text);
        memcpy(c.text, why, sizeof c.text);
    }
    return c;
}

static void print_line(const zoo_table *t, const char *column, double ms, int runs, double sum, const char *verdict,
                       const char *check, const char *ratios)
{
    printf("%-12s %-38s %10.2f %5d  %-20.16g %-5s %-30s %s\n", t->row->name, column, ms, runs, sum, verdict, check,
           ratios);
    fflush(stdout);
}

static void json_cell(const zoo_table *t, const char *column, const char *backend, double ms, int runs, double sum,
                      const zoo_check *c, double ratio_c, double ratio_gpujs, const char *note, const char *runtime,
                      const char *extra)
{
    FILE *f = t->env->json;
    if (!f)
        return;
    fprintf(f, "%s\n    {\"group\": \"zoo\", \"row\": ", t->env->json_rows++ ? "," : "");
    bench_json_string(f, t->row->name);
    fprintf(f, ", \"column\": ");
    bench_json_string(f, column);
    fprintf(f, ", \"backend\": ");
    bench_json_string(f, backend);
    fprintf(f, ", \"n\": %zu, \"rounds\": %d, \"seed\": %u, \"median_ms\": %.4f, \"runs\": %d, \"checksum\": %.17g",
            t->p->n, t->p->rounds, t->p->seed, ms, runs, sum);
    if (c)
        fprintf(f, ", \"ok\": %s, \"bit_equal\": %s, \"error\": %.6g, \"tolerance\": %g, \"check\": ",
                c->ok ? "true" : "false", c->bit_equal ? "true" : "false", isfinite(c->error) ? c->error : -1.0,
                t->row->tolerance);
    else
        fprintf(f, ", \"ok\": true, \"check\": ");
    bench_json_string(f, c ? c->text : "reference");
    fprintf(f, ", \"ratio_to_c\": %.4f", ratio_c);
    if (ratio_gpujs > 0) {
        fprintf(f, ", \"ratio_to_gpujs\": %.4f, \"gpujs_mode\": ", ratio_gpujs);
        bench_json_string(f, t->gpujs_mode);
    }
    if (note && *note) {
        fprintf(f, ", \"note\": ");
        bench_json_string(f, note);
    }
    if (runtime && *runtime) {
        fprintf(f, ", \"runtime\": ");
        bench_json_string(f, runtime);
    }
    if (extra) /* further fields, already JSON */
        fputs(extra, f);
    fputc('}', f);
}

/* GPU.js's cells: each checked like a gpuc column (never required bit-equal: another program's
 * arithmetic), the fastest correct one kept for the gpuc columns' ratio. */
static void gpujs_columns(zoo_table *t)
{
    if (t->gpujs_shown)
        return;
    t->gpujs_shown = true;
    const char *note = NULL;
    int ncells = 0;
    zoo_gpujs_cell *cells = zoo_gpujs_cells(t->env, t->row->name, t->p, &ncells, &note);
    if (!cells) {
        printf("%-12s %-38s (not run: %s)\n", t->row->name, "GPU.js 2.24.1 (node)", note);
        return;
    }
    uint32_t ours = zoo_fnv1a(t->row->js_source);
    for (int i = 0; i < ncells; i++) {
        zoo_gpujs_cell *cell = &cells[i];
        char column[64], text[160];
        snprintf(column, sizeof column, "GPU.js %s (node)", cell->mode);
        if (cell->error[0]) {
            printf("%-12s %-38s %10s %5s  %-20s %-5s %s\n", t->row->name, column, "-", "-", "-", "ERROR", cell->error);
            t->env->failures++;
            continue;
        }
        size_t want = t->row->count * (t->row->kind == ZOO_PIXELS ? 1 : sizeof(float));
        zoo_check c = {0};
        if (cell->source_fnv1a != ours)
            snprintf(c.text, sizeof c.text, "ran another kernel text");
        else if (cell->bytes != want)
            snprintf(c.text, sizeof c.text, "%zu bytes, not %zu", cell->bytes, want);
        else
            c = compare(t->row, t->reference, cell->data, false);
        if (!c.ok)
            t->env->failures++;
        else if (t->gpujs_ms < 0 || cell->median_ms < t->gpujs_ms) {
            t->gpujs_ms = cell->median_ms;
            snprintf(t->gpujs_mode, sizeof t->gpujs_mode, "%s", cell->mode);
        }
        double sum = cell->bytes == want ? zoo_checksum(t->row, cell->data) : NAN;
        snprintf(text, sizeof text, "%.2fx C%s%s%s%s", cell->median_ms / t->c_ms, cell->fallback[0] ? "; ran " : "",
                 cell->fallback[0] ? cell->kernel : "", cell->fallback[0] ? " (GPU.js fell back)" : "",
                 cell->in_json ? " (node ran it once, above)" : "");
        print_line(t, column, cell->median_ms, cell->runs, sum, c.ok ? "OK" : "WRONG", c.text, text);
        if (!cell->in_json) {
            char fell_back[200] = "";
            if (cell->fallback[0])
                snprintf(fell_back, sizeof fell_back, "ran %s: %s", cell->kernel, cell->fallback);
            json_cell(t, column, "node", cell->median_ms, cell->runs, sum, &c, cell->median_ms / t->c_ms, -1, fell_back,
                      cell->runtime, NULL);
            cell->in_json = true;
        }
    }
}

int zoo_begin(zoo_table *t, bench_env *env, const zoo_row *row, const bench_params *p, bench_run_fn c_run,
              void *c_state)
{
    size_t bytes = row->count * (row->kind == ZOO_PIXELS ? 1 : sizeof(float));
    *t = (zoo_table){.env = env, .row = row, .p = p, .gpujs_ms = -1, .c2_ms = -1, .best_ratio = {-1, -1},
                     .gpujs_shown = row->no_gpujs};
    /* Whole floats, so that run functions may take either kind as float *. */
    t->reference = calloc(bytes / sizeof(float) + 1, sizeof(float));
    t->out = calloc(bytes / sizeof(float) + 1, sizeof(float));
    printf("-- zoo %s: %s\n", row->name, row->heading);
    printf("%-12s %-38s %10s %5s  %-20s %-5s %-30s %s\n", "row", "column", "median ms", "runs", "checksum", "check",
           "agreement with C", "ratios");
    if (!t->reference || !t->out) {
        printf("%-12s out of memory for %zu-byte results\n", row->name, bytes);
        env->failures++;
        zoo_end(t);
        return -1;
    }
    int runs = 0;
    t->c_ms = bench_time(c_run, c_state, t->reference, &runs);
    if (t->c_ms < 0) {
        printf("%-12s the C reference failed\n", row->name);
        env->failures++;
        t->gpujs_shown = true; /* nothing to check them against */
        zoo_end(t);
        return -1;
    }
    double sum = zoo_checksum(row, t->reference);
    print_line(t, "C -O3, naive loops (reference)", t->c_ms, runs, sum, "OK", "reference", "1.00");
    bench_keep(env, row->name, "C reference", p->n, t->c_ms);
    json_cell(t, "C -O3, naive loops (reference)", env->backend, t->c_ms, runs, sum, NULL, 1.0, -1, NULL, NULL, NULL);
    return 0;
}

/* A column that is not gpuc's (a second C loop, a CPU runtime): timed, checked and printed with its
 * ratio to C. Returns its median, or -1 when it failed or was wrong (it said so). */
static double other_column(zoo_table *t, const char *column, bench_run_fn run, void *state, bool bit_equal)
{
    char ratios[32];
    int runs = 0;
    double ms = bench_time(run, state, t->out, &runs);
    if (ms < 0) {
        zoo_error(t, column, "failed");
        return -1;
    }
    zoo_check c = compare(t->row, t->reference, t->out, bit_equal);
    if (!c.ok)
        t->env->failures++;
    double sum = zoo_checksum(t->row, t->out);
    snprintf(ratios, sizeof ratios, "%.2fx C", ms / t->c_ms);
    print_line(t, column, ms, runs, sum, c.ok ? "OK" : "WRONG", c.text, ratios);
    bench_keep(t->env, t->row->name, column, t->p->n, ms);
    json_cell(t, column, t->env->backend, ms, runs, sum, &c, ms / t->c_ms, -1, NULL, NULL, NULL);
    return c.ok ? ms : -1;
}

void zoo_c_column(zoo_table *t, const char *column, const char *name, bench_run_fn run, void *state, bool bit_equal)
{
    double ms = other_column(t, column, run, state, bit_equal);
    if (ms > 0) {
        t->c2_ms = ms;
        t->c2_name = name;
    }
}

void zoo_cpu_column(zoo_table *t, const char *column, const char *name, bench_run_fn run, void *state, bool bit_equal)
{
    /* Only a correct column is a yardstick. */
    if (other_column(t, column, run, state, bit_equal) >= 0 && t->ncpu < (int)(sizeof t->cpu / sizeof t->cpu[0]))
        t->cpu[t->ncpu++] = (struct zoo_cpu_ref){name, run, state};
}

void zoo_cpu_note(zoo_table *t, const char *column, const char *why)
{
    printf("%-12s %-38s (not run: %s)\n", t->row->name, column, why);
    fflush(stdout);
}

void zoo_openmp_column(zoo_table *t, const char *form, bench_run_fn run, void *state, bool bit_equal)
{
    char column[64];
    snprintf(column, sizeof column, "OpenMP, %d threads, %s", zoo_omp_threads(), form);
    if (zoo_omp_threads() > 0)
        zoo_cpu_column(t, column, "OpenMP", run, state, bit_equal);
    else
        zoo_cpu_note(t, "OpenMP", zoo_omp_note());
}

void zoo_opencl_column(zoo_table *t, const zoo_cl *cl, const char *why, const char *form, bench_run_fn run, void *state,
                       bool bit_equal)
{
    char column[64];
    bool pocl = cl && strstr(zoo_cl_device(cl), "Portable Computing Language");
    snprintf(column, sizeof column, "OpenCL%s, %s", pocl ? " on PoCL" : "", form);
    if (cl)
        zoo_cpu_column(t, column, pocl ? "PoCL" : "OpenCL", run, state, bit_equal);
    else
        zoo_cpu_note(t, "OpenCL on PoCL", why);
}

/* gpuc's column `run` timed in pairs against each CPU runtime's (bench_paired_ratio: a drift of the
 * loaded machine moves both sides of a pair alike); appends "1.23x OpenMP" and the JSON fields. */
static void cpu_pairs(zoo_table *t, bench_run_fn run, void *state, double *ratio, char *text, size_t text_len,
                      char *json, size_t json_len)
{
    size_t at = 0, jat = 0;
    text[0] = json[0] = '\0';
    for (int i = 0; i < t->ncpu; i++) {
        int pairs = 0;
        ratio[i] = bench_paired_ratio(run, state, t->cpu[i].run, t->cpu[i].state, t->out, &pairs);
        if (ratio[i] < 0) {
            at += (size_t)snprintf(text + at, at < text_len ? text_len - at : 0, ", pairs with %s failed",
                                   t->cpu[i].name);
            t->env->failures++;
            continue;
        }
        at += (size_t)snprintf(text + at, at < text_len ? text_len - at : 0, ", %.2fx %s", ratio[i], t->cpu[i].name);
        jat += (size_t)snprintf(json + jat, jat < json_len ? json_len - jat : 0,
                                ", \"ratio_to_%s_in_pairs\": %.4f, \"pairs_%s\": %d", t->cpu[i].name, ratio[i],
                                t->cpu[i].name, pairs);
    }
}

void zoo_gpuc(zoo_table *t, const char *column, bench_run_fn run, void *state, bool bit_equal)
{
    char label[96], ratios[256], c2[40] = "", cpu[96], cpu_json[160];
    double cpu_ratio[2] = {-1, -1};
    snprintf(label, sizeof label, "%s [%s]", column, t->env->backend);
    gpujs_columns(t);
    int runs = 0;
    double ms = bench_time(run, state, t->out, &runs);
    if (ms < 0) {
        zoo_error(t, column, gpuc_errmsg(t->env->gpu));
        return;
    }
    zoo_check c = compare(t->row, t->reference, t->out, bit_equal);
    if (!c.ok)
        t->env->failures++;
    double sum = zoo_checksum(t->row, t->out), to_gpujs = t->gpujs_ms > 0 ? ms / t->gpujs_ms : -1;
    if (t->c2_ms > 0)
        snprintf(c2, sizeof c2, ", %.2fx %.24s", ms / t->c2_ms, t->c2_name);
    cpu_pairs(t, run, state, cpu_ratio, cpu, sizeof cpu, cpu_json, sizeof cpu_json);
    if (to_gpujs > 0)
        snprintf(ratios, sizeof ratios, "%.2fx C%s%s, %.2fx GPU.js %s", ms / t->c_ms, c2, cpu, to_gpujs, t->gpujs_mode);
    else
        snprintf(ratios, sizeof ratios, "%.2fx C%s%s", ms / t->c_ms, c2, cpu);
    print_line(t, label, ms, runs, sum, c.ok ? "OK" : "WRONG", c.text, ratios);
    bench_keep(t->env, t->row->name, column, t->p->n, ms);
    json_cell(t, column, t->env->backend, ms, runs, sum, &c, ms / t->c_ms, to_gpujs, NULL, NULL, cpu_json);
    for (int i = 0; c.ok && i < t->ncpu; i++)
        if (cpu_ratio[i] >= 0 && (t->best_ratio[i] < 0 || cpu_ratio[i] < t->best_ratio[i])) {
            t->best_ratio[i] = cpu_ratio[i];
            snprintf(t->best_column[i], sizeof t->best_column[i], "%s", column);
        }
}

/* The row's verdict on issue 18's goal: gpuc's best correct column <= 1.0x each CPU runtime, in pairs. */
static void print_goal(const zoo_table *t)
{
    if (t->ncpu == 0 || t->best_ratio[0] < 0)
        return;
    char text[200];
    size_t at = 0;
    bool met = true;
    for (int i = 0; i < t->ncpu; i++) {
        at += (size_t)snprintf(text + at, at < sizeof text ? sizeof text - at : 0, "%s%.2fx %s (%s)", i ? ", " : "",
                               t->best_ratio[i], t->cpu[i].name, t->best_column[i]);
        met = met && t->best_ratio[i] >= 0 && t->best_ratio[i] <= 1.0;
    }
    printf("%-12s best gpuc [%s] in pairs: %s: goal <= 1.0x each %s\n", t->row->name, t->env->backend, text,
           met ? "met" : "NOT MET");
    fflush(stdout);
}

void zoo_error(zoo_table *t, const char *column, const char *why)
{
    gpujs_columns(t);
    printf("%-12s %-38s %10s %5s  %-20s %-5s %s\n", t->row->name, column, "-", "-", "-", "ERROR", why);
    fflush(stdout);
    t->env->failures++;
}

void zoo_end(zoo_table *t)
{
    if (t->reference)
        gpujs_columns(t);
    print_goal(t);
    free(t->reference);
    free(t->out);
    t->reference = t->out = NULL;
}
