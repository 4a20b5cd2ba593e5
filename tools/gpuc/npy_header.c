/* npy_header.c - evaluates a .npy header dict the way NumPy does (ast.literal_eval): the literal forms
 * Python's literal_eval takes (strings with their prefixes, escapes and implicit concatenation; ints in
 * every base with underscores; floats, complex sums, True/False/None, ..., tuples, lists, dicts, sets,
 * set()), Python's rules for comments, line joins, blank lines and indentation, and NumPy's checks of
 * the result. What Python or NumPy refuses is refused; only the three keys' values are kept. */
#include "npy_header.h"

#include <stdio.h>
#include <string.h>

enum { MAX_DEPTH = 64, TEXT_KEEP = 16 };

/* What a parsed value is. NUM is a number constant (not a bool); SIGNED a unary +/- applied to one;
 * the distinction matters because literal_eval takes -2 and 1+2j but not --2 or 1+2+3j. */
typedef enum { V_STR, V_BYTES, V_INT, V_FLOAT, V_COMPLEX, V_BOOL, V_NONE, V_ELLIPSIS, V_TUPLE, V_LIST, V_DICT,
               V_SET } value_kind;
typedef enum { NODE_OTHER, NODE_NUM, NODE_SIGNED } node_kind;

typedef struct value {
    value_kind kind;
    node_kind node;
    int64_t i;          /* V_INT (when !big), V_BOOL */
    bool big;           /* V_INT beyond int64 */
    char text[TEXT_KEEP]; /* V_STR / V_BYTES: the first bytes (a non-ASCII character as 0x80) */
    size_t text_len;    /* the whole length */
    int n;              /* V_TUPLE: its length; items: the first NPY_HEADER_DIMS */
    bool all_ints;      /* V_TUPLE: every item a V_INT (bools are not) */
    bool any_negative;
    bool any_big;
    int64_t items[NPY_HEADER_DIMS];
} value;

typedef struct cursor {
    const unsigned char *p, *end;
    int version;
    int depth;          /* brackets open: inside them a newline is only whitespace */
    const char *why;    /* set on the first refusal */
} cursor;

static bool refuse(cursor *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return false;
}

static bool at(const cursor *c, size_t k, char ch)
{
    return (size_t)(c->end - c->p) > k && c->p[k] == (unsigned char)ch;
}

static bool is_ident(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch >= 0x80;
}

static bool is_newline_at(const cursor *c)
{
    return at(c, 0, '\n') || at(c, 0, '\r');
}

static void skip_newline(cursor *c)
{
    if (at(c, 0, '\r') && at(c, 1, '\n'))
        c->p += 2;
    else
        c->p++;
}

/* Spaces, tabs, form feeds, comments, and inside brackets newlines and backslash line joins. Outside
 * brackets a newline ends the expression, so it stops there; a line join there is refused (Python
 * refuses one before the end of the text, and this reader does not follow its other cases). */
static void skip_space(cursor *c)
{
    while (c->p < c->end) {
        unsigned char ch = *c->p;
        if (ch == ' ' || ch == '\t' || ch == '\f')
            c->p++;
        else if (ch == '#')
            while (c->p < c->end && !is_newline_at(c))
                c->p++;
        else if (ch == '\\' && c->depth > 0 && (at(c, 1, '\n') || at(c, 1, '\r'))) {
            c->p++;
            skip_newline(c);
        } else if ((ch == '\n' || ch == '\r') && c->depth > 0)
            skip_newline(c);
        else
            return;
    }
}

static void keep_char(value *v, unsigned ch)
{
    if (v->text_len < TEXT_KEEP)
        v->text[v->text_len] = (char)(ch < 0x80 ? ch : 0x80);
    v->text_len++;
}

