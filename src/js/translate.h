/* translate.h - the JavaScript front end's entry point: GPU.js kernel source in, a kernel in gpuc's
 * GLSL kernel form out (see THE KERNEL CONTRACT in gpuc.h). It needs no GL context, so the fuzzer and
 * tests can call it directly; gpuc_create_kernel_js (api.c) hands its output to gpuc_create_kernel. */
#ifndef GPUC_JS_TRANSLATE_H
#define GPUC_JS_TRANSLATE_H

#include "gpuc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_DEFAULT_LOOP_MAX 1000

/* A kernel map output (GPU.js's createKernelMap): the output `name` keeps what the helper `function`
 * returns (a JS function name, or a whole JS function's source: an anonymous one takes the output's
 * name). js_translate fills keeper: the GLSL function whose calls gpuc_create_kernel's map keeps. */
typedef struct js_map_entry {
    const char *name;
    const char *function;
    char keeper[96];
} js_map_entry;

typedef struct js_settings {
    gpuc_dims output;                /* this.output.x/y/z (absent dimensions read as 1) */
    const gpuc_constant *constants;  /* this.constants.<name>, ended by a NULL name or the count */
    int nconstants;
    const char *arg_types;           /* gpuc_kernel_desc.arg_types, or NULL to infer from use */
    int loop_max_iterations;         /* 0 means JS_DEFAULT_LOOP_MAX */
    uint32_t random_seed;            /* Math.random's seed (compiled in) */
    bool precise_math;               /* gpuc_kernel_desc.precise_math: sin/cos/tan reduced in double */
    bool graphical;                  /* gpuc_kernel_desc.graphical: this.color(...) paints, nothing returns */
    bool dynamic_output;             /* gpuc_kernel_desc.dynamic_output: this.output reads outputSize, a uniform */
    const char *const *functions;    /* JS helper sources registered with gpuc_add_function */
    int nfunctions;
    const char *const *natives;      /* GLSL helper sources registered with gpuc_add_native_function */
    int nnatives;
    js_map_entry *map;               /* kernel map outputs (may be NULL) */
    int nmap;
    bool *length_read;               /* out (may be NULL): [i] set when the kernel reads argument i's .length,
                                      * which JavaScript gives by the array's own rank: it must be exact */
} js_settings;

/* Where each loop of the GLSL came from in the JavaScript: the loop keyword at glsl_offset of the
 * GLSL was written at line:column of the kernel's source, or of an added function (`where` names it,
 * empty for the kernel's own source). The list is malloc'd; the caller frees it. */
typedef struct js_loop_origin {
    size_t glsl_offset;
    int line, column;
    char where[96];
} js_loop_origin;

typedef struct js_loops {
    js_loop_origin *list;
    int n, cap;
    bool failed; /* out of memory while listing */
    /* The kernel's parameters as written (its first GPUC_MAX_ARGS; the GLSL names them otherwise), so
     * that messages about a run's arguments name them as the user does. */
    char params[GPUC_MAX_ARGS][64];
    int nparams;
    int capped;  /* loops capped at loopMaxIterations, each reporting through gpuc_js_capped */
} js_loops;

/* Translates js (the last function is the kernel). On success *glsl is the GLSL kernel source (caller
 * frees) and kernel_name its JS name ("" for an anonymous `function (...)`). On failure err holds a message
 * that starts with "L:C: " (a position in js) or names the added function it comes from, and *glsl is
 * NULL. Returns false on failure; *out_of_memory tells that cause apart. With loops (may be NULL),
 * it also lists where the GLSL's loops come from (free loops->list on success and failure). */
bool js_translate(const char *js, const js_settings *settings, char **glsl, char *kernel_name,
                  size_t kernel_name_len, char *err, size_t errlen, bool *out_of_memory, js_loops *loops);

/* Checks one gpuc_add_function source on its own (it must parse as exactly one named function).
 * Writes its name into name. */
bool js_check_function(const char *js, char *name, size_t namelen, char *err, size_t errlen);

/* Checks one gpuc_add_native_function source: `type name(params) { ... }` with GLSL types. */
bool js_check_native(const char *glsl, char *name, size_t namelen, char *err, size_t errlen);

#endif
