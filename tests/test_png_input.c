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

/* ---- files from outside: any corrupt chunk fails, the pixel count is capped ------------------------ */

static size_t read_file(const char *path, uint8_t *bytes, size_t max)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(bytes, 1, max, f);
    fclose(f);
    ck_assert_uint_lt(n, max);
    return n;
}

static void write_bytes(const char *path, const uint8_t *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* The PNG CRC-32 (ISO 3309) of a chunk's type and data, independent of libpng. */
static uint32_t chunk_crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

/* The offset of the chunk `type` in a PNG file's bytes (its length field), the first one at or after
 * `from`; fails the test when there is none. */
static size_t find_chunk(const uint8_t *b, size_t n, const char *type, size_t from)
{
    for (size_t at = 8; at + 12 <= n;) {
        size_t len = (size_t)b[at] << 24 | (size_t)b[at + 1] << 16 | (size_t)b[at + 2] << 8 | b[at + 3];
        if (at >= from && !memcmp(b + at + 4, type, 4))
            return at;
        at += 12 + len;
    }
    ck_abort_msg("no %s chunk", type);
    return 0;
}

/* A palette picture with transparency, a tEXt and a private ancillary chunk before the image data and
 * a tEXt after it: every chunk kind gpuc skips or reads. */
static void write_busy_png(const char *path)
{
    static const png_color palette[3] = {{255, 0, 0}, {0, 128, 255}, {10, 20, 30}};
    static const png_byte trns[2] = {0, 100};
    uint8_t index[W * H];
    for (int i = 0; i < W * H; i++)
        index[i] = (uint8_t)(i % 3);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png), end = png_create_info_struct(png);
    ck_assert_int_eq(setjmp(png_jmpbuf(png)), 0);
    png_init_io(png, f);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_PLTE(png, info, palette, 3);
    png_set_tRNS(png, info, trns, 2, NULL);
    png_text text = {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "Title", .text = "before"};
    png_set_text(png, info, &text, 1);
    png_unknown_chunk priv = {.name = "prIv", .data = (png_byte *)"private", .size = 7, .location = PNG_HAVE_PLTE};
    png_set_unknown_chunks(png, info, &priv, 1);
    png_write_info(png, info);
    for (int y = 0; y < H; y++)
        png_write_row(png, index + y * W);
    png_text after = {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "Comment", .text = "after"};
    png_set_text(png, end, &after, 1);
    png_write_end(png, end);
    png_destroy_info_struct(png, &end);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

/* libpng by default drops an ancillary chunk whose CRC is wrong with a warning (a palette picture
 * whose tRNS is damaged loaded as opaque) and passes over its "benign" errors: here each chunk's CRC
 * broken in turn, and a tRNS longer than the palette with a right CRC, must fail the load. */
START_TEST(a_corrupt_chunk_of_any_kind_fails)
{
    char path[128];
    temp_path(path, sizeof path, "busy");
    write_busy_png(path);
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_png(gpu, path, &a)); /* intact, it loads */
    gpuc_array_free(a);
    uint8_t good[8192], bytes[8192];
    size_t n = read_file(path, good, sizeof good);
    static const char *const chunks[][2] = {{"tRNS", "0"}, {"tEXt", "0"}, {"prIv", "0"}, {"tEXt", "1"},
                                            {"PLTE", "0"}, {"IHDR", "0"}, {"IDAT", "0"}, {"IEND", "0"}};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        memcpy(bytes, good, n);
        size_t at = find_chunk(bytes, n, chunks[c][0], 0);
        if (chunks[c][1][0] == '1')
            at = find_chunk(bytes, n, chunks[c][0], at + 1);
        size_t len = (size_t)bytes[at] << 24 | (size_t)bytes[at + 1] << 16 | (size_t)bytes[at + 2] << 8 | bytes[at + 3];
        bytes[at + 8 + len + 3] ^= 0x5a; /* the CRC's last byte */
        write_bytes(path, bytes, n);
        a = NULL;
        gpuc_status st = gpuc_array_from_png(gpu, path, &a);
        ck_assert_msg(st == GPUC_ERROR_INVALID_ARGUMENT, "a bad CRC in %s chunk %s: %s (%s)", chunks[c][0],
                      chunks[c][1], gpuc_status_name(st), gpuc_errmsg(gpu));
        ck_assert_ptr_null(a);
        ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), path));
    }
    /* tRNS with 4 entries for a palette of 3, its CRC right: libpng's benign error. */
    size_t at = find_chunk(good, n, "tRNS", 0);
    memcpy(bytes, good, at);
    static const uint8_t trns4[] = {0, 0, 0, 4, 't', 'R', 'N', 'S', 0, 100, 7, 9};
    memcpy(bytes + at, trns4, sizeof trns4);
    uint32_t crc = chunk_crc(trns4 + 4, 8);
    uint8_t crc_bytes[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    memcpy(bytes + at + sizeof trns4, crc_bytes, 4);
    size_t old_end = at + 12 + 2; /* the original tRNS held 2 entries */
    memcpy(bytes + at + sizeof trns4 + 4, good + old_end, n - old_end);
    write_bytes(path, bytes, n + 2);
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT, "tRNS");
    /* An iCCP chunk (one gpuc never applies) whose CRC is right but whose profile is a cut-off zlib
     * stream, after IHDR (8 + 25 bytes in). */
    static const uint8_t iccp[] = {0, 0, 0, 4, 'i', 'C', 'C', 'P', 'x', 0, 0, 0x78};
    memcpy(bytes, good, 33);
    memcpy(bytes + 33, iccp, sizeof iccp);
    crc = chunk_crc(iccp + 4, 8);
    uint8_t iccp_crc[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    memcpy(bytes + 33 + sizeof iccp, iccp_crc, 4);
    memcpy(bytes + 33 + sizeof iccp + 4, good + 33, n - 33);
    write_bytes(path, bytes, n + sizeof iccp + 4);
    ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT, "iCCP");
    unlink(path);
}
END_TEST

