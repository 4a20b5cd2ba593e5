/* test_js_forms.c - JavaScript as it arrives from the wild: minified code (terser's output of our own
 * kernels, comma expressions, `?:` and `&&` / `||` as statements, `!0` / `!1`), Babel's `(0, m.f)(x)`,
 * functions called where they are defined, `.length` of arrays, and a `var` declared again holding
 * another type. The cases of tests/fixtures/js-forms.txt (scripts/record-js-forms.js) must give GPU.js
 * 2.24.1's answers where GPU.js runs them, else node's, exactly; uses of a `var` whose type is not the
 * same on every path are refused, naming the variable and both types. Numbers' truthiness and the
 * values of && and || are checked against node's answers written inline. */
#include "fixture.h"
#include "gpujs_cases.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMS_CASES 27 /* the cases in the fixture file */

START_TEST(forms_give_javascripts_answers)
{
    gpujs_cases set = gpujs_cases_load("js-forms.txt", FORMS_CASES);
    const gpujs_case *c = &set.cases[_i];
    for (int h = 0; h < c->nhelpers; h++)
        ck_assert_gpuc_ok(gpuc_add_function(gpu, c->helpers[h]));
    gpuc_kernel *k;
    gpuc_status st = gpuc_create_kernel_js(gpu, c->source, &(gpuc_kernel_desc){.output = c->output}, &k);
    ck_assert_msg(st == GPUC_OK, "case %s: %s\n%s", c->name, gpuc_errmsg(gpu), c->source);
    gpuc_arg args[GPUJS_MAX_ARGS];
    for (int i = 0; i < c->nargs; i++)
        args[i] = gpujs_arg_value(&c->args[i]);
    /* run twice: a kernel with loops run again at the same sizes gets a program with them compiled in */
    for (int run = 0; run < 2; run++) {
        gpuc_array *r;
        st = gpuc_run(k, args, c->nargs, &r);
        ck_assert_msg(st == GPUC_OK, "case %s: %s", c->name, gpuc_errmsg(gpu));
        float *got = fixture_take_floats(r, c->nexpect);
        for (size_t i = 0; i < c->nexpect; i++)
            ck_assert_msg(got[i] == c->expect[i] || (isnan(got[i]) && isnan(c->expect[i])),
                          "case %s, run %d, cell %zu: gpuc %.9g, %s %.9g\n%s", c->name, run + 1, i, got[i], c->oracle,
                          c->expect[i], c->source);
        free(got);
    }
    gpuc_kernel_free(k);
    gpujs_cases_free(&set);
}
END_TEST

/* JavaScript's truthiness of a number (NaN and 0 are falsy) in if, while, ?:, ! and &&, and the value
 * of && and || (an operand, not a Boolean), on x = a[i], y = b[i]. Each expected row is node's answer:
 * `new Function('a', 'b', 'const x = a[this.thread.x], y = b[this.thread.x];\n' + body)` called with
 * this.thread.x = i for i = 0..5, through Number(). */
static const struct {
    const char *body;
    float expect[6];
} truthiness[] = {
    {"return x ? 1 : 0;", {0, 0, 1, 0, 1, 1}},
    {"return !x ? 1 : 0;", {1, 1, 0, 1, 0, 0}},
    {"let s = 0;\n  if (x) s += 1;\n  if (!x) s += 2;\n  let n = 0;\n  while (x && n < 3) n++;\n  return s + 10 * n;",
     {2, 2, 31, 2, 31, 31}},
    {"return (x && y) * 2;", {NAN, 0, 0, 0, 6, 4}},
    {"return (x || y) * 2;", {10, NAN, 4, 2, INFINITY, -6}},
    {"return x && y;", {NAN, 0, 0, 0, 3, 2}},
    {"return x || 7;", {7, 7, 2, 7, INFINITY, -3}},
    {"return (x && y > 1) * 3;", {NAN, 0, 0, 0, 3, 3}},
    {"return (y > 1 || x) + 1;", {2, 1, 3, 1, 2, 2}},
    {"return (this.thread.x && y) + (this.thread.x || 0.5);", {0.5f, NAN, 2, 4, 7, 7}},
    {"return (x && y || 4) + 1;", {5, 5, 5, 5, 4, 3}},
    {"return x && y ? 1 : 0;", {0, 0, 0, 0, 1, 1}},
};

