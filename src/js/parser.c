/* parser.c - a recursive-descent parser for GPU.js's JavaScript subset (see parser.h). The first
 * error ends the parse through longjmp; everything allocated lives in the arena, so nothing leaks.
 *
 * Children by kind: N_MEMBER a.name; N_INDEX a[b]; N_CALL a(list); N_UNARY/N_UPDATE op a;
 * N_BINARY/N_LOGICAL/N_ASSIGN a op b; N_COND a ? b : c; N_ARRAY [list]; N_SEQ list;
 * N_VAR list of N_DECL (name = a); N_EXPR a; N_BLOCK list; N_IF (a) b else c;
 * N_FOR (a; b; c) d; N_WHILE (a) b; N_DOWHILE b while (a); N_RETURN a; N_SWITCH (a) list of N_CASE
 * (a = test or NULL for default, list = statements); N_FUNCDECL/N_FUNCEXPR name(list) a. */
#include "js/parser.h"
#include "js/lexer.h"
#include "gpuc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_HEIGHT 400 /* expression tree height: `a + b + ... ` chains are built by loops */

typedef struct parser {
    js_lexer lx;
    js_token tok, prev;
    js_arena *arena;
    char *err;
    size_t errlen;
    jmp_buf fail;
    int depth;
} parser;

static _Noreturn void fail_at(parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static _Noreturn void fail_at(parser *p, int line, int col, const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%d:%d: ", line, col);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    longjmp(p->fail, 1);
}

static void next(parser *p)
{
    p->prev = p->tok;
    p->tok = js_lexer_next(&p->lx);
    if (p->tok.kind == TK_ERROR)
        fail_at(p, p->tok.line, p->tok.col, "unexpected character(s) `%.*s`", (int)(p->tok.len ? p->tok.len : 1),
                p->tok.start);
}

static bool is(parser *p, const char *s)
{
    return js_tok_is(&p->tok, s);
}

static bool accept(parser *p, const char *s)
{
    if (!is(p, s))
        return false;
    next(p);
    return true;
}

static _Noreturn void unexpected(parser *p, const char *wanted)
{
    if (p->tok.kind == TK_EOF)
        fail_at(p, p->tok.line, p->tok.col, "unexpected end of source, expected %s", wanted);
    if (p->tok.kind == TK_STRING)
        fail_at(p, p->tok.line, p->tok.col, "strings are not supported in kernels (%.*s)", (int)p->tok.len,
                p->tok.start);
    fail_at(p, p->tok.line, p->tok.col, "unexpected `%.*s`, expected %s", (int)p->tok.len, p->tok.start, wanted);
}

static void expect(parser *p, const char *s)
{
    if (!accept(p, s)) {
        char what[16];
        snprintf(what, sizeof what, "`%s`", s);
        unexpected(p, what);
    }
}

static js_node *node(parser *p, js_kind kind, const js_token *at)
{
    js_node *n = js_arena_alloc(p->arena, sizeof *n);
    if (!n)
        fail_at(p, at->line, at->col, "out of memory");
    n->kind = kind;
    n->line = at->line;
    n->col = at->col;
    return n;
}

#define MAX_NAME 200 /* GLSL takes identifiers up to 1024 characters; ours get a prefix */

static const char *ident_name(parser *p)
{
    if (p->tok.kind != TK_IDENT)
        unexpected(p, "a name");
    if (p->tok.len > MAX_NAME)
        fail_at(p, p->tok.line, p->tok.col, "a name longer than %d characters", MAX_NAME);
    char *s = js_arena_strndup(p->arena, p->tok.start, p->tok.len);
    if (!s)
        fail_at(p, p->tok.line, p->tok.col, "out of memory");
    next(p);
    return s;
}

/* A growing list of nodes in the arena (copied on growth; the arena frees the old copies). */
static void push(parser *p, js_node ***list, int *n, int *cap, js_node *item)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 4;
        js_node **nl = js_arena_alloc(p->arena, (size_t)nc * sizeof *nl);
        if (!nl)
            fail_at(p, item->line, item->col, "out of memory");
        if (*n)
            memcpy(nl, *list, (size_t)*n * sizeof *nl);
        *list = nl;
        *cap = nc;
    }
    (*list)[(*n)++] = item;
}

