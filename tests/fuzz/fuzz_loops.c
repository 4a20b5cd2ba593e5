/* fuzz_loops.c - libFuzzer target for the loop guard's promise: a loop runs unguarded only where gpuc
 * proves its trip count. The fuzzer's bytes choose a kernel whose for loop writes its counter in one
 * of many syntactic forms (assignments, parentheses, continued lines, macros, out/inout arguments of
 * built-ins and helpers, preprocessor branches; or only reads it), where in the body, to what value,
 * and the run's n. Built without GL (FUZZ_LOOPS_GL undefined) it checks the reader alone, fast: a
 * source the generator wrote a counter write into is never given a bounded trip count. Built with GL
 * it also runs each kernel in a normal context and one with guard_all_loops, and requires the normal
 * run to return GPUC_OK only with the guarded run's answer. One context of each, opened once. */
#include "kernel/loops/loop_budget.h"
#include "kernel/source/source_scan.h"

#ifdef FUZZ_LOOPS_GL
#include <gpuc.h>
#endif

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

/* A write form: text before the kernel and the statement, each with %d for the value (before may
 * ignore it); writes false for the forms that only read the counter. */
typedef struct form {
    const char *before, *statement;
    bool writes;
} form;

static const form forms[] = {
    {"", "i = %d", true},
    {"", "(i) = %d", true},
    {"", "((i)) = %d", true},
    {"", "i \\\n= %d", true},
    {"", "i\\\n = %d", true},
    {"", "i += %d - i", true},
    {"", "i -= i - %d", true},
    {"", "i *= 0; i += %d", true},
    {"", "i = i * 0 + %d", true},
    {"", "i++; i = %d", true},
    {"", "++i; i = %d", true},
    {"", "(i)--; i = %d", true},
    {"", "--(i); i = %d", true},
    {"", "i >>= 7; i |= %d", true},
    {"", "i.x = %d", true},
    {"", "c += 0.0, i = %d", true},
    {"", "if ((i = %d) < 0) c += 1.0", true},
    {"", "int m; m = i = %d", true},
    {"", "frexp(0.5, i); i += %d", true},
    {"", "fr\\\nexp(0.5, i); i += %d", true},
    {"", "{ int m; imulExtended(0, 0, i, m); i += %d; }", true},
    {"#define SET i = %d\n", "SET", true},
    {"#define ZERO(v) v = %d\n", "ZERO(i)", true},
    {"#define ID(x) (x)\n", "ID(i) = %d", true},
    {"#define ID(x) x\n", "ID(i = %d)", true},
    {"#define GETS = %d\n", "i GETS", true},
    {"void rewind(inout int j) { j = %d; }\n#define R rewind\n", "R(i)", true},
    {"void rewind(inout int j) { j = %d; }\n", "rewind(i)", true},
    {"void rewind(inout int j) { j = %d; }\n", "rewind((i))", true},
    {"void put(float v, out int j) { j = int(v); }\n", "put(%d.0, i)", true},
    {"void zero(inout int j) { j = %d; }\nvoid again(inout int j) { zero(j); }\n", "again(i)", true},
    {"float rewind(float f) { return f; }\nvoid rewind(out int j) { j = %d; }\n", "rewind(i)", true},
    {"", "\n#ifndef GPUC_NEVER\ni = %d;\n#endif\n", true},
    {"", "\n#if 1\ni = %d;\n#else\nc += 1.0;\n#endif\n", true},
    {"", "\n#if 0\nc += 1.0;\n#elif 1\ni = %d;\n#endif\n", true},
    {"", "i\n#ifdef GPUC_NEVER\n+\n#endif\n= %d", true},
    {"", "i -\\\n= i - %d", true},
    /* reads only */
    {"", "c += float(i) * 0.0 + float(%d) * 0.0", false},
    {"", "c += float(min(i, %d)) * 0.0", false},
    {"", "\n#if 0\ni = %d;\n#endif\n", false},
    {"", "// i = %d \\\ni = 0", false},
    {"float same(in int j) { return float(j) * float(%d); }\n", "c += same(i) * 0.0", false},
    {"struct S { int i; };\n", "S s = S(%d); s.i = i; c += float(s.i) * 0.0", false},
};
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

