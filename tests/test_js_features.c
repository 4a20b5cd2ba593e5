/* test_js_features.c - the behaviour suite: cases modelled on GPU.js's test/features files (operators,
 * Math, control flow, loops and loop caps, helpers, vector returns, constants, 1D-3D inputs; kernels
 * of the shapes public code has: 18 numbers for a camera, Boolean toggles), run
 * through gpuc and compared with what GPU.js 2.24 returned for them in its true-float32 webasm mode
 * (tests/fixtures/gpujs-features.txt, recorded by scripts/record-gpujs-fixtures.js; node's own answer
 * where GPU.js refuses a case, `oracle node`). Exact operations
 * must match exactly; transcendental Math functions within 4e-6 relative. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define MAX_CASES 64
#define FEATURE_CASES 49 /* the cases in the fixture file */
#define MAX_ARGS 24      /* camera_18_numbers passes 18 */

typedef struct feature_arg {
    char kind[8]; /* "array", "float", "int", "bool" */
    int rank;
    uint32_t dims[3];
    float *data;
    double value;
} feature_arg;

typedef struct feature_case {
    char name[64];
    gpuc_kernel_desc desc;
    char constant_names[4][32];
    char arg_types[256];
    feature_arg args[MAX_ARGS];
    int nargs;
    char *helpers[4];
    int nhelpers;
    char *source;
    float *expect;
    size_t nexpect;
} feature_case;

static feature_case cases[MAX_CASES];
static int ncases;

/* Reads `count` lines of source text after the current line. */
static void append_type(feature_case *c, const char *t)
{
    size_t len = strlen(c->arg_types);
    snprintf(c->arg_types + len, sizeof c->arg_types - len, "%s%s", len ? ", " : "", t);
}

static void read_case(FILE *f, feature_case *c)
{
    char key[32];
    while (fscanf(f, "%31s", key) == 1 && strcmp(key, "end") != 0) {
        if (!strcmp(key, "output")) {
            char rest[128];
            fgets(rest, sizeof rest, f);
            sscanf(rest, "%u %u %u", &c->desc.output.x, &c->desc.output.y, &c->desc.output.z);
        } else if (!strcmp(key, "oracle")) { /* `oracle node`: GPU.js refuses it; JavaScript's own answer */
            fscanf(f, "%*s");
        } else if (!strcmp(key, "loopmax")) {
            fscanf(f, "%d", &c->desc.loop_max_iterations);
        } else if (!strcmp(key, "constant")) {
            int k = 0;
            while (c->desc.constants[k].name)
                k++;
            char type[16];
            fscanf(f, "%31s %15s %lf", c->constant_names[k], type, &c->desc.constants[k].value);
            c->desc.constants[k].name = c->constant_names[k];
            c->desc.constants[k].type = !strcmp(type, "int") ? GPUC_INT : GPUC_FLOAT;
        } else if (!strcmp(key, "array")) {
            feature_arg *a = &c->args[c->nargs++];
            strcpy(a->kind, "array");
            fscanf(f, "%d", &a->rank);
            size_t n = 1;
            for (int i = 0; i < a->rank; i++) {
                fscanf(f, "%u", &a->dims[i]);
                n *= a->dims[i];
            }
            a->data = fixture_read_floats(f, n);
            append_type(c, a->rank == 1 ? "float[]" : a->rank == 2 ? "float[][]" : "float[][][]");
        } else if (!strcmp(key, "float") || !strcmp(key, "int")) {
            feature_arg *a = &c->args[c->nargs++];
            strcpy(a->kind, key);
            fscanf(f, "%lf", &a->value);
            append_type(c, key);
        } else if (!strcmp(key, "bool")) { /* `bool true`: GPU.js typed it "Boolean" */
            feature_arg *a = &c->args[c->nargs++];
            char word[8];
            strcpy(a->kind, key);
            fscanf(f, "%7s", word);
            a->value = !strcmp(word, "true");
            append_type(c, "Boolean");
        } else if (!strcmp(key, "helper") || !strcmp(key, "source")) {
            int count;
            fscanf(f, "%d", &count);
            fgetc(f); /* the newline */
            char *text = fixture_read_lines(f, count);
            if (key[0] == 'h')
                c->helpers[c->nhelpers++] = text;
            else
                c->source = text;
        } else if (!strcmp(key, "expect")) {
            fscanf(f, "%zu", &c->nexpect);
            c->expect = fixture_read_floats(f, c->nexpect);
        }
    }
    c->desc.arg_types = c->arg_types;
}

