/* front_end.h - the translator's shared state and the checker: resolves names (arguments, locals,
 * helpers, natives, this.thread / this.output / this.constants, Math), gives every expression a
 * type the way GPU.js does (see ast.h's js_type), and rejects what GPU.js rejects, with line:column. */
#ifndef GPUC_JS_FRONT_END_H
#define GPUC_JS_FRONT_END_H

#include "js/arena.h"
#include "js/ast.h"
#include "js/translate.h"
#include "util/strbuf.h"

#include <setjmp.h>

#define JS_MAX_FUNCS 64
#define JS_MAX_NATIVES 64
#define JS_MAX_PARAMS GPUC_MAX_ARGS /* a helper's too: it may be passed all of the kernel's */
#define JS_MAX_SCOPE 512
/* The checker follows each call into the helper it calls, so the nesting of a kernel and of the
 * helpers it calls inside one another adds up on its stack: bound the sum (statements and expressions
 * the checker is inside of at once). One function alone stays under it: its statements nest at most
 * GPUC_MAX_NESTING deep and its expressions at most 400. */
#define JS_MAX_CHECK_DEPTH (4 * GPUC_MAX_NESTING)

struct js_var {
    const char *name;
    const char *glsl;   /* its GLSL name */
    js_type type;
    bool is_param, is_const;
    int rank;           /* array arguments: 1..3; 0 otherwise */
    bool rank_from_use; /* an argument whose rank is the most indices the kernel reads it with */
    js_type elem;       /* array arguments: the type of a cell */
    bool int_scalar;    /* a scalar argument declared int */
    bool for_counter;   /* declared in a for's init and read by its test (GPU.js makes these int) */
    bool incremented;   /* ++/-- applied to it (GPU.js then suggests int) */
    bool demoted;       /* assigned a non-integer somewhere: stays float */
    js_node *init;      /* a const's initial value (loop bounds made of consts stay uncapped) */
    js_var *array;      /* an array: the kernel argument it is (a helper's array parameter is bound to one) */
    bool is_var;        /* declared with `var`: visible to the end of its function, as in JavaScript */
    bool outlived;      /* a `var` whose block has ended in this pass */
    bool hoisted;       /* a `var` used after its block: declared at the top of its function (emit.c) */
    bool destructured;  /* a name of `const/let/var [a, b] = v` (block-scoped here, whatever the keyword) */
    bool length_read;   /* a kernel array argument whose .length is read (check_expr.c) */
    bool undefined;     /* a const declared `= void 0`: JavaScript's undefined, which gpuc has no value for */
    /* A `var` declared again holding another type is another variable from there on (a version): the
     * versions of one name are a chain from the first (family), one per type, each its own GLSL
     * variable. A poison entry in the scope marks a point where paths bring different versions (after
     * an if that re-typed it in one branch, at a loop's head and after a loop that re-types it): a use
     * there is refused, naming both types; a declaration with a value picks a version again. */
    js_var *family, *next_version;
    bool poison;
    js_type poison_types[2];
};

struct js_func {
    js_node *node;
    const char *name, *glsl;
    bool is_kernel, checking, checked, emitted;
    js_type ret;
    int nparams;
    js_type params[JS_MAX_PARAMS];
    js_var *param_vars[JS_MAX_PARAMS];
    const char *origin; /* NULL for the kernel's source, else "added function 'name'" */
    /* A helper called with kernel arrays is checked and emitted once per combination of arrays
     * (specialise.c): base is the helper as written, bound[i] the kernel array parameter i reads. */
    js_func *base;
    js_var *bound[JS_MAX_PARAMS];
    const char *keeper; /* a kernel map's sub-kernel: the GLSL function every return passes through */
};

typedef struct js_native {
    char name[64];
    js_type ret;
    int nparams;
    js_type params[JS_MAX_PARAMS];
    const char *source;
} js_native;

/* A counted for loop's counter whose range inside the loop's body is known (whole_range.c). */
#define JS_MAX_WHOLE_COUNTERS 16
typedef struct js_whole_counter {
    const js_var *var;
    double lo, hi;
} js_whole_counter;

