/* test_graphical.c - graphical kernels (color(), RGBA8 pixels, PNG files) against C oracles, on
 * whichever backend the run uses. */
#include "fixture.h"
#include "suites.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { W = 7, H = 5 };

/* r = 40x, g = 60y, b = 7 (exact in 8 bits), alpha 1 (three-argument color), and the pixel at
 * (1, 1) over-bright and negative: clamped. */
static const char *PAINT = "void paint() {\n"
                           "    if (thread.x == 1 && thread.y == 1) { color(2.0, -1.0, 0.5 * 2.0, 9.0); return; }\n"
                           "    color(float(thread.x * 40) / 255.0, float(thread.y * 60) / 255.0, 7.0 / 255.0);\n"
                           "}\n";

static void paint_oracle(uint8_t *rgba)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = rgba + (y * W + x) * 4;
            bool bright = x == 1 && y == 1;
            p[0] = bright ? 255 : (uint8_t)(x * 40);
            p[1] = bright ? 0 : (uint8_t)(y * 60);
            p[2] = bright ? 255 : 7;
            p[3] = 255;
        }
}

static gpuc_array *run_paint(void)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, PAINT, &(gpuc_kernel_desc){.output = {W, H}, .graphical = true}, &k));
    ck_assert_int_eq(gpuc_kernel_return_type(k), GPUC_INT);
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    gpuc_kernel_free(k);
    return r;
}

START_TEST(pixels_in_gpujs_order)
{
    gpuc_array *r = run_paint();
    uint8_t got[W * H * 4], want[W * H * 4];
    paint_oracle(want); /* thread.y = 0 first */
    /* getPixels(): image order, the top row (the last thread.y) first. */
    ck_assert_gpuc_ok(gpuc_array_read_pixels(r, got, sizeof got, false));
    for (int row = 0; row < H; row++)
        ck_assert_mem_eq(got + row * W * 4, want + (H - 1 - row) * W * 4, W * 4);
    /* getPixels(true): GL's rows, thread.y = 0 first. */
    ck_assert_gpuc_ok(gpuc_array_read_pixels(r, got, sizeof got, true));
    ck_assert_mem_eq(got, want, sizeof want);
    gpuc_array_free(r);
}
END_TEST

/* The same picture from GPU.js's JavaScript (this.color), and what a JS graphical kernel may not do. */
START_TEST(javascript_paints_with_this_color)
{
    const char *js = "function paint() {\n"
                     "  if (this.thread.x === 1 && this.thread.y === 1) { this.color(2, -1, 0.5 * 2, 9); return; }\n"
                     "  this.color(this.thread.x * 40 / 255, this.thread.y * 60 / 255, 7 / 255);\n"
                     "}\n";
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &(gpuc_kernel_desc){.output = {W, H}, .graphical = true}, &k));
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    uint8_t got[W * H * 4], want[W * H * 4];
    paint_oracle(want);
    ck_assert_gpuc_ok(gpuc_array_read_pixels(r, got, sizeof got, true));
    ck_assert_mem_eq(got, want, sizeof want);
    gpuc_array_free(r);
    gpuc_kernel_free(k);
    k = NULL;
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { this.color(1, 0, 0); }",
                                               &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE, "1:15: `this.color(...)` paints graphical kernels");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { this.color(1, 0); }",
                                               &(gpuc_kernel_desc){.output = {4}, .graphical = true}, &k),
                         GPUC_ERROR_COMPILE, "takes 3 or 4 numbers");
    ck_assert_gpuc_fails(gpuc_create_kernel_js(gpu, "function () { return 1; }",
                                               &(gpuc_kernel_desc){.output = {4}, .graphical = true}, &k),
                         GPUC_ERROR_COMPILE, "returns nothing");
    ck_assert_ptr_null(k);
}
END_TEST

