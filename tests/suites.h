/* suites.h - every Check suite of the test program, grouped by the layer it tests; test_main.c runs them
 * in this order. One line per suite: GPUC_SUITE(name) declares `Suite *suite_name(void)` and runs it as
 * "name" (the Makefile's ALL_SUITES reads these lines). */
#ifndef GPUC_TEST_SUITES_H
#define GPUC_TEST_SUITES_H

#include <check.h>

#define GPUC_TEST_SUITES \
    /* the device layer: contexts, device arrays, handles, threads and fork */ \
    GPUC_SUITE(device) \
    GPUC_SUITE(device_profile) \
    GPUC_SUITE(arrays) \
    GPUC_SUITE(array_copy) \
    GPUC_SUITE(png_input) \
    GPUC_SUITE(handles) \
    GPUC_SUITE(threads) \
    GPUC_SUITE(fork) \
    /* kernels from GLSL source: arguments, outputs, maps, both backends, loops, programs */ \
    GPUC_SUITE(kernels) \
    GPUC_SUITE(errors) \
    GPUC_SUITE(scatter) \
    GPUC_SUITE(graphical) \
    GPUC_SUITE(kernel_map) \
    GPUC_SUITE(fragment) \
    GPUC_SUITE(loops) \
    GPUC_SUITE(loop_proofs) \
    GPUC_SUITE(specialise) \
    GPUC_SUITE(jam) \
    GPUC_SUITE(program_cache) \
    GPUC_SUITE(small_calls) \
    GPUC_SUITE(profile) \
    GPUC_SUITE(vec_arrays) \
    GPUC_SUITE(vec_args) \
    GPUC_SUITE(arg_limits) \
    GPUC_SUITE(dynamic_output) \
    GPUC_SUITE(array_constants) \
    GPUC_SUITE(hostile) \
    /* the JavaScript front end, then the GPU.js fixtures' reader and the suites replaying them */ \
    GPUC_SUITE(js) \
    GPUC_SUITE(js_tutorial) \
    GPUC_SUITE(js_messages) \
    GPUC_SUITE(js_math) \
    GPUC_SUITE(js_order) \
    GPUC_SUITE(js_remainder) \
    GPUC_SUITE(gpujs_cases) \
    GPUC_SUITE(js_features) \
    GPUC_SUITE(js_language) \
    GPUC_SUITE(js_data) \
    GPUC_SUITE(js_suite) \
    GPUC_SUITE(js_forms) \
    /* the algorithms (src/algo) */ \
    GPUC_SUITE(topk) \
    GPUC_SUITE(sort) \
    GPUC_SUITE(compact) \
    GPUC_SUITE(algo_calls) \
    /* the programs: examples, the gpuc tool, the benchmark, the Check kit for users' kernels */ \
    GPUC_SUITE(examples) \
    GPUC_SUITE(cli) \
    GPUC_SUITE(bench_zoo) \
    GPUC_SUITE(bench_gauntlet) \
    GPUC_SUITE(check_kit) \
    /* the distributed calls (libgpuc_mpi) */ \
    GPUC_SUITE(mpi)

#define GPUC_SUITE(name) Suite *suite_##name(void);
GPUC_TEST_SUITES
#undef GPUC_SUITE

#endif