static int height_of(const js_node *n)
{
    return n ? n->height : 0;
}

/* Records n's height once its children are set, refusing trees the checker could not walk. */
static js_node *grown(parser *p, js_node *n)
{
    int h = height_of(n->a);
    h = height_of(n->b) > h ? height_of(n->b) : h;
    h = height_of(n->c) > h ? height_of(n->c) : h;
    for (int i = 0; i < n->nlist; i++)
        h = height_of(n->list[i]) > h ? height_of(n->list[i]) : h;
    n->height = h + 1;
    if (n->height > MAX_HEIGHT)
        fail_at(p, n->line, n->col, "this expression is nested more than %d levels deep", MAX_HEIGHT);
    return n;
}

/* One level deeper: each bracket, block, statement body, prefix operator and right operand of `=`,
 * `**` or `?:` inside another is one level, GPUC_MAX_NESTING at most. Every recursion of the parser
 * passes through one, so its stack (and the checker's and emitter's) stays bounded. */
static void enter(parser *p)
{
    if (++p->depth > GPUC_MAX_NESTING)
        fail_at(p, p->tok.line, p->tok.col,
                "the source is nested more than %d levels deep (GPUC_MAX_NESTING: brackets, blocks, statement "
                "bodies and operators inside one another)", GPUC_MAX_NESTING);
}

static void leave(parser *p)
{
    p->depth--;
}

static js_node *expression(parser *p);
static js_node *assignment(parser *p);
static js_node *statement(parser *p);
static js_node *body(parser *p);
static js_node *block(parser *p);
static js_node *function_rest(parser *p, js_kind kind, const js_token *at);

