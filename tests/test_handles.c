/* test_handles.c - misused handles (gpuc.h, HANDLES): a kernel or array freed twice, or used after it
 * was freed, fails with GPUC_ERROR_MISUSE and a message naming the call, from every public function
 * that takes one, while its context is open; what every creating call hands out is such a handle;
 * a handle of one context passed to another is refused; the context stays usable throughout. */
#include "fixture.h"
#include "suites.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 16

static const char *const TWICE = "float twice(float a[]) { return 2.0 * a[thread.x]; }";

/* Asserts that the last failed call left a message saying that `call` was given a freed handle. */
static void assert_freed_message(const char *call)
{
    const char *msg = gpuc_errmsg(gpu);
    ck_assert_msg(strstr(msg, call) != NULL, "message \"%s\" does not name %s", msg, call);
    ck_assert_msg(strstr(msg, "was freed") != NULL, "message \"%s\" does not say the handle was freed", msg);
}

/* Asserts that expr fails with GPUC_ERROR_MISUSE, saying that `call` was given a freed handle. */
#define ck_assert_misuse(expr, call)                                                                   \
    do {                                                                                               \
        reset_message();                                                                               \
        gpuc_status st_ = (expr);                                                                      \
        ck_assert_msg(st_ == GPUC_ERROR_MISUSE, "%s -> %s, expected GPUC_ERROR_MISUSE (message: %s)", \
                      #expr, gpuc_status_name(st_), gpuc_errmsg(gpu));                                 \
        assert_freed_message(call);                                                                    \
    } while (0)

static void reset_message(void);

/* Clears the context's message (a later failure must write its own). */
static void reset_message(void)
{
    gpuc_array *none;
    gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){0}, &none); /* fails: x = 0 */
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "was freed"));
}

static float ramp[N];

static void fill_ramp(void)
{
    for (int i = 0; i < N; i++)
        ramp[i] = (float)i;
}

/* The context still works: a kernel runs and gives the right answer. */
static void assert_context_usable(void)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(ramp, (gpuc_dims){N})}, 1, &r));
    float *got = fixture_take_floats(r, N);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(got[i], 2.0f * ramp[i]);
    free(got);
    gpuc_kernel_free(k);
}

START_TEST(array_freed_twice)
{
    fill_ramp();
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &a));
    gpuc_array_free(a);
    reset_message();
    gpuc_array_free(a); /* heap-use-after-free and a double free before handles were kept */
    assert_freed_message("gpuc_array_free");
    gpuc_array_free(a); /* and again */
    assert_freed_message("gpuc_array_free");
    assert_context_usable();
}
END_TEST

START_TEST(kernel_freed_twice)
{
    fill_ramp();
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_kernel_free(k);
    reset_message();
    gpuc_kernel_free(k);
    assert_freed_message("gpuc_kernel_free");
    assert_context_usable();
}
END_TEST

/* Every public function taking an array, given one that was freed. */
START_TEST(freed_array_refused_by_every_array_call)
{
    fill_ramp();
    float out[N];
    int32_t iout[N] = {0};
    uint8_t rgba[4 * N];
    gpuc_array *a, *c = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &a));
    gpuc_array_free(a);
    ck_assert_misuse(gpuc_array_read_f32(a, out, N), "gpuc_array_read_f32");
    ck_assert_misuse(gpuc_array_read_i32(a, iout, N), "gpuc_array_read_i32");
    ck_assert_misuse(gpuc_array_write_f32(a, ramp, N), "gpuc_array_write_f32");
    ck_assert_misuse(gpuc_array_write_i32(a, iout, N), "gpuc_array_write_i32");
    ck_assert_misuse(gpuc_array_clone(a, &c), "gpuc_array_clone");
    ck_assert_ptr_null(c);
    ck_assert_misuse(gpuc_array_clear(a), "gpuc_array_clear");
    ck_assert_misuse(gpuc_array_read_pixels(a, rgba, sizeof rgba, false), "gpuc_array_read_pixels");
    ck_assert_misuse(gpuc_array_write_png(a, "/nonexistent/never-written.png"), "gpuc_array_write_png");
    /* The shape queries answer "none" and leave the message. */
    reset_message();
    gpuc_dims d = gpuc_array_dims(a);
    ck_assert_uint_eq(d.x + d.y + d.z, 0);
    assert_freed_message("gpuc_array_dims");
    reset_message();
    ck_assert_int_eq(gpuc_array_type(a), GPUC_TYPE_NONE);
    assert_freed_message("gpuc_array_type");
    reset_message();
    ck_assert_uint_eq(gpuc_array_cells(a), 0);
    assert_freed_message("gpuc_array_cells");
    reset_message();
    ck_assert_uint_eq(gpuc_array_values(a), 0);
    assert_freed_message("gpuc_array_values");
    assert_context_usable();
}
END_TEST

