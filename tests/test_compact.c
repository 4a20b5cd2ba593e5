/* test_compact.c - gpuc_scan and gpuc_compact against plain C loops. */
#include "fixture.h"
#include "suites.h"

Suite *suite_compact(void)
{
    Suite *s = suite_create("compact");
    return s;
}
