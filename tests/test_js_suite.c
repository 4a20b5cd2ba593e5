/* test_js_suite.c - GPU.js's own test suite replayed through gpuc: the cases of
 * tests/fixtures/gpujs-suite.txt (test/features and test/issues of gpujs/gpu.js, re-expressed and run
 * through GPU.js 2.24.1 by scripts/record-gpujs-suite.js), one test per case, on whichever backend
 * GPUC_BACKEND selects. Results must be GPU.js's exactly, or within the case's stated ulps (Math).
 * A case marked `pending <reason>` needs a feature gpuc does not have yet (none is marked today): it is
 * reported as pending while it fails, and fails the test once it passes, so that no mark hides a case that
 * works. */
#include "fixture.h"
#include "suites.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define SUITE_CASES 127 /* the cases in the fixture file */
#define MAX_ITEMS 8

typedef struct suite_arg {
    char kind[32]; /* "array", "vecarray", "vec", "float", "int" */
    int rank, width;
    uint32_t dims[3];
    float *data;
    double value;
} suite_arg;

typedef struct suite_case {
    char name[64], origin[160], pending[32], unsupported[128];
    int ulps;
    gpuc_dims resized_from; /* GPU.js first ran the kernel at this size, then setOutput(output) (dynamic output) */
    float *constant_values[GPUC_MAX_CONSTANTS]; /* array constants' values */
    gpuc_kernel_desc desc;
    char constant_names[GPUC_MAX_CONSTANTS][32], map_names[MAX_ITEMS][32], map_functions[MAX_ITEMS][32];
    char arg_types[256];
    suite_arg args[MAX_ITEMS];
    int nargs;
    char *helpers[MAX_ITEMS], *maps[MAX_ITEMS], *source;
    int nhelpers, nmaps;
    float *expect, *expect_map[MAX_ITEMS];
    size_t nexpect, nexpect_map[MAX_ITEMS];
} suite_case;

static void append_type(suite_case *c, const char *t)
{
    size_t len = strlen(c->arg_types);
    snprintf(c->arg_types + len, sizeof c->arg_types - len, "%s%s", len ? ", " : "", t);
}

static void read_dims(FILE *f, suite_arg *a, size_t *n)
{
    ck_assert(fscanf(f, "%d", &a->rank) == 1 && a->rank >= 1 && a->rank <= 3);
    *n = 1;
    for (int i = 0; i < a->rank; i++) {
        ck_assert(fscanf(f, "%u", &a->dims[i]) == 1);
        *n *= a->dims[i];
    }
}

