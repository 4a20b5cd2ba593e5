/* lexer.h - splits the JavaScript subset GPU.js accepts into tokens, each with its 1-based line and
 * column (the positions every front-end message quotes). Strings, template literals and regular
 * expressions become tokens too, so the parser can name them when it rejects them. */
#ifndef GPUC_JS_LEXER_H
#define GPUC_JS_LEXER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum js_tok {
    TK_EOF = 0,
    TK_IDENT,
    TK_NUMBER,
    TK_STRING,   /* '...', "..." or `...` (always rejected, but named) */
    TK_PUNCT,    /* operators and punctuation: text in js_token.text */
    TK_ERROR     /* a character the lexer cannot read */
} js_tok;

typedef struct js_token {
    js_tok kind;
    const char *start; /* into the source */
    size_t len;
    int line, col;
    double number;     /* TK_NUMBER */
    bool integer_form; /* a number literal written without '.' or exponent */
} js_token;

typedef struct js_lexer {
    const char *src;
    size_t pos;
    int line, col;
} js_lexer;

void js_lexer_init(js_lexer *lx, const char *src);

/* The next token; TK_EOF at the end (repeatedly). Comments and white space are skipped. */
js_token js_lexer_next(js_lexer *lx);

/* Whether token t is the punctuator or identifier spelled s. */
bool js_tok_is(const js_token *t, const char *s);

#endif
