/* test_bench_gauntlet.c - the gauntlet rows of the benchmark (make bench) as a user runs them, at small
 * sizes on the backend under test: every column must agree with its C oracle, and the scaling sweep must
 * keep each cell in its --json file and draw its chart (where gnuplot is installed). */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *bench_run(const char *args, int *status)
{
    const char *bench = getenv("GPUC_BENCH");
    if (!bench || !*bench)
        bench = "build/bench/gpuc-bench";
    ck_assert_msg(access(bench, X_OK) == 0, "GPUC_BENCH \"%s\" is not an executable: run the tests through `make check`",
                  bench);
    char command[2048];
    /* Leak checking stays in the in-process suites (see test_examples.c). */
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 '%s' --backend %s %s 2>&1", bench,
             fixture_fragment_backend() ? "fragment" : "compute", args);
    return fixture_run_command(command, status);
}

/* Lines of `out` that start with `row` and say OK / WRONG in their check column. */
static void count_checks(const char *out, const char *row, int *ok, int *wrong)
{
    *ok = *wrong = 0;
    size_t rlen = strlen(row);
    for (const char *at = out; *at; at += strcspn(at, "\n") + (at[strcspn(at, "\n")] != '\0')) {
        size_t len = strcspn(at, "\n");
        if (strncmp(at, row, rlen) || at[rlen] != ' ')
            continue;
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)len, at);
        *ok += strstr(line, "  OK ") != NULL || strstr(line, " OK    ") != NULL;
        *wrong += strstr(line, "WRONG") != NULL || strstr(line, "ERROR") != NULL;
    }
}

START_TEST(gauntlet_rows_agree_with_their_oracles)
{
    int status;
    char *out = bench_run("--n 4096 --rounds 2 --no-gpujs", &status);
    const char *rows[] = {"topk", "bitonic-sort", "compaction", "launch-overhead", "small-calls"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int ok, wrong;
        count_checks(out, rows[r], &ok, &wrong);
        /* The C oracle and at least one gpuc column per row, none of them off. */
        ck_assert_msg(ok >= 2 && wrong == 0, "%s: %d OK, %d WRONG:\n%s", rows[r], ok, wrong, out);
    }
    ck_assert_msg(status == 0 && strstr(out, "all checksums OK"), "status %d:\n%s", status, out);
    free(out);
}
END_TEST

/* The sweep's median table: every line names its row and column in printable text and lists each size
 * once, in increasing order (a column name kept as a pointer into a row's stack printed garbage, and
 * a row's second table listed its sizes twice and fed the ratios). Returns the lines checked. */
static int check_median_table(const char *out)
{
    const char *at = strstr(out, "scaling: median ms per run at each n\n");
    ck_assert_msg(at != NULL, "%s", out);
    at = strchr(at, '\n') + 1;
    int lines = 0;
    for (; *at && *at != '\n'; at += strcspn(at, "\n") + (at[strcspn(at, "\n")] != '\0'), lines++) {
        size_t len = strcspn(at, "\n");
        int last = -1;
        for (size_t i = 0; i < len; i++) {
            unsigned char ch = (unsigned char)at[i];
            ck_assert_msg(ch >= 0x20 && ch < 0x7f, "line %d of the median table is not text:\n%.*s", lines, (int)len, at);
            int log2n;
            if (i + 1 < len && at[i] == '2' && at[i + 1] == '^' && sscanf(at + i + 2, "%d", &log2n) == 1) {
                ck_assert_msg(log2n > last, "2^%d after 2^%d in:\n%.*s", log2n, last, (int)len, at);
                last = log2n;
            }
        }
        ck_assert_msg(last >= 12, "no 2^12 cell in:\n%.*s", (int)len, at);
    }
    return lines;
}

START_TEST(scaling_keeps_every_cell_and_draws_its_chart)
{
    char chart[] = "/tmp/gpuc-scaling-XXXXXX", json_path[] = "/tmp/gpuc-scaling-json-XXXXXX", args[256];
    int fd = mkstemp(chart), fd2 = mkstemp(json_path);
    ck_assert(fd >= 0 && fd2 >= 0);
    close(fd);
    close(fd2);
    remove(chart);
    snprintf(args, sizeof args, "--scaling --n 4096 --chart %s --json %s", chart, json_path);
    int status;
    char *out = bench_run(args, &status);
    ck_assert_msg(status == 0 && strstr(out, "all checksums OK"), "status %d:\n%s", status, out);
    ck_assert_int_ge(check_median_table(out), 3 * 2); /* each algorithm's C oracle and a gpuc column at least */
    char *json = fixture_read_text(json_path);
    remove(json_path);
    /* Each algorithm's oracle and gpuc columns at n = 2^10 and 2^12, and nothing larger. */
    const char *rows[] = {"\"row\": \"topk\"", "\"row\": \"bitonic-sort\"", "\"row\": \"compaction\""};
    for (size_t r = 0; r < 3; r++)
        ck_assert_msg(fixture_count(json, rows[r]) >= 4 && fixture_count(json, rows[r]) % 2 == 0, "%s in %s", rows[r], json);
    ck_assert_uint_eq(fixture_count(json, "\"n\": 1024,"), fixture_count(json, "\"n\": 4096,"));
    ck_assert_uint_eq(fixture_count(json, "\"n\": 1024,") * 2, fixture_count(json, "\"row\": "));
    ck_assert_msg(strstr(json, "\"renderer\"") && strstr(json, "\"cpu\"") && strstr(json, "\"date\""), "%s", json);
    free(json);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        FILE *f = fopen(chart, "rb");
        ck_assert_msg(f != NULL, "no chart at %s:\n%s", chart, out);
        unsigned char magic[8] = {0};
        ck_assert_uint_eq(fread(magic, 1, 8, f), 8);
        fclose(f);
        ck_assert_msg(!memcmp(magic, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG", chart);
        ck_assert_msg(strstr(out, "chart: ") != NULL, "%s", out);
        char data[300];
        snprintf(data, sizeof data, "%s.dat", chart);
        remove(data);
    } else {
        ck_assert_msg(strstr(out, "gnuplot is not installed") != NULL, "%s", out);
    }
    remove(chart);
    free(out);
}
END_TEST

Suite *suite_bench_gauntlet(void)
{
    Suite *s = suite_create("bench_gauntlet");
    TCase *tc = fixture_tcase_bare("gauntlet rows");
    tcase_add_test(tc, gauntlet_rows_agree_with_their_oracles);
    tcase_add_test(tc, scaling_keeps_every_cell_and_draws_its_chart);
    suite_add_tcase(s, tc);
    return s;
}
