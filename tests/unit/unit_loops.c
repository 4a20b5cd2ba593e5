/* unit_loops.c - the loop readers on strings: the loops the scan finds, each for loop's trip count
 * (exact, at most, unknown), and the iteration bounds and nesting the budget reads for a kernel,
 * llvmpipe's way of counting (a loop of n trips spends n + 1: its last test is one more). */
#include "unit.h"
#include "kernel/loops/loop_budget.h"

#include <stdlib.h>
#include <string.h>

/* A source read as kernel creation reads it: continued lines joined, masked, scanned. */
typedef struct read_source {
    char *src, *mask;
    loop_scan scan;
} read_source;

static read_source *read_kernel(const char *text)
{
    read_source *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->src = source_join_lines(text);
    ck_assert_ptr_nonnull(r->src);
    r->mask = source_mask(r->src);
    ck_assert_ptr_nonnull(r->mask);
    ck_assert_msg(loop_scan_read(r->src, r->mask, &r->scan), "%s", r->scan.error);
    return r;
}

static void read_free(read_source *r)
{
    loop_scan_free(&r->scan);
    free(r->mask);
    free(r->src);
    free(r);
}

/* The trips of loop `l` of text, with constants.size = 12. */
static loop_trips trips_of(const char *text, int l)
{
    static const loop_constant constants[] = {{"size", 12}};
    read_source *r = read_kernel(text);
    ck_assert_int_gt(r->scan.nloops, l);
    named_values named;
    loop_names_read(&named, r->src, r->mask, &r->scan, constants, 1);
    loop_trips t = loop_trips_of(r->mask, &r->scan, &r->scan.loops[l], constants, 1, &named);
    read_free(r);
    return t;
}

#define ASSERT_TRIPS(text, least, most)                                                                        \
    do {                                                                                                       \
        loop_trips t_ = trips_of(text, 0);                                                                     \
        ck_assert_msg(t_.at_least == (least) && t_.at_most == (most), "%s: trips %lld..%lld, want %lld..%lld", \
                      text, (long long)t_.at_least, (long long)t_.at_most, (long long)(least),                 \
                      (long long)(most));                                                                      \
    } while (0)

START_TEST(scan_finds_loops_and_functions)
{
    read_source *r = read_kernel("float h(float x) { while (x > 1.0) x /= 2.0; return x; }\n"
                                 "float k(float a[]) {\n"
                                 "    float s = 0.0;\n"
                                 "    for (int i = 0; i < 4; i++) { if (a[i] < 0.0) break; s += h(a[i]); }\n"
                                 "    do { s -= 1.0; } while (s > 9.0);\n"
                                 "    return s;\n"
                                 "}\n");
    ck_assert_int_eq(r->scan.nfunctions, 2);
    ck_assert_str_eq(r->scan.functions[0].name, "h");
    ck_assert_str_eq(r->scan.functions[1].name, "k");
    ck_assert_int_eq(r->scan.nloops, 3);
    ck_assert_int_eq(r->scan.loops[0].kind, LOOP_WHILE);
    ck_assert_int_eq(r->scan.loops[0].function, 0);
    ck_assert_int_eq(r->scan.loops[1].kind, LOOP_FOR);
    ck_assert_int_eq(r->scan.loops[1].function, 1);
    ck_assert(r->scan.loops[1].leaves_early); /* the break */
    ck_assert_int_eq(r->scan.loops[2].kind, LOOP_DO);
    ck_assert(!r->scan.loops[2].leaves_early);
    ck_assert_int_eq(r->scan.nbreaks, 1);
    ck_assert_int_eq(r->scan.breaks[0].loop, 1);
    bool h_in_loop = false;
    for (int c = 0; c < r->scan.ncalls; c++)
        h_in_loop |= !strcmp(r->scan.calls[c].name, "h") && r->scan.calls[c].loop == 1;
    ck_assert(h_in_loop);
    read_free(r);
}
END_TEST

START_TEST(trip_counts)
{
    ASSERT_TRIPS("void k() { for (int i = 0; i < 10; i++) {} }", 10, 10);
    ASSERT_TRIPS("void k() { for (int i = 0; i <= 10; ++i) {} }", 11, 11);
    ASSERT_TRIPS("void k() { for (int i = 2; i <= 8; i += 2) {} }", 4, 4);     /* 2, 4, 6, 8 */
    ASSERT_TRIPS("void k() { for (int i = 10; i > 0; i--) {} }", 10, 10);
    ASSERT_TRIPS("void k() { for (int i = 0; i < 10; i += 3) {} }", 4, 4);     /* 0, 3, 6, 9 */
    ASSERT_TRIPS("void k() { for (int i = 0; 5 > i; i++) {} }", 5, 5);        /* the bound on the left */
    ASSERT_TRIPS("void k() { for (uint i = 0u; i != 6u; i++) {} }", 6, 6);
    ASSERT_TRIPS("void k() { for (int i = 0; i < constants.size; i++) {} }", 12, 12);
    ASSERT_TRIPS("const int N = 3 * (2 + 1);\nvoid k() { for (int i = 0; i < N; i++) {} }", 9, 9);
    ASSERT_TRIPS("#define M 7\nvoid k() { for (int i = 1; i < M - 1; i++) {} }", 5, 5); /* 1..5 */
    ASSERT_TRIPS("void k() { for (int i = 5; i < 3; i++) {} }", 0, 0);       /* never runs */
}
END_TEST

