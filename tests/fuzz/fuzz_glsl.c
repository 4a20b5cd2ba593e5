/* fuzz_glsl.c - libFuzzer target over the GLSL kernel's source readers, without any GL: the mask
 * (comments and preprocessor lines blanked), the signature scan, the accessor rewrite, the kernel
 * map's call wrapping, the function and call finders, the loop reader, its bounds and its guard, the
 * jam of neighbouring cells (on the rewritten text, as kernel.c runs it), and the rewrite of array
 * constants' reads. Every input
 * must give a result that keeps the promises the headers make (same length, lines kept, offsets
 * inside the text) or a message, never a crash, hang or leak. The first byte picks settings. */
#include "kernel/source/constant_reads.h"
#include "kernel/source/kernel_jam.h"
#include "kernel/source/kernel_map_wrap.h"
#include "kernel/source/kernel_rewrite.h"
#include "kernel/loops/loop_budget.h"
#include "kernel/loops/loop_guard.h"
#include "kernel/source/source_scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)      \
    do {                   \
        if (!(cond))       \
            abort();       \
    } while (0)

/* Same length, and every newline where it was. */
static void require_same_lines(const char *a, const char *b, size_t len)
{
    REQUIRE(strlen(b) == len);
    for (size_t i = 0; i < len; i++)
        REQUIRE((a[i] == '\n') == (b[i] == '\n'));
}

