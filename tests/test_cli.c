/* test_cli.c - the gpuc program (tools/gpuc/) as a user runs it: each command from GPUC_CLI with
 * popen, over .npy fixtures this file writes itself (its own writer, not the program's) into a temp
 * directory, results read back from the .npy or text the program writes and compared with values
 * computed here. Bad input must exit 2 with a message naming the argument or option, kernel and
 * device failures 1 with gpuc's message. The program opens its own contexts. */
#define _XOPEN_SOURCE 700 /* posix_openpt: a terminal for the --out - check */

#include "fixture.h"
#include "suites.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running the program ------------------------------------------------------------------------ */

static char tmpdir[64];

/* A fresh directory for the test's files, removed when the test passes; a failing test leaves it for
 * inspection (Check ends a failed forked test without running its cleanup), and the program's failure
 * messages name it. */
static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gpuc-cli-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(command), 0);
}

/* The program's absolute path (GPUC_CLI, made absolute: the program runs in tmpdir) into abs. */
enum { CLI_PATH_MAX = 1024 };
static void cli_path(char abs[CLI_PATH_MAX])
{
    const char *cli = getenv("GPUC_CLI");
    ck_assert_msg(cli && *cli, "GPUC_CLI is not set: run the tests through `make check`");
    ck_assert_msg(access(cli, X_OK) == 0, "GPUC_CLI \"%s\" is not an executable", cli);
    abs[0] = '\0';
    if (cli[0] != '/') { /* the program runs in tmpdir: make a relative path absolute */
        ck_assert_ptr_nonnull(getcwd(abs, CLI_PATH_MAX - 1));
        strcat(abs, "/");
    }
    ck_assert_uint_lt(strlen(abs) + strlen(cli), CLI_PATH_MAX);
    strcat(abs, cli);
}

/* Runs `gpuc ARGS` in tmpdir; returns stdout (and stderr after it when with_stderr; caller frees)
 * and the exit status. */
static char *gpuc_cli(const char *args, int with_stderr, int *status)
{
    char abs[CLI_PATH_MAX];
    cli_path(abs);
    char command[2048];
    /* Leak checking stays in the in-process suites: a separate process would report Mesa's
     * driver-unload allocations (see test_examples.c). */
    int len = snprintf(command, sizeof command, "cd '%s' && ASAN_OPTIONS=detect_leaks=0 '%s' %s %s", tmpdir, abs,
                       args, with_stderr ? "2>&1" : "2>/dev/null");
    ck_assert_int_lt(len, (int)sizeof command);
    return fixture_run_command(command, status);
}

/* Runs and asserts the exit status and that the output (stderr included) contains `fragment`. */
static void expect(const char *args, int status, const char *fragment)
{
    int got;
    char *out = gpuc_cli(args, 1, &got);
    ck_assert_msg(got == status, "gpuc %s (in %s) exited %d, expected %d; printed:\n%s", args, tmpdir, got, status,
                  out);
    ck_assert_msg(strstr(out, fragment), "gpuc %s (in %s) printed \"%s\", which lacks \"%s\"", args, tmpdir, out,
                  fragment);
    free(out);
}

static void write_file(const char *name, const void *data, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static void write_text(const char *name, const char *text)
{
    write_file(name, text, strlen(text));
}

/* Reads tmpdir's picture `name` as 8-bit RGBA (libpng's simplified API), `bytes` of them. */
static void read_png_rgba8(const char *name, unsigned char *rgba, size_t bytes)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_file(&img, path), "%s: %s", path, img.message);
    img.format = PNG_FORMAT_RGBA;
    ck_assert_uint_eq(PNG_IMAGE_SIZE(img), bytes);
    ck_assert_msg(png_image_finish_read(&img, NULL, rgba, 0, NULL), "%s: %s", path, img.message);
}

/* Writes a .npy file as NumPy 1.x does: version 1.0, dict padded with spaces to a multiple of 64
 * bytes, ending in a newline. `shape` is the dict's shape text, e.g. "(2, 3)". */
static void write_npy(const char *name, const char *descr, const char *shape, int fortran, const void *data,
                      size_t bytes)
{
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                     fortran ? "True" : "False", shape);
    size_t header = ((10 + (size_t)n + 1 + 63) / 64) * 64 - 10;
    unsigned char *file = malloc(10 + header + bytes);
    ck_assert_ptr_nonnull(file);
    memcpy(file, "\x93NUMPY\x01\x00", 8);
    file[8] = (unsigned char)(header & 0xff);
    file[9] = (unsigned char)(header >> 8);
    memset(file + 10, ' ', header);
    memcpy(file + 10, dict, (size_t)n);
    file[10 + header - 1] = '\n';
    memcpy(file + 10 + header, data, bytes);
    write_file(name, file, 10 + header + bytes);
    free(file);
}

/* Reads a .npy the program wrote: checks its dict holds `descr` and `shape`, returns its data
 * (caller frees) and the data's byte count. */
static void *read_npy(const char *name, const char *descr, const char *shape, size_t *bytes)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s was not written", name);
    unsigned char pre[10];
    ck_assert_uint_eq(fread(pre, 1, 10, f), 10);
    ck_assert_msg(!memcmp(pre, "\x93NUMPY\x01\x00", 8), "%s: no .npy 1.0 magic", name);
    size_t header = (size_t)pre[8] | (size_t)pre[9] << 8;
    ck_assert_uint_eq((10 + header) % 64, 0);
    char *dict = calloc(1, header + 1);
    ck_assert_uint_eq(fread(dict, 1, header, f), header);
    char want[128];
    snprintf(want, sizeof want, "'descr': '%s'", descr);
    ck_assert_msg(strstr(dict, want), "%s: dict \"%s\" lacks %s", name, dict, want);
    ck_assert_msg(strstr(dict, "'fortran_order': False"), "%s: dict \"%s\"", name, dict);
    snprintf(want, sizeof want, "'shape': %s", shape);
    ck_assert_msg(strstr(dict, want), "%s: dict \"%s\" lacks %s", name, dict, want);
    ck_assert_int_eq(dict[header - 1], '\n');
    free(dict);
    size_t cap = 1 << 16;
    void *data = malloc(cap);
    *bytes = fread(data, 1, cap, f);
    fclose(f);
    return data;
}

/* ---- help and usage ----------------------------------------------------------------------------- */

START_TEST(help_lists_commands_and_options)
{
    make_tmpdir();
    expect("--help", 0, "run KERNEL [options] ARG...");
    expect("--help", 0, "info [--json]");
    expect("run --help", 0, "--output X[,Y[,Z]]");
    expect("run --help", 0, "--time");
    expect("glsl --help", 0, "--constant NAME=VALUE");
    expect("info --help", 0, "--json");
    expect("", 2, "usage: gpuc COMMAND");
    expect("frobnicate", 2, "unknown command \"frobnicate\"");
    remove_tmpdir();
}
END_TEST

/* ---- info ----------------------------------------------------------------------------------------- */

