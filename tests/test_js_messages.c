/* test_js_messages.c - messages a GPU.js user meets first: GLSL kernels written with JavaScript habits
 * say what to write instead on the user's own line; JavaScript kernels' errors name the user's names
 * and the .arg_types entry that fixes them; no message shows gpuc's internal names or GLSL-only words. */
#include "fixture.h"
#include "suites.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Asserts the message's first line is `first` exactly, and that it quotes `quoted`. */
static void assert_first_line(const char *first, const char *quoted)
{
    const char *msg = gpuc_errmsg(gpu);
    size_t len = strcspn(msg, "\n");
    ck_assert_msg(len == strlen(first) && !strncmp(msg, first, len), "message:\n%s\nexpected first line:\n%s", msg,
                  first);
    ck_assert_msg(!quoted || strstr(msg, quoted), "message \"%s\" does not quote \"%s\"", msg, quoted);
}

/* ---- GLSL kernels with GPU.js habits ---------------------------------------------------------- */

struct habit {
    const char *source;
    const char *first_line; /* the whole first line of the message */
    const char *quoted;     /* the user's line, as quoted */
};

static const struct habit habits[] = {
    {"float k(float a[]) {\n  return a[this.thread.x];\n}",
     "kernel 'k', line 2, column 12: `this.thread.x` is JavaScript; in GLSL kernels write `thread.x`",
     "    2 |   return a[this.thread.x];\n      |            ^"},
    {"float k(float a[]) {\n  return a[thread.x] + float(output.x);\n}",
     "kernel 'k', line 2, column 30: `output` is a word GLSL reserves; in GLSL kernels the output size is "
     "`outputSize` (`outputSize.x`)",
     "    2 |   return a[thread.x] + float(output.x);"},
    {"float k(float a[]) {\n  return a[thread.x] + float(this.output.y);\n}",
     "kernel 'k', line 2, column 30: `this.output.y` is JavaScript; in GLSL kernels the output size is `outputSize`: "
     "write `outputSize.y`",
     NULL},
    {"float k(float a[]) {\n  return a[thread.x] * constants.n;\n}",
     "kernel 'k', line 2, column 24: `n` is not among the kernel's constants, which are `m`, `w` (give it in "
     "gpuc_kernel_desc.constants)",
     "    2 |   return a[thread.x] * constants.n;"},
    {"float k(float a[]) {\n  return a[thread.x] * this.constants.m;\n}",
     "kernel 'k', line 2, column 24: `this.constants.m` is JavaScript; in GLSL kernels write `constants.m`", NULL},
    {"float k(float a[]) {\n  return this.constants.n;\n}",
     "kernel 'k', line 2, column 10: `this.constants.n` is JavaScript; in GLSL kernels write `constants.n`; and `n` "
     "is not among the kernel's constants, which are `m`, `w` (give it in gpuc_kernel_desc.constants)",
     NULL},
    {"float k(float a[]) {\n  return Math.floor(a[thread.x]);\n}",
     "kernel 'k', line 2, column 10: `Math.floor` is JavaScript; GLSL has no Math: write `floor(...)`", NULL},
    {"float k(float a[]) {\n  return Math.PI * a[thread.x];\n}",
     "kernel 'k', line 2, column 10: `Math.PI` is JavaScript; GLSL has no Math: write `3.14159265` (or "
     "`radians(180.0)`)",
     NULL},
    {"float k(float a[]) {\n  var s = a[thread.x];\n  return s;\n}",
     "kernel 'k', line 2, column 3: `var` is JavaScript; GLSL declares a variable with its type: `float s` (or int, "
     "vec2...)",
     "    2 |   var s = a[thread.x];\n      |   ^"},
    {"float k(float a[]) {\n  float s = 0.0;\n  for (let i = 0; i < 3; i++) s += a[i];\n  return s;\n}",
     "kernel 'k', line 3, column 8: `let` is JavaScript; GLSL declares a variable with its type: `int i` (or float)",
     NULL},
    {"float k(float a[]) {\n  const s = a[thread.x];\n  return s;\n}",
     "kernel 'k', line 2, column 3: `const s` needs a type in GLSL: `const float s = ...` (or int, vec2...)", NULL},
    {"function helper(x) {\n  return x;\n}\nfloat k(float a[]) {\n  return a[thread.x];\n}",
     "kernel 'k', line 1, column 1: `function` is JavaScript; a GLSL function starts with its return type, as in "
     "`float f(float x)`; gpuc_create_kernel_js takes GPU.js's JavaScript as written",
     "    1 | function helper(x) {"},
    {"float k(float a[]) {\n  if (a[thread.x] === 1.0) return 1.0;\n  return 0.0;\n}",
     "kernel 'k', line 2, column 19: `===` is JavaScript; GLSL compares with `==`", NULL},
    /* the kernel itself written as JavaScript: refused by gpuc's own reading of the signature */
    {"function k(a) {\n  return a[this.thread.x];\n}",
     "kernel 'k': line 1, column 1: `function` is JavaScript; a GLSL kernel starts with its return type, as in "
     "`float k(float a[])`; gpuc_create_kernel_js takes GPU.js's JavaScript as written",
     NULL},
    {"(a) => a[this.thread.x]",
     "kernel '(unnamed)': line 1, column 24: no kernel function found: this is JavaScript (`function`, `=>`), and a "
     "GLSL kernel starts with its return type, as in `float k(float a[]) { return a[thread.x]; }`; "
     "gpuc_create_kernel_js takes GPU.js's JavaScript as written",
     NULL},
};

