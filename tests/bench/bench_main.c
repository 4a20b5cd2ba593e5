/* bench_main.c - options, the timing protocol, the table and the JSON output of `make bench`. */
#include "bench.h"
#include "zoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIN_TIMED_RUNS 3
#define MAX_TIMED_RUNS 50
#define TARGET_MS 1000.0 /* about one second of timed runs per cell */

double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void gauntlet_fill(float *a, size_t n, uint32_t seed, float (*map)(uint32_t s))
{
    uint32_t s = seed;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = map(s);
    }
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

double bench_paired_ratio(bench_run_fn a, void *state_a, bench_run_fn b, void *state_b, float *out, int *pairs_out)
{
    double ratios[MAX_TIMED_RUNS];
    int pairs = 0, wanted = MIN_TIMED_RUNS;
    bool ok = a(state_a, out) == 0 && b(state_b, out) == 0 && a(state_a, out) == 0 && b(state_b, out) == 0;
    while (ok && pairs < wanted) {
        double ms[2];
        for (int j = 0; ok && j < 2; j++) { /* a first in even pairs, b first in odd ones */
            bool run_a = (j == 0) == (pairs % 2 == 0);
            double t0 = bench_now_ms();
            ok = run_a ? a(state_a, out) == 0 : b(state_b, out) == 0;
            ms[run_a ? 0 : 1] = bench_now_ms() - t0;
        }
        ratios[pairs++] = ms[1] > 0 ? ms[0] / ms[1] : 1.0;
        if (pairs == 1 && ms[0] + ms[1] > 0) { /* short pairs: more of them, up to about two seconds */
            double more = ceil(2 * TARGET_MS / (ms[0] + ms[1]));
            wanted = more > MAX_TIMED_RUNS ? MAX_TIMED_RUNS : more < MIN_TIMED_RUNS ? MIN_TIMED_RUNS : (int)more;
        }
    }
    if (!ok)
        return -1;
    qsort(ratios, (size_t)pairs, sizeof ratios[0], compare_double);
    *pairs_out = pairs;
    return pairs % 2 ? ratios[pairs / 2] : (ratios[pairs / 2 - 1] + ratios[pairs / 2]) / 2;
}

double bench_time(bench_run_fn run, void *state, float *out, int *runs_out)
{
    double times[MAX_TIMED_RUNS];
    int runs = 0, wanted = MIN_TIMED_RUNS;
    bool ok = run(state, out) == 0 && run(state, out) == 0; /* two untimed warm-ups */
    while (ok && runs < wanted) {
        double t0 = bench_now_ms();
        ok = run(state, out) == 0;
        times[runs++] = bench_now_ms() - t0;
        if (runs == 1 && times[0] > 0) { /* short runs: repeat more, up to about a second */
            double more = ceil(TARGET_MS / times[0]);
            wanted = more > MAX_TIMED_RUNS ? MAX_TIMED_RUNS : more < MIN_TIMED_RUNS ? MIN_TIMED_RUNS : (int)more;
        }
    }
    if (!ok)
        return -1;
    qsort(times, (size_t)runs, sizeof times[0], compare_double);
    *runs_out = runs;
    return runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
}

void bench_keep(bench_env *env, const char *row, const char *column, size_t n, double median_ms)
{
    if (env->nresults >= BENCH_MAX_RESULTS)
        return;
    bench_result *r = &env->results[env->nresults++];
    snprintf(r->row, sizeof r->row, "%s", row);
    snprintf(r->column, sizeof r->column, "%s", column);
    r->backend = env->backend;
    r->n = n;
    r->median_ms = median_ms;
}

