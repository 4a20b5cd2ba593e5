/* test_gpujs_cases.c - the reader of the GPU.js case fixtures (gpujs_cases.c) on fixture texts of its own:
 * every key of the grammar read into its field, and each kind of malformed fixture refused at its
 * line (FILE:LINE), never read as a wrong case. Needs no context. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <math.h>
#include <string.h>

#define HEAD "# a comment header\n# of two lines\nformat gpujs-cases 1\n"

START_TEST(reads_every_key)
{
    const char *text = HEAD "case every_key\n"
                            "origin test/features/loops.js for loop\n"
                            "mode webasm\n"
                            "oracle node\n"
                            "pending loops\n"
                            "ulps 4\n"
                            "resized_from 5 4\n"
                            "output 3 2\n"
                            "loopmax 50\n"
                            "setting precision single\n"
                            "types Array, Integer\n"
                            "constant n int 8\n"
                            "constant on bool 1\n"
                            "constarray w 1 2 1.5 -0\n"
                            "array 2 3 2 1 2 3 4 5 6\n"
                            "vecarray 2 1 2 1 2 3 4\n"
                            "vec 3 nan inf -inf\n"
                            "float 2.5\n"
                            "int -3\n"
                            "bool true\n"
                            "helper 2\n"
                            "function h(x) {\n"
                            "  return x; }\n"
                            "subkernels 1\n"
                            "{ s: add }\n"
                            "map s 1\n"
                            "function add(a, b) { return a + b; }\n"
                            "source 1\n"
                            "function (a) { return a[this.thread.x]; }\n"
                            "expect 2 1 -0\n"
                            "expectmap s 1 7\n"
                            "end\n"
                            "\n"
                            "# between cases\n"
                            "case second\n"
                            "output 1\n"
                            "source 1\n"
                            "function () { return 1; }\n"
                            "expect 1 1\n"
                            "end\n";
    gpujs_cases set;
    char error[256] = "";
    ck_assert_msg(gpujs_cases_parse(text, "every.txt", &set, error, sizeof error), "%s", error);
    ck_assert_int_eq(set.count, 2);
    const gpujs_case *c = &set.cases[0];
    ck_assert_str_eq(c->name, "every_key");
    ck_assert_int_eq(c->line, 4);
    ck_assert_str_eq(c->origin, "test/features/loops.js for loop");
    ck_assert_str_eq(c->mode, "webasm");
    ck_assert_str_eq(c->oracle, "node");
    ck_assert_str_eq(c->pending, "loops");
    ck_assert_int_eq(c->ulps, 4);
    ck_assert(c->resized && c->resized_from.x == 5 && c->resized_from.y == 4 && c->resized_from.z == 0);
    ck_assert(c->output.x == 3 && c->output.y == 2 && c->output.z == 0);
    ck_assert_int_eq(c->loop_max, 50);
    ck_assert_int_eq(c->nsettings, 1);
    ck_assert_str_eq(c->settings[0], "precision single");
    ck_assert_str_eq(c->types, "Array, Integer");
    ck_assert_int_eq(c->nconstants, 3);
    ck_assert_str_eq(c->constants[0].name, "n");
    ck_assert(c->constants[0].type == GPUC_INT && c->constants[0].value == 8);
    ck_assert(c->constants[1].type == GPUC_BOOL && c->constants[1].value == 1);
    ck_assert(c->constants[2].values && c->constants[2].dims.x == 2 && c->constants[2].dims.y == 0);
    ck_assert(c->constants[2].values[0] == 1.5f && signbit(c->constants[2].values[1]));
    ck_assert_int_eq(c->nargs, 6);
    ck_assert(c->args[0].kind == GPUJS_ARRAY && c->args[0].rank == 2 && c->args[0].dims.y == 2);
    ck_assert(c->args[0].nvalues == 6 && c->args[0].values[5] == 6);
    ck_assert(c->args[1].kind == GPUJS_VECARRAY && c->args[1].width == 2 && c->args[1].nvalues == 4);
    ck_assert(c->args[2].kind == GPUJS_VEC && c->args[2].width == 3 && isnan(c->args[2].values[0]));
    ck_assert(isinf(c->args[2].values[1]) && c->args[2].values[2] < 0);
    ck_assert(c->args[3].kind == GPUJS_FLOAT && c->args[3].value == 2.5);
    ck_assert(c->args[4].kind == GPUJS_INT && c->args[4].value == -3);
    ck_assert(c->args[5].kind == GPUJS_BOOL && c->args[5].value == 1);
    char types[128];
    ck_assert_str_eq(gpujs_case_arg_types(c, types, sizeof types),
                     "float[][], vec2[], Array(3), float, int, Boolean");
    ck_assert_int_eq(c->nhelpers, 1);
    ck_assert_str_eq(c->helpers[0], "function h(x) {\n  return x; }\n");
    ck_assert_str_eq(c->sub_kernels, "{ s: add }\n");
    ck_assert_int_eq(c->nmaps, 1);
    ck_assert_str_eq(c->maps[0].name, "s");
    ck_assert_str_eq(c->maps[0].source, "function add(a, b) { return a + b; }\n");
    ck_assert_str_eq(c->source, "function (a) { return a[this.thread.x]; }\n");
    ck_assert(c->nexpect == 2 && c->expect[0] == 1 && c->expect[1] == 0 && signbit(c->expect[1]));
    ck_assert(c->nexpect_maps == 1 && !strcmp(c->expect_maps[0].name, "s") && c->expect_maps[0].values[0] == 7);
    ck_assert_str_eq(set.cases[1].name, "second");
    ck_assert_int_eq(set.cases[1].nargs, 0);
    ck_assert_str_eq(gpujs_case_arg_types(&set.cases[1], types, sizeof types), "");
    gpujs_cases_free(&set);
}
END_TEST

/* Each fixture is wrong in one place; the reader must say where and what. */
static const struct malformed {
    const char *text, *message;
} malformed[] = {
    {"# no format line\ncase a\n", "bad.txt:2: the first line after the comments must be `format gpujs-cases 1`"},
    {"# only comments\n", "bad.txt:1: no `format gpujs-cases 1` line"},
    {"format gpujs-cases 2\n", "bad.txt:1: format gpujs-cases 2: this reader reads version 1"},
    {"format other-cases 1\n", "bad.txt:1: the first line"},
    {HEAD "case a\noutput 1\nsource 1\nreturn 1;\nexpect 1 1\n", "bad.txt:8: case a (line 4) has no `end`"},
    {HEAD "case a\noutput 1\ncase b\n", "bad.txt:6: case a (line 4) has no `end` before this `case`"},
    {HEAD "case a\noutput 1\nexpext 1 1\nend\n", "bad.txt:6: case a: unknown keyword `expext`"},
    {HEAD "case a\noutput 1\nexpect 3 1 2\nend\n", "bad.txt:6: `expect` needs 3 values; the line has 2"},
    {HEAD "case a\noutput 1\nexpect 1 1 2\nend\n", "bad.txt:6: `expect` needs 1 values; the line has more"},
    {HEAD "case a\narray 2 3 2 1 2 3 4 5\nend\n", "bad.txt:5: `array` needs 6 values; the line has 5"},
    {HEAD "case a\nvecarray 3 1 2 1 2 3 4 5\nend\n", "bad.txt:5: `vecarray` needs 6 values; the line has 5"},
    {HEAD "case a\narray 4 1 1 1 1 1\nend\n", "bad.txt:5: `array`: rank `4` is not a whole number from 1 to 3"},
    {HEAD "case a\nexpect 2 1 x\nend\n", "bad.txt:5: `expect`: value 2 `x` is not a number"},
    {HEAD "case a\noutput 0\nend\n", "bad.txt:5: `output`: size `0` is not a whole number from 1"},
    {HEAD "case a\noutput 1 1 1 1\nend\n", "bad.txt:5: `output` takes at most 3 sizes"},
    {HEAD "case a\nsource 3\nfunction () {\nreturn 1; }\n", "bad.txt:5: `source 3` needs 3 lines; the file ends after 2"},
    {HEAD "case a\noutput 1\nsource 1\nreturn 1;\nend\n", "bad.txt:8: case a (line 4) ends without `expect`"},
    {HEAD "case a\nconstant n long 3\nend\n", "bad.txt:5: `constant n`: type `long` is not int, float or bool"},
    {HEAD "case a\nbool yes\nend\n", "bad.txt:5: `bool` takes true or false, not `yes`"},
    {HEAD "case a\nmode webasm cpu\nend\n", "bad.txt:5: `mode` is followed by `cpu`, one word too many"},
    {HEAD "case a\n\nend\n", "bad.txt:5: case a: a blank line inside a case"},
    {HEAD "end\n", "bad.txt:4: expected `case NAME`, found `end`"},
};

START_TEST(malformed_fixture_fails_at_its_line)
{
    const struct malformed *m = &malformed[_i];
    gpujs_cases set = {.count = 1};
    char error[256] = "";
    ck_assert_msg(!gpujs_cases_parse(m->text, "bad.txt", &set, error, sizeof error), "read:\n%s", m->text);
    ck_assert_msg(strstr(error, m->message) != NULL, "message \"%s\" lacks \"%s\"", error, m->message);
    ck_assert(set.count == 0 && set.cases == NULL);
}
END_TEST

Suite *suite_gpujs_cases(void)
{
    Suite *s = suite_create("gpujs_cases");
    TCase *tc = fixture_tcase_bare("the GPU.js case reader");
    tcase_add_test(tc, reads_every_key);
    tcase_add_loop_test(tc, malformed_fixture_fails_at_its_line, 0, (int)(sizeof malformed / sizeof malformed[0]));
    suite_add_tcase(s, tc);
    return s;
}
