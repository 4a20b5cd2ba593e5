/* kernel_jam.c - see kernel_jam.h. Three passes over the tokens of the comment-free text: the top level
 * (no global variables; helpers that cannot see which cell they serve), the kernel's body (what a
 * copy per cell may not do, and the names it declares), then the jammed body written statement by
 * statement: a fusable `for` once with the cells' copies of its body inside, any other statement
 * once per cell. */
#include "kernel/source/kernel_jam.h"
#include "kernel/source/source_text.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define JAM_DEPTH_MAX 48  /* statements nested deeper are refused (the writer recurses) */
#define JAM_SHARED_MAX 16 /* counters of fused loops in scope at once */
#define JAM_HOISTED_MAX 32 /* texel reads made before one statement's copies (more are read per cell) */
#define JAM_LOCALS_MAX 32  /* locals known to be the same in every cell or thread.x plus such (more are a cell's own) */
#define JAM_UNROLL_MAX 8   /* trips of a fused loop unrolled for its window reads */
#define JAM_UNROLL_TOKENS 256 /* the largest loop body unrolled */

typedef struct token {
    size_t at, len;
    bool ident;
} token;

/* Names (by their text) and where the jam met them: a list in the order added, indexed by a hash of
 * the text so that asking for a name costs the same with three locals or thousands. */
typedef struct names {
    int *at;    /* token indices, in the order added */
    int n, cap;
    int *slot;  /* open addressing: an index into at of each distinct name, or -1 */
    int nslots; /* 0, or a power of two more than twice n */
} names;

/* A call read a texel at a time before the copies of the statement that makes it. */
typedef struct hoisted_read {
    int call, close; /* the accessor's name and its closing parenthesis (tokens) */
    int read;        /* the number of its texel read (naming its locals) */
    bool window;     /* read at thread.x + e (e not known to be a multiple of 4): a window of texels */
} hoisted_read;

/* A local of the kernel's that every cell computes alike (`int yy = thread.y + j - 2`), or as
 * thread.x plus what every cell computes alike (`int xx = thread.x + i - 2`: cell c's is cell 0's
 * plus c). Declared once in the kernel, never written; known from its declaration on. */
typedef struct cell_local {
    int name;           /* its declaration (token) */
    bool offset;        /* thread.x plus the tokens rest .. rest_end - 1 (an additive tail, maybe none) */
    int rest, rest_end;
} cell_local;

typedef struct jam {
    const char *text; /* comments and preprocessor lines blanked (source_mask) */
    const char *source; /* as given (the same offsets) */
    token *tok;
    int ntok;
    int *pair;   /* per token: a bracket's partner, -1 for other tokens (pair_brackets) */
    int *parent; /* per token: the bracket that encloses it, -1 at the top level */
    int cells;
    const char *kernel;
    names functions;    /* every function the source defines or declares */
    names structs;      /* struct types the source defines */
    names consts;       /* the source's global constants */
    size_t macro_at[16], macro_len[16]; /* names #defined as numbers (offsets into the text) */
    int nmacros;
    names locals;       /* names the kernel's body declares (renamed per cell) */
    names declared;     /* every declaration of them, by position (for shadowing) */
    names written;      /* those of them the body writes somewhere other than in a declaration */
    int shared[JAM_SHARED_MAX]; /* counters of the fused loops around what is being written */
    int nshared;
    int kernel_name, body_open, body_close; /* tokens */
    int shared_calls; /* calls in fused loops whose arguments the cells compute alike or as neighbours */
    const kernel_jam_texels *texels; /* arrays that may be read a texel at a time */
    int ntexels;
    bool *texel_used, *window_used;
    int texel_reads; /* texel reads written so far (they number their locals) */
    hoisted_read hoisted[JAM_HOISTED_MAX]; /* in the statement whose copies are being written */
    int nhoisted;
    cell_local cell_locals[JAM_LOCALS_MAX];
    int ncell_locals;
    int unrolled[JAM_SHARED_MAX]; /* counters of the fused loops around being written unrolled (consts) */
    int nunrolled;
    const char *why;
    strbuf out;
} jam;

static bool refuse(jam *j, const char *why)
{
    if (!j->why)
        j->why = why;
    return false;
}

/* Tokens */

static bool is(const jam *j, int t, const char *s)
{
    size_t n = strlen(s);
    return t >= 0 && t < j->ntok && j->tok[t].len == n && !memcmp(j->text + j->tok[t].at, s, n);
}

static bool same(const jam *j, int a, int b)
{
    return j->tok[a].len == j->tok[b].len && !memcmp(j->text + j->tok[a].at, j->text + j->tok[b].at, j->tok[a].len);
}

static bool starts_with(const jam *j, int t, const char *prefix)
{
    size_t n = strlen(prefix);
    return j->tok[t].ident && j->tok[t].len >= n && !memcmp(j->text + j->tok[t].at, prefix, n);
}

