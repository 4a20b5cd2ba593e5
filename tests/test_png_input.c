/* test_png_input.c - gpuc_array_from_png (pictures as GPU.js passes them to kernels) against C oracles:
 * the test writes small PNG files of every kind with libpng, loads them, and checks the orientation
 * (cell [y][x] is scanline height - 1 - y), channels / 255, the conversions to 8-bit RGBA, GPU.js image
 * kernels run on a file (JavaScript and GLSL), and the errors for missing and broken files. */
#include "fixture.h"
#include "suites.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { W = 6, H = 4 };

/* A PNG to write: its kind, and per scanline (first = top) the bytes as the format stores them. */
typedef struct test_png {
    int color_type, bit_depth;
    const png_color *palette;
    int npalette;
    const png_byte *trns;
    int ntrns;
} test_png;

static void temp_path(char *path, size_t len, const char *tag)
{
    snprintf(path, len, "/tmp/gpuc-test-png-%ld-%s.png", (long)getpid(), tag);
}

static void write_png(const char *path, const test_png *t, uint32_t w, uint32_t h, const png_byte *rows,
                      size_t row_bytes)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    ck_assert_int_eq(setjmp(png_jmpbuf(png)), 0);
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, t->bit_depth, t->color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (t->palette)
        png_set_PLTE(png, info, t->palette, t->npalette);
    if (t->trns)
        png_set_tRNS(png, info, t->trns, t->ntrns, NULL);
    png_write_info(png, info);
    for (uint32_t y = 0; y < h; y++)
        png_write_row(png, rows + y * row_bytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

/* Loads path and checks it is a W x H vec4 array whose cell [y][x] is want_rgba8's pixel of scanline
 * H - 1 - y (scanline order, top first), each channel / 255 as float32. */
static void expect_picture(const char *path, const uint8_t *want_rgba8)
{
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_png(gpu, path, &a));
    ck_assert_int_eq(gpuc_array_type(a), GPUC_VEC4);
    gpuc_dims d = gpuc_array_dims(a);
    ck_assert_uint_eq(d.x, W);
    ck_assert_uint_eq(d.y, H);
    ck_assert_uint_eq(d.z, 0);
    float got[W * H * 4];
    ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, W * H * 4));
    for (int y = 0; y < H; y++)
        for (int i = 0; i < W * 4; i++) {
            float want = (float)(want_rgba8[(H - 1 - y) * W * 4 + i] / 255.0);
            ck_assert_msg(got[y * W * 4 + i] == want, "%s: cell [%d][%d] channel %d is %.9g, expected %.9g", path, y,
                          i / 4, i % 4, (double)got[y * W * 4 + i], (double)want);
        }
    gpuc_array_free(a);
}

/* Scanline-order RGBA8 test pixels: every byte distinct within a channel, alpha not all 255. */
static void rgba_pixels(uint8_t *p)
{
    for (int i = 0; i < W * H; i++) {
        p[4 * i] = (uint8_t)(i * 10);
        p[4 * i + 1] = (uint8_t)(255 - i * 7);
        p[4 * i + 2] = (uint8_t)(i * 3 + 1);
        p[4 * i + 3] = (uint8_t)(128 + i);
    }
}

START_TEST(rgba_png_reads_bottom_row_first)
{
    uint8_t px[W * H * 4];
    rgba_pixels(px);
    char path[128];
    temp_path(path, sizeof path, "rgba");
    write_png(path, &(test_png){PNG_COLOR_TYPE_RGBA, 8, NULL, 0, NULL, 0}, W, H, px, W * 4);
    expect_picture(path, px);
    unlink(path);
}
END_TEST

