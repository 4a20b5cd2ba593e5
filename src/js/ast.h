/* ast.h - the syntax tree of a JavaScript kernel source, allocated in one arena (arena.h); the
 * checker writes each expression's type (types.h) and variable into its node. */
#ifndef GPUC_JS_AST_H
#define GPUC_JS_AST_H

#include "js/types.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum js_kind {
    /* expressions */
    N_NUMBER, N_BOOL, N_IDENT, N_THIS, N_MEMBER, N_INDEX, N_CALL, N_UNARY, N_UPDATE, N_BINARY, N_LOGICAL,
    N_ASSIGN, N_COND, N_ARRAY, N_SEQ, N_FUNCEXPR,
    /* statements */
    N_VAR, N_DECL, N_EXPR, N_BLOCK, N_IF, N_FOR, N_WHILE, N_DOWHILE, N_BREAK, N_CONTINUE, N_RETURN, N_SWITCH,
    N_CASE, N_EMPTY, N_FUNCDECL
} js_kind;

typedef struct js_var js_var;
typedef struct js_func js_func;
typedef struct js_node js_node;

struct js_node {
    js_kind kind;
    int line, col;
    char op[5];          /* operator text for unary/update/binary/logical/assign; "let"/"const"/"var" */
    bool prefix;         /* N_UPDATE */
    double num;          /* N_NUMBER value; N_BOOL 0/1; a T_LIT expression's value */
    bool integer_form;   /* N_NUMBER written as an integer */
    const char *name;    /* N_IDENT, N_MEMBER property, N_DECL, N_FUNCDECL/N_FUNCEXPR (may be NULL) */
    js_node *a, *b, *c, *d; /* children: see parser.c for each kind */
    js_node **list;      /* call arguments, array elements, block statements, declarators, cases, params */
    int nlist;
    bool arrow;          /* N_FUNCEXPR written as an arrow function */
    bool undefined;      /* N_DECL written `= void 0`: declared without a value */
    int height;          /* expression nodes: 1 + the tallest child (bounds the checker's recursion) */
    /* filled by the checker */
    js_type type;
    js_var *var;         /* N_IDENT / N_DECL: the variable */
    js_func *func;       /* N_CALL: the JS helper called */
    int native;          /* N_CALL: index of a native function + 1, else 0 */
    int temp;            /* loops and switches: the number of their hidden counter */
};

#endif
