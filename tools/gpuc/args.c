/* args.c - the options of `gpuc run` and `gpuc glsl`: each is checked as it is read, and a bad one
 * stops the program with a message naming it (exit 2) before any device is opened. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpuc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_BAD_INPUT;
}

/* A whole number in [1, max] with nothing after it. */
static bool parse_count(const char *text, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max)
        return false;
    *out = v;
    return true;
}

/* --output X[,Y[,Z]]: each size a whole number >= 1. */
static int parse_output(const char *text, gpuc_dims *dims)
{
    uint32_t v[3] = {0, 0, 0};
    const char *p = text;
    for (int i = 0; i < 3; i++) {
        char part[32];
        size_t len = strcspn(p, ",");
        long n;
        if (len == 0 || len >= sizeof part)
            return cli_bad("--output \"%s\": expected X[,Y[,Z]], each a whole number >= 1", text);
        memcpy(part, p, len);
        part[len] = '\0';
        if (!parse_count(part, INT32_MAX, &n))
            return cli_bad("--output \"%s\": \"%s\" is not a whole number >= 1", text, part);
        v[i] = (uint32_t)n;
        p += len;
        if (!*p)
            break;
        if (i == 2)
            return cli_bad("--output \"%s\": at most three sizes (X,Y,Z)", text);
        p++;
    }
    *dims = (gpuc_dims){v[0], v[1], v[2]};
    return CLI_OK;
}

/* --constant NAME=VALUE: VALUE a finite number (a whole one is an int constant, as gpuc infers), or
 * true / false (a Boolean constant). */