static size_t punct_len(const char *p)
{
    static const char *const three[] = {"<<=", ">>=", NULL};
    static const char *const two[] = {"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||", "^^",
                                       "==", "!=", "<=", ">=", "<<", ">>", NULL};
    for (int i = 0; three[i]; i++)
        if (!strncmp(p, three[i], 3))
            return 3;
    for (int i = 0; two[i]; i++)
        if (!strncmp(p, two[i], 2))
            return 2;
    return 1;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool tokenize(jam *j)
{
    int cap = 0;
    const char *s = j->text;
    for (size_t i = 0; s[i];) {
        if (text_is_space(s[i])) {
            i++;
            continue;
        }
        if (s[i] == '#')
            return refuse(j, "a preprocessor line");
        size_t len = 1;
        bool ident = is_ident_start(s[i]);
        if (ident) {
            while (is_ident_char(s[i + len]))
                len++;
        } else if (is_digit(s[i]) || (s[i] == '.' && is_digit(s[i + 1]))) {
            bool hex = s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
            while (is_ident_char(s[i + len]) || s[i + len] == '.' ||
                   (!hex && (s[i + len] == '+' || s[i + len] == '-') && (s[i + len - 1] == 'e' || s[i + len - 1] == 'E')))
                len++;
        } else {
            len = punct_len(s + i);
        }
        if (j->ntok == cap) {
            cap = cap ? 2 * cap : 256;
            token *grown = realloc(j->tok, (size_t)cap * sizeof *grown);
            if (!grown)
                return refuse(j, "out of memory");
            j->tok = grown;
        }
        j->tok[j->ntok++] = (token){.at = i, .len = len, .ident = ident};
        i += len;
    }
    return true;
}

static bool opens(const jam *j, int t)
{
    return is(j, t, "(") || is(j, t, "[") || is(j, t, "{");
}

static bool closes(const jam *j, int t)
{
    return is(j, t, ")") || is(j, t, "]") || is(j, t, "}");
}

/* Pairs every bracket with its partner and notes the bracket around each token, so that match,
 * match_back and enclosing_open answer by a look-up: the reader asks them at every turn, and a scan
 * for each made a kernel of thousands of lines cost seconds. Brackets that do not pair up (text that
 * does not compile) are refused. */
static bool pair_brackets(jam *j)
{
    size_t n = j->ntok > 0 ? (size_t)j->ntok : 1;
    int *open = malloc(n * sizeof *open), depth = 0;
    j->pair = malloc(n * sizeof *j->pair);
    j->parent = malloc(n * sizeof *j->parent);
    if (!open || !j->pair || !j->parent) {
        free(open);
        return refuse(j, "out of memory");
    }
    bool paired = true;
    for (int t = 0; paired && t < j->ntok; t++) {
        j->parent[t] = depth > 0 ? open[depth - 1] : -1;
        j->pair[t] = -1;
        if (opens(j, t)) {
            open[depth++] = t;
        } else if (closes(j, t) && (paired = depth > 0)) {
            j->pair[t] = open[--depth];
            j->pair[open[depth]] = t;
        }
    }
    free(open);
    return (paired && depth == 0) || refuse(j, "an unmatched bracket");
}

/* The token closing the bracket at t, or -1. */
static int match(const jam *j, int t)
{
    return t >= 0 && t < j->ntok && opens(j, t) ? j->pair[t] : -1;
}

/* The token opening the bracket closed at t, or -1. */
static int match_back(const jam *j, int t)
{
    return t >= 0 && t < j->ntok && closes(j, t) ? j->pair[t] : -1;
}

/* Names */

static unsigned name_hash(const jam *j, int t)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < j->tok[t].len; i++)
        h = (h ^ (unsigned char)j->text[j->tok[t].at + i]) * 16777619u;
    return h;
}

/* The slot of n->slot that holds the name at token t, or the free slot where it would go. */
static int name_slot(const jam *j, const names *n, int t)
{
    int s = (int)(name_hash(j, t) & (unsigned)(n->nslots - 1));
    while (n->slot[s] >= 0 && !same(j, n->at[n->slot[s]], t))
        s = (s + 1) & (n->nslots - 1);
    return s;
}

static bool names_has(const jam *j, const names *n, int t)
{
    return n->nslots > 0 && n->slot[name_slot(j, n, t)] >= 0;
}

/* Indexes at[i] unless its name is there already (a name may be listed more than once: j->declared). */
static void names_index(const jam *j, names *n, int i)
{
    int s = name_slot(j, n, n->at[i]);
    if (n->slot[s] < 0)
        n->slot[s] = i;
}

static bool names_add(const jam *j, names *n, int t)
{
    if (n->n == n->cap) {
        int cap = n->cap ? 2 * n->cap : 16;
        int *grown = realloc(n->at, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        n->at = grown;
        n->cap = cap;
    }
    if (2 * (n->n + 1) >= n->nslots) { /* index every name again in a table twice the size */
        int nslots = n->nslots ? 2 * n->nslots : 64;
        int *slot = malloc((size_t)nslots * sizeof *slot);
        if (!slot)
            return false;
        for (int s = 0; s < nslots; s++)
            slot[s] = -1;
        free(n->slot);
        n->slot = slot;
        n->nslots = nslots;
        for (int i = 0; i < n->n; i++)
            names_index(j, n, i);
    }
    n->at[n->n] = t;
    names_index(j, n, n->n++);
    return true;
}

static void names_free(names *n)
{
    free(n->at);
    free(n->slot);
}

static bool is_macro(const jam *j, int t)
{
    for (int i = 0; i < j->nmacros; i++)
        if (j->tok[t].len == j->macro_len[i] && !memcmp(j->text + j->tok[t].at, j->source + j->macro_at[i], j->macro_len[i]))
            return true;
    return false;
}

static bool is_shared(const jam *j, int t)
{
    for (int i = 0; i < j->nshared; i++)
        if (same(j, j->shared[i], t))
            return true;
    return false;
}

static bool is_assignment(const jam *j, int t)
{
    static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--",
                                      NULL};
    for (int i = 0; ops[i]; i++)
        if (is(j, t, ops[i]))
            return true;
    return false;
}

static bool is_type(const jam *j, int t)
{
    static const char *const scalars[] = {"bool", "int", "uint", "float", "double", NULL};
    static const char *const vectors[] = {"vec", "ivec", "uvec", "bvec", "dvec", "mat", "dmat", NULL};
    if (t < 0 || t >= j->ntok || !j->tok[t].ident)
        return false;
    for (int i = 0; scalars[i]; i++)
        if (is(j, t, scalars[i]))
            return true;
    for (int i = 0; vectors[i]; i++) {
        size_t n = strlen(vectors[i]), len = j->tok[t].len;
        const char *s = j->text + j->tok[t].at;
        if (len > n && len <= n + 3 && !memcmp(s, vectors[i], n) && s[n] >= '2' && s[n] <= '4' &&
            (len == n + 1 || (s[n + 1] == 'x' && len == n + 3 && s[n + 2] >= '2' && s[n + 2] <= '4')))
            return true;
    }
    return names_has(j, &j->structs, t);
}

static bool is_qualifier(const jam *j, int t)
{
    return is(j, t, "const") || is(j, t, "precise") || is(j, t, "highp") || is(j, t, "mediump") ||
           is(j, t, "lowp") || is(j, t, "invariant");
}

/* Builtins that write an argument. */
static bool is_writing_builtin(const jam *j, int t)
{
    return is(j, t, "modf") || is(j, t, "frexp") || is(j, t, "uaddCarry") || is(j, t, "usubBorrow") ||
           is(j, t, "umulExtended") || is(j, t, "imulExtended");
}

/* The bracket that encloses token t (the nearest unmatched one before it), or -1. */
static int enclosing_open(const jam *j, int t)
{
    return t >= 0 && t < j->ntok ? j->parent[t] : -1;
}

