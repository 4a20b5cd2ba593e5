/* test_bench_zoo.c - the kernel zoo rows of the benchmark (tests/bench/, make bench-zoo) as a user runs
 * them: the program from GPUC_BENCH at small sizes on the backend under test, its table and --json read
 * back. Each gpuc column must agree with the plain C reference (bit-equal where the README says so), a
 * row past its size limit must be refused, and where node and gpu.js are installed, GPU.js's columns
 * must be checked as strictly: a changed kernel text or a changed value in GPU.js's result is WRONG. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ZOO_SCRIPT "scripts/bench-gpujs-zoo.js"

static const char *bench_path(void)
{
    const char *bench = getenv("GPUC_BENCH");
    if (!bench || !*bench)
        bench = "build/bench/gpuc-bench";
    ck_assert_msg(access(bench, X_OK) == 0, "GPUC_BENCH \"%s\" is not an executable: run the tests through `make check`",
                  bench);
    return bench;
}

/* Runs the bench with `args` (and `env` before it, e.g. "GPUC_ZOO_SCRIPT=..."), stderr included. */
static char *zoo_bench(const char *env, const char *args, int *status)
{
    char command[2048];
    /* Leak checking stays in the in-process suites (see test_examples.c). */
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 %s '%s' %s 2>&1", env ? env : "", bench_path(), args);
    return fixture_run_command(command, status);
}

static const char *backend_name(void)
{
    return fixture_fragment_backend() ? "fragment" : "compute";
}

/* The table line of `row` whose column starts with `column` (the text up to its end), or NULL. */
static char *line_of(const char *out, const char *row, const char *column)
{
    static char line[512];
    for (const char *at = out; *at; at += strcspn(at, "\n") + (at[strcspn(at, "\n")] != '\0')) {
        size_t len = strcspn(at, "\n"), rlen = strlen(row);
        if (len >= sizeof line || strncmp(at, row, rlen) || at[rlen] != ' ')
            continue;
        const char *col = at + rlen + strspn(at + rlen, " ");
        if (strncmp(col, column, strlen(column)))
            continue;
        memcpy(line, at, len);
        line[len] = '\0';
        return line;
    }
    return NULL;
}


static const char *const ROWS[] = {"matmul", "life", "conv5", "mandelbrot", "nbody"};

START_TEST(zoo_rows_agree_with_c_on_the_backend)
{
    int status;
    char *out = zoo_bench(NULL, "--row zoo --n 24 --rounds 5 --no-gpujs", &status);
    ck_assert_msg(status == 0, "the zoo failed (status %d):\n%s", status, out);
    ck_assert_msg(strstr(out, "all checksums OK") != NULL, "%s", out);
    ck_assert_msg(!strstr(out, "WRONG") && !strstr(out, "ERROR"), "%s", out);
    ck_assert_msg(!line_of(out, "topk", "") && !line_of(out, "compaction", ""), "the gauntlet ran with --row zoo:\n%s",
                  out);
    char column[64];
    bool openmp = !strstr(out, "built without OpenMP"); /* a compiler without -fopenmp: a note instead */
    for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++) {
        ck_assert_msg(line_of(out, ROWS[r], "C -O3, naive loops (reference)") != NULL, "no C line for %s:\n%s", ROWS[r],
                      out);
        ck_assert_msg(line_of(out, ROWS[r], "GPU.js 2.24.1 (node)") != NULL, "no GPU.js note for %s:\n%s", ROWS[r], out);
        for (int js = 0; js < 2; js++) {
            snprintf(column, sizeof column, "%s [%s]", js ? "gpuc JS (pasted)" : "gpuc GLSL", backend_name());
            const char *line = line_of(out, ROWS[r], column);
            ck_assert_msg(line != NULL, "no '%s' line for %s:\n%s", column, ROWS[r], out);
            ck_assert_msg(strstr(line, " OK ") != NULL, "%s", line);
            /* The rows whose gpuc columns add in C's order are bit-equal (tests/bench/README.md). */
            bool exact = strcmp(ROWS[r], "mandelbrot") && (strcmp(ROWS[r], "nbody") || js);
            ck_assert_msg(!exact || strstr(line, "bit-equal"), "%s is not bit-equal: %s", ROWS[r], line);
            ck_assert_msg(strstr(line, "x C") != NULL, "no ratio to C: %s", line);
            /* Timed in pairs against OpenMP (built with it wherever the compiler takes -fopenmp). */
            ck_assert_msg(!openmp || strstr(line, "x OpenMP") != NULL, "no ratio to OpenMP: %s", line);
        }
        /* The CPU runtimes' columns: checked against C like gpuc's (OpenMP runs C's loop, so
         * bit-equal); OpenCL's, or its note where the bench was built without it or finds no device. */
        const char *omp = line_of(out, ROWS[r], "OpenMP");
        bool omp_ok = omp && (openmp ? strstr(omp, " OK ") && strstr(omp, "bit-equal")
                                     : strstr(omp, "(not run: ") != NULL);
        ck_assert_msg(omp_ok, "%s: no correct OpenMP line:\n%s", ROWS[r], out);
        const char *ocl = line_of(out, ROWS[r], "OpenCL");
        ck_assert_msg(ocl && (strstr(ocl, " OK ") || strstr(ocl, "(not run: ")), "%s: no OpenCL line:\n%s", ROWS[r],
                      out);
        const char *goal = line_of(out, ROWS[r], "best gpuc [");
        ck_assert_msg(!openmp || (goal && strstr(goal, "goal <= 1.0x each")), "%s: no goal line:\n%s", ROWS[r], out);
    }
    const char *ikj = line_of(out, "matmul", "C -O3, loops in i-k-j order");
    ck_assert_msg(ikj && strstr(ikj, "bit-equal"), "%s", out);
    free(out);
}
END_TEST

