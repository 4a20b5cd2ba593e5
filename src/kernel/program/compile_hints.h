/* compile_hints.h - what to write instead, when a GLSL kernel fails to compile at a GPU.js habit. */
#ifndef GPUC_COMPILE_HINTS_H
#define GPUC_COMPILE_HINTS_H

#include <stdbool.h>
#include <stddef.h>

/* Run only once the compiler has refused a kernel: whether the token the compiler stopped at on `line`
 * of user_source (column 1-based; 0 when the driver gives none, then the line must hold exactly one
 * habit) is a GPU.js habit: `this.thread.x`, `output.x`, an unknown `constants.n` (the constants
 * given are read from glsl, the program gpuc generated), `Math.floor`, `var`/`let`, an untyped
 * `const`, `function`, `===`. If so writes what to write instead into hint and the habit's column
 * into *column. A kernel that compiles never gets here, so nothing here changes what compiles. */
bool compile_hint(const char *user_source, const char *glsl, int line, int *column, char *hint, size_t len);

#endif