/* Whether the expression of tokens first..last may be written by the call it is passed to: it is a
 * whole argument (in however many parentheses) of a function the source defines or declares, which
 * may take it `out` or `inout`. Builtins that write were refused already; accessors (gpuc's, outside
 * the source), constructors and the other builtins take their arguments by value. */
static bool may_be_written(const jam *j, int first, int last)
{
    for (;;) {
        if (!(is(j, first - 1, "(") || is(j, first - 1, ",")) || !(is(j, last + 1, ")") || is(j, last + 1, ",")))
            return false;
        int open = enclosing_open(j, first);
        if (open <= 0 || !is(j, open, "("))
            return false; /* an index or an initialiser list */
        if (j->tok[open - 1].ident)
            return names_has(j, &j->functions, open - 1);
        if (open != first - 1 || match(j, open) != last + 1)
            return false; /* (a, x): the comma operator's operand, not an lvalue */
        last = match(j, open);
        first = open;
    }
}

/* Whether token t reads a variable the statement may change: written by an assignment or increment,
 * or passed whole where a call may write it. */
static bool written_at(const jam *j, int t, int last)
{
    if (may_be_written(j, t, last))
        return true;
    while (is(j, t - 1, "(") && is(j, last + 1, ")") && !(t >= 2 && j->tok[t - 2].ident)) {
        t--; /* (i) = 1 and ++(i) write i: GLSL takes a parenthesised lvalue */
        last++;
    }
    if (is(j, t - 1, "++") || is(j, t - 1, "--"))
        return true;
    int after = last + 1; /* past selections: i.x = 1 writes i (GLSL 4.20 swizzles scalars), v[k] += 1 v */
    while (is(j, after, ".") || is(j, after, "[")) {
        after = is(j, after, ".") ? after + 2 : match(j, after) + 1;
        if (after <= 0)
            return true;
    }
    return is_assignment(j, after);
}

/* The top level */

/* A top-level item ended by `;` (tokens first..semi): a const, a struct type, a precision statement or
 * a function's prototype; anything else declares a variable every cell of the call would share. */
static bool check_declaration(jam *j, int first, int semi)
{
    if (is(j, first, "precision"))
        return true;
    if (is(j, first, "const")) { /* its names may bound a fused loop */
        for (int t = first + 1, depth = 0; t < semi; t++) {
            if (depth == 0 && j->tok[t].ident && !is_type(j, t) && !is_qualifier(j, t) &&
                (is_type(j, t - 1) || is(j, t - 1, "]") || is(j, t - 1, ",")) && !names_add(j, &j->consts, t))
                return refuse(j, "out of memory");
            depth += opens(j, t) ? 1 : closes(j, t) ? -1 : 0;
        }
        return true;
    }
    if (is(j, first, "struct") && j->tok[first + 1].ident && is(j, first + 2, "{") && match(j, first + 2) == semi - 1)
        return names_add(j, &j->structs, first + 1) || refuse(j, "out of memory");
    if (is(j, semi - 1, ")")) {
        int open = match_back(j, semi - 1);
        bool plain = open > first && j->tok[open - 1].ident;
        for (int t = first; plain && t < open; t++)
            plain = j->tok[t].ident && !is(j, t, "uniform") && !is(j, t, "buffer") && !is(j, t, "shared") &&
                    !is(j, t, "layout") && !is(j, t, "in") && !is(j, t, "out");
        if (plain)
            return names_add(j, &j->functions, open - 1) || refuse(j, "out of memory");
    }
    return refuse(j, "a global variable");
}

/* A helper function (its name token to its closing brace) must not see which cell it serves. */
static bool check_helper(jam *j, int name, int close)
{
    if (is(j, name, j->kernel))
        return refuse(j, "the kernel function is overloaded");
    for (int t = name; t < close; t++) {
        if (is(j, t, "thread") || is(j, t, j->kernel))
            return refuse(j, "a helper function reads `thread` or calls the kernel");
        if (starts_with(j, t, "gl_") || (starts_with(j, t, "gpuc_") && !starts_with(j, t, "gpuc_size_") &&
                                          !starts_with(j, t, "gpuc_cnstv")))
            return refuse(j, "a gl_ variable or a gpuc_ name in a helper");
    }
    return true;
}

static bool scan_top(jam *j)
{
    j->kernel_name = -1;
    for (int t = 0; t < j->ntok;) {
        int first = t, depth = 0;
        for (;; t++) {
            if (t >= j->ntok)
                return refuse(j, "a top-level item without its end");
            if (is(j, t, "(") || is(j, t, "["))
                depth++;
            else if (is(j, t, ")") || is(j, t, "]"))
                depth--;
            if (is(j, t, "{")) {
                int close = match(j, t);
                if (close < 0)
                    return refuse(j, "an unmatched brace");
                if (depth == 0 && is(j, t - 1, ")")) { /* a function's definition */
                    int open = match_back(j, t - 1);
                    if (open <= first || !j->tok[open - 1].ident)
                        return refuse(j, "a function the reader does not follow");
                    int name = open - 1;
                    if (!names_add(j, &j->functions, name))
                        return refuse(j, "out of memory");
                    if (is(j, name, j->kernel) && j->kernel_name < 0 && close == j->ntok - 1) {
                        j->kernel_name = name;
                        j->body_open = t;
                        j->body_close = close;
                    } else if (!check_helper(j, name, close)) {
                        return false;
                    }
                    t = close + 1;
                    break;
                }
                t = close; /* a struct's fields or an initialiser list */
            } else if (is(j, t, ";") && depth == 0) {
                if (!check_declaration(j, first, t))
                    return false;
                t++;
                break;
            }
        }
    }
    if (j->kernel_name < 0)
        return refuse(j, "the kernel is not the source's last function");
    if (!is(j, j->kernel_name + 1, "(") || match(j, j->kernel_name + 1) != j->kernel_name + 2)
        return refuse(j, "the kernel function has parameters");
    return true;
}

/* Preprocessor lines: the jam follows a source whose directives all come before the kernel function
 * (gpuc_jam, placed after the source, then sees the macros the kernel sees), whose macros used in
 * code are plain numbers and whose conditionals are #if 0 / #if 1 (source_unfollowed, as the loop
 * reader asks); `comments` is the source with only its comments blanked. A number's name may bound a
 * fused loop, as a global const may. */
