/* test_fragment.c - the backend choice, and the fragment backend against the compute backend and C
 * oracles bit for bit: every cell type, 1D/2D/3D layouts, tiles and a partial last row. These tests open
 * their own contexts (one per backend), so they test both backends in either run of the suites. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static gpuc *open_backend(gpuc_backend backend)
{
    fixture_pin_driver();
    gpuc *g = NULL;
    gpuc_status st = gpuc_open(&g, &(gpuc_options){.backend = backend});
    ck_assert_msg(st == GPUC_OK, "gpuc_open: %s", gpuc_errmsg(g));
    return g;
}

START_TEST(backend_is_chosen_by_option_and_environment)
{
    gpuc *c = open_backend(GPUC_BACKEND_COMPUTE), *f = open_backend(GPUC_BACKEND_FRAGMENT);
    ck_assert_int_eq(gpuc_get_info(c)->backend, GPUC_BACKEND_COMPUTE);
    ck_assert_str_eq(gpuc_get_info(c)->backend_name, "compute");
    ck_assert_int_eq(gpuc_get_info(f)->backend, GPUC_BACKEND_FRAGMENT);
    ck_assert_str_eq(gpuc_get_info(f)->backend_name, "fragment");
    ck_assert_int_gt(gpuc_get_info(f)->max_target_size, 0);
    gpuc_close(c);
    gpuc_close(f);

    gpuc *g = NULL;
    ck_assert_int_eq(gpuc_open(&g, &(gpuc_options){.backend = (gpuc_backend)42}), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(g), "backend"));
    gpuc_close(g);
    setenv("GPUC_BACKEND", "vertex", 1); /* this forked test's own environment */
    ck_assert_int_eq(gpuc_open(&g, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(g), "GPUC_BACKEND \"vertex\""));
    gpuc_close(g);
    setenv("GPUC_BACKEND", "fragment", 1);
    ck_assert_int_eq(gpuc_open(&g, NULL), GPUC_OK);
    ck_assert_int_eq(gpuc_get_info(g)->backend, GPUC_BACKEND_FRAGMENT);
    gpuc_close(g);
}
END_TEST

typedef struct typed_case {
    const char *src;
    gpuc_dims output;
    int components; /* per output cell */
    /* Arithmetic on denormals: llvmpipe runs fragment shaders with denormals flushed to zero (its
     * rasterizer threads set FTZ/DAZ), compute shaders without, so a denormal result of arithmetic
     * may come back as a zero of its sign on fragment. Values copied unchanged keep their bits. */
    bool flushes_denormals;
} typed_case;

/* Runs the case (one array parameter, `v`) on a context; returns the result's raw 32-bit words. */
static uint32_t *run_case(gpuc *g, const typed_case *tc, const float *input, size_t n)
{
    gpuc_kernel *k = NULL;
    gpuc_status st = gpuc_create_kernel(g, tc->src, &(gpuc_kernel_desc){.output = tc->output}, &k);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    gpuc_array *r = NULL;
    st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(input, (gpuc_dims){(uint32_t)n})}, 1, &r);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    size_t values = gpuc_array_values(r);
    uint32_t *words = malloc(values * 4);
    if (gpuc_array_type(r) == GPUC_INT)
        st = gpuc_array_read_i32(r, (int32_t *)words, values);
    else
        st = gpuc_array_read_f32(r, (float *)words, values);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    return words;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Input values that catch lossy paths: NaN payloads, -0, denormals, infinities. */
static float *special_input(size_t n)
{
    float *v = malloc(n * sizeof *v);
    uint32_t s = 5;
    static const uint32_t special[] = {0x7fc00001u, 0xffc12345u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                       0x7f800000u, 0xff800000u, 0x3f800000u};
    for (size_t i = 0; i < n; i++) {
        v[i] = test_random(&s) * 2000.0f - 1000.0f;
        if (i % 13 < 8)
            memcpy(&v[i], &special[i % 13], 4);
    }
    return v;
}

