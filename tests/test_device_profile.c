/* test_device_profile.c - the device profile (gpuc_options.device_profile, GPUC_DEVICE_PROFILE): each
 * profile makes the program it says (image views or storage buffers, texel stores or one cell per
 * invocation, work group size, the loop guard) and both give the same answers as a C oracle, reads
 * outside an array and GPU.js's loopMaxIterations included. On llvmpipe this is how the hardware
 * path is tested without a GPU. */
#include "fixture.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

static gpuc *open_profile(gpuc_device_profile profile)
{
    gpuc *g = NULL;
    gpuc_status st = gpuc_open(&g, &(gpuc_options){.device_profile = profile});
    ck_assert_msg(st == GPUC_OK, "gpuc_open (profile %d): %s", (int)profile, gpuc_errmsg(g));
    ck_assert_int_eq(gpuc_get_info(g)->device_profile, profile);
    return g;
}

static gpuc_kernel *make_in(gpuc *g, const char *source, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    gpuc_status st = gpuc_create_kernel(g, source, &desc, &k);
    ck_assert_msg(st == GPUC_OK, "gpuc_create_kernel: %s", gpuc_errmsg(g));
    return k;
}

static bool contains(const char *text, const char *needle)
{
    return strstr(text, needle) != NULL;
}

START_TEST(auto_follows_the_driver_and_each_profile_says_its_name)
{
    const char *env = getenv("GPUC_DEVICE_PROFILE");
    gpuc *g = NULL;
    ck_assert_int_eq(gpuc_open(&g, NULL), GPUC_OK);
    const gpuc_info *info = gpuc_get_info(g);
    bool llvmpipe = contains(info->renderer, "llvmpipe"), software = info->software;
    if (!env || !*env || !strcmp(env, "auto"))
        ck_assert_int_eq(info->device_profile, software ? GPUC_PROFILE_SOFTWARE : GPUC_PROFILE_HARDWARE);
    gpuc_close(g);

    g = open_profile(GPUC_PROFILE_SOFTWARE);
    info = gpuc_get_info(g);
    ck_assert_str_eq(info->device_profile_name, "software");
    ck_assert_int_eq(info->loop_budget, llvmpipe ? 65535 : 0);
    ck_assert(info->software == software); /* what the driver is does not change */
    gpuc_close(g);

    g = open_profile(GPUC_PROFILE_HARDWARE);
    info = gpuc_get_info(g);
    ck_assert_str_eq(info->device_profile_name, "hardware");
    ck_assert_int_eq(info->loop_budget, llvmpipe ? 65535 : 0); /* the driver's limit, whatever the profile */
    ck_assert(info->software == software);
    gpuc_close(g);
}
END_TEST

START_TEST(a_profile_that_is_none_is_refused)
{
    gpuc *g = NULL;
    ck_assert_int_eq(gpuc_open(&g, &(gpuc_options){.device_profile = (gpuc_device_profile)9}),
                     GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(gpuc_errmsg(g), "gpuc_options.device_profile 9"), "%s", gpuc_errmsg(g));
    gpuc_close(g);

    setenv("GPUC_DEVICE_PROFILE", "fast", 1);
    ck_assert_int_eq(gpuc_open(&g, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(gpuc_errmsg(g), "GPUC_DEVICE_PROFILE \"fast\"") && contains(gpuc_errmsg(g), "hardware"),
                  "%s", gpuc_errmsg(g));
    gpuc_close(g);
    gpuc_close(open_profile(GPUC_PROFILE_SOFTWARE)); /* the option wins over the variable */

    setenv("GPUC_DEVICE_PROFILE", "hardware", 1);
    ck_assert_int_eq(gpuc_open(&g, NULL), GPUC_OK);
    ck_assert_int_eq(gpuc_get_info(g)->device_profile, GPUC_PROFILE_HARDWARE);
    gpuc_close(g);
    unsetenv("GPUC_DEVICE_PROFILE");
}
END_TEST

/* A loop-free kernel reading float, vec4 and int arrays, also before and past their ends. */
enum { FLAT_N = 50000 };
static const char *const flat_source =
    "float f(float a[], vec4 b[], int c[]) {\n"
    "    return a[thread.x] * 2.0 + b[thread.x / 3].y + float(c[thread.x - 3]) + a[thread.x + 5];\n"
    "}\n";

static float flat_oracle(const float *a, const float *b, const int32_t *c, int x)
{
    float b_y = x / 3 < FLAT_N / 4 ? b[4 * (x / 3) + 1] : 0.0f; /* b: FLAT_N floats */
    float c_v = x - 3 >= 0 ? (float)c[x - 3] : 0.0f;
    float a_5 = x + 5 < FLAT_N ? a[x + 5] : 0.0f;
    return a[x] * 2.0f + b_y + c_v + a_5;
}

/* Runs flat_source under `profile` into out; returns the kernel's GLSL (caller frees). */
static char *run_flat(gpuc_device_profile profile, const float *a, const float *b, const int32_t *c, float *out)
{
    gpuc *g = open_profile(profile);
    gpuc_kernel *k = make_in(g, flat_source, (gpuc_kernel_desc){.output = {FLAT_N}});
    gpuc_array *r = NULL;
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){FLAT_N}), gpuc_arg_host_f32(b, (gpuc_dims){FLAT_N}),
                       gpuc_arg_host_i32(c, (gpuc_dims){FLAT_N})};
    gpuc_status st = gpuc_run(k, args, 3, &r);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    ck_assert_int_eq(gpuc_array_read_f32(r, out, FLAT_N), GPUC_OK);
    char *glsl = strdup(gpuc_kernel_glsl(k));
    gpuc_close(g);
    return glsl;
}

