/* fixture.h - what every Check suite shares: a gpuc context opened inside each forked test (a context
 * cannot cross fork(): one opened in Check's parent process is refused in the forked tests; gpuc.h,
 * "TESTING WITH CHECK"), assertions that print gpuc's message, and small oracles. */
#ifndef GPUC_TEST_FIXTURE_H
#define GPUC_TEST_FIXTURE_H

#include <check.h>
#include <gpuc.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The context of the running test (opened by the checked fixture, closed after the test). */
extern gpuc *gpu;

/* A test case whose tests each get a fresh context in `gpu`, with a timeout that covers context
 * creation and shader JIT on a loaded machine. */
TCase *fixture_tcase(const char *name);
/* As fixture_tcase, but the context keeps every call on the device's own path (GPUC_SMALL_CALLS=pool:
 * no calling-thread twin, and none of the host paths keyed to it, such as gpuc_compact's for small
 * inputs the host holds): for suites that test the device's kernels at sizes those paths would take. */
TCase *fixture_tcase_pool(const char *name);
/* A context of its own whose calls all keep the device's path (GPUC_SMALL_CALLS=pool), beside the
 * test's: for comparing a path with the device's, call for call. The test fails if it cannot open. */
gpuc *fixture_open_pool(void);
/* Whether g runs a small threshold compaction of values the host holds on the host (gpuc.h, gpuc_compact:
 * SMALL INPUTS ON THE HOST): the software device profile, GPUC_SMALL_CALLS not "pool" (read now: a
 * context keeps what it read at gpuc_open, so ask with the variable as it was then). */
bool fixture_host_small_calls(const gpuc *g);
/* A test case without a context (for tests that open their own, or none). */
TCase *fixture_tcase_bare(const char *name);

/* Whether this run's contexts use the fragment backend (GPUC_BACKEND=fragment). Suites ask it while
 * registering their tests, before any context exists, to swap compute-only tests for the refusal. */
bool fixture_fragment_backend(void);

/* Keeps Mesa's driver loaded for the life of the process, so the allocation Mesa leaves behind when
 * it unloads the driver is not reported by LeakSanitizer; our own leaks still are. */
void fixture_pin_driver(void);

#define ck_assert_gpuc_ok(expr)                                                                         \
    do {                                                                                                \
        gpuc_status st_ = (expr);                                                                       \
        ck_assert_msg(st_ == GPUC_OK, "%s -> %s: %s", #expr, gpuc_status_name(st_), gpuc_errmsg(gpu)); \
    } while (0)

/* Asserts that expr fails with `status` and that the message contains `fragment`. */
#define ck_assert_gpuc_fails(expr, status, fragment)                                                    \
    do {                                                                                                \
        gpuc_status st_ = (expr);                                                                       \
        ck_assert_msg(st_ == (status), "%s -> %s, expected %s (message: %s)", #expr,                    \
                      gpuc_status_name(st_), gpuc_status_name(status), gpuc_errmsg(gpu));               \
        ck_assert_msg(strstr(gpuc_errmsg(gpu), (fragment)) != NULL, "message \"%s\" lacks \"%s\"",       \
                      gpuc_errmsg(gpu), (fragment));                                                    \
    } while (0)

/* Asserts that `a` is a float (int) array of n cells, reads it into a new buffer (caller frees) and
 * frees the array. */
float *fixture_take_floats(gpuc_array *a, size_t n);
int32_t *fixture_take_ints(gpuc_array *a, size_t n);

/* Runs a shell command and returns all it printed (caller frees) and its exit status (-1 when it did
 * not exit normally). */
char *fixture_run_command(const char *command, int *status);

/* A whole file as a string (caller frees; the test fails when it cannot be read), and how many times
 * `needle` occurs in `text`. */
char *fixture_read_text(const char *path);
size_t fixture_count(const char *text, const char *needle);

/* Distance in float32 steps (ulps) between two finite floats of any sign: 0 for -0.0 and +0.0. */
double fixture_ulps(float x, float y);

/* A deterministic float in [0, 1) from a 32-bit LCG state. */
float test_random(uint32_t *state);

#endif
