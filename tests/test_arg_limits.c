/* test_arg_limits.c - how many arguments a kernel takes and Boolean arguments: a GLSL kernel of 24
 * parameters of every kind checked against C, array arguments up to the device's image units and the
 * refusal one past them (naming the limit, its value, the kernel and the count), GPUC_MAX_ARGS in GLSL
 * and JavaScript, and `bool` / "Boolean" parameters read as JavaScript reads a number. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 64
#define SOURCE_MAX 8192

/* 10 floats, 4 ints, a vec3, a vec2, 2 bools, 4 float arrays, an int array and a 2D float array. */
#define FLOATS 10
#define INTS 4
#define ARRAYS 4
#define PARAMS (FLOATS + INTS + 2 + 2 + ARRAYS + 2)

static const char *many_kernel(char *src)
{
    char *p = src;
    p += sprintf(p, "float many(");
    for (int i = 0; i < FLOATS; i++)
        p += sprintf(p, "float s%d, ", i);
    for (int i = 0; i < INTS; i++)
        p += sprintf(p, "int n%d, ", i);
    p += sprintf(p, "vec3 c, vec2 d, bool on, bool off, ");
    for (int i = 0; i < ARRAYS; i++)
        p += sprintf(p, "float a%d[], ", i);
    p += sprintf(p, "int ia[], float m[][]) {\n    float r = 0.0;\n");
    for (int i = 0; i < FLOATS; i++)
        p += sprintf(p, "    r += s%d * %d.0;\n", i, i + 1);
    for (int i = 0; i < INTS; i++)
        p += sprintf(p, "    r += float(n%d * %d);\n", i, i + 10);
    p += sprintf(p, "    r += c.x + 2.0 * c.y + 4.0 * c.z + d.x * d.y;\n");
    p += sprintf(p, "    r += (on ? 100.0 : 0.0) + (off ? 0.0 : 1000.0);\n");
    for (int i = 0; i < ARRAYS; i++)
        p += sprintf(p, "    r += a%d[thread.x] * %d.0;\n", i, 1 << i);
    p += sprintf(p, "    return r + float(ia[thread.x]) + m[1][thread.x];\n}\n");
    return src;
}

/* The same sum in C: every value is a small multiple of 1/8, so float sums are exact in any order. */
static float many_oracle(int x, const float *s, const int *n, const float *c, const float *d, bool on, bool off,
                         float a[][CELLS], const int *ia, const float *m)
{
    double r = 0;
    for (int i = 0; i < FLOATS; i++)
        r += s[i] * (i + 1);
    for (int i = 0; i < INTS; i++)
        r += n[i] * (i + 10);
    r += c[0] + 2.0 * c[1] + 4.0 * c[2] + d[0] * d[1];
    r += (on ? 100 : 0) + (off ? 0 : 1000);
    for (int i = 0; i < ARRAYS; i++)
        r += a[i][x] * (1 << i);
    return (float)(r + ia[x] + m[CELLS + x]);
}

