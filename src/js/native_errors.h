/* native_errors.h - a JavaScript kernel's GLSL that fails to compile inside a native function the user
 * added: the message blames that function, at its own line, not gpuc's front end. */
#ifndef GPUC_JS_NATIVE_ERRORS_H
#define GPUC_JS_NATIVE_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

/* message is the compile error program_cache.c wrote for glsl ("... GLSL error at line L, column C:
 * text\n" and the quoted line). When line L falls inside the text of natives[i] (names[i] its name;
 * n of them) as glsl holds it, writes "native function `name` (...) does not compile: its line l,
 * column C: text" and that line, quoted, into out, and returns true. */
bool js_native_compile_error(const char *glsl, const char *const *natives, const char *const *names, int n,
                             const char *message, char *out, size_t len);

#endif
