/* functions.h - the functions a translation knows: the JavaScript helpers, registered by name (from
 * the kernel's source, hoisted out of the bodies they are nested in, added with gpuc_add_function,
 * brought as a sub-kernel's source), and the native GLSL ones; looked up by name where a call is
 * checked. The translator and the kernel-map code (sub_kernels.c) both register helpers here. */
#ifndef GPUC_JS_FUNCTIONS_H
#define GPUC_JS_FUNCTIONS_H

#include "js/front_end.h"

/* Registers fn as a helper (by its name; origin names its source in messages). */
js_func *js_register_func(js_ctx *c, js_node *fn, const char *origin);
/* Registers the function declarations nested in fn's body as helpers. */
void js_hoist_body(js_ctx *c, js_node *fn, const char *origin);
/* The helper named name, or NULL. */
js_func *js_find_func(js_ctx *c, const char *name);
/* The index in c->natives of the native function named name, or -1. */
int js_find_native(js_ctx *c, const char *name);

#endif
