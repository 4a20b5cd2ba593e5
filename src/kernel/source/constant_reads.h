/* constant_reads.h - rewriting a GLSL kernel's reads of array constants, constants.NAME[i][j], into
 * calls of the accessor gpuc declares for each (glsl/kernel_prelude.glsl, constant_array), in place.
 * Text only (no GL), so the GLSL fuzzer runs it. */
#ifndef GPUC_CONSTANT_READS_H
#define GPUC_CONSTANT_READS_H

#include "kernel/source/kernel_types.h"

#include <stddef.h>

/* Rewrites each read constants.NAME[i]([j]([k])) of an array constant in text into
 * gpuc_cnstvNAME(i(, j(, k))), keeping every offset and newline (text may be NULL: only check). mask
 * is the masked source text was made from. Returns (size_t)-1, or the offset of a use that is not
 * such a read (the array alone, or another number of indices than its dimensions), with *bad the
 * constant's index; text is then unchanged. */
size_t constant_reads_rewrite(char *text, const char *mask, const resolved_constant *c, int n, int *bad);

#endif
