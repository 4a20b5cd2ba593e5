/* device_profile.c - the one place that keys the kernel layer's choices to what the driver is: a
 * software rasteriser gets the choices measured fastest on llvmpipe, anything else the GL-standard
 * ones (gpuc.h, gpuc_device_profile, says what each is). */
#include "device/device_profile.h"
#include "device/device_info.h"

#include <glad/gl.h>

#include <stdlib.h>
#include <string.h>

gpuc_status device_profile_parse(gpuc *gpu, gpuc_device_profile asked, gpuc_device_profile *out)
{
    if (asked == GPUC_PROFILE_SOFTWARE || asked == GPUC_PROFILE_HARDWARE) {
        *out = asked;
        return GPUC_OK;
    }
    if (asked != GPUC_PROFILE_AUTO)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_options.device_profile %d is not a gpuc_device_profile", (int)asked);
    const char *env = getenv("GPUC_DEVICE_PROFILE");
    if (!env || !*env || !strcmp(env, "auto"))
        *out = GPUC_PROFILE_AUTO;
    else if (!strcmp(env, "software"))
        *out = GPUC_PROFILE_SOFTWARE;
    else if (!strcmp(env, "hardware"))
        *out = GPUC_PROFILE_HARDWARE;
    else
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "GPUC_DEVICE_PROFILE \"%s\" is not a device profile: use auto, software or hardware", env);
    return GPUC_OK;
}

/* Work groups of 256 on hardware (8 warps or 4 wavefronts: the common choice), within the device's
 * limits (GL guarantees 1024). */
static int hardware_local_size(const gpuc_info *info)
{
    int size = 256;
    if (info->max_work_group_size[0] > 0 && info->max_work_group_size[0] < size)
        size = info->max_work_group_size[0];
    if (info->max_work_group_invocations > 0 && info->max_work_group_invocations < size)
        size = info->max_work_group_invocations;
    return size;
}

/* Storage buffers one program may bind: its stage's blocks, within the binding points. */
static int storage_blocks(gpuc_backend backend)
{
    GLint blocks = 0, bindings = 0;
    glGetIntegerv(backend == GPUC_BACKEND_FRAGMENT ? GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS
                                                   : GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
    return blocks < bindings ? blocks : bindings;
}

static int uniform_components(gpuc_backend backend)
{
    GLint components = 0;
    glGetIntegerv(backend == GPUC_BACKEND_FRAGMENT ? GL_MAX_FRAGMENT_UNIFORM_COMPONENTS
                                                   : GL_MAX_COMPUTE_UNIFORM_COMPONENTS, &components);
    return components;
}

void device_profile_choose(gpuc *gpu, gpuc_device_profile asked)
{
    gpuc_info *info = &gpu->info;
    bool llvmpipe = strstr(info->renderer, "llvmpipe") != NULL; /* zink on lavapipe names it too */
    gpuc_device_profile kind = asked != GPUC_PROFILE_AUTO ? asked
                               : info->software            ? GPUC_PROFILE_SOFTWARE
                                                           : GPUC_PROFILE_HARDWARE;
    info->device_profile = kind;
    /* gallivm's loop limiter: llvmpipe's own, and zink's on lavapipe (the same code underneath). The
     * budget follows what the driver is, never the profile asked for: it is a limit of correctness (the
     * driver cuts longer loops silently), and a forced profile only changes how programs are shaped. */
    info->loop_budget = llvmpipe ? LLVMPIPE_LOOP_BUDGET : 0;
    info->device_profile_name = kind == GPUC_PROFILE_SOFTWARE ? "software" : "hardware";
    if (kind == GPUC_PROFILE_HARDWARE) {
        gpu->device_profile = (device_profile){.image_reads = false, .texel_stores = false, .store_pairs = false,
                                               .most_steps = 1, .most_steps_with_loops = 1,
                                               .local_size = hardware_local_size(info),
                                               .max_storage_blocks = storage_blocks(info->backend),
                                               .max_uniform_components = uniform_components(info->backend)};
        return;
    }
    gpu->device_profile = (device_profile){
        .image_reads = true, .texel_stores = true,
        .store_pairs = llvmpipe && device_has_extension("GL_ARB_gpu_shader_int64"),
        .most_steps = 8, .most_steps_with_loops = 16, .jam_cells = 8, .local_size = 64,
        .scatter_full_length = true,
        .max_storage_blocks = storage_blocks(info->backend),
        .max_uniform_components = uniform_components(info->backend)};
}