START_TEST(numbers_are_truthy_as_in_javascript)
{
    static const float a[6] = {NAN, 0, 2, -0.0f, INFINITY, -3}, b[6] = {5, NAN, 0, 1, 3, 2};
    char src[512];
    snprintf(src, sizeof src, "function (a, b) {\n  const x = a[this.thread.x], y = b[this.thread.x];\n  %s\n}",
             truthiness[_i].body);
    gpuc_kernel *k;
    ck_assert_msg(gpuc_create_kernel_js(gpu, src, &(gpuc_kernel_desc){.output = {6}}, &k) == GPUC_OK, "%s\n%s",
                  gpuc_errmsg(gpu), src);
    gpuc_arg args[2] = {gpuc_arg_host_f32(a, (gpuc_dims){6}), gpuc_arg_host_f32(b, (gpuc_dims){6})};
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &r));
    float *got = fixture_take_floats(r, 6);
    for (int i = 0; i < 6; i++) {
        float want = truthiness[_i].expect[i];
        ck_assert_msg(got[i] == want || (isnan(got[i]) && isnan(want)), "cell %d: gpuc %.9g, node %.9g\n%s", i,
                      got[i], want, src);
    }
    free(got);
    gpuc_kernel_free(k);
}
END_TEST

/* GPU.js's test/issues/560-minification-madness.js: its kernel as a bundler minified it (a for whose
 * header declares nine variables and whose body is one comma expression, a `?:` of this.color calls as a
 * statement), graphical, on one cell. With maxIter 1 the loop stops at h = 1 = maxIter: black. With
 * maxIter 2 it stops when p*p + u*u = 1 + 9 passes 4, at h = 1: the colour of palette entry 1
 * (r[3], r[4], r[5]), each / 255 (as node gives it, calling the kernel with this.color recorded). */
static const char *ISSUE_560 =
    "function (t, e, i, n, r) {\n"
    "  for (var o = this.constants.maxIter, a = this.constants.canvasWidth, s = this.constants.canvasHeight,\n"
    "      l = i + (n - i) * (this.thread.y / s), c = t + (e - t) * (this.thread.x / a), p = 0, u = 0, h = 0, d = 0;\n"
    "      p * p + u * u < 4 && h < o;)\n"
    "    d = p * p - u * u + c, u = 2 * p * u + l, p = d, h++;\n"
    "  h === o ? this.color(0, 0, 0, 1) : this.color(r[3 * h] / 255, r[3 * h + 1] / 255, r[3 * h + 2] / 255, 1);\n"
    "}";

