/* loop_scan.c - see loop_scan.h. A recursive-descent reader of GLSL statements over the mask, bounded
 * in depth; it does not check the grammar (the compiler does), it only finds the loops and what
 * leaves them. Every loop keyword of the mask must be accounted for, so a construct the reader
 * misreads is reported instead of a loop going unseen. */
#include "kernel/loops/loop_scan.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOWHERE SIZE_MAX

typedef struct reader {
    const char *s;
    size_t n;
    loop_scan *out;
    int function;
    int loop;          /* the innermost loop, -1 */
    int break_target;  /* the innermost loop or switch a break leaves: a loop index, -1 none, -2 a switch */
    bool in_branch;    /* inside an if/else/switch since the innermost loop began */
    int depth;
} reader;

static size_t fail(reader *r, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t fail(reader *r, size_t at, const char *fmt, ...)
{
    if (!r->out->error[0] && !r->out->out_of_memory) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->out->error, sizeof r->out->error, fmt, ap);
        va_end(ap);
        r->out->error_at = at;
    }
    return NOWHERE;
}

/* Makes room for one more item in a list of count: the capacity is 8, then doubles at each power of two. */
static bool grow(reader *r, void **items, int count, size_t size)
{
    if (count != 0 && (count < 8 || (count & (count - 1)) != 0))
        return true;
    void *p = realloc(*items, (size_t)(count ? 2 * count : 8) * size);
    if (!p) {
        r->out->out_of_memory = true;
        return false;
    }
    *items = p;
    return true;
}

static size_t skip_space(const reader *r, size_t i)
{
    while (i < r->n && (r->s[i] == ' ' || r->s[i] == '\t' || r->s[i] == '\n' || r->s[i] == '\r' ||
                        r->s[i] == '\f' || r->s[i] == '\v'))
        i++;
    return i;
}

/* Length of the identifier at i (0 when none starts there). */
static size_t word_length(const reader *r, size_t i)
{
    if (i >= r->n || !is_ident_start(r->s[i]) || (i > 0 && is_ident_char(r->s[i - 1])))
        return 0;
    size_t j = i;
    while (j < r->n && is_ident_char(r->s[j]))
        j++;
    return j - i;
}

static bool word_is(const reader *r, size_t i, const char *w)
{
    size_t len = word_length(r, i);
    return len == strlen(w) && !strncmp(r->s + i, w, len);
}

/* The bracket closing the one at open (any of ( [ { nested), or NOWHERE. */
static size_t closing(reader *r, size_t open)
{
    char stack[LOOP_SCAN_MAX_NESTING];
    int depth = 0;
    for (size_t i = open; i < r->n; i++) {
        char c = r->s[i];
        if (c == '(' || c == '[' || c == '{') {
            if (depth == LOOP_SCAN_MAX_NESTING)
                return fail(r, i, "brackets nested more than %d deep", LOOP_SCAN_MAX_NESTING);
            stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0 || stack[depth - 1] != c)
                return fail(r, i, "unbalanced `%c`", c);
            if (--depth == 0)
                return i;
        }
    }
    return fail(r, open, "`%c` is never closed", r->s[open]);
}

static bool is_keyword_call(const reader *r, size_t i, size_t len)
{
    static const char *const words[] = {"if", "for", "while", "switch", "return", "do", NULL};
    for (int k = 0; words[k]; k++)
        if (len == strlen(words[k]) && !strncmp(r->s + i, words[k], len))
            return true;
    return false;
}

/* Records the calls (an identifier followed by `(`) in [begin, end). */
static bool note_calls(reader *r, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; i++) {
        size_t len = word_length(r, i);
        if (!len)
            continue;
        size_t after = skip_space(r, i + len);
        if (after < end && r->s[after] == '(' && len < KERNEL_NAME_MAX && !is_keyword_call(r, i, len)) {
            loop_scan *o = r->out;
            if (!grow(r, (void **)&o->calls, o->ncalls, sizeof *o->calls))
                return false;
            loop_call *c = &o->calls[o->ncalls++];
            memcpy(c->name, r->s + i, len);
            c->name[len] = '\0';
            c->loop = r->loop;
            c->function = r->function;
        }
        i += len - 1;
    }
    return true;
}

static size_t statement(reader *r, size_t pos);

/* `( ... )` after a keyword: its closing parenthesis, calls noted. */
static size_t parenthesised(reader *r, size_t pos, const char *after_what, size_t *open)
{
    *open = skip_space(r, pos);
    if (*open >= r->n || r->s[*open] != '(')
        return fail(r, *open, "`(` expected after `%s`", after_what);
    size_t close = closing(r, *open);
    if (close != NOWHERE && !note_calls(r, *open + 1, close))
        return NOWHERE;
    return close;
}

