/*
 * gpuc_check.h - helpers for Check (libcheck) test suites of your own gpuc kernels: a context for each
 * test, status assertions that print gpuc's message, and float array comparisons (exact, by ulps, by
 * relative error) that print the first cells that differ. Header only (static inline functions and
 * macros): it needs gpuc and Check, nothing more; `pkg-config --cflags --libs gpuc-check` gives both.
 * It compiles as C11 and as C++11 and later, clean under -Wall -Wextra -pedantic.
 *
 *     #include <gpuc_check.h>
 *     GPUC_CHECK_CONTEXT(gpu)          // static gpuc *gpu, opened inside each (forked) test
 *
 *     START_TEST(doubles)
 *     {
 *         gpuc_kernel *k;
 *         gpuc_kernel_desc desc = {.output = {.x = 4}};
 *         gpuc_ck_assert_ok(gpu, gpuc_create_kernel(gpu, "float f() { return 2.0 * float(thread.x); }",
 *                                                    &desc, &k));
 *         ...
 *         gpuc_ck_assert_f32_ulps(got, want, 4, 1);  // fails naming the first cells that differ
 *     }
 *     END_TEST
 *     ... TCase *tc = tcase_create("doubles"); gpuc_check_add_context(tc, gpu); tcase_add_test(tc, doubles);
 *
 * WHERE THE CONTEXT IS OPENED. Check runs each test in a forked child by default, and a gpuc context
 * cannot cross fork() (gpuc.h, "TESTING WITH CHECK"): GPUC_CHECK_CONTEXT's fixture opens the context
 * inside each test's child and closes it there, so open none in main. It works unchanged with
 * CK_FORK=no. The device is gpuc's default (GPUC_DEVICE, else a GPU, else llvmpipe); GPUC_DEVICE=cpu
 * picks llvmpipe, which gives the same bits on every run (for the same Mesa and CPU).
 */
#ifndef GPUC_CHECK_H
#define GPUC_CHECK_H

#include <check.h>
#include <gpuc.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A test's time limit when it opens a context (seconds): a context open (21-33 ms) and a first run's
 * shader JIT (10-50 ms a kernel on llvmpipe), as reported on a quiet machine, fit Check's default 4 s on a quiet machine, but not on
 * one loaded by parallel builds and test runs. */
#define GPUC_CHECK_TIMEOUT 60

/* How many differing cells a failed comparison prints. */
#define GPUC_CHECK_SHOWN 4

/* How gpuc_check_compare_f32 compares a cell it got with the one it wants.
 * EXACT: the same float, bit for bit (so -0.0 differs from +0.0); any NaN matches any NaN.
 * ULPS: at most `tolerance` float32 steps apart, counted across zero (-0.0 and +0.0 are 0 apart);
 *       an infinity matches only itself, a NaN only a NaN.
 * REL:  |got - want| <= tolerance * |want| (so a wanted 0 needs a got 0, of either sign); infinities
 *       and NaN as for ULPS. */
typedef enum gpuc_check_mode { GPUC_CHECK_EXACT, GPUC_CHECK_ULPS, GPUC_CHECK_REL } gpuc_check_mode;

/* The distance of two floats in float32 steps (ulps): 0 for -0.0 and +0.0, 1 for a float and the next
 * one, through zero as well (the smallest denormals either side of 0 are 2 apart). NaN gives NAN. */
static inline double gpuc_check_ulps(float a, float b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    /* Floats ordered as integers: negative ones mirrored below zero. */
    int64_t ka = (ua & 0x80000000u) ? -(int64_t)(ua & 0x7fffffffu) : (int64_t)ua;
    int64_t kb = (ub & 0x80000000u) ? -(int64_t)(ub & 0x7fffffffu) : (int64_t)ub;
    return (double)(ka > kb ? ka - kb : kb - ka);
}

