/* kernel_args.c - see kernel_args.h. */
#include "kernel/kernel_args.h"

#include <stdio.h>

bool kernel_reads_floats_as_vec4(const kernel_param *p, gpuc_type type, gpuc_dims dims)
{
    return p->type == GPUC_VEC4 && p->rank == 1 && type == GPUC_FLOAT && gpuc_dims_rank(dims) == 1;
}

gpuc_type kernel_arg_type(const kernel_param *p, const gpuc_arg *a)
{
    if (a->kind == GPUC_ARG_ARRAY)
        return a->array->type;
    if (a->kind == GPUC_ARG_HOST_I32)
        return GPUC_INT;
    return p->type == GPUC_VEC4 && p->rank == 1 ? GPUC_FLOAT : p->type;
}

void kernel_locate_uniforms(gpuc_kernel *k)
{
    k->first_cell_location = glGetUniformLocation(k->program, "gpuc_first_cell");
    k->cell_count_location = glGetUniformLocation(k->program, "gpuc_cell_count");
    k->row_width_location = glGetUniformLocation(k->program, "gpuc_row_width");
    k->cell_end_location = glGetUniformLocation(k->program, "gpuc_cell_end");
    k->output_size_location = glGetUniformLocation(k->program, "outputSize"); /* -1 when compiled in */
    k->grid_location = glGetUniformLocation(k->program, "gpuc_grid");
    int unit = codegen_first_input_binding(k->buffer_reads, k->fragment, kernel_loop_status(k), k->nmaps);
    for (int i = 0; i < k->sig.nparams; i++) {
        const kernel_param *p = &k->sig.params[i];
        char name[KERNEL_NAME_MAX + 16];
        snprintf(name, sizeof name, p->rank ? "gpuc_size_%s" : "%s", p->name);
        /* -1 when the compiler dropped an unused uniform; glUniform* ignores location -1. */
        k->param_location[i] = glGetUniformLocation(k->program, name);
        k->image_unit[i] = p->rank ? unit++ : -1;
    }
}
