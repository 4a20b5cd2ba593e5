/* source_preprocessor.c - which lines of a GLSL kernel the preprocessor keeps, as far as gpuc can know
 * before the driver runs it: `#if 0` and `#if 1 ... #else` branches are dropped as the compiler drops
 * them; other conditionals (#ifdef, #if EXPR) are left to the compiler, but may not decide whether a
 * function exists, since gpuc picks the kernel (the last function) and its helpers itself. */
#include "kernel/source/source_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper #if nesting than this is read as conditionals gpuc cannot evaluate. */
#define MAX_CONDITIONALS 64

typedef enum branch { BRANCH_KEPT, BRANCH_DROPPED, BRANCH_UNKNOWN } branch;

typedef struct conditional {
    branch now;   /* the branch the text is in at present */
    bool taken;   /* a known earlier branch was kept, so every later one is dropped */
    size_t at;    /* offset of the #if line */
} conditional;

typedef struct walker {
    conditional stack[MAX_CONDITIONALS];
    int depth, overflow;
    size_t unknown_at; /* the innermost open conditional gpuc cannot evaluate, or (size_t)-1 */
} walker;

/* 0 or 1 for an `#if` / `#elif` whose condition is that literal, -1 for anything else. */
static int literal_condition(const char *arg, size_t len)
{
    while (len && text_is_blank(arg[len - 1]))
        len--;
    if (len == 1 && (arg[0] == '0' || arg[0] == '1'))
        return arg[0] - '0';
    return -1;
}

static bool dropped(const walker *w)
{
    for (int i = 0; i < w->depth; i++)
        if (w->stack[i].now == BRANCH_DROPPED)
            return true;
    return false;
}

static void find_unknown(walker *w)
{
    w->unknown_at = (size_t)-1;
    for (int i = 0; i < w->depth; i++)
        if (w->stack[i].now == BRANCH_UNKNOWN)
            w->unknown_at = w->stack[i].at;
}

/* Applies the directive `name arg` on the line at offset at. */
static void directive(walker *w, const char *name, size_t nlen, const char *arg, size_t alen, size_t at)
{
    bool is_if = nlen == 2 && !strncmp(name, "if", 2);
    if (is_if || (nlen == 5 && !strncmp(name, "ifdef", 5)) || (nlen == 6 && !strncmp(name, "ifndef", 6))) {
        if (w->depth == MAX_CONDITIONALS) {
            w->overflow++;
            if (w->unknown_at == (size_t)-1)
                w->unknown_at = at;
            return;
        }
        int lit = is_if ? literal_condition(arg, alen) : -1;
        w->stack[w->depth++] = (conditional){lit == 1 ? BRANCH_KEPT : lit == 0 ? BRANCH_DROPPED : BRANCH_UNKNOWN,
                                             lit == 1, at};
    } else if ((nlen == 4 && (!strncmp(name, "elif", 4) || !strncmp(name, "else", 4))) && !w->overflow &&
               w->depth > 0) {
        conditional *c = &w->stack[w->depth - 1];
        int lit = name[2] == 'i' ? literal_condition(arg, alen) : 1; /* #else is #elif 1 */
        if (c->taken)
            c->now = BRANCH_DROPPED;
        else if (c->now == BRANCH_UNKNOWN || lit < 0)
            c->now = BRANCH_UNKNOWN;
        else
            c->now = lit ? BRANCH_KEPT : BRANCH_DROPPED;
        c->taken = c->taken || c->now == BRANCH_KEPT;
        if (c->now == BRANCH_UNKNOWN)
            c->at = at;
    } else if (nlen == 5 && !strncmp(name, "endif", 5)) {
        if (w->overflow)
            w->overflow--;
        else if (w->depth > 0)
            w->depth--;
    } else {
        return;
    }
    if (!w->overflow)
        find_unknown(w);
}

/* The end of the directive line starting at i: its newline, past lines continued with a backslash. */
static size_t directive_end(const char *m, size_t i)
{
    for (; m[i]; i++)
        if (m[i] == '\n' && !(i > 0 && m[i - 1] == '\\'))
            break;
    return i;
}

void source_blank_preprocessor(char *m, size_t *function_at, size_t *directive_at)
{
    walker w = {.unknown_at = (size_t)-1};
    int braces = 0;
    char last = '\0'; /* the last kept character that is not a space */
    *function_at = *directive_at = (size_t)-1;
    bool line_start = true;
    for (size_t i = 0; m[i];) {
        if (line_start && m[i] == '#') {
            size_t end = directive_end(m, i), n = i + 1;
            while (n < end && text_is_blank(m[n]))
                n++;
            size_t name = n;
            while (n < end && is_ident_char(m[n]))
                n++;
            size_t arg = n;
            while (arg < end && text_is_blank(m[arg]))
                arg++;
            directive(&w, m + name, n - name, m + arg, end - arg, i);
            for (; i < end; i++)
                if (m[i] != '\n')
                    m[i] = ' ';
            continue;
        }
        char c = m[i];
        if (c == '\n') {
            line_start = true;
            i++;
            continue;
        }
        if (!text_is_blank(c))
            line_start = false;
        if (dropped(&w)) {
            m[i++] = ' ';
            continue;
        }
        if (c == '{' && braces++ == 0 && last == ')' && w.unknown_at != (size_t)-1 && *function_at == (size_t)-1) {
            *function_at = i;
            *directive_at = w.unknown_at;
        } else if (c == '}' && braces > 0) {
            braces--;
        }
        if (!text_is_blank(c))
            last = c;
        i++;
    }
}

bool source_check_preprocessor(const char *src, char *err, size_t errlen)
{
    char *m = source_mask_comments(src);
    if (!m)
        return true; /* out of memory: source_mask fails next and says so */
    size_t function_at, directive_at;
    source_blank_preprocessor(m, &function_at, &directive_at);
    free(m);
    if (function_at == (size_t)-1)
        return true;
    int line, col, dline, dcol;
    source_position(src, function_at, &line, &col);
    source_position(src, directive_at, &dline, &dcol);
    char text[48];
    source_line(src, dline, text, sizeof text);
    snprintf(err, errlen,
             "line %d: a function is defined inside the preprocessor conditional `%s` (line %d); gpuc finds the "
             "kernel and its helpers before the preprocessor runs, so it cannot tell whether that function exists. "
             "Keep #ifdef / #if EXPR / #else around statements inside functions (or use #if 0 / #if 1, which gpuc "
             "honours)", line, text + strspn(text, " \t"), dline);
    return false;
}
