/* mandelbrot: a graphical kernel (GPU.js's `graphical: true` and this.color) paints the Mandelbrot set
 * and gpuc writes it as a PNG you can open in any image viewer.
 *     mandelbrot [--out FILE.png] [--width W] [--height H]      (default mandelbrot.png, 800 x 600)
 * Runs on either backend (GPUC_BACKEND=compute|fragment) with the same pixels; it prints the picture's
 * size, how many pixels are in the set, and a checksum of the pixels. */
#include "example_util.h"

#include <gpuc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Escape-time colouring: black inside the set, a smooth blue-orange-white ramp outside. thread.y = 0
 * is the bottom row of the picture, so the imaginary axis points up as in a textbook. */
static const char *MANDELBROT =
    "void mandelbrot() {\n"
    "    vec2 c = vec2(constants.left + float(thread.x) * constants.step,\n"
    "                  constants.bottom + float(thread.y) * constants.step);\n"
    "    vec2 z = vec2(0.0);\n"
    "    int n = 0;\n"
    "    for (int i = 0; i < constants.iterations; i++) {\n"
    "        if (dot(z, z) > 4.0) break;\n"
    "        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;\n"
    "        n++;\n"
    "    }\n"
    "    if (n == constants.iterations) { color(0.0, 0.0, 0.0); return; }\n"
    "    float t = sqrt(float(n) / float(constants.iterations));\n"
    "    float u = 1.0 - t;\n"
    "    color(9.0 * u * t * t * t + t * t, 15.0 * u * u * t * t + 0.1 * t, 8.5 * u * u * u * t + 0.25 * t);\n"
    "}\n";

int main(int argc, char **argv)
{
    const char *out = "mandelbrot.png";
    long w = 800, h = 600;
    example_args args = {.name = "mandelbrot", .no_seed = 1,
                         .options = (example_option[]){{"--out", NULL, 0, 0, &out, "FILE.png"},
                                                       {"--width", &w, 1, 16384, NULL, "N"},
                                                       {"--height", &h, 1, 16384, NULL, "N"},
                                                       {NULL}}};
    example_parse_args(&args, argc, argv);
    double step = 3.0 / (double)w; /* real axis -2.25 .. 0.75, centred vertically */
    gpuc *gpu;
    gpuc_kernel *k = NULL;
    gpuc_array *picture = NULL;
    uint8_t *pixels = malloc((size_t)w * (size_t)h * 4);
    int status = 1;
    if (!pixels || gpuc_open(&gpu, NULL) != GPUC_OK ||
        gpuc_create_kernel(gpu, MANDELBROT,
                           &(gpuc_kernel_desc){.output = {(uint32_t)w, (uint32_t)h},
                                               .graphical = true,
                                               .constants = {{"left", -2.25, GPUC_FLOAT},
                                                             {"bottom", -step * (double)h / 2.0, GPUC_FLOAT},
                                                             {"step", step, GPUC_FLOAT},
                                                             {"iterations", 256}}},
                           &k) != GPUC_OK ||
        gpuc_run(k, NULL, 0, &picture) != GPUC_OK ||
        gpuc_array_read_pixels(picture, pixels, (size_t)w * (size_t)h * 4, false) != GPUC_OK ||
        gpuc_array_write_png(picture, out) != GPUC_OK) {
        fprintf(stderr, "mandelbrot: %s\n", pixels ? gpuc_errmsg(gpu) : "out of memory");
        goto done;
    }
    size_t inside = 0;
    uint32_t sum = 2166136261u; /* FNV-1a over the pixels */
    for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++) {
        sum = (sum ^ pixels[i]) * 16777619u;
        if (i % 4 == 3)
            inside += pixels[i - 3] == 0 && pixels[i - 2] == 0 && pixels[i - 1] == 0;
    }
    printf("wrote %s: %ld x %ld pixels (%s backend)\n", out, w, h, gpuc_get_info(gpu)->backend_name);
    printf("in the set: %zu pixels\n", inside);
    printf("pixel checksum: %08x\n", sum);
    status = 0;
done:
    free(pixels);
    gpuc_close(gpu);
    return status;
}
