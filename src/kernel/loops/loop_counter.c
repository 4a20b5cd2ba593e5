/* loop_counter.c - see loop_counter.h. Each occurrence is widened over what keeps it an lvalue
 * (parentheses, swizzles, indices), then the tokens on either side of the widened expression decide. */
#include "kernel/loops/loop_counter.h"

#include <stdint.h>
#include <string.h>

#define NONE SIZE_MAX

/* GLSL 4.30's built-in functions with an out or inout parameter (chapter 8): a counter passed to
 * any of their parameters counts as written. */
static const char *const writing_builtins[] = {
    "frexp", "modf", "uaddCarry", "usubBorrow", "umulExtended", "imulExtended", "atomicAdd", "atomicMin",
    "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicExchange", "atomicCompSwap", "imageAtomicAdd",
    "imageAtomicMin", "imageAtomicMax", "imageAtomicAnd", "imageAtomicOr", "imageAtomicXor",
    "imageAtomicExchange", "imageAtomicCompSwap", "atomicCounterIncrement", "atomicCounterDecrement", NULL};

/* GLSL 4.30's other built-in functions: every parameter is `in`. */
static const char *const reading_builtins[] = {
    "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "abs", "sign", "floor", "trunc", "round",
    "roundEven", "ceil", "fract", "mod", "min", "max", "clamp", "mix", "step", "smoothstep", "isnan", "isinf",
    "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat", "fma", "ldexp", "packUnorm2x16",
    "packSnorm2x16", "packUnorm4x8", "packSnorm4x8", "unpackUnorm2x16", "unpackSnorm2x16", "unpackUnorm4x8",
    "unpackSnorm4x8", "packDouble2x32", "unpackDouble2x32", "packHalf2x16", "unpackHalf2x16", "length",
    "distance", "dot", "cross", "normalize", "faceforward", "reflect", "refract", "matrixCompMult",
    "outerProduct", "transpose", "determinant", "inverse", "lessThan", "lessThanEqual", "greaterThan",
    "greaterThanEqual", "equal", "notEqual", "any", "all", "not", "bitfieldExtract", "bitfieldInsert",
    "bitfieldReverse", "bitCount", "findLSB", "findMSB", "textureSize", "textureQueryLod", "textureQueryLevels",
    "texture", "textureProj", "textureLod", "textureOffset", "texelFetch", "texelFetchOffset",
    "textureProjOffset", "textureLodOffset", "textureProjLod", "textureProjLodOffset", "textureGrad",
    "textureGradOffset", "textureProjGrad", "textureProjGradOffset", "textureGather", "textureGatherOffset",
    "textureGatherOffsets", "atomicCounter", "imageSize", "imageLoad", "imageStore", "dFdx", "dFdy", "fwidth",
    "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset", "noise1", "noise2", "noise3", "noise4",
    "barrier", "memoryBarrier", "memoryBarrierAtomicCounter", "memoryBarrierBuffer", "memoryBarrierShared",
    "memoryBarrierImage", "groupMemoryBarrier",
    /* gpuc's own helpers a kernel may call (the kernel prelude; every parameter `in`) */
    "color", NULL};

/* Constructors: every parameter is `in`. */
static const char *const types[] = {
    "float", "double", "int", "uint", "bool", "vec2", "vec3", "vec4", "dvec2", "dvec3", "dvec4", "ivec2", "ivec3",
    "ivec4", "uvec2", "uvec3", "uvec4", "bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3",
    "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4", "dmat2", "dmat3", "dmat4", "dmat2x2",
    "dmat2x3", "dmat2x4", "dmat3x2", "dmat3x3", "dmat3x4", "dmat4x2", "dmat4x3", "dmat4x4", NULL};

typedef struct text {
    const char *s;
    size_t n;
    const loop_scan *scan;
    int function;
} text;

static bool listed(const char *const *list, const char *w, size_t len)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !strncmp(list[i], w, len))
            return true;
    return false;
}

/* The last character before i that is not a space, or NONE. */
static size_t before(const text *t, size_t i)
{
    while (i > 0 && text_is_space(t->s[i - 1]))
        i--;
    return i > 0 ? i - 1 : NONE;
}

/* The first character at or after i that is not a space (t->n at the end). */
static size_t after(const text *t, size_t i)
{
    while (i < t->n && text_is_space(t->s[i]))
        i++;
    return i;
}

static char at(const text *t, size_t i)
{
    return i < t->n ? t->s[i] : '\0';
}

/* The start of the word that ends at i (inclusive). */
static size_t word_start(const text *t, size_t i)
{
    while (i > 0 && is_ident_char(t->s[i - 1]))
        i--;
    return i;
}

