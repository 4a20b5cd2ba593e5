/* device_info.c - reads the renderer strings and limits of the current context into gpuc_info. */
#include "device/device_info.h"
#include "internal.h"

#include <glad/gl.h>

#include <stdlib.h>
#include <string.h>

/* Stands in for a string whose copy ran out of memory; never freed. */
static const char no_string[] = "";

static const char *copy_string(const char *s)
{
    char *copy = strdup(s ? s : "");
    return copy ? copy : no_string;
}

static const char *copy_gl_string(GLenum name)
{
    return copy_string((const char *)glGetString(name));
}

static int min_positive(int a, int b)
{
    return a <= 0 ? b : b <= 0 ? a : a < b ? a : b;
}

bool device_has_extension(const char *name)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && !strcmp(e, name))
            return true;
    }
    return false;
}

void device_info_query(gpuc_info *info, const egl_device *dev, gpuc_backend backend)
{
    memset(info, 0, sizeof *info);
    info->renderer = copy_gl_string(GL_RENDERER);
    info->vendor = copy_gl_string(GL_VENDOR);
    info->gl_version = copy_gl_string(GL_VERSION);
    info->glsl_version = copy_gl_string(GL_SHADING_LANGUAGE_VERSION);
    info->device = copy_string(dev->how);
    info->device_index = dev->index;
    bool llvmpipe = strstr(info->renderer, "llvmpipe") != NULL;
    info->software = dev->software || llvmpipe || strstr(info->renderer, "softpipe");

    for (GLuint i = 0; i < 3; i++) {
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &info->max_work_group_count[i]);
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &info->max_work_group_size[i]);
    }
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &info->max_work_group_invocations);
    GLint64 v64 = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v64);
    info->max_storage_block_size = v64;
    v64 = 0;
    glGetInteger64v(GL_MAX_TEXTURE_BUFFER_SIZE, &v64);
    info->max_texture_buffer_size = v64;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &info->max_shared_memory);
    glGetIntegerv(GL_MAX_COMPUTE_IMAGE_UNIFORMS, &info->max_image_units);
    info->backend = backend;
    info->backend_name = backend == GPUC_BACKEND_FRAGMENT ? "fragment" : "compute";
    GLint tex = 0, rb = 0, vp[2] = {0, 0};
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &rb);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
    info->max_target_size = min_positive(min_positive(tex, rb), min_positive(vp[0], vp[1]));
    if (backend == GPUC_BACKEND_FRAGMENT) { /* a fragment shader's arrays are its own image uniforms */
        GLint frag_images = 0;
        glGetIntegerv(GL_MAX_FRAGMENT_IMAGE_UNIFORMS, &frag_images);
        info->max_image_units = min_positive(info->max_image_units, frag_images);
    }
}

static void free_string(const char *s)
{
    if (s && s != no_string)
        free((char *)s);
}

void device_info_free(gpuc_info *info)
{
    free_string(info->renderer);
    free_string(info->vendor);
    free_string(info->gl_version);
    free_string(info->glsl_version);
    free_string(info->device);
    memset(info, 0, sizeof *info);
}

bool gpuc_driver_is_zink(const gpuc *gpu)
{
    return gpu->info.renderer && strncmp(gpu->info.renderer, "zink", 4) == 0;
}