START_TEST(info_shows_the_device_and_its_limits)
{
    make_tmpdir();
    const gpuc_info *in = gpuc_get_info(gpu);
    char want[256];
    snprintf(want, sizeof want, "renderer:      %s\n", in->renderer);
    expect("info", 0, want);
    snprintf(want, sizeof want, "loop budget:               %lld", (long long)in->loop_budget);
    expect("info", 0, want);
    snprintf(want, sizeof want, "backend:       %s\n", in->backend_name);
    expect("info", 0, want);
    snprintf(want, sizeof want, "profile:       %s\n", in->device_profile_name);
    expect("info", 0, want);
    snprintf(want, sizeof want, "\"device_profile\": \"%s\",", in->device_profile_name);
    expect("info --json", 0, want);
    expect("info", 0, "EGL devices seen: ");
    snprintf(want, sizeof want, "\"loop_budget\": %lld,", (long long)in->loop_budget);
    expect("info --json", 0, want);
    snprintf(want, sizeof want, "\"gl_version\": \"%s\"", in->gl_version);
    expect("info --json", 0, want);
    expect("info --json", 0, "\"egl_devices\": [");
    expect("info --backend fragment", 0, "backend:       fragment\n");
    expect("info --backend=compute", 0, "backend:       compute\n");
    /* A device index past the last: bad input, the devices there are listed. */
    expect("info --device 15", 2, "EGL device 15");
    expect("info --bogus", 2, "unknown argument --bogus");
    expect("info --backend vulkan", 2, "--backend \"vulkan\"");
    expect("info --device", 2, "--device needs a value");
    expect("info --devices", 2, "unknown argument --devices");
    remove_tmpdir();
}
END_TEST

/* ---- run: every dtype and rank ------------------------------------------------------------------- */

static const char *const DTYPES[] = {"<f4", "<i4", "<f8", "<i8"};

/* One kernel per rank and cell type: float cells map v -> 2v + 0.5, int cells v -> 3v - 1. */
static const char *const KERNELS[2][3] = {
    {"float f(float a[]) { return a[thread.x] * 2.0 + 0.5; }",
     "float f(float a[][]) { return a[thread.y][thread.x] * 2.0 + 0.5; }",
     "float f(float a[][][]) { return a[thread.z][thread.y][thread.x] * 2.0 + 0.5; }"},
    {"int f(int a[]) { return a[thread.x] * 3 - 1; }", "int f(int a[][]) { return a[thread.y][thread.x] * 3 - 1; }",
     "int f(int a[][][]) { return a[thread.z][thread.y][thread.x] * 3 - 1; }"}};

START_TEST(run_reads_every_dtype_and_rank)
{
    make_tmpdir();
    const char *descr = DTYPES[_i];
    int is_int = descr[1] == 'i', wide = descr[2] == '8';
    /* Shapes (5,), (3, 4), (2, 3, 4): outermost first, so the output is X,Y,Z reversed. */
    static const char *const shapes[] = {"(5,)", "(3, 4)", "(2, 3, 4)"};
    static const char *const outputs[] = {"5", "4,3", "4,3,2"};
    static const size_t counts[] = {5, 12, 24};
    for (int rank = 1; rank <= 3; rank++) {
        size_t n = counts[rank - 1];
        double values[24];
        unsigned char data[24 * 8];
        for (size_t i = 0; i < n; i++) {
            values[i] = is_int ? (double)((int)i * 7 - 40) : (double)i * 0.75 - 3.25;
            if (is_int && wide) {
                int64_t v = (int64_t)values[i];
                memcpy(data + i * 8, &v, 8);
            } else if (is_int) {
                int32_t v = (int32_t)values[i];
                memcpy(data + i * 4, &v, 4);
            } else if (wide) {
                memcpy(data + i * 8, &values[i], 8);
            } else {
                float v = (float)values[i];
                memcpy(data + i * 4, &v, 4);
            }
        }
        write_npy("in.npy", descr, shapes[rank - 1], 0, data, n * (wide ? 8 : 4));
        write_text("k.glsl", KERNELS[is_int][rank - 1]);
        char args[256];
        snprintf(args, sizeof args, "run k.glsl --output %s in.npy --out out.npy", outputs[rank - 1]);
        int status;
        char *err = gpuc_cli(args, 1, &status);
        ck_assert_msg(status == 0, "%s (%s, rank %d) exited %d: %s", args, descr, rank, status, err);
        if (wide)
            ck_assert_msg(strstr(err, is_int ? "int64 converted to int32" : "float64 converted to float32"),
                          "no conversion note for %s: \"%s\"", descr, err);
        else
            ck_assert_str_eq(err, "");
        free(err);
        size_t bytes;
        void *out = read_npy("out.npy", is_int ? "<i4" : "<f4", shapes[rank - 1], &bytes);
        ck_assert_uint_eq(bytes, n * 4);
        for (size_t i = 0; i < n; i++) {
            if (is_int) {
                int32_t got;
                memcpy(&got, (char *)out + i * 4, 4);
                ck_assert_int_eq(got, (int32_t)values[i] * 3 - 1);
            } else {
                float got;
                memcpy(&got, (char *)out + i * 4, 4);
                ck_assert_float_eq(got, (float)values[i] * 2.0f + 0.5f);
            }
        }
        free(out);
    }
    remove_tmpdir();
}
END_TEST