static const float table[] = {1, 2};

static gpuc_kernel_desc habit_desc(void)
{
    return (gpuc_kernel_desc){.output = {4}, .constants = {{"m", 2}, {"w", .values = table, .dims = {2}}}};
}

START_TEST(glsl_habits_say_what_to_write)
{
    const struct habit *h = &habits[_i];
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc d = habit_desc();
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, h->source, &d, &k), GPUC_ERROR_COMPILE, "kernel '");
    ck_assert_ptr_null(k);
    assert_first_line(h->first_line, h->quoted);
}
END_TEST

/* The hint is given only where the compiler stopped: an error elsewhere on a line keeps the compiler's
 * words, and text that merely looks like a habit compiles and runs as GLSL. */
START_TEST(glsl_hints_only_where_the_compiler_stopped)
{
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc d = habit_desc();
    const char *elsewhere = "struct M { float floor; };\nfloat k(float a[]) {\n  M Math = M(2.0);\n"
                            "  float y = Math.floor + ;\n  return y;\n}";
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, elsewhere, &d, &k), GPUC_ERROR_COMPILE,
                         "kernel 'k': GLSL error at line 4, column 26: ");
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "JavaScript"));
    const char *valid = "struct M { float floor; };\nfloat k(float a[]) {\n  M Math = M(2.0);\n"
                        "  return Math.floor * a[thread.x] + float(constants.m);\n}";
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, valid, &d, &k));
    const float in[4] = {1, 2, 3, 4};
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){4})}, 1, &r));
    float *out = fixture_take_floats(r, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(out[i], 2.0f * in[i] + 2.0f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

/* ---- JavaScript kernels ------------------------------------------------------------------------ */

#define ARRAY_ARITH \
    "JavaScript computes no array arithmetic (`[1, 2] * 2` is NaN, `[1, 2] + 1` the text \"1,21\"), and gpuc " \
    "gives no component-wise answer in its place: write the components out, as in "

struct js_case {
    const char *js;
    const char *arg_types;
    const char *message; /* the whole message */
};

static const struct js_case js_cases[] = {
    /* a cell of an "Array" argument is a number: name the argument and the entry that makes it vectors */
    {"function (a, b) {\n  let v = b[this.thread.x];\n  return v[0] + a;\n}", "Number, Array",
     "JavaScript kernel: 3:10: `v` holds a number read from argument `b`, so it cannot be indexed: to read `b`'s "
     "cells as arrays of 2-4 numbers, set its .arg_types entry 2 (now \"Array\") to \"Array1D(2)\" (as many numbers "
     "as a cell holds): .arg_types = \"Number, Array1D(2)\""},
    {"function (a, b) {\n  const p = a[this.thread.x];\n  return p[2] * b;\n}", NULL,
     "JavaScript kernel: 3:10: `p` holds a number read from argument `a`, so it cannot be indexed: to read `a`'s "
     "cells as arrays of 2-4 numbers, set its .arg_types entry 1 to \"Array1D(3)\" (as many numbers as a cell "
     "holds): .arg_types = \"Array1D(3), Number\""},
    {"function (a) {\n  return a[0][1];\n}", "Float",
     "JavaScript kernel: 2:10: argument `a` is a number, so it cannot be indexed: for an array argument, set its "
     ".arg_types entry 1 (now \"Float\") to \"Array\": .arg_types = \"Array\""},
    {"function (s, a) {\n  return a * s;\n}", "Number, Array",
     "JavaScript kernel: 2:10: the array `a` can only be read by index (`a[i]`) or passed to a helper function; "
     "its .arg_types entry 2 is \"Array\": for a number argument set it to \"Number\" (.arg_types = \"Number, "
     "Number\")"},
    /* array methods: named as such, not blamed on the arrow function they are given */
    {"function (a) {\n  const v = [1, 2, 3].map(x => x * 2);\n  return v[0];\n}", NULL,
     "JavaScript kernel: 2:13: `.map(...)` is an array method, and kernels have none (GPU.js compiles none either): "
     "write a loop over the elements, as in `for (let i = 0; i < 3; i++) { ... v[i] ... }`"},
    {"function (a) {\n  const v = [1, 2, 3];\n  return v.reduce((s, x) => s + x, 0);\n}", NULL,
     "JavaScript kernel: 3:10: `.reduce(...)` is an array method, and kernels have none (GPU.js compiles none "
     "either): write a loop over the elements, as in `for (let i = 0; i < 3; i++) { ... v[i] ... }`"},
    {"function (a) {\n  return a[this.thread.x].toFixed(2);\n}", NULL,
     "JavaScript kernel: 2:10: calling `.toFixed(...)` is not supported in kernels"},
    /* constants the kernel does not have: those it has are named */
    {"function (a) {\n  return a[0] * this.constants.n;\n}", NULL,
     "JavaScript kernel: 2:17: `this.constants.n` is not among the kernel's constants, which are `m`, `w` (give it "
     "in gpuc_kernel_desc.constants)"},
    {"function (a) {\n  return [1, 2, 3, 4, 5][0];\n}", NULL,
     "JavaScript kernel: 2:10: arrays of 5 element(s) are not supported in kernels (only [a, b], [a, b, c] and "
     "[a, b, c, d], and square matrices of those)"},
    /* arithmetic on arrays: JavaScript's answer is NaN or a string, never GLSL's component-wise one */
    /* node: [1, 2] * [3, 4] is NaN */
    {"function (a) {\n  return [1, 2] * [3, 4];\n}", NULL,
     "JavaScript kernel: 2:17: `*` on an array: " ARRAY_ARITH "[v[0] * w[0], v[1] * w[1]]"},
    /* node: v += 1 makes v the string "1,21" */
    {"function (a) {\n  let v = [1, 2];\n  v += 1;\n  return v[0];\n}", NULL,
     "JavaScript kernel: 3:5: `+=` on an array: " ARRAY_ARITH "[v[0] + w[0], v[1] + w[1]]"},
    /* node: !1 + [1, 2] is "false1,2" */
    {"function (a) {\n  return (!1 + [1, 2])[0];\n}", NULL,
     "JavaScript kernel: 2:14: `+` on an array: " ARRAY_ARITH "[v[0] + w[0], v[1] + w[1]]"},
    /* node: [a, 2] / 2 is NaN (GPU.js compiles GLSL's vec2 / float) */
    {"function (a) {\n  const v = [a, 2];\n  return (v / 2)[0];\n}", NULL,
     "JavaScript kernel: 3:13: `/` on an array: " ARRAY_ARITH "[v[0] / w[0], v[1] / w[1]]"},
    /* node: -[a, 2] is NaN */
    {"function (a) {\n  const v = [a, 2];\n  return (-v)[1];\n}", NULL,
     "JavaScript kernel: 3:11: `-` on an array: " ARRAY_ARITH "[-v[0], -v[1]]"},
    /* node: [a, 2] + 1 is a string */
    {"function (a) {\n  const v = [a, 2];\n  return (v + 1)[1];\n}", NULL,
     "JavaScript kernel: 3:13: `+` on an array: " ARRAY_ARITH "[v[0] + w[0], v[1] + w[1]]"},
    /* && with a number on its left gives that number or the right operand: an operand with effects would run
     * twice, so its value is refused (as a condition it is not: js_forms' truthiness cases) */
    {"function (a) {\n  let n = a;\n  return (n++ && 2) * 3;\n}", NULL,
     "JavaScript kernel: 3:15: the value of `&&` is its left operand or its right one, and its left operand here "
     "has effects (a call, an assignment or ++/--), so gpuc would evaluate it twice: keep the left operand in a "
     "variable first (const t = ...; then t && ...), or use `&&` only as a condition"},
};

START_TEST(js_type_errors_point_at_the_fix)
{
    const struct js_case *t = &js_cases[_i];
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc d = habit_desc();
    d.arg_types = t->arg_types;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, t->js, &d, &k), GPUC_ERROR_COMPILE, "JavaScript kernel");
    ck_assert_ptr_null(k);
    ck_assert_str_eq(gpuc_errmsg(gpu), t->message);
    /* the entry the message names does make the kernel compile */
    const char *fix = strstr(t->message, ".arg_types = \"");
    if (fix) {
        char types[128];
        snprintf(types, sizeof types, "%.*s", (int)strcspn(fix + 14, "\""), fix + 14);
        d.arg_types = types;
        ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, t->js, &d, &k));
        gpuc_kernel_free(k);
    }
}
END_TEST

