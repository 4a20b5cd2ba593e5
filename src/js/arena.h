/* arena.h - the front end's one allocator: a bump arena that everything parsed and checked lives in,
 * freed at once with js_arena_free, and js_alloc, the translation's allocation that fails it (out of
 * memory) instead of returning NULL. */
#ifndef GPUC_JS_ARENA_H
#define GPUC_JS_ARENA_H

#include <stdbool.h>
#include <stddef.h>

/* A bump allocator: everything parsed lives here and goes with js_arena_free. */
typedef struct js_arena_block js_arena_block;
typedef struct js_arena {
    js_arena_block *blocks;
    bool failed;
} js_arena;

void *js_arena_alloc(js_arena *arena, size_t size);
char *js_arena_strndup(js_arena *arena, const char *s, size_t n);
void js_arena_free(js_arena *arena);

typedef struct js_ctx js_ctx;
typedef struct js_node js_node;

/* size zeroed bytes from c's arena; out of memory, it fails the translation (js_fail) at `at`. */
void *js_alloc(js_ctx *c, size_t size, const js_node *at);

#endif