static bool check_directives(jam *j, const char *comments)
{
    bool any = false;
    size_t kernel_at = j->tok[j->kernel_name - 1].at;
    for (const char *line = comments; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] ? 1 : 0)) {
        const char *p = line;
        while (text_is_blank(*p))
            p++;
        if (*p != '#')
            continue;
        any = true;
        if ((size_t)(p - comments) > kernel_at)
            return refuse(j, "a preprocessor line after the kernel's start");
        for (p++; text_is_blank(*p); p++)
            ;
        size_t word = 0;
        while (is_ident_char(p[word]))
            word++;
        static const char *const allowed[] = {"if", "elif", "else", "endif", "pragma", "extension", "line", NULL};
        bool ok = word == 6 && !strncmp(p, "define", 6);
        for (int i = 0; !ok && allowed[i]; i++)
            ok = word == strlen(allowed[i]) && !strncmp(p, allowed[i], word);
        if (!ok)
            return refuse(j, "a preprocessor line the jam does not follow (#undef, #error...)");
        if (word != 6 || strncmp(p, "define", 6))
            continue;
        const char *name = p + word;
        while (text_is_blank(*name))
            name++;
        size_t len = 0;
        while (is_ident_char(name[len]))
            len++;
        const char *body = name + len;
        while (text_is_blank(*body))
            body++;
        size_t digits = 0;
        while (is_ident_char(body[digits]) || body[digits] == '.')
            digits++;
        const char *after = body + digits;
        while (text_is_blank(*after))
            after++;
        bool number = len > 0 && is_digit(*body) && (*after == '\n' || *after == '\0');
        if (number && j->nmacros < (int)(sizeof j->macro_at / sizeof j->macro_at[0])) {
            j->macro_at[j->nmacros] = (size_t)(name - comments);
            j->macro_len[j->nmacros++] = len;
        }
    }
    if (any && source_unfollowed(j->source, j->text) != (size_t)-1)
        return refuse(j, "a macro or a conditional the reader does not follow");
    return true;
}

/* The kernel's body */

/* Token t starts a declaration: a type (after qualifiers) at the start of a statement or of a for
 * loop's header, followed by a name or an array size. */
static bool declaration_at(const jam *j, int t)
{
    if (!is_type(j, t) || !(j->tok[t + 1].ident || is(j, t + 1, "[")))
        return false;
    int before = t - 1;
    while (is_qualifier(j, before))
        before--;
    return is(j, before, "{") || is(j, before, "}") || is(j, before, ";") ||
           (is(j, before, "(") && is(j, before - 1, "for"));
}

/* Adds the names the declaration at type token t declares (`float a = 1.0, b[2];`). */
static bool add_declared(jam *j, int t)
{
    int at = t + 1;
    if (is(j, at, "["))
        at = match(j, at) + 1;
    for (int depth = 0; at > 0 && at < j->body_close; at++) {
        if (depth == 0 && j->tok[at].ident && (is(j, at - 1, ",") || at == t + 1 || is(j, at - 1, "]"))) {
            if (is(j, at, "thread") || starts_with(j, at, "gpuc_"))
                return refuse(j, "a local named thread or gpuc_");
            if ((!names_has(j, &j->locals, at) && !names_add(j, &j->locals, at)) || !names_add(j, &j->declared, at))
                return refuse(j, "out of memory");
        }
        if (opens(j, at))
            depth++;
        else if (closes(j, at) && --depth < 0)
            break;
        else if (depth == 0 && is(j, at, ";"))
            break;
    }
    return true;
}

/* Notes the locals the body writes other than where it declares them (an initialiser writes its own
 * declarator), once for all the readers that ask. */
static bool note_written(jam *j)
{
    int d = 0; /* j->declared holds the declarators in the order of the text */
    for (int t = j->body_open + 1; t < j->body_close; t++) {
        while (d < j->declared.n && j->declared.at[d] < t)
            d++;
        bool declarator = d < j->declared.n && j->declared.at[d] == t;
        if (!declarator && j->tok[t].ident && !is(j, t - 1, ".") && names_has(j, &j->locals, t) &&
            !names_has(j, &j->written, t) && written_at(j, t, t) && !names_add(j, &j->written, t))
            return refuse(j, "out of memory");
    }
    return true;
}

static bool check_body(jam *j)
{
    for (int t = j->body_open + 1; t < j->body_close; t++) {
        if (!j->tok[t].ident || is(j, t - 1, "."))
            continue;
        if (starts_with(j, t, "gl_"))
            return refuse(j, "a gl_ variable");
        if (starts_with(j, t, "gpuc_") && !starts_with(j, t, "gpuc_size_") && !starts_with(j, t, "gpuc_cnstv"))
            return refuse(j, "a gpuc_ name");
        if (is(j, t, "break") || is(j, t, "continue") || is(j, t, "discard"))
            return refuse(j, "break, continue or discard");
        if (is(j, t, "outputIndex") || is(j, t, "color") || is(j, t, j->kernel))
            return refuse(j, "outputIndex, color() or a call of the kernel");
        if (is_writing_builtin(j, t))
            return refuse(j, "a builtin that writes its argument");
        if (is(j, t, "thread")) {
            if (!is(j, t + 1, ".") || !(is(j, t + 2, "x") || is(j, t + 2, "y") || is(j, t + 2, "z")))
                return refuse(j, "`thread` read other than as thread.x, .y or .z");
            if (is(j, t + 3, ".") || is(j, t + 3, "[") || written_at(j, t, t + 2))
                return refuse(j, "`thread` written");
        }
        if (declaration_at(j, t) && !add_declared(j, t))
            return false;
    }
    return note_written(j);
}

/* Statements */

/* The end (exclusive) of the statement starting at t, within end; -1 when the reader cannot say. */
static int statement_end(const jam *j, int t, int end, int depth)
{
    if (t >= end || depth > JAM_DEPTH_MAX)
        return -1;
    if (is(j, t, "{")) {
        int close = match(j, t);
        return close < 0 || close >= end ? -1 : close + 1;
    }
    if (is(j, t, "for") || is(j, t, "while") || is(j, t, "if") || is(j, t, "switch")) {
        int close = is(j, t + 1, "(") ? match(j, t + 1) : -1;
        if (close < 0 || close >= end)
            return -1;
        int after = statement_end(j, close + 1, end, depth + 1);
        if (after > 0 && is(j, t, "if") && is(j, after, "else"))
            after = statement_end(j, after + 1, end, depth + 1);
        return after;
    }
    if (is(j, t, "do")) {
        int body = statement_end(j, t + 1, end, depth + 1);
        if (body < 0 || !is(j, body, "while") || !is(j, body + 1, "("))
            return -1;
        int close = match(j, body + 1);
        return close > 0 && close + 1 < end && is(j, close + 1, ";") ? close + 2 : -1;
    }
    for (int at = t; at < end; at++) {
        if (opens(j, at)) {
            at = match(j, at);
            if (at < 0)
                return -1;
        } else if (closes(j, at)) {
            return -1;
        } else if (is(j, at, ";")) {
            return at + 1;
        }
    }
    return -1;
}

