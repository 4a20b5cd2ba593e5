/* test_js_order.c - JavaScript's order of evaluation in JavaScript kernels: float arithmetic runs left
 * to right as written (Mesa would otherwise reassociate a + b + c + d into (a + b) + (c + d)), in
 * returns, conditions, helpers, compound assignments and increments; and the front end's own GLSL
 * helpers never collide with the user's names. The oracle is the same arithmetic in C on floats. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sums and products whose value depends on the order: (1e8 + 1) rounds back to 1e8. */
static float sum4(float a, float b, float c, float d)
{
    return ((a + b) + c) + d;
}

static float product4(float a, float b, float c, float d)
{
    return ((a * b) * c) * d;
}

static float add_one_twice(float a, float b, float c, float d)
{
    (void)b, (void)c, (void)d;
    float s = a;
    s += 1.0f;
    s += 1.0f;
    return s;
}

static float sum_above(float a, float b, float c, float d)
{
    return sum4(a, b, c, d) > 0.5f ? 1.0f : 0.0f;
}

static const struct order_case {
    const char *name, *helper, *source;
    float args[4];
    float (*oracle)(float, float, float, float);
} order_cases[] = {
    {"return", NULL, "function (a, b, c, d) { return a + b + c + d; }", {1e8f, 1, -1e8f, 1}, sum4},
    {"condition", NULL, "function (a, b, c, d) { if (a + b + c + d > 0.5) { return 1; } return 0; }",
     {1e8f, 1, -1e8f, 1}, sum_above},
    {"helper", "function sum(a, b, c, d) { return a + b + c + d; }",
     "function (a, b, c, d) { return sum(a, b, c, d) * 1; }", {1e8f, 1, -1e8f, 1}, sum4},
    {"compound", NULL, "function (a, b, c, d) { let s = a; s += b; s += c; s += d; return s; }",
     {1e8f, 1, -1e8f, 1}, sum4},
    {"subtraction", NULL, "function (a, b, c, d) { return a - (-b) - (-c) - (-d); }", {1e8f, 1, -1e8f, 1}, sum4},
    {"product", NULL, "function (a, b, c, d) { return a * b * c * d; }", {1e20f, 1e20f, 1e-20f, 1e-20f}, product4},
    {"increments", NULL, "function (a, b, c, d) { let s = a + 0.5 - 0.5; s++; ++s; return s; }",
     {16777216.0f, 0, 0, 0}, add_one_twice},
};
#define ORDER_CASES (int)(sizeof order_cases / sizeof order_cases[0])

START_TEST(float_arithmetic_runs_in_javascripts_order)
{
    const struct order_case *t = &order_cases[_i];
    if (t->helper)
        ck_assert_gpuc_ok(gpuc_add_function(gpu, t->helper));
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(
        gpu, t->source, &(gpuc_kernel_desc){.output = {1}, .arg_types = "float, float, float, float"}, &k));
    gpuc_array *r;
    gpuc_arg args[4];
    for (int i = 0; i < 4; i++)
        args[i] = gpuc_arg_f32(t->args[i]);
    ck_assert_gpuc_ok(gpuc_run(k, args, 4, &r));
    float *got = fixture_take_floats(r, 1);
    float want = t->oracle(t->args[0], t->args[1], t->args[2], t->args[3]);
    ck_assert_msg(got[0] == want || (isnan(got[0]) && isnan(want)), "case %s: gpuc %.9g, JavaScript's order %.9g",
                  t->name, got[0], want);
    free(got);
    gpuc_kernel_free(k);
}
END_TEST

/* Arguments named like the front end's GLSL helpers (exp, pow, max, add, sign, nan...) are the user's
 * own: they compiled to js_exp... and collided with the helpers of the same name. */
START_TEST(user_names_never_collide_with_helpers)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function (exp, pow, max, add, sign, nan) {\n"
                                            "  return Math.exp(exp) + pow ** 2 + Math.max(max, add) * Math.sign(sign) + "
                                            "nan % 3 + Math.atan2(0, -1);\n"
                                            "}",
                                            &(gpuc_kernel_desc){.output = {1}}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k,
                               (gpuc_arg[]){gpuc_arg_f32(0), gpuc_arg_f32(3), gpuc_arg_f32(1), gpuc_arg_f32(2),
                                            gpuc_arg_f32(-1), gpuc_arg_f32(7)},
                               6, &r));
    float *got = fixture_take_floats(r, 1);
    float want = 1.0f + 9.0f - 2.0f + 1.0f + 3.14159265f;
    ck_assert_msg(got[0] == want, "gpuc %.9g, expected %.9g", got[0], want);
    free(got);
    gpuc_kernel_free(k);
    /* a native (GLSL) function cannot take a helper's name: that one is refused with a reason */
    ck_assert_gpuc_fails(gpuc_add_native_function(gpu, "float jsrt_add(float a, float b) { return a - b; }"),
                         GPUC_ERROR_COMPILE, "names starting with jsrt_ are gpuc's own");
}
END_TEST

/* The rule include/gpuc.h gives GLSL kernels: a `precise` variable keeps its expression's order, on
 * both backends. Without it the driver may reassociate: on llvmpipe `return a + b + c + d;` gives 0
 * for these arguments (measured), not the written order's 1. */
START_TEST(glsl_precise_keeps_the_order)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "float k(float a, float b, float c, float d) {\n"
                                         "    precise float s = a + b + c + d;\n"
                                         "    return s;\n"
                                         "}",
                                         &(gpuc_kernel_desc){.output = {1}}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(
        k, (gpuc_arg[]){gpuc_arg_f32(1e8f), gpuc_arg_f32(1), gpuc_arg_f32(-1e8f), gpuc_arg_f32(1)}, 4, &r));
    float *got = fixture_take_floats(r, 1);
    ck_assert_msg(got[0] == sum4(1e8f, 1, -1e8f, 1), "gpuc %.9g, the written order %.9g", got[0],
                  sum4(1e8f, 1, -1e8f, 1));
    free(got);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_order(void)
{
    Suite *s = suite_create("js_order");
    TCase *tc = fixture_tcase("JavaScript's order");
    tcase_add_loop_test(tc, float_arithmetic_runs_in_javascripts_order, 0, ORDER_CASES);
    tcase_add_test(tc, user_names_never_collide_with_helpers);
    tcase_add_test(tc, glsl_precise_keeps_the_order);
    suite_add_tcase(s, tc);
    return s;
}
