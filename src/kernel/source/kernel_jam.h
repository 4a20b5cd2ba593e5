/* kernel_jam.h - several neighbouring cells of a row computed in one call of the kernel's body, their
 * counted loops fused into one (unroll-and-jam), so that a read every cell makes at the same index
 * (matmul's a[thread.y][i], a stencil's weights, nbody's bodies[j]) is made once for all of them.
 *
 * On llvmpipe every array read is a gather per SIMD lane, also where the lanes read one address: a
 * read shared by 4 cells costs a quarter (matmul 512: 0.5x the CPU time of one cell per invocation;
 * docs/performance/cpu-runtimes.md, lever 2). The rewrite works on the kernel's program text after
 * gpuc's own rewrites (array reads are accessor calls there) and is sound by construction: each cell
 * gets its own copy of every statement, its locals renamed (gpuc_j<C>_<name>) and thread.x read as
 * (thread.x + C), in the cell's own order, so a cell computes what the kernel computes for it alone;
 * a loop is fused (one header, the cells' copies of the body inside) only where its header reads
 * nothing a cell may change or that differs between cells (numbers, constants, a global const or a
 * #defined number, uniforms, thread.y and .z, outer fused counters), and the body never writes its
 * counters.
 * The jam is made only where it pays: where a fused loop calls something (an array's accessor, a
 * builtin) with its counter and nothing a cell owns but thread.x as an offset (matmul's a(thread.y, i),
 * a stencil's w(j, i) or img(thread.y + j, thread.x + i)); a kernel whose cells each read a chunk of
 * their own (a[thread.x * 4096 + i]) shares nothing and would only lose the lanes the jam takes
 * (topk's count pass: 1.7x slower jammed). Whatever the reader does not follow is refused, and the
 * kernel keeps one cell per call:
 * - a preprocessor line after the kernel function's start, or one other than #define, #if 0 / #if 1
 *   and their branches, #pragma, #extension and #line; a macro in the code that is not a plain
 *   number (source_unfollowed); a global variable (cells would share it); a helper function that reads
 *   `thread`, calls the kernel, or names a gl_ variable;
 * - in the kernel: break, continue, discard, a return other than one at the top of its body; gl_
 *   names; `thread` other than read as thread.x / .y / .z; thread's components or a counter passed
 *   whole to a function that may write its argument (one the source defines, or modf, frexp and the
 *   carry builtins); nesting deeper than the walker goes.
 * Before the jam is tried, kernel.c asks the loop reader (loops/loop_counter.h, a list of the forms
 * that are reads) to prove every use of `thread` a read; this file's write checks are then a second
 * line, a list of the writes GLSL has.
 * A copy the reader misjudges (a declaration it does not see) fails to compile rather than compute
 * wrongly (two declarations in one scope); the caller then compiles the kernel unjammed. */
#ifndef GPUC_KERNEL_JAM_H
#define GPUC_KERNEL_JAM_H

#include "kernel/source/source_scan.h"

/* The name of the function kernel_jam writes: void gpuc_jam(out T gpuc_jam_0, ..., out T gpuc_jam_<C-1>). */
#define KERNEL_JAM_FUNCTION "gpuc_jam"

/* The text of gpuc_jam (caller frees) for the kernel function `kernel` of `text` (comments may be
 * present; the program's user part, after gpuc's rewrites, where array reads call gpuc's accessors),
 * computing in one call the results of the `cells` cells thread.x + 0 .. thread.x + cells - 1, which
 * the caller guarantees lie in one row (thread.y and .z the same). NULL when refused or out of
 * memory, with the reason in *why (a static string). */
char *kernel_jam(const char *text, const char *kernel, int cells, const char **why);

#endif