START_TEST(run_reads_npy_version_2_and_its_own_output)
{
    make_tmpdir();
    /* Version 2.0: a four-byte header length (NumPy writes it for headers past 65535 bytes). */
    static const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    size_t header = 128 - 12; /* magic, version and length (12 bytes) + header: a multiple of 64 */
    unsigned char *big = calloc(1, 12 + header + 16);
    memcpy(big, "\x93NUMPY\x02\x00", 8);
    big[8] = (unsigned char)header;
    memset(big + 12, ' ', header);
    memcpy(big + 12, dict, sizeof dict - 1);
    big[12 + header - 1] = '\n';
    float v[4] = {1.5f, -2, 3, 4.25f};
    memcpy(big + 12 + header, v, sizeof v);
    write_file("v2.npy", big, 12 + header + 16);
    free(big);
    write_text("k.glsl", "float f(float a[][]) { return a[thread.y][thread.x] * 2.0; }");
    int status;
    char *out = gpuc_cli("run k.glsl --output 2,2 v2.npy --out once.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    /* The program's own .npy goes straight back in. */
    out = gpuc_cli("run k.glsl --output 2,2 once.npy", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "6 -8\n12 17\n");
    free(out);
    remove_tmpdir();
}
END_TEST

/* ---- run: JavaScript, scalars, text output, options ------------------------------------------------ */

START_TEST(run_js_kernel_prints_rows_as_text)
{
    make_tmpdir();
    float a[6] = {0, 1, 2, 3, 4, 5}, b[6] = {10, 20, 30, 40, 50, 60};
    write_npy("a.npy", "<f4", "(2, 3)", 0, a, sizeof a);
    write_npy("b.npy", "<f4", "(2, 3)", 0, b, sizeof b);
    write_text("k.js", "function (a, b, s) {\n"
                       "  return a[this.thread.y][this.thread.x] + b[this.thread.y][this.thread.x] * s;\n}\n");
    int status;
    char *out = gpuc_cli("run k.js --output 3,2 a.npy b.npy 0.5", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "5 11 17\n23 29 35\n");
    free(out);
    /* A negative number is an argument, not an option. */
    out = gpuc_cli("run k.js --output 3,2 a.npy b.npy -1", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "-10 -19 -28\n-37 -46 -55\n");
    free(out);
    remove_tmpdir();
}
END_TEST

START_TEST(run_passes_scalars_as_the_parameter_wants)
{
    make_tmpdir();
    int32_t v[4] = {1, 2, 3, 4};
    write_npy("v.npy", "<i4", "(4,)", 0, v, sizeof v);
    int status;
    /* "3" to an int parameter, "3" to a float one, "2.5" to a float one. */
    write_text("i.glsl", "int f(int a[], int n) { return a[thread.x] * n; }");
    char *out = gpuc_cli("run i.glsl --output 4 v.npy 3", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "3\n6\n9\n12\n");
    free(out);
    write_text("f.glsl", "float f(int a[], float s) { return float(a[thread.x]) * s; }");
    out = gpuc_cli("run f.glsl --output 4 v.npy 3", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "3\n6\n9\n12\n");
    free(out);
    out = gpuc_cli("run f.glsl --output 4 v.npy 2.5", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "2.5\n5\n7.5\n10\n");
    free(out);
    expect("run i.glsl --output 4 v.npy 2.5", 2, "argument 1: the kernel's parameter is an int and 2.5");
    expect("run i.glsl --output 4 v.npy 3000000000", 2, "argument 1: 3e+09 is outside int32");
    out = gpuc_cli("run f.glsl --output 4 v.npy 3000000000", 0, &status); /* a float parameter takes it */
    ck_assert_int_eq(status, 0);
    char want[128];
    float big = 3000000000.0f;
    snprintf(want, sizeof want, "%.9g\n%.9g\n%.9g\n%.9g\n", (double)big, (double)(2.0f * big), (double)(3.0f * big),
             (double)(4.0f * big));
    ck_assert_str_eq(out, want);
    free(out);
    /* A JavaScript int parameter through --arg-types. */
    write_text("k.js", "function (a, n) { return a[this.thread.x] * n + this.constants.k; }");
    out = gpuc_cli("run k.js --arg-types 'int[],int' --constant k=100 --output 4 v.npy 2", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "102\n104\n106\n108\n");
    free(out);
    expect("run k.js --arg-types 'int[],int' --constant k=100 --output 4 v.npy 2.5", 2,
           "argument 1: --arg-types makes it an int and 2.5 is not a whole number");
    remove_tmpdir();
}
END_TEST

/* Vector arguments ("x,y[,z[,w]]") and Boolean constants (--constant on=true). */
START_TEST(run_passes_vectors_and_boolean_constants)
{
    make_tmpdir();
    int status;
    write_text("v.js", "function (t, v) { return t * v[0] + v[2] + (this.constants.on ? 1000 : 0); }");
    char *out = gpuc_cli("run v.js --output 3 --arg-types 'Number,Array(3)' --constant on=true 1 2,3,4", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "1006\n1006\n1006\n");
    free(out);
    out = gpuc_cli("run v.js --output 2 --arg-types 'Number,Array(3)' --constant on=false 2 0.5,3,-1", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "0\n0\n");
    free(out);
    write_text("v.glsl", "float f(vec2 v) { return v.x - v.y * float(thread.x); }");
    out = gpuc_cli("run v.glsl --output 3 5,1.5", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "5\n3.5\n2\n");
    free(out);
    expect("run v.glsl --output 3 5", 1, "expected a vector of 2 (gpuc_arg_vec2)");
    expect("run v.glsl --output 3 5,1,2", 1, "got one of 3 components");
    expect("run v.glsl --output 3 1,2,3,4,5", 2, "a vector is 2 to 4 finite numbers");
    expect("run v.glsl --output 3 1,", 2, "a vector is 2 to 4 finite numbers");
    expect("run v.js --output 3 --constant on=maybe 1 2,3,4", 2, "neither a finite number nor true or false");
    remove_tmpdir();
}
END_TEST

START_TEST(run_writes_3d_and_vector_npy_and_times)
{
    make_tmpdir();
    write_text("k.glsl", "vec2 f(float s) { return vec2(float(thread.x + 10 * thread.y + 100 * thread.z) * s, -1.0); }");
    int status;
    char *err = gpuc_cli("run k.glsl --output 2,3,2 2 --out v.npy --time", 1, &status);
    ck_assert_msg(status == 0, "%s", err);
    ck_assert_msg(strstr(err, "compile ") && strstr(err, "upload ") && strstr(err, "\nrun ") &&
                      strstr(err, "read-back ") && strstr(err, " ms\n"),
                  "--time printed \"%s\"", err);
    free(err);
    size_t bytes;
    float *out = read_npy("v.npy", "<f4", "(2, 3, 2, 2)", &bytes);
    ck_assert_uint_eq(bytes, 2 * 3 * 2 * 2 * 4);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 2; x++) {
                int cell = (z * 3 + y) * 2 + x;
                ck_assert_float_eq(out[cell * 2], (float)(x + 10 * y + 100 * z) * 2.0f);
                ck_assert_float_eq(out[cell * 2 + 1], -1.0f);
            }
    free(out);
    remove_tmpdir();
}
END_TEST

/* --precise-math: sin, cos and tan through the double-precision reduction (src/js/runtime/runtime_trig.c) */
START_TEST(precise_math_option)
{
    make_tmpdir();
    write_text("t.js", "function (x) { return Math.cos(x); }");
    int status;
    char *fast = gpuc_cli("glsl t.js --output 1", 0, &status);
    ck_assert_msg(status == 0 && !strstr(fast, "jsrt_cos("), "%s", fast);
    char *precise = gpuc_cli("glsl t.js --output 1 --precise-math", 0, &status);
    ck_assert_msg(status == 0 && strstr(precise, "jsrt_cos(") != NULL, "%s", precise);
    free(fast);
    free(precise);
}
END_TEST

