/* strbuf.h - a growing string for building GLSL text. Once an append fails (out of memory) the
 * buffer stays failed and strbuf_take returns NULL, so callers check once at the end. */
#ifndef GPUC_STRBUF_H
#define GPUC_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;
    size_t len, cap;
    bool failed;
} strbuf;

void strbuf_append(strbuf *sb, const char *s, size_t n);
void strbuf_puts(strbuf *sb, const char *s);
void strbuf_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (caller frees), or NULL if any append failed. Resets sb. */
char *strbuf_take(strbuf *sb);
void strbuf_free(strbuf *sb);

#endif
