/* test_main.c - runs every suite (or those named on the command line), each in its own runner so
 * that each prints its own summary line. Exit status 0 only when all pass. */
#include "suites.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct named_suite {
    const char *name;
    Suite *(*make)(void);
} named_suite;

static bool wanted(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return false;
}

int main(int argc, char **argv)
{
#define GPUC_SUITE(name) {#name, suite_##name},
    static const named_suite suites[] = {GPUC_TEST_SUITES};
#undef GPUC_SUITE
    int failed = 0, ran = 0;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        if (!wanted(suites[i].name, argc, argv))
            continue;
        SRunner *sr = srunner_create(suites[i].make());
        printf("== suite %s\n", suites[i].name);
        fflush(stdout);
        srunner_run_all(sr, CK_NORMAL);
        failed += srunner_ntests_failed(sr);
        srunner_free(sr);
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no suite matches; suites are:");
        for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
            fprintf(stderr, " %s", suites[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    printf("== %d suite%s, %d failing test%s\n", ran, ran == 1 ? "" : "s", failed, failed == 1 ? "" : "s");
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
