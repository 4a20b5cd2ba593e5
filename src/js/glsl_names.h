/* glsl_names.h - the GLSL names JavaScript names become (see glsl_names.c). */
#ifndef GPUC_JS_GLSL_NAMES_H
#define GPUC_JS_GLSL_NAMES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct js_ctx js_ctx;

/* A mangled GLSL name for a JS identifier ("js_" + name, escaped when needed). */
const char *js_mangle(js_ctx *c, const char *prefix, const char *name);
/* Whether name, used as is in GLSL, would be a keyword, a reserved word, a built-in type or a name
 * gpuc's kernel code declares (constants keep their names in GLSL's constants.<name>). */
bool js_glsl_reserved(const char *name);
/* The name constant `name` has in GLSL (constants.<it>): itself, or an escaped "jscx_..." form when
 * it is reserved there or holds a `$`. */
void js_constant_glsl(const char *name, char *out, size_t n);

#endif