/* The name of the function a `function name(...)` source declares. */
static void function_name(const char *src, char *name, size_t cap)
{
    const char *p = strstr(src, "function");
    ck_assert(p != NULL);
    p += 8;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (n + 1 < cap && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$'))
        n++;
    memcpy(name, p, n);
    name[n] = '\0';
}

static void read_case(FILE *f, suite_case *c)
{
    char key[32];
    int nconstants = 0;
    while (fscanf(f, "%31s", key) == 1 && strcmp(key, "end") != 0) {
        if (!strcmp(key, "origin")) {
            ck_assert(fscanf(f, " ") == 0 && fgets(c->origin, sizeof c->origin, f) != NULL);
            c->origin[strcspn(c->origin, "\n")] = '\0';
        } else if (!strcmp(key, "setting")) {
            /* GPU.js settings gpuc has no use for (precision, tactic...): the case shows they change nothing */
            char rest[128];
            ck_assert(fgets(rest, sizeof rest, f) != NULL);
        } else if (!strcmp(key, "resized_from")) {
            /* GPU.js ran the kernel at this size, then setOutput(output) and ran it again */
            char rest[128];
            ck_assert(fgets(rest, sizeof rest, f) != NULL);
            ck_assert(sscanf(rest, "%u %u %u", &c->resized_from.x, &c->resized_from.y, &c->resized_from.z) >= 1);
            c->desc.dynamic_output = true;
        } else if (!strcmp(key, "mode")) {
            char mode[16];
            ck_assert(fscanf(f, "%15s", mode) == 1);
        } else if (!strcmp(key, "pending")) {
            ck_assert(fscanf(f, "%31s", c->pending) == 1);
        } else if (!strcmp(key, "ulps")) {
            ck_assert(fscanf(f, "%d", &c->ulps) == 1);
        } else if (!strcmp(key, "output")) {
            char rest[128];
            ck_assert(fgets(rest, sizeof rest, f) != NULL);
            sscanf(rest, "%u %u %u", &c->desc.output.x, &c->desc.output.y, &c->desc.output.z);
        } else if (!strcmp(key, "loopmax")) {
            ck_assert(fscanf(f, "%d", &c->desc.loop_max_iterations) == 1);
        } else if (!strcmp(key, "constant")) {
            char type[16];
            double v;
            ck_assert(fscanf(f, "%31s %15s %lf", c->constant_names[nconstants], type, &v) == 3);
            c->desc.constants[nconstants] = (gpuc_constant){
                c->constant_names[nconstants], v,
                !strcmp(type, "bool") ? GPUC_BOOL : !strcmp(type, "int") ? GPUC_INT : GPUC_FLOAT};
            nconstants++;
        } else if (!strcmp(key, "constarray")) {
            suite_arg a = {0};
            size_t n;
            ck_assert(fscanf(f, "%31s", c->constant_names[nconstants]) == 1);
            read_dims(f, &a, &n);
            c->constant_values[nconstants] = fixture_read_floats(f, n);
            c->desc.constants[nconstants] = (gpuc_constant){.name = c->constant_names[nconstants],
                                                            .values = c->constant_values[nconstants],
                                                            .dims = {a.dims[0], a.dims[1], a.dims[2]}};
            nconstants++;
        } else if (!strcmp(key, "array") || !strcmp(key, "vecarray")) {
            suite_arg *a = &c->args[c->nargs++];
            snprintf(a->kind, sizeof a->kind, "%s", key);
            a->width = 1;
            if (key[0] == 'v')
                ck_assert(fscanf(f, "%d", &a->width) == 1);
            size_t n;
            read_dims(f, a, &n);
            a->data = fixture_read_floats(f, n * (size_t)a->width);
            char type[16];
            if (key[0] == 'v')
                snprintf(type, sizeof type, "vec%d%s", a->width, a->rank == 1 ? "[]" : a->rank == 2 ? "[][]" : "[][][]");
            else
                snprintf(type, sizeof type, "%s", a->rank == 1 ? "float[]" : a->rank == 2 ? "float[][]" : "float[][][]");
            append_type(c, type);
        } else if (!strcmp(key, "vec")) {
            suite_arg *a = &c->args[c->nargs++];
            snprintf(a->kind, sizeof a->kind, "vec");
            ck_assert(fscanf(f, "%d", &a->width) == 1);
            ck_assert(a->width >= 2 && a->width <= 4);
            a->data = fixture_read_floats(f, (size_t)a->width);
            char type[16];
            snprintf(type, sizeof type, "Array(%d)", a->width); /* GPU.js's type for one vector */
            append_type(c, type);
        } else if (!strcmp(key, "float") || !strcmp(key, "int")) {
            suite_arg *a = &c->args[c->nargs++];
            snprintf(a->kind, sizeof a->kind, "%s", key);
            ck_assert(fscanf(f, "%lf", &a->value) == 1);
            append_type(c, key);
        } else if (!strcmp(key, "helper") || !strcmp(key, "source") || !strcmp(key, "map")) {
            int count;
            int m = c->nmaps;
            if (key[0] == 'm')
                ck_assert(fscanf(f, "%31s", c->map_names[m]) == 1);
            ck_assert(fscanf(f, "%d", &count) == 1);
            fgetc(f); /* the newline */
            char *text = fixture_read_lines(f, count);
            if (key[0] == 'h') {
                c->helpers[c->nhelpers++] = text;
            } else if (key[0] == 'm') {
                c->maps[c->nmaps++] = text;
                function_name(text, c->map_functions[m], sizeof c->map_functions[m]);
                c->desc.map[m] = (gpuc_map_output){c->map_names[m], c->map_functions[m]};
            } else {
                c->source = text;
            }
        } else if (!strcmp(key, "expect")) {
            ck_assert(fscanf(f, "%zu", &c->nexpect) == 1);
            c->expect = fixture_read_floats(f, c->nexpect);
        } else if (!strcmp(key, "expectmap")) {
            char name[32];
            size_t n;
            ck_assert(fscanf(f, "%31s %zu", name, &n) == 2);
            for (int m = 0; m < c->nmaps; m++)
                if (!strcmp(name, c->map_names[m])) {
                    c->nexpect_map[m] = n;
                    c->expect_map[m] = fixture_read_floats(f, n);
                }
        } else {
            ck_abort_msg("gpujs-suite.txt: unknown key '%s'", key);
        }
    }
    c->desc.arg_types = c->nargs ? c->arg_types : NULL;
}

static void free_case(suite_case *c)
{
    for (int i = 0; i < c->nargs; i++)
        free(c->args[i].data);
    for (int i = 0; i < GPUC_MAX_CONSTANTS; i++)
        free(c->constant_values[i]);
    for (int i = 0; i < c->nhelpers; i++)
        free(c->helpers[i]);
    for (int i = 0; i < c->nmaps; i++) {
        free(c->maps[i]);
        free(c->expect_map[i]);
    }
    free(c->source);
    free(c->expect);
    free(c);
}

/* Reads the index-th case of the fixture, and checks the file's case count. */
static void load_case(int index, suite_case *c)
{
    FILE *f = fopen(GPUC_FIXTURES_DIR "/gpujs-suite.txt", "r");
    ck_assert_msg(f != NULL, "cannot open %s/gpujs-suite.txt (run the tests from the repository root)",
                  GPUC_FIXTURES_DIR);
    char word[256];
    int seen = 0;
    while (fscanf(f, "%255s", word) == 1) {
        if (word[0] == '#') {
            ck_assert(fgets(word, sizeof word, f) != NULL);
        } else if (!strcmp(word, "case")) {
            /* cases other than ours are read only to be counted */
            suite_case *target = seen++ == index ? c : calloc(1, sizeof *target);
            ck_assert(fscanf(f, "%63s", target->name) == 1);
            read_case(f, target);
            if (target != c)
                free_case(target);
        }
    }
    fclose(f);
    ck_assert_msg(seen == SUITE_CASES, "gpujs-suite.txt has %d cases; SUITE_CASES says %d", seen, SUITE_CASES);
}

static bool same(float got, float want, int bound)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (got == want)
        return true;
    return bound > 0 && !isinf(got) && !isinf(want) && fixture_ulps(got, want) <= bound;
}