START_TEST(the_profile_shapes_a_loop_free_program_and_both_agree)
{
    float *a = malloc(FLAT_N * sizeof *a), *b = malloc(FLAT_N * sizeof *b);
    int32_t *c = malloc(FLAT_N * sizeof *c);
    float *soft = malloc(FLAT_N * sizeof *soft), *hard = malloc(FLAT_N * sizeof *hard);
    for (int i = 0; i < FLAT_N; i++) { /* halves and small integers: every sum is exact */
        a[i] = (float)(i % 97) * 0.5f;
        b[i] = (float)(i % 13) - 6.0f;
        c[i] = (i * 7) % 31 - 15;
    }
    char *sg = run_flat(GPUC_PROFILE_SOFTWARE, a, b, c, soft);
    char *hg = run_flat(GPUC_PROFILE_HARDWARE, a, b, c, hard);
    for (int x = 0; x < FLAT_N; x++) {
        float want = flat_oracle(a, b, c, x);
        ck_assert_msg(soft[x] == want && hard[x] == want, "cell %d: software %g, hardware %g, C %g", x,
                      (double)soft[x], (double)hard[x], (double)want);
    }
    /* Software: image views; on compute also texel stores, several steps per invocation, groups of 64. */
    ck_assert(contains(sg, "imageBuffer gpuc_array_a") && !contains(sg, "buffer gpuc_block_a"));
    /* Hardware: storage-buffer reads; on compute one cell per invocation stored as it is, groups of 256. */
    ck_assert_msg(contains(hg, "readonly buffer gpuc_block_a { float gpuc_data_a[]; }") &&
                  contains(hg, "readonly buffer gpuc_block_b { vec4 gpuc_data_b[]; }") &&
                  contains(hg, "readonly buffer gpuc_block_c { int gpuc_data_c[]; }"), "%s", hg);
    ck_assert(!contains(hg, "imageLoad") && !contains(hg, "gpuc_lane") && !contains(hg, "gpuc_pairs"));
    if (!fixture_fragment_backend()) {
        ck_assert(contains(sg, "gpuc_lane") && contains(sg, "local_size_x = 64") && !contains(sg, "gpuc_k < 1u"));
        ck_assert(contains(hg, "local_size_x = 256") && contains(hg, "gpuc_k < 1u") &&
                  contains(hg, "gpuc_output[index] = result;"));
    }
    free(sg);
    free(hg);
    free(a);
    free(b);
    free(c);
    free(soft);
    free(hard);
}
END_TEST

/* A kernel with a counted loop over 2D reads, and vec2, vec3 and 3D arrays read at their edges. */
enum { SIDE = 96, TAPS = 24 };
static const char *const loop_source =
    "float g(float a[][], vec2 q[], vec3 p[], float v[][][]) {\n"
    "    float s = 0.0;\n"
    "    for (int i = 0; i < constants.taps; i++)\n"
    "        s += a[thread.y][i] * a[i][thread.x];\n"
    "    return s + q[thread.x].y + p[thread.y - 1].z + v[1][thread.y][thread.x + 2];\n"
    "}\n";

static float loop_oracle(const float *a, const float *q, const float *p, const float *v, int x, int y)
{
    float s = 0.0f;
    for (int i = 0; i < TAPS; i++)
        s += a[y * SIDE + i] * a[i * SIDE + x];
    int vi = (1 * SIDE + y) * SIDE + x + 2; /* v is 2 x SIDE x SIDE: a flat read, 0 past the end */
    float vv = vi < 2 * SIDE * SIDE ? v[vi] : 0.0f;
    return s + q[2 * x + 1] + (y >= 1 ? p[3 * (y - 1) + 2] : 0.0f) + vv;
}