START_TEST(run_graphical_kernel_writes_png)
{
    make_tmpdir();
    write_text("p.js", "function () { this.color(this.thread.x / 3, 0, 1, 1); }");
    int status;
    char *out = gpuc_cli("run p.js --graphical --output 4,3 --out p.png", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    char path[128];
    snprintf(path, sizeof path, "%s/p.png", tmpdir);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char sig[24];
    ck_assert_uint_eq(fread(sig, 1, 24, f), 24);
    fclose(f);
    ck_assert(!memcmp(sig, "\x89PNG\r\n\x1a\n", 8));
    ck_assert_int_eq(sig[19], 4); /* IHDR width 4, height 3 (big-endian) */
    ck_assert_int_eq(sig[23], 3);
    expect("run p.js --output 4,3 --out p.png", 2, "a .png needs a --graphical kernel");
    /* A GPU.js image kernel run on that file paints the same picture (image[0] is its bottom row). */
    write_text("copy.js", "function (image) {\n"
                          "  const p = image[this.thread.y][this.thread.x];\n"
                          "  this.color(p.r, p.g, p.b, p.a);\n}\n");
    out = gpuc_cli("run copy.js --graphical --arg-types HTMLImage --output 4,3 p.png --out q.png", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    unsigned char want[4 * 3 * 4], got[4 * 3 * 4];
    read_png_rgba8("p.png", want, sizeof want);
    read_png_rgba8("q.png", got, sizeof got);
    ck_assert_mem_eq(got, want, sizeof want);
    remove_tmpdir();
}
END_TEST

/* ---- .npy files as NumPy reads them ------------------------------------------------------------ */

/* Every file in tests/fixtures/npy against NumPy's verdict on it (verdicts.txt, recorded by
 * scripts/record-npy-fixtures.py from np.load): where NumPy reads it and gpuc can use it, exit 0 and
 * NumPy's values (as float32 / int32); where NumPy refuses it, or reads what gpuc cannot use (a
 * dtype, rank or order gpuc does not take), exit 2 naming the argument. */
START_TEST(run_reads_npy_as_numpy_does)
{
    make_tmpdir();
    static const char *const kernels[2][3] = {
        {"float f(float a[]) { return a[thread.x]; }", "float f(float a[][]) { return a[thread.y][thread.x]; }",
         "float f(float a[][][]) { return a[thread.z][thread.y][thread.x]; }"},
        {"int f(int a[]) { return a[thread.x]; }", "int f(int a[][]) { return a[thread.y][thread.x]; }",
         "int f(int a[][][]) { return a[thread.z][thread.y][thread.x]; }"}};
    static const char *const names[2][3] = {{"f1.glsl", "f2.glsl", "f3.glsl"}, {"i1.glsl", "i2.glsl", "i3.glsl"}};
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < 3; r++)
            write_text(names[k][r], kernels[k][r]);
    char dir[1024];
    ck_assert_ptr_nonnull(getcwd(dir, sizeof dir - 64));
    strcat(dir, "/tests/fixtures/npy");
    FILE *f = fopen("tests/fixtures/npy/verdicts.txt", "r");
    ck_assert_msg(f, "tests/fixtures/npy/verdicts.txt: run the tests from the repository root");
    char line[4096];
    int files = 0, read_ok = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char name[128], verdict[16], kind[4] = "";
        int rank = 0, used = 0;
        unsigned d[3] = {0, 0, 0};
        ck_assert_int_ge(sscanf(line, "%127s %15s%n", name, verdict, &used), 2);
        bool ok = !strcmp(verdict, "ok");
        int more = 0;
        if (ok)
            ck_assert_int_eq(sscanf(line + used, " %3s %d %u %u %u%n", kind, &rank, &d[0], &d[1], &d[2], &more), 5);
        used += more;
        char args[2048];
        if (ok) {
            /* NumPy's (d0, d1, d2) is gpuc's x = last, ... */
            char output[64];
            if (rank == 1)
                snprintf(output, sizeof output, "%u", d[0]);
            else if (rank == 2)
                snprintf(output, sizeof output, "%u,%u", d[1], d[0]);
            else
                snprintf(output, sizeof output, "%u,%u,%u", d[2], d[1], d[0]);
            snprintf(args, sizeof args, "run %s --output %s '%s/%s'", names[kind[0] == 'i'][rank - 1], output, dir,
                     name);
        } else
            snprintf(args, sizeof args, "run f1.glsl --output 2 '%s/%s'", dir, name);
        int status;
        char *out = gpuc_cli(args, 0, &status);
        if (!ok) {
            free(out);
            char want[256];
            snprintf(want, sizeof want, "argument 0 \"%s/%s\": ", dir, name);
            expect(args, 2, want);
        } else {
            ck_assert_msg(status == 0, "%s: NumPy reads it, gpuc run exited %d", name, status);
            /* The expected values follow the three dimensions on the verdict line. */
            const char *want = line + used;
            const char *got = out;
            size_t count = 0;
            for (;; count++) {
                char *want_end, *got_end;
                double w = strtod(want, &want_end);
                if (want_end == want)
                    break;
                double g = strtod(got, &got_end);
                ck_assert_msg(got_end != got, "%s: gpuc printed fewer values than NumPy read: %s", name, out);
                ck_assert_msg((float)g == (float)w, "%s: value %zu is %.9g, NumPy's %.9g", name, count, g, w);
                while (*got_end == ',' || *got_end == ' ' || *got_end == '\n')
                    got_end++;
                want = want_end;
                got = got_end;
            }
            ck_assert_msg(*got == '\0', "%s: gpuc printed more values than NumPy read: %s", name, out);
            ck_assert_uint_gt(count, 0);
            free(out);
            read_ok++;
        }
        files++;
    }
    fclose(f);
    ck_assert_int_ge(files, 90);
    ck_assert_int_ge(read_ok, 30);
    remove_tmpdir();
}
END_TEST

/* ---- run: bad input exits 2 naming it; kernel errors exit 1 with gpuc's message --------------------- */