static _Noreturn void reject_keyword(parser *p)
{
    static const char *const words[][2] = {
        {"new", "`new` is not supported in kernels"},
        {"typeof", "`typeof` is not supported in kernels"},
        {"delete", "`delete` is not supported in kernels"},
        {"void", "`void` is not supported in kernels"},
        {"class", "classes are not supported in kernels"},
        {"null", "`null` is not supported in kernels (numbers, booleans and arrays of 2-4 numbers only)"},
        {"undefined", "`undefined` is not supported in kernels"},
        {"try", "`try` is not supported in kernels"},
        {"throw", "`throw` is not supported in kernels"},
        {"await", "`await` is not supported in kernels"},
        {"yield", "`yield` is not supported in kernels"},
        {"import", "`import` is not supported in kernels"},
        {"super", "`super` is not supported in kernels"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is(p, words[i][0]))
            fail_at(p, p->tok.line, p->tok.col, "%s", words[i][1]);
    unexpected(p, "an expression");
}

static bool is_reserved_word(parser *p)
{
    static const char *const words[] = {"new", "typeof", "delete", "void", "class", "null", "undefined", "try",
                                        "throw", "await", "yield", "import", "super", "in", "of", "instanceof",
                                        "let", "const", "var", "if", "else", "for", "while", "do", "return",
                                        "switch", "case", "default", "break", "continue", "function", NULL};
    for (int i = 0; words[i]; i++)
        if (is(p, words[i]))
            return true;
    return false;
}

static js_node *array_literal(parser *p, const js_token *at)
{
    js_node *n = node(p, N_ARRAY, at);
    int cap = 0;
    while (!is(p, "]")) {
        if (is(p, ","))
            fail_at(p, p->tok.line, p->tok.col, "arrays with holes are not supported");
        if (is(p, "..."))
            fail_at(p, p->tok.line, p->tok.col, "spread (`...`) is not supported in kernels");
        push(p, &n->list, &n->nlist, &cap, assignment(p));
        if (!accept(p, ","))
            break;
    }
    expect(p, "]");
    return grown(p, n);
}

/* Whether an arrow function starts here: `x =>` or `(a, b) =>` (a look ahead that reads no further
 * than the parameter list, then puts the lexer back). */
static bool at_arrow(parser *p)
{
    js_lexer saved_lx = p->lx;
    js_token saved_tok = p->tok, saved_prev = p->prev;
    bool arrow = false;
    if (p->tok.kind == TK_IDENT && !is_reserved_word(p)) {
        next(p);
        arrow = is(p, "=>");
    } else if (accept(p, "(")) {
        while (p->tok.kind == TK_IDENT && !is_reserved_word(p)) {
            next(p);
            if (!accept(p, ","))
                break;
        }
        arrow = accept(p, ")") && is(p, "=>");
    }
    p->lx = saved_lx;
    p->tok = saved_tok;
    p->prev = saved_prev;
    return arrow;
}

/* An arrow function (at_arrow said one starts here): its body is a block, or an expression, which
 * becomes `{ return expression; }`. */
static js_node *arrow_function(parser *p)
{
    js_token at = p->tok;
    js_node *f = node(p, N_FUNCEXPR, &at);
    f->arrow = true;
    int cap = 0;
    if (accept(p, "(")) {
        while (!is(p, ")")) {
            js_token pat = p->tok;
            js_node *param = node(p, N_IDENT, &pat);
            param->name = ident_name(p);
            push(p, &f->list, &f->nlist, &cap, param);
            if (!accept(p, ","))
                break;
        }
        expect(p, ")");
    } else {
        js_node *param = node(p, N_IDENT, &at);
        param->name = ident_name(p);
        push(p, &f->list, &f->nlist, &cap, param);
    }
    js_token arrow_at = p->tok;
    expect(p, "=>");
    if (is(p, "{")) {
        f->a = block(p);
        return f;
    }
    js_node *body = node(p, N_BLOCK, &arrow_at);
    js_node *ret = node(p, N_RETURN, &arrow_at);
    enter(p);
    ret->a = assignment(p);
    leave(p);
    int bcap = 0;
    push(p, &body->list, &body->nlist, &bcap, ret);
    f->a = body;
    return f;
}

static js_node *primary(parser *p)
{
    js_token at = p->tok;
    if (at.kind == TK_NUMBER) {
        js_node *n = node(p, N_NUMBER, &at);
        n->num = at.number;
        n->integer_form = at.integer_form;
        next(p);
        return n;
    }
    if (at.kind == TK_STRING)
        fail_at(p, at.line, at.col, "strings are not supported in kernels (%.*s)", (int)at.len, at.start);
    if (accept(p, "true") || accept(p, "false")) {
        js_node *n = node(p, N_BOOL, &at);
        n->num = js_tok_is(&at, "true");
        return n;
    }
    if (accept(p, "this"))
        return node(p, N_THIS, &at);
    if (accept(p, "function")) {
        js_node *f = function_rest(p, N_FUNCEXPR, &at);
        return f;
    }
    if (at_arrow(p))
        return arrow_function(p);
    if (accept(p, "(")) {
        if (accept(p, ")"))
            fail_at(p, at.line, at.col, "empty parentheses");
        enter(p);
        js_node *e = expression(p);
        leave(p);
        expect(p, ")");
        if (is(p, "=>"))
            fail_at(p, at.line, at.col, "an arrow function's parameters must be plain names");
        return e;
    }
    if (accept(p, "[")) {
        enter(p);
        js_node *a = array_literal(p, &at);
        leave(p);
        return a;
    }
    if (is(p, "{"))
        fail_at(p, at.line, at.col, "object literals are not supported in kernels");
    if (at.kind == TK_IDENT && !is_reserved_word(p)) {
        js_node *n = node(p, N_IDENT, &at);
        n->name = ident_name(p);
        return n;
    }
    reject_keyword(p);
}

static js_node *postfix(parser *p)
{
    js_node *e = primary(p);
    for (;;) {
        js_token at = p->tok;
        if (accept(p, ".")) {
            js_node *m = node(p, N_MEMBER, &at);
            m->line = e->line; /* a postfix expression starts where its operand does */
            m->col = e->col;
            m->a = e;
            m->name = ident_name(p);
            e = grown(p, m);
        } else if (accept(p, "[")) {
            js_node *ix = node(p, N_INDEX, &at);
            ix->line = e->line;
            ix->col = e->col;
            ix->a = e;
            enter(p);
            ix->b = expression(p);
            leave(p);
            expect(p, "]");
            e = grown(p, ix);
        } else if (accept(p, "(")) {
            js_node *c = node(p, N_CALL, &at);
            int cap = 0;
            c->line = e->line;
            c->col = e->col;
            c->a = e;
            enter(p);
            while (!is(p, ")")) {
                if (is(p, "..."))
                    fail_at(p, p->tok.line, p->tok.col, "spread (`...`) is not supported in kernels");
                push(p, &c->list, &c->nlist, &cap, assignment(p));
                if (!accept(p, ","))
                    break;
            }
            leave(p);
            expect(p, ")");
            e = grown(p, c);
        } else if (is(p, "?.")) {
            fail_at(p, at.line, at.col, "optional chaining (`?.`) is not supported in kernels");
        } else if (p->tok.kind == TK_STRING && at.start[0] == '`') {
            fail_at(p, at.line, at.col, "template literals are not supported in kernels");
        } else {
            break;
        }
    }
    js_token at = p->tok;
    if (is(p, "++") || is(p, "--")) {
        js_node *u = node(p, N_UPDATE, &at);
        snprintf(u->op, sizeof u->op, "%.2s", at.start);
        next(p);
        u->line = e->line;
        u->col = e->col;
        u->a = e;
        return grown(p, u);
    }
    return e;
}

static js_node *unary(parser *p)
{
    js_token at = p->tok;
    js_node *n;
    if (is(p, "!") || is(p, "-") || is(p, "+") || is(p, "~")) {
        next(p);
        n = node(p, N_UNARY, &at);
        snprintf(n->op, sizeof n->op, "%.1s", at.start);
        enter(p);
        n->a = unary(p);
        leave(p);
        grown(p, n);
    } else if (is(p, "++") || is(p, "--")) {
        next(p);
        n = node(p, N_UPDATE, &at);
        snprintf(n->op, sizeof n->op, "%.2s", at.start);
        n->prefix = true;
        enter(p);
        n->a = unary(p);
        leave(p);
        grown(p, n);
    } else {
        n = postfix(p);
    }
    if (is(p, "**")) { /* right-associative, binds tighter than * */
        js_token op = p->tok;
        next(p);
        js_node *b = node(p, N_BINARY, &op);
        strcpy(b->op, "**");
        b->a = n;
        enter(p);
        b->b = unary(p);
        leave(p);
        n = grown(p, b);
    }
    return n;
}

/* Binary operator levels, loosest first. */
static const char *const levels[][5] = {
    {"||", NULL}, {"&&", NULL}, {"|", NULL}, {"^", NULL}, {"&", NULL},
    {"===", "!==", "==", "!=", NULL}, {"<=", ">=", "<", ">", NULL}, {">>>", "<<", ">>", NULL},
    {"+", "-", NULL}, {"*", "/", "%", NULL},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

/* The level of the binary operator at the current token (its text in *op), or -1 when it is none. */
static int binary_level(parser *p, const char **op)
{
    for (int level = 0; level < NLEVELS; level++)
        for (int i = 0; levels[level][i]; i++)
            if (is(p, levels[level][i])) {
                *op = levels[level][i];
                return level;
            }
    return -1;
}

/* Precedence climbing: operators of level >= min_level, left-associative. It recurses only for a right
 * operand that holds tighter operators, so a bracket costs a few stack frames, not one per level. */
static js_node *binary(parser *p, int min_level)
{
    js_node *left = unary(p);
    for (;;) {
        js_token at = p->tok;
        const char *op = NULL;
        int level = binary_level(p, &op);
        if (level < 0) {
            if (is(p, "in") || is(p, "instanceof"))
                fail_at(p, at.line, at.col, "`%.*s` is not supported in kernels", (int)at.len, at.start);
            if (is(p, "??"))
                fail_at(p, at.line, at.col, "`??` is not supported in kernels");
        }
        if (level < min_level)
            break;
        next(p);
        js_node *n = node(p, level < 2 ? N_LOGICAL : N_BINARY, &at);
        snprintf(n->op, sizeof n->op, "%s", op);
        n->a = left;
        n->b = binary(p, level + 1);
        left = grown(p, n);
    }
    return left;
}

static js_node *conditional(parser *p)
{
    js_node *c = binary(p, 0);
    js_token at = p->tok;
    if (!accept(p, "?"))
        return c;
    js_node *n = node(p, N_COND, &at);
    n->a = c;
    enter(p);
    n->b = assignment(p);
    expect(p, ":");
    n->c = assignment(p);
    leave(p);
    return grown(p, n);
}

static const char *const assign_ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
                                         "&=", "|=", "^=", NULL};

static js_node *assignment(parser *p)
{
    js_node *left = conditional(p);
    js_token at = p->tok;
    for (int i = 0; assign_ops[i]; i++) {
        if (is(p, assign_ops[i])) {
            next(p);
            js_node *n = node(p, N_ASSIGN, &at);
            snprintf(n->op, sizeof n->op, "%s", assign_ops[i]);
            n->a = left;
            enter(p);
            n->b = assignment(p);
            leave(p);
            return grown(p, n);
        }
    }
    if (is(p, "&&=") || is(p, "||="))
        fail_at(p, at.line, at.col, "logical assignment is not supported in kernels");
    return left;
}

static js_node *expression(parser *p)
{
    js_token at = p->tok;
    js_node *e = assignment(p);
    if (!is(p, ","))
        return e;
    js_node *s = node(p, N_SEQ, &at);
    int cap = 0;
    push(p, &s->list, &s->nlist, &cap, e);
    while (accept(p, ","))
        push(p, &s->list, &s->nlist, &cap, assignment(p));
    return grown(p, s);
}

/* Statement end: `;`, or (automatic semicolon insertion) a new line, `}` or the end. */
static void end_statement(parser *p)
{
    if (accept(p, ";"))
        return;
    if (is(p, "}") || p->tok.kind == TK_EOF || p->tok.line > p->prev.line)
        return;
    unexpected(p, "`;`");
}

/* An object pattern `{ x, y: b, thread: { x } }` (GPU.js's `const { x, y } = this.thread`): each name
 * becomes its own declarator whose value is a member chain ending in `hole`, replaced by the
 * declaration's value once it is read (declaration()). */
static void object_pattern(parser *p, js_node *base, js_node *list_owner, int *cap)
{
    expect(p, "{");
    enter(p);
    while (!is(p, "}")) {
        js_token kat = p->tok;
        if (is(p, "..."))
            fail_at(p, kat.line, kat.col, "rest properties (`...`) are not supported in kernels");
        if (kat.kind != TK_IDENT)
            unexpected(p, "a property name");
        js_node *member = node(p, N_MEMBER, &kat);
        member->a = base;
        member->name = ident_name(p);
        if (accept(p, ":") && is(p, "{")) {
            object_pattern(p, member, list_owner, cap);
        } else {
            js_token nat = p->prev.kind == TK_PUNCT ? p->tok : kat;
            js_node *d = node(p, N_DECL, &nat);
            d->name = js_tok_is(&p->prev, ":") ? ident_name(p) : member->name;
            d->a = member;
            if (is(p, "="))
                fail_at(p, p->tok.line, p->tok.col, "default values in destructuring are not supported in kernels");
            push(p, &list_owner->list, &list_owner->nlist, cap, d);
        }
        if (!accept(p, ","))
            break;
    }
    leave(p);
    expect(p, "}");
}

/* Puts the declaration's value where an object pattern's member chains end. */
static void fill_pattern(js_node *n, int from, const js_node *hole, js_node *value)
{
    for (int i = from; i < n->nlist; i++)
        for (js_node *m = n->list[i]->a; m && m != value; m = m->a)
            if (m->a == hole) {
                m->a = value;
                break;
            }
}

/* `= void 0` ends a declarator (a minifier's undefined): the variable is declared without a value.
 * Looks ahead for `void`, a number and the declarator's end; puts the lexer back if they are not there. */
static bool void_value(parser *p)
{
    if (!is(p, "void"))
        return false;
    js_lexer saved_lx = p->lx;
    js_token saved_tok = p->tok, saved_prev = p->prev;
    next(p);
    bool number = p->tok.kind == TK_NUMBER;
    if (number)
        next(p);
    if (number && (is(p, ",") || is(p, ";") || is(p, "}") || p->tok.kind == TK_EOF || p->tok.line > p->prev.line))
        return true;
    p->lx = saved_lx;
    p->tok = saved_tok;
    p->prev = saved_prev;
    return false;
}

static js_node *declaration(parser *p, const js_token *for_at)
{
    js_token at = p->tok;
    js_node *n = node(p, N_VAR, &at);
    snprintf(n->op, sizeof n->op, "%.*s", (int)(at.len < 5 ? at.len : 4), at.start);
    next(p);
    int cap = 0;
    do {
        js_token dat = p->tok;
        if (is(p, "{")) { /* const { x, y } = this.thread: one declarator per name */
            js_node *hole = node(p, N_EMPTY, &dat);
            int from = n->nlist;
            object_pattern(p, hole, n, &cap);
            if (n->nlist == from)
                fail_at(p, dat.line, dat.col, "`{}` destructures nothing");
            if (!accept(p, "="))
                fail_at(p, dat.line, dat.col, "a destructuring declaration needs a value: `{ x, y } = this.thread`");
            fill_pattern(n, from, hole, assignment(p));
            continue;
        }
        js_node *d = node(p, N_DECL, &dat);
        if (accept(p, "[")) { /* const [x, y] = v: name NULL, list the names (N_EMPTY for a hole) */
            int ncap = 0;
            while (!is(p, "]")) {
                js_token nat = p->tok;
                js_node *name = node(p, is(p, ",") ? N_EMPTY : N_IDENT, &nat);
                if (name->kind == N_IDENT) {
                    if (is(p, "[") || is(p, "{") || is(p, "..."))
                        fail_at(p, nat.line, nat.col, "only a flat list of names can be destructured: `[x, y] = v`");
                    name->name = ident_name(p);
                }
                push(p, &d->list, &d->nlist, &ncap, name);
                if (!accept(p, ","))
                    break;
            }
            expect(p, "]");
            if (!d->nlist)
                fail_at(p, dat.line, dat.col, "`[]` destructures nothing");
            if (!is(p, "="))
                fail_at(p, dat.line, dat.col, "a destructuring declaration needs a value: `[x, y] = v`");
        } else {
            d->name = ident_name(p);
        }
        if (for_at && (is(p, "of") || is(p, "in")))
            fail_at(p, for_at->line, for_at->col, "`for...%.*s` loops are not supported in kernels; use a counted `for`",
                    (int)p->tok.len, p->tok.start);
        if (accept(p, "=")) {
            if (void_value(p))
                d->undefined = true; /* const x = void 0: reading x is refused (check.c) */
            else
                d->a = assignment(p);
        } else if (!strcmp(n->op, "cons"))
            fail_at(p, dat.line, dat.col, "`const %s` needs a value", d->name);
        push(p, &n->list, &n->nlist, &cap, d);
    } while (accept(p, ","));
    return n;
}

static bool at_declaration(parser *p)
{
    return is(p, "let") || is(p, "const") || is(p, "var");
}

static js_node *for_statement(parser *p, const js_token *at)
{
    js_node *n = node(p, N_FOR, at);
    expect(p, "(");
    if (at_declaration(p)) {
        n->a = declaration(p, at);
    } else if (!is(p, ";")) {
        js_node *e = node(p, N_EXPR, &p->tok);
        e->a = expression(p);
        if (is(p, "of") || is(p, "in"))
            fail_at(p, at->line, at->col, "`for...%.*s` loops are not supported in kernels", (int)p->tok.len,
                    p->tok.start);
        n->a = e;
    }
    expect(p, ";");
    if (!is(p, ";"))
        n->b = expression(p);
    expect(p, ";");
    if (!is(p, ")"))
        n->c = expression(p);
    expect(p, ")");
    n->d = body(p);
    return n;
}

static js_node *switch_statement(parser *p, const js_token *at)
{
    js_node *n = node(p, N_SWITCH, at);
    expect(p, "(");
    n->a = expression(p);
    expect(p, ")");
    expect(p, "{");
    enter(p);
    int cap = 0;
    bool seen_default = false;
    while (!accept(p, "}")) {
        js_token cat = p->tok;
        js_node *c = node(p, N_CASE, &cat);
        if (accept(p, "case")) {
            c->a = expression(p);
        } else if (accept(p, "default")) {
            if (seen_default)
                fail_at(p, cat.line, cat.col, "a second `default` in one switch");
            seen_default = true;
        } else {
            unexpected(p, "`case`, `default` or `}`");
        }
        expect(p, ":");
        int scap = 0;
        while (!is(p, "case") && !is(p, "default") && !is(p, "}"))
            push(p, &c->list, &c->nlist, &scap, statement(p));
        push(p, &n->list, &n->nlist, &cap, c);
    }
    leave(p);
    return n;
}

/* An expression written as a statement, as minifiers write statements: `a ? f() : g();` is
 * `if (a) f(); else g();`, `a && f();` is `if (a) f();`, `a || f();` is `if (!a) f();` and
 * `x = 1, y = 2;` is `{ x = 1; y = 2; }`. The value is dropped either way, so each part is a
 * statement of its own (a branch may then be a call that returns nothing, such as this.color). */
static js_node *expression_statement(parser *p, js_node *e)
{
    js_token at = {.line = e->line, .col = e->col};
    js_node *n;
    if (e->kind == N_COND || (e->kind == N_LOGICAL && !strcmp(e->op, "&&"))) {
        n = node(p, N_IF, &at);
        n->a = e->a;
        n->b = expression_statement(p, e->b);
        if (e->kind == N_COND)
            n->c = expression_statement(p, e->c);
    } else if (e->kind == N_LOGICAL) { /* || */
        n = node(p, N_IF, &at);
        n->a = node(p, N_UNARY, &at);
        strcpy(n->a->op, "!");
        n->a->a = e->a;
        grown(p, n->a);
        n->b = expression_statement(p, e->b);
    } else if (e->kind == N_SEQ) {
        n = node(p, N_BLOCK, &at);
        int cap = 0;
        for (int i = 0; i < e->nlist; i++)
            push(p, &n->list, &n->nlist, &cap, expression_statement(p, e->list[i]));
    } else {
        n = node(p, N_EXPR, &at);
        n->a = e;
    }
    return n;
}

static js_node *simple_statement(parser *p, const js_token *at)
{
    js_node *n;
    if (accept(p, "break") || accept(p, "continue")) {
        n = node(p, js_tok_is(at, "break") ? N_BREAK : N_CONTINUE, at);
        if (p->tok.kind == TK_IDENT && p->tok.line == at->line && !is(p, "case") && !is(p, "default"))
            fail_at(p, p->tok.line, p->tok.col, "labels are not supported in kernels");
    } else if (accept(p, "return")) {
        n = node(p, N_RETURN, at);
        if (!is(p, ";") && !is(p, "}") && p->tok.line == at->line && p->tok.kind != TK_EOF)
            n->a = expression(p);
    } else if (at_declaration(p)) {
        n = declaration(p, NULL);
    } else {
        js_node *e = expression(p);
        if (e->kind == N_IDENT && accept(p, ":"))
            fail_at(p, at->line, at->col, "labels are not supported in kernels");
        n = expression_statement(p, e);
    }
    end_statement(p);
    return n;
}

static js_node *statement(parser *p)
{
    js_token at = p->tok;
    js_node *n;
    if (is(p, "{")) {
        n = block(p);
    } else if (accept(p, ";")) {
        n = node(p, N_EMPTY, &at);
    } else if (accept(p, "if")) {
        n = node(p, N_IF, &at);
        expect(p, "(");
        n->a = expression(p);
        expect(p, ")");
        n->b = body(p);
        if (accept(p, "else"))
            n->c = body(p);
    } else if (accept(p, "for")) {
        n = for_statement(p, &at);
    } else if (accept(p, "while")) {
        n = node(p, N_WHILE, &at);
        expect(p, "(");
        n->a = expression(p);
        expect(p, ")");
        n->b = body(p);
    } else if (accept(p, "do")) {
        n = node(p, N_DOWHILE, &at);
        n->b = body(p);
        expect(p, "while");
        expect(p, "(");
        n->a = expression(p);
        expect(p, ")");
        accept(p, ";");
    } else if (accept(p, "switch")) {
        n = switch_statement(p, &at);
    } else if (accept(p, "function")) {
        n = function_rest(p, N_FUNCDECL, &at);
        if (!n->name)
            fail_at(p, at.line, at.col, "a function declaration needs a name");
    } else {
        n = simple_statement(p, &at);
    }
    return n;
}

/* The body of an if, else, for, while or do: one level deeper, a block or not. */
static js_node *body(parser *p)
{
    if (is(p, "{"))
        return block(p);
    enter(p);
    js_node *n = statement(p);
    leave(p);
    return n;
}

static js_node *block(parser *p)
{
    js_token at = p->tok;
    expect(p, "{");
    enter(p);
    js_node *n = node(p, N_BLOCK, &at);
    int cap = 0;
    while (!accept(p, "}")) {
        if (p->tok.kind == TK_EOF)
            unexpected(p, "`}`");
        push(p, &n->list, &n->nlist, &cap, statement(p));
    }
    leave(p);
    return n;
}

/* After `function`: an optional name, the parameters and the body. */
static js_node *function_rest(parser *p, js_kind kind, const js_token *at)
{
    js_node *f = node(p, kind, at);
    if (p->tok.kind == TK_IDENT && !is(p, "("))
        f->name = ident_name(p);
    expect(p, "(");
    int cap = 0;
    while (!is(p, ")")) {
        js_token pat = p->tok;
        if (is(p, "{") || is(p, "["))
            fail_at(p, pat.line, pat.col, "destructuring parameters are not supported in kernels");
        if (is(p, "..."))
            fail_at(p, pat.line, pat.col, "rest parameters are not supported in kernels");
        js_node *param = node(p, N_IDENT, &pat);
        param->name = ident_name(p);
        if (is(p, "="))
            fail_at(p, pat.line, pat.col, "default parameter values are not supported in kernels");
        push(p, &f->list, &f->nlist, &cap, param);
        if (!accept(p, ","))
            break;
    }
    expect(p, ")");
    f->a = block(p);
    return f;
}

static js_node *top_level_function(parser *p)
{
    js_token at = p->tok;
    int parens = 0;
    while (!at_arrow(p) && accept(p, "("))
        parens++;
    if (at_arrow(p)) { /* an arrow function kernel or helper, GPU.js takes those too */
        js_node *f = arrow_function(p);
        while (parens-- > 0)
            expect(p, ")");
        accept(p, ";");
        return f;
    }
    if (!accept(p, "function"))
        unexpected(p, "`function` (a kernel or helper function)");
    js_node *f = function_rest(p, parens ? N_FUNCEXPR : N_FUNCDECL, &at);
    while (parens-- > 0)
        expect(p, ")");
    accept(p, ";");
    return f;
}

bool js_parse(const char *src, js_arena *arena, js_program *prog, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.arena = arena;
    p.err = err;
    p.errlen = errlen;
    prog->funcs = NULL;
    prog->nfuncs = 0;
    js_lexer_init(&p.lx, src);
    if (setjmp(p.fail))
        return false;
    next(&p);
    int cap = 0;
    while (p.tok.kind != TK_EOF) {
        if (accept(&p, ";"))
            continue;
        js_node *f = top_level_function(&p);
        push(&p, &prog->funcs, &prog->nfuncs, &cap, f);
    }
    if (!prog->nfuncs)
        fail_at(&p, 1, 1, "no function found: write the kernel as `function (a, b) { return ...; }`");
    return true;
}