/* The entry of j->hoisted whose call starts at token t, or -1. */
static int hoisted_at(const jam *j, int t)
{
    for (int h = 0; h < j->nhoisted; h++)
        if (j->hoisted[h].call == t)
            return h;
    return -1;
}

/* Writes tokens first..end-1, with the text between them, as cell `cell` sees them (cell < 0: as they
 * are): its locals renamed, thread.x its own, a call read before the copies its component of it. */
static void put_tokens(jam *j, int first, int end, int cell)
{
    for (int t = first; t < end; t++) {
        if (t > first)
            strbuf_append(&j->out, j->text + j->tok[t - 1].at + j->tok[t - 1].len,
                          j->tok[t].at - (j->tok[t - 1].at + j->tok[t - 1].len));
        int h = cell >= 0 ? hoisted_at(j, t) : -1;
        if (h >= 0 && j->hoisted[h].window) {
            int r = j->hoisted[h].read;
            strbuf_printf(&j->out, "gpuc_window_%d[(gpuc_shift_%d + %d) >> 2][(gpuc_shift_%d + %d) & 3]", r, r, cell, r,
                          cell);
            t = j->hoisted[h].close;
            continue;
        }
        if (h >= 0) {
            strbuf_printf(&j->out, "gpuc_texels_%d_%d.%c", j->hoisted[h].read, cell / 4, "xyzw"[cell % 4]);
            t = j->hoisted[h].close;
            continue;
        }
        const token *k = &j->tok[t];
        if (cell >= 0 && k->ident && !is(j, t - 1, ".")) {
            if (is(j, t, "thread") && is(j, t + 2, "x")) {
                if (cell > 0)
                    strbuf_printf(&j->out, "(thread.x + %d)", cell);
                else
                    strbuf_puts(&j->out, "thread.x");
                t += 2;
                continue;
            }
            if (names_has(j, &j->locals, t) && !is_shared(j, t)) {
                strbuf_printf(&j->out, "gpuc_j%d_%.*s", cell, (int)k->len, j->text + k->at);
                continue;
            }
        }
        strbuf_append(&j->out, j->text + k->at, k->len);
    }
}

/* Whether the name at token t (no fused counter, no type) is the same in every cell and never written
 * in the kernel: thread.y or .z, gpuc's constants and sizes, a global const or #defined number,
 * true or false; a local of the kernel's that shares the name is none of these. */
static bool reads_global(const jam *j, int at)
{
    return !names_has(j, &j->locals, at) &&
           ((is(j, at, "thread") && !is(j, at + 2, "x")) || is(j, at, "outputSize") || is(j, at, "constants") ||
            starts_with(j, at, "gpuc_size_") || is(j, at, "true") || is(j, at, "false") ||
            names_has(j, &j->consts, at) || is_macro(j, at));
}

/* Whether the loop at `for` token t (body first..end-1) runs the same iterations for every cell:
 * its header declares its counters and reads nothing else but numbers, constants (gpuc's, and the
 * source's global `const`s), uniforms, thread.y and .z and the counters of the fused loops around
 * it; its body neither writes nor redeclares them. On
 * success the counters are pushed on j->shared (the caller pops them). */
static bool fusable(jam *j, int t, int first, int end)
{
    int open = t + 1, close = first - 1;
    int counters = j->nshared;
    if (!declaration_at(j, open + 1))
        return false;
    int init_end = open + 1;
    while (init_end > 0 && init_end < close && !is(j, init_end, ";"))
        init_end = opens(j, init_end) ? match(j, init_end) + 1 : init_end + 1;
    if (init_end <= 0)
        return false;
    for (int d = 0; d < j->declared.n; d++)
        if (j->declared.at[d] > open && j->declared.at[d] < init_end) {
            if (j->nshared == JAM_SHARED_MAX)
                goto refused;
            j->shared[j->nshared++] = j->declared.at[d];
        }
    if (j->nshared == counters)
        goto refused;
    for (int at = open + 1; at < close; at++) {
        if (!j->tok[at].ident || is(j, at - 1, ".") || is_type(j, at) || is_shared(j, at))
            continue;
        if (!reads_global(j, at))
            goto refused;
    }
    for (int d = 0; d < j->declared.n; d++) /* a counter declared again inside */
        for (int c = counters; c < j->nshared; c++)
            if (j->declared.at[d] >= first && j->declared.at[d] < end && same(j, j->declared.at[d], j->shared[c]))
                goto refused;
    for (int at = first; at < end; at++)
        for (int c = counters; c < j->nshared; c++)
            if (same(j, at, j->shared[c]) && !is(j, at - 1, ".") && written_at(j, at, at))
                goto refused;
    return true;
refused:
    j->nshared = counters;
    return false;
}

/* Whether the call whose '(' is at open reads what the cells share (kernel_jam's condition to jam at
 * all): its arguments name a fused loop's counter and no cell's own local, and thread.x only as an
 * offset (thread.x + e: neighbouring cells read neighbouring places, which the compiler merges), not
 * scaled (thread.x * 4096 + i: each cell a chunk of its own, where the jam shares nothing and only
 * costs the lanes it takes). */
static bool shares_reads(const jam *j, int open)
{
    int close = match(j, open);
    bool counter = false;
    for (int t = open + 1; t > 0 && t < close; t++) {
        if (!j->tok[t].ident || is(j, t - 1, "."))
            continue;
        if (is_shared(j, t))
            counter = true;
        else if (names_has(j, &j->locals, t))
            return false;
        else if (is(j, t, "thread") && is(j, t + 2, "x")) {
            static const char *const scales[] = {"*", "/", "%", "<<", ">>", NULL};
            for (int i = 0; scales[i]; i++)
                if (is(j, t - 1, scales[i]) || is(j, t + 3, scales[i]))
                    return false;
        }
    }
    return counter;
}

/* Texel reads (kernel_jam.h) */

/* The first token of the last argument of the call whose parentheses are open .. close (open + 1
 * where it has one argument, or none). */