static bool word_before_is(const text *t, size_t last, const char *const *words)
{
    size_t b = word_start(t, last);
    return listed(words, t->s + b, last + 1 - b);
}

/* The bracket closing the `[` at open, or NONE. */
static size_t closing_bracket(const text *t, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < t->n; i++) {
        char c = t->s[i];
        depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
        if (depth == 0)
            return i;
        if (depth < 0)
            break;
    }
    return NONE;
}

typedef enum paren { PAREN_GROUPING, PAREN_STATEMENT, PAREN_CALL } paren;

/* What the `(` at open is: a call's (after a name that is not a keyword, or after `]`: an array
 * constructor), an if/while/for/switch's, or parentheses around an expression. */
static paren paren_kind(const text *t, size_t open)
{
    static const char *const statements[] = {"if", "while", "for", "switch", NULL};
    static const char *const expression_before[] = {"return", "else", "do", "case", NULL};
    size_t b = before(t, open);
    if (b == NONE)
        return PAREN_GROUPING;
    char c = t->s[b];
    if (c == ']' || c == ')')
        return PAREN_CALL;
    if (!is_ident_char(c))
        return PAREN_GROUPING;
    if (word_before_is(t, b, statements))
        return PAREN_STATEMENT;
    if (word_before_is(t, b, expression_before) || !is_ident_start(t->s[word_start(t, b)]))
        return PAREN_GROUPING;
    return PAREN_CALL;
}

/* Parameter `index` of the function whose parameters are in (open, close): its text in *b, *e;
 * false when it has fewer. */
static bool parameter(const text *t, size_t open, size_t close, int index, size_t *b, size_t *e)
{
    int depth = 0, k = 0;
    size_t start = open + 1;
    for (size_t i = open + 1; i <= close && i < t->n; i++) {
        char c = t->s[i];
        if (i == close || (c == ',' && depth == 0)) {
            if (k++ == index) {
                *b = after(t, start);
                *e = i;
                /* `()` and `(void)` declare no parameter */
                size_t len = *e > *b ? *e - *b : 0;
                while (len && text_is_space(t->s[*b + len - 1]))
                    len--;
                return !(index == 0 && i == close && (len == 0 || (len == 4 && !strncmp(t->s + *b, "void", 4))));
            }
            start = i + 1;
        }
        depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    }
    return false;
}

static bool has_word(const text *t, size_t b, size_t e, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = b; i + n <= e; i++)
        if (!strncmp(t->s + i, w, n) && (i == 0 || !is_ident_char(t->s[i - 1])) && !is_ident_char(at(t, i + n)))
            return true;
    return false;
}

/* Whether the source's helpers named name[0, len) take argument `index` as `in`: 1 yes (every
 * overload with that many parameters does, and one has), 0 no, -1 no helper has that name. */
static int helper_reads(const text *t, const char *name, size_t len, int index)
{
    int found = -1;
    for (int f = 0; f < t->scan->nfunctions; f++) {
        const loop_function *fn = &t->scan->functions[f];
        if (strlen(fn->name) != len || strncmp(fn->name, name, len))
            continue;
        size_t b, e;
        if (found < 0)
            found = 0;
        if (!parameter(t, fn->params_open, fn->params_close, index, &b, &e))
            continue;
        if (has_word(t, b, e, "out") || has_word(t, b, e, "inout"))
            return 0;
        found = 1;
    }
    return found;
}

/* Whether name[0, len) is an array parameter of the function holding the loop: a call of it is the
 * accessor gpuc compiles for the array (a JavaScript helper reads its arrays so). */
static bool array_parameter(const text *t, const char *name, size_t len)
{
    if (t->function < 0 || t->function >= t->scan->nfunctions)
        return false;
    const loop_function *fn = &t->scan->functions[t->function];
    size_t b, e;
    for (int k = 0; parameter(t, fn->params_open, fn->params_close, k, &b, &e); k++) {
        const char *bracket = memchr(t->s + b, '[', e - b);
        if (!bracket)
            continue;
        size_t last = before(t, (size_t)(bracket - t->s));
        size_t w = last == NONE ? 0 : word_start(t, last);
        if (last != NONE && last + 1 - w == len && !strncmp(t->s + w, name, len))
            return true;
    }
    return false;
}

/* Whether a struct named name[0, len) is declared in the text (its constructor reads its arguments). */
static bool struct_name(const text *t, const char *name, size_t len)
{
    for (size_t i = 0; i + 6 < t->n; i++) {
        if (strncmp(t->s + i, "struct", 6) || (i > 0 && is_ident_char(t->s[i - 1])) || is_ident_char(t->s[i + 6]))
            continue;
        size_t w = after(t, i + 6);
        if (w + len <= t->n && !strncmp(t->s + w, name, len) && !is_ident_char(at(t, w + len)))
            return true;
    }
    return false;
}

