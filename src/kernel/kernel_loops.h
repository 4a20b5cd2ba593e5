/* kernel_loops.h - a kernel's loops against llvmpipe's loop budget: at creation, refuse what must
 * exceed it or nests too deeply, and decide whether the loops need a run-time guard; after each run
 * of a guarded kernel, read whether a loop was cut short and fail the run if so. */
#ifndef GPUC_KERNEL_LOOPS_H
#define GPUC_KERNEL_LOOPS_H

#include "kernel/codegen/codegen.h"
#include "kernel/kernel.h"
#include "kernel/loops/loop_scan.h"

/* Reads the loops of source (mask is its mask) and checks them: a nest deeper than LOOP_NESTING_MAX
 * or a kernel whose loops must run past the budget fails with GPUC_ERROR_LIMIT (the latter not where the
 * context guards every loop, gpuc_options.guard_all_loops: it trusts no count). Sets k->loop_guard and
 * k->loops (how messages name each loop). The scan stays in *scan for the guard (free it always).
 * A source the reader cannot follow is not an error here: *readable says so, and the caller lets
 * the compiler judge the source first (kernel_loops_unreadable); a loop hidden in a macro, which the
 * reader refuses rather than fails on, is refused at once where there is a budget. */
gpuc_status kernel_loops_check(gpuc_kernel *k, const char *source, const char *mask,
                               const resolved_constant *constants, int nconstants, const kernel_origin *origin,
                               loop_scan *scan, bool *readable);

/* The failure for a source that compiles but whose loops could not be read while the device has a
 * loop budget (on hardware drivers, GPUC_OK). */
gpuc_status kernel_loops_unreadable(gpuc_kernel *k, const char *mask, const loop_scan *scan);

/* Before a guarded kernel or one with capped loops runs: binds the context's loop-status block (made
 * on first use). */
gpuc_status kernel_loops_bind(gpuc_kernel *k);

/* After a run of a guarded kernel (verify) or of one with capped loops (k->loop_caps), one read of the
 * status words (waiting for the run to finish), each cleared again for the next run. With verify:
 * GPUC_ERROR_LIMIT naming the kernel and the loop if one was cut short, else GPUC_OK. With capped loops:
 * *capped is how many cells reached loopMaxIterations in some loop (0 otherwise). */
gpuc_status kernel_loops_after_run(gpuc_kernel *k, bool verify, uint64_t *capped);

/* Frees what kernel_loops_describe allocated for k. */
void kernel_loops_free(gpuc_kernel *k);

#endif