/* Whether one cell passes (see gpuc_check_mode). */
static inline int gpuc_check_cell_matches(float got, float want, gpuc_check_mode mode, double tolerance)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want);
    if (mode == GPUC_CHECK_EXACT)
        return memcmp(&got, &want, sizeof got) == 0;
    if (isinf(got) || isinf(want))
        return got == want;
    if (mode == GPUC_CHECK_ULPS)
        return gpuc_check_ulps(got, want) <= tolerance;
    return fabs((double)got - (double)want) <= tolerance * fabs((double)want);
}

/* Compares got[0..n) with want[0..n) and returns how many cells differ. When msg is not NULL it gets a
 * report (cut to msg_size, always ended): "2 of 8 cells differ (more than 1 ulps): [3] got 1.5 want
 * 1.25 (2097152 ulps), [6] got ..."; the first GPUC_CHECK_SHOWN differing cells, each with its index,
 * both values (to float precision) and their distance in ulps. All cells match: msg is "". A NULL got
 * or want (with n > 0) counts all n cells as differing and says so. */
static inline size_t gpuc_check_compare_f32(const float *got, const float *want, size_t n, gpuc_check_mode mode,
                                            double tolerance, char *msg, size_t msg_size)
{
    if (n && (!got || !want)) { /* nothing to compare: every cell counts as differing */
        if (msg && msg_size)
            snprintf(msg, msg_size, "%s is NULL (%zu cells to compare)", got ? "want" : "got", n);
        return n;
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !gpuc_check_cell_matches(got[i], want[i], mode, tolerance);
    if (!msg || !msg_size)
        return bad;
    msg[0] = '\0';
    if (!bad)
        return 0;
    size_t used = 0, shown = 0;
    /* Each piece is written whole into `piece`, then as much of it as fits is copied: the report keeps
     * its beginning when msg is short (and no compiler sees a snprintf that may cut). */
    char piece[160];
#define GPUC_CHECK_APPEND_(...)                                                                         \
    do {                                                                                                \
        int w_ = snprintf(piece, sizeof piece, __VA_ARGS__);                                            \
        size_t len_ = w_ > 0 ? (size_t)w_ : 0, room_ = msg_size - 1 - used;                             \
        len_ = len_ < room_ ? len_ : room_;                                                             \
        memcpy(msg + used, piece, len_);                                                                \
        used += len_;                                                                                   \
        msg[used] = '\0';                                                                               \
    } while (0)
    if (mode == GPUC_CHECK_EXACT)
        GPUC_CHECK_APPEND_("%zu of %zu cells differ (exactly): ", bad, n);
    else
        GPUC_CHECK_APPEND_("%zu of %zu cells differ (by more than %.6g %s): ", bad, n, tolerance,
                           mode == GPUC_CHECK_ULPS ? "ulps" : "relative error");
    for (size_t i = 0; i < n && shown < GPUC_CHECK_SHOWN; i++) {
        if (gpuc_check_cell_matches(got[i], want[i], mode, tolerance))
            continue;
        GPUC_CHECK_APPEND_("%s[%zu] got %.9g want %.9g (%.0f ulps)", shown ? ", " : "", i, (double)got[i],
                           (double)want[i], gpuc_check_ulps(got[i], want[i]));
        shown++;
    }
    if (bad > shown)
        GPUC_CHECK_APPEND_(", ...");
#undef GPUC_CHECK_APPEND_
    return bad;
}

/* Asserts (Check's ck_assert_msg) that a gpuc call returned GPUC_OK; on failure the test fails with
 * the call, its status and gpuc's message for that context: "gpuc_create_kernel(...) ->
 * GPUC_ERROR_COMPILE: kernel 'f': ...". `gpu` is the context the call ran on. */
#define gpuc_ck_assert_ok(gpu, expr) gpuc_ck_assert_status_((gpu), (expr), #expr, GPUC_OK)

/* Asserts that a gpuc call returned `status` (GPUC_ERROR_LIMIT...), printing gpuc's message when not. */
#define gpuc_ck_assert_status(gpu, expr, status) gpuc_ck_assert_status_((gpu), (expr), #expr, (status))
#define gpuc_ck_assert_status_(gpu, expr, text, status)                                                 \
    do {                                                                                                \
        gpuc_status gpuc_ck_st_ = (expr);                                                               \
        ck_assert_msg(gpuc_ck_st_ == (status), "%s -> %s, expected %s: %s", text,                       \
                      gpuc_status_name(gpuc_ck_st_), gpuc_status_name(status), gpuc_errmsg(gpu));       \
    } while (0)

/* Assert that n floats got match n floats wanted: exactly, within max_ulps float32 steps, or within a
 * relative error of max_rel (gpuc_check_mode). On failure the test fails naming the first cells that
 * differ (gpuc_check_compare_f32's report). */
#define gpuc_ck_assert_f32_exact(got, want, n)                                                          \
    gpuc_ck_assert_f32_((got), (want), #got, #want, (n), GPUC_CHECK_EXACT, 0.0)
#define gpuc_ck_assert_f32_ulps(got, want, n, max_ulps)                                                 \
    gpuc_ck_assert_f32_((got), (want), #got, #want, (n), GPUC_CHECK_ULPS, (double)(max_ulps))
#define gpuc_ck_assert_f32_rel(got, want, n, max_rel)                                                   \
    gpuc_ck_assert_f32_((got), (want), #got, #want, (n), GPUC_CHECK_REL, (double)(max_rel))
#define gpuc_ck_assert_f32_(got, want, got_text, want_text, n, mode, tolerance)                         \
    do {                                                                                                \
        char gpuc_ck_msg_[1024];                                                                        \
        size_t gpuc_ck_bad_ = gpuc_check_compare_f32((got), (want), (n), (mode), (tolerance), gpuc_ck_msg_, \
                                                     sizeof gpuc_ck_msg_);                              \
        ck_assert_msg(gpuc_ck_bad_ == 0, "%s against %s: %s", got_text, want_text, gpuc_ck_msg_);       \
    } while (0)

/* Opens a context for a test on `device` (gpuc_options.device: NULL for gpuc's default, "cpu" for
 * llvmpipe) and returns it; when it cannot, the test fails with gpuc's message (what was tried and
 * what to install). Call it inside the test (or a checked fixture), never in main under CK_FORK. */
static inline gpuc *gpuc_check_open(const char *device)
{
    gpuc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.device = device;
    gpuc *opened = NULL;
    gpuc_status st = gpuc_open(&opened, &opts);
    if (st != GPUC_OK) {
        char msg[2048];
        snprintf(msg, sizeof msg, "gpuc_open -> %s: %s", gpuc_status_name(st), gpuc_errmsg(opened));
        gpuc_close(opened);
        ck_abort_msg("%s", msg);
    }
    return opened;
}

/* Defines `static gpuc *var` and a checked fixture that opens it (gpuc's default device) inside each
 * test and closes it after; gpuc_check_add_context(tc, var) adds that fixture to a test case and gives
 * the case GPUC_CHECK_TIMEOUT. */
#define GPUC_CHECK_CONTEXT(var)                                                                         \
    static gpuc *var;                                                                                   \
    static void gpuc_check_open_##var(void) { var = gpuc_check_open(NULL); }                             \
    static void gpuc_check_close_##var(void)                                                            \
    {                                                                                                   \
        gpuc_close(var);                                                                                \
        var = NULL;                                                                                     \
    }
#define gpuc_check_add_context(tc, var)                                                                 \
    do {                                                                                                \
        tcase_add_checked_fixture((tc), gpuc_check_open_##var, gpuc_check_close_##var);                 \
        tcase_set_timeout((tc), GPUC_CHECK_TIMEOUT);                                                    \
    } while (0)

#endif
