/* main.c - the gpuc program: dispatches `info`, `run` and `glsl`, and prints the help of each.
 * `gpuc glsl` lives here too: it is the kernel creation `run` does, then one print. */
#include "cli.h"

#include <string.h>

static const char USAGE[] =
    "usage: gpuc COMMAND [options]\n"
    "GPU.js kernels in C, on headless OpenGL 4.3 (gpuc %d.%d.%d).\n"
    "\n"
    "commands:\n"
    "  info [--json]                 the device gpuc opens, its limits, every EGL device seen\n"
    "  run KERNEL [options] ARG...   run a .js (GPU.js) or .glsl kernel file over .npy files and numbers\n"
    "  glsl KERNEL [options]         print the whole GLSL program the kernel runs as\n"
    "\n"
    "`gpuc COMMAND --help` describes each; `man gpuc` has the details.\n"
    "Exit status: 0 done, 1 the device or the kernel failed, 2 bad input.\n";

static const char INFO_HELP[] =
    "usage: gpuc info [--json] [--device D] [--backend compute|fragment]\n"
    "Prints the device gpuc opens (renderer, vendor, GL and GLSL versions, how it was reached), the\n"
    "backend, the limits that shape kernels (loop budget included) and every EGL device seen (each\n"
    "index opened in turn). --json prints the same as one JSON object. With no device, prints why and\n"
    "exits 1. The device and backend default to GPUC_DEVICE and GPUC_BACKEND.\n";

static const char KERNEL_OPTIONS[] =
    "  --output X[,Y[,Z]]       the output size (required): X cells, Y rows, Z slices\n"
    "  --constant NAME=VALUE    a constant (constants.NAME; a whole VALUE is an int); repeatable\n"
    "  --arg-types TYPES        .js only: the parameters' types, e.g. \"float[][],int\"\n"
    "  --loop-max N             GPU.js's loopMaxIterations (default 1000)\n"
    "  --graphical              the kernel paints with color(r, g, b[, a])\n"
    "  --precise-math           .js only: Math.sin/cos/tan within 1 ulp (reduced in double precision)\n"
    "  --backend compute|fragment   (default GPUC_BACKEND, else compute)\n"
    "  --device D               auto, gpu, cpu, llvmpipe or an EGL index (default GPUC_DEVICE, else auto)\n";

static const char RUN_HELP[] =
    "usage: gpuc run KERNEL [options] ARG...\n"
    "Runs KERNEL (.js: GPU.js JavaScript; .glsl: gpuc's GLSL kernel) over its arguments, in parameter\n"
    "order. Each ARG is a NumPy .npy file (- for one read from standard input; float32 or int32;\n"
    "float64, bool and other ints are converted,\n"
    "with a note; 1-3 dimensions in C order, shape outermost first as NumPy writes it, so a (h, w) array\n"
    "is a 2D argument of w x h cells), a .png picture (a vec4 2D argument) or a number (an int where\n"
    "the parameter is an int).\n"
    "options:\n"
    "%s"
    "  --out FILE               write the result: .npy (float32 or int32, NumPy's shape order: (Y, X)\n"
    "                           for a 2D output, a last dimension of N for vecN; a --graphical picture\n"
    "                           as uint8 (height, width, 4), top row first) or .png (--graphical);\n"
    "                           - writes .npy to standard output (not to a terminal). Without --out the\n"
    "                           values are printed: one line per row, a 1D result one cell per line\n"
    "  --packed-pixels          --graphical .npy: the picture as int32 cells (Y, X), r in the low byte\n"
    "  --time                   compile and run apart, in ms on stderr: compile, the first two runs\n"
    "                           (the driver's compile; sizes specialised), upload, run (the third run)\n"
    "                           and read-back (waits for the device to finish)\n"
    "  --max-image-pixels N|none  the most pixels a .png argument may have (default 67108864,\n"
    "                           8192 x 8192; none: the device's limit only)\n"
    "Exit status: 0 done, 1 the device or the kernel failed (gpuc's message), 2 bad input (an\n"
    "argument file that is unreadable, corrupt or over a limit, and a device index past the last,\n"
    "included).\n";

static const char GLSL_HELP[] =
    "usage: gpuc glsl KERNEL [options]\n"
    "Prints the whole GLSL program gpuc makes of KERNEL (.js or .glsl), as GPU.js's toString() gives\n"
    "its shader: the compute program, or the fragment one with --backend fragment.\n"
    "options:\n"
    "%s";

static bool wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
}

int cmd_glsl(int argc, char **argv)
{
    cli_options o;
    int rc = cli_parse(argc, argv, false, &o);
    if (rc != CLI_OK)
        return rc;
    gpuc *gpu = NULL;
    gpuc_kernel *k = NULL;
    double ms;
    rc = cli_make_kernel(&o, &gpu, &k, &ms);
    if (rc == CLI_OK)
        fputs(gpuc_kernel_glsl(k), stdout);
    gpuc_close(gpu);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, USAGE, GPUC_VERSION_MAJOR, GPUC_VERSION_MINOR, GPUC_VERSION_PATCH);
        return CLI_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        printf(USAGE, GPUC_VERSION_MAJOR, GPUC_VERSION_MINOR, GPUC_VERSION_PATCH);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("gpuc %d.%d.%d\n", GPUC_VERSION_MAJOR, GPUC_VERSION_MINOR, GPUC_VERSION_PATCH);
        return CLI_OK;
    }
    int rest = argc - 2;
    char **args = argv + 2;
    bool help = wants_help(rest, args);
    if (!strcmp(cmd, "info")) {
        if (help)
            return fputs(INFO_HELP, stdout), CLI_OK;
        return cmd_info(rest, args);
    }
    if (!strcmp(cmd, "run")) {
        if (help)
            return printf(RUN_HELP, KERNEL_OPTIONS), CLI_OK;
        return cmd_run(rest, args);
    }
    if (!strcmp(cmd, "glsl")) {
        if (help)
            return printf(GLSL_HELP, KERNEL_OPTIONS), CLI_OK;
        return cmd_glsl(rest, args);
    }
    return cli_bad("unknown command \"%s\" (gpuc --help lists them)", cmd);
}
