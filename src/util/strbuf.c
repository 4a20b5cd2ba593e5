/* strbuf.c - see strbuf.h. */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 1024;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void strbuf_append(strbuf *sb, const char *s, size_t n)
{
    if (!reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_puts(strbuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s));
}

void strbuf_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(sb, (size_t)n)) {
        sb->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

char *strbuf_take(strbuf *sb)
{
    char *p = sb->failed ? NULL : sb->data;
    if (sb->failed)
        free(sb->data);
    if (p == NULL && !sb->failed) {
        p = malloc(1);
        if (p)
            p[0] = '\0';
    }
    *sb = (strbuf){0};
    return p;
}

void strbuf_free(strbuf *sb)
{
    free(sb->data);
    *sb = (strbuf){0};
}