static void trim(const reader *r, size_t *begin, size_t *end)
{
    *begin = skip_space(r, *begin);
    while (*end > *begin && strchr(" \t\n\r\f\v", r->s[*end - 1]))
        (*end)--;
}

static int new_loop(reader *r, loop_kind kind, size_t keyword)
{
    loop_scan *o = r->out;
    if (!grow(r, (void **)&o->loops, o->nloops, sizeof *o->loops))
        return -1;
    int parent = r->loop;
    o->loops[o->nloops] = (loop_site){
        .kind = kind,
        .keyword = keyword,
        .parent = parent,
        .function = r->function,
        .depth = parent >= 0 ? o->loops[parent].depth + 1 : 1,
        .in_branch = r->in_branch,
    };
    return o->nloops++;
}

/* Reads a loop's body with the loop as the innermost one; returns its end. */
static size_t loop_body(reader *r, int loop, size_t pos)
{
    reader saved = *r;
    r->loop = loop;
    r->break_target = loop;
    r->in_branch = false;
    r->out->loops[loop].body_begin = skip_space(r, pos);
    size_t end = statement(r, pos);
    r->loop = saved.loop;
    r->break_target = saved.break_target;
    r->in_branch = saved.in_branch;
    if (end != NOWHERE)
        r->out->loops[loop].body_end = end;
    return end;
}

/* The parenthesised header of a loop, from pos (after its keyword or its do-while's `while`): its
 * calls run once per iteration, so they count as inside the loop. The condition is all of it until a
 * for loop narrows it. */
static size_t loop_header(reader *r, int loop, size_t pos, const char *keyword)
{
    int outer = r->loop;
    r->loop = loop;
    size_t open, close = parenthesised(r, pos, keyword, &open);
    r->loop = outer;
    if (close != NOWHERE) {
        loop_site *l = &r->out->loops[loop];
        l->header_open = open;
        l->header_close = close;
        l->cond_begin = open + 1;
        l->cond_end = close;
    }
    return close;
}

/* A for header's three parts: the condition lies between its two top-level `;`. */
static bool for_parts(reader *r, loop_site *l)
{
    size_t semis[2];
    int nsemis = 0, depth = 0;
    for (size_t i = l->header_open + 1; i < l->header_close; i++) {
        char c = r->s[i];
        depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
        if (c == ';' && depth == 0) {
            if (nsemis == 2)
                return fail(r, i, "a `for` header has three parts"), false;
            semis[nsemis++] = i;
        }
    }
    if (nsemis != 2)
        return fail(r, l->header_open, "a `for` header has three parts separated by `;`"), false;
    l->init_end = semis[0];
    l->cond_begin = semis[0] + 1;
    l->cond_end = semis[1];
    return true;
}

/* for (...) body, or while (...) body. */
static size_t tested_loop(reader *r, loop_kind kind, size_t keyword)
{
    int loop = new_loop(r, kind, keyword);
    if (loop < 0)
        return NOWHERE;
    const char *word = kind == LOOP_FOR ? "for" : "while";
    size_t close = loop_header(r, loop, keyword + strlen(word), word);
    if (close == NOWHERE || (kind == LOOP_FOR && !for_parts(r, &r->out->loops[loop])))
        return NOWHERE;
    trim(r, &r->out->loops[loop].cond_begin, &r->out->loops[loop].cond_end);
    size_t end = loop_body(r, loop, close + 1);
    if (end != NOWHERE)
        r->out->loops[loop].end = end;
    return end;
}

static size_t do_loop(reader *r, size_t keyword)
{
    int loop = new_loop(r, LOOP_DO, keyword);
    if (loop < 0)
        return NOWHERE;
    size_t after_body = loop_body(r, loop, keyword + 2);
    if (after_body == NOWHERE)
        return NOWHERE;
    size_t w = skip_space(r, after_body);
    if (!word_is(r, w, "while"))
        return fail(r, w, "`while (...);` expected after the body of `do`");
    size_t close = loop_header(r, loop, w + 5, "while");
    if (close == NOWHERE)
        return NOWHERE;
    size_t semi = skip_space(r, close + 1);
    if (semi >= r->n || r->s[semi] != ';')
        return fail(r, semi, "`;` expected after `do ... while (...)`");
    loop_site *l = &r->out->loops[loop];
    trim(r, &l->cond_begin, &l->cond_end);
    l->end = semi + 1;
    return semi + 1;
}

/* A branch of an if/else or a switch body: loops in it may not run. */
static size_t branch(reader *r, size_t pos, int break_target)
{
    bool saved = r->in_branch;
    int saved_target = r->break_target;
    r->in_branch = true;
    r->break_target = break_target;
    size_t end = statement(r, pos);
    r->in_branch = saved;
    r->break_target = saved_target;
    return end;
}