static void load_fixtures(void)
{
    FILE *f = fopen(GPUC_FIXTURES_DIR "/gpujs-features.txt", "r");
    ck_assert_msg(f != NULL, "cannot open %s/gpujs-features.txt (run the tests from the repository root)",
                  GPUC_FIXTURES_DIR);
    char word[256];
    while (fscanf(f, "%255s", word) == 1) {
        if (word[0] == '#') {
            fgets(word, sizeof word, f);
            continue;
        }
        if (!strcmp(word, "case") && ncases < MAX_CASES) {
            feature_case *c = &cases[ncases++];
            fscanf(f, "%63s", c->name);
            read_case(f, c);
        }
    }
    fclose(f);
}

/* Math functions other than the exact ones differ between libm and GLSL in the last bits, more for
 * (asin/acos/atan are refined in runtime_math.c): 4e-6 relative. */
static bool close_enough(const char *name, float got, float want)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (got == want)
        return true;
    bool approximate = !strncmp(name, "math_", 5) && strcmp(name, "math_rounding") != 0;
    if (!approximate)
        return false;
    float tolerance = fmaxf(fabsf(want) * 4e-6f, 1e-6f);
    return fabsf(got - want) <= tolerance;
}

START_TEST(matches_gpujs)
{
    load_fixtures();
    ck_assert_int_eq(ncases, FEATURE_CASES);
    feature_case *c = &cases[_i];
    for (int h = 0; h < c->nhelpers; h++)
        ck_assert_gpuc_ok(gpuc_add_function(gpu, c->helpers[h]));
    gpuc_kernel *k;
    gpuc_status st = gpuc_create_kernel_js(gpu, c->source, &c->desc, &k);
    ck_assert_msg(st == GPUC_OK, "case %s: %s", c->name, gpuc_errmsg(gpu));
    gpuc_arg args[MAX_ARGS];
    for (int i = 0; i < c->nargs; i++) {
        feature_arg *a = &c->args[i];
        if (a->kind[0] == 'a')
            args[i] = gpuc_arg_host_f32(a->data, (gpuc_dims){a->dims[0], a->dims[1], a->dims[2]});
        else if (a->kind[0] == 'b')
            args[i] = gpuc_arg_bool(a->value != 0);
        else if (a->kind[0] == 'f')
            args[i] = gpuc_arg_f32((float)a->value);
        else
            args[i] = gpuc_arg_i32((int32_t)a->value);
    }
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, c->nargs, &r));
    ck_assert_uint_eq(gpuc_array_values(r), c->nexpect);
    float *got = malloc(c->nexpect * sizeof *got);
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, got, c->nexpect));
    for (size_t i = 0; i < c->nexpect; i++)
        ck_assert_msg(close_enough(c->name, got[i], c->expect[i]), "case %s, value %zu: gpuc %.9g, GPU.js %.9g",
                      c->name, i, got[i], c->expect[i]);
    free(got);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_features(void)
{
    Suite *s = suite_create("js_features");
    TCase *tc = fixture_tcase("GPU.js feature cases");
    /* One forked test per fixture case; the count is checked against the file inside the test. */
    tcase_add_loop_test(tc, matches_gpujs, 0, FEATURE_CASES);
    suite_add_tcase(s, tc);
    return s;
}