/* Palette indices of 2 bits, packed four to a byte: each pixel its palette entry (tRNS alpha, opaque
 * past it); an index past the palette's entries (the PNG specification's error; libpng's expansion
 * would paint it opaque black) fails the load. */
START_TEST(palette_indices_are_checked)
{
    static const png_color palette[3] = {{255, 0, 0}, {0, 128, 255}, {10, 20, 30}};
    static const png_byte trns[1] = {40};
    char path[128];
    temp_path(path, sizeof path, "pal2");
    uint8_t packed[H * 2], want[W * H * 4];
    for (int last = 2; last <= 3; last++) {
        memset(packed, 0, sizeof packed);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int index = (x + y) % 3;
                if (last == 3 && y == 2 && x == 5)
                    index = 3; /* one entry past the palette */
                packed[y * 2 + x / 4] |= (uint8_t)(index << (6 - 2 * (x % 4)));
                if (index < 3) {
                    const png_color *c = &palette[index];
                    memcpy(want + 4 * (y * W + x), (uint8_t[]){c->red, c->green, c->blue, index == 0 ? 40 : 255}, 4);
                }
            }
        write_png(path, &(test_png){PNG_COLOR_TYPE_PALETTE, 2, palette, 3, trns, 1}, W, H, packed, 2);
        if (last == 2)
            expect_picture(path, want);
        else {
            gpuc_array *a = NULL;
            ck_assert_gpuc_fails(gpuc_array_from_png(gpu, path, &a), GPUC_ERROR_INVALID_ARGUMENT,
                                 "pixel (5, 2) has palette index 3; the palette has 3 entries");
            ck_assert_ptr_null(a);
        }
    }
    unlink(path);
}
END_TEST

/* Loads path in a context opened with max_image_pixels = cap; returns the status (message into msg). */
static gpuc_status load_capped(const char *path, int64_t cap, char msg[512])
{
    gpuc *g = NULL;
    gpuc_options opts = {.max_image_pixels = cap};
    gpuc_status st = gpuc_open(&g, &opts);
    gpuc_array *a = NULL;
    if (st == GPUC_OK)
        st = gpuc_array_from_png(g, path, &a);
    snprintf(msg, 512, "%s", gpuc_errmsg(g));
    if (st != GPUC_OK)
        ck_assert_ptr_null(a);
    gpuc_close(g);
    return st;
}

/* gpuc_options.max_image_pixels caps the pixels a picture may have, checked from its header: W x H
 * passes at W x H and fails one below; the default refuses a header claiming 11,585 x 11,585 pixels
 * (2 GiB as a vec4 array) at once, before reading its (absent) image data; a negative cap other than
 * GPUC_NO_IMAGE_PIXEL_LIMIT fails gpuc_open. */
