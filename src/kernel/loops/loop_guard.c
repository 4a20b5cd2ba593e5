/* loop_guard.c - see loop_guard.h. The guard is a list of edits (insertions and replacements at
 * offsets of the source) applied in one pass. */
#include "kernel/loops/loop_guard.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct edit {
    size_t at, removed; /* replaces [at, at + removed) */
    int order;          /* among edits at the same offset: lower first */
    char *text;
} edit;

/* Among edits at one offset: a break's closing brace, then loop ends from the innermost out, then
 * loop starts, then a break's opening. */
enum { ORDER_BREAK_CLOSE = 0, ORDER_LOOP_END = 1, ORDER_LOOP_BEGIN = 1 + 2 * LOOP_SCAN_MAX_NESTING,
       ORDER_BREAK_OPEN };

typedef struct edits {
    edit *list;
    int n, cap;
    bool failed;
} edits;

/* Adds the edit replacing [at, at + removed) of src with text; the line breaks of what it removes
 * follow the text, so later lines keep their numbers. */
static void add(edits *e, const char *src, size_t at, size_t removed, int order, strbuf *text)
{
    for (size_t i = at; i < at + removed; i++)
        if (src[i] == '\n')
            strbuf_puts(text, "\n");
    char *t = strbuf_take(text);
    if (!t || e->failed) {
        free(t);
        e->failed = true;
        return;
    }
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 32;
        edit *l = realloc(e->list, (size_t)cap * sizeof *l);
        if (!l) {
            free(t);
            e->failed = true;
            return;
        }
        e->list = l;
        e->cap = cap;
    }
    e->list[e->n++] = (edit){at, removed, order, t};
}

static int by_offset(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->order - y->order;
}

/* Copies [begin, end) of src onto one line: comments (blank in the mask) and line breaks become
 * spaces, so the copy cannot comment out what follows it or move later lines. */
static void copy_code(strbuf *t, const char *src, const char *mask, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; i++) {
        char c = src[i];
        bool comment = mask[i] == ' ' && c != ' ';
        strbuf_append(t, comment || c == '\n' || c == '\r' ? " " : &c, 1);
    }
}

/* The code of [begin, end) of src, or `otherwise` when it is empty. */
static void code_or(strbuf *t, const char *src, const char *mask, size_t begin, size_t end, const char *otherwise)
{
    if (end > begin)
        copy_code(t, src, mask, begin, end);
    else
        strbuf_puts(t, otherwise);
}

static size_t step_begin(const char *src, const loop_site *l)
{
    size_t b = l->cond_end; /* past the `;` that ends the condition, spaces skipped */
    while (b < l->header_close && src[b] != ';')
        b++;
    for (b++; b < l->header_close && strchr(" \t\r\n", src[b]); b++)
        ;
    return b;
}

static void guard_loop(edits *e, const char *src, const char *mask, const loop_site *l, int id)
{
    strbuf t = {0};
    strbuf_printf(&t, "{bool gpuc_exit_%d = false; ", id);
    if (l->kind == LOOP_DO) {
        add(e, src, l->keyword, 0, ORDER_LOOP_BEGIN, &t);
        strbuf_puts(&t, "gpuc_continues((");
        code_or(&t, src, mask, l->cond_begin, l->cond_end, "true");
        strbuf_printf(&t, "), gpuc_exit_%d)", id);
        add(e, src, l->cond_begin, l->cond_end - l->cond_begin, ORDER_LOOP_BEGIN, &t);
    } else {
        /* for / while become `if (test) do BODY while (step, test);`: the test runs at the end of each
         * iteration, before llvmpipe counts it, so a loop the budget stops just after its last
         * iteration has already set its flag. */
        if (l->kind == LOOP_FOR) /* hoisted, so that the condition's variables outlive the loop */
            copy_code(&t, src, mask, l->header_open + 1, l->init_end + 1);
        strbuf_puts(&t, " if (gpuc_continues((");
        code_or(&t, src, mask, l->cond_begin, l->cond_end, "true");
        strbuf_printf(&t, "), gpuc_exit_%d)) do", id);
        add(e, src, l->keyword, l->header_close + 1 - l->keyword, ORDER_LOOP_BEGIN, &t);
        strbuf_puts(&t, " while (gpuc_continues((");
        size_t step = l->kind == LOOP_FOR ? step_begin(src, l) : l->header_close;
        size_t step_end = l->header_close;
        while (step_end > step && strchr(" \t\r\n", src[step_end - 1]))
            step_end--;
        if (step_end > step) {
            copy_code(&t, src, mask, step, step_end);
            strbuf_puts(&t, ", ");
        }
        code_or(&t, src, mask, l->cond_begin, l->cond_end, "true");
        strbuf_printf(&t, "), gpuc_exit_%d));", id);
    }
    /* After it: a loop left neither by its test nor by a break was cut short. */
    strbuf_printf(&t, " if (!gpuc_exit_%d) gpuc_loop_cut(%du);}", id, id);
    add(e, src, l->end, 0, ORDER_LOOP_END + 2 * LOOP_SCAN_MAX_NESTING - l->depth, &t);
}

static void guard_break(edits *e, const char *mask, const loop_break *b)
{
    strbuf t = {0};
    strbuf_printf(&t, "{gpuc_exit_%d = true; ", b->loop + 1);
    add(e, mask, b->at, 0, ORDER_BREAK_OPEN, &t);
    const char *semi = strchr(mask + b->at, ';');
    strbuf_puts(&t, "}");
    add(e, mask, semi ? (size_t)(semi - mask) + 1 : strlen(mask), 0, ORDER_BREAK_CLOSE, &t);
}

char *loop_guard_source(const char *src, const char *mask, const loop_scan *scan)
{
    edits e = {0};
    for (int i = 0; i < scan->nloops; i++)
        guard_loop(&e, src, mask, &scan->loops[i], i + 1);
    for (int i = 0; i < scan->nbreaks; i++)
        guard_break(&e, mask, &scan->breaks[i]);
    char *out = NULL;
    if (!e.failed) {
        if (e.n > 1)
            qsort(e.list, (size_t)e.n, sizeof *e.list, by_offset);
        strbuf sb = {0};
        size_t copied = 0;
        for (int i = 0; i < e.n; i++) {
            strbuf_append(&sb, src + copied, e.list[i].at - copied);
            strbuf_puts(&sb, e.list[i].text);
            copied = e.list[i].at + e.list[i].removed;
        }
        strbuf_puts(&sb, src + copied);
        out = strbuf_take(&sb);
    }
    for (int i = 0; i < e.n; i++)
        free(e.list[i].text);
    free(e.list);
    return out;
}