static int last_argument(const jam *j, int open, int close)
{
    int last = open + 1;
    for (int a = open + 1; a > 0 && a < close; a = opens(j, a) ? match(j, a) + 1 : a + 1)
        if (is(j, a, ","))
            last = a + 1;
    return last;
}

/* The end of the declarator whose name is token `name` (`int a = f(x, y), b;`): its comma or the
 * statement's semicolon, brackets skipped; -1 where neither comes before token `limit`. */
static int declarator_end(const jam *j, int name, int limit)
{
    int t = name + 1;
    while (t > 0 && t < limit && !is(j, t, ",") && !is(j, t, ";"))
        t = opens(j, t) ? match(j, t) + 1 : t + 1;
    return t > 0 && t < limit ? t : -1;
}

/* The one declaration in the kernel's body of the name at token t (a token of j->declared), or -1
 * where it has none or several. */
static int declaration_of(const jam *j, int t)
{
    int found = -1;
    for (int d = 0; d < j->declared.n; d++)
        if (same(j, j->declared.at[d], t)) {
            if (found >= 0)
                return -1;
            found = j->declared.at[d];
        }
    return found;
}

/* The entry of j->texels whose accessor the name at token t calls, or -1. */
static int texel_array(const jam *j, int t)
{
    if (!j->tok[t].ident || !is(j, t + 1, "(") || is(j, t - 1, ".") || names_has(j, &j->locals, t))
        return -1;
    for (int i = 0; i < j->ntexels; i++)
        if (is(j, t, j->texels[i].name))
            return i;
    return -1;
}

/* The local token t names, as the statement starting at token `at` sees it, where the jam knows it
 * to be a cell_local: declared before that statement, in a block around it. NULL otherwise. */
static const cell_local *cell_local_seen(const jam *j, int t, int at)
{
    if (!j->tok[t].ident || is(j, t - 1, "."))
        return NULL;
    for (int i = 0; i < j->ncell_locals; i++) {
        const cell_local *l = &j->cell_locals[i];
        if (same(j, l->name, t)) {
            int open = enclosing_open(j, l->name);
            return l->name < at && open >= 0 && is(j, open, "{") && match(j, open) > at ? l : NULL;
        }
    }
    return NULL;
}

/* Whether tokens first..end-1 compute the same value in every cell wherever they stand in the fused
 * loops' bodies of the statement starting at token `at`: numbers, operators other than writes, fused
 * counters (never written there: fusable), what reads_global allows, locals every cell computes alike,
 * constructors and calls of those (accessors and builtins compute from their arguments, and so do
 * helpers: they see no `thread`, and there are no global variables). */
static bool same_in_every_cell(const jam *j, int first, int end, int at)
{
    for (int t = first; t < end; t++) {
        if (is_assignment(j, t))
            return false;
        if (!j->tok[t].ident || is(j, t - 1, ".") || is_shared(j, t) || is_type(j, t))
            continue;
        const cell_local *l = cell_local_seen(j, t, at);
        if (l && !l->offset)
            continue;
        if (names_has(j, &j->locals, t) || !(is(j, t + 1, "(") || reads_global(j, t)))
            return false;
    }
    return true;
}

/* Whether tokens first..end-1 are a tail that adds to what stands before it: empty, or starting with
 * + or - and holding no operator that binds less than they do outside brackets (thread.x + i - 2 is
 * thread.x + (i - 2); thread.x + i & 3 is not). */
static bool additive_tail(const jam *j, int first, int end)
{
    static const char *const looser[] = {"<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||",
                                         "^^", "?", ":", ",", NULL};
    if (first == end)
        return true;
    if (!is(j, first, "+") && !is(j, first, "-"))
        return false;
    for (int t = first; t < end; t++) {
        if (opens(j, t)) {
            t = match(j, t);
            if (t < 0 || t >= end)
                return false;
            continue;
        }
        if (is_assignment(j, t))
            return false;
        for (int i = 0; looser[i]; i++)
            if (is(j, t, looser[i]))
                return false;
    }
    return true;
}

/* Whether tokens first..end-1 are known when the program is compiled: numbers, operators other than
 * writes, counters of unrolled loops (consts there), the source's global consts and #defined numbers. */
static bool compiled_in(const jam *j, int first, int end)
{
    for (int t = first; t < end; t++) {
        if (is_assignment(j, t))
            return false;
        if (!j->tok[t].ident || is(j, t - 1, ".") || is_type(j, t))
            continue;
        bool unrolled = false;
        for (int u = 0; u < j->nunrolled; u++)
            unrolled = unrolled || same(j, j->unrolled[u], t);
        if (!unrolled && (names_has(j, &j->locals, t) || !(names_has(j, &j->consts, t) || is_macro(j, t))))
            return false;
    }
    return true;
}

/* Where the call at name token t reads the cells' neighbouring elements (its leading arguments the
 * same in every cell of the statement starting at `at`, its last thread.x + e with e the same in every
 * cell): its closing token, with the last argument's first token in *last_arg and e's tokens in
 * *rest .. *rest_end - 1 (e = 0 where they are none; thread.x + e written directly or as a
 * cell_local), or -1. A read whose e is not compiled in is left
 * to the cells: picking cell c's element of the window at a varying place costs more than the gathers
 * it saves (docs/performance/cpu-runtimes.md). */
static int texel_call_close(const jam *j, int t, int at, int *last_arg, int *rest, int *rest_end)
{
    int open = t + 1, close = match(j, open);
    if (close < 0)
        return -1;
    int last = last_argument(j, open, close);
    if (last == close || (last > open + 1 && !same_in_every_cell(j, open + 1, last - 1, at)))
        return -1;
    *last_arg = last;
    const cell_local *l = last + 1 == close ? cell_local_seen(j, last, at) : NULL;
    if (l && l->offset) {
        *rest = l->rest;
        *rest_end = l->rest_end;
    } else if (is(j, last, "thread") && is(j, last + 1, ".") && is(j, last + 2, "x") &&
               additive_tail(j, last + 3, close) &&
               same_in_every_cell(j, last + 3, close, at)) {
        *rest = last + 3;
        *rest_end = close;
    } else {
        return -1;
    }
    return *rest == *rest_end || compiled_in(j, *rest, *rest_end) ? close : -1;
}

