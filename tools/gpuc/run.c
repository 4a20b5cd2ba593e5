/* run.c - `gpuc run KERNEL [options] ARG...`: reads each argument (.npy file or number; a .png
 * picture is checked to open here and read by gpuc_array_from_png once the device is) before any
 * device is opened, creates the kernel, uploads, runs, reads back, and writes the result as .npy,
 * .png or text. Shapes follow NumPy: a (h, w) file is a 2D argument of w x h cells, and a 2D output
 * X,Y is written as shape (Y, X). */
#include "cli.h"
#include "npy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cli_arg {
    bool is_array;
    npy_array npy;      /* is_array, unless png */
    const char *png;    /* a picture (GPU.js's image argument): a vec4 2D array */
    double number;      /* otherwise */
    float vec[4];       /* a vector "x,y[,z[,w]]" (components > 0) */
    int components;
    bool whole;         /* the number's text is an integer ("3", "-7"), not "3.0" or "1e3" */
    bool as_int;        /* passed as an int scalar */
    gpuc_array *device; /* the uploaded array */
} cli_arg;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* A vector argument "x,y[,z[,w]]" of 2-4 finite numbers, for a vecN (JS Array(N)) parameter. */
static int read_vector(const char *text, const char *what, cli_arg *a)
{
    const char *p = text;
    for (a->components = 0; a->components < 4; a->components++) {
        char *end;
        a->vec[a->components] = (float)strtod(p, &end);
        if (end == p || !isfinite(a->vec[a->components]) || (*end && *end != ','))
            return cli_bad("%s: a vector is 2 to 4 finite numbers separated by commas (\"1,2.5,0\")", what);
        p = end + 1;
        if (!*end)
            break;
    }
    if (a->components++ == 4 || a->components < 2)
        return cli_bad("%s: a vector is 2 to 4 finite numbers separated by commas (\"1,2.5,0\")", what);
    return CLI_OK;
}

/* Reads ARG i: a .npy or .png file, a vector x,y[,z[,w]], else a finite number. */
static int read_arg(const char *text, int i, cli_arg *a)
{
    char what[300];
    snprintf(what, sizeof what, "argument %d \"%s\"", i, text);
    if (ends_with(text, ".npy") || !strcmp(text, "-")) { /* "-": a .npy file on standard input */
        a->is_array = true;
        return npy_read(text, what, &a->npy) ? CLI_BAD_INPUT : CLI_OK;
    }
    if (ends_with(text, ".png")) { /* bad input, exit 2, if it does not even open */
        FILE *f = fopen(text, "rb");
        if (!f)
            return cli_bad("%s: cannot open: %s", what, strerror(errno));
        fclose(f);
        a->is_array = true;
        a->png = text;
        return CLI_OK;
    }
    if (strchr(text, ','))
        return read_vector(text, what, a);
    char *end;
    errno = 0;
    a->number = strtod(text, &end);
    if (end == text || *end || !isfinite(a->number))
        return cli_bad("%s: neither a .npy or .png file nor a finite number", what);
    /* Whole: written as an integer, and within int32 (only such a number may become an int scalar). */
    const char *digits = text + (text[0] == '-' || text[0] == '+');
    a->whole = strspn(digits, "0123456789") == strlen(digits) && a->number >= INT32_MIN && a->number <= INT32_MAX;
    return CLI_OK;
}

/* The i-th comma-separated entry of --arg-types names an int scalar ("int", GPU.js's "Integer"). */
static bool arg_type_is_int(const char *types, int i)
{
    for (; types && i > 0; i--) {
        types = strchr(types, ',');
        if (types)
            types++;
    }
    if (!types)
        return false;
    types += strspn(types, " ");
    size_t len = strcspn(types, ", ");
    return (len == 3 && !strncmp(types, "int", 3)) || (len == 7 && !strncmp(types, "Integer", 7));
}

/* gpuc's shape order (x fastest) from NumPy's (outermost first). */
static gpuc_dims dims_of(const npy_array *n)
{
    if (n->rank == 1)
        return (gpuc_dims){(uint32_t)n->shape[0], 0, 0};
    if (n->rank == 2)
        return (gpuc_dims){(uint32_t)n->shape[1], (uint32_t)n->shape[0], 0};
    return (gpuc_dims){(uint32_t)n->shape[2], (uint32_t)n->shape[1], (uint32_t)n->shape[0]};
}