START_TEST(fragment_matches_compute_bit_for_bit)
{
    enum { N = 3000 };
    float *in = special_input(N);
    static const typed_case cases[] = {
        {"float f(float v[]) { return v[thread.x]; }", {N}, 1},
        {"int f(float v[]) { return floatBitsToInt(v[thread.x]) ^ thread.x; }", {N}, 1},
        {"vec2 f(float v[]) { return vec2(v[thread.x], -v[thread.x + 1]); }", {N}, 2},
        {"vec3 f(float v[]) { return vec3(v[thread.x], float(thread.y), v[thread.x + thread.y]); }", {41, 17}, 3},
        {"vec4 f(float v[]) { return vec4(v[thread.x], thread); }", {13, 7, 5}, 4},
        {"float f(float v[]) { return v[thread.x + thread.y * 100] * 0.5; }", {1, 29}, 1, true},
    };
    gpuc *c = open_backend(GPUC_BACKEND_COMPUTE), *f = open_backend(GPUC_BACKEND_FRAGMENT);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const typed_case *tc = &cases[i];
        size_t cells = (size_t)tc->output.x * (tc->output.y ? tc->output.y : 1) * (tc->output.z ? tc->output.z : 1);
        uint32_t *a = run_case(c, tc, in, N), *b = run_case(f, tc, in, N);
        for (size_t j = 0; j < cells * (size_t)tc->components; j++) {
            bool denormal = (a[j] & 0x7f800000u) == 0 && (a[j] & 0x007fffffu) != 0;
            bool same = a[j] == b[j] || (tc->flushes_denormals && denormal && b[j] == (a[j] & 0x80000000u));
            ck_assert_msg(same, "case %zu word %zu: compute %08x, fragment %08x", i, j, a[j], b[j]);
        }
        if (i == 0) /* and the identity is the identity, bit for bit, on both */
            for (size_t j = 0; j < N; j++)
                ck_assert_uint_eq(b[j], bits(in[j]));
        free(a);
        free(b);
    }
    gpuc_close(c);
    gpuc_close(f);
    free(in);
}
END_TEST

/* Runs a kernel returning its thread over each shape from shapes[first] on, on f, checking every cell. */
static void check_layouts(gpuc *f, size_t first)
{
    int max = gpuc_get_info(f)->max_target_size;
    gpuc_dims shapes[] = {{(uint32_t)max + 3, 2, 0}, {(1u << 22) + 2049 + 5, 0, 0}, {5, 3, 2}, {1, 0, 0}, {2, 0, 0},
                          {3, 0, 0},  {63, 0, 0}, {65, 0, 0}, {1000, 0, 0}, {4097, 0, 0}, {16383, 0, 0}};
    for (size_t s = first; s < sizeof shapes / sizeof shapes[0]; s++) {
        gpuc_dims d = shapes[s];
        gpuc_kernel *k = NULL;
        gpuc_status st = gpuc_create_kernel(f, "int where() { return (thread.z * 4 + thread.y) * 8388608 + thread.x; }",
                                            &(gpuc_kernel_desc){.output = d}, &k);
        ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(f));
        gpuc_stats before, after;
        gpuc_get_stats(f, &before);
        gpuc_array *r = NULL;
        st = gpuc_run(k, NULL, 0, &r);
        ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(f));
        gpuc_get_stats(f, &after);
        size_t cells = gpuc_array_cells(r);
        int32_t *got = malloc(cells * sizeof *got);
        ck_assert_int_eq(gpuc_array_read_i32(r, got, cells), GPUC_OK);
        size_t i = 0;
        for (uint32_t z = 0; z < (d.z ? d.z : 1); z++)
            for (uint32_t y = 0; y < (d.y ? d.y : 1); y++)
                for (uint32_t x = 0; x < d.x; x++, i++)
                    ck_assert_int_eq(got[i], (int32_t)((z * 4 + y) * 8388608u + x));
        if (s == 1)
            ck_assert_uint_ge(after.dispatches - before.dispatches, 2); /* drawn in tiles */
        free(got);
        gpuc_array_free(r);
        gpuc_kernel_free(k);
    }
}

/* thread as GPU.js sets it: a 2D output wider than the largest render target is drawn in flat rows, a
 * long 1D one in several tiles with a partial last row, a short 1D one nearly square (in the calling
 * thread: 1, 2 and 3 cells; 63 and 65 around 8 rows of 8; 1,000 in 31 rows of 32 and 8 cells; 4,097
 * and 16,383 on both sides of a width) or, on llvmpipe's threads, widened to a bin per thread (other
 * partial rows); every cell still sees its own thread. The short shapes run in a context of each
 * kind; the long ones on llvmpipe's threads only (their layout does not depend on the threads). */
