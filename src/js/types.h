/* types.h - the value types the checker gives expressions (js_type) and their algebra: which are
 * numbers, vectors and matrices, their sizes and GLSL spellings, the words messages name them by.
 * Shared by the checker, the emitter and the kernel-map code; needs nothing else of the front end. */
#ifndef GPUC_JS_TYPES_H
#define GPUC_JS_TYPES_H

#include <stdbool.h>

/* Value types. T_LIT is an integer known at compile time (a literal, this.output.x, or arithmetic on
 * them): it becomes an int or a float wherever it is used, as GPU.js's LiteralInteger does. */
typedef enum js_type { T_NONE = 0, T_VOID, T_BOOL, T_INT, T_LIT, T_FLOAT, T_VEC2, T_VEC3, T_VEC4,
              T_MAT2, T_MAT3, T_MAT4 /* GPU.js's Matrix(2..4): [[a, b], [c, d]] read m[y][x] */ } js_type;

/* The GLSL spelling of a value type. */
const char *js_type_glsl(js_type t);
bool js_is_numeric(js_type t);
bool js_is_vec(js_type t);
int js_vec_size(js_type t);
bool js_is_mat(js_type t);
int js_mat_size(js_type t);      /* rows (= columns) of a matrix */
js_type js_mat_row(js_type t);   /* the vector a matrix's row is */
js_type js_mat_of(js_type row);  /* the square matrix whose rows are `row` */
bool js_is_intlike(js_type t);              /* int or compile-time integer */
const char *js_type_words(js_type t);        /* "a number", "an array of 3"... for messages */
/* Whether a `var` holding a value of type a may hold one of type b (numbers are one kind: int or float). */
bool js_same_kind(js_type a, js_type b);

#endif
