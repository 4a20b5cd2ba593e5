/* test_js_remainder.c - JavaScript `%` on whole numbers gpuc can bound (whole_range.c) runs in int
 * arithmetic: the same values as the float remainder, the dividend's sign and -0 included, and the
 * float remainder wherever the bound is not proven (a counter written in its loop's body). */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16 };

/* Runs a no-argument JavaScript kernel over N cells; returns its GLSL's count of jsrt_imod calls. */
static int run(const char *js, float *out)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {N}}, &k));
    int calls = -1; /* the helper's definition is one occurrence */
    for (const char *p = gpuc_kernel_glsl(k); (p = strstr(p, "jsrt_imod(")); p++)
        calls++;
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, N));
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    return calls;
}

static void expect_bits(const float *got, const float *want)
{
    for (int x = 0; x < N; x++)
        ck_assert_msg(!memcmp(&got[x], &want[x], sizeof(float)), "cell %d: %g, expected %g", x, (double)got[x],
                      (double)want[x]);
}

START_TEST(bounded_counters_and_thread_ids)
{
    const char *js = "function () {\n"
                     "  const x = this.thread.x;\n"
                     "  let s = 0;\n"
                     "  for (let i = -3; i <= 3; i++) {\n"
                     "    s += ((x - 8) * i + 1) % 5;\n"
                     "  }\n"
                     "  for (let j = 9; j > 0; j -= 2) {\n"
                     "    s += (j - x) % -4 * 10;\n"
                     "  }\n"
                     "  return s;\n"
                     "}";
    float got[N], want[N];
    ck_assert_int_eq(run(js, got), 2);
    for (int x = 0; x < N; x++) {
        float s = 0.0f;
        for (int i = -3; i <= 3; i++)
            s += fmodf((float)((x - 8) * i + 1), 5.0f);
        for (int j = 9; j > 0; j -= 2)
            s += fmodf((float)(j - x), -4.0f) * 10.0f;
        want[x] = s;
    }
    expect_bits(got, want);
}
END_TEST

START_TEST(negative_zero_keeps_its_sign)
{
    float got[N], want[N];
    ck_assert_int_eq(run("function () { const x = this.thread.x; return 1 / ((0 - x) % 4); }", got), 1);
    for (int x = 0; x < N; x++) /* 0 - 0 is +0; -4 % 4 is -0 */
        want[x] = x == 0 ? INFINITY : x % 4 == 0 ? -INFINITY : 1.0f / (float)-(x % 4);
    expect_bits(got, want);
}
END_TEST

START_TEST(unproven_bounds_keep_the_float_remainder)
{
    const char *js = "function () {\n"
                     "  const x = this.thread.x;\n"
                     "  let s = 0;\n"
                     "  for (let i = 0; i < 6; i++) {\n"
                     "    s += (x * 7 + i) % 3;\n"
                     "    if (i === 2) { i += 1; }\n"
                     "  }\n"
                     "  return s;\n"
                     "}";
    float got[N], want[N];
    ck_assert_int_eq(run(js, got), 0);
    for (int x = 0; x < N; x++) {
        float s = 0.0f;
        for (int i = 0; i < 6; i++) {
            s += fmodf((float)(x * 7 + i), 3.0f);
            if (i == 2)
                i += 1;
        }
        want[x] = s;
    }
    expect_bits(got, want);
}
END_TEST

START_TEST(consts_built_from_consts_are_walked_within_a_budget)
{
    /* Each const uses the one before 8 times, and the first is 0 (so every range fits): walking
     * every use would visit 8^8 nodes per `%`. The walk gives up within its budget and that `%` keeps
     * the float remainder; the other, on the thread id alone, still runs in int arithmetic. */
    char js[1024];
    int len = snprintf(js, sizeof js, "function () {\n  const a0 = this.thread.x * 0;\n");
    for (int i = 1; i <= 8; i++) {
        int p = i - 1;
        len += snprintf(js + len, sizeof js - (size_t)len,
                        "  const a%d = ((a%d + a%d) + (a%d + a%d)) + ((a%d + a%d) + (a%d + a%d));\n", i, p, p, p, p,
                        p, p, p, p);
    }
    len += snprintf(js + len, sizeof js - (size_t)len, "  return a8 %% 3 + this.thread.x %% 5;\n}");
    ck_assert_int_lt(len, (int)sizeof js);
    float got[N], want[N];
    ck_assert_int_eq(run(js, got), 1);
    for (int x = 0; x < N; x++)
        want[x] = (float)(x % 5);
    expect_bits(got, want);
}
END_TEST

Suite *suite_js_remainder(void)
{
    Suite *s = suite_create("js_remainder");
    TCase *tc = fixture_tcase("whole remainders");
    tcase_add_test(tc, bounded_counters_and_thread_ids);
    tcase_add_test(tc, negative_zero_keeps_its_sign);
    tcase_add_test(tc, unproven_bounds_keep_the_float_remainder);
    tcase_add_test(tc, consts_built_from_consts_are_walked_within_a_budget);
    suite_add_tcase(s, tc);
    return s;
}
