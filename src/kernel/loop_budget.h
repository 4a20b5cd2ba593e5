/* loop_budget.h - a lower bound on the loop iterations one invocation of a kernel runs.
 * llvmpipe silently stops every loop of an invocation after 65,535 iterations in total, which would
 * give a wrong answer with no error; gpuc refuses a kernel whose counted loops provably exceed that.
 * Counted: `for` loops whose start, bound and step are integer literals or constants.<name> (with
 * + - * / and parentheses), nested loops multiplied. Loops with other bounds count as zero, so the
 * result is a lower bound, never an overestimate. */
#ifndef GPUC_LOOP_BUDGET_H
#define GPUC_LOOP_BUDGET_H

#include <stddef.h>
#include <stdint.h>

typedef struct loop_constant {
    const char *name;
    double value;
} loop_constant;

typedef struct loop_estimate {
    int64_t iterations;   /* lower bound of the iterations of all counted loops */
    size_t largest_loop;  /* offset of the `for` with the most iterations (for messages) */
} loop_estimate;

/* Estimates the loops in mask[begin, end). */
loop_estimate loop_budget_estimate(const char *mask, size_t begin, size_t end, const loop_constant *constants,
                                   int nconstants);

#endif
