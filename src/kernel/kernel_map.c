/* kernel_map.c - see kernel_map.h: reading desc->map into the kernel (kernel_map_wrap.c rewrites the
 * source). */
#include "kernel/kernel_map.h"
#include "kernel/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPU.js's array form createKernelMap([f, g], ...) names its outputs 0, 1, ...: such names are
 * accepted too (names never reach the GLSL). */
static bool is_index_name(const char *s)
{
    if (!s || !*s || strlen(s) > 2)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

gpuc_status kernel_map_resolve(gpuc_kernel *k, const char *mask, const gpuc_kernel_desc *desc)
{
    gpuc *gpu = k->gpu;
    int n = 0;
    for (; n < GPUC_MAX_MAP_OUTPUTS && desc->map[n].name; n++) {
        const gpuc_map_output *m = &desc->map[n];
        if ((!source_valid_identifier(m->name) && !is_index_name(m->name)) || !strcmp(m->name, "result"))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': map output %d name \"%s\" is not usable (a GLSL identifier other than "
                             "\"result\", the kernel's own result, or an index 0-99)", k->name, n, m->name);
        for (int j = 0; j < n; j++)
            if (!strcmp(k->map_names[j], m->name))
                return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                                 "kernel '%s': map output name \"%s\" is given twice; each output needs its own "
                                 "name", k->name, m->name);
        gpuc_type type;
        if (m->function && strlen(m->function) >= sizeof k->maps[n].function)
            return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "kernel '%s': map output \"%s\" keeps function `%.40s...`, whose "
                             "name is longer than %d characters", k->name, m->name, m->function,
                             (int)sizeof k->maps[n].function - 1);
        if (!m->function || !strcmp(m->function, k->sig.name) || !source_find_function(mask, m->function, &type))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': map output \"%s\" keeps function `%s`, which is not a helper defined in "
                             "the source returning float, int or vecN", k->name, m->name,
                             m->function ? m->function : "(NULL)");
        snprintf(k->map_names[n], sizeof k->map_names[n], "%s", m->name);
        snprintf(k->maps[n].function, sizeof k->maps[n].function, "%s", m->function);
        k->maps[n].type = type;
    }
    if (n && k->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': a scatter kernel cannot have map outputs",
                         k->name);
    k->nmaps = n;
    return GPUC_OK;
}
