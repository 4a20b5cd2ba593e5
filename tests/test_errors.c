/* test_errors.c - one test per error path of kernel creation and runs: each returns the right status,
 * says what was wrong (kernel, argument, line, limit), and leaves everything usable. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gpuc_kernel *k_out;

static gpuc_status create(const char *src, gpuc_kernel_desc desc)
{
    k_out = NULL;
    gpuc_status st = gpuc_create_kernel(gpu, src, &desc, &k_out);
    if (st != GPUC_OK)
        ck_assert_ptr_null(k_out); /* nothing is handed out on failure */
    return st;
}

START_TEST(syntax_error_on_line_three_is_quoted)
{
    const char *src = "float f(float a[]) {\n"
                      "    float x = a[thread.x];\n"
                      "    float y = x * ;\n"
                      "    return y;\n"
                      "}\n";
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}}), GPUC_ERROR_COMPILE, "line 3");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "float y = x * ;"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "kernel 'f'"));
}
END_TEST

/* The "column N" part of the current message, or "" when there is none. */
static void message_column(char *out, size_t len)
{
    const char *c = strstr(gpuc_errmsg(gpu), "column ");
    snprintf(out, len, "%.*s", c ? (int)strcspn(c, ":") : 0, c ? c : "");
}

START_TEST(undeclared_name_gives_line_and_column)
{
    const char *src = "// comment line\n"
                      "float g(float a[]) {\n"
                      "    float v = a[thread.x]; int q = missing;\n"
                      "    return v;\n"
                      "}\n";
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}}), GPUC_ERROR_COMPILE, "line 3");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "int q = missing;"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "missing"));
    /* `a[thread.x]` is rewritten to a call; the same line with a scalar of the same length must give
     * the same column, or the rewrite moved the user's text. */
    char with_array[32], with_scalar[32];
    message_column(with_array, sizeof with_array);
    const char *same = "// comment line\n"
                       "float g(float a_thread_x_) {\n"
                       "    float v = a_thread_x_; int q = missing;\n"
                       "    return v;\n"
                       "}\n";
    ck_assert_gpuc_fails(create(same, (gpuc_kernel_desc){.output = {4}}), GPUC_ERROR_COMPILE, "line 3");
    message_column(with_scalar, sizeof with_scalar);
    ck_assert_str_eq(with_array, with_scalar);
}
END_TEST

START_TEST(error_in_a_helper_maps_too)
{
    const char *src = "float helper(float x) {\n"
                      "    return x +* 2.0;\n"
                      "}\n"
                      "float k() { return helper(1.0); }\n";
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {1}}), GPUC_ERROR_COMPILE, "line 2");
}
END_TEST

START_TEST(signature_errors)
{
    gpuc_kernel_desc d = {.output = {4}};
    ck_assert_gpuc_fails(create("", d), GPUC_ERROR_COMPILE, "no kernel function");
    ck_assert_gpuc_fails(create("const float x = 1.0;", d), GPUC_ERROR_COMPILE, "no kernel function");
    ck_assert_gpuc_fails(create("void f() { }", d), GPUC_ERROR_COMPILE, "returns `void`");
    ck_assert_gpuc_fails(create("mat4 f() { return mat4(1); }", d), GPUC_ERROR_COMPILE, "returns `mat4`");
    ck_assert_gpuc_fails(create("float f(bool b[]) { return 1.0; }", d), GPUC_ERROR_COMPILE, "line 1, column 9");
    ck_assert_gpuc_fails(create("float f(bool b[]) { return 1.0; }", d), GPUC_ERROR_COMPILE, "arrays of bool");
    ck_assert_gpuc_fails(create("float f(float a[4]) { return 1.0; }", d), GPUC_ERROR_COMPILE, "must be unsized");
    ck_assert_gpuc_fails(create("float f(out float x) { return 1.0; }", d), GPUC_ERROR_COMPILE, "inputs");
    ck_assert_gpuc_fails(create("float f(float a[][][][]) { return 1.0; }", d), GPUC_ERROR_COMPILE, "at most 3");
    ck_assert_gpuc_fails(create("float f(mat2 p) { return 1.0; }", d), GPUC_ERROR_COMPILE, "float, int, bool or vecN scalars");
    ck_assert_gpuc_fails(create("float f(float a, int a) { return 1.0; }", d), GPUC_ERROR_COMPILE, "two parameters");
    ck_assert_gpuc_fails(create("float f(float thread) { return 1.0; }", d), GPUC_ERROR_COMPILE, "clashes");
    ck_assert_gpuc_fails(create("float main() { return 1.0; }", d), GPUC_ERROR_COMPILE, "main");
    ck_assert_gpuc_fails(create("float f() { return 1.0; ", d), GPUC_ERROR_COMPILE, "never closed");
    ck_assert_gpuc_fails(create("float f(float a[]) { return a[thread.x][0]; }", d), GPUC_ERROR_COMPILE, "line 1");
}
END_TEST