START_TEST(zoo_row_by_name_runs_alone)
{
    int status;
    char *out = zoo_bench(NULL, "--row conv5 --n 16 --no-gpujs", &status);
    ck_assert_msg(status == 0, "%s", out);
    ck_assert_msg(strstr(out, "-- zoo conv5: 16 x 16") != NULL, "%s", out);
    ck_assert_msg(!strstr(out, "-- zoo matmul") && !strstr(out, "-- zoo life"), "%s", out);
    free(out);
}
END_TEST

START_TEST(zoo_json_keeps_every_cell_and_the_machine)
{
    char path[] = "/tmp/gpuc-zoo-json-XXXXXX", args[256];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(args, sizeof args, "--row zoo --n 16 --rounds 3 --no-gpujs --json %s", path);
    int status;
    char *out = zoo_bench(NULL, args, &status);
    ck_assert_msg(status == 0, "%s", out);
    size_t opencl = fixture_count(out, "OpenCL on PoCL, 1 work-item per cell"); /* 0 without PoCL */
    size_t openmp = fixture_count(out, "  OpenMP, "); /* the column lines; 0 built without OpenMP */
    free(out);
    char *json = fixture_read_text(path);
    remove(path);
    /* Per row: the C reference, OpenMP, OpenCL where present, gpuc's GLSL and JS columns (each with
     * its ratio to OpenMP in pairs); matmul's second C loop. */
    size_t cells = 5 * 3 + openmp + opencl + 1;
    ck_assert_uint_eq(fixture_count(json, "\"group\": \"zoo\""), cells);
    ck_assert_uint_eq(fixture_count(json, "\"ok\": true"), cells);
    ck_assert_uint_eq(fixture_count(json, "\"ratio_to_c\""), cells);
    ck_assert_uint_eq(fixture_count(json, "\"ratio_to_OpenMP_in_pairs\""), openmp ? 5 * 2 : 0);
    ck_assert_uint_eq(fixture_count(json, "\"ratio_to_PoCL_in_pairs\""), opencl ? 5 * 2 : 0);
    const char *keys[] = {"\"renderer\"", "\"cpu\"", "\"cpus_online\"", "\"gpuc_version\"", "\"device\"", "\"date\""};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(strstr(json, keys[k]) != NULL, "no %s in %s", keys[k], json);
    free(json);
}
END_TEST

