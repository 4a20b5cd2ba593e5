/* check.h - the checker: resolves names (arguments, locals, helpers, natives, this.thread /
 * this.output / this.constants, Math), gives every expression a type the way GPU.js does (types.h),
 * and rejects what GPU.js rejects, with line:column. check.c checks statements and functions,
 * check_expr.c expressions, check_hints.c words the failures that look around first, specialise.c
 * copies the helpers called with kernel arrays.
 *
 * One cycle is left between these files, and it is the recursion of a compiler that follows calls:
 * check.c's statements check their expressions (js_check_expr), and an expression that calls a helper
 * checks that helper's body on the first call (js_check_function_body, from check_expr.c), since the
 * helper's parameters take the types of that call's arguments and the call the type the helper
 * returns. JS_MAX_CHECK_DEPTH bounds the two together (js_check_deeper). */
#ifndef GPUC_JS_CHECK_H
#define GPUC_JS_CHECK_H

#include "js/front_end.h"

/* ---- check.c ---- */
js_type js_set_type(js_node *n, js_type t);
js_type js_lit(js_node *n, double v);        /* a compile-time number: T_LIT if an int32, else T_FLOAT */
void js_check_deeper(js_ctx *c, const js_node *at); /* one level deeper (JS_MAX_CHECK_DEPTH); undo with --check_depth */
/* Checks f (and, through its calls, the helpers it uses) until its variables' types are stable. */
void js_check_function_body(js_ctx *c, js_func *f);

/* ---- check_expr.c ---- */
js_type js_check_expr(js_ctx *c, js_node *n);

/* Whether a constant is an array constant (values or dims given). */
bool js_constant_is_array(const gpuc_constant *k);

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

/* ---- specialise.c: helpers called with arrays ---- */
/* The helper to check for call n of f: f itself when no argument is an array, else the copy of f
 * specialised for the arrays the call passes (made on first use). */
js_func *js_specialise(js_ctx *c, js_func *f, js_node *call);
/* The kernel array an argument expression names, or NULL when it is not a bare array name. */
js_var *js_array_arg(js_ctx *c, js_node *arg);

#endif
