/* kernel_output.c - GPU.js's dynamicOutput: gpuc_kernel_set_output changes a .dynamic_output kernel's
 * output size between runs (its program reads the size from uniforms, so nothing compiles), and
 * gpuc_kernel_output tells the size now. */
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
    int components = gpuc_type_components(k->result_type);
    for (int i = 0; i < k->nmaps; i++)
        if (gpuc_type_components(k->maps[i].type) > components)
            components = gpuc_type_components(k->maps[i].type);
    uint64_t texels = ((uint64_t)cells * (uint64_t)components + 3) / 4;
    int64_t most = k->gpu->info.max_texture_buffer_size;
    if (most > 0 && texels > (uint64_t)most)
        return gpuc_fail(k->gpu, GPUC_ERROR_LIMIT,
                         "%s: an output of {%u, %u, %u} %s cells needs %llu texels; the device's arrays hold at most "
                         "%lld (GL_MAX_TEXTURE_BUFFER_SIZE)", what, output.x, output.y, output.z,
                         gpuc_type_name(k->result_type), (unsigned long long)texels, (long long)most);
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

gpuc_dims gpuc_kernel_output(const gpuc_kernel *handle)
{
    gpuc_kernel *k;
    return kernel_open(handle, "gpuc_kernel_output", &k) == GPUC_OK ? k->output : (gpuc_dims){0, 0, 0};
}
