/* source_scan.h - reading a GLSL kernel's source: where its functions are, what the kernel function's
 * signature says, and where a position is in lines and columns. Works on a "mask" of the source in
 * which comments and preprocessor lines are blanked (same length, newlines kept), so offsets into the
 * mask are offsets into the source. */
#ifndef GPUC_SOURCE_SCAN_H
#define GPUC_SOURCE_SCAN_H

#include "gpuc.h"
#include "kernel/source/source_text.h"

#include <stdbool.h>
#include <stddef.h>

#define KERNEL_NAME_MAX 64

typedef struct kernel_param {
    char name[KERNEL_NAME_MAX];
    gpuc_type type;
    int rank; /* 0 for a scalar (a uniform), 1..3 for an array */
    /* Takes an array of any rank (GPU.js's rank-blind "Array": JavaScript kernels), read by the flat
     * rule: a[y][x] is cell y * width + x of whatever shape the argument has. */
    bool any_rank;
    /* The name messages give it when it is not `name`: a JavaScript parameter's own (kernel.c sets it
     * from kernel_origin.param_names); empty for a GLSL kernel's. */
    char shown[KERNEL_NAME_MAX];
} kernel_param;

typedef struct kernel_signature {
    char name[KERNEL_NAME_MAX];
    gpuc_type return_type;  /* GPUC_TYPE_NONE when the kernel returns void */
    bool returns_void;
    int nparams;
    kernel_param params[GPUC_MAX_ARGS];
    size_t params_begin, params_end; /* the text between '(' and ')' */
    size_t body_begin, body_end;     /* '{' and its matching '}' */
} kernel_signature;

/* A copy of src with comments, preprocessor lines and the branches the preprocessor certainly drops
 * (`#if 0`, the `#else` of `#if 1`) replaced by spaces. NULL when out of memory. */
char *source_mask(const char *src);

/* A copy of src with only its comments replaced by spaces. NULL when out of memory. */
char *source_mask_comments(const char *src);

/* In a comment-free mask, blanks directive lines and the branches `#if 0` / `#if 1` drop. Sets
 * *function_at to the `{` of the first top-level function defined inside a conditional gpuc cannot
 * evaluate (#ifdef, #if EXPR) and *directive_at to that conditional's line, or both to (size_t)-1. */
void source_blank_preprocessor(char *mask, size_t *function_at, size_t *directive_at);

/* False, with a message (line numbers) in err, when a function's existence depends on a conditional
 * gpuc cannot evaluate: the kernel it would pick might not be the one the compiler sees. */
bool source_check_preprocessor(const char *src, char *err, size_t errlen);

/* A copy of src (caller frees; NULL when out of memory) with every line continuation (a backslash
 * right before a line break) removed, as GLSL's compiler removes it before anything else; the line
 * breaks it removes follow the joined line, so later lines keep their numbers. A carriage return
 * not followed by \n becomes \n: it ends a line (a // comment, a directive) for the compiler too. */
char *source_join_lines(const char *src);

/* Where src (mask is its mask) stops being a text gpuc's readers see as the compiler does: the
 * offset of the first conditional other than `#if 0` / `#if 1` (and such #elif), of the first use in
 * the code of a macro that is not a plain number (function-like ones included), or of a backslash
 * outside comments; (size_t)-1 when there is none. A reader that proves something of the code
 * proves nothing in such a source. */
size_t source_unfollowed(const char *src, const char *mask);

/* Finds the last top-level function in mask and parses its signature (it may return void: only a
 * graphical kernel may, which the caller checks). On failure writes a message
 * (with line:column) into err and returns false. */
bool source_parse_kernel(const char *mask, kernel_signature *sig, char *err, size_t errlen);

/* False, with "line L, column C: ..." in err, when mask nests deeper than GPUC_MAX_NESTING (levels as
 * gpuc.h counts them). Iterative, so safe on any input; run it before anything that recurses. */
bool source_check_nesting(const char *mask, char *err, size_t errlen);

/* Whether s can name a constant, parameter or map output: a GLSL identifier under KERNEL_NAME_MAX
 * characters, without __ and not starting with gl_ or gpuc_. */
bool source_valid_identifier(const char *s);

/* 1-based line and column of offset pos. */
void source_position(const char *src, size_t pos, int *line, int *column);

/* Copies line number `line` (1-based) of src into out (without its newline). */
void source_line(const char *src, int line, char *out, size_t outlen);

/* Finds the top-level definition of function `name` (`type name(...) {`) in mask and its return
 * type; false when there is none or its type is not float, int or vecN. */
bool source_find_function(const char *mask, const char *name, gpuc_type *type);

/* The next call of function `name` at or after `from`: the offset of the name (its `(` at *open), or
 * (size_t)-1 when there is none. A definition or prototype (`type name(`) is not a call. */
size_t source_next_call(const char *mask, const char *name, size_t from, size_t *open);

/* Whether mask calls function `name` anywhere. */
bool source_calls(const char *mask, const char *name);

/* Whether the whole word `name` occurs anywhere in text. Given the unmasked source, comments and
 * preprocessor lines count too: a conservative answer for "may the kernel use it". */
bool source_mentions(const char *text, const char *name);

#endif