START_TEST(max_image_pixels_caps_a_picture)
{
    char path[128], msg[512];
    uint8_t px[W * H * 4];
    rgba_pixels(px);
    temp_path(path, sizeof path, "cap");
    write_png(path, &(test_png){PNG_COLOR_TYPE_RGBA, 8, NULL, 0, NULL, 0}, W, H, px, W * 4);
    ck_assert_int_eq(load_capped(path, W * H, msg), GPUC_OK);
    ck_assert_int_eq(load_capped(path, GPUC_NO_IMAGE_PIXEL_LIMIT, msg), GPUC_OK);
    ck_assert_int_eq(load_capped(path, W * H - 1, msg), GPUC_ERROR_LIMIT);
    ck_assert_msg(strstr(msg, "max_image_pixels") && strstr(msg, path), "%s", msg);

    /* The header of a huge picture, its IDAT cut off: the default cap refuses it from the header. */
    uint8_t bytes[8192];
    size_t n = read_file(path, bytes, sizeof bytes);
    size_t idat = find_chunk(bytes, n, "IDAT", 0);
    static const uint8_t side[4] = {0, 0, 0x2d, 0x41}; /* 11,585 */
    memcpy(bytes + 16, side, 4);
    memcpy(bytes + 20, side, 4);
    uint32_t crc = chunk_crc(bytes + 12, 17);
    uint8_t crc_bytes[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    memcpy(bytes + 29, crc_bytes, 4);
    write_bytes(path, bytes, idat + 20);
    ck_assert_int_eq(load_capped(path, 0, msg), GPUC_ERROR_LIMIT);
    ck_assert_msg(strstr(msg, "11585x11585") && strstr(msg, "67108864"), "%s", msg);

    gpuc *g = NULL;
    gpuc_options bad = {.max_image_pixels = -2};
    ck_assert_int_eq(gpuc_open(&g, &bad), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(g), "max_image_pixels is -2"));
    gpuc_close(g);
    unlink(path);
}
END_TEST

/* A picture taller than one block of rows (the load converts and uploads ~1 MiB at a time), plain and
 * interlaced, against the scanlines it was written from: every block in its place, bottom row first. */
START_TEST(a_tall_picture_loads_block_by_block)
{
    enum { TW = 300, TH = 1000 };
    uint8_t *px = malloc((size_t)TW * TH * 4);
    for (size_t i = 0; i < (size_t)TW * TH * 4; i++)
        px[i] = (uint8_t)(i * 7 + i / 1201);
    float *got = malloc((size_t)TW * TH * 4 * sizeof *got);
    char path[128];
    temp_path(path, sizeof path, "tall");
    for (int interlace = 0; interlace < 2; interlace++) {
        FILE *f = fopen(path, "wb");
        png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
        png_infop info = png_create_info_struct(png);
        ck_assert_int_eq(setjmp(png_jmpbuf(png)), 0);
        png_init_io(png, f);
        png_set_IHDR(png, info, TW, TH, 8, PNG_COLOR_TYPE_RGBA, interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        png_bytep rows[TH];
        for (int y = 0; y < TH; y++)
            rows[y] = px + (size_t)y * TW * 4;
        png_write_image(png, rows);
        png_write_end(png, NULL);
        png_destroy_write_struct(&png, &info);
        fclose(f);
        gpuc_array *a = NULL;
        ck_assert_gpuc_ok(gpuc_array_from_png(gpu, path, &a));
        ck_assert_gpuc_ok(gpuc_array_read_f32(a, got, (size_t)TW * TH * 4));
        for (int y = 0; y < TH; y++)
            for (int i = 0; i < TW * 4; i++) {
                float want = (float)(px[(size_t)(TH - 1 - y) * TW * 4 + (size_t)i] / 255.0);
                ck_assert_msg(got[(size_t)y * TW * 4 + (size_t)i] == want, "interlace %d: cell [%d][%d] channel %d",
                              interlace, y, i / 4, i % 4);
            }
        gpuc_array_free(a);
    }
    free(px);
    free(got);
    unlink(path);
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
    tcase_add_test(tc, a_corrupt_chunk_of_any_kind_fails);
    tcase_add_test(tc, palette_indices_are_checked);
    tcase_add_test(tc, max_image_pixels_caps_a_picture);
    tcase_add_test(tc, a_tall_picture_loads_block_by_block);
    suite_add_tcase(s, tc);
    return s;
}
