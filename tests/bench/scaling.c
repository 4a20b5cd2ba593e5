/* scaling.c - `gpuc-bench --scaling`: how cost grows with n for each algorithm, beside its C oracle,
 * so the crossover is visible. A table on stdout; a PNG chart through gnuplot where it is installed. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

typedef struct scaling_row {
    const char *name;
    int (*run)(bench_env *, const bench_params *);
    uint32_t seed;
} scaling_row;

static const scaling_row scaling_rows[] = {
    {"topk", row_topk, 0x2f6f2b79u},
    {"bitonic-sort", row_sort, 0x27d4eb2fu},
    {"compaction", row_compaction, 0xcc9e2d51u},
};

#define NROWS (sizeof scaling_rows / sizeof scaling_rows[0])

static void write_chart(const bench_env *env, const char *path)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("(gnuplot is not installed: no chart; apt-get install gnuplot-nox for one)\n");
        return;
    }
    char data_path[512];
    snprintf(data_path, sizeof data_path, "%s.dat", path);
    FILE *data = fopen(data_path, "w");
    FILE *plot = popen("gnuplot", "w");
    if (!data || !plot) {
        if (data)
            fclose(data);
        if (plot)
            pclose(plot);
        printf("(could not run gnuplot)\n");
        return;
    }
    /* One gnuplot data block per (row, column), "n ms" lines. */
    int blocks = 0;
    char titles[64][96];
    for (int i = 0; i < env->nresults && blocks < 64; i++) {
        const bench_result *r = &env->results[i];
        char title[96];
        snprintf(title, sizeof title, "%s: %s", r->row, r->column);
        bool seen = false;
        for (int b = 0; b < blocks; b++)
            seen = seen || !strcmp(titles[b], title);
        if (seen)
            continue;
        snprintf(titles[blocks++], sizeof titles[0], "%s", title);
        for (int j = i; j < env->nresults; j++) {
            const bench_result *q = &env->results[j];
            if (!strcmp(q->row, r->row) && !strcmp(q->column, r->column))
                fprintf(data, "%zu %.6f\n", q->n, q->median_ms);
        }
        fprintf(data, "\n\n");
    }
    fclose(data);
    fprintf(plot, "set terminal png size 1100,700\nset output '%s'\nset logscale xy 2\nset key left top\n"
                  "set xlabel 'n (elements)'\nset ylabel 'median ms per run'\nset grid\n"
                  "set title 'gpuc scaling on %s'\nplot ",
            path, gpuc_get_info(env->gpu)->renderer);
    for (int b = 0; b < blocks; b++)
        fprintf(plot, "%s'%s' index %d with linespoints title '%s'", b ? ", " : "", data_path, b, titles[b]);
    fprintf(plot, "\n");
    if (pclose(plot) == 0)
        printf("chart: %s\n", path);
}

void bench_scaling(bench_env *env, const char *chart_path)
{
    for (size_t r = 0; r < NROWS; r++)
        for (size_t n = (size_t)1 << 10; n <= (size_t)1 << 24; n <<= 2) {
            bench_params p = {n, 1, scaling_rows[r].seed, false};
            scaling_rows[r].run(env, &p);
        }
    printf("\nscaling: median ms per run at each n\n");
    for (int i = 0; i < env->nresults; i++) {
        const bench_result *a = &env->results[i];
        bool first = true;
        for (int j = 0; j < i; j++)
            first = first && !(strcmp(env->results[j].row, a->row) == 0 && strcmp(env->results[j].column, a->column) == 0);
        if (!first)
            continue;
        printf("%-14s %-26s", a->row, a->column);
        for (int j = i; j < env->nresults; j++)
            if (!strcmp(env->results[j].row, a->row) && !strcmp(env->results[j].column, a->column))
                printf(" 2^%-2d %8.3f", __builtin_ctzll(env->results[j].n), env->results[j].median_ms);
        printf("\n");
    }
    write_chart(env, chart_path);
}
