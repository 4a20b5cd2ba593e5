/* heatmap: the top-k tutorial's brightness grid (task 3: brightness(64, 1701), three glowing spots plus
 * noise) drawn by a graphical kernel as a heat map PNG, each grid cell an 8 x 8 block of pixels.
 *     heatmap [--out FILE.png] [--seed N]      (default heatmap.png, seed 1701)
 * Row 0 of the grid is the bottom row of the picture (GPU.js's canvas orientation). It prints the
 * hottest cell (the tutorial's "brightest: 627 at row 44 col 15" for the default seed) and a checksum
 * of the pixels, the same on both backends. */
#include "example_util.h"

#include <gpuc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIZE = 64, SCALE = 8 };

/* The tutorials' random source (spec/tutorial-tasks.md): mulberry32, doubles in [0, 1). */
static double mulberry32(uint32_t *state)
{
    *state += 0x6D2B79F5u;
    uint32_t t = *state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static void brightness(float *grid, uint32_t seed)
{
    uint32_t state = seed;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            double nx = (double)x / SIZE, ny = (double)y / SIZE;
            double glow = exp(-((nx - 0.22) * (nx - 0.22) + (ny - 0.68) * (ny - 0.68)) * 30) +
                          0.82 * exp(-((nx - 0.74) * (nx - 0.74) + (ny - 0.31) * (ny - 0.31)) * 55) +
                          0.55 * exp(-((nx - 0.55) * (nx - 0.55) + (ny - 0.86) * (ny - 0.86)) * 90);
            grid[y * SIZE + x] = (float)floor(600 * glow + 40 * mulberry32(&state) + 0.5);
        }
}

/* A black-red-yellow-white ramp over (value - lo) / (hi - lo). */
static const char *HEAT =
    "void heat(float grid[][], float lo, float hi) {\n"
    "    float v = grid[thread.y / constants.scale][thread.x / constants.scale];\n"
    "    float t = clamp((v - lo) / (hi - lo), 0.0, 1.0);\n"
    "    color(clamp(3.0 * t, 0.0, 1.0), clamp(3.0 * t - 1.0, 0.0, 1.0), clamp(3.0 * t - 2.0, 0.0, 1.0));\n"
    "}\n";

int main(int argc, char **argv)
{
    const char *out = "heatmap.png";
    example_args args = {.name = "heatmap", .seed = 1701,
                         .options = (example_option[]){{"--out", NULL, 0, 0, &out, "FILE.png"}, {NULL}}};
    example_parse_args(&args, argc, argv);
    static float grid[SIZE * SIZE];
    brightness(grid, args.seed);
    int hottest = 0;
    float lo = grid[0];
    for (int i = 1; i < SIZE * SIZE; i++) {
        if (grid[i] > grid[hottest]) /* the first of equals, as the tutorial's rank breaks ties */
            hottest = i;
        if (grid[i] < lo)
            lo = grid[i];
    }
    enum { W = SIZE * SCALE, H = SIZE * SCALE };
    static uint8_t pixels[W * H * 4];
    gpuc *gpu;
    gpuc_kernel *k = NULL;
    gpuc_array *picture = NULL;
    if (gpuc_open(&gpu, NULL) != GPUC_OK ||
        gpuc_create_kernel(gpu, HEAT,
                           &(gpuc_kernel_desc){.output = {W, H}, .graphical = true, .constants = {{"scale", SCALE}}},
                           &k) != GPUC_OK ||
        gpuc_run(k,
                 (gpuc_arg[]){gpuc_arg_host_f32(grid, (gpuc_dims){SIZE, SIZE}), gpuc_arg_f32(lo),
                              gpuc_arg_f32(grid[hottest])},
                 3, &picture) != GPUC_OK ||
        gpuc_array_read_pixels(picture, pixels, sizeof pixels, false) != GPUC_OK ||
        gpuc_array_write_png(picture, out) != GPUC_OK) {
        fprintf(stderr, "heatmap: %s\n", gpuc_errmsg(gpu));
        gpuc_close(gpu);
        return 1;
    }
    uint32_t sum = 2166136261u; /* FNV-1a over the pixels */
    for (size_t i = 0; i < sizeof pixels; i++)
        sum = (sum ^ pixels[i]) * 16777619u;
    printf("wrote %s: %d x %d pixels (%s backend)\n", out, W, H, gpuc_get_info(gpu)->backend_name);
    printf("hottest: %g at row %d col %d\n", (double)grid[hottest], hottest / SIZE, hottest % SIZE);
    printf("pixel checksum: %08x\n", sum);
    gpuc_close(gpu);
    return 0;
}
