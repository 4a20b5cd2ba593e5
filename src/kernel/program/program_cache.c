/* program_cache.c - see program_cache.h. */
#include "kernel/program/program_cache.h"
#include "kernel/codegen/codegen.h"
#include "kernel/program/compile_hints.h"
#include "kernel/source/source_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cache's close hook (gpuc_on_close). */
static void program_cache_clear(gpuc *gpu, bool gl)
{
    program_table_clear(gpu, gl);
}

/* One diagnostic of an info log: its source string, line, column (0 when not given) and text. */
typedef struct diagnostic {
    int source, line, column;
    const char *text;
    size_t text_len;
} diagnostic;

/* Parses the first error of an info log. Mesa writes "0:3(10): error: ..." (0-based column),
 * NVIDIA "0(3) : error C0000: ...". Returns false when no line has either form. */
static bool first_error(const char *log, diagnostic *d)
{
    for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        int s, l, c, n = 0;
        size_t len = strcspn(p, "\n");
        if (!strstr(p, "error") || (size_t)(strstr(p, "error") - p) > len)
            continue;
        if (sscanf(p, "%d:%d(%d): %n", &s, &l, &c, &n) == 3 && n > 0) {
            *d = (diagnostic){s, l, c + 1, p + n, len - (size_t)n};
        } else if (sscanf(p, "%d(%d) : %n", &s, &l, &n) == 2 && n > 0) {
            *d = (diagnostic){s, l, 0, p + n, len - (size_t)n};
        } else {
            continue;
        }
        if (d->text_len > 7 && !strncmp(d->text, "error: ", 7)) {
            d->text += 7;
            d->text_len -= 7;
        }
        return true;
    }
    return false;
}

static gpuc_status report_compile_error(gpuc *gpu, const char *log, const char *kernel_name, const char *user_source,
                                        const char *glsl)
{
    diagnostic d;
    if (!first_error(log, &d))
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': GLSL compile failed:\n%s", kernel_name, log);
    int part_line, part = codegen_part_of(d.source, d.line, &part_line);
    char line[256];
    if (part != SOURCE_USER) {
        /* Not the user's line: say so, and quote gpuc's own code the compiler stopped at. */
        codegen_generated_line(glsl, d.line, line, sizeof line);
        const char *what = part == SOURCE_DECLARATIONS ? "the declarations gpuc makes from the kernel's parameters "
                                                         "and constants"
                                                       : "the main() gpuc wraps around the kernel";
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "kernel '%s': GLSL error in gpuc's generated code (%s, its line %d), not in the kernel's "
                         "source: %.*s\n  gpuc | %s\nUsually a name in the source clashes with one gpuc's code "
                         "uses: a #define, or a function or parameter named like a GLSL keyword or a name in the "
                         "line above", kernel_name, what, part_line, (int)d.text_len, d.text, line);
    }
    source_line(user_source, d.line, line, sizeof line);
    /* A GPU.js habit the compiler stopped at: say what to write instead, at the habit, and keep the
     * compiler's words below it. */
    char hint[1024];
    int hint_column = d.column;
    bool hinted = compile_hint(user_source, glsl, d.line, &hint_column, hint, sizeof hint);
    if (hinted)
        d.column = hint_column;
    char where[64];
    if (d.column > 0)
        snprintf(where, sizeof where, "line %d, column %d", d.line, d.column);
    else
        snprintf(where, sizeof where, "line %d", d.line);
    char caret[300] = "";
    if (d.column > 0 && d.column < 256) {
        memset(caret, ' ', (size_t)d.column - 1);
        caret[d.column - 1] = '^';
        caret[d.column] = '\0';
    }
    if (hinted)
        return gpuc_fail(gpu, GPUC_ERROR_COMPILE,
                         "kernel '%s', %s: %s\n%5d | %s\n      | %s\n(the GLSL compiler: %.*s)", kernel_name, where,
                         hint, d.line, line, caret, (int)d.text_len, d.text);
    return gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': GLSL error at %s: %.*s\n%5d | %s\n      | %s", kernel_name,
                     where, (int)d.text_len, d.text, d.line, line, caret);
}