/* Channels round to the nearest of 0..255 (k + 0.3 -> k, k + 0.7 -> k + 1); alpha as given. */
START_TEST(channels_round_to_nearest)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu,
                                         "void ramp() {\n"
                                         "    float v = float(thread.x);\n"
                                         "    color((v + 0.3) / 255.0, (v + 0.7) / 255.0, (254.0 - v + 0.2) / 255.0,\n"
                                         "          float(thread.x % 200) / 255.0);\n"
                                         "}\n",
                                         &(gpuc_kernel_desc){.output = {254}, .graphical = true}, &k));
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_run(k, NULL, 0, &r));
    uint8_t px[254 * 4];
    ck_assert_gpuc_ok(gpuc_array_read_pixels(r, px, sizeof px, true));
    for (int x = 0; x < 254; x++) {
        ck_assert_int_eq(px[4 * x], x);
        ck_assert_int_eq(px[4 * x + 1], x + 1);
        ck_assert_int_eq(px[4 * x + 2], 254 - x);
        ck_assert_int_eq(px[4 * x + 3], x % 200);
    }
    gpuc_array_free(r);
    gpuc_kernel_free(k);
}
END_TEST

/* Decodes a PNG with libpng's simplified API into RGBA8 (caller frees). */
static uint8_t *decode_png(const char *path, uint32_t *w, uint32_t *h)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    ck_assert_msg(png_image_begin_read_from_file(&image, path), "libpng: %s", image.message);
    image.format = PNG_FORMAT_RGBA;
    uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
    ck_assert_msg(png_image_finish_read(&image, NULL, pixels, 0, NULL), "libpng: %s", image.message);
    *w = image.width;
    *h = image.height;
    return pixels;
}

START_TEST(png_decodes_to_the_picture)
{
    gpuc_array *r = run_paint();
    char path[] = "/tmp/gpuc-test-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_gpuc_ok(gpuc_array_write_png(r, path));
    uint32_t w, h;
    uint8_t *png = decode_png(path, &w, &h);
    remove(path);
    ck_assert_uint_eq(w, W);
    ck_assert_uint_eq(h, H);
    uint8_t want[W * H * 4];
    paint_oracle(want);
    /* The file shows the picture as GPU.js's canvas does: its top row is the last thread.y. */
    for (int row = 0; row < H; row++)
        ck_assert_mem_eq(png + row * W * 4, want + (H - 1 - row) * W * 4, W * 4);
    free(png);
    gpuc_array_free(r);
}
END_TEST

START_TEST(graphical_errors)
{
    gpuc_kernel *k = NULL;
    gpuc_kernel_desc g = {.output = {4, 4}, .graphical = true};
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "void blank() { float x = 1.0; }", &g, &k), GPUC_ERROR_COMPILE,
                         "never calls color");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "float f() { color(1.0, 0.0, 0.0); return 1.0; }", &g, &k),
                         GPUC_ERROR_COMPILE, "returns void");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "void f() { color(1.0, 0.0, 0.0); }",
                                            &(gpuc_kernel_desc){.output = {4}}, &k),
                         GPUC_ERROR_COMPILE, "only a graphical kernel");
    ck_assert_gpuc_fails(gpuc_create_kernel(gpu, "void f() { color(1.0); }", &g, &k), GPUC_ERROR_COMPILE, "color");
    ck_assert_ptr_null(k);

    gpuc_array *r = run_paint(), *f = NULL;
    uint8_t px[W * H * 4];
    ck_assert_gpuc_fails(gpuc_array_read_pixels(r, px, sizeof px - 1, false), GPUC_ERROR_INVALID_ARGUMENT, "bytes");
    ck_assert_gpuc_fails(gpuc_array_read_pixels(r, NULL, sizeof px, false), GPUC_ERROR_INVALID_ARGUMENT, "NULL");
    ck_assert_gpuc_fails(gpuc_array_write_png(r, "/nonexistent-dir/x.png"), GPUC_ERROR_INVALID_ARGUMENT,
                         "/nonexistent-dir/x.png");
    ck_assert_gpuc_fails(gpuc_array_write_png(r, NULL), GPUC_ERROR_INVALID_ARGUMENT, "NULL");
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){W, H}, &f));
    ck_assert_gpuc_fails(gpuc_array_read_pixels(f, px, sizeof px, false), GPUC_ERROR_INVALID_ARGUMENT, "graphical");
    ck_assert_int_eq(gpuc_array_write_png(NULL, "/tmp/x.png"), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_array_free(f);
    gpuc_array_free(r);
}
END_TEST