START_TEST(run_refuses_bad_input)
{
    make_tmpdir();
    float a[4] = {1, 2, 3, 4};
    write_npy("a.npy", "<f4", "(4,)", 0, a, sizeof a);
    write_npy("fortran.npy", "<f4", "(2, 2)", 1, a, sizeof a);
    write_npy("f2.npy", "<f2", "(4,)", 0, a, 8);
    write_npy("r4.npy", "<f4", "(1, 1, 2, 2)", 0, a, sizeof a);
    write_npy("r0.npy", "<f4", "()", 0, a, 4);
    write_npy("short.npy", "<f4", "(8,)", 0, a, sizeof a);
    write_npy("empty.npy", "<f4", "(0,)", 0, a, 0);
    int64_t huge[2] = {1, (int64_t)1 << 40};
    write_npy("huge.npy", "<i8", "(2,)", 0, huge, sizeof huge);
    write_text("junk.npy", "not numpy at all");
    write_text("k.glsl", "float f(float a[]) { return a[thread.x]; }");
    write_text("k.txt", "float f(float a[]) { return a[thread.x]; }");
    expect("run k.glsl --output 4 fortran.npy", 2, "argument 0 \"fortran.npy\": the array is in Fortran order");
    expect("run k.glsl --output 4 f2.npy", 2, "argument 0 \"f2.npy\": '<f2' is not a dtype gpuc reads");
    expect("run k.glsl --output 4 r4.npy", 2, "more than 3 dimensions");
    expect("run k.glsl --output 4 r0.npy", 2, "0-dimensional");
    expect("run k.glsl --output 4 short.npy", 2, "shorter than its shape");
    expect("run k.glsl --output 4 empty.npy", 2, "dimension of size 0");
    expect("run k.glsl --output 4 huge.npy", 2, "int64 value outside int32");
    expect("run k.glsl --output 4 junk.npy", 2, "argument 0 \"junk.npy\": not a NumPy .npy file");
    /* Shapes the file cannot hold, refused before anything is allocated: 2^48 cells in 137 bytes (once
     * "out of memory", an abort under ASan), and 16 GiB of float64 (once allocated, then found short). */
    char path[1024];
    ck_assert_ptr_nonnull(getcwd(path, sizeof path - 128));
    char args[1200];
    snprintf(args, sizeof args, "run k.glsl --output 4 '%s/tests/fixtures/npy/h-size-2^48-cells.npy'", path);
    expect(args, 2, "the shape has more than gpuc's limit of 2147483647 cells");
    snprintf(args, sizeof args, "run k.glsl --output 4 '%s/tests/fixtures/npy/h-size-16-GiB.npy'", path);
    expect(args, 2, "shorter than its shape says (8 bytes of values; the shape and dtype need 17179869176)");
    expect("run k.glsl --output 4 missing.npy", 2, "argument 0 \"missing.npy\": No such file");
    expect("run k.glsl --output 4 a.npy banana", 2, "argument 1 \"banana\": neither a .npy or .png file nor a finite number");
    expect("run k.glsl --output 4 missing.png", 2, "argument 0 \"missing.png\": cannot open");
    write_text("junk.png", "not a picture");
    expect("run k.glsl --output 4 junk.png", 2, "\"junk.png\" is not a PNG file");
    /* A picture gpuc refuses is bad input too: a corrupt one, and one over --max-image-pixels. */
    write_text("img.glsl", "float f(vec4 image[][]) { return image[thread.y][thread.x].r; }");
    write_text("p.js", "function () { this.color(this.thread.x / 3, 0, 1, 1); }");
    char *pic = gpuc_cli("run p.js --graphical --output 4,3 --out ok.png", 1, &(int){0});
    free(pic);
    expect("run img.glsl --output 4,3 ok.png", 0, "");
    expect("run img.glsl --output 4,3 --max-image-pixels 11 ok.png", 2, "more than the limit of 11");
    expect("run img.glsl --output 4,3 --max-image-pixels 12 ok.png", 0, "");
    expect("run img.glsl --output 4,3 --max-image-pixels none ok.png", 0, "");
    expect("run img.glsl --output 4,3 --max-image-pixels 0 ok.png", 2, "--max-image-pixels \"0\"");
    char ok_path[128];
    snprintf(ok_path, sizeof ok_path, "%s/ok.png", tmpdir);
    FILE *pf = fopen(ok_path, "rb");
    ck_assert_ptr_nonnull(pf);
    unsigned char png_bytes[4096];
    size_t png_len = fread(png_bytes, 1, sizeof png_bytes, pf);
    fclose(pf);
    png_bytes[png_len - 1] ^= 1; /* IEND's CRC */
    write_file("crc.png", png_bytes, png_len);
    expect("run img.glsl --output 4,3 crc.png", 2, "argument 0 \"crc.png\"");
    expect("run k.glsl a.npy", 2, "--output X[,Y[,Z]] is required");
    expect("run k.glsl --output 4,x a.npy", 2, "--output \"4,x\": \"x\" is not a whole number");
    expect("run k.glsl --output 0 a.npy", 2, "--output \"0\"");
    expect("run k.glsl --output 1,2,3,4 a.npy", 2, "at most three sizes");
    expect("run k.glsl --output 4 --constant k a.npy", 2, "--constant \"k\": expected NAME=VALUE");
    expect("run k.glsl --output 4 --constant 1k=2 a.npy", 2, "\"1k\" is not a name");
    expect("run k.glsl --output 4 --constant k-1=2 a.npy", 2, "\"k-1\" is not a name");
    expect("run k.glsl --output 4 --constant k=x a.npy", 2, "--constant \"k=x\": \"x\" is neither a finite number nor true or false");
    expect("run k.glsl --output 4 --loop-max -3 a.npy", 2, "--loop-max \"-3\"");
    expect("run k.glsl --output 4 --backend vulkan a.npy", 2, "--backend \"vulkan\"");
    expect("run k.glsl --output 4 --out r.csv a.npy", 2, "--out \"r.csv\": the file must end in .npy or .png");
    expect("run k.glsl --output 4 --arg-types int a.npy", 2, "--arg-types: only for .js kernels");
    expect("run k.glsl --output 4 --frob a.npy", 2, "unknown option --frob");
    expect("run k.glsl --output", 2, "--output needs a value");
    expect("run k.txt --output 4 a.npy", 2, "kernel \"k.txt\": the file must end in .js");
    expect("run nothere.glsl --output 4 a.npy", 2, "kernel \"nothere.glsl\": No such file");
    expect("run k.glsl --output 4", 2, "takes 1 argument, 0 given");
    expect("run k.glsl --output 4 a.npy a.npy", 2, "takes 1 argument, 2 given");
    expect("run --output 4", 2, "no kernel file given");
    remove_tmpdir();
}
END_TEST

START_TEST(run_reports_kernel_errors_with_gpuc_message)
{
    make_tmpdir();
    int32_t v[4] = {1, 2, 3, 4};
    write_npy("v.npy", "<i4", "(4,)", 0, v, sizeof v);
    write_text("bad.glsl", "float f(float a[]) { return a[thread.x] +; }");
    expect("run bad.glsl --output 4 v.npy", 1, "kernel \"bad.glsl\":");
    expect("run bad.glsl --output 4 v.npy", 1, "line 1");
    /* An int array for a float parameter: gpuc's type mismatch, naming the argument. */
    write_text("k.glsl", "float f(float a[]) { return a[thread.x]; }");
    expect("run k.glsl --output 4 v.npy", 1, "argument 0 (`float a[]`)");
    expect("run k.glsl --output 4 v.npy", 1, "note: argument 0 is int32 data of NumPy shape (4,): a 1D argument");
    write_text("bad.js", "function (a) { return a[this.thread.x] +; }");
    expect("run bad.js --output 4 v.npy", 1, "kernel \"bad.js\":");
    remove_tmpdir();
}
END_TEST

/* ---- pipelines: standard input and output, pictures as NumPy holds them, long 1D results ----------- */

/* Floats whose bytes hold what text streams mangle (NUL, \n, \r, ^Z, 0xff), read from standard input
 * and written to standard output as .npy, come back bit for bit through an identity kernel. */