static int components(gpuc_type t)
{
    return t == GPUC_VEC2 ? 2 : t == GPUC_VEC3 ? 3 : t == GPUC_VEC4 ? 4 : 1;
}

/* The result's NumPy shape: (Z, Y, X) without absent dimensions, then the components of a vecN. */
static int result_shape(gpuc_dims d, gpuc_type t, size_t shape[4])
{
    int rank = 0;
    if (d.z)
        shape[rank++] = d.z;
    if (d.y)
        shape[rank++] = d.y;
    shape[rank++] = d.x;
    if (components(t) > 1)
        shape[rank++] = (size_t)components(t);
    return rank;
}

/* Values as text: one line per row of X cells (a 1D result one cell per line, so that a long one
 * stays readable and line tools can take it), a blank line between Z slices, a vecN cell as its
 * components joined by commas. Floats with %.9g, which reads back to the same float32. */
static void print_values(gpuc_dims d, gpuc_type t, const void *values)
{
    size_t w = d.x, h = d.y ? d.y : 1, depth = d.z ? d.z : 1;
    int c = components(t);
    const float *f = values;
    const int32_t *n = values;
    for (size_t z = 0; z < depth; z++) {
        if (z)
            putchar('\n');
        for (size_t y = 0; y < h; y++) {
            for (size_t x = 0; x < w; x++) {
                size_t cell = (z * h + y) * w + x;
                for (int k = 0; k < c; k++) {
                    if (k)
                        putchar(',');
                    if (t == GPUC_INT)
                        printf("%d", n[cell]);
                    else
                        printf("%.9g", (double)f[cell * (size_t)c + (size_t)k]);
                }
                putchar(x + 1 < w && d.y ? ' ' : '\n');
            }
        }
    }
}

/* Whether gpuc's message says argument i got the wrong kind of scalar. */
static bool scalar_kind_refused(const char *msg, int i)
{
    char at[48];
    snprintf(at, sizeof at, "argument %d (", i);
    return strstr(msg, at) && (strstr(msg, "expected a float scalar") || strstr(msg, "expected an int scalar"));
}

/* Where gpuc's message names an array argument, says which file that was and what NumPy shape it had
 * (the message speaks of gpuc's dimensions). */
static void note_array_arg(const char *msg, const cli_arg *args, int n)
{
    for (int i = 0; i < n; i++) {
        char at[48];
        snprintf(at, sizeof at, "argument %d (", i);
        if (!args[i].is_array || args[i].png || !strstr(msg, at))
            continue;
        const npy_array *a = &args[i].npy;
        fprintf(stderr, "gpuc: note: argument %d is %s data of NumPy shape (", i, a->is_int ? "int32" : "float32");
        for (int d = 0; d < a->rank; d++)
            fprintf(stderr, "%zu%s", a->shape[d], d + 1 < a->rank ? ", " : a->rank == 1 ? "," : "");
        fprintf(stderr, "): a %dD argument\n", a->rank);
    }
}

static void build_args(const cli_arg *in, int n, gpuc_arg *out)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i].is_array       ? gpuc_arg_array(in[i].device)
                 : in[i].components   ? gpuc_arg_vec4(in[i].vec[0], in[i].vec[1], in[i].vec[2], in[i].vec[3])
                 : in[i].as_int       ? gpuc_arg_i32((int32_t)in[i].number)
                                      : gpuc_arg_f32((float)in[i].number);
    for (int i = 0; i < n; i++)
        if (in[i].components)
            out[i].components = in[i].components;
}

/* Runs k; a scalar of the wrong kind (an int parameter given "2", a float one given "2" in a GLSL
 * kernel, which the public API does not tell apart before a run) is switched and tried again: the
 * check comes before any state changes, so a refused run costs nothing. */