/* A freed array as a kernel's argument or destination, and as an algorithm's input. */
START_TEST(freed_array_refused_as_argument)
{
    fill_ramp();
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_array *a, *live, *r = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &a));
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &live));
    gpuc_array_free(a);
    ck_assert_misuse(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &r), "gpuc_run");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "argument 0"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "kernel 'twice'"));
    ck_assert_misuse(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(live)}, 1, a), "gpuc_run_to");
    ck_assert_misuse(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, live), "gpuc_run_to");
    ck_assert_misuse(gpuc_run_map(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &r), "gpuc_run");
    gpuc_arg freed = gpuc_arg_array(a);
    gpuc_array *s = NULL, *s2 = NULL;
    ck_assert_misuse(gpuc_sort(gpu, freed, NULL, &s), "gpuc_sort");
    ck_assert_misuse(gpuc_argsort(gpu, freed, NULL, &s, &s2), "gpuc_argsort");
    ck_assert_misuse(gpuc_sort_pairs(gpu, freed, gpuc_arg_array(live), NULL, &s, &s2), "gpuc_sort_pairs");
    ck_assert_misuse(gpuc_sort_pairs(gpu, gpuc_arg_array(live), freed, NULL, &s, &s2), "gpuc_sort_pairs");
    ck_assert_misuse(gpuc_scan(gpu, freed, NULL, &s), "gpuc_scan");
    size_t count = 0;
    ck_assert_misuse(gpuc_compact(gpu, freed, &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 1}, &s, &count),
                     "gpuc_compact");
    ck_assert_misuse(gpuc_topk(gpu, freed, &(gpuc_topk_desc){.k = 2}, &s, &s2), "gpuc_topk");
    double cutoff;
    ck_assert_misuse(gpuc_topk_cutoff(gpu, freed, &(gpuc_topk_cutoff_desc){.k = 2}, &cutoff, NULL), "gpuc_topk_cutoff");
    ck_assert_misuse(gpuc_rank(gpu, freed, NULL, &s), "gpuc_rank");
    ck_assert_ptr_null(r);
    ck_assert_ptr_null(s);
    ck_assert_ptr_null(s2);
    /* The live array was not touched. */
    float got[N];
    ck_assert_gpuc_ok(gpuc_array_read_f32(live, got, N));
    ck_assert_mem_eq(got, ramp, sizeof got);
    gpuc_array_free(live);
    gpuc_kernel_free(k);
    assert_context_usable();
}
END_TEST

/* Every public function taking a kernel, given one that was freed: GLSL, JavaScript and map kernels. */
static void assert_freed_kernel_refused(gpuc_kernel *k)
{
    fill_ramp();
    gpuc_array *r = NULL, *dst, *maps[2] = {NULL, NULL};
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &dst));
    gpuc_arg arg = gpuc_arg_host_f32(ramp, (gpuc_dims){N});
    ck_assert_misuse(gpuc_run(k, &arg, 1, &r), "gpuc_run");
    ck_assert_misuse(gpuc_run_to(k, &arg, 1, dst), "gpuc_run_to");
    ck_assert_misuse(gpuc_run_map(k, &arg, 1, maps), "gpuc_run_map");
    ck_assert_misuse(gpuc_kernel_set_output(k, (gpuc_dims){N}), "gpuc_kernel_set_output");
    gpuc_kernel_stats stats;
    ck_assert_misuse(gpuc_get_kernel_stats(k, &stats), "gpuc_get_kernel_stats");
    ck_assert_ptr_null(r);
    ck_assert_ptr_null(maps[0]);
    reset_message();
    gpuc_dims d = gpuc_kernel_output(k);
    ck_assert_uint_eq(d.x + d.y + d.z, 0);
    assert_freed_message("gpuc_kernel_output");
    reset_message();
    ck_assert_int_eq(gpuc_kernel_arg_count(k), 0);
    assert_freed_message("gpuc_kernel_arg_count");
    reset_message();
    ck_assert_int_eq(gpuc_kernel_return_type(k), GPUC_TYPE_NONE);
    assert_freed_message("gpuc_kernel_return_type");
    reset_message();
    ck_assert_int_eq(gpuc_kernel_map_count(k), 0);
    assert_freed_message("gpuc_kernel_map_count");
    reset_message();
    ck_assert_ptr_null(gpuc_kernel_map_name(k, 0));
    assert_freed_message("gpuc_kernel_map_name");
    reset_message();
    ck_assert_str_eq(gpuc_kernel_glsl(k), "");
    assert_freed_message("gpuc_kernel_glsl");
    reset_message();
    gpuc_kernel_free(k);
    assert_freed_message("gpuc_kernel_free");
    gpuc_array_free(dst);
    assert_context_usable();
}

