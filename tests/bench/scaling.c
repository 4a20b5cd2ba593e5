/* scaling.c - `gpuc-bench --scaling`: how cost grows with n for each algorithm, beside its C oracle,
 * so the crossover is visible. A table on stdout; a PNG chart through gnuplot (scripts/install-deps.sh
 * installs it), one panel per algorithm. */
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

/* One panel per algorithm (its C columns in black, gpuc's in colour, over n, log-log), by gnuplot. */
static void write_chart(const bench_env *env, const char *path)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("(gnuplot is not installed: no chart; scripts/install-deps.sh installs gnuplot-nox)\n");
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
    /* One gnuplot data block per (row, column), "n ms" lines, blocks of a row together. */
    int blocks = 0;
    struct { char row[32], column[64]; } seen[64];
    for (size_t w = 0; w < NROWS; w++)
        for (int i = 0; i < env->nresults && blocks < 64; i++) {
            const bench_result *r = &env->results[i];
            bool dup = strcmp(r->row, scaling_rows[w].name) != 0;
            for (int b = 0; b < blocks && !dup; b++)
                dup = !strcmp(seen[b].row, r->row) && !strcmp(seen[b].column, r->column);
            if (dup)
                continue;
            snprintf(seen[blocks].row, sizeof seen[0].row, "%s", r->row);
            snprintf(seen[blocks++].column, sizeof seen[0].column, "%s", r->column);
            for (int j = i; j < env->nresults; j++) {
                const bench_result *q = &env->results[j];
                if (!strcmp(q->row, r->row) && !strcmp(q->column, r->column))
                    fprintf(data, "%zu %.6f\n", q->n, q->median_ms);
            }
            fprintf(data, "\n\n");
        }
    fclose(data);
    fprintf(plot, "set terminal png noenhanced size 1500,640\nset output '%s'\nset logscale xy 2\n"
                  "set format x '2^%%L'\nset xtics 16\nset format y '%%.3g'\nset key outside below\nset grid\n"
                  "set xlabel 'n (elements)'\nset ylabel 'median ms per run'\n"
                  "set multiplot layout 1,%d title 'gpuc scaling beside the C oracles, %s'\n",
            path, (int)NROWS, gpuc_get_info(env->gpu)->renderer);
    for (size_t w = 0; w < NROWS; w++) {
        fprintf(plot, "set title '%s'\nplot ", scaling_rows[w].name);
        int in_panel = 0;
        for (int b = 0; b < blocks; b++)
            if (!strcmp(seen[b].row, scaling_rows[w].name))
                fprintf(plot, "%s'%s' index %d with linespoints lw 2 %stitle '%s'", in_panel++ ? ", " : "", data_path, b,
                        strncmp(seen[b].column, "C ", 2) ? "" : "lc rgb 'black' ", seen[b].column);
        fprintf(plot, "%s\n", in_panel ? "" : "NaN notitle");
    }
    fprintf(plot, "unset multiplot\n");
    if (pclose(plot) == 0)
        printf("chart: %s\n", path);
}

/* The fastest median at size n among a row's C columns (c) or its gpuc ones (!c); -1 when none ran. */
static double best_at(const bench_env *env, const char *row, size_t n, bool c)
{
    double best = -1;
    for (int i = 0; i < env->nresults; i++) {
        const bench_result *r = &env->results[i];
        if (r->n == n && !strcmp(r->row, row) && (strncmp(r->column, "C ", 2) == 0) == c && r->median_ms > 0 &&
            (best < 0 || r->median_ms < best))
            best = r->median_ms;
    }
    return best;
}

/* Per row and size: the best gpuc column over the best C column (qsort, the faster C column, for the
 * sort), and whether the goal holds: within 2x from 2^12 up. */
#define SCALING_GOAL 2.0
#define SCALING_GOAL_FROM ((size_t)1 << 12)

static void print_ratios(const bench_env *env)
{
    printf("\nscaling: best gpuc column / best C column (goal <= %.0fx from 2^%d up)\n", SCALING_GOAL,
           __builtin_ctzll(SCALING_GOAL_FROM));
    for (size_t w = 0; w < NROWS; w++) {
        const char *row = scaling_rows[w].name;
        bool met = true, any = false;
        printf("%-14s", row);
        for (int i = 0; i < env->nresults; i++) {
            size_t n = env->results[i].n;
            bool first = true;
            for (int j = 0; j < i && first; j++)
                first = env->results[j].n != n || strcmp(env->results[j].row, row) != 0;
            if (!first || strcmp(env->results[i].row, row) != 0)
                continue;
            double g = best_at(env, row, n, false), c = best_at(env, row, n, true);
            if (g < 0 || c < 0)
                continue;
            printf(" 2^%-2d %7.2fx", __builtin_ctzll(n), g / c);
            if (n >= SCALING_GOAL_FROM) {
                any = true;
                met = met && g / c <= SCALING_GOAL;
            }
        }
        printf("  %s\n", !any ? "" : met ? "goal met" : "goal not met");
    }
}

void bench_scaling(bench_env *env, const char *chart_path, size_t max_n)
{
    for (size_t r = 0; r < NROWS; r++)
        for (size_t n = (size_t)1 << 10; n <= max_n; n <<= 2) {
            bench_params p = {n, 1, scaling_rows[r].seed, false, true};
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
    print_ratios(env);
    write_chart(env, chart_path);
}