static size_t count_lines(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The loop reader, bounds and guard (kernel_loops.c's path): a scan gives loops inside the text and
 * in order, bounds that are counts, and a guarded text with the same lines; a failed scan says why. */
static void read_loops(const char *src, const char *mask, size_t len)
{
    static const loop_constant constants[] = {{"n", 64}, {"chunk", 4096}, {"big", 1e9}, {"tiny", -3}};
    loop_scan scan;
    if (!loop_scan_read(src, mask, &scan)) {
        REQUIRE(scan.out_of_memory || scan.error[0]);
        loop_scan_free(&scan);
        return;
    }
    for (int l = 0; l < scan.nloops; l++) {
        const loop_site *s = &scan.loops[l];
        REQUIRE(s->keyword < s->end && s->end <= len);
        REQUIRE(s->cond_begin <= s->cond_end && s->cond_end <= len);
        REQUIRE(s->parent < l && s->function >= 0 && s->function < scan.nfunctions);
    }
    for (int f = 0; f < scan.nfunctions; f++) {
        loop_bounds b = loop_budget_bounds(src, mask, &scan, f, constants, 4);
        REQUIRE(b.at_least >= 0 && b.at_most >= b.at_least && b.nesting >= 0);
        REQUIRE(b.at_least == 0 || b.largest_loop >= 0);
    }
    char *guarded = loop_guard_source(src, mask, &scan);
    REQUIRE(guarded);
    REQUIRE(count_lines(guarded) == count_lines(src));
    free(guarded);
    loop_scan_free(&scan);
}

static void check_signature(const char *src, const char *mask, const kernel_signature *sig, size_t len)
{
    REQUIRE(sig->nparams >= 0 && sig->nparams <= GPUC_MAX_ARGS);
    REQUIRE(sig->params_begin <= sig->params_end && sig->params_end < len);
    REQUIRE(sig->body_begin < sig->body_end && sig->body_end < len);
    REQUIRE(mask[sig->body_begin] == '{' && mask[sig->body_end] == '}');
    REQUIRE(memchr(sig->name, '\0', sizeof sig->name));
    for (int i = 0; i < sig->nparams; i++)
        REQUIRE(sig->params[i].rank >= 0 && sig->params[i].rank <= 3);
    char *rewritten = kernel_rewrite(src, mask, sig);
    REQUIRE(rewritten);
    require_same_lines(src, rewritten, len);
    const char *why = NULL;
    kernel_jam_texels texels[GPUC_MAX_ARGS]; /* every array may be read a texel at a time */
    bool used[GPUC_MAX_ARGS], windows[GPUC_MAX_ARGS];
    int ntexels = 0;
    for (int i = 0; i < sig->nparams; i++)
        if (sig->params[i].rank > 0)
            texels[ntexels++] = (kernel_jam_texels){.name = sig->params[i].name, .type = "vec4"};
    char *jammed = kernel_jam(rewritten, sig->name, 4 << (len % 2), texels, ntexels, used, windows, &why); /* text or reason */
    REQUIRE((jammed != NULL) == (why == NULL));
    REQUIRE(!jammed || strstr(jammed, KERNEL_JAM_FUNCTION "(out "));
    for (int i = 0; i < ntexels; i++) { /* an array said to be read a texel at a time is, in the text */
        char call[KERNEL_NAME_MAX + 16];
        snprintf(call, sizeof call, "gpuc_texel_%s(", texels[i].name);
        REQUIRE(!used[i] || (jammed && strstr(jammed, call)));
        REQUIRE(!windows[i] || (used[i] && strstr(jammed, "gpuc_window_"))); /* a window is a texel read */
    }
    free(jammed);
    free(rewritten);
}

/* Kernel maps over helpers the input may or may not define (its kernel, a fixed name, the first
 * identifier it holds). Lines must stay where they were. */
static void wrap_maps(const char *src, const char *mask, const kernel_signature *sig, bool parsed)
{
    codegen_map maps[3] = {{"helper", GPUC_FLOAT}, {"f", GPUC_INT}, {"", GPUC_FLOAT}};
    int n = 2;
    if (parsed)
        memcpy(maps[n++].function, sig->name, sizeof sig->name);
    for (int i = 0; i < n; i++) {
        gpuc_type type;
        source_find_function(mask, maps[i].function, &type);
        source_calls(mask, maps[i].function);
        size_t open = 0, calls = 0;
        for (size_t at = 0; (at = source_next_call(mask, maps[i].function, at, &open)) != (size_t)-1; at = open + 1) {
            REQUIRE(open > at && mask[open] == '(');
            REQUIRE(++calls <= strlen(mask)); /* strictly moving forward */
        }
    }
    char *wrapped = kernel_map_wrap(src, maps, n);
    REQUIRE(wrapped);
    REQUIRE(count_lines(wrapped) == count_lines(src));
    free(wrapped);
}

/* Array constants' reads (1D w, 2D m, 3D c): same length and lines; a refused text is unchanged and
 * the offset given is a `constants` word inside it. */
static void rewrite_constant_reads(const char *src, const char *mask, size_t len)
{
    static const resolved_constant constants[] = {
        {.name = "w", .type = GPUC_FLOAT, .dims = {3, 0, 0}, .count = 3},
        {.name = "m", .type = GPUC_FLOAT, .dims = {2, 2, 0}, .count = 4},
        {.name = "c", .type = GPUC_FLOAT, .dims = {2, 2, 2}, .count = 8},
        {.name = "n", .type = GPUC_INT, .value = 4}};
    char *text = strdup(src);
    REQUIRE(text);
    int bad = -1;
    size_t at = constant_reads_rewrite(text, mask, constants, 4, &bad);
    require_same_lines(src, text, len);
    if (at != (size_t)-1) {
        REQUIRE(at < len && !strncmp(mask + at, "constants", 9) && bad >= 0 && bad < 3);
        REQUIRE(!strcmp(text, src));
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 20) /* large enough for the deep-nesting inputs kept in the corpus */
        return 0;
    uint8_t mode = data[0];
    char *src = malloc(size);
    if (!src)
        return 0;
    memcpy(src, data + 1, size - 1);
    src[size - 1] = '\0';
    size_t len = strlen(src); /* an embedded NUL ends the source, as it does for the C API */

    char *mask = source_mask(src);
    REQUIRE(mask);
    require_same_lines(src, mask, len);

    kernel_signature sig;
    char err[512] = "";
    bool parsed = source_parse_kernel(mask, &sig, err, sizeof err);
    if (parsed) {
        check_signature(src, mask, &sig, len);
    } else {
        REQUIRE(err[0]);
    }
    if (mode & 1)
        wrap_maps(src, mask, &sig, parsed);
    read_loops(src, mask, len);
    rewrite_constant_reads(src, mask, len);

    int line, column;
    char text[80];
    source_position(src, len ? (size_t)mode * 131 % len : 0, &line, &column);
    REQUIRE(line >= 1 && column >= 1);
    source_line(src, line, text, sizeof text);
    free(mask);
    free(src);
    return 0;
}
