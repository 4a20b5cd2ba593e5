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

/* Texel reads. An array whose elements are one float or int each, read through its rgba view, holds
 * four neighbouring elements in one texel: where the cells' copies of a statement in a fused loop
 * each call its accessor with the same leading arguments and thread.x last (matmul's b(i, thread.x),
 * cell c reading element x + c of the row), the jam reads the group's texels once before the copies,
 * gpuc_texel_<name>(<the same arguments>, thread.x + 4q) for q = 0 .. cells/4 - 1, and cell c takes
 * component c % 4 of texel c / 4: one load for four cells where each cell's read was a gather of its
 * own on llvmpipe (matmul 512: 0.26-0.34x the time; docs/performance/cpu-runtimes.md). Right because
 * thread.x is a multiple of 4 (the caller's guarantee below), the leading arguments read nothing a
 * cell may change or that differs between cells (what a fused loop's header may read, helpers'
 * results and constructors of those), and gpuc_texel_<name> returns exactly the four elements
 * <name> returns at x .. x + 3 (array_access.glsl's texel_read: one texel load where the array's
 * rows are whole texels, four element reads where they are not).
 * Windows. Where the last argument is thread.x + e instead, e the same in every cell and compiled in
 * (numbers, global consts, #defined numbers, counters of unrolled loops), written in the call or
 * through a local `int xx = thread.x + e` (declared once, never written), cell c reads element
 * thread.x + e + c: the jam reads the cells / 4 + 1 texels from thread.x + (e & ~3) once (a multiple
 * of 4, as the texel read asks) and cell c takes element (e & 3) + c of them, both indices constants
 * once the compiler folds e (conv5 1024^2: 0.5-0.7x the time; docs/performance/cpu-runtimes.md). A
 * pick at an index not compiled in costs more than the gathers it saves, so such reads stay per cell.
 * Leading arguments may name locals every cell computes alike (`int yy = thread.y + j - 2`: declared
 * once, never written, initialised from what every cell computes alike), as cell 0 has them.
 * To compile e in, a fused loop `for (int i = A; i < B; i++)` (<=, ++i, i += 1; A and B decimal whole
 * numbers) of at most 8 trips, with no loop in its body, is unrolled where its body reads a window
 * whose e names i: written once per trip, each copy a block that starts `const int i = <value>;`. */
typedef struct kernel_jam_texels {
    const char *name; /* the array's accessor (its parameter's name in the program) */
    const char *type; /* its texel's GLSL type: vec4 or ivec4 */
} kernel_jam_texels;

/* The text of gpuc_jam (caller frees) for the kernel function `kernel` of `text` (comments may be
 * present; the program's user part, after gpuc's rewrites, where array reads call gpuc's accessors),
 * computing in one call the results of the `cells` cells thread.x + 0 .. thread.x + cells - 1, which
 * the caller guarantees lie in one row (thread.y and .z the same), with thread.x a multiple of 4
 * where it gives texels (nothing else here depends on where a group starts: kernel.h's kernel_jam_tails
 * groups start anywhere in a row, and get none). Reads of the ntexels arrays of `texels` may be made
 * a texel at a time (above; cells a multiple of 4); texel_used[i] (when given) says whether the text
 * calls gpuc_texel_ of texels[i], window_used[i] (when given) whether one of those reads is a window.
 * NULL when refused or out of memory, with the reason in *why (a static string). */
char *kernel_jam(const char *text, const char *kernel, int cells, const kernel_jam_texels *texels, int ntexels,
                 bool *texel_used, bool *window_used, const char **why);

#endif
