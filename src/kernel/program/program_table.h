/* program_table.h - the context's compiled programs: found by a hash of their GLSL text, counted by
 * the live kernels that use them, and, once no kernel uses them, kept in least-recently-used order up
 * to the context's bound (gpuc_options.max_unused_programs) and deleted beyond it. */
#ifndef GPUC_PROGRAM_TABLE_H
#define GPUC_PROGRAM_TABLE_H

#include "internal.h"

#include <stdint.h>

struct program_entry {
    char *glsl;          /* the key: the whole program text (also what gpuc_kernel_glsl returns) */
    uint64_t hash;       /* of glsl */
    GLuint program;
    int refs;            /* live kernels using the program; 0: on the unused list, may be evicted */
    program_entry *bucket_next;
    program_entry *newer, *older; /* the unused list (refs == 0 only) */
    /* The range a compute dispatch of the program last had (gpuc_first_cell, gpuc_cell_count;
     * uniforms are program state): run.c sets them only when they change, as they rarely do between
     * calls of a kernel (two uniform calls, about 5% of a call's instructions). */
    bool range_set;
    GLuint range_first, range_count;
    /* A run of the program succeeded: llvmpipe compiles its machine code at the first one, so a run
     * of a program that has not run yet is counted apart (gpuc_kernel_stats.first_runs). */
    bool ran;
};

/* The hash the table files entries under (64 bits, eight bytes of text a step; not kept across runs). */
uint64_t program_hash(const char *glsl);

/* The entry whose text is glsl (hash = program_hash(glsl)), or NULL. Looks nothing else up. */
program_entry *program_table_find(gpuc *gpu, const char *glsl, uint64_t hash);

/* Files a new entry (glsl, hash and program set, refs 1). false when memory ran out (nothing filed). */
bool program_table_add(gpuc *gpu, program_entry *e);

/* A kernel starts using e: takes it off the unused list if it was there, and counts the reference. */
void program_table_acquire(gpuc *gpu, program_entry *e);

/* A kernel stops using e. When it was the last, e joins the unused list as its most recent entry and,
 * with gl (the context is current), the least recently used ones beyond the bound are deleted, their
 * GL programs too. */
void program_table_release(gpuc *gpu, program_entry *e, bool gl);

/* Deletes every entry, used or not (gpuc_close, after every kernel is gone); their GL programs too
 * with gl, else only gpuc's memory (a context that cannot be made current). */
void program_table_clear(gpuc *gpu, bool gl);

#endif
