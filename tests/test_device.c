/* test_device.c - opening contexts: device choice (option and GPUC_DEVICE), what gpuc_info reports,
 * failures that keep a handle with a message, several contexts at once. */
#include "fixture.h"
#include "suites.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *TWICE = "float twice(float a[]) { return 2.0 * a[thread.x]; }";

/* Runs TWICE on ctx over 0..n-1 and checks the answer. */
static void check_context_computes(gpuc *ctx, int n)
{
    float in[64], out[64];
    for (int i = 0; i < n; i++)
        in[i] = (float)i;
    gpuc_kernel *k;
    gpuc_array *r;
    ck_assert_int_eq(gpuc_create_kernel(ctx, TWICE, &(gpuc_kernel_desc){.output = {(uint32_t)n}}, &k), GPUC_OK);
    ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){(uint32_t)n})}, 1, &r), GPUC_OK);
    ck_assert_int_eq(gpuc_array_read_f32(r, out, (size_t)n), GPUC_OK);
    for (int i = 0; i < n; i++)
        ck_assert_float_eq(out[i], 2.0f * (float)i);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}

START_TEST(default_device_reports_info)
{
    const gpuc_info *info = gpuc_get_info(gpu);
    ck_assert_ptr_nonnull(info);
    ck_assert_str_ne(info->renderer, "");
    ck_assert_msg(info->gl_version[0] >= '4', "GL version %s", info->gl_version);
    ck_assert_str_ne(info->glsl_version, "");
    ck_assert_msg(!strncmp(info->device, "gpu", 3) || !strncmp(info->device, "cpu", 3), "device %s", info->device);
    ck_assert_int_ge(info->max_work_group_count[0], 65535);
    ck_assert_int_ge(info->max_work_group_size[0], 1024);
    ck_assert_int_ge(info->max_work_group_invocations, 1024);
    ck_assert_int_ge(info->max_storage_block_size, 1 << 24);
    ck_assert_int_ge(info->max_texture_buffer_size, 1 << 16);
    ck_assert_int_ge(info->max_shared_memory, 32768);
    ck_assert_int_ge(info->max_image_units, 8);
    if (strstr(info->renderer, "llvmpipe")) {
        ck_assert(info->software);
        /* the budget is llvmpipe's, whatever the profile (GPUC_DEVICE_PROFILE=hardware keeps it) */
        ck_assert_int_eq(info->loop_budget, 65535);
    }
    check_context_computes(gpu, 64);
}
END_TEST

START_TEST(cpu_and_llvmpipe_choose_software)
{
    const char *names[] = {"cpu", "llvmpipe"};
    for (int i = 0; i < 2; i++) {
        gpuc *ctx;
        ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.device = names[i]}), GPUC_OK);
        ck_assert(gpuc_get_info(ctx)->software);
        ck_assert_str_eq(gpuc_errmsg(ctx), "");
        check_context_computes(ctx, 16);
        gpuc_close(ctx);
    }
}
END_TEST

START_TEST(device_index_zero)
{
    gpuc *ctx;
    ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.device = "0"}), GPUC_OK);
    ck_assert_int_eq(gpuc_get_info(ctx)->device_index, 0);
    check_context_computes(ctx, 8);
    gpuc_close(ctx);
}
END_TEST

START_TEST(environment_variable_chooses)
{
    setenv("GPUC_DEVICE", "cpu", 1);
    gpuc *ctx;
    ck_assert_int_eq(gpuc_open(&ctx, NULL), GPUC_OK);
    ck_assert(gpuc_get_info(ctx)->software);
    gpuc_close(ctx);

    setenv("GPUC_DEVICE", "bogus", 1);
    ck_assert_int_eq(gpuc_open(&ctx, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(ctx), "GPUC_DEVICE \"bogus\""));
    gpuc_close(ctx);

    /* The option wins over the environment. */
    ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.device = "auto"}), GPUC_OK);
    gpuc_close(ctx);
    unsetenv("GPUC_DEVICE");
}
END_TEST

START_TEST(bad_choice_keeps_a_handle_with_a_message)
{
    gpuc *ctx = NULL;
    ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.device = "banana"}), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(ctx);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(ctx), "banana"));
    ck_assert_ptr_null(gpuc_get_info(ctx));
    gpuc_stats stats;
    ck_assert_int_eq(gpuc_get_stats(ctx, &stats), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_array *a = NULL;
    ck_assert_int_eq(gpuc_array_new(ctx, GPUC_FLOAT, (gpuc_dims){4}, &a), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(a);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(ctx), "failed to open"));
    gpuc_close(ctx);
}
END_TEST

