/* native_errors.c - see native_errors.h. */
#include "js/native_errors.h"
#include "kernel/source/source_scan.h"

#include <stdio.h>
#include <string.h>

static int lines_before(const char *text, const char *at)
{
    int n = 0;
    for (const char *p = text; p < at; p++)
        n += *p == '\n';
    return n;
}

bool js_native_compile_error(const char *glsl, const char *const *natives, const char *const *names, int n,
                             const char *message, char *out, size_t len)
{
    const char *at = message ? strstr(message, "GLSL error at line ") : NULL;
    int line = 0, column = 0, used = 0;
    if (!glsl || !at || sscanf(at, "GLSL error at line %d%n", &line, &used) != 1)
        return false;
    at += used;
    if (sscanf(at, ", column %d%n", &column, &used) == 1)
        at += used;
    if (strncmp(at, ": ", 2))
        return false;
    at += 2;
    int text_len = (int)strcspn(at, "\n");
    for (int i = 0; i < n; i++) {
        const char *start = strstr(glsl, natives[i]);
        if (!start)
            continue;
        int first = 1 + lines_before(glsl, start), own = line - first + 1;
        if (own < 1 || own > 1 + lines_before(natives[i], natives[i] + strlen(natives[i])))
            continue;
        char quoted[256], where[48], caret[260] = "";
        source_line(natives[i], own, quoted, sizeof quoted);
        if (column > 0)
            snprintf(where, sizeof where, "its line %d, column %d", own, column);
        else
            snprintf(where, sizeof where, "its line %d", own);
        if (column > 0 && column < 256) {
            memset(caret, ' ', (size_t)column - 1);
            caret[column - 1] = '^';
            caret[column] = '\0';
        }
        snprintf(out, len, "native function `%s` (gpuc_add_native_function; every JavaScript kernel created after it "
                 "includes it) does not compile: %s: %.*s\n%5d | %s\n      | %s", names[i], where, text_len, at, own,
                 quoted, caret);
        return true;
    }
    return false;
}