START_TEST(bad_descriptions)
{
    gpuc_kernel *k = NULL;
    const char *src = "float f() { return 1.0; }";
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, NULL, &(gpuc_kernel_desc){.output = {1}}, &k),
                         GPUC_ERROR_INVALID_ARGUMENT, "source is NULL");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, NULL, &k), GPUC_ERROR_INVALID_ARGUMENT, "desc is NULL");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {1}}, NULL),
                         GPUC_ERROR_INVALID_ARGUMENT, "out is NULL");
    ck_assert_int_eq(gpuc_create_kernel(NULL, src, &(gpuc_kernel_desc){.output = {1}}, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){0}), GPUC_ERROR_INVALID_ARGUMENT, "kernel output");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {1 << 16, 1 << 16}}), GPUC_ERROR_LIMIT, "2^31");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"2bad", 1}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "2bad");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"gl_x", 1}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "gl_x");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"n", 1}, {"n", 2}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "given twice");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"n", 1.0 / 0.0}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "finite");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"n", 1.5, GPUC_INT}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a 32-bit integer");
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"n", 1, GPUC_VEC2}}}),
                         GPUC_ERROR_INVALID_ARGUMENT, "int or float");
    ck_assert_gpuc_fails(create("float f(float n) { return n; }", (gpuc_kernel_desc){.output = {4}, .constants = {{"n", 1}}}),
                         GPUC_ERROR_COMPILE, "constants.n");
    /* A GLSL keyword as a constant's name fails in gpuc's declarations, and says so. */
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"float", 1}}}),
                         GPUC_ERROR_COMPILE, "declarations");
}
END_TEST

/* Every output is an array a later kernel may read, so the device's texture-buffer limit (texels of 4
 * values) bounds it on both backends: a kernel whose result or map output could never be made is
 * refused at creation, naming the output and the limit, and one exactly at the limit is accepted. */
START_TEST(outputs_beyond_the_array_limit)
{
    int64_t texels = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (texels <= 0 || texels * 4 + 4 > INT32_MAX)
        return; /* a device whose arrays hold every size gpuc accepts */
    const char *src = "float f() { return 1.0; }";
    char limit[32];
    snprintf(limit, sizeof limit, "at most %lld", (long long)texels);
    uint32_t floats = (uint32_t)(texels * 4);
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {floats + 1}}), GPUC_ERROR_LIMIT, limit);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "kernel 'f': its output of {"));
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "GL_MAX_TEXTURE_BUFFER_SIZE"));
    if (40000LL * 40000 > texels * 4)
        ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {40000, 40000}}), GPUC_ERROR_LIMIT,
                             "its output of {40000, 40000, 0} float cells");
    ck_assert_gpuc_fails(create("vec4 f() { return vec4(1.0); }", (gpuc_kernel_desc){.output = {(uint32_t)texels + 1}}),
                         GPUC_ERROR_LIMIT, "vec4 cells");
    ck_assert_gpuc_ok(create(src, (gpuc_kernel_desc){.output = {floats}}));
    gpuc_kernel_free(k_out);
    ck_assert_gpuc_ok(create("vec4 f() { return vec4(1.0); }", (gpuc_kernel_desc){.output = {(uint32_t)texels}}));
    gpuc_kernel_free(k_out);
    /* A map output counts its own cells: the float result fits, the vec4 map output does not. */
    ck_assert_gpuc_fails(create("vec4 wide() { return vec4(2.0); }\nfloat f() { wide(); return 1.0; }",
                                (gpuc_kernel_desc){.output = {(uint32_t)texels + 1},
                                                   .map = {{"spread", "wide"}}}),
                         GPUC_ERROR_LIMIT, "its map output \"spread\" of {");
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return 1; }",
                                               &(gpuc_kernel_desc){.output = {floats + 4}}, &k),
                         GPUC_ERROR_LIMIT, limit);
    ck_assert_gpuc_fails(gpuc_create_kernel_map_js(gpu, "{ pair: (v) => [v, v] }",
                                                   "function () { pair(this.thread.x); return 1; }",
                                                   &(gpuc_kernel_desc){.output = {floats / 2 + 1}}, &k),
                         GPUC_ERROR_LIMIT, "map output \"pair\"");
    ck_assert_ptr_null(k);
}
END_TEST

