/* front_end.h - the state one translation shares among the parts of the front end after the parser:
 * the variables and functions it knows (js_var, js_func, js_native) and their limits, what the
 * checker and the emitter are in the middle of (js_ctx), and js_fail, the one way out on an error
 * (front_end.c). Each part's own functions are in a header of its own: types.h (the type algebra),
 * arena.h (js_alloc), scopes.h, functions.h, glsl_names.h, check.h (the checker), emit.h and math.h
 * (the GLSL writer), whole_range.h, sub_kernels.h (kernel maps). */
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

#endif