static size_t if_statement(reader *r, size_t keyword)
{
    size_t open, close = parenthesised(r, keyword + 2, "if", &open);
    if (close == NOWHERE)
        return NOWHERE;
    size_t end = branch(r, close + 1, r->break_target);
    if (end == NOWHERE)
        return NOWHERE;
    size_t e = skip_space(r, end);
    if (word_is(r, e, "else"))
        return branch(r, e + 4, r->break_target);
    return end;
}

static size_t switch_statement(reader *r, size_t keyword)
{
    size_t open, close = parenthesised(r, keyword + 6, "switch", &open);
    if (close == NOWHERE)
        return NOWHERE;
    size_t body = skip_space(r, close + 1);
    if (body >= r->n || r->s[body] != '{')
        return fail(r, body, "`{` expected after `switch (...)`");
    return branch(r, body, -2);
}

/* `case expr:` or `default:`: the position after its colon. */
static size_t label(reader *r, size_t pos)
{
    int depth = 0;
    for (size_t i = pos; i < r->n; i++) {
        char c = r->s[i];
        depth += (c == '(' || c == '[') - (c == ')' || c == ']');
        if (c == ':' && depth == 0)
            return i + 1;
        if (c == ';' || c == '{' || c == '}')
            break;
    }
    return fail(r, pos, "`:` expected after a case label");
}

/* Every loop from the innermost out to `stop` (exclusive; -1 for all) may be left early. */
static void leaves(reader *r, int stop)
{
    for (int l = r->loop; l >= 0 && l != stop; l = r->out->loops[l].parent)
        r->out->loops[l].leaves_early = true;
}

/* An expression statement or declaration: up to its `;` at bracket depth 0. */
static size_t simple_statement(reader *r, size_t pos)
{
    for (size_t i = pos; i < r->n; i++) {
        char c = r->s[i];
        if (c == ';') {
            if (!note_calls(r, pos, i))
                return NOWHERE;
            return i + 1;
        }
        if (c == '(' || c == '[' || c == '{') {
            i = closing(r, i);
            if (i == NOWHERE)
                return NOWHERE;
        } else if (c == ')' || c == ']' || c == '}') {
            return fail(r, i, "`;` expected before `%c`", c);
        }
    }
    return fail(r, pos, "`;` expected at the end of this statement");
}

static size_t block(reader *r, size_t open)
{
    size_t i = open + 1;
    for (;;) {
        i = skip_space(r, i);
        if (i >= r->n)
            return fail(r, open, "`{` is never closed");
        if (r->s[i] == '}')
            return i + 1;
        i = statement(r, i);
        if (i == NOWHERE)
            return NOWHERE;
    }
}

static size_t keyword_statement(reader *r, size_t at)
{
    if (word_is(r, at, "for"))
        return tested_loop(r, LOOP_FOR, at);
    if (word_is(r, at, "while"))
        return tested_loop(r, LOOP_WHILE, at);
    if (word_is(r, at, "do"))
        return do_loop(r, at);
    if (word_is(r, at, "if"))
        return if_statement(r, at);
    if (word_is(r, at, "switch"))
        return switch_statement(r, at);
    if (word_is(r, at, "case") || word_is(r, at, "default"))
        return label(r, at);
    if (word_is(r, at, "break")) {
        if (r->break_target >= 0) {
            loop_scan *o = r->out;
            if (!grow(r, (void **)&o->breaks, o->nbreaks, sizeof *o->breaks))
                return NOWHERE;
            o->breaks[o->nbreaks++] = (loop_break){at, r->break_target};
            leaves(r, o->loops[r->break_target].parent);
        }
        return simple_statement(r, at + 5);
    }
    if (word_is(r, at, "return") || word_is(r, at, "discard"))
        leaves(r, -1);
    return simple_statement(r, at);
}

static size_t statement(reader *r, size_t pos)
{
    pos = skip_space(r, pos);
    if (pos >= r->n)
        return fail(r, pos, "a statement is missing");
    if (++r->depth > LOOP_SCAN_MAX_NESTING) {
        r->depth--;
        return fail(r, pos, "statements are nested more than %d deep", LOOP_SCAN_MAX_NESTING);
    }
    size_t end = r->s[pos] == '{' ? block(r, pos) : r->s[pos] == ';' ? pos + 1 : keyword_statement(r, pos);
    r->depth--;
    return end;
}