START_TEST(run_reads_stdin_and_writes_stdout_as_npy)
{
    make_tmpdir();
    uint32_t bits[8] = {0x0A0D00FFu, 0x3F800000u, 0xC2FF0A1Au, 0x0000FF0Au, 0x7F7FFFFFu, 0x80000000u, 0x0D0A0D0Au,
                        0x1A1A00FFu};
    bits[3] = 0x00800A0Du; /* normal (the smallest exponent), so no device may flush it */
    write_npy("a.npy", "<f4", "(8,)", 0, bits, sizeof bits);
    write_text("id.glsl", "float f(float a[]) { return a[thread.x]; }");
    int status;
    char *err = gpuc_cli("run id.glsl --output 8 - --out - < a.npy > b.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", err);
    ck_assert_str_eq(err, ""); /* nothing but the .npy went to standard output */
    free(err);
    size_t bytes;
    uint32_t *got = read_npy("b.npy", "<f4", "(8,)", &bytes);
    ck_assert_uint_eq(bytes, sizeof bits);
    ck_assert_mem_eq(got, bits, sizeof bits);
    free(got);
    /* Standard input as one argument among others; text output still on standard output. */
    char *out = gpuc_cli("run id.glsl --output 2 - < a.npy", 0, &status);
    ck_assert_int_eq(status, 0);
    float f[2];
    memcpy(f, bits, sizeof f);
    char want[64];
    snprintf(want, sizeof want, "%.9g\n%.9g\n", (double)f[0], (double)f[1]);
    ck_assert_str_eq(out, want);
    free(out);
    write_text("two.glsl", "float f(float a[], float b[]) { return a[thread.x] + b[thread.x]; }");
    expect("run two.glsl --output 8 - - < a.npy", 2, "argument 1 \"-\": only one argument may be read from standard input");
    expect("run id.glsl --output 8 - < /dev/null", 2, "argument 0 \"-\": standard input is empty");
    expect("run id.glsl --output 8 - < id.glsl", 2, "argument 0 \"-\": not a NumPy .npy file");
    /* A terminal on standard output takes no binary result: exit 2 before any device is opened. */
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master) || !ptsname(master)) {
        fprintf(stderr, "cli: no pseudo-terminal here (%s): the terminal check of --out - is skipped\n",
                strerror(errno));
    } else {
        char abs[CLI_PATH_MAX], command[2400];
        cli_path(abs);
        snprintf(command, sizeof command, "cd '%s' && '%s' run id.glsl --output 8 a.npy --out - 2>&1 >'%s'", tmpdir,
                 abs, ptsname(master));
        out = fixture_run_command(command, &status);
        ck_assert_msg(status == 2, "exit %d: %s", status, out);
        ck_assert_msg(strstr(out, "--out -: standard output is a terminal"), "%s", out);
        free(out);
    }
    if (master >= 0)
        close(master);
    remove_tmpdir();
}
END_TEST

/* Whether python3 with NumPy is here (the NumPy half of the picture test runs only then). */
static int have_numpy(void)
{
    int status;
    free(fixture_run_command("python3 -c 'import numpy' 2>/dev/null", &status));
    return status == 0;
}

/* A graphical result in .npy: uint8 (height, width, 4), the top row first, the same pixels as the .png
 * (read by libpng) and as the channels the kernel paints (computed here); --packed-pixels keeps the
 * int32 cells in thread order. */
