/* map_text.h - GPU.js's createKernelMap sub-kernels, as JavaScript text (map_text.c). */
#ifndef GPUC_JS_MAP_TEXT_H
#define GPUC_JS_MAP_TEXT_H

#include "js/translate.h"

/* Reads `{ key: function, ... }` or `[function, ...]` into out[0..*n) (at most max): names are the
 * keys (or "0", "1"... for an array), functions a name or a function's source; both malloc'd (free
 * them with js_free_map_text). On failure err says what and where, and nothing is left allocated. */
bool js_read_map_text(const char *text, js_map_entry *out, int max, int *n, char *err, size_t errlen);

void js_free_map_text(js_map_entry *entries, int n);

#endif
