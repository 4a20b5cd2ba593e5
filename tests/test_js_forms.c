/* test_js_forms.c - JavaScript as it arrives from the wild: minified code (terser's output of our own
 * kernels, comma expressions, `?:` and `&&` / `||` as statements, `!0` / `!1`), Babel's `(0, m.f)(x)`,
 * functions called where they are defined, `.length` of arrays, and a `var` declared again holding
 * another type. The cases of tests/fixtures/js-forms.txt (scripts/record-js-forms.js) must give GPU.js
 * 2.24.1's answers where GPU.js runs them, else node's, exactly; uses of a `var` whose type is not the
 * same on every path are refused, naming the variable and both types. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define FORMS_CASES 21 /* the cases in the fixture file */
#define MAX_ARGS 4

typedef struct forms_case {
    char name[64], oracle[32];
    gpuc_dims output;
    int nargs, nhelpers;
    bool is_array[MAX_ARGS];
    gpuc_dims dims[MAX_ARGS];
    float *data[MAX_ARGS];
    double value[MAX_ARGS];
    char *helpers[MAX_ARGS], *source;
    float *expect;
    size_t nexpect;
} forms_case;

static void read_case(FILE *f, forms_case *c)
{
    char key[32];
    while (fscanf(f, "%31s", key) == 1 && strcmp(key, "end")) {
        if (!strcmp(key, "oracle")) {
            ck_assert(fscanf(f, "%31s", c->oracle) == 1);
        } else if (!strcmp(key, "output")) {
            uint32_t *d = &c->output.x;
            for (int i = 0; i < 3 && fscanf(f, "%u", &d[i]) == 1; i++)
                ;
        } else if (!strcmp(key, "float") || !strcmp(key, "array")) {
            ck_assert(c->nargs < MAX_ARGS);
            int i = c->nargs++;
            if (key[0] == 'f') {
                ck_assert(fscanf(f, "%lf", &c->value[i]) == 1);
                continue;
            }
            int rank;
            ck_assert(fscanf(f, "%d", &rank) == 1 && rank >= 1 && rank <= 3);
            uint32_t *d = &c->dims[i].x;
            size_t n = 1;
            for (int r = 0; r < rank; r++) {
                ck_assert(fscanf(f, "%u", &d[r]) == 1);
                n *= d[r];
            }
            c->is_array[i] = true;
            c->data[i] = fixture_read_floats(f, n);
        } else if (!strcmp(key, "helper") || !strcmp(key, "source")) {
            int count;
            ck_assert(fscanf(f, "%d", &count) == 1);
            fgetc(f); /* the newline */
            char *text = fixture_read_lines(f, count);
            if (key[0] == 'h') {
                ck_assert(c->nhelpers < MAX_ARGS);
                c->helpers[c->nhelpers++] = text;
            } else {
                c->source = text;
            }
        } else if (!strcmp(key, "expect")) {
            ck_assert(fscanf(f, "%zu", &c->nexpect) == 1);
            c->expect = fixture_read_floats(f, c->nexpect);
        } else {
            ck_abort_msg("js-forms.txt: unknown key %s", key);
        }
    }
}

static void free_case(forms_case *c)
{
    for (int i = 0; i < MAX_ARGS; i++) {
        free(c->data[i]);
        free(c->helpers[i]);
    }
    free(c->source);
    free(c->expect);
    free(c);
}

/* Case `index` of the fixture file (the file's case count is checked against FORMS_CASES). */
static forms_case *load_case(int index)
{
    FILE *f = fopen(GPUC_FIXTURES_DIR "/js-forms.txt", "r");
    ck_assert_msg(f != NULL, "cannot open %s/js-forms.txt (run the tests from the repository root)",
                  GPUC_FIXTURES_DIR);
    forms_case *mine = NULL;
    char word[256];
    int seen = 0;
    while (fscanf(f, "%255s", word) == 1) {
        if (word[0] == '#') {
            ck_assert(fgets(word, sizeof word, f) != NULL);
        } else if (!strcmp(word, "case")) {
            forms_case *c = calloc(1, sizeof *c);
            ck_assert(c && fscanf(f, "%63s", c->name) == 1);
            read_case(f, c);
            if (seen++ == index)
                mine = c;
            else
                free_case(c);
        }
    }
    fclose(f);
    ck_assert_msg(seen == FORMS_CASES, "js-forms.txt has %d cases; FORMS_CASES says %d", seen, FORMS_CASES);
    ck_assert(mine != NULL);
    return mine;
}

START_TEST(forms_give_javascripts_answers)
{
    forms_case *c = load_case(_i);
    for (int h = 0; h < c->nhelpers; h++)
        ck_assert_gpuc_ok(gpuc_add_function(gpu, c->helpers[h]));
    gpuc_kernel *k;
    gpuc_status st = gpuc_create_kernel_js(gpu, c->source, &(gpuc_kernel_desc){.output = c->output}, &k);
    ck_assert_msg(st == GPUC_OK, "case %s: %s\n%s", c->name, gpuc_errmsg(gpu), c->source);
    gpuc_arg args[MAX_ARGS];
    for (int i = 0; i < c->nargs; i++)
        args[i] = c->is_array[i] ? gpuc_arg_host_f32(c->data[i], c->dims[i]) : gpuc_arg_f32((float)c->value[i]);
    gpuc_array *r;
    st = gpuc_run(k, args, c->nargs, &r);
    ck_assert_msg(st == GPUC_OK, "case %s: %s", c->name, gpuc_errmsg(gpu));
    float *got = fixture_take_floats(r, c->nexpect);
    for (size_t i = 0; i < c->nexpect; i++)
        ck_assert_msg(got[i] == c->expect[i] || (isnan(got[i]) && isnan(c->expect[i])),
                      "case %s, cell %zu: gpuc %.9g, %s %.9g\n%s", c->name, i, got[i], c->oracle, c->expect[i],
                      c->source);
    free(got);
    gpuc_kernel_free(k);
    free_case(c);
}
END_TEST

Suite *suite_js_forms(void)
{
    Suite *s = suite_create("js_forms");
    TCase *tc = fixture_tcase("JavaScript forms from the wild");
    tcase_add_loop_test(tc, forms_give_javascripts_answers, 0, FORMS_CASES);
    suite_add_tcase(s, tc);
    return s;
}