double bench_measure(bench_env *env, const char *row, const char *column, bench_run_fn run, void *state,
                     float *out, size_t out_len, double (*checksum)(const float *, size_t, const bench_params *),
                     const bench_params *p, double oracle_checksum, double oracle_ms, double published)
{
    int runs = 0;
    double median = bench_time(run, state, out, &runs);
    if (median < 0) {
        printf("%-16s %-28s [%s] %10s %5s  %-20s %s\n", row, column, env->backend, "-", "-", "-", "ERROR");
        env->failures++;
        return -1;
    }
    bench_keep(env, row, column, p->n, median);
    double sum = checksum(out, out_len, p);
    bool is_oracle = oracle_ms <= 0;
    /* At the published sizes the checksum must be the published one (relative error under 1e-9); the
     * gauntlet calls a column WRONG when it differs from the C oracle's by more than 1e-4 relative. */
    bool match = (!p->published || fabs(sum - published) <= 1e-9 * fabs(published)) &&
                 (is_oracle || fabs(sum - oracle_checksum) <= 1e-4 * fabs(oracle_checksum));
    if (!match)
        env->failures++;
    char ratio[32] = "1.00 (oracle)";
    if (!is_oracle)
        snprintf(ratio, sizeof ratio, "%.2f", median / oracle_ms);
    char labelled[96]; /* which backend ran it, for gpuc's columns */
    snprintf(labelled, sizeof labelled, is_oracle ? "%s" : "%s [%s]", column, env->backend);
    printf("%-16s %-38s %10.2f %5d  %-20.16g %-5s %s\n", row, labelled, median, runs, sum, match ? "OK" : "WRONG",
           ratio);
    fflush(stdout);
    if (env->json) {
        fprintf(env->json, "%s\n    {\"row\": ", env->json_rows++ ? "," : "");
        bench_json_string(env->json, row);
        fprintf(env->json, ", \"column\": ");
        bench_json_string(env->json, column);
        fprintf(env->json, ", \"backend\": ");
        bench_json_string(env->json, env->backend);
        fprintf(env->json, ", \"n\": %zu, \"rounds\": %d, \"seed\": %u, \"median_ms\": %.4f, \"runs\": %d, "
                           "\"checksum\": %.17g, \"ok\": %s, \"ratio_to_oracle\": %.4f}",
                p->n, p->rounds, p->seed, median, runs, sum, match ? "true" : "false",
                is_oracle ? 1.0 : median / oracle_ms);
    }
    return median;
}

typedef struct row_entry {
    const char *name;
    int (*run)(bench_env *, const bench_params *);
    size_t n;
    int rounds;
    uint32_t seed;
    bool zoo; /* a kernel zoo row: run by --row zoo (or its name, or all), not by default */
} row_entry;

/* The zoo's sizes and seeds are scripts/bench-gpujs-zoo.js's too (tests/bench/README.md). */
static const row_entry rows[] = {
    {"topk", row_topk, (size_t)1 << 23, 24, 0x2f6f2b79u, false},
    {"bitonic-sort", row_sort, (size_t)1 << 22, 1, 0x27d4eb2fu, false},
    {"compaction", row_compaction, (size_t)1 << 22, 24, 0xcc9e2d51u, false},
    {"launch-overhead", row_launch, (size_t)1 << 20, 512, 0xc2b2ae35u, false},
    {"small-calls", row_small, 16384, 1, 0x3c6ef372u, false},
    {"matmul", row_zoo_matmul, 512, 1, 0x9e3779b9u, true},
    {"life", row_zoo_life, 512, 100, 0x85ebca6bu, true},
    {"conv5", row_zoo_conv5, 1024, 1, 0xc2b2ae3du, true},
    {"mandelbrot", row_zoo_mandelbrot, 800, 1, 0u, true},
    {"nbody", row_zoo_nbody, 4096, 1, 0x165667b1u, true},
};