/* Runs loop_source twice (the second run uses the program specialised to the sizes); returns the GLSL. */
static char *run_loops(gpuc_device_profile profile, const float *a, const float *q, const float *p, const float *v,
                       float *out)
{
    gpuc *g = open_profile(profile);
    gpuc_kernel *k = make_in(g, loop_source,
                             (gpuc_kernel_desc){.output = {SIDE, SIDE}, .constants = {{"taps", TAPS}}});
    gpuc_arg args[] = {gpuc_arg_host_f32(a, (gpuc_dims){SIDE, SIDE}), gpuc_arg_host_f32(q, (gpuc_dims){SIDE}),
                       gpuc_arg_host_f32(p, (gpuc_dims){SIDE}), gpuc_arg_host_f32(v, (gpuc_dims){SIDE, SIDE, 2})};
    for (int run = 0; run < 2; run++) {
        gpuc_array *r = NULL;
        gpuc_status st = gpuc_run(k, args, 4, &r);
        ck_assert_msg(st == GPUC_OK, "run %d: %s", run, gpuc_errmsg(g));
        ck_assert_int_eq(gpuc_array_read_f32(r, out + run * SIDE * SIDE, SIDE * SIDE), GPUC_OK);
        gpuc_array_free(r);
    }
    char *glsl = strdup(gpuc_kernel_glsl(k));
    gpuc_close(g);
    return glsl;
}

START_TEST(loops_and_every_array_shape_agree_across_profiles)
{
    float *a = malloc(SIDE * SIDE * sizeof *a), *q = malloc(2 * SIDE * sizeof *q), *p = malloc(3 * SIDE * sizeof *p);
    float *v = malloc(2 * SIDE * SIDE * sizeof *v);
    float *soft = malloc(2 * SIDE * SIDE * sizeof *soft), *hard = malloc(2 * SIDE * SIDE * sizeof *hard);
    for (int i = 0; i < SIDE * SIDE; i++)
        a[i] = (float)(i % 9) - 4.0f;
    for (int i = 0; i < 2 * SIDE; i++)
        q[i] = (float)(i % 5);
    for (int i = 0; i < 3 * SIDE; i++)
        p[i] = (float)(i % 7) * 0.25f;
    for (int i = 0; i < 2 * SIDE * SIDE; i++)
        v[i] = (float)(i % 11) * 0.5f;
    char *sg = run_loops(GPUC_PROFILE_SOFTWARE, a, q, p, v, soft);
    char *hg = run_loops(GPUC_PROFILE_HARDWARE, a, q, p, v, hard);
    for (int run = 0; run < 2; run++)
        for (int y = 0; y < SIDE; y++)
            for (int x = 0; x < SIDE; x++) {
                int at = run * SIDE * SIDE + y * SIDE + x;
                float want = loop_oracle(a, q, p, v, x, y);
                ck_assert_msg(soft[at] == want && hard[at] == want, "run %d, (%d, %d): software %g, hardware %g, C %g",
                              run, x, y, (double)soft[at], (double)hard[at], (double)want);
            }
    ck_assert(contains(sg, "imageBuffer gpuc_array_q"));
    ck_assert_msg(contains(hg, "{ vec2 gpuc_data_q[]; }") && contains(hg, "{ float gpuc_data_p[]; }") &&
                  contains(hg, "{ float gpuc_data_v[]; }") && !contains(hg, "imageLoad"), "%s", hg);
    if (!fixture_fragment_backend()) { /* software: several cells per invocation, in steps or jammed */
        ck_assert(!contains(sg, "gpuc_k < 1u") || contains(sg, "gpuc_jam("));
        ck_assert(contains(hg, "gpuc_k < 1u") && !contains(hg, "gpuc_jam("));
    }
    free(sg);
    free(hg);
    free(a);
    free(q);
    free(p);
    free(v);
    free(soft);
    free(hard);
}
END_TEST

START_TEST(the_loop_budget_follows_the_driver_not_the_profile)
{
    /* A forced hardware profile on llvmpipe must still refuse what llvmpipe would cut and guard what
     * it cannot prove: the profile shapes programs, never correctness. */
    const char *counted = "float f() { float s = 0.0; for (int i = 0; i < 70000; i++) s += 1.0; return s; }\n";
    const char *unbounded = "float f(int n) { float s = 0.0; for (int i = 0; i < n; i++) s += 1.0; return s; }\n";
    gpuc_device_profile profiles[] = {GPUC_PROFILE_SOFTWARE, GPUC_PROFILE_HARDWARE};
    for (int p = 0; p < 2; p++) {
        gpuc *g = open_profile(profiles[p]);
        bool budget = gpuc_get_info(g)->loop_budget > 0;
        ck_assert(budget == contains(gpuc_get_info(g)->renderer, "llvmpipe"));
        gpuc_kernel *k = NULL;
        gpuc_status st = gpuc_create_kernel(g, counted, &(gpuc_kernel_desc){.output = {4}}, &k);
        ck_assert_int_eq(st, budget ? GPUC_ERROR_LIMIT : GPUC_OK);
        k = make_in(g, unbounded, (gpuc_kernel_desc){.output = {4}});
        ck_assert(contains(gpuc_kernel_glsl(k), "gpuc_loop_cut") == budget);
        if (budget) { /* past the budget: a clear error, never a cut answer */
            gpuc_array *out = NULL;
            st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(100000)}, 1, &out);
            ck_assert_int_eq(st, GPUC_ERROR_LIMIT);
        }
        gpuc_close(g);
    }
}
END_TEST

