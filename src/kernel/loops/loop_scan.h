/* loop_scan.h - where a kernel source's loops are: every for, while and do-while in every function,
 * with its condition, body and extent, the `break`s that leave it, the calls made inside it, and
 * whether it sits in a branch. Read from the mask (source_scan.h), so offsets are the source's.
 * The loop budget (loop_budget.c) and the loop guard (loop_guard.c) both work from this reading. */
#ifndef GPUC_LOOP_SCAN_H
#define GPUC_LOOP_SCAN_H

#include "kernel/source/source_scan.h"

#include <stdbool.h>
#include <stddef.h>

/* Statements or brackets nested deeper than this are refused: the reader recurses once per statement
 * level. Sources the user writes are held to GPUC_MAX_NESTING (256) before this reader runs; GLSL the
 * JavaScript front end writes from such a source nests deeper (it is fully parenthesised, and a loop
 * becomes a block holding a loop), hence the room. */
#define LOOP_SCAN_MAX_NESTING 2048

typedef enum loop_kind { LOOP_FOR, LOOP_WHILE, LOOP_DO } loop_kind;

typedef struct loop_site {
    loop_kind kind;
    size_t keyword;                  /* the `for`, `while` or `do` */
    size_t header_open, header_close; /* the parentheses around the condition (do: those after its while) */
    size_t init_end;                 /* for: the `;` that ends its init statement */
    size_t cond_begin, cond_end;     /* the condition's text, spaces trimmed; empty in `for (;;)` */
    size_t body_begin, body_end;     /* the body statement */
    size_t end;                      /* just past the whole loop statement */
    int parent;                      /* the loop this one is in, -1 at its function's top */
    int function;                    /* the function it is in */
    int depth;                       /* 1 for a loop at its function's top */
    bool in_branch;                  /* inside an if, else or switch between it and its parent */
    bool leaves_early;               /* its body may break out of it, return or discard */
} loop_site;

typedef struct loop_break {
    size_t at;  /* the `break` keyword */
    int loop;   /* the loop it leaves */
} loop_break;

typedef struct loop_call {
    char name[KERNEL_NAME_MAX];
    int loop;   /* the innermost loop the call is in (its header included), -1 for none */
    int function;
} loop_call;

typedef struct loop_function {
    char name[KERNEL_NAME_MAX];
    size_t body_begin, body_end;     /* its `{` and `}` */
    size_t params_open, params_close; /* the parentheses around its parameters */
} loop_function;

typedef struct loop_scan {
    loop_site *loops;
    int nloops;
    loop_break *breaks;
    int nbreaks;
    loop_call *calls;
    int ncalls;
    loop_function *functions;
    int nfunctions;
    /* On failure: what could not be read, and where; `refused` when the source hides loops the reader
     * is not meant to see (in macros), rather than the reader failing. */
    bool out_of_memory;
    bool refused;
    size_t error_at;
    char error[200];
} loop_scan;

/* Reads every function of mask (src is the source it masks: its preprocessor lines are checked for
 * loops the reader could not see). False on failure: scan->error says why, at scan->error_at, or
 * scan->out_of_memory is set. Free with loop_scan_free either way. */
bool loop_scan_read(const char *src, const char *mask, loop_scan *scan);

void loop_scan_free(loop_scan *scan);

#endif