static int run_kernel(gpuc *gpu, gpuc_kernel *k, cli_arg *args, int n, gpuc_array **result)
{
    gpuc_arg call[GPUC_MAX_ARGS];
    for (int tries = 0; tries <= n; tries++) {
        build_args(args, n, call);
        gpuc_status st = gpuc_run(k, call, n, result);
        if (st == GPUC_OK)
            return CLI_OK;
        const char *msg = gpuc_errmsg(gpu);
        int i = 0;
        while (i < n && (args[i].is_array || args[i].components || !scalar_kind_refused(msg, i)))
            i++;
        if (st != GPUC_ERROR_TYPE_MISMATCH || i == n) {
            fprintf(stderr, "gpuc: %s\n", msg);
            note_array_arg(msg, args, n);
            return CLI_FAILED;
        }
        if (!args[i].as_int && (args[i].number < INT32_MIN || args[i].number > INT32_MAX))
            return cli_bad("argument %d: %g is outside int32 for the kernel's int parameter", i, args[i].number);
        if (!args[i].as_int && !args[i].whole)
            return cli_bad("argument %d: the kernel's parameter is an int and %g is not a whole number", i,
                           args[i].number);
        args[i].as_int = !args[i].as_int;
    }
    fprintf(stderr, "gpuc: %s\n", gpuc_errmsg(gpu));
    return CLI_FAILED;
}

/* A graphical result as NumPy users hold a picture: uint8 of shape (height, width, 4), the top row
 * first (GPU.js's getPixels(), the rows of the .png --out writes). */
static int write_pixels(const char *path, gpuc *gpu, gpuc_array *result, double *read_ms)
{
    gpuc_dims d = gpuc_array_dims(result);
    size_t shape[3] = {d.y ? d.y : 1, d.x, 4}, bytes = 4 * gpuc_array_cells(result);
    uint8_t *rgba = malloc(bytes);
    if (!rgba) {
        fprintf(stderr, "gpuc: out of memory for %zu result bytes\n", bytes);
        return CLI_FAILED;
    }
    double t0 = cli_now_ms();
    gpuc_status st = gpuc_array_read_pixels(result, rgba, bytes, false);
    *read_ms = cli_now_ms() - t0;
    int rc = CLI_OK;
    if (st != GPUC_OK) {
        fprintf(stderr, "gpuc: reading the result: %s\n", gpuc_errmsg(gpu));
        rc = CLI_FAILED;
    } else {
        rc = npy_write(path, NPY_UINT8, shape, 3, rgba) ? CLI_FAILED : CLI_OK;
    }
    free(rgba);
    return rc;
}

