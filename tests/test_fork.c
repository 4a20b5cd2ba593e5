/* test_fork.c - gpuc under Check's fork mode, as a new user first writes a suite: a context opened in
 * main and used in the forked tests, and a test that opens its own context after main opened one.
 * Each must fail at once with a message saying what to do (gpuc.h, "Testing with Check"), never hang;
 * closing or freeing what the child inherited returns at once too. Each scenario runs in a process of
 * its own (the "user's program", forked here), so that the context it opens in its main never reaches
 * the other suites of this test program; its own runner uses CK_FORK whatever the environment says,
 * with a short timeout per test, so that a hang fails the scenario instead of blocking make check. */
#include "fixture.h"
#include "suites.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N 8
/* What "at once" means here: a refused call makes no GL call; a hang is cut by the inner timeout. */
#define PROMPT_S 2.0
#define INNER_TIMEOUT_S 4
/* The whole user's program: its context, the inner tests' forks, and each one's timeout at worst. */
#define PROGRAM_TIMEOUT_S 120

static const char *const TWICE = "float twice(float a[]) { return 2.0 * a[thread.x]; }";

/* What the user's program opened in its main, before the runner forked the tests. */
static gpuc *parent;
static gpuc_kernel *parent_kernel;
static gpuc_array *parent_array;
static float ramp[N];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Asserts that expr, in the forked test, fails at once with `status`, its message on the parent's
 * context saying that the context crossed fork() and what to do instead. */
#define ck_assert_refused_at_once(expr, status)                                                        \
    do {                                                                                               \
        double t0_ = now_s();                                                                          \
        gpuc_status st_ = (expr);                                                                      \
        double took_ = now_s() - t0_;                                                                  \
        ck_assert_msg(st_ == (status), "%s -> %s, expected %s (%s)", #expr, gpuc_status_name(st_),      \
                      gpuc_status_name(status), gpuc_errmsg(parent));                                  \
        ck_assert_msg(took_ < PROMPT_S, "%s took %.2f s", #expr, took_);                               \
        ck_assert_msg(strstr(gpuc_errmsg(parent), "fork()") != NULL, "message lacks fork(): %s",       \
                      gpuc_errmsg(parent));                                                            \
        ck_assert_msg(strstr(gpuc_errmsg(parent), "CK_FORK=no") != NULL, "message lacks CK_FORK=no: %s", \
                      gpuc_errmsg(parent));                                                            \
    } while (0)

START_TEST(inherited_kernel_and_array_refused)
{
    gpuc_array *r = NULL;
    float got[N];
    ck_assert_refused_at_once(gpuc_run(parent_kernel, (gpuc_arg[]){gpuc_arg_array(parent_array)}, 1, &r),
                              GPUC_ERROR_MISUSE);
    ck_assert_ptr_null(r);
    ck_assert_refused_at_once(gpuc_run(parent_kernel, (gpuc_arg[]){gpuc_arg_host_f32(ramp, (gpuc_dims){N})}, 1, &r),
                              GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_run_to(parent_kernel, (gpuc_arg[]){gpuc_arg_host_f32(ramp, (gpuc_dims){N})}, 1,
                                          parent_array),
                              GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_array_read_f32(parent_array, got, N), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_array_write_f32(parent_array, ramp, N), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_array_clone(parent_array, &r), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_array_clear(parent_array), GPUC_ERROR_MISUSE);
    gpuc_kernel_stats stats;
    ck_assert_refused_at_once(gpuc_get_kernel_stats(parent_kernel, &stats), GPUC_ERROR_MISUSE);
}
END_TEST

START_TEST(inherited_context_refused)
{
    gpuc_array *a = NULL, *b = NULL;
    gpuc_kernel *k = NULL;
    gpuc_arg keys = gpuc_arg_host_f32(ramp, (gpuc_dims){N});
    ck_assert_refused_at_once(gpuc_create_kernel(parent, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k),
                              GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_create_kernel_js(parent, "function (a) { return a[this.thread.x]; }",
                                                    &(gpuc_kernel_desc){.output = {N}}, &k),
                              GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_add_function(parent, "function f(x) { return x; }"), GPUC_ERROR_MISUSE);
    ck_assert_ptr_null(k);
    ck_assert_refused_at_once(gpuc_array_new(parent, GPUC_FLOAT, (gpuc_dims){N}, &a), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_array_from_f32(parent, ramp, (gpuc_dims){N}, &a), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_sort(parent, keys, NULL, &a), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_scan(parent, keys, NULL, &a), GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_topk(parent, keys, &(gpuc_topk_desc){.k = 2}, &a, &b), GPUC_ERROR_MISUSE);
    size_t count;
    ck_assert_refused_at_once(gpuc_compact(parent, keys, &(gpuc_compact_desc){.op = GPUC_GREATER}, &a, &count),
                              GPUC_ERROR_MISUSE);
    ck_assert_refused_at_once(gpuc_detach(parent), GPUC_ERROR_MISUSE);
    ck_assert_ptr_null(a);
    ck_assert_ptr_null(b);
}
END_TEST

/* Freeing and closing what the child inherited touch no GL: they return at once (host memory only). */
START_TEST(inherited_frees_and_close_return_at_once)
{
    double t0 = now_s();
    gpuc_array_free(parent_array);
    gpuc_kernel_free(parent_kernel);
    gpuc_close(parent);
    double took = now_s() - t0;
    ck_assert_msg(took < PROMPT_S, "freeing and closing the inherited context took %.2f s", took);
}
END_TEST

/* A test opening its own context after main opened one: refused at once, saying why. */
START_TEST(own_context_after_parent_opened_one_refused)
{
    gpuc *own = NULL;
    double t0 = now_s();
    gpuc_status st = gpuc_open(&own, NULL);
    double took = now_s() - t0;
    ck_assert_msg(st == GPUC_ERROR_NO_DEVICE, "gpuc_open -> %s (%s)", gpuc_status_name(st), gpuc_errmsg(own));
    ck_assert_msg(took < PROMPT_S, "gpuc_open took %.2f s", took);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(own), "fork()"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(own), "checked fixture"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(own), "CK_FORK=no"));
    gpuc_close(own);
}
END_TEST

