/* whole_range.h - which JavaScript expressions are whole numbers within a range gpuc can prove, so
 * that `a % m` (m a whole constant) runs in int arithmetic: on llvmpipe the float remainder JavaScript's
 * rules need costs about as much as all of life's neighbour reads (docs/performance/loops.md). */
#ifndef GPUC_JS_WHOLE_RANGE_H
#define GPUC_JS_WHOLE_RANGE_H

#include "js/front_end.h"

/* Whether `a % b` can be emitted as js_emit_whole_remainder: a is built of whole values (numbers,
 * this.thread, this.output, consts of them, counters of counted for loops) with + - *, every part
 * within +-2^24 (so float arithmetic on it is exact: JavaScript's float32 answer is the int one), and b
 * a whole constant other than 0 within that range. */
bool js_whole_remainder(const js_ctx *c, const js_node *a, const js_node *b);

/* Emits `jsrt_imod(int a, int m)` for a `a % b` js_whole_remainder accepted. */
void js_emit_whole_remainder(js_ctx *c, js_node *a, const js_node *b);

/* Before emitting the body of for loop n: if its counter is declared by `let`, starts at a whole
 * constant, is tested against one (< <= > >=) and stepped towards it by a whole constant (++, --,
 * +=, -=) and written nowhere in the body, its range inside the body is known. Returns whether it
 * was recorded (then call js_whole_range_pop after the body). */
bool js_whole_range_push_counter(js_ctx *c, const js_node *n);
void js_whole_range_pop(js_ctx *c);

/* For loop n's iterations at most, proven from a term `v < B` (<=, or > >= stepping down) of its
 * test or of the test's && chain, for its `let` counter v of whole constant start, stepped by a whole
 * constant (++, --, +=, -=) and written nowhere else (test and body); -1 when not proven. */
double js_for_trips_at_most(const js_ctx *c, const js_node *n);

#endif
