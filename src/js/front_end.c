/* front_end.c - the translation's one way out on an error: js_fail writes the message (the source it
 * comes from, line:column) into the caller's buffer and jumps back to js_translate's setjmp. */
#include "js/front_end.h"

#include <stdarg.h>
#include <stdio.h>

_Noreturn void js_fail(js_ctx *c, const js_node *at, const char *fmt, ...)
{
    int n = 0;
    if (c->origin)
        n = snprintf(c->err, c->errlen, "in %s: ", c->origin);
    if (n >= 0 && (size_t)n < c->errlen)
        n += snprintf(c->err + n, c->errlen - (size_t)n, "%d:%d: ", at ? at->line : 1, at ? at->col : 1);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    longjmp(c->fail, 1);
}
