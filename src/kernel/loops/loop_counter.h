/* loop_counter.h - whether a for loop's counter is only read in a stretch of its loop. A loop's trips
 * are counted only when its counter changes in its step alone, and the reader cannot see every way
 * GLSL writes a variable, so it lists the ways a variable is read instead: every occurrence of the
 * counter must be one of them. Read: an operand of an operator that yields a new value (`i + 1`,
 * `i < n`, `-i`, `c ? i : j`), an index (`a[i]`), a value assigned to something else (`x = i`), a
 * return value, and an argument the callee takes `in`: a constructor, a GLSL 4.30 built-in without
 * out or inout parameters, gpuc's own helpers, a helper of the source whose parameter there is not
 * out or inout. Anything else is a write: assignments of every form, ++ and -- on either side,
 * parentheses, swizzles and indices around the counter on the left of those, a comma expression's
 * operand in parentheses, an argument of frexp, modf, uaddCarry, usubBorrow, umulExtended,
 * imulExtended, the atomic functions, an out or inout parameter, or a function the reader does not
 * know, and an occurrence next to a name or a keyword it does not expect (a declaration shadowing
 * the counter, a macro). Works on the mask (source_scan.h); a member selector `.i` is not the counter. */
#ifndef GPUC_LOOP_COUNTER_H
#define GPUC_LOOP_COUNTER_H

#include "kernel/loops/loop_scan.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether every occurrence of the variable `var` in [begin, end) of mask is a read, as above;
 * function is the scan's function that holds the stretch (its array parameters name accessors). */
bool loop_counter_only_read(const char *mask, size_t begin, size_t end, const char *var, const loop_scan *scan,
                            int function);

#endif
