/* suites.h - every Check suite of the test program; test_main.c runs them in this order. */
#ifndef GPUC_TEST_SUITES_H
#define GPUC_TEST_SUITES_H

#include <check.h>

Suite *suite_device(void);
Suite *suite_arrays(void);
Suite *suite_kernels(void);
Suite *suite_errors(void);
Suite *suite_scatter(void);
Suite *suite_js(void);
Suite *suite_js_tutorial(void);
Suite *suite_js_features(void);

#define GPUC_TEST_SUITES {"device", suite_device}, {"arrays", suite_arrays}, {"kernels", suite_kernels}, \
    {"errors", suite_errors}, \
    {"scatter", suite_scatter}, \
    {"js", suite_js}, \
    {"js_tutorial", suite_js_tutorial}, \
    {"js_features", suite_js_features}

#endif
