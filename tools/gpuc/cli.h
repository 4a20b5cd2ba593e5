/* cli.h - what the gpuc program's files share: exit codes, the options of `run` and `glsl`, and the
 * commands. The program uses only the public API (include/gpuc.h), as any user's program would. */
#ifndef GPUC_CLI_H
#define GPUC_CLI_H

#include <gpuc.h>

#include <stdbool.h>
#include <stdio.h>

/* Exit codes: 0 done, 1 the device or the kernel failed (gpuc's message), 2 bad input (the message
 * names the argument or option). */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_BAD_INPUT = 2 };

/* Options of `gpuc run` and `gpuc glsl`. */
typedef struct cli_options {
    const char *kernel_path;
    bool is_js;
    gpuc_kernel_desc desc; /* output, constants, arg_types, loop_max_iterations, graphical, precise_math */
    int nconstants;
    gpuc_options open;     /* device, backend, max_image_pixels */
    const char *out_path;  /* run: --out ("-": .npy on standard output) */
    bool packed_pixels;    /* run: --packed-pixels (a graphical result as int32 cells, not uint8 RGBA) */
    bool time;             /* run: --time */
    const char *args[GPUC_MAX_ARGS];
    int nargs;
} cli_options;

/* Prints "gpuc: " and the message to stderr; returns CLI_BAD_INPUT (for `return usage_error(...)`). */
int cli_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses the options and positional arguments of `run` (with_run) or `glsl` from argv[0..argc).
 * Returns CLI_OK, or CLI_BAD_INPUT after printing what is wrong. */
int cli_parse(int argc, char **argv, bool with_run, cli_options *o);

/* Reads the kernel file and creates the kernel in a new context. On failure prints the reason and
 * returns CLI_BAD_INPUT (unreadable file) or CLI_FAILED (gpuc's message); *gpu may be set either way
 * and must be closed. compile_ms gets the kernel creation time. */
int cli_make_kernel(const cli_options *o, gpuc **gpu, gpuc_kernel **k, double *compile_ms);

/* Milliseconds on a monotonic clock. */
double cli_now_ms(void);

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_glsl(int argc, char **argv);

/* gpuc_open(gpu, opts), saying why it failed on stderr: CLI_BAD_INPUT for an EGL device index (from
 * --device or GPUC_DEVICE) past the last device, with the list of those there are; CLI_FAILED for a
 * device that is missing or broken. *gpu may be set either way and must be closed. */
int cli_open(const gpuc_options *opts, gpuc **gpu);

#endif