/* Runs an example with a backend, returns its stdout without the first line (which names the backend). */
static char *run_example(const char *dir, const char *backend, const char *cmd)
{
    char line[1024];
    /* Under `make check SANITIZE=1` the examples are sanitized too; their leak check is off because
     * Mesa's driver, unloaded at exit, leaves allocations LeakSanitizer would blame on the example. */
    snprintf(line, sizeof line, "ASAN_OPTIONS=detect_leaks=0 GPUC_BACKEND=%s %s/%s", backend, dir, cmd);
    FILE *p = popen(line, "r");
    ck_assert_ptr_nonnull(p);
    static char text[2][4096];
    char *out = text[strcmp(backend, "compute") != 0];
    size_t n = fread(out, 1, sizeof text[0] - 1, p);
    out[n] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    char *rest = strchr(out, '\n');
    ck_assert_ptr_nonnull(rest);
    return rest + 1;
}

/* Both picture examples print and draw the same on both backends, and draw what they should. */
START_TEST(examples_draw_the_same_on_both_backends)
{
    const char *dir = getenv("GPUC_EXAMPLES_DIR");
    if (!dir) /* run by hand outside `make check` */
        return;
    char pa[] = "/tmp/gpuc-a-XXXXXX", pb[] = "/tmp/gpuc-b-XXXXXX", cmd[256];
    close(mkstemp(pa));
    close(mkstemp(pb));
    snprintf(cmd, sizeof cmd, "mandelbrot --width 160 --height 120 --out %s", pa);
    char *a = run_example(dir, "compute", cmd);
    snprintf(cmd, sizeof cmd, "mandelbrot --width 160 --height 120 --out %s", pb);
    char *b = run_example(dir, "fragment", cmd);
    ck_assert_str_eq(a, b);
    uint32_t w, h, w2, h2;
    uint8_t *ma = decode_png(pa, &w, &h), *mb = decode_png(pb, &w2, &h2);
    ck_assert_uint_eq(w, 160);
    ck_assert_uint_eq(h, 120);
    ck_assert_mem_eq(ma, mb, (size_t)w * h * 4);
    /* c = -0.25 + 0i (x = 2 / step, middle row) is in the main cardioid: black; the corner is not. */
    const uint8_t *inside = ma + ((size_t)(h / 2) * w + 106) * 4, *corner = ma;
    ck_assert_int_eq(inside[0] + inside[1] + inside[2], 0);
    ck_assert_int_gt(corner[0] + corner[1] + corner[2], 0);
    free(ma), free(mb);

    snprintf(cmd, sizeof cmd, "heatmap --out %s", pa);
    a = run_example(dir, "compute", cmd);
    snprintf(cmd, sizeof cmd, "heatmap --out %s", pb);
    b = run_example(dir, "fragment", cmd);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "hottest: 627 at row 44 col 15\n")); /* the tutorial's fact */
    ma = decode_png(pa, &w, &h);
    mb = decode_png(pb, &w2, &h2);
    ck_assert_uint_eq(w, 512);
    ck_assert_mem_eq(ma, mb, (size_t)w * h * 4);
    /* The hottest cell is white; grid row 44 is picture row 511 - 44 * 8 from the top. */
    const uint8_t *hot = ma + ((size_t)(511 - 44 * 8) * w + 15 * 8) * 4;
    ck_assert_int_eq(hot[0] + hot[1] + hot[2], 3 * 255);
    free(ma), free(mb);
    remove(pa);
    remove(pb);
}
END_TEST

Suite *suite_graphical(void)
{
    Suite *s = suite_create("graphical");
    TCase *tc = fixture_tcase("graphical");
    tcase_add_test(tc, pixels_in_gpujs_order);
    tcase_add_test(tc, javascript_paints_with_this_color);
    tcase_add_test(tc, channels_round_to_nearest);
    tcase_add_test(tc, png_decodes_to_the_picture);
    tcase_add_test(tc, graphical_errors);
    suite_add_tcase(s, tc);
    TCase *examples = fixture_tcase_bare("graphical examples");
    tcase_add_test(examples, examples_draw_the_same_on_both_backends);
    suite_add_tcase(s, examples);
    return s;
}
