/* compile_hints.c - see compile_hints.h. A habit is found on the one line the compiler named, and only
 * where the compiler's column falls inside it: a kernel that fails for another reason keeps the
 * compiler's own words. */
#include "kernel/program/compile_hints.h"
#include "kernel/source/source_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define LINE_MAX_CHARS 1024
#define MAX_TOKENS 256

typedef struct token {
    const char *text;
    int len, column; /* column 1-based */
} token;

static bool is_word(const token *t, const char *w)
{
    return t && (int)strlen(w) == t->len && !strncmp(t->text, w, (size_t)t->len);
}

static bool is_name(const token *t)
{
    return t && (isalpha((unsigned char)t->text[0]) || t->text[0] == '_');
}

/* Splits a line into names, numbers, `===`/`!==` and single characters; stops at a // comment and
 * skips block comments that close on the line. */
static int tokenize(const char *line, token *out, int most)
{
    int n = 0;
    for (const char *p = line; *p && n < most;) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            break;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            if (!end)
                break;
            p = end + 2;
        } else {
            const char *s = p;
            if (isalnum((unsigned char)*p) || *p == '_')
                while (isalnum((unsigned char)*p) || *p == '_')
                    p++;
            else if ((p[0] == '=' || p[0] == '!') && p[1] == '=' && p[2] == '=')
                p += 3;
            else
                p++;
            out[n++] = (token){s, (int)(p - s), (int)(s - line) + 1};
        }
    }
    return n;
}

/* The kernel's constants as gpuc declared them in glsl: numbers and Booleans are fields of
 * gpuc_constants_t, arrays are read through gpuc_cnstv<name>(int i) (kernel_prelude.glsl). Writes
 * "`a`, `b`" into out; returns whether `name` (name_len chars) is among them. */
static bool given_constants(const char *glsl, const char *name, int name_len, char *out, size_t len)
{
    bool found = false;
    size_t used = 0;
    out[0] = '\0';
    const char *fields = strstr(glsl, "struct gpuc_constants_t {");
    const char *fields_end = fields ? strstr(fields, "};") : NULL;
    for (const char *p = glsl; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *s = NULL, *e;
        if (fields && p > fields && p < fields_end) {
            e = p + strcspn(p, ";\n");
            if (*e != ';')
                continue;
            for (s = e; s > p && (isalnum((unsigned char)s[-1]) || s[-1] == '_'); s--)
                ;
        } else if (!strncmp(p, "float gpuc_cnstv", 16) && (e = strstr(p, "(int i)")) && e < p + strcspn(p, "\n")) {
            s = p + 16;
        } else {
            continue;
        }
        int n = (int)(e - s);
        if (n == 0)
            continue;
        found = found || (n == name_len && !strncmp(s, name, (size_t)n));
        int w = snprintf(out + used, len - used, "%s`%.*s`", used ? ", " : "", n, s);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
    }
    return found;
}

/* What to say of constants.<name> when name is not one of them; false when it is. */
static bool unknown_constant(const char *glsl, const token *name, char *out, size_t len)
{
    char list[512];
    if (given_constants(glsl, name->text, name->len, list, sizeof list))
        return false;
    if (list[0])
        snprintf(out, len, "`%.*s` is not among the kernel's constants, which are %s (give it in "
                 "gpuc_kernel_desc.constants)", name->len, name->text, list);
    else
        snprintf(out, len, "the kernel has no constants: give `%.*s` in gpuc_kernel_desc.constants", name->len,
                 name->text);
    return true;
}

