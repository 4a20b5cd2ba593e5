/* test_js_data_fixtures.c - how JavaScript kernels read their array arguments, against GPU.js itself:
 * rows running on into the next row, fewer indices than the rank, the rank-blind "Array" type,
 * input(flat, [w, h]), Array2D(n) / Array3D(n) arguments, replayed from what GPU.js 2.24.1 returned
 * (tests/fixtures/gpujs-data.txt, recorded by scripts/record-gpujs-data-fixtures.js). All exact. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define DATA_CASES 8 /* the cases in the fixture file */

typedef struct data_arg {
    bool array;
    bool is_int;
    gpuc_dims dims;
    float *values;
    double value;
} data_arg;

typedef struct data_case {
    char name[64];
    gpuc_dims output;
    char types[128];
    data_arg args[4];
    int nargs;
    char *source;
    float *expect;
    size_t nexpect;
} data_case;

static data_case cases[16];
static int ncases;

static uint32_t read_dims(FILE *f, int count, uint32_t d[3])
{
    uint32_t cells = 1;
    d[0] = d[1] = d[2] = 0;
    for (int i = 0; i < count && i < 3; i++) {
        if (fscanf(f, "%u", &d[i]) != 1)
            return 0;
        cells *= d[i];
    }
    return cells;
}

static void read_case(FILE *f, data_case *c)
{
    char key[32], line[1024];
    while (fscanf(f, "%31s", key) == 1 && strcmp(key, "end") != 0) {
        if (!strcmp(key, "output")) {
            uint32_t d[3] = {0, 0, 0};
            fgets(line, sizeof line, f);
            sscanf(line, "%u %u %u", &d[0], &d[1], &d[2]);
            c->output = (gpuc_dims){d[0], d[1], d[2]};
        } else if (!strcmp(key, "types")) {
            fgets(line, sizeof line, f);
            line[strcspn(line, "\n")] = '\0';
            snprintf(c->types, sizeof c->types, "%s", line + strspn(line, " "));
        } else if (!strcmp(key, "array") && c->nargs < 4) {
            data_arg *a = &c->args[c->nargs++];
            int components = 0, rank = 0;
            uint32_t d[3];
            fscanf(f, "%d %d", &components, &rank);
            uint32_t cells = read_dims(f, rank, d);
            a->array = true;
            a->dims = (gpuc_dims){d[0], d[1], d[2]};
            a->values = fixture_read_floats(f, (size_t)cells * (size_t)components);
        } else if ((!strcmp(key, "int") || !strcmp(key, "float")) && c->nargs < 4) {
            data_arg *a = &c->args[c->nargs++];
            a->is_int = key[0] == 'i';
            fscanf(f, "%lf", &a->value);
        } else if (!strcmp(key, "source")) {
            int count = 0;
            fscanf(f, "%d", &count);
            fgets(line, sizeof line, f);
            size_t len = 0;
            c->source = calloc(1, 1);
            for (int i = 0; i < count && fgets(line, sizeof line, f); i++) {
                size_t n = strlen(line);
                c->source = realloc(c->source, len + n + 1);
                memcpy(c->source + len, line, n + 1);
                len += n;
            }
        } else if (!strcmp(key, "expect")) {
            fscanf(f, "%zu", &c->nexpect);
            c->expect = fixture_read_floats(f, c->nexpect);
        } else {
            fgets(line, sizeof line, f);
        }
    }
}

static void load_cases(void)
{
    if (ncases)
        return;
    FILE *f = fopen(GPUC_FIXTURES_DIR "/gpujs-data.txt", "r");
    if (!f)
        return;
    char key[32], line[256];
    while (ncases < 16 && fscanf(f, "%31s", key) == 1) {
        if (key[0] == '#') {
            fgets(line, sizeof line, f);
            continue;
        }
        if (strcmp(key, "case") != 0)
            continue;
        data_case *c = &cases[ncases++];
        fscanf(f, "%63s", c->name);
        read_case(f, c);
    }
    fclose(f);
}

START_TEST(reads_arrays_as_gpujs_does)
{
    load_cases();
    ck_assert_int_eq(ncases, DATA_CASES);
    const data_case *c = &cases[_i];
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc desc = {.output = c->output, .arg_types = c->types[0] ? c->types : NULL, .name = c->name};
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, c->source, &desc, &k));
    gpuc_arg args[4];
    for (int i = 0; i < c->nargs; i++) {
        const data_arg *a = &c->args[i];
        args[i] = a->array ? gpuc_arg_host_f32(a->values, a->dims)
                  : a->is_int ? gpuc_arg_i32((int32_t)a->value) : gpuc_arg_f32((float)a->value);
    }
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, c->nargs, &r));
    ck_assert_uint_eq(gpuc_array_values(r), c->nexpect);
    float *got = fixture_take_floats(r, c->nexpect);
    for (size_t i = 0; i < c->nexpect; i++)
        ck_assert_msg(got[i] == c->expect[i], "case %s: value %zu is %.9g, GPU.js gave %.9g", c->name, i,
                      (double)got[i], (double)c->expect[i]);
    free(got);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_data(void)
{
    Suite *s = suite_create("js_data");
    TCase *tc = fixture_tcase("js_data");
    tcase_add_loop_test(tc, reads_arrays_as_gpujs_does, 0, DATA_CASES);
    suite_add_tcase(s, tc);
    return s;
}