/* The name of the function whose parameter list opens at open_paren, into name. */
static bool function_name(const reader *r, size_t open_paren, char *name)
{
    size_t i = open_paren;
    while (i > 0 && strchr(" \t\n\r\f\v", r->s[i - 1]))
        i--;
    size_t end = i;
    while (i > 0 && is_ident_char(r->s[i - 1]))
        i--;
    if (end == i || end - i >= KERNEL_NAME_MAX)
        return false;
    memcpy(name, r->s + i, end - i);
    name[end - i] = '\0';
    return true;
}

/* The `)` that ends the parameters of the function whose body opens at open. */
static size_t skip_back_to_paren(const reader *r, size_t open)
{
    while (open > 0 && r->s[open - 1] != ')')
        open--;
    return open > 0 ? open - 1 : 0;
}

static bool read_function(reader *r, size_t open, size_t open_paren)
{
    loop_scan *o = r->out;
    if (!grow(r, (void **)&o->functions, o->nfunctions, sizeof *o->functions))
        return false;
    loop_function *f = &o->functions[o->nfunctions];
    if (!function_name(r, open_paren, f->name))
        f->name[0] = '\0';
    f->body_begin = open;
    f->params_open = open_paren;
    f->params_close = skip_back_to_paren(r, open);
    r->function = o->nfunctions++;
    r->loop = -1;
    r->break_target = -1;
    r->in_branch = false;
    size_t end = block(r, open);
    if (end == NOWHERE)
        return false;
    o->functions[r->function].body_end = end - 1;
    return true;
}

/* Top level: declarations up to `;`, and function definitions `... ) { ... }`. */
static bool read_top_level(reader *r)
{
    size_t params = NOWHERE; /* the `(` of the parenthesised text just before, at depth 0 */
    for (size_t i = 0; i < r->n; i++) {
        char c = r->s[i];
        if (strchr(" \t\n\r\f\v", c))
            continue;
        if (c == '{' && params != NOWHERE) {
            if (!read_function(r, i, params))
                return false;
            i = r->out->functions[r->function].body_end;
            params = NOWHERE;
            continue;
        }
        size_t open = i;
        if (c == '(' || c == '[' || c == '{') {
            i = closing(r, i);
            if (i == NOWHERE)
                return false;
        }
        params = c == '(' ? open : NOWHERE;
    }
    return true;
}

/* Whether the loop keywords of the mask are exactly those the reader found. */
static bool every_keyword_read(reader *r)
{
    int keywords = 0, expected = 0;
    size_t first = NOWHERE;
    for (size_t i = 0; i < r->n; i++) {
        size_t len = word_length(r, i);
        if (!len)
            continue;
        if (word_is(r, i, "for") || word_is(r, i, "while") || word_is(r, i, "do")) {
            keywords++;
            if (first == NOWHERE)
                first = i;
        }
        i += len - 1;
    }
    for (int l = 0; l < r->out->nloops; l++)
        expected += r->out->loops[l].kind == LOOP_DO ? 2 : 1;
    if (keywords == expected)
        return true;
    fail(r, first, "gpuc could not follow the loops of this source (%d loop keywords, %d read)", keywords, expected);
    return false;
}

/* A preprocessor line (or its continuation) that names a loop keyword or `break`: the reader sees no
 * macro bodies, so such a loop could not be guarded. */
static bool macros_hide_no_loops(reader *r, const char *src)
{
    bool directive = false, continued = false;
    size_t line = 0;
    for (size_t i = 0; i <= r->n; i++) {
        if (i < r->n && src[i] != '\n')
            continue;
        size_t b = line;
        while (b < i && (src[b] == ' ' || src[b] == '\t'))
            b++;
        directive = continued || (b < i && src[b] == '#');
        if (directive) {
            reader raw = *r;
            raw.s = src;
            for (size_t k = b; k < i; k++) {
                if (word_is(&raw, k, "for") || word_is(&raw, k, "while") || word_is(&raw, k, "do") ||
                    word_is(&raw, k, "break")) {
                    fail(r, k, "a preprocessor macro holds `%.*s`; gpuc must see every loop and break to keep "
                               "llvmpipe's loop budget honest, so write loops out instead of in macros",
                         (int)word_length(&raw, k), src + k);
                    r->out->refused = true;
                    return false;
                }
            }
        }
        continued = directive && i > line && src[i - 1] == '\\';
        line = i + 1;
    }
    return true;
}

bool loop_scan_read(const char *src, const char *mask, loop_scan *scan)
{
    memset(scan, 0, sizeof *scan);
    reader r = {.s = mask, .n = strlen(mask), .out = scan, .function = -1, .loop = -1, .break_target = -1};
    return macros_hide_no_loops(&r, src) && read_top_level(&r) && every_keyword_read(&r);
}

void loop_scan_free(loop_scan *scan)
{
    free(scan->loops);
    free(scan->breaks);
    free(scan->calls);
    free(scan->functions);
    memset(scan, 0, sizeof *scan);
}
