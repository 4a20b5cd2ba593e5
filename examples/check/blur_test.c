/* blur_test.c - a Check suite over a user's own kernel (a 3-cell moving average), in Check's default
 * fork mode, with gpuc_check.h: each test opens its context inside its forked child, compares with a C
 * loop by ulps, and asserts the statuses gpuc returns. Built and run by `make check`; outside the
 * tree: cc -std=c11 blur_test.c $(pkg-config --cflags --libs gpuc-check). */
#include <gpuc_check.h>

#include <stdlib.h>

enum { N = 4096 };

/* The kernel under test: the mean of a cell and its two neighbours, the ends averaging what they have.
 * Reads past either end give 0 (gpuc's index rule), so only the count of neighbours needs care. */
static const char *const blur_source =
    "float blur(float a[]) {\n"
    "    int i = thread.x, n = outputSize.x;\n"
    "    float count = 1.0 + float(i > 0) + float(i < n - 1);\n"
    "    return (a[i - 1] + a[i] + a[i + 1]) / count;\n"
    "}\n";

GPUC_CHECK_CONTEXT(gpu)

/* The same computation in C: the oracle. */
static void blur_reference(const float *a, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        float sum = a[i], count = 1.0f;
        if (i > 0)
            sum = a[i - 1] + sum, count += 1.0f;
        if (i < n - 1)
            sum += a[i + 1], count += 1.0f;
        out[i] = sum / count;
    }
}

static float *test_input(void)
{
    float *a = malloc(N * sizeof *a);
    ck_assert_ptr_nonnull(a);
    for (int i = 0; i < N; i++)
        a[i] = (float)((i * 7919) % 1000) / 8.0f - 60.0f;
    return a;
}

/* Creates the kernel over n cells and runs it once on host data, returning the result read back. */
static float *run_blur(const float *a, uint32_t n)
{
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {.x = n}};
    gpuc_ck_assert_ok(gpu, gpuc_create_kernel(gpu, blur_source, &desc, &k));
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){.x = n});
    gpuc_array *out;
    gpuc_ck_assert_ok(gpu, gpuc_run(k, &arg, 1, &out));
    float *got = malloc(n * sizeof *got);
    ck_assert_ptr_nonnull(got);
    gpuc_ck_assert_ok(gpu, gpuc_array_read_f32(out, got, n));
    return got; /* the kernel and array go with the context, closed after the test */
}

START_TEST(blur_matches_c)
{
    float *a = test_input(), want[N];
    blur_reference(a, want, N);
    float *got = run_blur(a, N);
    /* GLSL's float sum and division are not required to round as C's do: allow a few ulps. */
    gpuc_ck_assert_f32_ulps(got, want, N, 4);
    free(got);
    free(a);
}
END_TEST

START_TEST(blur_is_deterministic)
{
    float *a = test_input();
    float *first = run_blur(a, N), *second = run_blur(a, N);
    gpuc_ck_assert_f32_exact(second, first, N);
    free(first);
    free(second);
    free(a);
}
END_TEST

START_TEST(blur_refuses_a_missing_argument)
{
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {.x = N}};
    gpuc_ck_assert_ok(gpu, gpuc_create_kernel(gpu, blur_source, &desc, &k));
    gpuc_array *out = NULL;
    gpuc_ck_assert_status(gpu, gpuc_run(k, NULL, 0, &out), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("blur");
    TCase *tc = tcase_create("blur");
    gpuc_check_add_context(tc, gpu);
    tcase_add_test(tc, blur_matches_c);
    tcase_add_test(tc, blur_is_deterministic);
    tcase_add_test(tc, blur_refuses_a_missing_argument);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