/* Gray, gray 16-bit, RGB without alpha and a palette with transparency all become 8-bit RGBA. */
START_TEST(every_png_kind_becomes_rgba8)
{
    char path[128];
    uint8_t gray[W * H], want[W * H * 4];
    for (int i = 0; i < W * H; i++)
        gray[i] = (uint8_t)(i * 11);
    for (int i = 0; i < W * H; i++)
        memcpy(want + 4 * i, (uint8_t[]){gray[i], gray[i], gray[i], 255}, 4);
    temp_path(path, sizeof path, "gray");
    write_png(path, &(test_png){PNG_COLOR_TYPE_GRAY, 8, NULL, 0, NULL, 0}, W, H, gray, W);
    expect_picture(path, want);

    uint8_t gray16[W * H * 2]; /* big-endian 16-bit samples: the high byte is what 8 bits keep */
    for (int i = 0; i < W * H; i++) {
        gray16[2 * i] = gray[i];
        gray16[2 * i + 1] = (uint8_t)(0x7f - i);
    }
    write_png(path, &(test_png){PNG_COLOR_TYPE_GRAY, 16, NULL, 0, NULL, 0}, W, H, gray16, W * 2);
    expect_picture(path, want);

    uint8_t rgb[W * H * 3];
    for (int i = 0; i < W * H; i++) {
        rgb[3 * i] = (uint8_t)(i * 9);
        rgb[3 * i + 1] = (uint8_t)(200 - i);
        rgb[3 * i + 2] = 77;
        memcpy(want + 4 * i, (uint8_t[]){rgb[3 * i], rgb[3 * i + 1], 77, 255}, 4);
    }
    write_png(path, &(test_png){PNG_COLOR_TYPE_RGB, 8, NULL, 0, NULL, 0}, W, H, rgb, W * 3);
    expect_picture(path, want);

    static const png_color palette[3] = {{255, 0, 0}, {0, 128, 255}, {10, 20, 30}};
    static const png_byte trns[2] = {0, 100}; /* entry 2 has no alpha entry: opaque */
    uint8_t index[W * H];
    for (int i = 0; i < W * H; i++) {
        index[i] = (uint8_t)(i % 3);
        const png_color *c = &palette[index[i]];
        memcpy(want + 4 * i, (uint8_t[]){c->red, c->green, c->blue, index[i] < 2 ? trns[index[i]] : 255}, 4);
    }
    write_png(path, &(test_png){PNG_COLOR_TYPE_PALETTE, 8, palette, 3, trns, 2}, W, H, index, W);
    expect_picture(path, want);
    unlink(path);
}
END_TEST

/* Reads path's pixels back with libpng (scanline order, RGBA8). */
static void read_rgba8(const char *path, uint8_t *out, uint32_t w, uint32_t h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    ck_assert(png_image_begin_read_from_file(&img, path));
    ck_assert_uint_eq(img.width, w);
    ck_assert_uint_eq(img.height, h);
    img.format = PNG_FORMAT_RGBA;
    ck_assert(png_image_finish_read(&img, NULL, out, 0, NULL));
}

/* GPU.js's image kernel, pasted as is: it paints each pixel of the image it is given. GPU.js's canvas
 * (gpuc_array_write_png) shows thread.y = 0 at the bottom, image[0] is the bottom scanline: the
 * picture comes out as it went in, byte for byte. A GLSL kernel and a JavaScript grey-scale kernel
 * read the same array, against C. */