START_TEST(trip_counts_not_proven)
{
    /* A break may leave early: at most 10, at least none. */
    ASSERT_TRIPS("void k(int n) { for (int i = 0; i < 10; i++) { if (i == n) break; } }", 0, 10);
    /* A second condition bounds from above only. */
    ASSERT_TRIPS("void k(int n) { for (int i = 0; i < 10 && i != n; i++) {} }", 0, 10);
    /* A bound the reader cannot know, a counter written in the body, a float counter: unknown. */
    ASSERT_TRIPS("void k(int n) { for (int i = 0; i < n; i++) {} }", 0, -1);
    ASSERT_TRIPS("void k() { for (int i = 0; i < 10; i++) { i += 1; } }", 0, -1);
    ASSERT_TRIPS("void k() { for (float f = 0.0; f < 10.0; f++) {} }", 0, -1);
    /* A counter passed to an out parameter of a helper is written there. */
    ASSERT_TRIPS("void set(out int v) { v = 0; }\nvoid k() { for (int i = 0; i < 10; i++) { set(i); } }", 0, -1);
    /* A name defined twice (or under #if) proves nothing. */
    ASSERT_TRIPS("#define N 4\n#undef N\n#define N 40\nvoid k() { for (int i = 0; i < N; i++) {} }", 0, -1);
}
END_TEST

/* The budget's bounds for the last function of text. */
static loop_bounds bounds_of(const char *text)
{
    read_source *r = read_kernel(text);
    loop_bounds b = loop_budget_bounds(r->src, r->mask, &r->scan, r->scan.nfunctions - 1, NULL, 0);
    read_free(r);
    return b;
}

#define ASSERT_BOUNDS(text, least, most, nest)                                                               \
    do {                                                                                                     \
        loop_bounds b_ = bounds_of(text);                                                                    \
        ck_assert_msg(b_.at_least == (least) && b_.at_most == (most) && b_.nesting == (nest),                \
                      "%s: %lld..%lld nesting %d, want %lld..%lld nesting %d", text, (long long)b_.at_least, \
                      (long long)b_.at_most, b_.nesting, (long long)(least), (long long)(most), (nest));     \
    } while (0)

START_TEST(budget_bounds)
{
    ASSERT_BOUNDS("float k() { return 1.0; }", 0, 0, 0);
    /* One loop of 10: 10 iterations surely, 10 + 1 tests at most. */
    ASSERT_BOUNDS("void k() { for (int i = 0; i < 10; i++) {} }", 10, 11, 1);
    /* 4 x 5 nested: the inner loop spends 5 + 1 per outer trip; outer 4 * (1 + 6) + 1 = 29; surely
     * 4 * (1 + 5) = 24. */
    ASSERT_BOUNDS("void k() { for (int i = 0; i < 4; i++) for (int j = 0; j < 5; j++) {} }", 24, 29, 2);
    /* Two loops after each other add: (3 + 1) + (7 + 1) at most, 3 + 7 surely. */
    ASSERT_BOUNDS("void k() { for (int i = 0; i < 3; i++) {} for (int j = 0; j < 7; j++) {} }", 10, 12, 1);
    /* A helper's loop (3 trips: 4 at most) called in a loop of 4. A call in a loop is counted as if in
     * its header too (the scan does not tell them apart), n + 1 times: 4 * (1 + 4) + (1 + 4) = 25 at
     * most; helpers count nothing towards the sure bound; the nest is two deep, the call inlined. */
    ASSERT_BOUNDS("float h() { float s = 0.0; for (int j = 0; j < 3; j++) s += 1.0; return s; }\n"
                  "float k() { float t = 0.0; for (int i = 0; i < 4; i++) t += h(); return t; }",
                  4, 25, 2);
    /* A loop in a branch may not run: nothing sure, 8 + 1 at most. */
    ASSERT_BOUNDS("void k(int n) { if (n > 0) { for (int i = 0; i < 8; i++) {} } }", 0, 9, 1);
    /* A while loop is never counted: unbounded. */
    ASSERT_BOUNDS("void k(int n) { while (n > 0) n--; }", 0, LOOP_UNBOUNDED, 1);
    /* Nor is any loop of a source whose preprocessing the reader does not follow. */
    ASSERT_BOUNDS("#define TWICE(x) (2 * (x))\nvoid k() { for (int i = 0; i < TWICE(3); i++) {} }", 0,
                  LOOP_UNBOUNDED, 1);
}
END_TEST

START_TEST(budget_names_the_loops)
{
    loop_bounds b = bounds_of("void k() {\n"
                              "  for (int a = 0; a < 2; a++) {}\n"
                              "  for (int b = 0; b < 50; b++) { for (int c = 0; c < 2; c++) {} }\n"
                              "}\n");
    ck_assert_int_eq(b.at_least, 2 + 50 * (1 + 2));
    ck_assert_int_eq(b.largest_loop, 1); /* the b loop: 150 of the 152 */
    ck_assert_int_eq(b.nesting, 2);
    ck_assert_int_eq(b.deepest_loop, 2); /* the c loop, innermost of the deepest nest */
}
END_TEST

Suite *unit_loops_suite(void)
{
    Suite *s = suite_create("loops");
    TCase *tc = tcase_create("readers");
    tcase_add_test(tc, scan_finds_loops_and_functions);
    tcase_add_test(tc, trip_counts);
    tcase_add_test(tc, trip_counts_not_proven);
    tcase_add_test(tc, budget_bounds);
    tcase_add_test(tc, budget_names_the_loops);
    suite_add_tcase(s, tc);
    return s;
}