/* Whether --row NAME (NULL: the default run) asks for row r. */
static bool row_selected(const row_entry *r, const char *name)
{
    if (!name)
        return !r->zoo;
    return !strcmp(name, "all") || !strcmp(name, r->name) || (r->zoo && !strcmp(name, "zoo"));
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuc-bench [--row NAME] [--n N] [--rounds R] [--seed S] [--device D] [--backend B] [--json FILE]\n"
               "                  [--no-gpujs]\n"
               "       gpuc-bench --scaling [--n MAX] [--chart FILE.png] [--device D] [--json FILE]\n"
               "  rows: topk, bitonic-sort, compaction, launch-overhead, small-calls (the default run)\n"
               "        matmul, life, conv5, mandelbrot, nbody (the kernel zoo: --row zoo), all (both groups)\n"
               "  zoo rows: --n is the size (side; mandelbrot: width), --rounds life's generations; GPU.js\n"
               "  runs in node (scripts/bench-gpujs-zoo.js) when node and gpu.js are found, unless --no-gpujs\n"
               "  --scaling: each algorithm at n = 2^10 .. MAX (x4; MAX 2^24), one round, beside its C oracle\n"
               "  --n/--rounds/--seed replace the published sizes and data (the oracle still checks)\n"
               "  --device: auto, gpu, cpu, llvmpipe or an EGL index (default: GPUC_DEVICE, then auto)\n"
               "  --backend: compute, fragment or both (default: GPUC_BACKEND, else both; --scaling: one)\n");
}

static bool parse_number(const char *text, unsigned long long *out)
{
    char *end;
    *out = strtoull(text, &end, 0);
    return *text && !*end;
}

/* The CPU's model name from /proc/cpuinfo ("unknown" where there is none), for the machine description. */
static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon)
            continue;
        colon += 1 + strspn(colon + 1, " \t");
        snprintf(out, size, "%.*s", (int)strcspn(colon, "\n"), colon);
        break;
    }
    if (f)
        fclose(f);
}

static void print_header(bench_env *env, const gpuc_info *info)
{
    time_t now = time(NULL);
    char date[32], cpu[128];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cpu_model(cpu, sizeof cpu);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("gpuc-bench on %s (%s), %s\n", info->renderer, info->gl_version, date);
    printf("machine: %s, %ld CPUs online; gpuc %s\n", cpu, cpus, gpuc_version_string());
    if (zoo_omp_threads())
        printf("OpenMP columns: %d threads, OMP_WAIT_POLICY=%s\n\n", zoo_omp_threads(), zoo_omp_policy());
    else
        printf("OpenMP columns: %s\n\n", zoo_omp_note());
    printf("%-16s %-38s %10s %5s  %-20s %-5s %s\n", "row", "column", "median ms", "runs", "checksum", "check",
           "ratio to C oracle");
    if (env->json) {
        fprintf(env->json, "{\"renderer\": ");
        bench_json_string(env->json, info->renderer);
        fprintf(env->json, ", \"gl_version\": ");
        bench_json_string(env->json, info->gl_version);
        fprintf(env->json, ", \"device\": ");
        bench_json_string(env->json, info->device);
        fprintf(env->json, ", \"software\": %s, \"cpu\": ", info->software ? "true" : "false");
        bench_json_string(env->json, cpu);
        fprintf(env->json, ", \"cpus_online\": %ld, \"openmp_threads\": %d, \"omp_wait_policy\": ", cpus,
                zoo_omp_threads());
        bench_json_string(env->json, zoo_omp_policy());
        fprintf(env->json, ", \"gpuc_version\": ");
        bench_json_string(env->json, gpuc_version_string());
        fprintf(env->json, ", \"date\": \"%s\", \"results\": [", date);
    }
}

/* The rows asked for (or the scaling table) on env's context; returns how many ran. */
static int run_rows(bench_env *env, bool scaling, const char *chart_path, const char *row_name,
                    unsigned long long n, unsigned long long rounds, bool have_seed, unsigned long long seed)
{
    if (scaling) {
        bench_scaling(env, chart_path, n ? (size_t)n : (size_t)1 << 24);
        return 1;
    }
    int ran = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (!row_selected(&rows[r], row_name))
            continue;
        bench_params p = {n ? (size_t)n : rows[r].n, rounds ? (int)rounds : rows[r].rounds,
                          have_seed ? (uint32_t)seed : rows[r].seed, false, false};
        p.published = p.n == rows[r].n && p.rounds == rows[r].rounds && p.seed == rows[r].seed;
        rows[r].run(env, &p);
        ran++;
    }
    return ran;
}