/* GPU.js's loopMaxIterations caps a loop whose bound is not a constant, on every profile. */
START_TEST(loop_max_iterations_holds_on_both_profiles)
{
    const char *js = "function (n) { let s = 0; for (let i = 0; i < n; i++) { s += 1; } return s; }";
    for (int hw = 0; hw < 2; hw++) {
        gpuc *g = open_profile(hw ? GPUC_PROFILE_HARDWARE : GPUC_PROFILE_SOFTWARE);
        gpuc_kernel *k = NULL;
        gpuc_status st = gpuc_create_kernel_js(
            g, js, &(gpuc_kernel_desc){.output = {8}, .arg_types = "int", .loop_max_iterations = 10}, &k);
        ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
        float got[8];
        for (int n = 5; n <= 100; n += 95) {
            gpuc_array *r = NULL;
            ck_assert_int_eq(gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(n)}, 1, &r), GPUC_OK);
            ck_assert_int_eq(gpuc_array_read_f32(r, got, 8), GPUC_OK);
            for (int i = 0; i < 8; i++)
                ck_assert_msg(got[i] == (n < 10 ? (float)n : 10.0f), "profile %d, n %d: cell %d is %g", hw, n, i,
                              (double)got[i]);
            gpuc_array_free(r);
        }
        gpuc_close(g);
    }
}
END_TEST

/* A kernel map's outputs take the storage bindings before the arrays it reads (hardware profile). */
START_TEST(kernel_maps_read_their_arrays_after_their_outputs)
{
    enum { N = 3000 };
    const char *src = "float add(float a, float b) { return a + b; }\n"
                      "float twice(float a) { return 2.0 * a; }\n"
                      "float k(float x[], float y[]) { return twice(add(x[thread.x], y[thread.x + 1])); }\n";
    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17);
        y[i] = (float)(i % 5) * 0.5f;
    }
    for (int hw = 0; hw < 2; hw++) {
        gpuc *g = open_profile(hw ? GPUC_PROFILE_HARDWARE : GPUC_PROFILE_SOFTWARE);
        gpuc_kernel *k =
            make_in(g, src, (gpuc_kernel_desc){.output = {N}, .map = {{"sum", "add"}, {"double", "twice"}}});
        gpuc_array *r[3] = {NULL, NULL, NULL};
        gpuc_arg args[] = {gpuc_arg_host_f32(x, (gpuc_dims){N}), gpuc_arg_host_f32(y, (gpuc_dims){N})};
        gpuc_status st = gpuc_run_map(k, args, 2, r);
        ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
        float got[3][N];
        for (int o = 0; o < 3; o++)
            ck_assert_int_eq(gpuc_array_read_f32(r[o], got[o], N), GPUC_OK);
        for (int i = 0; i < N; i++) {
            float sum = x[i] + (i + 1 < N ? y[i + 1] : 0.0f);
            ck_assert_msg(got[0][i] == 2.0f * sum && got[1][i] == sum && got[2][i] == 2.0f * sum,
                          "profile %d, cell %d: %g %g %g, expected %g %g", hw, i, (double)got[0][i], (double)got[1][i],
                          (double)got[2][i], (double)(2.0f * sum), (double)sum);
        }
        gpuc_close(g);
    }
}
END_TEST

Suite *suite_device_profile(void)
{
    Suite *s = suite_create("device_profile");
    TCase *tc = fixture_tcase_bare("device_profile");
    tcase_add_checked_fixture(tc, fixture_pin_driver, NULL); /* the tests open contexts of their own */
    tcase_add_test(tc, auto_follows_the_driver_and_each_profile_says_its_name);
    tcase_add_test(tc, a_profile_that_is_none_is_refused);
    tcase_add_test(tc, the_profile_shapes_a_loop_free_program_and_both_agree);
    tcase_add_test(tc, loops_and_every_array_shape_agree_across_profiles);
    tcase_add_test(tc, the_loop_budget_follows_the_driver_not_the_profile);
    tcase_add_test(tc, loop_max_iterations_holds_on_both_profiles);
    tcase_add_test(tc, kernel_maps_read_their_arrays_after_their_outputs);
    suite_add_tcase(s, tc);
    return s;
}