/* Compares one output with GPU.js's; writes the first difference into why. */
static bool matches(gpuc_array *r, const float *want, size_t n, int bound, const char *what, char *why, size_t cap)
{
    if (gpuc_array_values(r) != n) {
        snprintf(why, cap, "%s has %zu values, GPU.js %zu", what, gpuc_array_values(r), n);
        return false;
    }
    float *got = malloc(n * sizeof *got);
    bool ok = gpuc_array_read_f32(r, got, n) == GPUC_OK;
    for (size_t i = 0; ok && i < n; i++)
        if (!same(got[i], want[i], bound)) {
            snprintf(why, cap, "%s value %zu: gpuc %.9g, GPU.js %.9g", what, i, got[i], want[i]);
            ok = false;
        }
    free(got);
    return ok;
}

/* Runs the case; returns whether gpuc gave GPU.js's results, and why not in `why`. */
static bool replay(suite_case *c, char *why, size_t cap)
{
    if (c->unsupported[0]) {
        snprintf(why, cap, "needs %s", c->unsupported);
        return false;
    }
    for (int h = 0; h < c->nhelpers; h++)
        if (gpuc_add_function(gpu, c->helpers[h]) != GPUC_OK) {
            snprintf(why, cap, "helper: %s", gpuc_errmsg(gpu));
            return false;
        }
    for (int m = 0; m < c->nmaps; m++)
        if (gpuc_add_function(gpu, c->maps[m]) != GPUC_OK) {
            snprintf(why, cap, "map function: %s", gpuc_errmsg(gpu));
            return false;
        }
    gpuc_kernel *k;
    gpuc_dims output = c->desc.output;
    if (c->desc.dynamic_output) /* created at GPU.js's first size, then resized as GPU.js's test does */
        c->desc.output = c->resized_from;
    gpuc_status created = gpuc_create_kernel_js(gpu, c->source, &c->desc, &k);
    c->desc.output = output;
    if (created != GPUC_OK) {
        snprintf(why, cap, "create: %s", gpuc_errmsg(gpu));
        return false;
    }
    gpuc_arg args[MAX_ITEMS];
    gpuc_array *vectors[MAX_ITEMS] = {0};
    bool ok = true;
    for (int i = 0; ok && i < c->nargs; i++) {
        suite_arg *a = &c->args[i];
        gpuc_dims dims = {a->dims[0], a->dims[1], a->dims[2]};
        if (!strcmp(a->kind, "array")) {
            args[i] = gpuc_arg_host_f32(a->data, dims);
        } else if (!strcmp(a->kind, "vec")) {
            const float *v = a->data;
            args[i] = a->width == 2 ? gpuc_arg_vec2(v[0], v[1])
                      : a->width == 3 ? gpuc_arg_vec3(v[0], v[1], v[2])
                                      : gpuc_arg_vec4(v[0], v[1], v[2], v[3]);
        } else if (!strcmp(a->kind, "vecarray")) {
            size_t n = (size_t)a->width * dims.x * (dims.y ? dims.y : 1) * (dims.z ? dims.z : 1);
            ok = gpuc_array_new(gpu, (gpuc_type)(GPUC_VEC2 + a->width - 2), dims, &vectors[i]) == GPUC_OK &&
                 gpuc_array_write_f32(vectors[i], a->data, n) == GPUC_OK;
            args[i] = gpuc_arg_array(vectors[i]);
        } else {
            args[i] = a->kind[0] == 'f' ? gpuc_arg_f32((float)a->value) : gpuc_arg_i32((int32_t)a->value);
        }
    }
    gpuc_array *results[1 + GPUC_MAX_MAP_OUTPUTS] = {0};
    if (ok && c->desc.dynamic_output) { /* GPU.js's first run, at the first size, then setOutput */
        ok = gpuc_run(k, args, c->nargs, &results[0]) == GPUC_OK && gpuc_kernel_set_output(k, output) == GPUC_OK;
        gpuc_array_free(results[0]);
        results[0] = NULL;
    }
    if (ok)
        ok = (c->nmaps ? gpuc_run_map(k, args, c->nargs, results) : gpuc_run(k, args, c->nargs, &results[0])) ==
             GPUC_OK;
    if (!ok)
        snprintf(why, cap, "run: %s", gpuc_errmsg(gpu));
    if (ok)
        ok = matches(results[0], c->expect, c->nexpect, c->ulps, "result", why, cap);
    for (int m = 0; ok && m < c->nmaps; m++)
        ok = matches(results[1 + m], c->expect_map[m], c->nexpect_map[m], c->ulps, c->map_names[m], why, cap);
    for (int i = 0; i <= c->nmaps; i++)
        gpuc_array_free(results[i]);
    for (int i = 0; i < c->nargs; i++)
        gpuc_array_free(vectors[i]);
    gpuc_kernel_free(k);
    return ok;
}

START_TEST(replays_gpujs_test_suite)
{
    suite_case *c = calloc(1, sizeof *c);
    load_case(_i, c);
    char why[512] = "";
    bool ok = replay(c, why, sizeof why);
    if (c->pending[0]) {
        ck_assert_msg(!ok, "case %s (%s) is marked pending %s but gives GPU.js's results now: remove the mark",
                      c->name, c->origin, c->pending);
        printf("pending %s: case %s (%s): %s\n", c->pending, c->name, c->origin, why);
    } else {
        ck_assert_msg(ok, "case %s (%s): %s", c->name, c->origin, why);
    }
    free_case(c);
}
END_TEST

Suite *suite_js_suite(void)
{
    Suite *s = suite_create("js_suite");
    TCase *tc = fixture_tcase("GPU.js's own tests");
    tcase_add_loop_test(tc, replays_gpujs_test_suite, 0, SUITE_CASES);
    suite_add_tcase(s, tc);
    return s;
}
