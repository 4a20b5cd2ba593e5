/* glsl_template.c - see glsl_template.h. */
#include "kernel/codegen/glsl_template.h"

#include <string.h>

/* Finds the text of a section: from the line after "//@ name" to the next "//@ " line. The drivers
 * build their kernels' sources from these files at every call (their kept kernels are found by the
 * source), so the search jumps from marker to marker with strstr rather than testing every line. */
static bool find_section(const char *file, const char *section, const char **begin, const char **end)
{
    size_t nlen = strlen(section);
    for (const char *p = file ? strstr(file, "//@ ") : NULL; p; p = strstr(p + 4, "//@ ")) {
        bool line_start = p == file || p[-1] == '\n';
        if (!line_start || strncmp(p + 4, section, nlen) != 0 || (p[4 + nlen] != '\n' && p[4 + nlen]))
            continue;
        const char *b = strchr(p, '\n');
        b = b ? b + 1 : p + strlen(p);
        const char *e = strstr(b, "\n//@ ");
        *begin = b;
        *end = e ? e + 1 : b + strlen(b);
        return true;
    }
    return false;
}

static const char *field_value(const char *const *fields, const char *key, size_t klen)
{
    for (; fields && fields[0]; fields += 2)
        if (strlen(fields[0]) == klen && !strncmp(fields[0], key, klen))
            return fields[1];
    return NULL;
}

bool glsl_emit(strbuf *sb, const char *file, const char *section, const char *const *fields)
{
    const char *b, *e;
    if (!find_section(file, section, &b, &e))
        return false;
    while (e > b && (e[-1] == '\n') && e - 1 > b && e[-2] == '\n') /* drop blank lines at the end */
        e--;
    for (const char *p = b; p < e;) {
        const char *dollar = memchr(p, '$', (size_t)(e - p));
        if (!dollar) {
            strbuf_append(sb, p, (size_t)(e - p));
            break;
        }
        strbuf_append(sb, p, (size_t)(dollar - p));
        const char *k = dollar + 1;
        while (k < e && ((*k >= 'A' && *k <= 'Z') || *k == '_' || (*k >= '0' && *k <= '9')))
            k++;
        const char *value = field_value(fields, dollar + 1, (size_t)(k - dollar - 1));
        if (!value)
            return false;
        strbuf_puts(sb, value);
        p = k;
    }
    return true;
}