/* GLSL's own form of Math.<name> into out; false when there is none. */
static bool math_in_glsl(const token *name, char *out, size_t len)
{
    static const char *const same[] = {"abs",  "floor", "ceil", "trunc", "sqrt", "pow",  "exp",   "exp2",
                                       "log",  "log2",  "sin",  "cos",   "tan",  "asin", "acos",  "atan",
                                       "min",  "max",   "sign", "sinh",  "cosh", "tanh", "asinh", "acosh",
                                       "atanh"};
    static const char *const other[][2] = {
        {"atan2", "`atan(y, x)`"},
        {"round", "`floor(x + 0.5)` (GPU.js's Math.round)"},
        {"log10", "`log(x) / log(10.0)`"},
        {"hypot", "`length(vec2(x, y))`"},
        {"cbrt", "`sign(x) * pow(abs(x), 1.0 / 3.0)`"},
        {"fround", "`float(x)`"},
        {"PI", "`3.14159265` (or `radians(180.0)`)"},
        {"E", "`exp(1.0)`"},
        {"SQRT2", "`sqrt(2.0)`"},
        {"LN2", "`log(2.0)`"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (is_word(name, same[i])) {
            snprintf(out, len, "`%s(...)`", same[i]);
            return true;
        }
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        if (is_word(name, other[i][0])) {
            snprintf(out, len, "%s", other[i][1]);
            return true;
        }
    return false;
}

/* The habit starting at token t[i] (n tokens on the line): its hint and the index of its last token,
 * or -1 when t[i] starts none. */
static int habit_at(const token *t, int i, int n, const char *glsl, char *hint, size_t len)
{
    const token *next = i + 1 < n ? &t[i + 1] : NULL, *after = i + 2 < n ? &t[i + 2] : NULL;
    const token *third = i + 3 < n ? &t[i + 3] : NULL, *fourth = i + 4 < n ? &t[i + 4] : NULL;
    bool member = is_word(next, ".") && is_name(after); /* t[i].after */
    if (is_word(&t[i], "this")) {
        bool field = member && is_word(third, ".") && is_name(fourth); /* this.after.fourth */
        if (field && is_word(after, "thread")) {
            snprintf(hint, len, "`this.thread.%.*s` is JavaScript; in GLSL kernels write `thread.%.*s`", fourth->len,
                     fourth->text, fourth->len, fourth->text);
            return i + 4;
        }
        if (field && is_word(after, "output")) {
            snprintf(hint, len, "`this.output.%.*s` is JavaScript; in GLSL kernels the output size is `outputSize`: "
                     "write `outputSize.%.*s`", fourth->len, fourth->text, fourth->len, fourth->text);
            return i + 4;
        }
        if (field && is_word(after, "constants")) {
            char unknown[640] = "";
            char why[660] = "";
            if (unknown_constant(glsl, fourth, unknown, sizeof unknown))
                snprintf(why, sizeof why, "; and %s", unknown);
            snprintf(hint, len, "`this.constants.%.*s` is JavaScript; in GLSL kernels write `constants.%.*s`%s",
                     fourth->len, fourth->text, fourth->len, fourth->text, why);
            return i + 4;
        }
        if (member && is_word(after, "color")) {
            snprintf(hint, len, "`this.color(...)` is JavaScript; a GLSL graphical kernel calls `color(r, g, b)`");
            return i + 2;
        }
        snprintf(hint, len, "`this` is JavaScript; GLSL kernels have none: write `thread.x`, `outputSize.x`, "
                 "`constants.<name>`");
        return i;
    }
    if (is_word(&t[i], "output")) {
        snprintf(hint, len, "`output` is a word GLSL reserves; in GLSL kernels the output size is `outputSize` "
                 "(`outputSize.x`)");
        return member ? i + 2 : i;
    }
    if (is_word(&t[i], "constants") && member && unknown_constant(glsl, after, hint, len))
        return i + 2;
    if (is_word(&t[i], "Math") && member) {
        char glsl_form[96];
        if (math_in_glsl(after, glsl_form, sizeof glsl_form))
            snprintf(hint, len, "`Math.%.*s` is JavaScript; GLSL has no Math: write %s", after->len, after->text,
                     glsl_form);
        else
            snprintf(hint, len, "`Math.%.*s` is JavaScript; GLSL has no Math (its functions have plain names: "
                     "`floor(x)`, `sqrt(x)`); gpuc_create_kernel_js runs the kernel as JavaScript", after->len,
                     after->text);
        return i + 2;
    }
    if ((is_word(&t[i], "var") || is_word(&t[i], "let")) && is_name(next)) {
        bool counter = i >= 2 && is_word(&t[i - 1], "(") && is_word(&t[i - 2], "for"); /* for (let i = 0; ... */
        snprintf(hint, len, "`%.*s` is JavaScript; GLSL declares a variable with its type: `%s %.*s` (or %s)",
                 t[i].len, t[i].text, counter ? "int" : "float", next->len, next->text,
                 counter ? "float" : "int, vec2...");
        return i + 1;
    }
    if (is_word(&t[i], "const") && is_name(next) && is_word(after, "=")) {
        snprintf(hint, len, "`const %.*s` needs a type in GLSL: `const float %.*s = ...` (or int, vec2...)", next->len,
                 next->text, next->len, next->text);
        return i + 1;
    }
    if (is_word(&t[i], "function")) {
        snprintf(hint, len, "`function` is JavaScript; a GLSL function starts with its return type, as in "
                 "`float f(float x)`; gpuc_create_kernel_js takes GPU.js's JavaScript as written");
        return is_name(next) ? i + 1 : i;
    }
    if (is_word(&t[i], "===") || is_word(&t[i], "!==")) {
        snprintf(hint, len, "`%.*s` is JavaScript; GLSL compares with `%.2s`", t[i].len, t[i].text,
                 t[i].text[0] == '=' ? "==" : "!=");
        return i;
    }
    return -1;
}

bool compile_hint(const char *user_source, const char *glsl, int line, int *column, char *hint, size_t len)
{
    char text[LINE_MAX_CHARS];
    token t[MAX_TOKENS];
    if (!user_source || !glsl || line < 1)
        return false;
    source_line(user_source, line, text, sizeof text);
    int n = tokenize(text, t, MAX_TOKENS), found = 0, want = *column;
    char candidate[1024];
    for (int i = 0; i < n; i++) {
        int last = habit_at(t, i, n, glsl, candidate, sizeof candidate);
        if (last < 0)
            continue;
        int end = t[last].column + t[last].len; /* one past the habit's last character */
        if (want > 0 && want >= t[i].column && want < end) {
            snprintf(hint, len, "%s", candidate);
            *column = t[i].column;
            return true;
        }
        if (want == 0 && found++ == 0) {
            snprintf(hint, len, "%s", candidate);
            *column = t[i].column;
        }
        i = last;
    }
    return want == 0 && found == 1;
}
