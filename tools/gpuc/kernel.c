/* kernel.c - from a kernel file to a compiled kernel, shared by `run` and `glsl`: read the file,
 * open a context with the chosen device and backend, create the kernel (.js or .glsl). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double cli_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The whole file as a string (caller frees), or NULL after printing why. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_bad("kernel \"%s\": %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0, got;
    char *text = malloc(cap);
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger)
                free(text);
            text = bigger;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        cli_bad("kernel \"%s\": cannot read it", path);
        return NULL;
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        free(text);
        cli_bad("kernel \"%s\": holds a NUL byte (not a text file)", path);
        return NULL;
    }
    return text;
}

int cli_make_kernel(const cli_options *o, gpuc **gpu, gpuc_kernel **k, double *compile_ms)
{
    char *source = read_text(o->kernel_path);
    if (!source)
        return CLI_BAD_INPUT;
    int rc = cli_open(&o->open, gpu);
    if (rc != CLI_OK) {
        free(source);
        return rc;
    }
    double t0 = cli_now_ms();
    /* A .js kernel is read again by the library, which names an anonymous function by the file (the
     * text read above checked, before any device, that the file is there and is text). */
    gpuc_status st = o->is_js ? gpuc_create_kernel_js_file(*gpu, o->kernel_path, &o->desc, k)
                              : gpuc_create_kernel(*gpu, source, &o->desc, k);
    *compile_ms = cli_now_ms() - t0;
    free(source);
    if (st != GPUC_OK) {
        fprintf(stderr, "gpuc: kernel \"%s\": %s\n", o->kernel_path, gpuc_errmsg(*gpu));
        return CLI_FAILED;
    }
    return CLI_OK;
}