START_TEST(missing_index_says_what_was_tried)
{
    gpuc *ctx;
    ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.device = "15"}), GPUC_ERROR_NO_DEVICE);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(ctx), "EGL device 15"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(ctx), "apt-get install"));
    gpuc_close(ctx);
}
END_TEST

START_TEST(gpu_only_fails_clearly_without_hardware)
{
    gpuc *ctx;
    gpuc_status st = gpuc_open(&ctx, &(gpuc_options){.device = "gpu"});
    if (st == GPUC_OK) { /* a machine with a GPU */
        ck_assert(!gpuc_get_info(ctx)->software);
        check_context_computes(ctx, 8);
    } else {
        /* Say what was seen, not that Mesa is missing: it is installed (llvmpipe opens with "auto"). */
        ck_assert_int_eq(st, GPUC_ERROR_NO_DEVICE);
        const char *msg = gpuc_errmsg(ctx);
        ck_assert_msg(strstr(msg, "no hardware EGL device was found") && strstr(msg, "EGL device 0 (software"),
                      "message: %s", msg);
        ck_assert_msg(!strstr(msg, "Install Mesa"), "message: %s", msg);
    }
    gpuc_close(ctx);
}
END_TEST

START_TEST(null_arguments)
{
    ck_assert_int_eq(gpuc_open(NULL, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(gpuc_errmsg(NULL));
    ck_assert_ptr_null(gpuc_get_info(NULL));
    gpuc_close(NULL);
    ck_assert_str_eq(gpuc_status_name(GPUC_OK), "GPUC_OK");
    ck_assert_str_eq(gpuc_status_name(GPUC_ERROR_LIMIT), "GPUC_ERROR_LIMIT");
    ck_assert_str_eq(gpuc_status_name((gpuc_status)99), "GPUC_ERROR_UNKNOWN");
}
END_TEST

START_TEST(two_contexts_live_side_by_side)
{
    gpuc *a, *b;
    ck_assert_int_eq(gpuc_open(&a, NULL), GPUC_OK);
    ck_assert_int_eq(gpuc_open(&b, NULL), GPUC_OK);
    check_context_computes(a, 32);
    check_context_computes(b, 32);
    /* An array made in one context is refused by the other's kernels. */
    float one = 1.0f;
    gpuc_array *arr;
    gpuc_kernel *k;
    ck_assert_int_eq(gpuc_array_from_f32(a, &one, (gpuc_dims){1}, &arr), GPUC_OK);
    ck_assert_int_eq(gpuc_create_kernel(b, TWICE, &(gpuc_kernel_desc){.output = {1}}, &k), GPUC_OK);
    gpuc_array *r = NULL;
    ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(arr)}, 1, &r), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(b), "another gpuc context"));
    /* Closing one (with its array still alive) leaves the other working. */
    gpuc_close(a);
    check_context_computes(b, 32);
    gpuc_kernel_free(k);
    gpuc_close(b);
}
END_TEST