START_TEST(js_run_errors_name_the_javascript_parameters)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function add(values, offset, v) { return values[this.thread.x] + "
                                                 "offset + v[1]; }",
                                            &(gpuc_kernel_desc){.output = {4}, .arg_types = "Array, Number, Array(3)"},
                                            &k));
    const float in[4] = {1, 2, 3, 4};
    gpuc_array *r = NULL;
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_f32(1), gpuc_arg_f32(2), gpuc_arg_vec3(1, 2, 3)}, 3, &r),
                         GPUC_ERROR_TYPE_MISMATCH,
                         "kernel 'add', argument 0 (`values`, an array of numbers): expected an array, got a float "
                         "scalar");
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){4}), gpuc_arg_i32(2),
                                                  gpuc_arg_vec3(1, 2, 3)}, 3, &r),
                         GPUC_ERROR_TYPE_MISMATCH,
                         "kernel 'add', argument 1 (`offset`, a number): expected a float scalar (gpuc_arg_f32), got "
                         "an int scalar");
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){4}), gpuc_arg_f32(2),
                                                  gpuc_arg_vec4(1, 2, 3, 4)}, 3, &r),
                         GPUC_ERROR_TYPE_MISMATCH,
                         "kernel 'add', argument 2 (`v`, an array of 3 numbers (Array(3))): expected a vector of 3 "
                         "(gpuc_arg_vec3), got one of 4 components");
    ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_i32((const int32_t[]){1, 2, 3, 4}, (gpuc_dims){4}),
                                                  gpuc_arg_f32(2), gpuc_arg_vec3(1, 2, 3)}, 3, &r),
                         GPUC_ERROR_TYPE_MISMATCH,
                         "kernel 'add', argument 0 (`values`, an array of numbers): got host int32 data (host data is "
                         "float32, gpuc_arg_host_f32, for arrays of numbers, int32 for arrays of integers)");
    /* still runs, with the right arguments */
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){4}), gpuc_arg_f32(2),
                                               gpuc_arg_vec3(1, 10, 3)}, 3, &r));
    float *out = fixture_take_floats(r, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(out[i], in[i] + 2.0f + 10.0f);
    free(out);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(a_native_function_that_does_not_compile_is_named)
{
    ck_assert_gpuc_ok(gpuc_add_native_function(gpu, "float scaled(float x) {\n    return x * undeclared_factor;\n}"));
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function (a) { return a[this.thread.x]; }",
                                               &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE,
                         "JavaScript kernel 'anonymous': native function `scaled` (gpuc_add_native_function; every "
                         "JavaScript kernel created after it includes it) does not compile: its line 2, column ");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "    2 |     return x * undeclared_factor;"));
    ck_assert_ptr_null(strstr(gpuc_errmsg(gpu), "a bug in gpuc"));
}
END_TEST