START_TEST(freed_kernel_refused_by_every_kernel_call)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}, .dynamic_output = true}, &k));
    gpuc_kernel_free(k);
    assert_freed_kernel_refused(k);
}
END_TEST

START_TEST(freed_js_kernels_refused)
{
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a) { return 2 * a[this.thread.x]; }",
                                            &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_kernel_free(k);
    assert_freed_kernel_refused(k);
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, "{ doubled: function twice(v) { return 2 * v; } }",
                                                "function (a) { return twice(a[this.thread.x]); }",
                                                &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_kernel_free(k);
    assert_freed_kernel_refused(k);
}
END_TEST

/* Frees a handed-out array, then frees it again: only a handle (not the array's own memory) can say
 * "was freed" the second time, so this checks that the call that made it handed out a handle. */
static void assert_handed_out_handle(gpuc_array *a, const char *maker)
{
    ck_assert_msg(a != NULL, "%s handed out NULL", maker);
    gpuc_array_free(a);
    reset_message();
    ck_assert_uint_eq(gpuc_array_cells(a), 0);
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "was freed") != NULL, "the array %s made was not a checked handle: %s",
                  maker, gpuc_errmsg(gpu));
}

START_TEST(every_maker_hands_out_checked_arrays)
{
    fill_ramp();
    int32_t ints[N];
    for (int i = 0; i < N; i++)
        ints[i] = N - i;
    gpuc_array *a, *b;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &a));
    assert_handed_out_handle(a, "gpuc_array_new");
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, ints, (gpuc_dims){N}, &a));
    assert_handed_out_handle(a, "gpuc_array_from_i32");
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &a));
    ck_assert_gpuc_ok(gpuc_array_clone(a, &b));
    assert_handed_out_handle(b, "gpuc_array_clone");
    assert_handed_out_handle(a, "gpuc_array_from_f32");

    gpuc_arg keys = gpuc_arg_host_f32(ramp, (gpuc_dims){N});
    ck_assert_gpuc_ok(gpuc_sort(gpu, keys, NULL, &a));
    assert_handed_out_handle(a, "gpuc_sort");
    ck_assert_gpuc_ok(gpuc_sort(gpu, keys, &(gpuc_sort_desc){.method = GPUC_SORT_BITONIC}, &a));
    assert_handed_out_handle(a, "gpuc_sort (bitonic)");
    if (!fixture_fragment_backend()) { /* the radix sort is compute-only */
        ck_assert_gpuc_ok(gpuc_sort(gpu, keys, &(gpuc_sort_desc){.method = GPUC_SORT_RADIX}, &a));
        assert_handed_out_handle(a, "gpuc_sort (radix)");
        ck_assert_gpuc_ok(gpuc_sort_pairs(gpu, keys, keys, &(gpuc_sort_desc){.method = GPUC_SORT_RADIX}, &a, &b));
        assert_handed_out_handle(a, "gpuc_sort_pairs (radix keys)");
        assert_handed_out_handle(b, "gpuc_sort_pairs (radix values)");
    }
    ck_assert_gpuc_ok(gpuc_argsort(gpu, keys, NULL, &a, &b));
    assert_handed_out_handle(a, "gpuc_argsort (keys)");
    assert_handed_out_handle(b, "gpuc_argsort (indices)");
    ck_assert_gpuc_ok(gpuc_sort_pairs(gpu, keys, gpuc_arg_host_i32(ints, (gpuc_dims){N}), NULL, &a, &b));
    assert_handed_out_handle(a, "gpuc_sort_pairs (keys)");
    assert_handed_out_handle(b, "gpuc_sort_pairs (values)");
    ck_assert_gpuc_ok(gpuc_scan(gpu, keys, NULL, &a));
    assert_handed_out_handle(a, "gpuc_scan");
    size_t count;
    ck_assert_gpuc_ok(gpuc_compact(gpu, keys, &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 3}, &a, &count));
    ck_assert_uint_eq(count, N - 4);
    assert_handed_out_handle(a, "gpuc_compact");
    if (!fixture_fragment_backend()) { /* the scatter method is compute-only */
        ck_assert_gpuc_ok(gpuc_compact(
            gpu, keys, &(gpuc_compact_desc){.op = GPUC_LESS, .threshold = 3, .method = GPUC_COMPACT_SCATTER}, &a,
            &count));
        ck_assert_uint_eq(count, 3);
        assert_handed_out_handle(a, "gpuc_compact (scatter)");
    }
    ck_assert_gpuc_ok(gpuc_topk(gpu, keys, &(gpuc_topk_desc){.k = 3}, &a, &b));
    assert_handed_out_handle(a, "gpuc_topk (values)");
    assert_handed_out_handle(b, "gpuc_topk (indices)");
    ck_assert_gpuc_ok(gpuc_rank(gpu, keys, NULL, &a));
    assert_handed_out_handle(a, "gpuc_rank");

    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    ck_assert_gpuc_ok(gpuc_run(k, &keys, 1, &a));
    assert_handed_out_handle(a, "gpuc_run");
    gpuc_kernel_free(k);
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "void paint() { color(0.5, 0.25, 1.0, 1.0); }",
                                         &(gpuc_kernel_desc){.output = {4, 2}, .graphical = true}, &k));
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &a));
    char path[64];
    snprintf(path, sizeof path, "/tmp/gpuc-test-handles-%ld.png", (long)getpid());
    ck_assert_gpuc_ok(gpuc_array_write_png(a, path));
    gpuc_array_free(a);
    ck_assert_gpuc_ok(gpuc_array_from_png(gpu, path, &a));
    remove(path);
    assert_handed_out_handle(a, "gpuc_array_from_png");
    gpuc_kernel_free(k);
    ck_assert_gpuc_ok(gpuc_create_kernel_map_js(gpu, "{ doubled: function twice(v) { return 2 * v; } }",
                                                "function (a) { return twice(a[this.thread.x]) + 1; }",
                                                &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_array *maps[2];
    ck_assert_gpuc_ok(gpuc_run_map(k, &keys, 1, maps));
    assert_handed_out_handle(maps[0], "gpuc_run_map (result)");
    assert_handed_out_handle(maps[1], "gpuc_run_map (output 0)");
    gpuc_kernel_free(k);
    assert_context_usable();
}
END_TEST

/* A stale handle never turns into a new array: freed handles are not reused while the context is open. */
START_TEST(freed_handle_never_aliases_a_new_one)
{
    enum { MADE = 64 };
    gpuc_array *old;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &old));
    gpuc_array_free(old);
    gpuc_array *made[MADE];
    for (int i = 0; i < MADE; i++) {
        ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &made[i]));
        ck_assert_ptr_ne(made[i], old);
    }
    ck_assert_misuse(gpuc_array_read_f32(old, ramp, N), "gpuc_array_read_f32");
    for (int i = 0; i < MADE; i++)
        gpuc_array_free(made[i]);
}
END_TEST