static void run_many(gpuc_kernel *k, uint32_t seed, bool on, bool off)
{
    float s[FLOATS], c[3], d[2], a[ARRAYS][CELLS], m[2 * CELLS];
    int n[INTS], ia[CELLS];
    for (int i = 0; i < FLOATS; i++)
        s[i] = (float)(int)(test_random(&seed) * 64) / 8;
    for (int i = 0; i < INTS; i++)
        n[i] = (int)(test_random(&seed) * 100) - 50;
    for (int i = 0; i < 3; i++)
        c[i] = (float)(int)(test_random(&seed) * 32) / 8;
    d[0] = (float)(int)(test_random(&seed) * 16) / 4;
    d[1] = -1.5f;
    for (int i = 0; i < ARRAYS; i++)
        for (int x = 0; x < CELLS; x++)
            a[i][x] = (float)(int)(test_random(&seed) * 256) / 8 - 16;
    for (int x = 0; x < CELLS; x++)
        ia[x] = x * 3 - 7;
    for (int x = 0; x < 2 * CELLS; x++)
        m[x] = (float)x / 4;
    gpuc_arg args[PARAMS];
    int j = 0;
    for (int i = 0; i < FLOATS; i++)
        args[j++] = gpuc_arg_f32(s[i]);
    for (int i = 0; i < INTS; i++)
        args[j++] = gpuc_arg_i32(n[i]);
    args[j++] = gpuc_arg_vec3(c[0], c[1], c[2]);
    args[j++] = gpuc_arg_vec2(d[0], d[1]);
    args[j++] = gpuc_arg_bool(on);
    args[j++] = gpuc_arg_bool(off);
    for (int i = 0; i < ARRAYS; i++)
        args[j++] = gpuc_arg_host_f32(a[i], (gpuc_dims){CELLS});
    args[j++] = gpuc_arg_host_i32(ia, (gpuc_dims){CELLS});
    args[j++] = gpuc_arg_host_f32(m, (gpuc_dims){CELLS, 2});
    ck_assert_int_eq(j, PARAMS);
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, PARAMS, &r));
    float *got = fixture_take_floats(r, CELLS);
    for (int x = 0; x < CELLS; x++) {
        float want = many_oracle(x, s, n, c, d, on, off, a, ia, m);
        ck_assert_msg(got[x] == want, "cell %d: gpuc %.9g, C %.9g", x, got[x], want);
    }
    free(got);
}

START_TEST(glsl_kernel_of_24_parameters)
{
    char src[SOURCE_MAX];
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, many_kernel(src), &(gpuc_kernel_desc){.output = {CELLS}}, &k));
    ck_assert_int_eq(gpuc_kernel_arg_count(k), PARAMS);
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    run_many(k, 7, true, false);
    run_many(k, 8, false, true); /* new values, the Booleans flipped: uniforms, nothing recompiles */
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.programs_compiled, before.programs_compiled);
    gpuc_kernel_free(k);
}
END_TEST

/* A kernel summing `arrays` float arrays: out[x] = sum of a_i[x] * (i + 1). */
static const char *arrays_kernel(char *src, int arrays)
{
    char *p = src + sprintf(src, "float arrays(");
    for (int i = 0; i < arrays; i++)
        p += sprintf(p, "%sfloat a%d[]", i ? ", " : "", i);
    p += sprintf(p, ") {\n    float r = 0.0;\n");
    for (int i = 0; i < arrays; i++)
        p += sprintf(p, "    r += a%d[thread.x] * %d.0;\n", i, i + 1);
    sprintf(p, "    return r;\n}\n");
    return src;
}

/* Every array takes an image unit (the software profile): as many as the device has run, one more is
 * refused at creation, naming the limit, its value, the kernel and the count. Under the hardware
 * profile arrays are storage buffers, whose own limit is named. */