START_TEST(gpujs_image_kernels_run_on_a_file)
{
    uint8_t px[W * H * 4], back[W * H * 4];
    rgba_pixels(px);
    char in[128], out[128];
    temp_path(in, sizeof in, "in");
    temp_path(out, sizeof out, "out");
    write_png(in, &(test_png){PNG_COLOR_TYPE_RGBA, 8, NULL, 0, NULL, 0}, W, H, px, W * 4);
    gpuc_array *image = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_png(gpu, in, &image));

    gpuc_kernel *paint = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function (image) {\n"
                                            "  const pixel = image[this.thread.y][this.thread.x];\n"
                                            "  this.color(pixel.r, pixel.g, pixel.b, pixel.a);\n"
                                            "}\n",
                                            &(gpuc_kernel_desc){.output = {W, H}, .graphical = true,
                                                                .arg_types = "HTMLImage"},
                                            &paint));
    gpuc_array *picture = NULL;
    ck_assert_gpuc_ok(gpuc_run(paint, (gpuc_arg[]){gpuc_arg_array(image)}, 1, &picture));
    ck_assert_gpuc_ok(gpuc_array_write_png(picture, out));
    read_rgba8(out, back, W, H);
    ck_assert_mem_eq(back, px, sizeof px);

    gpuc_kernel *grey = NULL, *glsl = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu,
                                            "function (image) {\n"
                                            "  const p = image[this.thread.y][this.thread.x];\n"
                                            "  return (p[0] + p[1] + p[2]) / 3;\n"
                                            "}\n",
                                            &(gpuc_kernel_desc){.output = {W, H}, .arg_types = "ImageData"}, &grey));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float alpha(vec4 image[][]) { return image[thread.y][thread.x].a; }",
                                         &(gpuc_kernel_desc){.output = {W, H}}, &glsl));
    gpuc_array *g = NULL, *a = NULL;
    ck_assert_gpuc_ok(gpuc_run(grey, (gpuc_arg[]){gpuc_arg_array(image)}, 1, &g));
    ck_assert_gpuc_ok(gpuc_run(glsl, (gpuc_arg[]){gpuc_arg_array(image)}, 1, &a));
    float *gv = fixture_take_floats(g, W * H), *av = fixture_take_floats(a, W * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + ((H - 1 - y) * W + x) * 4; /* scanline H - 1 - y */
            float r = (float)(p[0] / 255.0), gg = (float)(p[1] / 255.0), b = (float)(p[2] / 255.0);
            ck_assert_float_eq(gv[y * W + x], (r + gg + b) / 3.0f);
            ck_assert_float_eq(av[y * W + x], (float)(p[3] / 255.0));
        }
    free(gv);
    free(av);
    gpuc_array_free(picture);
    gpuc_array_free(image);
    gpuc_kernel_free(paint);
    gpuc_kernel_free(grey);
    gpuc_kernel_free(glsl);
    unlink(in);
    unlink(out);
}
END_TEST

START_TEST(missing_and_broken_files_are_named)
{
    gpuc_array *a = NULL;
    char path[128], cut[128];
    temp_path(path, sizeof path, "missing");
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT, "No such file");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), path));

    temp_path(path, sizeof path, "text");
    FILE *f = fopen(path, "w");
    fputs("not a picture at all\n", f);
    fclose(f);
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT, "is not a PNG file");
    f = fopen(path, "w");
    fclose(f);
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT, "shorter than");

    /* A valid PNG cut in the middle of its image data: libpng's own words, after the file's name. */
    uint8_t px[W * H * 4];
    rgba_pixels(px);
    temp_path(cut, sizeof cut, "cut");
    write_png(cut, &(test_png){PNG_COLOR_TYPE_RGBA, 8, NULL, 0, NULL, 0}, W, H, px, W * 4);
    f = fopen(cut, "rb");
    uint8_t bytes[4096];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    f = fopen(cut, "wb");
    fwrite(bytes, 1, n - 30, f);
    fclose(f);
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, cut, &a), GPUC_ERROR_INVALID_ARGUMENT, "reading \"");
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), cut));
    ck_assert_ptr_null(a);

    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, NULL, &a), GPUC_ERROR_INVALID_ARGUMENT, "path is NULL");
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, cut, NULL), GPUC_ERROR_INVALID_ARGUMENT, "out is NULL");
    unlink(path);
    unlink(cut);
}
END_TEST

Suite *suite_png_input(void)
{
    Suite *s = suite_create("png_input");
    TCase *tc = fixture_tcase("png_input");
    tcase_add_test(tc, rgba_png_reads_bottom_row_first);
    tcase_add_test(tc, every_png_kind_becomes_rgba8);
    tcase_add_test(tc, gpujs_image_kernels_run_on_a_file);
    tcase_add_test(tc, missing_and_broken_files_are_named);
    suite_add_tcase(s, tc);
    return s;
}