/* Whether the function called at the `(` at open takes argument `index` as `in`. */
static bool callee_reads(const text *t, size_t open, int index)
{
    size_t last = before(t, open);
    if (at(t, last) == ']')
        return true; /* an array constructor */
    if (last == NONE || !is_ident_char(t->s[last]))
        return false;
    size_t w = word_start(t, last);
    const char *name = t->s + w;
    size_t len = last + 1 - w;
    if (listed(writing_builtins, name, len))
        return false;
    int helper = helper_reads(t, name, len, index);
    if (helper >= 0)
        return helper == 1;
    return listed(types, name, len) || listed(reading_builtins, name, len) ||
           (len > 10 && !strncmp(name, "gpuc_cnstv", 10)) || array_parameter(t, name, len) ||
           struct_name(t, name, len);
}

/* The counter at [b, ...) stands alone between `(` or `,` and `)` or `,`: whether that place reads it. */
static bool list_item_reads(const text *t, size_t b)
{
    int depth = 0, index = 0;
    for (size_t i = b; i-- > 0;) {
        char c = t->s[i];
        if (c == ')' || c == ']' || c == '}') {
            depth++;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth-- > 0)
                continue;
            if (c != '(')
                return true; /* an index or an initializer list: its value is read */
            paren kind = paren_kind(t, i);
            if (kind == PAREN_STATEMENT)
                return true; /* a condition */
            if (kind == PAREN_GROUPING)
                return false; /* `(a, i)`: a comma expression the reader does not follow */
            return callee_reads(t, i, index);
        } else if (depth == 0 && c == ',') {
            index++;
        } else if (depth == 0 && c == ';') {
            return true; /* a declaration list or a comma expression statement: the value is dropped */
        }
    }
    return true;
}

/* Whether the occurrence of the counter at [b, e) is a read. */
static bool occurrence_reads(const text *t, size_t b, size_t e)
{
    for (;;) { /* widen over what keeps an lvalue an lvalue */
        size_t a = after(t, e);
        if (at(t, a) == '.') {
            size_t w = after(t, a + 1);
            if (!is_ident_start(at(t, w)))
                return false;
            for (e = w; e < t->n && is_ident_char(t->s[e]); e++)
                ;
            continue;
        }
        if (at(t, a) == '[') {
            size_t close = closing_bracket(t, a);
            if (close == NONE)
                return false;
            e = close + 1;
            continue;
        }
        size_t p = before(t, b);
        if (at(t, p) == '(' && at(t, a) == ')' && paren_kind(t, p) == PAREN_GROUPING) {
            b = p;
            e = a + 1;
            continue;
        }
        break;
    }
    size_t p = before(t, b), a = after(t, e);
    char l = p == NONE ? '\0' : t->s[p], l0 = p != NONE && p > 0 ? t->s[p - 1] : '\0';
    char r = at(t, a), r1 = at(t, a + 1), r2 = at(t, a + 2);
    /* Writes: assignments, compound assignments, ++ and -- on either side. */
    if (r == '=' && r1 != '=')
        return false;
    if ((r == '+' || r == '-') && (r1 == r || r1 == '='))
        return false;
    if (r && strchr("*/%^&|", r) && r1 == '=')
        return false;
    if ((r == '<' || r == '>') && r1 == r && r2 == '=')
        return false;
    if ((l == '+' || l == '-') && l0 == l)
        return false;
    if ((l == '(' || l == ',') && (r == ')' || r == ','))
        return list_item_reads(t, b);
    /* Reads: what stands on either side is an operator or a punctuator that takes a value. */
    static const char *const value_words[] = {"return", "case", NULL};
    bool left = p == NONE || strchr(";{}([,=+-*/%<>!~&|^?:", l) ||
                (is_ident_char(l) && word_before_is(t, p, value_words));
    bool right = r && strchr(";)],?:}+-*/%<>=!&|^", r) && !(r == '!' && r1 != '=');
    return left && right;
}

bool loop_counter_only_read(const char *mask, size_t begin, size_t end, const char *var, const loop_scan *scan,
                            int function)
{
    text t = {mask, strlen(mask), scan, function};
    size_t n = strlen(var);
    if (end > t.n)
        end = t.n;
    for (size_t i = begin; i + n <= end; i++) {
        if (strncmp(mask + i, var, n) || (i > 0 && is_ident_char(mask[i - 1])) || is_ident_char(at(&t, i + n)))
            continue;
        size_t p = before(&t, i);
        bool member = at(&t, p) == '.' && !(p > 0 && mask[p - 1] >= '0' && mask[p - 1] <= '9');
        if (!member && !occurrence_reads(&t, i, i + n))
            return false;
        i += n - 1;
    }
    return true;
}