int main(int argc, char **argv)
{
    zoo_omp_passive(argv);
    const char *row_name = NULL, *device = NULL, *json_path = NULL, *chart_path = "build/bench/scaling.png";
    const char *backends = getenv("GPUC_BACKEND") && *getenv("GPUC_BACKEND") ? getenv("GPUC_BACKEND") : "both";
    unsigned long long n = 0, rounds = 0, seed = 0;
    bool have_seed = false, scaling = false, no_gpujs = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool flag = !strcmp(a, "--scaling") || !strcmp(a, "--no-gpujs");
        bool ok = v != NULL || flag;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--scaling") || !strcmp(a, "--no-gpujs")) {
            scaling = scaling || !strcmp(a, "--scaling");
            no_gpujs = no_gpujs || !strcmp(a, "--no-gpujs");
            i--; /* takes no value */
        } else if (!strcmp(a, "--chart") && v) {
            chart_path = v;
        } else if (!strcmp(a, "--row") && v) {
            row_name = v;
        } else if (!strcmp(a, "--device") && v) {
            device = v;
        } else if (!strcmp(a, "--backend") && v) {
            backends = v;
            ok = !strcmp(v, "compute") || !strcmp(v, "fragment") || !strcmp(v, "both");
        } else if (!strcmp(a, "--json") && v) {
            json_path = v;
        } else if (!strcmp(a, "--n") && v) {
            ok = parse_number(v, &n) && n >= 1 && n <= (1ull << 28);
        } else if (!strcmp(a, "--rounds") && v) {
            ok = parse_number(v, &rounds) && rounds >= 1 && rounds <= 100000;
        } else if (!strcmp(a, "--seed") && v) {
            ok = parse_number(v, &seed) && seed <= UINT32_MAX;
            have_seed = true;
        } else {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "gpuc-bench: bad option %s %s\n", a, v && !flag ? v : "");
            usage(stderr);
            return 2;
        }
        i++;
    }

    bench_env env = {.no_gpujs = no_gpujs};
    if (json_path && !(env.json = fopen(json_path, "w"))) {
        perror(json_path);
        return 1;
    }
    static const gpuc_backend kinds[] = {GPUC_BACKEND_COMPUTE, GPUC_BACKEND_FRAGMENT};
    int ran = 0, opened = 0;
    for (int b = 0; b < 2; b++) {
        bool wanted = !strcmp(backends, "both") ? !(scaling && b > 0) : !strcmp(backends, b ? "fragment" : "compute");
        if (!wanted)
            continue;
        gpuc_status st = gpuc_open(&env.gpu, &(gpuc_options){.device = device, .backend = kinds[b]});
        if (st != GPUC_OK) {
            fprintf(stderr, "gpuc-bench: %s\n", gpuc_errmsg(env.gpu));
            gpuc_close(env.gpu);
            return 1;
        }
        const gpuc_info *info = gpuc_get_info(env.gpu);
        env.backend = info->backend_name;
        if (!opened++)
            print_header(&env, info);
        printf("-- %s backend\n", env.backend);
        ran += run_rows(&env, scaling, chart_path, row_name, n, rounds, have_seed, seed);
        gpuc_close(env.gpu);
    }
    zoo_gpujs_free(&env);
    zoo_cl_shutdown();
    if (env.json) {
        fprintf(env.json, "\n]}\n");
        fclose(env.json);
    }
    if (!ran) {
        fprintf(stderr, "gpuc-bench: no row named %s\n", row_name);
        usage(stderr);
        return 2;
    }
    printf("\n%s\n", env.failures ? "SOME RESULTS WRONG OR FAILED" : "all checksums OK");
    return env.failures ? 1 : 0;
}