START_TEST(zoo_refuses_what_it_cannot_run)
{
    int status;
    char *out = zoo_bench(NULL, "--row matmul --n 5000 --no-gpujs", &status);
    ck_assert_msg(status == 1 && strstr(out, "over this row's 4096"), "status %d:\n%s", status, out);
    free(out);
    out = zoo_bench(NULL, "--row mandelbrot --n 1 --no-gpujs", &status);
    ck_assert_msg(status == 1 && strstr(out, "must be 2 to"), "status %d:\n%s", status, out);
    free(out);
    out = zoo_bench(NULL, "--row zoology", &status);
    ck_assert_msg(status == 2 && strstr(out, "no row named zoology"), "status %d:\n%s", status, out);
    free(out);
}
END_TEST

/* A copy of the node script with `from` replaced by `to` (which must be found), in dir; its path. */
static char *altered_script(const char *dir, const char *name, const char *from, const char *to)
{
    char *script = fixture_read_text(ZOO_SCRIPT);
    char *at = strstr(script, from);
    ck_assert_msg(at != NULL, "%s no longer holds \"%s\": update this test", ZOO_SCRIPT, from);
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fwrite(script, 1, (size_t)(at - script), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(script);
    return path;
}

START_TEST(zoo_gpujs_columns_are_checked_against_c)
{
    int status;
    char *out = zoo_bench(NULL, "--row life --n 16 --rounds 3", &status);
    const char *note = line_of(out, "life", "GPU.js 2.24.1 (node)"); /* not OpenMP's or OpenCL's note */
    char skip[512] = "";
    if (note && strstr(note, "(not run: "))
        snprintf(skip, sizeof skip, "%s", strstr(note, "(not run: "));
    if (skip[0]) { /* node or gpu.js missing here: the table must say so, and the gpuc columns still run */
        ck_assert_msg(status == 0 && line_of(out, "life", "gpuc GLSL"), "%s", out);
        printf("bench_zoo: GPU.js columns not checked here %s\n", skip);
        free(out);
        return;
    }
    ck_assert_msg(status == 0, "%s", out);
    const char *modes[] = {"GPU.js webasm (node)", "GPU.js webasm-threads (node)", "GPU.js cpu (node)"};
    for (size_t m = 0; m < 3; m++) {
        const char *line = line_of(out, "life", modes[m]);
        ck_assert_msg(line && strstr(line, " OK ") && strstr(line, "bit-equal"), "%s:\n%s", modes[m], out);
    }
    const char *ours = line_of(out, "life", "gpuc GLSL");
    ck_assert_msg(ours && strstr(ours, "x GPU.js "), "no ratio to GPU.js: %s", out);
    free(out);

    char dir[] = "/tmp/gpuc-zoo-test-XXXXXX", env[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    /* Another kernel text: a neighbour count of 2 or 3 keeps a cell alive, but the text is not gpuc's. */
    snprintf(env, sizeof env, "GPUC_ZOO_SCRIPT='%s'",
             altered_script(dir, "text.js", "(n === 2 && board[y][x] === 1)", "(n === 2 && board[y][x] >= 1)"));
    out = zoo_bench(env, "--row life --n 16 --rounds 3 --backend compute", &status);
    ck_assert_msg(status == 1 && fixture_count(out, "ran another kernel text") == 3, "status %d:\n%s", status, out);
    free(out);
    /* The same text, one cell of its result flipped before it is written. */
    snprintf(env, sizeof env, "GPUC_ZOO_SCRIPT='%s'",
             altered_script(dir, "value.js", "fs.writeFileSync(file,", "flat[5] = 1 - flat[5];\n      fs.writeFileSync(file,"));
    out = zoo_bench(env, "--row life --n 16 --rounds 3 --backend compute", &status);
    ck_assert_msg(status == 1 && fixture_count(out, "WRONG 1 of 256 values differ") == 3, "status %d:\n%s", status, out);
    free(out);
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

Suite *suite_bench_zoo(void)
{
    Suite *s = suite_create("bench_zoo");
    TCase *tc = fixture_tcase_bare("kernel zoo");
    tcase_add_test(tc, zoo_rows_agree_with_c_on_the_backend);
    tcase_add_test(tc, zoo_row_by_name_runs_alone);
    tcase_add_test(tc, zoo_json_keeps_every_cell_and_the_machine);
    tcase_add_test(tc, zoo_refuses_what_it_cannot_run);
    tcase_add_test(tc, zoo_gpujs_columns_are_checked_against_c);
    suite_add_tcase(s, tc);
    return s;
}