static int parse_constant(char *text, cli_options *o)
{
    char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return cli_bad("--constant \"%s\": expected NAME=VALUE", text);
    size_t name_len = (size_t)(eq - text);
    if (strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") < name_len ||
        (text[0] >= '0' && text[0] <= '9'))
        return cli_bad("--constant \"%s\": \"%.*s\" is not a name (letters, digits and _, not first a digit)", text,
                       (int)name_len, text);
    if (o->nconstants >= GPUC_MAX_CONSTANTS)
        return cli_bad("--constant \"%s\": at most %d constants", text, GPUC_MAX_CONSTANTS);
    bool boolean = !strcmp(eq + 1, "true") || !strcmp(eq + 1, "false");
    char *end;
    double value = boolean ? (eq[1] == 't') : strtod(eq + 1, &end);
    if (!boolean && (end == eq + 1 || *end || !isfinite(value)))
        return cli_bad("--constant \"%s\": \"%s\" is neither a finite number nor true or false", text, eq + 1);
    /* The name is cut out of argv in place (argv's strings are the program's to change): it lives as
     * long as the program and needs no copy. */
    *eq = '\0';
    o->desc.constants[o->nconstants++] =
        (gpuc_constant){.name = text, .value = value, .type = boolean ? GPUC_BOOL : GPUC_TYPE_NONE};
    return CLI_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* The value of option argv[*i] (either "--opt=value" or "--opt value"), or NULL when it has none. */
static char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    if (argv[*i][len] == '=')
        return argv[*i] + len + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static bool is_option(const char *arg, const char *name)
{
    size_t len = strlen(name);
    return !strncmp(arg, name, len) && (arg[len] == '\0' || arg[len] == '=');
}

int cli_parse(int argc, char **argv, bool with_run, cli_options *o)
{
    memset(o, 0, sizeof *o);
    bool have_output = false, positional_only = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        /* A negative number is an argument, not an option ("-1.5"); "--" ends the options. */
        bool option = !positional_only && a[0] == '-' && a[1] == '-';
        if (option && !a[2]) {
            positional_only = true;
            continue;
        }
        if (!option) {
            if (!o->kernel_path)
                o->kernel_path = a;
            else if (!with_run)
                return cli_bad("glsl: unexpected argument \"%s\" (glsl takes the kernel file only)", a);
            else if (o->nargs >= GPUC_MAX_ARGS)
                return cli_bad("argument \"%s\": a kernel takes at most %d arguments", a, GPUC_MAX_ARGS);
            else
                o->args[o->nargs++] = a;
            continue;
        }
        static const char *const valued[] = {"--output", "--constant", "--arg-types", "--loop-max", "--backend",
                                             "--device", "--out", "--max-image-pixels"};
        const char *name = NULL;
        for (size_t n = 0; n < sizeof valued / sizeof valued[0]; n++)
            if (is_option(a, valued[n]))
                name = valued[n];
        if (name && !with_run && (!strcmp(name, "--out") || !strcmp(name, "--max-image-pixels")))
            return cli_bad("glsl: unknown option %s (see gpuc glsl --help)", a);
        if (name) {
            char *v = option_value(argc, argv, &i, name);
            if (!v)
                return cli_bad("%s needs a value (see gpuc %s --help)", name, with_run ? "run" : "glsl");
            int st = CLI_OK;
            if (!strcmp(name, "--output")) {
                st = parse_output(v, &o->desc.output);
                have_output = true;
            } else if (!strcmp(name, "--constant")) {
                st = parse_constant(v, o);
            } else if (!strcmp(name, "--arg-types")) {
                if (!*v)
                    return cli_bad("--arg-types: empty (give the types, e.g. \"float[],int\")");
                o->desc.arg_types = v;
            } else if (!strcmp(name, "--loop-max")) {
                long n;
                if (!parse_count(v, INT_MAX, &n))
                    return cli_bad("--loop-max \"%s\": expected a whole number >= 1", v);
                o->desc.loop_max_iterations = (int)n;
            } else if (!strcmp(name, "--backend")) {
                if (!strcmp(v, "compute"))
                    o->open.backend = GPUC_BACKEND_COMPUTE;
                else if (!strcmp(v, "fragment"))
                    o->open.backend = GPUC_BACKEND_FRAGMENT;
                else
                    return cli_bad("--backend \"%s\": expected compute or fragment", v);
            } else if (!strcmp(name, "--max-image-pixels")) {
                long n;
                if (!strcmp(v, "none"))
                    o->open.max_image_pixels = GPUC_NO_IMAGE_PIXEL_LIMIT;
                else if (parse_count(v, LONG_MAX, &n))
                    o->open.max_image_pixels = n;
                else
                    return cli_bad("--max-image-pixels \"%s\": expected a whole number >= 1 or none", v);
            } else if (!strcmp(name, "--device")) {
                if (!*v)
                    return cli_bad("--device: empty (auto, gpu, cpu, llvmpipe or an EGL device index)");
                o->open.device = v;
            } else {
                if (!strcmp(v, "-") && isatty(STDOUT_FILENO))
                    return cli_bad("--out -: standard output is a terminal, and the .npy result is binary "
                                   "(redirect it to a file or a pipe, or leave --out out to print the values)");
                if (strcmp(v, "-") && !ends_with(v, ".npy") && !ends_with(v, ".png"))
                    return cli_bad("--out \"%s\": the file must end in .npy or .png (or be - for .npy on standard "
                                   "output)", v);
                o->out_path = v;
            }
            if (st != CLI_OK)
                return st;
        } else if (!strcmp(a, "--graphical")) {
            o->desc.graphical = true;
        } else if (!strcmp(a, "--precise-math")) {
            o->desc.precise_math = true;
        } else if (with_run && !strcmp(a, "--time")) {
            o->time = true;
        } else if (with_run && !strcmp(a, "--packed-pixels")) {
            o->packed_pixels = true;
        } else {
            return cli_bad("%s: unknown option %s (see gpuc %s --help)", with_run ? "run" : "glsl", a,
                           with_run ? "run" : "glsl");
        }
    }
    const char *cmd = with_run ? "run" : "glsl";
    if (!o->kernel_path)
        return cli_bad("%s: no kernel file given (see gpuc %s --help)", cmd, cmd);
    if (ends_with(o->kernel_path, ".js"))
        o->is_js = true;
    else if (!ends_with(o->kernel_path, ".glsl"))
        return cli_bad("kernel \"%s\": the file must end in .js (GPU.js JavaScript) or .glsl (gpuc's GLSL kernel)",
                       o->kernel_path);
    if (!have_output)
        return cli_bad("%s: --output X[,Y[,Z]] is required (the kernel's output size)", cmd);
    if (o->desc.arg_types && !o->is_js)
        return cli_bad("--arg-types: only for .js kernels (a GLSL kernel's parameters have types)");
    if (o->packed_pixels && !o->desc.graphical)
        return cli_bad("--packed-pixels: only for a --graphical kernel (its pixels as packed int32 cells)");
    int stdin_args = 0;
    for (int i = 0; i < o->nargs; i++)
        if (!strcmp(o->args[i], "-") && ++stdin_args > 1)
            return cli_bad("argument %d \"-\": only one argument may be read from standard input", i);
    if (o->out_path && ends_with(o->out_path, ".png") && !o->desc.graphical)
        return cli_bad("--out \"%s\": a .png needs a --graphical kernel (use .npy for values)", o->out_path);
    return CLI_OK;
}
