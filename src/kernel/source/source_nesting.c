/* source_nesting.c - refuses GLSL kernels nested deeper than GPUC_MAX_NESTING, before any reader that
 * recurses over the nesting (the loop-budget reader, the driver's compiler) sees them. One pass over
 * the mask's tokens; no recursion, so it is safe on any input.
 *
 * Levels, as gpuc.h documents them: a bracket inside another; an if / else / for / while / do body (a
 * braced body counts once: the header's level and its `{` are one); a prefix operator applied to
 * another; the right operand of an assignment or of `?`. */
#include "kernel/source/source_scan.h"

#include <stdio.h>
#include <string.h>

/* What an open bracket saved of the text around it, to restore when it closes. */
typedef struct open_bracket {
    int levels;  /* what it adds to the depth */
    int chain;   /* the unbraced statement bodies open outside it */
    int right;   /* the right operands open outside it */
    bool header; /* the `(` of an if / for / while / switch header */
} open_bracket;

typedef struct nesting {
    open_bracket open[GPUC_MAX_NESTING + 1];
    int nopen, sum;   /* sum: levels of all open brackets */
    int chain;        /* unbraced bodies we are in: `if (a) if (b) x;` is 2 at x */
    int unary;        /* prefix operators in a row */
    int right;        /* right operands of =, op= and ?: in this expression */
    bool after_header;    /* the last token ended a header (`if (...)`, `else`, `do`): a body begins */
    bool header_next;     /* the next `(` is a control header's */
    bool ended;           /* a statement just ended; the chain stays open only for an `else` */
    int ended_chain;
} nesting;

static bool word_is(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && !strncmp(s, w, len);
}

/* The length of the operator at s (longest match), at least 1. */
static size_t operator_length(const char *s)
{
    static const char *const ops[] = {"<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                      "==", "!=", "<=", ">=", "&&", "||", "^^", "<<", ">>", NULL};
    for (int i = 0; ops[i]; i++)
        if (!strncmp(s, ops[i], strlen(ops[i])))
            return strlen(ops[i]);
    return 1;
}

static bool is_assignment(const char *s, size_t len)
{
    return (len == 1 && s[0] == '=') || (len >= 2 && s[len - 1] == '=' && strchr("+-*/%&|^<>", s[0]) &&
                                         !(len == 2 && (s[0] == '<' || s[0] == '>')));
}

static void open_bracket_at(nesting *n, char c)
{
    int levels = n->chain + n->unary + n->right + (c == '{' && n->after_header ? 0 : 1);
    n->open[n->nopen++] = (open_bracket){levels < 1 ? 1 : levels, n->chain, n->right, c == '(' && n->header_next};
    n->sum += n->open[n->nopen - 1].levels;
    n->chain = n->unary = n->right = 0;
    n->after_header = n->header_next = n->ended = false;
}

static void close_bracket(nesting *n, char c)
{
    if (n->nopen == 0)
        return; /* unbalanced: the compiler says where */
    open_bracket b = n->open[--n->nopen];
    n->sum -= b.levels;
    n->chain = b.chain;
    n->right = b.right;
    n->unary = 0;
    n->after_header = b.header;
    n->ended = c == '}';
    n->ended_chain = n->chain;
}

bool source_check_nesting(const char *mask, char *err, size_t errlen)
{
    nesting n;
    memset(&n, 0, sizeof n);
    for (size_t i = 0; mask[i];) {
        char c = mask[i];
        if (text_is_space(c)) {
            i++;
            continue;
        }
        size_t len = 1;
        bool is_word = is_ident_start(c), is_number = c >= '0' && c <= '9';
        if (is_word || is_number || (c == '.' && mask[i + 1] >= '0' && mask[i + 1] <= '9')) {
            while (is_ident_char(mask[i + len]) || mask[i + len] == '.' ||
                   (is_number && (mask[i + len] == '+' || mask[i + len] == '-') &&
                    (mask[i + len - 1] == 'e' || mask[i + len - 1] == 'E')))
                len++;
        } else if (!strchr("()[]{}", c)) {
            len = operator_length(mask + i);
        }
        const char *t = mask + i;
        bool is_else = is_word && word_is(t, len, "else");
        if (n.ended) { /* `if (a) x; else ...`: the if's chain goes on into its else */
            n.chain = is_else ? n.ended_chain : 0;
            n.ended = false;
        }
        bool header_ends = false;
        if (is_word && (word_is(t, len, "if") || word_is(t, len, "for") || word_is(t, len, "while") ||
                        word_is(t, len, "switch"))) {
            n.chain++;
            n.header_next = true;
        } else if (is_else || (is_word && word_is(t, len, "do"))) {
            n.chain += !is_else; /* an else's body is one level: the if's, already counted */
            header_ends = true;
        } else if (c == '(' || c == '[' || c == '{') {
            open_bracket_at(&n, c);
        } else if (c == ')' || c == ']' || c == '}') {
            close_bracket(&n, c);
            i += len;
            continue; /* close_bracket set what follows */
        } else if (c == ';' || c == ',') {
            n.right = 0;
            if (c == ';') {
                n.ended = true;
                n.ended_chain = n.chain;
            }
        } else if (is_assignment(t, len) || c == '?') {
            n.right++;
        }
        bool prefix = !is_word && !is_number && (c == '-' || c == '+' || c == '!' || c == '~') && (len == 1 ||
                                                                                                 t[1] == c);
        n.unary = prefix ? n.unary + 1 : 0;
        n.after_header = header_ends;
        if (n.sum + n.chain + n.unary + n.right > GPUC_MAX_NESTING) {
            int line, col;
            source_position(mask, i, &line, &col);
            snprintf(err, errlen,
                     "line %d, column %d: the source is nested more than %d levels deep (GPUC_MAX_NESTING: "
                     "brackets, blocks, statement bodies and operators inside one another)",
                     line, col, GPUC_MAX_NESTING);
            return false;
        }
        i += len;
    }
    return true;
}