/* Where the statement goes: %s is the test (`c < float(n) && i == LAST`), %s the statement. */
static const char *const places[] = {
    "  if (%s) { %s; }\n",
    "  { { if (%s) { %s; } } }\n",
    "  for (int k = 0; k < 2; k++) { if (k == 1 && %s) { %s; } }\n",
    "  if (!(%s)) { } else { %s; }\n",
    "  if (%s) {\n%s;\n  }\n",
};
#define NPLACES ((int)(sizeof places / sizeof places[0]))

static const int ns[] = {1, 50, 1000, 20000, 70000, 200000};

typedef struct kernel_text {
    char source[2048];
    bool writes;
    int n;
} kernel_text;

static bool generate(const uint8_t *data, size_t size, kernel_text *k)
{
    if (size < 5)
        return false;
    const form *f = &forms[data[0] % NFORMS];
    int bound = 2 + data[3] % 200, value = data[2] % bound;
    char before[512], statement[256], test[64], body[640];
    snprintf(before, sizeof before, f->before, value);
    snprintf(statement, sizeof statement, f->statement, value);
    snprintf(test, sizeof test, "c < float(n) && i == %d", bound - 1);
    snprintf(body, sizeof body, places[data[1] % NPLACES], test, statement);
    snprintf(k->source, sizeof k->source,
             "%sfloat count(int n) {\n float c = 0.0;\n for (int i = 0; i < %d; i++) {\n  c += 1.0;\n%s }\n"
             " return c;\n}\n", before, bound, body);
    k->writes = f->writes;
    k->n = ns[data[4] % (sizeof ns / sizeof ns[0])];
    return true;
}

/* The reader's verdict on the kernel (the last function), as kernel_create reaches it. */
static void check_reader(const kernel_text *k)
{
    char *joined = source_join_lines(k->source);
    char *mask = joined ? source_mask(joined) : NULL;
    REQUIRE(joined && mask);
    loop_scan scan;
    if (loop_scan_read(joined, mask, &scan) && scan.nfunctions > 0) {
        loop_bounds b = loop_budget_bounds(joined, mask, &scan, scan.nfunctions - 1, NULL, 0);
        if (k->writes) /* the generator wrote the counter: no count may be proven */
            REQUIRE(b.at_most == LOOP_UNBOUNDED && b.at_least == 0);
    }
    loop_scan_free(&scan);
    free(mask);
    free(joined);
}

#ifdef FUZZ_LOOPS_GL
static gpuc *normal, *guarded;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (gpuc_open(&normal, NULL) != GPUC_OK || gpuc_open(&guarded, &(gpuc_options){.guard_all_loops = true}) != GPUC_OK) {
        fprintf(stderr, "fuzz_loops: %s\n", gpuc_errmsg(normal));
        exit(1);
    }
    return 0;
}

/* The kernel's run in context g: its status, and cell 0 in *value when GPUC_OK. */
static gpuc_status run(gpuc *g, const kernel_text *k, float *value)
{
    gpuc_kernel *kernel;
    gpuc_status st = gpuc_create_kernel(g, k->source, &(gpuc_kernel_desc){.output = {4}}, &kernel);
    if (st != GPUC_OK)
        return st;
    gpuc_array *out = NULL;
    st = gpuc_run(kernel, (gpuc_arg[]){gpuc_arg_i32(k->n)}, 1, &out);
    if (st == GPUC_OK) {
        float cells[4];
        st = gpuc_array_read_f32(out, cells, 4);
        *value = cells[0];
        gpuc_array_free(out);
    }
    gpuc_kernel_free(kernel);
    return st;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kernel_text k;
    if (!generate(data, size, &k))
        return 0;
    check_reader(&k);
#ifdef FUZZ_LOOPS_GL
    float a = 0, b = 0;
    gpuc_status sa = run(normal, &k, &a);
    if (sa == GPUC_OK) {
        gpuc_status sb = run(guarded, &k, &b);
        if (sb != GPUC_OK || a != b) {
            fprintf(stderr, "fuzz_loops: GPUC_OK with %g, but %s with %g guarding every loop (n = %d):\n%s\n", a,
                    gpuc_status_name(sb), b, k.n, k.source);
            abort();
        }
    }
#endif
    return 0;
}