START_TEST(run_writes_a_picture_as_uint8_npy)
{
    make_tmpdir();
    write_text("p.js", "function () { this.color(this.thread.x / 3, this.thread.y * 0.2, 1, 0.6); }");
    int status;
    char *out = gpuc_cli("run p.js --graphical --output 4,3 --out p.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    out = gpuc_cli("run p.js --graphical --output 4,3 --out p.png", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    size_t bytes;
    unsigned char *npy = read_npy("p.npy", "|u1", "(3, 4, 4)", &bytes);
    ck_assert_uint_eq(bytes, 3 * 4 * 4);
    unsigned char png[3 * 4 * 4];
    read_png_rgba8("p.png", png, sizeof png);
    ck_assert_mem_eq(npy, png, sizeof png);
    for (int row = 0; row < 3; row++)
        for (int x = 0; x < 4; x++) {
            int y = 2 - row; /* the top row is the last thread.y */
            const unsigned char *px = npy + (row * 4 + x) * 4;
            ck_assert_int_eq(px[0], x * 85);
            ck_assert_int_eq(px[1], y * 51);
            ck_assert_int_eq(px[2], 255);
            ck_assert_int_eq(px[3], 153);
        }
    out = gpuc_cli("run p.js --graphical --output 4,3 --packed-pixels --out q.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    free(out);
    int32_t *cells = read_npy("q.npy", "<i4", "(3, 4)", &bytes);
    ck_assert_uint_eq(bytes, 3 * 4 * 4);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            ck_assert_uint_eq((uint32_t)cells[y * 4 + x],
                              (uint32_t)(x * 85) | (uint32_t)(y * 51) << 8 | 255u << 16 | 153u << 24);
    free(cells);
    expect("run p.js --output 4,3 --packed-pixels --out q.npy", 2, "--packed-pixels: only for a --graphical kernel");
    if (have_numpy()) {
        char command[512];
        snprintf(command, sizeof command,
                 "cd '%s' && python3 -c \"import numpy as np; a = np.load('p.npy'); "
                 "print(a.dtype, a.shape, a[0, 1].tolist(), a[2, 3].tolist())\"", tmpdir);
        out = fixture_run_command(command, &status);
        ck_assert_int_eq(status, 0);
        ck_assert_str_eq(out, "uint8 (3, 4, 4) [85, 102, 255, 153] [255, 0, 255, 153]\n");
        free(out);
    } else {
        fprintf(stderr, "cli: python3 with NumPy is not here: np.load of the picture is not checked\n");
    }
    free(npy);
    remove_tmpdir();
}
END_TEST

/* A long 1D result as text: one cell per line (numpy.savetxt's form for 1D), each float reading back
 * with strtof to the very value (bits compared), an int exactly. */
START_TEST(run_prints_a_1d_result_one_cell_per_line)
{
    make_tmpdir();
    enum { N = 20000 };
    static uint32_t bits[N];
    uint32_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        /* every sign and mantissa, exponents of normal numbers only (1..254) */
        bits[i] = (x & 0x807FFFFFu) | (uint32_t)(1 + (x >> 8) % 254) << 23;
    }
    float special[] = {FLT_MAX, -FLT_MAX, FLT_MIN, -0.0f, 1.0f / 3.0f, 0.1f, 16777215.0f, 1e-30f};
    memcpy(bits, special, sizeof special);
    write_npy("a.npy", "<f4", "(20000,)", 0, bits, sizeof bits);
    write_text("id.glsl", "float f(float a[]) { return a[thread.x]; }");
    int status;
    char *out = gpuc_cli("run id.glsl --output 20000 a.npy", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_uint_eq(fixture_count(out, "\n"), N);
    char *p = out;
    for (int i = 0; i < N; i++) {
        char *end;
        float v = strtof(p, &end);
        ck_assert_msg(end != p && *end == '\n', "line %d: \"%.20s\"", i, p);
        uint32_t got;
        memcpy(&got, &v, 4);
        ck_assert_msg(got == bits[i], "line %d: \"%.*s\" reads back as 0x%08x, not 0x%08x", i, (int)(end - p), p,
                      got, bits[i]);
        p = end + 1;
    }
    free(out);
    int32_t v[3] = {INT32_MIN, -1, INT32_MAX};
    write_npy("v.npy", "<i4", "(3,)", 0, v, sizeof v);
    write_text("i.glsl", "int f(int a[]) { return a[thread.x]; }");
    out = gpuc_cli("run i.glsl --output 3 v.npy", 0, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "-2147483648\n-1\n2147483647\n");
    free(out);
    remove_tmpdir();
}
END_TEST

/* --time reports the compile apart from the run: the kernel runs three times (GPUC_TRACE counts its
 * runs), the first two reported as compiling; without --time once. The traced name of a .js kernel
 * is its function's, an anonymous one's the file's base name. */
START_TEST(run_time_reports_compile_apart_and_traces_js_names)
{
    make_tmpdir();
    float a[4] = {1, 2, 3, 4};
    write_npy("a.npy", "<f4", "(4,)", 0, a, sizeof a);
    write_text("double-it.js", "function (a) { return a[this.thread.x] * 2; }");
    write_text("named.js", "function scale(a) { return a[this.thread.x] * 3; }");
    int status;
    char *out = gpuc_cli("run double-it.js --output 4 a.npy --time", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    ck_assert_msg(strstr(out, "\ncompile ") || !strncmp(out, "compile ", 8), "%s", out);
    ck_assert_msg(strstr(out, "\nfirst runs ") && strstr(out, "\nupload ") && strstr(out, "\nrun ") &&
                      strstr(out, "(run 3: ") && strstr(out, "\nread-back "),
                  "--time printed \"%s\"", out);
    free(out);
    /* The child inherits GPUC_TRACE: one trace line per run on stderr. */
    ck_assert_int_eq(setenv("GPUC_TRACE", "1", 1), 0);
    out = gpuc_cli("run double-it.js --output 4 a.npy --time", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    ck_assert_msg(fixture_count(out, "gpuc: kernel 'double-it' output 4 ") == 3, "%s", out);
    free(out);
    out = gpuc_cli("run double-it.js --output 4 a.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    ck_assert_msg(fixture_count(out, "gpuc: kernel 'double-it' output 4 ") == 1, "%s", out);
    ck_assert_msg(strstr(out, "2\n4\n6\n8\n"), "%s", out);
    free(out);
    out = gpuc_cli("run named.js --output 4 a.npy", 1, &status);
    ck_assert_msg(status == 0, "%s", out);
    ck_assert_msg(fixture_count(out, "gpuc: kernel 'scale' output 4 ") == 1, "%s", out);
    ck_assert_msg(!strstr(out, "anonymous"), "%s", out);
    free(out);
    ck_assert_int_eq(unsetenv("GPUC_TRACE"), 0);
    remove_tmpdir();
}
END_TEST

/* ---- the manual page and devices ------------------------------------------------------------------ */

/* Adds to names (n of them), once each, every environment variable name (GPUC_... or LP_..., capitals,
 * digits and _) that `text` passes as the one argument of a call: in a file that reads the
 * environment, that is what it reads, through getenv("GPUC_DEVICE") or a wrapper such as
 * env_flag("GPUC_TRACE"). */
static void collect_env_names(const char *text, char names[][64], int *n)
{
    for (const char *p = strchr(text, '"'); p; p = strchr(p + 1, '"')) {
        const char *q = p + 1;
        size_t len = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (p == text || p[-1] != '(' || q[len] != '"' || q[len + 1] != ')' || len >= 64 ||
            (strncmp(q, "GPUC_", 5) && strncmp(q, "LP_", 3)))
            continue;
        int seen = 0;
        for (int i = 0; i < *n; i++)
            seen |= strlen(names[i]) == len && !strncmp(names[i], q, len);
        if (!seen) {
            ck_assert_int_lt(*n, 64);
            snprintf(names[(*n)++], 64, "%.*s", (int)len, q);
        }
        p = q + len; /* the closing quote is not an opening one */
    }
}

/* Every .c and .h file under dir (recursively) that calls getenv: its environment names into names. */
static void scan_for_env(const char *dir, char names[][64], int *n, int *files)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d, "%s: run the tests from the repository root", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        ck_assert_int_eq(stat(path, &sb), 0);
        size_t len = strlen(e->d_name);
        if (S_ISDIR(sb.st_mode)) {
            scan_for_env(path, names, n, files);
        } else if (len > 2 && (!strcmp(e->d_name + len - 2, ".c") || !strcmp(e->d_name + len - 2, ".h"))) {
            char *text = fixture_read_text(path);
            if (strstr(text, "getenv(")) {
                collect_env_names(text, names, n);
                (*files)++;
            }
            free(text);
        }
    }
    closedir(d);
}

/* The manual page's ENVIRONMENT section names (as a .B heading with a description after it) every
 * environment variable the library and the program read, found in the sources themselves, so the
 * page cannot fall behind them. */
START_TEST(man_page_names_every_environment_variable)
{
    char names[64][64];
    int n = 0, files = 0;
    scan_for_env("src", names, &n, &files);
    scan_for_env("tools", names, &n, &files);
    ck_assert_int_ge(files, 3);
    ck_assert_int_ge(n, 5); /* GPUC_DEVICE, GPUC_BACKEND, GPUC_TRACE, GPUC_PROFILE, LP_NUM_THREADS at least */
    char *page = fixture_read_text("tools/gpuc/gpuc.1");
    char *env = strstr(page, "\n.SH ENVIRONMENT\n");
    ck_assert_msg(env, "tools/gpuc/gpuc.1 has no ENVIRONMENT section");
    char *end = strstr(env + 1, "\n.SH ");
    if (end)
        end[1] = '\0';
    for (int i = 0; i < n; i++) {
        char heading[96];
        snprintf(heading, sizeof heading, "\n.TP\n.B %s\n", names[i]);
        const char *at = strstr(env, heading);
        ck_assert_msg(at, "the source reads the environment variable %s, but gpuc.1's ENVIRONMENT section does not "
                          "describe it (.TP, .B %s, then what it does)", names[i], names[i]);
        at += strlen(heading);
        ck_assert_msg(*at && *at != '.', "gpuc.1: %s has no description", names[i]);
    }
    free(page);
}
END_TEST

/* An EGL device index past the last device is bad input (exit 2) naming the devices there are, from
 * --device and GPUC_DEVICE alike; with none of the kind asked for, the device is missing (exit 1). */
START_TEST(a_device_index_past_the_last_is_bad_input)
{
    make_tmpdir();
    float a[4] = {1, 2, 3, 4};
    write_npy("a.npy", "<f4", "(4,)", 0, a, sizeof a);
    write_text("k.glsl", "float f(float a[]) { return a[thread.x]; }");
    expect("run k.glsl --device 15 --output 4 a.npy", 2, "--device 15: there is no EGL device 15 on this machine");
    expect("run k.glsl --device 15 --output 4 a.npy", 2, "the devices are:\n  0: ");
    expect("glsl k.glsl --device 15 --output 4", 2, "no EGL device 15");
    expect("info --device 15", 2, "--device 15: there is no EGL device 15");
    ck_assert_int_eq(setenv("GPUC_DEVICE", "15", 1), 0);
    expect("run k.glsl --output 4 a.npy", 2, "GPUC_DEVICE 15: there is no EGL device 15");
    ck_assert_int_eq(unsetenv("GPUC_DEVICE"), 0);
    if (gpuc_list_devices(NULL, 0) == 0) /* no GPU here: asking for one is a missing device */
        expect("run k.glsl --device gpu --output 4 a.npy", 1, "gpuc: no device:");
    remove_tmpdir();
}
END_TEST

/* ---- gpuc_create_kernel_js_file: what the program's .js kernels are made with ----------------------- */

/* The kernel's name as gpuc's messages give it (a run with no arguments names it), into name. */
static void kernel_name_of(gpuc_kernel *k, char *name, size_t size)
{
    gpuc_array *r = NULL;
    ck_assert_int_eq(gpuc_run(k, NULL, 0, &r), GPUC_ERROR_INVALID_ARGUMENT);
    const char *msg = gpuc_errmsg(gpu), *at = strstr(msg, "kernel '");
    ck_assert_msg(at, "%s", msg);
    at += strlen("kernel '");
    snprintf(name, size, "%.*s", (int)strcspn(at, "'"), at);
}

START_TEST(js_file_kernels_are_named_by_function_else_file)
{
    make_tmpdir();
    char path[128], name[64];
    snprintf(path, sizeof path, "%s/blur.v2.js", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("function half(v) { return v / 2; }\nfunction (a) { return half(a[this.thread.x]); }\n", f);
    ck_assert_int_eq(fclose(f), 0);
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js_file(gpu, path, &(gpuc_kernel_desc){.output = {3}}, &k));
    kernel_name_of(k, name, sizeof name);
    ck_assert_str_eq(name, "blur.v2"); /* the last extension cut off */
    float in[3] = {2, 4, 7}, out[3];
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){3})}, 1, &r));
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, 3));
    ck_assert_float_eq(out[0], 1.0f);
    ck_assert_float_eq(out[2], 3.5f);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    /* desc.name wins; a named function keeps its name. */
    ck_assert_gpuc_ok(gpuc_create_kernel_js_file(gpu, path, &(gpuc_kernel_desc){.output = {3}, .name = "mine"}, &k));
    kernel_name_of(k, name, sizeof name);
    ck_assert_str_eq(name, "mine");
    gpuc_kernel_free(k);
    write_text("named.js", "function scale(a) { return a[this.thread.x] * 3; }");
    snprintf(path, sizeof path, "%s/named.js", tmpdir);
    ck_assert_gpuc_ok(gpuc_create_kernel_js_file(gpu, path, &(gpuc_kernel_desc){.output = {3}}, &k));
    kernel_name_of(k, name, sizeof name);
    ck_assert_str_eq(name, "scale");
    gpuc_kernel_free(k);
    /* Bad input: a clear status and message, *out NULL. */
    gpuc_kernel_desc desc = {.output = {3}};
    k = (gpuc_kernel *)&desc;
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, NULL, &desc, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "gpuc_create_kernel_js_file: path is NULL"));
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, path, NULL, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, path, &desc, NULL), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(gpuc_create_kernel_js_file(NULL, path, &desc, &k), GPUC_ERROR_INVALID_ARGUMENT);
    snprintf(path, sizeof path, "%s/missing.js", tmpdir);
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, path, &desc, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "missing.js\": No such file"), "%s", gpuc_errmsg(gpu));
    write_file("nul.js", "function (a) {\0 return 1; }", 28);
    snprintf(path, sizeof path, "%s/nul.js", tmpdir);
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, path, &desc, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "nul.js\": holds a NUL byte"), "%s", gpuc_errmsg(gpu));
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, tmpdir, &desc, &k), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "cannot read it"), "%s", gpuc_errmsg(gpu));
    /* A translation error names the line, as gpuc_create_kernel_js does. */
    write_text("bad.js", "function (a) {\n  return a[this.thread.x] +;\n}\n");
    snprintf(path, sizeof path, "%s/bad.js", tmpdir);
    ck_assert_int_eq(gpuc_create_kernel_js_file(gpu, path, &desc, &k), GPUC_ERROR_COMPILE);
    ck_assert_msg(strstr(gpuc_errmsg(gpu), "2:"), "%s", gpuc_errmsg(gpu));
    remove_tmpdir();
}
END_TEST

