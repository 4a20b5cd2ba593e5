/* unit_main.c - runs the unit suites (unit.h): one line with their checks, failures and time, then
 * Check's message for each failure. Exit status 0 only when all pass. CK_VERBOSITY set gives Check's
 * own output instead. */
#include "unit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void)
{
    bool check_output = getenv("CK_VERBOSITY") != NULL;
    SRunner *sr = srunner_create(unit_source_suite());
    srunner_add_suite(sr, unit_loops_suite());
    srunner_add_suite(sr, unit_jam_suite());
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    srunner_run_all(sr, check_output ? CK_ENV : CK_SILENT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int checks = srunner_ntests_run(sr), failures = srunner_ntests_failed(sr);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("== unit (GL-free readers) %4d checks, %d failure%s, %6.1f ms\n", checks, failures,
           failures == 1 ? "" : "s", ms);
    if (failures && !check_output) {
        TestResult **failed = srunner_failures(sr);
        for (int i = 0; i < failures; i++)
            printf("%s:%d:%s:%s: %s\n", tr_lfile(failed[i]), tr_lno(failed[i]),
                   tr_rtype(failed[i]) == CK_ERROR ? "E" : "F", tr_tcname(failed[i]), tr_msg(failed[i]));
        free(failed);
    }
    srunner_free(sr);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