static void *free_both(void *arg)
{
    void **objects = arg;
    gpuc_kernel_free(objects[0]);
    gpuc_array_free(objects[1]);
    return NULL;
}

/* Freed on another thread (the free waits in the context's queue): refused at once on this one. */
START_TEST(freed_on_another_thread_refused)
{
    fill_ramp();
    gpuc_kernel *k;
    gpuc_array *a, *r = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, ramp, (gpuc_dims){N}, &a));
    void *objects[] = {k, a};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, free_both, objects), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    gpuc_stats stats;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &stats));
    ck_assert_uint_eq(stats.frees_pending, 2); /* this thread holds the context: both wait */
    ck_assert_misuse(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(ramp, (gpuc_dims){N})}, 1, &r), "gpuc_run");
    ck_assert_misuse(gpuc_array_read_f32(a, ramp, N), "gpuc_array_read_f32");
    ck_assert_ptr_null(r);
    assert_context_usable(); /* its first call on this thread destroys the queued two */
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &stats));
    ck_assert_uint_eq(stats.frees_pending, 0);
    ck_assert_misuse(gpuc_array_clear(a), "gpuc_array_clear");
}
END_TEST

/* A kernel or array of one context given to a call of another: refused, both contexts unharmed. */
START_TEST(handle_of_another_context_refused)
{
    fill_ramp();
    gpuc *other;
    ck_assert_gpuc_ok(gpuc_open(&other, NULL));
    gpuc_array *theirs;
    ck_assert_msg(gpuc_array_from_f32(other, ramp, (gpuc_dims){N}, &theirs) == GPUC_OK, "%s", gpuc_errmsg(other));
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k));
    gpuc_array *r = NULL, *mine;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &mine));
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(theirs)}, 1, &r), GPUC_ERROR_INVALID_ARGUMENT,
                         "another gpuc context");
    ck_assert_gpuc_fails(gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(mine)}, 1, theirs), GPUC_ERROR_INVALID_ARGUMENT,
                         "another gpuc context");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_array(theirs), NULL, &r), GPUC_ERROR_INVALID_ARGUMENT,
                         "another gpuc context");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_array(theirs), &(gpuc_topk_desc){.k = 1}, &r, NULL),
                         GPUC_ERROR_INVALID_ARGUMENT, "another gpuc context");
    ck_assert_ptr_null(r);
    /* The other context's array, freed there, is refused here too, with the message on its context. */
    gpuc_array_free(theirs);
    gpuc_status st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(theirs)}, 1, &r);
    ck_assert_int_eq(st, GPUC_ERROR_MISUSE);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(other), "was freed"));
    gpuc_close(other);
    gpuc_array_free(mine);
    gpuc_kernel_free(k);
    assert_context_usable();
}
END_TEST