/* Before the cells' copies of the statement t..end-1 inside fused loops: each call in it that reads
 * the cells' neighbouring elements read once for the group; put_tokens then writes each cell's
 * element in its place. At thread.x (matmul's b(i, thread.x)) that is a texel per four cells, cell c
 * taking component c % 4 of texel c / 4. At thread.x + e (conv5's img(yy, xx), xx = thread.x + i - 2)
 * the elements from thread.x + e on start s = e & 3 into the texel at thread.x + (e & ~3) (thread.x
 * is a multiple of 4): cells / 4 + 1 texels from there hold them, cell c's element s + c. The reads
 * are made where the copies would make them, unconditionally (a read has no effect, and one outside
 * the array reads 0, as the element would). */
static void hoist_texel_reads(jam *j, int t, int end)
{
    j->nhoisted = 0;
    if (j->nshared == 0 || j->cells % 4 != 0)
        return;
    for (int at = t; at < end && j->nhoisted < JAM_HOISTED_MAX; at++) {
        int last = -1, rest = -1, rest_end = -1;
        int array = texel_array(j, at), close = array < 0 ? -1 : texel_call_close(j, at, t, &last, &rest, &rest_end);
        if (close < 0)
            continue;
        int read = j->texel_reads++;
        bool window = rest < rest_end;
        const char *type = j->texels[array].type;
        int texels = j->cells / 4 + (window ? 1 : 0);
        if (window) {
            strbuf_printf(&j->out, "int gpuc_shift_%d = int(0 ", read);
            put_tokens(j, rest, rest_end, -1);
            strbuf_printf(&j->out, ") & 3;\n%s gpuc_window_%d[%d] = %s[%d](", type, read, texels, type, texels);
        }
        for (int q = 0; q < texels; q++) {
            if (window)
                strbuf_printf(&j->out, "%s", q ? ", " : "");
            else
                strbuf_printf(&j->out, "%s gpuc_texels_%d_%d = ", type, read, q);
            strbuf_printf(&j->out, "gpuc_texel_%s(", j->texels[array].name);
            put_tokens(j, at + 2, last, 0); /* the leading arguments and their comma, as cell 0 sees them */
            strbuf_puts(&j->out, last > at + 2 ? " thread.x" : "thread.x");
            if (window) {
                strbuf_puts(&j->out, " + (int(0 ");
                put_tokens(j, rest, rest_end, -1);
                strbuf_puts(&j->out, ") & ~3)");
            }
            if (q)
                strbuf_printf(&j->out, " + %d", 4 * q);
            strbuf_puts(&j->out, window ? ")" : ");\n");
        }
        if (window)
            strbuf_puts(&j->out, ");\n");
        j->hoisted[j->nhoisted++] = (hoisted_read){.call = at, .close = close, .read = read, .window = window};
        if (j->texel_used)
            j->texel_used[array] = true;
        if (j->window_used && window)
            j->window_used[array] = true;
        at = close;
    }
}

/* The locals the declaration statement t..end-1 declares that every cell computes alike, or as
 * thread.x plus such (int only): each declared nowhere else in the kernel and never written, its
 * initialiser read from the statement's place. */
static void note_cell_locals(jam *j, int t, int end)
{
    int type = t;
    while (is_qualifier(j, type))
        type++;
    if (!declaration_at(j, type) || is(j, type + 1, "["))
        return;
    for (int name = type + 1; name > 0 && name < end - 1 && j->ncell_locals < JAM_LOCALS_MAX;) {
        int stop = declarator_end(j, name, end);
        if (stop < 0)
            return;
        if (j->tok[name].ident && is(j, name + 1, "=") && declaration_of(j, name) == name &&
            !names_has(j, &j->written, name)) {
            int init = name + 2;
            cell_local l = {.name = name};
            if (is(j, type, "int") && is(j, init, "thread") && is(j, init + 2, "x") && additive_tail(j, init + 3, stop) &&
                same_in_every_cell(j, init + 3, stop, t))
                l = (cell_local){.name = name, .offset = true, .rest = init + 3, .rest_end = stop};
            if (l.offset || same_in_every_cell(j, init, stop, t))
                j->cell_locals[j->ncell_locals++] = l;
        }
        name = stop + 1;
    }
}

/* Unrolling. A fused loop `for (int c = A; c < B; c++)` (or <=, ++c, c += 1; A and B whole numbers)
 * of at most JAM_UNROLL_MAX trips whose body has no loop is written once per trip, each copy in a
 * block of its own that starts `const int c = <trip's value>;`, where the body reads a row's
 * neighbours at an offset that is then compiled in (conv5's img(yy, thread.x + i - 2)): the window's
 * place and each cell's element in it fold to constants. The same iterations in the same order (the
 * body never writes c: fusable; break and continue are refused). */

/* The whole number at *t (a minus sign allowed; decimal: 010 is octal in GLSL), moving *t past it. */
static bool whole_number(const jam *j, int *t, long *value)
{
    bool minus = is(j, *t, "-");
    int at = *t + (minus ? 1 : 0);
    if (at >= j->ntok || j->tok[at].ident || j->tok[at].len > 6 ||
        (j->tok[at].len > 1 && j->text[j->tok[at].at] == '0'))
        return false;
    long v = 0;
    for (size_t i = 0; i < j->tok[at].len; i++) {
        char c = j->text[j->tok[at].at + i];
        if (!is_digit(c))
            return false;
        v = 10 * v + (c - '0');
    }
    *value = minus ? -v : v;
    *t = at + 1;
    return true;
}

/* Whether tokens first..end-1 name the counter at token c. */
static bool mentions(const jam *j, int first, int end, int c)
{
    for (int t = first; t < end; t++)
        if (same(j, t, c) && !is(j, t - 1, "."))
            return true;
    return false;
}

/* The trips of the fusable loop at `for` token t (body first..end-1) when it is unrolled, its first
 * value in *from; 0 when it is not. */
