/* glsl_template.h - the GLSL sources of glsl/ (embedded at build time) and filling in their sections.
 * A file is split into sections by lines "//@ name"; a section's text may hold fields $KEY. */
#ifndef GPUC_GLSL_TEMPLATE_H
#define GPUC_GLSL_TEMPLATE_H

#include "util/strbuf.h"

#include <stdbool.h>

extern const char gpuc_glsl_kernel_prelude[];
extern const char gpuc_glsl_array_access[];
extern const char gpuc_glsl_compute_main[];
extern const char gpuc_glsl_fragment_main[];

/* Appends section `section` of `file` to sb with every $KEY replaced by its value. `fields` lists
 * key, value, key, value, ..., NULL. Returns false (a bug in gpuc, not in the user's kernel) when the
 * section or a field is missing. */
bool glsl_emit(strbuf *sb, const char *file, const char *section, const char *const *fields);

#endif
