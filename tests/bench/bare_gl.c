/* bare_gl.c - the baseline for gpuc's fixed cost per call: the same GLSL program gpuc generated
 * (gpuc_kernel_glsl), dispatched with plain GL calls in a context of its own, doing per pass only what a
 * dispatch needs (bind input view and output range, set uniforms, dispatch, barrier). The benchmark,
 * like a C oracle, is a measuring tool outside the library, so it may talk to EGL and GL itself. */
#include "bench.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bare_gl {
    EGLDisplay display;
    EGLContext context;
};

bare_gl *bare_gl_open(void)
{
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices || !query_devices(16, devices, &count) || count < 1)
        return NULL;
    bare_gl *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->display = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
    EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    if (!eglInitialize(b->display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API) ||
        (b->context = eglCreateContext(b->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs)) == EGL_NO_CONTEXT) {
        free(b);
        return NULL;
    }
    return b;
}

void bare_gl_close(bare_gl *b)
{
    if (!b)
        return;
    eglMakeCurrent(b->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(b->display, b->context);
    free(b);
}

/* The number after `key` in text (e.g. "gpuc_k < 16u" gives 16), or fallback. */
static int number_after(const char *text, const char *key, int fallback)
{
    const char *p = strstr(text, key);
    return p ? atoi(p + strlen(key)) : fallback;
}

static GLuint compile(const char *glsl)
{
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &glsl, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    GLuint program = 0;
    if (ok) {
        program = glCreateProgram();
        glAttachShader(program, shader);
        glLinkProgram(program);
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (!ok) {
            glDeleteProgram(program);
            program = 0;
        }
    }
    glDeleteShader(shader);
    return program;
}

static GLuint make_buffer(size_t bytes, const float *data)
{
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
    return buffer;
}

static GLuint make_view(GLuint buffer)
{
    GLuint view;
    glGenTextures(1, &view);
    glBindTexture(GL_TEXTURE_BUFFER, view);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer);
    return view;
}

struct bare_gl_passes {
    bare_gl *gl;
    GLuint program, input_buffer, input_view, buffers[2], views[2];
    GLint first, count, size, step_at;
    GLint sizes[2]; /* outputSize and gpuc_grid where they are uniforms (-1 where compiled in or unused) */
    size_t n, groups;
    bool has_array;
    float step;
    int passes;
};

bare_gl_passes *bare_gl_passes_prepare(bare_gl *b, const char *glsl, const char *array_name, const float *input,
                                       size_t n, float step, int passes)
{
    if (!eglMakeCurrent(b->display, EGL_NO_SURFACE, EGL_NO_SURFACE, b->context))
        return NULL;
    bare_gl_passes *s = calloc(1, sizeof *s);
    if (!s || !(s->program = compile(glsl))) {
        free(s);
        return NULL;
    }
    *s = (bare_gl_passes){.gl = b, .program = s->program, .n = n, .has_array = array_name != NULL, .step = step,
                          .passes = passes};
    size_t bytes = (n + 3) / 4 * 16;
    for (int i = 0; i < 2; i++) {
        s->buffers[i] = make_buffer(bytes, NULL);
        s->views[i] = make_view(s->buffers[i]);
    }
    s->input_buffer = make_buffer(bytes, NULL);
    s->input_view = make_view(s->input_buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->input_buffer);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * 4), input);
    /* A kernel storing texels computes several cells per step (main_texels in glsl/compute_main.glsl). */
    size_t per_group = (size_t)number_after(glsl, "local_size_x = ", 64) * (size_t)number_after(glsl, "gpuc_k < ", 1) *
                       (size_t)number_after(glsl, "local_cell = gpuc_lane * ", 1);
    s->groups = (n + per_group - 1) / per_group;
    char size_name[96];
    snprintf(size_name, sizeof size_name, "gpuc_size_%s", array_name ? array_name : "");
    s->first = glGetUniformLocation(s->program, "gpuc_first_cell");
    s->count = glGetUniformLocation(s->program, "gpuc_cell_count");
    s->size = glGetUniformLocation(s->program, size_name);
    s->step_at = glGetUniformLocation(s->program, "step");
    s->sizes[0] = glGetUniformLocation(s->program, "outputSize");
    s->sizes[1] = glGetUniformLocation(s->program, "gpuc_grid");
    return s;
}

int bare_gl_passes_run(void *vs, float *out)
{
    bare_gl_passes *s = vs;
    if (!eglMakeCurrent(s->gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, s->gl->context))
        return -1;
    glUseProgram(s->program);
    GLuint from_view = s->input_view;
    int to = 0;
    for (int p = 0; p < s->passes; p++) {
        if (s->has_array)
            glBindImageTexture(0, from_view, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
        glUniform3i(s->size, (GLint)s->n, 1, 1);
        for (int i = 0; i < 2; i++)
            if (s->sizes[i] >= 0)
                glUniform3i(s->sizes[i], (GLint)s->n, 1, 1);
        glUniform1f(s->step_at, s->step);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, s->buffers[to], 0, (GLsizeiptr)((s->n + 3) / 4 * 16));
        glUniform1ui(s->first, 0);
        glUniform1ui(s->count, (GLuint)s->n);
        glDispatchCompute((GLuint)s->groups, 1, 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                        GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        from_view = s->views[to];
        to = 1 - to;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, s->buffers[1 - to]);
    const void *mapped = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(s->n * 4), GL_MAP_READ_BIT);
    if (mapped) {
        memcpy(out, mapped, s->n * 4);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    return mapped ? 0 : -1;
}

void bare_gl_passes_release(bare_gl_passes *s)
{
    if (!s || !eglMakeCurrent(s->gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, s->gl->context)) {
        free(s);
        return;
    }
    GLuint textures[3] = {s->views[0], s->views[1], s->input_view};
    glDeleteTextures(3, textures);
    glDeleteBuffers(2, s->buffers);
    glDeleteBuffers(1, &s->input_buffer);
    glDeleteProgram(s->program);
    free(s);
}