typedef struct js_ctx {
    js_arena *arena;
    const js_settings *settings;
    char *err;
    size_t errlen;
    jmp_buf fail;
    bool oom;
    const char *origin;   /* which source the current function came from (messages) */

    js_func *funcs[JS_MAX_FUNCS];
    int nfuncs;
    js_func *order[JS_MAX_FUNCS]; /* helpers in the order they must be emitted (callees first) */
    int norder;
    js_func *specs[JS_MAX_FUNCS]; /* helpers specialised for the arrays they are called with */
    int nspecs;
    const js_map_entry *map;      /* the kernel map's sub-kernels (js_settings.map) */
    int nmap;
    js_native natives[JS_MAX_NATIVES];
    int nnatives;
    bool native_used[JS_MAX_NATIVES];

    js_func *current;
    js_var *scope[JS_MAX_SCOPE];
    int nscope;
    int scope_base;       /* the first scope entry of the function being checked */
    int block_mark;       /* the first scope entry of the innermost block (names declared twice) */
    int body_mark;        /* block_mark of the checked function's own block (a let there may not hide a parameter) */
    bool for_header;      /* checking a for's first clause (its let is in a scope of its own) */
    int versions;         /* versions of `var`s made (their GLSL names) */
    const js_node *where; /* the expression being checked (where a use of a poisoned `var` is reported) */
    bool changed;         /* a variable's type changed in this pass: check again */
    int loop_depth, switch_depth;
    int check_depth;      /* statements and expressions being checked, along the calls (JS_MAX_CHECK_DEPTH) */
    int temps;

    /* runtime helpers the emitted GLSL needs */
    bool use_fmod, use_pow, use_toint, use_random, use_math, use_trig;
    strbuf out;
    int indent;
    js_loops *loops;      /* where the emitted loops come from, when the caller asked */
    js_whole_counter counters[JS_MAX_WHOLE_COUNTERS]; /* loops being emitted, innermost last */
    int ncounters;
    const char *runtime_words; /* the runtime helpers' GLSL (names users' names must not take) */
} js_ctx;

_Noreturn void js_fail(js_ctx *c, const js_node *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- check.c: shared by the checker's two files ---- */
js_type js_set_type(js_node *n, js_type t);
js_type js_lit(js_node *n, double v);        /* a compile-time number: T_LIT if an int32, else T_FLOAT */
void js_check_deeper(js_ctx *c, const js_node *at); /* one level deeper (JS_MAX_CHECK_DEPTH); undo with --check_depth */

/* ---- check_hints.c: messages that look around before failing ---- */
/* n indexes a value of type base that is no array: fails, naming the argument the value was read
 * from and the .arg_types entry that would make it an array, where there is one. */
_Noreturn void js_fail_indexed_number(js_ctx *c, js_node *n, js_type base);
/* The array v used whole (`a + 1`): fails; for a kernel argument whose .arg_types entry makes it an
 * array, names the entry that would make it a number. */
_Noreturn void js_fail_array_used_whole(js_ctx *c, const js_node *n, const js_var *v);
/* A call of a method (`v.map(...)`): fails (array methods are named as such); returns for Math.* and
 * this.* calls, which check_expr.c checks. */
void js_check_method_call(js_ctx *c, js_node *call);
/* `this.constants.<name>` the kernel does not have: fails, naming those it has. */
_Noreturn void js_fail_unknown_constant(js_ctx *c, const js_node *at, const char *name);

/* ---- check_expr.c ---- */
js_type js_check_expr(js_ctx *c, js_node *n);

/* Whether a constant is an array constant (values or dims given). */
bool js_constant_is_array(const gpuc_constant *k);

/* Checks f (and, through its calls, the helpers it uses) until its variables' types are stable. */
void js_check_function_body(js_ctx *c, js_func *f);

/* ---- sub_kernels.c: kernel maps ---- */
/* Resolves js_settings.map: registers sub-kernels given as source, gives each its keeper. */
void js_load_map(js_ctx *c);
/* Writes the keeper functions (after checking: a sub-kernel never called fails here). */
void js_emit_keepers(js_ctx *c);

/* ---- specialise.c: helpers called with arrays ---- */
/* The helper to check for call n of f: f itself when no argument is an array, else the copy of f
 * specialised for the arrays the call passes (made on first use). */
js_func *js_specialise(js_ctx *c, js_func *f, js_node *call);
/* The kernel array an argument expression names, or NULL when it is not a bare array name. */
js_var *js_array_arg(js_ctx *c, js_node *arg);

/* ---- math.c: the Math object ---- */
typedef struct js_math_fn {
    const char *name;
    int min_args, max_args; /* max -1: any number */
    js_type result;
} js_math_fn;
const js_math_fn *js_math_lookup(const char *name);
bool js_math_constant(const char *name, double *value);
/* Emits the call to Math.<fn->name> with args. */
void js_emit_math(js_ctx *c, const js_math_fn *fn, js_node *call);
/* Whether Math.<name> calls a helper of runtime_math.c (the kernel then includes them). */
bool js_math_needs_runtime(const char *name);
/* Whether Math.<name> is sin, cos or tan (computed by runtime_trig.c with .precise_math). */
bool js_math_is_trig(const char *name);

/* ---- emit.c ---- */
void js_emit_expr(js_ctx *c, js_node *n, js_type want);
void js_emit_function(js_ctx *c, js_func *f);

#endif