/* Once main closed its context before the tests forked, a test's own context works. */
START_TEST(own_context_after_parent_closed_works)
{
    gpuc *own;
    ck_assert_int_eq(gpuc_open(&own, NULL), GPUC_OK);
    gpuc_kernel *k;
    gpuc_array *r;
    ck_assert_msg(gpuc_create_kernel(own, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k) == GPUC_OK, "%s",
                  gpuc_errmsg(own));
    ck_assert_msg(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(ramp, (gpuc_dims){N})}, 1, &r) == GPUC_OK, "%s",
                  gpuc_errmsg(own));
    float got[N];
    ck_assert_int_eq(gpuc_array_read_f32(r, got, N), GPUC_OK);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(got[i], 2.0f * ramp[i]);
    gpuc_close(own);
}
END_TEST

/* The user's program: opens a context in main (unless `close_first`, then closes it again), runs
 * `tests` under its own Check runner in fork mode, checks that its own context still works, and exits
 * with the number of inner tests that failed. */
static void user_program(const TTest *const *tests, int ntests, bool close_first)
{
    alarm(PROGRAM_TIMEOUT_S); /* a hang here, outside the inner tests, still ends */
    fixture_pin_driver();
    for (int i = 0; i < N; i++)
        ramp[i] = (float)i;
    if (gpuc_open(&parent, NULL) != GPUC_OK ||
        gpuc_create_kernel(parent, TWICE, &(gpuc_kernel_desc){.output = {N}}, &parent_kernel) != GPUC_OK ||
        gpuc_array_from_f32(parent, ramp, (gpuc_dims){N}, &parent_array) != GPUC_OK) {
        fprintf(stderr, "fork suite: the user's main could not open its context: %s\n", gpuc_errmsg(parent));
        _exit(100);
    }
    if (close_first) {
        gpuc_close(parent);
        parent = NULL;
    }
    Suite *s = suite_create("fork (user's suite)");
    TCase *tc = tcase_create("inner");
    tcase_set_timeout(tc, INNER_TIMEOUT_S);
    for (int i = 0; i < ntests; i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK); /* Check's default, whatever CK_FORK says here */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (parent) { /* the children's refusals and closes left main's context as it was */
        gpuc_array *r;
        float got[N];
        if (gpuc_run(parent_kernel, (gpuc_arg[]){gpuc_arg_array(parent_array)}, 1, &r) != GPUC_OK ||
            gpuc_array_read_f32(r, got, N) != GPUC_OK || got[N - 1] != 2.0f * ramp[N - 1]) {
            fprintf(stderr, "fork suite: main's context broke: %s\n", gpuc_errmsg(parent));
            failed++;
        }
        gpuc_close(parent);
    }
    _exit(failed > 99 ? 99 : failed);
}

/* Forks the user's program and asserts that all its inner tests passed. */
static void run_user_program(const TTest *const *tests, int ntests, bool close_first)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        user_program(tests, ntests, close_first);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "the user's program was killed by signal %d (a hang past %d s ends so)",
                  WIFSIGNALED(status) ? WTERMSIG(status) : 0, PROGRAM_TIMEOUT_S);
    ck_assert_msg(WEXITSTATUS(status) == 0, "%d of the user's %d forked tests failed (their lines are above)",
                  WEXITSTATUS(status), ntests);
}

START_TEST(context_opened_in_main)
{
    const TTest *const tests[] = {inherited_kernel_and_array_refused, inherited_context_refused,
                                  own_context_after_parent_opened_one_refused,
                                  inherited_frees_and_close_return_at_once};
    run_user_program(tests, (int)(sizeof tests / sizeof tests[0]), false);
}
END_TEST

START_TEST(context_closed_in_main_before_the_tests)
{
    const TTest *const tests[] = {own_context_after_parent_closed_works};
    run_user_program(tests, 1, true);
}
END_TEST

Suite *suite_fork(void)
{
    Suite *s = suite_create("fork");
    TCase *tc = fixture_tcase_bare("fork");
    tcase_set_timeout(tc, PROGRAM_TIMEOUT_S + 30);
    tcase_add_test(tc, context_opened_in_main);
    tcase_add_test(tc, context_closed_in_main_before_the_tests);
    suite_add_tcase(s, tc);
    return s;
}
