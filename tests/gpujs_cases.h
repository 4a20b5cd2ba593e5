/* gpujs_cases.h - the one reader of the GPU.js case fixtures (tests/fixtures/gpujs-*.txt, js-forms.txt):
 * a fixture's text into case structs, a malformed line reported as FILE:LINE. The recorders that write
 * these files share scripts/gpujs-cases.js; each suite keeps only how it runs and compares a case.
 *
 * The grammar (version 1). Lines starting with `#` are comments, outside source text. The first other
 * line is `format gpujs-cases 1`. Then cases, each `case NAME` ... `end`, one key a line:
 *   origin TEXT                          the GPU.js test the case comes from (the rest of the line)
 *   mode WORD                            the GPU.js mode that answered: webasm or cpu
 *   oracle WORD                          who answered: node (GPU.js refuses it), gpujs-webasm, gpujs-cpu
 *   pending WORD                         the feature gpuc needs first (test_js_suite.c)
 *   ulps N                               results may differ from the answers by N float steps
 *   resized_from X [Y [Z]]               GPU.js ran at this size first, then setOutput(output)
 *   output X [Y [Z]]                     required
 *   loopmax N                            loopMaxIterations
 *   setting TEXT                         a GPU.js setting gpuc has no use for: NAME VALUE
 *   types TEXT                           argumentTypes as desc.arg_types gives them (the rest of the line)
 *   constant NAME int|float|bool VALUE
 *   constarray NAME RANK X [Y [Z]] VALUES
 *   array RANK X [Y [Z]] VALUES          an array argument, X fastest: X*Y*Z values
 *   vecarray WIDTH RANK X [Y [Z]] VALUES an array of WIDTH-number cells: WIDTH*X*Y*Z values
 *   vec WIDTH VALUES                     one Array(WIDTH) argument
 *   float VALUE, int VALUE, bool true|false
 *   helper LINES                         a function for addFunction: the next LINES lines
 *   subkernels LINES                     createKernelMap's first argument, as JavaScript text
 *   map NAME LINES                       map output NAME and the function it keeps
 *   source LINES                         the kernel; required
 *   expect N VALUES                      the result's N values; required
 *   expectmap NAME N VALUES              map output NAME's N values
 * VALUES are floats as strtof reads them ("nan", "inf", "-inf" and "-0" included). Arguments are
 * numbered in the order their lines come. */
#ifndef GPUC_TEST_GPUJS_CASES_H
#define GPUC_TEST_GPUJS_CASES_H

#include <gpuc.h>

#include <stdbool.h>
#include <stddef.h>

#ifndef GPUC_FIXTURES_DIR
#define GPUC_FIXTURES_DIR "tests/fixtures"
#endif

#define GPUJS_CASES_VERSION 1
#define GPUJS_MAX_ARGS 24  /* features' camera_18_numbers passes 18 */
#define GPUJS_MAX_ITEMS 8  /* helpers, settings, map outputs and their expectations of one case */
#define GPUJS_NAME_MAX 64  /* case names; 32 for constants' and map outputs' */

typedef enum gpujs_arg_kind {
    GPUJS_ARRAY,    /* `array` */
    GPUJS_VECARRAY, /* `vecarray` */
    GPUJS_VEC,      /* `vec` */
    GPUJS_FLOAT,
    GPUJS_INT,
    GPUJS_BOOL,
} gpujs_arg_kind;

typedef struct gpujs_arg {
    gpujs_arg_kind kind;
    int width;      /* numbers per cell: 1 for `array`, the vector's 2-4 for `vecarray` and `vec` */
    int rank;       /* arrays: 1-3 */
    gpuc_dims dims; /* arrays: the unused ones 0 */
    float *values;  /* arrays and `vec`: nvalues = width * cells */
    size_t nvalues;
    double value; /* float, int; bool: 1 or 0 */
} gpujs_arg;

/* A named output's function (`map`) or values (`expectmap`). */
typedef struct gpujs_named {
    char name[32];
    char *source;
    float *values;
    size_t nvalues;
} gpujs_named;

typedef struct gpujs_case {
    char name[GPUJS_NAME_MAX];
    int line; /* of its `case` */
    char origin[160], mode[16], oracle[32], pending[32], types[128];
    int ulps, loop_max;
    gpuc_dims output, resized_from;
    bool resized;
    char *settings[GPUJS_MAX_ITEMS];
    int nsettings;
    /* as desc.constants takes them: names and array values point into this case */
    gpuc_constant constants[GPUC_MAX_CONSTANTS];
    char constant_names[GPUC_MAX_CONSTANTS][32];
    int nconstants;
    gpujs_arg args[GPUJS_MAX_ARGS];
    int nargs;
    char *helpers[GPUJS_MAX_ITEMS];
    int nhelpers;
    char *sub_kernels; /* NULL without `subkernels` */
    gpujs_named maps[GPUJS_MAX_ITEMS], expect_maps[GPUJS_MAX_ITEMS];
    int nmaps, nexpect_maps;
    char *source; /* helpers' and the kernel's text keep their newlines */
    float *expect;
    size_t nexpect;
} gpujs_case;

typedef struct gpujs_cases {
    gpujs_case *cases;
    int count;
} gpujs_cases;

/* Parses a fixture's text (`file` names it in messages). On a malformed line returns false, with
 * "FILE:LINE: what is wrong" in error and nothing left allocated. */
bool gpujs_cases_parse(const char *text, const char *file, gpujs_cases *out, char *error, size_t cap);
void gpujs_cases_free(gpujs_cases *set);

/* Reads GPUC_FIXTURES_DIR/file in a Check test: the test fails with the parser's message, or when
 * the file holds other than `expected` cases (the count its suite registers tests for). */
gpujs_cases gpujs_cases_load(const char *file, int expected);

/* desc.arg_types for the case's arguments as GPU.js typed them: "float[]".."float[][][]", "vecN[]".., "Array(N)",
 * "float", "int", "Boolean"; "" without arguments. */
const char *gpujs_case_arg_types(const gpujs_case *c, char *buf, size_t cap);

/* An `array`, `vecarray` (host floats, WIDTH a cell: desc.arg_types must say the width), `vec`, `float`,
 * `int` or `bool` argument as gpuc_run takes it; it points into the case. */
gpuc_arg gpujs_arg_value(const gpujs_arg *a);

#endif