START_TEST(array_arguments_up_to_the_image_units)
{
    const gpuc_info *info = gpuc_get_info(gpu);
    int units = info->max_image_units;
    ck_assert_int_gt(units, 0);
    if (units + 1 > GPUC_MAX_ARGS)
        return; /* a device with more image units than gpuc takes arguments */
    char src[SOURCE_MAX];
    gpuc_kernel *k = NULL;
    gpuc_status st = gpuc_create_kernel(gpu, arrays_kernel(src, units + 1), &(gpuc_kernel_desc){.output = {CELLS}}, &k);
    ck_assert_int_eq(st, GPUC_ERROR_LIMIT);
    const char *msg = gpuc_errmsg(gpu);
    if (info->device_profile == GPUC_PROFILE_SOFTWARE) {
        char count[64], most[64];
        snprintf(count, sizeof count, "kernel 'arrays' takes %d array arguments", units + 1);
        snprintf(most, sizeof most, "at most %d in one %s program", units, info->backend_name);
        ck_assert_msg(strstr(msg, count) && strstr(msg, most) && strstr(msg, "GL_MAX_COMPUTE_IMAGE_UNIFORMS") &&
                          strstr(msg, "gpuc_info.max_image_units"), "message: %s", msg);
        if (info->backend == GPUC_BACKEND_FRAGMENT)
            ck_assert_msg(strstr(msg, "GL_MAX_FRAGMENT_IMAGE_UNIFORMS") != NULL, "message: %s", msg);
    } else {
        ck_assert_msg(strstr(msg, "SHADER_STORAGE_BLOCKS") != NULL, "message: %s", msg);
        return;
    }
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, arrays_kernel(src, units), &(gpuc_kernel_desc){.output = {CELLS}}, &k));
    float *data = malloc((size_t)units * CELLS * sizeof *data);
    ck_assert_ptr_nonnull(data);
    gpuc_arg args[GPUC_MAX_ARGS];
    for (int i = 0; i < units; i++) {
        for (int x = 0; x < CELLS; x++)
            data[i * CELLS + x] = (float)((x * 7 + i * 3) % 17) - 8;
        args[i] = gpuc_arg_host_f32(data + i * CELLS, (gpuc_dims){CELLS});
    }
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, units, &r));
    float *got = fixture_take_floats(r, CELLS);
    for (int x = 0; x < CELLS; x++) {
        double want = 0;
        for (int i = 0; i < units; i++)
            want += data[i * CELLS + x] * (i + 1);
        ck_assert_msg(got[x] == (float)want, "cell %d: gpuc %.9g, C %.9g", x, got[x], want);
    }
    free(got);
    free(data);
    gpuc_kernel_free(k);
}
END_TEST

/* `count` float parameters p0..p{count-1}, returning thread.x plus their weighted sum, in GLSL or
 * JavaScript. */
static const char *scalars_kernel(char *src, int count, bool js)
{
    char *p = src + sprintf(src, js ? "function scalars(" : "float scalars(");
    for (int i = 0; i < count; i++)
        p += sprintf(p, js ? "%sp%d" : "%sfloat p%d", i ? ", " : "", i);
    p += sprintf(p, js ? ") {\n    return this.thread.x" : ") {\n    return float(thread.x)");
    for (int i = 0; i < count; i++)
        p += sprintf(p, " + p%d * %d%s", i, i + 1, js ? "" : ".0");
    sprintf(p, ";\n}\n");
    return src;
}

/* GPUC_MAX_ARGS scalars run (64 uniforms fit every GL 4.3 device); one more is refused, naming it. */
START_TEST(gpuc_max_args_in_glsl_and_javascript)
{
    char src[SOURCE_MAX];
    for (int js = 0; js < 2; js++) {
        gpuc_kernel *k = NULL;
        gpuc_kernel_desc desc = {.output = {4}};
        gpuc_status st = js ? gpuc_create_kernel_js(gpu, scalars_kernel(src, GPUC_MAX_ARGS + 1, true), &desc, &k)
                            : gpuc_create_kernel(gpu, scalars_kernel(src, GPUC_MAX_ARGS + 1, false), &desc, &k);
        char expect[96];
        if (js)
            snprintf(expect, sizeof expect, "has %d parameters; gpuc takes at most %d (GPUC_MAX_ARGS)",
                     GPUC_MAX_ARGS + 1, GPUC_MAX_ARGS);
        else
            snprintf(expect, sizeof expect, "more than %d parameters (GPUC_MAX_ARGS)", GPUC_MAX_ARGS);
        ck_assert_msg(st == GPUC_ERROR_COMPILE && strstr(gpuc_errmsg(gpu), expect),
                      "%s kernel of %d parameters -> %s: %s", js ? "JavaScript" : "GLSL", GPUC_MAX_ARGS + 1,
                      gpuc_status_name(st), gpuc_errmsg(gpu));
        st = js ? gpuc_create_kernel_js(gpu, scalars_kernel(src, GPUC_MAX_ARGS, true), &desc, &k)
                : gpuc_create_kernel(gpu, scalars_kernel(src, GPUC_MAX_ARGS, false), &desc, &k);
        ck_assert_msg(st == GPUC_OK, "%s: %s", js ? "JavaScript" : "GLSL", gpuc_errmsg(gpu));
        gpuc_arg args[GPUC_MAX_ARGS];
        double want = 0;
        for (int i = 0; i < GPUC_MAX_ARGS; i++) {
            float v = (float)(i % 5) - 2.0f;
            args[i] = gpuc_arg_f32(v);
            want += v * (i + 1);
        }
        gpuc_array *r = NULL;
        ck_assert_gpuc_ok(gpuc_run(k, args, GPUC_MAX_ARGS, &r));
        float *got = fixture_take_floats(r, 4);
        for (int x = 0; x < 4; x++)
            ck_assert_msg(got[x] == (float)(want + x), "%s cell %d: gpuc %.9g, C %.9g", js ? "JavaScript" : "GLSL",
                          x, got[x], want + x);
        free(got);
        gpuc_kernel_free(k);
    }
}
END_TEST

