/* loop_guard.h - makes every loop of a kernel report when llvmpipe cut it short.
 * llvmpipe stops all the loops of an invocation after 65,535 iterations in total, silently: the loop
 * running then is left as if it had finished, and every later loop after one iteration. A per-lane
 * iteration count cannot tell (the budget is spent per SIMD vector, not per lane), but how a loop was
 * left can: a loop ends by its test turning false, a break, a return or a discard, and the guard
 * notes the first two in a flag. A loop left with its flag clear was cut: gpuc_loop_cut(id) records
 * it and main() reports it to the host (codegen's loop_status block). Each loop becomes
 *     {bool gpuc_exit_N = false; INIT; if (gpuc_continues((COND), gpuc_exit_N)) do BODY
 *      while (gpuc_continues((STEP, COND), gpuc_exit_N)); if (!gpuc_exit_N) gpuc_loop_cut(Nu);}
 * (a while loop alike; a do-while keeps its shape) and each `break` of it
 * {gpuc_exit_N = true; break;}. The test at the bottom runs before llvmpipe counts the iteration, so
 * the count is exact: a loop cut right after its last iteration has already set its flag (a loop with
 * its test on top spends one more iteration of the budget on the test that ends it). `continue` in a
 * do-while runs the bottom test, which holds the step, as in the for loop. Lines are kept; columns
 * on a loop's lines move. */
#ifndef GPUC_LOOP_GUARD_H
#define GPUC_LOOP_GUARD_H

#include "kernel/loops/loop_scan.h"

/* The guarded copy of src (caller frees), or NULL when out of memory. src has the offsets of mask,
 * the mask the scan read (the kernel's source, or its length-keeping rewrite); loop i of the scan
 * reports id i + 1. Lines stay where they were: copied conditions and steps are put on one line. */
char *loop_guard_source(const char *src, const char *mask, const loop_scan *scan);

#endif
