/* program_table.c - see program_table.h. A chained hash table over the entries (doubled as it fills,
 * so a lookup stays one hash and about one string compare however many programs a context made),
 * and a doubly linked list of the unused ones, most recently released first. */
#include "kernel/program/program_table.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_BUCKETS 64

struct program_table {
    program_entry **buckets;
    size_t nbuckets;              /* a power of two */
    size_t count;                 /* entries filed */
    program_entry *newest_unused; /* the unused list's ends */
    program_entry *oldest_unused;
    size_t unused;
};

/* Eight bytes a step: the algorithm drivers hash a 5-20 KB source at every kept-kernel lookup, which
 * a byte at a time (FNV-1a) took about 1 ns a byte. Each word is mixed in by a multiply; the final
 * folds carry the product's high bits into the low ones the buckets are chosen by. */
uint64_t program_hash(const char *glsl)
{
    const uint64_t m = 0x9e3779b97f4a7c15u;
    size_t n = strlen(glsl);
    uint64_t h = 0xcbf29ce484222325u ^ (n * m);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, glsl + i, sizeof w);
        h = (h ^ w) * m;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    memcpy(&tail, glsl + i, n - i);
    h = (h ^ tail) * m;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    return h;
}

program_entry *program_table_find(gpuc *gpu, const char *glsl, uint64_t hash)
{
    program_table *t = gpu->programs;
    if (!t)
        return NULL;
    for (program_entry *e = t->buckets[hash & (t->nbuckets - 1)]; e; e = e->bucket_next)
        if (e->hash == hash && !strcmp(e->glsl, glsl))
            return e;
    return NULL;
}

/* Rehashes into twice as many buckets; on failure keeps the old ones (longer chains, still right). */
static void grow(program_table *t)
{
    size_t n = t->nbuckets * 2;
    program_entry **b = calloc(n, sizeof *b);
    if (!b)
        return;
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (program_entry *e = t->buckets[i], *next; e; e = next) {
            next = e->bucket_next;
            e->bucket_next = b[e->hash & (n - 1)];
            b[e->hash & (n - 1)] = e;
        }
    }
    free(t->buckets);
    t->buckets = b;
    t->nbuckets = n;
}

bool program_table_add(gpuc *gpu, program_entry *e)
{
    program_table *t = gpu->programs;
    if (!t) {
        t = calloc(1, sizeof *t);
        program_entry **b = calloc(FIRST_BUCKETS, sizeof *b);
        if (!t || !b) {
            free(t);
            free(b);
            return false;
        }
        t->buckets = b;
        t->nbuckets = FIRST_BUCKETS;
        gpu->programs = t;
    }
    if (t->count >= t->nbuckets)
        grow(t);
    program_entry **head = &t->buckets[e->hash & (t->nbuckets - 1)];
    e->bucket_next = *head;
    *head = e;
    e->refs = 1;
    e->newer = e->older = NULL;
    t->count++;
    gpu->stats.programs_held = t->count;
    return true;
}

static void unlist_unused(program_table *t, program_entry *e)
{
    if (e->newer)
        e->newer->older = e->older;
    else
        t->newest_unused = e->older;
    if (e->older)
        e->older->newer = e->newer;
    else
        t->oldest_unused = e->newer;
    e->newer = e->older = NULL;
    t->unused--;
}

static void remove_entry(gpuc *gpu, program_entry *e, bool gl)
{
    program_table *t = gpu->programs;
    program_entry **p = &t->buckets[e->hash & (t->nbuckets - 1)];
    while (*p != e)
        p = &(*p)->bucket_next;
    *p = e->bucket_next;
    t->count--;
    gpu->stats.programs_held = t->count;
    if (gl)
        glDeleteProgram(e->program);
    free(e->glsl);
    free(e);
}

void program_table_acquire(gpuc *gpu, program_entry *e)
{
    if (e->refs++ == 0)
        unlist_unused(gpu->programs, e);
}

void program_table_release(gpuc *gpu, program_entry *e, bool gl)
{
    program_table *t = gpu->programs;
    if (--e->refs > 0)
        return;
    e->older = t->newest_unused;
    e->newer = NULL;
    if (t->newest_unused)
        t->newest_unused->newer = e;
    else
        t->oldest_unused = e;
    t->newest_unused = e;
    t->unused++;
    while (gl && t->unused > (size_t)gpu->max_unused_programs) {
        program_entry *victim = t->oldest_unused;
        unlist_unused(t, victim);
        remove_entry(gpu, victim, gl);
        gpu->stats.programs_evicted++;
    }
}

void program_table_clear(gpuc *gpu, bool gl)
{
    program_table *t = gpu->programs;
    if (!t)
        return;
    for (size_t i = 0; i < t->nbuckets; i++) {
        while (t->buckets[i]) {
            program_entry *e = t->buckets[i];
            t->buckets[i] = e->bucket_next;
            if (gl)
                glDeleteProgram(e->program);
            free(e->glsl);
            free(e);
        }
    }
    free(t->buckets);
    free(t);
    gpu->programs = NULL;
    gpu->stats.programs_held = 0;
}