/* Runs k(a, flag) over 4 cells and returns cell 0. */
static float run_flag(gpuc_kernel *k, gpuc_arg flag)
{
    const float a[4] = {2.5f, -1, 3, 4};
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){4}), flag}, 2, &r));
    float *got = fixture_take_floats(r, 4);
    float first = got[0];
    free(got);
    return first;
}

/* A Boolean parameter takes gpuc_arg_bool, or a number read as JavaScript's Boolean(x) reads it (node is
 * the oracle: GPU.js 2.24.1 refuses a number for a "Boolean" argument): 0, -0 and NaN are false,
 * anything else true. */
START_TEST(boolean_parameters_read_numbers_as_javascript)
{
    static const char *const glsl = "float f(float a[], bool flag) { return flag ? a[thread.x] : -a[thread.x]; }";
    static const char *const js = "function (a, flag) { if (!flag) { return -a[this.thread.x]; } return a[this.thread.x]; }";
    for (int lang = 0; lang < 2; lang++) {
        gpuc_kernel *k = NULL;
        gpuc_kernel_desc desc = {.output = {4}, .arg_types = "Array, Boolean"};
        ck_assert_gpuc_ok(lang ? gpuc_create_kernel_js(gpu, js, &desc, &k) : gpuc_create_kernel(gpu, glsl, &desc, &k));
        ck_assert_float_eq(run_flag(k, gpuc_arg_bool(true)), 2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_bool(false)), -2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_i32(2)), 2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_i32(0)), -2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_f32(0.5f)), 2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_f32(-0.0f)), -2.5f);
        ck_assert_float_eq(run_flag(k, gpuc_arg_f32(NAN)), -2.5f);
        gpuc_array *r = NULL;
        const float a[4] = {0};
        ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){4}), gpuc_arg_vec2(1, 1)}, 2, &r),
                             GPUC_ERROR_TYPE_MISMATCH, "expected a Boolean (gpuc_arg_bool");
        ck_assert_gpuc_fails(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(a, (gpuc_dims){4}), gpuc_arg_host_f32(a, (gpuc_dims){4})}, 2, &r),
                             GPUC_ERROR_TYPE_MISMATCH, lang ? "argument 1 (`flag`, a Boolean)" : "argument 1 (`bool flag`)");
        gpuc_kernel_free(k);
    }
}
END_TEST

Suite *suite_arg_limits(void)
{
    Suite *s = suite_create("arg_limits");
    TCase *tc = fixture_tcase("arg_limits");
    tcase_add_test(tc, glsl_kernel_of_24_parameters);
    tcase_add_test(tc, array_arguments_up_to_the_image_units);
    tcase_add_test(tc, gpuc_max_args_in_glsl_and_javascript);
    tcase_add_test(tc, boolean_parameters_read_numbers_as_javascript);
    suite_add_tcase(s, tc);
    return s;
}
