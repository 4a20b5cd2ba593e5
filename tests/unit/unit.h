/* unit.h - the GL-free unit tests of src/kernel/source/ and src/kernel/loops/ (build/tests/gpuc-unit):
 * the readers checked on kernel sources given as strings, against answers worked out by hand. No
 * context, no driver: the binary links those two rooms and src/util/ only (scripts/check-kernel-rooms.sh
 * keeps them so), and runs in milliseconds. */
#ifndef GPUC_UNIT_H
#define GPUC_UNIT_H

#include <check.h>

Suite *unit_source_suite(void);
Suite *unit_loops_suite(void);
Suite *unit_jam_suite(void);

#endif