START_TEST(fragment_layouts_cover_every_cell_once)
{
    for (int caller = 0; caller < 2; caller++) {
        fixture_pin_driver();
        gpuc *f = NULL;
        gpuc_options o = {.backend = GPUC_BACKEND_FRAGMENT, .threads = caller ? GPUC_THREADS_CALLER : 0};
        ck_assert_msg(gpuc_open(&f, &o) == GPUC_OK, "gpuc_open: %s", gpuc_errmsg(f));
        check_layouts(f, caller ? 3 : 0);
        gpuc_close(f);
    }
}
END_TEST


/* What the fragment backend cannot do fails with a message saying why: compaction's scatter method
 * (gather works), and outputs past gpuc's size limit. */
/* The framebuffer keeps the targets of the kernel that drew last: kernels of other sizes taking turns,
 * and a kernel made after one was freed, each get their own cells (GPUC_THREADS_CALLER too). */
START_TEST(fragment_kernels_take_turns)
{
    for (int threads = 0; threads >= GPUC_THREADS_CALLER; threads--) {
        fixture_pin_driver();
        gpuc *f = NULL;
        ck_assert_int_eq(gpuc_open(&f, &(gpuc_options){.backend = GPUC_BACKEND_FRAGMENT, .threads = threads}), GPUC_OK);
        const uint32_t sizes[3] = {5, 3, 1000};
        gpuc_kernel *k[3];
        char src[128];
        for (int i = 0; i < 3; i++) {
            snprintf(src, sizeof src, "int tag() { return %d * 100000 + thread.x; }", i + 1);
            ck_assert_int_eq(gpuc_create_kernel(f, src, &(gpuc_kernel_desc){.output = {sizes[i]}}, &k[i]), GPUC_OK);
        }
        for (int turn = 0; turn < 7; turn++) {
            int i = turn % 3;
            if (turn == 4 && i == 1) { /* kernel 1 draws, goes, and a larger one drawing next takes its place */
                gpuc_array *r = NULL;
                ck_assert_int_eq(gpuc_run(k[1], NULL, 0, &r), GPUC_OK);
                gpuc_array_free(r);
                gpuc_kernel_free(k[1]);
                ck_assert_int_eq(gpuc_create_kernel(f, "int tag() { return 9 * 100000 + thread.x; }",
                                                    &(gpuc_kernel_desc){.output = {800}}, &k[1]),
                                 GPUC_OK);
            }
            uint32_t n = turn >= 4 && i == 1 ? 800 : sizes[i];
            int id = turn >= 4 && i == 1 ? 9 : i + 1;
            gpuc_array *r = NULL;
            ck_assert_int_eq(gpuc_run(k[i], NULL, 0, &r), GPUC_OK);
            int32_t got[1000];
            ck_assert_int_eq(gpuc_array_read_i32(r, got, n), GPUC_OK);
            for (uint32_t x = 0; x < n; x++)
                ck_assert_int_eq(got[x], id * 100000 + (int32_t)x);
            gpuc_array_free(r);
        }
        for (int i = 0; i < 3; i++)
            gpuc_kernel_free(k[i]);
        gpuc_close(f);
    }
}
END_TEST

START_TEST(fragment_refusals_say_why)
{
    gpuc *f = open_backend(GPUC_BACKEND_FRAGMENT);
    float v[6] = {1, 7, 3, 9, 8, 2};
    gpuc_array *packed = NULL;
    size_t count = 0;
    gpuc_arg values = gpuc_arg_host_f32(v, (gpuc_dims){6});
    gpuc_compact_desc d = {.op = GPUC_GREATER, .threshold = 5, .method = GPUC_COMPACT_SCATTER};
    ck_assert_int_eq(gpuc_compact(f, values, &d, &packed, &count), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(f), "compute-only"));
    ck_assert_ptr_null(packed);
    d.method = GPUC_COMPACT_GATHER;
    ck_assert_int_eq(gpuc_compact(f, values, &d, &packed, &count), GPUC_OK);
    float got[3];
    ck_assert_uint_eq(count, 3);
    ck_assert_int_eq(gpuc_array_read_f32(packed, got, 3), GPUC_OK);
    ck_assert_float_eq(got[0], 7);
    ck_assert_float_eq(got[1], 9);
    ck_assert_float_eq(got[2], 8);
    /* Tiles make every output gpuc accepts drawable; beyond that, the message names the limit. */
    gpuc_kernel *k = NULL;
    ck_assert_int_eq(gpuc_create_kernel(f, "float f() { return 1.0; }",
                                        &(gpuc_kernel_desc){.output = {65536, 32768}}, &k), GPUC_ERROR_LIMIT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(f), "2^31 - 1"));
    ck_assert_ptr_null(k);
    gpuc_close(f);
}
END_TEST

