/* sub_kernels.h - kernel maps on JavaScript kernels (sub_kernels.c): the sub-kernels of
 * js_settings.map, loaded before checking and given their keeper functions after it. */
#ifndef GPUC_JS_SUB_KERNELS_H
#define GPUC_JS_SUB_KERNELS_H

#include "js/front_end.h"

/* Resolves js_settings.map: registers sub-kernels given as source, gives each its keeper. */
void js_load_map(js_ctx *c);
/* Writes the keeper functions (after checking: a sub-kernel never called fails here). */
void js_emit_keepers(js_ctx *c);

#endif
