/* call_overhead.c - the fixed cost of one gpuc_run_to against a bare GL dispatch of the same program in
 * the same context: N calls of a one-cell kernel, either through gpuc (mode 1) or as the plain GL calls
 * one dispatch needs (mode 2; bindings and uniforms read back from what gpuc set). Mode 0 makes no calls.
 * scripts/call-overhead.sh runs it under callgrind, which counts instructions: repeatable on a busy
 * machine, unlike a clock. A measuring tool: it talks to GL itself, as the C oracles stand outside gpuc. */
#include <gpuc.h>
#include <glad/gl.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gpuc-call-overhead MODE(0 none, 1 gpuc, 2 bare GL) CALLS\n");
        return 2;
    }
    int mode = atoi(argv[1]), calls = atoi(argv[2]);
    gpuc *gpu;
    gpuc_kernel *k;
    gpuc_array *a, *b;
    float one = 1;
    if (gpuc_open(&gpu, NULL) != GPUC_OK ||
        gpuc_create_kernel(gpu, "float addStep(float a[], float step) { return a[thread.x] + step; }",
                           &(gpuc_kernel_desc){.output = {1}, .pipeline = true}, &k) != GPUC_OK ||
        gpuc_array_from_f32(gpu, &one, (gpuc_dims){1}, &a) != GPUC_OK ||
        gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){1}, &b) != GPUC_OK) {
        fprintf(stderr, "gpuc: %s\n", gpuc_errmsg(gpu));
        return 1;
    }
    gpuc_arg args[2] = {gpuc_arg_array(a), gpuc_arg_f32(0.5f)};
    for (int i = 0; i < 10; i++) /* compile, JIT, and leave gpuc's bindings in place */
        gpuc_run_to(k, args, 2, b);
    GLint program, image, buffer;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 0, &image);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &buffer);
    GLint first = glGetUniformLocation((GLuint)program, "gpuc_first_cell");
    GLint count = glGetUniformLocation((GLuint)program, "gpuc_cell_count");
    GLint size = glGetUniformLocation((GLuint)program, "gpuc_size_a");
    GLint step = glGetUniformLocation((GLuint)program, "step");
    glFinish();
    for (int i = 0; i < calls && mode == 1; i++)
        gpuc_run_to(k, args, 2, b);
    for (int i = 0; i < calls && mode == 2; i++) {
        glBindImageTexture(0, (GLuint)image, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
        glUniform3i(size, 1, 1, 1);
        glUniform1f(step, 0.5f);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, (GLuint)buffer, 0, 16); /* a whole texel, as gpuc binds */
        glUniform1ui(first, 0);
        glUniform1ui(count, 1);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                        GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    glFinish();
    float out;
    gpuc_array_read_f32(b, &out, 1);
    gpuc_close(gpu);
    return out == 1.5f ? 0 : 1;
}