/* llvmpipe's loop budget is the same 65,535 iterations per invocation for compute and fragment shaders,
 * and gpuc counts and guards it alike on both backends: near the budget, each kernel here returns the same
 * status on both, and the C answer (40,000 per cell) where it runs. An inner loop that always breaks at
 * once is compiled away (no iteration); one whose break is a run-time test spends one iteration per
 * outer one, so 40,000 + 40,000 pass the budget and the run is refused on both. */
START_TEST(loop_budget_agrees_across_backends)
{
    static const struct {
        const char *src;
        gpuc_status want;
    } cases[] = {
        {"float f(int n) { float s = 0.0; for (int i = 0; i < 40000; i++) { s += 1.0; } return s; }", GPUC_OK},
        {"float f(int n) { float s = 0.0; for (int i = 0; i < n; i++) { s += 1.0; for (int j = 0; j < 10; j++) "
         "{ break; } } return s; }", GPUC_OK},
        {"float f(int n) { float s = 0.0; for (int i = 0; i < 40000; i++) { s += 1.0; while (true) { break; } } "
         "return s; }", GPUC_OK},
        {"float f(int n) { float s = 0.0; int i = 0; while (i < n) { i++; s += 1.0; for (int j = 0; j < 10; j++) "
         "{ break; } } return s; }", GPUC_OK},
        {"float f(int n) { float s = 0.0; for (int i = 0; i < 40000; i++) { s += 1.0; for (int j = 0; j < 10; "
         "j++) { if (j >= n - 40000) break; s += 1.0; } } return s; }", GPUC_ERROR_LIMIT},
        {"float f(int n) { float s = 0.0; for (int i = 0; i < 40000; i++) { s += 1.0; for (int j = 0; j < n - "
         "40000; j++) { s += 1.0; } } return s; }", GPUC_ERROR_LIMIT},
    };
    gpuc *backends[2] = {open_backend(GPUC_BACKEND_COMPUTE), open_backend(GPUC_BACKEND_FRAGMENT)};
    /* Zink over lavapipe has llvmpipe's budget, but its compute shaders (Mesa 22.3) spend no iteration
     * on an inner loop that breaks at once on a run-time test, while its fragment shaders do: there a
     * refused case may run, and must then give the C answer (the backends need not agree). */
    bool zink = strncmp(gpuc_get_info(backends[0])->renderer, "zink", 4) == 0;
    for (size_t i = 0; gpuc_get_info(backends[0])->loop_budget > 0 && /* hardware drivers have no budget */
                       i < sizeof cases / sizeof cases[0]; i++)
        for (int b = 0; b < 2; b++) {
            gpuc_kernel *k = NULL;
            ck_assert_msg(gpuc_create_kernel(backends[b], cases[i].src, &(gpuc_kernel_desc){.output = {64, 2}}, &k) ==
                          GPUC_OK, "case %zu, %s: %s", i, b ? "fragment" : "compute", gpuc_errmsg(backends[b]));
            gpuc_array *r = NULL;
            gpuc_status st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_i32(40000)}, 1, &r);
            bool zink_ran = zink && cases[i].want == GPUC_ERROR_LIMIT && st == GPUC_OK;
            ck_assert_msg(st == cases[i].want || zink_ran, "case %zu on %s: %s (%s)", i, b ? "fragment" : "compute",
                          gpuc_status_name(st), gpuc_errmsg(backends[b]));
            if (st == GPUC_OK) {
                float *v = fixture_take_floats(r, 128);
                for (int c = 0; c < 128; c++)
                    ck_assert_float_eq(v[c], 40000.0f);
                free(v);
            }
            gpuc_kernel_free(k);
        }
    gpuc_close(backends[0]);
    gpuc_close(backends[1]);
}
END_TEST

Suite *suite_fragment(void)
{
    Suite *s = suite_create("fragment");
    TCase *tc = fixture_tcase_bare("fragment");
    tcase_add_test(tc, backend_is_chosen_by_option_and_environment);
    tcase_add_test(tc, fragment_matches_compute_bit_for_bit);
    tcase_add_test(tc, fragment_layouts_cover_every_cell_once);
    tcase_add_test(tc, fragment_kernels_take_turns);
    tcase_add_test(tc, fragment_refusals_say_why);
    tcase_add_test(tc, loop_budget_agrees_across_backends);
    suite_add_tcase(s, tc);
    return s;
}