START_TEST(loop_budget_is_enforced_where_the_device_has_one)
{
    if (gpuc_get_info(gpu)->loop_budget == 0)
        return; /* hardware drivers have no such budget */
    const char *src = "float f(float v[]) {\n"
                      "    float s = 0.0;\n"
                      "    for (int i = 0; i < constants.chunk; i++) s += v[i];\n"
                      "    return s;\n}\n";
    ck_assert_gpuc_fails(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"chunk", 70000}}}),
                         GPUC_ERROR_LIMIT, "65535");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "line 3"));
    ck_assert_int_eq(create(src, (gpuc_kernel_desc){.output = {4}, .constants = {{"chunk", 65535}}}), GPUC_OK);
    gpuc_kernel_free(k_out);

    const char *nested = "float f() {\n"
                         "    float s = 0.0;\n"
                         "    for (int i = 0; i < 300; ++i)\n"
                         "        for (int j = 0; j < 300; j += 1) { s += 1.0; }\n"
                         "    return s;\n}\n";
    ck_assert_gpuc_fails(create(nested, (gpuc_kernel_desc){.output = {4}}), GPUC_ERROR_LIMIT, "90300");
    const char *sequential = "float f() {\n"
                             "    float s = 0.0;\n"
                             "    for (int i = 0; i < 40000; i++) s += 1.0;\n"
                             "    for (int i = 40000; i > 0; i--) s += 1.0;\n"
                             "    return s;\n}\n";
    ck_assert_gpuc_fails(create(sequential, (gpuc_kernel_desc){.output = {4}}), GPUC_ERROR_LIMIT, "80000");
}
END_TEST