/* ---- no internal names in any message ---------------------------------------------------------- */

/* gpuc's own GLSL names, and GLSL words a JavaScript user does not write. */
static const char *const internal_prefixes[] = {"js_", "jsrt_", "jsk_", "jsf_", "jsx_", "gpuc_cnst", "gpuc_size_",
                                                "gpuc_array_"};
static const char *const glsl_words[] = {"vec2", "vec3", "vec4", "ivec3", "mat2", "mat3", "mat4", "uniform",
                                         "float[]", "GLSL"};

/* Whether word occurs in msg not inside a longer name (gpuc_arg_vec3 names a C call, not a GLSL type). */
static bool has_word(const char *msg, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = msg; (p = strstr(p, word)) != NULL; p++) {
        bool before = p > msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

static void assert_in_users_terms(const char *what)
{
    const char *msg = gpuc_errmsg(gpu);
    for (size_t i = 0; i < sizeof internal_prefixes / sizeof internal_prefixes[0]; i++)
        ck_assert_msg(!strstr(msg, internal_prefixes[i]), "%s: message names gpuc's `%s...`: %s", what,
                      internal_prefixes[i], msg);
    for (size_t i = 0; i < sizeof glsl_words / sizeof glsl_words[0]; i++)
        ck_assert_msg(!has_word(msg, glsl_words[i]), "%s: message says `%s`: %s", what, glsl_words[i], msg);
}

/* Bad kernels as a new user writes them, one per error path of the front end's checker. */
static const struct {
    const char *js, *arg_types;
} bad_kernels[] = {
    {"function (a) { return a[this.thread.x] + 'x'; }", NULL},
    {"function (a) { return [1, 2, 3, 4, 5]; }", NULL},
    {"function (a) { let v = [1, 2]; if (v) return 1; return 0; }", NULL},
    {"function (a) { let v = [1, 2]; return v[5]; }", NULL},
    {"function (a) { let v = [1, 2]; return Math.sqrt(v); }", NULL},
    {"function (a) { return Math.foo(1); }", NULL},
    {"function (a) { return a[1][2][3][4]; }", NULL},
    {"function (a) { return a[0][0][0]; }", "Array1D(4)"},
    {"function (a) { a[0] = 1; return 1; }", NULL},
    {"function (a) { return y; }", NULL},
    {"function (a) { return this.thread.w; }", NULL},
    {"function (a) { return this.constants.zz; }", NULL},
    {"function (a) { return a.length; }", NULL},
    {"function (a) { let v = [[1, 2], [3, 4]]; return v; }", NULL},
    {"function (a) { let v = [[1, 2], [3, 4]]; return v + 1; }", NULL},
    {"function (a) { let v = true; return v[0]; }", NULL},
    {"function (a) { let m = [[1, 2], [3, 4]]; return m[0][0][0]; }", NULL},
    {"function (a) { switch ([1, 2]) { case 1: return 1; } return 0; }", NULL},
    {"function (a) { let [x, y, z] = [1, 2]; return x; }", NULL},
    {"function (a) { let q = 1; q = [1, 2]; return q; }", NULL},
    {"function (a) { return [1, 2] == [1, 2]; }", NULL},
    {"function (a) { return [1, 2] | 0; }", NULL},
    {"function (a) { let v = [1, 2, 3]; v++; return 1; }", NULL},
    {"function (a) { const v = [1, 2, 3]; v.forEach(x => x); return 1; }", NULL},
    {"function (a, b) { let v = b[this.thread.x]; return v[0] + a; }", "Number, Array"},
    {"function (a) { return a[0][1]; }", "Integer"},
    {"function (a) { return a + 1; }", "Array"},
    {"function (a) { return this.output; }", NULL},
    {"function (a) { return [1, 2] * [3, 4]; }", NULL},
    {"function (a) { let n = a; return (n++ || 2) * 3; }", NULL},
};

START_TEST(no_message_shows_gpucs_internal_names)
{
    gpuc_kernel_desc d = habit_desc();
    for (size_t i = 0; i < sizeof bad_kernels / sizeof bad_kernels[0]; i++) {
        gpuc_kernel *k = NULL;
        d.arg_types = bad_kernels[i].arg_types;
        gpuc_status st = gpuc_create_kernel_js(gpu, bad_kernels[i].js, &d, &k);
        ck_assert_msg(st == GPUC_ERROR_COMPILE, "%s -> %s (%s)", bad_kernels[i].js, gpuc_status_name(st),
                      gpuc_errmsg(gpu));
        assert_in_users_terms(bad_kernels[i].js);
    }
    /* a run's argument errors, for every kind of JavaScript parameter */
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a, n, v, p, g) { return a[0] + n + v[0] + p[0][1] + "
                                                 "g[0][0]; }",
                                            &(gpuc_kernel_desc){.output = {4},
                                                                .arg_types = "Array, Integer, Array(2), Array1D(4), "
                                                                             "Array2D"},
                                            &k));
    const float h[8] = {0};
    const gpuc_arg good[] = {gpuc_arg_host_f32(h, (gpuc_dims){4}), gpuc_arg_i32(1), gpuc_arg_vec2(1, 2),
                             gpuc_arg_host_f32(h, (gpuc_dims){2}), gpuc_arg_host_f32(h, (gpuc_dims){2, 2})};
    for (int i = 0; i < 5; i++) {
        gpuc_arg args[5];
        memcpy(args, good, sizeof args);
        args[i] = i < 3 ? gpuc_arg_f32(1) : gpuc_arg_vec3(1, 2, 3); /* the wrong kind for each */
        gpuc_array *r = NULL;
        ck_assert_gpuc_fails(gpuc_run(k, args, 5, &r), GPUC_ERROR_TYPE_MISMATCH, "kernel 'anonymous', argument");
        assert_in_users_terms("a run with a wrong argument");
    }
    gpuc_array *r = NULL;
    gpuc_arg null_array[5];
    memcpy(null_array, good, sizeof null_array);
    null_array[0] = (gpuc_arg){.kind = GPUC_ARG_ARRAY};
    ck_assert_gpuc_fails(gpuc_run(k, null_array, 5, &r), GPUC_ERROR_INVALID_ARGUMENT,
                         "argument 0 (`a`): the array is NULL");
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_js_messages(void)
{
    Suite *s = suite_create("js_messages");
    TCase *tc = fixture_tcase("js_messages");
    tcase_add_loop_test(tc, glsl_habits_say_what_to_write, 0, (int)(sizeof habits / sizeof habits[0]));
    tcase_add_test(tc, glsl_hints_only_where_the_compiler_stopped);
    tcase_add_loop_test(tc, js_type_errors_point_at_the_fix, 0, (int)(sizeof js_cases / sizeof js_cases[0]));
    tcase_add_test(tc, js_run_errors_name_the_javascript_parameters);
    tcase_add_test(tc, a_native_function_that_does_not_compile_is_named);
    tcase_add_test(tc, no_message_shows_gpucs_internal_names);
    suite_add_tcase(s, tc);
    return s;
}