static int write_result(const cli_options *o, gpuc *gpu, gpuc_array *result, double *read_ms)
{
    gpuc_dims d = gpuc_array_dims(result);
    gpuc_type t = gpuc_array_type(result);
    if (o->out_path && ends_with(o->out_path, ".png")) {
        double t0 = cli_now_ms();
        gpuc_status st = gpuc_array_write_png(result, o->out_path);
        *read_ms = cli_now_ms() - t0;
        if (st != GPUC_OK) {
            fprintf(stderr, "gpuc: --out \"%s\": %s\n", o->out_path, gpuc_errmsg(gpu));
            return CLI_FAILED;
        }
        return CLI_OK;
    }
    if (o->out_path && o->desc.graphical && !o->packed_pixels)
        return write_pixels(o->out_path, gpu, result, read_ms);
    size_t count = gpuc_array_values(result);
    void *values = malloc(count * 4);
    if (!values) {
        fprintf(stderr, "gpuc: out of memory for %zu result values\n", count);
        return CLI_FAILED;
    }
    double t0 = cli_now_ms();
    gpuc_status st = t == GPUC_INT ? gpuc_array_read_i32(result, values, count)
                                   : gpuc_array_read_f32(result, values, count);
    *read_ms = cli_now_ms() - t0;
    int rc = CLI_OK;
    if (st != GPUC_OK) {
        fprintf(stderr, "gpuc: reading the result: %s\n", gpuc_errmsg(gpu));
        rc = CLI_FAILED;
    } else if (o->out_path) {
        size_t shape[4];
        int rank = result_shape(d, t, shape);
        rc = npy_write(o->out_path, t == GPUC_INT ? NPY_INT32 : NPY_FLOAT32, shape, rank, values) ? CLI_FAILED
                                                                                                : CLI_OK;
    } else {
        print_values(d, t, values);
    }
    free(values);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    cli_options o;
    int rc = cli_parse(argc, argv, true, &o);
    if (rc != CLI_OK)
        return rc;
    cli_arg args[GPUC_MAX_ARGS];
    memset(args, 0, sizeof args);
    for (int i = 0; i < o.nargs && rc == CLI_OK; i++) {
        rc = read_arg(o.args[i], i, &args[i]);
        /* A first guess at each scalar's kind; run_kernel corrects it from gpuc's answer. */
        args[i].as_int = o.is_js ? arg_type_is_int(o.desc.arg_types, i) : args[i].whole;
        if (rc == CLI_OK && !args[i].is_array && args[i].as_int && !args[i].whole)
            rc = cli_bad("argument %d: --arg-types makes it an int and %s is not a whole number within int32", i,
                         o.args[i]);
    }
    gpuc *gpu = NULL;
    gpuc_kernel *k = NULL;
    gpuc_array *result = NULL;
    double compile_ms = 0, upload_ms = 0, run_ms = 0, read_ms = 0;
    o.desc.pipeline = true; /* the result stays on the device until write_result reads it (timed apart) */
    if (rc == CLI_OK)
        rc = cli_make_kernel(&o, &gpu, &k, &compile_ms);
    if (rc == CLI_OK && gpuc_kernel_arg_count(k) != o.nargs)
        rc = cli_bad("kernel \"%s\" takes %d argument%s, %d given", o.kernel_path, gpuc_kernel_arg_count(k),
                     gpuc_kernel_arg_count(k) == 1 ? "" : "s", o.nargs);
    double t0 = cli_now_ms();
    for (int i = 0; i < o.nargs && rc == CLI_OK; i++) {
        if (!args[i].is_array)
            continue;
        gpuc_dims dims = args[i].png ? (gpuc_dims){0, 0, 0} : dims_of(&args[i].npy);
        gpuc_status st = args[i].png        ? gpuc_array_from_png(gpu, args[i].png, &args[i].device)
                         : args[i].npy.is_int ? gpuc_array_from_i32(gpu, args[i].npy.data, dims, &args[i].device)
                                              : gpuc_array_from_f32(gpu, args[i].npy.data, dims, &args[i].device);
        if (st != GPUC_OK) {
            fprintf(stderr, "gpuc: argument %d \"%s\": %s\n", i, o.args[i], gpuc_errmsg(gpu));
            /* A picture that is corrupt or over a size limit is bad input, as an unreadable .npy is;
             * running out of memory or a GL failure is the device's. */
            bool bad_file = args[i].png && (st == GPUC_ERROR_INVALID_ARGUMENT || st == GPUC_ERROR_LIMIT);
            rc = bad_file ? CLI_BAD_INPUT : CLI_FAILED;
        }
    }
    upload_ms = cli_now_ms() - t0;
    /* --time: the first run also pays the driver's compile of the program (llvmpipe JIT-compiles it at
     * its first dispatch), and the second, for a kernel with loops, gpuc's program specialised to the
     * argument sizes (gpuc_create_kernel): so the kernel runs RUNS_TIMED times, the first two reported
     * apart as compiling, and "run" is the last, the kernel as it runs from then on. */
    enum { RUNS_TIMED = 3 };
    double first_ms[RUNS_TIMED - 1] = {0, 0};
    for (int r = 0; rc == CLI_OK && r < (o.time ? RUNS_TIMED : 1); r++) {
        if (result) /* the previous timed run's result: only the last one is written */
            gpuc_array_free(result);
        result = NULL;
        t0 = cli_now_ms();
        rc = run_kernel(gpu, k, args, o.nargs, &result);
        run_ms = cli_now_ms() - t0;
        if (o.time && r + 1 < RUNS_TIMED)
            first_ms[r] = run_ms;
    }
    if (rc == CLI_OK)
        rc = write_result(&o, gpu, result, &read_ms);
    if (rc == CLI_OK && o.time)
        fprintf(stderr,
                "compile %.3f ms (gpuc makes and links the program)\n"
                "first runs %.3f + %.3f ms (the driver compiles the program at its first run; a kernel with "
                "loops is specialised to the argument sizes at its second)\n"
                "upload %.3f ms\nrun %.3f ms (run %d: the kernel as it runs from then on)\nread-back %.3f ms\n",
                compile_ms, first_ms[0], first_ms[1], upload_ms, run_ms, RUNS_TIMED, read_ms);
    for (int i = 0; i < o.nargs; i++)
        if (args[i].is_array && !args[i].png)
            npy_free(&args[i].npy);
    gpuc_close(gpu); /* frees the kernel and the arrays with it */
    return rc;
}
