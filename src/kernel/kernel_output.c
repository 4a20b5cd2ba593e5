/* kernel_output.c - a kernel's output size: whether it fits the arrays a run makes (at creation and
 * for each new size), GPU.js's dynamicOutput (gpuc_kernel_set_output changes a .dynamic_output kernel's
 * output size between runs: its program reads the size from uniforms, so nothing compiles), and
 * gpuc_kernel_output, the size now. */
#include "kernel/kernel.h"

#include <stdio.h>

gpuc_status gpuc_kernel_set_output(gpuc_kernel *handle, gpuc_dims output)
{
    gpuc_kernel *k;
    gpuc_status st = kernel_enter(handle, "gpuc_kernel_set_output", &k);
    if (st != GPUC_OK)
        return st;
    if (!k->dynamic_output)
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_kernel_set_output: kernel '%s' was created without .dynamic_output, so its output "
                         "size is compiled in (create it with .dynamic_output = true, GPU.js's dynamicOutput)",
                         k->name);
    char what[KERNEL_NAME_MAX + 48];
    snprintf(what, sizeof what, "gpuc_kernel_set_output: kernel '%s'", k->name);
    size_t cells;
    int rank;
    st = gpuc_dims_check(k->gpu, output, what, &cells, &rank);
    if (st != GPUC_OK)
        return st;
    /* main() finds thread.x/y/z with code written for the first size's number of dimensions. */
    if (rank != gpuc_dims_rank(k->output))
        return gpuc_fail(k->gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "%s: the new size {%u, %u, %u} is %dD, but the kernel was created %dD; a dynamic output "
                         "keeps its number of dimensions", what, output.x, output.y, output.z, rank,
                         gpuc_dims_rank(k->output));
    /* Every run makes arrays of this size: refuse now a size no array can have (as a run would). */
    st = kernel_output_fits(k, output, cells, what);
    if (st != GPUC_OK)
        return st;
    k->output = k->grid = output;
    k->cells = k->grid_cells = cells;
    if (k->fragment) {
        int width = k->row_width, rows = k->tile_rows;
        fragment_layout(k);
        if (k->targets[0] && (width != k->row_width || rows != k->tile_rows))
            fragment_targets_free(k); /* made again, of the new size, at the next run */
    }
    return GPUC_OK;
}

gpuc_status kernel_output_fits(gpuc_kernel *k, gpuc_dims size, size_t cells, const char *what)
{
    int64_t most = k->gpu->info.max_texture_buffer_size;
    for (int i = 0; most > 0 && i <= k->nmaps; i++) {
        gpuc_type type = i == 0 ? k->result_type : k->maps[i - 1].type;
        uint64_t texels = ((uint64_t)cells * (uint64_t)gpuc_type_components(type) + 3) / 4;
        if (texels <= (uint64_t)most)
            continue;
        char output[KERNEL_NAME_MAX + 32];
        if (i == 0)
            snprintf(output, sizeof output, "its output");
        else
            snprintf(output, sizeof output, "its map output \"%s\"", k->map_names[i - 1]);
        return gpuc_fail(k->gpu, GPUC_ERROR_LIMIT,
                         "%s: %s of {%u, %u, %u} %s cells needs %llu texels of 4 values; the device's arrays hold at "
                         "most %lld (GL_MAX_TEXTURE_BUFFER_SIZE: %lld floats), and every output is an array",
                         what, output, size.x, size.y, size.z, gpuc_type_name(type), (unsigned long long)texels,
                         (long long)most, (long long)most * 4);
    }
    return GPUC_OK;
}

gpuc_dims gpuc_kernel_output(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_output", &k) == GPUC_OK ? k->output : (gpuc_dims){0, 0, 0};
}
