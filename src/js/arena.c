/* arena.c - see arena.h. One list of blocks; a failed allocation marks the arena failed (callers turn
 * that into an out-of-memory error once; js_alloc does it for the translation). */
#include "js/arena.h"
#include "js/front_end.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK_BYTES 16384

struct js_arena_block {
    js_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

void *js_arena_alloc(js_arena *arena, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    js_arena_block *b = arena->blocks;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > ARENA_BLOCK_BYTES ? size : ARENA_BLOCK_BYTES;
        b = malloc(sizeof *b + cap);
        if (!b) {
            arena->failed = true;
            return NULL;
        }
        b->next = arena->blocks;
        b->used = 0;
        b->cap = cap;
        arena->blocks = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *js_arena_strndup(js_arena *arena, const char *s, size_t n)
{
    char *p = js_arena_alloc(arena, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void js_arena_free(js_arena *arena)
{
    while (arena->blocks) {
        js_arena_block *next = arena->blocks->next;
        free(arena->blocks);
        arena->blocks = next;
    }
}

void *js_alloc(js_ctx *c, size_t size, const js_node *at)
{
    void *p = js_arena_alloc(c->arena, size);
    if (!p) {
        c->oom = true;
        js_fail(c, at, "out of memory");
    }
    return p;
}
