/* topk-3-brightest - Top-K Selection, task 3: the eight brightest cells of a 2D image.
 *
 * Demonstrates 2D kernels: the rank kernel has output [size, size] (thread.x is the column, thread.y
 * the row) and reads the image as image[y][x]; ties go to the lower flat index y*size + x. A picker
 * kernel with output [8] returns the flat index of the cell whose rank is thread.x.
 *
 * llvmpipe stops an invocation's loops after 65,535 iterations, so the rank kernel scans a band of
 * whole rows per pass (at most EXAMPLE_SLICE cells; the whole 64 x 64 image by default) and the
 * picker a slice of flat indices (row i / size, column i % size); run_in_slices adds up the passes. */
#include "example_util.h"
#include "tutorial_data.h"

#include <stdio.h>
#include <stdlib.h>

enum { TOP = 8 };

static const char *RANK =
    "float rank(float image[][], float ranked[][], int offset) {\n"
    "    float mine = image[thread.y][thread.x];\n"
    "    int me = thread.y * constants.size + thread.x;\n"
    "    int beaten = 0;\n"
    "    for (int r = 0; r < constants.rows; r++) {\n"
    "        int y = offset + r;\n"
    "        for (int x = 0; x < constants.size; x++) {\n"
    "            float other = image[y][x];\n"
    "            int i = y * constants.size + x;\n"
    "            if (y < constants.size && (other > mine || (other == mine && i < me))) beaten++;\n"
    "        }\n"
    "    }\n"
    "    return ranked[thread.y][thread.x] + float(beaten);\n"
    "}\n";

static const char *PICK =
    "float pick(float ranks[][], float found[], int offset) {\n"
    "    int index = 0;\n"
    "    for (int j = 0; j < constants.slice; j++) {\n"
    "        int i = offset + j;\n"
    "        float r = ranks[i / constants.size][i % constants.size];\n"
    "        if (i < constants.cells && r == float(thread.x)) index = i;\n"
    "    }\n"
    "    return found[thread.x] + float(index);\n"
    "}\n";

int main(int argc, char **argv)
{
    example_args args = {.name = "topk-3-brightest", .seed = 1701, .n = 64, .n_min = 3, .n_max = 256};
    example_parse_args(&args, argc, argv);
    const long size = args.n, cells = size * size;
    const long rows = EXAMPLE_SLICE / size < size ? EXAMPLE_SLICE / size : size;
    const long slice = cells < EXAMPLE_SLICE ? cells : EXAMPLE_SLICE;
    float *image = malloc((size_t)cells * sizeof *image), best[TOP];
    if (!image)
        return 1;
    gen_brightness(image, (size_t)size, args.seed);

    gpuc *gpu = example_open();
    gpuc_kernel *rank, *pick;
    gpuc_array *image_dev, *ranks, *found;
    const gpuc_dims grid = {(uint32_t)size, (uint32_t)size};
    CHECK(gpu, gpuc_create_kernel(gpu, RANK, &(gpuc_kernel_desc){
        .output = grid, .constants = {{"size", size}, {"rows", rows}}, .pipeline = true}, &rank));
    CHECK(gpu, gpuc_create_kernel(gpu, PICK, &(gpuc_kernel_desc){
        .output = {TOP}, .constants = {{"size", size}, {"cells", cells}, {"slice", slice}}, .pipeline = true}, &pick));
    CHECK(gpu, gpuc_array_from_f32(gpu, image, grid, &image_dev));
    CHECK(gpu, run_in_slices(gpu, rank, (gpuc_arg[]){gpuc_arg_array(image_dev)}, 1, grid, size, rows, &ranks));
    CHECK(gpu, run_in_slices(gpu, pick, (gpuc_arg[]){gpuc_arg_array(ranks)}, 1, (gpuc_dims){TOP},
                             cells, slice, &found));
    CHECK(gpu, gpuc_array_read_f32(found, best, TOP));
    long first = (long)best[0];
    printf("brightest: %.0f at row %ld col %ld\n", image[first], first / size, first % size);
    print_int_list("all eight (flat indices): ", best, TOP);

    gpuc_close(gpu); /* releases the kernels and arrays too */
    free(image);
    return 0;
}