/* ---- glsl ------------------------------------------------------------------------------------------- */

START_TEST(glsl_prints_the_program)
{
    make_tmpdir();
    write_text("k.js", "function scale(a) { return a[this.thread.x] * this.constants.f; }");
    int status;
    char *out = gpuc_cli("glsl k.js --output 8 --constant f=3", 0, &status);
    ck_assert_int_eq(status, 0);
    /* The same program the library gives for the same kernel in this process. */
    gpuc_kernel *k;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(
        gpu, "function scale(a) { return a[this.thread.x] * this.constants.f; }",
        &(gpuc_kernel_desc){.output = {8}, .constants = {{"f", 3}}, .pipeline = true}, &k));
    ck_assert_str_eq(out, gpuc_kernel_glsl(k));
    ck_assert_msg(strstr(out, "#version"), "%s", out);
    gpuc_kernel_free(k);
    free(out);
    expect("glsl k.js", 2, "--output X[,Y[,Z]] is required");
    expect("glsl k.js --output 8 extra.npy", 2, "glsl takes the kernel file only");
    expect("glsl k.js --output 8 --out x.npy", 2, "unknown option --out");
    write_text("bad.glsl", "float f( { }");
    expect("glsl bad.glsl --output 8", 1, "kernel \"bad.glsl\":");
    remove_tmpdir();
}
END_TEST

Suite *suite_cli(void)
{
    Suite *s = suite_create("cli");
    TCase *bare = fixture_tcase_bare("commands");
    tcase_add_test(bare, help_lists_commands_and_options);
    tcase_add_loop_test(bare, run_reads_every_dtype_and_rank, 0, sizeof DTYPES / sizeof DTYPES[0]);
    tcase_add_test(bare, run_reads_npy_version_2_and_its_own_output);
    tcase_add_test(bare, run_js_kernel_prints_rows_as_text);
    tcase_add_test(bare, run_passes_scalars_as_the_parameter_wants);
    tcase_add_test(bare, run_passes_vectors_and_boolean_constants);
    tcase_add_test(bare, run_writes_3d_and_vector_npy_and_times);
    tcase_add_test(bare, run_graphical_kernel_writes_png);
    tcase_add_test(bare, precise_math_option);
    tcase_add_test(bare, run_refuses_bad_input);
    tcase_add_test(bare, run_reads_npy_as_numpy_does);
    tcase_add_test(bare, run_reports_kernel_errors_with_gpuc_message);
    tcase_add_test(bare, run_reads_stdin_and_writes_stdout_as_npy);
    tcase_add_test(bare, run_writes_a_picture_as_uint8_npy);
    tcase_add_test(bare, run_prints_a_1d_result_one_cell_per_line);
    tcase_add_test(bare, run_time_reports_compile_apart_and_traces_js_names);
    tcase_add_test(bare, man_page_names_every_environment_variable);
    tcase_add_test(bare, a_device_index_past_the_last_is_bad_input);
    suite_add_tcase(s, bare);
    TCase *ctx = fixture_tcase("against the library");
    tcase_add_test(ctx, info_shows_the_device_and_its_limits);
    tcase_add_test(ctx, glsl_prints_the_program);
    tcase_add_test(ctx, js_file_kernels_are_named_by_function_else_file);
    suite_add_tcase(s, ctx);
    return s;
}
