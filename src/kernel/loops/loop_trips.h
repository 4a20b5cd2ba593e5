/* loop_trips.h - how many times one `for` loop runs, read from its header: exactly, or at most, or
 * unknown. Counted: `for (int|uint v = A; v < B; v++)` and its variants (<=, >, >=, != with a step
 * of one, += / -= a constant step, the bound on either side) when A, B and the step are integer
 * literals, constants.<name>, or names of global `const int` declarations and `#define` values (each
 * declared once, in a source without #if or #undef), with + - * / and parentheses, and v is only
 * read anywhere but in the step (loop_counter.h says what counts as a read), in a source whose
 * preprocessing the reader follows (source_scan.h's source_unfollowed). A condition `v < B && other`
 * bounds the loop from above only (the JavaScript front end's capped loops are written so). */
#ifndef GPUC_LOOP_TRIPS_H
#define GPUC_LOOP_TRIPS_H

#include "kernel/loops/loop_scan.h"

#include <stdint.h>

typedef struct loop_constant {
    const char *name;
    double value;
} loop_constant;

/* The values of global `const int` and `#define` names a header may use. */
#define LOOP_NAMES_MAX 64
typedef struct named_values {
    loop_constant list[LOOP_NAMES_MAX];
    char names[LOOP_NAMES_MAX][KERNEL_NAME_MAX];
    int n;
} named_values;

typedef struct loop_trips {
    int64_t at_least; /* 0 unless the count is exact and nothing leaves the loop early */
    int64_t at_most;  /* -1: unknown */
} loop_trips;

/* Reads the named values of src (mask is its mask, scan its loops), with constants.<name> known. */
void loop_names_read(named_values *nv, const char *src, const char *mask, const loop_scan *scan,
                     const loop_constant *constants, int nconstants);

/* The trips of for loop l (a LOOP_FOR of scan). */
loop_trips loop_trips_of(const char *mask, const loop_scan *scan, const loop_site *l, const loop_constant *constants,
                         int nconstants, const named_values *named);

#endif