static int hex_digit(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    ch |= 0x20;
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* One escape after a backslash in a non-raw literal (c->p past the backslash). */
static bool string_escape(cursor *c, value *v, bool bytes)
{
    if (c->p >= c->end)
        return refuse(c, "a string literal ends in a backslash");
    unsigned char ch = *c->p;
    static const char simple[] = "\\'\"abfnrtv", meant[] = "\\'\"\a\b\f\n\r\t\v";
    const char *s = ch ? strchr(simple, ch) : NULL;
    if (s) {
        c->p++;
        keep_char(v, (unsigned char)meant[s - simple]);
        return true;
    }
    if (ch == '\n' || ch == '\r') { /* a line join inside the literal */
        skip_newline(c);
        return true;
    }
    if (ch >= '0' && ch <= '7') {
        unsigned code = 0;
        for (int k = 0; k < 3 && c->p < c->end && *c->p >= '0' && *c->p <= '7'; k++)
            code = code * 8 + (unsigned)(*c->p++ - '0');
        keep_char(v, code);
        return true;
    }
    int digits = ch == 'x' ? 2 : !bytes && ch == 'u' ? 4 : !bytes && ch == 'U' ? 8 : 0;
    if (digits) {
        c->p++;
        unsigned long code = 0;
        for (int k = 0; k < digits; k++) {
            int d = c->p < c->end ? hex_digit(*c->p) : -1;
            if (d < 0)
                return refuse(c, "a truncated \\x, \\u or \\U escape");
            code = code * 16 + (unsigned long)d;
            c->p++;
        }
        if (code > 0x10ffff)
            return refuse(c, "a \\U escape past U+10FFFF");
        keep_char(v, (unsigned)code);
        return true;
    }
    if (!bytes && ch == 'N')
        return refuse(c, "a \\N{...} escape (gpuc does not decode character names)");
    keep_char(v, '\\'); /* an unknown escape keeps its backslash */
    return true;
}

/* One string or bytes literal at c->p (its prefix already read). */
static bool string_literal(cursor *c, value *v, bool raw, bool bytes)
{
    unsigned char quote = *c->p;
    bool triple = at(c, 1, (char)quote) && at(c, 2, (char)quote);
    c->p += triple ? 3 : 1;
    for (;;) {
        if (c->p >= c->end)
            return refuse(c, "an unterminated string literal");
        unsigned char ch = *c->p;
        if (ch == quote && (!triple || (at(c, 1, (char)quote) && at(c, 2, (char)quote)))) {
            c->p += triple ? 3 : 1;
            return true;
        }
        if (bytes && ch >= 0x80)
            return refuse(c, "a bytes literal with a non-ASCII character");
        if ((ch == '\n' || ch == '\r') && !triple)
            return refuse(c, "a newline inside a one-line string literal");
        if (ch == '\\' && !raw) {
            c->p++;
            if (!string_escape(c, v, bytes))
                return false;
            continue;
        }
        if (ch == '\\' && raw && c->p + 1 < c->end) { /* raw: the backslash stays and hides the next character */
            keep_char(v, '\\');
            c->p++;
            ch = *c->p;
        }
        if (ch == '\r' || ch == '\n') { /* a newline in the source is "\n" in the value */
            skip_newline(c);
            keep_char(v, '\n');
            continue;
        }
        if (ch >= 0x80 && c->version == 3) /* one UTF-8 character (validated before parsing) */
            while (c->p + 1 < c->end && (c->p[1] & 0xc0) == 0x80)
                c->p++;
        keep_char(v, ch);
        c->p++;
    }
}

/* The length of a string prefix (r, u, b, f and their valid pairs, any case) at c->p followed by a
 * quote, or 0. *raw, *bytes, *fmt say what it makes. */
static size_t string_prefix(const cursor *c, bool *raw, bool *bytes, bool *fmt)
{
    size_t n = 0;
    *raw = *bytes = *fmt = false;
    bool u = false;
    while (n < 2 && c->p + n < c->end) {
        unsigned char ch = (unsigned char)(c->p[n] | 0x20);
        bool *flag = ch == 'r' ? raw : ch == 'b' ? bytes : ch == 'f' ? fmt : ch == 'u' ? &u : NULL;
        if (!flag || *flag)
            break;
        *flag = true;
        n++;
    }
    if (c->p + n >= c->end || (c->p[n] != '\'' && c->p[n] != '"'))
        return 0;
    int kinds = *bytes + *fmt + u;
    if (kinds > 1 || (u && n > 1))
        return 0;
    return n;
}

/* Digits of `base` with single underscores between them (and, where leading_underscore, one before
 * the first, as after "0x"): returns how many digits, or -1 where an underscore is not followed by one. */
static long digit_run(cursor *c, int base, bool leading_underscore, uint64_t *acc, bool *big)
{
    long digits = 0;
    for (;;) {
        bool underscore = c->p < c->end && *c->p == '_';
        if (underscore && !digits && !leading_underscore)
            return 0;
        const unsigned char *q = c->p + underscore;
        int d = q < c->end ? hex_digit(*q) : -1;
        if (d < 0 || d >= base)
            return underscore ? -1 : digits;
        if (acc) {
            if (*acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                *big = true;
            else
                *acc = *acc * (uint64_t)base + (uint64_t)d;
        }
        c->p = q + 1;
        digits++;
    }
}

/* A number literal at c->p (a digit, or '.' then a digit). */
static bool number_literal(cursor *c, value *v)
{
    const unsigned char *start = c->p;
    uint64_t acc = 0;
    bool big = false;
    v->node = NODE_NUM;
    if (*c->p == '0' && c->p + 1 < c->end && c->p[1] && strchr("xXoObB", c->p[1])) {
        int base = (c->p[1] | 0x20) == 'x' ? 16 : (c->p[1] | 0x20) == 'o' ? 8 : 2;
        c->p += 2;
        if (digit_run(c, base, true, &acc, &big) <= 0)
            return refuse(c, "a malformed number");
        v->kind = V_INT;
    } else {
        long whole = digit_run(c, 10, false, &acc, &big), frac = 0;
        bool is_float = false;
        if (whole < 0 || (c->p < c->end && *c->p == '_'))
            return refuse(c, "a malformed number");
        if (c->p < c->end && *c->p == '.') {
            c->p++;
            frac = digit_run(c, 10, false, NULL, NULL);
            if (frac < 0 || (!whole && !frac) || (c->p < c->end && *c->p == '_'))
                return refuse(c, "a malformed number");
            is_float = true;
        }
        if (c->p < c->end && (*c->p | 0x20) == 'e') {
            c->p++;
            if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
                c->p++;
            if (digit_run(c, 10, false, NULL, NULL) <= 0)
                return refuse(c, "a malformed number");
            is_float = true;
        }
        if (c->p < c->end && (*c->p | 0x20) == 'j') {
            c->p++;
            v->kind = V_COMPLEX;
        } else if (is_float)
            v->kind = V_FLOAT;
        else {
            /* A decimal int has no leading zero unless it is all zeros ("00" and "0_0" are 0, "02" is refused). */
            for (const unsigned char *q = start; *start == '0' && q < c->p; q++)
                if (*q != '0' && *q != '_')
                    return refuse(c, "a decimal int with a leading zero");
            v->kind = V_INT;
        }
    }
    if (v->kind == V_INT) {
        v->big = big || acc > INT64_MAX;
        v->i = v->big ? 0 : (int64_t)acc;
    }
    /* Versions 1 and 2: NumPy first drops every name token "L" right after a number (Python 2 longs). */
    for (;;) {
        const unsigned char *q = c->p;
        while (c->version < 3 && q < c->end && (*q == ' ' || *q == '\t' || *q == '\f'))
            q++;
        if (c->version < 3 && q < c->end && *q == 'L' && (q + 1 >= c->end || !is_ident(q[1])))
            c->p = q + 1;
        else
            break;
    }
    if (c->p < c->end && (is_ident(*c->p) || *c->p == '.'))
        return refuse(c, "a malformed number");
    return true;
}

static bool parse_value(cursor *c, value *v);

/* Items up to `close`, comma-separated, a trailing comma allowed; for a dict, key: value pairs.
 * `first`, where not NULL, is the first item (or key), already read. on_item gets each item (with its
 * key for a dict). Returns the count, or -1. */
typedef bool (*item_fn)(void *ctx, const value *key, const value *item);

static int parse_items(cursor *c, char close, bool pairs, const value *first, item_fn on_item, void *ctx)
{
    for (int n = 0;; n++) {
        value key, item;
        if (first) {
            key = *first;
            first = NULL;
        } else {
            skip_space(c);
            if (at(c, 0, close)) {
                c->p++;
                return n;
            }
            if (!parse_value(c, &key))
                return -1;
        }
        skip_space(c);
        if (pairs) {
            if (!at(c, 0, ':'))
                return refuse(c, "a dict entry without ':'"), -1;
            c->p++;
            if (!parse_value(c, &item))
                return -1;
            skip_space(c);
        }
        if (on_item && !on_item(ctx, pairs ? &key : NULL, pairs ? &item : &key))
            return -1;
        if (at(c, 0, ',')) {
            c->p++;
        } else if (at(c, 0, close)) {
            c->p++;
            return n + 1;
        } else
            return refuse(c, "a missing ',' or closing bracket"), -1;
    }
}

static bool tuple_item(void *ctx, const value *key, const value *item)
{
    (void)key;
    value *t = ctx;
    bool is_int = item->kind == V_INT;
    t->all_ints = t->all_ints && is_int;
    if (is_int && item->big)
        t->any_big = true;
    else if (is_int && item->i < 0)
        t->any_negative = true;
    if (t->n < NPY_HEADER_DIMS)
        t->items[t->n] = is_int && !item->big ? item->i : 0;
    t->n++;
    return true;
}

/* The dict of the header: its three keys' values, the last one given of each (a Python dict keeps the
 * last value of a repeated key). */
typedef struct header_dict {
    cursor *c;
    value descr, order, shape;
    bool has_descr, has_order, has_shape;
} header_dict;

static bool same_text(const value *v, const char *s)
{
    return v->kind == V_STR && v->text_len == strlen(s) && v->text_len <= TEXT_KEEP && !memcmp(v->text, s, v->text_len);
}

static bool dict_entry(void *ctx, const value *key, const value *item)
{
    header_dict *d = ctx;
    if (!d)
        return true; /* a nested dict: only its syntax matters */
    if (same_text(key, "descr"))
        d->descr = *item, d->has_descr = true;
    else if (same_text(key, "fortran_order"))
        d->order = *item, d->has_order = true;
    else if (same_text(key, "shape"))
        d->shape = *item, d->has_shape = true;
    else
        return refuse(d->c, "the header dict has a key other than descr, fortran_order and shape");
    return true;
}

/* A bracketed value at c->p: ( ) tuple or grouping, [ ] list, { } dict or set. */
static bool bracketed(cursor *c, value *v, header_dict *top)
{
    unsigned char open = *c->p++;
    if (++c->depth > MAX_DEPTH)
        return refuse(c, "brackets nested deeper than 64");
    int n;
    value first;
    skip_space(c);
    if (open == '(') {
        if (at(c, 0, ')')) { /* () */
            c->p++;
            v->kind = V_TUPLE;
            v->all_ints = true;
            c->depth--;
            return true;
        }
        if (!parse_value(c, &first))
            return false;
        skip_space(c);
        if (at(c, 0, ')')) { /* (x): only grouping, x itself */
            c->p++;
            *v = first;
            c->depth--;
            return true;
        }
        if (!at(c, 0, ','))
            return refuse(c, "a missing ',' or ')'");
        c->p++;
        v->kind = V_TUPLE;
        v->all_ints = true;
        tuple_item(v, NULL, &first);
        n = parse_items(c, ')', false, NULL, tuple_item, v);
        n = n < 0 ? n : n + 1;
    } else if (open == '[') {
        v->kind = V_LIST;
        n = parse_items(c, ']', false, NULL, NULL, NULL);
    } else if (at(c, 0, '}')) { /* {} */
        c->p++;
        v->kind = V_DICT;
        n = 0;
    } else {
        /* A dict when the first item is followed by ':', else a set. */
        if (!parse_value(c, &first))
            return false;
        skip_space(c);
        bool is_dict = at(c, 0, ':');
        if (!is_dict && top)
            return refuse(c, "the header is not a dict");
        v->kind = is_dict ? V_DICT : V_SET;
        n = parse_items(c, '}', is_dict, &first, is_dict ? dict_entry : NULL, top);
    }
    c->depth--;
    v->node = NODE_OTHER;
    return n >= 0;
}

/* A name: True, False, None, or set() (the one call literal_eval takes). */
static bool name_value(cursor *c, value *v)
{
    const unsigned char *start = c->p;
    while (c->p < c->end && is_ident(*c->p))
        c->p++;
    size_t len = (size_t)(c->p - start);
    if (len == 4 && !memcmp(start, "True", 4))
        v->kind = V_BOOL, v->i = 1;
    else if (len == 5 && !memcmp(start, "False", 5))
        v->kind = V_BOOL, v->i = 0;
    else if (len == 4 && !memcmp(start, "None", 4))
        v->kind = V_NONE;
    else if (len == 3 && !memcmp(start, "set", 3)) {
        skip_space(c);
        if (!at(c, 0, '('))
            return refuse(c, "a name in the header (only True, False, None and set() are literals)");
        c->p++;
        c->depth++;
        skip_space(c);
        c->depth--;
        if (!at(c, 0, ')'))
            return refuse(c, "set() with arguments (not a literal)");
        c->p++;
        v->kind = V_SET;
    } else
        return refuse(c, "a name in the header (only True, False, None and set() are literals)");
    return true;
}

/* One operand without a binary operator. */
static bool primary(cursor *c, value *v)
{
    skip_space(c);
    if (c->p >= c->end)
        return refuse(c, "the header ends inside the dict");
    unsigned char ch = *c->p;
    bool raw, bytes, fmt;
    size_t prefix = is_ident(ch) ? string_prefix(c, &raw, &bytes, &fmt) : 0;
    if (prefix || ch == '\'' || ch == '"') {
        if (!prefix)
            raw = bytes = fmt = false;
        v->kind = bytes ? V_BYTES : V_STR;
        v->node = NODE_OTHER;
        for (bool first = true;; first = false) { /* adjacent literals join */
            if (fmt)
                return refuse(c, "an f-string (not a literal)");
            if (!first && (v->kind == V_BYTES) != bytes)
                return refuse(c, "bytes and str literals joined");
            c->p += prefix;
            if (!string_literal(c, v, raw, bytes))
                return false;
            skip_space(c);
            if (c->p >= c->end)
                return true;
            prefix = is_ident(*c->p) ? string_prefix(c, &raw, &bytes, &fmt) : 0;
            if (!prefix && *c->p != '\'' && *c->p != '"')
                return true;
            if (!prefix)
                raw = bytes = fmt = false;
        }
    }
    if ((ch >= '0' && ch <= '9') || (ch == '.' && c->p + 1 < c->end && c->p[1] >= '0' && c->p[1] <= '9'))
        return number_literal(c, v);
    if (ch == '.' && at(c, 1, '.') && at(c, 2, '.')) {
        c->p += 3;
        v->kind = V_ELLIPSIS;
        v->node = NODE_OTHER;
        return true;
    }
    if (ch == '(' || ch == '[' || ch == '{')
        return bracketed(c, v, NULL);
    if (ch == '+' || ch == '-') {
        c->p++;
        skip_space(c);
        if (at(c, 0, '+') || at(c, 0, '-')) /* a sign on a signed operand: refused, and no deep recursion */
            return refuse(c, "a sign on something that is not a number (not a literal)");
        if (!primary(c, v))
            return false;
        if (v->node != NODE_NUM)
            return refuse(c, "a sign on something that is not a number (not a literal)");
        if (ch == '-' && v->kind == V_INT && !v->big)
            v->i = -v->i;
        v->node = NODE_SIGNED;
        return true;
    }
    if (is_ident(ch) && ch < 0x80 && !(ch >= '0' && ch <= '9')) {
        v->node = NODE_OTHER;
        return name_value(c, v);
    }
    return refuse(c, "a character that starts no literal");
}

/* A value: a primary, or a real number plus or minus an imaginary one (1+2j), the one operator
 * literal_eval takes. */
static bool parse_value(cursor *c, value *v)
{
    memset(v, 0, sizeof *v);
    if (!primary(c, v))
        return false;
    skip_space(c);
    if (!at(c, 0, '+') && !at(c, 0, '-'))
        return true;
    if (v->node == NODE_OTHER || (v->kind != V_INT && v->kind != V_FLOAT))
        return refuse(c, "an operator in the header (only real + imaginary is a literal)");
    c->p++;
    value im;
    memset(&im, 0, sizeof im);
    if (!primary(c, &im))
        return false;
    if (im.node != NODE_NUM || im.kind != V_COMPLEX)
        return refuse(c, "an operator in the header (only real + imaginary is a literal)");
    v->kind = V_COMPLEX;
    v->node = NODE_OTHER;
    skip_space(c);
    if (at(c, 0, '+') || at(c, 0, '-'))
        return refuse(c, "an operator in the header (only real + imaginary is a literal)");
    return true;
}

/* Version 3 headers are UTF-8: NumPy's decode refuses anything else. */
static bool valid_utf8(const unsigned char *s, size_t len, size_t *chars)
{
    *chars = 0;
    for (size_t i = 0; i < len; (*chars)++) {
        unsigned char b = s[i];
        size_t n = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
        if (!n || i + n > len)
            return false;
        uint32_t cp = n == 1 ? b : (uint32_t)(b & (0x7f >> n));
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += n;
    }
    return true;
}

/* Before the dict: Python's eval drops leading spaces and tabs, then skips blank (or comment) lines;
 * the dict's line may not be indented. After it: only spaces, comments and newlines. */
static bool skip_blank_lines(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
    for (;;) {
        const unsigned char *line = c->p;
        while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\f'))
            c->p++;
        if (c->p < c->end && *c->p == '#')
            while (c->p < c->end && !is_newline_at(c))
                c->p++;
        if (c->p < c->end && is_newline_at(c)) {
            skip_newline(c);
            continue;
        }
        if (c->p < c->end && c->p != line)
            return refuse(c, "the header's dict is indented");
        return true;
    }
}

int npy_header_parse(const char *text, size_t len, int version, npy_header *h, char why[128])
{
    memset(h, 0, sizeof *h);
    const unsigned char *s = (const unsigned char *)text;
    size_t chars = len;
    const char *bad = NULL;
    if (memchr(s, 0, len))
        bad = "the header holds a NUL byte";
    else if (version == 3 && !valid_utf8(s, len, &chars))
        bad = "a version 3.0 header that is not UTF-8";
    else if (chars > NPY_MAX_HEADER_CHARS)
        bad = "the header is longer than NumPy's limit of 10000 characters";
    cursor c = {s, s + len, version, 0, bad};
    header_dict d = {.c = &c};
    value top;
    memset(&top, 0, sizeof top);
    /* The dict, possibly in grouping parentheses. */
    int parens = 0;
    if (!c.why && skip_blank_lines(&c)) {
        for (;;) {
            skip_space(&c);
            if (!at(&c, 0, '('))
                break;
            c.p++;
            c.depth++;
            parens++;
        }
        if (!at(&c, 0, '{'))
            refuse(&c, "the header is not a dict");
        else if (bracketed(&c, &top, &d)) {
            for (; parens > 0 && !c.why; parens--) {
                skip_space(&c);
                if (!at(&c, 0, ')'))
                    refuse(&c, "the header is not a dict");
                c.p++;
                c.depth--;
            }
            for (skip_space(&c); !c.why && c.p < c.end && is_newline_at(&c); skip_space(&c))
                skip_newline(&c);
            if (!c.why && c.p < c.end)
                refuse(&c, "text after the header's dict");
        }
    }
    if (!c.why && (!d.has_descr || !d.has_order || !d.has_shape))
        refuse(&c, "the header dict lacks descr, fortran_order or shape");
    if (!c.why && d.order.kind != V_BOOL)
        refuse(&c, "fortran_order is not True or False");
    if (!c.why && (d.shape.kind != V_TUPLE || !d.shape.all_ints))
        refuse(&c, "shape is not a tuple of ints");
    if (!c.why && d.shape.any_big)
        refuse(&c, "a dimension of the shape is too large");
    if (!c.why && d.shape.any_negative)
        refuse(&c, "a dimension of the shape is negative");
    if (!c.why && d.descr.kind != V_STR && d.descr.kind != V_LIST && d.descr.kind != V_TUPLE)
        refuse(&c, "descr is not a dtype description");
    if (c.why) {
        snprintf(why, 128, "%s", c.why);
        return -1;
    }
    h->descr_is_str = d.descr.kind == V_STR;
    h->descr_len = d.descr.text_len;
    if (h->descr_is_str && h->descr_len < sizeof h->descr)
        memcpy(h->descr, d.descr.text, h->descr_len);
    h->fortran_order = d.order.i != 0;
    h->rank = d.shape.n;
    memcpy(h->shape, d.shape.items, sizeof h->shape);
    return 0;
}