static char *info_log(GLuint object, bool is_program)
{
    GLint len = 0;
    if (is_program)
        glGetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
    else
        glGetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
    char *log = calloc((size_t)len + 1, 1);
    if (log && len > 0) {
        if (is_program)
            glGetProgramInfoLog(object, len, NULL, log);
        else
            glGetShaderInfoLog(object, len, NULL, log);
    }
    return log;
}

/* Compiles one shader stage; on failure reports the error against the user's source. */
static gpuc_status compile_stage(gpuc *gpu, GLenum stage, const char *glsl, const char *kernel_name,
                                 const char *user_source, GLuint *shader_out)
{
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &glsl, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char *log = info_log(shader, false);
        glDeleteShader(shader);
        gpu->gl_debug_error[0] = '\0'; /* a debug context's copy of this error: reported below, not later */
        gpuc_status st = report_compile_error(gpu, log ? log : "(no log)", kernel_name, user_source, glsl);
        free(log);
        return st;
    }
    *shader_out = shader;
    return GPUC_OK;
}

/* A compute program, or (fragment) the fixed vertex shader and the kernel's fragment shader. */
static gpuc_status compile(gpuc *gpu, const char *glsl, bool fragment, const char *kernel_name,
                           const char *user_source, GLuint *program)
{
    GLuint shaders[2] = {0, 0};
    int nshaders = fragment ? 2 : 1;
    gpuc_status st = compile_stage(gpu, fragment ? GL_FRAGMENT_SHADER : GL_COMPUTE_SHADER, glsl, kernel_name,
                                   user_source, &shaders[0]);
    if (st == GPUC_OK && fragment)
        st = compile_stage(gpu, GL_VERTEX_SHADER, codegen_vertex_shader(), "(gpuc's vertex shader)", "", &shaders[1]);
    if (st != GPUC_OK) {
        glDeleteShader(shaders[0]);
        return st;
    }
    GLuint prog = glCreateProgram();
    for (int i = 0; i < nshaders; i++) {
        glAttachShader(prog, shaders[i]);
        glDeleteShader(shaders[i]); /* flagged; freed with the program */
    }
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char *log = info_log(prog, true);
        glDeleteProgram(prog);
        gpu->gl_debug_error[0] = '\0';
        st = gpuc_fail(gpu, GPUC_ERROR_COMPILE, "kernel '%s': GLSL link failed: %s", kernel_name,
                       log ? log : "(no log)");
        free(log);
        return st;
    }
    st = gpuc_check_gl(gpu, "compiling a kernel");
    if (st != GPUC_OK) {
        glDeleteProgram(prog);
        return st;
    }
    *program = prog;
    return GPUC_OK;
}

gpuc_status program_get(gpuc *gpu, const char *glsl, bool fragment, const char *kernel_name,
                        const char *user_source, program_entry **out)
{
    uint64_t hash = program_hash(glsl);
    program_entry *e = program_table_find(gpu, glsl, hash);
    if (e) {
        gpu->stats.program_cache_hits++;
        program_table_acquire(gpu, e);
        *out = e;
        return GPUC_OK;
    }
    gpuc_status st = gpuc_on_close(gpu, program_cache_clear);
    if (st != GPUC_OK)
        return st;
    e = calloc(1, sizeof *e);
    char *copy = strdup(glsl);
    if (!e || !copy) {
        free(e);
        free(copy);
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory caching kernel '%s'", kernel_name);
    }
    st = compile(gpu, glsl, fragment, kernel_name, user_source, &e->program);
    if (st != GPUC_OK) {
        free(e);
        free(copy);
        return st;
    }
    gpu->stats.programs_compiled++;
    e->glsl = copy;
    e->hash = hash;
    if (!program_table_add(gpu, e)) {
        glDeleteProgram(e->program);
        free(e);
        free(copy);
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "out of host memory caching kernel '%s'", kernel_name);
    }
    *out = e;
    return GPUC_OK;
}

void program_put(gpuc *gpu, program_entry *e, bool gl)
{
    if (e)
        program_table_release(gpu, e, gl);
}