START_TEST(issue_560_minified_graphical_kernel)
{
    static const float palette[6] = {10, 20, 30, 40, 50, 60};
    static const uint8_t want[2][4] = {{0, 0, 0, 255}, {40, 50, 60, 255}};
    for (int run = 0; run < 2; run++) {
        gpuc_kernel_desc desc = {.output = {1, 1}, .graphical = true};
        desc.constants[0] = (gpuc_constant){.name = "maxIter", .value = run + 1, .type = GPUC_INT};
        desc.constants[1] = (gpuc_constant){.name = "canvasWidth", .value = 1, .type = GPUC_INT};
        desc.constants[2] = (gpuc_constant){.name = "canvasHeight", .value = 1, .type = GPUC_INT};
        gpuc_kernel *k;
        ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, ISSUE_560, &desc, &k));
        gpuc_arg args[5] = {gpuc_arg_f32(1), gpuc_arg_f32(2), gpuc_arg_f32(3), gpuc_arg_f32(4),
                            gpuc_arg_host_f32(palette, (gpuc_dims){6})};
        gpuc_array *r;
        ck_assert_gpuc_ok(gpuc_run(k, args, 5, &r));
        uint8_t px[4];
        ck_assert_gpuc_ok(gpuc_array_read_pixels(r, px, sizeof px, false));
        ck_assert_msg(!memcmp(px, want[run], 4), "maxIter %d: pixel %u %u %u %u", run + 1, px[0], px[1], px[2], px[3]);
        gpuc_array_free(r);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* Where the type a `var` holds at a use is not the same on every path to it, the kernel is refused,
 * naming the variable and both types (JavaScript would run on with whichever value came, an array
 * added to a number, say: no answer gpuc could give for it would be JavaScript's on every cell). */
static const struct refusal {
    const char *js, *what[3];
} refusals[] = {
    /* re-typed in one branch only, read after the if */
    {"function (n) { var x = 1; if (n > 0) { var x = [1, 2]; } return x; }",
     {"`x` holds", "a number", "an array of 2"}},
    /* in the else branch only */
    {"function (n) { var x = [1, 2]; if (n > 0) { x = [3, 4]; } else { var x = [1, 2, 3]; } return x[0]; }",
     {"`x` holds", "an array of 2", "an array of 3"}},
    /* read in a loop's body before it is re-typed there: the next iteration brings the new type */
    {"function (n) { var s = 0; var x = 1; for (var i = 0; i < n; i++) { s += x; var x = [i, 1]; s += x[0]; } "
     "return s; }",
     {"`x` holds", "a number", "an array of 2"}},
    /* read after a loop that re-types it (it may have run no times) */
    {"function (n) { var x = 1; for (var i = 0; i < n; i++) { var x = [i, 1]; } return x[0]; }",
     {"`x` holds", "a number", "an array of 2"}},
    /* a while loop, read by its test */
    {"function (n) { var x = 0; while (x < n) { var x = [1, 2]; } return 1; }",
     {"`x` holds", "a number", "an array of 2"}},
    /* two re-typings in a loop: its head sees the type before the loop, then the last one's */
    {"function (n) { var s = 0; var x = [0, 0]; for (var i = 0; i < n; i++) { s += x[1]; var x = [i, 1]; "
     "s += x[1]; var x = [1, 2, 3]; } return s; }",
     {"`x` holds", "an array of 2", "an array of 3"}},
    /* re-typed in one case of a switch, read after it */
    {"function (n) { var x = 1; switch (n) { case 1: var x = [1, 2]; break; default: break; } return x[0]; }",
     {"`x` holds", "a number", "an array of 2"}},
    /* `var x;` again keeps the value it has: not one type here */
    {"function (n) { var x = 1; if (n > 0) { var x = [1, 2]; } var x; return 1; }",
     {"`var x;` keeps a value", "a number", "an array of 2"}},
    /* a const declared `= void 0` (a minifier's undefined) and read: gpuc has no value for undefined */
    {"function (n) { const u = void 0; return u + n; }",
     {"`u` is undefined", "void 0", "give it one"}},
    /* assigned where it is not one type */
    {"function (n) { var x = 1; if (n > 0) { var x = [1, 2]; } x = 3; return x; }",
     {"`x` holds", "a number", "an array of 2"}},
};

START_TEST(var_of_two_types_at_a_use_is_refused)
{
    const struct refusal *r = &refusals[_i];
    gpuc_kernel *k = NULL;
    gpuc_status st = gpuc_create_kernel_js(gpu, r->js, &(gpuc_kernel_desc){.output = {2}}, &k);
    ck_assert_msg(st == GPUC_ERROR_COMPILE, "%s -> %s (%s)", r->js, gpuc_status_name(st), gpuc_errmsg(gpu));
    for (int i = 0; i < 3; i++)
        ck_assert_msg(strstr(gpuc_errmsg(gpu), r->what[i]), "%s\nmessage \"%s\" lacks \"%s\"", r->js,
                      gpuc_errmsg(gpu), r->what[i]);
    ck_assert_ptr_null(k);
}
END_TEST

/* JavaScript's .length of an argument depends on the array's own rank (a 2D array's is its rows), so
 * an argument whose .length is read takes arrays of the rank the kernel reads it with only: a 2D array
 * passed for a 1D one is refused, naming the argument, not read with the wrong length. */
START_TEST(length_needs_the_arrays_own_rank)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a) { return a.length + a[this.thread.x]; }",
                                            &(gpuc_kernel_desc){.output = {2}}, &k));
    static const float cells[4] = {1, 2, 3, 4};
    gpuc_array *r = NULL;
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(cells, (gpuc_dims){2, 2})}, 1, &r),
                         GPUC_ERROR_TYPE_MISMATCH, "argument 0");
    ck_assert_ptr_null(r);
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(cells, (gpuc_dims){4})}, 1, &r));
    float *got = fixture_take_floats(r, 2);
    ck_assert_msg(got[0] == 5 && got[1] == 6, "%g %g", got[0], got[1]);
    free(got);
    gpuc_kernel_free(k);
    /* a kernel that never reads .length still takes any rank, as GPU.js's flat arrays do */
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a) { return a[this.thread.x]; }",
                                            &(gpuc_kernel_desc){.output = {2}}, &k));
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(cells, (gpuc_dims){2, 2})}, 1, &r));
    got = fixture_take_floats(r, 2);
    ck_assert_msg(got[0] == 1 && got[1] == 2, "%g %g", got[0], got[1]);
    free(got);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_forms(void)
{
    Suite *s = suite_create("js_forms");
    TCase *tc = fixture_tcase("JavaScript forms from the wild");
    tcase_add_loop_test(tc, forms_give_javascripts_answers, 0, FORMS_CASES);
    tcase_add_test(tc, issue_560_minified_graphical_kernel);
    tcase_add_loop_test(tc, var_of_two_types_at_a_use_is_refused, 0, (int)(sizeof refusals / sizeof refusals[0]));
    tcase_add_test(tc, length_needs_the_arrays_own_rank);
    tcase_add_loop_test(tc, numbers_are_truthy_as_in_javascript, 0, (int)(sizeof truthiness / sizeof truthiness[0]));
    suite_add_tcase(s, tc);
    return s;
}