/* Threads of this process (Linux: /proc/self/task), to see llvmpipe's workers come. */
static int process_threads(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* gpuc_options.threads: a context in the calling thread beside a default one, each computing; a
 * second count gets the other display gpuc can make; a third is refused while those are open; bad
 * counts fail; the count takes effect (the workers llvmpipe starts). */
START_TEST(thread_counts_per_context)
{
    gpuc *bad;
    ck_assert_int_eq(gpuc_open(&bad, &(gpuc_options){.threads = GPUC_THREADS_CALLER - 1}), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(bad), "gpuc_options.threads is -2"));
    gpuc_close(bad);
    ck_assert_int_eq(gpuc_open(&bad, &(gpuc_options){.threads = GPUC_MAX_THREADS + 1}), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_close(bad);

    gpuc *dflt, *caller, *caller2, *four, *five;
    int start = process_threads();
    ck_assert_int_eq(gpuc_open(&dflt, NULL), GPUC_OK);
    if (!gpuc_get_info(dflt)->software) { /* the option is llvmpipe's */
        gpuc_close(dflt);
        return;
    }
    int before = process_threads();
    ck_assert_int_eq(gpuc_open(&caller, &(gpuc_options){.threads = GPUC_THREADS_CALLER}), GPUC_OK);
    int with_caller = process_threads();
    ck_assert_ptr_nonnull(strstr(gpuc_get_info(caller)->device, "in the calling thread"));
    ck_assert_ptr_null(strstr(gpuc_get_info(dflt)->device, "thread"));
    ck_assert_int_eq(gpuc_open(&caller2, &(gpuc_options){.threads = GPUC_THREADS_CALLER}), GPUC_OK);
    ck_assert_int_eq(gpuc_open(&four, &(gpuc_options){.threads = 4}), GPUC_OK);
    int with_four = process_threads();
    ck_assert_ptr_nonnull(strstr(gpuc_get_info(four)->device, "with 4 threads"));
    /* llvmpipe starts 4 compute workers and 4 rasteriser threads for the 4-thread screen, none for the
     * calling-thread one (Mesa may start a thread or so of its own per screen). Zink over lavapipe
     * starts more of its own per screen (8 on Mesa 22.3: its queues and lavapipe's), as many for each
     * display: there the calling-thread screen is bounded by the default one, which has at least
     * one worker and one rasteriser thread more. */
    ck_assert_int_ge(with_four - with_caller, 8);
    if (strncmp(gpuc_get_info(dflt)->renderer, "zink", 4) == 0)
        ck_assert_int_le(with_caller - before + 2, before - start);
    else
        ck_assert_int_le(with_caller - before, 2);
    ck_assert_int_eq(gpuc_open(&five, &(gpuc_options){.threads = 5}), GPUC_ERROR_NO_DEVICE);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(five), "once per display"));
    gpuc_close(five);
    check_context_computes(caller, 64);
    check_context_computes(dflt, 64);
    check_context_computes(four, 64);
    check_context_computes(caller2, 64);
    gpuc_close(caller);
    gpuc_close(caller2);
    /* Once no context holds it, the display may be made again with another count. */
    ck_assert_int_eq(gpuc_open(&five, &(gpuc_options){.threads = 5}), GPUC_OK);
    check_context_computes(five, 64);
    gpuc_close(five);
    gpuc_close(four);
    gpuc_close(dflt);
}
END_TEST

START_TEST(debug_context_runs)
{
    gpuc *ctx;
    ck_assert_int_eq(gpuc_open(&ctx, &(gpuc_options){.debug = true}), GPUC_OK);
    check_context_computes(ctx, 64);
    /* Compiler warnings are not errors (Mesa once warned that `thread` was read uninitialized). */
    int32_t idx[4] = {3, 2, 1, 0}, out[4];
    gpuc_kernel *k;
    gpuc_array *r;
    ck_assert_int_eq(gpuc_create_kernel(ctx, "int pick(int idx[]) { return idx[thread.x]; }",
                                        &(gpuc_kernel_desc){.output = {4}}, &k), GPUC_OK);
    ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_i32(idx, (gpuc_dims){4})}, 1, &r), GPUC_OK);
    ck_assert_int_eq(gpuc_array_read_i32(r, out, 4), GPUC_OK);
    ck_assert_int_eq(out[0], 3);
    gpuc_close(ctx);
}
END_TEST

/* The library's run-time version is the one its header states: a stale libgpuc.so beside a newer
 * gpuc.h would show here (and the string and int forms must agree with each other). */
START_TEST(runtime_version_matches_header)
{
    ck_assert_int_eq(gpuc_version(), GPUC_VERSION_MAJOR * 10000 + GPUC_VERSION_MINOR * 100 + GPUC_VERSION_PATCH);
    ck_assert_int_eq(gpuc_version(), GPUC_VERSION);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", GPUC_VERSION_MAJOR, GPUC_VERSION_MINOR, GPUC_VERSION_PATCH);
    ck_assert_str_eq(gpuc_version_string(), expect);
    ck_assert_ptr_eq(gpuc_version_string(), gpuc_version_string()); /* static, not built per call */
}
END_TEST

Suite *suite_device(void)
{
    Suite *s = suite_create("device");
    TCase *tc = fixture_tcase("with-context");
    tcase_add_test(tc, default_device_reports_info);
    suite_add_tcase(s, tc);
    tc = fixture_tcase_bare("opening");
    tcase_add_checked_fixture(tc, fixture_pin_driver, NULL);
    tcase_add_test(tc, cpu_and_llvmpipe_choose_software);
    tcase_add_test(tc, device_index_zero);
    tcase_add_test(tc, environment_variable_chooses);
    tcase_add_test(tc, bad_choice_keeps_a_handle_with_a_message);
    tcase_add_test(tc, missing_index_says_what_was_tried);
    tcase_add_test(tc, gpu_only_fails_clearly_without_hardware);
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, two_contexts_live_side_by_side);
    tcase_add_test(tc, thread_counts_per_context);
    tcase_add_test(tc, debug_context_runs);
    tcase_add_test(tc, runtime_version_matches_header);
    suite_add_tcase(s, tc);
    return s;
}
