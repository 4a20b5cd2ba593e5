/* parser.h - reads a JavaScript kernel source into a syntax tree. The source is a sequence of function
 * declarations or expressions; the last one is the kernel, earlier ones are helpers it may call.
 * Constructs GPU.js rejects (strings, object literals, arrow functions inside a kernel, for...of,
 * `new`, ...) are refused here with their line:column. */
#ifndef GPUC_JS_PARSER_H
#define GPUC_JS_PARSER_H

#include "js/arena.h"
#include "js/ast.h"

/* A parsed source: its top-level functions in source order (N_FUNCDECL / N_FUNCEXPR nodes; for each,
 * list = parameters (N_IDENT), a = body (N_BLOCK)). */
typedef struct js_program {
    js_node **funcs;
    int nfuncs;
} js_program;

/* Parses src into prog (nodes in arena). On failure writes "L:C: message" into err and returns false. */
bool js_parse(const char *src, js_arena *arena, js_program *prog, char *err, size_t errlen);

#endif