/* Freeing a kernel or array leaves the others, and what the context closes, alone; closing a context
 * with freed handles and live ones releases both (LeakSanitizer checks it in the sanitizer build). */
START_TEST(close_with_freed_and_live_handles)
{
    fill_ramp();
    gpuc *own;
    ck_assert_gpuc_ok(gpuc_open(&own, NULL));
    gpuc_kernel *k, *dead_k;
    gpuc_array *a, *dead_a, *r;
    ck_assert_int_eq(gpuc_create_kernel(own, TWICE, &(gpuc_kernel_desc){.output = {N}}, &k), GPUC_OK);
    ck_assert_int_eq(gpuc_create_kernel(own, TWICE, &(gpuc_kernel_desc){.output = {N}}, &dead_k), GPUC_OK);
    ck_assert_int_eq(gpuc_array_from_f32(own, ramp, (gpuc_dims){N}, &a), GPUC_OK);
    ck_assert_int_eq(gpuc_array_from_f32(own, ramp, (gpuc_dims){N}, &dead_a), GPUC_OK);
    gpuc_kernel_free(dead_k);
    gpuc_array_free(dead_a);
    ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(a)}, 1, &r), GPUC_OK);
    float got[N];
    ck_assert_int_eq(gpuc_array_read_f32(r, got, N), GPUC_OK);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(got[i], 2.0f * ramp[i]);
    gpuc_close(own); /* k, a and r still alive */
}
END_TEST

Suite *suite_handles(void)
{
    Suite *s = suite_create("handles");
    TCase *tc = fixture_tcase("handles");
    tcase_add_test(tc, array_freed_twice);
    tcase_add_test(tc, kernel_freed_twice);
    tcase_add_test(tc, freed_array_refused_by_every_array_call);
    tcase_add_test(tc, freed_array_refused_as_argument);
    tcase_add_test(tc, freed_kernel_refused_by_every_kernel_call);
    tcase_add_test(tc, freed_js_kernels_refused);
    tcase_add_test(tc, every_maker_hands_out_checked_arrays);
    tcase_add_test(tc, freed_handle_never_aliases_a_new_one);
    tcase_add_test(tc, freed_on_another_thread_refused);
    tcase_add_test(tc, handle_of_another_context_refused);
    tcase_add_test(tc, close_with_freed_and_live_handles);
    suite_add_tcase(s, tc);
    return s;
}