START_TEST(run_argument_errors)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[], int b[][], float s, int n) { return a[0] + s; }",
                                         &(gpuc_kernel_desc){.output = {4}}, &k));
    float f[4] = {1, 2, 3, 4};
    int32_t iv[4] = {1, 2, 3, 4};
    gpuc_array *fa, *ia, *r = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){4}, &fa));
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, iv, (gpuc_dims){2, 2}, &ia));
    gpuc_arg good[] = {gpuc_arg_array(fa), gpuc_arg_array(ia), gpuc_arg_f32(1), gpuc_arg_i32(1)};

    ck_assert_gpuc_fails(gpuc_run(k, good, 3, &r), GPUC_ERROR_INVALID_ARGUMENT, "takes 4 arguments, got 3");
    ck_assert_gpuc_fails(gpuc_run(k, NULL, 4, &r), GPUC_ERROR_INVALID_ARGUMENT, "args is NULL");
    ck_assert_gpuc_fails(gpuc_run(k, good, 4, NULL), GPUC_ERROR_INVALID_ARGUMENT, "result is NULL");
    ck_assert_int_eq(gpuc_run(NULL, good, 4, &r), GPUC_ERROR_INVALID_ARGUMENT);

    gpuc_arg a[4];
    memcpy(a, good, sizeof a);
    a[0] = gpuc_arg_array(ia);
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "argument 0 (`float a[]`): got a int array");
    memcpy(a, good, sizeof a);
    a[1] = gpuc_arg_host_i32(iv, (gpuc_dims){4});
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "got 1D host data");
    memcpy(a, good, sizeof a);
    a[1] = gpuc_arg_host_f32(f, (gpuc_dims){2, 2});
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "host float32 data");
    memcpy(a, good, sizeof a);
    a[0] = gpuc_arg_host_f32(NULL, (gpuc_dims){4});
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_INVALID_ARGUMENT, "host data is NULL");
    memcpy(a, good, sizeof a);
    a[0] = gpuc_arg_host_f32(f, (gpuc_dims){0});
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_INVALID_ARGUMENT, "x = 0");
    memcpy(a, good, sizeof a);
    a[0] = gpuc_arg_array(NULL);
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_INVALID_ARGUMENT, "the array is NULL");
    memcpy(a, good, sizeof a);
    a[2] = gpuc_arg_i32(1);
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "expected a float scalar");
    memcpy(a, good, sizeof a);
    a[3] = gpuc_arg_f32(1);
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "expected an int scalar");
    memcpy(a, good, sizeof a);
    a[0] = gpuc_arg_f32(1);
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "expected an array");
    memcpy(a, good, sizeof a);
    a[0] = (gpuc_arg){0};
    ck_assert_gpuc_fails(gpuc_run(k, a, 4, &r), GPUC_ERROR_TYPE_MISMATCH, "GPUC_ARG_NONE");
    ck_assert_ptr_null(r);

    /* After all that, the kernel still runs. */
    float out[4];
    ck_assert_gpuc_ok(gpuc_run(k, good, 4, &r));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, 4));
    ck_assert_float_eq(out[2], 2.0f);
    gpuc_array_free(r);
    gpuc_array_free(fa);
    gpuc_array_free(ia);
    gpuc_kernel_free(k);
    gpuc_kernel_free(NULL);
    ck_assert_int_eq(gpuc_kernel_arg_count(NULL), 0);
}
END_TEST

START_TEST(run_to_errors)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {4}}, &k));
    float f[4] = {1, 2, 3, 4};
    gpuc_array *a, *wrong_size, *wrong_type;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, f, (gpuc_dims){4}, &a));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){5}, &wrong_size));
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){4}, &wrong_type));
    gpuc_arg args[] = {gpuc_arg_array(a)};
    ck_assert_gpuc_fails(gpuc_run_to(k, args, 1, NULL), GPUC_ERROR_INVALID_ARGUMENT, "dst is NULL");
    ck_assert_gpuc_fails(gpuc_run_to(k, args, 1, wrong_size), GPUC_ERROR_TYPE_MISMATCH, "dst holds 5 float cells");
    ck_assert_gpuc_fails(gpuc_run_to(k, args, 1, wrong_type), GPUC_ERROR_TYPE_MISMATCH, "dst holds 4 int cells");
    ck_assert_gpuc_fails(gpuc_run_to(k, args, 1, a), GPUC_ERROR_INVALID_ARGUMENT, "also an input");
    float back[4];
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, back, 4));
    ck_assert_mem_eq(back, f, sizeof f); /* the refused run wrote nothing */
    gpuc_array_free(a);
    gpuc_array_free(wrong_size);
    gpuc_array_free(wrong_type);
    gpuc_kernel_free(k);
}
END_TEST

Suite *suite_errors(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = fixture_tcase("errors");
    tcase_add_test(tc, syntax_error_on_line_three_is_quoted);
    tcase_add_test(tc, undeclared_name_gives_line_and_column);
    tcase_add_test(tc, error_in_a_helper_maps_too);
    tcase_add_test(tc, signature_errors);
    tcase_add_test(tc, bad_descriptions);
    tcase_add_test(tc, outputs_beyond_the_array_limit);
    tcase_add_test(tc, loop_budget_is_enforced_where_the_device_has_one);
    tcase_add_test(tc, run_argument_errors);
    tcase_add_test(tc, run_to_errors);
    suite_add_tcase(s, tc);
    return s;
}
