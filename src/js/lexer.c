/* lexer.c - see lexer.h. */
#include "js/lexer.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void js_lexer_init(js_lexer *lx, const char *src)
{
    lx->src = src;
    lx->pos = 0;
    lx->line = 1;
    lx->col = 1;
}

static char peek(const js_lexer *lx, size_t ahead)
{
    /* The source is NUL-terminated: never read past the terminator. */
    for (size_t i = 0; i < ahead; i++)
        if (!lx->src[lx->pos + i])
            return '\0';
    return lx->src[lx->pos + ahead];
}

static void advance(js_lexer *lx)
{
    char c = lx->src[lx->pos];
    if (!c)
        return;
    lx->pos++;
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
}

/* JavaScript's line terminators end a // comment: \n, \r, U+2028 and U+2029 (UTF-8 E2 80 A8/A9). */
static bool line_terminator(js_lexer *lx)
{
    char c = peek(lx, 0);
    return c == '\n' || c == '\r' ||
           (c == '\xe2' && peek(lx, 1) == '\x80' && (peek(lx, 2) == '\xa8' || peek(lx, 2) == '\xa9'));
}

static void skip_space_and_comments(js_lexer *lx)
{
    for (;;) {
        char c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '\xe2' && line_terminator(lx)) {
            for (int i = 0; i < 3; i++)
                advance(lx);
        } else if (c == '/' && peek(lx, 1) == '/') {
            while (peek(lx, 0) && !line_terminator(lx))
                advance(lx);
        } else if (c == '/' && peek(lx, 1) == '*') {
            advance(lx);
            advance(lx);
            while (peek(lx, 0) && !(peek(lx, 0) == '*' && peek(lx, 1) == '/'))
                advance(lx);
            advance(lx);
            advance(lx);
        } else {
            return;
        }
    }
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_' || c == '$';
}

static bool ident_char(char c)
{
    return ident_start(c) || isdigit((unsigned char)c);
}

/* Longest punctuators first, so ">>>=" wins over ">>". */
static const char *const punctuators[] = {
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "=>", "==", "!=", "<=", ">=", "&&", "||", "??",
    "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>", "{", "}", "(", ")",
    "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", ".", NULL};

/* A legacy octal literal: 0 followed only by the digits 0-7 (Annex B of ECMAScript). */
static bool is_legacy_octal(const char *s)
{
    if (s[0] != '0' || !isdigit((unsigned char)s[1]))
        return false;
    for (size_t i = 1; isdigit((unsigned char)s[i]); i++)
        if (s[i] > '7')
            return false;
    return true;
}

static void lex_number(js_lexer *lx, js_token *t)
{
    const char *s = lx->src + lx->pos;
    char *end = NULL;
    t->integer_form = true;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'o' || s[1] == 'O' || s[1] == 'b' || s[1] == 'B')) {
        int base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
        double v = 0;
        size_t i = 2;
        for (;; i++) {
            int d = isdigit((unsigned char)s[i]) ? s[i] - '0'
                    : isxdigit((unsigned char)s[i]) ? tolower((unsigned char)s[i]) - 'a' + 10 : 99;
            if (d >= base)
                break;
            v = v * base + d;
        }
        t->number = v;
        t->kind = i > 2 ? TK_NUMBER : TK_ERROR;
        end = (char *)s + i;
    } else if (is_legacy_octal(s)) {
        /* Sloppy-mode JavaScript (GPU.js parses kernels so) reads 017 as octal 15; 019 and 08 are decimal. */
        double v = 0;
        size_t i = 1;
        for (; isdigit((unsigned char)s[i]); i++)
            v = v * 8 + (s[i] - '0');
        t->number = v;
        t->kind = TK_NUMBER;
        end = (char *)s + i;
    } else {
        size_t i = 0;
        while (isdigit((unsigned char)s[i]))
            i++;
        if (s[i] == '.') {
            t->integer_form = false;
            i++;
            while (isdigit((unsigned char)s[i]))
                i++;
        }
        if ((s[i] == 'e' || s[i] == 'E') &&
            (isdigit((unsigned char)s[i + 1]) ||
             ((s[i + 1] == '+' || s[i + 1] == '-') && isdigit((unsigned char)s[i + 2])))) {
            t->integer_form = false;
            i += 2;
            while (isdigit((unsigned char)s[i]))
                i++;
        }
        t->number = strtod(s, NULL);
        t->kind = TK_NUMBER;
        end = (char *)s + i;
    }
    /* "3in" or "1_000": a number glued to letters is not something GPU.js reads either. */
    if (ident_char(*end))
        t->kind = TK_ERROR;
    while (lx->src + lx->pos < end)
        advance(lx);
    if (t->kind == TK_ERROR)
        while (ident_char(peek(lx, 0)))
            advance(lx);
}

static void lex_string(js_lexer *lx, js_token *t)
{
    char quote = peek(lx, 0);
    advance(lx);
    while (peek(lx, 0) && peek(lx, 0) != quote) {
        if (peek(lx, 0) == '\\' && peek(lx, 1))
            advance(lx);
        advance(lx);
    }
    advance(lx);
    t->kind = TK_STRING;
}

js_token js_lexer_next(js_lexer *lx)
{
    skip_space_and_comments(lx);
    js_token t = {TK_EOF, lx->src + lx->pos, 0, lx->line, lx->col, 0.0, false};
    char c = peek(lx, 0);
    if (!c)
        return t;
    if (ident_start(c)) {
        while (ident_char(peek(lx, 0)))
            advance(lx);
        t.kind = TK_IDENT;
    } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)peek(lx, 1)))) {
        lex_number(lx, &t);
    } else if (c == '"' || c == '\'' || c == '`') {
        lex_string(lx, &t);
    } else {
        t.kind = TK_ERROR;
        for (int i = 0; punctuators[i]; i++) {
            size_t n = strlen(punctuators[i]);
            /* `?.5` is `?` then the number .5 (a minifier's `a?.5:1`), not optional chaining */
            if (!strncmp(lx->src + lx->pos, punctuators[i], n) &&
                !(!strcmp(punctuators[i], "?.") && isdigit((unsigned char)lx->src[lx->pos + 2]))) {
                for (size_t k = 0; k < n; k++)
                    advance(lx);
                t.kind = TK_PUNCT;
                break;
            }
        }
        if (t.kind == TK_ERROR)
            advance(lx);
    }
    t.len = (size_t)(lx->src + lx->pos - t.start);
    return t;
}

bool js_tok_is(const js_token *t, const char *s)
{
    size_t n = strlen(s);
    return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && t->len == n && !strncmp(t->start, s, n);
}