static int unroll_trips(const jam *j, int t, int first, int end, long *from)
{
    int c = t + 3, at = t + 5;
    long to;
    if (j->ntexels == 0 || j->cells % 4 != 0 || end - first > JAM_UNROLL_TOKENS || !is(j, t + 2, "int") ||
        !j->tok[c].ident || !is(j, t + 4, "=") || !whole_number(j, &at, from) || !is(j, at, ";") ||
        !same(j, at + 1, c) || !(is(j, at + 2, "<") || is(j, at + 2, "<=")))
        return 0;
    bool inclusive = is(j, at + 2, "<=");
    at += 3;
    if (!whole_number(j, &at, &to) || !is(j, at, ";"))
        return 0;
    at++;
    if ((same(j, at, c) && is(j, at + 1, "++")) || (is(j, at, "++") && same(j, at + 1, c)))
        at += 2;
    else if (same(j, at, c) && is(j, at + 1, "+=") && is(j, at + 2, "1"))
        at += 3;
    else
        return 0;
    long trips = to - *from + (inclusive ? 1 : 0);
    if (at != first - 1 || trips < 1 || trips > JAM_UNROLL_MAX)
        return 0;
    bool pays = false;
    for (int b = first; b < end; b++) {
        if (is(j, b, "for") || is(j, b, "while") || is(j, b, "do"))
            return 0;
        if (pays || texel_array(j, b) < 0)
            continue;
        int close = match(j, b + 1), last = last_argument(j, b + 1, close);
        pays = mentions(j, last, close, c) && is(j, last, "thread");
        int name = !pays && last + 1 == close ? declaration_of(j, last) : -1; /* or a local declared once as thread.x + e */
        if (name >= 0 && is(j, name + 2, "thread")) {
            int stop = declarator_end(j, name, end);
            pays = stop > 0 && mentions(j, name + 2, stop, c);
        }
    }
    return pays ? (int)trips : 0;
}

static bool put_list(jam *j, int first, int end, bool top, int depth);

static bool put_statement(jam *j, int t, int end, int depth)
{
    if (depth > JAM_DEPTH_MAX)
        return refuse(j, "statements nested too deeply");
    if (is(j, t, "{")) {
        strbuf_puts(&j->out, "{\n");
        bool ok = put_list(j, t + 1, end - 1, false, depth + 1);
        strbuf_puts(&j->out, "}\n");
        return ok;
    }
    if (is(j, t, "for")) {
        int close = match(j, t + 1), first = close + 1;
        int counters = j->nshared;
        if (fusable(j, t, first, end)) {
            for (int at = first; at + 1 < end; at++)
                if (j->tok[at].ident && is(j, at + 1, "(") && shares_reads(j, at + 1))
                    j->shared_calls++;
            bool braced = is(j, first, "{"), ok = true;
            long from = 0;
            int trips = unroll_trips(j, t, first, end, &from);
            if (trips > 0)
                j->unrolled[j->nunrolled++] = t + 3;
            for (int trip = 0; ok && trip < (trips > 0 ? trips : 1); trip++) {
                if (trips > 0) {
                    strbuf_printf(&j->out, "{\nconst int %.*s = %ld;\n", (int)j->tok[t + 3].len,
                                  j->text + j->tok[t + 3].at, from + trip);
                } else {
                    put_tokens(j, t, first, -1);
                    strbuf_puts(&j->out, " {\n");
                }
                ok = put_list(j, braced ? first + 1 : first, braced ? end - 1 : end, false, depth + 1);
                strbuf_puts(&j->out, "}\n");
            }
            if (trips > 0)
                j->nunrolled--;
            j->nshared = counters;
            return ok;
        }
    }
    for (int at = t; at < end; at++)
        if (is(j, at, "return"))
            return refuse(j, "a return inside the kernel's statements");
    hoist_texel_reads(j, t, end);
    note_cell_locals(j, t, end);
    for (int cell = 0; cell < j->cells; cell++) {
        put_tokens(j, t, end, cell);
        strbuf_puts(&j->out, "\n");
    }
    j->nhoisted = 0;
    return true;
}

static bool put_list(jam *j, int first, int end, bool top, int depth)
{
    for (int t = first; t < end;) {
        int next = statement_end(j, t, end, depth);
        if (next < 0)
            return refuse(j, "a statement the reader does not follow");
        if (top && is(j, t, "return")) { /* what follows it never runs */
            for (int cell = 0; cell < j->cells; cell++) {
                strbuf_printf(&j->out, "gpuc_jam_%d = ", cell);
                put_tokens(j, t + 1, next, cell);
                strbuf_puts(&j->out, "\n");
            }
            return true;
        }
        if (!put_statement(j, t, next, depth))
            return false;
        t = next;
    }
    return top ? refuse(j, "the kernel's body does not end in a return") : true;
}

char *kernel_jam(const char *text, const char *kernel, int cells, const kernel_jam_texels *texels, int ntexels,
                 bool *texel_used, bool *window_used, const char **why)
{
    jam j = {.kernel = kernel, .cells = cells, .source = text, .texels = texels, .ntexels = ntexels,
             .texel_used = texel_used, .window_used = window_used};
    for (int i = 0; i < ntexels; i++) {
        if (texel_used)
            texel_used[i] = false;
        if (window_used)
            window_used[i] = false;
    }
    char *comments = source_mask_comments(text), *mask = comments ? source_mask(text) : NULL;
    j.text = mask;
    char *result = NULL;
    if (!mask)
        refuse(&j, "out of memory");
    else if (cells >= 2 && tokenize(&j) && pair_brackets(&j) && scan_top(&j) && check_directives(&j, comments) && check_body(&j)) {
        int type_first = j.kernel_name - 1; /* the return type, with its qualifiers */
        while (type_first > 0 && j.tok[type_first - 1].ident)
            type_first--;
        const char *type_from = j.text + j.tok[type_first].at;
        size_t type_len = j.tok[j.kernel_name - 1].at + j.tok[j.kernel_name - 1].len - j.tok[type_first].at;
        strbuf_printf(&j.out, "void %s(", KERNEL_JAM_FUNCTION);
        for (int c = 0; c < cells; c++)
            strbuf_printf(&j.out, "%sout %.*s gpuc_jam_%d", c ? ", " : "", (int)type_len, type_from, c);
        strbuf_puts(&j.out, ") {\n");
        if (put_list(&j, j.body_open + 1, j.body_close, true, 0) &&
            (j.shared_calls > 0 || refuse(&j, "no read in a fused loop that its cells share"))) {
            strbuf_puts(&j.out, "}\n");
            result = strbuf_take(&j.out);
            if (!result)
                refuse(&j, "out of memory");
        }
    }
    strbuf_free(&j.out);
    free(j.tok);
    free(j.pair);
    free(j.parent);
    names_free(&j.functions);
    names_free(&j.structs);
    names_free(&j.consts);
    names_free(&j.locals);
    names_free(&j.declared);
    names_free(&j.written);
    free(mask);
    free(comments);
    for (int i = 0; !result && i < ntexels; i++) {
        if (texel_used)
            texel_used[i] = false;
        if (window_used)
            window_used[i] = false;
    }
    if (why)
        *why = result ? NULL : j.why ? j.why : "the kernel";
    return result;
}
